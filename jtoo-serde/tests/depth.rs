//! The serializer's depth limit: whatever `to_string` writes, `from_str`
//! (and `jtoo::from_str`) reads with the default limit of 128.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jtoo::{Item, Pair, Value};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `depth` lists, one inside the other, around `1`.
fn nested_value(depth: usize) -> Value {
    let mut v = Value::from(1);
    for _ in 0..depth {
        v = Value::List(vec![Item::Value(v)].into());
    }
    v
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Nest(Vec<Nest>);

/// `depth` nested `Vec`s (the innermost empty).
fn nested_vecs(depth: usize) -> Nest {
    let mut n = Nest(Vec::new());
    for _ in 1..depth {
        n = Nest(vec![n]);
    }
    n
}

/// A value of every shape that opens lists: each kind of variant, maps,
/// sequences, unit structs.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Shape {
    Leaf,
    Unit(Unit),
    New(Box<Shape>),
    Tuple(Box<Shape>, u8),
    Struct { inner: Box<Shape> },
    List(Vec<Shape>),
    Map(BTreeMap<String, Shape>),
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Unit;

fn shape(depth: usize, seed: usize) -> Shape {
    let mut s = if seed.is_multiple_of(2) {
        Shape::Leaf
    } else {
        Shape::Unit(Unit)
    };
    for i in 0..depth {
        s = match (i + seed) % 5 {
            0 => Shape::New(Box::new(s)),
            1 => Shape::Tuple(Box::new(s), 7),
            2 => Shape::Struct { inner: Box::new(s) },
            3 => Shape::List(vec![s]),
            _ => Shape::Map(BTreeMap::from([("k".to_string(), s)])),
        };
    }
    s
}

fn unlimited<T: Serialize + ?Sized>(v: &T) -> Vec<u8> {
    let mut ser = jtoo_serde::Serializer::new(Vec::new()).with_max_depth(usize::MAX);
    v.serialize(&mut ser).unwrap();
    ser.into_inner().unwrap()
}

fn assert_depth_error(e: &jtoo_serde::Error, limit: usize) {
    let msg = e.to_string();
    assert!(msg.contains("nested too deeply"), "{msg}");
    assert!(msg.contains(&format!("more than {limit} levels")), "{msg}");
    assert_eq!(e.classify(), jtoo_serde::Category::Data);
}

#[test]
fn exactly_128_round_trips_and_129_is_an_error() {
    let v = nested_value(128);
    let text = jtoo_serde::to_string(&v).unwrap();
    assert_eq!(jtoo_serde::from_str::<Value>(&text).unwrap(), v);
    assert_eq!(jtoo::from_str(&text).unwrap(), v);
    assert_eq!(jtoo_serde::to_value(&v).unwrap(), v);

    let deep = nested_value(129);
    assert_depth_error(&jtoo_serde::to_string(&deep).unwrap_err(), 128);
    assert_depth_error(&jtoo_serde::to_vec(&deep).unwrap_err(), 128);
    assert_depth_error(&jtoo_serde::to_writer(Vec::new(), &deep).unwrap_err(), 128);
    assert_depth_error(&jtoo_serde::to_value(&deep).unwrap_err(), 128);
    // What the serializer refuses is what the parser would refuse.
    assert!(jtoo::from_slice(&unlimited(&deep)).is_err());

    let n = nested_vecs(128);
    let text = jtoo_serde::to_string(&n).unwrap();
    assert_eq!(jtoo_serde::from_str::<Nest>(&text).unwrap(), n);
    assert_depth_error(&jtoo_serde::to_string(&nested_vecs(129)).unwrap_err(), 128);
}

#[test]
fn the_limit_is_configurable() {
    let deep = nested_value(200);
    let mut ser = jtoo_serde::Serializer::new(Vec::new()).with_max_depth(200);
    deep.serialize(&mut ser).unwrap();
    let text = ser.into_inner().unwrap();
    let mut de = jtoo_serde::Deserializer::from_slice(&text).with_max_depth(200);
    assert_eq!(Value::deserialize(&mut de).unwrap(), deep);

    let mut ser = jtoo_serde::Serializer::new(Vec::new()).with_max_depth(3);
    assert!(nested_value(3).serialize(&mut ser).is_ok());
    let mut ser = jtoo_serde::Serializer::new(Vec::new()).with_max_depth(3);
    assert_depth_error(&nested_value(4).serialize(&mut ser).unwrap_err(), 3);
    let mut ser = jtoo_serde::Serializer::new(Vec::new()).with_max_depth(0);
    assert!(1u8.serialize(&mut ser).is_ok());
    let mut ser = jtoo_serde::Serializer::new(Vec::new()).with_max_depth(0);
    assert_depth_error(&Unit.serialize(&mut ser).unwrap_err(), 0);
}

#[test]
fn serializer_and_parser_agree_for_every_shape() {
    for seed in 0..10 {
        for depth in 120..=132 {
            let s = shape(depth, seed);
            let readable = jtoo::from_slice(&unlimited(&s)).is_ok();
            match jtoo_serde::to_string(&s) {
                Ok(text) => {
                    assert!(
                        readable,
                        "seed {seed} depth {depth}: written but unreadable"
                    );
                    assert_eq!(jtoo_serde::from_str::<Shape>(&text).unwrap(), s);
                }
                Err(e) => {
                    assert!(!readable, "seed {seed} depth {depth}: readable but refused");
                    assert_depth_error(&e, 128);
                }
            }
            assert_eq!(jtoo_serde::to_value(&s).is_ok(), readable);
        }
    }
}

#[test]
fn pairs_of_mixed_lists_count_too() {
    // A mixed list's later pair goes through the private pair marker.
    for depth in 125..=129 {
        let v = Value::List(
            vec![
                Item::Value(Value::from(1)),
                Item::Pair(Pair::new(Value::from("k"), nested_value(depth)).unwrap()),
            ]
            .into(),
        );
        let readable = jtoo::to_string(&v).is_ok_and(|t| jtoo::from_str(&t).is_ok());
        assert_eq!(readable, depth < 128, "{depth}");
        match jtoo_serde::to_string(&v) {
            Ok(text) => {
                assert!(readable, "{depth}");
                assert_eq!(jtoo_serde::from_str::<Value>(&text).unwrap(), v);
            }
            Err(e) => {
                assert!(!readable, "{depth}");
                assert_depth_error(&e, 128);
            }
        }
    }
}

/// Runs `f` on a thread with a 2 MiB stack (tokio's worker default).
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn million_deep_values_are_refused_not_overflowed() {
    on_small_stack(|| {
        let v = nested_value(1_000_000);
        // `Serialize` for `Value` refuses first, at the ceiling.
        assert_depth_error(&jtoo_serde::to_value(&v).unwrap_err(), 256);
        assert_depth_error(&jtoo_serde::to_string(&v).unwrap_err(), 128);
        let e = jtoo_serde::from_value::<Value>(v.clone()).unwrap_err();
        assert_depth_error(&e, 128);
        let e = jtoo_serde::from_value::<Nest>(v.clone()).unwrap_err();
        assert_depth_error(&e, 128);
        // `Serialize` for `Value` stops at the ceiling in any serializer.
        let e = serde_json::to_vec(&v).unwrap_err().to_string();
        assert!(e.contains("nested too deeply: more than 256 levels"), "{e}");
        let mut ser = jtoo_serde::Serializer::new(Vec::new()).with_max_depth(usize::MAX);
        assert_depth_error(&v.serialize(&mut ser).unwrap_err(), 256);
    });
}

#[test]
fn at_the_ceiling_every_reader_and_writer_fits_a_2_mib_stack() {
    on_small_stack(|| {
        let max = jtoo::Options::DEPTH_CEILING;
        let v = nested_value(max);
        let text = jtoo::Options::new().with_max_depth(max).to_vec(&v).unwrap();
        // Typed and Value deserializers, strict and HTOO.
        let mut de = jtoo_serde::Deserializer::from_slice(&text).with_max_depth(usize::MAX);
        assert_eq!(Value::deserialize(&mut de).unwrap(), v);
        let mut de = jtoo_serde::Deserializer::from_htoo_slice(&text).with_max_depth(max);
        assert!(serde_json::Value::deserialize(&mut de).is_ok());
        let nest = format!("{}{}", "[".repeat(max), "]".repeat(max));
        let mut de = jtoo_serde::Deserializer::from_str(&nest).with_max_depth(max);
        assert!(Nest::deserialize(&mut de).is_ok());
        assert!(
            htoo::Options::new()
                .with_max_depth(max)
                .from_slice(&text)
                .is_ok()
        );
        // Writers.
        let mut ser = jtoo_serde::Serializer::new(Vec::new()).with_max_depth(max);
        v.serialize(&mut ser).unwrap();
        assert_eq!(ser.into_inner().unwrap(), text);
        assert_eq!(serde_json::to_vec(&v).unwrap().len(), 2 * max + 1);
        // One more level is an error everywhere.
        let over = format!("[{}]", String::from_utf8(text).unwrap());
        let mut de = jtoo_serde::Deserializer::from_str(&over).with_max_depth(usize::MAX);
        assert!(Value::deserialize(&mut de).is_err());
        let e = serde_json::to_vec(&nested_value(max + 1)).unwrap_err();
        assert!(e.to_string().contains("more than 256 levels"), "{e}");
    });
}
