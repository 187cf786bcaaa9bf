//! `Deserialize` for the value model and the scalar types.

use super::markers::{
    DATETIME_MARKER, DECIMAL_MARKER, ITEM_MARKER, PAIR_MARKER, TIMESTAMP_MARKER, VALUE_MARKER,
};
use super::markers::{Kind, MarkedScalar, deserialize_marked, parse_marked};
use super::{JSON_NUMBER_TOKEN, value_from_json_number};
use crate::types::{Date, DateTime, Decimal, Integer, Offset, Time, Timestamp};
use crate::value::{Item, Pair, Value};
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

impl<'de> Deserialize<'de> for Decimal {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Decimal, D::Error> {
        match deserialize_marked(d, Kind::Decimal)? {
            MarkedScalar::Decimal(v) => Ok(v),
            _ => Err(de::Error::custom("expected a JTOO decimal")),
        }
    }
}

impl<'de> Deserialize<'de> for DateTime {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<DateTime, D::Error> {
        match deserialize_marked(d, Kind::DateTime)? {
            MarkedScalar::DateTime(v) => Ok(v),
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
            MarkedScalar::Timestamp(v) => Ok(v),
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
        Ok(Item::Value(Value::String(v.into())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Item, E> {
        Ok(Item::Value(Value::String(v.into())))
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
                    JSON_NUMBER_TOKEN => {
                        let text: String = map.next_value()?;
                        return value_from_json_number(&text)
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
                        MarkedScalar::Decimal(d) => Value::Decimal(d),
                        MarkedScalar::DateTime(d) => Value::DateTime(d),
                        MarkedScalar::Timestamp(t) => Value::Timestamp(t),
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
