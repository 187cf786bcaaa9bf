//! [`Arbitrary`] for the value model (feature `arbitrary`), for fuzzing.
//!
//! Every generated value is valid: scalars are drawn within their documented
//! ranges and built with the validating constructors; a pair key that would
//! be ambiguous before `:` (a time of hour or minute precision without an
//! offset) gets the offset `Z`; lists nest at most [`MAX_DEPTH`] deep, well
//! under the parser's default limit, so `encode → parse` always round-trips.
//!
//! ```ignore
//! let mut u = arbitrary::Unstructured::new(&data);
//! let v: jtoo::Value = u.arbitrary()?;
//! assert_eq!(jtoo::from_slice(&jtoo::to_vec(&v)?)?, v);
//! ```

use arbitrary::{Arbitrary, Error as ArbError, Result as ArbResult, Unstructured};

use crate::{
    Date, DateTime, Decimal, Integer, Item, Offset, Pair, Time, TimePrecision, Timestamp,
    TimestampPrecision, Value,
};

/// How deeply generated lists nest (the parser's default limit is 128).
const MAX_DEPTH: usize = 24;

/// A constructor refused what we built: the generator has a bug, or the
/// drawn bytes could not be used. Either way, this input is skipped.
fn refused<T>(_: crate::Error) -> ArbResult<T> {
    Err(ArbError::IncorrectFormat)
}

impl<'a> Arbitrary<'a> for Integer {
    fn arbitrary(u: &mut Unstructured<'a>) -> ArbResult<Integer> {
        let negative = bool::arbitrary(u)?;
        // Mostly small numbers (the common case), sometimes all of u128.
        let magnitude = match u8::arbitrary(u)? % 4 {
            0 => u128::from(u8::arbitrary(u)?),
            1 => u128::from(u32::arbitrary(u)?),
            2 => u128::from(u64::arbitrary(u)?),
            _ => u128::arbitrary(u)?,
        };
        Ok(Integer::new(negative, magnitude))
    }
}

impl<'a> Arbitrary<'a> for Decimal {
    fn arbitrary(u: &mut Unstructured<'a>) -> ArbResult<Decimal> {
        let negative = bool::arbitrary(u)?;
        let coefficient = match u8::arbitrary(u)? % 3 {
            0 => u128::from(u16::arbitrary(u)?),
            1 => u128::from(u64::arbitrary(u)?),
            _ => u128::arbitrary(u)?,
        };
        // Mostly everyday exponents, then every exponent an f64 has, now and
        // then a thousand. Not the type's edges (±65 535, whose text runs to
        // 90 KB): when any exponent of the type was as likely as the next,
        // value_roundtrip spent most of its time writing and reading zeros
        // (~500 executions/s), and a fuzzer finds any byte pattern that
        // picks them. `decimal_edges_round_trip` in tests/strict.rs holds
        // the edges.
        let exponent: i64 = match u8::arbitrary(u)? {
            0..=239 => u.int_in_range(-40..=40)?,
            240..=254 => u.int_in_range(-400..=400)?,
            255 => u.int_in_range(-1000..=1000)?,
        };
        match Decimal::from_scientific(negative, coefficient, exponent) {
            Ok(d) => Ok(d),
            // Out of range once the coefficient's trailing zeros moved into
            // the exponent: fall back to the coefficient alone.
            Err(_) => Decimal::new(negative, coefficient, 0).or_else(refused),
        }
    }
}

impl<'a> Arbitrary<'a> for Date {
    fn arbitrary(u: &mut Unstructured<'a>) -> ArbResult<Date> {
        let year = u.int_in_range(1..=9999)?;
        let date = match u8::arbitrary(u)? % 5 {
            0 => Date::from_year(year),
            1 => Date::from_year_month(year, u.int_in_range(1..=12)?),
            2 => {
                let month = u.int_in_range(1..=12)?;
                Date::from_ymd(year, month, u.int_in_range(1..=days_in_month(year, month))?)
            }
            3 => Date::from_week(year, u.int_in_range(1..=Date::weeks_in_year(year))?),
            _ => Date::from_week_day(
                year,
                u.int_in_range(1..=Date::weeks_in_year(year))?,
                u.int_in_range(1..=7)?,
            ),
        };
        date.or_else(refused)
    }
}

fn days_in_month(year: u16, month: u8) -> u8 {
    match month {
        2 if Date::is_leap_year(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl<'a> Arbitrary<'a> for Time {
    fn arbitrary(u: &mut Unstructured<'a>) -> ArbResult<Time> {
        let hour = u.int_in_range(0..=23)?;
        let precision = match u8::arbitrary(u)? % 6 {
            0 => TimePrecision::Hour,
            1 => TimePrecision::Minute,
            2 => TimePrecision::Second,
            3 => TimePrecision::Millisecond,
            4 => TimePrecision::Microsecond,
            _ => TimePrecision::Nanosecond,
        };
        let (minute, second, nanos) = match precision {
            TimePrecision::Hour => (0, 0, 0),
            TimePrecision::Minute => (u.int_in_range(0..=59)?, 0, 0),
            p => {
                let unit = match p {
                    TimePrecision::Millisecond => 1_000_000,
                    TimePrecision::Microsecond => 1_000,
                    TimePrecision::Nanosecond => 1,
                    _ => 1_000_000_000,
                };
                let nanos = u.int_in_range(0..=(999_999_999 / unit))? * unit;
                (u.int_in_range(0..=59)?, u.int_in_range(0..=60)?, nanos)
            }
        };
        Time::new(hour, minute, second, nanos, precision).or_else(refused)
    }
}

impl<'a> Arbitrary<'a> for Offset {
    fn arbitrary(u: &mut Unstructured<'a>) -> ArbResult<Offset> {
        let minutes = if bool::arbitrary(u)? {
            0
        } else {
            u.int_in_range(-Offset::MAX_MINUTES..=Offset::MAX_MINUTES)?
        };
        Offset::from_minutes(minutes).or_else(refused)
    }
}

impl<'a> Arbitrary<'a> for DateTime {
    fn arbitrary(u: &mut Unstructured<'a>) -> ArbResult<DateTime> {
        let offset = Option::<Offset>::arbitrary(u)?;
        let (date, time) = match u8::arbitrary(u)? % 3 {
            0 => (Some(Date::arbitrary(u)?), None),
            1 => (None, Some(Time::arbitrary(u)?)),
            _ => {
                // A time needs a full-day date before it.
                let mut date = Date::arbitrary(u)?;
                if !date.is_full_day() {
                    date = Date::from_ymd(date.year(), 1, 1).or_else(refused)?;
                }
                (Some(date), Some(Time::arbitrary(u)?))
            }
        };
        DateTime::new(date, time, offset).or_else(refused)
    }
}

impl<'a> Arbitrary<'a> for Timestamp {
    fn arbitrary(u: &mut Unstructured<'a>) -> ArbResult<Timestamp> {
        let secs = u.int_in_range(Timestamp::MIN_SECS..=Timestamp::MAX_SECS)?;
        let (precision, unit) = match u8::arbitrary(u)? % 4 {
            0 => (TimestampPrecision::Seconds, 1_000_000_000),
            1 => (TimestampPrecision::Milliseconds, 1_000_000),
            2 => (TimestampPrecision::Microseconds, 1_000),
            _ => (TimestampPrecision::Nanoseconds, 1),
        };
        let nanos = if unit == 1_000_000_000 {
            0
        } else {
            u.int_in_range(0..=(999_999_999 / unit))? * unit
        };
        Timestamp::new(secs, nanos, precision).or_else(refused)
    }
}

impl<'a> Arbitrary<'a> for Value {
    fn arbitrary(u: &mut Unstructured<'a>) -> ArbResult<Value> {
        value(u, 0)
    }
}

impl<'a> Arbitrary<'a> for Item {
    fn arbitrary(u: &mut Unstructured<'a>) -> ArbResult<Item> {
        item(u, 0)
    }
}

impl<'a> Arbitrary<'a> for Pair {
    fn arbitrary(u: &mut Unstructured<'a>) -> ArbResult<Pair> {
        pair(u, 0)
    }
}

fn value(u: &mut Unstructured<'_>, depth: usize) -> ArbResult<Value> {
    // Lists are chosen less often the deeper we are, and never past the limit.
    let kinds = if depth >= MAX_DEPTH { 7 } else { 8 };
    Ok(match u8::arbitrary(u)? % kinds {
        0 => Value::String(String::arbitrary(u)?.into()),
        1 => Value::Bytes(Vec::<u8>::arbitrary(u)?),
        2 => Value::Bool(bool::arbitrary(u)?),
        3 => Value::Integer(Integer::arbitrary(u)?),
        4 => Value::Decimal(Decimal::arbitrary(u)?),
        5 => Value::DateTime(DateTime::arbitrary(u)?),
        6 => Value::Timestamp(Timestamp::arbitrary(u)?),
        _ => {
            let mut items = Vec::new();
            // `arbitrary_loop` stops when the input runs out.
            u.arbitrary_loop(None, Some(64), |u| {
                items.push(item(u, depth + 1)?);
                Ok(std::ops::ControlFlow::Continue(()))
            })?;
            Value::List(items.into())
        }
    })
}

fn item(u: &mut Unstructured<'_>, depth: usize) -> ArbResult<Item> {
    if bool::arbitrary(u)? {
        Ok(Item::Pair(pair(u, depth)?))
    } else {
        Ok(Item::Value(value(u, depth)?))
    }
}

fn pair(u: &mut Unstructured<'_>, depth: usize) -> ArbResult<Pair> {
    // Most keys are strings, as in practice; any value may be one.
    let mut key = if u8::arbitrary(u)? < 160 {
        Value::String(String::arbitrary(u)?.into())
    } else {
        value(u, depth)?
    };
    if let Value::DateTime(dt) = &key
        && dt.is_ambiguous_key()
    {
        key = Value::DateTime(dt.with_offset(Offset::UTC));
    }
    let value = value(u, depth)?;
    Pair::new(key, value).or_else(refused)
}
