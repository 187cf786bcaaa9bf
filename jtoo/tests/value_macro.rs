//! The `jtoo!` macro.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jtoo::{Value, jtoo};

#[test]
fn scalars_lists_and_pairs() {
    assert_eq!(jtoo!(1).unwrap(), Value::from(1));
    assert_eq!(jtoo!("s").unwrap().to_string(), r#""s""#);
    assert_eq!(jtoo!([]).unwrap().to_string(), "[]");
    assert_eq!(jtoo!([[], [[]]]).unwrap().to_string(), "[[],[[]]]");
    assert_eq!(jtoo!([1, 2, 3,]).unwrap().to_string(), "[1,2,3]");
    let v = jtoo!(["a": 1, "b": [true, false], 3, "c": ["d": -1.5]]).unwrap();
    assert_eq!(v.to_string(), r#"["a":1,"b":[Y,N],3,"c":["d":-1.5]]"#);
}

#[test]
fn expressions_as_keys_and_values() {
    let name = String::from("Ada");
    let ids = [10u8, 20];
    let key = 7;
    let inner = jtoo!(["x": 1]).unwrap();
    let v = jtoo!([
        "name": &name,
        "first": ids[0],
        "sum": ids[0] + ids[1],
        key: "seven",
        -1: "minus one",
        "len": name.len(),
        "inner": &inner,
        "bytes": &b"\x4f"[..],
        "owned": name,
        (1 + 1): "two",
        "parsed": "D2024-01-02".parse::<jtoo::Date>().unwrap(),
    ])
    .unwrap();
    assert_eq!(
        v.to_string(),
        r#"["name":"Ada","first":10,"sum":30,7:"seven",-1:"minus one","len":3,"inner":["x":1],"bytes":B4f,"owned":"Ada",2:"two","parsed":D2024-01-02]"#
    );
}

#[test]
fn long_lists_do_not_hit_the_recursion_limit() {
    let v = jtoo!([
        "a0": 0, "a1": 1, "a2": 2, "a3": 3, "a4": 4, "a5": 5, "a6": 6, "a7": 7, "a8": 8, "a9": 9,
        "b0": 0, "b1": 1, "b2": 2, "b3": 3, "b4": 4, "b5": 5, "b6": 6, "b7": 7, "b8": 8, "b9": 9,
        "c0": 0, "c1": 1, "c2": 2, "c3": 3, "c4": 4, "c5": 5, "c6": 6, "c7": 7, "c8": 8, "c9": 9,
        "d0": 0, "d1": 1, "d2": 2, "d3": 3, "d4": 4, "d5": 5, "d6": 6, "d7": 7, "d8": 8, "d9": 9,
        "e0": 0, "e1": 1, "e2": 2, "e3": 3, "e4": 4, "e5": 5, "e6": 6, "e7": 7, "e8": 8, "e9": 9,
    ])
    .unwrap();
    assert_eq!(v.as_list().map(jtoo::List::len), Some(50));
}

#[test]
fn values_without_a_jtoo_form_are_errors() {
    let e = jtoo!(["x": f64::INFINITY]).unwrap_err();
    assert!(matches!(e.kind(), jtoo::ErrorKind::Unencodable(_)), "{e}");
    let t10: jtoo::DateTime = "T10".parse().unwrap();
    let e = jtoo!([t10: 1]).unwrap_err();
    assert_eq!(e.kind(), jtoo::ErrorKind::AmbiguousKey);
    // The same time is fine as a value.
    assert_eq!(jtoo!(["at": t10]).unwrap().to_string(), r#"["at":T10]"#);
}

#[test]
fn the_macro_agrees_with_the_parser() {
    let text = r#"["k":[1,"x":[Y,"s"]],B00ff,0.001]"#;
    let built = jtoo!(["k": [1, "x": [true, "s"]], &[0u8, 255][..], 0.001]).unwrap();
    assert_eq!(built, jtoo::from_str(text).unwrap());
}
