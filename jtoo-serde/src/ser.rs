//! The serializer: writes canonical JTOO straight into a byte buffer with the
//! `jtoo::encode` writers, flushing to an `io::Write` every 64 KiB.

use crate::error::{Error, Result};
use crate::value_ser::json_number;
use jtoo::encode::{self, Output};
use jtoo::serde::{
    DATETIME_MARKER, DECIMAL_MARKER, JSON_NUMBER_TOKEN, PAIR_MARKER, TIMESTAMP_MARKER,
};
use jtoo::{ErrorKind, Options, Value};
use serde::ser::{self, Serialize};
use std::io;

const FLUSH_AT: usize = 64 * 1024;
const NOWHERE: usize = usize::MAX;

/// A serializer writing canonical JTOO to `W`.
///
/// ```
/// use serde::Serialize;
/// let mut ser = jtoo_serde::Serializer::new(Vec::new());
/// (1, "a").serialize(&mut ser)?;
/// assert_eq!(ser.into_inner()?, br#"[1,"a"]"#);
/// # Ok::<(), jtoo_serde::Error>(())
/// ```
///
/// Lists nest at most [`jtoo::Options::DEFAULT_MAX_DEPTH`] (128) deep, the
/// parser's default limit, so that whatever this writes the default
/// [`Deserializer`](crate::Deserializer) reads back; deeper data is an
/// error. [`Serializer::with_max_depth`] changes the limit (a reader then
/// needs at least the same limit).
pub struct Serializer<W, O = Vec<u8>> {
    out: O,
    writer: W,
    stream: bool,
    /// Bytes already handed to `writer`.
    flushed: usize,
    /// `None`/`()` may be left out here (a struct field or map value).
    none_ok: bool,
    /// The last value was left out.
    was_none: bool,
    /// Where the last seq element began (a private pair item must start there).
    elem_start: usize,
    /// Where the last written ambiguous date/time key candidate ended.
    ambiguous_end: usize,
    /// How many more lists may be opened inside the current one.
    depth: usize,
    /// The limit `depth` started from (for the error message).
    max_depth: usize,
}

impl<W: io::Write> Serializer<W> {
    /// A serializer that writes to `writer` (buffered: call
    /// [`Serializer::into_inner`] or [`Serializer::flush`] at the end).
    pub fn new(writer: W) -> Self {
        Serializer {
            out: Vec::with_capacity(FLUSH_AT),
            writer,
            stream: true,
            flushed: 0,
            none_ok: false,
            was_none: false,
            elem_start: NOWHERE,
            ambiguous_end: NOWHERE,
            depth: Options::DEFAULT_MAX_DEPTH,
            max_depth: Options::DEFAULT_MAX_DEPTH,
        }
    }
}

impl<W: io::Write, O: Output> Serializer<W, O> {
    /// Sets how deeply lists may nest (default
    /// [`jtoo::Options::DEFAULT_MAX_DEPTH`], the parser's default); deeper
    /// data is an error instead of text the default parser would reject. A
    /// limit above [`jtoo::Options::DEPTH_CEILING`] is lowered to it, the
    /// most any reader accepts.
    ///
    /// ```
    /// use serde::Serialize;
    /// let mut ser = jtoo_serde::Serializer::new(Vec::new()).with_max_depth(1);
    /// assert!(vec![vec![1]].serialize(&mut ser).is_err());
    /// # Ok::<(), jtoo_serde::Error>(())
    /// ```
    pub fn with_max_depth(mut self, max_depth: usize) -> Self {
        let max_depth = Options::new().with_max_depth(max_depth).max_depth();
        self.depth = max_depth;
        self.max_depth = max_depth;
        self
    }

    /// Writes out what is buffered.
    ///
    /// # Errors
    /// I/O errors of the writer.
    pub fn flush(&mut self) -> Result<()> {
        self.writer.write_all(self.out.as_slice())?;
        self.flushed += self.out.len();
        self.out.truncate(0);
        self.writer.flush()?;
        Ok(())
    }

    /// Flushes and returns the writer.
    ///
    /// # Errors
    /// I/O errors of the writer.
    pub fn into_inner(mut self) -> Result<W> {
        self.flush()?;
        Ok(self.writer)
    }

    #[inline]
    fn maybe_flush(&mut self) -> Result<()> {
        if self.stream && self.out.len() >= FLUSH_AT {
            self.writer.write_all(self.out.as_slice())?;
            self.flushed += self.out.len();
            self.out.truncate(0);
        }
        Ok(())
    }
}

impl Serializer<io::Sink> {
    /// An in-memory serializer that appends to `buf` (keeping what it
    /// holds); [`Serializer::into_vec`] gives the buffer back. Reusing one
    /// buffer across values serializes without allocating once it has
    /// grown to the largest value.
    ///
    /// ```
    /// use serde::Serialize;
    /// let mut ser = jtoo_serde::Serializer::from_vec(b"msg: ".to_vec());
    /// [1, 2].serialize(&mut ser)?;
    /// assert_eq!(ser.into_vec(), b"msg: [1,2]");
    /// # Ok::<(), jtoo_serde::Error>(())
    /// ```
    pub fn from_vec(buf: Vec<u8>) -> Self {
        Serializer::from_output(buf)
    }

    /// The buffer of a serializer made by [`Serializer::from_vec`]: what it
    /// held, then everything serialized.
    pub fn into_vec(self) -> Vec<u8> {
        self.out
    }
}

impl<O: Output> Serializer<io::Sink, O> {
    /// An in-memory serializer that appends to any [`Output`] buffer
    /// (keeping what it holds): a `Vec<u8>`, a `&mut Vec<u8>`, or with
    /// jtoo's `bytes` feature a `bytes::BytesMut`, so that a codec writes
    /// its message straight into its write buffer. What was appended when
    /// serialization fails is left in the buffer: truncate it back to its
    /// old length.
    ///
    /// ```
    /// use serde::Serialize;
    /// let mut buf = b"msg: ".to_vec();
    /// let mut ser = jtoo_serde::Serializer::from_output(&mut buf);
    /// ("a", 1).serialize(&mut ser)?;
    /// assert_eq!(buf, br#"msg: ["a",1]"#);
    /// # Ok::<(), jtoo_serde::Error>(())
    /// ```
    pub fn from_output(out: O) -> Self {
        Serializer {
            out,
            writer: io::sink(),
            stream: false,
            flushed: 0,
            none_ok: false,
            was_none: false,
            elem_start: NOWHERE,
            ambiguous_end: NOWHERE,
            depth: Options::DEFAULT_MAX_DEPTH,
            max_depth: Options::DEFAULT_MAX_DEPTH,
        }
    }

    /// The buffer of a serializer made by [`Serializer::from_output`].
    pub fn into_output(self) -> O {
        self.out
    }
}

/// Serializes `value` as a struct field's value is written: `None` when
/// it is left out there (`None`, `()`). See [`crate::to_raw_field`].
pub(crate) fn to_vec_field<T: Serialize + ?Sized>(value: &T) -> Result<Option<Vec<u8>>> {
    let mut ser = Serializer::from_vec(Vec::with_capacity(128));
    ser.none_ok = true;
    value.serialize(&mut ser)?;
    Ok((!ser.was_none).then(|| ser.into_vec()))
}

/// The error for lists nested deeper than `max` (the serializer's limit).
#[cold]
pub(crate) fn too_deep(max: usize) -> Error {
    Error::message(format_args!(
        "lists nested too deeply: more than {max} levels (the depth limit, by default the parser's \
         default {}: deeper text could not be read back)",
        Options::DEFAULT_MAX_DEPTH
    ))
}

impl<W, O: Output> Serializer<W, O> {
    #[inline]
    fn abs(&self) -> usize {
        self.flushed + self.out.len()
    }

    fn truncate_to(&mut self, abs: usize) -> Result<()> {
        match abs.checked_sub(self.flushed) {
            Some(at) if at <= self.out.len() => {
                self.out.truncate(at);
                Ok(())
            }
            _ => Err(Error::message(
                "internal: cannot leave out a value that was already written",
            )),
        }
    }

    /// Opens `levels` lists (one, or two for `["Variant":[…]]`).
    #[inline]
    fn enter(&mut self, levels: usize) -> Result<()> {
        match self.depth.checked_sub(levels) {
            Some(d) => {
                self.depth = d;
                Ok(())
            }
            None => Err(too_deep(self.max_depth)),
        }
    }

    /// Closes `levels` lists.
    #[inline]
    fn leave(&mut self, levels: usize) {
        self.depth += levels;
    }
}

/// A compound being written: a list of items or of pairs.
pub struct Compound<'a, W, O = Vec<u8>> {
    ser: &'a mut Serializer<W, O>,
    first: bool,
    /// Where the current map entry began (to take it back if its value is
    /// left out).
    mark: usize,
    json_number: bool,
    /// Lists this compound opened (closed again by `finish`, one `]` each).
    levels: usize,
}

impl<'a, W: io::Write, O: Output> Compound<'a, W, O> {
    /// A compound that opened `levels` lists (`enter` already called).
    fn new(ser: &'a mut Serializer<W, O>, levels: usize) -> Self {
        Compound {
            ser,
            first: true,
            mark: 0,
            json_number: false,
            levels,
        }
    }

    #[inline]
    fn element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
        if !self.first {
            self.ser.out.push(b',');
        }
        self.first = false;
        self.ser.none_ok = false;
        self.ser.elem_start = self.ser.abs();
        v.serialize(&mut *self.ser)?;
        self.ser.maybe_flush()
    }

    #[inline]
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<()> {
        if self.json_number {
            let text = crate::value_ser::to_value(v)?;
            let n = match text {
                Value::String(t) => json_number(&t)?,
                _ => return Err(Error::message("invalid serde_json number")),
            };
            return encode::write_value(&mut self.ser.out, &n).map_err(Error::from_jtoo);
        }
        let mark = self.ser.abs();
        if !self.first {
            self.ser.out.push(b',');
        }
        encode::write_key(&mut self.ser.out, key);
        self.value_part(v, mark)
    }

    #[inline]
    fn value_part<T: Serialize + ?Sized>(&mut self, v: &T, mark: usize) -> Result<()> {
        self.ser.none_ok = true;
        self.ser.was_none = false;
        v.serialize(&mut *self.ser)?;
        if self.ser.was_none {
            self.ser.was_none = false;
            self.ser.truncate_to(mark)
        } else {
            self.first = false;
            self.ser.maybe_flush()
        }
    }

    #[inline]
    fn finish(self) -> Result<()> {
        match self.levels {
            0 => {}
            1 => self.ser.out.push(b']'),
            _ => self.ser.out.extend_from_slice(b"]]"),
        }
        self.ser.leave(self.levels);
        Ok(())
    }
}

/// `serialize_*` methods that hand their (widened) primitive to one
/// `jtoo::encode` writer.
macro_rules! serialize_with_writer {
    ($($method:ident($t:ty) => $writer:ident),* $(,)?) => {$(
        #[inline]
        fn $method(self, v: $t) -> Result<()> {
            encode::$writer(&mut self.out, v.into());
            Ok(())
        }
    )*};
}

impl<'a, W: io::Write, O: Output> ser::Serializer for &'a mut Serializer<W, O> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, W, O>;
    type SerializeTuple = Compound<'a, W, O>;
    type SerializeTupleStruct = Compound<'a, W, O>;
    type SerializeTupleVariant = Compound<'a, W, O>;
    type SerializeMap = Compound<'a, W, O>;
    type SerializeStruct = Compound<'a, W, O>;
    type SerializeStructVariant = Compound<'a, W, O>;

    // Scalars written by one `jtoo::encode` writer each (the narrower
    // integers widened first).
    serialize_with_writer! {
        serialize_bool(bool) => write_bool,
        serialize_i8(i8) => write_i64,
        serialize_i16(i16) => write_i64,
        serialize_i32(i32) => write_i64,
        serialize_i64(i64) => write_i64,
        serialize_i128(i128) => write_i128,
        serialize_u8(u8) => write_u64,
        serialize_u16(u16) => write_u64,
        serialize_u32(u32) => write_u64,
        serialize_u64(u64) => write_u64,
        serialize_u128(u128) => write_u128,
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        encode::write_f32(&mut self.out, v).map_err(Error::from_jtoo)
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        encode::write_f64(&mut self.out, v).map_err(Error::from_jtoo)
    }
    fn serialize_char(self, v: char) -> Result<()> {
        encode::write_str(&mut self.out, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        encode::write_str(&mut self.out, v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        encode::write_bytes(&mut self.out, v);
        Ok(())
    }
    fn serialize_none(self) -> Result<()> {
        if self.none_ok {
            self.was_none = true;
            Ok(())
        } else {
            Err(Error::no_null())
        }
    }
    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<()> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.enter(1)?;
        self.leave(1);
        self.out.extend_from_slice(b"[]");
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<()> {
        encode::write_str(&mut self.out, variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        v: &T,
    ) -> Result<()> {
        match name {
            DECIMAL_MARKER | DATETIME_MARKER | TIMESTAMP_MARKER => {
                if crate::marked::write(&mut self.out, name, v)? {
                    self.ambiguous_end = self.abs();
                }
                Ok(())
            }
            PAIR_MARKER => {
                if self.elem_start != self.abs() {
                    return Err(Error::message("a pair can only be a list item"));
                }
                let pair = match ser::Serializer::serialize_newtype_struct(
                    crate::value_ser::ValueSerializer,
                    name,
                    v,
                )? {
                    crate::value_ser::Node::Pair(p) => p,
                    _ => return Err(Error::message("invalid private pair item")),
                };
                let too_deep = |_| too_deep(self.max_depth);
                encode::write_value_with_depth(&mut self.out, pair.key(), self.depth)
                    .map_err(too_deep)?;
                self.out.push(b':');
                encode::write_value_with_depth(&mut self.out, pair.value(), self.depth)
                    .map_err(too_deep)
            }
            _ if name == crate::raw::RAW_MARKER => {
                crate::raw::write(&mut self.out, self.depth, self.max_depth, v)
            }
            _ => v.serialize(self),
        }
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<()> {
        self.enter(1)?;
        self.out.push(b'[');
        encode::write_str(&mut self.out, variant);
        // A payload that is left out (`None`, `()`) gives `["Name"]`: a
        // unit variant is a bare string, so the one-item list is free.
        let colon = self.abs();
        self.out.push(b':');
        self.none_ok = true;
        self.was_none = false;
        v.serialize(&mut *self)?;
        if self.was_none {
            self.was_none = false;
            self.truncate_to(colon)?;
        }
        self.out.push(b']');
        self.leave(1);
        Ok(())
    }
    #[inline]
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a, W, O>> {
        self.enter(1)?;
        self.out.push(b'[');
        Ok(Compound::new(self, 1))
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, W, O>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, W, O>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, W, O>> {
        self.enter(2)?;
        self.out.push(b'[');
        encode::write_str(&mut self.out, variant);
        self.out.extend_from_slice(b":[");
        Ok(Compound::new(self, 2))
    }
    #[inline]
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a, W, O>> {
        self.enter(1)?;
        self.out.push(b'[');
        Ok(Compound::new(self, 1))
    }
    #[inline]
    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<Compound<'a, W, O>> {
        if name == JSON_NUMBER_TOKEN {
            let mut c = Compound::new(self, 0);
            c.json_number = true;
            return Ok(c);
        }
        self.enter(1)?;
        self.out.push(b'[');
        Ok(Compound::new(self, 1))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, W, O>> {
        self.enter(2)?;
        self.out.push(b'[');
        encode::write_str(&mut self.out, variant);
        self.out.extend_from_slice(b":[");
        Ok(Compound::new(self, 2))
    }

    fn collect_str<T: std::fmt::Display + ?Sized>(self, v: &T) -> Result<()> {
        self.serialize_str(&v.to_string())
    }
}

/// The compounds whose parts are all list items (sequences, tuples) or
/// all pairs with a field-name key (structs): one `impl` each, the same
/// two method bodies.
macro_rules! compound {
    ($($trait:ident { $method:ident(&mut self, $($arg:ident: $t:ty),*) => $part:ident })*) => {$(
        impl<W: io::Write, O: Output> ser::$trait for Compound<'_, W, O> {
            type Ok = ();
            type Error = Error;
            #[inline]
            fn $method<T: Serialize + ?Sized>(&mut self, $($arg: $t),*) -> Result<()> {
                self.$part($($arg),*)
            }
            #[inline]
            fn end(self) -> Result<()> {
                self.finish()
            }
        }
    )*};
}

compound! {
    SerializeSeq { serialize_element(&mut self, v: &T) => element }
    SerializeTuple { serialize_element(&mut self, v: &T) => element }
    SerializeTupleStruct { serialize_field(&mut self, v: &T) => element }
    SerializeTupleVariant { serialize_field(&mut self, v: &T) => element }
    SerializeStruct { serialize_field(&mut self, key: &'static str, v: &T) => field }
    SerializeStructVariant { serialize_field(&mut self, key: &'static str, v: &T) => field }
}

impl<W: io::Write, O: Output> ser::SerializeMap for Compound<'_, W, O> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<()> {
        self.mark = self.ser.abs();
        if !self.first {
            self.ser.out.push(b',');
        }
        self.ser.none_ok = false;
        self.ser.elem_start = NOWHERE;
        k.serialize(&mut *self.ser)?;
        if self.ser.ambiguous_end == self.ser.abs() {
            return Err(Error::from_jtoo(jtoo::Error::new(ErrorKind::AmbiguousKey)));
        }
        self.ser.out.push(b':');
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
        let mark = self.mark;
        self.value_part(v, mark)
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}
