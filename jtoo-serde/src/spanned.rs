//! [`Spanned`]: a value with where it was in the text.

use jtoo::Position;
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde::{Serialize, Serializer};
use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::ops::Range;

/// The struct name by which [`crate::Deserializer`] recognises a
/// [`Spanned`], and its three fields, handed over in this order.
pub(crate) const NAME: &str = "$__jtoo_private_Spanned";
pub(crate) const START: &str = "$__jtoo_private_start";
pub(crate) const VALUE: &str = "$__jtoo_private_value";
pub(crate) const END: &str = "$__jtoo_private_end";
pub(crate) const FIELDS: &[&str] = &[START, VALUE, END];

/// A value and where it was in the text it was read from: its byte range
/// and the line and column of its start and its end, as `toml`'s
/// `Spanned`. For errors that only the program can see (a port out of
/// range, a file that does not exist), pointing at the value the person
/// wrote.
///
/// It works with [`crate::from_str`], [`crate::from_slice`] and the HTOO
/// readers [`crate::from_htoo_str`] / [`crate::from_htoo_slice`], anywhere a
/// value is read: a struct field, a sequence item, a map key or value, an
/// `Option`, another `Spanned`. The span covers the value's own text (from
/// its first byte to just after its last; a list from `[` to `]`), without
/// the comments and whitespace around it. Reading a `Spanned` from a
/// [`jtoo::Value`] ([`crate::from_value`]) or through serde's buffering
/// (untagged and internally tagged enums, `flatten`) is an error: there are
/// no positions there. For an optional field, use `Option<Spanned<T>>`.
///
/// Comparing, ordering and hashing look at the value only, so a
/// `HashMap<Spanned<String>, V>` finds a key by its text
/// (`Spanned<String>` borrows as `str`). Serializing writes the value alone.
///
/// ```
/// use jtoo_serde::Spanned;
///
/// #[derive(serde::Deserialize)]
/// struct Config { name: String, port: Spanned<u32> }
///
/// let text = "[\n  \"name\": \"api\",\n  // the listening port\n  \"port\": 80_000,\n]\n";
/// let config: Config = jtoo_serde::from_htoo_str(text)?;
/// assert_eq!(config.port.span(), 53..59);
/// assert_eq!(&text[config.port.span()], "80_000");
/// assert_eq!((config.port.start().line, config.port.start().column), (4, 11));
///
/// // A check serde cannot make, reported at the value, with htoo's renderer.
/// if u16::try_from(*config.port.get_ref()).is_err() {
///     let d = htoo::Diagnostic::at(
///         format!("port {} is out of range (at most 65535)", config.port.get_ref()),
///         Some(config.port.start()),
///         text.as_bytes(),
///         "app.htoo",
///     );
///     assert_eq!(d.to_string(), "\
/// error: port 80000 is out of range (at most 65535)
///  --> app.htoo:4:11
///   |
/// 4 |   \"port\": 80_000,
///   |           ^
/// ");
/// }
/// # Ok::<(), jtoo_serde::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Spanned<T> {
    value: T,
    start: Position,
    end: Position,
}

impl<T> Spanned<T> {
    /// A value with the positions of its start and its end (just after its
    /// last byte).
    pub fn new(value: T, start: Position, end: Position) -> Self {
        Spanned { value, start, end }
    }

    /// The byte range of the value in the text.
    pub fn span(&self) -> Range<usize> {
        self.start.offset..self.end.offset
    }

    /// Where the value starts: byte offset, line and column (1-based, in
    /// characters), as in [`crate::Error::position`].
    pub fn start(&self) -> Position {
        self.start
    }

    /// Where the value ends: the position just after its last byte.
    pub fn end(&self) -> Position {
        self.end
    }

    /// The value.
    pub fn get_ref(&self) -> &T {
        &self.value
    }

    /// The value, to change it (the span stays).
    pub fn get_mut(&mut self) -> &mut T {
        &mut self.value
    }

    /// The value, without its span.
    pub fn into_inner(self) -> T {
        self.value
    }
}

impl<T> AsRef<T> for Spanned<T> {
    fn as_ref(&self) -> &T {
        &self.value
    }
}

impl<T> AsMut<T> for Spanned<T> {
    fn as_mut(&mut self) -> &mut T {
        &mut self.value
    }
}

impl Borrow<str> for Spanned<String> {
    fn borrow(&self) -> &str {
        &self.value
    }
}

impl<T: PartialEq> PartialEq for Spanned<T> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl<T: Eq> Eq for Spanned<T> {}

impl<T: Hash> Hash for Spanned<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.value.hash(state);
    }
}

impl<T: PartialOrd> PartialOrd for Spanned<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.value.partial_cmp(&other.value)
    }
}

impl<T: Ord> Ord for Spanned<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.value.cmp(&other.value)
    }
}

impl<T: Serialize> Serialize for Spanned<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Spanned<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_struct(NAME, FIELDS, SpannedVisitor(PhantomData))
    }
}

const EXPECTING: &str = "a value with its position (jtoo_serde::Spanned reads from text, with from_str, from_slice or from_htoo_str)";

struct SpannedVisitor<T>(PhantomData<T>);

/// One of the three keys, or anything else.
struct Field(Option<&'static str>);

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Field;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(EXPECTING)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Field, E> {
                Ok(Field(FIELDS.iter().copied().find(|f| *f == v)))
            }
        }
        d.deserialize_identifier(V)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for SpannedVisitor<T> {
    type Value = Spanned<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(EXPECTING)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Spanned<T>, A::Error> {
        key(&mut map, START)?;
        let start = position(map.next_value()?);
        key(&mut map, VALUE)?;
        let value = map.next_value()?;
        key(&mut map, END)?;
        let end = position(map.next_value()?);
        Ok(Spanned { value, start, end })
    }
}

/// Reads the next key, which must be `want`.
fn key<'de, A: MapAccess<'de>>(map: &mut A, want: &'static str) -> Result<(), A::Error> {
    match map.next_key::<Field>()? {
        Some(Field(Some(k))) if k == want => Ok(()),
        _ => Err(de::Error::custom(format_args!("expected {EXPECTING}"))),
    }
}

/// A position as the deserializer hands it over: offset, line, column.
fn position((offset, line, column): (usize, usize, usize)) -> Position {
    let mut p = Position::of(b"", 0);
    p.offset = offset;
    p.line = line;
    p.column = column;
    p
}

/// The error for a `Spanned` read where there are no positions.
pub(crate) fn no_positions() -> crate::Error {
    crate::Error::message(format_args!(
        "expected {EXPECTING}; a jtoo::Value has no positions"
    ))
}
