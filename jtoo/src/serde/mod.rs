//! `serde` support for the value model and the scalar types (feature `serde`).
//!
//! With any serde format:
//!
//! | type | serialized as | deserialized from |
//! | --- | --- | --- |
//! | [`Integer`] | the smallest of `i64`, `u64`, `i128`, `u128` that holds it | any integer |
//! | [`Decimal`] | newtype struct `$__jtoo_private_Decimal` around the canonical text (`"1_000.5"`) | that text, an `f64`, an integer |
//! | [`DateTime`], [`Date`], [`Time`] | newtype struct `$__jtoo_private_DateTime` around the canonical text (`"D2023-12-30T01"`) | that text |
//! | [`Timestamp`] | newtype struct `$__jtoo_private_Timestamp` around the canonical text (`"S1_709_528_240"`) | that text |
//! | [`Offset`] | its text (`"~08"`) | that text |
//! | [`Value`] | string, bytes, bool, integer as above, list of only pairs as a map, other lists as a sequence | the same |
//!
//! Formats other than JTOO see the newtype structs as their content (a
//! string). The JTOO serializer in `jtoo-serde` recognises the private names
//! and writes the value in its JTOO form (a decimal, a date, a timestamp, not
//! a string). When a self-describing deserializer meets a date/time or
//! timestamp through `deserialize_any`, it presents it as a map with a single
//! entry whose key is the private name and whose value is the canonical
//! text, like `toml_datetime` does (a decimal is presented as an `f64`;
//! `Value` asks for `$__jtoo_private_Value` so a JTOO deserializer can keep
//! decimals exact).
//!
//! A list that mixes pairs and plain values has no serde equivalent: it is
//! written as a sequence in which each pair is the map
//! `{"$__jtoo_private_Pair": [key, value]}`, and read back from that. A
//! deserializer that presents a list whose first item is a pair as a map
//! presents a later plain item as an entry with the key
//! `"$__jtoo_private_Item"`. These names are reserved: a record whose only key
//! is one of them reads back as the value it stands for.
//!
//! [`DateTime`]: crate::DateTime
//! [`Date`]: crate::Date
//! [`Time`]: crate::Time
//! [`Timestamp`]: crate::Timestamp
//! [`Offset`]: crate::Offset
//! [`Value`]: crate::Value

mod de;
mod markers;
mod ser;

use crate::parse::Number;
use crate::types::{Decimal, Integer};

pub use markers::{
    DATETIME_MARKER, DECIMAL_MARKER, ITEM_MARKER, PAIR_MARKER, TIMESTAMP_MARKER, VALUE_MARKER,
};

/// Reads a JSON number's text (`-1.5e3`) as an exact [`Decimal`]
/// (`serde_json`'s `arbitrary_precision` numbers travel as such text).
#[doc(hidden)]
pub fn decimal_from_json_number(s: &str) -> Option<Decimal> {
    match crate::json_number::read_whole(s)? {
        Number::Integer(i) => Some(Decimal::from(i)),
        Number::Decimal(d) => Some(d),
    }
}

/// The map key (and struct name) under which serde_json's
/// `arbitrary_precision` feature carries a number's text.
#[doc(hidden)]
pub const JSON_NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// A JSON number's text as the JTOO value it is: an [`Integer`] without
/// fraction or exponent, a [`Decimal`] otherwise (`serde_json`'s
/// `arbitrary_precision` numbers travel as such text).
#[doc(hidden)]
pub fn value_from_json_number(text: &str) -> Option<crate::Value> {
    crate::json_number::read_whole(text).map(crate::Value::from)
}

/// A JSON integer's text (`-12`) as an [`Integer`].
#[doc(hidden)]
pub fn integer_from_json_number(text: &str) -> Option<Integer> {
    match crate::json_number::read_whole(text)? {
        Number::Integer(i) => Some(i),
        Number::Decimal(_) => None,
    }
}

/// The narrowest serde primitive that holds an [`Integer`]: how integers
/// travel through serde, both ways (the serializer here, jtoo-serde's
/// deserializers). `None` below `i128::MIN`, which serde cannot carry.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Primitive {
    I64(i64),
    U64(u64),
    I128(i128),
    U128(u128),
}

/// The error text for an integer below `i128::MIN`.
#[doc(hidden)]
pub const BELOW_I128_MIN: &str = "integer below i128::MIN cannot pass through serde";

/// See [`Primitive`].
#[doc(hidden)]
#[inline]
pub fn primitive(i: &Integer) -> Option<Primitive> {
    if let Some(v) = i.to_i64() {
        Some(Primitive::I64(v))
    } else if let Some(v) = i.to_u64() {
        Some(Primitive::U64(v))
    } else if let Some(v) = i.to_i128() {
        Some(Primitive::I128(v))
    } else if !i.is_negative() {
        Some(Primitive::U128(i.magnitude()))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_numbers() {
        let d = |s: &str| decimal_from_json_number(s).map(|d| d.to_string());
        assert_eq!(d("1e5").as_deref(), Some("100_000.0"));
        assert_eq!(d("1.50").as_deref(), Some("1.5"));
        assert_eq!(d("-0.0").as_deref(), Some("0.0"));
        assert_eq!(d("1E+2").as_deref(), Some("100.0"));
        assert_eq!(d("2.5e-3").as_deref(), Some("0.002_5"));
        assert!(d("1e999999999").is_none());
        assert!(d("abc").is_none());
        assert!(d("1.").is_none());
    }
}
