"""The conformance suite's encoder: tagged JSON on stdin, the exact canonical
JTOO bytes on stdout (no final newline); exit 1 with a message on stderr
when the input is not valid tagged JSON or cannot be encoded.

    python3 spec-tests/runners/jtoo_spec_tests.py --encoder "python3 -m jtoo.spec_encoder"

The mapping is the Rust one (jtoo::json::tagged), shared with `jtoo encode`.
"""

import sys

from ._jtoo import _from_tagged


def main():
    data = sys.stdin.buffer.read()
    try:
        out = _from_tagged(data)
    except ValueError as e:
        print(f"jtoo.spec_encoder: {e}", file=sys.stderr)
        return 1
    sys.stdout.buffer.write(out)
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
