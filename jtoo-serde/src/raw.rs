//! [`Raw`] and [`RawBuf`]: one JTOO value kept as its canonical text, read
//! without being deserialized and written back verbatim (serde_json's
//! `RawValue`, for JTOO).
//!
//! Strict JTOO has one spelling per value, so the text a strict
//! deserializer read a value from is that value's canonical text: a raw
//! value never needs rewriting, and two raw values are equal exactly when
//! their values are.
//!
//! The two types are `str` and `String` for this text (`Path` and
//! `PathBuf` in spirit). serde_json's borrowed `&RawValue` is an unsized
//! type made from a `&str` by a pointer cast; this crate forbids `unsafe`,
//! so the borrowed form is a small `Copy` struct instead.
//!
//! How they travel through serde: a raw value asks for the newtype struct
//! [`RAW_MARKER`]. This crate's [`Deserializer`](crate::Deserializer) then
//! checks one value with the validator of `jtoo::parse` (the grammar every
//! reading uses) and hands over the text it spans, as a one-entry map
//! whose key is [`RAW_MARKER`] itself: the key's address tells it from any
//! string of the input, so input cannot forge a raw value. Other
//! deserializers give the value itself; [`RawBuf`] then reads a
//! [`jtoo::Value`] and encodes it. This crate's
//! [`Serializer`](crate::Serializer) writes a raw value's text unchanged.

use crate::error::{Error, Result};
use serde::de::{self, DeserializeSeed, MapAccess, Unexpected, Visitor};
use serde::ser::Serialize;
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

/// The newtype-struct name a raw value is (de)serialized as, and the map
/// key under which [`crate::Deserializer`] hands over its text. A
/// `static`, so that the key keeps one address.
pub(crate) static RAW_MARKER: &str = "$__jtoo_serde_private_Raw";

/// One JTOO value as its canonical text, borrowed: from the input of
/// [`from_str`](crate::from_str) / [`from_slice`](crate::from_slice) (no
/// copy), or from a [`RawBuf`].
///
/// Reading a `Raw` checks the value (strict JTOO, within the depth left)
/// and keeps its text; [`Raw::deserialize_into`] reads it as a `T` later,
/// when it is known which `T`. Writing it with this crate's serializer
/// copies the text unchanged.
///
/// ```
/// use jtoo_serde::Raw;
/// #[derive(serde::Deserialize, serde::Serialize)]
/// struct Envelope<'a> {
///     kind: &'a str,
///     #[serde(borrow)]
///     body: Raw<'a>,
/// }
///
/// let text = r#"["kind":"point","body":["x":1,"y":2]]"#;
/// let envelope: Envelope = jtoo_serde::from_str(text)?;
/// assert_eq!(envelope.body.as_str(), r#"["x":1,"y":2]"#);
///
/// #[derive(serde::Deserialize)]
/// struct Point { x: i32, y: i32 }
/// let p: Point = envelope.body.deserialize_into()?;
/// assert_eq!((p.x, p.y), (1, 2));
///
/// // Written back verbatim.
/// assert_eq!(jtoo_serde::to_string(&envelope)?, text);
/// # Ok::<(), jtoo_serde::Error>(())
/// ```
///
/// Only strict JTOO text can lend a `Raw`: from HTOO input, a reader, a
/// [`jtoo::Value`] or another format, read a [`RawBuf`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Raw<'a>(&'a str);

/// One JTOO value as its canonical text, owned: what [`Raw`] is to `&str`,
/// `RawBuf` is to `String`.
///
/// It reads from any deserializer: from JTOO text it copies the value's
/// text (checked once, as [`Raw`]); from HTOO text it re-encodes the value
/// (HTOO spellings are not canonical); from a [`jtoo::Value`]
/// ([`crate::from_value`]) it encodes the value; from other deserializers
/// (a reader, another format) it reads a [`jtoo::Value`] and encodes it.
///
/// ```
/// use jtoo_serde::RawBuf;
/// #[derive(serde::Deserialize, serde::Serialize)]
/// struct Call {
///     method: String,
///     params: RawBuf,
/// }
///
/// let call: Call = jtoo_serde::from_str(r#"["method":"add","params":[1,2]]"#)?;
/// assert_eq!(call.params.as_str(), "[1,2]");
/// let (a, b): (i32, i32) = call.params.deserialize_into()?;
/// assert_eq!(a + b, 3);
///
/// let answer = Call { method: "sum".into(), params: jtoo_serde::to_raw(&[3])? };
/// assert_eq!(jtoo_serde::to_string(&answer)?, r#"["method":"sum","params":[3]]"#);
///
/// // HTOO input is re-encoded.
/// let call: Call = jtoo_serde::from_htoo_str(r#"["method": "add", "params": [1, 2,]]"#)?;
/// assert_eq!(call.params.as_str(), "[1,2]");
/// # Ok::<(), jtoo_serde::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RawBuf(String);

impl<'a> Raw<'a> {
    /// `text` if it is exactly one value in strict JTOO (within the default
    /// depth limit, [`jtoo::Options::DEFAULT_MAX_DEPTH`]).
    ///
    /// ```
    /// let raw = jtoo_serde::Raw::from_text(r#"["a":1]"#)?;
    /// assert_eq!(raw.as_str(), r#"["a":1]"#);
    /// assert!(jtoo_serde::Raw::from_text("[1, 2]").is_err()); // HTOO, not JTOO
    /// # Ok::<(), jtoo_serde::Error>(())
    /// ```
    ///
    /// # Errors
    /// The syntax error (with its line and column), as [`crate::from_str`]
    /// gives it.
    pub fn from_text(text: &'a str) -> Result<Raw<'a>> {
        jtoo::validate(text.as_bytes()).map_err(Error::syntax)?;
        Ok(Raw(text))
    }

    /// The canonical text.
    pub fn as_str(self) -> &'a str {
        self.0
    }

    /// Reads the value as a `T`, borrowing from the text where `T` does
    /// (as [`crate::from_str`]).
    ///
    /// ```
    /// let raw = jtoo_serde::Raw::from_text(r#"["x","y"]"#)?;
    /// let v: Vec<&str> = raw.deserialize_into()?;
    /// assert_eq!(v, ["x", "y"]);
    /// // A `jtoo::Value` too.
    /// let v: jtoo::Value = raw.deserialize_into()?;
    /// assert_eq!(v.to_string(), r#"["x","y"]"#);
    /// # Ok::<(), jtoo_serde::Error>(())
    /// ```
    ///
    /// # Errors
    /// When the value does not fit `T` (with the path and position).
    pub fn deserialize_into<T: de::Deserialize<'a>>(self) -> Result<T> {
        crate::from_str(self.0)
    }

    /// An owned copy.
    pub fn to_raw_buf(self) -> RawBuf {
        RawBuf(self.0.to_owned())
    }
}

impl RawBuf {
    /// `text` if it is exactly one value in strict JTOO (as
    /// [`Raw::from_text`]).
    ///
    /// ```
    /// let raw = jtoo_serde::RawBuf::from_text("[1,2]")?;
    /// assert_eq!(raw.as_str(), "[1,2]");
    /// assert!(jtoo_serde::RawBuf::from_text("1 2").is_err());
    /// # Ok::<(), jtoo_serde::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Raw::from_text`].
    pub fn from_text(text: impl Into<String>) -> Result<RawBuf> {
        let text = text.into();
        jtoo::validate(text.as_bytes()).map_err(Error::syntax)?;
        Ok(RawBuf(text))
    }

    /// The canonical text of `value` (see [`crate::to_raw`] for any
    /// serializable type).
    ///
    /// ```
    /// use jtoo::Value;
    /// let v = Value::from(vec![Value::from(1_000), Value::from("a")]);
    /// assert_eq!(jtoo_serde::RawBuf::from_value(&v)?.as_str(), r#"[1_000,"a"]"#);
    /// # Ok::<(), jtoo_serde::Error>(())
    /// ```
    ///
    /// # Errors
    /// Lists nested deeper than [`jtoo::Options::DEFAULT_MAX_DEPTH`].
    pub fn from_value(value: &jtoo::Value) -> Result<RawBuf> {
        jtoo::to_string(value).map(RawBuf).map_err(Error::from_jtoo)
    }

    /// Text written by this crate's serializer (canonical by construction).
    pub(crate) fn from_serialized(text: String) -> RawBuf {
        RawBuf(text)
    }

    /// The text, borrowed as a [`Raw`].
    pub fn as_raw(&self) -> Raw<'_> {
        Raw(&self.0)
    }

    /// The canonical text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The canonical text, owned.
    pub fn into_string(self) -> String {
        self.0
    }

    /// Reads the value as a `T` (as [`Raw::deserialize_into`]).
    ///
    /// ```
    /// let raw = jtoo_serde::to_raw(&("a", 1))?;
    /// let (s, n): (&str, u8) = raw.deserialize_into()?;
    /// assert_eq!((s, n), ("a", 1));
    /// # Ok::<(), jtoo_serde::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Raw::deserialize_into`].
    pub fn deserialize_into<'a, T: de::Deserialize<'a>>(&'a self) -> Result<T> {
        crate::from_str(&self.0)
    }
}

impl<'a> From<Raw<'a>> for RawBuf {
    fn from(raw: Raw<'a>) -> RawBuf {
        raw.to_raw_buf()
    }
}

impl fmt::Debug for Raw<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Raw").field(&self.0).finish()
    }
}

impl fmt::Debug for RawBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RawBuf").field(&self.0.as_str()).finish()
    }
}

/// The canonical text.
impl fmt::Display for Raw<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// The canonical text.
impl fmt::Display for RawBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

// ------------------------------------------------------------ serialize

/// With this crate's serializers, the text itself (`to_value` parses it);
/// other serializers get a newtype struct around the text as a string.
impl serde::Serialize for Raw<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(RAW_MARKER, self.0)
    }
}

/// As for [`Raw`].
impl serde::Serialize for RawBuf {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        self.as_raw().serialize(s)
    }
}

/// Appends the text of the raw value `v` serializes as to `out`, where
/// `depth` more lists may open (the serializer's limit, `max_depth`): a
/// text too short to nest that deep is taken as it is (raw values hold
/// checked text), a longer one is checked against the depth left.
pub(crate) fn write<T: Serialize + ?Sized, O: jtoo::encode::Output>(
    out: &mut O,
    depth: usize,
    max_depth: usize,
    v: &T,
) -> Result<()> {
    let fits = |text: &str| {
        // `n` bytes nest at most `n / 2` lists.
        if text.len() / 2 <= depth {
            return Ok(false);
        }
        let syntax = jtoo::parse::Syntax::Strict;
        match jtoo::parse::validate::value(text.as_bytes(), syntax, depth) {
            Ok((b"", ())) => Ok(false),
            _ => Err(crate::ser::too_deep(max_depth)),
        }
    };
    crate::marked::write_with(out, RAW_MARKER, v, fits).map(drop)
}

// ------------------------------------------------------------ deserialize

/// Hands the text of one value, just checked by [`crate::Deserializer`]
/// (strict or lenient `syntax`, `depth` lists left), to a raw value's
/// visitor: borrowed when strict, re-encoded from HTOO. `checked` is the
/// same text when the document's UTF-8 check already gave it.
pub(crate) fn visit_text<'de, V: Visitor<'de>>(
    visitor: V,
    text: &'de [u8],
    checked: Option<&'de str>,
    syntax: jtoo::parse::Syntax,
    depth: usize,
) -> Result<V::Value> {
    if syntax.is_lenient() {
        let value = jtoo::parse::document(text, syntax, depth).map_err(Error::syntax)?;
        return visit_value(visitor, &value);
    }
    // Strict JTOO is UTF-8 throughout (strings are, and the rest is ASCII):
    // this only turns the checked bytes into a `str`.
    let text = match checked {
        Some(text) => text,
        None => std::str::from_utf8(text)
            .map_err(|_| Error::syntax(jtoo::Error::new(jtoo::ErrorKind::InvalidUtf8)))?,
    };
    visitor.visit_map(TextMap {
        key: true,
        text: Some(Cow::Borrowed(text)),
    })
}

/// Hands the canonical text of `value` to a raw value's visitor (for
/// [`crate::ValueDeserializer`] and HTOO input).
pub(crate) fn visit_value<'de, V: Visitor<'de>>(
    visitor: V,
    value: &jtoo::Value,
) -> Result<V::Value> {
    let text = jtoo::to_string(value).map_err(Error::from_jtoo)?;
    visitor.visit_map(TextMap {
        key: true,
        text: Some(Cow::Owned(text)),
    })
}

/// `{RAW_MARKER: text}`.
struct TextMap<'de> {
    key: bool,
    text: Option<Cow<'de, str>>,
}

impl<'de> MapAccess<'de> for TextMap<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if !std::mem::take(&mut self.key) {
            return Ok(None);
        }
        seed.deserialize(de::value::BorrowedStrDeserializer::new(RAW_MARKER))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        match self.text.take() {
            Some(Cow::Borrowed(s)) => seed.deserialize(de::value::BorrowedStrDeserializer::new(s)),
            Some(Cow::Owned(s)) => seed.deserialize(de::value::StringDeserializer::new(s)),
            None => Err(Error::message(
                "internal: a raw value's text was taken twice",
            )),
        }
    }
}

/// Whether a map key is [`RAW_MARKER`] itself (the `static`, not a string
/// of the same spelling).
struct IsMarker;

impl<'de> DeserializeSeed<'de> for IsMarker {
    type Value = bool;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<bool, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for IsMarker {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a raw JTOO value")
    }

    /// (Also reached through adapters that hand borrowed strings on as
    /// `visit_str`, as [`crate::IoDeserializer`]'s window does.)
    fn visit_str<E: de::Error>(self, key: &str) -> std::result::Result<bool, E> {
        Ok(std::ptr::eq(key, RAW_MARKER))
    }
}

/// Reads the text of `{RAW_MARKER: text}`; `None` for any other map.
fn marked_text<'de, A: MapAccess<'de>, T: de::Deserialize<'de>>(
    mut map: A,
) -> std::result::Result<Option<T>, A::Error> {
    if map.next_key_seed(IsMarker)? != Some(true) {
        return Ok(None);
    }
    map.next_value().map(Some)
}

/// Why a [`Raw`] cannot be read here.
const BORROW_ONLY: &str = "a borrowed jtoo_serde::Raw is read only from strict JTOO text \
    (from_str, from_slice); read a RawBuf from other input";

struct RawVisitor<'a>(PhantomData<Raw<'a>>);

impl<'de: 'a, 'a> Visitor<'de> for RawVisitor<'a> {
    type Value = Raw<'a>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JTOO text to borrow a raw value from")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> std::result::Result<Raw<'a>, A::Error> {
        match marked_text::<A, Borrowed<'de>>(map)? {
            Some(Borrowed(text)) => Ok(Raw(text)),
            None => Err(de::Error::invalid_type(Unexpected::Map, &self)),
        }
    }

    fn visit_newtype_struct<D: de::Deserializer<'de>>(
        self,
        _: D,
    ) -> std::result::Result<Raw<'a>, D::Error> {
        Err(de::Error::custom(BORROW_ONLY))
    }
}

/// A string borrowed from the input, or the [`BORROW_ONLY`] error.
struct Borrowed<'de>(&'de str);

impl<'de> de::Deserialize<'de> for Borrowed<'de> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Borrowed<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("canonical JTOO text")
            }
            fn visit_borrowed_str<E: de::Error>(
                self,
                s: &'de str,
            ) -> std::result::Result<Self::Value, E> {
                Ok(Borrowed(s))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> std::result::Result<Self::Value, E> {
                Err(E::custom(BORROW_ONLY))
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de: 'a, 'a> de::Deserialize<'de> for Raw<'a> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_newtype_struct(RAW_MARKER, RawVisitor(PhantomData))
    }
}

struct RawBufVisitor;

impl<'de> Visitor<'de> for RawBufVisitor {
    type Value = RawBuf;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JTOO value")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> std::result::Result<RawBuf, A::Error> {
        match marked_text::<A, String>(map)? {
            Some(text) => Ok(RawBuf(text)),
            None => Err(de::Error::invalid_type(Unexpected::Map, &self)),
        }
    }

    /// Any other deserializer: the value, encoded.
    fn visit_newtype_struct<D: de::Deserializer<'de>>(
        self,
        d: D,
    ) -> std::result::Result<RawBuf, D::Error> {
        let value = <jtoo::Value as de::Deserialize>::deserialize(d)?;
        RawBuf::from_value(&value).map_err(de::Error::custom)
    }
}

impl<'de> de::Deserialize<'de> for RawBuf {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        d.deserialize_newtype_struct(RAW_MARKER, RawBufVisitor)
    }
}
