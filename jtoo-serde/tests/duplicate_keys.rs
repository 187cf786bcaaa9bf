//! Maps refuse duplicate keys (a map would silently keep only one), naming
//! the key at its position; `jtoo::Value` and `deserialize_any` keep every
//! pair, as the data model does.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jtoo::Value;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};

#[test]
fn text_maps_refuse_a_repeated_key_at_its_position() {
    let e = jtoo_serde::from_str::<HashMap<String, i32>>(r#"["a":1,"a":2]"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "duplicate key `\"a\"`: a map cannot hold the same key twice at line 1 column 8"
    );
    assert_eq!((e.line(), e.column()), (1, 8));
    let e = jtoo_serde::from_str::<BTreeMap<i64, bool>>("[1:Y,2:N,1_000:Y,1_000:N]").unwrap_err();
    assert!(e.to_string().starts_with("duplicate key `1_000`"), "{e}");
    assert_eq!(e.column(), 18);
    // Nested maps: the inner one's key, with the path to it.
    let e = jtoo_serde::from_str::<HashMap<String, HashMap<String, u8>>>(
        r#"["x":["k":1],"y":["k":1,"j":2,"k":3]]"#,
    )
    .unwrap_err();
    assert!(e.to_string().contains("duplicate key `\"k\"`"), "{e}");
    assert_eq!(e.column(), 31);
    // Distinct keys are fine.
    let m = jtoo_serde::from_str::<BTreeMap<String, i32>>(r#"["a":1,"b":2]"#).unwrap();
    assert_eq!(m.len(), 2);
}

#[test]
fn htoo_keys_compare_by_value_not_spelling() {
    // `1000` and `1_000`, `"\t"` and `"\09"` are one key each.
    let e = jtoo_serde::from_htoo_str::<HashMap<i64, i32>>("[1000: 1, 1_000: 2]").unwrap_err();
    assert!(e.to_string().starts_with("duplicate key `1_000`"), "{e}");
    assert_eq!(e.column(), 11);
    let e =
        jtoo_serde::from_htoo_str::<HashMap<String, i32>>(r#"["\t": 1, "\09": 2]"#).unwrap_err();
    assert!(e.to_string().starts_with("duplicate key"), "{e}");
}

#[test]
fn value_maps_refuse_a_repeated_key() {
    let v = jtoo::from_str(r#"["a":1,"b":2,"a":3]"#).unwrap();
    let e = jtoo_serde::from_value::<HashMap<String, i32>>(v.clone()).unwrap_err();
    assert!(e.to_string().starts_with("duplicate key `\"a\"`"), "{e}");
    let e = jtoo_serde::from_value::<BTreeMap<String, i32>>(v.clone()).unwrap_err();
    assert!(e.to_string().starts_with("duplicate key `\"a\"`"), "{e}");
    // Lists as keys compare by value too.
    let v = jtoo::from_str("[[1,2]:1,[1,2]:2]").unwrap();
    let e = jtoo_serde::from_value::<Vec<(Vec<i32>, i32)>>(v.clone());
    assert!(e.is_err(), "a list of pairs is not a sequence of tuples");
    let e = jtoo_serde::from_value::<HashMap<Vec<i32>, i32>>(v).unwrap_err();
    assert!(e.to_string().starts_with("duplicate key `[1,2]`"), "{e}");
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Point {
    x: i32,
    y: i32,
}

#[test]
fn structs_still_refuse_and_values_keep_every_pair() {
    let e = jtoo_serde::from_str::<Point>(r#"["x":1,"x":2,"y":3]"#).unwrap_err();
    assert!(e.to_string().contains("duplicate field `x`"), "{e}");
    let e = jtoo_serde::from_value::<Point>(jtoo::from_str(r#"["x":1,"x":2,"y":3]"#).unwrap())
        .unwrap_err();
    assert!(e.to_string().contains("duplicate field `x`"), "{e}");
    // The data model keeps duplicates.
    let text = r#"["a":1,"a":2]"#;
    let v: Value = jtoo_serde::from_str(text).unwrap();
    assert_eq!(v.to_string(), text);
    let v: Value = jtoo_serde::from_value(v).unwrap();
    assert_eq!(v.to_string(), text);
}
