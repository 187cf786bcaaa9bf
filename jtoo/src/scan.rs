//! Word-at-a-time scanning for the bytes a JTOO string may not hold raw:
//! control codes U+0000–U+001F, `"`, `\` and U+007F. The parser uses it to
//! find where a string's plain run ends; the encoder to find what to escape.

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// Non-zero when some byte of `w` is zero (may flag bytes after a true hit;
/// only used to decide whether to look closer).
#[inline(always)]
fn has_zero(w: u64) -> u64 {
    w.wrapping_sub(LO) & !w & HI
}

/// `true` for the bytes that must be escaped in a JTOO string.
#[inline(always)]
pub(crate) fn is_special(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\' || b == 0x7f
}

/// Flags (high bit of the byte) the special bytes of a little-endian
/// word; a flagged byte above a true hit may be a false one (borrows run
/// upwards), so the lowest flag is always exact.
#[inline(always)]
fn hits(w: u64) -> u64 {
    // bytes < 0x20: (w - 0x20..) & !w & 0x80.. flags them (w's high bit clear).
    let ctrl = w.wrapping_sub(LO * 0x20) & !w & HI;
    let quote = has_zero(w ^ (LO * u64::from(b'"')));
    let bslash = has_zero(w ^ (LO * u64::from(b'\\')));
    let del = has_zero(w ^ (LO * 0x7f));
    ctrl | quote | bslash | del
}

/// The eight bytes at `bytes[at..]` as a little-endian word (0 past the
/// end, which the callers' lengths rule out).
#[inline(always)]
fn word(bytes: &[u8], at: usize) -> u64 {
    bytes
        .get(at..at + 8)
        .and_then(|b| <[u8; 8]>::try_from(b).ok())
        .map_or(0, u64::from_le_bytes)
}

/// The first special byte among `bytes`' whole eight-byte words: `Ok`
/// with its index, or `Err` with the length of the words (all clean).
#[inline(always)]
fn scan_words(bytes: &[u8]) -> Result<usize, usize> {
    let mut i = 0;
    for chunk in bytes.chunks_exact(8) {
        let h = hits(word(chunk, 0));
        if h != 0 {
            return Ok(i + (h.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    Err(i)
}

/// Index of the first special byte in `bytes`, if any: for the parser,
/// whose `bytes` is the rest of the document, so the tail rarely matters.
#[inline]
pub(crate) fn find_special(bytes: &[u8]) -> Option<usize> {
    match scan_words(bytes) {
        Ok(i) => Some(i),
        Err(i) => bytes
            .get(i..)
            .and_then(|tail| tail.iter().position(|&b| is_special(b)))
            .map(|j| i + j),
    }
}

/// Index of the first special byte in a whole string, if any: for the
/// encoder, whose strings are often short.
///
/// Eight bytes at a time; the tail is one more word that overlaps bytes
/// already found clean (they cannot be flagged: false flags only sit above
/// a true hit), and strings of four to seven bytes are one word made of
/// their first and last four. No byte-by-byte loop except below four.
#[inline]
pub(crate) fn find_special_in(bytes: &[u8]) -> Option<usize> {
    let len = bytes.len();
    if len < 8 {
        return find_special_short(bytes);
    }
    match scan_words(bytes) {
        Ok(i) => Some(i),
        Err(i) if i == len => None,
        Err(_) => {
            let h = hits(word(bytes, len - 8));
            (h != 0).then(|| len - 8 + (h.trailing_zeros() / 8) as usize)
        }
    }
}

/// [`find_special_in`] for fewer than eight bytes.
#[inline(always)]
fn find_special_short(bytes: &[u8]) -> Option<usize> {
    let len = bytes.len();
    let (Some(lo), Some(hi)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) else {
        return bytes.iter().position(|&b| is_special(b));
    };
    // Bytes 0..4 low, len−4..len high: a hit in the high half that is also
    // in the low half is flagged lower first.
    let w = u64::from(u32::from_le_bytes(*lo)) | u64::from(u32::from_le_bytes(*hi)) << 32;
    let h = hits(w);
    if h == 0 {
        return None;
    }
    let k = (h.trailing_zeros() / 8) as usize;
    Some(if k < 4 { k } else { len + k - 8 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_special_byte_at_every_position() {
        for special in (0u8..0x20).chain([b'"', b'\\', 0x7f]) {
            for len in 1..20 {
                for pos in 0..len {
                    let mut v = vec![b'a'; len];
                    v[pos] = special;
                    assert_eq!(
                        find_special(&v),
                        Some(pos),
                        "{special:#x} at {pos} of {len}"
                    );
                    assert_eq!(
                        find_special_in(&v),
                        Some(pos),
                        "{special:#x} at {pos} of {len}"
                    );
                }
            }
        }
        let plain: Vec<u8> = (0x20u8..=0xff).filter(|&b| !is_special(b)).collect();
        assert_eq!(find_special(&plain), None);
        assert_eq!(find_special_in(&plain), None);
        for len in 0..20 {
            assert_eq!(find_special_in(&plain[..len]), None);
        }
        assert_eq!(find_special("你好, world! ~~~~~~~~".as_bytes()), None);
    }

    proptest::proptest! {
        #[test]
        fn agrees_with_a_byte_loop(v in proptest::collection::vec(
            proptest::prop_oneof![0u8..0x22, 0x5bu8..0x5e, 0x7eu8..0x81, proptest::prelude::any::<u8>()],
            0..40,
        )) {
            let want = v.iter().position(|&b| is_special(b));
            proptest::prop_assert_eq!(find_special(&v), want);
            proptest::prop_assert_eq!(find_special_in(&v), want);
        }
    }
}
