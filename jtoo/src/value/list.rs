//! [`List`]: the items of a list, stored by kind, and the one place where
//! values are taken apart and compared without recursion.
//!
//! **Layout.** A list made whole (by a parser, `collect`, `From<Vec<Item>>`
//! or `clone`) stores its items in one allocation of exactly their number
//! and of the kind it needs: plain values only (32 bytes each), or pairs
//! only (64 bytes each, a "record"). So a plain item pays nothing for pairs
//! and a pair nothing for a tag; the list itself is 24 bytes and the empty
//! list allocates nothing. A list that mixes both, or that is changed in
//! place (`push`, `insert`, `pop`, …), holds a growable vector of tagged
//! [`Item`]s (64 bytes each) instead, so edits are amortized O(1). Reading
//! yields [`ItemRef`]s; [`Item`] is the owned form passed in and out.
//!
//! **No recursion.** A value built in code may nest a million lists deep.
//! Derived `Drop`, `Clone`, `PartialEq`, `Hash` and `Debug` would recurse
//! once per level and overflow the stack long before that, so `List`
//! implements them with an explicit stack (a walk of the nested lists kept on the heap);
//! `Value`, `Item` and `Pair` keep their derived impls, which reach a nested
//! list only through `List`. `Drop` is on `List` rather than on `Value` so
//! that values can still be moved out of in a `match`.

use super::walk::{Event, Folder, Walk, fold};
use super::{Item, Pair, Value};
use std::fmt;
use std::hash::{Hash, Hasher};

/// The items of a list, in order: plain values and `key:value` pairs.
///
/// Read it as a sequence of [`ItemRef`]s ([`iter`](List::iter),
/// [`get`](List::get)); build it from [`Item`]s (`From<Vec<Item>>`,
/// `collect`, [`push`](List::push)), or straight from values or pairs.
/// It drops, clones, compares, hashes and prints without recursion, so a
/// value nested a million lists deep is as safe to handle as a flat one.
///
/// ```
/// use jtoo::{Item, ItemRef, List, Pair, Value};
/// let mut list = List::from(vec![Item::from(Value::from(1))]);
/// list.push(Value::from("two"));
/// assert_eq!(list.len(), 2);
/// assert_eq!(list.iter().filter(|i| i.is_pair()).count(), 0);
/// list.push(Pair::with_str_key("k", Value::from(3)));
/// assert!(matches!(list.get(2), Some(ItemRef::Pair(p)) if p.key().as_str() == Some("k")));
/// let v = Value::List(list);
/// assert_eq!(v.to_string(), r#"[1,"two","k":3]"#);
///
/// // Deep values built in code are fine: no stack overflow on drop.
/// let mut deep = Value::List(List::new());
/// for _ in 0..100_000 {
///     deep = Value::List(vec![Item::Value(deep)].into());
/// }
/// let copy = deep.clone();
/// assert_eq!(copy, deep);
/// ```
pub struct List(Repr);

/// How a list's items are stored.
enum Repr {
    /// No pairs (the empty list too).
    Values(Box<[Value]>),
    /// Pairs only, at least one.
    Pairs(Box<[Pair]>),
    /// Both plain values and pairs; also any list changed after it was
    /// made (`push`, `insert`, `pop`, …), so edits are amortized O(1).
    // Boxed on purpose: a `Vec` here would make `List` 32 bytes and every
    // `Value` 40; the box keeps this variant one pointer wide.
    #[allow(clippy::box_collection)]
    Mixed(Box<Vec<Item>>),
}

/// A list's items as stored ([`List::stored`]).
pub(crate) enum Stored<'a> {
    /// No pairs (the empty list too).
    Values(&'a [Value]),
    /// Pairs only, at least one.
    Pairs(&'a [Pair]),
    /// Both, tagged.
    Mixed(&'a [Item]),
}

/// A list item, borrowed: a plain value or a pair.
///
/// ```
/// use jtoo::ItemRef;
/// let v = jtoo::from_str(r#"[1,"k":2]"#).unwrap();
/// let items: Vec<ItemRef> = v.as_list().unwrap().iter().collect();
/// assert_eq!(items[0].as_value().and_then(|v| v.as_i64()), Some(1));
/// assert_eq!(items[1].as_pair().map(|p| p.key().as_str()), Some(Some("k")));
/// assert_eq!(items[1].value().as_i64(), Some(2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemRef<'a> {
    /// A plain value.
    Value(&'a Value),
    /// A `key:value` pair.
    Pair(&'a Pair),
}

impl<'a> ItemRef<'a> {
    /// The plain value, if this is not a pair.
    pub fn as_value(self) -> Option<&'a Value> {
        match self {
            ItemRef::Value(v) => Some(v),
            ItemRef::Pair(_) => None,
        }
    }

    /// The pair, if this is one.
    pub fn as_pair(self) -> Option<&'a Pair> {
        match self {
            ItemRef::Pair(p) => Some(p),
            ItemRef::Value(_) => None,
        }
    }

    /// The plain value, or the pair's value.
    pub fn value(self) -> &'a Value {
        match self {
            ItemRef::Value(v) => v,
            ItemRef::Pair(p) => p.value(),
        }
    }

    /// `true` for a pair.
    pub fn is_pair(self) -> bool {
        matches!(self, ItemRef::Pair(_))
    }

    /// An owned copy.
    pub fn to_item(self) -> Item {
        match self {
            ItemRef::Value(v) => Item::Value(v.clone()),
            ItemRef::Pair(p) => Item::Pair(p.clone()),
        }
    }
}

/// A list item, mutably borrowed: a plain value or a pair (whose key
/// cannot be changed in place: see [`Pair::value_mut`]).
#[derive(Debug)]
pub enum ItemMut<'a> {
    /// A plain value.
    Value(&'a mut Value),
    /// A `key:value` pair.
    Pair(&'a mut Pair),
}

impl Default for List {
    fn default() -> List {
        List::new()
    }
}

impl List {
    /// An empty list (no allocation).
    pub fn new() -> List {
        List(Repr::Values(Box::default()))
    }

    /// An empty list with room for `capacity` plain values (kept for
    /// source compatibility: items are stored at their exact count, so
    /// this allocates nothing).
    pub fn with_capacity(capacity: usize) -> List {
        let _ = capacity;
        List::new()
    }

    /// A list of the plain `values`.
    pub fn from_values(values: impl IntoIterator<Item = Value>) -> List {
        List(Repr::Values(values.into_iter().collect()))
    }

    /// A list of the `pairs` (a record).
    pub fn from_pairs(pairs: impl IntoIterator<Item = Pair>) -> List {
        let pairs: Box<[Pair]> = pairs.into_iter().collect();
        if pairs.is_empty() {
            List::new()
        } else {
            List(Repr::Pairs(pairs))
        }
    }

    /// A list of the plain `values`, keeping their allocation (shrunk to
    /// their number).
    pub(crate) fn from_values_vec(values: Vec<Value>) -> List {
        List(Repr::Values(values.into_boxed_slice()))
    }

    /// A record from `values`, each pair its key then its value (an even,
    /// non-zero number of values: the parser's scratch stack).
    pub(crate) fn from_pair_values(mut values: std::vec::Drain<'_, Value>) -> List {
        let mut pairs = Vec::with_capacity(values.len() / 2);
        while let (Some(key), Some(value)) = (values.next(), values.next()) {
            pairs.push(Pair::new_unchecked(key, value));
        }
        List(Repr::Pairs(pairs.into_boxed_slice()))
    }

    /// A list that mixes plain values and pairs from `values` (the parser's
    /// scratch stack from index `base` on), where `pair_keys` are the
    /// indexes of the pairs' keys, in order.
    pub(crate) fn from_marked(
        values: std::vec::Drain<'_, Value>,
        base: usize,
        pair_keys: &[usize],
    ) -> List {
        let mut items = Vec::with_capacity(values.len() - pair_keys.len());
        let mut keys = pair_keys.iter().map(|k| k - base).peekable();
        let mut values = values.enumerate();
        while let Some((at, v)) = values.next() {
            if keys.next_if_eq(&at).is_some()
                && let Some((_, value)) = values.next()
            {
                items.push(Item::Pair(Pair::new_unchecked(v, value)));
            } else {
                items.push(Item::Value(v));
            }
        }
        List(Repr::Mixed(Box::new(items)))
    }

    /// Moves `items`, of which `pairs` are pairs, into a list stored at its
    /// exact size (the parsers' one allocation per list).
    pub(crate) fn from_counted(items: std::vec::Drain<'_, Item>, pairs: usize) -> List {
        // `map` keeps the exact length, so `collect` allocates once and
        // copies in a tight loop; the count is the caller's, so the other
        // arm of each `match` is never taken.
        let n = items.len();
        List(if pairs == 0 {
            Repr::Values(
                items
                    .map(|item| match item {
                        Item::Value(v) => v,
                        Item::Pair(p) => p.value,
                    })
                    .collect(),
            )
        } else if pairs == n {
            Repr::Pairs(
                items
                    .map(|item| match item {
                        Item::Pair(p) => p,
                        Item::Value(v) => Pair::new_unchecked(Value::Bool(false), v),
                    })
                    .collect(),
            )
        } else {
            Repr::Mixed(Box::new(items.collect()))
        })
    }

    /// The number of items (a pair counts once).
    #[inline]
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Values(v) => v.len(),
            Repr::Pairs(p) => p.len(),
            Repr::Mixed(m) => m.len(),
        }
    }

    /// `true` for `[]`.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `index`-th item.
    #[inline]
    pub fn get(&self, index: usize) -> Option<ItemRef<'_>> {
        match &self.0 {
            Repr::Values(v) => v.get(index).map(ItemRef::Value),
            Repr::Pairs(p) => p.get(index).map(ItemRef::Pair),
            Repr::Mixed(m) => m.get(index).map(Item::as_item_ref),
        }
    }

    /// The `index`-th item, mutably.
    pub fn get_mut(&mut self, index: usize) -> Option<ItemMut<'_>> {
        match &mut self.0 {
            Repr::Values(v) => v.get_mut(index).map(ItemMut::Value),
            Repr::Pairs(p) => p.get_mut(index).map(ItemMut::Pair),
            Repr::Mixed(m) => m.get_mut(index).map(Item::as_item_mut),
        }
    }

    /// The first item.
    pub fn first(&self) -> Option<ItemRef<'_>> {
        self.get(0)
    }

    /// The last item.
    pub fn last(&self) -> Option<ItemRef<'_>> {
        self.get(self.len().checked_sub(1)?)
    }

    /// The items, in order.
    #[inline]
    pub fn iter(&self) -> Iter<'_> {
        Iter(match &self.0 {
            Repr::Values(v) => IterRepr::Values(v.iter()),
            Repr::Pairs(p) => IterRepr::Pairs(p.iter()),
            Repr::Mixed(m) => IterRepr::Mixed(m.iter()),
        })
    }

    /// The items, mutably, in order.
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        IterMut(match &mut self.0 {
            Repr::Values(v) => IterMutRepr::Values(v.iter_mut()),
            Repr::Pairs(p) => IterMutRepr::Pairs(p.iter_mut()),
            Repr::Mixed(m) => IterMutRepr::Mixed(m.iter_mut()),
        })
    }

    /// The items as a slice of values, when there is no pair (`[]` too).
    pub fn values(&self) -> Option<&[Value]> {
        match &self.0 {
            Repr::Values(v) => Some(v),
            _ => None,
        }
    }

    /// The items as a slice of pairs, when the list is not empty and every
    /// item is a pair (a record).
    pub fn pairs(&self) -> Option<&[Pair]> {
        match &self.0 {
            Repr::Pairs(p) => Some(p),
            _ => None,
        }
    }

    /// The items as stored, for loops that take them straight from the
    /// slice (the encoder's).
    #[inline]
    pub(crate) fn stored(&self) -> Stored<'_> {
        match &self.0 {
            Repr::Values(v) => Stored::Values(v),
            Repr::Pairs(p) => Stored::Pairs(p),
            Repr::Mixed(m) => Stored::Mixed(m),
        }
    }

    /// `true` when every item is a pair (the empty list counts).
    pub fn is_record(&self) -> bool {
        match &self.0 {
            Repr::Values(v) => v.is_empty(),
            Repr::Pairs(_) => true,
            Repr::Mixed(m) => m.iter().all(|i| matches!(i, Item::Pair(_))),
        }
    }

    /// The items as a growable vector of tagged [`Item`]s, converting the
    /// exact-size storage once (so a series of edits is amortized O(1)).
    fn mixed(&mut self) -> &mut Vec<Item> {
        match &mut self.0 {
            Repr::Values(v) => {
                let items = std::mem::take(v).into_vec().into_iter().map(Item::Value);
                self.0 = Repr::Mixed(Box::new(items.collect()));
            }
            Repr::Pairs(p) => {
                let items = std::mem::take(p).into_vec().into_iter().map(Item::Pair);
                self.0 = Repr::Mixed(Box::new(items.collect()));
            }
            Repr::Mixed(_) => {}
        }
        match &mut self.0 {
            Repr::Mixed(m) => m,
            // Just made so.
            _ => unreachable_mixed(),
        }
    }

    /// Appends an item (a [`Value`], a [`Pair`] or an [`Item`]).
    pub fn push(&mut self, item: impl Into<Item>) {
        self.mixed().push(item.into());
    }

    /// Inserts an item at `index`, shifting the later ones; `None` (and
    /// nothing changed) when `index > len`.
    pub fn insert(&mut self, index: usize, item: impl Into<Item>) -> Option<()> {
        if index > self.len() {
            return None;
        }
        self.mixed().insert(index, item.into());
        Some(())
    }

    /// Removes and returns the last item.
    pub fn pop(&mut self) -> Option<Item> {
        self.mixed().pop()
    }

    /// Removes and returns the item at `index`, shifting the later ones.
    pub fn remove(&mut self, index: usize) -> Option<Item> {
        if index >= self.len() {
            return None;
        }
        Some(self.mixed().remove(index))
    }

    /// Keeps the first `len` items.
    pub fn truncate(&mut self, len: usize) {
        if len < self.len() {
            self.mixed().truncate(len);
        }
    }

    /// Removes every item.
    pub fn clear(&mut self) {
        self.truncate(0);
    }

    /// The items as a vector of [`Item`]s.
    pub fn into_vec(self) -> Vec<Item> {
        self.into_iter().collect()
    }

    /// Takes the storage out, leaving an empty list (for moving out of a
    /// type with `Drop`).
    fn take(&mut self) -> Repr {
        std::mem::replace(&mut self.0, Repr::Values(Box::default()))
    }
}

#[cold]
fn unreachable_mixed() -> ! {
    // `List::mixed` has just stored `Repr::Mixed`; this is never reached.
    #[allow(clippy::panic)]
    {
        panic!("list storage is mixed")
    }
}

impl Item {
    /// Borrows this item.
    #[inline]
    pub fn as_item_ref(&self) -> ItemRef<'_> {
        match self {
            Item::Value(v) => ItemRef::Value(v),
            Item::Pair(p) => ItemRef::Pair(p),
        }
    }

    /// Borrows this item mutably.
    pub fn as_item_mut(&mut self) -> ItemMut<'_> {
        match self {
            Item::Value(v) => ItemMut::Value(v),
            Item::Pair(p) => ItemMut::Pair(p),
        }
    }
}

/// The items of a [`List`], borrowed ([`List::iter`]).
#[derive(Clone)]
pub struct Iter<'a>(IterRepr<'a>);

#[derive(Clone)]
enum IterRepr<'a> {
    Values(std::slice::Iter<'a, Value>),
    Pairs(std::slice::Iter<'a, Pair>),
    Mixed(std::slice::Iter<'a, Item>),
}

impl<'a> Iterator for Iter<'a> {
    type Item = ItemRef<'a>;
    #[inline]
    fn next(&mut self) -> Option<ItemRef<'a>> {
        match &mut self.0 {
            IterRepr::Values(i) => i.next().map(ItemRef::Value),
            IterRepr::Pairs(i) => i.next().map(ItemRef::Pair),
            IterRepr::Mixed(i) => i.next().map(Item::as_item_ref),
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.len();
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match &mut self.0 {
            IterRepr::Values(i) => i.next_back().map(ItemRef::Value),
            IterRepr::Pairs(i) => i.next_back().map(ItemRef::Pair),
            IterRepr::Mixed(i) => i.next_back().map(Item::as_item_ref),
        }
    }
}

impl ExactSizeIterator for Iter<'_> {
    fn len(&self) -> usize {
        match &self.0 {
            IterRepr::Values(i) => i.len(),
            IterRepr::Pairs(i) => i.len(),
            IterRepr::Mixed(i) => i.len(),
        }
    }
}

/// The items of a [`List`], mutably borrowed ([`List::iter_mut`]).
pub struct IterMut<'a>(IterMutRepr<'a>);

enum IterMutRepr<'a> {
    Values(std::slice::IterMut<'a, Value>),
    Pairs(std::slice::IterMut<'a, Pair>),
    Mixed(std::slice::IterMut<'a, Item>),
}

impl<'a> Iterator for IterMut<'a> {
    type Item = ItemMut<'a>;
    fn next(&mut self) -> Option<ItemMut<'a>> {
        match &mut self.0 {
            IterMutRepr::Values(i) => i.next().map(ItemMut::Value),
            IterMutRepr::Pairs(i) => i.next().map(ItemMut::Pair),
            IterMutRepr::Mixed(i) => i.next().map(Item::as_item_mut),
        }
    }
}

/// The items of a [`List`], owned (`list.into_iter()`).
pub struct IntoIter(IntoIterRepr);

enum IntoIterRepr {
    Values(std::vec::IntoIter<Value>),
    Pairs(std::vec::IntoIter<Pair>),
    Mixed(std::vec::IntoIter<Item>),
}

impl Iterator for IntoIter {
    type Item = Item;
    fn next(&mut self) -> Option<Item> {
        match &mut self.0 {
            IntoIterRepr::Values(i) => i.next().map(Item::Value),
            IntoIterRepr::Pairs(i) => i.next().map(Item::Pair),
            IntoIterRepr::Mixed(i) => i.next(),
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.0 {
            IntoIterRepr::Values(i) => i.size_hint(),
            IntoIterRepr::Pairs(i) => i.size_hint(),
            IntoIterRepr::Mixed(i) => i.size_hint(),
        }
    }
}

impl ExactSizeIterator for IntoIter {}

impl DoubleEndedIterator for IntoIter {
    fn next_back(&mut self) -> Option<Item> {
        match &mut self.0 {
            IntoIterRepr::Values(i) => i.next_back().map(Item::Value),
            IntoIterRepr::Pairs(i) => i.next_back().map(Item::Pair),
            IntoIterRepr::Mixed(i) => i.next_back(),
        }
    }
}

impl IntoIterator for List {
    type Item = Item;
    type IntoIter = IntoIter;
    fn into_iter(mut self) -> IntoIter {
        IntoIter(match self.take() {
            Repr::Values(v) => IntoIterRepr::Values(v.into_vec().into_iter()),
            Repr::Pairs(p) => IntoIterRepr::Pairs(p.into_vec().into_iter()),
            Repr::Mixed(m) => IntoIterRepr::Mixed(m.into_iter()),
        })
    }
}

impl<'a> IntoIterator for &'a List {
    type Item = ItemRef<'a>;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut List {
    type Item = ItemMut<'a>;
    type IntoIter = IterMut<'a>;
    fn into_iter(self) -> IterMut<'a> {
        self.iter_mut()
    }
}

impl From<Vec<Item>> for List {
    fn from(items: Vec<Item>) -> List {
        let pairs = items.iter().filter(|i| matches!(i, Item::Pair(_))).count();
        let mut items = items;
        List::from_counted(items.drain(..), pairs)
    }
}

impl From<List> for Vec<Item> {
    fn from(list: List) -> Vec<Item> {
        list.into_vec()
    }
}

impl FromIterator<Item> for List {
    fn from_iter<I: IntoIterator<Item = Item>>(iter: I) -> List {
        List::from(iter.into_iter().collect::<Vec<Item>>())
    }
}

impl Extend<Item> for List {
    fn extend<I: IntoIterator<Item = Item>>(&mut self, iter: I) {
        for item in iter {
            self.push(item);
        }
    }
}

impl Drop for List {
    /// A list holding no non-empty list (most lists: the leaves) is freed
    /// by its fields' own drop, which meets only empty lists; others go to
    /// `drop_nested`, which frees nested lists from a heap stack instead
    /// of recursing.
    #[inline]
    fn drop(&mut self) {
        if holds_lists(&self.0) {
            drop_nested(self.take());
        }
    }
}

/// Frees `current` and every list nested in it without recursing: each
/// list's nested lists that hold lists themselves are moved to a stack
/// before it is freed, so what its fields' drop meets are leaves.
#[inline(never)]
fn drop_nested(mut current: Repr) {
    let mut pending: Vec<Repr> = Vec::new();
    loop {
        detach_lists(&mut current, &mut pending);
        drop(current);
        match pending.pop() {
            Some(next) => current = next,
            None => return,
        }
    }
}

/// Whether `v` is a list with a non-empty list directly inside it.
#[inline]
fn is_branch(v: &Value) -> bool {
    matches!(v, Value::List(l) if holds_lists(&l.0))
}

/// Whether a non-empty list stands directly in `items` (as a plain value,
/// a pair key or a pair value).
#[inline(always)]
fn holds_lists(items: &Repr) -> bool {
    let is_list = |v: &Value| matches!(v, Value::List(l) if !l.is_empty());
    match items {
        Repr::Values(values) => values.iter().any(is_list),
        Repr::Pairs(pairs) => pairs.iter().any(|p| is_list(&p.key) || is_list(&p.value)),
        Repr::Mixed(mixed) => mixed.iter().any(|item| match item {
            Item::Value(v) => is_list(v),
            Item::Pair(p) => is_list(&p.key) || is_list(&p.value),
        }),
    }
}

/// Moves the storage of every list directly inside `items` (plain values,
/// pair keys and pair values) that itself holds a non-empty list to
/// `pending`. The leaves stay: dropping `items` frees them without
/// recursing further (see [`holds_lists`]).
fn detach_lists(items: &mut Repr, pending: &mut Vec<Repr>) {
    let mut take = |v: &mut Value| {
        if is_branch(v)
            && let Value::List(l) = v
        {
            pending.push(l.take());
        }
    };
    match items {
        Repr::Values(values) => values.iter_mut().for_each(take),
        Repr::Pairs(pairs) => pairs.iter_mut().for_each(|p| {
            take(&mut p.key);
            take(&mut p.value);
        }),
        Repr::Mixed(mixed) => mixed.iter_mut().for_each(|item| match item {
            Item::Value(v) => take(v),
            Item::Pair(p) => {
                take(&mut p.key);
                take(&mut p.value);
            }
        }),
    }
}

impl Clone for List {
    fn clone(&self) -> List {
        // No depth limit, so `fold` cannot fail.
        fold(self, usize::MAX, &mut Cloner)
            .map_or_else(|_| List::new(), |items| same_storage(self, items))
    }
}

/// Clones bottom-up, into the source list's storage kind.
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
    fn list(&mut self, source: &'a List, items: Vec<Item>) -> Value {
        Value::List(same_storage(source, items))
    }
}

/// `items` (the clones of `source`'s items) stored as `source` stores them.
fn same_storage(source: &List, mut items: Vec<Item>) -> List {
    let pairs = match &source.0 {
        Repr::Values(_) => 0,
        Repr::Pairs(p) => p.len(),
        Repr::Mixed(m) => m.iter().filter(|i| matches!(i, Item::Pair(_))).count(),
    };
    List::from_counted(items.drain(..), pairs)
}

impl PartialEq for List {
    /// Compares list by list from a heap stack: the scalars of a list in a
    /// tight loop, nested lists deferred (the order does not matter for
    /// the answer).
    fn eq(&self, other: &List) -> bool {
        let mut pending: Vec<(&List, &List)> = Vec::new();
        let (mut a, mut b): (&List, &List) = (self, other);
        loop {
            if a.len() != b.len() {
                return false;
            }
            for (x, y) in a.iter().zip(b) {
                let same = match (x, y) {
                    (ItemRef::Value(x), ItemRef::Value(y)) => same_or_later(x, y, &mut pending),
                    (ItemRef::Pair(x), ItemRef::Pair(y)) => {
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
fn same_or_later<'a>(x: &'a Value, y: &'a Value, pending: &mut Vec<(&'a List, &'a List)>) -> bool {
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
    /// compares: equal lists hash alike, whatever their storage.
    fn hash<H: Hasher>(&self, state: &mut H) {
        let mut pending: Vec<&List> = Vec::new();
        let mut list: &List = self;
        loop {
            state.write_usize(list.len());
            for item in list {
                match item {
                    ItemRef::Value(v) => {
                        state.write_u8(0);
                        hash_or_later(v, state, &mut pending);
                    }
                    ItemRef::Pair(p) => {
                        state.write_u8(1);
                        hash_or_later(&p.key, state, &mut pending);
                        hash_or_later(&p.value, state, &mut pending);
                    }
                }
            }
            match pending.pop() {
                Some(next) => list = next,
                None => return,
            }
        }
    }
}

/// Hashes a scalar; a list is marked and deferred to `pending`.
#[inline]
fn hash_or_later<'a, H: Hasher>(v: &'a Value, state: &mut H, pending: &mut Vec<&'a List>) {
    match v {
        Value::List(items) => {
            state.write_u8(u8::MAX);
            pending.push(items);
        }
        scalar => scalar.hash(state),
    }
}

impl fmt::Debug for List {
    /// As the derived `Debug` of nested `Vec<Item>`s and enums would print
    /// it (`{:#?}` included), without recursion.
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
        for event in Walk::new(self) {
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
                    if !first {
                        f.write_str(", ")?;
                    }
                    f.write_str(if item.is_pair() {
                        "Pair(Pair { key: "
                    } else {
                        "Value("
                    })?;
                }
                Event::Item {
                    item: ItemRef::Value(_),
                    ..
                } => {
                    nl(f, indent)?;
                    f.write_str("Value(")?;
                    indent += 1;
                    nl(f, indent)?;
                }
                Event::Item {
                    item: ItemRef::Pair(_),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_sizes() {
        assert_eq!(std::mem::size_of::<List>(), 24);
        assert_eq!(std::mem::size_of::<Value>(), 32);
        assert_eq!(std::mem::size_of::<Pair>(), 64);
    }

    #[test]
    fn storage_follows_the_items_and_equality_does_not() {
        let one = || Value::from(1);
        let pair = || Pair::with_str_key("k", Value::from(2));
        let mut a = List::new();
        a.push(pair());
        assert!(a.pairs().is_none() && a.is_record());
        assert!(List::from(vec![Item::Pair(pair())]).pairs().is_some());
        a.push(one());
        assert!(a.pairs().is_none() && a.values().is_none() && !a.is_record());
        assert_eq!(a.pop(), Some(Item::Value(one())));
        // Mixed storage holding only pairs equals a record.
        assert_eq!(a, List::from_pairs([pair()]));
        let hash = |l: &List| {
            use std::hash::{BuildHasher, BuildHasherDefault};
            BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().hash_one(l)
        };
        assert_eq!(hash(&a), hash(&List::from_pairs([pair()])));
        let mut b = List::from(vec![Item::Value(one()), Item::Pair(pair())]);
        assert_eq!(b.remove(0), Some(Item::Value(one())));
        assert_eq!(b.insert(5, one()), None);
        assert_eq!(b.insert(1, one()), Some(()));
        assert_eq!(b.len(), 2);
        assert_eq!(
            b.iter().map(ItemRef::is_pair).collect::<Vec<_>>(),
            [true, false]
        );
        assert_eq!(b.clone(), b);
        assert_eq!(b.into_vec(), vec![Item::Pair(pair()), Item::Value(one())]);
    }
}
