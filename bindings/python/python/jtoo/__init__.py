"""JTOO for Python, on the Rust core (the conventions of the json module).

Types (loads gives, dumps takes):

===================================  ===========================================
JTOO                                 Python
===================================  ===========================================
string, byte string, Y/N             str, bytes (dumps: also bytearray), bool
integer (up to 2**128-1 either way)  int
decimal (exact)                      decimal.Decimal (dumps: also float, written
                                     as its shortest repr; NaN/inf refused)
date D2024-05-06                     datetime.date
time, date+time, with offset         datetime.time / datetime.datetime (tzinfo
                                     a datetime.timezone), when datetime holds
                                     the value exactly (see below)
any other date/time                  jtoo.DateTime (frozen; fields + text)
timestamp S1_709_528_240.001         jtoo.Timestamp (frozen, exact)
list                                 list (dumps: also tuple)
record (pairs only, distinct         dict, key order kept
string keys)
any other list with pairs            list whose pair items are jtoo.Pair(key, value)
===================================  ===========================================

datetime holds a time exactly when it has whole seconds (precision second) or a
non-zero microsecond count (precision microsecond) and no leap second; a date
when it is year-month-day with year >= 1 and no offset without a time.
dumps writes a datetime with microsecond == 0 at second precision, otherwise at
microsecond precision, so every value round-trips: loads(dumps(x)) == x.
None has no JTOO form: dumps raises TypeError.
"""

from ._errors import DecodeError, FrameError, PacketError, UnsupportedProtocolError
from ._jtoo import (
    GREETING_MAX_LEN,
    UNSUPPORTED_PROTOCOL_REPLY,
    DateTime,
    Frame,
    FrameDecoder,
    Pair,
    Timestamp,
    check_greeting,
    decode_greeting,
    decode_packet,
    dumps,
    encode_frame,
    encode_greeting,
    encode_packet,
    from_json,
    is_unsupported_protocol_reply,
    loads,
    pretty,
    to_json,
)


def load(fp, *, htoo=False):
    """Reads one document from a file object (text or binary)."""
    return loads(fp.read(), htoo=htoo)


def dump(obj, fp, *, default=None):
    """Writes obj's canonical JTOO text to a text file object."""
    fp.write(dumps(obj, default=default))


__all__ = [
    "DateTime",
    "DecodeError",
    "Frame",
    "FrameDecoder",
    "FrameError",
    "GREETING_MAX_LEN",
    "PacketError",
    "Pair",
    "Timestamp",
    "UNSUPPORTED_PROTOCOL_REPLY",
    "UnsupportedProtocolError",
    "check_greeting",
    "decode_greeting",
    "decode_packet",
    "dump",
    "dumps",
    "encode_frame",
    "encode_greeting",
    "encode_packet",
    "from_json",
    "is_unsupported_protocol_reply",
    "load",
    "loads",
    "pretty",
    "to_json",
]
