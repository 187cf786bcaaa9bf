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

    /// Default options (depth limit 128).
    pub const fn new() -> Options {
        Options {
            max_depth: Self::DEFAULT_MAX_DEPTH,
        }
    }

    /// Sets how deeply lists may nest (`[]` is depth 1). Deeper input is an
    /// error, never a stack overflow; keep this modest (the parser recurses
    /// once per level).
    pub const fn with_max_depth(mut self, max_depth: usize) -> Options {
        self.max_depth = max_depth;
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

    /// Parses one strict JTOO document from text.
    ///
    /// # Errors
    /// Any deviation from the strict grammar, with its position.
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(&self, input: &str) -> Result<Value, Error> {
        self.from_slice(input.as_bytes())
    }
}

/// Parses one strict JTOO document (UTF-8 bytes) into a [`Value`].
///
/// ```
/// let v = jtoo::from_slice(b"[1,2,3]").unwrap();
/// assert_eq!(v.as_list().map(Vec::len), Some(3));
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
