"""The conformance suite's JSON-to-JTOO converter: one JSON document on
stdin, its canonical JTOO on stdout (jtoo.dumps(jtoo.from_json(...)));
exit 1 for JSON with no JTOO form.

    python3 spec-tests/runners/jtoo_spec_tests.py --from-json "python3 -m jtoo.spec_from_json"
"""

import sys

from . import dumps, from_json


def main():
    data = sys.stdin.buffer.read()
    try:
        out = dumps(from_json(data))
    except ValueError as e:
        print(f"jtoo.spec_from_json: {e}", file=sys.stderr)
        return 1
    sys.stdout.write(out)
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
