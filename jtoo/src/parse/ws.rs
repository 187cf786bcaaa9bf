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
                Some(b'/') => match memchr::memchr(b'\n', &input[i + 2..]) {
                    Some(n) => i += 2 + n + 1,
                    None => i = input.len(),
                },
                Some(b'*') => match memchr::memmem::find(&input[i + 2..], b"*/") {
                    Some(n) => i += 2 + n + 2,
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
