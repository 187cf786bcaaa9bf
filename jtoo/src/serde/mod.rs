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

use crate::error::{Error, ErrorKind};
use crate::options::Options;
use crate::parse::Number;
use crate::types::{Date, DateTime, Decimal, Integer, Offset, Time, Timestamp};
use crate::value::{Item, Pair, Value};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{self, SerializeMap, SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Newtype-struct name (and map key) under which a [`Decimal`] travels.
#[doc(hidden)]
pub const DECIMAL_MARKER: &str = "$__jtoo_private_Decimal";
/// Newtype-struct name (and map key) under which a [`DateTime`] travels.
#[doc(hidden)]
pub const DATETIME_MARKER: &str = "$__jtoo_private_DateTime";
/// Newtype-struct name (and map key) under which a [`Timestamp`] travels.
#[doc(hidden)]
pub const TIMESTAMP_MARKER: &str = "$__jtoo_private_Timestamp";
/// Newtype-struct name and map key of a pair inside a mixed list.
#[doc(hidden)]
pub const PAIR_MARKER: &str = "$__jtoo_private_Pair";
/// Map key of a plain item inside a list presented as a map.
#[doc(hidden)]
pub const ITEM_MARKER: &str = "$__jtoo_private_Item";
/// Newtype-struct name under which [`Value`] asks to be deserialized, so a
/// JTOO deserializer can hand it the value in one pass.
#[doc(hidden)]
pub const VALUE_MARKER: &str = "$__jtoo_private_Value";

/// Reads a JSON number's text (`-1.5e3`) as an exact [`Decimal`]
/// (`serde_json`'s `arbitrary_precision` numbers travel as such text).
#[doc(hidden)]
pub fn decimal_from_json_number(s: &str) -> Option<Decimal> {
    match crate::json_number::read_whole(s)? {
        Number::Integer(i) => Some(Decimal::from(i)),
        Number::Decimal(d) => Some(d),
    }
}

/// Serializes `text` as the newtype struct `marker`.
struct Marked<'a>(&'static str, &'a str);

impl Serialize for Marked<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(self.0, self.1)
    }
}

impl Serialize for Integer {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if let Some(v) = self.to_i64() {
            s.serialize_i64(v)
        } else if let Some(v) = self.to_u64() {
            s.serialize_u64(v)
        } else if let Some(v) = self.to_i128() {
            s.serialize_i128(v)
        } else if !self.is_negative() {
            s.serialize_u128(self.magnitude())
        } else {
            // serde has no primitive below i128::MIN: refuse rather than lose
            // the sign.
            Err(serde::ser::Error::custom(
                "integer below i128::MIN cannot pass through serde",
            ))
        }
    }
}

impl Serialize for Decimal {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Marked(DECIMAL_MARKER, &self.to_string()).serialize(s)
    }
}

impl Serialize for DateTime {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Marked(DATETIME_MARKER, &self.to_string()).serialize(s)
    }
}

impl Serialize for Date {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        DateTime::from(*self).serialize(s)
    }
}

impl Serialize for Time {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        DateTime::from(*self).serialize(s)
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Marked(TIMESTAMP_MARKER, &self.to_string()).serialize(s)
    }
}

impl Serialize for Offset {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A pair inside a mixed list: `{"$__jtoo_private_Pair": [key, value]}`,
/// wrapped in the newtype struct of the same name; `.1` as in [`Nested`].
struct PairItem<'a>(&'a Pair, usize);

impl Serialize for PairItem<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(PAIR_MARKER, &PairBody(self.0, self.1))
    }
}

struct PairBody<'a>(&'a Pair, usize);

impl Serialize for PairBody<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (pair, depth) = (self.0, self.1);
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(
            PAIR_MARKER,
            &(Nested(pair.key(), depth), Nested(pair.value(), depth)),
        )?;
        m.end()
    }
}

/// A value with the number of lists it may still open: serializing
/// recurses once per level, so a value built in code (which may nest a
/// million lists deep) is refused past [`Options::DEPTH_CEILING`] instead
/// of overflowing the stack.
struct Nested<'a>(&'a Value, usize);

impl Serialize for Nested<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let items = match self.0 {
            Value::String(v) => return s.serialize_str(v),
            Value::Bytes(v) => return s.serialize_bytes(v),
            Value::Bool(v) => return s.serialize_bool(*v),
            Value::Integer(v) => return v.serialize(s),
            Value::Decimal(v) => return v.serialize(s),
            Value::DateTime(v) => return v.serialize(s),
            Value::Timestamp(v) => return v.serialize(s),
            Value::List(items) => items,
        };
        let Some(depth) = self.1.checked_sub(1) else {
            return Err(ser::Error::custom(Error::new(ErrorKind::TooDeep(
                Options::DEPTH_CEILING,
            ))));
        };
        let pairs = !items.is_empty() && items.iter().all(|i| matches!(i, Item::Pair(_)));
        if pairs {
            let mut m = s.serialize_map(Some(items.len()))?;
            for item in items {
                if let Item::Pair(p) = item {
                    m.serialize_entry(&Nested(p.key(), depth), &Nested(p.value(), depth))?;
                }
            }
            m.end()
        } else {
            let mut q = s.serialize_seq(Some(items.len()))?;
            for item in items {
                match item {
                    Item::Value(v) => q.serialize_element(&Nested(v, depth))?,
                    Item::Pair(p) => q.serialize_element(&PairItem(p, depth))?,
                }
            }
            q.end()
        }
    }
}

impl Serialize for Value {
    /// Lists nested deeper than [`Options::DEPTH_CEILING`] are an error (a
    /// value built in code can nest deeper than any reader accepts; this
    /// recurses once per level).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Nested(self, Options::DEPTH_CEILING).serialize(s)
    }
}

impl Serialize for Item {
    /// A plain item as its value; a pair as `{"$__jtoo_private_Pair": [key, value]}`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Item::Value(v) => v.serialize(s),
            Item::Pair(p) => PairItem(p, Options::DEPTH_CEILING).serialize(s),
        }
    }
}

// ---------------------------------------------------------------- Deserialize

/// Which of the marked scalars a visitor wants.
#[derive(Clone, Copy)]
enum Kind {
    Decimal,
    DateTime,
    Timestamp,
}

impl Kind {
    fn marker(self) -> &'static str {
        match self {
            Kind::Decimal => DECIMAL_MARKER,
            Kind::DateTime => DATETIME_MARKER,
            Kind::Timestamp => TIMESTAMP_MARKER,
        }
    }
}

/// The scalar a marked value turned into.
enum Marked2 {
    Decimal(Decimal),
    DateTime(DateTime),
    Timestamp(Timestamp),
}

fn parse_marked<E: de::Error>(kind: Kind, text: &str) -> Result<Marked2, E> {
    let r = match kind {
        Kind::Decimal => text.parse().map(Marked2::Decimal),
        Kind::DateTime => text.parse().map(Marked2::DateTime),
        Kind::Timestamp => text.parse().map(Marked2::Timestamp),
    };
    r.map_err(|e| E::custom(format_args!("{}", e.message())))
}

/// Visits the text of a marked scalar, in any of the forms formats hand it.
struct MarkedVisitor(Kind);

impl<'de> Visitor<'de> for MarkedVisitor {
    type Value = Marked2;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Kind::Decimal => f.write_str("a JTOO decimal"),
            Kind::DateTime => f.write_str("a JTOO date/time"),
            Kind::Timestamp => f.write_str("a JTOO timestamp"),
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Marked2, E> {
        parse_marked(self.0, v)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Marked2, E> {
        match self.0 {
            Kind::Decimal => Decimal::from_f64(v)
                .map(Marked2::Decimal)
                .map_err(E::custom),
            _ => Err(E::invalid_type(de::Unexpected::Float(v), &self)),
        }
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Marked2, E> {
        self.visit_i128(i128::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Marked2, E> {
        self.visit_u128(u128::from(v))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Marked2, E> {
        match self.0 {
            Kind::Decimal => Ok(Marked2::Decimal(Decimal::from(Integer::from(v)))),
            _ => Err(E::invalid_type(de::Unexpected::Other("an integer"), &self)),
        }
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Marked2, E> {
        match self.0 {
            Kind::Decimal => Ok(Marked2::Decimal(Decimal::from(Integer::from(v)))),
            _ => Err(E::invalid_type(de::Unexpected::Other("an integer"), &self)),
        }
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Marked2, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Marked2, A::Error> {
        let key: Option<String> = map.next_key()?;
        match key.as_deref() {
            Some(k) if k == self.0.marker() => {
                let text: String = map.next_value()?;
                parse_marked(self.0, &text)
            }
            Some("$serde_json::private::Number") if matches!(self.0, Kind::Decimal) => {
                let text: String = map.next_value()?;
                decimal_from_json_number(&text)
                    .map(Marked2::Decimal)
                    .ok_or_else(|| de::Error::custom("number out of range for a JTOO decimal"))
            }
            _ => Err(de::Error::invalid_type(de::Unexpected::Map, &self)),
        }
    }
}

fn deserialize_marked<'de, D: Deserializer<'de>>(d: D, kind: Kind) -> Result<Marked2, D::Error> {
    d.deserialize_newtype_struct(kind.marker(), MarkedVisitor(kind))
}

impl<'de> Deserialize<'de> for Decimal {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Decimal, D::Error> {
        match deserialize_marked(d, Kind::Decimal)? {
            Marked2::Decimal(v) => Ok(v),
            _ => Err(de::Error::custom("expected a JTOO decimal")),
        }
    }
}

impl<'de> Deserialize<'de> for DateTime {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<DateTime, D::Error> {
        match deserialize_marked(d, Kind::DateTime)? {
            Marked2::DateTime(v) => Ok(v),
            _ => Err(de::Error::custom("expected a JTOO date/time")),
        }
    }
}

impl<'de> Deserialize<'de> for Date {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Date, D::Error> {
        let dt = DateTime::deserialize(d)?;
        match (dt.date(), dt.time(), dt.offset()) {
            (Some(date), None, None) => Ok(date),
            _ => Err(de::Error::custom(format_args!(
                "invalid value: `{dt}`, expected a JTOO date without time or offset"
            ))),
        }
    }
}

impl<'de> Deserialize<'de> for Time {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Time, D::Error> {
        let dt = DateTime::deserialize(d)?;
        match (dt.date(), dt.time(), dt.offset()) {
            (None, Some(time), None) => Ok(time),
            _ => Err(de::Error::custom(format_args!(
                "invalid value: `{dt}`, expected a JTOO time without date or offset"
            ))),
        }
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Timestamp, D::Error> {
        match deserialize_marked(d, Kind::Timestamp)? {
            Marked2::Timestamp(v) => Ok(v),
            _ => Err(de::Error::custom("expected a JTOO timestamp")),
        }
    }
}

impl<'de> Deserialize<'de> for Offset {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Offset, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Offset;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JTOO offset (`Z`, `+01`, `~0530`)")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Offset, E> {
                v.parse().map_err(|e: crate::Error| E::custom(e.message()))
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de> Deserialize<'de> for Integer {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Integer, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Integer;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an integer")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Integer, E> {
                Ok(Integer::from(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Integer, E> {
                Ok(Integer::from(v))
            }
            fn visit_i128<E: de::Error>(self, v: i128) -> Result<Integer, E> {
                Ok(Integer::from(v))
            }
            fn visit_u128<E: de::Error>(self, v: u128) -> Result<Integer, E> {
                Ok(Integer::from(v))
            }
        }
        d.deserialize_any(V)
    }
}

/// Builds a value or (inside a sequence, `item == true`) a list item.
struct ValueVisitor {
    item: bool,
}

fn no_null<E: de::Error>() -> E {
    E::custom("JTOO has no null")
}

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Item;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JTOO value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Item, E> {
        Ok(Item::Value(Value::Bool(v)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Item, E> {
        Ok(Item::Value(Value::from(v)))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Item, E> {
        Ok(Item::Value(Value::from(v)))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Item, E> {
        Ok(Item::Value(Value::from(v)))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Item, E> {
        Ok(Item::Value(Value::from(v)))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Item, E> {
        Decimal::from_f64(v)
            .map(|d| Item::Value(Value::Decimal(d)))
            .map_err(|e| E::custom(e.message()))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Item, E> {
        Ok(Item::Value(Value::String(v.to_owned())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Item, E> {
        Ok(Item::Value(Value::String(v)))
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Item, E> {
        Ok(Item::Value(Value::Bytes(v.to_vec())))
    }
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Item, E> {
        Ok(Item::Value(Value::Bytes(v)))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Item, E> {
        Err(no_null())
    }
    fn visit_none<E: de::Error>(self) -> Result<Item, E> {
        Err(no_null())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Item, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Item, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Item, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element_seed(ItemSeed)? {
            items.push(item);
        }
        Ok(Item::Value(Value::List(items.into())))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Item, A::Error> {
        let mut items = Vec::with_capacity(map.size_hint().unwrap_or(0).min(4096));
        let mut first = true;
        while let Some(key) = map.next_key::<Value>()? {
            if let Value::String(k) = &key {
                let marked = match k.as_str() {
                    DECIMAL_MARKER => Some(Kind::Decimal),
                    DATETIME_MARKER => Some(Kind::DateTime),
                    TIMESTAMP_MARKER => Some(Kind::Timestamp),
                    "$serde_json::private::Number" => {
                        let text: String = map.next_value()?;
                        let v = if text.contains(['.', 'e', 'E']) {
                            decimal_from_json_number(&text).map(Value::Decimal)
                        } else {
                            integer_from_json_number(&text).map(Value::Integer)
                        };
                        return v
                            .map(Item::Value)
                            .ok_or_else(|| de::Error::custom("number out of range for JTOO"));
                    }
                    PAIR_MARKER if first && self.item => {
                        let (k, v): (Value, Value) = map.next_value()?;
                        let pair = Pair::new(k, v).map_err(|e| de::Error::custom(e.message()))?;
                        return Ok(Item::Pair(pair));
                    }
                    ITEM_MARKER => {
                        let v: Value = map.next_value()?;
                        items.push(Item::Value(v));
                        first = false;
                        continue;
                    }
                    _ => None,
                };
                if let (Some(kind), true) = (marked, first) {
                    let text: String = map.next_value()?;
                    let v = match parse_marked(kind, &text)? {
                        Marked2::Decimal(d) => Value::Decimal(d),
                        Marked2::DateTime(d) => Value::DateTime(d),
                        Marked2::Timestamp(t) => Value::Timestamp(t),
                    };
                    return Ok(Item::Value(v));
                }
            }
            first = false;
            let value: Value = map.next_value()?;
            let pair = Pair::new(key, value).map_err(|e| de::Error::custom(e.message()))?;
            items.push(Item::Pair(pair));
        }
        Ok(Item::Value(Value::List(items.into())))
    }
}

/// A JSON integer's text (`-12`) as an [`Integer`].
#[doc(hidden)]
pub fn integer_from_json_number(text: &str) -> Option<Integer> {
    match crate::json_number::read_whole(text)? {
        Number::Integer(i) => Some(i),
        Number::Decimal(_) => None,
    }
}

/// Deserializes one list item (a pair arrives as `{"$__jtoo_private_Pair": [k, v]}`).
struct ItemSeed;

impl<'de> DeserializeSeed<'de> for ItemSeed {
    type Value = Item;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Item, D::Error> {
        d.deserialize_any(ValueVisitor { item: true })
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        match d.deserialize_newtype_struct(VALUE_MARKER, ValueVisitor { item: false })? {
            Item::Value(v) => Ok(v),
            Item::Pair(_) => Err(de::Error::custom("a pair is not a value")),
        }
    }
}

impl<'de> Deserialize<'de> for Item {
    /// A value, or a pair from `{"$__jtoo_private_Pair": [key, value]}`.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Item, D::Error> {
        ItemSeed.deserialize(d)
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
