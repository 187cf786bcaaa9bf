//! The one error type of this crate.

use std::fmt::{self, Display};

/// One step of the path to the value an error is about.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Segment {
    /// A struct field or a map entry with a string key: `.name`.
    Key(String),
    /// A map entry whose key is not a string, as its JTOO text: `[D2023]`.
    OtherKey(String),
    /// A sequence element: `[3]`.
    Index(usize),
}

/// What kind of error this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Category {
    /// The input is not valid JTOO (or HTOO); see [`Error::syntax_kind`].
    Syntax,
    /// The input is valid but does not fit the Rust type (missing field,
    /// wrong type, number out of range, …), or a value cannot be serialized.
    Data,
    /// Reading or writing failed.
    Io,
}

#[derive(Debug)]
enum Kind {
    Syntax(jtoo::Error),
    Message(String),
    Io(std::io::Error),
}

#[derive(Debug)]
struct Inner {
    kind: Kind,
    position: Option<jtoo::Position>,
    /// Innermost first.
    path: Vec<Segment>,
}

/// Any error of serializing or deserializing.
///
/// Syntax errors have a line and column; data errors also have the path to
/// the value they concern (innermost field last), shown before the message
/// like `serde_path_to_error` does:
///
/// ```
/// #[derive(serde::Deserialize, Debug)]
/// struct User { id: u8 }
/// #[derive(serde::Deserialize, Debug)]
/// struct Doc { users: Vec<User> }
/// let err = jtoo_serde::from_str::<Doc>(r#"["users":[["id":1],["id":300]]]"#).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "users[1].id: invalid value: integer `300`, expected u8 at line 1 column 26"
/// );
/// assert_eq!((err.line(), err.column()), (1, 26));
/// assert_eq!(err.path(), "users[1].id");
/// ```
pub struct Error(Box<Inner>);

impl Error {
    fn new(kind: Kind) -> Error {
        Error(Box::new(Inner {
            kind,
            position: None,
            path: Vec::new(),
        }))
    }

    /// A data error with this message (what `serde::de::Error::custom` makes).
    pub fn message(msg: impl Display) -> Error {
        Error::new(Kind::Message(msg.to_string()))
    }

    pub(crate) fn syntax(e: jtoo::Error) -> Error {
        let position = e.position();
        let mut err = Error::new(Kind::Syntax(e));
        err.0.position = position;
        err
    }

    pub(crate) fn from_jtoo(e: jtoo::Error) -> Error {
        if e.position().is_some() {
            Error::syntax(e)
        } else {
            Error::message(e.message())
        }
    }

    pub(crate) fn no_null() -> Error {
        Error::message(
            "JTOO has no null: `None` and `()` can only be left out (as a struct field or map value)",
        )
    }

    /// Gives a position to an error that has none yet.
    #[cold]
    pub(crate) fn at(mut self, input: &[u8], offset: usize) -> Error {
        if self.0.position.is_none() && !matches!(self.0.kind, Kind::Io(_)) {
            self.0.position = Some(jtoo::Position::of(input, offset));
        }
        self
    }

    /// [`Error::at`] with a position computed elsewhere (by the stream
    /// reader, which no longer holds the bytes before it).
    #[cold]
    pub(crate) fn at_position(mut self, position: jtoo::Position) -> Error {
        if self.0.position.is_none() && !matches!(self.0.kind, Kind::Io(_)) {
            self.0.position = Some(position);
        }
        self
    }

    /// An error found in a part of the input that starts at `base` (a
    /// value read whole from a stream's window), moved to its place in the
    /// whole input.
    #[cold]
    pub(crate) fn rebase(mut self, base: jtoo::Position) -> Error {
        let moved = |p| moved(base, p);
        self.0.position = self.0.position.map(moved);
        if let Kind::Syntax(e) = &self.0.kind
            && let Some(p) = e.position()
        {
            self.0.kind = Kind::Syntax(jtoo::Error::at_position(e.kind(), moved(p)));
        }
        self
    }

    /// An error of [`jtoo::stream::Reader`]: a syntax error, or its
    /// source's I/O error (kept as such, [`Category::Io`]).
    #[cold]
    pub(crate) fn from_stream(e: jtoo::Error) -> Error {
        if e.kind() == jtoo::ErrorKind::Io {
            let kind = std::error::Error::source(&e)
                .and_then(|s| s.downcast_ref::<std::io::Error>())
                .map_or(std::io::ErrorKind::Other, std::io::Error::kind);
            let text = e.message();
            let text = text.strip_prefix("I/O error: ").unwrap_or(&text);
            return Error::from(std::io::Error::new(kind, text.to_string()));
        }
        Error::from_jtoo(e)
    }

    /// Adds the next outer path segment (not to syntax and I/O errors).
    /// Not generic, so that callers' error paths stay out of their
    /// monomorphized copies: error paths build the segment eagerly.
    #[cold]
    #[inline(never)]
    pub(crate) fn in_segment(mut self, seg: Segment) -> Error {
        if !matches!(self.0.kind, Kind::Syntax(_) | Kind::Io(_)) {
            self.0.path.push(seg);
        }
        self
    }

    /// What kind of error this is.
    pub fn classify(&self) -> Category {
        match self.0.kind {
            Kind::Syntax(_) => Category::Syntax,
            Kind::Message(_) => Category::Data,
            Kind::Io(_) => Category::Io,
        }
    }

    /// `true` for malformed input.
    pub fn is_syntax(&self) -> bool {
        self.classify() == Category::Syntax
    }

    /// `true` for input that does not fit the type, or unserializable values.
    pub fn is_data(&self) -> bool {
        self.classify() == Category::Data
    }

    /// The JTOO grammar error, for syntax errors.
    pub fn syntax_kind(&self) -> Option<jtoo::ErrorKind> {
        match &self.0.kind {
            Kind::Syntax(e) => Some(e.kind()),
            _ => None,
        }
    }

    /// Where in the input, if known.
    pub fn position(&self) -> Option<jtoo::Position> {
        self.0.position
    }

    /// 1-based line (0 when there is no position).
    pub fn line(&self) -> usize {
        self.0.position.map_or(0, |p| p.line)
    }

    /// 1-based column in characters (0 when there is no position).
    pub fn column(&self) -> usize {
        self.0.position.map_or(0, |p| p.column)
    }

    /// Byte offset (0 when there is no position).
    pub fn offset(&self) -> usize {
        self.0.position.map_or(0, |p| p.offset)
    }

    /// The path segments, outermost first.
    pub fn segments(&self) -> impl Iterator<Item = &Segment> {
        self.0.path.iter().rev()
    }

    /// The path as text (`statuses[3].user.id`), empty at the top level.
    pub fn path(&self) -> String {
        let mut s = String::new();
        for seg in self.segments() {
            match seg {
                Segment::Key(k) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(k);
                }
                Segment::OtherKey(k) => {
                    s.push('[');
                    s.push_str(k);
                    s.push(']');
                }
                Segment::Index(i) => {
                    s.push('[');
                    s.push_str(itoa::Buffer::new().format(*i));
                    s.push(']');
                }
            }
        }
        s
    }

    /// Lays the error out for people, as [`htoo::render_diagnostic`] does
    /// for parse errors: the message (after the path), `file:line:col`, the
    /// source line and a caret under the spot. `source` is the whole input
    /// the error came from, read from `file_name`.
    ///
    /// ```
    /// #[derive(serde::Deserialize, Debug)]
    /// #[allow(dead_code)]
    /// struct Config { name: String, port: u16 }
    /// let src = "[\n  \"name\": \"api\",\n  \"port\": 80_000,\n]\n";
    /// let err = jtoo_serde::from_htoo_str::<Config>(src).unwrap_err();
    /// assert_eq!(
    ///     err.render(src.as_bytes(), "app.htoo"),
    ///     "error: port: invalid value: integer `80000`, expected u16\n \
    ///       --> app.htoo:3:11\n  \
    ///        |\n\
    ///       3 |   \"port\": 80_000,\n  \
    ///        |           ^\n"
    /// );
    /// ```
    pub fn render(&self, source: &[u8], file_name: &str) -> String {
        self.diagnostic(source, file_name).to_string()
    }

    /// The [`htoo::Diagnostic`] of [`Error::render`], for its parts.
    pub fn diagnostic(&self, source: &[u8], file_name: &str) -> htoo::Diagnostic {
        if let Kind::Syntax(e) = &self.0.kind {
            return htoo::Diagnostic::new(e, source, file_name);
        }
        let message = match self.path() {
            path if path.is_empty() => self.msg(),
            path => format!("{path}: {}", self.msg()),
        };
        htoo::Diagnostic::at(message, self.0.position, source, file_name)
    }

    /// The message alone, without path and position.
    pub fn msg(&self) -> String {
        match &self.0.kind {
            Kind::Syntax(e) => e.message(),
            Kind::Message(m) => m.clone(),
            Kind::Io(e) => format!("I/O error: {e}"),
        }
    }
}

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.0.path.is_empty() {
            write!(f, "{}: ", self.path())?;
        }
        f.write_str(&self.msg())?;
        if let Some(p) = self.0.position {
            write!(f, " at line {} column {}", p.line, p.column)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({:?}", self.to_string())?;
        if let Some(p) = self.0.position {
            write!(f, ", line: {}, column: {}", p.line, p.column)?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.kind {
            Kind::Syntax(e) => Some(e),
            Kind::Io(e) => Some(e),
            Kind::Message(_) => None,
        }
    }
}

impl serde::de::Error for Error {
    #[cold]
    fn custom<T: Display>(msg: T) -> Error {
        Error::message(msg)
    }
}

impl serde::ser::Error for Error {
    #[cold]
    fn custom<T: Display>(msg: T) -> Error {
        Error::message(msg)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::new(Kind::Io(e))
    }
}

impl From<Error> for std::io::Error {
    fn from(e: Error) -> std::io::Error {
        match e.0.kind {
            Kind::Io(io) => io,
            _ => std::io::Error::new(std::io::ErrorKind::InvalidData, e),
        }
    }
}

/// Position `p` of a part of a document that starts at `base`, in the
/// whole document.
pub(crate) fn moved(base: jtoo::Position, p: jtoo::Position) -> jtoo::Position {
    jtoo::Position {
        offset: base.offset + p.offset,
        line: base.line + p.line.saturating_sub(1),
        column: if p.line == 1 {
            base.column + p.column.saturating_sub(1)
        } else {
            p.column
        },
    }
}

/// Shorthand for `Result<T, jtoo_serde::Error>`.
pub type Result<T, E = Error> = std::result::Result<T, E>;
