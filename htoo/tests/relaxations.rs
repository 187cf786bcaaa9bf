//! One accept test per HTOO relaxation: the HTOO text, the canonical JTOO it
//! means, and a check that strict JTOO rejects the HTOO spelling.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jtoo::Value;

/// Parses `htoo` leniently, checks its canonical text is `canonical`, that
/// the canonical text means the same value, and that strict JTOO rejects
/// the HTOO spelling (when it differs).
#[track_caller]
fn means(htoo: &str, canonical: &str) -> Value {
    let v = match htoo::from_str(htoo) {
        Ok(v) => v,
        Err(e) => panic!("HTOO {htoo:?} rejected: {e}"),
    };
    assert_eq!(jtoo::to_string(&v).unwrap(), canonical, "HTOO {htoo:?}");
    assert_eq!(
        jtoo::from_str(canonical).unwrap(),
        v,
        "canonical {canonical:?}"
    );
    if htoo != canonical {
        assert!(
            jtoo::from_str(htoo).is_err(),
            "strict JTOO accepts {htoo:?}"
        );
    }
    v
}

#[test]
fn whitespace_around_the_document() {
    for ws in [" ", "\t", "\r", "\n", "\r\n", " \t\r\n "] {
        means(&format!("{ws}1{ws}"), "1");
        means(&format!("{ws}[]{ws}"), "[]");
    }
}

#[test]
fn whitespace_around_brackets_commas_and_colons() {
    means("[ 1 ]", "[1]");
    means("[1 ,2]", "[1,2]");
    means("[1, 2]", "[1,2]");
    means("[ ]", "[]");
    means("[\"a\" : 1]", r#"["a":1]"#);
    means("[\"a\":\t1]", r#"["a":1]"#);
    means("[[\"a\", 1], [\"b\", 2]]", r#"[["a",1],["b",2]]"#);
    means("[\n  [\"a\", 1],\n  [\"b\", 2],\n]", r#"[["a",1],["b",2]]"#);
    means("[\r\n\t\"k\" :\r\n\tB4f ,\r\n]", r#"["k":B4f]"#);
    // After every kind of scalar, before `,`, `]` and `:`.
    means(
        "[ \"s\" , B00 , Y , N , 1 , 1.5 , D2023 , T10:20:30 , S0 , [ ] ]",
        r#"["s",B00,Y,N,1,1.5,D2023,T10:20:30,S0,[]]"#,
    );
    means(
        "[D2023 : 1, T10Z : 2, S0 : 3, 1.5 : 4, B : 5, Y : 6]",
        "[D2023:1,T10Z:2,S0:3,1.5:4,B:5,Y:6]",
    );
}

#[test]
fn line_comments() {
    means("1 // This is a comment.", "1");
    means("// before\n1", "1");
    means("[1, // one\n 2 // two\n]", "[1,2]");
    means("[1//x\n,2]", "[1,2]");
    means("[\"a\"// k\n: // v\n 1]", r#"["a":1]"#);
    means("1 //", "1");
    means("1 // not a /* block", "1");
}

#[test]
fn block_comments() {
    means(r#"["a" /* This is a comment. */,"b"]"#, r#"["a","b"]"#);
    means("/**/1/**/", "1");
    means("[/* x */]", "[]");
    means("[1/*x*/,/*y*/2/*z*/]", "[1,2]");
    means("[\"a\"/* k */:/* v */1]", r#"["a":1]"#);
    means("/* a // b */ 1", "1");
    means("/* multi\n line\n */ [Y]", "[Y]");
    means("/* * / ** */ 1", "1");
}

#[test]
fn trailing_comma() {
    means("[1,]", "[1]");
    means("[[1,2,],]", "[[1,2]]");
    means("[\"a\":1,]", r#"["a":1]"#);
    means("[1, ]", "[1]");
    means("[1 , /* c */ ]", "[1]");
}

#[test]
fn string_escapes() {
    means(r#""\t""#, r#""\09""#);
    means(r#""\r""#, r#""\0d""#);
    means(r#""\n""#, r#""\0a""#);
    means(r#""\"""#, r#""\22""#);
    means(
        r#""She typed \"ok\".\r\n""#,
        r#""She typed \22ok\22.\0d\0a""#,
    );
    // Strict escapes still work in HTOO.
    means(r#""\09\5c\7f""#, r#""\09\5c\7f""#);
}

#[test]
fn upper_case_hex_in_byte_strings() {
    means("B4F4B", "B4f4b");
    means("BFF", "Bff");
    means("BaBcD", "Babcd");
    means("[BAB, BCD]", "[Bab,Bcd]");
}

#[test]
fn decimals_with_trailing_zeros() {
    means("0.00", "0.0");
    means("1.50", "1.5");
    means("1.000_000", "1.0");
    means("-2.500", "-2.5");
    means("0.000_100", "0.000_1");
}

#[test]
fn numbers_without_underscores() {
    means("1000", "1_000");
    means("-1234567", "-1_234_567");
    means("1000.5", "1_000.5");
    means("0.0001", "0.000_1");
    means(
        "340282366920938463463374607431768211455",
        "340_282_366_920_938_463_463_374_607_431_768_211_455",
    );
    means("S1709528240", "S1_709_528_240");
    means("S1709528240.001", "S1_709_528_240.001");
    means("S1709528240.000001", "S1_709_528_240.000_001");
    means("S-1709528240", "S-1_709_528_240");
}

#[test]
fn numbers_with_underscores_between_any_digits() {
    means("1_0_0_0", "1_000");
    means("10_00", "1_000");
    means("1_000_0", "10_000");
    means("-1_2", "-12");
    means("1_2.3_4", "12.34");
    means("0.0_0_0_1", "0.000_1");
    means("S1_7_0_9_528_240", "S1_709_528_240");
    means("S1.00_0_001", "S1.000_001");
    means("S17_09528240.0_01", "S1_709_528_240.001");
}

#[test]
fn offsets_with_zero_minutes() {
    means("T10+0500", "T10+05");
    means("T10~0800", "T10~08");
    means("D2023+0100", "D2023+01");
    means("D2023-12-30T01:02:03+0800", "D2023-12-30T01:02:03+08");
}

#[test]
fn offsets_with_minus_sign() {
    means("T10-08", "T10~08");
    means("T10:20-0800", "T10:20~08");
    means("T10:20:30.400-0530", "T10:20:30.400~0530");
    means("D2023-12-30T01:02:03-08", "D2023-12-30T01:02:03~08");
    means("D2023-12-30-08", "D2023-12-30~08");
    means("D2023-W01-1-05", "D2023-W01-1~05");
    // After a year or a year-month, `-` starts the month or day instead.
    means("D2023-12", "D2023-12");
    means("D2023-12-08", "D2023-12-08");
}

#[test]
fn zero_offsets_read_as_z() {
    for z in ["+00", "-00", "~00", "+0000", "-0000", "~0000"] {
        means(&format!("T10{z}"), "T10Z");
        means(&format!("T10:20:30{z}"), "T10:20:30Z");
    }
    means("D2023+00", "D2023Z");
    means("D2023~00", "D2023Z");
}

#[test]
fn strict_documents_mean_the_same_in_htoo() {
    for doc in [
        r#"["msg":"你好"]"#,
        r#""She typed \22ok\22.""#,
        r#""C:\5cWindows""#,
        "B4f4b",
        "[Y,N]",
        "-1_000",
        "0.000_1",
        "D2023-12~08",
        "D2023Z",
        "D2023-W01-1",
        "D2023-12-30T01:02:03~08",
        "T10:20:30.400_500_600",
        "S1_709_528_240.000_000_001",
        "S-0.500",
        "[[1,2],[3,4]]",
        "[T10Z:20]",
        "[T10:20:30:5]",
        "[D2023:5]",
    ] {
        assert_eq!(
            htoo::from_str(doc).unwrap(),
            jtoo::from_str(doc).unwrap(),
            "{doc}"
        );
    }
}

#[test]
fn all_relaxations_at_once() {
    let doc = "
        // A service definition.
        [
          \"name\" : \"api\\tv2\",      /* tab escape */
          \"port\": 8080,
          \"ratio\": 0.50,
          \"key\": BDEAD_BEEF_IS_NOT_HEX,
        ]
    ";
    // `_` is not a hex digit: one near miss spoils the document.
    assert!(htoo::from_str(doc).is_err());
    let doc = doc.replace("BDEAD_BEEF_IS_NOT_HEX", "BDEADBEEF");
    means(
        &doc,
        r#"["name":"api\09v2","port":8_080,"ratio":0.5,"key":Bdeadbeef]"#,
    );
}

#[test]
fn options_depth_limit_matches_jtoo() {
    let deep = |n: usize| format!("{}{}", "[ ".repeat(n), " ]".repeat(n));
    assert!(htoo::from_str(&deep(128)).is_ok());
    let err = htoo::from_str(&deep(129)).unwrap_err();
    assert_eq!(err.kind(), jtoo::ErrorKind::DepthLimitExceeded);
    let opts = htoo::Options::new().with_max_depth(3);
    assert!(opts.from_str(&deep(3)).is_ok());
    assert!(opts.from_str(&deep(4)).is_err());
    assert_eq!(
        htoo::Options::from(jtoo::Options::new().with_max_depth(7)).max_depth(),
        7
    );
    // A million `[` is an error, not a stack overflow.
    let err = htoo::from_str(&"[".repeat(1_000_000)).unwrap_err();
    assert_eq!(err.kind(), jtoo::ErrorKind::DepthLimitExceeded);
}

#[test]
fn from_slice_and_reader_agree_with_from_str() {
    let doc = "[1, 2,] // c";
    let v = htoo::from_str(doc).unwrap();
    assert_eq!(htoo::from_slice(doc.as_bytes()).unwrap(), v);
    assert_eq!(htoo::from_reader(doc.as_bytes()).unwrap(), v);
}
