//! Visiting a value without recursion: [`Walk`] yields a list's contents as
//! a flat sequence of events (for comparing, hashing, printing), [`fold`]
//! builds a result bottom-up (for cloning and converting). Both keep their
//! state on the heap, so nesting depth is bounded by memory, not the stack:
//! use them for your own traversals of values that may be deep.
//!
//! ```
//! use jtoo::walk::{Event, Walk};
//! let v = jtoo::from_str(r#"[1,"k":[Y]]"#).unwrap();
//! let list = v.as_list().unwrap();
//! let (mut leaves, mut depth, mut deepest) = (0, 0, 0);
//! for event in Walk::new(list) {
//!     match event {
//!         Event::Leaf(_) => leaves += 1,
//!         Event::Open(_) => { depth += 1; deepest = deepest.max(depth); }
//!         Event::Close => depth -= 1,
//!         _ => {}
//!     }
//! }
//! assert_eq!((leaves, deepest), (3, 2));
//! ```

use super::list::{ItemRef, Iter};
use super::{List, Pair, Value};
use crate::error::{Error, ErrorKind};

/// One step through a list, in document order.
#[derive(Clone, Copy)]
pub enum Event<'a> {
    /// A value that is not a list.
    Leaf(&'a Value),
    /// A list opens: its items follow, then [`Event::Close`].
    Open(&'a List),
    /// An item begins: its value, or a pair's key, [`Event::Colon`] and
    /// value follow, then [`Event::ItemEnd`].
    Item {
        /// The first item of its list.
        first: bool,
        /// The item (a plain value or a pair).
        item: ItemRef<'a>,
    },
    /// Between a pair's key and its value.
    Colon,
    /// An item ends.
    ItemEnd {
        /// It was a key-value pair.
        pair: bool,
    },
    /// The innermost open list closes.
    Close,
}

/// What is left to visit.
enum Task<'a> {
    /// A whole value.
    Value(&'a Value),
    /// The remaining items of an open list; `inside` is `Some(pair)` while
    /// an item of it is being visited (its end comes next).
    Items {
        items: Iter<'a>,
        first: bool,
        inside: Option<bool>,
    },
    /// A pair's `:`.
    Colon,
}

/// The events of a list and everything in it, without recursion: memory
/// grows with the nesting depth, on the heap.
pub struct Walk<'a> {
    tasks: Vec<Task<'a>>,
    started: Option<&'a List>,
}

impl<'a> Walk<'a> {
    /// The events of the list `items`, from its [`Event::Open`] to its
    /// [`Event::Close`].
    pub fn new(items: &'a List) -> Walk<'a> {
        Walk {
            tasks: Vec::new(),
            started: Some(items),
        }
    }

    fn open(&mut self, items: &'a List) -> Event<'a> {
        self.tasks.push(Task::Items {
            items: items.iter(),
            first: true,
            inside: None,
        });
        Event::Open(items)
    }
}

impl<'a> Iterator for Walk<'a> {
    type Item = Event<'a>;

    fn next(&mut self) -> Option<Event<'a>> {
        if let Some(items) = self.started.take() {
            return Some(self.open(items));
        }
        Some(match self.tasks.pop()? {
            Task::Value(Value::List(items)) => self.open(items),
            Task::Value(leaf) => Event::Leaf(leaf),
            Task::Colon => Event::Colon,
            Task::Items {
                items,
                first,
                inside: Some(pair),
            } => {
                self.tasks.push(Task::Items {
                    items,
                    first,
                    inside: None,
                });
                Event::ItemEnd { pair }
            }
            Task::Items {
                mut items,
                first,
                inside: None,
            } => match items.next() {
                None => Event::Close,
                Some(item) => {
                    let pair = item.is_pair();
                    self.tasks.push(Task::Items {
                        items,
                        first: false,
                        inside: Some(pair),
                    });
                    match item {
                        ItemRef::Value(v) => self.tasks.push(Task::Value(v)),
                        ItemRef::Pair(p) => {
                            self.tasks.push(Task::Value(&p.value));
                            self.tasks.push(Task::Colon);
                            self.tasks.push(Task::Value(&p.key));
                        }
                    }
                    Event::Item { first, item }
                }
            },
        })
    }
}

/// How [`fold`] turns values into results, bottom-up.
pub trait Folder<'a> {
    /// What a value becomes.
    type Out;
    /// What a list item becomes.
    type Item;
    /// A value that is not a list.
    fn leaf(&mut self, v: &'a Value) -> Self::Out;
    /// A plain list item, from its value's result.
    fn value(&mut self, v: Self::Out) -> Self::Item;
    /// A pair item, from its key's and value's results (`pair` is the
    /// original).
    fn pair(&mut self, pair: &'a Pair, key: Self::Out, value: Self::Out) -> Self::Item;
    /// A list, from its items' results in order (`items` is the original).
    fn list(&mut self, items: &'a List, folded: Vec<Self::Item>) -> Self::Out;
}

/// One list being folded: its items, how many are done, their results, and
/// the result of the key of the pair at `next` once it is done.
struct Frame<'a, F: Folder<'a>> {
    items: &'a List,
    next: usize,
    done: Vec<F::Item>,
    key: Option<F::Out>,
}

impl<'a, F: Folder<'a>> Frame<'a, F> {
    fn new(items: &'a List) -> Self {
        Frame {
            items,
            next: 0,
            done: Vec::with_capacity(items.len()),
            key: None,
        }
    }

    /// The value to fold next (the item's value, or its key, or its pair's
    /// value once the key is done), or `None` when the list is done.
    fn target(&self) -> Option<&'a Value> {
        Some(match self.items.get(self.next)? {
            ItemRef::Value(v) => v,
            ItemRef::Pair(p) if self.key.is_none() => p.key(),
            ItemRef::Pair(p) => p.value(),
        })
    }

    /// Takes the result of [`Frame::target`].
    fn accept(&mut self, folder: &mut F, out: F::Out) {
        let item = match self.items.get(self.next) {
            Some(ItemRef::Value(_)) => folder.value(out),
            Some(ItemRef::Pair(p)) => match self.key.take() {
                None => {
                    self.key = Some(out);
                    return;
                }
                Some(key) => folder.pair(p, key, out),
            },
            None => return,
        };
        self.done.push(item);
        self.next += 1;
    }
}

/// Folds the list `root` (depth 1) and everything in it, bottom-up, without
/// recursion; returns the root's item results (the caller makes the root's
/// own result, if it wants one).
///
/// ```
/// use jtoo::walk::{fold, Folder};
/// use jtoo::{List, Pair, Value};
///
/// /// Counts the scalars under each value.
/// struct Count;
/// impl<'a> Folder<'a> for Count {
///     type Out = usize;
///     type Item = usize;
///     fn leaf(&mut self, _: &'a Value) -> usize { 1 }
///     fn value(&mut self, n: usize) -> usize { n }
///     fn pair(&mut self, _: &'a Pair, key: usize, value: usize) -> usize { key + value }
///     fn list(&mut self, _: &'a List, items: Vec<usize>) -> usize { items.iter().sum() }
/// }
///
/// let v = jtoo::from_str(r#"[1,"k":[Y,N],[]]"#).unwrap();
/// let items = fold(v.as_list().unwrap(), 128, &mut Count).unwrap();
/// assert_eq!(items, [1, 3, 0]);
/// // A depth limit: an error before anything deeper is folded.
/// assert!(fold(v.as_list().unwrap(), 1, &mut Count).is_err());
/// ```
///
/// # Errors
/// [`ErrorKind::TooDeep`] when lists nest deeper than `max_depth` (the root
/// counts as one level), before any result is made below that depth.
pub fn fold<'a, F: Folder<'a>>(
    root: &'a List,
    max_depth: usize,
    folder: &mut F,
) -> Result<Vec<F::Item>, Error> {
    if max_depth == 0 {
        return Err(Error::new(ErrorKind::TooDeep(max_depth)));
    }
    let mut stack: Vec<Frame<'a, F>> = vec![Frame::new(root)];
    loop {
        let Some(top) = stack.last_mut() else {
            return Ok(Vec::new());
        };
        match top.target() {
            Some(Value::List(items)) => {
                if stack.len() >= max_depth {
                    return Err(Error::new(ErrorKind::TooDeep(max_depth)));
                }
                stack.push(Frame::new(items));
            }
            Some(leaf) => {
                let out = folder.leaf(leaf);
                top.accept(folder, out);
            }
            None => {
                let Some(done) = stack.pop() else {
                    return Ok(Vec::new());
                };
                let Some(parent) = stack.last_mut() else {
                    return Ok(done.done);
                };
                let out = folder.list(done.items, done.done);
                parent.accept(folder, out);
            }
        }
    }
}

/// How deeply lists nest in `v` (0 for a value that is not a list), without
/// recursion.
pub(crate) fn depth(v: &Value) -> usize {
    let Value::List(items) = v else {
        return 0;
    };
    let (mut open, mut deepest) = (0usize, 0usize);
    for event in Walk::new(items) {
        match event {
            Event::Open(_) => {
                open += 1;
                deepest = deepest.max(open);
            }
            Event::Close => open -= 1,
            _ => {}
        }
    }
    deepest
}
