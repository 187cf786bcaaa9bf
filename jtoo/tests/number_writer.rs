//! The number writers (floats, decimals, integers) against a slow reference:
//! the shortest digits from `ryu`, laid out and grouped one character at a
//! time.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jtoo::{Decimal, Integer, encode};
use proptest::prelude::*;

/// Groups plain decimal text (`-1234.56789`, `42`) the canonical way:
/// the integer part in threes from the right, the fraction from the left.
fn group(plain: &str) -> String {
    let (sign, rest) = match plain.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", plain),
    };
    let (int, frac) = match rest.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (rest, None),
    };
    let mut out = String::from(sign);
    for (k, c) in int.chars().enumerate() {
        if k > 0 && (int.len() - k) % 3 == 0 {
            out.push('_');
        }
        out.push(c);
    }
    if let Some(frac) = frac {
        out.push('.');
        for (k, c) in frac.chars().enumerate() {
            if k > 0 && k % 3 == 0 {
                out.push('_');
            }
            out.push(c);
        }
    }
    out
}

/// Plain text of `±digits × 10^exp` (digits without leading zeros, trailing
/// zeros allowed), normalised the way a JTOO decimal is.
fn plain(negative: bool, digits: &str, exp: i64) -> String {
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        return "0.0".into();
    }
    // Move trailing zeros into the exponent.
    let trimmed = digits.trim_end_matches('0');
    let exp = exp + (digits.len() - trimmed.len()) as i64;
    let d = trimmed;
    let mut s = String::from(if negative { "-" } else { "" });
    if exp >= 0 {
        s.push_str(d);
        s.push_str(&"0".repeat(exp as usize));
        s.push_str(".0");
    } else {
        let scale = exp.unsigned_abs() as usize;
        if d.len() > scale {
            s.push_str(&d[..d.len() - scale]);
            s.push('.');
            s.push_str(&d[d.len() - scale..]);
        } else {
            s.push_str("0.");
            s.push_str(&"0".repeat(scale - d.len()));
            s.push_str(d);
        }
    }
    s
}

/// The canonical text of a float from `ryu`'s shortest digits (an
/// independent implementation of the same digits).
fn reference_float(text: &str) -> String {
    let (negative, t) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text),
    };
    let (mantissa, e) = match t.split_once('e') {
        Some((m, e)) => (m, e.parse::<i64>().unwrap()),
        None => (t, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    group(&plain(negative, &digits, e - frac.len() as i64))
}

fn f64_text(f: f64) -> String {
    let mut out = Vec::new();
    encode::write_f64(&mut out, f).unwrap();
    String::from_utf8(out).unwrap()
}

fn f32_text(f: f32) -> String {
    let mut out = Vec::new();
    encode::write_f32(&mut out, f).unwrap();
    String::from_utf8(out).unwrap()
}

/// The writer appends: after other text, into a buffer with no spare room.
fn appended_f64(f: f64) -> String {
    let mut out = b"[1,".to_vec();
    out.shrink_to_fit();
    encode::write_f64(&mut out, f).unwrap();
    String::from_utf8(out).unwrap()
}

fn check_f64(f: f64) {
    let expected = reference_float(ryu::Buffer::new().format_finite(f));
    assert_eq!(f64_text(f), expected, "{f:e} ({:#x})", f.to_bits());
    assert_eq!(appended_f64(f), format!("[1,{expected}"), "{f:e} appended");
    let d = Decimal::from_f64(f).unwrap();
    assert_eq!(d.to_string(), expected, "Decimal::from_f64({f:e})");
    assert_eq!(d.to_f64(), f + 0.0, "{f:e} round trip"); // -0.0 reads back as 0.0
}

fn check_f32(f: f32) {
    let expected = reference_float(ryu::Buffer::new().format_finite(f));
    assert_eq!(f32_text(f), expected, "{f:e} ({:#x})", f.to_bits());
    let mut out = vec![b'x'];
    encode::write_f32(&mut out, f).unwrap();
    assert_eq!(out, format!("x{expected}").as_bytes(), "{f:e} appended");
    let d = Decimal::from_f32(f).unwrap();
    assert_eq!(d.to_string(), expected, "Decimal::from_f32({f:e})");
    assert_eq!(d.to_f32(), f + 0.0, "{f:e} round trip");
}

#[test]
fn float_edges() {
    let mut cases = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.1,
        0.3,
        1.5,
        123_456.789,
        f64::MAX,
        f64::MIN,
        f64::MIN_POSITIVE,
        f64::EPSILON,
        5e-324,
        -5e-324,
        1e-323,
        2.225_073_858_507_201e-308, // largest subnormal
        9_007_199_254_740_992.0,    // 2^53
        9_007_199_254_740_993.0,
        18_446_744_073_709_551_616.0, // 2^64
        1.7976931348623157e308,
        5.444_310_685_350_916e14,
        0.000_001,
        0.000_012_345,
        1e15,
        1e16,
        1.5e16,
        123_456_789_012_345_680.0,
    ];
    cases.push("-65.613616999999977".parse().unwrap()); // from canada.json
    for p in -324..=308 {
        cases.push(format!("1e{p}").parse().unwrap());
        cases.push(format!("-9.87e{p}").parse().unwrap());
    }
    for k in 0..=1100 {
        cases.push(2f64.powi(k - 1074));
    }
    for bits in 1..2000u64 {
        cases.push(f64::from_bits(bits)); // smallest subnormals
        cases.push(f64::from_bits(0x000f_ffff_ffff_ffff - bits)); // largest subnormals
    }
    for i in 0..2000u64 {
        cases.push((i * 1_000_003) as f64);
        cases.push(1e16 + (i * 7919) as f64 * 2.0);
    }
    for f in cases.into_iter().filter(|f| f.is_finite()) {
        check_f64(f);
        check_f64(-f);
    }
}

/// Around the bounds of the fixed-form fast path (magnitudes in
/// [1e-5, 1000) for `f64`, [1e-6, 1000) for `f32`) and the lengths of its
/// fraction (one to 21 digits).
#[test]
fn fast_path_edges() {
    let mut cases: Vec<f64> = vec![
        1e-5,
        9.999_999_999_999_999e-6,
        1.000_000_000_000_001e-5,
        999.999_999_999_999_9,
        1000.0,
        999.0,
        99.5,
        9.999_999_999_999_998,
        0.1,
        0.000_012_345_678_901_234_56,
        0.123_456_789_012_345_67,
        123.456_789_012_345_67,
    ];
    // Literals with more digits than an f64 holds (as in canada.json).
    for t in [
        "999.99999999999989",
        "-65.613616999999977",
        "47.853599999999996",
    ] {
        cases.push(t.parse().unwrap());
    }
    for b in [1e-5f64, 1e-4, 1e-3, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0] {
        let mut x = b;
        let mut y = b;
        for _ in 0..200 {
            x = f64::from_bits(x.to_bits() + 1);
            y = f64::from_bits(y.to_bits() - 1);
            cases.push(x);
            cases.push(y);
        }
    }
    // Every fraction length: 1.x, 12.x, 123.x and 0.000_0x with 1 ..= 17 digits.
    for digits in 1..=17u32 {
        for int in ["1", "12", "123", "0", "0.0000"] {
            let frac: String = (1..=digits)
                .map(|d| char::from(b'0' + (d % 9 + 1) as u8))
                .collect();
            let text = if int.contains('.') {
                format!("{int}{frac}")
            } else {
                format!("{int}.{frac}")
            };
            cases.push(text.parse().unwrap());
        }
    }
    for f in cases {
        check_f64(f);
        check_f64(-f);
    }
    for b in [1e-6f32, 1e-5, 0.1, 1.0, 100.0, 1000.0] {
        let mut x = b;
        let mut y = b;
        for _ in 0..200 {
            x = f32::from_bits(x.to_bits() + 1);
            y = f32::from_bits(y.to_bits() - 1);
            check_f32(x);
            check_f32(-y);
        }
    }
}

/// Where rounding carries the shortest digits into one more digit before
/// the point (`999.999…` to `1000.0`, the product's 15- or 16-digit
/// candidates rounded up to the next power of ten), whole numbers (now
/// through the one-product path), and the fast path's limits: 21 fraction
/// digits, 20 whole ones.
#[test]
fn digit_count_carries() {
    let mut cases: Vec<f64> = Vec::new();
    for p in -24..=22 {
        for nines in 13..=18 {
            cases.push(format!("9.{}e{p}", "9".repeat(nines)).parse().unwrap());
        }
        let mut up: f64 = format!("1e{p}").parse().unwrap();
        let mut down = up;
        for _ in 0..40 {
            up = f64::from_bits(up.to_bits() + 1);
            down = f64::from_bits(down.to_bits() - 1);
            cases.extend([up, down]);
        }
    }
    for i in 1..=20_000u64 {
        cases.push(i as f64);
        cases.push((i * 999_983) as f64 * 1e3);
    }
    cases.extend([
        1e-7,
        1.234_567_890_123_456_7e-21,
        1.234_567_890_123_456_7e-20,
        9.999_999_999_999_999e20,
        1e21,
        18_446_744_073_709_549_568.0, // 2^64 less one step: 20 whole digits
        4_503_599_627_370_497.0,      // 2^52 + 1
    ]);
    for f in cases {
        check_f64(f);
        check_f64(-f);
    }
}

#[test]
fn float32_edges() {
    let mut cases = vec![
        0.0f32,
        -0.0,
        0.1,
        1.0,
        16_777_216.0,
        16_777_217.0,
        f32::MAX,
        f32::MIN_POSITIVE,
        f32::EPSILON,
        1e-45,
        3.4e38,
        1e7,
        1.234_567e-7,
    ];
    for p in -45..=38 {
        cases.push(format!("1e{p}").parse().unwrap());
        cases.push(format!("3.25e{p}").parse().unwrap());
    }
    for bits in 1..3000u32 {
        cases.push(f32::from_bits(bits));
        cases.push(f32::from_bits(0x007f_ffff - bits));
    }
    for f in cases.into_iter().filter(|f| f.is_finite()) {
        check_f32(f);
        check_f32(-f);
    }
}

#[test]
fn integers_and_decimals() {
    for v in [
        0u64,
        1,
        999,
        1000,
        999_999,
        1_000_000,
        12_345_678,
        u64::MAX,
        u64::MAX / 10,
    ] {
        let mut out = Vec::new();
        encode::write_u64(&mut out, v);
        assert_eq!(String::from_utf8(out).unwrap(), group(&v.to_string()));
    }
    for v in [0i64, -1, -999, -1000, i64::MIN, i64::MAX, -123_456_789] {
        let mut out = Vec::new();
        encode::write_i64(&mut out, v);
        assert_eq!(String::from_utf8(out).unwrap(), group(&v.to_string()));
        assert_eq!(Integer::from(v).to_string(), group(&v.to_string()));
    }
    for v in [u128::MAX, u128::MAX / 3, 1 << 64, (1 << 64) - 1] {
        assert_eq!(Integer::from(v).to_string(), group(&v.to_string()));
    }
    assert_eq!(
        Integer::new(true, u128::MAX).to_string(),
        group(&format!("-{}", u128::MAX))
    );
    for (c, e) in [
        (1u128, 0i64),
        (1, 64),
        (1, 65),
        (1, 200),
        (1, -63),
        (1, -64),
        (1, -65),
        (1, -300),
        (u128::MAX, 0),
        (u128::MAX, -20),
        (u128::MAX, -39),
        (u128::MAX, -40),
        (u128::MAX, 30),
        (u128::from(u64::MAX), -19),
        (u128::from(u64::MAX), -20),
        (u128::from(u64::MAX), -25),
        (u128::from(u64::MAX), 44),
        (u128::from(u64::MAX), 45),
        (123, -1),
        (123, -2),
        (123, -3),
        (123, -4),
    ] {
        for negative in [false, true] {
            let d = Decimal::from_scientific(negative, c, e).unwrap();
            let expected = group(&plain(negative, &c.to_string(), e));
            assert_eq!(d.to_string(), expected, "{c}e{e}");
            assert_eq!(d.to_plain_string(), plain(negative, &c.to_string(), e));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn any_f64(bits in any::<u64>()) {
        let f = f64::from_bits(bits);
        if f.is_finite() {
            check_f64(f);
        }
    }

    #[test]
    fn any_f32(bits in any::<u32>()) {
        let f = f32::from_bits(bits);
        if f.is_finite() {
            check_f32(f);
        }
    }

    #[test]
    fn any_fixed_form_f64(v in -1000.0f64..1000.0, scale in 0i32..8) {
        check_f64(v / 10f64.powi(scale));
    }

    #[test]
    fn any_fixed_form_f32(v in -1000.0f32..1000.0, scale in 0i32..8) {
        check_f32(v / 10f32.powi(scale));
    }

    #[test]
    fn any_subnormal(bits in 1u64..(1 << 52)) {
        check_f64(f64::from_bits(bits));
    }

    #[test]
    fn any_short_f64(mantissa in 0u64..100_000_000, e in -330i32..310) {
        if let Ok(f) = format!("{mantissa}e{e}").parse::<f64>()
            && f.is_finite() {
                check_f64(f);
            }
    }

    #[test]
    fn any_integer(v in any::<i128>()) {
        prop_assert_eq!(Integer::from(v).to_string(), group(&v.to_string()));
        let mut out = Vec::new();
        encode::write_i128(&mut out, v);
        prop_assert_eq!(String::from_utf8(out).unwrap(), group(&v.to_string()));
        let mut out = Vec::new();
        encode::write_i64(&mut out, v as i64);
        prop_assert_eq!(String::from_utf8(out).unwrap(), group(&(v as i64).to_string()));
        let mut out = Vec::new();
        encode::write_u64(&mut out, v as u64);
        prop_assert_eq!(String::from_utf8(out).unwrap(), group(&(v as u64).to_string()));
    }

    #[test]
    fn any_decimal(negative in any::<bool>(), c in any::<u128>(), small in any::<u64>(), wide in any::<bool>(), e in -90i64..90) {
        let c = if wide { c } else { u128::from(small) };
        let d = Decimal::from_scientific(negative, c, e).unwrap();
        prop_assert_eq!(d.to_string(), group(&plain(negative && c != 0, &c.to_string(), e)));
        prop_assert_eq!(d.to_plain_string(), plain(negative && c != 0, &c.to_string(), e));
    }
}
