//! Values and lists as [`Value`]s. The list rules are [`super::cursor`]'s;
//! this file collects the items.

use super::cursor::{self, Next};
use super::string::Known;
use super::{PResult, Syntax, fail};
use crate::error::ErrorKind;
use crate::value::{List, Pair, Value};
use std::sync::Arc;

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
///
/// A leaf list (one holding no non-empty list) that follows a list in its
/// parent is not allocated on its own: its items wait on the scratch
/// until the parent's `]`, where the waiting leaves of each kind (plain
/// values, records) share one allocation when there are [`SHARE_MIN`] or
/// more of them (see [`List`]'s shared runs). Canada's polygons are lists
/// of `[x,y]` points: three allocations per polygon instead of one per
/// point.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    /// The values of the open lists' items, in order; a pair is its key
    /// then its value.
    values: Vec<Value>,
    /// For the open lists, the index in `values` of each pair's key.
    pairs: Vec<usize>,
    /// The items of the waiting leaf lists of plain values.
    leaf_values: Vec<Value>,
    /// The items of the waiting leaf records.
    leaf_pairs: Vec<Pair>,
    /// How many non-empty lists were closed (only counts up): a list is a
    /// leaf when none was closed since it opened.
    closed: usize,
    /// How many leaf lists wait for their parent's `]`.
    waiting: usize,
}

/// The fewest leaf lists of one kind under one parent that share an
/// allocation (sharing costs two: the run and its reference count).
const SHARE_MIN: usize = 3;

/// Where the scratch stood when a list opened.
#[derive(Clone, Copy)]
struct Marks {
    base: usize,
    pairs_base: usize,
    closed: usize,
    waiting: usize,
}

impl Scratch {
    /// Drops what a failed parse left behind (a successful one leaves
    /// nothing), keeping the capacity.
    pub fn clear(&mut self) {
        self.values.clear();
        self.pairs.clear();
        self.leaf_values.clear();
        self.leaf_pairs.clear();
        self.waiting = 0;
    }

    #[inline(always)]
    fn marks(&self) -> Marks {
        Marks {
            base: self.values.len(),
            pairs_base: self.pairs.len(),
            closed: self.closed,
            waiting: self.waiting,
        }
    }

    /// Closes the list opened at `m`: its value, or for a leaf inside
    /// another list (`nested`) a list waiting for its storage.
    #[inline]
    fn close(&mut self, m: Marks, nested: bool) -> List {
        let leaf = self.closed == m.closed;
        self.closed = self.closed.wrapping_add(1);
        if leaf {
            // Only a leaf that follows a list waits: the second and later
            // items of a list of lists (a leaf alone under its parent, such
            // as a record's one list-valued field, would gain nothing).
            let after_list = |v: &Value| matches!(v, Value::List(_));
            if nested
                && self
                    .values
                    .get(m.base.wrapping_sub(1))
                    .is_some_and(after_list)
                && let Some(list) = self.wait(m)
            {
                return list;
            }
        } else if self.waiting != m.waiting {
            self.give_storage(m);
        }
        self.take(m.base, m.pairs_base)
    }

    /// Moves a leaf's items to the stacks of waiting leaves; `None` (and
    /// nothing moved) for a leaf that mixes values and pairs.
    fn wait(&mut self, m: Marks) -> Option<List> {
        let pairs = self.pairs.len() - m.pairs_base;
        let n = self.values.len() - m.base;
        if pairs == 0 {
            let list = List::pending_values(self.leaf_values.len(), n)?;
            self.leaf_values.extend(self.values.drain(m.base..));
            self.waiting = self.waiting.wrapping_add(1);
            Some(list)
        } else if 2 * pairs == n {
            let list = List::pending_pairs(self.leaf_pairs.len(), pairs)?;
            let mut values = self.values.drain(m.base..);
            while let (Some(key), Some(value)) = (values.next(), values.next()) {
                self.leaf_pairs.push(Pair::new_unchecked(key, value));
            }
            drop(values);
            self.pairs.truncate(m.pairs_base);
            self.waiting = self.waiting.wrapping_add(1);
            Some(list)
        } else {
            None
        }
    }

    /// Gives the waiting leaves among the items of the list opened at `m`
    /// their storage: one shared allocation per kind when there are
    /// [`SHARE_MIN`] or more of that kind, else one each. The first waiting
    /// leaf of a kind starts that kind's items on the stack of waiting
    /// leaves, all of which are this list's (its items' waiting leaves got
    /// their storage at their own `]`).
    #[inline(never)]
    fn give_storage(&mut self, m: Marks) {
        let items = self.values.get_mut(m.base..).unwrap_or_default();
        let (mut values_n, mut pairs_n) = (0usize, 0usize);
        let (mut values_at, mut pairs_at) = (self.leaf_values.len(), self.leaf_pairs.len());
        for v in items.iter() {
            if let Value::List(l) = v {
                match l.waiting() {
                    Some((false, at)) => {
                        values_n += 1;
                        values_at = values_at.min(at);
                    }
                    Some((true, at)) => {
                        pairs_n += 1;
                        pairs_at = pairs_at.min(at);
                    }
                    None => {}
                }
            }
        }
        let values = (values_n >= SHARE_MIN)
            .then(|| Arc::new(self.leaf_values.drain(values_at..).collect()));
        let pairs =
            (pairs_n >= SHARE_MIN).then(|| Arc::new(self.leaf_pairs.drain(pairs_at..).collect()));
        // Last first: see `List::own`.
        for v in items.iter_mut().rev() {
            if let Value::List(l) = v {
                let _ = l.share(&values, values_at, &pairs, pairs_at)
                    || l.own(&mut self.leaf_values, &mut self.leaf_pairs);
            }
        }
        self.leaf_values.truncate(values_at);
        self.leaf_pairs.truncate(pairs_at);
        self.waiting = m.waiting;
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
        Some(b'[') => list_text(input, syntax, depth, scratch, known, false),
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
    list_text(input, syntax, depth, scratch, Known::NOTHING, false)
}

/// `nested`: the list is an item of a list being parsed (whose `]` gives a
/// leaf its storage: see [`Scratch`]).
fn list_text<'a>(
    input: &'a [u8],
    syntax: Syntax,
    depth: usize,
    scratch: &mut Scratch,
    known: Known<'a>,
    nested: bool,
) -> PResult<'a, Value> {
    let (mut rest, depth) = cursor::open(input, syntax, depth)?;
    if let Some(b']') = rest.first() {
        return Ok((&rest[1..], Value::List(List::new())));
    }
    let marks = scratch.marks();
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
            Next::End => return Ok((&r[1..], Value::List(scratch.close(marks, nested)))),
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
            let (r, v) = list_text(input, syntax, depth, scratch, known, true)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Item, ItemMut};

    fn parse(doc: &str, scratch: &mut Scratch) -> Value {
        let (rest, v) = value_in(doc.as_bytes(), Syntax::Strict, 128, scratch).unwrap();
        assert!(rest.is_empty());
        v
    }

    #[test]
    fn leaves_that_share_storage_read_and_change_as_lists() {
        let docs = [
            "[[1,2],[3,4],[5,6],[7,8]]",
            r#"[["a":1],["b":2,"c":3],["d":4],["e":5]]"#,
            // Both kinds, one with too few to share, nested deeper, mixed
            // and empty leaves, and a leaf as the first item of all.
            r#"[[1],["k":1],[2],[3],[],["k":[]],[4,"k":5],[[6],[7],[8],[9,10]],"x":[[1],[2]]]"#,
            r#"[[[1,2],[3,4],[5,6]],[[7,8],[9,10],[11,12]],[[1]]]"#,
        ];
        let mut scratch = Scratch::default();
        for doc in docs {
            let v = parse(doc, &mut scratch);
            assert_eq!(v.to_string(), doc);
            // Equal to the same list built by hand, and to its clone.
            let rebuilt: Value = crate::from_str(&v.to_string()).unwrap();
            assert_eq!(v, rebuilt);
            assert_eq!(v.clone(), v);
            assert_eq!(format!("{v:?}"), format!("{:?}", v.clone()));
        }
        let v = parse(docs[0], &mut scratch);
        let list = v.as_list().unwrap();
        let second = list.get(1).unwrap().value().as_list().unwrap();
        assert_eq!(second.values().map(<[Value]>::len), Some(2));
        assert_eq!(second.get(1).unwrap().value().as_i64(), Some(4));
        assert_eq!(second.iter().rev().count(), 2);
        // A change copies the run out; its siblings keep theirs.
        let mut v = v;
        let Value::List(list) = &mut v else { panic!() };
        if let Some(ItemMut::Value(Value::List(l))) = list.get_mut(1) {
            if let Some(ItemMut::Value(x)) = l.get_mut(0) {
                *x = Value::from(30);
            }
            l.push(Value::from(40));
        }
        assert_eq!(v.to_string(), "[[1,2],[30,4,40],[5,6],[7,8]]");
        let Value::List(list) = v else { panic!() };
        let items: Vec<Item> = list.into_vec();
        let Some(Item::Value(Value::List(third))) = items.get(2).cloned() else {
            panic!()
        };
        assert_eq!(
            third.into_vec(),
            vec![Item::from(Value::from(5)), Item::from(Value::from(6))]
        );
        let records = parse(docs[1], &mut scratch);
        let last = records.as_list().unwrap().last().unwrap();
        assert_eq!(
            last.value().as_list().unwrap().pairs().map(<[_]>::len),
            Some(1)
        );
        assert_eq!(last.value()["e"].as_i64(), Some(5));
    }

    #[test]
    fn a_failed_parse_leaves_nothing_that_shows() {
        let mut scratch = Scratch::default();
        let bad = b"[[1,2],[3,4],[5,6],[7";
        assert!(value_in(bad, Syntax::Strict, 128, &mut scratch).is_err());
        // Without clearing, and after clearing.
        for clear in [false, true] {
            if clear {
                scratch.clear();
            }
            let v = parse("[[1],[2],[3],[4]]", &mut scratch);
            assert_eq!(v.to_string(), "[[1],[2],[3],[4]]");
        }
    }
}
