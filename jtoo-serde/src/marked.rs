//! The typed serializer's path for jtoo's marked scalars: `Decimal`,
//! `DateTime` and `Timestamp` serialize as a private newtype around their
//! canonical text, which is their JTOO token. [`write`] takes that text
//! straight from the `str` it arrives as, checks it is one strict token of
//! its kind (the one reading of marked text, [`parse_marked`]) (a hand-written `Serialize` could send anything under the
//! private name) and appends it unchanged: no `Value`, no second rendering.

use crate::error::{Error, Result};
use crate::value_ser::parse_marked;
use jtoo::Value;
use jtoo::encode::Output;
use serde::ser::{self, Impossible, Serialize};

/// Appends the canonical text `v` serializes as (the content of the private
/// newtype `marker`) to `out`; `true` when it is a date/time that cannot be
/// a pair key as it stands (`Value::is_ambiguous_key`).
pub(crate) fn write<T: Serialize + ?Sized, O: Output>(
    out: &mut O,
    marker: &'static str,
    v: &T,
) -> Result<bool> {
    write_with(out, marker, v, |text| check(marker, text))
}

/// As [`write`], with `check` deciding whether the text may be written
/// (and what [`write`] returns): a raw value's text
/// ([`crate::raw::write`]).
pub(crate) fn write_with<T, O, C>(
    out: &mut O,
    marker: &'static str,
    v: &T,
    check: C,
) -> Result<bool>
where
    T: Serialize + ?Sized,
    O: Output,
    C: FnOnce(&str) -> Result<bool>,
{
    v.serialize(Text { out, marker, check })
}

/// Checks `text` is exactly one strict token of `marker`'s kind (strict
/// text has one spelling, so it is the canonical one); `true` for an
/// ambiguous-key date/time.
fn check(marker: &'static str, text: &str) -> Result<bool> {
    Ok(match parse_marked(marker, text)? {
        Value::DateTime(dt) => dt.is_ambiguous_key(),
        _ => false,
    })
}

/// A serializer that accepts one `str`, if `check` lets it.
struct Text<'a, O, C> {
    out: &'a mut O,
    marker: &'static str,
    check: C,
}

impl<O, C> Text<'_, O, C> {
    fn refuse<T>(&self) -> Result<T> {
        Err(Error::message(format_args!(
            "expected the text of a {} value",
            self.marker
        )))
    }
}

/// `serialize_*` methods that refuse their value.
macro_rules! refuse {
    ($($method:ident($($t:ty),*) -> $ok:ty),* $(,)?) => {$(
        fn $method(self, $(_: $t),*) -> Result<$ok> {
            self.refuse()
        }
    )*};
}

impl<O: Output, C: FnOnce(&str) -> Result<bool>> ser::Serializer for Text<'_, O, C> {
    type Ok = bool;
    type Error = Error;
    type SerializeSeq = Impossible<bool, Error>;
    type SerializeTuple = Impossible<bool, Error>;
    type SerializeTupleStruct = Impossible<bool, Error>;
    type SerializeTupleVariant = Impossible<bool, Error>;
    type SerializeMap = Impossible<bool, Error>;
    type SerializeStruct = Impossible<bool, Error>;
    type SerializeStructVariant = Impossible<bool, Error>;

    fn serialize_str(self, text: &str) -> Result<bool> {
        let ambiguous = (self.check)(text)?;
        self.out.extend_from_slice(text.as_bytes());
        Ok(ambiguous)
    }

    refuse! {
        serialize_bool(bool) -> bool,
        serialize_i8(i8) -> bool,
        serialize_i16(i16) -> bool,
        serialize_i32(i32) -> bool,
        serialize_i64(i64) -> bool,
        serialize_u8(u8) -> bool,
        serialize_u16(u16) -> bool,
        serialize_u32(u32) -> bool,
        serialize_u64(u64) -> bool,
        serialize_f32(f32) -> bool,
        serialize_f64(f64) -> bool,
        serialize_char(char) -> bool,
        serialize_bytes(&[u8]) -> bool,
        serialize_none() -> bool,
        serialize_unit() -> bool,
        serialize_unit_struct(&'static str) -> bool,
        serialize_unit_variant(&'static str, u32, &'static str) -> bool,
        serialize_seq(Option<usize>) -> Self::SerializeSeq,
        serialize_tuple(usize) -> Self::SerializeTuple,
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct,
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant,
        serialize_map(Option<usize>) -> Self::SerializeMap,
        serialize_struct(&'static str, usize) -> Self::SerializeStruct,
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant,
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<bool> {
        self.refuse()
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<bool> {
        // `Marked` is a newtype around the text: look through a wrapper.
        v.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<bool> {
        self.refuse()
    }
}
