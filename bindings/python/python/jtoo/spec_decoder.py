"""The conformance suite's decoder: one document on stdin (exact bytes),
its tagged JSON on stdout; exit 1 with a message on stderr when invalid.

    python3 spec-tests/runners/jtoo_spec_tests.py --decoder "python3 -m jtoo.spec_decoder"
    (--htoo: the runner adds --htoo to the command for HTOO cases)

The mapping is the Rust one (jtoo::json::tagged), shared with `jtoo decode`.
"""

import sys

from . import DecodeError
from ._jtoo import _to_tagged


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    htoo = "--htoo" in args
    data = sys.stdin.buffer.read()
    try:
        out = _to_tagged(data, htoo=htoo)
    except DecodeError as e:
        print(f"jtoo.spec_decoder: {e}", file=sys.stderr)
        return 1
    sys.stdout.write(out + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
