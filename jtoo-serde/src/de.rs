//! The deserializer: reads JTOO (or HTOO) bytes directly, borrowing strings
//! that have no escapes, using the `jtoo::parse` productions for every
//! scalar.

use crate::error::{Error, Result, Segment};
use crate::keys::{KeyStack, SeenKeys};
use crate::scalar::{Found, invalid_type, visit_integer};
use crate::spanned;
use jtoo::parse::cursor::Cursor;
use jtoo::parse::string::Known;
use jtoo::parse::{self, Number, Syntax};
use jtoo::serde::{
    DATETIME_MARKER, DECIMAL_MARKER, ITEM_MARKER, PAIR_MARKER, TIMESTAMP_MARKER, VALUE_MARKER,
};
use jtoo::{DateTime, Decimal, ErrorKind, Integer, Options, Timestamp};
use serde::de::{
    self, DeserializeSeed, Deserializer as _, IntoDeserializer, MapAccess, SeqAccess, Unexpected,
    Visitor,
};
use std::borrow::Cow;

/// A deserializer over JTOO (or, with [`Deserializer::from_htoo_slice`], HTOO)
/// input.
///
/// ```
/// use serde::Deserialize;
/// let mut de = jtoo_serde::Deserializer::from_str(r#"[1,2]"#);
/// let v = Vec::<u8>::deserialize(&mut de)?;
/// de.end()?;
/// assert_eq!(v, [1, 2]);
///
/// let mut de = jtoo_serde::Deserializer::from_str(r#"[1,2] x"#);
/// Vec::<u8>::deserialize(&mut de)?;
/// assert!(de.end().is_err());
/// # Ok::<(), jtoo_serde::Error>(())
/// ```
pub struct Deserializer<'de> {
    /// The input, the position in it and the list steps (the list grammar is
    /// `jtoo::parse::cursor`'s, shared with the `Value` parser).
    cur: Cursor<'de>,
    /// The keys of the maps being read, for duplicate keys.
    keys: KeyStack<'de>,
    /// The last position computed for a `Spanned` (positions are counted
    /// from there, not from the start, when the next one is further on).
    last: jtoo::Position,
    /// The position of the input's first byte in the whole document (not
    /// [`START`] for a value read whole out of a stream's window).
    origin: jtoo::Position,
}

/// The position of the input's first byte (what `Position::of(b"", 0)`
/// computes, without computing it for every document).
const START: jtoo::Position = jtoo::Position {
    offset: 0,
    line: 1,
    column: 1,
};

impl<'de> Deserializer<'de> {
    /// Reads strict JTOO from bytes.
    pub fn from_slice(input: &'de [u8]) -> Self {
        Self::new(input, Known::check(input))
    }

    fn new(input: &'de [u8], known: Known<'de>) -> Self {
        Deserializer {
            cur: Cursor::with_known(input, known, Syntax::Strict, Options::DEFAULT_MAX_DEPTH),
            keys: KeyStack::default(),
            last: START,
            origin: START,
        }
    }

    /// Reads strict JTOO from a string.
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(input: &'de str) -> Self {
        Self::new(input.as_bytes(), Known::of_str(input))
    }

    /// Reads HTOO (whitespace, comments, trailing commas and the other
    /// relaxations of the lenient grammar) from bytes.
    pub fn from_htoo_slice(input: &'de [u8]) -> Self {
        Deserializer {
            cur: Cursor::with_known(
                input,
                Known::check(input),
                Syntax::Lenient,
                Options::DEFAULT_MAX_DEPTH,
            ),
            keys: KeyStack::default(),
            last: START,
            origin: START,
        }
    }

    /// Reads HTOO from a string.
    pub fn from_htoo_str(input: &'de str) -> Self {
        Deserializer {
            cur: Cursor::with_known(
                input.as_bytes(),
                Known::of_str(input),
                Syntax::Lenient,
                Options::DEFAULT_MAX_DEPTH,
            ),
            keys: KeyStack::default(),
            last: START,
            origin: START,
        }
    }

    /// Positions of `Spanned` values counted from `origin`, where the input
    /// starts in a larger document.
    pub(crate) fn with_origin(mut self, origin: jtoo::Position) -> Self {
        self.origin = origin;
        self
    }

    /// Sets how deeply lists may nest (default
    /// [`jtoo::Options::DEFAULT_MAX_DEPTH`]); deeper input is an error. A
    /// limit above [`jtoo::Options::DEPTH_CEILING`] is lowered to it (the
    /// deserializer recurses once per level).
    pub fn with_max_depth(mut self, max_depth: usize) -> Self {
        self.cur.depth = Options::new().with_max_depth(max_depth).max_depth();
        self
    }

    /// Checks that only whitespace and comments (HTOO) or nothing (JTOO)
    /// follow the value read so far.
    ///
    /// # Errors
    /// "trailing characters" at the first extra byte.
    pub fn end(&mut self) -> Result<()> {
        self.skip_ws()?;
        if self.cur.pos < self.cur.input.len() {
            return Err(self.syntax_err(ErrorKind::TrailingCharacters, self.cur.pos));
        }
        Ok(())
    }

    // ---------------------------------------------------------- low level

    #[inline]
    fn rest(&self) -> &'de [u8] {
        self.cur.rest()
    }

    #[inline]
    fn set_rest(&mut self, rest: &'de [u8]) {
        self.cur.set_rest(rest);
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.cur.peek()
    }

    #[inline]
    fn skip_ws(&mut self) -> Result<()> {
        self.cur.skip_ws().map_err(|e| self.parse_err(e))
    }

    #[cold]
    fn parse_err(&self, e: parse::ParseError) -> Error {
        Error::syntax(e.into_error(self.cur.input))
    }

    #[cold]
    fn nom_err(&self, e: nom::Err<parse::ParseError>) -> Error {
        self.parse_err(parse::unwrap_nom_err(e, self.cur.input))
    }

    #[cold]
    fn syntax_err(&self, kind: ErrorKind, at: usize) -> Error {
        Error::syntax(jtoo::Error::at(kind, self.cur.input, at))
    }

    #[cold]
    fn fix(&self, e: Error, at: usize) -> Error {
        e.at(self.cur.input, at)
    }

    /// `r` with [`Self::fix`] applied to its error: one copy per value type
    /// (a `map_err` closure is one per calling function and visitor).
    #[inline]
    fn fixed<T>(&self, r: Result<T>, at: usize) -> Result<T> {
        match r {
            Ok(v) => Ok(v),
            Err(e) => Err(self.fix(e, at)),
        }
    }

    /// An error from a list item's value (kept out of line: the item loop
    /// is the hot path). An error without a position (a conversion after
    /// the value was read, e.g. `#[serde(with)]`) is about this value.
    #[cold]
    #[inline(never)]
    fn item_error(&self, e: Error, value_start: usize, index: usize) -> Error {
        self.fix(e, value_start).in_segment(Segment::Index(index))
    }

    /// [`Self::item_error`] for a pair's value, whose path segment is its
    /// key.
    #[cold]
    #[inline(never)]
    fn value_error(&self, e: Error, value_start: usize, key_span: (usize, usize)) -> Error {
        self.fix(e, value_start)
            .in_segment(self.key_segment(key_span))
    }

    /// The error for a missing value at the current position.
    #[cold]
    fn expected_value(&self) -> Error {
        match self.peek() {
            None => self.syntax_err(ErrorKind::UnexpectedEnd, self.cur.pos),
            Some(_) => self.syntax_err(ErrorKind::ExpectedValue, self.cur.pos),
        }
    }

    /// Runs one of `jtoo::parse`'s productions at the current position:
    /// on success the position moves past what it read.
    #[inline(always)]
    fn run<T>(
        &mut self,
        production: impl FnOnce(&'de [u8], parse::Syntax) -> parse::PResult<'de, T>,
    ) -> Result<T> {
        match production(self.rest(), self.cur.syntax) {
            Ok((rest, v)) => {
                self.set_rest(rest);
                Ok(v)
            }
            Err(e) => Err(self.nom_err(e)),
        }
    }

    /// The string at the current position: borrowed from the input, in one
    /// scan, when it has no escapes (the common case, inline), else read in
    /// full.
    #[inline(always)]
    fn parse_string(&mut self) -> Result<Cow<'de, str>> {
        match parse::string::plain_at(self.cur.input, self.cur.known, self.cur.pos) {
            Some((end, s)) => {
                self.cur.pos = end;
                Ok(Cow::Borrowed(s))
            }
            None => self.parse_string_general(),
        }
    }

    #[inline(never)]
    fn parse_string_general(&mut self) -> Result<Cow<'de, str>> {
        let known = self.cur.known;
        self.run(|input, syntax| parse::string::string_in(input, syntax, known))
    }

    /// Parses the scalar at the current position; `None` at `[`.
    pub(crate) fn parse_scalar(&mut self) -> Result<Option<Scalar<'de>>> {
        Ok(Some(match self.peek() {
            Some(b'"') => Scalar::Str(self.parse_string()?),
            Some(b'-' | b'0'..=b'9') => match self.run(parse::number::number)? {
                Number::Integer(i) => Scalar::Int(i),
                Number::Decimal(d) => Scalar::Dec(d),
            },
            Some(b'Y') => {
                self.cur.pos += 1;
                Scalar::Bool(true)
            }
            Some(b'N') => {
                self.cur.pos += 1;
                Scalar::Bool(false)
            }
            Some(b'B') => Scalar::Bytes(self.run(parse::bytes::byte_string)?),
            Some(b'D' | b'T') => Scalar::DateTime(self.run(parse::temporal::datetime)?),
            Some(b'S') => Scalar::Timestamp(self.run(parse::timestamp::timestamp)?),
            Some(b'[') => return Ok(None),
            _ => return Err(self.expected_value()),
        }))
    }

    /// Consumes `[` (at the current position), counting depth.
    #[inline]
    fn enter(&mut self) -> Result<usize> {
        self.cur.begin_list().map_err(|e| self.parse_err(e))
    }

    /// Consumes the `]` of the list that started at `start`.
    #[inline]
    fn leave(&mut self, start: usize) -> Result<()> {
        self.cur.end_list(start).map_err(|e| self.parse_err(e))
    }

    /// `true` (without consuming) when the list ends here.
    #[inline]
    fn at_list_end(&mut self, start: usize) -> Result<bool> {
        self.cur.at_list_end(start).map_err(|e| self.parse_err(e))
    }

    /// After an item: consumes `,` (and, in HTOO, a trailing `,` before
    /// `]`), or leaves `]` in place.
    #[inline]
    fn after_item(&mut self, start: usize) -> Result<()> {
        self.cur.after_item(start).map_err(|e| self.parse_err(e))
    }

    /// After a key: consumes `:`.
    #[inline]
    fn colon(&mut self, item_start: usize) -> Result<()> {
        match self.cur.colon() {
            Ok(true) => Ok(()),
            Ok(false) => Err(self.not_a_pair(item_start)),
            Err(e) => Err(self.parse_err(e)),
        }
    }

    /// The error for a plain item where a pair is needed.
    #[cold]
    fn not_a_pair(&self, item_start: usize) -> Error {
        self.fix(not_a_pair(), item_start)
    }

    /// The error for a pair's key starting at `key_start` that the seed
    /// refused.
    #[cold]
    #[inline(never)]
    fn key_error(&self, e: Error, key_start: usize) -> Error {
        // A key the type cannot take may be a plain item instead of a pair
        // (`[1,2]` for a struct): say that, it is the real mistake.
        if self.is_plain_item(key_start) {
            self.not_a_pair(key_start)
        } else {
            self.fix(e, key_start)
        }
    }

    /// Whether the list item at `item_start` is well formed but not a pair
    /// (no `:` after its first value). Only used on error paths.
    #[cold]
    fn is_plain_item(&self, item_start: usize) -> bool {
        let rest = self.cur.input.get(item_start..).unwrap_or_default();
        match parse::validate::value(rest, self.cur.syntax, self.cur.depth) {
            Ok((r, ())) => match parse::ws::skip(r, self.cur.syntax) {
                Ok((r, ())) => r.first() != Some(&b':'),
                Err(_) => false,
            },
            Err(_) => false,
        }
    }

    /// The path segment of the key spelled at `span`.
    #[cold]
    pub(crate) fn key_segment(&self, span: (usize, usize)) -> Segment {
        let text = self.cur.input.get(span.0..span.1).unwrap_or_default();
        if text.first() == Some(&b'"')
            && let Ok((_, s)) = parse::string::string(text, self.cur.syntax)
        {
            return Segment::Key(s.into_owned());
        }
        Segment::OtherKey(String::from_utf8_lossy(text).into_owned())
    }

    /// The `Unexpected` of the value at the current position (for type
    /// errors); consumes it.
    #[cold]
    #[inline(never)]
    fn invalid_type(&mut self, exp: &dyn de::Expected) -> Error {
        let start = self.cur.pos;
        let err = match self.parse_scalar() {
            Err(e) => return e,
            Ok(None) => de::Error::invalid_type(Unexpected::Seq, exp),
            Ok(Some(s)) => s.invalid_type(exp),
        };
        self.fix(err, start)
    }

    /// Skips one value (for `deserialize_ignored_any`).
    fn skip_value(&mut self) -> Result<()> {
        self.cur.skip_value().map_err(|e| self.parse_err(e))
    }

    fn deserialize_int<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        self.skip_ws()?;
        let start = self.cur.pos;
        // The strict common case straight from the bytes, visited as
        // `visit_integer` would (i64 when it fits, else u64 or i128).
        if !self.cur.syntax.is_lenient()
            && let Some((len, negative, m)) = parse::number::strict_integer_prefix(self.rest())
        {
            self.cur.pos += len;
            let r = match (negative, i64::try_from(m)) {
                (false, Ok(v)) => visitor.visit_i64(v),
                (false, Err(_)) => visitor.visit_u64(m),
                (true, _) => match i64::try_from(-i128::from(m)) {
                    Ok(v) => visitor.visit_i64(v),
                    Err(_) => visitor.visit_i128(-i128::from(m)),
                },
            };
            return self.fixed(r, start);
        }
        let r = match self.peek() {
            Some(b'-' | b'0'..=b'9') => match self.run(parse::number::number)? {
                Number::Integer(i) => visit_integer(i, visitor),
                Number::Decimal(d) => Err(de::Error::invalid_type(
                    Unexpected::Float(d.to_f64()),
                    &visitor,
                )),
            },
            _ => Err(self.invalid_type(&visitor)),
        };
        self.fixed(r, start)
    }

    /// The text of a marked scalar, borrowed when the input spells it
    /// canonically (strict JTOO always does).
    fn marked_text<V: Visitor<'de>>(
        &self,
        start: usize,
        canonical: impl FnOnce() -> String,
        v: V,
    ) -> Result<V::Value> {
        match self.cur.input.get(start..self.cur.pos) {
            Some(raw) if !self.cur.syntax.is_lenient() => match std::str::from_utf8(raw) {
                Ok(s) => v.visit_borrowed_str(s),
                Err(_) => v.visit_string(canonical()),
            },
            _ => v.visit_string(canonical()),
        }
    }

    fn deserialize_marked<V: Visitor<'de>>(
        &mut self,
        marker: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.skip_ws()?;
        let start = self.cur.pos;
        let b = self.peek();
        let r = match (marker, b) {
            (DECIMAL_MARKER, Some(b'-' | b'0'..=b'9')) => match self.run(parse::number::number)? {
                Number::Decimal(d) => self.marked_text(start, || d.to_string(), visitor),
                Number::Integer(i) => visit_integer(i, visitor),
            },
            (DATETIME_MARKER, Some(b'D' | b'T')) => {
                let dt = self.run(parse::temporal::datetime)?;
                self.marked_text(start, || dt.to_string(), visitor)
            }
            (TIMESTAMP_MARKER, Some(b'S')) => {
                let ts = self.run(parse::timestamp::timestamp)?;
                self.marked_text(start, || ts.to_string(), visitor)
            }
            _ => Err(self.invalid_type(&visitor)),
        };
        self.fixed(r, start)
    }

    /// Enters the list a sequence, map or struct must be: where it starts
    /// and where its items start, or the type error.
    /// Always inlined: it is on the path of every typed list (not generic,
    /// LLVM would keep it a call).
    #[inline(always)]
    fn open_list(&mut self, exp: &dyn de::Expected) -> Result<(usize, usize)> {
        self.skip_ws()?;
        let start = self.cur.pos;
        if self.peek() != Some(b'[') {
            let e = self.invalid_type(exp);
            return Err(self.fix(e, start));
        }
        Ok((start, self.enter()?))
    }

    /// A list of pairs as a map or struct; with `UNIQUE` (maps), a
    /// repeated key is an error (a separate instance: structs pay nothing).
    #[inline]
    fn pairs<V: Visitor<'de>, const UNIQUE: bool>(&mut self, visitor: V) -> Result<V::Value> {
        let (start, list) = self.open_list(&visitor)?;
        let mut pairs = Pairs::<UNIQUE>::new(self, list);
        let r = visitor.visit_map(&mut pairs);
        pairs.forget_keys();
        let v = match r {
            Ok(v) => v,
            Err(e) => {
                // An error between a key and its value (serde's
                // `duplicate field`) is about that key.
                let at = if pairs.value_pending {
                    pairs.key_span.0
                } else {
                    start
                };
                return Err(pairs.de.fix(e, at));
            }
        };
        self.leave(list)?;
        Ok(v)
    }

    /// The position of byte `offset`, counted on from the last one asked
    /// for (positions of a document's `Spanned` values mostly increase).
    fn position(&mut self, offset: usize) -> jtoo::Position {
        let from = if offset >= self.last.offset {
            self.last
        } else {
            jtoo::Position::of(b"", 0)
        };
        let part = self.cur.input.get(from.offset..).unwrap_or_default();
        let mut p = jtoo::Position::of(part, offset - from.offset);
        if p.line == 1 {
            p.column += from.column - 1;
        }
        p.line += from.line - 1;
        p.offset += from.offset;
        self.last = p;
        crate::error::moved(self.origin, p)
    }

    /// A [`crate::Spanned`]: its start, the value, its end.
    #[cold]
    fn spanned<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        self.skip_ws()?;
        let start = self.position(self.cur.pos);
        visitor.visit_map(SpanAccess {
            de: self,
            start,
            step: 0,
        })
    }

    /// The canonical text of the key spelled at `span` (the text itself in
    /// strict JTOO, where every value has one spelling).
    #[inline]
    fn canonical_key(&self, span: (usize, usize)) -> Cow<'de, [u8]> {
        let input: &'de [u8] = self.cur.input;
        let text = input.get(span.0..span.1).unwrap_or_default();
        if !self.cur.syntax.is_lenient() {
            return Cow::Borrowed(text);
        }
        match parse::list::value(text, self.cur.syntax, self.cur.depth) {
            Ok((_, v)) => Cow::Owned(v.to_string().into_bytes()),
            Err(_) => Cow::Borrowed(text),
        }
    }

    /// `deserialize_any` on a list: a list whose first item is a pair is a
    /// map, any other list a sequence.
    ///
    /// Only the visitor's call is generic: [`Self::any_list_start`] reads
    /// up to it.
    fn any_list<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let start = self.enter()?;
        let v = match self.any_list_start(start)? {
            AnyStart::Map {
                key,
                key_span,
                seen,
            } => {
                let mut map = AnyMap {
                    de: self,
                    start,
                    pending_key: Some(key),
                    pending_value: None,
                    key_span,
                    seen,
                };
                let r = visitor.visit_map(&mut map);
                map.seen.finish(&mut map.de.keys);
                r?
            }
            AnyStart::Seq { first, done } => visitor.visit_seq(AnySeq {
                de: self,
                start,
                first,
                index: 0,
                done,
            })?,
        };
        self.leave(start)?;
        Ok(v)
    }

    /// The items of the list `any_list` entered at `start`, read up to what
    /// decides between map and sequence: its first item.
    fn any_list_start(&mut self, start: usize) -> Result<AnyStart<'de>> {
        if self.at_list_end(start)? {
            return Ok(AnyStart::Seq {
                first: None,
                done: true,
            });
        }
        let item_start = self.cur.pos;
        let first = self.parse_scalar()?;
        self.skip_ws()?;
        match first {
            Some(key) if self.peek() == Some(b':') => {
                let key_end = self.cur.pos;
                self.cur.pos += 1;
                self.skip_ws()?;
                let mut seen = SeenKeys::new(&self.keys);
                // The first key cannot repeat an earlier one.
                let text = self.canonical_key((item_start, key_end));
                let _ = seen.insert(&mut self.keys, text);
                Ok(AnyStart::Map {
                    key,
                    key_span: (item_start, key_end),
                    seen,
                })
            }
            first => {
                if first.is_none() {
                    self.cur.pos = item_start;
                }
                Ok(AnyStart::Seq {
                    first: first.map(|s| (s, item_start)),
                    done: false,
                })
            }
        }
    }

    /// After a list read whole as a pair's key or an item's value by
    /// `deserialize_any` (`ok`: it was read): a `:` there makes the list a
    /// key, which no visitor takes.
    fn after_any_list(&mut self, ok: bool, item_start: usize) -> Result<()> {
        self.skip_ws()?;
        if ok && self.peek() == Some(b':') {
            return Err(self.fix(list_as_key(), item_start));
        }
        Ok(())
    }

    /// Before a scalar item of `deserialize_any`: consumes `:` when the
    /// item is a pair (`true`).
    fn any_pair_colon(&mut self) -> Result<bool> {
        self.skip_ws()?;
        if self.peek() != Some(b':') {
            return Ok(false);
        }
        self.cur.pos += 1;
        self.skip_ws()?;
        Ok(true)
    }
}

/// How [`Deserializer::any_list`] goes on after the first item.
enum AnyStart<'de> {
    /// A map: its first key (read, and its `:`) and where it is spelled.
    Map {
        key: Scalar<'de>,
        key_span: (usize, usize),
        seen: SeenKeys<'de>,
    },
    /// A sequence: its first item if a scalar (and where it starts);
    /// `done` for `[]`.
    Seq {
        first: Option<(Scalar<'de>, usize)>,
        done: bool,
    },
}

/// The error for a plain item where a pair is needed.
#[cold]
pub(crate) fn not_a_pair() -> Error {
    Error::message(
        "expected a pair (`key:value`), found a plain item: maps, structs and enum variants are lists of pairs",
    )
}

/// The error for a list as a pair's key where the reader cannot take one.
#[cold]
pub(crate) fn list_as_key() -> Error {
    Error::message(
        "a list as the key of a pair is not supported here (read the list as `jtoo::Value`)",
    )
}

/// The error for `[]` read as an enum.
#[cold]
pub(crate) fn empty_variant() -> Error {
    Error::message("expected an enum variant `[\"Name\":value]`, found `[]`")
}

/// A scalar parsed ahead (the first item of a list in `deserialize_any`).
pub(crate) enum Scalar<'de> {
    Str(Cow<'de, str>),
    Bytes(Vec<u8>),
    Bool(bool),
    Int(Integer),
    Dec(Decimal),
    DateTime(DateTime),
    Timestamp(Timestamp),
}

impl<'de> Scalar<'de> {
    /// The scalar with its string copied out of the input.
    pub(crate) fn into_owned(self) -> Scalar<'static> {
        match self {
            Scalar::Str(s) => Scalar::Str(Cow::Owned(s.into_owned())),
            Scalar::Bytes(b) => Scalar::Bytes(b),
            Scalar::Bool(b) => Scalar::Bool(b),
            Scalar::Int(i) => Scalar::Int(i),
            Scalar::Dec(d) => Scalar::Dec(d),
            Scalar::DateTime(dt) => Scalar::DateTime(dt),
            Scalar::Timestamp(ts) => Scalar::Timestamp(ts),
        }
    }

    fn visit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            Scalar::Str(Cow::Borrowed(s)) => visitor.visit_borrowed_str(s),
            Scalar::Str(Cow::Owned(s)) => visitor.visit_string(s),
            Scalar::Bytes(b) => visitor.visit_byte_buf(b),
            Scalar::Bool(b) => visitor.visit_bool(b),
            Scalar::Int(i) => visit_integer(i, visitor),
            Scalar::Dec(d) => visitor.visit_f64(d.to_f64()),
            Scalar::DateTime(dt) => visitor.visit_map(MarkerMap::new(DATETIME_MARKER, &dt)),
            Scalar::Timestamp(ts) => visitor.visit_map(MarkerMap::new(TIMESTAMP_MARKER, &ts)),
        }
    }

    #[cold]
    fn invalid_type(&self, exp: &dyn de::Expected) -> Error {
        invalid_type(
            match self {
                Scalar::Str(s) => Found::Str(s),
                Scalar::Bytes(b) => Found::Bytes(b),
                Scalar::Bool(b) => Found::Bool(*b),
                Scalar::Int(i) => Found::Int(i),
                Scalar::Dec(d) => Found::Dec(d),
                Scalar::DateTime(dt) => Found::DateTime(dt),
                Scalar::Timestamp(ts) => Found::Timestamp(ts),
            },
            exp,
        )
    }
}

/// Hands a parsed-ahead scalar to a seed.
pub(crate) struct ScalarDeserializer<'de>(pub(crate) Scalar<'de>);

impl<'de> de::Deserializer<'de> for ScalarDeserializer<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.0.visit(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            Scalar::Dec(d) => visitor.visit_f64(d.to_f64()),
            s => s.visit(visitor),
        }
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            Scalar::Dec(d) => visitor.visit_f32(d.to_f32()),
            s => s.visit(visitor),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.0 {
            Scalar::Str(s) => visitor.visit_enum(UnitVariant(s)),
            s => Err(s.invalid_type(&"an enum variant")),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 char str string
        bytes byte_buf unit unit_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

/// `{marker: text}`: how `deserialize_any` presents decimals that are not
/// exact floats, date/times and timestamps.
pub(crate) struct MarkerMap {
    pub(crate) key: Option<&'static str>,
    pub(crate) text: String,
}

impl MarkerMap {
    /// `{key: text}` (out of the visitors' generic functions).
    #[inline(never)]
    pub(crate) fn new(key: &'static str, text: &dyn std::fmt::Display) -> MarkerMap {
        MarkerMap {
            key: Some(key),
            text: text.to_string(),
        }
    }
}

impl<'de> MapAccess<'de> for MarkerMap {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        match self.key.take() {
            Some(k) => seed
                .deserialize(de::value::BorrowedStrDeserializer::new(k))
                .map(Some),
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(std::mem::take(&mut self.text).into_deserializer())
    }

    fn size_hint(&self) -> Option<usize> {
        Some(usize::from(self.key.is_some()))
    }
}

/// A unit variant named by a string.
struct UnitVariant<'de>(Cow<'de, str>);

impl<'de> de::EnumAccess<'de> for UnitVariant<'de> {
    type Error = Error;
    type Variant = UnitOnly;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, UnitOnly)> {
        let v = match self.0 {
            Cow::Borrowed(s) => {
                seed.deserialize(de::value::BorrowedStrDeserializer::<Error>::new(s))?
            }
            Cow::Owned(s) => seed.deserialize(de::value::StringDeserializer::<Error>::new(s))?,
        };
        Ok((v, UnitOnly))
    }
}

struct UnitOnly;

impl<'de> de::VariantAccess<'de> for UnitOnly {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"newtype variant `[\"Name\":value]`",
        ))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"tuple variant `[\"Name\":[…]]`",
        ))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"struct variant `[\"Name\":[…]]`",
        ))
    }
}

// ------------------------------------------------------------ accesses

/// The items of a list read as a sequence (typed: no pairs allowed).
struct Seq<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    start: usize,
    index: usize,
}

impl<'de> SeqAccess<'de> for Seq<'_, 'de> {
    type Error = Error;

    /// serde's provided `next_element`, always inlined: left to the
    /// compiler it became a call per item of a typed sequence (canada's
    /// coordinate pairs: +12% instructions).
    #[inline(always)]
    fn next_element<T: de::Deserialize<'de>>(&mut self) -> Result<Option<T>> {
        self.next_element_seed(std::marker::PhantomData)
    }

    #[inline(always)]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.de.at_list_end(self.start)? {
            return Ok(None);
        }
        let value_start = self.de.cur.pos;
        let v = match seed.deserialize(&mut *self.de) {
            Ok(v) => v,
            Err(e) => return Err(self.de.item_error(e, value_start, self.index)),
        };
        self.index += 1;
        self.de.after_item(self.start)?;
        Ok(Some(v))
    }
}

/// The pairs of a list read as a map or struct.
struct Pairs<'a, 'de, const UNIQUE: bool> {
    de: &'a mut Deserializer<'de>,
    start: usize,
    key_span: (usize, usize),
    /// A key was read and its value not yet: an error the visitor returns
    /// now (serde's `duplicate field`) is about that key.
    value_pending: bool,
    /// The keys so far, for a map (duplicates are an error).
    seen: Option<SeenKeys<'de>>,
}

// The generic methods keep to the seed's call; the grammar and the
// bookkeeping around it are in these (inlined in a release build, one copy
// in a debug one).
impl<'a, 'de, const UNIQUE: bool> Pairs<'a, 'de, UNIQUE> {
    /// The pairs of the list whose items start at `list`.
    #[inline]
    fn new(de: &'a mut Deserializer<'de>, list: usize) -> Self {
        let seen = UNIQUE.then(|| SeenKeys::new(&de.keys));
        Pairs {
            de,
            start: list,
            key_span: (list, list),
            value_pending: false,
            seen,
        }
    }

    /// The map's keys leave the stack whatever happened (a visitor may go
    /// on after an error of an inner map).
    #[inline]
    fn forget_keys(&mut self) {
        if UNIQUE && let Some(seen) = &self.seen {
            seen.finish(&mut self.de.keys);
        }
    }

    /// After the key that started at `key_start`: records it (maps) and
    /// consumes `:`.
    #[inline]
    fn after_key(&mut self, key_start: usize) -> Result<()> {
        self.key_span = (key_start, self.de.cur.pos);
        if UNIQUE && let Some(seen) = &mut self.seen {
            let key = self.de.canonical_key(self.key_span);
            if let Err(e) = seen.insert(&mut self.de.keys, key) {
                return Err(self.de.fix(e, key_start));
            }
        }
        self.de.colon(key_start)?;
        self.value_pending = true;
        Ok(())
    }

    /// Before a value: where it starts.
    #[inline]
    fn before_value(&mut self) -> Result<usize> {
        self.value_pending = false;
        self.de.skip_ws()?;
        Ok(self.de.cur.pos)
    }
}

impl<'de, const UNIQUE: bool> MapAccess<'de> for Pairs<'_, 'de, UNIQUE> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.de.at_list_end(self.start)? {
            return Ok(None);
        }
        let key_start = self.de.cur.pos;
        let k = match seed.deserialize(&mut *self.de) {
            Ok(k) => k,
            Err(e) => return Err(self.de.key_error(e, key_start)),
        };
        self.after_key(key_start)?;
        Ok(Some(k))
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let value_start = self.before_value()?;
        let v = match seed.deserialize(&mut *self.de) {
            Ok(v) => v,
            Err(e) => return Err(self.de.value_error(e, value_start, self.key_span)),
        };
        self.de.after_item(self.start)?;
        Ok(v)
    }
}

/// A list read as a sequence by `deserialize_any`: a pair item is presented
/// as `{"$__jtoo_private_Pair": [key, value]}`.
struct AnySeq<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    start: usize,
    first: Option<(Scalar<'de>, usize)>,
    index: usize,
    done: bool,
}

impl<'de> SeqAccess<'de> for AnySeq<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let Some((scalar, item_start)) = self.next_item()? else {
            return Ok(None);
        };
        let de = &mut *self.de;
        let r = match scalar {
            None => {
                let v = seed.deserialize(&mut *de);
                if v.is_ok() {
                    de.after_any_list(true, item_start)?;
                }
                v
            }
            Some(s) => match de.any_pair_colon()? {
                true => seed.deserialize(PairItem {
                    de: &mut *de,
                    key: Some(s),
                }),
                false => seed.deserialize(ScalarDeserializer(s)),
            },
        };
        let v = match r {
            Ok(v) => v,
            Err(e) => return Err(de.item_error(e, item_start, self.index)),
        };
        self.index += 1;
        de.after_item(self.start)?;
        Ok(Some(v))
    }
}

impl<'de> AnySeq<'_, 'de> {
    /// The next item: its first scalar (`None` for a list, left unread)
    /// and where it starts; `None` at the end.
    #[allow(clippy::type_complexity)]
    fn next_item(&mut self) -> Result<Option<(Option<Scalar<'de>>, usize)>> {
        if self.done {
            return Ok(None);
        }
        if let Some((s, item_start)) = self.first.take() {
            return Ok(Some((Some(s), item_start)));
        }
        if self.de.at_list_end(self.start)? {
            self.done = true;
            return Ok(None);
        }
        let item_start = self.de.cur.pos;
        let s = self.de.parse_scalar()?;
        Ok(Some((s, item_start)))
    }
}

/// `{"$__jtoo_private_Pair": [key, value]}` with the value still to read
/// by `de` (this deserializer, or [`crate::IoDeserializer`]).
pub(crate) struct PairItem<'a, 'de, D> {
    pub(crate) de: &'a mut D,
    pub(crate) key: Option<Scalar<'de>>,
}

impl<'de, D> de::Deserializer<'de> for PairItem<'_, 'de, D>
where
    for<'b> &'b mut D: de::Deserializer<'de, Error = Error>,
{
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_map(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, D> MapAccess<'de> for PairItem<'_, 'de, D>
where
    for<'b> &'b mut D: de::Deserializer<'de, Error = Error>,
{
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.key.is_none() {
            return Ok(None);
        }
        seed.deserialize(de::value::BorrowedStrDeserializer::new(PAIR_MARKER))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(PairSeq {
            de: &mut *self.de,
            key: self.key.take(),
            done: false,
        })
    }
}

/// `[key, value]` of a pair item.
struct PairSeq<'a, 'de, D> {
    de: &'a mut D,
    key: Option<Scalar<'de>>,
    done: bool,
}

impl<'de, D> de::Deserializer<'de> for PairSeq<'_, 'de, D>
where
    for<'b> &'b mut D: de::Deserializer<'de, Error = Error>,
{
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, D> SeqAccess<'de> for PairSeq<'_, 'de, D>
where
    for<'b> &'b mut D: de::Deserializer<'de, Error = Error>,
{
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if let Some(k) = self.key.take() {
            return seed.deserialize(ScalarDeserializer(k)).map(Some);
        }
        if self.done {
            return Ok(None);
        }
        self.done = true;
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(usize::from(self.key.is_some()) + usize::from(!self.done))
    }
}

/// A list read as a map by `deserialize_any`: a plain item is presented as
/// an entry with the key `"$__jtoo_private_Item"`. A repeated key (or a
/// second plain item) is an error, as in `deserialize_map`: the visitor
/// builds a map (`serde_json::Value`, serde's buffering for untagged
/// enums), which would keep only one of them.
struct AnyMap<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    start: usize,
    pending_key: Option<Scalar<'de>>,
    pending_value: Option<Option<Scalar<'de>>>,
    key_span: (usize, usize),
    seen: SeenKeys<'de>,
}

impl<'de> MapAccess<'de> for AnyMap<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let r = match self.next_key()? {
            None => return Ok(None),
            Some(AnyKey::Item) => {
                return seed
                    .deserialize(de::value::BorrowedStrDeserializer::new(ITEM_MARKER))
                    .map(Some);
            }
            Some(AnyKey::Pair(k)) => seed.deserialize(ScalarDeserializer(k)),
        };
        match r {
            Ok(k) => Ok(Some(k)),
            Err(e) => Err(self.de.fix(e, self.key_span.0)),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let de = &mut *self.de;
        let r = match self.pending_value.take() {
            Some(Some(s)) => seed.deserialize(ScalarDeserializer(s)),
            Some(None) => {
                let v = seed.deserialize(&mut *de);
                de.after_any_list(v.is_ok(), self.key_span.0)?;
                v
            }
            None => seed.deserialize(&mut *de),
        };
        let v = match r {
            Ok(v) => v,
            Err(e) => return Err(de.value_error(e, self.key_span.0, self.key_span)),
        };
        de.after_item(self.start)?;
        Ok(v)
    }
}

/// The next entry of an [`AnyMap`].
enum AnyKey<'de> {
    /// A pair: its key (the `:` after it consumed).
    Pair(Scalar<'de>),
    /// A plain item, presented under the key `$__jtoo_private_Item`.
    Item,
}

impl<'de> AnyMap<'_, 'de> {
    /// Reads up to the next entry's key; `None` at the end.
    fn next_key(&mut self) -> Result<Option<AnyKey<'de>>> {
        if let Some(k) = self.pending_key.take() {
            return Ok(Some(AnyKey::Pair(k)));
        }
        let de = &mut *self.de;
        if de.at_list_end(self.start)? {
            return Ok(None);
        }
        let item_start = de.cur.pos;
        let s = de.parse_scalar()?;
        let key_end = de.cur.pos;
        de.skip_ws()?;
        self.key_span = (item_start, key_end);
        match s {
            Some(k) if de.peek() == Some(b':') => {
                let key = de.canonical_key(self.key_span);
                self.seen
                    .insert(&mut de.keys, key)
                    .map_err(|e| de.fix(e, item_start))?;
                de.cur.pos += 1;
                de.skip_ws()?;
                Ok(Some(AnyKey::Pair(k)))
            }
            s => {
                self.seen.insert_item().map_err(|e| de.fix(e, item_start))?;
                if s.is_none() {
                    de.cur.pos = item_start;
                }
                self.pending_value = Some(s);
                Ok(Some(AnyKey::Item))
            }
        }
    }
}

/// A deserializer that knows where it is, for [`SpanAccess`].
pub(crate) trait Place {
    /// The position after the value read last.
    fn place(&mut self) -> jtoo::Position;
}

impl Place for Deserializer<'_> {
    fn place(&mut self) -> jtoo::Position {
        self.position(self.cur.pos)
    }
}

/// A [`crate::Spanned`] as a map of three entries: start, value, end.
pub(crate) struct SpanAccess<'a, D> {
    pub(crate) de: &'a mut D,
    pub(crate) start: jtoo::Position,
    pub(crate) step: usize,
}

impl<'de, D: Place> MapAccess<'de> for SpanAccess<'_, D>
where
    for<'b> &'b mut D: de::Deserializer<'de, Error = Error>,
{
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        match spanned::FIELDS.get(self.step) {
            Some(k) => seed
                .deserialize(de::value::BorrowedStrDeserializer::new(k))
                .map(Some),
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.step += 1;
        let p = match self.step {
            1 => self.start,
            2 => return seed.deserialize(&mut *self.de),
            _ => self.de.place(),
        };
        seed.deserialize(PositionDeserializer(p))
    }
}

/// A position of a [`crate::Spanned`], for its `(offset, line, column)`
/// tuple. Any other type is refused before its visitor is called: the
/// seed of [`SpanAccess::next_value_seed`] is the position's or the
/// value's, and this keeps the value's type (whose seed never gets here)
/// from building its whole visitor again for this deserializer.
struct PositionDeserializer(jtoo::Position);

impl<'de> de::Deserializer<'de> for PositionDeserializer {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(not_a_position())
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        let p = self.0;
        visitor.visit_seq(de::value::SeqDeserializer::new(
            [p.offset, p.line, p.column].into_iter(),
        ))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq
        tuple_struct map struct enum identifier ignored_any
    }
}

/// The error for a position read as anything but its tuple.
#[cold]
#[inline(never)]
fn not_a_position() -> Error {
    Error::message("a position is read as the tuple (offset, line, column)")
}

/// `["Name":content]`, or `["Name"]` (a payload left out, as `None` is).
struct Variant<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    /// `false` for `["Name"]`.
    payload: bool,
}

impl<'de> de::EnumAccess<'de> for Variant<'_, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let key_start = self.de.cur.pos;
        let r = seed.deserialize(&mut *self.de);
        let v = self.de.fixed(r, key_start)?;
        let payload = self.de.variant_payload(key_start)?;
        Ok((v, Variant { payload, ..self }))
    }
}

impl Deserializer<'_> {
    /// After the name of a variant that started at `key_start`: whether a
    /// payload follows (`:` consumed) or not (`["Name"]`).
    fn variant_payload(&mut self, key_start: usize) -> Result<bool> {
        self.skip_ws()?;
        Ok(match self.peek() {
            Some(b']') => false,
            Some(b',') if self.cur.syntax.is_lenient() => false,
            _ => {
                self.colon(key_start)?;
                true
            }
        })
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        // `["Name":[]]` and `["Name"]` also read as a unit variant.
        if !self.payload {
            return Ok(());
        }
        self.de.deserialize_unit(de::IgnoredAny).map(|_| ())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        if !self.payload {
            let r = seed.deserialize(crate::no_payload::NoPayload);
            return self.de.fixed(r, self.de.cur.pos);
        }
        seed.deserialize(&mut *self.de)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        if !self.payload {
            let r = de::Deserializer::deserialize_seq(crate::no_payload::NoPayload, visitor);
            return self.de.fixed(r, self.de.cur.pos);
        }
        self.de.deserialize_seq(visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        if !self.payload {
            let r = de::Deserializer::deserialize_map(crate::no_payload::NoPayload, visitor);
            return self.de.fixed(r, self.de.cur.pos);
        }
        self.de.deserialize_map(visitor)
    }
}

// ------------------------------------------------------------ Deserializer

impl<'de> Deserializer<'de> {
    /// `deserialize_f64` past its strict fast path (lenient text, long
    /// numbers, errors), out of line so the fast path keeps a small frame.
    #[cold]
    #[inline(never)]
    fn f64_rest<V: Visitor<'de>>(&mut self, visitor: V, start: usize) -> Result<V::Value> {
        let r = match self.peek() {
            Some(b'-' | b'0'..=b'9') => {
                // Straight to the float, correctly rounded.
                let v = match parse::number::number_f64(self.rest(), self.cur.syntax) {
                    Ok((rest, v)) => {
                        self.set_rest(rest);
                        v
                    }
                    Err(e) => return Err(self.nom_err(e)),
                };
                visitor.visit_f64(v)
            }
            _ => Err(self.invalid_type(&visitor)),
        };
        self.fixed(r, start)
    }
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_ws()?;
        let start = self.cur.pos;
        let r = match self.peek() {
            Some(b'[') => self.any_list(visitor),
            _ => match self.parse_scalar()? {
                Some(s) => s.visit(visitor),
                None => Err(self.expected_value()),
            },
        };
        self.fixed(r, start)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_ws()?;
        let start = self.cur.pos;
        let r = match self.peek() {
            Some(b'Y') => {
                self.cur.pos += 1;
                visitor.visit_bool(true)
            }
            Some(b'N') => {
                self.cur.pos += 1;
                visitor.visit_bool(false)
            }
            _ => Err(self.invalid_type(&visitor)),
        };
        self.fixed(r, start)
    }

    forward_deserialize! {
        deserialize_int: deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_ws()?;
        let start = self.cur.pos;
        let r = match self.peek() {
            Some(b'-' | b'0'..=b'9') => {
                // Straight to the float, correctly rounded.
                let v = match parse::number::number_f32(self.rest(), self.cur.syntax) {
                    Ok((rest, v)) => {
                        self.set_rest(rest);
                        v
                    }
                    Err(e) => return Err(self.nom_err(e)),
                };
                visitor.visit_f32(v)
            }
            _ => Err(self.invalid_type(&visitor)),
        };
        self.fixed(r, start)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_ws()?;
        let start = self.cur.pos;
        // The strict common case straight from the bytes.
        if !self.cur.syntax.is_lenient()
            && let Some((len, v)) = parse::number::strict_f64_prefix(self.rest())
        {
            self.cur.pos += len;
            let r = visitor.visit_f64(v);
            return self.fixed(r, start);
        }
        self.f64_rest(visitor, start)
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_ws()?;
        let start = self.cur.pos;
        let r = match self.peek() {
            Some(b'"') => match self.parse_string()? {
                Cow::Borrowed(s) => visitor.visit_borrowed_str(s),
                Cow::Owned(s) => visitor.visit_string(s),
            },
            _ => Err(self.invalid_type(&visitor)),
        };
        self.fixed(r, start)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_ws()?;
        let start = self.cur.pos;
        let r = match self.peek() {
            Some(b'B') => {
                let b = self.run(parse::bytes::byte_string)?;
                visitor.visit_byte_buf(b)
            }
            Some(b'"') => match self.parse_string()? {
                Cow::Borrowed(s) => visitor.visit_borrowed_bytes(s.as_bytes()),
                Cow::Owned(s) => visitor.visit_byte_buf(s.into_bytes()),
            },
            Some(b'[') => self.deserialize_seq(visitor),
            _ => Err(self.invalid_type(&visitor)),
        };
        self.fixed(r, start)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        // JTOO has no null: a value that is present is `Some`.
        visitor.visit_some(self)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_ws()?;
        let start = self.cur.pos;
        let r = if self.peek() == Some(b'[') {
            let list = self.enter()?;
            if self.peek() == Some(b']') {
                self.leave(list)?;
                visitor.visit_unit()
            } else {
                self.cur.pos = start;
                self.cur.depth += 1;
                Err(self.invalid_type(&visitor))
            }
        } else {
            Err(self.invalid_type(&visitor))
        };
        self.fixed(r, start)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        match name {
            DECIMAL_MARKER | DATETIME_MARKER | TIMESTAMP_MARKER => {
                self.deserialize_marked(name, visitor)
            }
            VALUE_MARKER => {
                self.skip_ws()?;
                let start = self.cur.pos;
                let v = match parse::list::value(self.rest(), self.cur.syntax, self.cur.depth) {
                    Ok((rest, v)) => {
                        self.set_rest(rest);
                        v
                    }
                    Err(e) => return Err(self.nom_err(e)),
                };
                let r = visitor.visit_newtype_struct(crate::value_de::ValueDeserializer::exact(
                    v,
                    self.cur.depth,
                ));
                self.fixed(r, start)
            }
            _ if name == crate::raw::RAW_MARKER => {
                // One value checked by the validator, handed over as text.
                self.skip_ws()?;
                let start = self.cur.pos;
                self.skip_value()?;
                let (input, end) = (self.cur.input, self.cur.pos);
                let text = input.get(start..end).unwrap_or_default();
                let checked = self.cur.known.text_of(input, start, end);
                let r =
                    crate::raw::visit_text(visitor, text, checked, self.cur.syntax, self.cur.depth);
                self.fixed(r, start)
            }
            _ => visitor.visit_newtype_struct(self),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let (start, list) = self.open_list(&visitor)?;
        let r = visitor.visit_seq(Seq {
            de: self,
            start: list,
            index: 0,
        });
        let v = self.fixed(r, start)?;
        self.leave(list)?;
        Ok(v)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    #[inline]
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.pairs::<V, true>(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        if name == spanned::NAME {
            return self.spanned(visitor);
        }
        // serde's derive refuses a repeated field itself.
        self.pairs::<V, false>(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.skip_ws()?;
        let start = self.cur.pos;
        let r = match self.peek() {
            Some(b'"') => {
                let s = self.parse_string()?;
                visitor.visit_enum(UnitVariant(s))
            }
            Some(b'[') => {
                let list = self.enter()?;
                if self.peek() == Some(b']') {
                    Err(empty_variant())
                } else {
                    let v = visitor.visit_enum(Variant {
                        de: &mut *self,
                        payload: true,
                    })?;
                    self.skip_ws()?;
                    if self.cur.syntax.is_lenient() && self.peek() == Some(b',') {
                        self.cur.pos += 1;
                    }
                    self.leave(list)?;
                    Ok(v)
                }
            }
            _ => Err(self.invalid_type(&visitor)),
        };
        self.fixed(r, start)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_ws()?;
        match self.peek() {
            Some(b'"') => self.deserialize_str(visitor),
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_value()?;
        visitor.visit_unit()
    }
}
