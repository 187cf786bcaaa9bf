//! `Integer`: every integer from −(2¹²⁸−1) to 2¹²⁸−1, so all of `i128` and
//! all of `u128`.

use crate::encode::Output;
use crate::encode::digits::{push_int, push_u64};
use crate::error::{Error, ErrorKind};
use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// A JTOO integer: sign and 128-bit magnitude.
///
/// Range: −(2¹²⁸−1) ..= 2¹²⁸−1, which covers every `i128` and every `u128`.
/// Zero is never negative. Stored as two `u64` halves so the type stays
/// 8-byte aligned (24 bytes) and `Value` stays small.
///
/// `Display` writes the canonical text (`-1_000`); `FromStr` reads exactly
/// that.
///
/// ```
/// use jtoo::Integer;
/// let i = Integer::from(-1234567);
/// assert_eq!(i.to_string(), "-1_234_567");
/// assert_eq!("-1_234_567".parse::<Integer>().unwrap(), i);
/// assert!("-1234567".parse::<Integer>().is_err()); // not the canonical spelling
/// assert_eq!(Integer::from(u128::MAX).to_u128(), Some(u128::MAX));
/// assert_eq!(i.to_plain_string(), "-1234567");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Integer {
    hi: u64,
    lo: u64,
    negative: bool,
}

impl Integer {
    /// Zero.
    pub const ZERO: Integer = Integer {
        hi: 0,
        lo: 0,
        negative: false,
    };

    /// Builds `±magnitude`; a negative zero becomes zero.
    #[inline]
    pub const fn new(negative: bool, magnitude: u128) -> Integer {
        Integer {
            hi: (magnitude >> 64) as u64,
            lo: magnitude as u64,
            negative: negative && magnitude != 0,
        }
    }

    /// The absolute value.
    #[inline]
    pub const fn magnitude(&self) -> u128 {
        ((self.hi as u128) << 64) | self.lo as u128
    }

    /// `true` when below zero.
    #[inline]
    pub const fn is_negative(&self) -> bool {
        self.negative
    }

    /// The value as `i64`, if it fits.
    pub fn to_i64(&self) -> Option<i64> {
        self.to_i128().and_then(|v| i64::try_from(v).ok())
    }

    /// The value as `u64`, if it fits.
    pub fn to_u64(&self) -> Option<u64> {
        self.to_u128().and_then(|v| u64::try_from(v).ok())
    }

    /// The value as `i128`, if it fits.
    pub fn to_i128(&self) -> Option<i128> {
        let m = self.magnitude();
        if self.negative {
            if m == 1u128 << 127 {
                Some(i128::MIN)
            } else {
                i128::try_from(m).ok().map(|v| -v)
            }
        } else {
            i128::try_from(m).ok()
        }
    }

    /// The value as `u128`, if it is not negative.
    pub fn to_u128(&self) -> Option<u128> {
        (!self.negative).then(|| self.magnitude())
    }

    /// The nearest `f64` (correctly rounded).
    pub fn to_f64(&self) -> f64 {
        let m = self.magnitude() as f64; // `as` from u128 rounds to nearest
        if self.negative { -m } else { m }
    }

    /// Plain decimal digits with an optional `-`, without `_` (`-1234`).
    pub fn to_plain_string(&self) -> String {
        let mut buf = itoa::Buffer::new();
        let digits = buf.format(self.magnitude());
        if self.negative {
            format!("-{digits}")
        } else {
            digits.to_string()
        }
    }

    /// Appends the canonical text to `out`.
    #[inline]
    pub(crate) fn encode(&self, out: &mut impl Output) {
        if self.hi == 0 {
            push_u64(out, self.negative, self.lo);
        } else {
            let mut buf = itoa::Buffer::new();
            push_int(out, self.negative, buf.format(self.magnitude()).as_bytes());
        }
    }
}

impl Ord for Integer {
    fn cmp(&self, other: &Integer) -> Ordering {
        match (self.negative, other.negative) {
            (false, false) => self.magnitude().cmp(&other.magnitude()),
            (true, true) => other.magnitude().cmp(&self.magnitude()),
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
        }
    }
}

impl PartialOrd for Integer {
    fn partial_cmp(&self, other: &Integer) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Integer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = Vec::with_capacity(56);
        self.encode(&mut out);
        f.write_str(&String::from_utf8_lossy(&out))
    }
}

impl FromStr for Integer {
    type Err = Error;
    fn from_str(s: &str) -> Result<Integer, Error> {
        crate::parse::strict_all(s.as_bytes(), |i, syntax| {
            let (rest, n) = crate::parse::number::number(i, syntax)?;
            match n {
                crate::parse::Number::Integer(v) => Ok((rest, v)),
                crate::parse::Number::Decimal(_) => crate::parse::fail(
                    i,
                    ErrorKind::InvalidInteger("expected an integer, found a decimal"),
                ),
            }
        })
    }
}

macro_rules! from_unsigned {
    ($($t:ty),*) => {$(
        impl From<$t> for Integer {
            #[inline]
            fn from(v: $t) -> Integer { Integer::new(false, v as u128) }
        }
        impl TryFrom<Integer> for $t {
            type Error = Error;
            fn try_from(v: Integer) -> Result<$t, Error> {
                v.to_u128()
                    .and_then(|m| <$t>::try_from(m).ok())
                    .ok_or_else(|| Error::new(ErrorKind::NumberOutOfRange(concat!("integer does not fit in ", stringify!($t)))))
            }
        }
    )*};
}
macro_rules! from_signed {
    ($($t:ty),*) => {$(
        impl From<$t> for Integer {
            #[inline]
            fn from(v: $t) -> Integer { Integer::new(v < 0, (v as i128).unsigned_abs()) }
        }
        impl TryFrom<Integer> for $t {
            type Error = Error;
            fn try_from(v: Integer) -> Result<$t, Error> {
                v.to_i128()
                    .and_then(|m| <$t>::try_from(m).ok())
                    .ok_or_else(|| Error::new(ErrorKind::NumberOutOfRange(concat!("integer does not fit in ", stringify!($t)))))
            }
        }
    )*};
}
from_unsigned!(u8, u16, u32, u64, u128, usize);
from_signed!(i8, i16, i32, i64, i128, isize);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extremes_round_trip() {
        for v in [i128::MIN, i128::MAX, -1, 0, 1] {
            let i = Integer::from(v);
            assert_eq!(i.to_i128(), Some(v));
            assert_eq!(i.to_string().parse::<Integer>().unwrap(), i);
        }
        let max = Integer::from(u128::MAX);
        assert_eq!(
            max.to_string(),
            "340_282_366_920_938_463_463_374_607_431_768_211_455"
        );
        assert_eq!(Integer::new(true, u128::MAX).to_i128(), None);
        assert_eq!(Integer::new(true, 0), Integer::ZERO);
    }

    #[test]
    fn try_from_checks_range() {
        assert!(u8::try_from(Integer::from(256)).is_err());
        assert!(u8::try_from(Integer::from(-1)).is_err());
        assert_eq!(i8::try_from(Integer::from(-128)).unwrap(), -128);
    }

    #[test]
    fn ordering() {
        let mut v: Vec<Integer> = [3i64, -5, 0, -1, 10].iter().map(|&x| x.into()).collect();
        v.sort();
        let back: Vec<i64> = v.iter().map(|x| x.to_i64().unwrap()).collect();
        assert_eq!(back, [-5, -1, 0, 3, 10]);
    }
}
