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

#[cfg(test)]
mod tests {
    use super::*;

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
