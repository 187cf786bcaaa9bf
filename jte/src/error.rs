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
        }
    }
}

impl std::error::Error for JteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            JteError::Jtoo(e) => Some(e),
            JteError::Json(e) => Some(e),
            JteError::Frame(e) => Some(e),
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

