//! Digit grouping shared by the integer, decimal and timestamp writers.

/// Appends `digits` grouped in threes from the right: `1234567` → `1_234_567`.
#[inline]
pub(crate) fn push_grouped(out: &mut Vec<u8>, digits: &[u8]) {
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
pub(crate) fn push_grouped_zeros(out: &mut Vec<u8>, digits: &[u8], zeros: usize) {
    if zeros == 0 {
        return push_grouped(out, digits);
    }
    let total = digits.len() + zeros;
    out.reserve(total + total / 3);
    for i in 0..total {
        if i > 0 && (total - i) % 3 == 0 {
            out.push(b'_');
        }
        out.push(if i < digits.len() { digits[i] } else { b'0' });
    }
}

/// Appends a fraction of `zeros` leading zeros then `digits`, grouped in
/// threes from the left (the decimal point): `0001` → `000_1`.
#[inline]
pub(crate) fn push_frac_grouped(out: &mut Vec<u8>, zeros: usize, digits: &[u8]) {
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
    out: &mut Vec<u8>,
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
pub(crate) fn push_int(out: &mut Vec<u8>, negative: bool, digits: &[u8]) {
    let mut t = [0u8; STACK_TEXT];
    t[0] = b'-';
    let n = put_int_grouped(&mut t, usize::from(negative), digits);
    out.extend_from_slice(&t[..n]);
}

/// Room [`push_fixed_float`] claims at the end of `out` before it trims
/// back to the text's length.
const FLOAT_ROOM: usize = 40;

/// The eight bytes of `t` from `at` as a little-endian word; bytes past the
/// end of `t` read as zero. `t` has at least eight bytes.
#[inline(always)]
fn word_at(t: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    match t.get(at..at + 8) {
        Some(s) => {
            w.copy_from_slice(s);
            u64::from_le_bytes(w)
        }
        None => {
            // The last eight bytes, shifted down so `at` comes first.
            if let Some(s) = t.get(t.len().wrapping_sub(8)..) {
                w.copy_from_slice(s);
            }
            let skip = (at + 8 - t.len()) as u32 * 8;
            u64::from_le_bytes(w).checked_shr(skip).unwrap_or(0)
        }
    }
}

/// Six digits (the low six bytes of `w`) as the eight bytes `abc_def_`.
#[inline(always)]
fn two_groups(w: u64) -> [u8; 8] {
    ((w & 0xff_ffff) | ((w & 0xffff_ff00_0000) << 8) | 0x5f00_0000_5f00_0000).to_le_bytes()
}

/// Appends a shortest float text in fixed form, `-?I.F` with `I` of one to
/// three digits and `F` of 1 ..= 24 digits (as `zmij` writes a float whose
/// magnitude is at least 1e-5 and below 1000), grouped: `-?I.` is copied as
/// it is and `F` in threes from the point. Returns `false`, writing
/// nothing, for any other text (the caller takes the general path).
///
/// The text is laid out in place at the end of `out` with fixed-size word
/// copies, six fraction digits at a time, and `out` trimmed to its length.
#[inline]
pub(crate) fn push_fixed_float(out: &mut Vec<u8>, text: &[u8]) -> bool {
    let neg = usize::from(text.first() == Some(&b'-'));
    // The point follows one to three integer digits.
    let head = match (text.get(neg + 1), text.get(neg + 2), text.get(neg + 3)) {
        (Some(b'.'), _, _) => neg + 2,
        (_, Some(b'.'), _) => neg + 3,
        (_, _, Some(b'.')) => neg + 4,
        _ => return false,
    };
    let len = text.len();
    let frac = len.wrapping_sub(head);
    if len < 8 || frac == 0 || frac > 24 {
        return false;
    }
    let start = out.len();
    out.resize(start + FLOAT_ROOM, 0);
    let Some(room) = out.get_mut(start..start + FLOAT_ROOM) else {
        return false; // unreachable: `out` has just grown by FLOAT_ROOM
    };
    // The sign, integer digits and point, then some fraction digits that
    // the groups overwrite.
    if let (Some(to), Some(from)) = (room.get_mut(..8), text.get(..8)) {
        to.copy_from_slice(from);
    }
    let Some(to) = room.get_mut(head..head + 32) else {
        return false; // unreachable: head ≤ 5
    };
    let (w01, w23) = to.split_at_mut(16);
    let (w0, w1) = w01.split_at_mut(8);
    let (w2, w3) = w23.split_at_mut(8);
    w0.copy_from_slice(&two_groups(word_at(text, head)));
    if frac > 6 {
        w1.copy_from_slice(&two_groups(word_at(text, head + 6)));
        if frac > 12 {
            w2.copy_from_slice(&two_groups(word_at(text, head + 12)));
            if frac > 18 {
                w3.copy_from_slice(&two_groups(word_at(text, head + 18)));
            }
        }
    }
    out.truncate(start + head + frac + (frac - 1) / 3);
    true
}

/// `"000"` to `"999"`.
static TRIPLES: [[u8; 3]; 1000] = triples();

const fn triples() -> [[u8; 3]; 1000] {
    let mut t = [[0u8; 3]; 1000];
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
static GROUPS: [[u8; 4]; 1000] = groups();

const fn groups() -> [[u8; 4]; 1000] {
    let mut t = [[0u8; 4]; 1000];
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

/// Room [`push_u64`] and [`push_u64_decimal`] claim at the end of `out`
/// before trimming back to the text's length: a sign, 20 integer digits
/// and 6 `_`, or `-0.` and [`MAX_U64_SCALE`] fraction digits and 15 `_`.
const U64_ROOM: usize = 72;

/// How many decimal digits `v` has (1 for 0).
#[inline(always)]
fn digit_count(v: u64) -> usize {
    // ⌊log10(2) × bit length⌋ is the count or one short of it.
    let bits = 64 - (v | 1).leading_zeros() as usize;
    let guess = (bits * 1233) >> 12;
    guess + usize::from(POW10.get(guess).is_none_or(|p| (v | 1) >= *p))
}

/// 10^0 ..= 10^19.
static POW10: [u64; 20] = {
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

/// Writes `v`'s digits grouped in threes right to left, ending at `end`;
/// the leading group (one to three digits) lands at `start`, which the
/// caller computed from `v`'s digit count.
#[inline(always)]
fn put_int_rev(room: &mut [u8; U64_ROOM], start: usize, mut end: usize, mut v: u64) {
    while v >= 1000 {
        let g = u32::from_le_bytes(GROUPS[(v % 1000) as usize]).rotate_left(8);
        v /= 1000;
        end = end.wrapping_sub(4);
        if let Some(to) = room.get_mut(end..end + 4) {
            to.copy_from_slice(&g.to_le_bytes());
        }
    }
    let g = GROUPS[v as usize];
    match (end.wrapping_sub(start), room.get_mut(start..start + 3)) {
        (1, Some(to)) => to[0] = g[2],
        (2, Some(to)) => to[..2].copy_from_slice(&g[1..3]),
        (_, Some(to)) => to.copy_from_slice(&g[..3]),
        _ => {}
    }
}

/// Claims [`U64_ROOM`] bytes at the end of `out` for a text of `len`
/// bytes laid out in place by `write` (given the room and `len`), then
/// trims `out` to it.
#[inline(always)]
fn in_place(out: &mut Vec<u8>, len: usize, write: impl FnOnce(&mut [u8; U64_ROOM], usize)) {
    let start = out.len();
    out.resize(start + U64_ROOM, 0);
    if let Some(room) = out
        .get_mut(start..start + U64_ROOM)
        .and_then(|r| <&mut [u8; U64_ROOM]>::try_from(r).ok())
    {
        write(room, len);
    }
    out.truncate(start + len);
}

/// Appends `±v` grouped in threes (`-1_234_567`), built in place right to
/// left from three-digit groups.
#[inline]
pub(crate) fn push_u64(out: &mut Vec<u8>, negative: bool, v: u64) {
    let neg = usize::from(negative);
    let len = neg + grouped_len(digit_count(v));
    in_place(out, len, |room, len| {
        room[0] = b'-';
        put_int_rev(room, neg, len, v);
    });
}

/// Appends `±c × 10^−scale` in the decimal layout (`scale` at most
/// [`MAX_U64_SCALE`]; 0 gives `c.0`): the fraction has exactly `scale`
/// digits, leading zeros included, so `c` must have no trailing zeros when
/// `scale > 0`.
#[inline]
pub(crate) fn push_u64_decimal(out: &mut Vec<u8>, negative: bool, mut c: u64, scale: u32) {
    let neg = usize::from(negative);
    let digits = digit_count(c);
    let scale = scale.min(MAX_U64_SCALE) as usize;
    if scale == 0 {
        let len = neg + grouped_len(digits) + 2;
        return in_place(out, len, |room, len| {
            room[0] = b'-';
            if let Some(to) = room.get_mut(len.wrapping_sub(2)..len) {
                to.copy_from_slice(b".0");
            }
            put_int_rev(room, neg, len.wrapping_sub(2), c);
        });
    }
    let int_digits = digits.saturating_sub(scale).max(1);
    let len = neg + grouped_len(int_digits) + 1 + grouped_len(scale);
    in_place(out, len, |room, len| {
        room[0] = b'-';
        // The fraction, right to left: a partial group of `scale % 3`
        // digits at its end, then whole groups each followed by `_`.
        let mut i = len;
        let mut groups = scale / 3;
        match scale % 3 {
            1 => {
                i = i.wrapping_sub(1);
                if let Some(to) = room.get_mut(i) {
                    *to = b'0' + (c % 10) as u8;
                }
                c /= 10;
            }
            2 => {
                i = i.wrapping_sub(2);
                if let Some(to) = room.get_mut(i..i + 2) {
                    to.copy_from_slice(&TRIPLES[(c % 100) as usize][1..]);
                }
                c /= 100;
            }
            _ => {
                // The last group is whole: no `_` after it.
                i = i.wrapping_sub(3);
                if let Some(to) = room.get_mut(i..i + 3) {
                    to.copy_from_slice(&TRIPLES[(c % 1000) as usize]);
                }
                c /= 1000;
                groups -= 1;
            }
        }
        for _ in 0..groups {
            i = i.wrapping_sub(4);
            if let Some(to) = room.get_mut(i..i + 4) {
                to.copy_from_slice(&GROUPS[(c % 1000) as usize]);
            }
            c /= 1000;
        }
        i = i.wrapping_sub(1);
        if let Some(to) = room.get_mut(i) {
            *to = b'.';
        }
        put_int_rev(room, neg, i, c);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

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
