#!/usr/bin/env python3
"""An independent frame decoder and greeting checker in Python, written to
cross-check the frame and greeting cases (and as an example of an external
program speaking the runner's protocols). It validates each JTOO section with
`$JTOO_BIN decode` (default `jtoo`).

    spec-tests --frame-decoder "python3 tools/example_frame_checker.py decode" \
               --greeting-checker "python3 tools/example_frame_checker.py greet"
"""
import json
import os
import re
import subprocess
import sys

JTOO = os.environ.get("JTOO_BIN", "jtoo")
def valid_jtoo(b):
    return subprocess.run([JTOO, "decode"], input=b, capture_output=True).returncode == 0
def frames(data):
    """yields (jtoo, binary) or raises ValueError"""
    i = 0
    while i < len(data):
        h = data[i:i+14]
        if len(h) < 14 or not re.fullmatch(rb"[0-9a-f]{6} [0-9a-f]{6} ", h):
            raise ValueError("bad header")
        jl, bl = int(h[:6], 16), int(h[7:13], 16)
        j = data[i+14:i+14+jl]
        if len(j) < jl: raise ValueError("truncated")
        p = i+14+jl
        if data[p:p+1] != b" ": raise ValueError("sep")
        bi = data[p+1:p+1+bl]
        if len(bi) < bl: raise ValueError("truncated")
        if data[p+1+bl:p+2+bl] != b"\n": raise ValueError("newline")
        if jl and not valid_jtoo(j): raise ValueError("jtoo")
        yield (j, bi, p+2+bl-i)
        i = p+2+bl
def main():
    data = sys.stdin.buffer.read()
    mode = sys.argv[1]
    if mode == "decode":
        try:
            for j, b, _ in frames(data):
                print(json.dumps({"jtoo": j.decode() if j else None, "binary": b.hex()}), flush=True)
        except ValueError:
            sys.exit(1)
    else:
        protos = set(open(os.environ["JTOO_PROTOCOLS_FILE"]).read().split())
        try:
            it = frames(data)
            j, b, size = next(it)
        except (ValueError, StopIteration):
            sys.exit(1)
        if size > 16384 or not j: sys.exit(1)
        v = json.loads(subprocess.run([JTOO, "decode"], input=j, capture_output=True).stdout)
        if isinstance(v, list) and len(v) == 1 and isinstance(v[0], list): v = v[0]
        if not isinstance(v, list): sys.exit(1)
        keys = {}
        for it in v:
            if not (isinstance(it, dict) and "key" in it): sys.exit(1)
            k = it["key"]
            if not (isinstance(k, dict) and k.get("type") == "string"): sys.exit(1)
            if k["value"] in keys: sys.exit(1)
            keys[k["value"]] = it["value"]
        p = keys.get("protocol")
        if not (isinstance(p, dict) and p.get("type") == "string"): sys.exit(1)
        if p["value"] not in protos:
            sys.stdout.buffer.write(b'00002d 000000 [["code":505,"error":"unsupported protocol"]] \n'); sys.exit(1)
        sys.exit(0)
main()
