//! A newtype variant whose payload is left out (`None`, `()`) is written
//! `["Name"]` and read back: through text (`to_string`/`from_str`, JTOO
//! and HTOO) and through `jtoo::Value` (`to_value`/`from_value`), which
//! agree byte for byte.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Debug;

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
enum Response<T> {
    Value(Option<T>),
    Missing,
    Pair(u8, u8),
    Rec { a: Option<u32> },
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
enum Nested {
    V(Option<Option<u8>>),
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
enum Plain {
    N(u32),
    T(u8, u8),
    S { a: u32 },
    U,
}

/// Writes `v` both ways, checks the text, and reads it back both ways.
fn round_trip<T: Serialize + DeserializeOwned + PartialEq + Debug>(v: &T, text: &str) {
    assert_eq!(jtoo_serde::to_string(v).unwrap(), text, "to_string");
    let mut streamed = Vec::new();
    jtoo_serde::to_writer(&mut streamed, v).unwrap();
    assert_eq!(streamed, text.as_bytes(), "to_writer");
    let value = jtoo_serde::to_value(v).unwrap();
    assert_eq!(value, jtoo::from_str(text).unwrap(), "to_value");
    assert_eq!(&jtoo_serde::from_str::<T>(text).unwrap(), v, "from_str");
    assert_eq!(
        &jtoo_serde::from_value::<T>(value).unwrap(),
        v,
        "from_value"
    );
    assert_eq!(
        &jtoo_serde::from_htoo_str::<T>(text).unwrap(),
        v,
        "from_htoo_str"
    );
}

/// The same error from text and from a `jtoo::Value`, without position.
fn both_refuse<T: DeserializeOwned + Debug>(text: &str, message: &str) {
    let e = jtoo_serde::from_str::<T>(text).unwrap_err().to_string();
    assert!(e.starts_with(message), "from_str: {e}");
    let value: jtoo::Value = jtoo::from_str(text).unwrap();
    let e = jtoo_serde::from_value::<T>(value).unwrap_err().to_string();
    assert!(e.starts_with(message), "from_value: {e}");
}

#[test]
fn none_payload_is_left_out() {
    round_trip(&Response::<u32>::Value(None), r#"["Value"]"#);
    round_trip(&Response::Value(Some(5u32)), r#"["Value":5]"#);
    round_trip(&Response::<u32>::Missing, r#""Missing""#);
    round_trip(&Response::<u32>::Pair(1, 2), r#"["Pair":[1,2]]"#);
    round_trip(&Response::<u32>::Rec { a: None }, r#"["Rec":[]]"#);
    round_trip(
        &Response::Value(Some(vec!["a".to_string()])),
        r#"["Value":["a"]]"#,
    );
    round_trip(&Response::Value(Some(Vec::<u8>::new())), r#"["Value":[]]"#);
}

#[test]
fn none_payload_in_lists_fields_and_maps() {
    let list = vec![
        Response::Value(None),
        Response::Value(Some(1u8)),
        Response::Missing,
    ];
    round_trip(&list, r#"[["Value"],["Value":1],"Missing"]"#);
    // The variant itself is present, so it is not left out of a struct or
    // map the way a bare `None` is.
    let map = BTreeMap::from([("a", Response::<u8>::Value(None))]);
    round_trip(
        &map.into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect::<BTreeMap<_, _>>(),
        r#"["a":["Value"]]"#,
    );
    round_trip(&Some(Response::<u8>::Value(None)), r#"["Value"]"#);
    // Inside another newtype variant.
    round_trip(
        &Response::Value(Some(Response::<u8>::Value(None))),
        r#"["Value":["Value"]]"#,
    );
}

#[test]
fn unit_payloads_are_left_out_too() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    enum E {
        U(()),
    }
    round_trip(&E::U(()), r#"["U"]"#);
    // `serde_json::Value::Null` is serde's unit: left out, read back.
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    enum J {
        V(serde_json::Value),
    }
    round_trip(&J::V(serde_json::Value::Null), r#"["V"]"#);
    round_trip(&J::V(serde_json::json!([1])), r#"["V":[1]]"#);
}

#[test]
fn option_of_option() {
    // `Some(Some(x))` and `None` round-trip; `Some(None)` has no form
    // distinct from `None` (as a struct field, and as `serde_json`'s null):
    // it is written `["V"]` and reads back as `None`.
    round_trip(&Nested::V(Some(Some(3))), r#"["V":3]"#);
    round_trip(&Nested::V(None), r#"["V"]"#);
    assert_eq!(
        jtoo_serde::to_string(&Nested::V(Some(None))).unwrap(),
        r#"["V"]"#
    );
    assert_eq!(
        jtoo_serde::to_value(&Nested::V(Some(None))).unwrap(),
        jtoo::from_str(r#"["V"]"#).unwrap()
    );
    // Where `None` cannot be left out, neither can the inner one.
    let e = jtoo_serde::to_string(&vec![Some(None::<u8>)]).unwrap_err();
    assert!(e.to_string().starts_with("JTOO has no null"), "{e}");
}

#[test]
fn unit_variant_reads_without_payload() {
    for text in [r#""U""#, r#"["U"]"#, r#"["U":[]]"#] {
        assert_eq!(
            jtoo_serde::from_str::<Plain>(text).unwrap(),
            Plain::U,
            "{text}"
        );
        let v: jtoo::Value = jtoo::from_str(text).unwrap();
        assert_eq!(
            jtoo_serde::from_value::<Plain>(v).unwrap(),
            Plain::U,
            "{text}"
        );
    }
    // Still written as a bare string.
    assert_eq!(jtoo_serde::to_string(&Plain::U).unwrap(), r#""U""#);
}

#[test]
fn variants_that_need_a_payload_say_so() {
    let e = jtoo_serde::from_str::<Plain>(r#"["N"]"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid type: a variant without a payload, expected u32 at line 1 column 5"
    );
    both_refuse::<Plain>(
        r#"["N"]"#,
        "invalid type: a variant without a payload, expected u32",
    );
    both_refuse::<Plain>(
        r#"["T"]"#,
        "invalid type: a variant without a payload, expected tuple variant Plain::T",
    );
    both_refuse::<Plain>(
        r#"["S"]"#,
        "invalid type: a variant without a payload, expected struct variant Plain::S",
    );
    // A list of a plain value that is not a name, or of two items, is no
    // variant.
    let e = jtoo_serde::from_str::<Plain>(r#"["N","x"]"#).unwrap_err();
    assert!(e.to_string().starts_with("expected a pair"), "{e}");
    assert!(jtoo_serde::from_str::<Plain>(r#"[1]"#).is_err());
    assert!(jtoo_serde::from_value::<Plain>(jtoo::from_str(r#"[1]"#).unwrap()).is_err());
    // Strict JTOO has no trailing comma.
    assert!(jtoo_serde::from_str::<Response<u8>>(r#"["Value",]"#).is_err());
}

#[test]
fn htoo_spellings() {
    for text in [
        "[\"Value\",]",
        "[ \"Value\" ]",
        "[\n  \"Value\", // nothing\n]",
        "[\n  \"Value\" // nothing\n]",
    ] {
        assert_eq!(
            jtoo_serde::from_htoo_str::<Response<u8>>(text).unwrap(),
            Response::Value(None),
            "{text:?}"
        );
    }
    assert_eq!(
        jtoo_serde::from_htoo_str::<Response<u8>>("[\"Value\": 1,]").unwrap(),
        Response::Value(Some(1))
    );
}

#[test]
fn buffered_enums_see_a_list() {
    // serde's buffering (untagged, internally tagged, `flatten`) reads an
    // externally tagged enum only from a string or a one-entry map; the
    // list `["Value"]` is neither, as the README says.
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    #[serde(untagged)]
    enum Either {
        R(Response<u8>),
        S(String),
    }
    let text = jtoo_serde::to_string(&Either::R(Response::Value(None))).unwrap();
    assert_eq!(text, r#"["Value"]"#);
    assert!(jtoo_serde::from_str::<Either>(&text).is_err());
    // With a payload it works.
    round_trip(&Either::R(Response::Value(Some(1))), r#"["Value":1]"#);
}
