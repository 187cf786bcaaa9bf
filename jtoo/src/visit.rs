//! Parsing into values of your own, without building a [`Value`](crate::Value)
//! first: [`visit_slice`] and [`visit_str`] read one whole document and hand
//! each scalar, list and pair to a [`Visitor`] as they are read, so that a
//! binding (Python objects, JavaScript values) or a custom tree is built in
//! one pass.
//!
//! The grammar is the parser's own: the same productions
//! ([`crate::parse`]), the same list steps ([`crate::parse::cursor`]), the
//! same document frame, hence the same values and the same errors at the
//! same positions as [`crate::from_slice`] (strict) or `htoo::from_slice`
//! ([`Syntax::Lenient`]).
//!
//! ```
//! use jtoo::parse::Syntax;
//! use jtoo::visit::{visit_slice, Scalar, Visitor};
//!
//! /// Counts scalars and lists, and collects the record keys.
//! #[derive(Default)]
//! struct Census { scalars: usize, lists: usize, keys: Vec<String> }
//!
//! impl<'a> Visitor<'a> for Census {
//!     type Value = ();
//!     type List = ();
//!     type Error = std::convert::Infallible;
//!     fn scalar(&mut self, _: Scalar<'a>) -> Result<(), Self::Error> {
//!         self.scalars += 1;
//!         Ok(())
//!     }
//!     fn key(&mut self, s: Scalar<'a>) -> Result<(), Self::Error> {
//!         if let Scalar::String(k) = s {
//!             self.keys.push(k.into_owned());
//!         }
//!         Ok(())
//!     }
//!     fn begin_list(&mut self) -> Result<(), Self::Error> { Ok(()) }
//!     fn item(&mut self, _: &mut (), _: ()) -> Result<(), Self::Error> { Ok(()) }
//!     fn pair(&mut self, _: &mut (), _: (), _: ()) -> Result<(), Self::Error> { Ok(()) }
//!     fn end_list(&mut self, _: ()) -> Result<(), Self::Error> {
//!         self.lists += 1;
//!         Ok(())
//!     }
//! }
//!
//! let mut census = Census::default();
//! visit_slice(br#"["id":1,"tags":["a","b"]]"#, Syntax::Strict, 128, &mut census).unwrap();
//! assert_eq!((census.scalars, census.lists), (3, 2));
//! assert_eq!(census.keys, ["id", "tags"]);
//!
//! // Errors are the parser's, at the same position.
//! let err = visit_slice(b"[1,]", Syntax::Strict, 128, &mut Census::default()).unwrap_err();
//! assert_eq!(err.to_string(), "expected a value at line 1 column 4");
//! ```

use std::borrow::Cow;
use std::fmt;

use crate::error::{Error, ErrorKind};
use crate::parse::cursor::{self, Next};
use crate::parse::string::Known;
use crate::parse::{Number, PResult, ParseError, Syntax, fail, ws};
use crate::types::{DateTime, Decimal, Integer, Timestamp};

/// One scalar as read: a string borrowed from the input when it has no
/// escapes, every other kind in the type [`crate::Value`] holds it in.
#[derive(Clone, Debug, PartialEq)]
pub enum Scalar<'a> {
    /// A string (`"…"`).
    String(Cow<'a, str>),
    /// A byte string (`B…`).
    Bytes(Vec<u8>),
    /// `Y` or `N`.
    Bool(bool),
    /// A number without a fraction.
    Integer(Integer),
    /// A number with a fraction.
    Decimal(Decimal),
    /// A date, a time, or both (`D…`, `T…`).
    DateTime(DateTime),
    /// A timestamp (`S…`).
    Timestamp(Timestamp),
}

/// What a document is built into, called in document order. A list's
/// items arrive between its [`Visitor::begin_list`] and
/// [`Visitor::end_list`]; an item's values are complete (lists included)
/// before [`Visitor::item`] or [`Visitor::pair`] receives them.
///
/// A scalar that turns out to be a pair's key (a `:` follows it) goes to
/// [`Visitor::key`] instead of [`Visitor::scalar`] (a list as a key goes
/// through `begin_list`/`end_list` as any list does).
///
/// Any error a method returns stops the parse and comes back as
/// [`VisitError::Visitor`].
pub trait Visitor<'a> {
    /// A value built.
    type Value;
    /// The state of a list being built.
    type List;
    /// The visitor's own error.
    type Error;

    /// A scalar that is not a pair's key.
    fn scalar(&mut self, scalar: Scalar<'a>) -> Result<Self::Value, Self::Error>;

    /// A scalar that is a pair's key (by default, as [`Visitor::scalar`]).
    fn key(&mut self, scalar: Scalar<'a>) -> Result<Self::Value, Self::Error> {
        self.scalar(scalar)
    }

    /// A list opens (its `[` was read).
    fn begin_list(&mut self) -> Result<Self::List, Self::Error>;

    /// A plain item of `list`.
    fn item(&mut self, list: &mut Self::List, value: Self::Value) -> Result<(), Self::Error>;

    /// A pair item `key:value` of `list`.
    fn pair(
        &mut self,
        list: &mut Self::List,
        key: Self::Value,
        value: Self::Value,
    ) -> Result<(), Self::Error>;

    /// `list` is complete (its `]` was read): its value.
    fn end_list(&mut self, list: Self::List) -> Result<Self::Value, Self::Error>;
}

/// Why [`visit_slice`] or [`visit_str`] stopped.
#[derive(Debug)]
pub enum VisitError<E> {
    /// The input is not one document of the syntax: the parser's error.
    Parse(Error),
    /// The visitor refused.
    Visitor(E),
}

impl<E: fmt::Display> fmt::Display for VisitError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VisitError::Parse(e) => e.fmt(f),
            VisitError::Visitor(e) => e.fmt(f),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for VisitError<E> {}

/// Reads one whole document of `syntax` from `input` into `visitor`, with
/// lists nested at most `max_depth` deep; returns the document's value.
/// Same grammar and errors as [`crate::parse::document`].
///
/// # Errors
/// [`VisitError::Parse`] when `input` is not one document (positioned as
/// the parser positions it); [`VisitError::Visitor`] when the visitor
/// refuses.
pub fn visit_slice<'a, V: Visitor<'a>>(
    input: &'a [u8],
    syntax: Syntax,
    max_depth: usize,
    visitor: &mut V,
) -> Result<V::Value, VisitError<V::Error>> {
    run(input, Known::check(input), syntax, max_depth, visitor)
}

/// [`visit_slice`] for a document that is already a `&str` (its UTF-8 is
/// not checked again).
///
/// ```
/// # use jtoo::visit::{visit_str, Scalar, Visitor};
/// # struct Sum;
/// # impl<'a> Visitor<'a> for Sum {
/// #     type Value = i64; type List = i64; type Error = &'static str;
/// #     fn scalar(&mut self, s: Scalar<'a>) -> Result<i64, Self::Error> {
/// #         match s { Scalar::Integer(i) => i.to_i64().ok_or("too big"), _ => Err("not an integer") }
/// #     }
/// #     fn begin_list(&mut self) -> Result<i64, Self::Error> { Ok(0) }
/// #     fn item(&mut self, l: &mut i64, v: i64) -> Result<(), Self::Error> { *l += v; Ok(()) }
/// #     fn pair(&mut self, _: &mut i64, _: i64, _: i64) -> Result<(), Self::Error> { Err("a pair") }
/// #     fn end_list(&mut self, l: i64) -> Result<i64, Self::Error> { Ok(l) }
/// # }
/// use jtoo::{parse::Syntax, visit::VisitError};
/// assert_eq!(visit_str("[1,[2,3]]", Syntax::Strict, 128, &mut Sum).unwrap(), 6);
/// assert_eq!(visit_str("[1, 2]", Syntax::Lenient, 128, &mut Sum).unwrap(), 3);
/// let err = visit_str("[1,Y]", Syntax::Strict, 128, &mut Sum).unwrap_err();
/// assert!(matches!(err, VisitError::Visitor("not an integer")));
/// let err = visit_str("[1, 2]", Syntax::Strict, 128, &mut Sum).unwrap_err();
/// assert!(matches!(err, VisitError::Parse(e) if e.offset() == 3));
/// ```
///
/// # Errors
/// As [`visit_slice`].
pub fn visit_str<'a, V: Visitor<'a>>(
    input: &'a str,
    syntax: Syntax,
    max_depth: usize,
    visitor: &mut V,
) -> Result<V::Value, VisitError<V::Error>> {
    run(
        input.as_bytes(),
        Known::of_str(input),
        syntax,
        max_depth,
        visitor,
    )
}

/// A stop inside the walk: the parser's error (positioned at the end) or
/// the visitor's.
enum Stop<E> {
    Parse(ParseError),
    Visitor(E),
}

impl<E> From<nom::Err<ParseError>> for Stop<E> {
    #[inline]
    fn from(e: nom::Err<ParseError>) -> Self {
        match e {
            nom::Err::Error(e) | nom::Err::Failure(e) => Stop::Parse(e),
            // The productions run on complete input; kept for completeness.
            nom::Err::Incomplete(_) => Stop::Parse(ParseError {
                remaining: 0,
                kind: ErrorKind::UnexpectedEnd,
            }),
        }
    }
}

fn run<'a, V: Visitor<'a>>(
    input: &'a [u8],
    known: Known<'a>,
    syntax: Syntax,
    max_depth: usize,
    visitor: &mut V,
) -> Result<V::Value, VisitError<V::Error>> {
    let mut walk = Walk {
        known,
        syntax,
        visitor,
    };
    walk.document(input, max_depth).map_err(|e| match e {
        Stop::Parse(e) => VisitError::Parse(e.into_error(input)),
        Stop::Visitor(e) => VisitError::Visitor(e),
    })
}

struct Walk<'a, 'v, V> {
    known: Known<'a>,
    syntax: Syntax,
    visitor: &'v mut V,
}

/// The rest of the input after a step, and what the step made.
type Step<'a, T, E> = Result<(&'a [u8], T), Stop<E>>;

#[inline]
fn parse_error<E>(at: &[u8], kind: ErrorKind) -> Stop<E> {
    Stop::Parse(ParseError::new(at, kind))
}

impl<'a, V: Visitor<'a>> Walk<'a, '_, V> {
    /// The document frame of [`crate::parse::document`]: whitespace (HTOO)
    /// around one value; a `:` after an ambiguous key is "ambiguous key".
    fn document(&mut self, input: &'a [u8], max_depth: usize) -> Result<V::Value, Stop<V::Error>> {
        let syntax = self.syntax;
        let (rest, ()) = ws::skip(input, syntax)?;
        if rest.is_empty() {
            return Err(parse_error(rest, ErrorKind::ExpectedValue));
        }
        let (rest, value, ambiguous) = if rest.first() == Some(&b'[') {
            let (rest, v) = self.list(rest, max_depth)?;
            (rest, v, false)
        } else {
            let (rest, s) = scalar(rest, syntax, self.known)?;
            let ambiguous = is_ambiguous_key(&s);
            let v = self.visitor.scalar(s).map_err(Stop::Visitor)?;
            (rest, v, ambiguous)
        };
        let (rest, ()) = ws::skip(rest, syntax)?;
        match rest.first() {
            None => Ok(value),
            Some(b':') if ambiguous => Err(parse_error(rest, ErrorKind::AmbiguousKey)),
            Some(_) => Err(parse_error(rest, ErrorKind::TrailingCharacters)),
        }
    }

    /// Any value at the start of `input` (not empty: see [`cursor::open`]
    /// and [`cursor::pair_colon`]).
    #[inline]
    fn value(&mut self, input: &'a [u8], depth: usize) -> Step<'a, V::Value, V::Error> {
        if input.first() == Some(&b'[') {
            return self.list(input, depth);
        }
        let (rest, s) = scalar(input, self.syntax, self.known)?;
        let v = self.visitor.scalar(s).map_err(Stop::Visitor)?;
        Ok((rest, v))
    }

    /// A list starting at its `[`, with the steps of [`cursor`] in the
    /// order the `Value` builder (`parse::list`) takes them.
    fn list(&mut self, input: &'a [u8], depth: usize) -> Step<'a, V::Value, V::Error> {
        let syntax = self.syntax;
        let (mut rest, depth) = cursor::open(input, syntax, depth)?;
        let mut list = self.visitor.begin_list().map_err(Stop::Visitor)?;
        if let Some(b']') = rest.first() {
            let v = self.visitor.end_list(list).map_err(Stop::Visitor)?;
            return Ok((&rest[1..], v));
        }
        loop {
            let item_end = if rest.first() == Some(&b'[') {
                let (r, first) = self.list(rest, depth)?;
                let (r, pair) = cursor::pair_colon(r, input, syntax, || false)?;
                self.item_after(&mut list, r, pair, first, depth)?
            } else {
                let (r, s) = scalar(rest, syntax, self.known)?;
                let ambiguous = is_ambiguous_key(&s);
                let (r, pair) = cursor::pair_colon(r, input, syntax, || ambiguous)?;
                let first = if pair {
                    self.visitor.key(s)
                } else {
                    self.visitor.scalar(s)
                }
                .map_err(Stop::Visitor)?;
                self.item_after(&mut list, r, pair, first, depth)?
            };
            match cursor::separator(item_end, input, syntax)? {
                (r, Next::Item) => rest = r,
                (r, Next::End) => {
                    let v = self.visitor.end_list(list).map_err(Stop::Visitor)?;
                    return Ok((&r[1..], v));
                }
            }
        }
    }

    /// Completes an item whose first value is `first`: reads the pair's
    /// value when `pair` (`rest` starts at it), hands the item to the
    /// visitor, and returns where the item ends.
    #[inline]
    fn item_after(
        &mut self,
        list: &mut V::List,
        rest: &'a [u8],
        pair: bool,
        first: V::Value,
        depth: usize,
    ) -> Result<&'a [u8], Stop<V::Error>> {
        if pair {
            let (r, value) = self.value(rest, depth)?;
            self.visitor
                .pair(list, first, value)
                .map_err(Stop::Visitor)?;
            Ok(r)
        } else {
            self.visitor.item(list, first).map_err(Stop::Visitor)?;
            Ok(rest)
        }
    }
}

/// Whether `s` may not be a pair key (see `DateTime::is_ambiguous_key`).
#[inline]
fn is_ambiguous_key(s: &Scalar<'_>) -> bool {
    matches!(s, Scalar::DateTime(d) if d.is_ambiguous_key())
}

/// Any value but a list, by its first byte, with the parser's productions
/// (the dispatch of `parse::list`'s scalar step).
#[inline]
fn scalar<'a>(input: &'a [u8], syntax: Syntax, known: Known<'a>) -> PResult<'a, Scalar<'a>> {
    match input.first() {
        Some(b'"') => {
            let (rest, s) = crate::parse::string::string_in(input, syntax, known)?;
            Ok((rest, Scalar::String(s)))
        }
        Some(b'-' | b'0'..=b'9') => {
            let (rest, n) = crate::parse::number::number(input, syntax)?;
            Ok((
                rest,
                match n {
                    Number::Integer(i) => Scalar::Integer(i),
                    Number::Decimal(d) => Scalar::Decimal(d),
                },
            ))
        }
        Some(b'Y') => Ok((&input[1..], Scalar::Bool(true))),
        Some(b'N') => Ok((&input[1..], Scalar::Bool(false))),
        Some(b'B') => {
            let (rest, b) = crate::parse::bytes::byte_string(input, syntax)?;
            Ok((rest, Scalar::Bytes(b)))
        }
        Some(b'D' | b'T') => {
            let (rest, dt) = crate::parse::temporal::datetime(input, syntax)?;
            Ok((rest, Scalar::DateTime(dt)))
        }
        Some(b'S') => {
            let (rest, ts) = crate::parse::timestamp::timestamp(input, syntax)?;
            Ok((rest, Scalar::Timestamp(ts)))
        }
        None => fail(input, ErrorKind::UnexpectedEnd),
        Some(_) => fail(input, ErrorKind::ExpectedValue),
    }
}

impl From<Scalar<'_>> for crate::Value {
    fn from(s: Scalar<'_>) -> crate::Value {
        match s {
            Scalar::String(s) => crate::Value::String(s.as_ref().into()),
            Scalar::Bytes(b) => crate::Value::Bytes(b),
            Scalar::Bool(b) => crate::Value::Bool(b),
            Scalar::Integer(i) => crate::Value::Integer(i),
            Scalar::Decimal(d) => crate::Value::Decimal(d),
            Scalar::DateTime(d) => crate::Value::DateTime(d),
            Scalar::Timestamp(t) => crate::Value::Timestamp(t),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Item, List, Pair, Value};

    /// Builds `jtoo::Value`s: what the parser builds, for comparison.
    struct Build;

    impl<'a> Visitor<'a> for Build {
        type Value = Value;
        type List = Vec<Item>;
        type Error = String;
        fn scalar(&mut self, s: Scalar<'a>) -> Result<Value, String> {
            Ok(s.into())
        }
        fn begin_list(&mut self) -> Result<Vec<Item>, String> {
            Ok(Vec::new())
        }
        fn item(&mut self, list: &mut Vec<Item>, v: Value) -> Result<(), String> {
            list.push(Item::Value(v));
            Ok(())
        }
        fn pair(&mut self, list: &mut Vec<Item>, k: Value, v: Value) -> Result<(), String> {
            list.push(Item::Pair(Pair::new(k, v).map_err(|e| e.to_string())?));
            Ok(())
        }
        fn end_list(&mut self, list: Vec<Item>) -> Result<Value, String> {
            Ok(Value::List(List::from(list)))
        }
    }

    fn same(input: &[u8]) {
        for syntax in [Syntax::Strict, Syntax::Lenient] {
            for depth in [128, 2] {
                let want = crate::parse::document(input, syntax, depth);
                let got = visit_slice(input, syntax, depth, &mut Build);
                match (want, got) {
                    (Ok(w), Ok(g)) => assert_eq!(w, g, "{:?}", String::from_utf8_lossy(input)),
                    (Err(w), Err(VisitError::Parse(g))) => assert_eq!(
                        (w.kind(), w.offset()),
                        (g.kind(), g.offset()),
                        "{:?} {syntax:?}",
                        String::from_utf8_lossy(input)
                    ),
                    (w, g) => panic!("{:?}: {w:?} vs {g:?}", String::from_utf8_lossy(input)),
                }
                if let Ok(text) = std::str::from_utf8(input) {
                    let g = visit_str(text, syntax, depth, &mut Build);
                    let w = visit_slice(input, syntax, depth, &mut Build);
                    assert_eq!(format!("{w:?}"), format!("{g:?}"));
                }
            }
        }
    }

    fn case_files(dir: &std::path::Path, out: &mut Vec<Vec<u8>>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                case_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "jtoo" || x == "htoo") {
                out.push(std::fs::read(&p).unwrap());
            }
        }
    }

    /// Every conformance case, each (up to 600 bytes) truncated at every
    /// byte and with each byte removed: the visitor walk and the `Value` parser agree on the
    /// value or on the error's kind and position.
    #[test]
    fn agrees_with_the_parser() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-tests/cases");
        let mut cases = Vec::new();
        case_files(&dir, &mut cases);
        assert!(
            cases.len() > 500,
            "{} cases in {}",
            cases.len(),
            dir.display()
        );
        for extra in [
            &b"T10:20"[..],
            b"T10 :1",
            b"[T10 :1]",
            b"[[1]:2,3]",
            b"",
            b"  ",
            b"[\"a\":1,\"a\":2]",
            b"Y:",
            b"[1:2:3]",
        ] {
            cases.push(extra.to_vec());
        }
        for case in &cases {
            same(case);
            // (Every cut of the long depth cases would be quadratic.)
            if case.len() > 600 {
                continue;
            }
            for i in 0..case.len() {
                same(&case[..i]);
                let mut cut = case.clone();
                cut.remove(i);
                same(&cut);
            }
        }
    }

    /// A visitor error stops the walk and comes back as it was.
    #[test]
    fn visitor_errors_stop_the_walk() {
        struct NoPairs;
        impl<'a> Visitor<'a> for NoPairs {
            type Value = ();
            type List = ();
            type Error = &'static str;
            fn scalar(&mut self, _: Scalar<'a>) -> Result<(), &'static str> {
                Ok(())
            }
            fn begin_list(&mut self) -> Result<(), &'static str> {
                Ok(())
            }
            fn item(&mut self, _: &mut (), _: ()) -> Result<(), &'static str> {
                Ok(())
            }
            fn pair(&mut self, _: &mut (), _: (), _: ()) -> Result<(), &'static str> {
                Err("no pairs")
            }
            fn end_list(&mut self, _: ()) -> Result<(), &'static str> {
                Ok(())
            }
        }
        let v = &mut NoPairs;
        assert!(visit_slice(b"[1,[2]]", Syntax::Strict, 128, v).is_ok());
        assert!(matches!(
            visit_slice(b"[1,[\"a\":2]]", Syntax::Strict, 128, v),
            Err(VisitError::Visitor("no pairs"))
        ));
        // A parse error before the visitor's comes first.
        let err = visit_slice(b"[1,[\"a\" 2]]", Syntax::Strict, 128, v).unwrap_err();
        assert!(matches!(err, VisitError::Parse(e) if e.offset() == 7));
    }
}
