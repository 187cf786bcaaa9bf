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

/// Index of the first special byte in `bytes`, if any.
#[inline]
pub(crate) fn find_special(bytes: &[u8]) -> Option<usize> {
    let mut i = 0;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut arr = [0u8; 8];
        arr.copy_from_slice(chunk);
        let w = u64::from_le_bytes(arr);
        // bytes < 0x20: (w - 0x20..) & !w & 0x80.. flags them (w's high bit clear).
        let ctrl = w.wrapping_sub(LO * 0x20) & !w & HI;
        let quote = has_zero(w ^ (LO * u64::from(b'"')));
        let bslash = has_zero(w ^ (LO * u64::from(b'\\')));
        let del = has_zero(w ^ (LO * 0x7f));
        let hits = ctrl | quote | bslash | del;
        if hits != 0 {
            // Each test can only flag false positives *above* a true hit
            // (borrows run upwards), so the lowest flagged byte is exact.
            return Some(i + (hits.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| is_special(b))
        .map(|j| i + j)
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
                }
            }
        }
        let plain: Vec<u8> = (0x20u8..=0xff).filter(|&b| !is_special(b)).collect();
        assert_eq!(find_special(&plain), None);
        assert_eq!(find_special("你好, world! ~~~~~~~~".as_bytes()), None);
    }

    proptest::proptest! {
        #[test]
        fn agrees_with_a_byte_loop(v in proptest::collection::vec(
            proptest::prop_oneof![0u8..0x22, 0x5bu8..0x5e, 0x7eu8..0x81, proptest::prelude::any::<u8>()],
            0..40,
        )) {
            proptest::prop_assert_eq!(find_special(&v), v.iter().position(|&b| is_special(b)));
        }
    }
}
