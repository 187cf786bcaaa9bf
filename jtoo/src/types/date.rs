//! [`Date`]: a year, year-month, calendar day, ISO week or ISO week day.
//!
//! Also the small calendar arithmetic the temporal types share (days from
//! the civil date, ISO weeks), written here so that it works without the
//! optional `chrono` dependency.

use crate::encode::Output;
use std::fmt;
use std::str::FromStr;

use crate::error::{Error, ErrorKind};

/// Which of the five date forms a [`Date`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Kind {
    Year,
    YearMonth,
    YearMonthDay,
    Week,
    WeekDay,
}

/// A JTOO date: one of the five forms of ISO 8601 that JTOO allows.
///
/// | form | example | ranges |
/// | --- | --- | --- |
/// | year | `D2023` | year 0001–9999 |
/// | year-month | `D2023-01` | month 01–12 |
/// | year-month-day | `D2023-01-31` | a day that exists in that month and year |
/// | ISO week | `D2023-W01` | week 01–52, or 53 in ISO years with 53 weeks |
/// | ISO week day | `D2023-W01-1` | day 1 (Monday) – 7 (Sunday) |
///
/// The form is part of the value: `D2023` and `D2023-01` are different
/// dates. A week day must also fall within 0001-01-01 through 9999-12-31
/// (so `D9999-W52-6`, which is the day 10000-01-01, is rejected).
///
/// `Display` writes the canonical JTOO text and `FromStr` reads exactly that
/// text back.
///
/// The derived order compares the year first, then the form, then the rest:
/// chronological among dates of one form, and a total order for sorted
/// collections otherwise.
///
/// ```
/// use jtoo::Date;
/// let d = Date::from_ymd(2024, 2, 29)?;
/// assert_eq!(d.to_string(), "D2024-02-29");
/// assert_eq!("D2024-02-29".parse::<Date>()?, d);
/// assert!(Date::from_ymd(2023, 2, 29).is_err());
/// assert_eq!(Date::from_week_day(2020, 53, 5)?.to_string(), "D2020-W53-5");
/// # Ok::<(), jtoo::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Date {
    year: u16,
    kind: Kind,
    /// Month or week; 0 for the year form.
    a: u8,
    /// Day of the month or of the week; 0 when absent.
    b: u8,
}

fn invalid(why: &'static str) -> Error {
    Error::new(ErrorKind::InvalidDate(why))
}

impl Date {
    /// The first representable day, 0001-01-01.
    pub const MIN: Date = Date {
        year: 1,
        kind: Kind::YearMonthDay,
        a: 1,
        b: 1,
    };

    /// The last representable day, 9999-12-31.
    pub const MAX: Date = Date {
        year: 9999,
        kind: Kind::YearMonthDay,
        a: 12,
        b: 31,
    };

    /// A year, `D2023`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidDate`] unless `1 <= year <= 9999`.
    ///
    /// ```
    /// assert_eq!(jtoo::Date::from_year(2023)?.to_string(), "D2023");
    /// assert!(jtoo::Date::from_year(0).is_err());
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn from_year(year: u16) -> Result<Date, Error> {
        check_year(year)?;
        Ok(Date {
            year,
            kind: Kind::Year,
            a: 0,
            b: 0,
        })
    }

    /// A month of a year, `D2023-01`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidDate`] when the year is outside 1–9999 or the
    /// month outside 1–12.
    ///
    /// ```
    /// assert_eq!(jtoo::Date::from_year_month(2023, 1)?.to_string(), "D2023-01");
    /// assert!(jtoo::Date::from_year_month(2023, 13).is_err());
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn from_year_month(year: u16, month: u8) -> Result<Date, Error> {
        check_year(year)?;
        check_month(month)?;
        Ok(Date {
            year,
            kind: Kind::YearMonth,
            a: month,
            b: 0,
        })
    }

    /// A calendar day, `D2023-01-31`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidDate`] when the year is outside 1–9999, the month
    /// outside 1–12 or the day does not exist in that month (February 29
    /// exists only in leap years).
    ///
    /// ```
    /// assert!(jtoo::Date::from_ymd(2024, 2, 29).is_ok());
    /// assert!(jtoo::Date::from_ymd(2023, 2, 29).is_err());
    /// assert!(jtoo::Date::from_ymd(2023, 4, 31).is_err());
    /// ```
    pub fn from_ymd(year: u16, month: u8, day: u8) -> Result<Date, Error> {
        check_year(year)?;
        check_month(month)?;
        if day == 0 || day > days_in_month(year, month) {
            return Err(invalid("the day does not exist in that month"));
        }
        Ok(Date {
            year,
            kind: Kind::YearMonthDay,
            a: month,
            b: day,
        })
    }

    /// An ISO 8601 week, `D2023-W01`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidDate`] when the year is outside 1–9999 or the week
    /// outside 1–52 (1–53 in ISO years that have 53 weeks, see
    /// [`Date::weeks_in_year`]).
    ///
    /// ```
    /// assert!(jtoo::Date::from_week(2020, 53).is_ok());
    /// assert!(jtoo::Date::from_week(2021, 53).is_err());
    /// ```
    pub fn from_week(year: u16, week: u8) -> Result<Date, Error> {
        check_year(year)?;
        check_week(year, week)?;
        Ok(Date {
            year,
            kind: Kind::Week,
            a: week,
            b: 0,
        })
    }

    /// A day of an ISO 8601 week, `D2023-W01-1`; `day` is 1 (Monday) to 7
    /// (Sunday).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidDate`] when the week is invalid (see
    /// [`Date::from_week`]), the day is outside 1–7, or the day falls after
    /// 9999-12-31 (`D9999-W52-6` and `-7`).
    ///
    /// ```
    /// let d = jtoo::Date::from_week_day(2023, 1, 1)?;
    /// assert_eq!(d.to_ymd(), Some((2023, 1, 2)));
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn from_week_day(year: u16, week: u8, day: u8) -> Result<Date, Error> {
        check_year(year)?;
        check_week(year, week)?;
        if !(1..=7).contains(&day) {
            return Err(invalid("the week day must be 1 (Monday) to 7 (Sunday)"));
        }
        if !week_day_in_range(year, week, day) {
            return Err(invalid("the week day falls after 9999-12-31"));
        }
        Ok(Date {
            year,
            kind: Kind::WeekDay,
            a: week,
            b: day,
        })
    }

    /// The year (the ISO week-numbering year for the week forms).
    pub fn year(&self) -> u16 {
        self.year
    }

    /// The month (1–12) of the year-month and year-month-day forms.
    pub fn month(&self) -> Option<u8> {
        match self.kind {
            Kind::YearMonth | Kind::YearMonthDay => Some(self.a),
            _ => None,
        }
    }

    /// The day of the month of the year-month-day form.
    pub fn day(&self) -> Option<u8> {
        match self.kind {
            Kind::YearMonthDay => Some(self.b),
            _ => None,
        }
    }

    /// The ISO week (1–53) of the week and week-day forms.
    pub fn week(&self) -> Option<u8> {
        match self.kind {
            Kind::Week | Kind::WeekDay => Some(self.a),
            _ => None,
        }
    }

    /// The ISO day of the week, 1 (Monday) to 7 (Sunday), of the week-day form.
    pub fn week_day(&self) -> Option<u8> {
        match self.kind {
            Kind::WeekDay => Some(self.b),
            _ => None,
        }
    }

    /// `true` for the forms that name one day (year-month-day and week day):
    /// only these may be followed by a time.
    ///
    /// ```
    /// assert!(jtoo::Date::from_ymd(2023, 1, 1)?.is_full_day());
    /// assert!(!jtoo::Date::from_year_month(2023, 1)?.is_full_day());
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn is_full_day(&self) -> bool {
        matches!(self.kind, Kind::YearMonthDay | Kind::WeekDay)
    }

    /// `true` for the ISO week forms (`D2023-W01`, `D2023-W01-1`).
    pub fn is_week_date(&self) -> bool {
        matches!(self.kind, Kind::Week | Kind::WeekDay)
    }

    /// The calendar (year, month, day) of a full-day date; a week day is
    /// converted. `None` for the partial forms.
    ///
    /// ```
    /// let d: jtoo::Date = "D2020-W53-7".parse()?;
    /// assert_eq!(d.to_ymd(), Some((2021, 1, 3)));
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn to_ymd(&self) -> Option<(u16, u8, u8)> {
        match self.kind {
            Kind::YearMonthDay => Some((self.year, self.a, self.b)),
            Kind::WeekDay => {
                let (y, m, d) = civil_from_days(week_day_to_days(self.year, self.a, self.b));
                Some((y as u16, m as u8, d as u8))
            }
            _ => None,
        }
    }

    /// The ISO (week-numbering year, week, day) of a full-day date; a
    /// calendar day is converted. `None` for the partial forms.
    ///
    /// ```
    /// let d: jtoo::Date = "D2021-01-03".parse()?;
    /// assert_eq!(d.to_week_day(), Some((2020, 53, 7)));
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn to_week_day(&self) -> Option<(u16, u8, u8)> {
        match self.kind {
            Kind::WeekDay => Some((self.year, self.a, self.b)),
            Kind::YearMonthDay => {
                let days =
                    days_from_civil(i32::from(self.year), u32::from(self.a), u32::from(self.b));
                let (y, w, d) = days_to_week_day(days);
                Some((y as u16, w, d))
            }
            _ => None,
        }
    }

    /// The number of ISO weeks (52 or 53) in an ISO week-numbering year: 53
    /// when January 1 is a Thursday, or a Wednesday in a leap year.
    ///
    /// ```
    /// assert_eq!(jtoo::Date::weeks_in_year(2020), 53);
    /// assert_eq!(jtoo::Date::weeks_in_year(2021), 52);
    /// assert_eq!(jtoo::Date::weeks_in_year(2026), 53);
    /// ```
    pub fn weeks_in_year(year: u16) -> u8 {
        let jan1 = iso_weekday(days_from_civil(i32::from(year), 1, 1));
        if jan1 == 4 || (Date::is_leap_year(year) && jan1 == 3) {
            53
        } else {
            52
        }
    }

    /// `true` when `year` is a leap year of the proleptic Gregorian calendar.
    ///
    /// ```
    /// assert!(jtoo::Date::is_leap_year(2000));
    /// assert!(!jtoo::Date::is_leap_year(1900));
    /// ```
    pub fn is_leap_year(year: u16) -> bool {
        year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400))
    }

    /// Combines this date with a time, `D2023-12-30T01:02`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidTime`] unless the date is a full day
    /// ([`Date::is_full_day`]).
    ///
    /// ```
    /// use jtoo::{Date, Time};
    /// let dt = Date::from_ymd(2023, 12, 30)?.with_time(Time::from_hm(1, 2)?)?;
    /// assert_eq!(dt.to_string(), "D2023-12-30T01:02");
    /// assert!(Date::from_year(2023)?.with_time(Time::from_hour(1)?).is_err());
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn with_time(self, time: crate::Time) -> Result<crate::DateTime, Error> {
        crate::DateTime::new(Some(self), Some(time), None)
    }

    /// Combines this date with an offset, `D2023-12~08`. Any date form may
    /// carry an offset.
    ///
    /// ```
    /// use jtoo::{Date, Offset};
    /// let dt = Date::from_year_month(2023, 12)?.with_offset(Offset::from_minutes(-480)?);
    /// assert_eq!(dt.to_string(), "D2023-12~08");
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn with_offset(self, offset: crate::Offset) -> crate::DateTime {
        crate::DateTime::from_parts(Some(self), None, Some(offset))
    }

    /// Appends the canonical JTOO text to `out`.
    pub(crate) fn encode(&self, out: &mut impl Output) {
        out.push(b'D');
        push4(out, self.year);
        match self.kind {
            Kind::Year => {}
            Kind::YearMonth => {
                out.push(b'-');
                push2(out, self.a);
            }
            Kind::YearMonthDay => {
                out.extend_from_slice(&[
                    b'-',
                    b'0' + self.a / 10,
                    b'0' + self.a % 10,
                    b'-',
                    b'0' + self.b / 10,
                    b'0' + self.b % 10,
                ]);
            }
            Kind::Week => {
                out.extend_from_slice(b"-W");
                push2(out, self.a);
            }
            Kind::WeekDay => {
                out.extend_from_slice(b"-W");
                push2(out, self.a);
                out.push(b'-');
                out.push(b'0' + self.b);
            }
        }
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = Vec::with_capacity(12);
        self.encode(&mut buf);
        f.pad(std::str::from_utf8(&buf).map_err(|_| fmt::Error)?)
    }
}

impl FromStr for Date {
    type Err = Error;

    /// Reads the canonical JTOO text of a date (`D2023-01-01`); nothing may
    /// follow it (an offset makes it a [`crate::DateTime`]).
    fn from_str(s: &str) -> Result<Date, Error> {
        crate::parse::strict_all(s.as_bytes(), crate::parse::temporal::date)
    }
}

fn check_year(year: u16) -> Result<(), Error> {
    if (1..=9999).contains(&year) {
        Ok(())
    } else {
        Err(invalid("the year must be 0001 to 9999"))
    }
}

fn check_month(month: u8) -> Result<(), Error> {
    if (1..=12).contains(&month) {
        Ok(())
    } else {
        Err(invalid("the month must be 01 to 12"))
    }
}

fn check_week(year: u16, week: u8) -> Result<(), Error> {
    if week == 0 || week > 53 {
        Err(invalid("the week must be 01 to 52 or 53"))
    } else if week > Date::weeks_in_year(year) {
        Err(invalid("week 53 does not exist in this ISO year"))
    } else {
        Ok(())
    }
}

/// Days in `month` (1–12) of `year`.
pub(crate) fn days_in_month(year: u16, month: u8) -> u8 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if Date::is_leap_year(year) => 29,
        2 => 28,
        _ => 0,
    }
}

/// Days from 1970-01-01 to the given proleptic Gregorian date (Howard
/// Hinnant's `days_from_civil`).
pub(crate) fn days_from_civil(year: i32, month: u32, day: u32) -> i64 {
    let y = i64::from(year) - i64::from(month <= 2);
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (i64::from(month) + 9) % 12;
    let doy = (153 * mp + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date `days` after 1970-01-01 (inverse of
/// [`days_from_civil`]).
pub(crate) fn civil_from_days(days: i64) -> (i32, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y as i32, m as u32, d as u32)
}

/// ISO day of the week, 1 (Monday) to 7 (Sunday), of a day count from
/// 1970-01-01 (a Thursday).
pub(crate) fn iso_weekday(days: i64) -> u8 {
    ((days + 3).rem_euclid(7) + 1) as u8
}

/// Day count from 1970-01-01 of an ISO week date.
pub(crate) fn week_day_to_days(year: u16, week: u8, day: u8) -> i64 {
    let jan4 = days_from_civil(i32::from(year), 1, 4);
    let monday_week1 = jan4 - i64::from(iso_weekday(jan4)) + 1;
    monday_week1 + (i64::from(week) - 1) * 7 + i64::from(day) - 1
}

/// `true` when an ISO week date falls within 0001-01-01 ..= 9999-12-31.
fn week_day_in_range(year: u16, week: u8, day: u8) -> bool {
    let days = week_day_to_days(year, week, day);
    (MIN_DAYS..=MAX_DAYS).contains(&days)
}

/// Day count of 0001-01-01.
pub(crate) const MIN_DAYS: i64 = -719_162;
/// Day count of 9999-12-31.
pub(crate) const MAX_DAYS: i64 = 2_932_896;

/// The ISO (year, week, day) of a day count.
pub(crate) fn days_to_week_day(days: i64) -> (i32, u8, u8) {
    let wd = iso_weekday(days);
    // The Thursday of the same ISO week decides the ISO year.
    let thursday = days - i64::from(wd) + 4;
    let (y, _, _) = civil_from_days(thursday);
    let jan1 = days_from_civil(y, 1, 1);
    let week = (thursday - jan1) / 7 + 1;
    (y, week as u8, wd)
}

fn push2(out: &mut impl Output, v: u8) {
    out.extend_from_slice(&[b'0' + v / 10, b'0' + v % 10]);
}

fn push4(out: &mut impl Output, v: u16) {
    out.extend_from_slice(&[
        b'0' + (v / 1000) as u8,
        b'0' + (v / 100 % 10) as u8,
        b'0' + (v / 10 % 10) as u8,
        b'0' + (v % 10) as u8,
    ]);
}

#[cfg(feature = "chrono")]
mod chrono_impls {
    use super::*;
    use chrono::Datelike;

    fn weekday(d: u8) -> chrono::Weekday {
        match d {
            1 => chrono::Weekday::Mon,
            2 => chrono::Weekday::Tue,
            3 => chrono::Weekday::Wed,
            4 => chrono::Weekday::Thu,
            5 => chrono::Weekday::Fri,
            6 => chrono::Weekday::Sat,
            _ => chrono::Weekday::Sun,
        }
    }

    /// A calendar day (year-month-day form).
    ///
    /// Fails with [`ErrorKind::InvalidDate`] for years outside 1–9999.
    impl TryFrom<chrono::NaiveDate> for Date {
        type Error = Error;
        fn try_from(d: chrono::NaiveDate) -> Result<Date, Error> {
            let year =
                u16::try_from(d.year()).map_err(|_| invalid("the year must be 0001 to 9999"))?;
            Date::from_ymd(year, d.month() as u8, d.day() as u8)
        }
    }

    /// A full-day date: year-month-day, or a week day converted to its
    /// calendar day.
    ///
    /// Fails with [`ErrorKind::InvalidDate`] for the partial forms (year,
    /// year-month, week).
    impl TryFrom<Date> for chrono::NaiveDate {
        type Error = Error;
        fn try_from(d: Date) -> Result<chrono::NaiveDate, Error> {
            let r = match d.kind {
                Kind::YearMonthDay => chrono::NaiveDate::from_ymd_opt(
                    i32::from(d.year),
                    u32::from(d.a),
                    u32::from(d.b),
                ),
                Kind::WeekDay => chrono::NaiveDate::from_isoywd_opt(
                    i32::from(d.year),
                    u32::from(d.a),
                    weekday(d.b),
                ),
                _ => {
                    return Err(invalid(
                        "only a full-day date converts to a chrono::NaiveDate",
                    ));
                }
            };
            r.ok_or_else(|| invalid("date out of chrono's range"))
        }
    }

    /// An ISO week (week form).
    ///
    /// Fails with [`ErrorKind::InvalidDate`] for years outside 1–9999.
    impl TryFrom<chrono::IsoWeek> for Date {
        type Error = Error;
        fn try_from(w: chrono::IsoWeek) -> Result<Date, Error> {
            let year =
                u16::try_from(w.year()).map_err(|_| invalid("the year must be 0001 to 9999"))?;
            Date::from_week(year, w.week() as u8)
        }
    }

    /// The ISO week of a week or week-day date.
    ///
    /// Fails with [`ErrorKind::InvalidDate`] for the other forms.
    impl TryFrom<Date> for chrono::IsoWeek {
        type Error = Error;
        fn try_from(d: Date) -> Result<chrono::IsoWeek, Error> {
            match d.kind {
                Kind::Week | Kind::WeekDay => chrono::NaiveDate::from_isoywd_opt(
                    i32::from(d.year),
                    u32::from(d.a),
                    chrono::Weekday::Mon,
                )
                .map(|n| n.iso_week())
                .ok_or_else(|| invalid("date out of chrono's range")),
                _ => Err(invalid("only a week date converts to a chrono::IsoWeek")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_round_trip_and_known_days() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(1, 1, 1), MIN_DAYS);
        assert_eq!(days_from_civil(9999, 12, 31), MAX_DAYS);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        for days in (MIN_DAYS..=MAX_DAYS).step_by(97) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        // 0001-01-01 was a Monday, 1970-01-01 a Thursday.
        assert_eq!(iso_weekday(MIN_DAYS), 1);
        assert_eq!(iso_weekday(0), 4);
    }

    #[test]
    fn week_day_conversions() {
        // 2023-01-02 is the Monday of week 1 of 2023.
        assert_eq!(week_day_to_days(2023, 1, 1), days_from_civil(2023, 1, 2));
        // 2020 has 53 weeks; its last day is 2021-01-03.
        assert_eq!(week_day_to_days(2020, 53, 7), days_from_civil(2021, 1, 3));
        for days in (MIN_DAYS..=MAX_DAYS).step_by(13) {
            let (y, w, d) = days_to_week_day(days);
            assert_eq!(week_day_to_days(y as u16, w, d), days);
            assert!(w <= Date::weeks_in_year(y as u16));
        }
    }

    #[test]
    fn week_date_bounds() {
        assert_eq!(
            Date::from_week_day(1, 1, 1)
                .map(|d| d.to_ymd())
                .ok()
                .flatten(),
            Some((1, 1, 1))
        );
        assert!(Date::from_week_day(9999, 52, 5).is_ok());
        assert!(Date::from_week_day(9999, 52, 6).is_err());
        assert!(Date::from_week(9999, 52).is_ok());
    }

    #[test]
    fn size() {
        assert!(std::mem::size_of::<Date>() <= 6);
    }
}
