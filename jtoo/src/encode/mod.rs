//! The canonical encoder: every value has exactly one strict spelling, and
//! this writes it.
//!
//! The `write_*` functions append one value's canonical text to a
//! `Vec<u8>`; serializers built on this crate (such as `jtoo-serde`) use them
//! so that every writer spells values the same way.
//!
//! ```
//! use jtoo::encode;
//! let mut out = Vec::new();
//! encode::write_str(&mut out, "tab\there");
//! out.push(b',');
//! encode::write_i64(&mut out, -1234567);
//! out.push(b',');
//! encode::write_f64(&mut out, 0.1).unwrap();
//! assert_eq!(out, br#""tab\09here",-1_234_567,0.1"#);
//! ```

pub(crate) mod digits;

use crate::error::Error;
use crate::scan::find_special_in;
use crate::types::{DateTime, Decimal, Integer, Timestamp};
use crate::value::{ItemRef, List, Value};
use std::io::Write;

mod output;
pub use output::Output;

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends a string, escaping control codes, `"`, `\` and U+007F as `\xx`.
#[inline]
pub fn write_str(out: &mut impl Output, s: &str) {
    let bytes = s.as_bytes();
    match find_special_in(bytes) {
        None => push_quoted(out, bytes),
        Some(i) => write_str_escaped(out, bytes, i),
    }
}

/// Appends `"bytes"`. Strings of 4 to 16 bytes (most keys and many
/// values) are stored as two overlapping words, the first and the last
/// four or eight bytes, instead of a call to `memcpy`.
#[inline(always)]
fn push_quoted(out: &mut impl Output, bytes: &[u8]) {
    let len = bytes.len();
    if let (Some(a), Some(b)) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>())
        && len <= 16
    {
        return push_quoted_words::<8, 24>(out, len, *a, *b);
    }
    if let (Some(a), Some(b)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>())
        && len < 8
    {
        return push_quoted_words::<4, 16>(out, len, *a, *b);
    }
    // Nothing to escape: one reservation, one copy.
    out.reserve(len + 2);
    out.push(b'"');
    out.extend_from_slice(bytes);
    out.push(b'"');
}

/// Appends a quoted string of `len` bytes (`W ..= 2W`) given as its first
/// and last `W` bytes, in an `R`-byte room.
#[inline(always)]
fn push_quoted_words<const W: usize, const R: usize>(
    out: &mut impl Output,
    len: usize,
    first: [u8; W],
    last: [u8; W],
) {
    digits::in_place::<R>(out, len + 2, |room, _| {
        digits::put(room, 0, [b'"']);
        digits::put(room, 1, first);
        digits::put(room, len + 1 - W, last);
        digits::put(room, len + 1, [b'"']);
    });
}

/// [`write_str`] for a string with a byte to escape at `first`.
#[inline(never)]
fn write_str_escaped(out: &mut impl Output, mut bytes: &[u8], first: usize) {
    out.reserve(bytes.len() + 8);
    out.push(b'"');
    let mut next = Some(first);
    while let Some(i) = next {
        let (plain, rest) = bytes.split_at(i.min(bytes.len()));
        out.extend_from_slice(plain);
        let Some((&b, rest)) = rest.split_first() else {
            break;
        };
        out.extend_from_slice(&[b'\\', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
        bytes = rest;
        next = find_special_in(bytes);
    }
    out.extend_from_slice(bytes);
    out.push(b'"');
}

/// Appends a byte string (`B` and lower-case hex).
#[inline]
pub fn write_bytes(out: &mut impl Output, b: &[u8]) {
    out.reserve(1 + 2 * b.len());
    out.push(b'B');
    for &x in b {
        out.extend_from_slice(&[HEX[usize::from(x >> 4)], HEX[usize::from(x & 15)]]);
    }
}

/// Appends `Y` or `N`.
#[inline]
pub fn write_bool(out: &mut impl Output, b: bool) {
    out.push(if b { b'Y' } else { b'N' });
}

/// Appends an integer.
#[inline]
pub fn write_integer(out: &mut impl Output, i: &Integer) {
    i.encode(out);
}

/// Appends an `i64` as a JTOO integer.
#[inline]
pub fn write_i64(out: &mut impl Output, v: i64) {
    digits::push_u64(out, v < 0, v.unsigned_abs());
}

/// Appends a `u64` as a JTOO integer.
#[inline]
pub fn write_u64(out: &mut impl Output, v: u64) {
    digits::push_u64(out, false, v);
}

/// Appends an `i128` as a JTOO integer.
#[inline]
pub fn write_i128(out: &mut impl Output, v: i128) {
    Integer::from(v).encode(out);
}

/// Appends a `u128` as a JTOO integer.
#[inline]
pub fn write_u128(out: &mut impl Output, v: u128) {
    Integer::from(v).encode(out);
}

/// Appends a decimal.
#[inline]
pub fn write_decimal(out: &mut impl Output, d: &Decimal) {
    d.encode(out);
}

/// Appends an `f64` as the decimal of its shortest round-trip digits.
///
/// # Errors
/// NaN and infinities have no JTOO form.
#[inline]
pub fn write_f64(out: &mut impl Output, v: f64) -> Result<(), Error> {
    // Nearly every float: the one product and the layout on the stack, with
    // no call but the buffer's growth (so few registers to save).
    match crate::float::shortest::f64_shortest_sized(v) {
        Some((s, whole))
            if digits::push_float_sized(out, v.is_sign_negative(), s.digits, s.exp, whole) =>
        {
            Ok(())
        }
        _ => write_f64_rest(out, v),
    }
}

/// [`write_f64`] for the floats its fast path leaves: zero, NaN and the
/// infinities, subnormals, powers of two, near-ties, and magnitudes with
/// more than 21 fraction digits or more than 20 whole ones.
#[cold]
#[inline(never)]
fn write_f64_rest(out: &mut impl Output, v: f64) -> Result<(), Error> {
    if !v.is_finite() {
        return Err(non_finite());
    }
    write_shortest(
        out,
        v.is_sign_negative(),
        crate::float::shortest::f64_shortest(v),
    );
    Ok(())
}

/// Appends an `f32` as the decimal of its shortest round-trip digits.
///
/// # Errors
/// NaN and infinities have no JTOO form.
#[inline]
pub fn write_f32(out: &mut impl Output, v: f32) -> Result<(), Error> {
    if !v.is_finite() {
        return Err(non_finite());
    }
    write_shortest(
        out,
        v.is_sign_negative(),
        crate::float::shortest::f32_shortest(v),
    );
    Ok(())
}

/// A float's shortest digits: the common shapes straight from the digits,
/// the rest (tiny or huge magnitudes) through [`Decimal`].
#[inline(always)]
fn write_shortest(out: &mut impl Output, negative: bool, s: crate::float::shortest::Shortest) {
    let negative = negative && s.digits != 0;
    if !digits::push_float(out, negative, s.digits, s.exp) {
        write_shortest_decimal(out, negative, s);
    }
}

#[inline(never)]
fn write_shortest_decimal(
    out: &mut impl Output,
    negative: bool,
    s: crate::float::shortest::Shortest,
) {
    Decimal::from_shortest(negative, s).encode(out);
}

#[cold]
fn non_finite() -> Error {
    Error::new(crate::ErrorKind::Unencodable(
        "NaN and infinity have no JTOO form",
    ))
}

/// Appends a date/time.
#[inline]
pub fn write_datetime(out: &mut impl Output, d: &DateTime) {
    d.encode(out);
}

/// Appends a timestamp.
#[inline]
pub fn write_timestamp(out: &mut impl Output, t: &Timestamp) {
    t.encode(out);
}

/// Appends a whole value, refusing lists nested deeper than
/// [`Options::DEFAULT_MAX_DEPTH`](crate::Options::DEFAULT_MAX_DEPTH) (what
/// the default reader accepts).
///
/// # Errors
/// [`ErrorKind::TooDeep`](crate::ErrorKind::TooDeep) for lists nested too
/// deeply; nothing is appended then.
pub fn write_value(out: &mut impl Output, v: &Value) -> Result<(), Error> {
    write_value_with_depth(out, v, crate::Options::DEFAULT_MAX_DEPTH)
}

/// As [`write_value`], with lists allowed to nest `max_depth` deep (a list
/// of scalars is depth 1): what a reader configured with
/// [`Options::with_max_depth`](crate::Options::with_max_depth)`(max_depth)`
/// reads back.
///
/// ```
/// let v = jtoo::from_str("[[1]]").unwrap();
/// let mut out = Vec::new();
/// assert!(jtoo::encode::write_value_with_depth(&mut out, &v, 1).is_err());
/// assert!(out.is_empty());
/// jtoo::encode::write_value_with_depth(&mut out, &v, 2).unwrap();
/// assert_eq!(out, b"[[1]]");
/// ```
///
/// # Errors
/// [`ErrorKind::TooDeep`](crate::ErrorKind::TooDeep) for lists nested too
/// deeply; nothing is appended then.
pub fn write_value_with_depth(
    out: &mut impl Output,
    v: &Value,
    max_depth: usize,
) -> Result<(), Error> {
    let start = out.len();
    encode_with(v, out, max_depth, |_| Ok(())).inspect_err(|_| out.truncate(start))
}

/// [`write_scalar`] inlined, for the loop over a list's items.
#[inline(always)]
fn write_scalar_inline(out: &mut impl Output, v: &Value) {
    match v {
        Value::Decimal(d) => d.encode(out),
        Value::Integer(i) => i.encode(out),
        Value::String(s) => write_str(out, s),
        other => write_scalar(out, other),
    }
}

#[inline]
fn write_scalar(out: &mut impl Output, v: &Value) {
    match v {
        Value::String(s) => write_str(out, s),
        Value::Bytes(b) => write_bytes(out, b),
        Value::Bool(b) => write_bool(out, *b),
        Value::Integer(i) => i.encode(out),
        Value::Decimal(d) => d.encode(out),
        Value::DateTime(d) => d.encode(out),
        Value::Timestamp(t) => t.encode(out),
        Value::List(_) => {}
    }
}

/// One open list while encoding: its remaining items, whether one has been
/// written, and the value of a pair whose key (a list) is being written.
struct Open<'a> {
    items: Items<'a>,
    started: bool,
    pair_value: Option<&'a Value>,
}

/// The remaining items of an open list, by how the list stores them: the
/// loops over plain values and over pairs (almost every list) take their
/// items straight from the slice, without a tag per item.
enum Items<'a> {
    Values(std::slice::Iter<'a, Value>),
    Pairs(std::slice::Iter<'a, crate::value::Pair>),
    Mixed(crate::value::Iter<'a>),
}

impl<'a> Open<'a> {
    fn new(list: &'a List) -> Self {
        let items = match (list.values(), list.pairs()) {
            (Some(values), _) => Items::Values(values.iter()),
            (None, Some(pairs)) => Items::Pairs(pairs.iter()),
            (None, None) => Items::Mixed(list.iter()),
        };
        Open {
            items,
            started: false,
            pair_value: None,
        }
    }
}

/// A list an item leaves open: its items come next, then (for a pair
/// whose key is that list) the pair's value.
type Opened<'a> = (&'a List, Option<&'a Value>);

/// Writes a plain item, or returns it when it is a list.
#[inline(always)]
fn write_plain<'a>(out: &mut impl Output, v: &'a Value) -> Option<Opened<'a>> {
    match v {
        Value::List(items) => Some((items, None)),
        scalar => {
            write_scalar_inline(out, scalar);
            None
        }
    }
}

/// Writes a pair up to the first list in it, and returns that list.
#[inline(always)]
fn write_pair<'a>(out: &mut impl Output, p: &'a crate::value::Pair) -> Option<Opened<'a>> {
    match (p.key(), p.value()) {
        (Value::List(key), val) => Some((key, Some(val))),
        (key, Value::List(items)) => {
            write_scalar(out, key);
            out.push(b':');
            Some((items, None))
        }
        (key, val) => {
            write_scalar_inline(out, key);
            out.push(b':');
            write_scalar_inline(out, val);
            None
        }
    }
}

/// Writes `items` (`,` between them) until one leaves a list open, which
/// it returns; hands the buffer to `flush` when it is full.
#[inline(always)]
fn write_items<'a, T, O: Output>(
    items: impl Iterator<Item = T>,
    started: &mut bool,
    out: &mut O,
    flush: &mut impl FnMut(&mut O) -> Result<(), Error>,
    write: impl Fn(&mut O, T) -> Option<Opened<'a>>,
) -> Result<Option<Opened<'a>>, Error> {
    for item in items {
        if *started {
            out.push(b',');
        }
        *started = true;
        if let Some(opened) = write(out, item) {
            return Ok(Some(opened));
        }
        if out.len() >= FLUSH_AT {
            flush(out)?;
        }
    }
    Ok(None)
}

/// Buffered bytes after which `encode_with` hands the buffer to `flush`.
const FLUSH_AT: usize = 1 << 16;

/// Encodes `v` without recursion (any nesting depth is safe), calling
/// `flush` between items so a writer can drain the buffer. Scalars in a
/// list are written in a tight loop; only nested lists go on the stack.
/// Lists nested deeper than `max_depth` are an error (what was written
/// before stays in `out`).
fn encode_with<O: Output>(
    v: &Value,
    out: &mut O,
    max_depth: usize,
    mut flush: impl FnMut(&mut O) -> Result<(), Error>,
) -> Result<(), Error> {
    let Value::List(items) = v else {
        write_scalar(out, v);
        return flush(out);
    };
    if max_depth == 0 {
        return Err(too_deep(max_depth));
    }
    out.push(b'[');
    let mut stack: Vec<Open<'_>> = vec![Open::new(items)];
    while let Some(top) = stack.last_mut() {
        if out.len() >= FLUSH_AT {
            flush(out)?;
        }
        // A list to open: an item, a pair's key or a pair's value.
        let mut open: Option<Opened<'_>> = None;
        if let Some(val) = top.pair_value.take() {
            out.push(b':');
            match val {
                Value::List(items) => open = Some((items, None)),
                scalar => write_scalar(out, scalar),
            }
        }
        if open.is_none() {
            let started = &mut top.started;
            open = match &mut top.items {
                Items::Values(it) => {
                    write_items(it, started, out, &mut flush, |o, v| write_plain(o, v))?
                }
                Items::Pairs(it) => {
                    write_items(it, started, out, &mut flush, |o, p| write_pair(o, p))?
                }
                Items::Mixed(it) => {
                    write_items(it, started, out, &mut flush, |out, item| match item {
                        ItemRef::Value(v) => write_plain(out, v),
                        ItemRef::Pair(p) => write_pair(out, p),
                    })?
                }
            };
        }
        match open {
            Some(_) if stack.len() >= max_depth => return Err(too_deep(max_depth)),
            Some((items, pair_value)) => {
                if let Some(top) = stack.last_mut() {
                    top.pair_value = pair_value;
                }
                out.push(b'[');
                stack.push(Open::new(items));
            }
            None => {
                out.push(b']');
                stack.pop();
            }
        }
    }
    flush(out)
}

#[cold]
fn too_deep(max_depth: usize) -> Error {
    Error::new(crate::ErrorKind::TooDeep(max_depth))
}

/// Appends the canonical text of `v` at any depth (for `Display`).
pub(crate) fn encode_value(v: &Value, out: &mut impl Output) {
    let _ = encode_with(v, out, usize::MAX, |_| Ok(()));
}

/// The canonical JTOO bytes of `value`.
///
/// ```
/// let v = jtoo::from_str(r#"["msg":"你好"]"#).unwrap();
/// assert_eq!(jtoo::to_vec(&v).unwrap(), "[\"msg\":\"你好\"]".as_bytes());
/// ```
///
/// # Errors
/// [`ErrorKind::TooDeep`](crate::ErrorKind::TooDeep) when lists nest deeper
/// than [`Options::DEFAULT_MAX_DEPTH`](crate::Options::DEFAULT_MAX_DEPTH),
/// which the default reader would refuse; write those with
/// [`Options::to_vec`](crate::Options::to_vec) and a higher limit.
pub fn to_vec(value: &Value) -> Result<Vec<u8>, Error> {
    to_vec_with_depth(value, crate::Options::DEFAULT_MAX_DEPTH)
}

pub(crate) fn to_vec_with_depth(value: &Value, max_depth: usize) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(128);
    encode_with(value, &mut out, max_depth, |_| Ok(()))?;
    Ok(out)
}

/// The canonical JTOO text of `value`.
///
/// ```
/// use jtoo::Value;
/// let v = Value::from(vec![Value::from(1_000), Value::from("a\"b")]);
/// assert_eq!(jtoo::to_string(&v).unwrap(), r#"[1_000,"a\22b"]"#);
/// ```
///
/// # Errors
/// As [`to_vec`].
pub fn to_string(value: &Value) -> Result<String, Error> {
    bytes_to_string(to_vec(value)?)
}

pub(crate) fn bytes_to_string(bytes: Vec<u8>) -> Result<String, Error> {
    String::from_utf8(bytes).map_err(|_| Error::new(crate::ErrorKind::InvalidUtf8))
}

/// Writes the canonical JTOO bytes of `value` to `writer`, in chunks of
/// about 64 KiB.
///
/// # Errors
/// I/O errors of the writer; [`ErrorKind::TooDeep`](crate::ErrorKind::TooDeep)
/// as for [`to_vec`] (the lists up to that depth may have been written).
pub fn to_writer<W: Write>(writer: W, value: &Value) -> Result<(), Error> {
    to_writer_with_depth(writer, value, crate::Options::DEFAULT_MAX_DEPTH)
}

pub(crate) fn to_writer_with_depth<W: Write>(
    mut writer: W,
    value: &Value,
    max_depth: usize,
) -> Result<(), Error> {
    let mut out = Vec::with_capacity(1 << 16);
    encode_with(value, &mut out, max_depth, |buf| {
        writer.write_all(buf)?;
        buf.clear();
        Ok(())
    })
}
