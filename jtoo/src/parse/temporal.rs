//! Dates, times and offsets:
//!
//! ```text
//! datetime = date [ time ] [ offset ] / time [ offset ]   ; a time follows only a full day or week day
//! date     = "D" yyyy [ "-" mm [ "-" dd ] ] / "D" yyyy "-W" ww [ "-" d ]
//! time     = "T" hh [ ":" mi [ ":" ss [ "." fff [ "_" uuu [ "_" nnn ] ] ] ] ]
//! offset   = "Z" / ( "+" / "~" ) hh [ mi ]
//! ```
//!
//! Dates and times keep this digit layout in HTOO too. HTOO relaxes only the
//! offset: a `00` minute part (`+0500`), zero offsets `+00`, `-00`, `~00`,
//! `+0000` (read as `Z`), and `-` as the minus sign after a time or after a
//! full day or week day (`T10-0800`, `D2023-12-30-08`). After `D2023` a `-`
//! always starts a month and after `D2023-12` a day, in both grammars.
//!
//! Longest match: a `:` after an hour or a minute always continues the time,
//! so `T10:2` is an error, never the time `T10` followed by `:2`.
//!
//! ```
//! use jtoo::parse::{temporal::datetime, Syntax};
//! let (rest, dt) = datetime(b"D2023-12-30T01:02~08,", Syntax::Strict).unwrap();
//! assert_eq!(rest, b",");
//! assert_eq!(dt.to_string(), "D2023-12-30T01:02~08");
//! let (_, dt) = datetime(b"T10:20-0800", Syntax::Lenient).unwrap();
//! assert_eq!(dt.to_string(), "T10:20~08");
//! ```

use crate::error::ErrorKind;
use crate::parse::{PResult, Syntax, fail, fixed_digits};
use crate::types::{Date, DateTime, Offset, OffsetSign, Time, TimePrecision};

/// A date, a time, or both, each optionally followed by an offset. `input`
/// starts with `D` or `T`.
///
/// # Errors
///
/// A committed failure, positioned at the offending byte, when the text
/// after `D` or `T` is not a valid date/time ([`ErrorKind::InvalidDate`],
/// [`ErrorKind::InvalidTime`], [`ErrorKind::InvalidOffset`]).
pub fn datetime(input: &[u8], syntax: Syntax) -> PResult<'_, DateTime> {
    match input.first() {
        Some(b'D') => {
            let (rest, d) = date(input, syntax)?;
            let (rest, t) = match rest.first() {
                Some(b'T') if d.is_full_day() => {
                    let (rest, t) = time(rest, syntax)?;
                    (rest, Some(t))
                }
                Some(b'T') => {
                    return fail(
                        rest,
                        ErrorKind::InvalidTime(
                            "a time may only follow a full date (year-month-day or week day)",
                        ),
                    );
                }
                _ => (rest, None),
            };
            let (rest, o) = opt_offset(rest, syntax)?;
            Ok((rest, DateTime::from_parts(Some(d), t, o)))
        }
        Some(b'T') => {
            let (rest, t) = time(input, syntax)?;
            let (rest, o) = opt_offset(rest, syntax)?;
            Ok((rest, DateTime::from_parts(None, Some(t), o)))
        }
        Some(_) => fail(input, ErrorKind::ExpectedValue),
        None => fail(input, ErrorKind::UnexpectedEnd),
    }
}

/// An offset if one starts here. A `-` only reaches this point after a full
/// day or a time (a date consumes every other `-`), which is exactly where
/// HTOO accepts it as a minus sign.
#[inline]
fn opt_offset(input: &[u8], syntax: Syntax) -> PResult<'_, Option<Offset>> {
    match input.first() {
        Some(b'Z' | b'+' | b'~' | b'-') => {
            let (rest, o) = offset(input, syntax)?;
            Ok((rest, Some(o)))
        }
        _ => Ok((input, None)),
    }
}

/// A date without time or offset: `D2023`, `D2023-01`, `D2023-01-31`,
/// `D2023-W01`, `D2023-W01-1`. `input` starts with `D`.
///
/// # Errors
///
/// [`ErrorKind::InvalidDate`] at the offending byte: a missing or extra
/// digit, year `0000`, month 00 or 13+, a day that does not exist in that
/// month, week 00, week 53 in a year that has 52, a week day outside 1–7.
pub fn date(input: &[u8], _syntax: Syntax) -> PResult<'_, Date> {
    let Some((&b'D', p)) = input.split_first() else {
        return fail(input, ErrorKind::InvalidDate("expected `D`"));
    };
    let Some(year) = fixed_digits::<4>(p) else {
        return fail(
            first_non_digit(p, 4),
            ErrorKind::InvalidDate("expected four digits for the year"),
        );
    };
    let rest = &p[4..];
    if starts_with_digit(rest) {
        return fail(
            rest,
            ErrorKind::InvalidDate("expected four digits for the year"),
        );
    }
    if year == 0 {
        return fail(
            p,
            ErrorKind::InvalidDate("expected a year from 0001 to 9999"),
        );
    }
    let year = year as u16;
    let Some((&b'-', q)) = rest.split_first() else {
        return built(
            Date::from_year(year),
            p,
            rest,
            "expected a year from 0001 to 9999",
        );
    };
    if let Some((&b'W', w)) = q.split_first() {
        let (rest, week) = two_digits(
            w,
            1,
            53,
            ErrorKind::InvalidDate("expected two digits for the week"),
            ErrorKind::InvalidDate("expected a week from 01 to 53"),
        )?;
        if week > Date::weeks_in_year(year) {
            return fail(
                w,
                ErrorKind::InvalidDate(
                    "expected a week from 01 to 52: this ISO year has no week 53",
                ),
            );
        }
        let Some((&b'-', d)) = rest.split_first() else {
            return built(
                Date::from_week(year, week),
                w,
                rest,
                "expected a valid week",
            );
        };
        let day = match d.first() {
            Some(&c @ b'1'..=b'7') => c - b'0',
            _ => return fail(d, ErrorKind::InvalidDate("expected a week day from 1 to 7")),
        };
        let rest = &d[1..];
        if starts_with_digit(rest) {
            return fail(
                rest,
                ErrorKind::InvalidDate("expected one digit for the week day"),
            );
        }
        return built(
            Date::from_week_day(year, week, day),
            d,
            rest,
            "expected a week day on or before 9999-12-31",
        );
    }
    let (rest, month) = two_digits(
        q,
        1,
        12,
        ErrorKind::InvalidDate("expected two digits for the month"),
        ErrorKind::InvalidDate("expected a month from 01 to 12"),
    )?;
    let Some((&b'-', d)) = rest.split_first() else {
        return built(
            Date::from_year_month(year, month),
            q,
            rest,
            "expected a valid month",
        );
    };
    let (rest, day) = two_digits(
        d,
        1,
        31,
        ErrorKind::InvalidDate("expected two digits for the day"),
        ErrorKind::InvalidDate("expected a day that exists in that month"),
    )?;
    built(
        Date::from_ymd(year, month, day),
        d,
        rest,
        "expected a day that exists in that month",
    )
}

/// Turns a constructor's result into a production result, failing at `at`.
#[inline]
fn built<'a, T>(
    r: Result<T, crate::Error>,
    at: &'a [u8],
    rest: &'a [u8],
    why: &'static str,
) -> PResult<'a, T> {
    match r {
        Ok(v) => Ok((rest, v)),
        Err(_) => fail(at, ErrorKind::InvalidDate(why)),
    }
}

/// A time without offset: `T10`, `T10:20`, `T10:20:30`, `T10:20:30.400`,
/// `T10:20:30.400_500`, `T10:20:30.400_500_600`. `input` starts with `T`.
///
/// # Errors
///
/// [`ErrorKind::InvalidTime`] at the offending byte: a missing or extra
/// digit, a component out of range (hour 00–23, minute 00–59, second
/// 00–60), a fraction that is not 3, 6 or 9 digits in groups of three.
pub fn time(input: &[u8], _syntax: Syntax) -> PResult<'_, Time> {
    let Some((&b'T', p)) = input.split_first() else {
        return fail(input, ErrorKind::InvalidTime("expected `T`"));
    };
    let (rest, hour) = two_digits(
        p,
        0,
        23,
        ErrorKind::InvalidTime("expected two digits for the hour"),
        ErrorKind::InvalidTime("expected an hour from 00 to 23"),
    )?;
    let Some((&b':', p)) = rest.split_first() else {
        no_fraction_yet(rest)?;
        return Ok((
            rest,
            Time::from_checked_parts(hour, 0, 0, 0, TimePrecision::Hour),
        ));
    };
    let (rest, minute) = two_digits(
        p,
        0,
        59,
        ErrorKind::InvalidTime("expected two digits for the minute"),
        ErrorKind::InvalidTime("expected a minute from 00 to 59"),
    )?;
    let Some((&b':', p)) = rest.split_first() else {
        no_fraction_yet(rest)?;
        return Ok((
            rest,
            Time::from_checked_parts(hour, minute, 0, 0, TimePrecision::Minute),
        ));
    };
    let (rest, second) = two_digits(
        p,
        0,
        60,
        ErrorKind::InvalidTime("expected two digits for the second"),
        ErrorKind::InvalidTime("expected a second from 00 to 60"),
    )?;
    let Some((&b'.', p)) = rest.split_first() else {
        return Ok((
            rest,
            Time::from_checked_parts(hour, minute, second, 0, TimePrecision::Second),
        ));
    };
    let (rest, (nanos, precision)) = fraction(p)?;
    Ok((
        rest,
        Time::from_checked_parts(hour, minute, second, nanos, precision),
    ))
}

/// Fails on a `.` after an hour or a minute: only seconds have a fraction.
#[inline]
fn no_fraction_yet(rest: &[u8]) -> PResult<'_, ()> {
    if rest.first() == Some(&b'.') {
        return fail(
            rest,
            ErrorKind::InvalidTime("expected `:` and seconds before a fraction"),
        );
    }
    Ok((rest, ()))
}

/// `fff[_uuu[_nnn]]` after the `.` of a time.
fn fraction(input: &[u8]) -> PResult<'_, (u32, TimePrecision)> {
    const GROUPS: [(&str, u32, TimePrecision); 3] = [
        (
            "expected three digits for the milliseconds",
            1_000_000,
            TimePrecision::Millisecond,
        ),
        (
            "expected three digits for the microseconds",
            1_000,
            TimePrecision::Microsecond,
        ),
        (
            "expected three digits for the nanoseconds",
            1,
            TimePrecision::Nanosecond,
        ),
    ];
    let mut nanos = 0;
    let mut precision = TimePrecision::Second;
    let mut p = input;
    for (i, &(why, unit, prec)) in GROUPS.iter().enumerate() {
        if i > 0 {
            match p.split_first() {
                Some((&b'_', q)) => p = q,
                _ => break,
            }
        }
        let Some(g) = fixed_digits::<3>(p) else {
            return fail(first_non_digit(p, 3), ErrorKind::InvalidTime(why));
        };
        nanos += g * unit;
        precision = prec;
        p = &p[3..];
        if starts_with_digit(p) {
            return fail(
                p,
                ErrorKind::InvalidTime(
                    "expected 3, 6 or 9 fraction digits in groups of three (`.400_500`)",
                ),
            );
        }
    }
    if p.first() == Some(&b'_') {
        return fail(
            p,
            ErrorKind::InvalidTime("expected at most nine fraction digits"),
        );
    }
    Ok((p, (nanos, precision)))
}

/// An offset: `Z`, `+hh`, `~hh`, `+hhmm`, `~hhmm` (HTOO also `-` for `~`,
/// `00` minutes and zero offsets other than `Z`).
///
/// # Errors
///
/// [`ErrorKind::InvalidOffset`] at the offending byte: a missing or extra
/// digit, hours over 23, minutes over 59; in strict JTOO also `-`, a `00`
/// minute part and a zero offset not written `Z`.
///
/// ```
/// use jtoo::parse::{temporal::offset, Syntax};
/// assert_eq!(offset(b"+0530", Syntax::Strict).unwrap().1.minutes(), 330);
/// assert!(offset(b"+0500", Syntax::Strict).is_err());
/// assert_eq!(offset(b"-0500", Syntax::Lenient).unwrap().1.minutes(), -300);
/// assert!(offset(b"~00", Syntax::Lenient).unwrap().1.is_utc());
/// ```
pub fn offset(input: &[u8], syntax: Syntax) -> PResult<'_, Offset> {
    let (sign, p) = match input.split_first() {
        Some((&b'Z', rest)) => return Ok((rest, Offset::UTC)),
        Some((&b'+', p)) => (OffsetSign::Plus, p),
        Some((&b'~', p)) => (OffsetSign::Minus, p),
        Some((&b'-', p)) if syntax.is_lenient() => (OffsetSign::Minus, p),
        Some((&b'-', _)) => {
            return fail(
                input,
                ErrorKind::InvalidOffset(
                    "expected `~` as the minus sign of an offset (`-` is HTOO only)",
                ),
            );
        }
        _ => return fail(input, ErrorKind::InvalidOffset("expected `Z`, `+` or `~`")),
    };
    let Some(hours) = fixed_digits::<2>(p) else {
        return fail(
            first_non_digit(p, 2),
            ErrorKind::InvalidOffset("expected two digits for the offset hours"),
        );
    };
    if hours > 23 {
        return fail(
            p,
            ErrorKind::InvalidOffset("expected offset hours from 00 to 23"),
        );
    }
    let mut rest = &p[2..];
    let mut minutes = 0;
    if starts_with_digit(rest) {
        let Some(m) = fixed_digits::<2>(rest) else {
            return fail(
                first_non_digit(rest, 2),
                ErrorKind::InvalidOffset("expected two digits for the offset minutes"),
            );
        };
        if m > 59 {
            return fail(
                rest,
                ErrorKind::InvalidOffset("expected offset minutes from 00 to 59"),
            );
        }
        let after = &rest[2..];
        if starts_with_digit(after) {
            return fail(
                after,
                ErrorKind::InvalidOffset("expected at most four digits in an offset"),
            );
        }
        if m == 0 && hours != 0 && !syntax.is_lenient() {
            return fail(
                rest,
                ErrorKind::InvalidOffset(
                    "expected no minutes in a whole-hour offset (`+08`, not `+0800`)",
                ),
            );
        }
        minutes = m;
        rest = after;
    }
    if hours == 0 && minutes == 0 && !syntax.is_lenient() {
        return fail(
            input,
            ErrorKind::InvalidOffset("expected `Z` for a zero offset"),
        );
    }
    match Offset::from_hm(sign, hours as u8, minutes as u8) {
        Ok(o) => Ok((rest, o)),
        Err(_) => fail(
            input,
            ErrorKind::InvalidOffset("expected an offset within 23:59 of UTC"),
        ),
    }
}

/// Exactly two digits in `lo..=hi`, not followed by another digit.
#[inline]
fn two_digits(
    input: &[u8],
    lo: u32,
    hi: u32,
    digits: ErrorKind,
    range: ErrorKind,
) -> PResult<'_, u8> {
    let Some(v) = fixed_digits::<2>(input) else {
        return fail(first_non_digit(input, 2), digits);
    };
    let rest = &input[2..];
    if starts_with_digit(rest) {
        return fail(rest, digits);
    }
    if v < lo || v > hi {
        return fail(input, range);
    }
    Ok((rest, v as u8))
}

#[inline]
fn starts_with_digit(input: &[u8]) -> bool {
    input.first().is_some_and(u8::is_ascii_digit)
}

/// `input` from its first byte among the first `n` that is not an ASCII
/// digit (the end of input when it is shorter).
fn first_non_digit(input: &[u8], n: usize) -> &[u8] {
    let i = input
        .iter()
        .take(n)
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(input.len().min(n));
    &input[i..]
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests {
    use super::*;

    fn ok(s: &str, syntax: Syntax) -> String {
        match datetime(s.as_bytes(), syntax) {
            Ok((rest, v)) => {
                assert!(rest.is_empty(), "{s}: left {rest:?}");
                v.to_string()
            }
            Err(e) => panic!("{s}: {e:?}"),
        }
    }

    /// (kind, offset of the error) for a rejected input.
    fn err(s: &str, syntax: Syntax) -> (ErrorKind, usize) {
        match datetime(s.as_bytes(), syntax) {
            Ok((rest, v)) => panic!("{s}: accepted as {v} leaving {rest:?}"),
            Err(e) => {
                let e = crate::parse::unwrap_nom_err(e, s.as_bytes());
                (e.kind, e.offset(s.as_bytes()))
            }
        }
    }

    #[test]
    fn error_positions_point_at_the_offending_byte() {
        use ErrorKind::*;
        let s = Syntax::Strict;
        assert_eq!(
            err("T10:2", s),
            (InvalidTime("expected two digits for the minute"), 5)
        );
        assert_eq!(
            err("T101", s),
            (InvalidTime("expected two digits for the hour"), 3)
        );
        assert_eq!(
            err("T24", s),
            (InvalidTime("expected an hour from 00 to 23"), 1)
        );
        assert_eq!(
            err("D0000", s),
            (InvalidDate("expected a year from 0001 to 9999"), 1)
        );
        assert_eq!(
            err("D2023-02-30", s),
            (InvalidDate("expected a day that exists in that month"), 9)
        );
        assert_eq!(
            err("T10:20:30.4000", s),
            (
                InvalidTime("expected 3, 6 or 9 fraction digits in groups of three (`.400_500`)"),
                13
            )
        );
        assert_eq!(
            err("T10+0800", s),
            (
                InvalidOffset("expected no minutes in a whole-hour offset (`+08`, not `+0800`)"),
                6
            )
        );
        assert_eq!(
            err("T10+00", s),
            (InvalidOffset("expected `Z` for a zero offset"), 3)
        );
    }

    #[test]
    fn lenient_minus_only_after_full_days_and_times() {
        let l = Syntax::Lenient;
        assert_eq!(ok("D2023-12-30-08", l), "D2023-12-30~08");
        assert_eq!(ok("D2023-W01-1-0530", l), "D2023-W01-1~0530");
        assert_eq!(ok("D2023-12-08", l), "D2023-12-08");
        assert_eq!(ok("T10-00", l), "T10Z");
        assert!(matches!(
            err("D2023-W01-08", l).0,
            ErrorKind::InvalidDate(_)
        ));
    }
}
