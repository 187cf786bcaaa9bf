//! The shortest decimal that reads back as a given float, as an integer
//! significand and a power of ten: no text in between, so the writers can
//! lay the digits out in JTOO's grouped form directly.
//!
//! The method is Schubfach (R. Giulietti, "The Schubfach way to render
//! doubles", 2020): scale the float and the two ends of its rounding
//! interval by a 126-bit approximation of a power of ten (one table entry,
//! [`super::pow10_126`]) with round-to-odd products, then pick among at most
//! four candidates with exact integer comparisons.
//!
//! For `f64`, a shortcut comes first (`f64_one_product`): scaled one power
//! of ten further, the float needs one product instead of three, and the
//! shorter candidate falls out of its whole part and the longer one's last
//! digit out of its fraction. It declines the floats at a binade's bottom
//! edge and any comparison too close to call; Schubfach answers those.
//! Canada's 111,080 floats: 42.2M → 36.9M instructions to serialize.
//!
//! The result is the *shortest* decimal in the rounding interval, the one
//! closest to the float among those, ties to an even last digit: the
//! digits `ryu`, `zmij` and JavaScript print. (Java's `Double.toString`,
//! the algorithm's first home, asks for at least two digits, so it prints
//! `4.9E-324` where the shortest is `5e-324`; this version drops that rule.)
//! The tests compare every `f32` and hundreds of thousands of chosen and
//! random `f64` against `ryu`.

#[cfg(test)]
use super::pow10_126::K_MAX;
use super::pow10_126::{G, K_MIN};

/// `⌊q · log10 2⌋` for |q| ≤ 5 456 721.
#[inline(always)]
const fn flog10_pow2(q: i32) -> i32 {
    ((q as i64 * 661_971_961_083) >> 41) as i32
}

/// `⌊log10(¾ · 2^q)⌋` for |q| ≤ 5 456 721.
#[inline(always)]
fn flog10_three_quarters_pow2(q: i32) -> i32 {
    ((i64::from(q) * 661_971_961_083 - 274_743_187_321) >> 41) as i32
}

/// `⌊e · log2 10⌋` for |e| ≤ 1 838 394.
#[inline(always)]
const fn flog2_pow10(e: i32) -> i32 {
    ((e as i64 * 913_124_641_741) >> 38) as i32
}

/// The high 64 bits of `a · b`.
#[inline(always)]
fn mul_high(a: u64, b: u64) -> u64 {
    ((u128::from(a) * u128::from(b)) >> 64) as u64
}

/// `g(k)` from the table; `k` is always in range for finite floats.
#[inline(always)]
fn g(k: i32) -> (u64, u64) {
    G.get((k - K_MIN) as usize).copied().unwrap_or((0, 0))
}

/// The shortest decimal `digits · 10^exp` that reads back as a float's
/// magnitude: `digits` free of trailing zeros (0, with `exp` 0, for zero).
/// The sign is the caller's business.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shortest {
    /// The significant digits as an integer (at most 17 of them).
    pub(crate) digits: u64,
    /// The power of ten `digits` is multiplied by.
    pub(crate) exp: i32,
}

impl Shortest {
    /// Strips trailing zeros from `digits`, raising `exp` to match.
    #[inline(always)]
    fn new(digits: u64, exp: i32) -> Shortest {
        if digits == 0 {
            return Shortest { digits: 0, exp: 0 };
        }
        // Divisibility by 10^n without dividing: `d · 5^−n mod 2^64`,
        // rotated right by n, is at most ⌊(2^64 − 1) / 10^n⌋ exactly when
        // 10^n divides d, and is then d / 10^n (Granlund–Montgomery).
        // Most digits end in a non-zero digit: one check for those.
        let q = digits.wrapping_mul(INV5_1).rotate_right(1);
        if q > u64::MAX / 10 {
            return Shortest { digits, exp };
        }
        // Long runs of zeros (integers like 1e22 are 1 · 10^22) first.
        let mut d = (digits, exp);
        if strip(&mut d, INV5_8, 8) {
            strip(&mut d, INV5_8, 8);
        }
        strip(&mut d, INV5_4, 4);
        strip(&mut d, INV5_2, 2);
        strip(&mut d, INV5_1, 1);
        let (digits, exp) = d;
        Shortest { digits, exp }
    }
}

/// Divides `d.0` by 10^n and adds n to `d.1` when 10^n divides it (`inv`
/// is 5^−n mod 2^64); `true` when it did.
#[inline(always)]
fn strip(d: &mut (u64, i32), inv: u64, n: u32) -> bool {
    let q = d.0.wrapping_mul(inv).rotate_right(n);
    let fits = q <= u64::MAX / 10u64.pow(n);
    if fits {
        *d = (q, d.1 + n as i32);
    }
    fits
}

/// 5^−1, 5^−2, 5^−4 and 5^−8 modulo 2^64.
const INV5_1: u64 = 0xcccc_cccc_cccc_cccd;
const INV5_2: u64 = 0x8f5c_28f5_c28f_5c29;
const INV5_4: u64 = 0xd288_ce70_3afb_7e91;
const INV5_8: u64 = 0xc767_074b_22e9_0e21;

/// Round to odd of `g · cp / 2^127` for the two 63-bit halves of `g`: the
/// integer part, with its lowest bit set when anything was cut off.
#[inline(always)]
fn rop(g1: u64, g0: u64, cp: u64) -> u64 {
    let x1 = mul_high(g0, cp);
    let y = u128::from(g1) * u128::from(cp);
    let (y1, y0) = ((y >> 64) as u64, y as u64);
    let z = (y0 >> 1) + x1;
    let vbp = y1 + (z >> 63);
    vbp | ((z & MASK_63).wrapping_add(MASK_63) >> 63)
}

const MASK_63: u64 = (1 << 63) - 1;

/// The shared choice: `vb`, `vbl` and `vbr` are four times the float and
/// the ends of its rounding interval, scaled by 10^−k and rounded to odd;
/// `out` is 1 when the ends are excluded (odd significand).
#[inline(always)]
fn choose(vb: u64, vbl: u64, vbr: u64, out: u64, k: i32) -> Shortest {
    let s = vb >> 2;
    // One digit fewer: the multiples of ten around `s`. At most one of
    // them lies in the interval (it is narrower than ten units).
    let sp10 = s / 10 * 10;
    let tp10 = sp10 + 10;
    let upin = vbl + out <= sp10 << 2;
    let wpin = (tp10 << 2) + out <= vbr;
    if upin != wpin {
        return Shortest::new(if upin { sp10 } else { tp10 }, k);
    }
    // Otherwise `s` or `s + 1`, whichever is inside, or the closer (ties
    // to even) when both are.
    let t = s + 1;
    let uin = vbl + out <= s << 2;
    let win = (t << 2) + out <= vbr;
    if uin != win {
        return Shortest::new(if uin { s } else { t }, k);
    }
    let mid = (s + t) << 1;
    let pick_s = vb < mid || (vb == mid && s & 1 == 0);
    Shortest::new(if pick_s { s } else { t }, k)
}

/// `c · 2^q` as its own shortest digits when it is a whole number below
/// 2^(p−1) (`p` significand bits).
#[inline(always)]
fn whole_number(c: u64, q: i32, p: u32) -> Option<Shortest> {
    if (-(p as i32 - 1)..=0).contains(&q) {
        let f = c >> -q;
        if f << -q == c {
            return Some(Shortest::new(f, 0));
        }
    }
    None
}

/// A finite float as `c · 2^q` with the ends of its rounding interval,
/// all times four (`cb` = 4c, `cbl`, `cbr`), and `k`, the power of ten
/// that scales the interval to a width of 1 ..= 10 units.
struct Scaled {
    /// 1 when the interval's ends are excluded (odd `c`).
    out: u64,
    cb: u64,
    cbl: u64,
    cbr: u64,
    q: i32,
    k: i32,
}

/// Splits the `bits` of a float with `p` significand bits (hidden bit
/// included) and exponents from `q_min`: the shortest digits at once for
/// zero and for whole numbers below 2^(p−1), the scaled interval otherwise.
#[inline(always)]
fn split(bits: u64, p: u32, exp_mask: u64, q_min: i32) -> Result<Scaled, Shortest> {
    let c_min = 1u64 << (p - 1);
    let t = bits & (c_min - 1);
    let bq = ((bits >> (p - 1)) & exp_mask) as i32;
    let (c, q) = if bq != 0 {
        (c_min | t, bq - 1 + q_min)
    } else if t != 0 {
        (t, q_min)
    } else {
        return Err(Shortest { digits: 0, exp: 0 });
    };
    if let Some(whole) = whole_number(c, q, p) {
        return Err(whole);
    }
    let cb = c << 2;
    let (cbl, k) = if c != c_min || q == q_min {
        (cb - 2, flog10_pow2(q))
    } else {
        // The interval below a power of two is half as wide.
        (cb - 1, flog10_three_quarters_pow2(q))
    };
    Ok(Scaled {
        out: c & 1,
        cb,
        cbl,
        cbr: cb + 2,
        q,
        k,
    })
}

/// The shortest round-trip digits of a finite `f64`'s magnitude.
///
/// Normal floats off a power of two (all but a sliver of the values real
/// data holds) take [`f64_one_product`]; the rest, and the rare cases it
/// cannot settle, take the full Schubfach comparisons.
#[inline]
pub(crate) fn f64_shortest(v: f64) -> Shortest {
    f64_one_product(v.to_bits()).map_or_else(|| f64_schubfach(v), |(s, _)| s)
}

/// [`f64_shortest`]'s fast path on its own, with the count of digits
/// before the point (`digits`' count plus `exp`; 0 or less below 1), which
/// the product gives without counting: `Some` (never zero digits) for
/// nearly every normal float off a power of two, `None` for the rest
/// (zero, subnormals, powers of two, the top binade, NaN, infinities and
/// near-ties), which [`f64_schubfach`] answers when finite.
#[inline(always)]
pub(crate) fn f64_shortest_sized(v: f64) -> Option<(Shortest, i32)> {
    f64_one_product(v.to_bits())
}

/// Schubfach with its three products, for every finite `f64`.
#[cold]
#[inline(never)]
fn f64_schubfach(v: f64) -> Shortest {
    let s = match split(v.to_bits(), 53, 0x7ff, -1074) {
        Ok(s) => s,
        Err(done) => return done,
    };
    let h = (s.q + flog2_pow10(-s.k) + 2) as u32;
    let (g1, g0) = g(s.k);
    let vb = rop(g1, g0, s.cb << h);
    let vbl = rop(g1, g0, s.cbl << h);
    let vbr = rop(g1, g0, s.cbr << h);
    choose(vb, vbl, vbr, s.out, s.k)
}

/// `g(k)` as one 126-bit integer, indexed by `k - K_MIN`.
static G128: [u128; G.len()] = {
    let mut t = [0u128; G.len()];
    let mut i = 0;
    while i < t.len() {
        t[i] = (G[i].0 as u128) << 63 | G[i].1 as u128;
        i += 1;
    }
    t
};

/// How far the one-product estimates may be from the exact values, in
/// units of 2^−64 (the analysis below bounds the error by 1).
const SLACK: u64 = 4;

/// Per biased exponent `bq` of an `f64`, what [`f64_one_product`] needs:
/// `k − K_MIN` (the entry of [`G128`]) in the low 10 bits and `7 − h` in
/// the bits above, where `k = ⌊q · log10 2⌋ + 1` and
/// `h = q + ⌊−k · log2 10⌋ + 7` for `q = bq − 1075`; `u16::MAX` (an
/// entry past [`G128`]) where the path does not go: subnormals, the top
/// binade and infinities.
static BINADES: [u16; 2048] = {
    let mut t = [u16::MAX; 2048];
    let mut bq = 1;
    while bq < 2047 {
        let q = bq - 1075;
        let k = flog10_pow2(q) + 1;
        let h = q + flog2_pow10(-k) + 7;
        if k - K_MIN < G.len() as i32 {
            t[bq as usize] = ((k - K_MIN) | (7 - h) << 10) as u16;
        }
        bq += 1;
    }
    t
};

/// The shortest digits of a normal `f64` whose significand bits are not
/// all zero, from one 126 × 60-bit product, or `None` when the float is
/// outside that set or a comparison falls within [`SLACK`] of its
/// threshold (ties and near-ties; they need Schubfach's exact arithmetic).
///
/// With `v = c · 2^q` and `k = ⌊q · log10 2⌋ + 1`, the float scaled by
/// 10^−k, `Y = v / 10^k`, has 15 or 16 digits before its point, and half
/// the rounding interval scales to `H = 2^(q−1) / 10^k`, which lies in
/// [0.05, 0.5). So:
///
/// - at most one whole number lies within `H` of `Y`: `⌊Y⌋` or `⌊Y⌋ + 1`.
///   When one does, it is the shortest decimal in the interval.
/// - otherwise the answer has one digit more: the closest multiple of
///   10^(k−1), `round(10 · Y)`, which is always inside since `10 · H` ≥
///   ½.
///
/// `g(k) · 2^r` (`r` as in [`super::pow10_126`]) is 10^−k to within a
/// factor 1 + 2^−125, so
/// `Y = c · 2^h · g(k) / 2^132` (with `h` in 3 ..= 7 placing the point)
/// is found to within 2^−8 units of 2^−64, and the product's truncation
/// adds less than one more; `H`, read off `g(k)` by a shift, is as close.
/// Every decision taken more than [`SLACK`] units from its threshold is
/// therefore the exact one, and the result is Schubfach's.
///
/// Whole numbers need no case of their own: nothing above depends on the
/// float having a fraction (when `Y` is whole it is found as `⌊Y⌋`, or from
/// just below as `⌊Y⌋ + 1`), and [`Shortest::new`] strips the zeros.
///
/// Also returned: the count of digits before the point, `k` plus the digit
/// count of the unstripped result. `Y` lies in [10^14.65, 10^15.96), so
/// `⌊Y⌋` and `⌊Y⌋ + 1` have 15 or 16 digits and the longer answer 16 or 17.
#[inline(always)]
fn f64_one_product(bits: u64) -> Option<(Shortest, i32)> {
    let t = bits & ((1 << 52) - 1);
    if t == 0 {
        return None; // a power of two (or zero): the interval is lopsided
    }
    let e = *BINADES.get(((bits >> 52) & 0x7ff) as usize)?;
    let index = usize::from(e & 1023);
    let g = *G128.get(index)?;
    let shift = u32::from(e >> 10); // 7 − h
    let k = index as i32 + K_MIN;
    let x = u128::from((t | 1 << 52) << (7 - shift));
    // ⌊x · g / 2^64⌋, exactly, then Y in 64.64 fixed point.
    let p = x * (g >> 64) + ((x * (g & u128::from(u64::MAX))) >> 64);
    let y = p >> 4;
    let (n, f) = ((y >> 64) as u64, y as u64);
    // ⌊g / 2^(69 − h)⌋ (`g` < 2^126, so `g >> 62` fits in 64 bits).
    let half = ((g >> 62) as u64) >> shift;
    // Digits before the point of a 15- or 16-digit `d · 10^k`.
    let short = |d: u64| (Shortest::new(d, k), k + 15 + i32::from(d >= POW10_15));
    if f < half - SLACK {
        return Some(short(n));
    }
    let (up, carry) = f.overflowing_add(half);
    if carry && up > SLACK {
        return Some(short(n + 1));
    }
    if f <= half + SLACK || carry || up >= SLACK.wrapping_neg() {
        return None;
    }
    // One digit more, rounded to nearest (a tie needs the exact value;
    // ten times the fraction carries ten times its error).
    let ten = u128::from(f) * 10;
    let (digit, rest) = ((ten >> 64) as u64, ten as u64);
    // (`rest` within 4 · SLACK of one half.)
    if rest.wrapping_sub((1 << 63) - 4 * SLACK) <= 8 * SLACK {
        return None;
    }
    let last = digit + u64::from(rest > 1 << 63);
    let digits = n * 10 + last;
    let whole = k + 15 + i32::from(digits >= POW10_15 * 10);
    Some(if (1..10).contains(&last) {
        (Shortest { digits, exp: k - 1 }, whole) // no trailing zero
    } else {
        (Shortest::new(digits, k - 1), whole)
    })
}

/// 10^15.
const POW10_15: u64 = 1_000_000_000_000_000;

/// Round to odd of `g · cp / 2^95` with a 64-bit `g` (for `f32`).
#[inline(always)]
fn rop32(g: u64, cp: u64) -> u64 {
    let x1 = mul_high(g, cp);
    (x1 >> 31) | ((x1 & MASK_32).wrapping_add(MASK_32) >> 32)
}

const MASK_32: u64 = (1 << 32) - 1;

/// The shortest round-trip digits of a finite `f32`'s magnitude.
#[inline]
pub(crate) fn f32_shortest(v: f32) -> Shortest {
    let s = match split(u64::from(v.to_bits()), 24, 0xff, -149) {
        Ok(s) => s,
        Err(done) => return done,
    };
    let h = (s.q + flog2_pow10(-s.k) + 33) as u32;
    // The upper 63 bits of g(k), plus one, are enough for 24-bit floats.
    let g = g(s.k).0 + 1;
    let vb = rop32(g, s.cb << h);
    let vbl = rop32(g, s.cbl << h);
    let vbr = rop32(g, s.cbr << h);
    choose(vb, vbl, vbr, s.out, s.k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_covers_every_float() {
        assert_eq!(G.len(), (K_MAX - K_MIN + 1) as usize);
        // The extreme k: the smallest subnormal and the largest finite.
        assert_eq!(flog10_pow2(-1074), K_MIN);
        assert_eq!(flog10_pow2(2046 - 1075), K_MAX);
        for q in -149..=104 {
            for k in [flog10_pow2(q), flog10_three_quarters_pow2(q)] {
                // `cbr << h` stays below 2^63 for `f32`.
                assert!(
                    (33..=36).contains(&(q + flog2_pow10(-k) + 33)),
                    "f32 h for {q}"
                );
            }
        }
        for q in -1074..=971 {
            for k in [flog10_pow2(q), flog10_three_quarters_pow2(q)] {
                assert!((K_MIN..=K_MAX).contains(&k) || q == -1074, "{q}");
                // `cbr << h` stays below 2^61.
                assert!((2..=5).contains(&(q + flog2_pow10(-k) + 2)), "h for {q}");
            }
            // The one-product path's shift: `c << h` below 2^60 and
            // `g >> (69 − h)` below 2^64.
            let k = flog10_pow2(q) + 1;
            assert!((3..=7).contains(&(q + flog2_pow10(-k) + 7)), "h for {q}");
        }
    }

    #[test]
    fn inverses_of_five() {
        assert_eq!(5u64.wrapping_mul(INV5_1), 1);
        assert_eq!(25u64.wrapping_mul(INV5_2), 1);
        assert_eq!(625u64.wrapping_mul(INV5_4), 1);
        assert_eq!(390_625u64.wrapping_mul(INV5_8), 1);
    }

    #[test]
    fn trailing_zeros_go() {
        assert_eq!(Shortest::new(1_000, 0), Shortest { digits: 1, exp: 3 });
        assert_eq!(
            Shortest::new(10_000_000_000_000_000, -17),
            Shortest { digits: 1, exp: -1 }
        );
        assert_eq!(
            Shortest::new(123_450, -3),
            Shortest {
                digits: 12_345,
                exp: -2
            }
        );
        assert_eq!(Shortest::new(7, 5), Shortest { digits: 7, exp: 5 });
        assert_eq!(Shortest::new(0, 9), Shortest { digits: 0, exp: 0 });
        // Against plain division, around every power of ten.
        for n in 0..20 {
            let p = 10u64.pow(n);
            for d in [
                p,
                p - 1,
                p + 1,
                p.wrapping_mul(7),
                p / 3 * 3,
                p.saturating_mul(9).wrapping_add(5),
            ] {
                let mut want = (d, 0);
                while want.0 != 0 && want.0 % 10 == 0 {
                    want = (want.0 / 10, want.1 + 1);
                }
                let got = Shortest::new(d, 0);
                assert_eq!(
                    (got.digits, got.exp),
                    if d == 0 { (0, 0) } else { want },
                    "{d}"
                );
            }
        }
    }

    #[test]
    fn known_values() {
        let cases: [(f64, u64, i32); 9] = [
            (0.1, 1, -1),
            (1.0, 1, 0),
            (5e-324, 5, -324),
            (1e-323, 1, -323),
            (1.7976931348623157e308, 17_976_931_348_623_157, 292),
            (2.2250738585072014e-308, 22_250_738_585_072_014, -324),
            (123.456, 123_456, -3),
            (1e23, 1, 23),
            (9007199254740993.0, 9_007_199_254_740_992, 0),
        ];
        for (v, digits, exp) in cases {
            assert_eq!(f64_shortest(v), Shortest { digits, exp }, "{v:e}");
        }
        assert_eq!(f32_shortest(0.1), Shortest { digits: 1, exp: -1 });
        assert_eq!(
            f32_shortest(1e-45),
            Shortest {
                digits: 1,
                exp: -45
            }
        );
        assert_eq!(
            f32_shortest(f32::MAX),
            Shortest {
                digits: 34_028_235,
                exp: 31
            }
        );
    }

    /// `ryu`'s shortest digits of a float's magnitude, from its text.
    fn reference(text: &str) -> Shortest {
        let text = text.trim_start_matches('-');
        let (mantissa, e) = match text.split_once('e') {
            Some((m, e)) => (m, e.parse::<i32>().unwrap_or(i32::MAX)),
            None => (text, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits: u64 = format!("{int}{frac}").parse().unwrap_or(u64::MAX);
        Shortest::new(digits, e - frac.len() as i32)
    }

    fn check64(v: f64) {
        let want = reference(ryu::Buffer::new().format_finite(v));
        assert_eq!(f64_shortest(v), want, "{v:e} ({:#x})", v.to_bits());
    }

    fn check32(v: f32) {
        let want = reference(ryu::Buffer::new().format_finite(v));
        assert_eq!(f32_shortest(v), want, "{v:e} ({:#x})", v.to_bits());
    }

    /// xorshift64*, for reproducible random bit patterns.
    fn random_bits(seed: u64) -> impl Iterator<Item = u64> {
        let mut x = seed;
        std::iter::repeat_with(move || {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            x.wrapping_mul(0x2545_f491_4f6c_dd1d)
        })
    }

    #[test]
    fn f64_matches_ryu() {
        // The smallest subnormals, where the interval is widest relative
        // to the value, and the largest ones.
        for t in (1..20_000u64).chain((1 << 52) - 20_000..1 << 52) {
            check64(f64::from_bits(t));
        }
        // Every binade's edges: powers of two have the narrower interval
        // below them.
        for bq in 1..2047u64 {
            for t in [0, 1, 2, 3, (1 << 52) - 2, (1 << 52) - 1] {
                check64(f64::from_bits(bq << 52 | t));
            }
        }
        // Whole numbers and short decimals.
        for i in 0..100_000u64 {
            check64(i as f64);
            check64(i as f64 / 1000.0);
            check64((i as f64).mul_add(1e15, 1.0));
        }
        for bits in random_bits(0x9e37_79b9_7f4a_7c15).take(300_000) {
            let v = f64::from_bits(bits);
            if v.is_finite() {
                check64(v);
            }
        }
    }

    /// The one-product path agrees with Schubfach wherever it answers,
    /// answers for nearly every float, and leaves the near-ties alone.
    #[test]
    fn one_product_agrees_with_schubfach() {
        let mut answered = 0;
        let mut total = 0;
        let mut check = |v: f64| {
            let bits = v.to_bits();
            if let Some((fast, whole)) = f64_one_product(bits) {
                assert_eq!(fast, f64_schubfach(v), "{v:e} ({bits:#x})");
                let count = fast.digits.to_string().len() as i32;
                assert_eq!(whole, count + fast.exp, "{v:e} ({bits:#x})");
                answered += 1;
            }
            total += 1;
        };
        for bits in random_bits(0x2545_f491_4f6c_dd1d).take(400_000) {
            let v = f64::from_bits(bits);
            if v.is_finite() {
                check(v);
            }
        }
        // Short decimals at every scale, the shapes data mostly holds.
        for (i, bits) in random_bits(7).take(200_000).enumerate() {
            let digits = bits % 10u64.pow((bits >> 59) as u32 % 17 + 1);
            let exp = (i % 60) as i32 - 40;
            if let Ok(v) = format!("{digits}e{exp}").parse::<f64>() {
                check(v);
            }
        }
        assert!(answered * 100 > total * 99, "{answered} of {total}");
        // Near-ties found by a search over random decimals: the fast path
        // declines them and the answer is still the shortest.
        for bits in [
            0x43a8_b2ba_d466_9a7a_u64,
            0x4301_60e4_185d_004e,
            0xc2ec_c2ee_f3be_b264,
        ] {
            assert_eq!(f64_one_product(bits), None, "{bits:#x}");
            check64(f64::from_bits(bits));
        }
        // Outside its set: subnormals, powers of two, the top binade.
        for bits in [1, 1 << 52, 0x7fe0_0000_0000_0001] {
            assert_eq!(f64_one_product(bits), None, "{bits:#x}");
        }
    }

    #[test]
    fn f32_matches_ryu() {
        for t in (1..20_000u32).chain((1 << 23) - 20_000..1 << 23) {
            check32(f32::from_bits(t));
        }
        for bq in 1..255u32 {
            for t in [0, 1, 2, 3, (1 << 23) - 2, (1 << 23) - 1] {
                check32(f32::from_bits(bq << 23 | t));
            }
        }
        for bits in (0..0x7f80_0000u32).step_by(4_999) {
            check32(f32::from_bits(bits));
        }
    }

    /// Every finite `f32` (about 2^31 magnitudes): minutes in release mode,
    /// `cargo test --release -p jtoo --lib every_f32 -- --ignored`.
    #[test]
    #[ignore = "exhaustive: run by hand in release mode"]
    fn every_f32() {
        std::thread::scope(|s| {
            for part in 0..4u32 {
                s.spawn(move || {
                    let step = 0x7f80_0000 / 4;
                    for bits in part * step..(part + 1) * step {
                        check32(f32::from_bits(bits));
                    }
                });
            }
        });
    }

    /// Random `f64`s by the hundred million, the same way.
    #[test]
    #[ignore = "long: run by hand in release mode"]
    fn many_f64() {
        std::thread::scope(|s| {
            for part in 0..4u64 {
                s.spawn(move || {
                    for bits in random_bits(part + 1).take(100_000_000) {
                        let v = f64::from_bits(bits);
                        if v.is_finite() {
                            check64(v);
                        }
                    }
                });
            }
        });
    }
}
