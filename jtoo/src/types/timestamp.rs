//! [`Timestamp`]: seconds since the Unix epoch, with a precision.

use crate::encode::Output;
use std::fmt;
use std::str::FromStr;

use crate::error::{Error, ErrorKind};

/// How many fraction digits a [`Timestamp`] has; part of its value
/// (`S1.000` and `S1` differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TimestampPrecision {
    /// `S1_709_528_240`
    Seconds,
    /// `S1_709_528_240.001`
    Milliseconds,
    /// `S1_709_528_240.000_001`
    Microseconds,
    /// `S1_709_528_240.000_000_001`
    Nanoseconds,
}

impl TimestampPrecision {
    /// The number of fraction digits: 0, 3, 6 or 9.
    pub fn digits(self) -> u32 {
        match self {
            TimestampPrecision::Seconds => 0,
            TimestampPrecision::Milliseconds => 3,
            TimestampPrecision::Microseconds => 6,
            TimestampPrecision::Nanoseconds => 9,
        }
    }

    /// The precision with `digits` (0, 3, 6 or 9) fraction digits.
    pub(crate) fn from_digits(digits: u32) -> Option<TimestampPrecision> {
        match digits {
            0 => Some(TimestampPrecision::Seconds),
            3 => Some(TimestampPrecision::Milliseconds),
            6 => Some(TimestampPrecision::Microseconds),
            9 => Some(TimestampPrecision::Nanoseconds),
            _ => None,
        }
    }

    /// The nanosecond unit of the last fraction digit.
    fn nanos_unit(self) -> u32 {
        match self {
            TimestampPrecision::Seconds => 1_000_000_000,
            TimestampPrecision::Milliseconds => 1_000_000,
            TimestampPrecision::Microseconds => 1_000,
            TimestampPrecision::Nanoseconds => 1,
        }
    }

    /// The coarsest precision that holds `nanos` exactly.
    #[cfg_attr(not(feature = "chrono"), allow(dead_code))]
    pub(crate) fn of_nanos(nanos: u32) -> TimestampPrecision {
        if nanos == 0 {
            TimestampPrecision::Seconds
        } else if nanos.is_multiple_of(1_000_000) {
            TimestampPrecision::Milliseconds
        } else if nanos.is_multiple_of(1_000) {
            TimestampPrecision::Microseconds
        } else {
            TimestampPrecision::Nanoseconds
        }
    }
}

/// A JTOO timestamp: seconds since the Unix epoch 1970-01-01T00:00:00Z,
/// with 0, 3, 6 or 9 fraction digits.
///
/// The range is the instants 0001-01-01T00:00:00Z ([`Timestamp::MIN_SECS`])
/// through 9999-12-31T23:59:59.999999999Z ([`Timestamp::MAX_SECS`] and a
/// fraction). The precision is part of the value. The instant is held in
/// floor form: [`Timestamp::secs`] rounds towards −∞ and
/// [`Timestamp::subsec_nanos`] is the non-negative rest, so `S-1.500`
/// (−1.5 s) has `secs() == -2` and `subsec_nanos() == 500_000_000`.
///
/// `Display` writes the canonical text (the sign applies to the whole
/// number, as for decimals) and `FromStr` reads exactly that text back. The
/// derived order is chronological, then by precision.
///
/// ```
/// use jtoo::{Timestamp, TimestampPrecision};
/// let t = Timestamp::new(1_709_528_240, 1_000, TimestampPrecision::Microseconds)?;
/// assert_eq!(t.to_string(), "S1_709_528_240.000_001");
/// assert_eq!("S1_709_528_240.000_001".parse::<Timestamp>()?, t);
/// let t: Timestamp = "S-1.500".parse()?;
/// assert_eq!((t.secs(), t.subsec_nanos()), (-2, 500_000_000));
/// assert!("S-0".parse::<Timestamp>().is_err());
/// # Ok::<(), jtoo::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Timestamp {
    secs: i64,
    nanos: u32,
    precision: TimestampPrecision,
}

fn invalid(why: &'static str) -> Error {
    Error::new(ErrorKind::InvalidTimestamp(why))
}

impl Timestamp {
    /// Seconds of 0001-01-01T00:00:00Z, the earliest timestamp.
    pub const MIN_SECS: i64 = -62_135_596_800;

    /// Whole seconds of 9999-12-31T23:59:59Z; a fraction may follow.
    pub const MAX_SECS: i64 = 253_402_300_799;

    /// The Unix epoch, `S0`.
    pub const EPOCH: Timestamp = Timestamp {
        secs: 0,
        nanos: 0,
        precision: TimestampPrecision::Seconds,
    };

    /// Whole seconds since the epoch, `S1_709_528_240`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidTimestamp`] outside
    /// [`Timestamp::MIN_SECS`]`..=`[`Timestamp::MAX_SECS`].
    pub fn from_secs(secs: i64) -> Result<Timestamp, Error> {
        Timestamp::new(secs, 0, TimestampPrecision::Seconds)
    }

    /// A timestamp in floor form: the instant is `secs + nanos / 10⁹`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidTimestamp`] when `nanos >= 1_000_000_000`, when
    /// `nanos` has digits finer than `precision`, or when the instant is out
    /// of range.
    ///
    /// ```
    /// use jtoo::{Timestamp, TimestampPrecision::*};
    /// assert_eq!(Timestamp::new(-1, 500_000_000, Milliseconds)?.to_string(), "S-0.500");
    /// assert!(Timestamp::new(0, 1, Milliseconds).is_err());
    /// assert!(Timestamp::new(Timestamp::MAX_SECS + 1, 0, Seconds).is_err());
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn new(secs: i64, nanos: u32, precision: TimestampPrecision) -> Result<Timestamp, Error> {
        if nanos >= 1_000_000_000 {
            return Err(invalid("the fraction must be less than one second"));
        }
        if !nanos.is_multiple_of(precision.nanos_unit()) {
            return Err(invalid("the fraction is finer than the precision"));
        }
        if !(Timestamp::MIN_SECS..=Timestamp::MAX_SECS).contains(&secs) {
            return Err(invalid(
                "out of range: timestamps span 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z",
            ));
        }
        Ok(Timestamp {
            secs,
            nanos,
            precision,
        })
    }

    /// Builds a timestamp the parser has already validated.
    pub(crate) fn from_checked_parts(
        secs: i64,
        nanos: u32,
        precision: TimestampPrecision,
    ) -> Timestamp {
        Timestamp {
            secs,
            nanos,
            precision,
        }
    }

    /// Whole seconds since the epoch, rounded towards −∞.
    pub fn secs(&self) -> i64 {
        self.secs
    }

    /// Nanoseconds after [`Timestamp::secs`], 0–999_999_999.
    pub fn subsec_nanos(&self) -> u32 {
        self.nanos
    }

    /// The precision.
    pub fn precision(&self) -> TimestampPrecision {
        self.precision
    }

    /// Nanoseconds since the epoch.
    ///
    /// ```
    /// assert_eq!("S-1.500".parse::<jtoo::Timestamp>()?.as_nanos(), -1_500_000_000);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn as_nanos(&self) -> i128 {
        i128::from(self.secs) * 1_000_000_000 + i128::from(self.nanos)
    }

    /// Appends the canonical JTOO text to `out`.
    pub(crate) fn encode(&self, out: &mut impl Output) {
        out.push(b'S');
        // Sign and magnitude of secs + nanos/1e9.
        let (negative, whole, frac) = if self.secs >= 0 {
            (false, self.secs.unsigned_abs(), self.nanos)
        } else if self.nanos == 0 {
            (true, self.secs.unsigned_abs(), 0)
        } else {
            (
                true,
                self.secs.unsigned_abs() - 1,
                1_000_000_000 - self.nanos,
            )
        };
        if negative {
            out.push(b'-');
        }
        push_grouped(out, whole);
        let groups = self.precision.digits() / 3;
        if groups > 0 {
            super::time::push_fraction(out, frac, groups);
        }
    }
}

/// Writes `v` in decimal with `_` between groups of three digits counted
/// from the right.
fn push_grouped(out: &mut impl Output, mut v: u64) {
    let mut digits = [0u8; 20];
    let mut n = 0;
    loop {
        digits[n] = b'0' + (v % 10) as u8;
        n += 1;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for i in (0..n).rev() {
        out.push(digits[i]);
        if i > 0 && i % 3 == 0 {
            out.push(b'_');
        }
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = Vec::with_capacity(32);
        self.encode(&mut buf);
        f.pad(std::str::from_utf8(&buf).map_err(|_| fmt::Error)?)
    }
}

impl FromStr for Timestamp {
    type Err = Error;

    /// Reads the canonical JTOO text of a timestamp (`S1_709_528_240.001`).
    fn from_str(s: &str) -> Result<Timestamp, Error> {
        crate::parse::strict_all(s.as_bytes(), crate::parse::timestamp::timestamp)
    }
}

#[cfg(feature = "chrono")]
mod chrono_impls {
    use super::*;

    /// The same instant with the natural precision: `Seconds` when chrono's
    /// fraction is zero, else the coarsest of `Milliseconds`,
    /// `Microseconds`, `Nanoseconds` that holds it exactly. A chrono leap
    /// second (fraction ≥ 1 s) counts as the first second after it, as
    /// chrono's own `timestamp_nanos_opt` does.
    ///
    /// Fails with [`ErrorKind::InvalidTimestamp`] for instants outside
    /// years 0001–9999.
    impl TryFrom<chrono::DateTime<chrono::Utc>> for Timestamp {
        type Error = Error;
        fn try_from(dt: chrono::DateTime<chrono::Utc>) -> Result<Timestamp, Error> {
            let mut secs = dt.timestamp();
            let mut nanos = dt.timestamp_subsec_nanos();
            if nanos >= 1_000_000_000 {
                secs += 1;
                nanos -= 1_000_000_000;
            }
            Timestamp::new(secs, nanos, TimestampPrecision::of_nanos(nanos))
        }
    }

    /// The same instant; the precision is dropped.
    impl From<Timestamp> for chrono::DateTime<chrono::Utc> {
        fn from(t: Timestamp) -> chrono::DateTime<chrono::Utc> {
            // Every timestamp is within chrono's range; the fallback is
            // never taken.
            chrono::DateTime::from_timestamp(t.secs, t.nanos).unwrap_or_default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_the_calendar_bounds() {
        use crate::types::date::{MAX_DAYS, MIN_DAYS};
        assert_eq!(Timestamp::MIN_SECS, MIN_DAYS * 86_400);
        assert_eq!(Timestamp::MAX_SECS, MAX_DAYS * 86_400 + 86_399);
    }

    #[test]
    fn grouping() {
        let mut out = Vec::new();
        for (v, s) in [
            (0, "0"),
            (999, "999"),
            (1_000, "1_000"),
            (123_456_789, "123_456_789"),
        ] {
            out.clear();
            push_grouped(&mut out, v);
            assert_eq!(out, s.as_bytes());
        }
    }

    #[test]
    fn size() {
        assert_eq!(std::mem::size_of::<Timestamp>(), 16);
    }
}
