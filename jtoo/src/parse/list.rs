//! Values and lists: `[` [ item *( `,` item ) ] `]`, item = value [ `:` value ].
//! Lenient (HTOO) adds whitespace/comments around `[`, `]`, `,`, `:` and one
//! trailing comma (`[1,]`, never `[,]`).

use super::{PResult, Syntax, fail, ws};
use crate::error::ErrorKind;
use crate::value::{Item, Pair, Value};

/// Parses any value at the start of `input`. `depth` is how many more list
/// levels may be opened (the document's limit counts down as lists nest).
///
/// ```
/// use jtoo::parse::{list::value, Syntax};
/// let (rest, v) = value(b"[1,\"a\":Y],", Syntax::Strict, 128).unwrap();
/// assert_eq!((v.to_string().as_str(), rest), (r#"[1,"a":Y]"#, &b","[..]));
/// assert!(value(b"[[1]]", Syntax::Strict, 1).is_err());
/// ```
pub fn value(input: &[u8], syntax: Syntax, depth: usize) -> PResult<'_, Value> {
    match input.first() {
        Some(b'[') => list(input, syntax, depth),
        _ => scalar(input, syntax),
    }
}

/// Any value but a list. Kept out of line so the recursion through
/// [`value`] and [`list`] uses small stack frames.
#[inline(never)]
pub fn scalar(input: &[u8], syntax: Syntax) -> PResult<'_, Value> {
    match input.first() {
        Some(b'"') => {
            let (rest, s) = super::string::string(input, syntax)?;
            Ok((rest, Value::String(s.into_owned())))
        }
        Some(b'-' | b'0'..=b'9') => {
            let (rest, n) = super::number::number(input, syntax)?;
            Ok((
                rest,
                match n {
                    super::Number::Integer(i) => Value::Integer(i),
                    super::Number::Decimal(d) => Value::Decimal(d),
                },
            ))
        }
        Some(b'Y') => Ok((&input[1..], Value::Bool(true))),
        Some(b'N') => Ok((&input[1..], Value::Bool(false))),
        Some(b'B') => {
            let (rest, b) = super::bytes::byte_string(input, syntax)?;
            Ok((rest, Value::Bytes(b)))
        }
        Some(b'D' | b'T') => {
            let (rest, dt) = super::temporal::datetime(input, syntax)?;
            Ok((rest, Value::DateTime(dt)))
        }
        Some(b'S') => {
            let (rest, ts) = super::timestamp::timestamp(input, syntax)?;
            Ok((rest, Value::Timestamp(ts)))
        }
        None => fail(input, ErrorKind::UnexpectedEnd),
        Some(_) => fail(input, ErrorKind::ExpectedValue),
    }
}

/// Parses a list starting at its `[`.
pub fn list(input: &[u8], syntax: Syntax, depth: usize) -> PResult<'_, Value> {
    if depth == 0 {
        return fail(input, ErrorKind::DepthLimitExceeded);
    }
    let depth = depth - 1;
    let (mut rest, ()) = ws::skip(&input[1..], syntax)?;
    let mut items = Vec::new();
    if let Some(b']') = rest.first() {
        return Ok((&rest[1..], Value::List(items)));
    }
    loop {
        // An item.
        let (r, first) = item_value(rest, input, syntax, depth)?;
        let (r, ()) = ws::skip(r, syntax)?;
        let r = if let Some(b':') = r.first() {
            if first.is_ambiguous_key() {
                return fail(r, ErrorKind::AmbiguousKey);
            }
            let (r, ()) = ws::skip(&r[1..], syntax)?;
            let (r, second) = item_value(r, input, syntax, depth)?;
            items.push(Item::Pair(Pair::new_unchecked(first, second)));
            ws::skip(r, syntax)?.0
        } else {
            items.push(Item::Value(first));
            r
        };
        // `,` or `]`.
        match r.first() {
            Some(b',') => {
                let (r, ()) = ws::skip(&r[1..], syntax)?;
                if let Some(b']') = r.first() {
                    if syntax.is_lenient() {
                        return Ok((&r[1..], Value::List(items)));
                    }
                    return fail(r, ErrorKind::ExpectedValue);
                }
                rest = r;
            }
            Some(b']') => return Ok((&r[1..], Value::List(items))),
            None => return fail(input, ErrorKind::UnclosedList),
            Some(_) => return fail(r, ErrorKind::ExpectedCommaOrEnd),
        }
    }
}

/// A value inside the list that starts at `list_start`: the end of input here
/// reports the unclosed list where it began.
#[inline]
fn item_value<'a>(input: &'a [u8], list_start: &'a [u8], syntax: Syntax, depth: usize) -> PResult<'a, Value> {
    if input.is_empty() {
        return fail(list_start, ErrorKind::UnclosedList);
    }
    value(input, syntax, depth)
}
