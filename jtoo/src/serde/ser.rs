//! `Serialize` for the value model and the scalar types.

use super::Primitive;
use super::markers::{DATETIME_MARKER, DECIMAL_MARKER, Marked, PAIR_MARKER, TIMESTAMP_MARKER};
use crate::error::{Error, ErrorKind};
use crate::options::Options;
use crate::types::{Date, DateTime, Decimal, Integer, Offset, Time, Timestamp};
use crate::value::{Item, ItemRef, Pair, Value};
use serde::ser::{self, Serialize, SerializeMap, SerializeSeq, Serializer};

impl Serialize for Integer {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match super::primitive(self) {
            Some(Primitive::I64(v)) => s.serialize_i64(v),
            Some(Primitive::U64(v)) => s.serialize_u64(v),
            Some(Primitive::I128(v)) => s.serialize_i128(v),
            Some(Primitive::U128(v)) => s.serialize_u128(v),
            // serde has no primitive below i128::MIN: refuse rather than
            // lose the sign.
            None => Err(serde::ser::Error::custom(super::BELOW_I128_MIN)),
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
        let pairs = !items.is_empty() && items.is_record();
        if pairs {
            let mut m = s.serialize_map(Some(items.len()))?;
            for item in items {
                if let ItemRef::Pair(p) = item {
                    m.serialize_entry(&Nested(p.key(), depth), &Nested(p.value(), depth))?;
                }
            }
            m.end()
        } else {
            let mut q = s.serialize_seq(Some(items.len()))?;
            for item in items {
                match item {
                    ItemRef::Value(v) => q.serialize_element(&Nested(v, depth))?,
                    ItemRef::Pair(p) => q.serialize_element(&PairItem(p, depth))?,
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
