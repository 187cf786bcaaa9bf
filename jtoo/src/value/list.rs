//! [`List`]: the items of a list, and the one place where values are taken
//! apart and compared without recursion.
//!
//! A value built in code may nest a million lists deep. The derived
//! `Drop`, `Clone`, `PartialEq`, `Hash` and `Debug` would recurse once per
//! level and overflow the stack long before that, so `List` implements them
//! with an explicit stack (see [`walk`](super::walk)); `Value`, `Item` and
//! `Pair` keep their derived impls, which reach a nested list only through
//! `List`. `Drop` is on `List` rather than on `Value` so that values can
//! still be moved out of in a `match`.

use super::walk::{Event, Folder, Walk, fold};
use super::{Item, Pair, Value};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};

/// The items of a list, in order: a `Vec<Item>` in all but name.
///
/// It dereferences to `Vec<Item>` (so `len`, `iter`, `push`, indexing and
/// slicing work as on a vector), converts from and into one, and drops,
/// clones, compares, hashes and prints without recursion, so a value nested
/// a million lists deep is as safe to handle as a flat one.
///
/// ```
/// use jtoo::{Item, List, Value};
/// let mut list = List::from(vec![Item::from(Value::from(1))]);
/// list.push(Value::from("two").into());
/// assert_eq!(list.len(), 2);
/// let v = Value::List(list);
/// assert_eq!(v.to_string(), r#"[1,"two"]"#);
///
/// // Deep values built in code are fine: no stack overflow on drop.
/// let mut deep = Value::List(List::new());
/// for _ in 0..100_000 {
///     deep = Value::List(vec![Item::Value(deep)].into());
/// }
/// let copy = deep.clone();
/// assert_eq!(copy, deep);
/// ```
#[derive(Default)]
pub struct List(Vec<Item>);

impl List {
    /// An empty list (no allocation).
    pub const fn new() -> List {
        List(Vec::new())
    }

    /// An empty list with room for `capacity` items.
    pub fn with_capacity(capacity: usize) -> List {
        List(Vec::with_capacity(capacity))
    }

    /// The items as a vector.
    pub fn into_vec(mut self) -> Vec<Item> {
        std::mem::take(&mut self.0)
    }

    /// The items, as a vector.
    pub fn as_vec(&self) -> &Vec<Item> {
        &self.0
    }

    /// The items, as a mutable vector.
    pub fn as_vec_mut(&mut self) -> &mut Vec<Item> {
        &mut self.0
    }
}

impl Deref for List {
    type Target = Vec<Item>;
    fn deref(&self) -> &Vec<Item> {
        &self.0
    }
}

impl DerefMut for List {
    fn deref_mut(&mut self) -> &mut Vec<Item> {
        &mut self.0
    }
}

impl From<Vec<Item>> for List {
    fn from(items: Vec<Item>) -> List {
        List(items)
    }
}

impl From<List> for Vec<Item> {
    fn from(list: List) -> Vec<Item> {
        list.into_vec()
    }
}

impl FromIterator<Item> for List {
    fn from_iter<I: IntoIterator<Item = Item>>(iter: I) -> List {
        List(iter.into_iter().collect())
    }
}

impl Extend<Item> for List {
    fn extend<I: IntoIterator<Item = Item>>(&mut self, iter: I) {
        self.0.extend(iter);
    }
}

impl IntoIterator for List {
    type Item = Item;
    type IntoIter = std::vec::IntoIter<Item>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl<'a> IntoIterator for &'a List {
    type Item = &'a Item;
    type IntoIter = std::slice::Iter<'a, Item>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a> IntoIterator for &'a mut List {
    type Item = &'a mut Item;
    type IntoIter = std::slice::IterMut<'a, Item>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter_mut()
    }
}

impl Drop for List {
    /// Drops nested lists from a heap stack instead of recursing: each
    /// list's nested lists are emptied into the stack before it is freed.
    fn drop(&mut self) {
        let mut pending: Vec<Vec<Item>> = Vec::new();
        detach_lists(&mut self.0, &mut pending);
        while let Some(mut items) = pending.pop() {
            detach_lists(&mut items, &mut pending);
            // `items` is freed here; every list in it is empty now.
        }
    }
}

/// Moves the items of every non-empty list directly inside `items` (plain
/// values, pair keys and pair values) to `pending`.
fn detach_lists(items: &mut [Item], pending: &mut Vec<Vec<Item>>) {
    let mut take = |v: &mut Value| {
        if let Value::List(l) = v
            && !l.0.is_empty()
        {
            pending.push(std::mem::take(&mut l.0));
        }
    };
    for item in items {
        match item {
            Item::Value(v) => take(v),
            Item::Pair(p) => {
                take(&mut p.key);
                take(&mut p.value);
            }
        }
    }
}

impl Clone for List {
    fn clone(&self) -> List {
        // No depth limit, so `fold` cannot fail.
        fold(&self.0, usize::MAX, &mut Cloner).map_or_else(|_| List::new(), List)
    }
}

/// Clones bottom-up.
struct Cloner;

impl<'a> Folder<'a> for Cloner {
    type Out = Value;
    type Item = Item;
    fn leaf(&mut self, v: &'a Value) -> Value {
        v.clone()
    }
    fn value(&mut self, v: Value) -> Item {
        Item::Value(v)
    }
    fn pair(&mut self, _: &'a Pair, key: Value, value: Value) -> Item {
        Item::Pair(Pair::new_unchecked(key, value))
    }
    fn list(&mut self, _: &'a [Item], items: Vec<Item>) -> Value {
        Value::List(List(items))
    }
}

impl PartialEq for List {
    /// Compares list by list from a heap stack: the scalars of a list in a
    /// tight loop, nested lists deferred (the order does not matter for
    /// the answer).
    fn eq(&self, other: &List) -> bool {
        let mut pending: Vec<(&[Item], &[Item])> = Vec::new();
        let (mut a, mut b): (&[Item], &[Item]) = (&self.0, &other.0);
        loop {
            if a.len() != b.len() {
                return false;
            }
            for (x, y) in a.iter().zip(b) {
                let same = match (x, y) {
                    (Item::Value(x), Item::Value(y)) => same_or_later(x, y, &mut pending),
                    (Item::Pair(x), Item::Pair(y)) => {
                        same_or_later(&x.key, &y.key, &mut pending)
                            && same_or_later(&x.value, &y.value, &mut pending)
                    }
                    _ => false,
                };
                if !same {
                    return false;
                }
            }
            match pending.pop() {
                Some((x, y)) => (a, b) = (x, y),
                None => return true,
            }
        }
    }
}

/// Two values are equal as far as can be told without descending into
/// lists; two lists are deferred to `pending`.
#[inline]
fn same_or_later<'a>(
    x: &'a Value,
    y: &'a Value,
    pending: &mut Vec<(&'a [Item], &'a [Item])>,
) -> bool {
    match (x, y) {
        (Value::List(x), Value::List(y)) => {
            pending.push((x, y));
            true
        }
        // Scalars, or a list and a scalar (different variants: the derived
        // `==` does not descend).
        _ => x == y,
    }
}

impl Eq for List {}

impl Hash for List {
    /// Hashes list by list from a heap stack, in the order [`List::eq`]
    /// compares: equal lists hash alike.
    fn hash<H: Hasher>(&self, state: &mut H) {
        let mut pending: Vec<&[Item]> = Vec::new();
        let mut items: &[Item] = &self.0;
        loop {
            state.write_usize(items.len());
            for item in items {
                match item {
                    Item::Value(v) => {
                        state.write_u8(0);
                        hash_or_later(v, state, &mut pending);
                    }
                    Item::Pair(p) => {
                        state.write_u8(1);
                        hash_or_later(&p.key, state, &mut pending);
                        hash_or_later(&p.value, state, &mut pending);
                    }
                }
            }
            match pending.pop() {
                Some(next) => items = next,
                None => return,
            }
        }
    }
}

/// Hashes a scalar; a list is marked and deferred to `pending`.
#[inline]
fn hash_or_later<'a, H: Hasher>(v: &'a Value, state: &mut H, pending: &mut Vec<&'a [Item]>) {
    match v {
        Value::List(items) => {
            state.write_u8(u8::MAX);
            pending.push(items);
        }
        scalar => scalar.hash(state),
    }
}

impl fmt::Debug for List {
    /// As the derived `Debug` of nested `Vec`s and enums would print it
    /// (`{:#?}` included), without recursion.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pretty = f.alternate();
        let mut indent = 0usize;
        let mut open = 0usize;
        // The last event opened an empty list (its `Close` comes next).
        let mut empty = false;
        let nl = |f: &mut fmt::Formatter<'_>, level: usize| -> fmt::Result {
            f.write_str("\n")?;
            for _ in 0..level {
                f.write_str("    ")?;
            }
            Ok(())
        };
        for event in Walk::new(&self.0) {
            match event {
                Event::Open(items) => {
                    empty = items.is_empty();
                    let nested = open > 0;
                    open += 1;
                    match (pretty, nested, empty) {
                        (false, false, _) => f.write_str("[")?,
                        (false, true, _) => f.write_str("List([")?,
                        (true, false, true) => f.write_str("[")?,
                        (true, false, false) => {
                            f.write_str("[")?;
                            indent += 1;
                        }
                        (true, true, true) => {
                            f.write_str("List(")?;
                            nl(f, indent + 1)?;
                            f.write_str("[")?;
                        }
                        (true, true, false) => {
                            f.write_str("List(")?;
                            nl(f, indent + 1)?;
                            f.write_str("[")?;
                            indent += 2;
                        }
                    }
                }
                Event::Close => {
                    open -= 1;
                    let nested = open > 0;
                    match (pretty, nested, std::mem::take(&mut empty)) {
                        (false, false, _) => f.write_str("]")?,
                        (false, true, _) => f.write_str("])")?,
                        (true, false, true) => f.write_str("]")?,
                        (true, false, false) => {
                            indent -= 1;
                            nl(f, indent)?;
                            f.write_str("]")?;
                        }
                        (true, true, true) => {
                            f.write_str("],")?;
                            nl(f, indent)?;
                            f.write_str(")")?;
                        }
                        (true, true, false) => {
                            indent -= 1;
                            nl(f, indent)?;
                            f.write_str("],")?;
                            indent -= 1;
                            nl(f, indent)?;
                            f.write_str(")")?;
                        }
                    }
                }
                Event::Item { first, item } if !pretty => {
                    let pair = is_pair(item);
                    if !first {
                        f.write_str(", ")?;
                    }
                    f.write_str(if pair { "Pair(Pair { key: " } else { "Value(" })?;
                }
                Event::Item {
                    item: Item::Value(_),
                    ..
                } => {
                    nl(f, indent)?;
                    f.write_str("Value(")?;
                    indent += 1;
                    nl(f, indent)?;
                }
                Event::Item {
                    item: Item::Pair(_),
                    ..
                } => {
                    nl(f, indent)?;
                    f.write_str("Pair(")?;
                    nl(f, indent + 1)?;
                    f.write_str("Pair {")?;
                    indent += 2;
                    nl(f, indent)?;
                    f.write_str("key: ")?;
                }
                Event::Colon if !pretty => f.write_str(", value: ")?,
                Event::Colon => {
                    f.write_str(",")?;
                    nl(f, indent)?;
                    f.write_str("value: ")?;
                }
                Event::ItemEnd { pair } if !pretty => {
                    f.write_str(if pair { " })" } else { ")" })?
                }
                Event::ItemEnd { pair } => {
                    let closers: &[&str] = if pair { &["}", ")"] } else { &[")"] };
                    for closer in closers {
                        f.write_str(",")?;
                        indent -= 1;
                        nl(f, indent)?;
                        f.write_str(closer)?;
                    }
                    f.write_str(",")?;
                }
                Event::Leaf(v) if !pretty => write!(f, "{v:?}")?,
                Event::Leaf(v) => {
                    let text = format!("{v:#?}");
                    for (i, line) in text.split('\n').enumerate() {
                        if i > 0 {
                            nl(f, indent)?;
                        }
                        f.write_str(line)?;
                    }
                }
            }
        }
        Ok(())
    }
}

fn is_pair(item: &Item) -> bool {
    matches!(item, Item::Pair(_))
}
