//! Byte strings: `B` then an even number of lower-case hex digits (`B` alone
//! is empty). Lenient (HTOO) also reads upper-case digits.

use super::{PResult, Syntax, at_delimiter, fail};
use crate::error::ErrorKind;

/// Hex value of each byte; 0xff = not a hex digit, 0xfe = upper-case digit.
static HEX: [u8; 256] = {
    let mut t = [0xffu8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 0xfe;
        i += 1;
    }
    t
};

/// Parses a byte string starting at its `B`.
///
/// ```
/// use jtoo::parse::{bytes::byte_string, Syntax};
/// assert_eq!(byte_string(b"B4f4b", Syntax::Strict).unwrap().1, b"OK");
/// assert_eq!(byte_string(b"B", Syntax::Strict).unwrap().1, b"");
/// assert!(byte_string(b"B4F", Syntax::Strict).is_err());
/// assert_eq!(byte_string(b"B4F4B", Syntax::Lenient).unwrap().1, b"OK");
/// ```
pub fn byte_string(input: &[u8], syntax: Syntax) -> PResult<'_, Vec<u8>> {
    debug_assert_eq!(input.first(), Some(&b'B'));
    let body = &input[1..];
    let mut out = Vec::with_capacity(body.len().min(64) / 2);
    let mut i = 0;
    while let (Some(&h), Some(&l)) = (body.get(i), body.get(i + 1)) {
        let (hv, lv) = (hex(h, syntax), hex(l, syntax));
        if hv > 15 || lv > 15 {
            break;
        }
        out.push((hv << 4) | lv);
        i += 2;
    }
    let rest = &body[i..];
    if at_delimiter(rest, syntax) {
        return Ok((rest, out));
    }
    let strict = !syntax.is_lenient();
    let upper = |b: &u8| strict && HEX[usize::from(*b)] == 0xfe;
    match rest {
        [a, ..] if upper(a) => fail(
            rest,
            ErrorKind::InvalidBytes("hex digits must be lower case"),
        ),
        [a, b, ..] if hex(*a, syntax) <= 15 && upper(b) => fail(
            &rest[1..],
            ErrorKind::InvalidBytes("hex digits must be lower case"),
        ),
        [a, ..] if hex(*a, syntax) <= 15 && at_delimiter(&rest[1..], syntax) => {
            fail(rest, ErrorKind::InvalidBytes("odd number of hex digits"))
        }
        _ => fail(rest, ErrorKind::InvalidBytes("expected hex digit pairs")),
    }
}

#[inline(always)]
fn hex(b: u8, syntax: Syntax) -> u8 {
    match HEX[b as usize] {
        0xfe if syntax.is_lenient() => (b | 0x20) - b'a' + 10,
        v => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejections() {
        for bad in [
            &b"B4"[..],
            b"B4f4",
            b"B 4f",
            b"B4f 4b",
            b"B4g",
            b"B4F",
            b"Bx",
        ] {
            let r = byte_string(bad, Syntax::Strict);
            assert!(r.is_err(), "{}", String::from_utf8_lossy(bad));
        }
        assert!(byte_string(b"B4f,", Syntax::Strict).is_ok());
        assert!(byte_string(b"B4f]", Syntax::Strict).is_ok());
        assert!(byte_string(b"B4f:", Syntax::Strict).is_ok());
    }
}
