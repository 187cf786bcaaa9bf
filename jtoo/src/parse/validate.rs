//! Validation without building a `Value`: the same productions, but lists are
//! walked, not collected, and nothing is kept. Used where a document only has
//! to be checked (frame decoding, relays).

use super::string::Known;
use super::{PResult, Syntax, fail, ws};
use crate::error::ErrorKind;

/// Checks one value at the start of `input`; returns the rest.
pub fn value(input: &[u8], syntax: Syntax, depth: usize) -> PResult<'_, ()> {
    value_key(input, syntax, depth, Known::NOTHING).map(|(rest, _)| (rest, ()))
}

/// Checks a value and says whether it would be an ambiguous pair key.
/// `known`: what was checked up front for the whole document.
pub(crate) fn value_key<'a>(
    input: &'a [u8],
    syntax: Syntax,
    depth: usize,
    known: Known<'a>,
) -> PResult<'a, bool> {
    match input.first() {
        Some(b'[') => list(input, syntax, depth, known).map(|(r, ())| (r, false)),
        Some(b'"') if known.is_utf8() => {
            super::string::skip_valid(input, syntax).map(|r| (r, false))
        }
        Some(b'"') => super::string::string(input, syntax).map(|(r, _)| (r, false)),
        Some(b'-' | b'0'..=b'9') => super::number::number(input, syntax).map(|(r, _)| (r, false)),
        Some(b'Y' | b'N') => Ok((&input[1..], false)),
        Some(b'B') => super::bytes::byte_string(input, syntax).map(|(r, _)| (r, false)),
        Some(b'D' | b'T') => {
            super::temporal::datetime(input, syntax).map(|(r, dt)| (r, dt.is_ambiguous_key()))
        }
        Some(b'S') => super::timestamp::timestamp(input, syntax).map(|(r, _)| (r, false)),
        None => fail(input, ErrorKind::UnexpectedEnd),
        Some(_) => fail(input, ErrorKind::ExpectedValue),
    }
}

fn list<'a>(input: &'a [u8], syntax: Syntax, depth: usize, known: Known<'a>) -> PResult<'a, ()> {
    if depth == 0 {
        return fail(input, ErrorKind::DepthLimitExceeded);
    }
    let depth = depth - 1;
    let (mut rest, ()) = ws::skip(&input[1..], syntax)?;
    if let Some(b']') = rest.first() {
        return Ok((&rest[1..], ()));
    }
    loop {
        if rest.is_empty() {
            return fail(input, ErrorKind::UnclosedList);
        }
        let (r, ambiguous) = value_key(rest, syntax, depth, known)?;
        // Where the item's last value ends: see `list::list_text`.
        let mut item_end = r;
        let (mut r, ()) = ws::skip(r, syntax)?;
        if let Some(b':') = r.first() {
            if ambiguous {
                return fail(r, ErrorKind::AmbiguousKey);
            }
            let (r2, ()) = ws::skip(&r[1..], syntax)?;
            if r2.is_empty() {
                return fail(input, ErrorKind::UnclosedList);
            }
            let (r2, _) = value_key(r2, syntax, depth, known)?;
            item_end = r2;
            r = ws::skip(r2, syntax)?.0;
        }
        match r.first() {
            Some(b',') => {
                let (r, ()) = ws::skip(&r[1..], syntax)?;
                if let Some(b']') = r.first() {
                    if syntax.is_lenient() {
                        return Ok((&r[1..], ()));
                    }
                    return fail(r, ErrorKind::ExpectedValue);
                }
                rest = r;
            }
            Some(b']') => return Ok((&r[1..], ())),
            None => return fail(input, ErrorKind::UnclosedList),
            Some(_) => return fail(item_end, ErrorKind::ExpectedCommaOrEnd),
        }
    }
}
