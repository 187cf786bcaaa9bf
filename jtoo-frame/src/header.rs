//! The frame header, `jjjjjj bbbbbb `: the two section lengths as six
//! lower-case hex digits each, each followed by a space. Its writer and its
//! two readers (word at a time for complete headers, byte by byte to say
//! what is wrong and to accept a header that has partly arrived) live here.

use crate::error::FrameError;

/// Bytes in a header.
pub(crate) const HEADER_LEN: usize = 14;

/// `jjjjjj bbbbbb ` and one more space (the header, and the space that
/// follows an empty JTOO section), then one unused byte.
#[inline]
pub(crate) fn write(jlen: usize, blen: usize) -> [u8; 16] {
    const SIX: u64 = 0xffff_ffff_ffff;
    const SPACE: u64 = b' ' as u64;
    let (j, b) = (hex6_digits(jlen), hex6_digits(blen));
    let w0 = (j & SIX) | SPACE << 48 | (b & 0xff) << 56;
    let w1 = ((b >> 8) & 0xff_ffff_ffff) | SPACE << 40 | SPACE << 48;
    let mut head = [0u8; 16];
    let (a, z) = head.split_at_mut(8);
    a.copy_from_slice(&w0.to_le_bytes());
    z.copy_from_slice(&w1.to_le_bytes());
    head
}

/// The low 24 bits of `n` as six lower-case hex digits in the low six bytes
/// of a little-endian word (the most significant digit first), word at a
/// time.
#[inline]
fn hex6_digits(n: usize) -> u64 {
    let x = (n & 0xff_ffff) as u64;
    // Nibble k into byte k, then reversed: nibble 5 in byte 0, nibble 0 in
    // byte 5.
    let x = (x | x << 16) & 0x0000_ffff_0000_ffff;
    let x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
    let x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
    nibble_digits(x.swap_bytes() >> 16)
}

/// The lower-case hex digit of each byte of `v`, a nibble value (0-15)
/// each.
#[inline]
fn nibble_digits(v: u64) -> u64 {
    // `0`-`9` for 0-9, `a`-`f` for 10-15: add `0`, and 39 more from 10 on
    // (a byte of `v + 0x76` reaches 0x80 exactly when the nibble is > 9).
    let letters = (v.wrapping_add(LO * 0x76) >> 7) & LO;
    v + LO * u64::from(b'0') + letters * 39
}

const LO: u64 = 0x0101_0101_0101_0101;

/// The number written by six lower-case hex digits, or `None` when one of
/// them is anything else. Word at a time: `x` holds the digits in its low
/// six bytes (the first, most significant, lowest) and `0` digits in the
/// other two.
#[inline]
fn hex6(x: u64) -> Option<usize> {
    // Nibble values, one a byte: the low four bits, plus 9 for letters (bit
    // 6 set), wrapped to four bits. No byte carries into the next (at most
    // 15 + 9).
    let v = ((x & (LO * 0x0f)) + 9 * ((x >> 6) & LO)) & (LO * 0x0f);
    // A byte is a lower-case hex digit exactly when it is the digit its
    // nibble is written as: the writer's digits are the only ones.
    if nibble_digits(v) != x {
        return None;
    }
    // Pairs of digits into bytes, bytes into 16-bit halves, halves into the
    // 32-bit value of the eight digits (the first is the most significant).
    let m8 = 0x000f_000f_000f_000f;
    let v = ((v & m8) << 4) | ((v >> 8) & m8);
    let m16 = 0x0000_00ff_0000_00ff;
    let v = ((v & m16) << 8) | ((v >> 16) & m16);
    let v = ((v & 0xffff) << 16) | ((v >> 32) & 0xffff);
    usize::try_from(v >> 8).ok()
}

/// The two lengths of a complete, well-formed header at the start of `buf`;
/// `None` when it is incomplete or malformed ([`diagnose`] then says
/// which).
#[inline]
pub(crate) fn read(buf: &[u8]) -> Option<(usize, usize)> {
    const SIX: u64 = 0xffff_ffff_ffff;
    const PAD: u64 = (LO * b'0' as u64) & !SIX;
    // `jjjjjj b` and ` bbbbbb `: bytes 6 and 13 must be spaces.
    let head = buf.get(..HEADER_LEN)?;
    let w0 = u64::from_le_bytes(*head.first_chunk()?);
    let w1 = u64::from_le_bytes(*head.last_chunk()?);
    if (w0 >> 48) & 0xff != u64::from(b' ') || w1 >> 56 != u64::from(b' ') {
        return None;
    }
    Some((hex6((w0 & SIX) | PAD)?, hex6(((w1 >> 8) & SIX) | PAD)?))
}

#[inline]
fn hex_digit(b: u8) -> Option<usize> {
    match b {
        b'0'..=b'9' => Some(usize::from(b - b'0')),
        b'a'..=b'f' => Some(usize::from(b - b'a' + 10)),
        _ => None,
    }
}

/// Reads and checks the header at the start of `buf`, which may be
/// incomplete. Returns the two lengths once all 14 bytes are there.
pub(crate) fn diagnose(buf: &[u8]) -> Result<Option<(usize, usize)>, FrameError> {
    let head = buf.get(..HEADER_LEN).unwrap_or(buf);
    let mut jlen = 0usize;
    let mut blen = 0usize;
    for (i, &b) in head.iter().enumerate() {
        match i {
            6 | 13 if b == b' ' => {}
            6 => {
                return Err(FrameError::MalformedHeader(
                    "expected a space after the JTOO length",
                ));
            }
            13 => {
                return Err(FrameError::MalformedHeader(
                    "expected a space after the binary length",
                ));
            }
            _ => {
                let d = match hex_digit(b) {
                    Some(d) => d,
                    None if b.is_ascii_hexdigit() => {
                        return Err(FrameError::MalformedHeader(
                            "length digits must be lower-case hex",
                        ));
                    }
                    None => {
                        return Err(FrameError::MalformedHeader(
                            "expected six lower-case hex digits",
                        ));
                    }
                };
                if i < 6 {
                    jlen = (jlen << 4) | d;
                } else {
                    blen = (blen << 4) | d;
                }
            }
        }
    }
    if head.len() < HEADER_LEN {
        return Ok(None);
    }
    Ok(Some((jlen, blen)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digit-by-digit reading the word-at-a-time one must agree with.
    fn hex6_of(d: [u8; 6]) -> Option<usize> {
        let [a, b, c, e, f, g] = d;
        hex6(u64::from_le_bytes([a, b, c, e, f, g, b'0', b'0']))
    }

    fn hex6_reference(digits: [u8; 6]) -> Option<usize> {
        digits
            .iter()
            .try_fold(0usize, |n, &b| Some((n << 4) | hex_digit(b)?))
    }

    #[test]
    fn hex6_agrees_with_the_digit_by_digit_reading() {
        let bases: [[u8; 6]; 4] = [*b"000000", *b"ffffff", *b"09af3c", *b"a0b1c2"];
        for base in bases {
            assert_eq!(hex6_of(base), hex6_reference(base));
            for at in 0..6 {
                for b in 0..=255u8 {
                    let mut d = base;
                    d[at] = b;
                    assert_eq!(hex6_of(d), hex6_reference(d), "{d:?}");
                    // Two wrong bytes at once.
                    let mut d2 = d;
                    d2[(at + 3) % 6] = b.wrapping_mul(7);
                    assert_eq!(hex6_of(d2), hex6_reference(d2), "{d2:?}");
                }
            }
        }
        for n in (0..=0xff_ffffusize).step_by(4099).chain([0xff_ffff]) {
            let text = format!("{n:06x}");
            let d: [u8; 6] = text.as_bytes().try_into().unwrap();
            assert_eq!(hex6_of(d), Some(n));
        }
    }

    #[test]
    fn whole_header_reads_only_well_formed_headers() {
        assert_eq!(read(b"00000c 000003 "), Some((12, 3)));
        assert_eq!(read(b"ffffff 0a0b0c x"), Some((0xff_ffff, 0x0a_0b0c)));
        for bad in [
            &b"00000c 000003"[..],
            b"00000c_000003 ",
            b"00000c 000003_",
            b"00000C 000003 ",
            b"00000c 00000g ",
            b"0000c 0000003 ",
        ] {
            assert_eq!(read(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn hex6_writes_six_lower_case_digits() {
        for n in (0..=0xff_ffffusize)
            .step_by(997)
            .chain([0, 9, 10, 15, 16, 0xff_ffff])
        {
            let d = hex6_digits(n).to_le_bytes();
            assert_eq!(&d[..6], format!("{n:06x}").as_bytes(), "{n:#x}");
        }
        assert_eq!(&write(12, 3)[..15], b"00000c 000003  ");
        assert_eq!(&write(0xff_ffff, 0xabcdef)[..15], b"ffffff abcdef  ");
    }
}
