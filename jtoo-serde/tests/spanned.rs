//! `Spanned<T>`: the value, its byte range and the line:column of its
//! start and end, wherever a value is read from text.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jtoo_serde::Spanned;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// (offset range, start line:col, end line:col)
fn at<T>(s: &Spanned<T>) -> (std::ops::Range<usize>, (usize, usize), (usize, usize)) {
    let (a, b) = (s.start(), s.end());
    (s.span(), (a.line, a.column), (b.line, b.column))
}

#[derive(Deserialize, Serialize, Debug)]
struct Server {
    host: Spanned<String>,
    port: Spanned<u16>,
    tags: Vec<Spanned<i32>>,
    limits: Spanned<BTreeMap<String, u8>>,
    backup: Option<Spanned<String>>,
}

#[test]
fn fields_items_and_lists_in_jtoo() {
    let text = r#"["host":"a.org","port":80,"tags":[1,-22],"limits":["x":1]]"#;
    let s: Server = jtoo_serde::from_str(text).unwrap();
    assert_eq!(s.host.get_ref(), "a.org");
    assert_eq!(&text[s.host.span()], r#""a.org""#);
    assert_eq!(&text[s.port.span()], "80");
    assert_eq!(at(&s.port), (23..25, (1, 24), (1, 26)));
    assert_eq!(&text[s.tags[1].span()], "-22");
    assert_eq!(*s.tags[1].get_ref(), -22);
    assert_eq!(&text[s.limits.span()], r#"["x":1]"#);
    assert!(s.backup.is_none());
    // Serializing writes the values alone.
    assert_eq!(jtoo_serde::to_string(&s).unwrap(), text);
    // from_slice too.
    let s: Server = jtoo_serde::from_slice(text.as_bytes()).unwrap();
    assert_eq!(s.port.span(), 23..25);
}

#[test]
fn htoo_lines_and_columns_skip_comments() {
    let text = "[\n  // where\n  \"host\": \"é.org\", \"port\":\n    /* the port */ 8080,\n  \"tags\": [\n    7,\n  ],\n  \"limits\": [],\n  \"backup\": \"b\",\n]\n";
    let s: Server = jtoo_serde::from_htoo_str(text).unwrap();
    assert_eq!(&text[s.port.span()], "8080");
    assert_eq!(at(&s.port).1, (4, 20));
    assert_eq!(at(&s.port).2, (4, 24));
    // Columns count characters: `é` is one.
    assert_eq!(at(&s.host), (23..31, (3, 11), (3, 18)));
    assert_eq!(at(&s.tags[0]).1, (6, 5));
    let backup = s.backup.unwrap();
    assert_eq!(&text[backup.span()], "\"b\"");
    assert_eq!(at(&backup).1, (9, 13));
    // A list spanning lines.
    let v: Spanned<Vec<u8>> = jtoo_serde::from_htoo_str("  [\n 1,\n 2,\n] // end").unwrap();
    assert_eq!(at(&v), (2..13, (1, 3), (4, 2)));
    // An outer span ends after its inner ones.
    let n: Spanned<Vec<Spanned<u8>>> = jtoo_serde::from_htoo_str("[\n1,\n2]").unwrap();
    assert_eq!(at(&n), (0..7, (1, 1), (3, 3)));
    assert_eq!(at(&n.get_ref()[1]), (5..6, (3, 1), (3, 2)));
}

#[test]
fn nested_optional_and_any_values() {
    let v: Spanned<Spanned<String>> = jtoo_serde::from_str(r#""x""#).unwrap();
    assert_eq!(v.span(), 0..3);
    assert_eq!(v.get_ref().span(), 0..3);
    assert_eq!(v.into_inner().into_inner(), "x");
    let v: Spanned<Option<u8>> = jtoo_serde::from_str("[5]")
        .map(|v: Vec<_>| v.into_iter().next().unwrap())
        .unwrap();
    assert_eq!((v.get_ref(), v.span()), (&Some(5), 1..2));
    let v: Spanned<jtoo::Value> = jtoo_serde::from_str(r#"["a":1,"a":2]"#).unwrap();
    assert_eq!(v.get_ref().to_string(), r#"["a":1,"a":2]"#);
    assert_eq!(v.span(), 0..13);
    let v: Vec<Spanned<serde_json::Value>> = jtoo_serde::from_str(r#"[1,["k":Y]]"#).unwrap();
    assert_eq!(v[1].get_ref(), &serde_json::json!({"k": true}));
    assert_eq!(v[1].span(), 3..10);
}

#[test]
fn map_keys() {
    let text = r#"["a":1,"bb":2]"#;
    let m: HashMap<Spanned<String>, Spanned<u8>> = jtoo_serde::from_str(text).unwrap();
    // Looked up by the text alone (`Spanned<String>` borrows as `str`).
    let (k, v) = m.get_key_value("bb").unwrap();
    assert_eq!((k.span(), v.span()), (7..11, 12..13));
    let m: BTreeMap<Spanned<i64>, bool> = jtoo_serde::from_htoo_str("[\n  1_000: Y,\n]").unwrap();
    let k = m.keys().next().unwrap();
    assert_eq!((*k.get_ref(), at(k).1), (1000, (2, 3)));
    // Duplicate keys are still refused.
    let e = jtoo_serde::from_str::<HashMap<Spanned<String>, u8>>(r#"["a":1,"a":2]"#).unwrap_err();
    assert!(e.to_string().starts_with("duplicate key"), "{e}");
}

#[test]
fn errors_inside_keep_their_position_and_path() {
    let e = jtoo_serde::from_str::<Server>(r#"["host":"h","port":70_000]"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "port: invalid value: integer `70000`, expected u16 at line 1 column 20"
    );
    let e = jtoo_serde::from_str::<Spanned<u8>>("[1 x").unwrap_err();
    assert!(e.is_data() || e.is_syntax());
}

#[test]
fn no_positions_no_spanned() {
    // A jtoo::Value has no positions: an error, not a made-up span.
    let v = jtoo::from_str(r#"["host":"h","port":1,"tags":[],"limits":[]]"#).unwrap();
    let e = jtoo_serde::from_value::<Server>(v).unwrap_err();
    assert!(
        e.to_string()
            .contains("jtoo_serde::Spanned reads from text"),
        "{e}"
    );
    // Nor another format.
    let e = serde_json::from_str::<Spanned<u8>>("1").unwrap_err();
    assert!(
        e.to_string()
            .contains("jtoo_serde::Spanned reads from text"),
        "{e}"
    );
    // Nor serde's buffering (untagged enums).
    #[derive(Deserialize, Debug)]
    #[serde(untagged)]
    #[allow(dead_code)]
    enum U {
        S(Spanned<u8>),
    }
    assert!(jtoo_serde::from_str::<U>("1").is_err());
}

#[test]
fn equality_order_and_hash_look_at_the_value() {
    let a: Spanned<u8> = jtoo_serde::from_str("1").unwrap();
    let b: Vec<Spanned<u8>> = jtoo_serde::from_str("[0,1]").unwrap();
    assert_eq!(a, b[1]);
    assert!(b[0] < a);
    assert_ne!(a.span(), b[1].span());
    let c = Spanned::new(1u8, a.start(), a.end());
    assert_eq!(c, a);
}
