//! Correctly rounded conversion of `w × 10^q` (a `u64` significand and a
//! power of ten) to `f64` / `f32`, without text.
//!
//! Clinger's exact fast path first (both operands exact, one rounding), then
//! the Eisel-Lemire algorithm (as in Rust's `core::num::dec2flt` and
//! fast_float) over a table of 128-bit powers of five; in the rare cases
//! Eisel-Lemire cannot decide, the digits go through std's parser as
//! `<w>e<q>` text built on the stack, which is correctly rounded.

use super::pow5::{LARGEST_POWER_OF_FIVE, POW5_128, SMALLEST_POWER_OF_FIVE};

/// The parameters of a binary floating-point format.
struct Format {
    /// Stored mantissa bits (52 for `f64`).
    explicit_bits: i32,
    /// The exponent bias, negated and less one (−1023 for `f64`).
    minimum_exponent: i32,
    /// The biased exponent of infinity.
    infinite_power: i32,
    /// Below `10^this` every `u64` significand rounds to zero.
    smallest_power_of_ten: i32,
    /// Above `10^this` every non-zero significand rounds to infinity.
    largest_power_of_ten: i32,
    /// The range of `q` where a product can fall exactly halfway.
    min_exponent_round_to_even: i32,
    max_exponent_round_to_even: i32,
}

const F64: Format = Format {
    explicit_bits: 52,
    minimum_exponent: -1023,
    infinite_power: 0x7FF,
    smallest_power_of_ten: -342,
    largest_power_of_ten: 308,
    min_exponent_round_to_even: -4,
    max_exponent_round_to_even: 23,
};

const F32: Format = Format {
    explicit_bits: 23,
    minimum_exponent: -127,
    infinite_power: 0xFF,
    smallest_power_of_ten: -65,
    largest_power_of_ten: 38,
    min_exponent_round_to_even: -17,
    max_exponent_round_to_even: 10,
};

const POW10_F64: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

const POW10_F32: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];

/// The `f64` nearest to `w × 10^q` (ties to even); `+∞` beyond the range.
#[inline(always)]
pub(crate) fn to_f64(w: u64, q: i32) -> f64 {
    if w <= 1 << 53
        && let Some(p) = POW10_F64.get(q.unsigned_abs() as usize)
    {
        let w = w as f64;
        return if q < 0 { w / p } else { w * p };
    }
    // Eisel-Lemire's common case inline: one multiplication decides, a
    // normal result, no tie. Everything else takes the full algorithm.
    if w != 0
        && let Some(&(hi5, _)) = usize::try_from(q - SMALLEST_POWER_OF_FIVE)
            .ok()
            .and_then(|k| POW5_128.get(k))
    {
        let lz = w.leading_zeros();
        let (lo, hi) = full_mul(w << lz, hi5);
        let upperbit = (hi >> 63) as i32;
        let mantissa = hi >> (upperbit + 9);
        let power2 = power(q) + upperbit - lz as i32 + 1023;
        // Not: the low bits in doubt (a second multiplication), a possible
        // tie or a product one short (`lo` ≤ 1 or all ones), subnormal or
        // infinite.
        if hi & 0x1FF != 0x1FF && lo.wrapping_add(1) > 2 && (1..0x7FF).contains(&power2) {
            // 2^53 ≤ mantissa < 2^54: rounded, 2^52 ≤ m ≤ 2^53. Adding
            // (rather than or-ing) the exponent carries a rounding up to
            // 2^53 into it, as the full algorithm does, up to infinity.
            let m = (mantissa + (mantissa & 1)) >> 1;
            return f64::from_bits((m - (1 << 52)) + ((power2 as u64) << 52));
        }
    }
    to_f64_full(w, q)
}

/// Eisel-Lemire in full, then std's parser when that cannot decide.
#[inline(never)]
fn to_f64_full(w: u64, q: i32) -> f64 {
    match lemire(q, w, &F64) {
        Some((m, e)) => f64::from_bits(m | (e as u64) << F64.explicit_bits),
        None => via_text(w, q, f64::INFINITY),
    }
}

/// The `f32` nearest to `w × 10^q` (ties to even, one rounding); `+∞`
/// beyond the range.
#[inline]
pub(crate) fn to_f32(w: u64, q: i32) -> f32 {
    if w <= 1 << 24
        && let Some(p) = POW10_F32.get(q.unsigned_abs() as usize)
    {
        let w = w as f32;
        return if q < 0 { w / p } else { w * p };
    }
    match lemire(q, w, &F32) {
        Some((m, e)) => f32::from_bits((m | (e as u64) << F32.explicit_bits) as u32),
        None => via_text(w, q, f32::INFINITY),
    }
}

/// std's correctly rounded parser on `<w>e<q>`, built on the stack.
#[cold]
#[inline(never)]
fn via_text<F: std::str::FromStr>(w: u64, q: i32, fallback: F) -> F {
    let mut buf = [0u8; 40];
    let mut a = itoa::Buffer::new();
    let mut b = itoa::Buffer::new();
    let (w, q) = (a.format(w).as_bytes(), b.format(q).as_bytes());
    let n = w.len() + 1 + q.len(); // at most 20 + 1 + 11
    let Some(text) = buf.get_mut(..n) else {
        return fallback;
    };
    let (digits, exp) = text.split_at_mut(w.len());
    digits.copy_from_slice(w);
    if let Some((e, tail)) = exp.split_first_mut() {
        *e = b'e';
        tail.copy_from_slice(q);
    }
    match std::str::from_utf8(text).map(str::parse::<F>) {
        Ok(Ok(v)) => v,
        _ => fallback,
    }
}

/// Eisel-Lemire: `(mantissa bits, biased exponent)` of the float nearest to
/// `w × 10^q`, or `None` when the 128-bit approximation cannot decide.
#[inline(always)]
fn lemire(q: i32, w: u64, f: &Format) -> Option<(u64, i32)> {
    if w == 0 || q < f.smallest_power_of_ten {
        return Some((0, 0));
    }
    if q > f.largest_power_of_ten {
        return Some((0, f.infinite_power));
    }
    let lz = w.leading_zeros();
    let w = w << lz;
    let (lo, hi) = product_approx(q, w, f.explicit_bits + 3)?;
    // The approximation may be one short, which can only matter when the
    // product is not exact (5^q beyond 128 bits).
    if lo == u64::MAX && !(-27..=55).contains(&q) {
        return None;
    }
    let upperbit = (hi >> 63) as i32;
    let shift = upperbit + 64 - f.explicit_bits - 3;
    let mut mantissa = hi >> shift;
    let mut power2 = power(q) + upperbit - lz as i32 - f.minimum_exponent;
    if power2 <= 0 {
        // Subnormal (or zero).
        if -power2 + 1 >= 64 {
            return Some((0, 0));
        }
        mantissa >>= -power2 + 1;
        mantissa += mantissa & 1;
        mantissa >>= 1;
        let e = i32::from(mantissa >= 1u64 << f.explicit_bits);
        return Some((mantissa, e));
    }
    // Exactly halfway between two floats: round down to even.
    if lo <= 1
        && q >= f.min_exponent_round_to_even
        && q <= f.max_exponent_round_to_even
        && mantissa & 3 == 1
        && (mantissa << shift) == hi
    {
        mantissa &= !1;
    }
    mantissa += mantissa & 1;
    mantissa >>= 1;
    if mantissa >= 2u64 << f.explicit_bits {
        // Rounding carried into a new bit.
        mantissa = 1u64 << f.explicit_bits;
        power2 += 1;
    }
    mantissa &= !(1u64 << f.explicit_bits);
    if power2 >= f.infinite_power {
        return Some((0, f.infinite_power));
    }
    Some((mantissa, power2))
}

/// ⌊log2(10^q)⌋ + 63, for q in the table's range.
#[inline]
fn power(q: i32) -> i32 {
    (q.wrapping_mul(152_170 + 65536) >> 16) + 63
}

/// The high 128 bits (as `(low, high)` words) of `w × 5^q`, truncated, with
/// a second multiplication only when the first leaves the bits that decide
/// the rounding in doubt.
#[inline]
fn product_approx(q: i32, w: u64, precision: i32) -> Option<(u64, u64)> {
    debug_assert!((SMALLEST_POWER_OF_FIVE..=LARGEST_POWER_OF_FIVE).contains(&q));
    let mask = u64::MAX >> precision;
    let &(hi5, lo5) = POW5_128.get(usize::try_from(q - SMALLEST_POWER_OF_FIVE).ok()?)?;
    let (mut first_lo, mut first_hi) = full_mul(w, hi5);
    if first_hi & mask == mask {
        let (_, second_hi) = full_mul(w, lo5);
        first_lo = first_lo.wrapping_add(second_hi);
        if second_hi > first_lo {
            first_hi = first_hi.wrapping_add(1);
        }
    }
    Some((first_lo, first_hi))
}

#[inline(always)]
fn full_mul(a: u64, b: u64) -> (u64, u64) {
    let r = u128::from(a) * u128::from(b);
    (r as u64, (r >> 64) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn reference64(w: u64, q: i32) -> f64 {
        format!("{w}e{q}").parse().unwrap()
    }

    fn reference32(w: u64, q: i32) -> f32 {
        format!("{w}e{q}").parse().unwrap()
    }

    fn check(w: u64, q: i32) {
        let (a, b) = (to_f64(w, q), reference64(w, q));
        assert_eq!(a.to_bits(), b.to_bits(), "f64 {w}e{q}: {a:e} vs {b:e}");
        let (a, b) = (to_f32(w, q), reference32(w, q));
        assert_eq!(a.to_bits(), b.to_bits(), "f32 {w}e{q}: {a:e} vs {b:e}");
    }

    #[test]
    fn edges() {
        let ws = [
            0,
            1,
            2,
            5,
            9,
            10,
            (1 << 24) - 1,
            1 << 24,
            (1 << 24) + 1,
            (1 << 53) - 1,
            1 << 53,
            (1 << 53) + 1,
            (1 << 53) + 2,
            (1 << 54) + 1,
            9_007_199_254_740_993,
            9_999_999_999_999_999,
            10_000_000_000_000_000,
            12_345_678_901_234_567,
            65_613_616_999_999_977,
            99_999_999_999_999_999,
            999_999_999_999_999_999,
            9_999_999_999_999_999_999,
            u64::MAX,
            u64::MAX - 1,
            1 << 63,
            // Halfway cases.
            9_007_199_254_740_993,
            4_503_599_627_370_497,
            17_976_931_348_623_157,
            22_250_738_585_072_011,
            22_250_738_585_072_014,
            49_406_564_584_124_654,
            24_703_282_292_062_327,
            24_703_282_292_062_328,
            14_012_984_643_248_171,
            7_006_492_321_624_085,
            340_282_356_779_733_661,
            340_282_366_920_938_463,
        ];
        for w in ws {
            for q in (-400..=400).chain([-65_535, -10_000, -1000, 1000, 10_000, 65_535]) {
                check(w, q);
            }
        }
    }

    #[test]
    fn known_values() {
        assert_eq!(
            to_f64(65_613_616_999_999_977, -15),
            "65.613616999999977".parse::<f64>().unwrap()
        );
        assert_eq!(to_f64(1, 400), f64::INFINITY);
        assert_eq!(to_f64(1, -400), 0.0);
        assert_eq!(to_f64(5, -324), 5e-324);
        assert_eq!(to_f64(24_703_282_292_062_328, -340), 5e-324);
        assert_eq!(to_f64(24_703_282_292_062_327, -340), 0.0);
        assert_eq!(to_f64(17_976_931_348_623_157, 292), f64::MAX);
        assert_eq!(to_f64(17_976_931_348_623_159, 292), f64::INFINITY);
        assert_eq!(to_f32(34_028_235, 31), f32::MAX);
    }

    #[test]
    fn around_powers_of_two() {
        // Decimals just below 2^k round up into the next binade.
        for bits in (1u64..0x7FF).map(|e| e << 52) {
            let x = f64::from_bits(bits);
            for precision in [15, 16, 17, 18] {
                let s = format!("{x:.precision$e}");
                let (m, e) = s.split_once('e').unwrap();
                let w: u64 = m.replace('.', "").parse().unwrap();
                let q = e.parse::<i32>().unwrap() - precision as i32;
                for d in [0, 1, 2, 3, 5, 9, 10, 11, 50, 99, 100, 101] {
                    check(w.saturating_sub(d), q);
                    check(w.saturating_add(d), q);
                }
            }
        }
    }

    #[test]
    fn text_fallback() {
        assert_eq!(via_text(123, -2, 0.0f64), 1.23);
        assert_eq!(via_text(u64::MAX, i32::MIN, 1.0f64), 0.0);
        assert_eq!(via_text(1, i32::MAX, 0.0f32), f32::INFINITY);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        #[test]
        fn random_significands(w: u64, q in -360i32..330) {
            check(w, q);
        }

        #[test]
        fn short_significands(w in 0u64..1 << 54, q in -30i32..30) {
            check(w, q);
        }

        #[test]
        fn seventeen_digits(w in 10_000_000_000_000_000u64..100_000_000_000_000_000, q in -30i32..10) {
            check(w, q);
        }

        #[test]
        fn near_halfway(bits in 1u64..0x7FEF_FFFF_FFFF_FFFF, shift in 0u32..3) {
            // The exact midpoint between a float and the next, as digits:
            // ryu's shortest digits, then perturbed around them.
            let x = f64::from_bits(bits);
            let s = format!("{x:e}");
            let (m, e) = s.split_once('e').unwrap();
            let digits: String = m.chars().filter(char::is_ascii_digit).collect();
            let frac = m.split_once('.').map_or(0, |(_, f)| f.len() as i32);
            let w: u64 = digits.parse().unwrap();
            let q = e.parse::<i32>().unwrap() - frac;
            let w = w.saturating_mul(10u64.pow(shift));
            let q = q - shift as i32;
            check(w, q);
            check(w.saturating_add(1), q);
            check(w.saturating_sub(1), q);
            check(w.saturating_mul(10).saturating_add(5), q - 1);
        }
    }
}
