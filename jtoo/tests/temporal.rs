//! Dates, times, offsets and timestamps: every rule of the "Date, time,
//! offset" and "Timestamps" sections with accept and reject cases, the
//! HTOO offset relaxations, Display/FromStr round trips and the chrono
//! conversions.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jtoo::parse::{Syntax, temporal, timestamp};
use jtoo::{Date, DateTime, ErrorKind, Offset, Time, TimePrecision, Timestamp, TimestampPrecision};
use proptest::prelude::*;

/// Parses a whole date/time value; `Ok` holds its canonical text, `Err` the
/// error kind and byte offset.
fn dt(s: &str, syntax: Syntax) -> Result<String, (ErrorKind, usize)> {
    match temporal::datetime(s.as_bytes(), syntax) {
        Ok((&[], v)) => Ok(v.to_string()),
        // The caller rejects what may not follow a value.
        Ok((rest, _)) => Err((ErrorKind::TrailingCharacters, s.len() - rest.len())),
        Err(e) => {
            let e = jtoo::parse::unwrap_nom_err(e, s.as_bytes());
            Err((e.kind, e.offset(s.as_bytes())))
        }
    }
}

/// Parses a whole timestamp; `Ok` holds its canonical text.
fn ts(s: &str, syntax: Syntax) -> Result<String, (ErrorKind, usize)> {
    match timestamp::timestamp(s.as_bytes(), syntax) {
        Ok((&[], v)) => Ok(v.to_string()),
        // The caller rejects what may not follow a value.
        Ok((rest, _)) => Err((ErrorKind::TrailingCharacters, s.len() - rest.len())),
        Err(e) => {
            let e = jtoo::parse::unwrap_nom_err(e, s.as_bytes());
            Err((e.kind, e.offset(s.as_bytes())))
        }
    }
}

fn assert_canonical(cases: &[&str]) {
    for s in cases {
        assert_eq!(dt(s, Syntax::Strict).as_deref(), Ok(*s), "strict {s}");
        assert_eq!(dt(s, Syntax::Lenient).as_deref(), Ok(*s), "lenient {s}");
        assert_eq!(
            s.parse::<DateTime>().map(|v| v.to_string()).ok().as_deref(),
            Some(*s)
        );
    }
}

fn assert_rejected(cases: &[&str], syntax: Syntax) {
    for s in cases {
        assert!(
            dt(s, syntax).is_err(),
            "{syntax:?} accepted {s}: {:?}",
            dt(s, syntax)
        );
        if syntax == Syntax::Strict {
            assert!(s.parse::<DateTime>().is_err(), "FromStr accepted {s}");
        }
    }
}

// ---------------------------------------------------------------- dates

#[test]
fn seed_date_examples_are_accepted() {
    assert_canonical(&[
        "D2023",
        "D2023-01",
        "D2023-01-01",
        "D2023-W01",
        "D2023-W01-1",
    ]);
}

#[test]
fn date_ranges() {
    assert_canonical(&[
        "D0001",
        "D9999",
        "D0001-01-01",
        "D9999-12-31",
        "D2023-12",
        "D2023-01-31",
        "D2023-04-30",
        "D2024-02-29",
        "D2000-02-29",
        "D2023-W52",
        "D2023-W52-7",
        "D2020-W53",
        "D2020-W53-7",
        "D2026-W53",
        "D9999-W52-5",
    ]);
    assert_rejected(
        &[
            "D0000",
            "D0000-01-01",
            "D2023-00",
            "D2023-13",
            "D2023-01-00",
            "D2023-01-32",
            "D2023-04-31",
            "D2023-02-29",
            "D1900-02-29",
            "D2023-02-30",
            "D2023-W00",
            "D2023-W54",
            "D2021-W53",
            "D2023-W53-1",
            "D2023-W01-0",
            "D2023-W01-8",
            "D9999-W52-6",
            "D9999-W52-7",
        ],
        Syntax::Strict,
    );
}

#[test]
fn date_digit_layout_is_strict_in_both_grammars() {
    let bad = [
        "D",
        "D202",
        "D20233",
        "D2023-1",
        "D2023-123",
        "D2023-01-1",
        "D2023-01-011",
        "D2023-W1",
        "D2023-W011",
        "D2023-W01-11",
        "D2023-",
        "D2023-01-",
        "D2023-W",
        "D2023-W01-",
        "D+2023",
        "D2023-w01",
    ];
    assert_rejected(&bad, Syntax::Strict);
    assert_rejected(&bad, Syntax::Lenient);
}

#[test]
fn date_constructors_validate() {
    assert!(Date::from_year(0).is_err());
    assert!(Date::from_year(10_000).is_err());
    assert!(Date::from_year_month(2023, 0).is_err());
    assert!(Date::from_ymd(2023, 2, 29).is_err());
    assert!(Date::from_ymd(2024, 2, 29).is_ok());
    assert!(Date::from_week(2021, 53).is_err());
    assert!(Date::from_week(2020, 53).is_ok());
    assert!(Date::from_week_day(2023, 1, 8).is_err());
    let d = Date::from_week_day(2023, 1, 1).unwrap();
    assert_eq!(
        (d.year(), d.week(), d.week_day(), d.month(), d.day()),
        (2023, Some(1), Some(1), None, None)
    );
    assert!(d.is_full_day() && d.is_week_date());
    let d = Date::from_year_month(2023, 12).unwrap();
    assert_eq!((d.month(), d.day(), d.week()), (Some(12), None, None));
    assert!(!d.is_full_day());
    assert!(matches!(
        Date::from_ymd(2023, 2, 30).unwrap_err().kind(),
        ErrorKind::InvalidDate(_)
    ));
}

#[test]
fn weeks_in_year_matches_the_iso_rule() {
    // Years with 53 ISO weeks in 2000–2040 (ISO 8601 tables).
    let long = [2004, 2009, 2015, 2020, 2026, 2032, 2037];
    for y in 2000..=2040 {
        let expected = if long.contains(&y) { 53 } else { 52 };
        assert_eq!(Date::weeks_in_year(y), expected, "{y}");
    }
}

#[test]
fn date_errors_name_what_was_expected_and_where() {
    use ErrorKind::InvalidDate;
    let s = Syntax::Strict;
    assert_eq!(
        dt("D0000", s),
        Err((InvalidDate("expected a year from 0001 to 9999"), 1))
    );
    assert_eq!(
        dt("D202", s),
        Err((InvalidDate("expected four digits for the year"), 4))
    );
    assert_eq!(
        dt("D20233", s),
        Err((InvalidDate("expected four digits for the year"), 5))
    );
    assert_eq!(
        dt("D2023-13", s),
        Err((InvalidDate("expected a month from 01 to 12"), 6))
    );
    assert_eq!(
        dt("D2023-1x", s),
        Err((InvalidDate("expected two digits for the month"), 7))
    );
    assert_eq!(
        dt("D2023-02-29", s),
        Err((InvalidDate("expected a day that exists in that month"), 9))
    );
    assert_eq!(
        dt("D2021-W53", s),
        Err((
            InvalidDate("expected a week from 01 to 52: this ISO year has no week 53"),
            7
        ))
    );
    assert_eq!(
        dt("D2023-W01-8", s),
        Err((InvalidDate("expected a week day from 1 to 7"), 10))
    );
    assert_eq!(
        dt("D9999-W52-6", s),
        Err((
            InvalidDate("expected a week day on or before 9999-12-31"),
            10
        ))
    );
}

// ---------------------------------------------------------------- times

#[test]
fn seed_time_examples_are_accepted() {
    assert_canonical(&[
        "T10",
        "T10:20",
        "T10:20:30",
        "T10:20:30.400",
        "T10:20:30.400_500",
        "T10:20:30.400_500_600",
    ]);
}

#[test]
fn time_ranges() {
    assert_canonical(&[
        "T00",
        "T23",
        "T23:59",
        "T00:00:00",
        "T23:59:59",
        "T23:59:60",
        "T10:20:60.999_999_999",
    ]);
    assert_rejected(
        &["T24", "T99", "T10:60", "T10:20:61", "T10:20:99"],
        Syntax::Strict,
    );
}

#[test]
fn fractions_have_exactly_three_six_or_nine_digits_in_both_grammars() {
    let bad = [
        "T10:20:30.",
        "T10:20:30.4",
        "T10:20:30.40",
        "T10:20:30.4000",
        "T10:20:30.400500",
        "T10:20:30.400_5",
        "T10:20:30.400_",
        "T10:20:30.400_500_6",
        "T10:20:30.400_500_600_",
        "T10:20:30.400_500_6001",
        "T10:20:30.400_500_600_700",
        "T10:20:30.4_00",
        "T10:20.5",
        "T10.5",
    ];
    assert_rejected(&bad, Syntax::Strict);
    assert_rejected(&bad, Syntax::Lenient);
}

#[test]
fn time_digit_layout_is_strict() {
    let bad = [
        "T",
        "T1",
        "T101",
        "T10:2",
        "T10:",
        "T10:201",
        "T10:20:3",
        "T10:20:",
        "T10:20:301",
        "T1:20",
    ];
    assert_rejected(&bad, Syntax::Strict);
    assert_rejected(&bad, Syntax::Lenient);
}

#[test]
fn a_colon_after_an_hour_or_minute_always_continues_the_time() {
    use ErrorKind::InvalidTime;
    let s = Syntax::Strict;
    assert_eq!(
        dt("T10:2", s),
        Err((InvalidTime("expected two digits for the minute"), 5))
    );
    assert_eq!(
        dt("T10:", s),
        Err((InvalidTime("expected two digits for the minute"), 4))
    );
    assert_eq!(
        dt("T10:20:", s),
        Err((InvalidTime("expected two digits for the second"), 7))
    );
    assert_eq!(
        dt("T101", s),
        Err((InvalidTime("expected two digits for the hour"), 3))
    );
    assert_eq!(
        dt("T10:20.500", s),
        Err((InvalidTime("expected `:` and seconds before a fraction"), 6))
    );
    assert_eq!(
        dt("T10.5", s),
        Err((InvalidTime("expected `:` and seconds before a fraction"), 3))
    );
    // After seconds a `:` is not part of the time: the caller sees a pair.
    let (rest, v) = temporal::datetime(b"T10:20:30:5", s).unwrap();
    assert_eq!((rest, v.to_string().as_str()), (&b":5"[..], "T10:20:30"));
    let (rest, _) = temporal::datetime(b"T10Z:5", s).unwrap();
    assert_eq!(rest, b":5");
    let (rest, _) = temporal::datetime(b"D2023:5", s).unwrap();
    assert_eq!(rest, b":5");
}

#[test]
fn time_constructors_validate_precision() {
    use TimePrecision::*;
    assert!(Time::from_hour(24).is_err());
    assert!(Time::from_hm(10, 60).is_err());
    assert!(Time::from_hms(10, 20, 61).is_err());
    assert!(Time::from_hms(23, 59, 60).is_ok());
    assert!(Time::from_hms_milli(10, 20, 30, 1000).is_err());
    assert!(Time::from_hms_micro(10, 20, 30, 1_000_000).is_err());
    assert!(Time::from_hms_nano(10, 20, 30, 1_000_000_000).is_err());
    assert!(Time::new(10, 20, 30, 400_000_000, Millisecond).is_ok());
    assert!(Time::new(10, 20, 30, 400_500_000, Millisecond).is_err());
    assert!(Time::new(10, 20, 30, 400_500_000, Microsecond).is_ok());
    assert!(Time::new(10, 20, 30, 400_500_600, Microsecond).is_err());
    assert!(Time::new(10, 20, 30, 1, Second).is_err());
    assert!(Time::new(10, 20, 1, 0, Minute).is_err());
    assert!(Time::new(10, 1, 0, 0, Hour).is_err());
    let t = Time::new(10, 20, 30, 400_500_600, Nanosecond).unwrap();
    assert_eq!(
        (
            t.hour(),
            t.minute(),
            t.second(),
            t.nanosecond(),
            t.precision()
        ),
        (10, 20, 30, 400_500_600, Nanosecond)
    );
    // Precision is part of the value.
    assert_ne!(
        Time::from_hms_milli(10, 20, 30, 0).unwrap(),
        Time::from_hms(10, 20, 30).unwrap()
    );
    assert_ne!(
        "T10:20:30.400".parse::<Time>().unwrap(),
        "T10:20:30.400_000".parse::<Time>().unwrap()
    );
}

// ---------------------------------------------------------------- offsets

#[test]
fn seed_offset_examples_are_accepted() {
    for (s, minutes) in [
        ("Z", 0),
        ("+01", 60),
        ("~08", -480),
        ("+0530", 330),
        ("~0930", -570),
        ("+2359", 1439),
    ] {
        let o: Offset = s.parse().unwrap();
        assert_eq!(o.minutes(), minutes);
        assert_eq!(o.to_string(), s);
    }
    assert_canonical(&[
        "D2023Z",
        "D2023-12-08",
        "D2023-12~08",
        "D2023-12+08",
        "D2023-W01Z",
        "D2023-W01-1+0530",
        "D2023-12-30Z",
        "T10Z",
        "T10:20~08",
        "T10:20:30.400+01",
    ]);
}

#[test]
fn strict_offsets_have_one_spelling() {
    for s in [
        "+0800", "~0100", "+00", "~00", "+0000", "~0000", "+24", "~24", "+0560", "+1", "+123",
        "+12345", "-08", "-0800", "z", "+",
    ] {
        assert!(s.parse::<Offset>().is_err(), "{s}");
        assert!(
            temporal::offset(s.as_bytes(), Syntax::Strict).is_err(),
            "{s}"
        );
    }
    assert_rejected(
        &[
            "T10+0800",
            "T10+00",
            "T10~00",
            "T10+0000",
            "T10+24",
            "T10-08",
            "D2023-12-30-08",
            "D2023Z0",
            "T10+08000",
        ],
        Syntax::Strict,
    );
}

#[test]
fn strict_offset_errors_say_what_was_expected() {
    use ErrorKind::InvalidOffset;
    let s = Syntax::Strict;
    assert_eq!(
        dt("T10+0800", s),
        Err((
            InvalidOffset("expected no minutes in a whole-hour offset (`+08`, not `+0800`)"),
            6
        ))
    );
    assert_eq!(
        dt("T10~00", s),
        Err((InvalidOffset("expected `Z` for a zero offset"), 3))
    );
    assert_eq!(
        dt("T10+24", s),
        Err((InvalidOffset("expected offset hours from 00 to 23"), 4))
    );
    assert_eq!(
        dt("T10-08", s),
        Err((
            InvalidOffset("expected `~` as the minus sign of an offset (`-` is HTOO only)"),
            3
        ))
    );
}

#[test]
fn lenient_offsets() {
    let l = Syntax::Lenient;
    let cases = [
        ("T10-0800", "T10~08"),
        ("T10:20-08", "T10:20~08"),
        ("T10+0500", "T10+05"),
        ("T10~0800", "T10~08"),
        ("T10+00", "T10Z"),
        ("T10-00", "T10Z"),
        ("T10~00", "T10Z"),
        ("T10+0000", "T10Z"),
        ("T10-0000", "T10Z"),
        ("D2023-12-30-08", "D2023-12-30~08"),
        ("D2023-12-30T01:02:03-0800", "D2023-12-30T01:02:03~08"),
        ("D2023-W01-1-0530", "D2023-W01-1~0530"),
        ("D2023+0100", "D2023+01"),
        ("D2023-12+00", "D2023-12Z"),
    ];
    for (htoo, jtoo) in cases {
        assert_eq!(dt(htoo, l).as_deref(), Ok(jtoo), "{htoo}");
    }
    // After `D2023` a `-` starts a month, after `D2023-12` a day.
    assert_eq!(dt("D2023-12", l).as_deref(), Ok("D2023-12"));
    assert_eq!(dt("D2023-12-08", l).as_deref(), Ok("D2023-12-08"));
    // Never a minus sign after a partial date.
    assert_rejected(&["D2023-W01-08", "D2023-08-"], l);
    // Ranges still hold.
    assert_rejected(&["T10-24", "T10+0560", "T10-1", "T10+123"], l);
    assert_eq!(temporal::offset(b"-0800", l).unwrap().1.minutes(), -480);
}

#[test]
fn offset_constructors() {
    assert_eq!(Offset::UTC.minutes(), 0);
    assert!(Offset::UTC.is_utc());
    assert!(Offset::from_minutes(1439).is_ok());
    assert!(Offset::from_minutes(-1439).is_ok());
    assert!(Offset::from_minutes(1440).is_err());
    assert!(Offset::from_minutes(-1440).is_err());
    use jtoo::OffsetSign::{Minus, Plus};
    assert_eq!(Offset::from_hm(Minus, 8, 0).unwrap().to_string(), "~08");
    assert_eq!(Offset::from_hm(Plus, 8, 0).unwrap().to_string(), "+08");
    assert_eq!(Offset::from_hm(Plus, 23, 59).unwrap().minutes(), 1439);
    assert_eq!(Offset::from_hm(Minus, 23, 59).unwrap().minutes(), -1439);
    assert_eq!(Offset::from_hm(Plus, 0, 0).unwrap(), Offset::UTC);
    assert_eq!(Offset::from_hm(Minus, 0, 0).unwrap(), Offset::UTC);
    assert!(Offset::from_hm(Plus, 24, 0).is_err());
    assert!(Offset::from_hm(Minus, 0, 60).is_err());
    assert_eq!(Offset::from_minutes(-61).unwrap().to_string(), "~0101");
}

// ---------------------------------------------------------------- combinations

#[test]
fn seed_combination_examples_are_accepted() {
    assert_canonical(&[
        "D2023-12-30T01",
        "D2023-12-30T01:02",
        "D2023-12-30T01:02:03~08",
        "D2023-W01-1T10:20:30.400_500Z",
        "D2023-W52-7T23:59:60.999+0530",
    ]);
}

#[test]
fn a_time_follows_only_a_full_day() {
    let bad = [
        "D2023T10",
        "D2023-12T10",
        "D2023-W01T10",
        "D2023ZT10",
        "T10D2023",
        "D2023-12-30T",
        "D2023-12-30T1",
    ];
    assert_rejected(&bad, Syntax::Strict);
    assert_rejected(&bad, Syntax::Lenient);
    assert_eq!(
        dt("D2023T10", Syntax::Strict),
        Err((
            ErrorKind::InvalidTime(
                "a time may only follow a full date (year-month-day or week day)"
            ),
            5
        ))
    );
}

#[test]
fn datetime_constructors_and_accessors() {
    let d = Date::from_ymd(2023, 12, 30).unwrap();
    let t = Time::from_hms(1, 2, 3).unwrap();
    let o = Offset::from_minutes(-480).unwrap();
    let v = DateTime::new(Some(d), Some(t), Some(o)).unwrap();
    assert_eq!(
        (v.date(), v.time(), v.offset()),
        (Some(d), Some(t), Some(o))
    );
    assert_eq!(v.to_string(), "D2023-12-30T01:02:03~08");
    assert_eq!(d.with_time(t).unwrap().with_offset(o), v);
    assert_eq!(v.without_offset().to_string(), "D2023-12-30T01:02:03");
    assert!(DateTime::new(None, None, Some(o)).is_err());
    assert!(DateTime::new(None, None, None).is_err());
    let year = Date::from_year(2023).unwrap();
    assert!(DateTime::new(Some(year), Some(t), None).is_err());
    assert!(year.with_time(t).is_err());
    assert_eq!(year.with_offset(Offset::UTC).to_string(), "D2023Z");
    assert_eq!(DateTime::from(year).to_string(), "D2023");
    assert_eq!(DateTime::from(t).to_string(), "T01:02:03");
    assert_eq!(t.with_offset(o).to_string(), "T01:02:03~08");
    assert!(DateTime::from(year).with_time(t).is_err());
    assert_eq!(
        DateTime::from(d).with_time(t).unwrap().to_string(),
        "D2023-12-30T01:02:03"
    );
}

#[test]
fn ambiguous_keys_are_hour_or_minute_times_without_offset() {
    for (s, ambiguous) in [
        ("T10", true),
        ("T10:20", true),
        ("D2023-12-30T10", true),
        ("D2023-W01-1T10:20", true),
        ("T10Z", false),
        ("T10:20~08", false),
        ("T10:20:30", false),
        ("T10:20:30.400", false),
        ("D2023", false),
        ("D2023-12-30", false),
        ("D2023-12-30T10Z", false),
    ] {
        assert_eq!(
            s.parse::<DateTime>().unwrap().is_ambiguous_key(),
            ambiguous,
            "{s}"
        );
    }
}

#[test]
fn from_str_rejects_anything_after_the_value() {
    assert!("D2023Z".parse::<Date>().is_err());
    assert!("D2023".parse::<Date>().is_ok());
    assert!("T10Z".parse::<Time>().is_err());
    assert!("T10".parse::<Time>().is_ok());
    assert!("D2023-01-01T10".parse::<Date>().is_err());
    assert!("T10 ".parse::<DateTime>().is_err());
    assert!(" T10".parse::<DateTime>().is_err());
    assert!("T10,".parse::<DateTime>().is_err());
    assert!("Z ".parse::<Offset>().is_err());
    assert!("".parse::<DateTime>().is_err());
    assert!("".parse::<Offset>().is_err());
    assert!("S1 ".parse::<Timestamp>().is_err());
    let e = "D2023-01-01x".parse::<DateTime>().unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::TrailingCharacters, 11));
}

// ---------------------------------------------------------------- timestamps

#[test]
fn seed_timestamp_examples_are_accepted() {
    for s in [
        "S0",
        "S1_709_528_240",
        "S1_709_528_240.001",
        "S1_709_528_240.000_001",
        "S1_709_528_240.000_000_001",
        "S0.000",
        "S1.000_000",
        "S-1",
        "S-1.500",
        "S-0.500",
        "S-0.000_000_001",
        "S999",
        "S1_000",
        "S-62_135_596_800",
        "S253_402_300_799.999_999_999",
    ] {
        assert_eq!(ts(s, Syntax::Strict).as_deref(), Ok(s), "strict {s}");
        assert_eq!(ts(s, Syntax::Lenient).as_deref(), Ok(s), "lenient {s}");
        assert_eq!(s.parse::<Timestamp>().unwrap().to_string(), s);
    }
}

#[test]
fn timestamp_values() {
    let t: Timestamp = "S1_709_528_240.000_001".parse().unwrap();
    assert_eq!(
        (t.secs(), t.subsec_nanos(), t.precision()),
        (1_709_528_240, 1_000, TimestampPrecision::Microseconds)
    );
    let t: Timestamp = "S-1.500".parse().unwrap();
    assert_eq!(
        (t.secs(), t.subsec_nanos(), t.as_nanos()),
        (-2, 500_000_000, -1_500_000_000)
    );
    let t: Timestamp = "S-0.500".parse().unwrap();
    assert_eq!((t.secs(), t.subsec_nanos()), (-1, 500_000_000));
    // The precision is part of the value.
    assert_ne!(
        "S1".parse::<Timestamp>().unwrap(),
        "S1.000".parse::<Timestamp>().unwrap()
    );
    assert_eq!(Timestamp::EPOCH.to_string(), "S0");
    assert_eq!(Timestamp::from_secs(-1).unwrap().to_string(), "S-1");
}

#[test]
fn timestamp_rejects() {
    for s in [
        "S",
        "S-",
        "S-0",
        "S-0.000",
        "S-0.000_000_000",
        "S01",
        "S00",
        "S1000",
        "S10_00",
        "S_1",
        "S1_",
        "S1__000",
        "S+1",
        "S1.",
        "S1.0",
        "S1.00",
        "S1.0001",
        "S1.000_0",
        "S1.000_000_000_000",
        "S1.000_000_0001",
        "S-62_135_596_801",
        "S-62_135_596_800.001",
        "S253_402_300_800",
        "S340_282_366_920_938_463_463_374_607_431_768_211_456",
        "S 1",
        "S1e3",
    ] {
        assert!(s.parse::<Timestamp>().is_err(), "FromStr accepted {s}");
        assert!(ts(s, Syntax::Strict).is_err(), "strict accepted {s}");
    }
}

#[test]
fn timestamp_error_kinds_and_positions() {
    let s = Syntax::Strict;
    let (kind, at) = ts("S-0", s).unwrap_err();
    assert_eq!(
        (kind, at),
        (
            ErrorKind::InvalidTimestamp("negative zero: zero is written without `-`"),
            1
        )
    );
    let (kind, at) = ts("S253_402_300_800", s).unwrap_err();
    assert!(
        matches!(kind, ErrorKind::InvalidTimestamp(m) if m.starts_with("out of range")),
        "{kind:?}"
    );
    assert_eq!(at, 1);
    let (kind, _) = ts(&format!("S{}", "1".repeat(50)), Syntax::Lenient).unwrap_err();
    assert!(
        matches!(kind, ErrorKind::InvalidTimestamp(m) if m.starts_with("out of range")),
        "{kind:?}"
    );
    let (kind, at) = ts("S1.0000", Syntax::Lenient).unwrap_err();
    assert_eq!(
        (kind, at),
        (
            ErrorKind::InvalidTimestamp("expected 3, 6 or 9 fraction digits"),
            3
        )
    );
    assert!(matches!(
        ts("S01", s).unwrap_err().0,
        ErrorKind::InvalidTimestamp(_)
    ));
}

#[test]
fn lenient_timestamps_allow_other_underscores_but_keep_fraction_lengths() {
    let l = Syntax::Lenient;
    for (htoo, jtoo) in [
        ("S1709528240", "S1_709_528_240"),
        ("S1_7_0_9528240", "S1_709_528_240"),
        ("S1709528240.000001", "S1_709_528_240.000_001"),
        ("S1.0_0_0", "S1.000"),
        ("S-1.5_00", "S-1.500"),
    ] {
        assert_eq!(ts(htoo, l).as_deref(), Ok(jtoo), "{htoo}");
    }
    for bad in [
        "S1.0000", "S1.00", "S1._000", "S1.000_", "S_1", "S1__0", "S-0", "S-0.000", "S01",
    ] {
        assert!(ts(bad, l).is_err(), "lenient accepted {bad}");
    }
}

#[test]
fn timestamp_constructors() {
    use TimestampPrecision::*;
    assert!(Timestamp::from_secs(Timestamp::MIN_SECS).is_ok());
    assert!(Timestamp::from_secs(Timestamp::MIN_SECS - 1).is_err());
    assert!(Timestamp::from_secs(Timestamp::MAX_SECS).is_ok());
    assert!(Timestamp::from_secs(Timestamp::MAX_SECS + 1).is_err());
    assert!(Timestamp::new(Timestamp::MAX_SECS, 999_999_999, Nanoseconds).is_ok());
    assert!(Timestamp::new(0, 1_000_000_000, Nanoseconds).is_err());
    assert!(Timestamp::new(0, 1_000, Milliseconds).is_err());
    assert!(Timestamp::new(0, 1_000, Microseconds).is_ok());
    assert!(Timestamp::new(0, 1, Seconds).is_err());
    assert_eq!(
        Timestamp::new(-2, 500_000_000, Milliseconds)
            .unwrap()
            .to_string(),
        "S-1.500"
    );
    assert_eq!(
        Timestamp::new(-1, 999_999_999, Nanoseconds)
            .unwrap()
            .to_string(),
        "S-0.000_000_001"
    );
}

// ---------------------------------------------------------------- in documents

#[test]
fn temporal_values_in_lists() {
    let v = jtoo::from_str("[D2023:5,T10Z:1,T10:20:30:2,[T10:20]]").unwrap();
    assert_eq!(
        jtoo::to_string(&v).unwrap(),
        "[D2023:5,T10Z:1,T10:20:30:2,[T10:20]]"
    );
    assert!(jtoo::from_str("[T10:2]").is_err());
    assert!(jtoo::from_str("[S-1.500,D2023-12~08]").is_ok());
}

#[test]
fn sizes() {
    use std::mem::{align_of, size_of};
    assert!(size_of::<Date>() <= 8);
    assert!(size_of::<Time>() <= 8);
    assert!(size_of::<Offset>() <= 2);
    assert!(size_of::<DateTime>() <= 24 && align_of::<DateTime>() <= 8);
    assert!(size_of::<Timestamp>() <= 16 && align_of::<Timestamp>() <= 8);
}

// ---------------------------------------------------------------- properties

fn any_date() -> impl Strategy<Value = Date> {
    prop_oneof![
        (1u16..=9999).prop_map(|y| Date::from_year(y).unwrap()),
        (1u16..=9999, 1u8..=12).prop_map(|(y, m)| Date::from_year_month(y, m).unwrap()),
        (1u16..=9999, 1u8..=12, 1u8..=31)
            .prop_filter_map("day in month", |(y, m, d)| Date::from_ymd(y, m, d).ok()),
        (1u16..=9999, 1u8..=53)
            .prop_filter_map("week in year", |(y, w)| Date::from_week(y, w).ok()),
        (1u16..=9999, 1u8..=53, 1u8..=7)
            .prop_filter_map("week day", |(y, w, d)| Date::from_week_day(y, w, d).ok()),
    ]
}

fn any_time() -> impl Strategy<Value = Time> {
    use TimePrecision::*;
    (
        0u8..=23,
        0u8..=59,
        0u8..=60,
        0u32..1_000_000_000,
        prop_oneof![
            Just(Hour),
            Just(Minute),
            Just(Second),
            Just(Millisecond),
            Just(Microsecond),
            Just(Nanosecond)
        ],
    )
        .prop_map(|(h, m, s, n, p)| {
            let (m, s, n) = match p {
                Hour => (0, 0, 0),
                Minute => (m, 0, 0),
                Second => (m, s, 0),
                Millisecond => (m, s, n / 1_000_000 * 1_000_000),
                Microsecond => (m, s, n / 1_000 * 1_000),
                Nanosecond => (m, s, n),
            };
            Time::new(h, m, s, n, p).unwrap()
        })
}

fn any_offset() -> impl Strategy<Value = Offset> {
    prop_oneof![
        Just(Offset::UTC),
        (-23i32..=23).prop_map(|h| Offset::from_minutes(h * 60).unwrap()),
        (-1439i32..=1439).prop_map(|m| Offset::from_minutes(m).unwrap()),
    ]
}

fn any_datetime() -> impl Strategy<Value = DateTime> {
    (
        proptest::option::of(any_date()),
        proptest::option::of(any_time()),
        proptest::option::of(any_offset()),
    )
        .prop_filter_map("valid combination", |(d, t, o)| DateTime::new(d, t, o).ok())
}

fn any_timestamp() -> impl Strategy<Value = Timestamp> {
    use TimestampPrecision::*;
    (
        Timestamp::MIN_SECS..=Timestamp::MAX_SECS,
        0u32..1_000_000_000,
        prop_oneof![
            Just(Seconds),
            Just(Milliseconds),
            Just(Microseconds),
            Just(Nanoseconds)
        ],
    )
        .prop_filter_map("in range", |(s, n, p)| {
            let n = match p {
                Seconds => 0,
                Milliseconds => n / 1_000_000 * 1_000_000,
                Microseconds => n / 1_000 * 1_000,
                Nanoseconds => n,
            };
            Timestamp::new(s, n, p).ok()
        })
}

proptest! {
    #[test]
    fn date_round_trips(d in any_date()) {
        prop_assert_eq!(d.to_string().parse::<Date>().unwrap(), d);
        prop_assert_eq!(DateTime::from(d).to_string(), d.to_string());
    }

    #[test]
    fn time_round_trips(t in any_time()) {
        prop_assert_eq!(t.to_string().parse::<Time>().unwrap(), t);
    }

    #[test]
    fn offset_round_trips(o in any_offset()) {
        prop_assert_eq!(o.to_string().parse::<Offset>().unwrap(), o);
    }

    #[test]
    fn datetime_round_trips(v in any_datetime()) {
        let s = v.to_string();
        prop_assert_eq!(s.parse::<DateTime>().unwrap(), v);
        // HTOO reads the canonical text to the same value.
        let (rest, w) = temporal::datetime(s.as_bytes(), Syntax::Lenient).unwrap();
        prop_assert!(rest.is_empty());
        prop_assert_eq!(w, v);
    }

    #[test]
    fn timestamp_round_trips(t in any_timestamp()) {
        let s = t.to_string();
        prop_assert_eq!(s.parse::<Timestamp>().unwrap(), t);
        let (rest, w) = timestamp::timestamp(s.as_bytes(), Syntax::Lenient).unwrap();
        prop_assert!(rest.is_empty());
        prop_assert_eq!(w, t);
    }

    #[test]
    fn week_day_and_calendar_agree(d in (1u16..=9999, 1u8..=12, 1u8..=31)
        .prop_filter_map("day", |(y, m, d)| Date::from_ymd(y, m, d).ok()))
    {
        let (y, w, wd) = d.to_week_day().unwrap();
        let back = Date::from_week_day(y, w, wd).unwrap();
        prop_assert_eq!(back.to_ymd(), d.to_ymd());
    }

    #[test]
    fn parsed_datetime_text_is_canonical(
        s in r"[DT][0-9]{2,4}((-|:)(W?[0-9]{1,2})){0,3}(\.[0-9]{3}(_[0-9]{3}){0,2})?(Z|[+~-][0-9]{2}([0-9]{2})?)?"
    ) {
        if let Ok(v) = s.parse::<DateTime>() {
            prop_assert_eq!(v.to_string(), s);
        }
    }

    #[test]
    fn parsed_full_datetime_text_is_canonical(
        s in r"D[0-9]{4}-(W[0-9]{2}-[0-9]|[0-9]{2}-[0-9]{2})T[0-9]{2}(:[0-9]{2}(:[0-9]{2}(\.[0-9]{3}(_[0-9]{3}){0,2})?)?)?(Z|[+~][0-9]{2}([0-9]{2})?)?"
    ) {
        if let Ok(v) = s.parse::<DateTime>() {
            prop_assert_eq!(v.to_string(), s);
        }
    }

    #[test]
    fn parsed_offset_text_is_canonical(s in r"Z|[+~-][0-9]{2}([0-9]{2})?") {
        if let Ok(o) = s.parse::<Offset>() {
            prop_assert_eq!(o.to_string(), s);
        }
    }

    #[test]
    fn parsed_timestamp_text_is_canonical(
        s in r"S-?[0-9]{1,3}(_[0-9]{3}){0,4}(\.[0-9]{3}(_[0-9]{3}){0,2})?"
    ) {
        if let Ok(t) = s.parse::<Timestamp>() {
            prop_assert_eq!(t.to_string(), s);
        }
    }

    #[test]
    fn lenient_datetime_normalises_to_a_strict_spelling(
        s in r"T[0-9]{2}(:[0-9]{2})?([+~-][0-9]{2}([0-9]{2})?)?"
    ) {
        if let Ok((rest, v)) = temporal::datetime(s.as_bytes(), Syntax::Lenient)
            && rest.is_empty() {
                let canonical = v.to_string();
                prop_assert_eq!(canonical.parse::<DateTime>().unwrap(), v);
            }
    }
}

// ---------------------------------------------------------------- chrono

#[cfg(feature = "chrono")]
mod chrono_conversions {
    use super::*;
    use chrono::{Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc};

    #[test]
    fn naive_date() {
        let n = NaiveDate::from_ymd_opt(2024, 2, 29).unwrap();
        let d = Date::try_from(n).unwrap();
        assert_eq!(d.to_string(), "D2024-02-29");
        assert_eq!(NaiveDate::try_from(d).unwrap(), n);
        // A week day converts to its calendar day.
        let w: Date = "D2020-W53-7".parse().unwrap();
        assert_eq!(
            NaiveDate::try_from(w).unwrap(),
            NaiveDate::from_ymd_opt(2021, 1, 3).unwrap()
        );
        // Partial dates and out-of-range years fail.
        assert!(NaiveDate::try_from(Date::from_year_month(2023, 1).unwrap()).is_err());
        assert!(NaiveDate::try_from(Date::from_week(2023, 1).unwrap()).is_err());
        assert!(Date::try_from(NaiveDate::from_ymd_opt(0, 1, 1).unwrap()).is_err());
        assert!(Date::try_from(NaiveDate::from_ymd_opt(10_000, 1, 1).unwrap()).is_err());
        assert!(Date::try_from(NaiveDate::from_ymd_opt(-5, 1, 1).unwrap()).is_err());
        // As a DateTime.
        let v = DateTime::try_from(n).unwrap();
        assert_eq!(v.to_string(), "D2024-02-29");
        assert_eq!(NaiveDate::try_from(v).unwrap(), n);
        assert!(NaiveDate::try_from("D2024-02-29Z".parse::<DateTime>().unwrap()).is_err());
        assert!(NaiveDate::try_from("T10".parse::<DateTime>().unwrap()).is_err());
    }

    #[test]
    fn iso_week() {
        let w = NaiveDate::from_ymd_opt(2021, 1, 3).unwrap().iso_week();
        let d = Date::try_from(w).unwrap();
        assert_eq!(d.to_string(), "D2020-W53");
        assert_eq!(chrono::IsoWeek::try_from(d).unwrap(), w);
        let wd: Date = "D2020-W53-7".parse().unwrap();
        assert_eq!(chrono::IsoWeek::try_from(wd).unwrap(), w);
        assert!(chrono::IsoWeek::try_from(Date::from_year(2020).unwrap()).is_err());
    }

    #[test]
    fn naive_time_natural_precision() {
        let cases = [
            (NaiveTime::from_hms_opt(10, 20, 30).unwrap(), "T10:20:30"),
            (
                NaiveTime::from_hms_milli_opt(10, 20, 30, 400).unwrap(),
                "T10:20:30.400",
            ),
            (
                NaiveTime::from_hms_micro_opt(10, 20, 30, 400_500).unwrap(),
                "T10:20:30.400_500",
            ),
            (
                NaiveTime::from_hms_nano_opt(10, 20, 30, 400_500_600).unwrap(),
                "T10:20:30.400_500_600",
            ),
            // chrono's leap second is second 60.
            (
                NaiveTime::from_hms_milli_opt(23, 59, 59, 1_500).unwrap(),
                "T23:59:60.500",
            ),
            (
                NaiveTime::from_hms_nano_opt(23, 59, 59, 1_000_000_000).unwrap(),
                "T23:59:60",
            ),
        ];
        for (n, s) in cases {
            let t = Time::from(n);
            assert_eq!(t.to_string(), s);
            assert_eq!(NaiveTime::from(t), n, "{s}");
        }
        // Coarse precisions convert to their start.
        assert_eq!(
            NaiveTime::from(Time::from_hour(10).unwrap()),
            NaiveTime::from_hms_opt(10, 0, 0).unwrap()
        );
        assert_eq!(
            NaiveTime::from(Time::from_hm(10, 20).unwrap()),
            NaiveTime::from_hms_opt(10, 20, 0).unwrap()
        );
    }

    #[test]
    fn naive_datetime() {
        let n = NaiveDate::from_ymd_opt(2023, 12, 30)
            .unwrap()
            .and_hms_milli_opt(1, 2, 3, 4)
            .unwrap();
        let v = DateTime::try_from(n).unwrap();
        assert_eq!(v.to_string(), "D2023-12-30T01:02:03.004");
        assert_eq!(NaiveDateTime::try_from(v).unwrap(), n);
        let wd: DateTime = "D2023-W01-1T10".parse().unwrap();
        assert_eq!(
            NaiveDateTime::try_from(wd).unwrap(),
            NaiveDate::from_ymd_opt(2023, 1, 2)
                .unwrap()
                .and_hms_opt(10, 0, 0)
                .unwrap()
        );
        for s in ["D2023-12-30", "T10", "D2023-12-30T10Z", "D2023"] {
            assert!(
                NaiveDateTime::try_from(s.parse::<DateTime>().unwrap()).is_err(),
                "{s}"
            );
        }
    }

    #[test]
    fn fixed_offset_datetime() {
        let tz = FixedOffset::west_opt(8 * 3600).unwrap();
        let c = tz.with_ymd_and_hms(2023, 12, 30, 1, 2, 3).unwrap();
        let v = DateTime::try_from(c).unwrap();
        assert_eq!(v.to_string(), "D2023-12-30T01:02:03~08");
        assert_eq!(chrono::DateTime::<FixedOffset>::try_from(v).unwrap(), c);
        // A zero offset is Z.
        let z = FixedOffset::east_opt(0)
            .unwrap()
            .with_ymd_and_hms(2023, 1, 1, 0, 0, 0)
            .unwrap();
        assert_eq!(
            DateTime::try_from(z).unwrap().to_string(),
            "D2023-01-01T00:00:00Z"
        );
        // Offsets with seconds have no JTOO form.
        let odd = FixedOffset::east_opt(3601)
            .unwrap()
            .with_ymd_and_hms(2023, 1, 1, 0, 0, 0)
            .unwrap();
        assert!(matches!(
            DateTime::try_from(odd).unwrap_err().kind(),
            ErrorKind::InvalidOffset(_)
        ));
        // Without an offset or a time, no chrono::DateTime.
        for s in ["D2023-12-30T01:02:03", "D2023-12-30Z", "T10Z"] {
            assert!(
                chrono::DateTime::<FixedOffset>::try_from(s.parse::<DateTime>().unwrap()).is_err(),
                "{s}"
            );
        }
    }

    #[test]
    fn utc_datetime_and_timestamp() {
        let c = Utc.with_ymd_and_hms(2024, 3, 4, 5, 57, 20).unwrap();
        let v = DateTime::try_from(c).unwrap();
        assert_eq!(v.to_string(), "D2024-03-04T05:57:20Z");
        assert_eq!(chrono::DateTime::<Utc>::try_from(v).unwrap(), c);
        // Any offset converts to the same instant.
        let east: DateTime = "D2024-03-04T06:57:20+01".parse().unwrap();
        assert_eq!(chrono::DateTime::<Utc>::try_from(east).unwrap(), c);

        let t = Timestamp::try_from(c).unwrap();
        assert_eq!(t.to_string(), "S1_709_531_840");
        assert_eq!(chrono::DateTime::<Utc>::from(t), c);
        let t: Timestamp = "S-1.500".parse().unwrap();
        let c = chrono::DateTime::<Utc>::from(t);
        assert_eq!(
            (c.timestamp(), c.timestamp_subsec_nanos()),
            (-2, 500_000_000)
        );
        assert_eq!(Timestamp::try_from(c).unwrap(), t);
        // Range edges.
        let min = Utc.with_ymd_and_hms(1, 1, 1, 0, 0, 0).unwrap();
        assert_eq!(
            Timestamp::try_from(min).unwrap().secs(),
            Timestamp::MIN_SECS
        );
        let max = Utc.with_ymd_and_hms(9999, 12, 31, 23, 59, 59).unwrap();
        assert_eq!(
            Timestamp::try_from(max).unwrap().secs(),
            Timestamp::MAX_SECS
        );
        let before = Utc.with_ymd_and_hms(0, 12, 31, 23, 59, 59).unwrap();
        assert!(Timestamp::try_from(before).is_err());
        assert!(DateTime::try_from(before).is_err());
        let after = Utc.with_ymd_and_hms(10_000, 1, 1, 0, 0, 0).unwrap();
        assert!(Timestamp::try_from(after).is_err());
    }

    proptest! {
        #[test]
        fn chrono_date_round_trips(days in -719_162i64..=2_932_896) {
            let n = NaiveDate::from_num_days_from_ce_opt((days + 719_163) as i32).unwrap();
            prop_assert_eq!(n.year() >= 1 && n.year() <= 9999, true);
            let d = Date::try_from(n).unwrap();
            prop_assert_eq!(NaiveDate::try_from(d).unwrap(), n);
            let (y, w, wd) = d.to_week_day().unwrap();
            let iso = n.iso_week();
            prop_assert_eq!((i32::from(y), u32::from(w)), (iso.year(), iso.week()));
            prop_assert_eq!(u32::from(wd), n.weekday().number_from_monday());
        }

        #[test]
        fn chrono_timestamp_round_trips(t in any_timestamp()) {
            let c = chrono::DateTime::<Utc>::from(t);
            prop_assert_eq!(c.timestamp(), t.secs());
            prop_assert_eq!(c.timestamp_subsec_nanos(), t.subsec_nanos());
            let back = Timestamp::try_from(c).unwrap();
            prop_assert_eq!(back.as_nanos(), t.as_nanos());
        }

        #[test]
        fn chrono_time_round_trips(t in any_time()) {
            let n = NaiveTime::from(t);
            let back = Time::from(n);
            prop_assert_eq!(NaiveTime::from(back), n);
            if t.precision() >= TimePrecision::Second {
                prop_assert_eq!((back.hour(), back.minute(), back.second(), back.nanosecond()),
                    (t.hour(), t.minute(), t.second(), t.nanosecond()));
            }
        }

        #[test]
        fn week_53_matches_chrono(y in 1u16..=9999) {
            let dec28 = NaiveDate::from_ymd_opt(i32::from(y), 12, 28).unwrap();
            prop_assert_eq!(u32::from(Date::weeks_in_year(y)), dec28.iso_week().week());
        }
    }
}
