"""The conformance suite's frame decoder: a stream of frames on stdin, one
JSON line per frame on stdout ({"jtoo": section text or null, "binary":
hex}); exit 1 after the frames before a malformed or truncated one.

    python3 spec-tests/runners/jtoo_spec_tests.py --frame-decoder "python3 -m jtoo.spec_frame_decoder"
"""

import json
import sys

from . import FrameDecoder, FrameError


def main():
    data = sys.stdin.buffer.read()
    decoder = FrameDecoder()
    out = sys.stdout
    try:
        # A byte at a time: every frame before a bad one is printed.
        for i in range(len(data)):
            for frame in decoder.feed(data[i : i + 1]):
                jtoo = frame.jtoo
                line = {"jtoo": jtoo.decode() if jtoo else None, "binary": frame.binary.hex()}
                out.write(json.dumps(line, ensure_ascii=False) + "\n")
        decoder.eof()
    except FrameError as e:
        out.flush()
        print(f"jtoo.spec_frame_decoder: {e}", file=sys.stderr)
        return 1
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
