//! The payload of a newtype variant written without one, `["Name"]`:
//! what `None` and `()` leave behind, read back by both deserializers.

use crate::error::{Error, Result};
use serde::de::{self, Unexpected, Visitor};

/// What an absent payload is called in errors.
const NOTHING: Unexpected<'static> = Unexpected::Other("a variant without a payload");

/// `deserialize_*` methods for the types that need a payload.
macro_rules! refuse {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            missing(&visitor)
        }
    )*};
}

/// A deserializer for a left-out payload: `Option` reads it as `None`,
/// `()` (and anything self-describing, such as `serde_json::Value`, which
/// sees `()` and gives `Null`) as unit; every other type is an error.
pub(crate) struct NoPayload;

impl<'de> de::Deserializer<'de> for NoPayload {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_none()
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    refuse! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
        deserialize_string deserialize_bytes deserialize_byte_buf deserialize_seq
        deserialize_map deserialize_identifier
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        missing(&visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        missing(&visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        missing(&visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        missing(&visitor)
    }
}

/// The error for a payload that is needed but absent: "invalid type: a
/// variant without a payload, expected u32".
fn missing<'de, T, V: Visitor<'de>>(visitor: &V) -> Result<T> {
    Err(de::Error::invalid_type(NOTHING, visitor))
}
