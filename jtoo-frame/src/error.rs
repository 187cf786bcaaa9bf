//! The error types: [`FrameError`] for the codec, [`HandshakeError`] for the
//! greeting exchange.

use std::fmt;
use std::io;

/// Which section of a frame a length belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    /// The JTOO section.
    Jtoo,
    /// The binary section.
    Binary,
    /// The whole frame (header, both sections, separators and newline).
    Frame,
}

impl fmt::Display for Section {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Section::Jtoo => "JTOO section",
            Section::Binary => "binary section",
            Section::Frame => "frame",
        })
    }
}

/// An error of the frame codec.
///
/// Every error returned by [`FrameCodec`](crate::FrameCodec)'s decoder is
/// fatal: the byte stream has lost (or may have lost) its framing, so the
/// codec refuses to decode anything more from it and answers
/// [`FrameError::Unusable`]. Close the connection. (Tokio-util's `Framed`
/// also ends its stream after the first error.)
#[derive(Debug)]
#[non_exhaustive]
pub enum FrameError {
    /// The 14-byte header is not `hhhhhh hhhhhh ` with lower-case hex digits.
    MalformedHeader(&'static str),
    /// The byte after the JTOO section is not a space, or the byte after the
    /// binary section is not `\n`.
    MalformedFrame(&'static str),
    /// A declared (or, when encoding, an actual) length over the configured
    /// maximum. Decoding rejects it before buffering the section.
    TooLong {
        /// Which length.
        section: Section,
        /// The length declared or given.
        length: usize,
        /// The configured maximum.
        max: usize,
    },
    /// A non-empty JTOO section that is not one valid strict JTOO document.
    InvalidJtoo(jtoo::Error),
    /// The stream ended inside a frame.
    Truncated {
        /// Bytes of the incomplete frame that had arrived.
        buffered: usize,
    },
    /// An earlier decoding error left the stream without reliable framing.
    Unusable,
    /// The first frame a client read after its greeting is the server's
    /// 505 reply (`[["code":505,"error":"unsupported protocol"]]`): the
    /// server does not speak the protocol asked for and has closed the
    /// connection. Only a codec returned by
    /// [`client_handshake`](crate::client_handshake) reports this.
    UnsupportedProtocol,
    /// A [`TypedCodec`](crate::TypedCodec) read a valid frame whose JTOO
    /// section does not fit the message type (a missing field, a wrong
    /// type, no document at all, …). The frame was consumed: framing is
    /// intact and the codec can decode the next frame.
    Decode(jtoo_serde::Error),
    /// A [`TypedCodec`](crate::TypedCodec) for a plain message type read a
    /// frame with a non-empty binary section (use
    /// [`WithBinary`](crate::WithBinary) to receive one). The frame was
    /// consumed; the codec can decode the next frame.
    UnexpectedBinary {
        /// The length of the binary section.
        length: usize,
    },
    /// A value that cannot be serialized as JTOO (`None` outside a field,
    /// NaN, nesting over the depth limit, …); nothing was written.
    Encode(jtoo_serde::Error),
    /// An I/O error of the underlying transport.
    Io(io::Error),
}

impl FrameError {
    /// `true` for errors that come from the peer's bytes (not from I/O, and
    /// not from a value given to the encoder).
    pub fn is_protocol_error(&self) -> bool {
        !matches!(self, FrameError::Io(_) | FrameError::Encode(_))
    }

    /// `true` when the codec can still decode after this error: the
    /// offending frame was well formed and has been consumed
    /// ([`FrameError::Decode`], [`FrameError::UnexpectedBinary`]), or the
    /// error concerns a value to send ([`FrameError::Encode`]). Every other
    /// decoding error leaves the codec [`FrameError::Unusable`]. (An
    /// encoder's [`FrameError::TooLong`] also leaves it usable: nothing was
    /// written.)
    pub fn is_recoverable(&self) -> bool {
        matches!(
            self,
            FrameError::Decode(_) | FrameError::UnexpectedBinary { .. } | FrameError::Encode(_)
        )
    }
}

const UNUSABLE: &str = "the stream is unusable after a malformed frame";

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrameError::MalformedHeader(why) => {
                write!(f, "malformed frame header: {why}; {UNUSABLE}")
            }
            FrameError::MalformedFrame(why) => write!(f, "malformed frame: {why}; {UNUSABLE}"),
            FrameError::TooLong {
                section,
                length,
                max,
            } => write!(
                f,
                "{section} too long: {length} bytes, the maximum is {max}; {UNUSABLE}"
            ),
            FrameError::InvalidJtoo(e) => {
                write!(f, "invalid JTOO section: {e}; {UNUSABLE}")
            }
            FrameError::Truncated { buffered } => write!(
                f,
                "truncated frame: the stream ended after {buffered} bytes of an incomplete frame"
            ),
            FrameError::Unusable => f.write_str(UNUSABLE),
            FrameError::UnsupportedProtocol => f.write_str(
                "the server replied 505: it does not support the protocol of the greeting",
            ),
            FrameError::Decode(e) => write!(f, "the JTOO section does not fit the type: {e}"),
            FrameError::UnexpectedBinary { length } => write!(
                f,
                "unexpected binary section of {length} bytes (receive `WithBinary<T>` to accept one)"
            ),
            FrameError::Encode(e) => write!(f, "cannot encode the value as JTOO: {e}"),
            FrameError::Io(e) => write!(f, "I/O error: {e}"),
        }
    }
}

impl std::error::Error for FrameError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FrameError::InvalidJtoo(e) => Some(e),
            FrameError::Io(e) => Some(e),
            FrameError::Decode(e) | FrameError::Encode(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for FrameError {
    fn from(e: io::Error) -> FrameError {
        FrameError::Io(e)
    }
}

impl From<jtoo::Error> for FrameError {
    fn from(e: jtoo::Error) -> FrameError {
        FrameError::InvalidJtoo(e)
    }
}

/// Why a greeting was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GreetingError {
    /// The frame has no JTOO section.
    Empty,
    /// The JTOO section is neither `[pairs…]` nor `[[pairs…]]`.
    NotAList,
    /// An item that is not a key-value pair.
    NonPairItem,
    /// A key that is not a string.
    NonStringKey,
    /// The same key twice.
    DuplicateKey(String),
    /// No `"protocol"` key.
    MissingProtocol,
    /// A `"protocol"` whose value is not a string.
    ProtocolNotString,
}

impl fmt::Display for GreetingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GreetingError::Empty => f.write_str("the greeting has no JTOO section"),
            GreetingError::NotAList => f.write_str("the greeting is not a list of key-value pairs"),
            GreetingError::NonPairItem => {
                f.write_str("the greeting has an item that is not a pair")
            }
            GreetingError::NonStringKey => {
                f.write_str("the greeting has a key that is not a string")
            }
            GreetingError::DuplicateKey(k) => write!(f, "the greeting has the key {k:?} twice"),
            GreetingError::MissingProtocol => f.write_str("the greeting has no \"protocol\" key"),
            GreetingError::ProtocolNotString => {
                f.write_str("the greeting's \"protocol\" is not a string")
            }
        }
    }
}

impl std::error::Error for GreetingError {}

/// An error of [`client_handshake`](crate::client_handshake) or
/// [`server_handshake`](crate::server_handshake).
#[derive(Debug)]
#[non_exhaustive]
pub enum HandshakeError {
    /// The greeting frame was malformed, over 16 KiB, or the transport failed.
    Frame(FrameError),
    /// The greeting frame was well formed but its content breaks the rules;
    /// the connection was terminated without a reply.
    Greeting(GreetingError),
    /// The peer asked for a protocol this side does not support; the 505
    /// reply was sent and the connection closed.
    UnsupportedProtocol(String),
    /// The peer closed the connection before sending a greeting.
    Closed,
    /// The handshake did not finish within the configured timeout.
    Timeout,
}

impl fmt::Display for HandshakeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HandshakeError::Frame(e) => write!(f, "greeting frame: {e}"),
            HandshakeError::Greeting(e) => write!(f, "{e}; connection terminated"),
            HandshakeError::UnsupportedProtocol(p) => {
                write!(f, "unsupported protocol {p:?}; replied 505 and closed")
            }
            HandshakeError::Closed => f.write_str("the peer closed the connection before greeting"),
            HandshakeError::Timeout => f.write_str("the handshake timed out"),
        }
    }
}

impl std::error::Error for HandshakeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            HandshakeError::Frame(e) => Some(e),
            HandshakeError::Greeting(e) => Some(e),
            _ => None,
        }
    }
}

impl From<FrameError> for HandshakeError {
    fn from(e: FrameError) -> HandshakeError {
        HandshakeError::Frame(e)
    }
}

impl From<GreetingError> for HandshakeError {
    fn from(e: GreetingError) -> HandshakeError {
        HandshakeError::Greeting(e)
    }
}

impl From<io::Error> for HandshakeError {
    fn from(e: io::Error) -> HandshakeError {
        HandshakeError::Frame(FrameError::Io(e))
    }
}
