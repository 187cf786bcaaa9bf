//! The grammar: one production per file, shared by the strict JTOO parser and
//! the lenient HTOO parser (the `htoo` crate) through [`Syntax`].
//!
//! Every production is a nom 8 parser over `&[u8]` with the signature
//! `fn(input, Syntax) -> PResult<'_, T>`, where `input` starts at the
//! production's first byte. Errors are [`ParseError`]s that remember how many
//! bytes were left when they happened; [`ParseError::into_error`] turns one
//! into a positioned [`crate::Error`] given the whole input.
//!
//! Most callers want [`crate::from_slice`] or [`crate::Options`]; these
//! productions are public for the sibling crates (`htoo`, `jtoo-serde`) and for
//! anyone building their own deserializer on the same grammar.
//!
//! ```
//! use jtoo::parse::{number, Number, Syntax};
//! let (rest, n) = number::number(b"1_000,2", Syntax::Strict).unwrap();
//! assert_eq!(rest, b",2");
//! assert!(matches!(n, Number::Integer(i) if i.to_i64() == Some(1000)));
//! // HTOO accepts other groupings of the same value.
//! let (_, n) = number::number(b"1000", Syntax::Lenient).unwrap();
//! assert!(matches!(n, Number::Integer(i) if i.to_i64() == Some(1000)));
//! ```

//!
//! # nom 8 is part of this API
//!
//! The productions are nom 8 parsers ([`PResult`] is a [`nom::IResult`] and
//! [`ParseError`] implements [`nom::error::ParseError`]), so they compose
//! with nom's combinators inside a grammar of your own; [`nom`] is
//! re-exported here so that the versions match. A major version of nom that
//! changes these signatures is a major version of `jtoo`. For example, a log
//! line `at=<timestamp> body=<jtoo value>`:
//!
//! ```
//! use jtoo::parse::nom::{Parser, bytes::complete::tag, sequence::{preceded, separated_pair}};
//! use jtoo::parse::{PResult, Syntax, list, timestamp};
//! use jtoo::{Timestamp, Value};
//!
//! fn log_line(input: &[u8]) -> PResult<'_, (Timestamp, Value)> {
//!     separated_pair(
//!         preceded(tag(&b"at="[..]), |i| timestamp::timestamp(i, Syntax::Strict)),
//!         tag(&b" "[..]),
//!         preceded(tag(&b"body="[..]), |i| list::value(i, Syntax::Strict, 128)),
//!     )
//!     .parse(input)
//! }
//!
//! let (rest, (at, body)) = log_line(b"at=S1_700_000_000 body=[\"user\":\"ann\"]\n").unwrap();
//! assert_eq!(at.to_string(), "S1_700_000_000");
//! assert_eq!(body.to_string(), r#"["user":"ann"]"#);
//! assert_eq!(rest, b"\n");
//! // A JTOO error inside the line keeps its kind and position.
//! let line = b"at=S1_700_000_000 body=[1,]";
//! let err = log_line(line).unwrap_err();
//! let err = jtoo::parse::unwrap_nom_err(err, line).into_error(line);
//! assert_eq!(err.offset(), 26);
//! ```

use crate::error::{Error, ErrorKind};

pub use nom;

pub mod bytes;
pub mod cursor;
pub mod list;
pub mod number;
pub mod string;
pub mod temporal;
pub mod timestamp;
pub mod validate;
pub mod ws;

pub use number::Number;

/// Which grammar a production follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Syntax {
    /// Strict JTOO (`application/jtoo`): exactly one spelling per value.
    #[default]
    Strict,
    /// HTOO (`application/htoo`): strict JTOO plus the spec's relaxations.
    Lenient,
}

impl Syntax {
    /// `true` for [`Syntax::Lenient`].
    #[inline]
    pub fn is_lenient(self) -> bool {
        matches!(self, Syntax::Lenient)
    }
}

/// A production's error: what went wrong and where, as the number of input
/// bytes that were left at that point (so it can be positioned without
/// holding a reference to the input).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Bytes remaining in the input at the error.
    pub remaining: usize,
    /// What went wrong.
    pub kind: ErrorKind,
}

impl ParseError {
    /// An error at the start of `at`.
    #[inline]
    pub fn new(at: &[u8], kind: ErrorKind) -> ParseError {
        ParseError {
            remaining: at.len(),
            kind,
        }
    }

    /// The byte offset of this error in `input` (the whole input the parse
    /// started on).
    #[inline]
    pub fn offset(&self, input: &[u8]) -> usize {
        input.len().saturating_sub(self.remaining)
    }

    /// Turns this into a public [`Error`] positioned in `input`.
    pub fn into_error(self, input: &[u8]) -> Error {
        Error::at(self.kind, input, self.offset(input))
    }
}

impl<'a> nom::error::ParseError<&'a [u8]> for ParseError {
    fn from_error_kind(input: &'a [u8], _kind: nom::error::ErrorKind) -> Self {
        let kind = if input.is_empty() {
            ErrorKind::UnexpectedEnd
        } else {
            ErrorKind::ExpectedValue
        };
        ParseError::new(input, kind)
    }

    fn append(_input: &'a [u8], _kind: nom::error::ErrorKind, other: Self) -> Self {
        other
    }
}

/// The result of a production.
pub type PResult<'a, T> = nom::IResult<&'a [u8], T, ParseError>;

/// A committed failure (`nom::Err::Failure`) at the start of `at`.
#[inline]
pub fn fail<T>(at: &[u8], kind: ErrorKind) -> PResult<'_, T> {
    Err(nom::Err::Failure(ParseError::new(at, kind)))
}

/// Extracts the [`ParseError`] of any nom error (`Incomplete` becomes
/// "unexpected end" at the end of `input`).
pub fn unwrap_nom_err(e: nom::Err<ParseError>, input: &[u8]) -> ParseError {
    match e {
        nom::Err::Error(e) | nom::Err::Failure(e) => e,
        nom::Err::Incomplete(_) => ParseError::new(&input[input.len()..], ErrorKind::UnexpectedEnd),
    }
}

/// `true` when `b` may directly follow a scalar value: the end of input, or a
/// byte that cannot continue any scalar (`,`, `]`, `:`; in HTOO also
/// whitespace and `/`).
#[inline]
pub fn at_delimiter(rest: &[u8], syntax: Syntax) -> bool {
    match rest.first() {
        None | Some(b',' | b']' | b':') => true,
        Some(b' ' | b'\t' | b'\r' | b'\n' | b'/') => syntax.is_lenient(),
        Some(_) => false,
    }
}

/// Reads exactly `N` ASCII digits as a number.
#[inline]
pub(crate) fn fixed_digits<const N: usize>(input: &[u8]) -> Option<u32> {
    let digits = input.get(..N)?;
    let mut v = 0u32;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        v = v * 10 + u32::from(d - b'0');
    }
    Some(v)
}

/// Parses one whole document with the given syntax and depth limit.
///
/// This is what [`crate::Options::from_slice`] and `htoo::from_slice` call.
pub fn document(input: &[u8], syntax: Syntax, max_depth: usize) -> Result<crate::Value, Error> {
    // UTF-8 is checked once for the whole document; see `string::Known`.
    let known = string::Known::check(input);
    whole(input, syntax, |rest| {
        let mut scratch = list::Scratch::default();
        let (rest, v) = list::value_known(rest, syntax, max_depth, &mut scratch, known)?;
        let ambiguous = v.is_ambiguous_key();
        Ok((rest, (v, ambiguous)))
    })
}

/// Checks one whole document with the given syntax and depth limit without
/// building a [`crate::Value`]: same grammar, same errors as [`document`].
pub fn validate_document(input: &[u8], syntax: Syntax, max_depth: usize) -> Result<(), Error> {
    let known = string::Known::check(input);
    whole(input, syntax, |rest| {
        validate::value_key(rest, syntax, max_depth, known).map(|(r, a)| (r, ((), a)))
    })
}

/// The document frame shared by [`document`] and [`validate_document`]:
/// whitespace (HTOO) around one value, nothing else. `value` returns the
/// value and whether it would be an ambiguous pair key, so that a `:` after
/// it is reported as such.
fn whole<'a, T>(
    input: &'a [u8],
    syntax: Syntax,
    value: impl FnOnce(&'a [u8]) -> PResult<'a, (T, bool)>,
) -> Result<T, Error> {
    let run = || -> PResult<'a, T> {
        let (rest, ()) = ws::skip(input, syntax)?;
        if rest.is_empty() {
            return fail(rest, ErrorKind::ExpectedValue);
        }
        let (rest, (v, ambiguous)) = value(rest)?;
        let (rest, ()) = ws::skip(rest, syntax)?;
        match rest.first() {
            None => Ok((rest, v)),
            Some(b':') if ambiguous => fail(rest, ErrorKind::AmbiguousKey),
            Some(_) => fail(rest, ErrorKind::TrailingCharacters),
        }
    };
    run()
        .map(|(_, v)| v)
        .map_err(|e| unwrap_nom_err(e, input).into_error(input))
}

/// Runs a scalar production on the whole of `input` in strict mode, as the
/// `FromStr` impls of the scalar types do: the production must consume all of
/// it.
pub(crate) fn strict_all<'a, T>(
    input: &'a [u8],
    production: impl FnOnce(&'a [u8], Syntax) -> PResult<'a, T>,
) -> Result<T, Error> {
    match production(input, Syntax::Strict) {
        Ok(([], v)) => Ok(v),
        Ok((rest, _)) => {
            Err(ParseError::new(rest, ErrorKind::TrailingCharacters).into_error(input))
        }
        Err(e) => Err(unwrap_nom_err(e, input).into_error(input)),
    }
}
