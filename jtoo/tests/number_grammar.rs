//! The number grammar (`jtoo::parse::number`): what strict and lenient
//! syntax accept, ranges, and the error messages.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jtoo::parse::number::number;
use jtoo::parse::{Number, Syntax, unwrap_nom_err};

fn strict(s: &str) -> Result<String, String> {
    match number(s.as_bytes(), Syntax::Strict) {
        Ok(([], n)) => Ok(match n {
            Number::Integer(i) => i.to_string(),
            Number::Decimal(d) => d.to_string(),
        }),
        Ok((rest, _)) => Err(format!("rest {:?}", String::from_utf8_lossy(rest))),
        Err(e) => Err(format!("{:?}", unwrap_nom_err(e, s.as_bytes()).kind)),
    }
}

#[test]
fn strict_accepts_canonical() {
    for s in [
        "0",
        "1",
        "-1",
        "1_000",
        "999",
        "-1_000_000",
        "0.0",
        "1.0",
        "-1.0",
        "1_000.0",
        "0.000_1",
        "0.5",
        "-0.5",
        "123_456.789_1",
    ] {
        assert_eq!(strict(s).as_deref(), Ok(s), "{s}");
    }
}

#[test]
fn strict_rejects_other_spellings() {
    for s in [
        "00", "01", "-0", "1000", "10_00", "1__000", "1_", "1_00", "1_0000", "-0.0", "1.50",
        "1.00", "0.00", "00.0", "01.0", "1.", "0.0001", "0.000_10", "0.00_01", "1e5", "1.5e3", "-",
        "1_000_",
    ] {
        assert!(
            strict(s).is_err(),
            "{s} should be rejected: {:?}",
            strict(s)
        );
    }
    // `_1` is not a number at all: the dispatcher never calls us for it,
    // but the production still refuses it.
    assert!(number(b"_1", Syntax::Strict).is_err());
}

#[test]
fn lenient_relaxations() {
    let lenient = |s: &str| match number(s.as_bytes(), Syntax::Lenient) {
        Ok(([], Number::Integer(i))) => Ok(i.to_string()),
        Ok(([], Number::Decimal(d))) => Ok(d.to_string()),
        _ => Err(()),
    };
    assert_eq!(lenient("1000"), Ok("1_000".into()));
    assert_eq!(lenient("1_0_0_0"), Ok("1_000".into()));
    assert_eq!(lenient("0.00"), Ok("0.0".into()));
    assert_eq!(lenient("1.50"), Ok("1.5".into()));
    assert_eq!(lenient("0.0001"), Ok("0.000_1".into()));
    for bad in ["1__000", "_1", "1_", "-0", "-0.00", "01", "1._5", "1.5_"] {
        assert!(lenient(bad).is_err(), "{bad}");
    }
}

#[test]
fn long_zero_runs_and_big_values() {
    let big = format!("1{}.0", "_000".repeat(100));
    assert_eq!(strict(&big).as_deref(), Ok(big.as_str()));
    let tiny = format!("0.{}1", "000_".repeat(100));
    assert_eq!(strict(&tiny).as_deref(), Ok(tiny.as_str()));
    assert!(
        strict("123_456_789_012_345_678_901_234_567_890_123_456_789_012.0")
            .unwrap_err()
            .contains("NumberOutOfRange")
    );
}

#[test]
fn range() {
    assert_eq!(
        strict("340_282_366_920_938_463_463_374_607_431_768_211_455").as_deref(),
        Ok("340_282_366_920_938_463_463_374_607_431_768_211_455")
    );
    assert!(
        strict("340_282_366_920_938_463_463_374_607_431_768_211_456")
            .unwrap_err()
            .contains("NumberOutOfRange")
    );
    assert!(strict("-340_282_366_920_938_463_463_374_607_431_768_211_455").is_ok());
}

#[test]
fn error_messages_name_the_rule() {
    let e = jtoo::from_str("1000").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid integer: more than three digits need `_` every three digits at line 1 column 4"
    );
    let e = jtoo::from_str("1000.5").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("invalid decimal: more than three digits"),
        "{e}"
    );
}
