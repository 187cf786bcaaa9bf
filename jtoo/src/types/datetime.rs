//! [`DateTime`]: every combination of date, time and offset that JTOO
//! allows.

use crate::encode::Output;
use std::fmt;
use std::str::FromStr;

use crate::error::{Error, ErrorKind};
use crate::types::{Date, Offset, Time, TimePrecision};

/// A JTOO date/time value: `datetime = date [ time ] [ offset ] / time [ offset ]`.
///
/// - a date alone, in any of its five forms (`D2023`, `D2023-W01-1`, …);
/// - a full-day date (year-month-day or week day) followed by a time
///   (`D2023-12-30T01:02`);
/// - a time alone (`T10:20`);
/// - any of these followed by an [`Offset`] (`D2023Z`, `D2023-12~08`,
///   `D2023-12-30T01:02:03~08`, `T10Z`).
///
/// The parts keep their forms and precisions, so the value has exactly one
/// spelling: `Display` writes it (the concatenation of the parts) and
/// `FromStr` reads exactly that text back. The derived order compares the
/// date, then the time, then the offset; it is not an order of instants.
///
/// ```
/// use jtoo::{Date, DateTime, Offset, Time};
/// let dt = DateTime::new(
///     Some(Date::from_ymd(2023, 12, 30)?),
///     Some(Time::from_hms(1, 2, 3)?),
///     Some(Offset::from_minutes(-480)?),
/// )?;
/// assert_eq!(dt.to_string(), "D2023-12-30T01:02:03~08");
/// assert_eq!("D2023-12-30T01:02:03~08".parse::<DateTime>()?, dt);
/// // A time needs a full-day date before it.
/// assert!(DateTime::new(Some(Date::from_year(2023)?), Some(Time::from_hour(10)?), None).is_err());
/// # Ok::<(), jtoo::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DateTime {
    date: Option<Date>,
    time: Option<Time>,
    offset: Option<Offset>,
}

impl DateTime {
    /// Combines a date, a time and an offset.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidDate`] when there is neither a date nor a time;
    /// [`ErrorKind::InvalidTime`] when a time follows a date that is not a
    /// full day (year-month-day or week day).
    pub fn new(
        date: Option<Date>,
        time: Option<Time>,
        offset: Option<Offset>,
    ) -> Result<DateTime, Error> {
        match (date, time) {
            (None, None) => Err(Error::new(ErrorKind::InvalidDate(
                "a date/time value needs a date or a time",
            ))),
            (Some(d), Some(_)) if !d.is_full_day() => Err(Error::new(ErrorKind::InvalidTime(
                "a time may only follow a full date (year-month-day or week day)",
            ))),
            _ => Ok(DateTime { date, time, offset }),
        }
    }

    /// Builds a value whose parts are already known to combine.
    pub(crate) fn from_parts(
        date: Option<Date>,
        time: Option<Time>,
        offset: Option<Offset>,
    ) -> DateTime {
        DateTime { date, time, offset }
    }

    /// The date, if any.
    pub fn date(&self) -> Option<Date> {
        self.date
    }

    /// The time, if any.
    pub fn time(&self) -> Option<Time> {
        self.time
    }

    /// The offset, if any.
    pub fn offset(&self) -> Option<Offset> {
        self.offset
    }

    /// The same value with `offset` (replacing any offset it had).
    ///
    /// ```
    /// let t: jtoo::DateTime = "T10:20".parse()?;
    /// assert_eq!(t.with_offset(jtoo::Offset::UTC).to_string(), "T10:20Z");
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn with_offset(self, offset: Offset) -> DateTime {
        DateTime {
            offset: Some(offset),
            ..self
        }
    }

    /// The same value without an offset.
    pub fn without_offset(self) -> DateTime {
        DateTime {
            offset: None,
            ..self
        }
    }

    /// The same value with `time` (replacing any time it had).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidTime`] when the value has a date that is not a
    /// full day.
    pub fn with_time(self, time: Time) -> Result<DateTime, Error> {
        DateTime::new(self.date, Some(time), self.offset)
    }

    /// `true` when this value cannot be the key of a pair: it has a time of
    /// hour or minute precision and no offset, so a following `:` would read
    /// as more of the time (`[T10:20]` is the time 10:20, not a pair).
    ///
    /// ```
    /// let key = |s: &str| s.parse::<jtoo::DateTime>().map(|d| d.is_ambiguous_key());
    /// assert!(key("T10")?);
    /// assert!(key("D2023-01-01T10:20")?);
    /// assert!(!key("T10Z")?);
    /// assert!(!key("T10:20:30")?);
    /// assert!(!key("D2023")?);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn is_ambiguous_key(&self) -> bool {
        self.offset.is_none()
            && self.time.is_some_and(|t| {
                matches!(t.precision(), TimePrecision::Hour | TimePrecision::Minute)
            })
    }

    /// Appends the canonical JTOO text to `out`.
    pub(crate) fn encode(&self, out: &mut impl Output) {
        if let Some(d) = &self.date {
            d.encode(out);
        }
        if let Some(t) = &self.time {
            t.encode(out);
        }
        if let Some(o) = &self.offset {
            o.encode(out);
        }
    }
}

impl From<Date> for DateTime {
    fn from(date: Date) -> DateTime {
        DateTime::from_parts(Some(date), None, None)
    }
}

impl From<Time> for DateTime {
    fn from(time: Time) -> DateTime {
        DateTime::from_parts(None, Some(time), None)
    }
}

impl fmt::Display for DateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = Vec::with_capacity(40);
        self.encode(&mut buf);
        f.pad(std::str::from_utf8(&buf).map_err(|_| fmt::Error)?)
    }
}

impl FromStr for DateTime {
    type Err = Error;

    /// Reads the canonical JTOO text of a date, time or both, with an
    /// optional offset.
    fn from_str(s: &str) -> Result<DateTime, Error> {
        crate::parse::strict_all(s.as_bytes(), crate::parse::temporal::datetime)
    }
}

#[cfg(feature = "chrono")]
mod chrono_impls {
    use super::*;

    fn invalid(why: &'static str) -> Error {
        Error::new(ErrorKind::InvalidDate(why))
    }

    /// The parts of a full date and time, or an error naming what is missing.
    fn naive(dt: &DateTime) -> Result<chrono::NaiveDateTime, Error> {
        let (Some(date), Some(time)) = (dt.date, dt.time) else {
            return Err(invalid(
                "only a full date with a time converts to a chrono date-time",
            ));
        };
        let date = chrono::NaiveDate::try_from(date)?;
        Ok(date.and_time(chrono::NaiveTime::from(time)))
    }

    /// A date-only value (year-month-day).
    impl TryFrom<chrono::NaiveDate> for DateTime {
        type Error = Error;
        fn try_from(d: chrono::NaiveDate) -> Result<DateTime, Error> {
            Date::try_from(d).map(DateTime::from)
        }
    }

    /// Fails unless the value is a full-day date alone (no time, no offset).
    impl TryFrom<DateTime> for chrono::NaiveDate {
        type Error = Error;
        fn try_from(dt: DateTime) -> Result<chrono::NaiveDate, Error> {
            match (dt.date, dt.time, dt.offset) {
                (Some(d), None, None) => chrono::NaiveDate::try_from(d),
                _ => Err(invalid(
                    "only a date without time or offset converts to a chrono::NaiveDate",
                )),
            }
        }
    }

    /// A year-month-day date with a time of the natural precision (see
    /// [`Time`]'s `From<chrono::NaiveTime>`), without offset.
    impl TryFrom<chrono::NaiveDateTime> for DateTime {
        type Error = Error;
        fn try_from(dt: chrono::NaiveDateTime) -> Result<DateTime, Error> {
            Ok(DateTime::from_parts(
                Some(Date::try_from(dt.date())?),
                Some(Time::from(dt.time())),
                None,
            ))
        }
    }

    /// Fails unless the value has a full-day date and a time and no offset.
    /// A time of hour or minute precision reads as its start
    /// (`T10` is 10:00:00).
    impl TryFrom<DateTime> for chrono::NaiveDateTime {
        type Error = Error;
        fn try_from(dt: DateTime) -> Result<chrono::NaiveDateTime, Error> {
            if dt.offset.is_some() {
                return Err(invalid(
                    "a value with an offset converts to a chrono::DateTime, not a NaiveDateTime",
                ));
            }
            naive(&dt)
        }
    }

    /// A year-month-day date with a time of the natural precision and the
    /// offset (`Z` for a zero offset).
    ///
    /// Fails for years outside 1–9999 and for offsets with seconds.
    impl TryFrom<chrono::DateTime<chrono::FixedOffset>> for DateTime {
        type Error = Error;
        fn try_from(dt: chrono::DateTime<chrono::FixedOffset>) -> Result<DateTime, Error> {
            let offset = Offset::try_from(*dt.offset())?;
            let local = dt.naive_local();
            Ok(DateTime::from_parts(
                Some(Date::try_from(local.date())?),
                Some(Time::from(local.time())),
                Some(offset),
            ))
        }
    }

    /// Fails unless the value has a full-day date, a time and an offset.
    impl TryFrom<DateTime> for chrono::DateTime<chrono::FixedOffset> {
        type Error = Error;
        fn try_from(dt: DateTime) -> Result<chrono::DateTime<chrono::FixedOffset>, Error> {
            let Some(offset) = dt.offset else {
                return Err(invalid(
                    "a value without an offset converts to a chrono::NaiveDateTime",
                ));
            };
            let naive = naive(&dt)?;
            naive
                .and_local_timezone(chrono::FixedOffset::from(offset))
                .single()
                .ok_or_else(|| invalid("date-time out of chrono's range"))
        }
    }

    /// A year-month-day date with a time of the natural precision and
    /// offset `Z`.
    ///
    /// Fails for years outside 1–9999.
    impl TryFrom<chrono::DateTime<chrono::Utc>> for DateTime {
        type Error = Error;
        fn try_from(dt: chrono::DateTime<chrono::Utc>) -> Result<DateTime, Error> {
            let n = dt.naive_utc();
            Ok(DateTime::from_parts(
                Some(Date::try_from(n.date())?),
                Some(Time::from(n.time())),
                Some(Offset::UTC),
            ))
        }
    }

    /// The instant of a value with a full-day date, a time and any offset.
    impl TryFrom<DateTime> for chrono::DateTime<chrono::Utc> {
        type Error = Error;
        fn try_from(dt: DateTime) -> Result<chrono::DateTime<chrono::Utc>, Error> {
            chrono::DateTime::<chrono::FixedOffset>::try_from(dt)
                .map(|d| d.with_timezone(&chrono::Utc))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size() {
        assert!(std::mem::size_of::<DateTime>() <= 24);
        assert!(std::mem::align_of::<DateTime>() <= 8);
    }
}
