"""The conformance suite's JTE packet checker: one packet payload on stdin
(JSON when it starts with "{", JTOO otherwise), the packet's canonical JTOO
on stdout; exit 1 for a payload that is no packet.

    python3 spec-tests/runners/jtoo_spec_tests.py --jte-packet "python3 -m jtoo.spec_jte_packet"
"""

import sys

from . import decode_packet, encode_packet


def main():
    data = sys.stdin.buffer.read()
    encoding = "json" if data[:1] == b"{" else "jtoo"
    try:
        out = encode_packet(decode_packet(data, encoding))
    except ValueError as e:
        print(f"jtoo.spec_jte_packet: {e}", file=sys.stderr)
        return 1
    sys.stdout.buffer.write(out)
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
