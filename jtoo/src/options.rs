//! Parse options and the crate-root parse functions.

use crate::error::Error;
use crate::parse::{self, Syntax};
use crate::value::Value;

/// Options for parsing strict JTOO, built with `with_*` methods.
///
/// ```
/// use jtoo::Options;
/// let opts = Options::new().with_max_depth(2);
/// assert!(opts.from_str("[[1]]").is_ok());
/// assert!(opts.from_str("[[[1]]]").is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    max_depth: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options::new()
    }
}

impl Options {
    /// The default nesting limit: lists may nest 128 deep.
    pub const DEFAULT_MAX_DEPTH: usize = 128;

    /// The highest depth limit [`Options::with_max_depth`] sets. Parsers
    /// recurse once per nesting level; at this depth every parser in this
    /// workspace fits in a 2 MiB thread stack (tokio's worker default) even
    /// in an unoptimized build, which needs several times the stack per
    /// level of a release build (measured: the strict validator, the
    /// hungriest, overflowed 2 MiB at about 360 levels unoptimized and
    /// 16,000 optimized). The same ceiling bounds serializing a
    /// [`Value`] with serde.
    pub const DEPTH_CEILING: usize = 256;

    /// Default options (depth limit 128).
    pub const fn new() -> Options {
        Options {
            max_depth: Self::DEFAULT_MAX_DEPTH,
        }
    }

    /// Sets how deeply lists may nest (`[]` is depth 1). Deeper input is an
    /// error, never a stack overflow: the parser recurses once per level,
    /// so a limit above [`Options::DEPTH_CEILING`] is lowered to it.
    ///
    /// ```
    /// use jtoo::Options;
    /// assert_eq!(Options::new().with_max_depth(10).max_depth(), 10);
    /// assert_eq!(Options::new().with_max_depth(1_000_000).max_depth(), Options::DEPTH_CEILING);
    /// ```
    pub const fn with_max_depth(mut self, max_depth: usize) -> Options {
        self.max_depth = ceiling(max_depth);
        self
    }

    /// The nesting limit.
    pub const fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// Parses one strict JTOO document from bytes.
    ///
    /// # Errors
    /// Any deviation from the strict grammar, with its position.
    pub fn from_slice(&self, input: &[u8]) -> Result<Value, Error> {
        parse::document(input, Syntax::Strict, self.max_depth)
    }

    /// Checks that `input` is one strict JTOO document without building a
    /// [`Value`] (no allocation unless a string has escapes or a byte string
    /// is present). Same errors as [`Options::from_slice`].
    ///
    /// # Errors
    /// As [`Options::from_slice`].
    pub fn validate(&self, input: &[u8]) -> Result<(), Error> {
        parse::validate_document(input, Syntax::Strict, self.max_depth)
    }

    /// The canonical JTOO bytes of `value`, refusing lists nested deeper
    /// than this limit (so that a reader with these options reads them
    /// back).
    ///
    /// ```
    /// use jtoo::Options;
    /// let v = jtoo::from_str("[[[]]]").unwrap();
    /// assert!(Options::new().with_max_depth(2).to_vec(&v).is_err());
    /// assert_eq!(Options::new().with_max_depth(3).to_vec(&v).unwrap(), b"[[[]]]");
    /// ```
    ///
    /// # Errors
    /// [`ErrorKind::TooDeep`](crate::ErrorKind::TooDeep).
    pub fn to_vec(&self, value: &Value) -> Result<Vec<u8>, Error> {
        crate::encode::to_vec_with_depth(value, self.max_depth)
    }

    /// As [`Options::to_vec`], as text.
    ///
    /// # Errors
    /// As [`Options::to_vec`].
    pub fn to_string(&self, value: &Value) -> Result<String, Error> {
        crate::encode::bytes_to_string(self.to_vec(value)?)
    }

    /// As [`Options::to_vec`], written to `writer` in chunks of about 64 KiB.
    ///
    /// # Errors
    /// I/O errors of the writer, and those of [`Options::to_vec`].
    pub fn to_writer<W: std::io::Write>(&self, writer: W, value: &Value) -> Result<(), Error> {
        crate::encode::to_writer_with_depth(writer, value, self.max_depth)
    }

    /// Parses one strict JTOO document from text.
    ///
    /// # Errors
    /// Any deviation from the strict grammar, with its position.
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(&self, input: &str) -> Result<Value, Error> {
        self.from_slice(input.as_bytes())
    }
}

/// `max_depth`, at most [`Options::DEPTH_CEILING`]: the one rule every
/// configurable depth limit of the workspace follows (other crates go
/// through [`Options::with_max_depth`]).
const fn ceiling(max_depth: usize) -> usize {
    if max_depth > Options::DEPTH_CEILING {
        Options::DEPTH_CEILING
    } else {
        max_depth
    }
}

/// Parses one strict JTOO document (UTF-8 bytes) into a [`Value`].
///
/// ```
/// let v = jtoo::from_slice(b"[1,2,3]").unwrap();
/// assert_eq!(v.as_list().map(jtoo::List::len), Some(3));
/// let err = jtoo::from_slice(b"[1, 2]").unwrap_err(); // no whitespace in strict JTOO
/// assert_eq!(err.to_string(), "expected a value at line 1 column 4");
/// ```
///
/// # Errors
/// Any deviation from the strict grammar, with its byte offset, line and
/// column; nesting deeper than 128 lists.
pub fn from_slice(input: &[u8]) -> Result<Value, Error> {
    Options::new().from_slice(input)
}

/// Checks that `input` is one strict JTOO document, without building a
/// [`Value`]: the fast way to vet bytes you will pass on unchanged.
///
/// ```
/// assert!(jtoo::validate(br#"["code":200]"#).is_ok());
/// let err = jtoo::validate(b"[1, 2]").unwrap_err();
/// assert_eq!(err.to_string(), "expected a value at line 1 column 4");
/// ```
///
/// # Errors
/// As [`from_slice`].
pub fn validate(input: &[u8]) -> Result<(), Error> {
    Options::new().validate(input)
}

/// Parses one strict JTOO document into a [`Value`].
///
/// ```
/// let v = jtoo::from_str(r#"["code":200]"#).unwrap();
/// assert_eq!(v.get("code").and_then(|c| c.as_i64()), Some(200));
/// ```
///
/// # Errors
/// As [`from_slice`].
pub fn from_str(input: &str) -> Result<Value, Error> {
    Options::new().from_slice(input.as_bytes())
}
