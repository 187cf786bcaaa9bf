//! Whitespace and comments: none in strict JTOO; in HTOO space, tab, CR, LF,
//! `// …` to the end of the line and non-nesting `/* … */`.

use super::{PResult, Syntax, fail};
use crate::error::ErrorKind;

/// Skips whitespace and comments (lenient only; strict returns at once).
///
/// ```
/// use jtoo::parse::{ws::skip, Syntax};
/// assert_eq!(skip(b" // note\n /* x */ 1", Syntax::Lenient).unwrap().0, b"1");
/// assert_eq!(skip(b" 1", Syntax::Strict).unwrap().0, b" 1");
/// assert!(skip(b"/* open", Syntax::Lenient).is_err());
/// assert!(skip(b"// \xff\n1", Syntax::Lenient).is_err()); // comments are UTF-8 too
/// ```
#[inline(always)]
pub fn skip(input: &[u8], syntax: Syntax) -> PResult<'_, ()> {
    match (syntax, input.first()) {
        (Syntax::Lenient, Some(b' ' | b'\t' | b'\r' | b'\n' | b'/')) => skip_lenient(input),
        _ => Ok((input, ())),
    }
}

fn skip_lenient(input: &[u8]) -> PResult<'_, ()> {
    let mut i = 0;
    loop {
        match input.get(i) {
            Some(b' ' | b'\t' | b'\r' | b'\n') => i += 1,
            Some(b'/') => match input.get(i + 1) {
                Some(b'/') => {
                    let body = &input[i + 2..];
                    let len = memchr::memchr(b'\n', body).unwrap_or(body.len());
                    comment_text(input, i + 2, len)?;
                    i += 2 + len;
                }
                Some(b'*') => match memchr::memmem::find(&input[i + 2..], b"*/") {
                    Some(n) => {
                        comment_text(input, i + 2, n)?;
                        i += 2 + n + 2;
                    }
                    None => return fail(&input[i..], ErrorKind::UnclosedComment),
                },
                _ => {
                    return fail(
                        &input[i..],
                        ErrorKind::InvalidComment("expected `//` or `/*`"),
                    );
                }
            },
            _ => return Ok((&input[i..], ())),
        }
    }
}

/// A comment's text must be valid UTF-8 like the rest of the document.
#[inline]
fn comment_text(input: &[u8], at: usize, len: usize) -> Result<(), nom::Err<super::ParseError>> {
    match std::str::from_utf8(&input[at..at + len]) {
        Ok(_) => Ok(()),
        Err(e) => fail::<()>(&input[at + e.valid_up_to()..], ErrorKind::InvalidUtf8).map(|_| ()),
    }
}
