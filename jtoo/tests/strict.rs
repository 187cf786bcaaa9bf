//! Strict JTOO: every rule of the spec and of spec-decisions.md accepted and
//! rejected, seed examples (corrected per the errata), exact error messages
//! with positions, depth limits, and the one-spelling properties.

use jtoo::{ErrorKind, Item, Pair, Value};
use proptest::prelude::*;

use crate::common::arb_value;

/// Parses and re-encodes; the canonical text must be the input.
fn canonical(doc: &str) {
    let v = jtoo::from_str(doc).unwrap_or_else(|e| panic!("{doc:?} should parse: {e}"));
    assert_eq!(jtoo::to_string(&v).unwrap(), doc, "re-encoding {doc:?}");
}

fn rejects(doc: &[u8]) -> jtoo::Error {
    match jtoo::from_slice(doc) {
        Ok(v) => panic!(
            "{:?} should be rejected, parsed as {v:?}",
            String::from_utf8_lossy(doc)
        ),
        Err(e) => e,
    }
}

#[test]
fn seed_examples_are_canonical() {
    for doc in [
        // Document
        r#"["msg":"你好"]"#,
        // String (E2: the seed's "C:\5cWindows lacks its closing quote)
        r#""""#,
        r#""abc""#,
        r#""She typed \22ok\22.""#,
        r#""C:\5cWindows""#,
        // Byte string
        "B",
        "B61",
        "B4f4b",
        // Boolean
        "Y",
        "N",
        // Integer
        "0",
        "1",
        "-1",
        "1_000",
        // Decimal
        "0.0",
        "1.0",
        "-1.0",
        "1_000.0",
        "0.000_1",
        // List (E1: `[t,f]` is `[Y,N]`)
        "[]",
        "[1,2,3,4]",
        "[Y,N]",
        "[[1,2],[3,4]]",
        // Frame and greeting JTOO sections (E8: pairs as list items)
        r#"[["code":200]]"#,
        r#"[["status":"success"]]"#,
        r#"[["protocol":"e7/LyniPSK","id":Bc8fd0fb7,"nonce":B8da5ab6f3fdb1bb0]]"#,
        r#"[["code":505,"error":"unsupported protocol"]]"#,
    ] {
        canonical(doc);
    }
}

#[test]
fn document_bytes_match_the_seed() {
    let v = jtoo::from_str(r#"["msg":"你好"]"#).unwrap();
    assert_eq!(
        jtoo::to_vec(&v).unwrap(),
        [
            0x5b, 0x22, 0x6d, 0x73, 0x67, 0x22, 0x3a, 0x22, 0xe4, 0xbd, 0xa0, 0xe5, 0xa5, 0xbd,
            0x22, 0x5d
        ]
    );
}

#[test]
fn seed_rejections() {
    // Byte strings with whitespace; integers/decimals with leading zeros.
    for doc in [
        "B 4f",
        "B4f 4b",
        "00",
        "000",
        "00.0",
        "01.0",
        "[t,f]",
        r#""C:\5cWindows"#,
    ] {
        rejects(doc.as_bytes());
    }
}

/// Error table: input, message, line, column (serde_json's style).
#[test]
fn error_messages_and_positions() {
    let table: &[(&str, &str, usize, usize)] = &[
        ("", "expected a value", 1, 1),
        ("[", "unclosed list: expected `]` before end of input", 1, 1),
        (
            "[1,2",
            "unclosed list: expected `]` before end of input",
            1,
            1,
        ),
        (
            "[1,",
            "unclosed list: expected `]` before end of input",
            1,
            1,
        ),
        ("[1 ]", "expected `,` or `]`", 1, 3),
        ("[1,]", "expected a value", 1, 4),
        ("[,]", "expected a value", 1, 2),
        ("[1,,2]", "expected a value", 1, 4),
        ("1 ", "trailing characters after the document", 1, 2),
        (" 1", "expected a value", 1, 1),
        ("[1]]", "trailing characters after the document", 1, 4),
        (
            "1000",
            "invalid integer: more than three digits need `_` every three digits",
            1,
            4,
        ),
        (
            "10_00",
            "invalid integer: expected three digits after `_`",
            1,
            6,
        ),
        (
            "1__000",
            "invalid integer: `_` must be followed by exactly three digits",
            1,
            3,
        ),
        (
            "1_0000",
            "invalid integer: groups after `_` have exactly three digits",
            1,
            6,
        ),
        ("01", "invalid integer: leading zeros are not allowed", 1, 1),
        ("-0", "invalid integer: negative zero is written `0`", 1, 1),
        ("+1", "expected a value", 1, 1),
        ("1e5", "invalid integer: exponents are not allowed", 1, 2),
        (
            "1.50",
            "invalid decimal: trailing zeros are not allowed (the fraction is `0` only for whole numbers)",
            1,
            4,
        ),
        (
            "1.00",
            "invalid decimal: trailing zeros are not allowed (the fraction is `0` only for whole numbers)",
            1,
            4,
        ),
        (
            "-0.0",
            "invalid decimal: negative zero is written `0.0`",
            1,
            1,
        ),
        ("1.", "unexpected end of input", 1, 3),
        (
            "0.0001",
            "invalid decimal: more than three fraction digits need `_` every three digits",
            1,
            6,
        ),
        (
            "1000.5",
            "invalid decimal: more than three digits need `_` every three digits",
            1,
            4,
        ),
        (
            "\"abc",
            "unclosed string: expected `\"` before end of input",
            1,
            1,
        ),
        (
            "[\"a\",\"b",
            "unclosed string: expected `\"` before end of input",
            1,
            6,
        ),
        (
            "\"a\tb\"",
            "invalid string: control characters must be escaped as `\\` and two lower-case hex digits",
            1,
            3,
        ),
        (
            "\"\\41\"",
            "invalid escape: only control codes, `\"` (`\\22`), `\\` (`\\5c`) and U+007F (`\\7f`) may be escaped",
            1,
            2,
        ),
        (
            "\"\\0A\"",
            "invalid escape: hex digits must be lower case",
            1,
            2,
        ),
        (
            "\"\\\\\"",
            "invalid escape: a backslash is written `\\5c`",
            1,
            2,
        ),
        (
            "\"\\n\"",
            "invalid escape: expected `\\` and two lower-case hex digits",
            1,
            2,
        ),
        (
            "B4F",
            "invalid byte string: hex digits must be lower case",
            1,
            3,
        ),
        ("B4", "invalid byte string: odd number of hex digits", 1, 2),
        ("B4g", "invalid byte string: expected hex digit pairs", 1, 2),
        ("[1,\n2]", "expected a value", 1, 4),
        ("[\"你好\",x]", "expected a value", 1, 7),
        (
            "[T10:2]",
            "invalid time: expected two digits for the minute",
            1,
            7,
        ),
        (
            "T10:2",
            "invalid time: expected two digits for the minute",
            1,
            6,
        ),
        ("Q", "expected a value", 1, 1),
        ("[1:2:3]", "expected `,` or `]`", 1, 5),
        ("1:2", "trailing characters after the document", 1, 2),
        ("[:1]", "expected a value", 1, 2),
    ];
    let mut failures = Vec::new();
    for &(doc, msg, line, column) in table {
        match jtoo::from_str(doc) {
            Ok(v) => failures.push(format!("{doc:?}: accepted as {v:?}")),
            Err(e) => {
                if (e.message().as_str(), e.line(), e.column()) != (msg, line, column) {
                    failures.push(format!(
                        "{doc:?}: got {:?} at {}:{}, want {msg:?} at {line}:{column}",
                        e.message(),
                        e.line(),
                        e.column()
                    ));
                } else {
                    assert_eq!(
                        e.to_string(),
                        format!("{msg} at line {line} column {column}")
                    );
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn no_whitespace_anywhere_in_strict() {
    for doc in [
        " 1",
        "1 ",
        "\n1",
        "1\n",
        "[1, 2]",
        "[ 1]",
        "[1 ,2]",
        "[\"a\" :1]",
        "[\"a\": 1]",
        "\u{feff}1",
    ] {
        rejects(doc.as_bytes());
    }
}

#[test]
fn invalid_utf8_is_rejected_with_its_position() {
    let e = rejects(b"[\"ok\",\"\xff\"]");
    assert_eq!(e.kind(), ErrorKind::InvalidUtf8);
    assert_eq!(e.offset(), 7);
    let e = rejects(b"\"\xe4\xbd\"");
    assert_eq!(e.kind(), ErrorKind::InvalidUtf8);
    // UTF-8 is checked for the whole document first; when that fails the
    // first error in document order is still the one reported.
    let e = rejects(b"[1 ,\"\xff\"]");
    assert_eq!((e.kind(), e.offset()), (ErrorKind::ExpectedCommaOrEnd, 2));
    let e = rejects(b"[\"\xff\",\"\xff\"]");
    assert_eq!((e.kind(), e.offset()), (ErrorKind::InvalidUtf8, 2));
    let e = rejects(b"[\"a\",\xff]");
    assert_eq!((e.kind(), e.offset()), (ErrorKind::ExpectedValue, 5));
    // The validator agrees.
    for doc in [
        &b"[1 ,\"\xff\"]"[..],
        b"[\"\xff\",\"\xff\"]",
        b"[\"a\",\xff]",
    ] {
        let (p, v) = (
            jtoo::from_slice(doc).unwrap_err(),
            jtoo::validate(doc).unwrap_err(),
        );
        assert_eq!((p.kind(), p.offset()), (v.kind(), v.offset()));
    }
}

#[test]
fn strings_are_sliced_from_valid_documents() {
    let doc = "[\"日本語\":\"a\\22b\",\"\u{10ffff}\"]";
    let v = jtoo::from_slice(doc.as_bytes()).unwrap();
    assert_eq!(jtoo::to_string(&v).unwrap(), doc);
    assert!(jtoo::validate(doc.as_bytes()).is_ok());
}

#[test]
fn strings_escape_exactly_the_35_code_points() {
    for c in 0u32..=0x80 {
        let ch = char::from_u32(c).unwrap();
        let must_escape = c < 0x20 || c == 0x22 || c == 0x5c || c == 0x7f;
        let raw = format!("\"{ch}\"");
        let escaped = format!("\"\\{c:02x}\"");
        assert_eq!(jtoo::from_str(&raw).is_ok(), !must_escape, "raw {c:#x}");
        assert_eq!(
            jtoo::from_str(&escaped).is_ok(),
            must_escape,
            "escaped {c:#x}"
        );
        if must_escape {
            canonical(&escaped);
        } else {
            canonical(&raw);
        }
    }
    // C1 controls and everything else are written raw.
    canonical("\"\u{85}\u{2028}😀\"");
}

#[test]
fn pairs_are_list_items_only() {
    canonical(r#"["a":1,2,"b":[3]]"#);
    canonical("[1:2]");
    canonical("[[1]:[2]]");
    canonical("[T10Z:20]");
    canonical("[T10:20:30:5]");
    canonical("[D2023:5]");
    canonical("[D2023-12-30:5]");
    canonical("[D2023-12-30T01Z:5]");
    // Longest match: `:` after an hour or minute continues the time.
    let v = jtoo::from_str("[T10:20]").unwrap();
    assert!(matches!(
        v.as_list().unwrap().get(0),
        Some(jtoo::ItemRef::Value(Value::DateTime(_)))
    ));
    rejects(b"[T10:2]");
    rejects(b"\"k\":1");
    rejects(b"[\"k\":\"v\":1]");
    // The value model refuses keys with no unambiguous spelling.
    let t10 = jtoo::from_str("T10").unwrap();
    assert_eq!(
        Pair::new(t10, Value::from(20)).unwrap_err().kind(),
        ErrorKind::AmbiguousKey
    );
    let t1020 = jtoo::from_str("D2023-12-30T10:20").unwrap();
    assert!(Pair::new(t1020, Value::from(20)).is_err());
    let with_offset = jtoo::from_str("T10:20Z").unwrap();
    assert!(Pair::new(with_offset, Value::from(20)).is_ok());
    // Duplicate keys are legal in the data model; order is kept.
    let v = jtoo::from_str(r#"["a":1,"a":2]"#).unwrap();
    assert_eq!(v.get("a").and_then(Value::as_i64), Some(1));
    canonical(r#"["a":1,"a":2]"#);
}

#[test]
fn integers_hold_all_of_i128_and_u128() {
    canonical("340_282_366_920_938_463_463_374_607_431_768_211_455");
    canonical("-340_282_366_920_938_463_463_374_607_431_768_211_455");
    canonical("-170_141_183_460_469_231_731_687_303_715_884_105_728");
    let e = rejects(b"340_282_366_920_938_463_463_374_607_431_768_211_456");
    assert!(matches!(e.kind(), ErrorKind::NumberOutOfRange(_)));
    assert_eq!(e.column(), 1);
}

#[test]
fn decimals() {
    for doc in [
        "0.5",
        "-0.5",
        "1.234_5",
        "123_456.789_012_3",
        "0.000_000_1",
        "100.0",
        "1_000_000.0",
    ] {
        canonical(doc);
    }
    for doc in [
        "1.234_50", "0.10", "1.0_0", "1._5", "1.5_", "1.5__1", ".5", "1.2_345", "1_0.5", "1.0e3",
    ] {
        rejects(doc.as_bytes());
    }
    let d: jtoo::Decimal = "1.5".parse().unwrap();
    assert_eq!(d.to_f64(), 1.5);
}

#[test]
fn depth_is_limited_without_stack_overflow() {
    let deep = "[".repeat(1_000_000);
    let e = rejects(deep.as_bytes());
    assert_eq!(e.kind(), ErrorKind::DepthLimitExceeded);
    assert_eq!(e.offset(), 128);
    let ok = format!("{}{}", "[".repeat(128), "]".repeat(128));
    canonical(&ok);
    let too_deep = format!("{}{}", "[".repeat(129), "]".repeat(129));
    assert_eq!(
        rejects(too_deep.as_bytes()).kind(),
        ErrorKind::DepthLimitExceeded
    );
    // A raised limit stops at the ceiling, and the ceiling holds on a 2 MiB
    // thread (tokio's worker default) even unoptimized.
    let ok = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let opts = jtoo::Options::new().with_max_depth(1_000_000);
            let max = jtoo::Options::DEPTH_CEILING;
            assert_eq!(opts.max_depth(), max);
            let at = format!("{}{}", "[".repeat(max), "]".repeat(max));
            let over = format!("[{at}]");
            opts.from_str(&at).is_ok()
                && opts.validate(at.as_bytes()).is_ok()
                && opts.from_str(&over).unwrap_err().kind() == ErrorKind::DepthLimitExceeded
                && opts.validate(over.as_bytes()).is_err()
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(ok);
}

#[test]
fn encoding_deep_values_does_not_recurse() {
    let mut v = Value::List(vec![].into());
    for _ in 0..100_000 {
        v = Value::List(vec![Item::Value(v)].into());
    }
    // `Display` writes any depth; the writers refuse what the default reader
    // could not read back.
    assert_eq!(v.to_string().len(), 200_002);
    let err = jtoo::to_string(&v).unwrap_err();
    assert_eq!(err.kind(), jtoo::ErrorKind::TooDeep(128));
}

#[test]
fn every_proper_prefix_of_a_list_document_fails() {
    let doc = r#"["a":[1,-2.5,"x\22y",B00ff,Y],D2023-W01-1T10:20:30.400+0530:S-1.500,"k":[]]"#;
    canonical(doc);
    for end in 0..doc.len() {
        if doc.is_char_boundary(end) {
            assert!(
                jtoo::from_str(&doc[..end]).is_err(),
                "prefix {:?}",
                &doc[..end]
            );
        }
    }
}

#[test]
fn to_writer_matches_to_vec() {
    let doc = format!("[{}]", vec![r#"["k":"value","n":1_000]"#; 10_000].join(","));
    let v = jtoo::from_str(&doc).unwrap();
    let mut out = Vec::new();
    jtoo::to_writer(&mut out, &v).unwrap();
    assert_eq!(out, doc.as_bytes());
}

// ---------------------------------------------------------------------------
// Properties: one value, one spelling.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// parse(encode(v)) == v, and the encoding is itself canonical.
    #[test]
    fn values_round_trip(v in arb_value()) {
        let text = jtoo::to_string(&v).unwrap();
        let back = jtoo::from_str(&text).unwrap();
        prop_assert_eq!(&back, &v);
        prop_assert_eq!(jtoo::to_string(&back).unwrap(), text);
    }

    /// For every valid strict document d, encode(parse(d)) == d: random byte
    /// soup over the grammar's alphabet either fails or is its own encoding.
    #[test]
    fn documents_have_one_spelling(doc in "[\\[\\],:\"0-9_.\\-+~BDTSYNZW\\\\a-f ]{0,24}") {
        if let Ok(v) = jtoo::from_str(&doc) {
            prop_assert_eq!(jtoo::to_string(&v).unwrap(), doc);
        }
    }

    /// Structured soup: concatenations of grammar tokens, more likely valid.
    #[test]
    fn token_documents_have_one_spelling(tokens in prop::collection::vec(prop::sample::select(vec![
        "[", "]", ",", ":", "0", "1", "9", "_", "000", ".", "-", "\"a\"", "\"\\22\"", "B", "ff", "Y", "N",
        "D2023", "-01", "-W01", "-1", "T10", ":20", ":30", ".400", "_500", "Z", "+01", "~0530", "S", "1_709",
    ]), 0..12)) {
        let doc: String = tokens.concat();
        if let Ok(v) = jtoo::from_str(&doc) {
            prop_assert_eq!(jtoo::to_string(&v).unwrap(), doc);
        }
    }

    /// Arbitrary bytes never panic the parser.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let _ = jtoo::from_slice(&bytes);
        let _ = jtoo::parse::document(&bytes, jtoo::parse::Syntax::Lenient, 128);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// `validate` agrees with `from_slice` on acceptance and on the error.
    #[test]
    fn validate_agrees_with_parse(doc in "[\\[\\],:\"0-9_.\\-+~BDTSYNZW\\\\a-f ]{0,24}") {
        match (jtoo::from_str(&doc), jtoo::validate(doc.as_bytes())) {
            (Ok(_), Ok(())) => {}
            (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
            (a, b) => prop_assert!(false, "{doc:?}: parse {a:?}, validate {b:?}"),
        }
    }

    #[test]
    fn validate_accepts_every_encoded_value(v in arb_value()) {
        prop_assert!(jtoo::validate(&jtoo::to_vec(&v).unwrap()).is_ok());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// The float writer's fast path spells exactly what `Decimal::from_f64` does.
    #[test]
    fn write_f64_matches_decimal(f in any::<f64>().prop_filter("finite", |f| f.is_finite())) {
        let mut out = Vec::new();
        jtoo::encode::write_f64(&mut out, f).unwrap();
        prop_assert_eq!(String::from_utf8(out).unwrap(), jtoo::Decimal::from_f64(f).unwrap().to_string());
    }

    #[test]
    fn write_f32_matches_decimal(f in any::<f32>().prop_filter("finite", |f| f.is_finite())) {
        let mut out = Vec::new();
        jtoo::encode::write_f32(&mut out, f).unwrap();
        prop_assert_eq!(String::from_utf8(out).unwrap(), jtoo::Decimal::from_f32(f).unwrap().to_string());
    }
}

#[test]
fn decimal_edges_round_trip() {
    // The fuzz generator stays within ±1000 (the edges' text is 90 KB), so
    // the type's edges are held here.
    let max = i64::from(u16::MAX);
    for (negative, coefficient, exponent) in [
        (false, u128::MAX, max - 1),
        (true, 1, max),
        (false, 123, -max),
        (true, u128::MAX, -max + 38),
    ] {
        let d = jtoo::Decimal::from_scientific(negative, coefficient, exponent).unwrap();
        let v = Value::Decimal(d);
        let text = jtoo::to_string(&v).unwrap();
        assert_eq!(jtoo::from_str(&text).unwrap(), v, "{exponent}");
    }
    assert!(jtoo::Decimal::from_scientific(false, 1, max + 40).is_err());
    assert!(jtoo::Decimal::from_scientific(false, 1, -max - 1).is_err());
}
