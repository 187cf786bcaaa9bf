//! The strict grammar's common case, word at a time: a number that
//! [`scan_strict`] reads whole is what the general production
//! ([`super::number_general`]) would read, and the properties below hold
//! the two to the same values, rests and errors.

use super::{Number, Syntax};
use crate::types::{Decimal, Integer};

/// The common case every number production tries first: a strict number
/// [`scan_strict`] reads whole, and the input after it.
#[inline(always)]
pub(super) fn strict_fast(input: &[u8], syntax: Syntax) -> Option<(&[u8], Scanned)> {
    if syntax.is_lenient() {
        return None;
    }
    let s = scan_strict(input)?;
    Some((input.get(s.len..)?, s))
}

/// A strict number the fast scanner read: `±mantissa × 10^−scale`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scanned {
    /// Bytes read.
    pub(crate) len: usize,
    pub(crate) negative: bool,
    /// All the digits (integer and fraction part), at most 19 of them.
    pub(crate) mantissa: u64,
    /// The number of fraction digits; `None` for an integer.
    pub(crate) scale: Option<u32>,
}

impl Scanned {
    /// The number (normalised, as the general path builds it).
    #[inline]
    pub(super) fn number(self) -> Number {
        let Scanned {
            negative,
            mantissa,
            scale,
            ..
        } = self;
        match scale {
            None => Number::Integer(Integer::new(negative, u128::from(mantissa))),
            // `x.0`: the one whole-number spelling; normalise.
            Some(1) if mantissa % 10 == 0 => {
                Number::Decimal(Decimal::normalised_exp(negative, u128::from(mantissa), -1))
            }
            // Ends in a non-zero digit (checked by the scanner): normalised.
            Some(scale) => Number::Decimal(Decimal::from_raw(
                negative,
                u128::from(mantissa),
                -(scale as i32),
            )),
        }
    }

    /// The nearest `f64` (correctly rounded).
    #[inline(always)]
    pub(crate) fn to_f64(self) -> f64 {
        let v = match self.scale {
            None => self.mantissa as f64,
            Some(scale) => crate::float::dec2flt::to_f64(self.mantissa, -(scale as i32)),
        };
        f64::from_bits(v.to_bits() | u64::from(self.negative) << 63)
    }

    /// The nearest `f32` (correctly rounded).
    #[inline]
    pub(crate) fn to_f32(self) -> f32 {
        let v = match self.scale {
            None => self.mantissa as f32,
            Some(scale) => crate::float::dec2flt::to_f32(self.mantissa, -(scale as i32)),
        };
        f32::from_bits(v.to_bits() | u32::from(self.negative) << 31)
    }
}

/// The strict grammar's common case without building errors: a valid
/// number of at most 19 digits, not followed by an exponent, and not a
/// negative zero. `None` for anything else (errors, longer numbers), which
/// the general path then handles — so the fast path never decides what is
/// an error.
///
/// Reads eight bytes at a time: `ddd_ddd_` blocks of a fraction in one
/// check (SWAR), the first and last groups from the same word.
#[inline(always)]
pub(crate) fn scan_strict(input: &[u8]) -> Option<Scanned> {
    let negative = input.first() == Some(&b'-');
    let mut i = usize::from(negative);
    // Integer part: `0`, or 1–3 digits then `_ddd` groups.
    let x = load8(input, i);
    let (mut acc, n, _) = group(x)?;
    if byte(x, 0) == b'0' && n != 1 {
        return None;
    }
    let mut count = n;
    i += n as usize;
    let mut next = byte(x, n);
    if next == b'_' {
        if acc == 0 {
            return None;
        }
        while next == b'_' {
            let g = three_digits(input.get(i + 1..i + 4)?)?;
            next = input.get(i + 4).copied().unwrap_or(0);
            if count > 16 || next.is_ascii_digit() {
                return None;
            }
            acc = acc * 1000 + g;
            count += 3;
            i += 4;
        }
    }
    match next {
        b'.' => i += 1,
        b'0'..=b'9' | b'e' | b'E' => return None,
        _ if acc == 0 && negative => return None,
        _ => {
            return Some(Scanned {
                len: i,
                negative,
                mantissa: acc,
                scale: None,
            });
        }
    }
    // Fraction: `ddd_` groups, the last one 1–3 digits.
    let int_count = count;
    // Full-precision floats have 15–17 digits: two `ddd_ddd_` blocks in
    // one go when 24 bytes are there.
    let mut x = match input.get(i..).and_then(<[u8]>::first_chunk::<24>) {
        Some(w) => {
            let (x1, x2, x3) = words3(w);
            match twelve_grouped(x1, x2) {
                Some(v) if count <= 7 => {
                    acc = acc * 1_000_000_000_000 + v;
                    count += 12;
                    i += 16;
                    x3
                }
                _ => x1,
            }
        }
        None => load8(input, i),
    };
    while byte(x, 3) == b'_'
        && let Some(v) = six_grouped(x)
    {
        if count > 13 {
            return None;
        }
        acc = acc * 1_000_000 + v;
        count += 6;
        i += 8;
        x = load8(input, i);
    }
    let last = loop {
        let (v, n, last) = group(x)?;
        if count + n > 19 {
            return None;
        }
        acc = acc * POW10_U64[n as usize] + v;
        count += n;
        i += n as usize;
        let follow = FOLLOW[usize::from(byte(x, n))];
        if follow & (UNDERSCORE | REFUSED) == 0 {
            break last;
        }
        if follow != UNDERSCORE || n != 3 {
            return None;
        }
        i += 1;
        x = load8(input, i);
    };
    // Trailing zeros: only the whole-number fraction `0` ends in one (and
    // a zero is never negative).
    let scale = count - int_count;
    if last == 0 && (scale != 1 || (acc == 0 && negative)) {
        return None;
    }
    Some(Scanned {
        len: i,
        negative,
        mantissa: acc,
        scale: Some(scale),
    })
}

const POW10_U64: [u64; 4] = [1, 10, 100, 1000];

/// [`FOLLOW`]: `_`.
const UNDERSCORE: u8 = 1;
/// [`FOLLOW`]: a digit or an exponent mark, which no group may be followed
/// by.
const REFUSED: u8 = 2;
/// [`FOLLOW`]: `.`.
const POINT: u8 = 4;

/// What each byte is after a group of digits; 0 for bytes that end the
/// number.
const FOLLOW: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'_' as usize] = UNDERSCORE;
    t[b'.' as usize] = POINT;
    t[b'e' as usize] = REFUSED;
    t[b'E' as usize] = REFUSED;
    let mut d = b'0';
    while d <= b'9' {
        t[d as usize] = REFUSED;
        d += 1;
    }
    t
};

/// Byte `k` of `x` (the first byte lowest).
#[inline(always)]
fn byte(x: u64, k: u32) -> u8 {
    (x >> (8 * k)) as u8
}

/// The value of byte `k` of `x` as a digit.
#[inline(always)]
fn digit(x: u64, k: u32) -> Option<u64> {
    let d = byte(x, k).wrapping_sub(b'0');
    (d < 10).then_some(u64::from(d))
}

/// The 1–3 digits `x` starts with: `(value, count, last digit)`; `None`
/// when it does not start with a digit. What follows is the caller's
/// business (a fourth digit is byte 3).
#[inline(always)]
fn group(x: u64) -> Option<(u64, u32, u64)> {
    let d0 = digit(x, 0)?;
    Some(match digit(x, 1) {
        None => (d0, 1, d0),
        Some(d1) => match digit(x, 2) {
            None => (d0 * 10 + d1, 2, d1),
            Some(d2) => (d0 * 100 + d1 * 10 + d2, 3, d2),
        },
    })
}

/// Eight bytes from `i` as a little-endian `u64` (the first byte lowest),
/// zero-padded past the end of the input (NUL is no digit, `_` or `.`).
#[inline(always)]
fn load8(input: &[u8], i: usize) -> u64 {
    match input.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        Some(b) => u64::from_le_bytes(*b),
        None => load8_padded(input, i),
    }
}

/// [`load8`] near the end of the input.
#[cold]
#[inline(never)]
fn load8_padded(input: &[u8], i: usize) -> u64 {
    let mut b = [0u8; 8];
    for (d, s) in b.iter_mut().zip(input.get(i..).unwrap_or_default()) {
        *d = *s;
    }
    u64::from_le_bytes(b)
}

/// Three ASCII digits' value.
#[inline(always)]
fn three_digits(b: &[u8]) -> Option<u64> {
    match *b {
        [a @ b'0'..=b'9', b @ b'0'..=b'9', c @ b'0'..=b'9'] => {
            Some(u64::from(a - b'0') * 100 + u64::from(b - b'0') * 10 + u64::from(c - b'0'))
        }
        _ => None,
    }
}

/// Three little-endian words.
#[inline(always)]
fn words3(w: &[u8; 24]) -> (u64, u64, u64) {
    let mut a = [0u8; 8];
    let mut b = [0u8; 8];
    let mut c = [0u8; 8];
    a.copy_from_slice(&w[..8]);
    b.copy_from_slice(&w[8..16]);
    c.copy_from_slice(&w[16..]);
    (
        u64::from_le_bytes(a),
        u64::from_le_bytes(b),
        u64::from_le_bytes(c),
    )
}

/// The value of sixteen bytes `ddd_ddd_ddd_ddd_` (two words, first byte
/// lowest), or `None` when they are not that.
#[inline(always)]
fn twelve_grouped(x1: u64, x2: u64) -> Option<u64> {
    if !is_six_grouped(x1) || !is_six_grouped(x2) {
        return None;
    }
    Some(six_value(x1) * 1_000_000 + six_value(x2))
}

/// The value of eight bytes `ddd_ddd_` (first byte lowest; SWAR: one check
/// and a few multiplications for six digits), or `None` when they are not
/// that.
#[inline(always)]
fn six_grouped(x: u64) -> Option<u64> {
    is_six_grouped(x).then(|| six_value(x))
}

/// Whether eight bytes are `ddd_ddd_`.
#[inline(always)]
fn is_six_grouped(x: u64) -> bool {
    const UNDERSCORES: u64 = 0x5F00_0000_5F00_0000;
    const UNDERSCORE_MASK: u64 = 0xFF00_0000_FF00_0000;
    const ZEROS: u64 = 0x3030_3030_3030_3030;
    const HIGH: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    // The `_` bytes become `0` digits for the digit check.
    let y = (x & !UNDERSCORE_MASK) | (ZEROS & UNDERSCORE_MASK);
    // Digits are 0x30..=0x39: high nibble 3, and still 3 after adding 6.
    let bad = ((x & UNDERSCORE_MASK) ^ UNDERSCORES)
        | ((y & HIGH) ^ ZEROS)
        | ((y.wrapping_add(0x0606_0606_0606_0606) & HIGH) ^ ZEROS);
    bad == 0
}

/// The value of eight bytes `ddd_ddd_` (checked by [`is_six_grouped`]).
#[inline(always)]
fn six_value(x: u64) -> u64 {
    // Digit values, shifted to read as the eight digits `0ddd0ddd`.
    let v = (x & 0x000F_0F0F_000F_0F0F) << 8;
    // Pairs: byte 2k becomes 10·d[2k] + d[2k+1].
    let v = v.wrapping_mul(10).wrapping_add(v >> 8);
    // `0d`·10⁵ + `dd`·10³ + `0d`·10² + `dd`.
    let a = (v & 0x0000_00FF_0000_00FF).wrapping_mul(100 + (100_000 << 32));
    let b = ((v >> 16) & 0x0000_00FF_0000_00FF).wrapping_mul(1 + (1000 << 32));
    a.wrapping_add(b) >> 32
}

#[cfg(test)]
mod tests {
    use super::super::{number, number_general};
    use super::*;

    /// The fast path and the general production agree on everything:
    /// values, rest and errors.
    fn same_as_general(s: &[u8]) {
        let fast = number(s, Syntax::Strict);
        let general = number_general(s, Syntax::Strict);
        assert_eq!(
            format!("{fast:?}"),
            format!("{general:?}"),
            "{:?}",
            String::from_utf8_lossy(s)
        );
        if let Some(scan) = scan_strict(s)
            && let Ok((_, n)) = general
        {
            let text = String::from_utf8_lossy(&s[..scan.len]).replace('_', "");
            let want: f64 = text.parse().unwrap();
            assert_eq!(scan.to_f64().to_bits(), want.to_bits(), "{text}");
            let got = match n {
                Number::Integer(i) => i.to_f64(),
                Number::Decimal(d) => d.to_f64(),
            };
            assert_eq!(got.to_bits(), want.to_bits(), "{text}");
        }
    }

    #[test]
    fn six_grouped_takes_exactly_ddd_ddd_() {
        let valid = |b: &[u8; 8]| {
            b.iter().enumerate().all(|(k, c)| {
                if k % 4 == 3 {
                    *c == b'_'
                } else {
                    c.is_ascii_digit()
                }
            })
        };
        for template in [*b"123_456_", *b"000_000_", *b"999_999_", *b"907_080_"] {
            for at in 0..8 {
                for c in 0..=255u8 {
                    let mut b = template;
                    b[at] = c;
                    let got = six_grouped(u64::from_le_bytes(b));
                    if valid(&b) {
                        let digits: String = b
                            .iter()
                            .filter(|c| c.is_ascii_digit())
                            .map(|&c| c as char)
                            .collect();
                        assert_eq!(got, Some(digits.parse().unwrap()), "{b:?}");
                    } else {
                        assert_eq!(got, None, "{b:?}");
                    }
                }
            }
        }
        // Two bytes at once (carries between bytes).
        for c in 0..=255u8 {
            for d in 0..=255u8 {
                let b = [b'1', c, d, b'_', b'4', b'5', b'6', b'_'];
                assert_eq!(
                    six_grouped(u64::from_le_bytes(b)).is_some(),
                    valid(&b),
                    "{b:?}"
                );
                let b = [b'1', b'2', b'3', c, d, b'5', b'6', b'_'];
                assert_eq!(
                    six_grouped(u64::from_le_bytes(b)).is_some(),
                    valid(&b),
                    "{b:?}"
                );
                let b = [b'1', b'2', b'3', b'_', b'4', b'5', c, d];
                assert_eq!(
                    six_grouped(u64::from_le_bytes(b)).is_some(),
                    valid(&b),
                    "{b:?}"
                );
            }
        }
    }

    #[test]
    fn fast_path_handles_odd_terminators() {
        for s in [
            "1.5\0",
            "1.5\u{80}",
            "12\u{ff}",
            "-65.613_616_999_999_977\0",
            "1.123_456\u{e9}",
            "1.123_456_789\u{5f}",
            "7",
            "-7",
            "0.1",
            "1_000",
            "1_000.000_1",
        ] {
            same_as_general(s.as_bytes());
        }
        for c in 0..=255u8 {
            for base in [
                "1.2",
                "12.345_6",
                "-1.123_456_78",
                "123",
                "1.123_456_789_012_34",
            ] {
                let mut s = base.as_bytes().to_vec();
                s.push(c);
                same_as_general(&s);
                s.extend_from_slice(b"9_");
                same_as_general(&s);
            }
        }
    }

    #[test]
    fn fast_path_matches_general() {
        for s in [
            "0",
            "-0",
            "0_",
            "00",
            "0.0",
            "-0.0",
            "0.00",
            "0.000_0",
            "1",
            "12",
            "123",
            "1234",
            "1_234",
            "12_345",
            "1_23",
            "1_2345",
            "1_234_",
            "1_234_5",
            "1__234",
            "1.",
            "1._5",
            "1.5_",
            "1.50",
            "1.05",
            "1.5e3",
            "1e3",
            "1E3",
            "1.5E3",
            "-",
            "-.5",
            ".5",
            "-x",
            "",
            "1.123_456_789_012_3",
            "1.123_456_789_012_34",
            "1.123_456_789_012_345",
            "1.123_456_789_012_345_6",
            "1.123_456_789_012_345_67",
            "1.123_456_789_012_345_678",
            "1.123_456_789_012_345_678_9",
            "123_456_789_012_345_678.9",
            "1_234_567_890_123_456_789",
            "12_345_678_901_234_567_890",
            "18_446_744_073_709_551_615",
            "18_446_744_073_709_551_616",
            "9_999_999_999_999_999_999",
            "9_999_999_999_999_999_999.0",
            "999_999_999_999_999_999.9",
            "0.999_999_999_999_999_999_9",
            "-65.613_616_999_999_977",
            "-65.613_616_999_999_977,",
            "-65.613_616_999_999_977]",
            "1.123_456_",
            "1.123_456_7",
            "1.123_456_78",
            "1.123_456_789",
            "1.123_456_789_",
            "1.123_45a_789",
            "1.123_4567",
            "1.123_456x",
            "1.123_456_000",
            "1.123_456_100",
            "1.123_456_001",
            "1.000_000_0",
            "5.0",
            "-5.0",
            "1_000.0",
            "1.0_",
            "1.0.0",
            "1.5.5",
            "1_000_000",
            "-1_000_000",
            "0.000_000_000_000_000_000_1",
            "1.000_000_000_000_000_000_1",
            "340_282_366_920_938_463_463_374_607_431_768_211_455",
            "340_282_366_920_938_463_463_374_607_431_768_211_456",
        ] {
            same_as_general(s.as_bytes());
        }
    }

    fn number_text() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        use proptest::prelude::*;
        prop::collection::vec(
            prop_oneof![
                8 => b'0'..=b'9',
                2 => Just(b'_'),
                1 => Just(b'.'),
                1 => Just(b'-'),
                1 => Just(b'e'),
                1 => Just(b','),
            ],
            0..32,
        )
    }

    fn canonical_decimal() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        (
            any::<bool>(),
            any::<u64>(),
            0u32..20,
            prop::sample::select(vec!["", ",", "]", " ", "_", "0", "e1"]),
        )
            .prop_map(|(neg, c, scale, tail)| {
                let d = crate::types::Decimal::new(neg, u128::from(c), scale).unwrap();
                format!("{d}{tail}")
            })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]

        #[test]
        fn fast_path_matches_general_on_noise(s in number_text()) {
            same_as_general(&s);
        }

        #[test]
        fn fast_path_matches_general_on_decimals(s in canonical_decimal()) {
            same_as_general(s.as_bytes());
        }

        #[test]
        fn fast_path_matches_general_on_near_misses(
            s in canonical_decimal(),
            at: proptest::sample::Index,
            edit in 0u8..3,
            byte in proptest::prelude::prop::sample::select(b"0159_.-e,".to_vec()),
        ) {
            let mut s = s.into_bytes();
            let at = at.index(s.len() + 1);
            match edit {
                0 => s.insert(at, byte),
                1 if at < s.len() => { s.remove(at); }
                _ if at < s.len() => s[at] = byte,
                _ => s.push(byte),
            }
            same_as_general(&s);
        }

        #[test]
        fn fast_path_matches_general_on_integers(neg: bool, v: u64, tail in 0u8..4) {
            let i = crate::types::Integer::new(neg, u128::from(v));
            let s = format!("{i}{}", ["", ".5", "_1", "1"][usize::from(tail)]);
            same_as_general(s.as_bytes());
        }
    }
}
