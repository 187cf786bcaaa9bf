//! Digit grouping shared by the integer, decimal and timestamp writers.

use super::Output;

/// Appends `digits` grouped in threes from the right: `1234567` → `1_234_567`.
#[inline]
pub(crate) fn push_grouped(out: &mut impl Output, digits: &[u8]) {
    if digits.len() <= 3 {
        out.extend_from_slice(digits);
        return;
    }
    let first = match digits.len() % 3 {
        0 => 3,
        n => n,
    };
    out.extend_from_slice(&digits[..first]);
    for group in digits[first..].chunks(3) {
        out.push(b'_');
        out.extend_from_slice(group);
    }
}

/// Appends `digits` followed by `zeros` zeros, grouped in threes from the
/// right: (`12`, 4) → `120_000`.
#[inline]
pub(crate) fn push_grouped_zeros(out: &mut impl Output, digits: &[u8], zeros: usize) {
    if zeros == 0 {
        return push_grouped(out, digits);
    }
    let total = digits.len() + zeros;
    out.reserve(total + total / 3);
    for i in 0..total {
        if i > 0 && (total - i).is_multiple_of(3) {
            out.push(b'_');
        }
        out.push(if i < digits.len() { digits[i] } else { b'0' });
    }
}

/// Appends a fraction of `zeros` leading zeros then `digits`, grouped in
/// threes from the left (the decimal point): `0001` → `000_1`.
#[inline]
pub(crate) fn push_frac_grouped(out: &mut impl Output, zeros: usize, digits: &[u8]) {
    if zeros == 0 {
        // Whole groups of three, copied in chunks.
        let mut chunks = digits.chunks(3);
        if let Some(first) = chunks.next() {
            out.extend_from_slice(first);
        }
        for group in chunks {
            out.push(b'_');
            out.extend_from_slice(group);
        }
        return;
    }
    let total = zeros + digits.len();
    out.reserve(total + total / 3);
    for i in 0..total {
        if i > 0 && i % 3 == 0 {
            out.push(b'_');
        }
        out.push(if i < zeros { b'0' } else { digits[i - zeros] });
    }
}

/// The most digits (integer and fraction part together, zeros included)
/// [`push_decimal`] lays out on the stack; longer numbers take the slower
/// path.
pub(crate) const STACK_DIGITS: usize = 64;

/// Capacity of the stack text: sign, digits, one `_` per three digits, point.
const STACK_TEXT: usize = 1 + STACK_DIGITS + STACK_DIGITS / 3 + 4;

/// Writes `d` (1 ..= [`STACK_DIGITS`] digits) into `t` at `n` grouped in
/// threes from the right, with fixed-size copies; returns the new end.
#[inline(always)]
fn put_int_grouped(t: &mut [u8; STACK_TEXT], mut n: usize, d: &[u8]) -> usize {
    let first = (d.len() + 2) % 3 + 1;
    match first {
        1 => t[n] = d[0],
        2 => t[n..n + 2].copy_from_slice(&d[..2]),
        _ => t[n..n + 3].copy_from_slice(&d[..3]),
    }
    n += first;
    for g in d[first..].chunks_exact(3) {
        t[n..n + 4].copy_from_slice(&[b'_', g[0], g[1], g[2]]);
        n += 4;
    }
    n
}

/// Writes `f` (1 ..= [`STACK_DIGITS`] digits) into `t` at `n` grouped in
/// threes from the left; returns the new end.
#[inline(always)]
fn put_frac_grouped(t: &mut [u8; STACK_TEXT], mut n: usize, f: &[u8]) -> usize {
    let mut chunks = f.chunks_exact(3);
    for g in &mut chunks {
        t[n..n + 4].copy_from_slice(&[g[0], g[1], g[2], b'_']);
        n += 4;
    }
    match chunks.remainder() {
        [] => n - 1, // drop the `_` after the last whole group (`f` is not empty)
        [a] => {
            t[n] = *a;
            n + 1
        }
        [a, b, ..] => {
            t[n] = *a;
            t[n + 1] = *b;
            n + 2
        }
    }
}

/// `digits` then `zeros` zeros, or (`zeros_first`) the other way round,
/// on the stack.
#[inline]
fn with_zeros(digits: &[u8], zeros: usize, zeros_first: bool) -> ([u8; STACK_DIGITS], usize) {
    let mut scratch = [b'0'; STACK_DIGITS];
    let at = if zeros_first { zeros } else { 0 };
    scratch[at..at + digits.len()].copy_from_slice(digits);
    (scratch, digits.len() + zeros)
}

/// Appends `±I.F` in JTOO's decimal layout, where the integer part `I` is
/// `int` followed by `int_zeros` zeros and the fraction `F` is `frac_zeros`
/// zeros followed by `frac`: `I` grouped from the right, `F` from the left,
/// built on the stack and appended in one copy.
///
/// `int` must be non-empty without leading zeros (or `0`), `frac`
/// non-empty (`0` for a whole number), and all digits together at most
/// [`STACK_DIGITS`]; `int_zeros` and `frac_zeros` are not both non-zero.
#[inline]
pub(crate) fn push_decimal(
    out: &mut impl Output,
    negative: bool,
    int: &[u8],
    int_zeros: usize,
    frac_zeros: usize,
    frac: &[u8],
) {
    let mut t = [0u8; STACK_TEXT];
    t[0] = b'-';
    let mut n = usize::from(negative);
    n = if int_zeros == 0 {
        put_int_grouped(&mut t, n, int)
    } else {
        let (s, len) = with_zeros(int, int_zeros, false);
        put_int_grouped(&mut t, n, &s[..len])
    };
    t[n] = b'.';
    n += 1;
    n = if frac_zeros == 0 {
        put_frac_grouped(&mut t, n, frac)
    } else {
        let (s, len) = with_zeros(frac, frac_zeros, true);
        put_frac_grouped(&mut t, n, &s[..len])
    };
    out.extend_from_slice(&t[..n]);
}

/// Appends `digits` (1 ..= [`STACK_DIGITS`], no leading zeros) grouped in
/// threes from the right, built on the stack and appended in one copy.
#[inline]
pub(crate) fn push_int(out: &mut impl Output, negative: bool, digits: &[u8]) {
    let mut t = [0u8; STACK_TEXT];
    t[0] = b'-';
    let n = put_int_grouped(&mut t, usize::from(negative), digits);
    out.extend_from_slice(&t[..n]);
}

/// `"000"` to `"999"`, padded to 1024 entries so that an index known to be
/// below 1000 is taken `& 1023` (one instruction) without a bounds check.
static TRIPLES: [[u8; 3]; 1024] = triples();

const fn triples() -> [[u8; 3]; 1024] {
    let mut t = [[0u8; 3]; 1024];
    let mut i = 0;
    while i < 1000 {
        t[i] = [
            b'0' + (i / 100) as u8,
            b'0' + (i / 10 % 10) as u8,
            b'0' + (i % 10) as u8,
        ];
        i += 1;
    }
    t
}

/// `[a, b, c, b'_']` for the three digits `abc` of 0 ..= 999: a fraction
/// group and the `_` after it (rotated, the `_` before an integer group).
/// Padded to 1024 entries, as [`TRIPLES`].
static GROUPS: [[u8; 4]; 1024] = groups();

/// The entry of [`GROUPS`] or [`TRIPLES`] for `g`, which the caller knows
/// is below 1000.
#[inline(always)]
fn group_index(g: u64) -> usize {
    (g & 1023) as usize
}

const fn groups() -> [[u8; 4]; 1024] {
    let mut t = [[0u8; 4]; 1024];
    let mut i = 0;
    while i < 1000 {
        let d = TRIPLES[i];
        t[i] = [d[0], d[1], d[2], b'_'];
        i += 1;
    }
    t
}

/// The most fraction digits [`push_u64_decimal`] writes.
pub(crate) const MAX_U64_SCALE: u32 = 48;

/// Room [`push_u64_decimal`] lays a decimal out in: `-0.` and
/// [`MAX_U64_SCALE`] fraction digits and 15 `_`, or a sign, 20 integer
/// digits, 6 `_` and `.0`.
const U64_ROOM: usize = 72;

/// Room [`push_u64`] lays an integer out in: a sign, 20 digits and 6 `_`.
const INT_ROOM: usize = 32;

/// How many decimal digits `v` has (1 for 0).
#[inline(always)]
fn digit_count(v: u64) -> usize {
    // ⌊log10(2) × bit length⌋ is the count or one short of it.
    let bits = 64 - (v | 1).leading_zeros() as usize;
    let guess = (bits * 1233) >> 12;
    guess + usize::from(POW10.get(guess).is_none_or(|p| (v | 1) >= *p))
}

/// 10^0 ..= 10^19.
pub(crate) static POW10: [u64; 20] = {
    let mut t = [1u64; 20];
    let mut i = 1;
    while i < 20 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

/// The length of `d` digits grouped in threes (`d` ≥ 1).
#[inline(always)]
fn grouped_len(d: usize) -> usize {
    GROUPED_LEN
        .get(d)
        .map_or(d + (d - 1) / 3, |&n| usize::from(n))
}

/// `d + (d − 1) / 3` for 1 ..= 63 (0 for 0).
static GROUPED_LEN: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut d = 1;
    while d < 64 {
        t[d] = (d + (d - 1) / 3) as u8;
        d += 1;
    }
    t
};

/// The word of two groups `abc_def_` for the six digits of `v` < 10^6.
#[inline(always)]
fn two_groups(v: u32) -> u64 {
    let (hi, lo) = (v / 1000, v % 1000);
    let word = |g: u32| u64::from(u32::from_le_bytes(GROUPS[group_index(u64::from(g))]));
    word(hi) | word(lo) << 32
}

/// Stores `bytes` at `room[at..]` (nothing when it does not fit, which the
/// callers' length arithmetic rules out).
#[inline(always)]
pub(crate) fn put<const R: usize, const N: usize>(room: &mut [u8; R], at: usize, bytes: [u8; N]) {
    if let Some(to) = room.get_mut(at..at + N) {
        to.copy_from_slice(&bytes);
    }
}

/// Writes `v`'s digits grouped in threes right to left, ending at `end`;
/// the leading group (one to three digits) lands at `start`, which the
/// caller computed from `v`'s digit count.
#[inline(always)]
fn put_int_rev<const R: usize>(room: &mut [u8; R], start: usize, mut end: usize, mut v: u64) {
    // Two groups at a time (`_abc_def`: the `abc_def_` word rotated),
    // then one.
    while v >= 1_000_000 {
        let w = two_groups((v % 1_000_000) as u32).rotate_left(8);
        v /= 1_000_000;
        end = end.wrapping_sub(8);
        put(room, end, w.to_le_bytes());
    }
    let mut v = v as u32;
    if v >= 1000 {
        let g = u32::from_le_bytes(GROUPS[group_index(u64::from(v % 1000))]).rotate_left(8);
        v /= 1000;
        end = end.wrapping_sub(4);
        put(room, end, g.to_le_bytes());
    }
    let g = TRIPLES[group_index(u64::from(v))];
    match end.wrapping_sub(start) {
        1 => put(room, start, [g[2]]),
        2 => put(room, start, [g[1], g[2]]),
        _ => put(room, start, g),
    }
}

/// Lays out a text of `len` bytes (at most `R`) with `write` (given an
/// `R`-byte room and `len`) straight into `out`'s spare room, then trims
/// `out` to it.
///
/// The room is filled from a constant first and the digits are stored in
/// place, instead of being built in a stack buffer and copied out: a wide
/// load across several narrower fresh stores cannot be forwarded from the
/// store buffer.
#[inline(always)]
pub(crate) fn in_place<const R: usize>(
    out: &mut impl Output,
    len: usize,
    write: impl FnOnce(&mut [u8; R], usize),
) {
    let start = out.len();
    out.extend_from_slice(&[0u8; R]);
    if let Some(room) = out
        .as_mut_slice()
        .get_mut(start..start + R)
        .and_then(|r| <&mut [u8; R]>::try_from(r).ok())
    {
        write(room, len);
    }
    out.truncate(start + len);
}

/// Appends `±v` grouped in threes (`-1_234_567`), built in place right to
/// left from three-digit groups.
#[inline]
pub(crate) fn push_u64(out: &mut impl Output, negative: bool, v: u64) {
    let neg = usize::from(negative);
    let len = neg + grouped_len(digit_count(v));
    in_place::<INT_ROOM>(out, len, |room, len| {
        room[0] = b'-';
        put_int_rev(room, neg, len, v);
    });
}

/// Appends `±c × 10^−scale` in the decimal layout (`scale` at most
/// [`MAX_U64_SCALE`]; 0 gives `c.0`): the fraction has exactly `scale`
/// digits, leading zeros included, so `c` must have no trailing zeros when
/// `scale > 0`.
#[inline]
pub(crate) fn push_u64_decimal(out: &mut impl Output, negative: bool, mut c: u64, scale: u32) {
    let neg = usize::from(negative);
    let digits = digit_count(c);
    let scale = scale.min(MAX_U64_SCALE) as usize;
    if scale == 0 {
        let len = neg + grouped_len(digits) + 2;
        return in_place::<U64_ROOM>(out, len, |room, len| {
            room[0] = b'-';
            put(room, len.wrapping_sub(2), *b".0");
            put_int_rev(room, neg, len.wrapping_sub(2), c);
        });
    }
    let int_digits = digits.saturating_sub(scale).max(1);
    let len = neg + grouped_len(int_digits) + 1 + grouped_len(scale);
    in_place::<U64_ROOM>(out, len, |room, len| {
        room[0] = b'-';
        // The fraction, right to left: a partial group of `scale % 3`
        // digits at its end, then whole groups each followed by `_`.
        let mut i = len;
        let mut groups = scale / 3;
        match scale % 3 {
            1 => {
                i = i.wrapping_sub(1);
                put(room, i, [b'0' + (c % 10) as u8]);
                c /= 10;
            }
            2 => {
                i = i.wrapping_sub(2);
                let t = TRIPLES[(c % 100) as usize];
                put(room, i, [t[1], t[2]]);
                c /= 100;
            }
            _ => {
                // The last group is whole: no `_` after it.
                i = i.wrapping_sub(3);
                put(room, i, TRIPLES[(c % 1000) as usize]);
                c /= 1000;
                groups -= 1;
            }
        }
        while groups >= 2 {
            i = i.wrapping_sub(8);
            put(room, i, two_groups((c % 1_000_000) as u32).to_le_bytes());
            c /= 1_000_000;
            groups -= 2;
        }
        if groups == 1 {
            i = i.wrapping_sub(4);
            put(room, i, GROUPS[(c % 1000) as usize]);
            c /= 1000;
        }
        i = i.wrapping_sub(1);
        put(room, i, [b'.']);
        put_int_rev(room, neg, i, c);
    });
}

/// Scratch size of [`push_float`]: seven groups at 6..34, `.0` after, and
/// a fixed 32-byte copy from the text's start (at most 32; 3 at least,
/// for 21 fraction digits and a sign).
const FLOAT_SCRATCH: usize = 64;

/// Where [`push_float`] places the `_` after the units digit of its
/// number: the seven groups and their `_` take the 28 bytes up to it.
const UNITS_END: usize = 33;

/// ⌈2^128 / 10^18⌉ as its high and low 64 bits.
const TEN_POW_18_INV: (u64, u64) = (18, 0x725d_d1d2_43ab_a0e8);

/// Where [`push_float`] cuts its text for a fraction of `scale` digits.
#[derive(Clone, Copy)]
struct Fraction {
    /// 10^pad, the zeros (0, 2 or 1) that fill the fraction's last group.
    pad: u64,
    /// Where the point goes: the `_` after the last whole-part group.
    point: u8,
    /// Where the text ends.
    end: u8,
}

/// [`Fraction`] for every scale [`push_float`] takes, 0 (a whole number,
/// written `.0`) to 21.
static FRACTIONS: [Fraction; 22] = {
    let mut t = [Fraction {
        pad: 1,
        point: UNITS_END as u8,
        end: UNITS_END as u8 + 2,
    }; 22];
    let mut scale: usize = 1;
    while scale < 22 {
        let groups = scale.div_ceil(3);
        let point = UNITS_END - 4 * groups;
        t[scale] = Fraction {
            pad: POW10[groups * 3 - scale],
            point: point as u8,
            end: (point + 1 + scale + (scale - 1) / 3) as u8,
        };
        scale += 1;
    }
    t
};

/// Appends `±d × 10^exp` — a float's shortest digits or a decimal's
/// coefficient, without trailing zeros (or 0) — in the decimal layout, when
/// the number has at most 21 fraction digits and `d`, padded with zeros to
/// whole groups of fraction digits, or the whole number, is below 2^64;
/// `false` (nothing written) otherwise.
#[inline(always)]
pub(crate) fn push_float(out: &mut impl Output, negative: bool, d: u64, exp: i32) -> bool {
    let whole = digit_count(d) as i32 + exp;
    push_float_sized(out, negative, d, exp, whole)
}

/// [`push_float`] given `whole`, the count of `d`'s digits plus `exp`
/// (the digits before the point; 0 or less for a number below 1), which
/// the float writer knows without counting.
///
/// The digits are shifted so the fraction is a whole number of groups,
/// split into seven three-digit groups (`ttt_aaa_aaa_aaa_bbb_bbb_bbb_`),
/// the `_` after the last whole-part group becomes the point, and the text
/// is cut out around it: no per-digit loop.
#[inline(always)]
pub(crate) fn push_float_sized(
    out: &mut impl Output,
    negative: bool,
    d: u64,
    exp: i32,
    whole: i32,
) -> bool {
    // `exp` ≤ 0 (a fraction of −exp digits, or none) by the table, the
    // rest (whole numbers with zeros after `d`) by a power of ten.
    let (f, shifted) = match FRACTIONS.get(exp.wrapping_neg() as u32 as usize) {
        Some(f) => match d.checked_mul(f.pad) {
            Some(v) => (f, v),
            None => return false,
        },
        None => match POW10.get(exp as usize).and_then(|p| d.checked_mul(*p)) {
            Some(v) => (&FRACTIONS[0], v),
            None => return false,
        },
    };
    // The seven groups at fixed places, left to right: `shifted / 10^18`
    // in 64.64 fixed point, its whole part the top group (0 ..= 18), then
    // six times the next group as the whole part of 1000 × the fraction.
    // The fraction is rounded up by less than 2^−63 ([`TEN_POW_18_INV`] is
    // rounded up, and 1 is added after the truncating product). Each
    // product by 1000 scales that error by 1000: at group k (1 ..= 6) the
    // exact value is a multiple of 10^(3k − 18) and the error is below
    // 10^(3k) · 2^−63, less than that step (10^−18 > 2^−63), so every whole
    // part is exact.
    let x = u128::from(shifted) * u128::from(TEN_POW_18_INV.0)
        + ((u128::from(shifted) * u128::from(TEN_POW_18_INV.1)) >> 64)
        + 1;
    let mut t = [b'0'; FLOAT_SCRATCH];
    put(
        &mut t,
        UNITS_END - 27,
        GROUPS[group_index((x >> 64) as u64)],
    );
    let mut fraction = x as u64;
    for i in 1..7 {
        let p = u128::from(fraction) * 1000;
        put(
            &mut t,
            UNITS_END - 27 + 4 * i,
            GROUPS[group_index((p >> 64) as u64)],
        );
        fraction = p as u64;
    }
    let point = usize::from(f.point);
    t[point & 63] = b'.';
    // The whole part (at least the one digit `0`) ends at the point.
    let start = point - usize::from(GROUPED_LEN[whole.max(1) as usize & 63]);
    t[start.wrapping_sub(1) & 63] = b'-';
    let start = start.wrapping_sub(usize::from(negative));
    let len = usize::from(f.end) - start;
    if let Some(text) = t.get(start..start + 32) {
        out.extend_from_slice(text);
        // (Measured from the end: only `len` is live across a growth.)
        out.truncate(out.len() - (32 - len));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `±d × 10^exp` grouped one character at a time, from plain digits.
    fn slow_float(negative: bool, d: u64, exp: i32) -> String {
        let digits = d.to_string();
        let (int, frac) = if exp >= 0 {
            (
                format!("{digits}{}", "0".repeat(exp as usize)),
                "0".to_string(),
            )
        } else {
            let scale = exp.unsigned_abs() as usize;
            let padded = format!(
                "{}{digits}",
                "0".repeat((scale + 1).saturating_sub(digits.len()))
            );
            let (i, f) = padded.split_at(padded.len() - scale);
            (i.to_string(), f.to_string())
        };
        let mut out = String::from(if negative { "-" } else { "" });
        for (i, c) in int.chars().enumerate() {
            if i > 0 && (int.len() - i) % 3 == 0 {
                out.push('_');
            }
            out.push(c);
        }
        out.push('.');
        for (i, c) in frac.chars().enumerate() {
            if i > 0 && i % 3 == 0 {
                out.push('_');
            }
            out.push(c);
        }
        out
    }

    #[test]
    fn floats_in_every_layout() {
        // Every digit count against every scale the fast path takes, and
        // whole numbers up to its limit; also what it must refuse.
        let mut seen = 0;
        for n in 1..=17u32 {
            for d in [10u64.pow(n - 1), 10u64.pow(n) - 1, 10u64.pow(n) / 7 * 3 + 1] {
                if d % 10 == 0 && d > 1 {
                    continue; // not shortest digits
                }
                for exp in -23..=20 {
                    for negative in [false, true] {
                        let mut out = b"x".to_vec();
                        if push_float(&mut out, negative, d, exp) {
                            let want = format!("x{}", slow_float(negative, d, exp));
                            assert_eq!(String::from_utf8_lossy(&out), want, "{d}e{exp}");
                            seen += 1;
                        } else {
                            assert!(refused(d, exp), "{d}e{exp} refused");
                            assert_eq!(out, b"x");
                        }
                    }
                }
            }
        }
        assert!(seen > 1500, "{seen}");
        let mut out = Vec::new();
        assert!(push_float(&mut out, false, 0, 0));
        assert_eq!(out, b"0.0");
        // Coefficients of 18 to 20 digits, as far as their padded
        // fraction fits in 64 bits: every leading-digit place.
        let mut wide = 0;
        for d in [
            u64::MAX,
            u64::MAX / 10 * 10 - 1,
            10u64.pow(19) + 1,
            10u64.pow(19) - 1,
            10u64.pow(18) + 7,
            10u64.pow(17) * 3 + 1,
            (1 << 63) + 1,
        ] {
            for exp in -22..=2 {
                for negative in [false, true] {
                    let mut out = b"x".to_vec();
                    if push_float(&mut out, negative, d, exp) {
                        let want = format!("x{}", slow_float(negative, d, exp));
                        assert_eq!(String::from_utf8_lossy(&out), want, "{d}e{exp}");
                        wide += 1;
                    } else {
                        assert!(refused(d, exp), "{d}e{exp} refused");
                    }
                }
            }
        }
        assert!(wide > 40, "{wide}");
    }

    /// The fixed-point group split is exact for every 64-bit number: the
    /// numbers around each power of ten and each multiple of 10^18 (where
    /// the fraction below a group is all nines or all zeros), and random
    /// ones, as whole numbers and with 18 fraction digits.
    #[test]
    fn groups_of_any_u64() {
        let mut values = vec![0, 1, u64::MAX, u64::MAX - 1];
        for p in 0..20 {
            let t = 10u64.pow(p);
            values.extend([t - 1, t, t + 1, t.wrapping_mul(9) / 9 * 7]);
        }
        for m in 1..=18u64 {
            let t = m * 10u64.pow(18);
            values.extend([t - 1, t, t + 1, t - 999, t + 999_999]);
        }
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200_000 {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            let r = x.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            values.push(r >> (r % 64));
        }
        for v in values {
            for exp in [0, -18] {
                let mut out = Vec::new();
                assert!(push_float(&mut out, false, v, exp), "{v}e{exp}");
                // (Trailing zeros of the fraction are written as given.)
                assert_eq!(
                    String::from_utf8_lossy(&out),
                    slow_float(false, v, exp),
                    "{v}e{exp}"
                );
            }
        }
    }

    /// What [`push_float`] may refuse: more than 21 fraction digits, or a
    /// padded fraction or whole number of 2^64 or more.
    fn refused(d: u64, exp: i32) -> bool {
        let pad = if exp < 0 {
            (3 - exp.unsigned_abs() % 3) % 3
        } else {
            exp as u32
        };
        exp < -21 || u128::from(d) * 10u128.pow(pad) >= 1 << 64
    }

    #[test]
    fn digit_counts() {
        for v in [
            0u64,
            1,
            9,
            10,
            99,
            100,
            999,
            1000,
            u64::MAX,
            u64::MAX / 10,
            1 << 63,
        ] {
            assert_eq!(digit_count(v), v.to_string().len(), "{v}");
        }
        for p in 0..20 {
            let v = 10u64.pow(p);
            assert_eq!(digit_count(v), v.to_string().len(), "{v}");
            assert_eq!(digit_count(v - 1), (v - 1).to_string().len().max(1), "{v}");
        }
        for b in 0..64 {
            let v = 1u64 << b;
            assert_eq!(digit_count(v), v.to_string().len(), "{v}");
            assert_eq!(digit_count(v - 1), (v - 1).to_string().len(), "{v}");
        }
    }

    #[test]
    fn grouping() {
        let g = |d: &str| {
            let mut o = Vec::new();
            push_grouped(&mut o, d.as_bytes());
            String::from_utf8(o).unwrap()
        };
        assert_eq!(g("0"), "0");
        assert_eq!(g("123"), "123");
        assert_eq!(g("1234"), "1_234");
        assert_eq!(g("123456"), "123_456");
        assert_eq!(g("1234567"), "1_234_567");
        let z = |d: &str, n: usize| {
            let mut o = Vec::new();
            push_grouped_zeros(&mut o, d.as_bytes(), n);
            String::from_utf8(o).unwrap()
        };
        assert_eq!(z("12", 4), "120_000");
        assert_eq!(z("1", 3), "1_000");
        assert_eq!(z("5", 0), "5");
        let f = |z: usize, d: &str| {
            let mut o = Vec::new();
            push_frac_grouped(&mut o, z, d.as_bytes());
            String::from_utf8(o).unwrap()
        };
        assert_eq!(f(0, "5"), "5");
        assert_eq!(f(3, "1"), "000_1");
        assert_eq!(f(0, "1234"), "123_4");
        assert_eq!(f(2, "5"), "005");
    }
}
