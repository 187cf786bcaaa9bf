//! Reading a document without building it: [`ValueRef`], a borrowed view of
//! one value, and [`get`], a path lookup that parses only what lies before
//! the value it finds.
//!
//! Both walk the text with the one list reader, [`Cursor`], and the scalar
//! productions of [`crate::parse`]: no rule of the grammar is written twice.
//! A [`ValueRef`] is the canonical text of one value that has been checked
//! already, so its accessors never fail on the grammar; they read the value
//! (or, for lists, the items they pass) again each time they are called, so
//! a value read many times is better built once with [`ValueRef::to_value`].
//!
//! ```
//! use jtoo::{ValueRef, ValueRefItem};
//! let doc = br#"["user":["name":"Ada","tags":["math","code\22s\22"]],"n":3]"#;
//! let root = ValueRef::from_slice(doc)?;
//! let user = root.get("user").unwrap();
//! assert_eq!(user.get("name").and_then(|n| n.as_str()).as_deref(), Some("Ada"));
//! assert_eq!(user.raw(), br#"["name":"Ada","tags":["math","code\22s\22"]]"#);
//! let tags: Vec<_> = user.get("tags").unwrap().items().map(|i| i.value().as_str().unwrap()).collect();
//! assert_eq!(tags, ["math", "code\"s\""]);
//! assert!(matches!(root.items().nth(1), Some(ValueRefItem::Pair(_, n)) if n.as_i64() == Some(3)));
//!
//! // The same value, found without checking or building the rest.
//! let code = jtoo::get(doc, &jtoo::path!["user", "tags", 1])?.unwrap();
//! assert_eq!(code.as_str().as_deref(), Some("code\"s\""));
//! # Ok::<(), jtoo::Error>(())
//! ```

use std::borrow::Cow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::iter::FusedIterator;

use crate::error::{Error, ErrorKind};
use crate::options::Options;
use crate::parse::cursor::Cursor;
use crate::parse::string::Known;
use crate::parse::{self, Number, PResult, ParseError, Syntax};
use crate::types::{DateTime, Decimal, Integer, Timestamp};
use crate::value::Value;

/// A borrowed view of one strict JTOO value: its canonical text, a slice of
/// the document, which was checked when the view was made.
///
/// Made by [`ValueRef::from_slice`] (which checks the whole document once,
/// as [`crate::validate`] does), by [`get`] (which checks the value it
/// finds and what lies before it), and by navigating another view
/// ([`ValueRef::get`], [`ValueRef::index`], [`ValueRef::items`],
/// [`ValueRef::path`]). Navigation walks the list's text up to the item it
/// wants, skipping the items before it with the same reader that checked
/// them; nothing is allocated, and strings without escapes borrow from the
/// document ([`ValueRef::as_str`]).
///
/// Strict JTOO has exactly one spelling per value, so two views are equal
/// (`==`, [`Hash`]) exactly when the values they show are.
///
/// ```
/// use jtoo::{ValueKind, ValueRef};
/// let doc = br#"["id":7,"name":"Ada","scores":[1.5,2]]"#;
/// let v = ValueRef::from_slice(doc)?;
/// assert_eq!(v.kind(), ValueKind::List);
/// assert_eq!(v.get("id").and_then(|id| id.as_i64()), Some(7));
/// assert_eq!(v.get("scores").unwrap().index(0).and_then(|s| s.as_f64()), Some(1.5));
/// assert_eq!(v.get("scores").unwrap().raw(), b"[1.5,2]");
/// assert_eq!(v.to_value(), jtoo::from_slice(doc)?);
/// # Ok::<(), jtoo::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ValueRef<'a> {
    /// The value's canonical text (checked: valid UTF-8 and valid JTOO).
    text: &'a str,
    /// How many more list levels may be opened from here, as when the text
    /// was checked (what [`ValueRef::to_value`] parses with).
    depth: usize,
}

/// What kind of value a [`ValueRef`] shows: the variants of [`Value`].
///
/// ```
/// use jtoo::{ValueKind, ValueRef};
/// let v = ValueRef::from_slice(br#"["a",B00,Y,1,1.5,D2024,S0,[]]"#)?;
/// let kinds: Vec<ValueKind> = v.items().map(|i| i.value().kind()).collect();
/// assert_eq!(kinds, [
///     ValueKind::String, ValueKind::Bytes, ValueKind::Bool, ValueKind::Integer,
///     ValueKind::Decimal, ValueKind::DateTime, ValueKind::Timestamp, ValueKind::List,
/// ]);
/// # Ok::<(), jtoo::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// A string ([`Value::String`]).
    String,
    /// A byte string ([`Value::Bytes`]).
    Bytes,
    /// `Y` or `N` ([`Value::Bool`]).
    Bool,
    /// An integer ([`Value::Integer`]).
    Integer,
    /// A decimal ([`Value::Decimal`]).
    Decimal,
    /// A date, time, offset or combination ([`Value::DateTime`]).
    DateTime,
    /// A Unix timestamp ([`Value::Timestamp`]).
    Timestamp,
    /// A list ([`Value::List`]).
    List,
}

impl ValueKind {
    /// The short name of the kind, as [`Value::type_name`] gives it.
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(b"B4f4b")?;
    /// assert_eq!(v.kind().name(), "byte string");
    /// assert_eq!(v.kind().name(), v.to_value().type_name());
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ValueKind::String => "string",
            ValueKind::Bytes => "byte string",
            ValueKind::Bool => "boolean",
            ValueKind::Integer => "integer",
            ValueKind::Decimal => "decimal",
            ValueKind::DateTime => "date/time",
            ValueKind::Timestamp => "timestamp",
            ValueKind::List => "list",
        }
    }
}

/// One item of a list seen through a [`ValueRef`]: a plain value, or a
/// key-value pair (what [`ValueRef::items`] yields).
///
/// ```
/// use jtoo::{ValueRef, ValueRefItem};
/// let v = ValueRef::from_slice(br#"[1,"k":2]"#)?;
/// let items: Vec<ValueRefItem> = v.items().collect();
/// assert!(matches!(items[0], ValueRefItem::Value(one) if one.as_i64() == Some(1)));
/// assert!(matches!(items[1], ValueRefItem::Pair(k, _) if k.raw() == br#""k""#));
/// # Ok::<(), jtoo::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueRefItem<'a> {
    /// A plain value.
    Value(ValueRef<'a>),
    /// A `key:value` pair: key, then value.
    Pair(ValueRef<'a>, ValueRef<'a>),
}

impl<'a> ValueRefItem<'a> {
    /// The item's value: the plain value, or the pair's value (as
    /// [`ValueRef::index`] gives it).
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(br#"[1,"k":2]"#)?;
    /// let values: Vec<_> = v.items().map(|i| i.value().as_i64()).collect();
    /// assert_eq!(values, [Some(1), Some(2)]);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn value(self) -> ValueRef<'a> {
        match self {
            ValueRefItem::Value(v) | ValueRefItem::Pair(_, v) => v,
        }
    }

    /// The pair's key, if this item is a pair.
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(br#"[1,"k":2]"#)?;
    /// let keys: Vec<_> = v.items().map(|i| i.key().map(|k| k.raw())).collect();
    /// assert_eq!(keys, [None, Some(&br#""k""#[..])]);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn key(self) -> Option<ValueRef<'a>> {
        match self {
            ValueRefItem::Pair(k, _) => Some(k),
            ValueRefItem::Value(_) => None,
        }
    }

    /// The plain value, if this item is not a pair.
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(br#"[1,"k":2]"#)?;
    /// let plain: Vec<_> = v.items().filter_map(|i| i.as_value()).collect();
    /// assert_eq!(plain.len(), 1);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn as_value(self) -> Option<ValueRef<'a>> {
        match self {
            ValueRefItem::Value(v) => Some(v),
            ValueRefItem::Pair(..) => None,
        }
    }

    /// `true` for a pair.
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(br#"[1,"k":2]"#)?;
    /// assert_eq!(v.items().filter(|i| i.is_pair()).count(), 1);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn is_pair(self) -> bool {
        matches!(self, ValueRefItem::Pair(..))
    }
}

/// One step of a path for [`get`] and [`ValueRef::path`]: a pair's string
/// key, or an item's position. Made from `&str` and `usize` with `From`,
/// and most easily with [`path!`](crate::path!).
///
/// ```
/// use jtoo::PathItem;
/// let path = [PathItem::from("statuses"), 3.into(), "user".into()];
/// assert_eq!(path[1], PathItem::Index(3));
/// assert_eq!(path, jtoo::path!["statuses", 3, "user"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PathItem<'p> {
    /// The value of the first pair whose key is this string, as
    /// [`ValueRef::get`] (and [`Value::get`]) find it.
    Key(&'p str),
    /// The value of the item at this position (a pair's value for a pair),
    /// as [`ValueRef::index`] (and `Value`'s `Index<usize>`) find it.
    Index(usize),
}

impl<'p> From<&'p str> for PathItem<'p> {
    /// A [`PathItem::Key`].
    fn from(key: &'p str) -> PathItem<'p> {
        PathItem::Key(key)
    }
}

impl<'p> From<&'p String> for PathItem<'p> {
    /// A [`PathItem::Key`].
    fn from(key: &'p String) -> PathItem<'p> {
        PathItem::Key(key)
    }
}

impl From<usize> for PathItem<'_> {
    /// A [`PathItem::Index`].
    fn from(index: usize) -> Self {
        PathItem::Index(index)
    }
}

/// An array of [`PathItem`]s from keys (`&str`) and positions (`usize`),
/// for [`get`](crate::get) and [`ValueRef::path`](crate::ValueRef::path).
///
/// ```
/// let doc = br#"["statuses":[["id":1],["id":2,"user":["name":"ann"]]]]"#;
/// let name = jtoo::get(doc, &jtoo::path!["statuses", 1, "user", "name"])?;
/// assert_eq!(name.and_then(|n| n.as_str()).as_deref(), Some("ann"));
/// let i = 0;
/// assert_eq!(jtoo::path!["statuses", i], [jtoo::PathItem::Key("statuses"), jtoo::PathItem::Index(0)]);
/// # Ok::<(), jtoo::Error>(())
/// ```
#[macro_export]
macro_rules! path {
    ($($step:expr),* $(,)?) => {
        [$($crate::PathItem::from($step)),*]
    };
}

/// Where the item a [`PathItem`] names was found in a list.
enum Found {
    /// The list has no such item (the cursor is at its `]`).
    Missing,
    /// A pair's value starts at the cursor's position; nothing of it is
    /// read yet.
    Ahead,
    /// A plain item's value, already read (and checked): its start and end.
    Read(usize, usize),
}

/// In the list whose `[` the cursor has just read (at `list`), moves to the
/// item `step` names, reading (and checking) the items before it.
fn find_item(c: &mut Cursor<'_>, list: usize, step: PathItem<'_>) -> Result<Found, ParseError> {
    let mut n = 0usize;
    loop {
        if c.at_list_end(list)? {
            return Ok(Found::Missing);
        }
        let first = c.pos;
        let (matched, ambiguous) = match step {
            PathItem::Key(key) if c.peek() == Some(b'"') => {
                // The key is read with the string production, as the
                // validator reads it (same errors), and compared.
                let (syntax, known) = (c.syntax, c.known);
                let (rest, s) = parse::string::string_in(c.rest(), syntax, known)
                    .map_err(|e| parse::unwrap_nom_err(e, c.input))?;
                c.set_rest(rest);
                (s == key, false)
            }
            PathItem::Key(_) => (false, c.skip_key()?),
            PathItem::Index(i) => (i == n, c.skip_key()?),
        };
        let first_end = c.pos;
        let pair = c.pair_colon(list, ambiguous)?;
        if matched {
            match step {
                PathItem::Index(_) if !pair => return Ok(Found::Read(first, first_end)),
                _ if pair => return Ok(Found::Ahead),
                _ => {}
            }
        }
        if pair {
            c.skip_value()?;
        }
        c.after_item(list)?;
        n += 1;
    }
}

/// Follows `path` from the value at the cursor's position. Returns the
/// span of the value found, checked, or `None` when the path leads nowhere
/// (the value where it stops is checked).
fn walk(c: &mut Cursor<'_>, path: &[PathItem<'_>]) -> Result<Option<(usize, usize)>, ParseError> {
    let mut read = None;
    for &step in path {
        if let Some((start, _)) = read.take() {
            // A plain item read to find out it was not a pair key: go back
            // to its start to walk into it.
            c.pos = start;
        }
        if c.peek() != Some(b'[') {
            c.skip_value()?;
            return Ok(None);
        }
        let list = c.begin_list()?;
        match find_item(c, list, step)? {
            Found::Missing => return Ok(None),
            Found::Ahead => {}
            Found::Read(start, end) => read = Some((start, end)),
        }
    }
    match read {
        Some(span) => Ok(Some(span)),
        None => {
            let start = c.pos;
            c.skip_value()?;
            Ok(Some((start, c.pos)))
        }
    }
}

/// Finds the value at `path` in the strict JTOO document `doc` without
/// parsing the rest of it: lists are walked with the one list reader
/// ([`Cursor`]), every item before the path's next step is skipped with
/// the validator's checks, and the value found is checked whole. Returns
/// `None` when the path names nothing (a missing key or position, or a
/// step into a value that is not a list).
///
/// What is checked: everything from the start of `doc` to the end of the
/// value found (or, for `None`, to where the lookup stopped: the `]` of the
/// list without the step, or the end of the scalar a step could not enter),
/// with the same rules and errors as [`crate::from_slice`], positioned in
/// `doc`; lists nest at most [`Options::DEFAULT_MAX_DEPTH`] deep. What is
/// not: the bytes after that point, which are not parsed, so a document
/// that is broken further on (or only a prefix of one) still answers, and
/// what follows the value found (a `,`, `]`, anything) is not looked at
/// either. (One fast pass over the whole of `doc` tells whether it is all
/// UTF-8, as every reader of this crate does first; its outcome only
/// decides whether strings on the way are checked one by one, never a
/// result or an error.) Use [`crate::validate`] or [`ValueRef::from_slice`]
/// first where the whole document must be valid.
///
/// Keys are matched as [`Value::get`] matches them (the first pair whose key
/// is that string), positions as `Value`'s `Index<usize>` (the item's value,
/// for a pair its value). A plain list item that a path walks into is read
/// twice: once to see that no `:` follows it, once to walk into it.
///
/// ```
/// let doc = br#"["statuses":[["id":1],["id":2,"user":["name":"ann"]]],"bad":[1,]"#;
/// let user = jtoo::get(doc, &jtoo::path!["statuses", 1, "user"])?.unwrap();
/// assert_eq!(user.raw(), br#"["name":"ann"]"#);
/// assert_eq!(user.get("name").and_then(|n| n.as_str()).as_deref(), Some("ann"));
/// // The `,]` after the value found is never parsed...
/// assert!(jtoo::validate(doc).is_err());
/// // ...but errors before it are reported, with their position.
/// assert_eq!(jtoo::get(doc, &jtoo::path!["bad", 0])?.unwrap().as_i64(), Some(1));
/// let err = jtoo::get(doc, &jtoo::path!["bad", 1]).unwrap_err();
/// assert_eq!(err.to_string(), "expected a value at line 1 column 64");
/// assert!(jtoo::get(doc, &jtoo::path!["statuses", 5])?.is_none());
/// # Ok::<(), jtoo::Error>(())
/// ```
///
/// # Errors
/// The first error from the start of `doc` to the value found, with its
/// position.
pub fn get<'a>(doc: &'a [u8], path: &[PathItem<'_>]) -> Result<Option<ValueRef<'a>>, Error> {
    if doc.is_empty() {
        // The document-level error, as every reader reports it.
        return crate::validate(doc).map(|()| None);
    }
    // One SIMD pass says whether the whole input is UTF-8, so that the
    // strings on the way need no check of their own (when it is not, they
    // are checked one by one, with the same results). Measured on twitter
    // (`statuses/50/user`): 2.1M instructions with it, 4.1M checking each
    // string instead.
    let mut c = Cursor::new(doc, Syntax::Strict, Options::DEFAULT_MAX_DEPTH);
    let Some((start, end)) = walk(&mut c, path).map_err(|e| e.into_error(doc))? else {
        return Ok(None);
    };
    // Checked JTOO is UTF-8: its strings were checked, the rest is ASCII.
    let text = doc
        .get(start..end)
        .and_then(|b| simdutf8::basic::from_utf8(b).ok())
        .ok_or_else(|| Error::at(ErrorKind::InvalidUtf8, doc, start))?;
    Ok(Some(ValueRef {
        text,
        depth: c.depth,
    }))
}

impl<'a> ValueRef<'a> {
    /// Checks that `doc` is one strict JTOO document, as [`crate::validate`]
    /// does (lists nest at most [`Options::DEFAULT_MAX_DEPTH`] deep), and
    /// returns a view of its value.
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(br#"["k":"v"]"#)?;
    /// assert_eq!(v.get("k").unwrap().raw(), br#""v""#);
    /// let err = jtoo::ValueRef::from_slice(b"[1, 2]").unwrap_err();
    /// assert_eq!(err.to_string(), "expected a value at line 1 column 4");
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`crate::validate`].
    pub fn from_slice(doc: &'a [u8]) -> Result<ValueRef<'a>, Error> {
        ValueRef::from_slice_with(doc, &Options::new())
    }

    /// As [`ValueRef::from_slice`], with the depth limit of `options`.
    ///
    /// ```
    /// use jtoo::{Options, ValueRef};
    /// let opts = Options::new().with_max_depth(2);
    /// assert!(ValueRef::from_slice_with(b"[[1]]", &opts).is_ok());
    /// assert!(ValueRef::from_slice_with(b"[[[1]]]", &opts).is_err());
    /// ```
    ///
    /// # Errors
    /// As [`Options::validate`].
    pub fn from_slice_with(doc: &'a [u8], options: &Options) -> Result<ValueRef<'a>, Error> {
        options.validate(doc)?;
        // A valid document is UTF-8; its text is kept as such, so that
        // strings are sliced out of it without another check.
        let text = simdutf8::basic::from_utf8(doc)
            .map_err(|_| Error::at(ErrorKind::InvalidUtf8, doc, 0))?;
        Ok(ValueRef {
            text,
            depth: options.max_depth(),
        })
    }

    /// As [`ValueRef::from_slice`], for a document that is already text.
    ///
    /// ```
    /// let doc = String::from(r#"["name":"Ada"]"#);
    /// let v = jtoo::ValueRef::from_str(&doc)?;
    /// assert_eq!(v.get("name").and_then(|n| n.as_str()).as_deref(), Some("Ada"));
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`crate::validate`].
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(doc: &'a str) -> Result<ValueRef<'a>, Error> {
        let options = Options::new();
        options.validate(doc.as_bytes())?;
        Ok(ValueRef {
            text: doc,
            depth: options.max_depth(),
        })
    }

    /// The value's exact text in the document, which is its canonical
    /// encoding ([`crate::to_vec`] of [`ValueRef::to_value`]).
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(br#"[1,"a\22":[D2024-02-29,B00]]"#)?;
    /// assert_eq!(v.index(1).unwrap().raw(), b"[D2024-02-29,B00]");
    /// assert_eq!(v.raw(), jtoo::to_vec(&v.to_value())?);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn raw(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    /// As [`ValueRef::raw`], as text (the value's text is UTF-8); also what
    /// `Display` writes.
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_str(r#"["k":"\00é"]"#)?;
    /// assert_eq!(v.get("k").unwrap().as_raw_str(), r#""\00é""#);
    /// assert_eq!(v.to_string(), r#"["k":"\00é"]"#);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn as_raw_str(&self) -> &'a str {
        self.text
    }

    /// What kind of value this is, from its first byte (and, for a number,
    /// whether it has a `.`); nothing else is read.
    ///
    /// ```
    /// use jtoo::{ValueKind, ValueRef};
    /// assert_eq!(ValueRef::from_slice(b"-1_000")?.kind(), ValueKind::Integer);
    /// assert_eq!(ValueRef::from_slice(b"-1_000.5")?.kind(), ValueKind::Decimal);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn kind(&self) -> ValueKind {
        match self.raw().first() {
            Some(b'"') => ValueKind::String,
            Some(b'B') => ValueKind::Bytes,
            Some(b'Y' | b'N') => ValueKind::Bool,
            // The grammar tells integers and decimals apart by the `.`.
            Some(b'-' | b'0'..=b'9') if memchr::memchr(b'.', self.raw()).is_some() => {
                ValueKind::Decimal
            }
            Some(b'-' | b'0'..=b'9') => ValueKind::Integer,
            Some(b'D' | b'T') => ValueKind::DateTime,
            Some(b'S') => ValueKind::Timestamp,
            // `[`; a checked value starts with one of these bytes.
            _ => ValueKind::List,
        }
    }

    /// `true` for a list.
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(b"[[],1]")?;
    /// assert!(v.is_list() && v.index(0).unwrap().is_list());
    /// assert!(!v.index(1).unwrap().is_list());
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn is_list(&self) -> bool {
        self.raw().first() == Some(&b'[')
    }

    /// Runs a scalar production on the whole text, if it starts with one of
    /// `first`.
    fn scalar<T>(
        &self,
        first: impl FnOnce(u8) -> bool,
        production: impl FnOnce(&'a [u8], Syntax) -> PResult<'a, T>,
    ) -> Option<T> {
        let raw = self.raw();
        if !first(*raw.first()?) {
            return None;
        }
        production(raw, Syntax::Strict).ok().map(|(_, v)| v)
    }

    /// The string, if this is one: borrowed from the document when it has no
    /// escapes, else unescaped into a new `String`.
    ///
    /// ```
    /// use std::borrow::Cow;
    /// let v = jtoo::ValueRef::from_slice(br#"["plain","say \22hi\22",1]"#)?;
    /// assert!(matches!(v.index(0).unwrap().as_str(), Some(Cow::Borrowed("plain"))));
    /// assert!(matches!(v.index(1).unwrap().as_str(), Some(Cow::Owned(s)) if s == "say \"hi\""));
    /// assert_eq!(v.index(2).unwrap().as_str(), None);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn as_str(&self) -> Option<Cow<'a, str>> {
        let known = Known::of_str(self.text);
        self.scalar(
            |b| b == b'"',
            |r, syntax| parse::string::string_in(r, syntax, known),
        )
    }

    /// The bytes, if this is a byte string (decoded from its hex digits, so
    /// never borrowed).
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(b"[B4f4b,B]")?;
    /// assert_eq!(v.index(0).unwrap().as_bytes().as_deref(), Some(&b"OK"[..]));
    /// assert_eq!(v.index(1).unwrap().as_bytes(), Some(vec![]));
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn as_bytes(&self) -> Option<Vec<u8>> {
        self.scalar(|b| b == b'B', parse::bytes::byte_string)
    }

    /// The boolean, if this is `Y` or `N`.
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(b"[Y,N,1]")?;
    /// let bools: Vec<_> = v.items().map(|i| i.value().as_bool()).collect();
    /// assert_eq!(bools, [Some(true), Some(false), None]);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn as_bool(&self) -> Option<bool> {
        match self.raw() {
            b"Y" => Some(true),
            b"N" => Some(false),
            _ => None,
        }
    }

    /// The number (integer or decimal), if this is one.
    fn number(&self) -> Option<Number> {
        self.scalar(|b| b == b'-' || b.is_ascii_digit(), parse::number::number)
    }

    /// The integer, if this is one.
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(b"[-340_282_366_920_938_463_463_374_607_431_768_211_455,1.5]")?;
    /// assert_eq!(v.index(0).and_then(|i| i.as_integer()).map(|i| i.magnitude()), Some(u128::MAX));
    /// assert_eq!(v.index(1).unwrap().as_integer(), None);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn as_integer(&self) -> Option<Integer> {
        match self.number()? {
            Number::Integer(i) => Some(i),
            Number::Decimal(_) => None,
        }
    }

    /// The integer as `i64`, if this is an integer that fits.
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(b"[-1_000,9_223_372_036_854_775_808,1.5]")?;
    /// let ints: Vec<_> = v.items().map(|i| i.value().as_i64()).collect();
    /// assert_eq!(ints, [Some(-1000), None, None]);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn as_i64(&self) -> Option<i64> {
        self.as_integer()?.to_i64()
    }

    /// The integer as `u64`, if this is an integer that fits.
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(b"[18_446_744_073_709_551_615,-1]")?;
    /// let ints: Vec<_> = v.items().map(|i| i.value().as_u64()).collect();
    /// assert_eq!(ints, [Some(u64::MAX), None]);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn as_u64(&self) -> Option<u64> {
        self.as_integer()?.to_u64()
    }

    /// The integer as `i128`, if this is an integer that fits.
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(b"-18_446_744_073_709_551_616")?;
    /// assert_eq!(v.as_i128(), Some(-(1i128 << 64)));
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn as_i128(&self) -> Option<i128> {
        self.as_integer()?.to_i128()
    }

    /// The integer as `u128`, if this is a non-negative integer.
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(b"18_446_744_073_709_551_616")?;
    /// assert_eq!(v.as_u128(), Some(1u128 << 64));
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn as_u128(&self) -> Option<u128> {
        self.as_integer()?.to_u128()
    }

    /// The nearest `f64` of a decimal or an integer (correctly rounded, as
    /// [`Value::as_f64`]).
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(br#"[-65.613_616_999_999_977,1_000,"1"]"#)?;
    /// let floats: Vec<_> = v.items().map(|i| i.value().as_f64()).collect();
    /// assert_eq!(floats, [Some(-65.613_616_999_999_98), Some(1000.0), None]);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn as_f64(&self) -> Option<f64> {
        self.scalar(
            |b| b == b'-' || b.is_ascii_digit(),
            parse::number::number_f64,
        )
    }

    /// The decimal, if this is one.
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(b"[0.000_1,1]")?;
    /// assert_eq!(v.index(0).and_then(|d| d.as_decimal()).map(|d| d.to_string()).as_deref(), Some("0.000_1"));
    /// assert_eq!(v.index(1).unwrap().as_decimal(), None);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn as_decimal(&self) -> Option<Decimal> {
        match self.number()? {
            Number::Decimal(d) => Some(d),
            Number::Integer(_) => None,
        }
    }

    /// The date/time, if this is one.
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(b"D2023-12-30T01:02:03~08")?;
    /// assert_eq!(v.as_datetime().map(|d| d.to_string()).as_deref(), Some("D2023-12-30T01:02:03~08"));
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn as_datetime(&self) -> Option<DateTime> {
        self.scalar(|b| b == b'D' || b == b'T', parse::temporal::datetime)
    }

    /// The timestamp, if this is one.
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(b"S1_709_528_240.001")?;
    /// assert_eq!(v.as_timestamp().map(|t| t.to_string()).as_deref(), Some("S1_709_528_240.001"));
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn as_timestamp(&self) -> Option<Timestamp> {
        self.scalar(|b| b == b'S', parse::timestamp::timestamp)
    }

    /// A cursor at the start of the value's text, which is known UTF-8.
    fn cursor(&self) -> Cursor<'a> {
        Cursor::with_known(
            self.raw(),
            Known::of_str(self.text),
            Syntax::Strict,
            self.depth,
        )
    }

    /// The view of this value's text from `start` to `end`, at the depth
    /// of `c` (a cursor in this text).
    fn span(&self, c: &Cursor<'a>, start: usize, end: usize) -> Option<ValueRef<'a>> {
        Some(ValueRef {
            text: self.text.get(start..end)?,
            depth: c.depth,
        })
    }

    /// The items, in order, if this is a list (nothing otherwise). Each step
    /// reads one item.
    ///
    /// ```
    /// use jtoo::ValueRefItem;
    /// let v = jtoo::ValueRef::from_slice(br#"[1,"k":[2],[]:Y]"#)?;
    /// let raw: Vec<_> = v.items().map(|i| match i {
    ///     ValueRefItem::Value(v) => (None, v.raw()),
    ///     ValueRefItem::Pair(k, v) => (Some(k.raw()), v.raw()),
    /// }).collect();
    /// let k: &[u8] = br#""k""#;
    /// assert_eq!(raw, [(None, &b"1"[..]), (Some(k), b"[2]"), (Some(b"[]"), b"Y")]);
    /// assert_eq!(v.index(0).unwrap().items().count(), 0);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn items(&self) -> ValueRefIter<'a> {
        let mut cursor = self.cursor();
        let list = if self.is_list() {
            cursor.begin_list().ok()
        } else {
            None
        };
        ValueRefIter {
            view: *self,
            cursor,
            list,
        }
    }

    /// In a list, the value of the first pair whose key is the string `key`
    /// (as [`Value::get`]).
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(br#"["a":1,"b\22":2,"a":3,"c"]"#)?;
    /// assert_eq!(v.get("a").and_then(|a| a.as_i64()), Some(1));
    /// assert_eq!(v.get("b\"").and_then(|b| b.as_i64()), Some(2));
    /// assert!(v.get("c").is_none() && v.get("a").unwrap().get("a").is_none());
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn get(&self, key: &str) -> Option<ValueRef<'a>> {
        self.path(&[PathItem::Key(key)])
    }

    /// In a list, the value of the item at `index` (for a pair, its value),
    /// as `Value`'s `Index<usize>`.
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(br#"[1,"k":2]"#)?;
    /// assert_eq!(v.index(1).and_then(|i| i.as_i64()), Some(2));
    /// assert!(v.index(2).is_none());
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn index(&self, index: usize) -> Option<ValueRef<'a>> {
        self.path(&[PathItem::Index(index)])
    }

    /// Follows `path` from this value, as [`get`] does in a document: each
    /// step is [`ValueRef::get`] or [`ValueRef::index`].
    ///
    /// ```
    /// let v = jtoo::ValueRef::from_slice(br#"["a":[["b":Y]]]"#)?;
    /// assert_eq!(v.path(&jtoo::path!["a", 0, "b"]).and_then(|b| b.as_bool()), Some(true));
    /// assert_eq!(v.path(&[]), Some(v));
    /// assert!(v.path(&jtoo::path!["a", 1]).is_none());
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn path(&self, path: &[PathItem<'_>]) -> Option<ValueRef<'a>> {
        if path.is_empty() {
            return Some(*self);
        }
        // The lists on the way are read only up to the item each step
        // names: only the value found is read to its end.
        let mut c = self.cursor();
        let (start, end) = walk(&mut c, path).ok()??;
        self.span(&c, start, end)
    }

    /// Builds the [`Value`] (with the parser that [`crate::from_slice`]
    /// uses).
    ///
    /// ```
    /// let doc = br#"["a":[1,"x"],"b":N]"#;
    /// let v = jtoo::ValueRef::from_slice(doc)?;
    /// assert_eq!(v.get("a").unwrap().to_value(), jtoo::from_slice(doc)?["a"]);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn to_value(&self) -> Value {
        let known = Known::of_str(self.text);
        match parse::list::value_known(
            self.raw(),
            Syntax::Strict,
            self.depth,
            &mut Default::default(),
            known,
        ) {
            Ok((_, v)) => v,
            // Not reached: the text was checked with this depth limit.
            Err(_) => Value::List(crate::List::new()),
        }
    }
}

/// The items of a list seen through a [`ValueRef`]: see
/// [`ValueRef::items`].
///
/// ```
/// let v = jtoo::ValueRef::from_slice(b"[1,2,3]")?;
/// let mut items: jtoo::ValueRefIter = v.items();
/// assert_eq!(items.next().map(|i| i.value().raw()), Some(&b"1"[..]));
/// assert_eq!(items.count(), 2);
/// # Ok::<(), jtoo::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct ValueRefIter<'a> {
    /// The list.
    view: ValueRef<'a>,
    /// Where the next item starts.
    cursor: Cursor<'a>,
    /// Where the list started, while items are left.
    list: Option<usize>,
}

impl<'a> ValueRefIter<'a> {
    /// Reads the next item of the list that started at `list`.
    fn read(&mut self, list: usize) -> Option<ValueRefItem<'a>> {
        let (view, c) = (self.view, &mut self.cursor);
        if c.at_list_end(list).ok()? {
            return None;
        }
        let first = c.pos;
        let ambiguous = c.skip_key().ok()?;
        let first_end = c.pos;
        let item = if c.pair_colon(list, ambiguous).ok()? {
            let start = c.pos;
            c.skip_value().ok()?;
            ValueRefItem::Pair(view.span(c, first, first_end)?, view.span(c, start, c.pos)?)
        } else {
            ValueRefItem::Value(view.span(c, first, first_end)?)
        };
        c.after_item(list).ok()?;
        Some(item)
    }
}

impl<'a> Iterator for ValueRefIter<'a> {
    type Item = ValueRefItem<'a>;

    fn next(&mut self) -> Option<ValueRefItem<'a>> {
        let item = self.read(self.list?);
        if item.is_none() {
            self.list = None;
        }
        item
    }
}

impl FusedIterator for ValueRefIter<'_> {}

impl PartialEq for ValueRef<'_> {
    /// Equal values: equal canonical texts (the depth limit left is not
    /// compared).
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for ValueRef<'_> {}

impl Hash for ValueRef<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.text.hash(state);
    }
}

impl fmt::Display for ValueRef<'_> {
    /// The canonical JTOO text ([`ValueRef::as_raw_str`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)
    }
}

impl From<ValueRef<'_>> for Value {
    /// [`ValueRef::to_value`].
    fn from(v: ValueRef<'_>) -> Value {
        v.to_value()
    }
}
