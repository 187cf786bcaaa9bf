"""The package's exception classes (raised by the Rust extension)."""


class DecodeError(ValueError):
    """A document that is not valid JTOO (or HTOO, or JSON for from_json).

    Like json.JSONDecodeError: ``msg`` (the message without position),
    ``doc`` (the str or bytes given), ``pos`` (index into ``doc``: characters
    for a str, bytes for bytes), ``lineno`` and ``colno`` (1-based; columns
    count characters).
    """

    def __init__(self, msg, doc, pos, lineno=None, colno=None):
        if lineno is None or colno is None:
            nl = "\n" if isinstance(doc, str) else b"\n"
            lineno = doc.count(nl, 0, pos) + 1
            colno = pos - (doc.rfind(nl, 0, pos) + 1) + 1
        super().__init__(f"{msg}: line {lineno} column {colno} (char {pos})")
        self.msg = msg
        self.doc = doc
        self.pos = pos
        self.lineno = lineno
        self.colno = colno

    def __reduce__(self):
        return self.__class__, (self.msg, self.doc, self.pos, self.lineno, self.colno)


class FrameError(ValueError):
    """A malformed frame or greeting (the message says which rule failed)."""


class PacketError(ValueError):
    """A JTE packet that cannot be read or written."""


class UnsupportedProtocolError(FrameError):
    """A valid greeting for a protocol this side does not speak (raised by
    ``check_greeting``): write ``UNSUPPORTED_PROTOCOL_REPLY``, then close.
    ``protocol`` is the protocol asked for."""

    def __init__(self, protocol):
        super().__init__(f"unsupported protocol {protocol!r}")
        self.protocol = protocol

    def __reduce__(self):
        return self.__class__, (self.protocol,)
