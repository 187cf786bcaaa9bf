//! The one reading of a JSON number (`-? (0 | [1-9][0-9]*) (. [0-9]+)?
//! ([eE] [+-]? [0-9]+)?`) as an exact JTOO [`Integer`] or [`Decimal`]:
//! used by the JSON text reader, by conversions from `serde_json::Number`,
//! and by the serde layer for serde_json's `arbitrary_precision` numbers.

use crate::error::ErrorKind;
use crate::parse::Number;
use crate::types::{Decimal, Integer};

/// Why a JSON number could not be read, and the offset of the byte the
/// reading stopped at (the start of the number for an out-of-range value).
pub(crate) type NumberError = (usize, ErrorKind);

/// Reads the JSON number at the start of `b`: the bytes it takes and its
/// exact value. A number without fraction or exponent is an [`Integer`]
/// (up to 128 bits of magnitude); any other is a [`Decimal`].
pub(crate) fn read(b: &[u8]) -> Result<(usize, Number), NumberError> {
    let mut i = 0;
    let negative = b.first() == Some(&b'-');
    if negative {
        i += 1;
    }
    let digits_at = i;
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            while let Some(b'0'..=b'9') = b.get(i) {
                i += 1;
            }
        }
        _ => return Err((i, ErrorKind::InvalidDecimal("expected a digit"))),
    }
    let int = &b[digits_at..i];
    let mut frac: &[u8] = &[];
    if b.get(i) == Some(&b'.') {
        i += 1;
        let f = i;
        while let Some(b'0'..=b'9') = b.get(i) {
            i += 1;
        }
        if i == f {
            return Err((i, ErrorKind::InvalidDecimal("expected a digit after `.`")));
        }
        frac = &b[f..i];
    }
    let mut exp: i64 = 0;
    let mut has_exp = false;
    if let Some(b'e' | b'E') = b.get(i) {
        has_exp = true;
        i += 1;
        let negative_exp = match b.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let e = i;
        while let Some(&d @ b'0'..=b'9') = b.get(i) {
            // Saturate: anything this large is out of range anyway.
            exp = exp.saturating_mul(10).saturating_add(i64::from(d - b'0'));
            i += 1;
        }
        if i == e {
            return Err((
                i,
                ErrorKind::InvalidDecimal("expected a digit in the exponent"),
            ));
        }
        if negative_exp {
            exp = -exp;
        }
    }
    let out_of_range = |why| (0, ErrorKind::NumberOutOfRange(why));
    if frac.is_empty() && !has_exp {
        let magnitude = int
            .iter()
            .try_fold(0u128, |v, &d| {
                v.checked_mul(10)?.checked_add(u128::from(d - b'0'))
            })
            .ok_or_else(|| out_of_range("integer beyond 128 bits"))?;
        return Ok((i, Number::Integer(Integer::new(negative, magnitude))));
    }
    // coefficient = int digits ++ frac digits (leading zeros skipped,
    // trailing zeros counted into the exponent so long zero runs fit).
    let mut coef: u128 = 0;
    let mut zeros: i64 = 0;
    for &d in int.iter().chain(frac) {
        if d == b'0' {
            zeros += 1;
            continue;
        }
        for _ in 0..=zeros {
            coef = coef.checked_mul(10).ok_or_else(|| {
                out_of_range("more significant digits than a 128-bit coefficient holds")
            })?;
        }
        coef += u128::from(d - b'0');
        zeros = 0;
    }
    if coef == 0 {
        // Zero whatever the exponent says.
        return Ok((i, Number::Decimal(Decimal::ZERO)));
    }
    let frac_len = i64::try_from(frac.len()).unwrap_or(i64::MAX);
    let exponent = exp.saturating_add(zeros).saturating_sub(frac_len);
    Decimal::from_scientific(negative, coef, exponent)
        .map(|d| (i, Number::Decimal(d)))
        .map_err(|_| out_of_range("decimal outside the range JTOO's Decimal holds"))
}

/// Reads `text` whole as a JSON number; `None` when it is not exactly one
/// JSON number or is out of range.
#[cfg_attr(not(feature = "serde"), allow(dead_code))]
pub(crate) fn read_whole(text: &str) -> Option<Number> {
    match read(text.as_bytes()) {
        Ok((len, n)) if len == text.len() => Some(n),
        _ => None,
    }
}
