//! HTOO is not "anything goes": near misses of each relaxation stay errors,
//! with the expected kind and position.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jtoo::ErrorKind;

/// Checks that `doc` is rejected with `kind` at 1-based `column` of line 1
/// (or any position when `column` is 0).
#[track_caller]
fn rejects(doc: &str, kind: ErrorKind, column: usize) {
    match htoo::from_str(doc) {
        Ok(v) => panic!("HTOO accepts {doc:?} as {v}"),
        Err(e) => {
            assert_eq!(e.kind(), kind, "{doc:?}: {e}");
            if column != 0 {
                assert_eq!(e.column(), column, "{doc:?}: {e}");
            }
        }
    }
}

/// Checks that `doc` is rejected, whatever the error.
#[track_caller]
fn rejected(doc: &str) {
    if let Ok(v) = htoo::from_str(doc) {
        panic!("HTOO accepts {doc:?} as {v}");
    }
}

#[test]
fn trailing_comma_near_misses() {
    rejects("[,]", ErrorKind::ExpectedValue, 2);
    rejects("[ , ]", ErrorKind::ExpectedValue, 3);
    rejects("[1,,2]", ErrorKind::ExpectedValue, 4);
    rejects("[1,,]", ErrorKind::ExpectedValue, 4);
    // Reported right after the value where the `,` is missing.
    rejects("[1 2]", ErrorKind::ExpectedCommaOrEnd, 3);
    rejected("1,");
    rejected("[\"a\":]");
    rejected("[\"a\":,]");
    rejected("[:1]");
}

#[test]
fn comment_near_misses() {
    // Comments do not nest: the first `*/` closes, ` */` is left over.
    rejected("/* /* */ */ 1");
    rejected("[1 /* /* */ */]");
    rejects("1 /* open", ErrorKind::UnclosedComment, 3);
    rejects("[1, /* open ]", ErrorKind::UnclosedComment, 5);
    rejects(
        "/* a comment as the whole document */",
        ErrorKind::ExpectedValue,
        0,
    );
    rejects(
        "// a comment as the whole document",
        ErrorKind::ExpectedValue,
        0,
    );
    rejects("", ErrorKind::ExpectedValue, 1);
    rejects(" \n\t ", ErrorKind::ExpectedValue, 0);
    rejects(
        "1 / 2",
        ErrorKind::InvalidComment("expected `//` or `/*`"),
        3,
    );
    rejected("1 /");
    rejected("# not a comment\n1");
    // Not inside values.
    rejected("1/**/000");
    rejected("\"a\" /* x */ \"b\"");
}

#[test]
fn whitespace_near_misses() {
    rejected("B 4f");
    rejected("B4f 4b");
    rejected("- 1");
    rejected("1 000");
    rejected("1 .5");
    rejected("1. 5");
    rejected("D2023 -12");
    rejected("T10: 20");
    rejected("T10 :20");
    rejected("S 1");
    rejected("1 2");
    rejected("\u{a0}1"); // no-break space is not whitespace
    rejected("\u{feff}1"); // nor is a BOM
    rejected("\x0c1"); // nor form feed
    rejected("\x0b1"); // nor vertical tab
}

#[test]
fn escape_near_misses() {
    rejects(
        r#""\\""#,
        ErrorKind::InvalidEscape("a backslash is written `\\5c`"),
        2,
    );
    rejected(r#""\'""#);
    rejected(r#""\b""#);
    rejected(r#""\f""#);
    rejected(r#""\/""#);
    rejected(r#""\u0041""#);
    rejected(r#""\x41""#);
    rejected(r#""\T""#);
    rejected(r#""\N""#);
    rejected(r#""\41""#);
    rejected(r#""\0A""#);
    rejected("\"raw\ttab\"");
    rejected("\"raw\nnewline\"");
}

#[test]
fn byte_string_near_misses() {
    rejected("B4");
    rejected("B4F4");
    rejected("B4G");
    rejected("Bx");
    rejected("b4f");
    rejected("B4f_4b");
}

#[test]
fn number_near_misses() {
    rejects(
        "1__000",
        ErrorKind::InvalidInteger("`_` must stand between two digits"),
        0,
    );
    for doc in [
        "1__000", "_1", "1_", "-_1", "1_.5", "1._5", "1.5_", "1.5__0", "-0", "-0.0", "-0.00", "00",
        "01", "00.5", "0_1", "+1", "1.", ".5", "1e3", "1.5e3", "0x10", "1_000_",
    ] {
        rejected(doc);
    }
    rejected("S-0");
    rejected("S-0.000");
    rejected("S_1");
    rejected("S1_");
    rejected("S1__0");
    rejected("S1.0001");
    rejected("S1.00");
    rejected("S1.0_0");
    rejected("S1.000_");
    rejected("S01");
}

#[test]
fn date_time_layout_near_misses() {
    for doc in [
        "D20_23",
        "D2023-1",
        "D2023-1_2",
        "T1",
        "T10:2",
        "T10:20:3",
        "T10:20:30.4",
        "T10:20:30.4000",
        "T10:20:30.400500",
        "T10:20:30.40_0",
        "D2023-02-30",
        "T24",
        "T10+24",
        "T10+0560",
        "T10+5",
        "T10-5",
        "T10+00000",
    ] {
        rejected(doc);
    }
}

#[test]
fn minus_offset_only_where_the_decisions_allow() {
    // After `D2023` a `-` starts a month; after `D2023-12` a day.
    rejected("D2023-0800"); // `-08` is the month, then `00` is left over
    rejected("D2023-00");
    rejected("D2023-12-00");
    assert_eq!(htoo::from_str("D2023-08").unwrap().to_string(), "D2023-08");
    assert_eq!(
        htoo::from_str("D2023-12-08").unwrap().to_string(),
        "D2023-12-08"
    );
}

#[test]
fn ambiguous_key_is_an_error() {
    rejects("[T10 :20]", ErrorKind::AmbiguousKey, 6);
    rejects("[T10:20 :30]", ErrorKind::AmbiguousKey, 9);
    rejects("[D2023-12-30T10 /* k */ : 1]", ErrorKind::AmbiguousKey, 0);
    rejects("T10 :20", ErrorKind::AmbiguousKey, 5);
    // With seconds, an offset or a date only, the pair is fine.
    assert_eq!(
        htoo::from_str("[T10:20:30 : 5]").unwrap().to_string(),
        "[T10:20:30:5]"
    );
    assert_eq!(
        htoo::from_str("[T10Z : 20]").unwrap().to_string(),
        "[T10Z:20]"
    );
    assert_eq!(
        htoo::from_str("[D2023 : 5]").unwrap().to_string(),
        "[D2023:5]"
    );
}

#[test]
fn pairs_are_items_not_values() {
    rejected("\"a\": 1");
    rejected("[\"a\": 1: 2]");
    rejected("[\"a\": \"b\" : 1]");
}

#[test]
fn unclosed_things_report_where_they_started() {
    let err = htoo::from_str("[1,\n  \"abc").unwrap_err();
    assert_eq!(
        (err.kind(), err.line(), err.column()),
        (ErrorKind::UnclosedString, 2, 3)
    );
    let err = htoo::from_str("// c\n [1,\n 2,\n").unwrap_err();
    assert_eq!(
        (err.kind(), err.line(), err.column()),
        (ErrorKind::UnclosedList, 2, 2)
    );
    let err = htoo::from_str("[1,\n [2, [3]\n").unwrap_err();
    assert_eq!(
        (err.kind(), err.line(), err.column()),
        (ErrorKind::UnclosedList, 2, 2)
    );
    let err = htoo::from_str("[1, /* a\n b\n").unwrap_err();
    assert_eq!(
        (err.kind(), err.line(), err.column()),
        (ErrorKind::UnclosedComment, 1, 5)
    );
}

#[test]
fn every_proper_prefix_of_a_document_fails() {
    let doc = "[\n  \"a\": [1, 2.50,], // c\n  /* d */ B4F: T10:20-0800,\n]";
    assert!(htoo::from_str(doc).is_ok());
    for end in 0..doc.len() {
        let prefix = &doc[..end];
        // A prefix that happens to be a whole scalar document is fine.
        if prefix.trim_start().starts_with('[') || prefix.trim().is_empty() {
            assert!(
                htoo::from_str(prefix).is_err(),
                "prefix {prefix:?} accepted"
            );
        }
    }
}
