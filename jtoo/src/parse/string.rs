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

/// What was checked once for a whole document, so that its strings need not
/// check it again one by one: that the document is UTF-8 (every valid one
/// is). Strings are then sliced out of its text. The check is `simdutf8`'s
/// (SIMD, chosen at run time), faster on the benchmark corpus than core's
/// validator, whose word-at-a-time loop slows down on non-ASCII text. When
/// it fails, strings are checked as they are read, which reports the first
/// error exactly where it is, so results and errors are the same either
/// way.
///
/// (Checking the absence of raw control bytes up front as well, to find a
/// string's end with `memchr2(b'"', b'\\')`, was measured slower on the
/// benchmark corpus than the word-at-a-time scan: most strings are short.)
///
/// ```
/// use jtoo::parse::{string::{string_in, Known}, Syntax};
/// let doc = r#""héllo","x""#;
/// let known = Known::check(doc.as_bytes());
/// let (rest, s) = string_in(doc.as_bytes(), Syntax::Strict, known).unwrap();
/// assert_eq!((s.as_ref(), rest), ("héllo", &br#","x""#[..]));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Known<'a> {
    text: Option<&'a str>,
    /// The input is UTF-8 (`text` is it, when at hand).
    utf8: bool,
}

impl<'a> Known<'a> {
    /// Nothing known: every string is checked on its own.
    pub const NOTHING: Known<'static> = Known {
        text: None,
        utf8: false,
    };

    /// The input was checked to be UTF-8 in pieces (a streaming reader's
    /// window), its text not at hand: strings are skipped without their
    /// UTF-8 being checked again, and built by checking it.
    pub(crate) const UTF8: Known<'static> = Known {
        text: None,
        utf8: true,
    };

    /// Checks `input`, a whole document.
    pub fn check(input: &'a [u8]) -> Known<'a> {
        let text = simdutf8::basic::from_utf8(input).ok();
        Known {
            utf8: text.is_some(),
            text,
        }
    }

    /// As [`Known::check`], for a document that is already a `&str`.
    pub fn of_str(text: &'a str) -> Known<'a> {
        Known {
            text: Some(text),
            utf8: true,
        }
    }

    /// Whether the document is known to be UTF-8.
    pub fn is_utf8(&self) -> bool {
        self.utf8
    }

    /// `input[start..end]` as text, without checking its UTF-8 again, when
    /// `input` is the checked document or a suffix of it (same memory) and
    /// the range falls on character boundaries; `None` otherwise.
    ///
    /// ```
    /// use jtoo::parse::string::Known;
    /// let doc = "[\"é\",1]";
    /// let known = Known::of_str(doc);
    /// assert_eq!(known.text_of(doc.as_bytes(), 1, 5), Some("\"é\""));
    /// assert_eq!(known.text_of(doc.as_bytes(), 2, 3), None); // inside 'é'
    /// assert_eq!(Known::NOTHING.text_of(doc.as_bytes(), 1, 5), None);
    /// ```
    #[inline]
    pub fn text_of(self, input: &'a [u8], start: usize, end: usize) -> Option<&'a str> {
        let t = self.for_suffix(input).text?;
        let at = t.len() - input.len();
        t.get(at.checked_add(start)?..at.checked_add(end)?)
    }

    /// These facts for `input` if it is a suffix of the checked document
    /// (same memory), else nothing.
    #[inline]
    fn for_suffix(self, input: &[u8]) -> Known<'a> {
        match self.text {
            Some(t)
                if t.len() >= input.len()
                    && t.as_bytes().as_ptr_range().end == input.as_ptr_range().end =>
            {
                self
            }
            _ => Known::NOTHING,
        }
    }
}

/// The text of `run`, which starts `run_at` bytes into `input` and ends
/// before an ASCII byte: sliced out of the document's text when it is known
/// to be UTF-8 (`input` is then a suffix of it), else validated here.
#[inline]
fn utf8<'a>(
    input: &'a [u8],
    known: Known<'a>,
    run_at: usize,
    len: usize,
) -> Result<&'a str, nom::Err<super::ParseError>> {
    if let Some(t) = known.text {
        let start = t.len() - input.len() + run_at;
        if let Some(run) = t.get(start..start + len) {
            return Ok(run);
        }
    }
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
    string_in(input, syntax, Known::NOTHING)
}

/// [`string`] in a document whose [`Known`] facts were checked up front
/// (`input` must be a suffix of that document; otherwise nothing is assumed).
#[inline]
pub fn string_in<'a>(
    input: &'a [u8],
    syntax: Syntax,
    known: Known<'a>,
) -> PResult<'a, Cow<'a, str>> {
    debug_assert_eq!(input.first(), Some(&b'"'));
    let known = known.for_suffix(input);
    let mut pos = 1;
    let mut owned: Option<String> = None;
    loop {
        let Some(n) = find_special(&input[pos..]) else {
            return fail(input, ErrorKind::UnclosedString);
        };
        let run = utf8(input, known, pos, n)?;
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
            _ => return raw_special(&input[at..]),
        }
    }
}

/// The common case of [`string_in`] for readers that keep a position in
/// the whole document `input` (whose [`Known`] facts are `known`): the
/// string whose `"` is at `input[pos]` when it has no escapes and the
/// document was checked to be UTF-8 with its text at hand. Returns where
/// the string ends (after its closing `"`) and its text, sliced out of the
/// document; `None` for anything else, which [`string_in`] then reads in
/// full (it may still accept it, or say what is wrong). One scan of the
/// bytes, no second UTF-8 check.
///
/// ```
/// use jtoo::parse::string::{plain_at, Known};
/// let doc = br#"["k":"v","e\22"]"#;
/// let known = Known::check(doc);
/// assert_eq!(plain_at(doc, known, 1), Some((4, "k")));
/// assert_eq!(plain_at(doc, known, 5), Some((8, "v")));
/// assert_eq!(plain_at(doc, known, 9), None); // an escape
/// assert_eq!(plain_at(doc, Known::NOTHING, 1), None);
/// ```
#[inline(always)]
pub fn plain_at<'a>(input: &'a [u8], known: Known<'a>, pos: usize) -> Option<(usize, &'a str)> {
    let text = known.text?;
    // `known` must describe `input` itself (same memory).
    if text.as_ptr() != input.as_ptr() || text.len() != input.len() {
        return None;
    }
    let start = pos + 1;
    let body = input.get(start..)?;
    let n = find_special(body)?;
    if body.get(n) != Some(&b'"') {
        return None;
    }
    // Both ends are next to an ASCII `"`: char boundaries of the text.
    Some((start + n + 1, text.get(start..start + n)?))
}

/// Checks a string (starting at its `"`) in a document known to be UTF-8,
/// without building it; returns the input after the closing `"`.
pub(crate) fn skip_valid(
    input: &[u8],
    syntax: Syntax,
) -> Result<&[u8], nom::Err<super::ParseError>> {
    let mut pos = 1;
    loop {
        let Some(n) = find_special(input.get(pos..).unwrap_or_default()) else {
            return fail(input, ErrorKind::UnclosedString).map(|(r, ())| r);
        };
        let at = pos + n;
        match input.get(at..) {
            Some([b'"', rest @ ..]) => return Ok(rest),
            Some(esc @ [b'\\', ..]) => pos = at + escape(esc, syntax)?.1,
            _ => return raw_special(input.get(at..).unwrap_or_default()).map(|(r, ())| r),
        }
    }
}

/// The error for a raw control code or U+007F at the start of `at`.
#[cold]
fn raw_special<T>(at: &[u8]) -> PResult<'_, T> {
    if at.first() == Some(&0x7f) {
        fail(
            at,
            ErrorKind::InvalidString("U+007F must be written `\\7f`"),
        )
    } else {
        fail(
            at,
            ErrorKind::InvalidString(
                "control characters must be escaped as `\\` and two lower-case hex digits",
            ),
        )
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
    fn document_check_agrees_with_string_by_string() {
        // Long texts, so the whole-document check takes its SIMD path, with
        // non-ASCII in every position class and one bad byte in each place.
        let long = format!("\"{}\"", "é中😀x\\22".repeat(40));
        let mut docs: Vec<Vec<u8>> = vec![long.clone().into_bytes()];
        for at in [1, 2, 40, long.len() / 2, long.len() - 2] {
            for bad in [0xff, 0x80, 0xc3] {
                let mut d = long.clone().into_bytes();
                d[at] = bad;
                docs.push(d);
            }
        }
        for d in &docs {
            let known = Known::check(d);
            assert_eq!(known.is_utf8(), std::str::from_utf8(d).is_ok());
            let with = string_in(d, Syntax::Strict, known).map(|(r, v)| (r.len(), v));
            let without = string(d, Syntax::Strict).map(|(r, v)| (r.len(), v));
            match (with, without) {
                (Ok(a), Ok(b)) => assert_eq!(a, b),
                (Err(a), Err(b)) => assert_eq!(
                    super::super::unwrap_nom_err(a, d),
                    super::super::unwrap_nom_err(b, d)
                ),
                (a, b) => panic!("{a:?} vs {b:?}"),
            }
        }
    }

    #[test]
    fn borrows_without_escapes() {
        let (_, s) = string(b"\"plain text here\"", Syntax::Strict).unwrap();
        assert!(matches!(s, Cow::Borrowed(_)));
    }
}
