//! `Value`, `Item` and `Pair`: the JTOO data model.

use crate::error::{Error, ErrorKind};
use crate::types::{DateTime, Decimal, Integer, Timestamp};
use std::fmt;

mod from;
pub mod list;
mod str;
pub mod walk;

pub use list::{ItemMut, ItemRef, List};
pub use str::Str;

/// Any JTOO value.
///
/// ```
/// use jtoo::{Item, Value};
/// let v = jtoo::from_str(r#"["name":"Ada","born":D1815-12-10,"tags":["math","code"]]"#).unwrap();
/// assert_eq!(v.get("name").and_then(Value::as_str), Some("Ada"));
/// assert_eq!(v.get("born").unwrap().to_string(), "D1815-12-10");
/// assert_eq!(v["tags"][1].as_str(), Some("code"));
/// assert!(v.get("missing").is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A string (`"abc"`); short ones are stored inline (see [`Str`]).
    String(Str),
    /// A byte string (`B4f4b`).
    Bytes(Vec<u8>),
    /// `Y` or `N`.
    Bool(bool),
    /// An integer (`-1_000`).
    Integer(Integer),
    /// A decimal (`1.5`).
    Decimal(Decimal),
    /// A date, time, offset or combination (`D2023-12-30T01:02:03~08`).
    DateTime(DateTime),
    /// A Unix timestamp (`S1_709_528_240.001`).
    Timestamp(Timestamp),
    /// A list of values and key-value pairs (`[1,"k":2]`).
    List(List),
}

/// One item of a list: a value, or a key-value pair.
///
/// A pair is never a value by itself: it can only stand in a list.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    /// A plain value.
    Value(Value),
    /// A `key:value` pair.
    Pair(Pair),
}

/// A `key:value` list item.
///
/// Keys may be any value whose spelling is unambiguous before `:`. A time of
/// hour or minute precision without an offset is not: `[T10:20]` is the time
/// 10:20, so [`Pair::new`] refuses such keys.
///
/// ```
/// use jtoo::{Pair, Value, Time, DateTime};
/// let p = Pair::new("k".into(), 1.into()).unwrap();
/// assert_eq!(p.key().as_str(), Some("k"));
/// let t10 = Value::DateTime(DateTime::from(Time::from_hour(10).unwrap()));
/// assert!(Pair::new(t10, 20.into()).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pair {
    key: Value,
    value: Value,
}

impl Pair {
    /// A pair, unless the key has no unambiguous spelling before `:`.
    ///
    /// # Errors
    /// [`ErrorKind::AmbiguousKey`] for a time of hour or minute precision
    /// without an offset.
    pub fn new(key: Value, value: Value) -> Result<Pair, Error> {
        if key.is_ambiguous_key() {
            return Err(Error::new(ErrorKind::AmbiguousKey));
        }
        Ok(Pair { key, value })
    }

    /// A pair whose key the caller has checked.
    #[inline]
    pub(crate) fn new_unchecked(key: Value, value: Value) -> Pair {
        Pair { key, value }
    }

    /// A pair with a string key (always valid).
    pub fn with_str_key(key: impl Into<Str>, value: Value) -> Pair {
        Pair {
            key: Value::String(key.into()),
            value,
        }
    }

    /// The key.
    pub fn key(&self) -> &Value {
        &self.key
    }

    /// The value.
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// The value, mutably (keys cannot be changed in place).
    pub fn value_mut(&mut self) -> &mut Value {
        &mut self.value
    }

    /// Key and value.
    pub fn into_parts(self) -> (Value, Value) {
        (self.key, self.value)
    }
}

impl Item {
    /// The plain value, if this is not a pair.
    pub fn as_value(&self) -> Option<&Value> {
        match self {
            Item::Value(v) => Some(v),
            Item::Pair(_) => None,
        }
    }

    /// The pair, if this is one.
    pub fn as_pair(&self) -> Option<&Pair> {
        match self {
            Item::Pair(p) => Some(p),
            Item::Value(_) => None,
        }
    }
}

impl From<Value> for Item {
    fn from(v: Value) -> Item {
        Item::Value(v)
    }
}

impl From<Pair> for Item {
    fn from(p: Pair) -> Item {
        Item::Pair(p)
    }
}

impl Value {
    /// `true` when this value cannot be a pair key: see [`Pair::new`].
    #[inline]
    pub fn is_ambiguous_key(&self) -> bool {
        matches!(self, Value::DateTime(dt) if dt.is_ambiguous_key())
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The bytes, if this is a byte string.
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match self {
            Value::Bytes(b) => Some(b),
            _ => None,
        }
    }

    /// The boolean, if this is `Y` or `N`.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The integer, if this is one.
    pub fn as_integer(&self) -> Option<Integer> {
        match self {
            Value::Integer(i) => Some(*i),
            _ => None,
        }
    }

    /// The integer as `i64`, if this is an integer that fits.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_integer().and_then(|i| i.to_i64())
    }

    /// The integer as `u64`, if this is an integer that fits.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_integer().and_then(|i| i.to_u64())
    }

    /// The integer as `i128`, if this is an integer that fits.
    pub fn as_i128(&self) -> Option<i128> {
        self.as_integer().and_then(|i| i.to_i128())
    }

    /// The integer as `u128`, if this is a non-negative integer.
    pub fn as_u128(&self) -> Option<u128> {
        self.as_integer().and_then(|i| i.to_u128())
    }

    /// The nearest `f64` of a decimal or an integer.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Decimal(d) => Some(d.to_f64()),
            Value::Integer(i) => Some(i.to_f64()),
            _ => None,
        }
    }

    /// The decimal, if this is one.
    pub fn as_decimal(&self) -> Option<Decimal> {
        match self {
            Value::Decimal(d) => Some(*d),
            _ => None,
        }
    }

    /// The date/time, if this is one.
    pub fn as_datetime(&self) -> Option<DateTime> {
        match self {
            Value::DateTime(d) => Some(*d),
            _ => None,
        }
    }

    /// The timestamp, if this is one.
    pub fn as_timestamp(&self) -> Option<Timestamp> {
        match self {
            Value::Timestamp(t) => Some(*t),
            _ => None,
        }
    }

    /// The items, if this is a list.
    pub fn as_list(&self) -> Option<&List> {
        match self {
            Value::List(l) => Some(l),
            _ => None,
        }
    }

    /// The items, mutably, if this is a list.
    pub fn as_list_mut(&mut self) -> Option<&mut List> {
        match self {
            Value::List(l) => Some(l),
            _ => None,
        }
    }

    /// `true` for a list whose items are all pairs (a "record"; the empty
    /// list counts).
    pub fn is_record(&self) -> bool {
        matches!(self, Value::List(l) if l.is_record())
    }

    /// In a list, the value of the first pair whose key is the string `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_list()?.iter().find_map(|item| match item {
            ItemRef::Pair(p) if p.key.as_str() == Some(key) => Some(&p.value),
            ItemRef::Pair(_) | ItemRef::Value(_) => None,
        })
    }

    /// As [`Value::get`], mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.as_list_mut()?.iter_mut().find_map(|item| match item {
            ItemMut::Pair(p) if p.key.as_str() == Some(key) => Some(&mut p.value),
            ItemMut::Pair(_) | ItemMut::Value(_) => None,
        })
    }

    /// In a list, the `index`-th item if it is a plain value.
    pub fn get_index(&self, index: usize) -> Option<&Value> {
        self.as_list()?.get(index)?.as_value()
    }

    /// How deeply lists nest in this value: 0 for a scalar, 1 for a list of
    /// scalars (or `[]`), and so on. Computed without recursion, so it is
    /// safe on any value.
    ///
    /// ```
    /// let v = jtoo::from_str(r#"[1,"k":[[]],[2]]"#).unwrap();
    /// assert_eq!(v.depth(), 3);
    /// assert_eq!(jtoo::Value::from(1).depth(), 0);
    /// ```
    pub fn depth(&self) -> usize {
        walk::depth(self)
    }

    /// A short name of the type, for messages (`"string"`, `"list"`, …).
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::String(_) => "string",
            Value::Bytes(_) => "byte string",
            Value::Bool(_) => "boolean",
            Value::Integer(_) => "integer",
            Value::Decimal(_) => "decimal",
            Value::DateTime(_) => "date/time",
            Value::Timestamp(_) => "timestamp",
            Value::List(_) => "list",
        }
    }
}

impl std::ops::Index<&str> for Value {
    type Output = Value;
    /// The value of the first pair with this string key.
    ///
    /// # Panics
    /// When there is no such pair; use [`Value::get`] to get an `Option`.
    fn index(&self, key: &str) -> &Value {
        match self.get(key) {
            Some(v) => v,
            #[allow(clippy::panic)]
            None => panic!("no pair with key {key:?}"),
        }
    }
}

impl std::ops::Index<usize> for Value {
    type Output = Value;
    /// The `index`-th item's value (for a pair, its value).
    ///
    /// # Panics
    /// When out of bounds or not a list.
    fn index(&self, index: usize) -> &Value {
        match self.as_list().and_then(|l| l.get(index)) {
            Some(item) => item.value(),
            #[allow(clippy::panic)]
            None => panic!("no list item {index}"),
        }
    }
}

impl fmt::Display for Value {
    /// The canonical JTOO text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = Vec::new();
        crate::encode::encode_value(self, &mut out);
        f.write_str(&String::from_utf8_lossy(&out))
    }
}

impl std::str::FromStr for Value {
    type Err = Error;
    /// Parses a strict JTOO document.
    fn from_str(s: &str) -> Result<Value, Error> {
        crate::from_str(s)
    }
}
