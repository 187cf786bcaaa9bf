//! Derived types for `serde_roundtrip`: nested structs and options, maps
//! with several key types (`None` map values are left out by design, so
//! maps hold no options), byte strings, floats, every kind of enum variant,
//! and JTOO's own types as fields.

#![allow(missing_docs)]

use arbitrary::Arbitrary;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The root of a round trip.
#[derive(Arbitrary, Serialize, Deserialize, Debug, PartialEq, Clone)]
pub struct Root {
    pub name: String,
    pub flag: bool,
    pub small: i8,
    pub big: u128,
    pub signed: i128,
    pub ratio: f64,
    pub single: f32,
    pub letter: char,
    pub maybe: Option<u32>,
    pub nested: Option<Box<Node>>,
    pub list: Vec<Node>,
    pub tuple: (i16, String, u64),
    pub map: BTreeMap<String, Shape>,
    pub by_number: BTreeMap<i64, String>,
    #[serde(with = "serde_bytes")]
    pub bytes: Vec<u8>,
    pub unit: Unit,
    /// Built from at most [`VALUE_INPUT`] bytes of the input: the serde
    /// path of a `Value` is the same for any size, and `value_roundtrip`
    /// takes big values. (Unbounded, this field took most of each input and
    /// a fifth of each execution.)
    #[arbitrary(with = small_value)]
    pub value: Option<jtoo::Value>,
    pub decimal: Option<jtoo::Decimal>,
    pub when: Option<jtoo::DateTime>,
    pub stamp: Option<jtoo::Timestamp>,
}

/// The most input [`Root::value`] is built from.
pub const VALUE_INPUT: usize = 256;

fn small_value(u: &mut arbitrary::Unstructured<'_>) -> arbitrary::Result<Option<jtoo::Value>> {
    let len = u.int_in_range(0..=VALUE_INPUT)?.min(u.len());
    let mut part = arbitrary::Unstructured::new(u.bytes(len)?);
    Option::<jtoo::Value>::arbitrary(&mut part)
}

/// A nested node (bounded by the input: `arbitrary` stops when it runs out).
#[derive(Arbitrary, Serialize, Deserialize, Debug, PartialEq, Clone)]
pub struct Node {
    pub id: u16,
    pub label: Option<String>,
    pub weight: Option<f64>,
    pub children: Vec<Shape>,
    pub tags: BTreeMap<u8, Vec<String>>,
    #[serde(with = "serde_bytes")]
    pub blob: Vec<u8>,
}

/// Every kind of variant. (No `Option` as variant content: a `None` there
/// has no JTOO form, by design.)
#[derive(Arbitrary, Serialize, Deserialize, Debug, PartialEq, Clone)]
pub enum Shape {
    Empty,
    Circle(f64),
    Point(i32, i32),
    Named { name: String, sides: Option<u8> },
    Boxed(Box<Node>),
}

/// A unit struct.
#[derive(Arbitrary, Serialize, Deserialize, Debug, PartialEq, Clone)]
pub struct Unit;

fn finite(x: &mut f64) {
    if !x.is_finite() {
        *x = 0.0;
    }
}

impl Root {
    /// Replaces what JTOO documents as unencodable (NaN and infinite
    /// floats) with zero.
    pub fn sanitise(&mut self) {
        finite(&mut self.ratio);
        if !self.single.is_finite() {
            self.single = 0.0;
        }
        if let Some(n) = &mut self.nested {
            n.sanitise();
        }
        self.list.iter_mut().for_each(Node::sanitise);
        self.map.values_mut().for_each(Shape::sanitise);
    }
}

impl Node {
    fn sanitise(&mut self) {
        if let Some(w) = &mut self.weight {
            finite(w);
        }
        self.children.iter_mut().for_each(Shape::sanitise);
    }
}

impl Shape {
    fn sanitise(&mut self) {
        match self {
            Shape::Circle(r) => finite(r),
            Shape::Boxed(n) => n.sanitise(),
            _ => {}
        }
    }
}
