//! Values and lists as [`Value`]s. The list rules are [`super::cursor`]'s;
//! this file collects the items.

use super::cursor::{self, Next};
use super::string::Known;
use super::{PResult, Syntax, fail};
use crate::error::ErrorKind;
use crate::value::{List, Value};

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
    value_in(input, syntax, depth, &mut Scratch::default())
}

/// The items of the lists being parsed, shared by all open lists so that
/// each list is allocated once, at its exact size and in its storage kind
/// (see [`List`]), when its `]` is reached: no regrowth, no
/// over-allocation, no conversion. Reuse one across documents to keep its
/// capacity.
///
/// ```
/// use jtoo::parse::{list::{value_in, Scratch}, Syntax};
/// let mut scratch = Scratch::default();
/// for doc in [&b"[1,2]"[..], br#"["a":[3]]"#] {
///     let (_, v) = value_in(doc, Syntax::Strict, 128, &mut scratch).unwrap();
///     assert_eq!(v.to_string().as_bytes(), doc);
/// }
/// ```
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    /// The values of the open lists' items, in order; a pair is its key
    /// then its value.
    values: Vec<Value>,
    /// For the open lists, the index in `values` of each pair's key.
    pairs: Vec<usize>,
}

impl Scratch {
    /// Drops what a failed parse left behind (a successful one leaves
    /// nothing), keeping the capacity.
    pub fn clear(&mut self) {
        self.values.clear();
        self.pairs.clear();
    }

    /// Moves the items of the list whose first value is at `values[base]`
    /// and whose first pair is at `pairs[pairs_base]` into that list.
    fn take(&mut self, base: usize, pairs_base: usize) -> List {
        let pairs = self.pairs.len() - pairs_base;
        if pairs == 0 {
            if base == 0 {
                // The outermost list of plain values (the shape of a huge
                // document): its items are the whole stack, which becomes
                // the list itself (shrunk in place) instead of being copied.
                return List::from_values_vec(std::mem::take(&mut self.values));
            }
            // One exact-size allocation and one copy (`Drain` and `collect`
            // cost more per item).
            return List::from_values_vec(self.values.split_off(base));
        }
        let values = self.values.drain(base..);
        let list = if 2 * pairs == values.len() {
            List::from_pair_values(values)
        } else {
            let starts = self.pairs.get(pairs_base..).unwrap_or_default();
            List::from_marked(values, base, starts)
        };
        self.pairs.truncate(pairs_base);
        list
    }
}

/// [`value`] with a caller-provided scratch stack for list items (see
/// [`list_in`]); reuse one across a whole document.
#[inline]
pub fn value_in<'a>(
    input: &'a [u8],
    syntax: Syntax,
    depth: usize,
    scratch: &mut Scratch,
) -> PResult<'a, Value> {
    value_known(input, syntax, depth, scratch, Known::NOTHING)
}

/// [`value_in`] in a document whose [`Known`] facts were checked up front
/// (see [`Known`]: strings are then sliced out of the document's text
/// instead of being validated one by one). `input` must be a suffix of the
/// checked document; otherwise nothing is assumed.
///
/// ```
/// use jtoo::parse::{list::value_known, string::Known, Syntax};
/// let doc = br#"["k":"v\22",2]"#;
/// let known = Known::check(doc);
/// let (rest, v) = value_known(doc, Syntax::Strict, 128, &mut Default::default(), known).unwrap();
/// assert_eq!((v.to_string().as_str(), rest), (r#"["k":"v\22",2]"#, &b""[..]));
/// ```
#[inline]
pub fn value_known<'a>(
    input: &'a [u8],
    syntax: Syntax,
    depth: usize,
    scratch: &mut Scratch,
    known: Known<'a>,
) -> PResult<'a, Value> {
    match input.first() {
        Some(b'[') => list_text(input, syntax, depth, scratch, known),
        _ => scalar_inline(input, syntax, known),
    }
}

/// Any value but a list. Kept out of line so the recursion through
/// [`value`] and [`list`] uses small stack frames.
#[inline(never)]
pub fn scalar(input: &[u8], syntax: Syntax) -> PResult<'_, Value> {
    scalar_inline(input, syntax, Known::NOTHING)
}

#[inline(always)]
fn scalar_inline<'a>(input: &'a [u8], syntax: Syntax, known: Known<'a>) -> PResult<'a, Value> {
    match input.first() {
        Some(b'"') => {
            let (rest, s) = super::string::string_in(input, syntax, known)?;
            Ok((rest, Value::String(s.into())))
        }
        Some(b'-' | b'0'..=b'9') => {
            let (rest, n) = super::number::number(input, syntax)?;
            Ok((rest, Value::from(n)))
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
    list_in(input, syntax, depth, &mut Scratch::default())
}

/// Parses a list starting at its `[`, collecting items on `scratch` (shared
/// by all open lists) so each list is allocated once, at its exact size,
/// when its `]` is reached: no regrowth, no over-allocation.
pub fn list_in<'a>(
    input: &'a [u8],
    syntax: Syntax,
    depth: usize,
    scratch: &mut Scratch,
) -> PResult<'a, Value> {
    list_text(input, syntax, depth, scratch, Known::NOTHING)
}

fn list_text<'a>(
    input: &'a [u8],
    syntax: Syntax,
    depth: usize,
    scratch: &mut Scratch,
    known: Known<'a>,
) -> PResult<'a, Value> {
    let (mut rest, depth) = cursor::open(input, syntax, depth)?;
    if let Some(b']') = rest.first() {
        return Ok((&rest[1..], Value::List(List::new())));
    }
    let (base, pairs_base) = (scratch.values.len(), scratch.pairs.len());
    loop {
        // An item: its first value goes straight onto the scratch stack.
        let key = scratch.values.len();
        let r = push_item_value(rest, syntax, depth, scratch, known)?;
        // Strict: a `,` or `]` right after the value ends a plain item.
        let next = match syntax {
            Syntax::Strict => cursor::strict_separator(r),
            Syntax::Lenient => None,
        };
        let (r, next) = match next {
            Some(next) => next,
            None => {
                let (r, pair) = cursor::pair_colon(r, input, syntax, || {
                    scratch.values.last().is_some_and(Value::is_ambiguous_key)
                })?;
                let r = if pair {
                    scratch.pairs.push(key);
                    push_item_value(r, syntax, depth, scratch, known)?
                } else {
                    r
                };
                cursor::separator(r, input, syntax)?
            }
        };
        match next {
            Next::Item => rest = r,
            Next::End => return Ok((&r[1..], Value::List(scratch.take(base, pairs_base)))),
        }
    }
}

/// Parses a list item's value (the input is not empty: see
/// [`cursor::open`]) and pushes it onto `scratch`;
/// returns the rest of the input. Scalars are built in place rather than
/// returned through a large `Result`. Inline in [`list_text`]: its frame is
/// set up once per list, not once per item.
#[inline(always)]
fn push_item_value<'a>(
    input: &'a [u8],
    syntax: Syntax,
    depth: usize,
    scratch: &mut Scratch,
    known: Known<'a>,
) -> Result<&'a [u8], nom::Err<super::ParseError>> {
    match input.first() {
        Some(b'[') => {
            let (r, v) = list_text(input, syntax, depth, scratch, known)?;
            scratch.values.push(v);
            Ok(r)
        }
        Some(b'-' | b'0'..=b'9') if !syntax.is_lenient() => push_number(input, scratch, known),
        _ => push_scalar(input, syntax, scratch, known),
    }
}

/// A strict number: the common case inline (canada's hundred thousand
/// coordinates), the rest through the full production. Out of line in
/// unoptimized builds, where the inlined scanner's locals would be part of
/// every nesting level's stack frame.
#[cfg_attr(debug_assertions, inline(never))]
#[cfg_attr(not(debug_assertions), inline(always))]
fn push_number<'a>(
    input: &'a [u8],
    scratch: &mut Scratch,
    known: Known<'a>,
) -> Result<&'a [u8], nom::Err<super::ParseError>> {
    match super::number::strict_number_prefix(input) {
        Some((rest, n)) => {
            scratch.values.push(Value::from(n));
            Ok(rest)
        }
        None => push_scalar(input, Syntax::Strict, scratch, known),
    }
}

#[inline(never)]
fn push_scalar<'a>(
    input: &'a [u8],
    syntax: Syntax,
    scratch: &mut Scratch,
    known: Known<'a>,
) -> Result<&'a [u8], nom::Err<super::ParseError>> {
    let (rest, v) = scalar_inline(input, syntax, known)?;
    scratch.values.push(v);
    Ok(rest)
}
