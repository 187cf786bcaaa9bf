//! Deserializing Rust values from a [`jtoo::Value`] ([`crate::from_value`]).

use crate::de::MarkerMap;
use crate::error::{Error, Result, Segment};
use crate::keys::OwnKeys;
use crate::no_payload::NoPayload;
use crate::scalar::{self, Found, visit_integer};
use jtoo::serde::{
    DATETIME_MARKER, DECIMAL_MARKER, ITEM_MARKER, PAIR_MARKER, TIMESTAMP_MARKER, VALUE_MARKER,
};
use jtoo::{Decimal, Item, List, Value};
use serde::de::{
    self, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Unexpected, Visitor,
};
use std::borrow::Cow;

/// A deserializer that takes its input from an owned [`Value`], with the
/// same mapping as [`crate::Deserializer`].
pub struct ValueDeserializer {
    value: Value,
    /// Decimals that are not exact floats go to `deserialize_any` as the
    /// private marker map, and maps keep repeated keys (set when
    /// `jtoo::Value` itself is being read).
    exact: bool,
    /// How many more lists may be entered (a value built in code can nest
    /// deeper than any parser allows; deserializing recurses per level).
    depth: usize,
}

impl ValueDeserializer {
    /// Reads from `value`.
    pub fn new(value: Value) -> Self {
        ValueDeserializer {
            value,
            exact: false,
            depth: jtoo::Options::DEFAULT_MAX_DEPTH,
        }
    }

    pub(crate) fn exact(value: Value, depth: usize) -> Self {
        ValueDeserializer {
            value,
            exact: true,
            depth,
        }
    }
}

/// Enters a list with `depth` levels left: the depth left inside it, or the
/// error for lists nested deeper than the limit
/// ([`jtoo::Options::DEFAULT_MAX_DEPTH`], as for text).
fn enter(depth: usize) -> Result<usize> {
    depth
        .checked_sub(1)
        .ok_or_else(|| crate::ser::too_deep(jtoo::Options::DEFAULT_MAX_DEPTH))
}

impl<'de> IntoDeserializer<'de, Error> for Value {
    type Deserializer = ValueDeserializer;
    fn into_deserializer(self) -> ValueDeserializer {
        ValueDeserializer::new(self)
    }
}

fn visit_decimal<'de, V: Visitor<'de>>(d: Decimal, exact: bool, visitor: V) -> Result<V::Value> {
    let f = d.to_f64();
    if !exact || Decimal::from_f64(f).is_ok_and(|back| back == d) {
        visitor.visit_f64(f)
    } else {
        visitor.visit_map(MarkerMap::new(DECIMAL_MARKER, &d))
    }
}

#[cold]
fn invalid_type(v: &Value, exp: &dyn de::Expected) -> Error {
    scalar::invalid_type(
        match v {
            Value::String(s) => Found::Str(s),
            Value::Bytes(b) => Found::Bytes(b),
            Value::Bool(b) => Found::Bool(*b),
            Value::Integer(i) => Found::Int(i),
            Value::Decimal(d) => Found::Dec(d),
            Value::DateTime(dt) => Found::DateTime(dt),
            Value::Timestamp(ts) => Found::Timestamp(ts),
            Value::List(l) if l.is_empty() => Found::Other(Unexpected::Other("empty list")),
            Value::List(l) if l.is_record() => Found::Other(Unexpected::Map),
            Value::List(_) => Found::Other(Unexpected::Seq),
        },
        exp,
    )
}

impl<'de> de::Deserializer<'de> for ValueDeserializer {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.value {
            Value::String(s) if s.is_inline() => visitor.visit_str(&s),
            Value::String(s) => visitor.visit_string(s.into_string()),
            Value::Bytes(b) => visitor.visit_byte_buf(b),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Integer(i) => visit_integer(i, visitor),
            Value::Decimal(d) => visit_decimal(d, self.exact, visitor),
            Value::DateTime(dt) => visitor.visit_map(MarkerMap::new(DATETIME_MARKER, &dt)),
            Value::Timestamp(ts) => visitor.visit_map(MarkerMap::new(TIMESTAMP_MARKER, &ts)),
            Value::List(items) => match AnyItems::of(items, self.exact, self.depth)? {
                AnyItems::Map(map) => visitor.visit_map(map),
                AnyItems::Seq(seq) => visitor.visit_seq(seq),
            },
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.value {
            Value::Decimal(d) => visitor.visit_f64(d.to_f64()),
            Value::Integer(i) => visitor.visit_f64(i.to_f64()),
            v => Err(invalid_type(&v, &visitor)),
        }
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.value {
            Value::Decimal(d) => visitor.visit_f32(d.to_f32()),
            Value::Integer(i) => visitor.visit_f32(i.to_f64() as f32),
            v => Err(invalid_type(&v, &visitor)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.value {
            Value::List(l) if l.is_empty() => visitor.visit_unit(),
            v => Err(invalid_type(&v, &visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        match (name, self.value) {
            (DECIMAL_MARKER, Value::Decimal(d)) => visitor.visit_string(d.to_string()),
            (DECIMAL_MARKER, Value::Integer(i)) => visit_integer(i, visitor),
            (DATETIME_MARKER, Value::DateTime(dt)) => visitor.visit_string(dt.to_string()),
            (TIMESTAMP_MARKER, Value::Timestamp(ts)) => visitor.visit_string(ts.to_string()),
            (DECIMAL_MARKER | DATETIME_MARKER | TIMESTAMP_MARKER, v) => {
                Err(invalid_type(&v, &visitor))
            }
            (VALUE_MARKER, v) => {
                visitor.visit_newtype_struct(ValueDeserializer::exact(v, self.depth))
            }
            (name, v) if name == crate::raw::RAW_MARKER => crate::raw::visit_value(visitor, &v),
            (_, v) => visitor.visit_newtype_struct(ValueDeserializer {
                value: v,
                exact: self.exact,
                depth: self.depth,
            }),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.value {
            Value::Bytes(b) => visitor.visit_byte_buf(b),
            Value::String(s) => visitor.visit_byte_buf(s.into_string().into_bytes()),
            v => ValueDeserializer {
                value: v,
                exact: self.exact,
                depth: self.depth,
            }
            .deserialize_seq(visitor),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.value {
            Value::List(items) => {
                let depth = enter(self.depth)?;
                visitor.visit_seq(ItemsSeq::new(items, false, self.exact, depth))
            }
            v => Err(invalid_type(&v, &visitor)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.value {
            Value::List(items) => {
                let depth = enter(self.depth)?;
                let mut map = ItemsMap::new(items, false, self.exact, depth);
                map.seen = Some(OwnKeys::new());
                visitor.visit_map(map)
            }
            v => Err(invalid_type(&v, &visitor)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        if name == crate::spanned::NAME {
            // A value has no positions: refused rather than made up.
            return Err(crate::spanned::no_positions());
        }
        // serde's derive refuses a repeated field itself.
        match self.value {
            Value::List(items) => {
                let depth = enter(self.depth)?;
                visitor.visit_map(ItemsMap::new(items, false, self.exact, depth))
            }
            v => Err(invalid_type(&v, &visitor)),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.value {
            Value::String(s) => visitor.visit_enum(s.into_deserializer()),
            Value::List(items) if items.len() == 1 => match items.into_iter().next() {
                Some(Item::Pair(p)) => {
                    let (k, v) = p.into_parts();
                    visitor.visit_enum(EnumValue {
                        key: k,
                        value: Some(v),
                        exact: self.exact,
                        depth: enter(self.depth)?,
                    })
                }
                // `["Name"]`: a newtype variant whose payload was left out.
                Some(Item::Value(k @ Value::String(_))) => visitor.visit_enum(EnumValue {
                    key: k,
                    value: None,
                    exact: self.exact,
                    depth: enter(self.depth)?,
                }),
                _ => Err(de::Error::custom(
                    "expected an enum variant `[\"Name\":value]` or `[\"Name\"]`",
                )),
            },
            v => Err(invalid_type(&v, &visitor)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 char str string identifier
    }
}

/// A list for `deserialize_any`: a map when its first item is a pair, else
/// a sequence (built out of the generic function).
enum AnyItems {
    Map(ItemsMap),
    Seq(ItemsSeq),
}

impl AnyItems {
    fn of(items: List, exact: bool, depth: usize) -> Result<AnyItems> {
        let depth = enter(depth)?;
        if items.first().is_some_and(jtoo::ItemRef::is_pair) {
            let mut map = ItemsMap::new(items, true, exact, depth);
            // A visitor builds a map from these pairs, which would keep one
            // of two equal keys; `jtoo::Value` (`exact`) keeps every pair.
            if !exact {
                map.seen = Some(OwnKeys::new());
            }
            Ok(AnyItems::Map(map))
        } else {
            Ok(AnyItems::Seq(ItemsSeq::new(items, true, exact, depth)))
        }
    }
}

struct ItemsSeq {
    iter: jtoo::list::IntoIter,
    any: bool,
    exact: bool,
    /// Lists left to enter inside this one.
    depth: usize,
    index: usize,
}

impl ItemsSeq {
    fn new(items: List, any: bool, exact: bool, depth: usize) -> Self {
        ItemsSeq {
            iter: items.into_iter(),
            any,
            exact,
            depth,
            index: 0,
        }
    }
}

impl<'de> SeqAccess<'de> for ItemsSeq {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let index = self.index;
        self.index += 1;
        let r = match self.iter.next() {
            None => return Ok(None),
            Some(Item::Value(v)) => seed.deserialize(ValueDeserializer {
                value: v,
                exact: self.exact,
                depth: self.depth,
            }),
            Some(Item::Pair(p)) if self.any => {
                let (k, v) = p.into_parts();
                seed.deserialize(PairItemValue {
                    kv: Some((k, v)),
                    exact: self.exact,
                    depth: self.depth,
                })
            }
            Some(Item::Pair(_)) => Err(Error::message("expected a plain list item, found a pair")),
        };
        r.map(Some).map_err(|e| e.in_segment(Segment::Index(index)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// `{"$__jtoo_private_Pair": [key, value]}`.
struct PairItemValue {
    kv: Option<(Value, Value)>,
    exact: bool,
    depth: usize,
}

impl<'de> de::Deserializer<'de> for PairItemValue {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_map(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de> MapAccess<'de> for PairItemValue {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.kv.is_none() {
            return Ok(None);
        }
        seed.deserialize(de::value::BorrowedStrDeserializer::new(PAIR_MARKER))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        match self.kv.take() {
            // The `[key, value]` list is not in the value: it does not count.
            Some((k, v)) => seed.deserialize(ValueDeserializer {
                value: Value::List(vec![Item::Value(k), Item::Value(v)].into()),
                exact: self.exact,
                depth: self.depth.saturating_add(1),
            }),
            None => Err(Error::message("no pair value")),
        }
    }
}

struct ItemsMap {
    iter: jtoo::list::IntoIter,
    any: bool,
    exact: bool,
    /// Lists left to enter inside this one.
    depth: usize,
    value: Option<Value>,
    key: Option<Value>,
    /// The keys so far, for a map (duplicates are an error).
    seen: Option<OwnKeys<'static>>,
}

impl ItemsMap {
    fn new(items: List, any: bool, exact: bool, depth: usize) -> Self {
        ItemsMap {
            iter: items.into_iter(),
            any,
            exact,
            depth,
            value: None,
            key: None,
            seen: None,
        }
    }
}

impl ItemsMap {
    /// Takes the next entry, keeping its value for `next_value_seed`: its
    /// key, or `None` for a plain item (`$__jtoo_private_Item`); `None` at
    /// the end.
    #[allow(clippy::option_option)]
    fn next_key(&mut self) -> Result<Option<Option<Value>>> {
        match self.iter.next() {
            None => Ok(None),
            Some(Item::Pair(p)) => {
                let (k, v) = p.into_parts();
                if let Some(seen) = &mut self.seen {
                    seen.insert(Cow::Owned(k.to_string().into_bytes()))?;
                }
                self.value = Some(v);
                self.key = Some(k.clone());
                Ok(Some(Some(k)))
            }
            Some(Item::Value(v)) if self.any => {
                if let Some(seen) = &mut self.seen {
                    seen.insert_item()?;
                }
                self.value = Some(v);
                self.key = None;
                Ok(Some(None))
            }
            Some(Item::Value(_)) => Err(crate::de::not_a_pair()),
        }
    }
}

#[cold]
fn segment_of(key: Option<&Value>) -> Segment {
    match key {
        Some(Value::String(s)) => Segment::Key(s.to_string()),
        Some(v) => Segment::OtherKey(v.to_string()),
        None => Segment::Key(ITEM_MARKER.to_owned()),
    }
}

impl<'de> MapAccess<'de> for ItemsMap {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        match self.next_key()? {
            None => Ok(None),
            Some(Some(k)) => seed
                .deserialize(ValueDeserializer {
                    value: k,
                    exact: self.exact,
                    depth: self.depth,
                })
                .map(Some),
            Some(None) => seed
                .deserialize(de::value::BorrowedStrDeserializer::new(ITEM_MARKER))
                .map(Some),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        match self.value.take() {
            Some(v) => seed
                .deserialize(ValueDeserializer {
                    value: v,
                    exact: self.exact,
                    depth: self.depth,
                })
                .map_err(|e| e.in_segment(segment_of(self.key.as_ref()))),
            None => Err(Error::message("map value requested before its key")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

struct EnumValue {
    key: Value,
    /// `None` for `["Name"]`.
    value: Option<Value>,
    exact: bool,
    depth: usize,
}

impl<'de> de::EnumAccess<'de> for EnumValue {
    type Error = Error;
    type Variant = Payload;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Payload)> {
        let v = seed.deserialize(ValueDeserializer {
            value: self.key,
            exact: self.exact,
            depth: self.depth,
        })?;
        let payload = self.value.map(|value| ValueDeserializer {
            value,
            exact: self.exact,
            depth: self.depth,
        });
        Ok((v, Payload(payload)))
    }
}

/// A variant's content: `None` when it was left out (`["Name"]`).
struct Payload(Option<ValueDeserializer>);

impl<'de> de::VariantAccess<'de> for Payload {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        match self.0 {
            Some(v) => de::Deserializer::deserialize_unit(v, de::IgnoredAny).map(|_| ()),
            None => Ok(()),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        match self.0 {
            Some(v) => seed.deserialize(v),
            None => seed.deserialize(NoPayload),
        }
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        match self.0 {
            Some(v) => de::Deserializer::deserialize_seq(v, visitor),
            None => de::Deserializer::deserialize_seq(NoPayload, visitor),
        }
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.0 {
            Some(v) => de::Deserializer::deserialize_map(v, visitor),
            None => de::Deserializer::deserialize_map(NoPayload, visitor),
        }
    }
}
