//! Strings: `"` … `"`, valid UTF-8, with U+0000–U+001F, `"`, `\` and U+007F
//! written only as `\` + two lower-case hex digits (`\0a`, `\22`, `\5c`).
//! Lenient (HTOO) also reads `\t`, `\r`, `\n` and `\"`.

use super::{PResult, Syntax, fail};
use crate::error::ErrorKind;
use crate::scan::find_special;
use std::borrow::Cow;

#[inline]
fn hex_lower(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    }
}

/// Validates `run` as UTF-8; `run` starts `run_at` bytes into `input`.
#[inline]
fn utf8(input: &[u8], run_at: usize, len: usize) -> Result<&str, nom::Err<super::ParseError>> {
    let run = &input[run_at..run_at + len];
    std::str::from_utf8(run).map_err(|e| {
        nom::Err::Failure(super::ParseError::new(
            &input[run_at + e.valid_up_to()..],
            ErrorKind::InvalidUtf8,
        ))
    })
}

/// Parses a string starting at its opening `"`. Borrowed from the input when
/// it has no escapes.
///
/// ```
/// use jtoo::parse::{string::string, Syntax};
/// let (rest, s) = string(br#""She typed \22ok\22."]"#, Syntax::Strict).unwrap();
/// assert_eq!((s.as_ref(), rest), ("She typed \"ok\".", &b"]"[..]));
/// assert!(string(br#""tab\t""#, Syntax::Strict).is_err());
/// assert!(string(br#""tab\t""#, Syntax::Lenient).is_ok());
/// ```
pub fn string(input: &[u8], syntax: Syntax) -> PResult<'_, Cow<'_, str>> {
    debug_assert_eq!(input.first(), Some(&b'"'));
    let mut pos = 1;
    let mut owned: Option<String> = None;
    loop {
        let Some(n) = find_special(&input[pos..]) else {
            return fail(input, ErrorKind::UnclosedString);
        };
        let run = utf8(input, pos, n)?;
        let at = pos + n;
        match input[at] {
            b'"' => {
                let rest = &input[at + 1..];
                return Ok(match owned {
                    None => (rest, Cow::Borrowed(run)),
                    Some(mut s) => {
                        s.push_str(run);
                        (rest, Cow::Owned(s))
                    }
                });
            }
            b'\\' => {
                let s = owned.get_or_insert_with(|| String::with_capacity(n + 16));
                s.push_str(run);
                let (ch, len) = escape(&input[at..], syntax)?;
                s.push(ch);
                pos = at + len;
            }
            0x7f => {
                return fail(
                    &input[at..],
                    ErrorKind::InvalidString("U+007F must be written `\\7f`"),
                );
            }
            _ => {
                return fail(
                    &input[at..],
                    ErrorKind::InvalidString(
                        "control characters must be escaped as `\\` and two lower-case hex digits",
                    ),
                );
            }
        }
    }
}

/// Decodes the escape at `esc` (which starts with `\`): the character and the
/// escape's length in bytes.
fn escape(esc: &[u8], syntax: Syntax) -> Result<(char, usize), nom::Err<super::ParseError>> {
    let bad = |kind| Err(nom::Err::Failure(super::ParseError::new(esc, kind)));
    match (esc.get(1), esc.get(2)) {
        (Some(&h), Some(&l)) if h.is_ascii_hexdigit() && l.is_ascii_hexdigit() => {
            let (Some(h), Some(l)) = (hex_lower(h), hex_lower(l)) else {
                return bad(ErrorKind::InvalidEscape("hex digits must be lower case"));
            };
            let c = (h << 4) | l;
            if c < 0x20 || c == b'"' || c == b'\\' || c == 0x7f {
                Ok((char::from(c), 3))
            } else {
                bad(ErrorKind::InvalidEscape(
                    "only control codes, `\"` (`\\22`), `\\` (`\\5c`) and U+007F (`\\7f`) may be escaped",
                ))
            }
        }
        (Some(b't'), _) if syntax.is_lenient() => Ok(('\t', 2)),
        (Some(b'r'), _) if syntax.is_lenient() => Ok(('\r', 2)),
        (Some(b'n'), _) if syntax.is_lenient() => Ok(('\n', 2)),
        (Some(b'"'), _) if syntax.is_lenient() => Ok(('"', 2)),
        (Some(b'\\'), _) => bad(ErrorKind::InvalidEscape("a backslash is written `\\5c`")),
        _ if syntax.is_lenient() => bad(ErrorKind::InvalidEscape(
            "expected `\\` and two lower-case hex digits, or `\\t`, `\\r`, `\\n`, `\\\"`",
        )),
        _ => bad(ErrorKind::InvalidEscape(
            "expected `\\` and two lower-case hex digits",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strict(s: &[u8]) -> Result<String, ErrorKind> {
        match string(s, Syntax::Strict) {
            Ok(([], v)) => Ok(v.into_owned()),
            Ok(_) => Err(ErrorKind::TrailingCharacters),
            Err(e) => Err(super::super::unwrap_nom_err(e, s).kind),
        }
    }

    #[test]
    fn accepts_all_35_escapes() {
        for c in (0u8..0x20).chain([0x22, 0x5c, 0x7f]) {
            let doc = format!("\"a\\{c:02x}b\"");
            assert_eq!(strict(doc.as_bytes()), Ok(format!("a{}b", char::from(c))));
        }
    }

    #[test]
    fn rejects_raw_specials_and_other_escapes() {
        for c in (0u8..0x20).chain([0x7f]) {
            assert!(strict(&[b'"', c, b'"']).is_err(), "{c}");
        }
        for bad in [
            &br#""\41""#[..],
            br#""\0A""#,
            br#""\\""#,
            br#""\u0041""#,
            br#""\x""#,
            br#""\""#,
            br#""\0""#,
        ] {
            assert!(strict(bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
        assert_eq!(strict(b"\"abc"), Err(ErrorKind::UnclosedString));
        assert_eq!(strict(b"\"\xff\""), Err(ErrorKind::InvalidUtf8));
        assert_eq!(strict("\"你好\u{85}\"".as_bytes()), Ok("你好\u{85}".into()));
    }

    #[test]
    fn borrows_without_escapes() {
        let (_, s) = string(b"\"plain text here\"", Syntax::Strict).unwrap();
        assert!(matches!(s, Cow::Borrowed(_)));
    }
}
