//! Integers and decimals, and the digit-group rules timestamps share.
//!
//! Strict: `-`? int-part [`.` frac-part]; int-part is `0` or starts with a
//! non-zero digit, and longer than three digits it is grouped in threes from
//! the right (`1_000`); a fraction is grouped in threes from the point
//! (`0.000_1`) and has no trailing zeros (`1.0` for whole values).
//! Lenient (HTOO): `_` between any two digits or none at all, and trailing
//! zeros in a decimal's fraction.

mod fast;

use super::{PResult, Syntax, fail};
use crate::error::ErrorKind;
use crate::types::{Decimal, Integer};
use fast::{scan_strict, strict_fast};

/// A parsed number: the grammar tells integers and decimals apart by the `.`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Number {
    /// No fraction part.
    Integer(Integer),
    /// With a fraction part.
    Decimal(Decimal),
}

/// Parses a number starting at `-` or a digit.
///
/// ```
/// use jtoo::parse::{number::number, Number, Syntax};
/// let (_, n) = number(b"-0.000_1", Syntax::Strict).unwrap();
/// assert!(matches!(n, Number::Decimal(d) if d.to_string() == "-0.000_1"));
/// assert!(number(b"1.50", Syntax::Strict).is_err());
/// assert!(number(b"1.50", Syntax::Lenient).is_ok());
/// ```
#[inline(always)]
pub fn number(input: &[u8], syntax: Syntax) -> PResult<'_, Number> {
    if let Some((rest, s)) = strict_fast(input, syntax) {
        return Ok((rest, s.number()));
    }
    number_general(input, syntax)
}

/// The strict grammar's common case of [`number`] alone: the number and
/// the rest after it, or `None` when the input needs the full production
/// (which may still accept it, or say what is wrong). Never accepts what
/// [`number`] refuses; for callers that keep the full production out of
/// line.
#[inline(always)]
pub(crate) fn strict_number_prefix(input: &[u8]) -> Option<(&[u8], Number)> {
    strict_fast(input, Syntax::Strict).map(|(rest, s)| (rest, s.number()))
}

/// Parses a number (as [`number`]) straight to the nearest `f64`, correctly
/// rounded: what a deserializer asking for a float wants, without building
/// a [`Decimal`] on the common path. Same grammar and errors as [`number`].
///
/// ```
/// use jtoo::parse::{number::number_f64, Syntax};
/// let (_, v) = number_f64(b"-65.613_616_999_999_977", Syntax::Strict).unwrap();
/// assert_eq!(v, -65.613_616_999_999_98);
/// assert_eq!(number_f64(b"1_000", Syntax::Strict).unwrap().1, 1000.0);
/// assert!(number_f64(b"1.50", Syntax::Strict).is_err());
/// ```
#[inline(always)]
pub fn number_f64(input: &[u8], syntax: Syntax) -> PResult<'_, f64> {
    if let Some((rest, s)) = strict_fast(input, syntax) {
        return Ok((rest, s.to_f64()));
    }
    number_f64_general(input, syntax)
}

/// The strict grammar's common case of [`number_f64`] alone, for callers
/// that track a position: `(bytes read, value)`, or `None` when the input
/// needs the full production (which may still accept it, or say what is
/// wrong). Never accepts what [`number_f64`] refuses.
///
/// ```
/// use jtoo::parse::number::strict_f64_prefix;
/// assert_eq!(strict_f64_prefix(b"-1.5,"), Some((4, -1.5)));
/// assert_eq!(strict_f64_prefix(b"1.50"), None);
/// ```
#[inline(always)]
pub fn strict_f64_prefix(input: &[u8]) -> Option<(usize, f64)> {
    scan_strict(input).map(|s| (s.len, s.to_f64()))
}

/// The strict grammar's common case of an integer alone, for callers that
/// track a position: `(bytes read, negative, magnitude)` for an integer of
/// at most 19 digits, or `None` when the input is something else or needs
/// the full production (which may still accept it, or say what is wrong).
/// Never accepts what [`number`] refuses or reads as a decimal.
///
/// ```
/// use jtoo::parse::number::strict_integer_prefix;
/// assert_eq!(strict_integer_prefix(b"-1_234,"), Some((6, true, 1234)));
/// assert_eq!(strict_integer_prefix(b"1.5"), None);
/// assert_eq!(strict_integer_prefix(b"1234"), None); // not canonical
/// ```
#[inline(always)]
pub fn strict_integer_prefix(input: &[u8]) -> Option<(usize, bool, u64)> {
    scan_strict(input).and_then(|s| match s.scale {
        None => Some((s.len, s.negative, s.mantissa)),
        Some(_) => None,
    })
}

#[inline(never)]
fn number_f64_general(input: &[u8], syntax: Syntax) -> PResult<'_, f64> {
    let (rest, n) = number_general(input, syntax)?;
    let v = match n {
        Number::Integer(i) => i.to_f64(),
        Number::Decimal(d) => d.to_f64(),
    };
    Ok((rest, v))
}

/// As [`number_f64`], to the nearest `f32` (one rounding, straight from
/// the decimal digits).
#[inline]
pub fn number_f32(input: &[u8], syntax: Syntax) -> PResult<'_, f32> {
    if let Some((rest, s)) = strict_fast(input, syntax) {
        return Ok((rest, s.to_f32()));
    }
    let (rest, n) = number_general(input, syntax)?;
    let v = match n {
        Number::Integer(i) => {
            // `as` from u128 rounds to nearest, once.
            let m = i.magnitude() as f32;
            if i.is_negative() { -m } else { m }
        }
        Number::Decimal(d) => d.to_f32(),
    };
    Ok((rest, v))
}

/// The general production: both syntaxes, every error.
#[inline(never)]
fn number_general(input: &[u8], syntax: Syntax) -> PResult<'_, Number> {
    let (negative, digits) = match input.first() {
        Some(b'-') => (true, &input[1..]),
        _ => (false, input),
    };
    let mut acc = Digits::default();
    let rest = match int_run(digits, syntax, ErrorKind::InvalidInteger, &mut acc) {
        Ok((rest, ())) => rest,
        Err(e) => return Err(relabel_if_decimal(e, digits)),
    };
    if rest.first() != Some(&b'.') {
        if let Some(b'e' | b'E') = rest.first() {
            return fail(rest, ErrorKind::InvalidInteger("exponents are not allowed"));
        }
        let Some(int) = acc.to_u128() else {
            return fail(
                input,
                ErrorKind::NumberOutOfRange("integer beyond 128 bits"),
            );
        };
        if negative && int == 0 {
            return fail(
                input,
                ErrorKind::InvalidInteger("negative zero is written `0`"),
            );
        }
        return Ok((rest, Number::Integer(Integer::new(negative, int))));
    }
    let int_count = acc.count;
    let (rest, ()) = frac_run(&rest[1..], syntax, ErrorKind::InvalidDecimal, &mut acc)?;
    if let Some(b'e' | b'E') = rest.first() {
        return fail(rest, ErrorKind::InvalidDecimal("exponents are not allowed"));
    }
    let frac_count = acc.count - int_count;
    let is_zero = acc.is_zero();
    if !syntax.is_lenient() {
        // Whole values have the fraction `0`; others end in a non-zero digit.
        let last_at = input.len() - rest.len() - 1;
        let whole = acc.nonzero_after(int_count).not();
        if (whole && frac_count != 1) || (!whole && input[last_at] == b'0') {
            return fail(
                &input[last_at..],
                ErrorKind::InvalidDecimal(
                    "trailing zeros are not allowed (the fraction is `0` only for whole numbers)",
                ),
            );
        }
    }
    if negative && is_zero {
        return fail(
            input,
            ErrorKind::InvalidDecimal("negative zero is written `0.0`"),
        );
    }
    let Some((coefficient, zeros)) = acc.finish() else {
        return fail(
            input,
            ErrorKind::NumberOutOfRange(
                "decimal has more significant digits than a 128-bit coefficient holds",
            ),
        );
    };
    let exp = i64::from(zeros) - i64::from(frac_count);
    if syntax.is_lenient() || !acc.nonzero_after(int_count) {
        // Whole values (`5.0`), lenient trailing zeros and long zero runs
        // need normalising (and a range check).
        return match Decimal::from_scientific(negative, coefficient, exp) {
            Ok(d) => Ok((rest, Number::Decimal(d))),
            Err(_) => fail(
                input,
                ErrorKind::NumberOutOfRange("decimal has too many digits"),
            ),
        };
    }
    // Strict fractions end in a non-zero digit: already normalised.
    if exp < -i64::from(crate::types::DECIMAL_MAX_SCALE) {
        return fail(
            input,
            ErrorKind::NumberOutOfRange("decimal has too many fraction digits"),
        );
    }
    Ok((
        rest,
        Number::Decimal(Decimal::from_raw(negative, coefficient, exp as i32)),
    ))
}

/// An error in the integer part of what turns out to be a decimal says
/// "invalid decimal". Only runs on the error path.
fn relabel_if_decimal(
    e: nom::Err<super::ParseError>,
    digits: &[u8],
) -> nom::Err<super::ParseError> {
    let run = digits
        .iter()
        .position(|b| !(b.is_ascii_digit() || *b == b'_'))
        .unwrap_or(digits.len());
    if digits.get(run) != Some(&b'.') {
        return e;
    }
    e.map(|mut pe| {
        if let ErrorKind::InvalidInteger(why) = pe.kind {
            pe.kind = ErrorKind::InvalidDecimal(why);
        }
        pe
    })
}

use std::ops::Not;

const POW10: [u128; 39] = {
    let mut t = [1u128; 39];
    let mut i = 1;
    while i < 39 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

/// Accumulates a run of decimal digits as `coefficient × 10^zeros` without
/// overflowing on long runs of trailing zeros (`1` followed by 300 zeros is
/// fine; 40 significant digits are not). The first 19 digits take a plain
/// `u64` fast path.
#[derive(Default, Debug)]
pub(crate) struct Digits {
    small: u64,
    big: u128,
    zeros: u32,
    /// Digits pushed so far.
    pub(crate) count: u32,
    /// Index (in digits) of the last non-zero digit plus one; 0 when none.
    last_nonzero: u32,
    overflow: bool,
}

impl Digits {
    #[inline(always)]
    fn push(&mut self, d: u8) {
        let d = d - b'0';
        if d != 0 {
            self.last_nonzero = self.count + 1;
        }
        if self.count < 19 {
            self.small = self.small * 10 + u64::from(d);
        } else {
            if self.count == 19 {
                self.big = u128::from(self.small);
            }
            self.push_big(d);
        }
        self.count += 1;
    }

    #[inline(never)]
    fn push_big(&mut self, d: u8) {
        if d == 0 {
            self.zeros += 1;
            return;
        }
        if self.big == 0 {
            self.big = u128::from(d);
            self.zeros = 0;
            return;
        }
        let scaled = POW10
            .get(self.zeros as usize + 1)
            .and_then(|p| self.big.checked_mul(*p))
            .and_then(|v| v.checked_add(u128::from(d)));
        match scaled {
            Some(v) => {
                self.big = v;
                self.zeros = 0;
            }
            None => self.overflow = true,
        }
    }

    /// All digits so far are zero.
    #[inline]
    fn is_zero(&self) -> bool {
        self.last_nonzero == 0
    }

    /// Some digit after the first `n` is non-zero.
    #[inline]
    fn nonzero_after(&self, n: u32) -> bool {
        self.last_nonzero > n
    }

    /// `(coefficient, zeros)` with value `coefficient × 10^zeros`, unless the
    /// significant digits overflowed.
    #[inline]
    fn finish(&self) -> Option<(u128, u32)> {
        if self.overflow {
            None
        } else if self.count <= 19 {
            Some((u128::from(self.small), 0))
        } else {
            Some((self.big, self.zeros))
        }
    }

    /// The value, if it fits a `u128`.
    #[inline]
    fn to_u128(&self) -> Option<u128> {
        let (c, z) = self.finish()?;
        if c == 0 {
            return Some(0);
        }
        POW10.get(z as usize).and_then(|p| c.checked_mul(*p))
    }
}

/// The digits of an integer part (no sign): strict `0` or `d{1,3}(_ddd)*`
/// without a leading zero; lenient `_` between any two digits. Errors are
/// built with `err`; a value above `u128::MAX` is out of range.
pub(crate) fn int_digits(
    input: &[u8],
    syntax: Syntax,
    err: fn(&'static str) -> ErrorKind,
) -> PResult<'_, u128> {
    let mut acc = Digits::default();
    let (rest, ()) = int_run(input, syntax, err, &mut acc)?;
    match acc.to_u128() {
        Some(v) => Ok((rest, v)),
        None => fail(
            input,
            ErrorKind::NumberOutOfRange("integer beyond 128 bits"),
        ),
    }
}

/// Fraction digits after the `.`: strict groups of three from the point
/// (`ddd(_ddd)*`, the last group 1–3 digits); lenient `_` between any two
/// digits. Returns the digits' value and count; trailing zeros are the
/// caller's business.
pub(crate) fn frac_digits(
    input: &[u8],
    syntax: Syntax,
    err: fn(&'static str) -> ErrorKind,
) -> PResult<'_, (u128, u32)> {
    let mut acc = Digits::default();
    let (rest, ()) = frac_run(input, syntax, err, &mut acc)?;
    match acc.to_u128() {
        Some(v) => Ok((rest, (v, acc.count))),
        None => fail(
            input,
            ErrorKind::NumberOutOfRange("too many fraction digits"),
        ),
    }
}

/// Integer-part digits into `acc`.
fn int_run<'a>(
    input: &'a [u8],
    syntax: Syntax,
    err: fn(&'static str) -> ErrorKind,
    acc: &mut Digits,
) -> PResult<'a, ()> {
    match input.first() {
        Some(b'0') => {
            return match input.get(1) {
                Some(b'0'..=b'9') => fail(input, err("leading zeros are not allowed")),
                Some(b'_') if syntax.is_lenient() => {
                    fail(input, err("leading zeros are not allowed"))
                }
                Some(b'_') => fail(
                    &input[1..],
                    err("`_` may only separate groups of three digits"),
                ),
                _ => {
                    acc.push(b'0');
                    Ok((&input[1..], ()))
                }
            };
        }
        Some(b'1'..=b'9') => {}
        Some(b'_') => return fail(input, err("`_` must stand between two digits")),
        Some(_) => return fail(input, err("expected a digit")),
        None => return fail(input, ErrorKind::UnexpectedEnd),
    }
    if syntax.is_lenient() {
        return lenient_run(input, err, acc);
    }
    let mut i = 0;
    // First group: 1–3 digits.
    while let Some(&d @ b'0'..=b'9') = input.get(i) {
        if i == 3 {
            return fail(
                &input[i..],
                err("more than three digits need `_` every three digits"),
            );
        }
        acc.push(d);
        i += 1;
    }
    // Then `_ddd` groups.
    while input.get(i) == Some(&b'_') {
        i += 1;
        for _ in 0..3 {
            match input.get(i) {
                Some(&d @ b'0'..=b'9') => {
                    acc.push(d);
                    i += 1;
                }
                Some(b'_') => {
                    return fail(
                        &input[i..],
                        err("`_` must be followed by exactly three digits"),
                    );
                }
                _ => return fail(&input[i..], err("expected three digits after `_`")),
            }
        }
        if let Some(b'0'..=b'9') = input.get(i) {
            return fail(
                &input[i..],
                err("groups after `_` have exactly three digits"),
            );
        }
    }
    Ok((&input[i..], ()))
}

/// Lenient digits: a non-empty run of digits with single `_` between digits.
fn lenient_run<'a>(
    input: &'a [u8],
    err: fn(&'static str) -> ErrorKind,
    acc: &mut Digits,
) -> PResult<'a, ()> {
    let mut i = 0;
    loop {
        match input.get(i) {
            Some(&d @ b'0'..=b'9') => {
                acc.push(d);
                i += 1;
            }
            Some(b'_') if i > 0 && matches!(input.get(i + 1), Some(b'0'..=b'9')) => i += 1,
            Some(b'_') => return fail(&input[i..], err("`_` must stand between two digits")),
            _ if i == 0 => return fail(&input[i..], err("expected a digit")),
            _ => return Ok((&input[i..], ())),
        }
    }
}

/// Fraction digits into `acc`.
fn frac_run<'a>(
    input: &'a [u8],
    syntax: Syntax,
    err: fn(&'static str) -> ErrorKind,
    acc: &mut Digits,
) -> PResult<'a, ()> {
    match input.first() {
        Some(b'0'..=b'9') => {}
        None => return fail(input, ErrorKind::UnexpectedEnd),
        Some(_) => return fail(input, err("expected a digit after `.`")),
    }
    if syntax.is_lenient() {
        return lenient_run(input, err, acc);
    }
    let mut i = 0;
    loop {
        let mut in_group = 0;
        while let Some(&d @ b'0'..=b'9') = input.get(i) {
            if in_group == 3 {
                return fail(
                    &input[i..],
                    err("more than three fraction digits need `_` every three digits"),
                );
            }
            acc.push(d);
            in_group += 1;
            i += 1;
        }
        if input.get(i) != Some(&b'_') {
            return Ok((&input[i..], ()));
        }
        if in_group != 3 {
            return fail(
                &input[i..],
                err("only the last group of fraction digits may have fewer than three"),
            );
        }
        i += 1;
        if !matches!(input.get(i), Some(b'0'..=b'9')) {
            return fail(&input[i..], err("expected a digit after `_`"));
        }
    }
}
