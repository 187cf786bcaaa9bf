"""Fuzz jtoo.loads (strict and HTOO), from_json and FrameDecoder.feed with atheris.

    pip install atheris
    python3 bindings/python/fuzz/fuzz_loads.py -max_total_time=600 [corpus_dir]

Any bytes must give a value or the package's ValueError subclass
(DecodeError, FrameError); anything else (another exception, a crash, a
hang) is a finding. A value that loads accepts must dump back to the same
canonical text (strict JTOO has one spelling per value).

The extension is not built with coverage instrumentation, so atheris steers
by the Python-level coverage only: for the Rust code this is random input
(the Rust parser has its own coverage-guided cargo-fuzz targets in fuzz/).
To reach deep into the grammar anyway, half of the inputs are a conformance
case (spec-tests/cases, chosen by two input bytes) with byte edits taken from
the rest of the input: near-valid documents of every type.
"""

import sys
from pathlib import Path

import atheris

with atheris.instrument_imports():
    import jtoo


CASES = Path(__file__).resolve().parents[3] / "spec-tests" / "cases"
SEEDS = sorted(
    p.read_bytes() for p in CASES.rglob("*") if p.suffix in (".jtoo", ".htoo") and p.stat().st_size < 8192
)


@atheris.instrument_func
def mutate(seed: bytes, edits: bytes) -> bytes:
    """Applies (position, op, byte) triples: overwrite, insert or delete."""
    doc = bytearray(seed)
    for i in range(0, len(edits) - 2, 3):
        pos = edits[i] % (len(doc) + 1)
        op, b = edits[i + 1] % 3, edits[i + 2]
        if op == 0 and pos < len(doc):
            doc[pos] = b
        elif op == 1:
            doc.insert(pos, b)
        elif pos < len(doc):
            del doc[pos]
    return bytes(doc)


@atheris.instrument_func
def classify(outcome) -> int:
    """Python-level branches per outcome, so that atheris keeps inputs that
    reach new kinds of values or errors (its only coverage signal here)."""
    if isinstance(outcome, Exception):
        msg = str(outcome)
        for i, word in enumerate(("expected", "invalid", "escape", "depth", "deep", "UTF-8",
                                  "date", "time", "offset", "number", "range", "digit",
                                  "key", "byte", "comment", "frame", "section", "length")):
            if word in msg:
                return i
        return -1
    kinds = 0
    for t, bit in ((dict, 1), (list, 2), (str, 4), (bytes, 8), (int, 16), (bool, 32),
                   (jtoo.DateTime, 64), (jtoo.Timestamp, 128)):
        if isinstance(outcome, t):
            kinds |= bit
    if isinstance(outcome, (list, dict)) and len(outcome) > 1:
        first = next(iter(outcome.values() if isinstance(outcome, dict) else outcome))
        kinds |= 256 if isinstance(first, (list, dict)) else 512
    return kinds


@atheris.instrument_func
def test_one_input(data: bytes):
    if not data:
        return
    mode, body = data[0] % 4, data[1:]
    if data[0] & 4 and SEEDS and len(body) >= 2:
        body = mutate(SEEDS[(body[0] << 8 | body[1]) % len(SEEDS)], body[2:])
    try:
        if mode == 0:
            value = jtoo.loads(body)
            if jtoo.dumps(value).encode() != body:
                raise AssertionError(f"not canonical after a round trip: {body!r}")
        elif mode == 1:
            value = jtoo.loads(body, htoo=True)
            if jtoo.loads(jtoo.dumps(value)) != value:
                raise AssertionError(f"HTOO value does not round-trip: {body!r}")
        elif mode == 2:
            value = jtoo.from_json(body)
        else:
            decoder = jtoo.FrameDecoder(max_jtoo_len=4096, max_binary_len=4096)
            value = [frame.value() for frame in decoder.feed(body)]
    except (jtoo.DecodeError, jtoo.FrameError) as e:
        value = e
    classify(value)


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
