//! One round trip per row of the mapping table, plus the error behaviour.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;

fn round_trip<T>(v: &T, text: &str)
where
    T: Serialize + for<'de> Deserialize<'de> + PartialEq + Debug,
{
    let s = jtoo_serde::to_string(v).unwrap();
    assert_eq!(s, text, "serialize {v:?}");
    let back: T = jtoo_serde::from_str(&s).unwrap();
    assert_eq!(&back, v, "deserialize {text}");
    // Through jtoo::Value too.
    let value = jtoo_serde::to_value(v).unwrap();
    assert_eq!(value.to_string(), text, "to_value {v:?}");
    let back: T = jtoo_serde::from_value(value).unwrap();
    assert_eq!(&back, v, "from_value {text}");
    // And jtoo::Value read by this deserializer is exactly jtoo's parse.
    let value: jtoo::Value = jtoo_serde::from_str(text).unwrap();
    assert_eq!(value, jtoo::from_str(text).unwrap());
}

#[test]
fn scalars() {
    round_trip(&true, "Y");
    round_trip(&false, "N");
    round_trip(&-1_000i32, "-1_000");
    round_trip(&255u8, "255");
    round_trip(
        &i128::MIN,
        "-170_141_183_460_469_231_731_687_303_715_884_105_728",
    );
    round_trip(
        &u128::MAX,
        "340_282_366_920_938_463_463_374_607_431_768_211_455",
    );
    round_trip(&1.5f64, "1.5");
    round_trip(&-2.0f64, "-2.0");
    round_trip(&0.1f32, "0.1");
    round_trip(&1e300f64, &format!("1{}.0", "_000".repeat(100)));
    round_trip(&'x', "\"x\"");
    round_trip(
        &"tab\there \"q\" \\".to_owned(),
        r#""tab\09here \22q\22 \5c""#,
    );
    round_trip(&serde_bytes::ByteBuf::from(b"OK".to_vec()), "B4f4b");
}

#[test]
fn numbers_out_of_range_are_errors() {
    let e = jtoo_serde::from_str::<u8>("256").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid value: integer `256`, expected u8 at line 1 column 1"
    );
    assert!(jtoo_serde::from_str::<u32>("-1").is_err());
    assert!(jtoo_serde::from_str::<i64>("9_223_372_036_854_775_808").is_err());
    assert!(jtoo_serde::from_str::<u8>("1.5").is_err());
    assert_eq!(jtoo_serde::from_str::<f64>("3").unwrap(), 3.0);
    assert!(jtoo_serde::to_string(&f64::NAN).is_err());
    assert!(jtoo_serde::to_string(&f32::INFINITY).is_err());
    // Long decimals convert correctly rounded.
    assert_eq!(
        jtoo_serde::from_str::<f64>("-65.613_616_999_999_977").unwrap(),
        "-65.613616999999977".parse::<f64>().unwrap()
    );
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Inner {
    a: u32,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    list: Vec<Option<u8>>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Outer {
    name: String,
    inner: Inner,
    maybe: Option<Inner>,
    nested: Option<Option<u8>>,
    tuple: (u8, String),
    unit: Unit,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Unit;

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Tup(i8, bool);

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Newtype(u16);

#[test]
fn structs_and_options() {
    let v = Outer {
        name: "n".into(),
        inner: Inner { a: 1, list: vec![] },
        maybe: None,
        nested: Some(Some(3)),
        tuple: (2, "t".into()),
        unit: Unit,
    };
    round_trip(
        &v,
        r#"["name":"n","inner":["a":1],"nested":3,"tuple":[2,"t"],"unit":[]]"#,
    );
    let v = Outer {
        maybe: Some(Inner {
            a: 2,
            list: vec![Some(1)],
        }),
        ..v
    };
    round_trip(
        &v,
        r#"["name":"n","inner":["a":1],"maybe":["a":2,"list":[1]],"nested":3,"tuple":[2,"t"],"unit":[]]"#,
    );
    round_trip(&Tup(-1, true), "[-1,Y]");
    round_trip(&Newtype(7), "7");
    round_trip(&Unit, "[]");
    // Fields in any order, unknown fields ignored.
    let back: Inner = jtoo_serde::from_str(r#"["x":[1,["y":2]],"a":5]"#).unwrap();
    assert_eq!(back, Inner { a: 5, list: vec![] });
    // None where it cannot be left out.
    let e = jtoo_serde::to_string(&Inner {
        a: 1,
        list: vec![None],
    })
    .unwrap_err();
    assert!(e.to_string().contains("JTOO has no null"), "{e}");
    assert!(
        jtoo_serde::to_string(&None::<u8>)
            .unwrap_err()
            .to_string()
            .contains("no null")
    );
    assert!(jtoo_serde::to_string(&vec![()]).is_err());
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Strict {
    a: u8,
}

#[test]
fn struct_errors() {
    let e = jtoo_serde::from_str::<Strict>(r#"["a":1,"b":2]"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown field `b`, expected `a` at line 1 column 8"
    );
    let e = jtoo_serde::from_str::<Strict>(r#"["a":1,"a":2]"#).unwrap_err();
    assert!(e.to_string().starts_with("duplicate field `a`"), "{e}");
    let e = jtoo_serde::from_str::<Inner>(r#"["list":[]]"#).unwrap_err();
    assert_eq!(e.to_string(), "missing field `a` at line 1 column 1");
    let e = jtoo_serde::from_htoo_str::<Outer>("[\"name\":\"n\",\n\"inner\":[\"a\":\"x\"]]")
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        r#"inner.a: invalid type: string "x", expected u32 at line 2 column 14"#
    );
    assert_eq!(
        (e.line(), e.column(), e.path()),
        (2, 14, "inner.a".to_owned())
    );
    let e = jtoo_serde::from_str::<Vec<Inner>>(r#"[["a":1],["a":N]]"#).unwrap_err();
    assert_eq!(e.path(), "[1].a");
    // A plain item where a pair is needed.
    const PLAIN: &str = "expected a pair (`key:value`), found a plain item: \
                         maps, structs and enum variants are lists of pairs";
    for (doc, column) in [
        (r#"["a":1,"b"]"#, 8), // a key without a value
        (r#"[1,2]"#, 2),       // a plain list where a struct belongs
        (r#"[["a":1]]"#, 2),   // a struct wrapped in one list too many
    ] {
        let e = jtoo_serde::from_str::<Inner>(doc).unwrap_err();
        assert_eq!(e.to_string(), format!("{PLAIN} at line 1 column {column}"));
        // The same through a Value.
        let v: jtoo::Value = jtoo::from_str(doc).unwrap();
        let e = jtoo_serde::from_value::<Inner>(v).unwrap_err();
        assert!(e.to_string().starts_with(PLAIN), "{doc}: {e}");
    }
    let e = jtoo_serde::from_str::<std::collections::BTreeMap<String, u32>>(r#"["k":1,"j"]"#)
        .unwrap_err();
    assert_eq!(e.to_string(), format!("{PLAIN} at line 1 column 8"));
    // A pair whose key has the wrong type is not reported as a plain item.
    let e = jtoo_serde::from_str::<Inner>(r#"["a":1,2:3]"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid type: integer `2`, expected field identifier at line 1 column 8"
    );
}

#[test]
fn syntax_errors_have_positions() {
    let cases: &[(&str, &str)] = &[
        ("[1,2x]", "expected `,` or `]` at line 1 column 5"),
        (
            "[1,2",
            "unclosed list: expected `]` before end of input at line 1 column 1",
        ),
        ("[1,]", "expected a value at line 1 column 4"),
        (
            "[1] x",
            "trailing characters after the document at line 1 column 4",
        ),
        ("", "unexpected end of input at line 1 column 1"),
        (
            "\"abc",
            "unclosed string: expected `\"` before end of input at line 1 column 1",
        ),
    ];
    for (input, msg) in cases {
        let e = jtoo_serde::from_str::<Vec<u8>>(input).unwrap_err();
        assert_eq!(&e.to_string(), msg, "{input:?}");
        assert!(
            e.is_syntax() || input.is_empty() || input.starts_with('"'),
            "{input:?}: {e:?}"
        );
    }
    let e = jtoo_serde::from_htoo_str::<Vec<u8>>("[1,\n1__000]").unwrap_err();
    assert_eq!((e.line(), e.column()), (2, 2));
    // Every proper prefix of a document fails.
    let doc = r#"["a":[1,2],"b":"x"]"#;
    for i in 0..doc.len() {
        assert!(
            jtoo_serde::from_str::<jtoo::Value>(&doc[..i]).is_err(),
            "{}",
            &doc[..i]
        );
        assert!(jtoo_serde::from_str::<BTreeMap<String, jtoo::Value>>(&doc[..i]).is_err());
    }
}

#[test]
fn depth_limit() {
    let deep = "[".repeat(100_000);
    let e = jtoo_serde::from_str::<jtoo::Value>(&deep).unwrap_err();
    assert!(e.to_string().contains("nested too deeply"), "{e}");
    let e = jtoo_serde::from_str::<serde_json::Value>(&deep).unwrap_err();
    assert!(e.to_string().contains("nested too deeply"), "{e}");
    let e = jtoo_serde::from_str::<serde::de::IgnoredAny>(&deep).unwrap_err();
    assert!(e.to_string().contains("nested too deeply"), "{e}");
    let ok = format!("{}{}", "[".repeat(100), "]".repeat(100));
    assert!(jtoo_serde::from_str::<serde_json::Value>(&ok).is_ok());
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
enum External {
    Unit,
    New(u8),
    Tuple(u8, String),
    Struct { x: i32, y: Option<i32> },
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(tag = "type")]
enum Internal {
    A { x: u8 },
    B(Inner),
    C,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    A(u8),
    B { s: String },
    C,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
#[serde(untagged)]
enum Untagged {
    Num(i64),
    Float(f64),
    Text(String),
    List(Vec<u8>),
    Rec { k: String },
}

#[test]
fn enums() {
    round_trip(&External::Unit, r#""Unit""#);
    round_trip(&External::New(1), r#"["New":1]"#);
    round_trip(&External::Tuple(1, "a".into()), r#"["Tuple":[1,"a"]]"#);
    round_trip(
        &External::Struct { x: -1, y: None },
        r#"["Struct":["x":-1]]"#,
    );
    round_trip(
        &External::Struct { x: -1, y: Some(2) },
        r#"["Struct":["x":-1,"y":2]]"#,
    );
    round_trip(&Internal::A { x: 1 }, r#"["type":"A","x":1]"#);
    round_trip(
        &Internal::B(Inner { a: 2, list: vec![] }),
        r#"["type":"B","a":2]"#,
    );
    round_trip(&Internal::C, r#"["type":"C"]"#);
    round_trip(&Adjacent::A(1), r#"["t":"A","c":1]"#);
    round_trip(&Adjacent::B { s: "x".into() }, r#"["t":"B","c":["s":"x"]]"#);
    round_trip(&Adjacent::C, r#"["t":"C"]"#);
    round_trip(&Untagged::Num(-5), "-5");
    round_trip(&Untagged::Float(2.5), "2.5");
    round_trip(&Untagged::Text("s".into()), r#""s""#);
    round_trip(&Untagged::List(vec![1, 2]), "[1,2]");
    round_trip(&Untagged::Rec { k: "v".into() }, r#"["k":"v"]"#);
    round_trip(
        &vec![External::Unit, External::New(2)],
        r#"["Unit",["New":2]]"#,
    );
    let e = jtoo_serde::from_str::<External>(r#""Nope""#).unwrap_err();
    assert!(e.to_string().starts_with("unknown variant `Nope`"), "{e}");
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Flat {
    id: u8,
    #[serde(flatten)]
    rest: BTreeMap<String, String>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Flat2 {
    id: u8,
    #[serde(flatten)]
    inner: Inner,
}

#[test]
fn flatten() {
    let mut rest = BTreeMap::new();
    rest.insert("x".to_owned(), "y".to_owned());
    round_trip(&Flat { id: 1, rest }, r#"["id":1,"x":"y"]"#);
    round_trip(
        &Flat2 {
            id: 1,
            inner: Inner {
                a: 2,
                list: vec![Some(3)],
            },
        },
        r#"["id":1,"a":2,"list":[3]]"#,
    );
}

#[test]
fn maps_with_any_keys() {
    let mut m = BTreeMap::new();
    m.insert(1i32, "a".to_owned());
    m.insert(-2, "b".to_owned());
    round_trip(&m, r#"[-2:"b",1:"a"]"#);
    let mut m = BTreeMap::new();
    m.insert(jtoo::Date::from_ymd(2024, 1, 2).unwrap(), 1u8);
    round_trip(&m, "[D2024-01-02:1]");
    let mut m = BTreeMap::new();
    m.insert(true, Some(1u8));
    m.insert(false, None);
    assert_eq!(jtoo_serde::to_string(&m).unwrap(), "[Y:1]");
    let mut m = BTreeMap::new();
    m.insert((1u8, 2u8), "t");
    assert_eq!(jtoo_serde::to_string(&m).unwrap(), r#"[[1,2]:"t"]"#);
    let back: BTreeMap<(u8, u8), String> = jtoo_serde::from_str(r#"[[1,2]:"t"]"#).unwrap();
    assert_eq!(back[&(1, 2)], "t");
    // A time of hour precision cannot be a key.
    let mut m = HashMap::new();
    m.insert(jtoo::Time::from_hour(10).unwrap(), 1);
    let e = jtoo_serde::to_string(&m).unwrap_err();
    assert!(e.to_string().contains("ambiguous key"), "{e}");
    assert!(jtoo_serde::to_value(&m).is_err());
}

#[derive(Deserialize, PartialEq, Debug)]
struct Borrowed<'a> {
    #[serde(borrow)]
    s: &'a str,
    #[serde(borrow)]
    b: &'a [u8],
    #[serde(borrow)]
    c: std::borrow::Cow<'a, str>,
}

#[test]
fn borrowed_strings() {
    let input = r#"["s":"plain","b":"bytes","c":"x"]"#;
    let v: Borrowed = jtoo_serde::from_str(input).unwrap();
    assert_eq!(v.s, "plain");
    assert_eq!(v.b, b"bytes");
    // An escaped string cannot be borrowed: a clear error, and Cow/String work.
    assert!(jtoo_serde::from_str::<&str>(r#""a\22b""#).is_err());
    assert_eq!(
        jtoo_serde::from_str::<String>(r#""a\22b""#).unwrap(),
        "a\"b"
    );
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct JtooTypes {
    d: jtoo::Decimal,
    dt: jtoo::DateTime,
    date: jtoo::Date,
    time: jtoo::Time,
    ts: jtoo::Timestamp,
    i: jtoo::Integer,
    v: jtoo::Value,
}

#[test]
fn jtoo_types_keep_their_form() {
    let text = r#"["d":1_000.000_000_000_000_000_001,"dt":D2023-12-30T01:02:03~08,"date":D2023-W01-1,"time":T10:20,"ts":S1_709_528_240.001,"i":-5,"v":[1,"k":D2023,S0,0.1]]"#;
    let v: JtooTypes = jtoo_serde::from_str(text).unwrap();
    assert_eq!(v.d.to_string(), "1_000.000_000_000_000_000_001");
    round_trip(&v, text);
    // Through serde_json they are strings.
    let json = serde_json::to_string(&v.d).unwrap();
    assert_eq!(json, r#""1_000.000_000_000_000_000_001""#);
    let back: jtoo::Decimal = serde_json::from_str(&json).unwrap();
    assert_eq!(back, v.d);
    let back: jtoo::Value = jtoo_serde::from_str(text).unwrap();
    assert_eq!(back, jtoo::from_str(text).unwrap());
    // A wrong type for a marked field.
    let e = jtoo_serde::from_str::<jtoo::Timestamp>("D2023").unwrap_err();
    assert!(e.to_string().contains("expected a JTOO timestamp"), "{e}");
    // A forged private newtype with bad text is refused, never written raw.
    #[derive(Serialize)]
    #[serde(rename = "$__jtoo_private_Decimal")]
    struct Forged(&'static str);
    assert!(jtoo_serde::to_string(&Forged("1,2")).is_err());
    // The marked text is written as it arrives, so it must be the one
    // canonical spelling of a decimal: not another spelling, not an integer.
    assert_eq!(jtoo_serde::to_string(&Forged("1.5")).unwrap(), "1.5");
    assert!(jtoo_serde::to_string(&Forged("1.50")).is_err());
    assert!(jtoo_serde::to_string(&Forged("1_000")).is_err());
}

#[test]
fn jtoo_values_round_trip_exactly() {
    for text in [
        r#"[1,"a":2,[],["x":Y],B00ff,-0.5,T10:20:30:1,D2023Z:2]"#,
        r#"["a":1,2,"b":[3,"c":4]]"#,
        r#"[[1,2]:3]"#,
        "1.000_000_000_000_000_000_000_1",
        "[]",
        "S-1.500",
    ] {
        let v = jtoo::from_str(text).unwrap();
        assert_eq!(jtoo_serde::to_string(&v).unwrap(), text);
        let back: jtoo::Value = jtoo_serde::from_str(text).unwrap();
        assert_eq!(back, v, "{text}");
        let back: jtoo::Value = jtoo_serde::from_value(v.clone()).unwrap();
        assert_eq!(back, v, "{text}");
        assert_eq!(jtoo_serde::to_value(&v).unwrap(), v);
    }
    // Through serde_json (mixed lists carry the private pair marker).
    let v = jtoo::from_str(r#"[1,"a":2]"#).unwrap();
    let j = serde_json::to_value(&v).unwrap();
    assert_eq!(j.to_string(), r#"[1,{"$__jtoo_private_Pair":["a",2]}]"#);
    let back: jtoo::Value = serde_json::from_value(j).unwrap();
    assert_eq!(back, v);
}

#[test]
fn htoo_input() {
    let v: BTreeMap<String, Vec<f64>> = jtoo_serde::from_htoo_str(
        "[ // comment\n  \"a\": [1.50, 2_0_0.0, ], /* c */ \"b\" : [] ,\n]\n",
    )
    .unwrap();
    assert_eq!(v["a"], [1.5, 200.0]);
    assert!(jtoo_serde::from_str::<BTreeMap<String, Vec<f64>>>("[\"a\": []]").is_err());
    let v: jtoo::Value = jtoo_serde::from_htoo_str("[1.50, D2023-01-01T10-0800 ]").unwrap();
    assert_eq!(v.to_string(), "[1.5,D2023-01-01T10~08]");
}

#[test]
fn writer_and_reader() {
    let big: Vec<String> = (0..20_000).map(|i| format!("item {i}")).collect();
    let mut out = Vec::new();
    jtoo_serde::to_writer(&mut out, &big).unwrap();
    assert_eq!(out, jtoo_serde::to_vec(&big).unwrap());
    let back: Vec<String> = jtoo_serde::from_reader(&out[..]).unwrap();
    assert_eq!(back, big);
    // Options left out after a flush boundary still work.
    #[derive(Serialize)]
    struct S {
        a: Vec<String>,
        b: Option<u8>,
    }
    let mut out = Vec::new();
    jtoo_serde::to_writer(
        &mut out,
        &S {
            a: big.clone(),
            b: None,
        },
    )
    .unwrap();
    assert!(out.ends_with(b"\"]]"));
}

#[test]
fn serde_json_value_null_rule() {
    let j: serde_json::Value = serde_json::from_str(r#"{"a":null,"b":[1,{"c":null}]}"#).unwrap();
    assert_eq!(jtoo_serde::to_string(&j).unwrap(), r#"["b":[1,[]]]"#);
    let j: serde_json::Value = serde_json::from_str(r#"[1,null]"#).unwrap();
    assert!(
        jtoo_serde::to_string(&j)
            .unwrap_err()
            .to_string()
            .contains("no null")
    );
    let j: serde_json::Value = serde_json::from_str(r#"{"n":1e5,"m":1.50,"i":-0}"#).unwrap();
    assert_eq!(
        jtoo_serde::to_string(&j).unwrap(),
        r#"["n":100_000.0,"m":1.5,"i":0]"#
    );
}

/// serde has no integer primitive below `i128::MIN`: such integers are a
/// clear error through serde, never a silent change of sign.
#[test]
fn integers_below_i128_min_are_refused_not_flipped() {
    let text = "[-170_141_183_460_469_231_731_687_303_715_884_105_729]";
    let v = jtoo::from_str(text).unwrap();
    match jtoo_serde::from_str::<jtoo::Value>(text) {
        Ok(back) => assert_eq!(back, v, "sign must survive"),
        Err(e) => assert!(e.to_string().contains("below i128::MIN"), "{e}"),
    }
    let e = jtoo_serde::to_string(&v).unwrap_err();
    assert!(e.to_string().contains("below i128::MIN"), "{e}");
    assert!(
        jtoo_serde::from_str::<i128>("-170_141_183_460_469_231_731_687_303_715_884_105_729")
            .is_err()
    );
}

/// Which `visit_*` method a deserializer calls for an integer, and with
/// what value.
#[derive(Debug, PartialEq)]
struct Visited(&'static str, i128);

impl<'de> Deserialize<'de> for Visited {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Visited;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an integer")
            }
            fn visit_i64<E>(self, v: i64) -> Result<Visited, E> {
                Ok(Visited("i64", v.into()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Visited, E> {
                Ok(Visited("u64", v.into()))
            }
            fn visit_i128<E>(self, v: i128) -> Result<Visited, E> {
                Ok(Visited("i128", v))
            }
            fn visit_u128<E>(self, v: u128) -> Result<Visited, E> {
                Ok(Visited("u128", v as i128))
            }
        }
        d.deserialize_i64(V)
    }
}

/// Integers read straight from strict text (the deserializer's fast path,
/// up to 19 digits) reach the visitor as from a `jtoo::Value` (the general
/// path): `i64` when it fits, else `u64`, else `i128`.
#[test]
fn integers_at_primitive_edges() {
    let edges: [i128; 14] = [
        0,
        1,
        -1,
        999,
        -1_000,
        i64::MAX as i128,
        i64::MAX as i128 + 1,
        i64::MIN as i128,
        i64::MIN as i128 - 1,
        9_999_999_999_999_999_999,
        -9_999_999_999_999_999_999,
        10_000_000_000_000_000_000,
        u64::MAX as i128,
        -10_000_000_000_000_000_000,
    ];
    for v in edges {
        let text = jtoo::Value::from(v).to_string();
        let fast: Visited = jtoo_serde::from_str(&text).unwrap();
        let general: Visited = jtoo_serde::from_value(jtoo::from_str(&text).unwrap()).unwrap();
        assert_eq!(fast, general, "{text}");
        assert_eq!(fast.1, v, "{text}");
        assert_eq!(jtoo_serde::from_str::<i128>(&text).unwrap(), v, "{text}");
        assert_eq!(
            jtoo_serde::from_str::<u64>(&text).ok(),
            u64::try_from(v).ok(),
            "{text}"
        );
        assert_eq!(
            jtoo_serde::from_str::<i64>(&text).ok(),
            i64::try_from(v).ok(),
            "{text}"
        );
    }
    // Out of range for the target: the error points at the number.
    let e = jtoo_serde::from_str::<Vec<u8>>("[1,300]").unwrap_err();
    assert!(e.to_string().ends_with("line 1 column 4"), "{e}");
}
