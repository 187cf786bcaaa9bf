//! [`JteError`], the error of reading and writing packets, and
//! [`ErrorCode`], the `EC…: message` convention of the `error` field.

use jtoo_frame::FrameError;
use std::fmt;

/// An error reading or writing a JTE packet.
#[derive(Debug)]
#[non_exhaustive]
pub enum JteError {
    /// Invalid JTOO, or a value that cannot be encoded.
    Jtoo(jtoo::Error),
    /// Invalid JSON.
    Json(serde_json::Error),
    /// The payload is not a list of pairs with string keys (a JSON object).
    NotARecord,
    /// A field appears twice.
    DuplicateKey(String),
    /// A field has the wrong type.
    InvalidField {
        /// The field.
        field: &'static str,
        /// What it should be.
        expected: &'static str,
    },
    /// An OSC payload that starts with neither `{` (JSON) nor `[` (JTOO).
    UnknownPayload,
    /// The server answered the greeting with the 505 reply: it does not
    /// speak `jte/1`.
    UnsupportedProtocol,
    /// An OSC sequence whose declared or actual payload is over the limit.
    TooLong {
        /// The declared length; for `num-bytes` 0, `max + 1`.
        length: usize,
        /// The limit.
        max: usize,
    },
    /// An OSC sequence whose payload is not followed by BEL where
    /// `num-bytes` says it ends.
    LengthMismatch,
    /// An OSC sequence with `num-bytes` 0 interrupted by `ESC` before its
    /// BEL.
    Unterminated,
    /// A frame error (socket transport).
    Frame(FrameError),
    /// A packet whose `data` cannot be written in JTOO.
    Encode(jtoo_serde::Error),
}

impl fmt::Display for JteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JteError::Jtoo(e) => write!(f, "JTE packet: {e}"),
            JteError::Json(e) => write!(f, "JTE packet: invalid JSON: {e}"),
            JteError::NotARecord => {
                f.write_str("JTE packet: expected an object (a list of pairs with string keys)")
            }
            JteError::DuplicateKey(k) => write!(f, "JTE packet: duplicate key {k:?}"),
            JteError::InvalidField { field, expected } => {
                write!(f, "JTE packet: `{field}` must be {expected}")
            }
            JteError::UnsupportedProtocol => f.write_str(
                "the server does not speak jte/1 (it answered 505, unsupported protocol)",
            ),
            JteError::UnknownPayload => {
                f.write_str("JTE payload must start with `{` (JSON) or `[` (JTOO)")
            }
            JteError::TooLong { length, max } => {
                write!(
                    f,
                    "JTE payload too long: {length} bytes, the maximum is {max}"
                )
            }
            JteError::LengthMismatch => {
                f.write_str("JTE payload is not followed by BEL where num-bytes says it ends")
            }
            JteError::Unterminated => f.write_str("JTE sequence interrupted by ESC before its BEL"),
            JteError::Frame(e) => write!(f, "{e}"),
            JteError::Encode(e) => write!(f, "JTE packet: {e}"),
        }
    }
}

impl std::error::Error for JteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            JteError::Jtoo(e) => Some(e),
            JteError::Json(e) => Some(e),
            JteError::Frame(e) => Some(e),
            JteError::Encode(e) => Some(e),
            _ => None,
        }
    }
}

impl From<jtoo::Error> for JteError {
    fn from(e: jtoo::Error) -> JteError {
        JteError::Jtoo(e)
    }
}

impl From<FrameError> for JteError {
    fn from(e: FrameError) -> JteError {
        match e {
            FrameError::InvalidJtoo(e) => JteError::Jtoo(e),
            e => JteError::Frame(e),
        }
    }
}

impl From<std::io::Error> for JteError {
    fn from(e: std::io::Error) -> JteError {
        JteError::Frame(FrameError::Io(e))
    }
}

/// An error code in a packet's `error` field: `"EC" + [A-Z0-9]+`, then the
/// end of the string or `:` and a message.
///
/// ```
/// use jte::ErrorCode;
/// let e = ErrorCode::parse("ECTIMEOUT: Request timed out").unwrap();
/// assert_eq!((e.code, e.message), ("TIMEOUT", "Request timed out"));
/// assert_eq!(e.to_string(), "ECTIMEOUT: Request timed out");
/// assert!(ErrorCode::parse("timed out").is_none());
/// assert!(ErrorCode::parse("ECtimeout").is_none());
/// assert_eq!(ErrorCode::new("E404", "not found").unwrap().to_string(), "ECE404: not found");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ErrorCode<'a> {
    /// The code without the `EC` prefix (`TIMEOUT`).
    pub code: &'a str,
    /// The message after `:` with leading spaces removed (may be empty).
    pub message: &'a str,
}

impl<'a> ErrorCode<'a> {
    /// An error code, if `code` is one or more of `A`–`Z`, `0`–`9`.
    pub fn new(code: &'a str, message: &'a str) -> Option<ErrorCode<'a>> {
        is_code(code).then_some(ErrorCode { code, message })
    }

    /// Reads the convention from an `error` string.
    pub fn parse(error: &'a str) -> Option<ErrorCode<'a>> {
        let rest = error.strip_prefix("EC")?;
        let end = rest
            .bytes()
            .position(|b| !(b.is_ascii_uppercase() || b.is_ascii_digit()))
            .unwrap_or(rest.len());
        let (code, tail) = rest.split_at(end);
        if code.is_empty() {
            return None;
        }
        let message = match tail.strip_prefix(':') {
            Some(m) => m.trim_start_matches(' '),
            None if tail.is_empty() => "",
            None => return None,
        };
        Some(ErrorCode { code, message })
    }
}

fn is_code(code: &str) -> bool {
    !code.is_empty()
        && code
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
}

impl fmt::Display for ErrorCode<'_> {
    /// `EC<code>: <message>`, or `EC<code>` when the message is empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.message.is_empty() {
            write!(f, "EC{}", self.code)
        } else {
            write!(f, "EC{}: {}", self.code, self.message)
        }
    }
}

/// An error answered by the other side of a call (its `error` field), or
/// one this side answers: the `EC…: message` convention with the code
/// split out.
///
/// ```
/// use jte::RpcError;
/// let e = RpcError::parse("ECTIMEOUT: Request timed out");
/// assert_eq!(e.code.as_deref(), Some("TIMEOUT"));
/// assert_eq!(e.message, "Request timed out");
/// assert_eq!(e.to_string(), "ECTIMEOUT: Request timed out");
/// let plain = RpcError::parse("disk full");
/// assert_eq!((plain.code, plain.message.as_str()), (None, "disk full"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RpcError {
    /// The code without its `EC` prefix (`TIMEOUT`), when the text follows
    /// the convention.
    pub code: Option<String>,
    /// The message (the whole text when there is no code).
    pub message: String,
}

impl RpcError {
    /// The code of a call that ran out of time.
    pub const TIMEOUT: &'static str = "TIMEOUT";
    /// The code of a command the peer has no handler for.
    pub const UNKNOWN: &'static str = "UNKNOWN";
    /// The code of a command the peer's policy refuses.
    pub const DENIED: &'static str = "DENIED";
    /// The code of a call refused because too many are in flight.
    pub const BUSY: &'static str = "BUSY";
    /// The code of a request whose data does not fit the handler's type,
    /// or of a packet that could not be read.
    pub const INVALID: &'static str = "INVALID";
    /// The code of a stream whose reader fell too far behind.
    pub const OVERFLOW: &'static str = "OVERFLOW";
    /// The code of a request whose `rpcid` is already in flight.
    pub const DUPLICATE: &'static str = "DUPLICATE";
    /// The code of a packet over the size limit (a request before it is
    /// sent, an answer in place of the answer).
    pub const TOOLARGE: &'static str = "TOOLARGE";

    /// An error with a code. The code may be given with or without its `EC`
    /// prefix, as it reads on the wire (`ECOVERFLOW`) or as the constants
    /// of this type spell it (`OVERFLOW`): a leading `EC` followed by a
    /// code is taken as the prefix, as [`RpcError::parse`] reads it (so a
    /// code that itself starts with `EC` is written with its prefix:
    /// `ECECHO`). A code that is not `[A-Z0-9]+` is left out (and kept in
    /// the message), so the result always reads back the same.
    ///
    /// ```
    /// use jte::RpcError;
    /// assert_eq!(RpcError::new("NOTFOUND", "no such file").to_string(), "ECNOTFOUND: no such file");
    /// assert_eq!(RpcError::new("ECOVERFLOW", "behind").to_string(), "ECOVERFLOW: behind");
    /// assert_eq!(RpcError::new("ECOVERFLOW", "behind"), RpcError::new(RpcError::OVERFLOW, "behind"));
    /// assert_eq!(RpcError::new("not a code", "oops").to_string(), "not a code: oops");
    /// ```
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> RpcError {
        let mut code = code.into();
        let message = message.into();
        if let Some(bare) = code.strip_prefix("EC")
            && is_code(bare)
        {
            code = bare.to_owned();
        }
        if is_code(&code) {
            RpcError {
                code: Some(code),
                message,
            }
        } else {
            RpcError {
                code: None,
                message: format!("{code}: {message}"),
            }
        }
    }

    /// An error without a code. A message that itself reads as `EC…: …`
    /// keeps that code (the text on the wire is all there is).
    pub fn message(message: impl Into<String>) -> RpcError {
        RpcError::parse(&message.into())
    }

    /// Reads an `error` field.
    pub fn parse(error: &str) -> RpcError {
        match ErrorCode::parse(error) {
            Some(e) => RpcError {
                code: Some(e.code.to_owned()),
                message: e.message.to_owned(),
            },
            None => RpcError {
                code: None,
                message: error.to_owned(),
            },
        }
    }

    /// `true` when the code is `code`, given with or without its `EC`
    /// prefix as for [`RpcError::new`].
    ///
    /// ```
    /// let e = jte::RpcError::parse("ECTIMEOUT: too slow");
    /// assert!(e.is(jte::RpcError::TIMEOUT) && e.is("ECTIMEOUT"));
    /// ```
    pub fn is(&self, code: &str) -> bool {
        let bare = code.strip_prefix("EC").filter(|b| is_code(b));
        self.code
            .as_deref()
            .is_some_and(|c| c == code || Some(c) == bare)
    }
}

impl fmt::Display for RpcError {
    /// The text of the `error` field: `EC<code>: <message>`, or the message.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.code {
            Some(code) => ErrorCode {
                code,
                message: &self.message,
            }
            .fmt(f),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for RpcError {}

/// Why a call failed: the other side answered an error (or the call timed
/// out), the connection is gone, or the data did not fit the types.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Error {
    /// An error answered by the other side, or this side's `ECTIMEOUT` /
    /// `ECOVERFLOW` for a call it gave up on.
    Rpc(RpcError),
    /// The connection is closed or failed; the text says why. Every call
    /// pending at that moment ends with this error.
    Closed(std::sync::Arc<str>),
    /// The request could not be encoded, or a response's data does not fit
    /// the type asked for.
    Data(std::sync::Arc<str>),
}

impl Error {
    /// The remote error code (`TIMEOUT`, `UNKNOWN`, …), if this is one.
    pub fn code(&self) -> Option<&str> {
        match self {
            Error::Rpc(e) => e.code.as_deref(),
            _ => None,
        }
    }

    /// `true` for a transport failure (as opposed to an answer).
    pub fn is_closed(&self) -> bool {
        matches!(self, Error::Closed(_))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Rpc(e) => write!(f, "remote error: {e}"),
            Error::Closed(why) => write!(f, "JTE connection closed: {why}"),
            Error::Data(why) => write!(f, "JTE data: {why}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Rpc(e) => Some(e),
            _ => None,
        }
    }
}

impl From<RpcError> for Error {
    fn from(e: RpcError) -> Error {
        Error::Rpc(e)
    }
}
