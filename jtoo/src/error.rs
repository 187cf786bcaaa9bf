//! The one public error type of this crate.
//!
//! Parsing errors carry a byte offset into the input, plus the 1-based line
//! and column computed from it when the error is made (never on the happy
//! path). Columns count Unicode scalar values, not bytes, so a caret drawn
//! under the column lines up in a terminal.

use std::fmt;

/// What went wrong. Messages read as "what was expected"; see [`Error`]'s
/// `Display` for the full text with the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended where more was required.
    UnexpectedEnd,
    /// The input ended inside a string that started at the error position.
    UnclosedString,
    /// The input ended inside a list that started at the error position.
    UnclosedList,
    /// The input ended inside a `/* … */` comment that started at the error position (HTOO).
    UnclosedComment,
    /// A `/` that does not start a comment (HTOO).
    InvalidComment(&'static str),
    /// A value was expected (a string, number, `[`, …).
    ExpectedValue,
    /// Inside a list after an item, `,` or `]` was expected.
    ExpectedCommaOrEnd,
    /// The document ended but more bytes follow.
    TrailingCharacters,
    /// Lists nested deeper than the configured limit.
    DepthLimitExceeded,
    /// A value to write or convert nests lists deeper than this limit:
    /// writers refuse what a reader with that limit could not read back.
    TooDeep(usize),
    /// A byte that may not appear raw in a string (control code, `\`, …).
    InvalidString(&'static str),
    /// An escape sequence that is not allowed.
    InvalidEscape(&'static str),
    /// The input is not valid UTF-8.
    InvalidUtf8,
    /// A byte string that is not an even run of lower-case hex digits.
    InvalidBytes(&'static str),
    /// A malformed integer.
    InvalidInteger(&'static str),
    /// A malformed decimal.
    InvalidDecimal(&'static str),
    /// A number outside what the value model holds.
    NumberOutOfRange(&'static str),
    /// A malformed or impossible date.
    InvalidDate(&'static str),
    /// A malformed or impossible time.
    InvalidTime(&'static str),
    /// A malformed offset.
    InvalidOffset(&'static str),
    /// A malformed or out-of-range timestamp.
    InvalidTimestamp(&'static str),
    /// A pair key that has no unambiguous spelling (a time of hour or minute
    /// precision without an offset, followed by `:`).
    AmbiguousKey,
    /// A value that cannot be encoded (for example a non-finite float).
    Unencodable(&'static str),
    /// An I/O error while writing or reading (message only; see the source).
    Io,
    /// A single value (a string, a byte string, a run of whitespace, …)
    /// longer than a streaming reader's limit, in bytes (see
    /// `jtoo::stream::Reader::with_max_token`).
    TokenTooLong(usize),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ErrorKind::*;
        match self {
            UnexpectedEnd => f.write_str("unexpected end of input"),
            UnclosedString => f.write_str("unclosed string: expected `\"` before end of input"),
            UnclosedList => f.write_str("unclosed list: expected `]` before end of input"),
            UnclosedComment => f.write_str("unclosed comment: expected `*/` before end of input"),
            InvalidComment(why) => write!(f, "invalid comment: {why}"),
            ExpectedValue => f.write_str("expected a value"),
            ExpectedCommaOrEnd => f.write_str("expected `,` or `]`"),
            TrailingCharacters => f.write_str("trailing characters after the document"),
            DepthLimitExceeded => f.write_str("lists nested too deeply"),
            TooDeep(limit) => write!(
                f,
                "lists nested too deeply: more than {limit} levels (the depth limit)"
            ),
            InvalidString(why) => write!(f, "invalid string: {why}"),
            InvalidEscape(why) => write!(f, "invalid escape: {why}"),
            InvalidUtf8 => f.write_str("invalid UTF-8"),
            InvalidBytes(why) => write!(f, "invalid byte string: {why}"),
            InvalidInteger(why) => write!(f, "invalid integer: {why}"),
            InvalidDecimal(why) => write!(f, "invalid decimal: {why}"),
            NumberOutOfRange(why) => write!(f, "number out of range: {why}"),
            InvalidDate(why) => write!(f, "invalid date: {why}"),
            InvalidTime(why) => write!(f, "invalid time: {why}"),
            InvalidOffset(why) => write!(f, "invalid offset: {why}"),
            InvalidTimestamp(why) => write!(f, "invalid timestamp: {why}"),
            AmbiguousKey => f.write_str(
                "ambiguous key: a time of hour or minute precision without an offset cannot be a pair key",
            ),
            Unencodable(why) => write!(f, "cannot encode: {why}"),
            Io => f.write_str("I/O error"),
            TokenTooLong(limit) => write!(
                f,
                "value too long: more than {limit} bytes in one string, number or run of whitespace (the reader's limit)"
            ),
        }
    }
}

/// Where an error happened in the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Byte offset from the start of the input (0-based).
    pub offset: usize,
    /// Line number (1-based). Lines end at `\n`.
    pub line: usize,
    /// Column (1-based), counted in Unicode scalar values.
    pub column: usize,
}

impl Position {
    /// Computes the line and column of byte `offset` in `input`.
    ///
    /// An offset past the end is clamped to the end. Invalid UTF-8 bytes each
    /// count as one column.
    ///
    /// ```
    /// let p = jtoo::Position::of(b"[1,\n 2x]", 6);
    /// assert_eq!((p.line, p.column), (2, 3));
    /// ```
    pub fn of(input: &[u8], offset: usize) -> Position {
        let offset = offset.min(input.len());
        let before = &input[..offset];
        let line_start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
        let line = 1 + memchr::memchr_iter(b'\n', before).count();
        // Count code points: every byte that is not a UTF-8 continuation byte.
        let column = 1 + before[line_start..]
            .iter()
            .filter(|&&b| (b as i8) >= -0x40)
            .count();
        Position {
            offset,
            line,
            column,
        }
    }
}

#[derive(Debug)]
struct Inner {
    kind: ErrorKind,
    position: Option<Position>,
    io: Option<std::io::Error>,
}

/// The error type of every fallible operation in this crate.
///
/// Parse errors have a [`Position`]; errors building or encoding values do
/// not.
///
/// ```
/// let err = jtoo::from_str("[1,2x]").unwrap_err();
/// assert_eq!(err.to_string(), "expected `,` or `]` at line 1 column 5");
/// assert_eq!((err.line(), err.column(), err.offset()), (1, 5, 4));
/// ```
pub struct Error(Box<Inner>);

impl Error {
    /// An error without a position.
    pub fn new(kind: ErrorKind) -> Error {
        Error(Box::new(Inner {
            kind,
            position: None,
            io: None,
        }))
    }

    /// An error at byte `offset` of `input` (line and column are computed now).
    pub fn at(kind: ErrorKind, input: &[u8], offset: usize) -> Error {
        Error(Box::new(Inner {
            kind,
            position: Some(Position::of(input, offset)),
            io: None,
        }))
    }

    /// An error at a position computed elsewhere (by a streaming reader
    /// that no longer holds the bytes before it, or to show an error
    /// against part of its input).
    ///
    /// ```
    /// use jtoo::{Error, ErrorKind, Position};
    /// let p = Position { offset: 70_000, line: 900, column: 4 };
    /// let err = Error::at_position(ErrorKind::ExpectedValue, p);
    /// assert_eq!(err.to_string(), "expected a value at line 900 column 4");
    /// ```
    pub fn at_position(kind: ErrorKind, position: Position) -> Error {
        Error(Box::new(Inner {
            kind,
            position: Some(position),
            io: None,
        }))
    }

    /// What went wrong.
    pub fn kind(&self) -> ErrorKind {
        self.0.kind
    }

    /// Where it went wrong, for parse errors.
    pub fn position(&self) -> Option<Position> {
        self.0.position
    }

    /// Byte offset of the error (0 when there is no position).
    pub fn offset(&self) -> usize {
        self.0.position.map_or(0, |p| p.offset)
    }

    /// 1-based line of the error (0 when there is no position).
    pub fn line(&self) -> usize {
        self.0.position.map_or(0, |p| p.line)
    }

    /// 1-based column of the error (0 when there is no position).
    pub fn column(&self) -> usize {
        self.0.position.map_or(0, |p| p.column)
    }

    /// The message without the position, e.g. ``expected `,` or `]` ``.
    pub fn message(&self) -> String {
        match &self.0.io {
            Some(io) => format!("I/O error: {io}"),
            None => self.0.kind.to_string(),
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(io: std::io::Error) -> Error {
        Error(Box::new(Inner {
            kind: ErrorKind::Io,
            position: None,
            io: Some(io),
        }))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0.io {
            Some(io) => write!(f, "I/O error: {io}")?,
            None => fmt::Display::fmt(&self.0.kind, f)?,
        }
        if let Some(p) = self.0.position {
            write!(f, " at line {} column {}", p.line, p.column)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.position {
            Some(p) => write!(
                f,
                "Error({:?}, line: {}, column: {}, offset: {})",
                self.0.kind, p.line, p.column, p.offset
            ),
            None => write!(f, "Error({:?})", self.0.kind),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0
            .io
            .as_ref()
            .map(|e| e as &(dyn std::error::Error + 'static))
    }
}

/// Shorthand for `Result<T, jtoo::Error>`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_edges() {
        assert_eq!(
            Position::of(b"", 0),
            Position {
                offset: 0,
                line: 1,
                column: 1
            }
        );
        let p = Position::of(b"ab\ncd", 5);
        assert_eq!((p.line, p.column), (2, 3));
        let p = Position::of(b"ab\n", 3);
        assert_eq!((p.line, p.column), (2, 1));
        // Past the end clamps.
        assert_eq!(Position::of(b"ab", 10).offset, 2);
        // Multi-byte characters count once.
        let p = Position::of("\"你好\"x".as_bytes(), 8);
        assert_eq!(p.column, 5);
    }
}
