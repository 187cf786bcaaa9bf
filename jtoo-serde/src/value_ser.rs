//! Serializing Rust values into a [`jtoo::Value`] ([`crate::to_value`]).

use crate::error::{Error, Result};
use jtoo::serde::{
    DATETIME_MARKER, DECIMAL_MARKER, JSON_NUMBER_TOKEN, PAIR_MARKER, TIMESTAMP_MARKER,
    value_from_json_number,
};
use jtoo::{Decimal, Item, Pair, Value};
use serde::ser::{self, Serialize};

/// What serializing one Rust value gives.
pub(crate) enum Node {
    /// A value.
    Value(Value),
    /// A pair item of a mixed list.
    Pair(Pair),
    /// `None` or `()`: left out of structs and maps, an error elsewhere.
    Absent,
}

impl Node {
    fn into_value(self) -> Result<Value> {
        match self {
            Node::Value(v) => Ok(v),
            Node::Absent => Err(Error::no_null()),
            Node::Pair(_) => Err(Error::message("a pair can only be a list item")),
        }
    }
}

/// Serializes into a [`Value`].
pub(crate) struct ValueSerializer;

/// Serializes into a [`Value`], refusing lists nested deeper than the
/// default limit exactly as [`crate::to_string`] does.
pub(crate) fn to_value<T: Serialize + ?Sized>(v: &T) -> Result<Value> {
    let v = v.serialize(ValueSerializer)?.into_value()?;
    if v.depth() > jtoo::Options::DEFAULT_MAX_DEPTH {
        return Err(crate::ser::too_deep(jtoo::Options::DEFAULT_MAX_DEPTH));
    }
    Ok(v)
}

/// Parses the canonical text of a marked scalar.
pub(crate) fn parse_marked(marker: &str, text: &str) -> Result<Value> {
    let r = match marker {
        DECIMAL_MARKER => text.parse().map(Value::Decimal),
        DATETIME_MARKER => text.parse().map(Value::DateTime),
        _ => text.parse().map(Value::Timestamp),
    };
    r.map_err(|e: jtoo::Error| {
        Error::message(format_args!(
            "invalid {marker} text {text:?}: {}",
            e.message()
        ))
    })
}

/// A `serde_json` arbitrary-precision number's text as an integer or decimal.
pub(crate) fn json_number(text: &str) -> Result<Value> {
    value_from_json_number(text)
        .ok_or_else(|| Error::message(format_args!("number `{text}` is out of range for JTOO")))
}

fn string_of(node: Node) -> Result<String> {
    match node {
        Node::Value(Value::String(s)) => Ok(s.into_string()),
        _ => Err(Error::message("expected the text of a marked value")),
    }
}

fn list(items: Vec<Item>) -> Node {
    Node::Value(Value::List(items.into()))
}

fn tagged(variant: &'static str, v: Value) -> Node {
    list(vec![Item::Pair(Pair::with_str_key(variant, v))])
}

/// `serialize_*` methods whose primitive converts into a [`Value`].
macro_rules! serialize_into_value {
    ($($method:ident($t:ty)),* $(,)?) => {$(
        fn $method(self, v: $t) -> Result<Node> {
            Ok(Node::Value(v.into()))
        }
    )*};
}

impl ser::Serializer for ValueSerializer {
    type Ok = Node;
    type Error = Error;
    type SerializeSeq = SeqBuilder;
    type SerializeTuple = SeqBuilder;
    type SerializeTupleStruct = SeqBuilder;
    type SerializeTupleVariant = SeqBuilder;
    type SerializeMap = MapBuilder;
    type SerializeStruct = MapBuilder;
    type SerializeStructVariant = MapBuilder;

    // Primitives that convert into a value (`From` in jtoo).
    serialize_into_value! {
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_i128(i128), serialize_u8(u8), serialize_u16(u16),
        serialize_u32(u32), serialize_u64(u64), serialize_u128(u128), serialize_str(&str),
        serialize_bytes(&[u8]),
    }
    fn serialize_f32(self, v: f32) -> Result<Node> {
        Decimal::from_f32(v)
            .map(|d| Node::Value(Value::Decimal(d)))
            .map_err(Error::from_jtoo)
    }
    fn serialize_f64(self, v: f64) -> Result<Node> {
        Decimal::from_f64(v)
            .map(|d| Node::Value(Value::Decimal(d)))
            .map_err(Error::from_jtoo)
    }
    fn serialize_char(self, v: char) -> Result<Node> {
        Ok(Node::Value(Value::String(v.into())))
    }
    fn serialize_none(self) -> Result<Node> {
        Ok(Node::Absent)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<Node> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<Node> {
        Ok(Node::Absent)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Node> {
        Ok(list(Vec::new()))
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Node> {
        Ok(Node::Value(Value::String(variant.into())))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        v: &T,
    ) -> Result<Node> {
        match name {
            DECIMAL_MARKER | DATETIME_MARKER | TIMESTAMP_MARKER => {
                let text = string_of(v.serialize(ValueSerializer)?)?;
                parse_marked(name, &text).map(Node::Value)
            }
            PAIR_MARKER => {
                let inner = v.serialize(ValueSerializer)?.into_value()?;
                let mut items = match inner {
                    Value::List(items) if items.len() == 1 => items,
                    _ => return Err(Error::message("invalid private pair item")),
                };
                match items.pop() {
                    Some(Item::Pair(p)) => {
                        let (marker, kv) = p.into_parts();
                        match (marker.as_str() == Some(PAIR_MARKER), kv) {
                            (true, Value::List(kv)) if kv.len() == 2 => {
                                let mut it = kv.into_iter();
                                match (it.next(), it.next()) {
                                    (Some(Item::Value(k)), Some(Item::Value(v))) => {
                                        Pair::new(k, v).map(Node::Pair).map_err(Error::from_jtoo)
                                    }
                                    _ => Err(Error::message("invalid private pair item")),
                                }
                            }
                            _ => Err(Error::message("invalid private pair item")),
                        }
                    }
                    _ => Err(Error::message("invalid private pair item")),
                }
            }
            _ if name == crate::raw::RAW_MARKER => {
                let text = string_of(v.serialize(ValueSerializer)?)?;
                jtoo::from_str(&text)
                    .map(Node::Value)
                    .map_err(Error::from_jtoo)
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
    ) -> Result<Node> {
        // A payload that is left out (`None`, `()`) gives `["Name"]`, as
        // in `crate::ser`.
        match v.serialize(ValueSerializer)? {
            Node::Absent => Ok(list(vec![Item::Value(Value::String(variant.into()))])),
            node => Ok(tagged(variant, node.into_value()?)),
        }
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqBuilder> {
        Ok(SeqBuilder {
            items: Vec::with_capacity(len.unwrap_or(0).min(4096)),
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqBuilder> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<SeqBuilder> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<SeqBuilder> {
        Ok(SeqBuilder {
            items: Vec::with_capacity(len.min(4096)),
            variant: Some(variant),
        })
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapBuilder> {
        Ok(MapBuilder {
            items: Vec::with_capacity(len.unwrap_or(0).min(4096)),
            key: None,
            variant: None,
            json_number: false,
        })
    }
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<MapBuilder> {
        let mut m = self.serialize_map(Some(len))?;
        m.json_number = name == JSON_NUMBER_TOKEN;
        Ok(m)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<MapBuilder> {
        let mut m = self.serialize_map(Some(len))?;
        m.variant = Some(variant);
        Ok(m)
    }
}

/// Builds a list of plain items.
pub(crate) struct SeqBuilder {
    items: Vec<Item>,
    variant: Option<&'static str>,
}

impl SeqBuilder {
    fn push<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
        match v.serialize(ValueSerializer)? {
            Node::Value(v) => self.items.push(Item::Value(v)),
            Node::Pair(p) => self.items.push(Item::Pair(p)),
            Node::Absent => return Err(Error::no_null()),
        }
        Ok(())
    }

    fn finish(self) -> Node {
        match self.variant {
            None => list(self.items),
            Some(name) => tagged(name, Value::List(self.items.into())),
        }
    }
}

/// The sequence-like compounds: one `impl` each, the same two bodies.
macro_rules! seq_builder {
    ($($trait:ident::$method:ident)*) => {$(
        impl ser::$trait for SeqBuilder {
            type Ok = Node;
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
                self.push(v)
            }
            fn end(self) -> Result<Node> {
                Ok(self.finish())
            }
        }
    )*};
}

seq_builder! {
    SerializeSeq::serialize_element
    SerializeTuple::serialize_element
    SerializeTupleStruct::serialize_field
    SerializeTupleVariant::serialize_field
}

/// Builds a list of pairs.
pub(crate) struct MapBuilder {
    items: Vec<Item>,
    key: Option<Value>,
    variant: Option<&'static str>,
    json_number: bool,
}

impl MapBuilder {
    fn finish(self) -> Result<Node> {
        if self.json_number {
            return match self.items.into_iter().next() {
                Some(Item::Pair(p)) => match p.into_parts().1 {
                    Value::String(text) => json_number(&text).map(Node::Value),
                    _ => Err(Error::message("invalid serde_json number")),
                },
                _ => Err(Error::message("invalid serde_json number")),
            };
        }
        Ok(match self.variant {
            None => list(self.items),
            Some(name) => tagged(name, Value::List(self.items.into())),
        })
    }

    fn entry(&mut self, key: Value, v: Node) -> Result<()> {
        match v {
            Node::Absent => Ok(()),
            Node::Pair(_) => Err(Error::message("a pair can only be a list item")),
            Node::Value(v) => {
                self.items
                    .push(Item::Pair(Pair::new(key, v).map_err(Error::from_jtoo)?));
                Ok(())
            }
        }
    }
}

impl ser::SerializeMap for MapBuilder {
    type Ok = Node;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<()> {
        self.key = Some(k.serialize(ValueSerializer)?.into_value()?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<()> {
        let key = self
            .key
            .take()
            .ok_or_else(|| Error::message("map value serialized before its key"))?;
        let v = v.serialize(ValueSerializer)?;
        self.entry(key, v)
    }
    fn end(self) -> Result<Node> {
        self.finish()
    }
}

impl ser::SerializeStruct for MapBuilder {
    type Ok = Node;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<()> {
        let v = v.serialize(ValueSerializer)?;
        self.entry(Value::String(key.into()), v)
    }
    fn end(self) -> Result<Node> {
        self.finish()
    }
}

impl ser::SerializeStructVariant for MapBuilder {
    type Ok = Node;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<()> {
        ser::SerializeStruct::serialize_field(self, key, v)
    }
    fn end(self) -> Result<Node> {
        self.finish()
    }
}
