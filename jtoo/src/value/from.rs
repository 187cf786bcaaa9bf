//! Conversions into `Value`.

use super::{Item, Pair, Str, Value};
use crate::error::Error;
use crate::types::{Date, DateTime, Decimal, Integer, Time, Timestamp};

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(Str::from(s))
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(Str::from(s))
    }
}

impl From<&[u8]> for Value {
    /// A byte string.
    fn from(b: &[u8]) -> Value {
        Value::Bytes(b.to_vec())
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(v: $t) -> Value { Value::Integer(Integer::from(v)) }
        }
    )*};
}
from_int!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize
);

impl TryFrom<f64> for Value {
    type Error = Error;
    /// The decimal with the shortest digits that round-trip (NaN/∞ fail).
    fn try_from(v: f64) -> Result<Value, Error> {
        Decimal::from_f64(v).map(Value::Decimal)
    }
}

impl TryFrom<f32> for Value {
    type Error = Error;
    /// The decimal with the shortest digits that round-trip (NaN/∞ fail).
    fn try_from(v: f32) -> Result<Value, Error> {
        Decimal::from_f32(v).map(Value::Decimal)
    }
}

impl From<Integer> for Value {
    fn from(v: Integer) -> Value {
        Value::Integer(v)
    }
}

impl From<Decimal> for Value {
    fn from(v: Decimal) -> Value {
        Value::Decimal(v)
    }
}

impl From<crate::parse::Number> for Value {
    #[inline]
    fn from(n: crate::parse::Number) -> Value {
        match n {
            crate::parse::Number::Integer(i) => Value::Integer(i),
            crate::parse::Number::Decimal(d) => Value::Decimal(d),
        }
    }
}

impl From<DateTime> for Value {
    fn from(v: DateTime) -> Value {
        Value::DateTime(v)
    }
}

impl From<Date> for Value {
    fn from(v: Date) -> Value {
        Value::DateTime(DateTime::from(v))
    }
}

impl From<Time> for Value {
    fn from(v: Time) -> Value {
        Value::DateTime(DateTime::from(v))
    }
}

impl From<Timestamp> for Value {
    fn from(v: Timestamp) -> Value {
        Value::Timestamp(v)
    }
}

impl From<Vec<Item>> for Value {
    fn from(items: Vec<Item>) -> Value {
        Value::List(items.into())
    }
}

impl From<Vec<Value>> for Value {
    fn from(values: Vec<Value>) -> Value {
        Value::List(values.into_iter().map(Item::Value).collect())
    }
}

impl FromIterator<Value> for Value {
    /// A list of the values.
    fn from_iter<I: IntoIterator<Item = Value>>(iter: I) -> Value {
        Value::List(iter.into_iter().map(Item::Value).collect())
    }
}

impl FromIterator<Item> for Value {
    /// A list of the items.
    fn from_iter<I: IntoIterator<Item = Item>>(iter: I) -> Value {
        Value::List(iter.into_iter().collect())
    }
}

impl<K: Into<Str>> FromIterator<(K, Value)> for Value {
    /// A list of pairs with string keys (a record), in order.
    ///
    /// ```
    /// use jtoo::Value;
    /// let v: Value = [("a", Value::from(1)), ("b", Value::from("x"))].into_iter().collect();
    /// assert_eq!(v.to_string(), r#"["a":1,"b":"x"]"#);
    /// ```
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Value {
        Value::List(
            iter.into_iter()
                .map(|(k, v)| Item::Pair(Pair::with_str_key(k, v)))
                .collect(),
        )
    }
}
