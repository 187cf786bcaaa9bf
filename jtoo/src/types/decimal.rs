//! `Decimal`: an exact decimal number (no binary floating point inside).

use crate::encode::Output;
use crate::encode::digits::{
    MAX_U64_SCALE, STACK_DIGITS, push_decimal, push_float, push_frac_grouped, push_grouped,
    push_grouped_zeros, push_u64_decimal,
};
use crate::error::{Error, ErrorKind};
use crate::float::shortest::{Shortest, f32_shortest, f64_shortest};
use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// The largest number of fraction digits a [`Decimal`] holds.
pub const MAX_SCALE: u32 = u16::MAX as u32;

/// The largest power of ten a [`Decimal`]'s coefficient is multiplied by
/// (so whole numbers up to about 10^65574 are held exactly).
pub const MAX_EXPONENT: u32 = u16::MAX as u32;

/// An exact decimal number: `±coefficient × 10^exponent`.
///
/// Range: the coefficient is a `u128` (38 significant digits always fit, 39
/// when below 2¹²⁸); the exponent runs from −65 535 (that many fraction
/// digits) to +65 535, so every finite `f64` (up to about 1.8 × 10³⁰⁸) is
/// held exactly. Stored normalised, so equal numbers are equal values: no trailing
/// zeros in the fraction, and zero is never negative. HTOO `1.50` and JTOO
/// `1.5` are the same `Decimal`.
///
/// `Display` writes the canonical text (`1_000.5`, `0.000_1`, `-1.0`);
/// `FromStr` reads exactly that.
///
/// ```
/// use jtoo::Decimal;
/// let d: Decimal = "1_234.5".parse().unwrap();
/// assert_eq!(d.to_f64(), 1234.5);
/// assert_eq!(Decimal::try_from(0.1f64).unwrap().to_string(), "0.1");
/// assert_eq!(Decimal::new(false, 15, 1).unwrap().to_string(), "1.5");
/// assert_eq!(Decimal::new(false, 1500, 3).unwrap().to_string(), "1.5");
/// assert_eq!(d.to_plain_string(), "1234.5");
/// assert!(Decimal::try_from(f64::NAN).is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Decimal {
    hi: u64,
    lo: u64,
    exp: i32,
    negative: bool,
}

fn out_of_range(why: &'static str) -> Error {
    Error::new(ErrorKind::NumberOutOfRange(why))
}

impl Decimal {
    /// Zero (`0.0`).
    pub const ZERO: Decimal = Decimal {
        hi: 0,
        lo: 0,
        exp: 0,
        negative: false,
    };

    /// `±coefficient × 10^−scale`, normalised (trailing zeros removed).
    ///
    /// # Errors
    /// `scale` above [`MAX_SCALE`].
    pub fn new(negative: bool, coefficient: u128, scale: u32) -> Result<Decimal, Error> {
        if scale > MAX_SCALE {
            return Err(out_of_range("decimal has too many fraction digits"));
        }
        Ok(Self::normalised(negative, coefficient, scale))
    }

    /// Normalises `±coefficient × 10^−scale`; `scale` must be ≤ MAX_SCALE.
    #[inline]
    pub(crate) fn normalised(negative: bool, coefficient: u128, scale: u32) -> Decimal {
        Self::normalised_exp(negative, coefficient, -(scale as i32))
    }

    /// Normalises `±coefficient × 10^exp` (strips the coefficient's trailing
    /// zeros into the exponent); the caller keeps `exp` within range.
    #[inline]
    pub(crate) fn normalised_exp(negative: bool, coefficient: u128, mut exp: i32) -> Decimal {
        if coefficient == 0 {
            return Decimal::ZERO;
        }
        // u128 division is a library call: stay in u64 when possible.
        let coefficient = match u64::try_from(coefficient) {
            Ok(mut c) => {
                while c % 10 == 0 {
                    c /= 10;
                    exp += 1;
                }
                u128::from(c)
            }
            Err(_) => {
                let mut c = coefficient;
                while c.is_multiple_of(10) {
                    c /= 10;
                    exp += 1;
                }
                c
            }
        };
        Self::from_raw(negative, coefficient, exp)
    }

    /// Builds from parts that are already normalised (no trailing zeros in a
    /// non-zero coefficient; zero is `(false, 0, 0)`).
    #[inline]
    pub(crate) const fn from_raw(negative: bool, coefficient: u128, exp: i32) -> Decimal {
        Decimal {
            hi: (coefficient >> 64) as u64,
            lo: coefficient as u64,
            exp,
            negative,
        }
    }

    /// `±coefficient × 10^exponent`: the form of scientific notation (JSON's
    /// `1.5e3` is `(false, 15, 2)`).
    ///
    /// # Errors
    /// When the value needs more than a `u128` coefficient (`1e39` and up) or
    /// more than [`MAX_SCALE`] fraction digits (`1e-70000`). Never allocates
    /// in proportion to the exponent.
    pub fn from_scientific(
        negative: bool,
        coefficient: u128,
        exponent: i64,
    ) -> Result<Decimal, Error> {
        if coefficient == 0 {
            return Ok(Decimal::ZERO);
        }
        // Normalise first so the range check sees the final exponent.
        let d = Self::normalised_exp(negative, coefficient, 0);
        let (c, e) = (d.coefficient(), exponent.saturating_add(i64::from(d.exp)));
        if e > i64::from(MAX_EXPONENT) {
            return Err(out_of_range("decimal exponent too large"));
        }
        if e < -i64::from(MAX_SCALE) {
            return Err(out_of_range("decimal has too many fraction digits"));
        }
        Ok(Self::from_raw(negative, c, e as i32))
    }

    /// The coefficient (all significant digits, without sign or point).
    #[inline]
    pub const fn coefficient(&self) -> u128 {
        ((self.hi as u128) << 64) | self.lo as u128
    }

    /// The number of fraction digits (0 for whole numbers).
    #[inline]
    pub const fn scale(&self) -> u32 {
        if self.exp < 0 {
            self.exp.unsigned_abs()
        } else {
            0
        }
    }

    /// The power of ten the coefficient is multiplied by (negative for
    /// fractions): the value is `±coefficient × 10^exponent`.
    #[inline]
    pub const fn exponent(&self) -> i32 {
        self.exp
    }

    /// `true` when below zero.
    #[inline]
    pub const fn is_negative(&self) -> bool {
        self.negative
    }

    /// `true` when the value has no fractional part.
    #[inline]
    pub const fn is_whole(&self) -> bool {
        self.exp >= 0
    }

    /// The nearest `f64` (correctly rounded).
    #[inline]
    pub fn to_f64(&self) -> f64 {
        let v = if self.hi == 0 {
            crate::float::dec2flt::to_f64(self.lo, self.exp)
        } else {
            // Beyond 64 bits (20+ significant digits): std's parser is
            // correctly rounded; no heap allocation.
            self.with_scientific(|s| s.parse::<f64>().unwrap_or(f64::INFINITY))
        };
        if self.negative { -v } else { v }
    }

    /// The nearest `f32` (correctly rounded, directly from the decimal).
    #[inline]
    pub fn to_f32(&self) -> f32 {
        let v = if self.hi == 0 {
            crate::float::dec2flt::to_f32(self.lo, self.exp)
        } else {
            self.with_scientific(|s| s.parse::<f32>().unwrap_or(f32::INFINITY))
        };
        if self.negative { -v } else { v }
    }

    /// Calls `f` with the unsigned value as `<coefficient>e<exponent>` text
    /// built in a stack buffer.
    fn with_scientific<T>(&self, f: impl FnOnce(&str) -> T) -> T {
        let mut buf = [0u8; 56];
        let mut c = itoa::Buffer::new();
        let mut e = itoa::Buffer::new();
        let (c, e) = (
            c.format(self.coefficient()).as_bytes(),
            e.format(self.exp).as_bytes(),
        );
        let n = c.len() + 1 + e.len(); // at most 39 + 1 + 11
        buf[..c.len()].copy_from_slice(c);
        buf[c.len()] = b'e';
        buf[c.len() + 1..n].copy_from_slice(e);
        f(std::str::from_utf8(&buf[..n]).unwrap_or("0"))
    }

    /// The exact decimal of the shortest digits that round-trip through
    /// `f64` (the closest such when there are several), e.g. `0.1f64` → `0.1`.
    ///
    /// # Errors
    /// NaN and infinities have no JTOO form.
    pub fn from_f64(v: f64) -> Result<Decimal, Error> {
        if !v.is_finite() {
            return Err(Error::new(ErrorKind::Unencodable(
                "NaN and infinity have no JTOO form",
            )));
        }
        Ok(Self::from_shortest(v.is_sign_negative(), f64_shortest(v)))
    }

    /// As [`Decimal::from_f64`], with the shortest digits that round-trip
    /// through `f32`.
    ///
    /// # Errors
    /// NaN and infinities have no JTOO form.
    pub fn from_f32(v: f32) -> Result<Decimal, Error> {
        if !v.is_finite() {
            return Err(Error::new(ErrorKind::Unencodable(
                "NaN and infinity have no JTOO form",
            )));
        }
        Ok(Self::from_shortest(v.is_sign_negative(), f32_shortest(v)))
    }

    /// The decimal of a finite float's shortest digits (`negative`: the
    /// float's sign bit; zero is never negative).
    #[inline(always)]
    pub(crate) fn from_shortest(negative: bool, s: Shortest) -> Decimal {
        Self::from_raw(negative && s.digits != 0, u128::from(s.digits), s.exp)
    }

    /// Plain text without `_`: `1000.5`, `1.0`, `-0.001`.
    pub fn to_plain_string(&self) -> String {
        let mut out = Vec::new();
        self.write(&mut out, false);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Appends the canonical text to `out`.
    #[inline(always)]
    pub(crate) fn encode(&self, out: &mut impl Output) {
        if self.hi == 0 {
            // Straight from the 64-bit coefficient in three-digit groups.
            if push_float(out, self.negative, self.lo, self.exp) {
                return;
            }
            // (Whole numbers below 2^64 are all taken by `push_float`.)
            if self.exp < 0 && self.exp.unsigned_abs() <= MAX_U64_SCALE {
                return push_u64_decimal(out, self.negative, self.lo, self.exp.unsigned_abs());
            }
        }
        self.write(out, true);
    }

    fn write(&self, out: &mut impl Output, grouped: bool) {
        let mut buf = itoa::Buffer::new();
        let digits = if self.hi == 0 {
            buf.format(self.lo).as_bytes()
        } else {
            buf.format(self.coefficient()).as_bytes()
        };
        write_digits(out, self.negative, digits, i64::from(self.exp), grouped);
    }
}

/// Writes `±digits × 10^exp` in JTOO's decimal layout: `digits` has no
/// leading zeros (or is `0`) and, when `exp < 0`, no trailing zeros. Shared
/// by [`Decimal`] and the float writers.
#[inline]
pub(crate) fn write_digits(
    out: &mut impl Output,
    negative: bool,
    digits: &[u8],
    exp: i64,
    grouped: bool,
) {
    if grouped && stack_layout(out, negative, digits, exp) {
        return;
    }
    if negative {
        out.push(b'-');
    }
    if exp >= 0 {
        let zeros = exp as usize;
        if grouped {
            push_grouped_zeros(out, digits, zeros);
        } else {
            out.extend_from_slice(digits);
            out.extend_with(zeros, b'0');
        }
        out.extend_from_slice(b".0");
        return;
    }
    let scale = exp.unsigned_abs() as usize;
    let (int, frac_zeros, frac) = if digits.len() > scale {
        let (i, f) = digits.split_at(digits.len() - scale);
        (i, 0, f)
    } else {
        (&b"0"[..], scale - digits.len(), digits)
    };
    if grouped {
        push_grouped(out, int);
        out.push(b'.');
        push_frac_grouped(out, frac_zeros, frac);
    } else {
        out.extend_from_slice(int);
        out.push(b'.');
        out.extend_with(frac_zeros, b'0');
        out.extend_from_slice(frac);
    }
}

/// The grouped layout of `write_digits` built on the stack and appended in
/// one copy, when all its digits fit ([`STACK_DIGITS`]); `false` (nothing
/// written) otherwise.
#[inline]
fn stack_layout(out: &mut impl Output, negative: bool, digits: &[u8], exp: i64) -> bool {
    let n = digits.len();
    if exp >= 0 {
        let zeros = exp as usize;
        if n + zeros > STACK_DIGITS {
            return false;
        }
        push_decimal(out, negative, digits, zeros, 0, b"0");
        return true;
    }
    let scale = exp.unsigned_abs() as usize;
    if n > scale {
        if n > STACK_DIGITS {
            return false;
        }
        let (int, frac) = digits.split_at(n - scale);
        push_decimal(out, negative, int, 0, 0, frac);
    } else {
        if scale + 1 > STACK_DIGITS {
            return false;
        }
        push_decimal(out, negative, b"0", 0, scale - n, digits);
    }
    true
}

impl Ord for Decimal {
    fn cmp(&self, other: &Decimal) -> Ordering {
        fn mag_cmp(a: &Decimal, b: &Decimal) -> Ordering {
            // Align exponents: scale the one with the larger exponent up; if
            // that overflows it is the larger magnitude.
            let (ac, bc) = (a.coefficient(), b.coefficient());
            if ac == 0 || bc == 0 {
                return ac.cmp(&bc);
            }
            let scale_up = |c: u128, by: u32| 10u128.checked_pow(by).and_then(|p| c.checked_mul(p));
            if a.exp >= b.exp {
                match scale_up(ac, a.exp.abs_diff(b.exp)) {
                    Some(a) => a.cmp(&bc),
                    None => Ordering::Greater,
                }
            } else {
                match scale_up(bc, a.exp.abs_diff(b.exp)) {
                    Some(b) => ac.cmp(&b),
                    None => Ordering::Less,
                }
            }
        }
        match (self.negative, other.negative) {
            (false, false) => mag_cmp(self, other),
            (true, true) => mag_cmp(other, self),
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
        }
    }
}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Decimal) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = Vec::with_capacity(64);
        self.encode(&mut out);
        f.write_str(&String::from_utf8_lossy(&out))
    }
}

impl FromStr for Decimal {
    type Err = Error;
    fn from_str(s: &str) -> Result<Decimal, Error> {
        crate::parse::strict_all(s.as_bytes(), |i, syntax| {
            let (rest, n) = crate::parse::number::number(i, syntax)?;
            match n {
                crate::parse::Number::Decimal(v) => Ok((rest, v)),
                crate::parse::Number::Integer(_) => crate::parse::fail(
                    i,
                    ErrorKind::InvalidDecimal("expected a decimal, found an integer"),
                ),
            }
        })
    }
}

impl TryFrom<f64> for Decimal {
    type Error = Error;
    fn try_from(v: f64) -> Result<Decimal, Error> {
        Decimal::from_f64(v)
    }
}

impl TryFrom<f32> for Decimal {
    type Error = Error;
    fn try_from(v: f32) -> Result<Decimal, Error> {
        Decimal::from_f32(v)
    }
}

impl From<Decimal> for f64 {
    fn from(d: Decimal) -> f64 {
        d.to_f64()
    }
}

impl From<crate::Integer> for Decimal {
    /// The whole decimal of the same value (`5` → `5.0`).
    fn from(i: crate::Integer) -> Decimal {
        Decimal::normalised(i.is_negative(), i.magnitude(), 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_text() {
        let cases = [
            ((false, 0, 0), "0.0"),
            ((false, 10, 0), "10.0"),
            ((true, 1, 0), "-1.0"),
            ((false, 10005, 1), "1_000.5"),
            ((false, 1, 4), "0.000_1"),
            ((false, 12345, 4), "1.234_5"),
            ((false, 1_234_567, 3), "1_234.567"),
            ((false, 1, 1), "0.1"),
        ];
        for ((n, c, s), text) in cases {
            let d = Decimal::new(n, c, s).unwrap();
            assert_eq!(d.to_string(), text);
            assert_eq!(text.parse::<Decimal>().unwrap(), d);
        }
    }

    #[test]
    fn scientific() {
        assert_eq!(
            Decimal::from_scientific(false, 1, 5).unwrap().to_string(),
            "100_000.0"
        );
        assert_eq!(
            Decimal::from_scientific(false, 150, -2)
                .unwrap()
                .to_string(),
            "1.5"
        );
        assert!(Decimal::from_scientific(false, 1, 999_999_999).is_err());
        assert_eq!(
            Decimal::from_scientific(false, 12, 40)
                .unwrap()
                .to_string()
                .len(),
            42 + 13 + 2
        );
        assert!(Decimal::from_scientific(false, 1, -999_999_999).is_err());
        assert_eq!(Decimal::from_scientific(true, 0, 7).unwrap(), Decimal::ZERO);
    }

    #[test]
    fn floats_round_trip() {
        for f in [
            0.1,
            -2.5,
            1e300,
            5e-324,
            123456.789,
            f64::MAX,
            f64::MIN_POSITIVE,
            -0.0,
            1e22,
            1e23,
        ] {
            let d = Decimal::from_f64(f).unwrap();
            assert_eq!(d.to_f64(), if f == 0.0 { 0.0 } else { f }, "{f}");
        }
        assert_eq!(Decimal::from_f32(0.1f32).unwrap().to_string(), "0.1");
        assert_eq!(Decimal::from_f32(0.1f32).unwrap().to_f32(), 0.1f32);
    }

    #[test]
    fn ordering() {
        let p = |s: &str| s.parse::<Decimal>().unwrap();
        assert!(p("1.5") > p("1.25"));
        assert!(p("-1.5") < p("-1.25"));
        assert!(p("0.0") > p("-0.1"));
        assert_eq!(p("2.0").cmp(&p("2.0")), Ordering::Equal);
    }
}
