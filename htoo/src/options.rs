//! Parse options and the crate-root parse functions.
//!
//! There is no HTOO grammar in this crate: parsing runs jtoo's productions
//! (`jtoo::parse`) with [`Syntax::Lenient`], so every value has the same
//! meaning in both formats and no production is written twice.

use jtoo::parse::{self, Syntax};
use jtoo::{Error, Value};

/// Options for parsing HTOO, built with `with_*` methods; they mirror
/// [`jtoo::Options`].
///
/// ```
/// let opts = htoo::Options::new().with_max_depth(2);
/// assert!(opts.from_str("[ [1] ]").is_ok());
/// let err = opts.from_str("[ [ [1] ] ]").unwrap_err();
/// assert_eq!(err.kind(), jtoo::ErrorKind::DepthLimitExceeded);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The settings the two grammars share (today: the depth limit).
    shared: jtoo::Options,
}

impl From<jtoo::Options> for Options {
    /// HTOO options with the strict options' depth limit.
    fn from(shared: jtoo::Options) -> Options {
        Options { shared }
    }
}

impl Options {
    /// The default nesting limit, the same as strict JTOO's: 128.
    pub const DEFAULT_MAX_DEPTH: usize = jtoo::Options::DEFAULT_MAX_DEPTH;

    /// Default options (depth limit 128).
    pub const fn new() -> Options {
        Options {
            shared: jtoo::Options::new(),
        }
    }

    /// Sets how deeply lists may nest, as [`jtoo::Options::with_max_depth`].
    pub const fn with_max_depth(self, max_depth: usize) -> Options {
        Options {
            shared: self.shared.with_max_depth(max_depth),
        }
    }

    /// The nesting limit.
    pub const fn max_depth(&self) -> usize {
        self.shared.max_depth()
    }

    /// Parses one HTOO document from bytes: jtoo's grammar, lenient.
    ///
    /// # Errors
    /// Anything outside strict JTOO and the HTOO relaxations, with its
    /// position (render it with [`crate::render_diagnostic`]).
    pub fn from_slice(&self, input: &[u8]) -> Result<Value, Error> {
        parse::document(input, Syntax::Lenient, self.max_depth())
    }

    /// Parses one HTOO document from text; see [`Options::from_slice`].
    ///
    /// # Errors
    /// As [`Options::from_slice`].
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(&self, input: &str) -> Result<Value, Error> {
        self.from_slice(input.as_bytes())
    }

    /// Reads all of `reader`, then parses it as one HTOO document.
    ///
    /// # Errors
    /// I/O errors of the reader; otherwise as [`Options::from_slice`].
    pub fn from_reader<R: std::io::Read>(&self, mut reader: R) -> Result<Value, Error> {
        let mut buf = Vec::new();
        reader.read_to_end(&mut buf)?;
        self.from_slice(&buf)
    }
}

/// Parses one HTOO document (UTF-8 bytes) into a [`Value`].
///
/// ```
/// let v = htoo::from_slice(b"[1, 2, 3,] // three").unwrap();
/// assert_eq!(jtoo::to_string(&v).unwrap(), "[1,2,3]");
/// ```
///
/// # Errors
/// Anything outside strict JTOO and the HTOO relaxations, with its byte
/// offset, line and column; nesting deeper than 128 lists.
pub fn from_slice(input: &[u8]) -> Result<Value, Error> {
    Options::new().from_slice(input)
}

/// Parses one HTOO document into a [`Value`].
///
/// ```
/// let v = htoo::from_str("[\"code\": 200]").unwrap();
/// assert_eq!(v.get("code").and_then(|c| c.as_i64()), Some(200));
/// let err = htoo::from_str("[1 2]").unwrap_err();
/// assert_eq!(err.to_string(), "expected `,` or `]` at line 1 column 3");
/// ```
///
/// # Errors
/// As [`from_slice`].
pub fn from_str(input: &str) -> Result<Value, Error> {
    Options::new().from_slice(input.as_bytes())
}

/// Reads all of `reader`, then parses it as one HTOO document.
///
/// ```
/// let v = htoo::from_reader(&b"[Y, N]"[..]).unwrap();
/// assert_eq!(v.to_string(), "[Y,N]");
/// ```
///
/// # Errors
/// I/O errors of the reader; otherwise as [`from_slice`].
pub fn from_reader<R: std::io::Read>(reader: R) -> Result<Value, Error> {
    Options::new().from_reader(reader)
}
