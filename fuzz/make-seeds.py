#!/usr/bin/env python3
"""Builds the committed seed corpora in fuzz/corpus/ from the spec examples
(spec-tests/cases) and the JTE protocol sample (../shared/corpus/protocols).

Run from the repository root: python3 fuzz/make-seeds.py. Files are named by
the SHA-1 of their content, as libFuzzer does, so re-running is idempotent.
Kept crash inputs (crash-*) are never touched.
"""
import glob, hashlib, json, os, random

CASES = sorted(glob.glob("spec-tests/cases/*"))[-1]
OUT = "fuzz/corpus"
random.seed(7)

def put(target, data, limit=None):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    if limit is not None and len(data) > limit:
        return
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)

def files(pattern):
    return [open(p, "rb").read() for p in sorted(glob.glob(os.path.join(CASES, pattern)))]

def sample(xs, n):
    return xs if len(xs) <= n else random.sample(xs, n)

# jtoo_parse: valid documents (one per production file) and some invalid ones.
for x in sample(files("valid/jtoo/*/*.jtoo"), 120) + sample(files("invalid/jtoo/*/*.jtoo"), 40):
    put("jtoo_parse", x, 4096)

# htoo_parse: valid and invalid HTOO, plus the strict documents (HTOO accepts them).
for x in sample(files("valid/htoo/*/*.htoo"), 100) + sample(files("invalid/htoo/*/*.htoo"), 20) \
        + sample(files("valid/jtoo/document/*.jtoo"), 20):
    put("htoo_parse", x, 4096)

# value_roundtrip: arbitrary bytes drive the generator; the documents make good bytes too.
for x in sample(files("valid/jtoo/*/*.jtoo"), 30):
    put("value_roundtrip", x, 4096)
for n in (8, 32, 128, 512):
    put("value_roundtrip", bytes(random.randrange(256) for _ in range(n)))

# serde_roundtrip: arbitrary bytes drive the derived types.
for n in (16, 64, 256, 1024, 4096):
    for _ in range(3):
        put("serde_roundtrip", bytes(random.randrange(256) for _ in range(n)))

# frame_stream: a control byte (limits and chunking), then frame streams.
frames = files("valid/frame/*.frames") + files("invalid/frame/*.frames")
for i, x in enumerate(frames):
    put("frame_stream", bytes([i % 256]) + x, 8192)

# greeting: control 0 and a greeting frame as it arrives.
for x in files("greeting/*/*.frames"):
    put("greeting", b"\x00" + x, 20000)
put("greeting", b"\x01" + bytes(random.randrange(256) for _ in range(64)))

# jte_osc: terminal output with JTE sequences (JSON and JTOO payloads,
# declared and read-to-BEL lengths) between ordinary escapes and text.
lines = [l for l in open("../shared/corpus/protocols/jte.jsonl", "rb").read().split(b"\n") if l.strip()]
def osc(num, payload, declare):
    n = str(len(payload)).encode() if declare else b"0"
    return b"\x1b]" + num + b";" + n + b";" + payload + b"\x07"
for i, l in enumerate(lines[:12]):
    compact = json.dumps(json.loads(l), separators=(",", ":")).encode()
    seq = osc(b"23198" if i % 2 else b"23199", compact, i % 3 != 0)
    put("jte_osc", bytes([i]) + b"\x1b[31mred\x1b[0m " + seq + b" done\r\n")
put("jte_osc", b"\x00" + osc(b"23198", b'["command":"term:resetstyle"]', True) + b"tail")
put("jte_osc", b"\x01" + osc(b"23199", b'["command":"detect","rpcid":"1"]', False))
put("jte_osc", b"\x02\x1b]23198;5;{}\x07\x1b]2319")

# typed_stream: control byte (bits 0-1 the message type, the rest the
# chunking), then frames of JTOO documents: lists of strings, records,
# valid and invalid documents, a binary section, a truncated tail.
def frame(jtoo, binary=b""):
    return b"%06x %06x " % (len(jtoo), len(binary)) + jtoo + b" " + binary + b"\n"
docs = [b'["a","b\\22c"]', b'[]', b'["x":1,"y":[T10:20,D2023-05-06]]', b'[1,2.5,"s",Y,N]',
        b'["name":"n","flag":Y]', b'["a",', b'["a"] ', b'["k":1,"k":2]', b'"plain"', b'[B00ff]']
for i, d in enumerate(docs):
    for t in range(4):
        put("typed_stream", bytes([t | (i << 2)]) + frame(d) + frame(docs[0]) + frame(d, b"bin"))
for t in range(4):
    put("typed_stream", bytes([t | 0x80]) + frame(b'["a"]') + frame(b"") + frame(b'["b"]')[:-3])
    put("typed_stream", bytes([t]) + b"000000 000000  \n" + b"00000X 000000 ")
for x in sample(files("valid/frame/*.frames"), 20):
    put("typed_stream", bytes([random.randrange(256)]) + x, 8192)
