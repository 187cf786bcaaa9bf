//! The value encoder and string writer against slow references: strings
//! escaped one byte at a time, lists with list keys and values, and the
//! chunked writer against `to_vec`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jtoo::{Item, Pair, Value, encode};
use proptest::prelude::*;

/// A string's canonical text, one byte at a time.
fn reference_str(s: &str) -> Vec<u8> {
    let mut out = vec![b'"'];
    for &b in s.as_bytes() {
        if b < 0x20 || b == b'"' || b == b'\\' || b == 0x7f {
            out.extend_from_slice(format!("\\{b:02x}").as_bytes());
        } else {
            out.push(b);
        }
    }
    out.push(b'"');
    out
}

#[test]
fn strings_with_escapes_anywhere() {
    for special in ['\0', '\n', '"', '\\', '\u{7f}', '\u{1f}'] {
        for len in 0..40 {
            for pos in 0..=len {
                let mut s: String = "aé你".chars().cycle().take(len).collect();
                s.insert(
                    s.char_indices().nth(pos).map_or(s.len(), |(i, _)| i),
                    special,
                );
                let mut out = b"x".to_vec();
                encode::write_str(&mut out, &s);
                let mut expected = b"x".to_vec();
                expected.extend(reference_str(&s));
                assert_eq!(out, expected, "{s:?}");
            }
        }
    }
}

#[test]
fn plain_strings_of_every_length() {
    // Every length the short-string stores handle (and past them), with
    // distinct bytes so a misplaced word shows, after text of any length.
    for prefix in ["", "x", "[1,"] {
        for len in 0..40 {
            let s: String = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFé"
                .chars()
                .take(len)
                .collect();
            let mut out = prefix.as_bytes().to_vec();
            encode::write_str(&mut out, &s);
            assert_eq!(out, format!("{prefix}\"{s}\"").into_bytes(), "{len}");
        }
    }
}

fn list(items: Vec<Item>) -> Value {
    Value::List(items.into())
}

fn pair(k: Value, v: Value) -> Item {
    Item::Pair(Pair::new(k, v).unwrap())
}

#[test]
fn lists_as_keys_and_values() {
    let inner = list(vec![Item::Value(1.into()), Item::Value("a".into())]);
    let v = list(vec![
        pair(inner.clone(), inner.clone()),
        pair("k".into(), inner.clone()),
        pair(inner.clone(), 2.into()),
        Item::Value(inner.clone()),
        Item::Value(list(vec![])),
        pair(list(vec![]), list(vec![])),
        Item::Value(1.5f64.try_into().unwrap()),
    ]);
    let text = jtoo::to_string(&v).unwrap();
    assert_eq!(
        text,
        r#"[[1,"a"]:[1,"a"],"k":[1,"a"],[1,"a"]:2,[1,"a"],[],[]:[],1.5]"#
    );
    assert_eq!(jtoo::from_str(&text).unwrap(), v);
    assert_eq!(jtoo::to_string(&Value::from(7)).unwrap(), "7");
    assert_eq!(jtoo::to_string(&list(vec![])).unwrap(), "[]");
}

#[test]
fn writer_matches_to_vec_across_chunks() {
    // Well over the 64 KiB chunk, with nesting and many empty lists.
    let row = |i: i64| {
        list(vec![
            pair("id".into(), i.into()),
            pair("x".into(), (i as f64 / 7.0).try_into().unwrap()),
            Item::Value(list(vec![Item::Value(list(vec![]))])),
        ])
    };
    let v = list((0..20_000).map(|i| Item::Value(row(i))).collect());
    let mut w = Vec::new();
    jtoo::to_writer(&mut w, &v).unwrap();
    assert_eq!(w, jtoo::to_vec(&v).unwrap());
    assert_eq!(jtoo::from_slice(&w).unwrap(), v);
    let deep = (0..200).fold(list(vec![]), |acc, _| list(vec![Item::Value(acc)]));
    let mut w = Vec::new();
    let options = jtoo::Options::new().with_max_depth(201);
    options.to_writer(&mut w, &deep).unwrap();
    assert_eq!(w.len(), 2 * 201);
    assert_eq!(w, deep.to_string().into_bytes());
    assert_eq!(options.from_slice(&w).unwrap(), deep);
    let err = jtoo::Options::new()
        .with_max_depth(200)
        .to_writer(Vec::new(), &deep)
        .unwrap_err();
    assert_eq!(err.kind(), jtoo::ErrorKind::TooDeep(200));
}

proptest! {
    #[test]
    fn any_string(s in ".{0,60}", raw in proptest::collection::vec(0u8..0x80, 0..60)) {
        let mut out = Vec::new();
        encode::write_str(&mut out, &s);
        prop_assert_eq!(out, reference_str(&s));
        let s = String::from_utf8(raw).unwrap();
        let mut out = Vec::new();
        encode::write_str(&mut out, &s);
        prop_assert_eq!(out, reference_str(&s));
    }
}
