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

#[test]
fn self_describing_maps_refuse_a_repeated_key_at_its_position() {
    // serde_json::Value builds its objects through `deserialize_any`.
    let e = jtoo_serde::from_str::<serde_json::Value>(r#"["a":1,"b":2,"a":3]"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "duplicate key `\"a\"`: a map cannot hold the same key twice at line 1 column 14"
    );
    assert_eq!(e.offset(), 13);
    // The first pair of a list is read ahead to see that it is a map: a
    // repeat of it is found too, and one nested in a sequence.
    let e = jtoo_serde::from_str::<serde_json::Value>(r#"[1,["k":["x":1,"x":1]]]"#).unwrap_err();
    assert!(
        e.to_string().starts_with("[1].k: duplicate key `\"x\"`"),
        "{e}"
    );
    assert_eq!(e.column(), 16);
    // HTOO: the position past comments; spellings of one value are one key.
    let e =
        jtoo_serde::from_htoo_str::<serde_json::Value>("[\n  \"a\": 1,\n  // c\n  \"a\": 2,\n]")
            .unwrap_err();
    assert!(e.to_string().starts_with("duplicate key `\"a\"`"), "{e}");
    assert_eq!((e.line(), e.column()), (4, 3));
    let e = jtoo_serde::from_htoo_str::<serde_json::Value>(r#"["\t": 1, "\09": 2]"#).unwrap_err();
    assert!(e.to_string().starts_with("duplicate key"), "{e}");
    // Distinct keys are fine.
    let v: serde_json::Value = jtoo_serde::from_str(r#"["a":1,"b":["a":2]]"#).unwrap();
    assert_eq!(v, serde_json::json!({"a": 1, "b": {"a": 2}}));
}

#[test]
fn a_second_plain_item_in_a_map_is_refused_too() {
    // `["a":1,2,3]` presents 2 and 3 under one private key: a map built
    // from it would keep only 3.
    let v: serde_json::Value = jtoo_serde::from_str(r#"["a":1,2]"#).unwrap();
    assert_eq!(v.as_object().map(|o| o.len()), Some(2));
    let e = jtoo_serde::from_str::<serde_json::Value>(r#"["a":1,2,3]"#).unwrap_err();
    assert!(e.to_string().contains("more than one plain item"), "{e}");
    assert_eq!(e.column(), 10);
    // `jtoo::Value` reads such a list exactly.
    let v: Value = jtoo_serde::from_str(r#"["a":1,2,3,"a":4]"#).unwrap();
    assert_eq!(v.to_string(), r#"["a":1,2,3,"a":4]"#);
}

#[test]
fn value_to_self_describing_maps_refuse_a_repeated_key() {
    let v = jtoo::from_str(r#"["a":1,"b":2,"a":3]"#).unwrap();
    let e = jtoo_serde::from_value::<serde_json::Value>(v.clone()).unwrap_err();
    assert!(e.to_string().starts_with("duplicate key `\"a\"`"), "{e}");
    let nested = jtoo::from_str(r#"[["k":["x":1,"x":1]]]"#).unwrap();
    let e = jtoo_serde::from_value::<serde_json::Value>(nested).unwrap_err();
    assert!(
        e.to_string().starts_with("[0].k: duplicate key `\"x\"`"),
        "{e}"
    );
    let e = jtoo_serde::from_value::<serde_json::Value>(jtoo::from_str(r#"["a":1,2,3]"#).unwrap())
        .unwrap_err();
    assert!(e.to_string().contains("more than one plain item"), "{e}");
    // `jtoo::Value` still keeps every pair.
    let back: Value = jtoo_serde::from_value(v.clone()).unwrap();
    assert_eq!(back, v);
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Untagged {
    Map(BTreeMap<String, i32>),
    Num(i32),
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum ByNumber {
    Map(BTreeMap<i64, bool>),
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(tag = "type")]
enum Internal {
    A { x: i32 },
}

#[derive(Deserialize, Debug, PartialEq)]
struct Flat {
    id: u8,
    #[serde(flatten)]
    rest: BTreeMap<String, i32>,
}

#[test]
fn maps_behind_serde_buffering_refuse_a_repeated_key() {
    // Untagged and internally tagged enums and `flatten` buffer the input
    // through `deserialize_any` before the real map sees it: the buffer is
    // a map too.
    let text = r#"["a":1,"a":2]"#;
    let e = jtoo_serde::from_str::<Untagged>(text).unwrap_err();
    assert!(e.to_string().starts_with("duplicate key `\"a\"`"), "{e}");
    assert_eq!(e.column(), 8);
    let e = jtoo_serde::from_value::<Untagged>(jtoo::from_str(text).unwrap()).unwrap_err();
    assert!(e.to_string().starts_with("duplicate key `\"a\"`"), "{e}");
    let e = jtoo_serde::from_htoo_str::<ByNumber>("[1000: Y, 1_000: N]").unwrap_err();
    assert!(e.to_string().starts_with("duplicate key `1_000`"), "{e}");
    assert_eq!(e.column(), 11);
    let e = jtoo_serde::from_str::<Internal>(r#"["type":"A","x":1,"x":2]"#).unwrap_err();
    assert!(e.to_string().starts_with("duplicate key `\"x\"`"), "{e}");
    let e = jtoo_serde::from_str::<Flat>(r#"["id":1,"x":1,"x":2]"#).unwrap_err();
    assert!(e.to_string().starts_with("duplicate key `\"x\"`"), "{e}");
    assert_eq!(e.column(), 15);
    // Without a repeat they read as before.
    assert_eq!(
        jtoo_serde::from_str::<Untagged>(r#"["a":1,"b":2]"#).unwrap(),
        Untagged::Map(BTreeMap::from([("a".into(), 1), ("b".into(), 2)]))
    );
    assert_eq!(
        jtoo_serde::from_str::<Internal>(r#"["type":"A","x":1]"#).unwrap(),
        Internal::A { x: 1 }
    );
}

/// A hand-written visitor that collects the keys a `MapAccess` hands it,
/// through `deserialize_any`, as any self-describing consumer does.
struct Keys(Vec<String>);

impl<'de> Deserialize<'de> for Keys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Keys, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Keys;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Keys, A::Error> {
                let mut keys = Vec::new();
                while let Some((k, _)) = m.next_entry::<String, serde::de::IgnoredAny>()? {
                    keys.push(k);
                }
                Ok(Keys(keys))
            }
        }
        d.deserialize_any(V)
    }
}

#[test]
fn any_visitor_never_sees_a_key_twice() {
    let k: Keys = jtoo_serde::from_str(r#"["a":1,"b":2]"#).unwrap();
    assert_eq!(k.0, ["a", "b"]);
    assert!(jtoo_serde::from_str::<Keys>(r#"["a":1,"b":2,"a":3]"#).is_err());
    assert!(jtoo_serde::from_htoo_str::<Keys>(r#"["a": 1, "b": 2, "a": 3,]"#).is_err());
    let v = jtoo::from_str(r#"["a":1,"b":2,"a":3]"#).unwrap();
    assert!(jtoo_serde::from_value::<Keys>(v).is_err());
}
