"""loads/dumps of jtoo against json and orjson on the corpus, in one run.

    python3 bindings/python/bench.py [--rounds N] [--files twitter,citm_catalog,canada]

Each file of testdata/corpus is read as JSON; jtoo works on the same data as
canonical JTOO (jtoo.from_json, then jtoo.dumps). loads parses text to Python
objects (jtoo: exact Decimals; json/orjson: floats); dumps writes those
objects back (json.dumps with its defaults, orjson.dumps to bytes);
"dumps=" has all three write json's objects (floats where jtoo's have
Decimals) with the members whose value is None left out (JTOO has no null). The
libraries run in turn, round after round, and the median of each (CPU time
of the process per call) is shown
with jtoo's ratio to json and to orjson (lower is better; goal <= 1.0x json,
<= 2.0x orjson). orjson is optional (pip install orjson).
"""

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path

import jtoo

try:
    import orjson
except ImportError:  # pragma: no cover
    orjson = None

REPO = Path(__file__).resolve().parent.parent.parent
CORPUS = REPO / "testdata" / "corpus"


# CPU time of this process, not wall time: on a shared machine the wall
# time mostly measures the other processes.
clock = time.process_time


def without_none(v):
    """`v` with the dict members whose value is None left out."""
    if isinstance(v, dict):
        return {k: without_none(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [without_none(x) for x in v]
    return v


def timed(fn, arg, inner):
    start = clock()
    for _ in range(inner):
        fn(arg)
    return (clock() - start) / inner


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=15)
    p.add_argument("--files", default="twitter,citm_catalog,canada")
    args = p.parse_args()

    print(f"python {sys.version.split()[0]}, jtoo {Path(jtoo.__file__).parent}, "
          f"orjson {getattr(orjson, '__version__', 'not installed')}, {args.rounds} rounds")
    print(f"{'file':<14}{'op':<7}{'jtoo ms':>9}{'json ms':>9}{'orjson ms':>10}"
          f"{'/json':>7}{'/orjson':>8}")
    worst = {"json": 0.0, "orjson": 0.0}
    for name in args.files.split(","):
        text = (CORPUS / f"{name}.json").read_text(encoding="utf-8")
        py = json.loads(text)
        plain = without_none(py)
        value = jtoo.from_json(text)
        jtext = jtoo.dumps(value)
        assert jtoo.loads(jtext) == value
        cases = {
            "loads": {"jtoo": (jtoo.loads, jtext), "json": (json.loads, text)},
            "dumps": {"jtoo": (jtoo.dumps, value), "json": (json.dumps, py)},
            # The same objects for all three (json's: floats, not Decimals).
            "dumps=": {"jtoo": (jtoo.dumps, plain), "json": (json.dumps, plain)},
        }
        if orjson is not None:
            cases["loads"]["orjson"] = (orjson.loads, text)
            cases["dumps"]["orjson"] = (orjson.dumps, py)
            cases["dumps="]["orjson"] = (orjson.dumps, plain)
        for op, libs in cases.items():
            # About 0.2 s per library and round at most.
            once = timed(libs["json"][0], libs["json"][1], 1)
            inner = max(2, min(50, int(0.05 / max(once, 1e-6))))
            samples = {lib: [] for lib in libs}
            gc.collect()
            for _ in range(args.rounds):
                for lib, (fn, arg) in libs.items():
                    samples[lib].append(timed(fn, arg, inner))
            med = {lib: statistics.median(s) * 1e3 for lib, s in samples.items()}
            vs_json = med["jtoo"] / med["json"]
            vs_or = med["jtoo"] / med["orjson"] if "orjson" in med else float("nan")
            worst["json"] = max(worst["json"], vs_json)
            if "orjson" in med:
                worst["orjson"] = max(worst["orjson"], vs_or)
            print(f"{name:<14}{op:<7}{med['jtoo']:>9.2f}{med['json']:>9.2f}"
                  f"{med.get('orjson', float('nan')):>10.2f}{vs_json:>6.2f}x{vs_or:>7.2f}x")
    print(f"worst ratio: {worst['json']:.2f}x json, {worst['orjson']:.2f}x orjson")


if __name__ == "__main__":
    main()
