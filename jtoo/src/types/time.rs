//! [`Time`]: a time of day with its precision.

use crate::encode::Output;
use std::fmt;
use std::str::FromStr;

use crate::error::{Error, ErrorKind};

/// How many components a [`Time`] has; part of its value (`T10:20:30.400`
/// and `T10:20:30` differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TimePrecision {
    /// `T10`
    Hour,
    /// `T10:20`
    Minute,
    /// `T10:20:30`
    Second,
    /// `T10:20:30.400`
    Millisecond,
    /// `T10:20:30.400_500`
    Microsecond,
    /// `T10:20:30.400_500_600`
    Nanosecond,
}

impl TimePrecision {
    /// The nanosecond unit of the last written fraction digit (1 s for the
    /// whole-second and coarser precisions).
    pub(crate) fn nanos_unit(self) -> u32 {
        match self {
            TimePrecision::Hour | TimePrecision::Minute | TimePrecision::Second => 1_000_000_000,
            TimePrecision::Millisecond => 1_000_000,
            TimePrecision::Microsecond => 1_000,
            TimePrecision::Nanosecond => 1,
        }
    }

    /// The natural precision of a fraction of a second: the coarsest one
    /// that holds `nanos` exactly (`Second` for 0).
    #[cfg_attr(not(feature = "chrono"), allow(dead_code))]
    pub(crate) fn of_nanos(nanos: u32) -> TimePrecision {
        if nanos == 0 {
            TimePrecision::Second
        } else if nanos.is_multiple_of(1_000_000) {
            TimePrecision::Millisecond
        } else if nanos.is_multiple_of(1_000) {
            TimePrecision::Microsecond
        } else {
            TimePrecision::Nanosecond
        }
    }
}

/// A JTOO time of day: hour 00–23, minute 00–59, second 00–60 (60 is a leap
/// second), and a fraction of a second of 3, 6 or 9 digits.
///
/// The [`TimePrecision`] is part of the value: components finer than the
/// precision are zero, and a fraction is held exactly at its precision.
/// `Display` writes the canonical text (`T10:20:30.400_500`) and `FromStr`
/// reads exactly that text back. The derived order is chronological, then
/// by precision.
///
/// ```
/// use jtoo::{Time, TimePrecision};
/// let t = Time::new(10, 20, 30, 400_500_000, TimePrecision::Microsecond)?;
/// assert_eq!(t.to_string(), "T10:20:30.400_500");
/// assert_eq!("T10:20:30.400_500".parse::<Time>()?, t);
/// assert_ne!(Time::from_hms_milli(10, 20, 30, 0)?, Time::from_hms(10, 20, 30)?);
/// # Ok::<(), jtoo::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Time {
    hour: u8,
    minute: u8,
    second: u8,
    nanos: u32,
    precision: TimePrecision,
}

fn invalid(why: &'static str) -> Error {
    Error::new(ErrorKind::InvalidTime(why))
}

impl Time {
    /// An hour, `T10`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidTime`] unless `hour <= 23`.
    pub fn from_hour(hour: u8) -> Result<Time, Error> {
        Time::new(hour, 0, 0, 0, TimePrecision::Hour)
    }

    /// An hour and minute, `T10:20`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidTime`] unless `hour <= 23` and `minute <= 59`.
    pub fn from_hm(hour: u8, minute: u8) -> Result<Time, Error> {
        Time::new(hour, minute, 0, 0, TimePrecision::Minute)
    }

    /// An hour, minute and second, `T10:20:30`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidTime`] unless `hour <= 23`, `minute <= 59` and
    /// `second <= 60`.
    ///
    /// ```
    /// assert_eq!(jtoo::Time::from_hms(23, 59, 60)?.to_string(), "T23:59:60");
    /// assert!(jtoo::Time::from_hms(10, 20, 61).is_err());
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn from_hms(hour: u8, minute: u8, second: u8) -> Result<Time, Error> {
        Time::new(hour, minute, second, 0, TimePrecision::Second)
    }

    /// A time with milliseconds (0–999), `T10:20:30.400`.
    ///
    /// # Errors
    ///
    /// As [`Time::from_hms`], and `milli <= 999`.
    pub fn from_hms_milli(hour: u8, minute: u8, second: u8, milli: u32) -> Result<Time, Error> {
        let nanos = milli
            .checked_mul(1_000_000)
            .ok_or_else(|| invalid("the fraction must be less than one second"))?;
        Time::new(hour, minute, second, nanos, TimePrecision::Millisecond)
    }

    /// A time with microseconds (0–999_999), `T10:20:30.400_500`.
    ///
    /// # Errors
    ///
    /// As [`Time::from_hms`], and `micro <= 999_999`.
    pub fn from_hms_micro(hour: u8, minute: u8, second: u8, micro: u32) -> Result<Time, Error> {
        let nanos = micro
            .checked_mul(1_000)
            .ok_or_else(|| invalid("the fraction must be less than one second"))?;
        Time::new(hour, minute, second, nanos, TimePrecision::Microsecond)
    }

    /// A time with nanoseconds (0–999_999_999), `T10:20:30.400_500_600`.
    ///
    /// # Errors
    ///
    /// As [`Time::from_hms`], and `nano <= 999_999_999`.
    pub fn from_hms_nano(hour: u8, minute: u8, second: u8, nano: u32) -> Result<Time, Error> {
        Time::new(hour, minute, second, nano, TimePrecision::Nanosecond)
    }

    /// A time of any precision.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidTime`] when a component is out of range (hour
    /// 0–23, minute 0–59, second 0–60, `nanos` below one second), when a
    /// component finer than `precision` is not zero (`Hour` needs minute,
    /// second and nanos 0), or when `nanos` has digits finer than the
    /// precision (`Millisecond` needs `nanos % 1_000_000 == 0`).
    ///
    /// ```
    /// use jtoo::{Time, TimePrecision};
    /// assert!(Time::new(10, 20, 30, 400_000_000, TimePrecision::Millisecond).is_ok());
    /// assert!(Time::new(10, 20, 30, 400_500_000, TimePrecision::Millisecond).is_err());
    /// assert!(Time::new(10, 20, 0, 0, TimePrecision::Hour).is_err());
    /// ```
    pub fn new(
        hour: u8,
        minute: u8,
        second: u8,
        nanos: u32,
        precision: TimePrecision,
    ) -> Result<Time, Error> {
        if hour > 23 {
            return Err(invalid("the hour must be 00 to 23"));
        }
        if minute > 59 {
            return Err(invalid("the minute must be 00 to 59"));
        }
        if second > 60 {
            return Err(invalid("the second must be 00 to 60"));
        }
        if nanos >= 1_000_000_000 {
            return Err(invalid("the fraction must be less than one second"));
        }
        let finer_set = match precision {
            TimePrecision::Hour => minute != 0 || second != 0 || nanos != 0,
            TimePrecision::Minute => second != 0 || nanos != 0,
            _ => !nanos.is_multiple_of(precision.nanos_unit()),
        };
        if finer_set {
            return Err(invalid("a component is finer than the precision"));
        }
        Ok(Time {
            hour,
            minute,
            second,
            nanos,
            precision,
        })
    }

    /// Builds a time the parser has already validated.
    pub(crate) fn from_checked_parts(
        hour: u8,
        minute: u8,
        second: u8,
        nanos: u32,
        precision: TimePrecision,
    ) -> Time {
        Time {
            hour,
            minute,
            second,
            nanos,
            precision,
        }
    }

    /// The hour, 0–23.
    pub fn hour(&self) -> u8 {
        self.hour
    }

    /// The minute, 0–59 (0 at hour precision).
    pub fn minute(&self) -> u8 {
        self.minute
    }

    /// The second, 0–60 (0 at hour or minute precision; 60 is a leap second).
    pub fn second(&self) -> u8 {
        self.second
    }

    /// The fraction of the second in nanoseconds, 0–999_999_999.
    pub fn nanosecond(&self) -> u32 {
        self.nanos
    }

    /// The precision.
    pub fn precision(&self) -> TimePrecision {
        self.precision
    }

    /// Adds an offset, `T10Z`.
    ///
    /// ```
    /// let dt = jtoo::Time::from_hour(10)?.with_offset(jtoo::Offset::UTC);
    /// assert_eq!(dt.to_string(), "T10Z");
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn with_offset(self, offset: crate::Offset) -> crate::DateTime {
        crate::DateTime::from_parts(None, Some(self), Some(offset))
    }

    /// Appends the canonical JTOO text to `out`.
    pub(crate) fn encode(&self, out: &mut impl Output) {
        out.extend_from_slice(&[b'T', b'0' + self.hour / 10, b'0' + self.hour % 10]);
        if self.precision == TimePrecision::Hour {
            return;
        }
        out.extend_from_slice(&[b':', b'0' + self.minute / 10, b'0' + self.minute % 10]);
        if self.precision == TimePrecision::Minute {
            return;
        }
        out.extend_from_slice(&[b':', b'0' + self.second / 10, b'0' + self.second % 10]);
        let groups = match self.precision {
            TimePrecision::Millisecond => 1,
            TimePrecision::Microsecond => 2,
            TimePrecision::Nanosecond => 3,
            _ => return,
        };
        push_fraction(out, self.nanos, groups);
    }
}

/// Writes `.fff[_uuu[_nnn]]`: the first `groups` groups of three digits of
/// a nanosecond fraction.
pub(crate) fn push_fraction(out: &mut impl Output, nanos: u32, groups: u32) {
    let parts = [nanos / 1_000_000, nanos / 1_000 % 1_000, nanos % 1_000];
    let mut sep = b'.';
    for &g in parts.iter().take(groups as usize) {
        out.extend_from_slice(&[
            sep,
            b'0' + (g / 100) as u8,
            b'0' + (g / 10 % 10) as u8,
            b'0' + (g % 10) as u8,
        ]);
        sep = b'_';
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = Vec::with_capacity(24);
        self.encode(&mut buf);
        f.pad(std::str::from_utf8(&buf).map_err(|_| fmt::Error)?)
    }
}

impl FromStr for Time {
    type Err = Error;

    /// Reads the canonical JTOO text of a time (`T10:20:30.400`); nothing
    /// may follow it (an offset makes it a [`crate::DateTime`]).
    fn from_str(s: &str) -> Result<Time, Error> {
        crate::parse::strict_all(s.as_bytes(), crate::parse::temporal::time)
    }
}

#[cfg(feature = "chrono")]
mod chrono_impls {
    use super::*;
    use chrono::Timelike;

    /// Converts with the natural precision of chrono's fraction: `Second`
    /// when it is zero, else the coarsest of `Millisecond`, `Microsecond`,
    /// `Nanosecond` that holds it exactly. A chrono leap second (nanosecond
    /// field ≥ 1_000_000_000 in second 59) becomes second 60.
    impl From<chrono::NaiveTime> for Time {
        fn from(t: chrono::NaiveTime) -> Time {
            let (second, nanos) = if t.nanosecond() >= 1_000_000_000 {
                (60, t.nanosecond() - 1_000_000_000)
            } else {
                (t.second() as u8, t.nanosecond())
            };
            Time::from_checked_parts(
                t.hour() as u8,
                t.minute() as u8,
                second,
                nanos,
                TimePrecision::of_nanos(nanos),
            )
        }
    }

    /// Converts to the same instant of the day; the precision is dropped.
    /// Second 60 becomes chrono's leap-second form (second 59 with a
    /// nanosecond field of 1_000_000_000 or more).
    impl From<Time> for chrono::NaiveTime {
        fn from(t: Time) -> chrono::NaiveTime {
            let (second, nanos) = if t.second == 60 {
                (59, t.nanos + 1_000_000_000)
            } else {
                (u32::from(t.second), t.nanos)
            };
            // Every valid `Time` is a valid `NaiveTime`; the fallback is
            // never taken.
            chrono::NaiveTime::from_hms_nano_opt(
                u32::from(t.hour),
                u32::from(t.minute),
                second,
                nanos,
            )
            .unwrap_or(chrono::NaiveTime::MIN)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precision_of_nanos() {
        assert_eq!(TimePrecision::of_nanos(0), TimePrecision::Second);
        assert_eq!(
            TimePrecision::of_nanos(5_000_000),
            TimePrecision::Millisecond
        );
        assert_eq!(TimePrecision::of_nanos(5_000), TimePrecision::Microsecond);
        assert_eq!(TimePrecision::of_nanos(5), TimePrecision::Nanosecond);
    }

    #[test]
    fn encode_all_precisions() {
        let cases = [
            (Time::from_hour(1), "T01"),
            (Time::from_hm(1, 2), "T01:02"),
            (Time::from_hms(1, 2, 3), "T01:02:03"),
            (Time::from_hms_milli(1, 2, 3, 4), "T01:02:03.004"),
            (Time::from_hms_micro(1, 2, 3, 4), "T01:02:03.000_004"),
            (Time::from_hms_nano(1, 2, 3, 4), "T01:02:03.000_000_004"),
        ];
        for (t, s) in cases {
            assert_eq!(t.map(|t| t.to_string()).ok().as_deref(), Some(s));
        }
    }

    #[test]
    fn size() {
        assert_eq!(std::mem::size_of::<Time>(), 8);
    }
}
