#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

/// `deserialize_*` methods that only hand their visitor to one method of
/// the deserializer (serde_json's `deserialize_number!` in spirit).
macro_rules! forward_deserialize {
    ($target:ident: $($method:ident)*) => {$(
        #[inline]
        fn $method<V: serde::de::Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            self.$target(visitor)
        }
    )*};
}

#[cfg(feature = "chrono")]
pub mod chrono;
mod de;
mod document;
mod error;
mod keys;
mod marked;
mod no_payload;
mod owned;
mod raw;
mod read;
mod scalar;
mod ser;
mod spanned;
mod value_de;
mod value_ser;

pub use de::Deserializer;
pub use document::{from_document, update};
pub use error::{Category, Error, Result, Segment};
pub use raw::{Raw, RawBuf};
pub use read::IoDeserializer;
pub use ser::{Compound, Serializer};
pub use spanned::Spanned;
pub use value_de::ValueDeserializer;

use serde::Serialize;
use serde::de::{Deserialize, DeserializeOwned};

/// Serializes `value` as canonical JTOO text.
///
/// ```
/// assert_eq!(jtoo_serde::to_string(&vec![1.5, -2.0])?, "[1.5,-2.0]");
/// # Ok::<(), jtoo_serde::Error>(())
/// ```
///
/// # Errors
/// Values JTOO cannot write: `None` or `()` outside a struct field or map
/// value ("JTOO has no null"), NaN and infinities, ambiguous date/time keys;
/// lists nested more than [`jtoo::Options::DEFAULT_MAX_DEPTH`] (128) deep,
/// which [`from_str`] would refuse ("lists nested too deeply"; see
/// [`Serializer::with_max_depth`]).
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String> {
    encoded_text(to_vec(value)?)
}

/// The serializer's output as a `String` (it writes UTF-8).
fn encoded_text(bytes: Vec<u8>) -> Result<String> {
    String::from_utf8(bytes)
        .map_err(|_| Error::message("internal: the encoder wrote invalid UTF-8"))
}

/// Serializes `value` as canonical JTOO bytes.
///
/// ```
/// assert_eq!(jtoo_serde::to_vec(&("a", true))?, br#"["a",Y]"#);
/// # Ok::<(), jtoo_serde::Error>(())
/// ```
///
/// # Errors
/// As [`to_string`].
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    let mut ser = Serializer::from_vec(Vec::with_capacity(128));
    value.serialize(&mut ser)?;
    Ok(ser.into_vec())
}

/// Serializes `value` into a [`RawBuf`]: its canonical text, to be
/// written verbatim inside a larger document (see [`Raw`]).
///
/// ```
/// let raw = jtoo_serde::to_raw(&[("x", 1)])?;
/// assert_eq!(raw.as_str(), r#"[["x",1]]"#);
/// # Ok::<(), jtoo_serde::Error>(())
/// ```
///
/// # Errors
/// As [`to_string`].
pub fn to_raw<T: Serialize + ?Sized>(value: &T) -> Result<RawBuf> {
    to_string(value).map(RawBuf::from_serialized)
}

/// As [`to_raw`], for a value that may be absent, as a struct field
/// holding it would be left out: `None` for `None` and `()` (which
/// [`to_raw`] refuses, JTOO having no null).
///
/// ```
/// assert_eq!(jtoo_serde::to_raw_field(&Some(5))?.unwrap().as_str(), "5");
/// assert_eq!(jtoo_serde::to_raw_field(&None::<u8>)?, None);
/// assert_eq!(jtoo_serde::to_raw_field(&())?, None);
/// # Ok::<(), jtoo_serde::Error>(())
/// ```
///
/// # Errors
/// As [`to_string`], except for a value that is left out.
pub fn to_raw_field<T: Serialize + ?Sized>(value: &T) -> Result<Option<RawBuf>> {
    match ser::to_vec_field(value)? {
        None => Ok(None),
        Some(bytes) => encoded_text(bytes).map(|s| Some(RawBuf::from_serialized(s))),
    }
}

/// Serializes `value` as canonical JTOO into `writer` (buffered internally:
/// written in chunks of about 64 KiB).
///
/// ```
/// let mut out = Vec::new();
/// jtoo_serde::to_writer(&mut out, &[1u8, 2])?;
/// assert_eq!(out, b"[1,2]");
/// # Ok::<(), jtoo_serde::Error>(())
/// ```
///
/// # Errors
/// As [`to_string`], and I/O errors.
pub fn to_writer<W: std::io::Write, T: Serialize + ?Sized>(writer: W, value: &T) -> Result<()> {
    let mut ser = Serializer::new(writer);
    value.serialize(&mut ser)?;
    ser.flush()
}

/// Serializes `value` as pretty HTOO: one item per line where a list does
/// not fit in [`htoo::PrettyConfig`]'s width, `"key": value` with a space,
/// for people to read and edit. [`from_htoo_str`] reads it back; for
/// machines, [`to_string`] writes the one canonical JTOO text.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Server { host: &'static str, ports: Vec<u16>, tls: bool }
/// let s = Server { host: "example.org", ports: vec![80, 443], tls: true };
/// assert_eq!(
///     jtoo_serde::to_string_pretty(&s)?,
///     r#"["host": "example.org", "ports": [80, 443], "tls": Y]"#
/// );
/// let long = vec!["a".repeat(50), "b".repeat(50)];
/// assert_eq!(
///     jtoo_serde::to_string_pretty(&long)?,
///     format!("[\n  \"{}\",\n  \"{}\",\n]", "a".repeat(50), "b".repeat(50))
/// );
/// # Ok::<(), jtoo_serde::Error>(())
/// ```
///
/// # Errors
/// As [`to_string`].
pub fn to_string_pretty<T: Serialize + ?Sized>(value: &T) -> Result<String> {
    to_string_pretty_with(value, &htoo::PrettyConfig::new())
}

/// [`to_string_pretty`] laid out by `config` (indent, line width).
///
/// ```
/// let config = htoo::PrettyConfig::new().with_max_width(14).with_indent(4);
/// assert_eq!(
///     jtoo_serde::to_string_pretty_with(&[("k", 1), ("l", 2)], &config)?,
///     "[\n    [\"k\", 1],\n    [\"l\", 2],\n]"
/// );
/// # Ok::<(), jtoo_serde::Error>(())
/// ```
///
/// # Errors
/// As [`to_string`].
pub fn to_string_pretty_with<T: Serialize + ?Sized>(
    value: &T,
    config: &htoo::PrettyConfig,
) -> Result<String> {
    Ok(htoo::to_string_pretty_with(&to_value(value)?, config))
}

/// Writes [`to_string_pretty`]'s text and a final `\n` to `writer`, as a
/// text file ends.
///
/// ```
/// let mut out = Vec::new();
/// jtoo_serde::to_writer_pretty(&mut out, &std::collections::BTreeMap::from([("a", 1)]))?;
/// assert_eq!(out, b"[\"a\": 1]\n");
/// # Ok::<(), jtoo_serde::Error>(())
/// ```
///
/// # Errors
/// As [`to_string`], and I/O errors.
pub fn to_writer_pretty<W: std::io::Write, T: Serialize + ?Sized>(
    mut writer: W,
    value: &T,
) -> Result<()> {
    let mut text = to_string_pretty(value)?;
    text.push('\n');
    writer.write_all(text.as_bytes())?;
    Ok(())
}

/// Deserializes a `T` from strict JTOO text, borrowing strings from it where
/// `T` allows.
///
/// ```
/// let v: Vec<&str> = jtoo_serde::from_str(r#"["a","b"]"#)?;
/// assert_eq!(v, ["a", "b"]);
/// # Ok::<(), jtoo_serde::Error>(())
/// ```
///
/// # Errors
/// Syntax errors (with line and column), data that does not fit `T` (with
/// the path), trailing characters.
pub fn from_str<'de, T: Deserialize<'de>>(s: &'de str) -> Result<T> {
    // A `str` is known to be UTF-8: not checked again.
    read_whole(Deserializer::from_str(s))
}

/// Reads one `T` with `de`, then checks that nothing follows.
#[inline]
fn read_whole<'de, T: Deserialize<'de>>(mut de: Deserializer<'de>) -> Result<T> {
    let v = T::deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// Deserializes a `T` from strict JTOO bytes.
///
/// ```
/// let v: (u8, bool) = jtoo_serde::from_slice(b"[7,N]")?;
/// assert_eq!(v, (7, false));
/// # Ok::<(), jtoo_serde::Error>(())
/// ```
///
/// # Errors
/// As [`from_str`].
pub fn from_slice<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<T> {
    read_whole(Deserializer::from_slice(bytes))
}

/// Deserializes a `T` from a reader of strict JTOO, streaming: the input is
/// read 64 KiB at a time through [`jtoo::stream::Reader`]'s window and
/// never held whole. Memory is bounded by a buffer (128 KiB, 1 MiB once
/// the input is longer) or twice the longest token (string, byte string,
/// number), whichever is larger, plus the result `T`: a typed read of a
/// 200 MB document into [`serde::de::IgnoredAny`] stays under 8 MiB. (Buffering the reader is
/// not needed; [`IoDeserializer`] sets the read size and a token limit.)
///
/// A `T` reads exactly as [`from_slice`] reads it, with the same errors
/// at the same line and column, except that nothing is borrowed: strings
/// and bytes are handed over owned (`T: DeserializeOwned`). As in
/// [`from_slice`], nothing may follow the document, not even a newline.
///
/// ```
/// #[derive(serde::Deserialize, Debug, PartialEq)]
/// struct Point { x: i32, y: i32 }
///
/// let file = std::io::Cursor::new(br#"[["x":1,"y":2],["x":3,"y":4]]"#);
/// let points: Vec<Point> = jtoo_serde::from_reader(file)?;
/// assert_eq!(points[1], Point { x: 3, y: 4 });
///
/// let err = jtoo_serde::from_reader::<_, Vec<Point>>(&br#"[["x":1,"y":"2"]]"#[..]).unwrap_err();
/// assert_eq!(err.to_string(), r#"[0].y: invalid type: string "2", expected i32 at line 1 column 13"#);
/// # Ok::<(), jtoo_serde::Error>(())
/// ```
///
/// # Errors
/// I/O errors of the reader ([`Category::Io`]), and as [`from_str`].
pub fn from_reader<R: std::io::Read, T: DeserializeOwned>(reader: R) -> Result<T> {
    let mut de = IoDeserializer::new(reader);
    let v = T::deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// Deserializes a `T` from HTOO text (the lenient, human-writable variant:
/// whitespace, comments, trailing commas, …), for configuration files.
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct Config { port: u16, hosts: Vec<String> }
/// let c: Config = jtoo_serde::from_htoo_str(r#"[
///     "port": 8080, // the listening port
///     "hosts": ["a", "b",],
/// ]"#)?;
/// assert_eq!((c.port, c.hosts.len()), (8080, 2));
/// # Ok::<(), jtoo_serde::Error>(())
/// ```
///
/// # Errors
/// As [`from_str`].
pub fn from_htoo_str<'de, T: Deserialize<'de>>(s: &'de str) -> Result<T> {
    from_htoo_slice(s.as_bytes())
}

/// Deserializes a `T` from HTOO bytes.
///
/// # Errors
/// As [`from_str`].
pub fn from_htoo_slice<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<T> {
    read_whole(Deserializer::from_htoo_slice(bytes))
}

/// Converts `value` into a [`jtoo::Value`] with the same mapping as
/// [`to_string`].
///
/// ```
/// let v = jtoo_serde::to_value(&[("a", 1)])?;
/// assert_eq!(v.to_string(), r#"[["a",1]]"#);
/// # Ok::<(), jtoo_serde::Error>(())
/// ```
///
/// # Errors
/// As [`to_string`] (including the depth limit of 128, so the value can be
/// written and read back with the defaults).
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<jtoo::Value> {
    value_ser::to_value(value)
}

/// Converts a [`jtoo::Value`] into a `T` with the same mapping as
/// [`from_str`].
///
/// ```
/// let v = jtoo::from_str(r#"["x":1,"y":2]"#)?;
/// let m: std::collections::BTreeMap<String, i32> = jtoo_serde::from_value(v)?;
/// assert_eq!(m["y"], 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// Data that does not fit `T`.
pub fn from_value<T: DeserializeOwned>(value: jtoo::Value) -> Result<T> {
    T::deserialize(ValueDeserializer::new(value))
}
