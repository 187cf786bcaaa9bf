//! Validation without building a `Value`: the same productions and the same
//! list rules ([`super::cursor`]), but nothing is kept. Used where a document only has
//! to be checked (frame decoding, relays).

use super::cursor::{self, Next};
use super::string::Known;
use super::{PResult, Syntax, fail};
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
    let (mut rest, depth) = cursor::open(input, syntax, depth)?;
    if let Some(b']') = rest.first() {
        return Ok((&rest[1..], ()));
    }
    loop {
        let (r, ambiguous) = value_key(rest, syntax, depth, known)?;
        let (r, pair) = cursor::pair_colon(r, input, syntax, || ambiguous)?;
        let r = if pair {
            value_key(r, syntax, depth, known)?.0
        } else {
            r
        };
        match cursor::separator(r, input, syntax)? {
            (r, Next::Item) => rest = r,
            (r, Next::End) => return Ok((&r[1..], ())),
        }
    }
}
