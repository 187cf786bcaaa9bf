//! [`Offset`]: a UTC offset of a date or time.

use crate::encode::Output;
use std::fmt;
use std::str::FromStr;

use crate::error::{Error, ErrorKind};

/// A UTC offset of whole minutes, from −23:59 to +23:59.
///
/// Every offset has one spelling: `Z` for zero, `+hh` / `~hh` for whole
/// hours and `+hhmm` / `~hhmm` otherwise; `~` is the minus sign (so that
/// `D2023-12~08` is a year-month with an offset, not a day). An offset only
/// appears after a date or a time ([`crate::DateTime`]); `Display` and
/// `FromStr` use the offset text on its own.
///
/// ```
/// use jtoo::{Offset, OffsetSign};
/// assert_eq!(Offset::UTC.to_string(), "Z");
/// assert_eq!(Offset::from_minutes(60)?.to_string(), "+01");
/// assert_eq!(Offset::from_minutes(-480)?.to_string(), "~08");
/// assert_eq!(Offset::from_hm(OffsetSign::Plus, 5, 30)?.to_string(), "+0530");
/// assert_eq!("~0930".parse::<Offset>()?.minutes(), -570);
/// assert!("+0800".parse::<Offset>().is_err()); // written `+08`
/// # Ok::<(), jtoo::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Offset {
    minutes: i16,
}

/// The sign of an [`Offset`] built from hours and minutes
/// ([`Offset::from_hm`]): east (`+`) or west (`~`, minus) of UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OffsetSign {
    /// East of UTC: `+`.
    Plus,
    /// West of UTC: `~` (HTOO also reads `-`).
    Minus,
}

fn invalid(why: &'static str) -> Error {
    Error::new(ErrorKind::InvalidOffset(why))
}

impl Offset {
    /// The zero offset, `Z`.
    pub const UTC: Offset = Offset { minutes: 0 };

    /// The largest offset magnitude in minutes (23 hours 59 minutes).
    pub const MAX_MINUTES: i32 = 23 * 60 + 59;

    /// An offset of `minutes` east of UTC (negative: west).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidOffset`] unless `-1439 <= minutes <= 1439`.
    pub fn from_minutes(minutes: i32) -> Result<Offset, Error> {
        if (-Offset::MAX_MINUTES..=Offset::MAX_MINUTES).contains(&minutes) {
            Ok(Offset {
                minutes: minutes as i16,
            })
        } else {
            Err(invalid(
                "the offset must be within 23 hours 59 minutes of UTC",
            ))
        }
    }

    /// An offset of `hours` and `minutes` east ([`OffsetSign::Plus`]) or
    /// west ([`OffsetSign::Minus`]) of UTC. Zero hours and minutes are
    /// [`Offset::UTC`] whatever the sign.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidOffset`] unless `hours <= 23` and `minutes <= 59`.
    ///
    /// ```
    /// use jtoo::{Offset, OffsetSign};
    /// assert_eq!(Offset::from_hm(OffsetSign::Minus, 9, 30)?.minutes(), -570);
    /// assert_eq!(Offset::from_hm(OffsetSign::Plus, 9, 30)?.minutes(), 570);
    /// assert!(Offset::from_hm(OffsetSign::Plus, 24, 0).is_err());
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn from_hm(sign: OffsetSign, hours: u8, minutes: u8) -> Result<Offset, Error> {
        if hours > 23 {
            return Err(invalid("the offset hours must be 00 to 23"));
        }
        if minutes > 59 {
            return Err(invalid("the offset minutes must be 00 to 59"));
        }
        let m = i16::from(hours) * 60 + i16::from(minutes);
        Ok(Offset {
            minutes: match sign {
                OffsetSign::Plus => m,
                OffsetSign::Minus => -m,
            },
        })
    }

    /// Minutes east of UTC (negative: west), −1439 to 1439.
    pub fn minutes(&self) -> i32 {
        i32::from(self.minutes)
    }

    /// `true` for `Z`.
    pub fn is_utc(&self) -> bool {
        self.minutes == 0
    }

    /// Appends the canonical JTOO text to `out`.
    pub(crate) fn encode(&self, out: &mut impl Output) {
        if self.minutes == 0 {
            out.push(b'Z');
            return;
        }
        let sign = if self.minutes < 0 { b'~' } else { b'+' };
        let abs = self.minutes.unsigned_abs();
        let (h, m) = ((abs / 60) as u8, (abs % 60) as u8);
        out.extend_from_slice(&[sign, b'0' + h / 10, b'0' + h % 10]);
        if m != 0 {
            out.extend_from_slice(&[b'0' + m / 10, b'0' + m % 10]);
        }
    }
}

impl fmt::Display for Offset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = Vec::with_capacity(5);
        self.encode(&mut buf);
        f.pad(std::str::from_utf8(&buf).map_err(|_| fmt::Error)?)
    }
}

impl FromStr for Offset {
    type Err = Error;

    /// Reads `Z`, `+hh`, `~hh`, `+hhmm` or `~hhmm` in its one strict
    /// spelling.
    fn from_str(s: &str) -> Result<Offset, Error> {
        crate::parse::strict_all(s.as_bytes(), crate::parse::temporal::offset)
    }
}

#[cfg(feature = "chrono")]
mod chrono_impls {
    use super::*;

    /// Fails with [`ErrorKind::InvalidOffset`] when the chrono offset has
    /// seconds (JTOO offsets are whole minutes).
    impl TryFrom<chrono::FixedOffset> for Offset {
        type Error = Error;
        fn try_from(o: chrono::FixedOffset) -> Result<Offset, Error> {
            let secs = o.local_minus_utc();
            if secs % 60 != 0 {
                return Err(invalid("the offset has seconds"));
            }
            Offset::from_minutes(secs / 60)
        }
    }

    impl From<Offset> for chrono::FixedOffset {
        fn from(o: Offset) -> chrono::FixedOffset {
            use chrono::Offset as _;
            // |minutes| ≤ 1439 is well inside chrono's ±86_399 seconds: the
            // fallback is never taken.
            chrono::FixedOffset::east_opt(o.minutes() * 60).unwrap_or_else(|| chrono::Utc.fix())
        }
    }
}
