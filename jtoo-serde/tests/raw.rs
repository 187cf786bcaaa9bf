//! `Raw` and `RawBuf`: one value kept as its canonical text, read from any
//! position, checked by the one grammar, written back verbatim.

use jtoo::{Item, Pair, Value};
use jtoo_serde::{Raw, RawBuf};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Envelope<'a> {
    kind: String,
    #[serde(borrow)]
    body: Raw<'a>,
    after: u8,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Owned {
    kind: String,
    body: RawBuf,
    after: u8,
}

/// Values of every scalar type, in lists of items and pairs.
const SAMPLES: &[&str] = &[
    "1",
    "-1_234.5",
    r#""text with \22 and é""#,
    "Y",
    "B00ff",
    "D2023-05-06T10:20Z",
    "T10:20",
    "S1.500",
    "[]",
    r#"["a":[1,2],"b":["c":N]]"#,
    r#"[1,"k":D2023-05-06,[T10:20Z:"t"]]"#,
];

#[test]
fn raw_is_the_text_at_any_position_and_is_written_back_verbatim() {
    for body in SAMPLES {
        let text = format!(r#"["kind":"k","body":{body},"after":7]"#);
        let e: Envelope = jtoo_serde::from_str(&text).unwrap();
        assert_eq!(e.body.as_str(), *body);
        assert_eq!(e.after, 7);
        assert_eq!(jtoo_serde::to_string(&e).unwrap(), text);
        let o: Owned = jtoo_serde::from_slice(text.as_bytes()).unwrap();
        assert_eq!(o.body.as_str(), *body);
        assert_eq!(o.body, e.body.to_raw_buf());
        assert_eq!(jtoo_serde::to_string(&o).unwrap(), text);
        // A list item and the whole document.
        let list = format!("[{body},{body}]");
        let items: Vec<Raw> = jtoo_serde::from_str(&list).unwrap();
        assert_eq!(items, [Raw::from_text(body).unwrap(); 2]);
        let whole: Raw = jtoo_serde::from_str(body).unwrap();
        assert_eq!(whole.as_str(), *body);
        // Read later as a value: the same as reading the text.
        let v: Value = whole.deserialize_into().unwrap();
        assert_eq!(v, jtoo::from_str(body).unwrap());
        assert_eq!(jtoo_serde::to_value(&whole).unwrap(), v);
        assert_eq!(RawBuf::from_value(&v).unwrap().as_str(), *body);
    }
}

#[test]
fn raw_values_are_checked_by_the_grammar_with_positions() {
    for (text, column) in [
        (r#"["kind":"k","body":[1,],"after":7]"#, 23),
        (r#"["kind":"k","body":"\41","after":7]"#, 21),
        (r#"["kind":"k","body":D2023-02-30,"after":7]"#, 29),
        (r#"["kind":"k","body":[1 ],"after":7]"#, 22),
    ] {
        let e = jtoo_serde::from_str::<Envelope>(text).unwrap_err();
        let e2 = jtoo_serde::from_str::<Owned>(text).unwrap_err();
        assert_eq!(e.to_string(), e2.to_string());
        let syntax = jtoo::from_str(text).unwrap_err();
        assert!(
            e.to_string().contains(&format!("column {column}")),
            "{text}: {e} (the parser: {syntax})"
        );
        assert_eq!(syntax.position().map(|p| p.column), Some(column), "{text}");
    }
    // The depth left at the raw value's position is the limit: 128 lists
    // in all, the envelope being the first.
    for (depth, ok) in [(127, true), (128, false)] {
        let body = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let text = format!(r#"["kind":"k","body":{body},"after":7]"#);
        assert_eq!(
            jtoo_serde::from_str::<Envelope>(&text).is_ok(),
            ok,
            "{depth}"
        );
        assert_eq!(jtoo::from_str(&text).is_ok(), ok, "{depth}");
    }
    assert!(Raw::from_text("[1, 2]").is_err());
    assert!(Raw::from_text("1 ").is_err());
    assert!(RawBuf::from_text("").is_err());
    assert_eq!(RawBuf::from_text("[1]").unwrap().into_string(), "[1]");
}

#[test]
fn htoo_input_gives_canonical_raw_bufs_and_no_borrowed_raw() {
    let text = "[\"kind\": \"k\", // a comment\n \"body\": [ \"a\" : 1_0 , ], \"after\": 7,]";
    let o: Owned = jtoo_serde::from_htoo_str(text).unwrap();
    assert_eq!(o.body.as_str(), r#"["a":10]"#);
    let e = jtoo_serde::from_htoo_str::<Envelope>(text).unwrap_err();
    assert!(e.to_string().contains("read a RawBuf"), "{e}");
}

#[test]
fn raw_bufs_read_from_values_readers_and_other_formats() {
    let body = r#"["a":[1.5,"x"]]"#;
    let text = format!(r#"["kind":"k","body":{body},"after":7]"#);
    // A `jtoo::Value`.
    let o: Owned = jtoo_serde::from_value(jtoo::from_str(&text).unwrap()).unwrap();
    assert_eq!(o.body.as_str(), body);
    // A reader.
    let o: Owned = jtoo_serde::from_reader(text.as_bytes()).unwrap();
    assert_eq!(o.body.as_str(), body);
    let mut de = jtoo_serde::IoDeserializer::new(&b"[1]"[..]);
    let e = Vec::<Raw>::deserialize(&mut de).unwrap_err();
    assert!(e.to_string().contains("read a RawBuf"), "{e}");
    // JSON, through serde_json: the value its JSON maps to, encoded.
    let o: Owned =
        serde_json::from_str(r#"{"kind":"k","body":{"a":[1.5,"x"]},"after":7}"#).unwrap();
    assert_eq!(o.body.as_str(), body);
}

#[test]
fn input_cannot_forge_a_raw_value() {
    // A map whose key is spelled as the private marker, from input (here
    // a string built at run time): refused, not taken as text.
    use serde::de::IntoDeserializer;
    let key = String::from("$__jtoo_serde_private_") + "Raw";
    let map: std::collections::BTreeMap<String, String> = [(key, "][".to_owned())].into();
    let d: serde::de::value::MapDeserializer<_, serde::de::value::Error> = map.into_deserializer();
    assert!(RawBuf::deserialize(d).is_err());
    // In JTOO such a map is just a value.
    let text = r#"["$__jtoo_serde_private_Raw":"]["]"#;
    assert_eq!(jtoo_serde::from_str::<RawBuf>(text).unwrap().as_str(), text);
}

#[test]
fn the_serializer_keeps_its_depth_limit_for_raw_text() {
    let raw = RawBuf::from_text("[[1]]").unwrap();
    let deep = "[".repeat(100) + &"]".repeat(100);
    let long = RawBuf::from_text(deep).unwrap();
    for (max, value, ok) in [
        (3, &raw, true),
        (2, &raw, false),
        (101, &long, true),
        (100, &long, false),
    ] {
        let mut ser = jtoo_serde::Serializer::new(Vec::new()).with_max_depth(max);
        let r = vec![value].serialize(&mut ser);
        assert_eq!(r.is_ok(), ok, "{max}");
    }
}

#[test]
fn to_raw_and_to_raw_field() {
    assert_eq!(jtoo_serde::to_raw(&vec![1, 2]).unwrap().as_str(), "[1,2]");
    assert!(jtoo_serde::to_raw(&None::<u8>).is_err());
    assert_eq!(jtoo_serde::to_raw_field(&None::<u8>).unwrap(), None);
    assert_eq!(jtoo_serde::to_raw_field(&()).unwrap(), None);
    assert_eq!(
        jtoo_serde::to_raw_field(&Some("a"))
            .unwrap()
            .unwrap()
            .as_str(),
        r#""a""#
    );
    // A None inside a value is still refused.
    assert!(jtoo_serde::to_raw_field(&vec![None::<u8>]).is_err());
    let raw = jtoo_serde::to_raw(&("x", 2u8)).unwrap();
    let (s, n): (&str, u8) = raw.deserialize_into().unwrap();
    assert_eq!((s, n), ("x", 2));
    assert_eq!(raw.to_string(), r#"["x",2]"#);
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<bool>().prop_map(Value::from),
        ".{0,8}".prop_map(Value::from),
        (any::<i32>(), 0u32..6).prop_map(|(c, e)| {
            let text = format!("{c}e-{e}");
            let d: jtoo::Decimal = text.parse().unwrap_or_default();
            Value::Decimal(d)
        }),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        proptest::collection::vec(
            prop_oneof![
                inner.clone().prop_map(Item::Value),
                ("[a-z]{1,3}", inner).prop_map(|(k, v)| Item::Pair(Pair::with_str_key(&k, v))),
            ],
            0..6,
        )
        .prop_map(|items| Value::List(items.into()))
    })
}

proptest! {
    #[test]
    fn raw_text_is_the_canonical_text(v in value()) {
        let body = jtoo::to_string(&v).unwrap();
        let text = format!(r#"["kind":"k","body":{body},"after":7]"#);
        let e: Envelope = jtoo_serde::from_str(&text).unwrap();
        prop_assert_eq!(e.body.as_str(), body.as_str());
        // encode(parse(d)) == d
        let parsed = jtoo::from_str(e.body.as_str()).unwrap();
        prop_assert_eq!(jtoo::to_string(&parsed).unwrap(), body);
        prop_assert_eq!(jtoo_serde::to_string(&e).unwrap(), text);
    }
}
