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
use crate::value::list::Stored;
use crate::value::{Item, List, Value};
use std::io::Write;

mod output;
pub use output::Output;

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends a string, escaping control codes, `"`, `\` and U+007F as `\xx`.
#[inline]
pub fn write_str(out: &mut impl Output, s: &str) {
    write_str_then::<false>(out, s);
}

/// Appends a string as [`write_str`] does, then the `:` that ends a pair's
/// key (stored with the string when it is short).
///
/// ```
/// use jtoo::encode;
/// let mut out = vec![b'['];
/// encode::write_key(&mut out, "id");
/// encode::write_i64(&mut out, 7);
/// out.push(b']');
/// assert_eq!(out, br#"["id":7]"#);
/// ```
#[inline]
pub fn write_key(out: &mut impl Output, s: &str) {
    write_str_then::<true>(out, s);
}

/// [`write_str`], and a `:` after it when `COLON`.
#[inline(always)]
fn write_str_then<const COLON: bool>(out: &mut impl Output, s: &str) {
    let bytes = s.as_bytes();
    match find_special_in(bytes) {
        None => push_quoted::<COLON>(out, bytes),
        Some(i) => {
            write_str_escaped(out, bytes, i);
            if COLON {
                out.push(b':');
            }
        }
    }
}

/// Appends `"bytes"`. Strings of 4 to 16 bytes (most keys and many
/// values) are stored as two overlapping words, the first and the last
/// four or eight bytes, instead of a call to `memcpy`.
#[inline(always)]
fn push_quoted<const COLON: bool>(out: &mut impl Output, bytes: &[u8]) {
    let len = bytes.len();
    if let (Some(a), Some(b)) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>())
        && len <= 16
    {
        return push_quoted_words::<8, 24, COLON>(out, len, *a, *b);
    }
    if let (Some(a), Some(b)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>())
        && len < 8
    {
        return push_quoted_words::<4, 16, COLON>(out, len, *a, *b);
    }
    // Nothing to escape: one reservation, one copy.
    out.reserve(len + 3);
    out.push(b'"');
    out.extend_from_slice(bytes);
    out.push(b'"');
    if COLON {
        out.push(b':');
    }
}

/// Appends a quoted string of `len` bytes (`W ..= 2W`) given as its first
/// and last `W` bytes, and a `:` when `COLON`, in an `R`-byte room
/// (`R >= 2W + 3`).
#[inline(always)]
fn push_quoted_words<const W: usize, const R: usize, const COLON: bool>(
    out: &mut impl Output,
    len: usize,
    first: [u8; W],
    last: [u8; W],
) {
    digits::in_place::<R>(
        out,
        len + 2 + usize::from(COLON),
        #[inline(always)]
        |room, _| {
            digits::put(room, 0, [b'"']);
            digits::put(room, 1, first);
            digits::put(room, len + 1 - W, last);
            digits::put(room, len + 1, [b'"']);
            if COLON {
                digits::put(room, len + 2, [b':']);
            }
        },
    );
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
    encode_with::<_, _, false>(v, out, max_depth, |_| Ok(())).inspect_err(|_| out.truncate(start))
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

/// One entry of the encoder's stack: an open list (its remaining items and
/// whether one has been written), or the value of a pair whose key, a
/// list, is open above it.
struct Open<'a> {
    items: Items<'a>,
    started: bool,
}

/// The remaining items of an open list, by how the list stores them: the
/// loops over plain values and over pairs (almost every list) take their
/// items straight from the slice, without a tag per item.
enum Items<'a> {
    Values(std::slice::Iter<'a, Value>),
    Pairs(std::slice::Iter<'a, crate::value::Pair>),
    Mixed(std::slice::Iter<'a, Item>),
    /// Not a list: the value to write (after `:`) once the pair's key, a
    /// list, is closed. Kept on the stack so that a list's loop need not
    /// look for a pending pair value each time it resumes.
    PairValue(&'a Value),
}

impl<'a> Open<'a> {
    #[inline(always)]
    fn new(stored: Stored<'a>) -> Self {
        let items = match stored {
            Stored::Values(values) => Items::Values(values.iter()),
            Stored::Pairs(pairs) => Items::Pairs(pairs.iter()),
            Stored::Mixed(items) => Items::Mixed(items.iter()),
        };
        Open {
            items,
            started: false,
        }
    }
}

/// A list to open: its items, then (for a pair whose key is that list)
/// the pair's value.
type Opened<'a> = (Stored<'a>, Option<&'a Value>);

/// What an item leaves for the stack: a list begun by [`write_list`] to
/// go on with, and a list to open (inside it, if there is one).
struct Pending<'a> {
    begun: Option<Open<'a>>,
    open: Option<Opened<'a>>,
}

/// How deep the lists open so far are, and how deep they may go.
#[derive(Clone, Copy)]
struct Depth {
    open: usize,
    max: usize,
}

impl Depth {
    /// Whether a list inside the innermost open one is allowed.
    #[inline(always)]
    fn room(self) -> bool {
        self.open < self.max
    }
}

/// Why [`write_open`] stopped.
enum Stop<'a, P> {
    /// No item is left.
    End,
    /// An item left this to do.
    Item(P),
    /// The buffer is full (only when `FLUSH`): flush it, then go on.
    Full,
    /// The entry is a pair's value, to write now that its key is closed.
    PairValue(&'a Value),
}

/// How the items of a list are written: plain values and pairs, each
/// returning what it leaves to do (`P`). A trait rather than closures, so
/// that the loops are inlined whole.
trait ItemWriter<'a, O> {
    type P;
    fn plain(&self, out: &mut O, v: &'a Value) -> Option<Self::P>;
    fn pair(&self, out: &mut O, p: &'a crate::value::Pair) -> Option<Self::P>;
}

/// The items of a list that [`write_list`] writes: a list in them is
/// returned to be opened (an empty one is written, as `[]`).
#[derive(Clone, Copy)]
struct Inner(Depth);

impl<'a, O: Output> ItemWriter<'a, O> for Inner {
    type P = Opened<'a>;
    #[inline(always)]
    fn plain(&self, out: &mut O, v: &'a Value) -> Option<Opened<'a>> {
        write_plain(out, v, self.0)
    }
    #[inline(always)]
    fn pair(&self, out: &mut O, p: &'a crate::value::Pair) -> Option<Opened<'a>> {
        write_pair(out, p, self.0)
    }
}

/// The items of the list on top of the stack: a list in them goes to
/// [`write_list`].
#[derive(Clone, Copy)]
struct Top<const FLUSH: bool>(Depth);

impl<'a, O: Output, const FLUSH: bool> ItemWriter<'a, O> for Top<FLUSH> {
    type P = Pending<'a>;
    #[inline(always)]
    fn plain(&self, out: &mut O, v: &'a Value) -> Option<Pending<'a>> {
        write_plain_top::<O, FLUSH>(out, v, self.0)
    }
    #[inline(always)]
    fn pair(&self, out: &mut O, p: &'a crate::value::Pair) -> Option<Pending<'a>> {
        write_pair_top::<O, FLUSH>(out, p, self.0)
    }
}

/// Writes `items` (`,` between them) until one leaves something to do,
/// or (when `FLUSH`) the buffer is full.
#[inline(always)]
fn write_items<'a, T, P, O: Output, const FLUSH: bool>(
    items: impl Iterator<Item = T>,
    started: &mut bool,
    out: &mut O,
    write: impl Fn(&mut O, T) -> Option<P>,
) -> Stop<'a, P> {
    for item in items {
        if *started {
            out.push(b',');
        }
        *started = true;
        if let Some(p) = write(out, item) {
            return Stop::Item(p);
        }
        if FLUSH && out.len() >= FLUSH_AT {
            return Stop::Full;
        }
    }
    Stop::End
}

/// Writes the items of an open list with `w` until one leaves something
/// to do.
#[inline(always)]
fn write_open<'a, O: Output, W: ItemWriter<'a, O>, const FLUSH: bool>(
    open: &mut Open<'a>,
    out: &mut O,
    w: W,
) -> Stop<'a, W::P> {
    let started = &mut open.started;
    match &mut open.items {
        Items::Values(it) => write_items::<_, _, _, FLUSH>(
            it,
            started,
            out,
            #[inline(always)]
            |o, v| w.plain(o, v),
        ),
        Items::Pairs(it) => write_items::<_, _, _, FLUSH>(
            it,
            started,
            out,
            #[inline(always)]
            |o, p| w.pair(o, p),
        ),
        Items::Mixed(it) => write_items::<_, _, _, FLUSH>(
            it,
            started,
            out,
            #[inline(always)]
            |o, item| match item {
                Item::Value(v) => w.plain(o, v),
                Item::Pair(p) => w.pair(o, p),
            },
        ),
        Items::PairValue(val) => Stop::PairValue(val),
    }
}

/// A list's items to open, or `None` when it is empty and one more level
/// is allowed (then there is nothing to open: the caller writes `[]`). Past
/// the limit even an empty list is opened, to be refused.
#[inline(always)]
fn to_open(list: &List, depth: Depth) -> Option<Stored<'_>> {
    match list.stored() {
        Stored::Values([]) if depth.room() => None,
        stored => Some(stored),
    }
}

/// Writes a plain item of a list written by [`write_list`], or returns it
/// when it is a list to open (see [`to_open`]).
#[inline(always)]
fn write_plain<'a>(out: &mut impl Output, v: &'a Value, depth: Depth) -> Option<Opened<'a>> {
    match v {
        Value::List(list) => match to_open(list, depth) {
            Some(items) => Some((items, None)),
            None => {
                out.push(b'[');
                out.push(b']');
                None
            }
        },
        scalar => {
            write_scalar_inline(out, scalar);
            None
        }
    }
}

/// Writes a pair's key (not a list) and the `:` after it.
#[inline(always)]
fn write_pair_key(out: &mut impl Output, key: &Value) {
    match key {
        Value::String(s) => write_key(out, s),
        key => {
            write_scalar_inline(out, key);
            out.push(b':');
        }
    }
}

/// Writes a pair of a list written by [`write_list`] up to the first list
/// in it to open, and returns that list.
#[inline(always)]
fn write_pair<'a>(
    out: &mut impl Output,
    p: &'a crate::value::Pair,
    depth: Depth,
) -> Option<Opened<'a>> {
    match (p.key(), p.value()) {
        (Value::List(key), val) => Some((key.stored(), Some(val))),
        (key, val) => {
            write_pair_key(out, key);
            write_plain(out, val, depth)
        }
    }
}

/// Writes a list inside the one on top of the stack (`depth`) in one go
/// when none of its items is a list to open (a point's coordinates, a
/// record of scalars): no stack entry, no return to the encoder's loop.
/// Otherwise stops at that item, or when the buffer is full, and returns
/// the list begun (and the item's list) for the stack.
#[inline(never)]
fn write_list<'a, O: Output, const FLUSH: bool>(
    out: &mut O,
    list: &'a List,
    depth: Depth,
) -> Option<Pending<'a>> {
    if !depth.room() {
        return Some(Pending {
            begun: None,
            open: Some((list.stored(), None)),
        });
    }
    let inner = Depth {
        open: depth.open + 1,
        max: depth.max,
    };
    out.push(b'[');
    let mut begun = Open::new(list.stored());
    let stop = write_open::<_, _, FLUSH>(&mut begun, out, Inner(inner));
    match stop {
        Stop::Item(open) => Some(Pending {
            begun: Some(begun),
            open: Some(open),
        }),
        Stop::Full => Some(Pending {
            begun: Some(begun),
            open: None,
        }),
        // (A list begun here is never a pair value's entry.)
        Stop::End | Stop::PairValue(_) => {
            out.push(b']');
            None
        }
    }
}

/// Writes a plain item of the list on top of the stack (`depth`); a list
/// through [`write_list`].
#[inline(always)]
fn write_plain_top<'a, O: Output, const FLUSH: bool>(
    out: &mut O,
    v: &'a Value,
    depth: Depth,
) -> Option<Pending<'a>> {
    match v {
        Value::List(list) => write_list::<O, FLUSH>(out, list, depth),
        scalar => {
            write_scalar_inline(out, scalar);
            None
        }
    }
}

/// Writes a pair of the list on top of the stack up to the first list in
/// it that [`write_list`] leaves open.
#[inline(always)]
fn write_pair_top<'a, O: Output, const FLUSH: bool>(
    out: &mut O,
    p: &'a crate::value::Pair,
    depth: Depth,
) -> Option<Pending<'a>> {
    match (p.key(), p.value()) {
        (Value::List(key), val) => Some(Pending {
            begun: None,
            open: Some((key.stored(), Some(val))),
        }),
        (key, val) => {
            write_pair_key(out, key);
            write_plain_top::<O, FLUSH>(out, val, depth)
        }
    }
}

/// Buffered bytes after which `encode_with` hands the buffer to `flush`.
const FLUSH_AT: usize = 1 << 16;

/// Encodes `v` without recursion (any nesting depth is safe). With `FLUSH`,
/// calls `flush` between items once `FLUSH_AT` bytes are buffered, so a
/// writer can drain the buffer; without, only at the end. Scalars in a
/// list are written in a tight loop, and so are the lists in it that hold
/// no further list (but empty ones); only other nested lists go on the
/// stack. Lists nested deeper than `max_depth` are an error (what was
/// written before stays in `out`).
fn encode_with<O: Output, F: FnMut(&mut O) -> Result<(), Error>, const FLUSH: bool>(
    v: &Value,
    out: &mut O,
    max_depth: usize,
    mut flush: F,
) -> Result<(), Error> {
    let Value::List(items) = v else {
        write_scalar(out, v);
        return flush(out);
    };
    if max_depth == 0 {
        return Err(too_deep(max_depth));
    }
    out.push(b'[');
    let mut stack: Vec<Open<'_>> = vec![Open::new(items.stored())];
    // The lists open: the stack's entries but the pair values.
    let mut depth = Depth {
        open: 1,
        max: max_depth,
    };
    while let Some(top) = stack.last_mut() {
        if FLUSH && out.len() >= FLUSH_AT {
            flush(out)?;
        }
        let mut stop = write_open::<_, _, FLUSH>(top, out, Top::<FLUSH>(depth));
        if let Stop::PairValue(val) = stop {
            // Its key, a list, has just been closed.
            stack.pop();
            out.push(b':');
            match write_plain_top::<_, FLUSH>(out, val, depth) {
                Some(pending) => stop = Stop::Item(pending),
                None => continue,
            }
        }
        match stop {
            Stop::End => {
                out.push(b']');
                stack.pop();
                depth.open -= 1;
            }
            Stop::Full | Stop::PairValue(_) => {}
            Stop::Item(pending) => {
                if let Some(begun) = pending.begun {
                    stack.push(begun);
                    depth.open += 1;
                }
                if let Some((items, pair_value)) = pending.open {
                    if !depth.room() {
                        return Err(too_deep(max_depth));
                    }
                    if let Some(val) = pair_value {
                        stack.push(Open {
                            items: Items::PairValue(val),
                            started: true,
                        });
                    }
                    out.push(b'[');
                    stack.push(Open::new(items));
                    depth.open += 1;
                }
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
    let _ = encode_with::<_, _, false>(v, out, usize::MAX, |_| Ok(()));
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
    encode_with::<_, _, false>(value, &mut out, max_depth, |_| Ok(()))?;
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
    encode_with::<_, _, true>(value, &mut out, max_depth, |buf| {
        writer.write_all(buf)?;
        buf.clear();
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Item, Pair};

    /// Shapes for the encoder's paths: empty lists written in a loop,
    /// lists written whole inside the top one, lists begun there and left
    /// open at a nested list, list keys (with list and scalar values),
    /// mixed lists.
    const SHAPES: &[&str] = &[
        "[]",
        "[[]]",
        "[[],[]]",
        "[[[]]]",
        "[1,[2,3],[],[4,[5]]]",
        r#"["k":[]]"#,
        r#"["k":[],"l":[1]]"#,
        r#"["k":["m":[]]]"#,
        r#"["k":[1,[[]],2],"z":Y]"#,
        "[[1]:2]",
        "[[[]]:[]]",
        "[[1,[2]]:[3,[4]]]",
        r#"[1,"k":[],[],"l":[[]]]"#,
        r#"[[1,"k":2],[3,"k":[4]]]"#,
    ];

    #[test]
    fn every_shape_is_written_back_as_read() {
        for text in SHAPES {
            let v = crate::from_str(text).unwrap();
            assert_eq!(crate::to_string(&v).unwrap(), *text);
            let mut w = Vec::new();
            crate::to_writer(&mut w, &v).unwrap();
            assert_eq!(w, text.as_bytes(), "{text}");
        }
    }

    #[test]
    fn the_depth_limit_counts_every_list_written_in_a_loop() {
        for text in SHAPES {
            let v = crate::from_str(text).unwrap();
            let d = v.depth();
            let mut out = Vec::new();
            write_value_with_depth(&mut out, &v, d).unwrap();
            assert_eq!(out, text.as_bytes());
            let mut out = Vec::new();
            let e = write_value_with_depth(&mut out, &v, d - 1).unwrap_err();
            assert!(
                matches!(e.kind(), crate::ErrorKind::TooDeep(m) if m == d - 1),
                "{text}: {e}"
            );
            assert!(out.is_empty(), "{text}");
            let mut w = Vec::new();
            assert!(to_writer_with_depth(&mut w, &v, d - 1).is_err(), "{text}");
        }
    }

    #[test]
    fn a_key_is_its_string_and_a_colon() {
        // Every length through the word paths (4..=16) and past them,
        // plain and with a byte to escape at each end.
        for len in 0..40 {
            let plain: String = "aé_Z9".chars().cycle().take(len).collect();
            for s in [plain.clone(), format!("\"{plain}"), format!("{plain}\n")] {
                let mut key = b"[".to_vec();
                write_key(&mut key, &s);
                let mut expected = b"[".to_vec();
                write_str(&mut expected, &s);
                expected.push(b':');
                assert_eq!(key, expected, "{s:?}");
            }
        }
    }

    /// Records the size of each write.
    struct Chunks(Vec<u8>, usize);

    impl Write for Chunks {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.extend_from_slice(buf);
            self.1 = self.1.max(buf.len());
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_writer_gets_the_same_bytes_in_bounded_chunks() {
        // Long lists written whole in the loop (one of 100,000 numbers,
        // many short ones), lists left open at a nested list, empty lists
        // and list keys, across many flushes.
        let long: Vec<Item> = (0..100_000).map(|i| Item::from(Value::from(i))).collect();
        let mut items = vec![Item::from(Value::List(long.into()))];
        for i in 0..20_000 {
            let point = Value::from(vec![Value::from(i), Value::from(-i)]);
            let nested = Value::from(vec![Value::from(i), point.clone()]);
            items.push(Item::from(point.clone()));
            items.push(Item::from(nested));
            items.push(Item::from(Value::List(Default::default())));
            items.push(Item::from(Pair::new(point, Value::from(i)).unwrap()));
            items.push(Item::from(Pair::with_str_key(
                "k",
                Value::List(Default::default()),
            )));
        }
        let v = Value::List(items.into());
        let whole = crate::to_vec(&v).unwrap();
        assert_eq!(crate::from_slice(&whole).unwrap(), v);
        let mut w = Chunks(Vec::new(), 0);
        crate::to_writer(&mut w, &v).unwrap();
        assert_eq!(w.0, whole);
        assert!(w.1 < FLUSH_AT + 64, "a write of {} bytes", w.1);
    }
}
