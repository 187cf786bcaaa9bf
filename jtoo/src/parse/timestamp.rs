//! Timestamps: `S`, an optional `-`, the seconds and an optional `.` fraction.
//!
//! The seconds follow the integer rules (`S1_709_528_240`; HTOO also
//! `S1709528240`) and the fraction has exactly 3, 6 or 9 digits grouped in
//! threes from the point; its trailing zeros are kept because the digit
//! count is the precision. The sign applies to the whole number (`S-1.500`
//! is −1.5 s) and negative zero (`S-0`, `S-0.000`) is an error.
//!
//! ```
//! use jtoo::parse::{timestamp::timestamp, Syntax};
//! let (rest, t) = timestamp(b"S1_709_528_240.001]", Syntax::Strict).unwrap();
//! assert_eq!(rest, b"]");
//! assert_eq!((t.secs(), t.subsec_nanos()), (1_709_528_240, 1_000_000));
//! assert!(timestamp(b"S1709528240", Syntax::Strict).is_err());
//! assert!(timestamp(b"S1709528240", Syntax::Lenient).is_ok());
//! ```

use crate::error::ErrorKind;
use crate::parse::number::{frac_digits, int_digits};
use crate::parse::{PResult, Syntax, fail};
use crate::types::{Timestamp, TimestampPrecision};

const OUT_OF_RANGE: ErrorKind = ErrorKind::InvalidTimestamp(
    "out of range: timestamps span 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z",
);

/// A timestamp. `input` starts with `S`.
///
/// # Errors
///
/// [`ErrorKind::InvalidTimestamp`] at the offending byte: digits that break
/// the integer rules, a fraction without exactly 3, 6 or 9 digits, a
/// negative zero, an instant outside years 0001–9999.
pub fn timestamp(input: &[u8], syntax: Syntax) -> PResult<'_, Timestamp> {
    let Some((&b'S', p)) = input.split_first() else {
        return fail(input, ErrorKind::InvalidTimestamp("expected `S`"));
    };
    let (negative, digits) = match p.split_first() {
        Some((&b'-', q)) => (true, q),
        _ => (false, p),
    };
    let (rest, whole) =
        int_digits(digits, syntax, ErrorKind::InvalidTimestamp).map_err(range_error)?;
    let (rest, frac_nanos, precision) = match rest.split_first() {
        Some((&b'.', f)) => {
            let (after, (value, count)) =
                frac_digits(f, syntax, ErrorKind::InvalidTimestamp).map_err(range_error)?;
            let precision = match TimestampPrecision::from_digits(count) {
                Some(p) if count > 0 => p,
                _ => {
                    return fail(
                        f,
                        ErrorKind::InvalidTimestamp("expected 3, 6 or 9 fraction digits"),
                    );
                }
            };
            // count ≤ 9, so the value is below 10⁹.
            let nanos = (value as u32) * 10u32.pow(9 - count);
            (after, nanos, precision)
        }
        _ => (rest, 0, TimestampPrecision::Seconds),
    };
    let (secs, nanos) = if negative {
        if whole == 0 && frac_nanos == 0 {
            return fail(
                p,
                ErrorKind::InvalidTimestamp("negative zero: zero is written without `-`"),
            );
        }
        let min = Timestamp::MIN_SECS.unsigned_abs() as u128;
        if whole > min || (whole == min && frac_nanos > 0) {
            return fail(digits, OUT_OF_RANGE);
        }
        let secs = -(whole as i64);
        if frac_nanos == 0 {
            (secs, 0)
        } else {
            (secs - 1, 1_000_000_000 - frac_nanos)
        }
    } else {
        if whole > Timestamp::MAX_SECS as u128 {
            return fail(digits, OUT_OF_RANGE);
        }
        (whole as i64, frac_nanos)
    };
    Ok((rest, Timestamp::from_checked_parts(secs, nanos, precision)))
}

/// Reports a number too large for the digit helpers as a timestamp out of
/// range.
fn range_error(e: nom::Err<crate::parse::ParseError>) -> nom::Err<crate::parse::ParseError> {
    e.map(|mut pe| {
        if matches!(pe.kind, ErrorKind::NumberOutOfRange(_)) {
            pe.kind = OUT_OF_RANGE;
        }
        pe
    })
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests {
    use super::*;

    fn parse(
        s: &str,
        syntax: Syntax,
    ) -> Result<(i64, u32, TimestampPrecision), (ErrorKind, usize)> {
        match timestamp(s.as_bytes(), syntax) {
            Ok((&[], t)) => Ok((t.secs(), t.subsec_nanos(), t.precision())),
            Ok((rest, _)) => panic!("{s}: left {rest:?}"),
            Err(e) => {
                let e = crate::parse::unwrap_nom_err(e, s.as_bytes());
                Err((e.kind, e.offset(s.as_bytes())))
            }
        }
    }

    #[test]
    fn sign_applies_to_the_whole_number() {
        use TimestampPrecision::*;
        let s = Syntax::Strict;
        assert_eq!(parse("S-1.500", s), Ok((-2, 500_000_000, Milliseconds)));
        assert_eq!(parse("S-0.500", s), Ok((-1, 500_000_000, Milliseconds)));
        assert_eq!(parse("S-1", s), Ok((-1, 0, Seconds)));
        assert_eq!(parse("S0.000", s), Ok((0, 0, Milliseconds)));
    }

    #[test]
    fn negative_zero_points_at_the_sign() {
        let e = ErrorKind::InvalidTimestamp("negative zero: zero is written without `-`");
        assert_eq!(parse("S-0", Syntax::Strict), Err((e, 1)));
        assert_eq!(parse("S-0.000_000", Syntax::Strict), Err((e, 1)));
    }

    #[test]
    fn range_edges() {
        let s = Syntax::Strict;
        assert!(parse("S-62_135_596_800", s).is_ok());
        assert_eq!(parse("S-62_135_596_800.001", s), Err((OUT_OF_RANGE, 2)));
        assert_eq!(parse("S-62_135_596_801", s), Err((OUT_OF_RANGE, 2)));
        assert!(parse("S253_402_300_799.999_999_999", s).is_ok());
        assert_eq!(parse("S253_402_300_800", s), Err((OUT_OF_RANGE, 1)));
        let huge = format!("S{}", "9".repeat(60));
        assert_eq!(
            parse(&huge, Syntax::Lenient).map_err(|e| e.0),
            Err(OUT_OF_RANGE)
        );
    }
}
