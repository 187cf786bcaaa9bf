//! Edits that touch only what they change: each one replaces one range of
//! the text with new text and the nodes of that range with the nodes of the
//! new text (parsed on its own), then shifts the offsets after it. Nothing
//! else is parsed again.
//!
//! New scalars are written canonically (jtoo's encoder); a new list is
//! written by the pretty writer, indented as the line it goes on. Inserted
//! items copy the layout of their siblings: one item per line at the
//! siblings' indentation, or on the same line after `, `; a trailing comma
//! stays trailing, a list without one gets none. A removed item takes its
//! comment block and end-of-line comment with it and leaves its neighbours'
//! comments alone.

use std::fmt;
use std::ops::Range;

use jtoo::{Error, ErrorKind, PathItem, Value};

use super::{Document, Entry, Raw, parse};

/// Why an edit of a [`Document`] was refused. A refused edit changes
/// nothing.
///
/// ```
/// let mut doc = htoo::Document::parse(r#"["port": 80]"#)?;
/// let err = doc.set(&jtoo::path!["port", "x"], &1.into()).unwrap_err();
/// assert!(matches!(err, htoo::EditError::NotAList { step: 1 }));
/// assert_eq!(err.to_string(), "step 2 of the path goes into a value that is not a list");
/// assert_eq!(doc.as_str(), r#"["port": 80]"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum EditError {
    /// Step `step` (0-based) of the path names nothing in its list.
    Missing {
        /// Which step.
        step: usize,
    },
    /// Step `step` (0-based) of the path goes into a scalar.
    NotAList {
        /// Which step.
        step: usize,
    },
    /// The edit needs an item (a path of at least one step), and the path
    /// names the document's value.
    Root,
    /// The path names a plain item where a pair is needed (to rename it).
    NotAPair,
    /// An insertion past the end of the list.
    IndexOutOfRange {
        /// The position asked for.
        index: usize,
        /// The number of items in the list.
        len: usize,
    },
    /// The new value or key cannot be written there: it nests deeper than
    /// the document's limit, it is an ambiguous key, or the text would grow
    /// past [`Document::MAX_LEN`].
    Value(Error),
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::Missing { step } => {
                write!(f, "step {} of the path names nothing", step + 1)
            }
            EditError::NotAList { step } => write!(
                f,
                "step {} of the path goes into a value that is not a list",
                step + 1
            ),
            EditError::Root => f.write_str("the path names the document's value, not an item"),
            EditError::NotAPair => f.write_str("the path names a plain item, not a pair"),
            EditError::IndexOutOfRange { index, len } => write!(
                f,
                "position {index} is past the end of a list of {len} items"
            ),
            EditError::Value(e) => write!(f, "the value cannot be written there: {e}"),
        }
    }
}

impl std::error::Error for EditError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EditError::Value(e) => Some(e),
            _ => None,
        }
    }
}

impl From<Error> for EditError {
    fn from(e: Error) -> EditError {
        EditError::Value(e)
    }
}

/// Where a path leads: the lists it goes through (the root first) and the
/// item its last step names (or `None` for the empty path).
pub(crate) struct Located {
    pub(crate) lists: Vec<usize>,
    pub(crate) at: Option<super::At>,
}

/// One piece of new text and where its nodes are.
struct Piece {
    text: String,
    nodes: Vec<Raw>,
}

impl Document {
    /// Follows `path` to the item its last step names, keeping the lists on
    /// the way.
    pub(crate) fn locate(&self, path: &[PathItem<'_>]) -> Result<Located, EditError> {
        let mut node = self.root();
        let mut lists = Vec::with_capacity(path.len());
        let mut at = None;
        for (step, &item) in path.iter().enumerate() {
            if !node.is_list() {
                return Err(EditError::NotAList { step });
            }
            lists.push(node.id());
            let entry = node.find(item).ok_or(EditError::Missing { step })?;
            at = Some(entry.at());
            node = entry.value();
        }
        Ok(Located { lists, at })
    }

    /// Follows `path` to a list (the empty path: the document's value).
    fn locate_list(&self, path: &[PathItem<'_>]) -> Result<(usize, Vec<usize>), EditError> {
        let located = self.locate(path)?;
        let id = located.at.map_or(0, |at| at.value);
        if !self.raw(id).is_list() {
            return Err(EditError::NotAList { step: path.len() });
        }
        let mut lists = located.lists;
        lists.push(id);
        Ok((id, lists))
    }

    /// Replaces the value at `path` with `value`, or, when the last step is
    /// a key that the list it names does not have, appends the pair `key:
    /// value` to that list (as [`Document::push_pair`]).
    ///
    /// A scalar is written canonically; a list pretty, indented as the line
    /// it goes on. Everything else keeps its bytes.
    ///
    /// ```
    /// let mut doc = htoo::Document::parse("[\n  \"port\": 80, // the default\n  \"tls\": N,\n]")?;
    /// doc.set(&jtoo::path!["port"], &8080.into())?;
    /// let hosts = jtoo::Value::from(vec![jtoo::Value::from("a"), "b".into()]);
    /// doc.set(&jtoo::path!["hosts"], &hosts)?;
    /// assert_eq!(doc.as_str(), "[\n  \"port\": 8_080, // the default\n  \"tls\": N,\n  \"hosts\": [\"a\", \"b\"],\n]");
    /// # Ok::<(), htoo::EditError>(())
    /// ```
    ///
    /// # Errors
    /// [`EditError::NotAList`] for a step into a scalar,
    /// [`EditError::Missing`] for a missing position or a missing key that is
    /// not the last step, [`EditError::Value`] for a value nested deeper than
    /// the document's limit allows there.
    pub fn set(&mut self, path: &[PathItem<'_>], value: &Value) -> Result<(), EditError> {
        match self.locate(path) {
            Ok(located) => self.replace_value(located, value),
            Err(EditError::Missing { step }) if step + 1 == path.len() => match path.last() {
                Some(PathItem::Key(key)) => {
                    self.push_pair(&path[..step], &Value::from(*key), value)
                }
                _ => Err(EditError::Missing { step }),
            },
            Err(e) => Err(e),
        }
    }

    /// Replaces the value of the item `located` names (or the document's).
    pub(crate) fn replace_value(
        &mut self,
        located: Located,
        value: &Value,
    ) -> Result<(), EditError> {
        let id = located.at.map_or(0, |at| at.value);
        let raw = self.raw(id);
        let depth = self.max_depth.saturating_sub(located.lists.len());
        let indent = self.indent_at(raw.start as usize);
        let col = self.column_at(raw.start as usize);
        let piece = self.piece(value, indent, col, depth, false)?;
        let flags = raw.flags & super::KEY;
        self.splice(
            raw.span().range(),
            piece,
            0,
            id..id + raw.size as usize,
            &located.lists,
            flags,
        )
    }

    /// Renames the key of the pair at `path` (its last step names the
    /// pair). The new key is written canonically.
    ///
    /// ```
    /// let mut doc = htoo::Document::parse("[\"colour\": \"red\" /* ! */]")?;
    /// doc.rename(&jtoo::path!["colour"], &"color".into())?;
    /// assert_eq!(doc.as_str(), "[\"color\": \"red\" /* ! */]");
    /// # Ok::<(), htoo::EditError>(())
    /// ```
    ///
    /// # Errors
    /// [`EditError::Root`] for the empty path, [`EditError::NotAPair`] for a
    /// plain item, [`EditError::Value`] for an ambiguous key (a time of hour
    /// or minute precision without an offset) or one nested too deep; as
    /// [`Document::set`] for the path.
    pub fn rename(&mut self, path: &[PathItem<'_>], key: &Value) -> Result<(), EditError> {
        let located = self.locate(path)?;
        let at = located.at.ok_or(EditError::Root)?;
        let key_id = at.key.ok_or(EditError::NotAPair)?;
        if key.is_ambiguous_key() {
            return Err(EditError::Value(Error::new(ErrorKind::AmbiguousKey)));
        }
        let raw = self.raw(key_id);
        let depth = self.max_depth.saturating_sub(located.lists.len());
        let piece = self.piece(key, "", 0, depth, true)?;
        self.splice(
            raw.span().range(),
            piece,
            0,
            key_id..key_id + raw.size as usize,
            &located.lists,
            super::KEY,
        )
    }

    /// Appends `value` to the list at `list` (a plain item).
    ///
    /// ```
    /// let mut doc = htoo::Document::parse("[1, 2]")?;
    /// doc.push(&[], &3.into())?;
    /// assert_eq!(doc.as_str(), "[1, 2, 3]");
    /// # Ok::<(), htoo::EditError>(())
    /// ```
    ///
    /// # Errors
    /// As [`Document::insert`].
    pub fn push(&mut self, list: &[PathItem<'_>], value: &Value) -> Result<(), EditError> {
        let (id, lists) = self.locate_list(list)?;
        let len = self.items_of(id).count();
        self.insert_entry(id, &lists, len, None, value)
    }

    /// Appends the pair `key: value` to the list at `list`.
    ///
    /// ```
    /// let mut doc = htoo::Document::parse("[\n  \"a\": 1,\n]")?;
    /// doc.push_pair(&[], &"b".into(), &2.into())?;
    /// assert_eq!(doc.as_str(), "[\n  \"a\": 1,\n  \"b\": 2,\n]");
    /// # Ok::<(), htoo::EditError>(())
    /// ```
    ///
    /// # Errors
    /// As [`Document::insert_pair`].
    pub fn push_pair(
        &mut self,
        list: &[PathItem<'_>],
        key: &Value,
        value: &Value,
    ) -> Result<(), EditError> {
        let (id, lists) = self.locate_list(list)?;
        let len = self.items_of(id).count();
        self.insert_entry(id, &lists, len, Some(key), value)
    }

    /// Inserts `value` as a plain item at position `index` of the list at
    /// `list` (`index` = its length appends), with the layout of its
    /// siblings.
    ///
    /// ```
    /// let mut doc = htoo::Document::parse("[\n  1, // one\n  3,\n]")?;
    /// doc.insert(&[], 1, &2.into())?;
    /// assert_eq!(doc.as_str(), "[\n  1, // one\n  2,\n  3,\n]");
    /// # Ok::<(), htoo::EditError>(())
    /// ```
    ///
    /// # Errors
    /// [`EditError::IndexOutOfRange`] past the end; [`EditError::NotAList`]
    /// when `list` names a scalar; [`EditError::Missing`] when it names
    /// nothing; [`EditError::Value`] for a value nested too deep.
    pub fn insert(
        &mut self,
        list: &[PathItem<'_>],
        index: usize,
        value: &Value,
    ) -> Result<(), EditError> {
        let (id, lists) = self.locate_list(list)?;
        self.insert_entry(id, &lists, index, None, value)
    }

    /// Inserts the pair `key: value` at position `index` of the list at
    /// `list` (see [`Document::insert`]).
    ///
    /// ```
    /// let mut doc = htoo::Document::parse(r#"["b": 2]"#)?;
    /// doc.insert_pair(&[], 0, &"a".into(), &1.into())?;
    /// assert_eq!(doc.as_str(), r#"["a": 1, "b": 2]"#);
    /// # Ok::<(), htoo::EditError>(())
    /// ```
    ///
    /// # Errors
    /// As [`Document::insert`]; [`EditError::Value`] for an ambiguous key.
    pub fn insert_pair(
        &mut self,
        list: &[PathItem<'_>],
        index: usize,
        key: &Value,
        value: &Value,
    ) -> Result<(), EditError> {
        let (id, lists) = self.locate_list(list)?;
        self.insert_entry(id, &lists, index, Some(key), value)
    }

    /// Removes the item at `path` (its last step names it) with the comments
    /// that belong to it: the comment block just above it and its
    /// end-of-line comment. The `,` of a list without a trailing comma goes
    /// with its last item; a list left empty becomes `[]` when nothing but
    /// whitespace remains inside it.
    ///
    /// ```
    /// let mut doc = htoo::Document::parse("[\n  // a\n  \"a\": 1, // one\n  \"b\": 2\n]")?;
    /// doc.remove(&jtoo::path!["b"])?;
    /// assert_eq!(doc.as_str(), "[\n  // a\n  \"a\": 1 // one\n]");
    /// doc.remove(&jtoo::path!["a"])?;
    /// assert_eq!(doc.as_str(), "[]");
    /// # Ok::<(), htoo::EditError>(())
    /// ```
    ///
    /// # Errors
    /// [`EditError::Root`] for the empty path; as [`Document::set`] for the
    /// path.
    pub fn remove(&mut self, path: &[PathItem<'_>]) -> Result<(), EditError> {
        let located = self.locate(path)?;
        let at = located.at.ok_or(EditError::Root)?;
        self.remove_at(at, &located.lists)
    }

    /// Removes the item `at` of list `at.list`; `lists` are the lists it is
    /// in, outermost first.
    pub(crate) fn remove_at(&mut self, at: super::At, lists: &[usize]) -> Result<(), EditError> {
        let entry = Entry { doc: self, at };
        let list = self.raw(at.list);
        let n = self.items_of(at.list).count();
        let span = entry.span();
        let comments = entry.comments().attached;
        let first = comments.leading.map_or(span.start, |s| s.start);
        let gap = entry.gap_before();
        let text = self.text.as_bytes();
        // The item's lines, when it has lines of its own.
        let own_start = self.own_line_start(first, gap.start);
        let own_end = self.own_line_end(entry);
        let comma = entry.comma();
        let item_end = comments
            .trailing
            .map_or(span.end, |t| t.end.max(span.end))
            .max(comma.map_or(0, |c| c + 1));
        let mut cuts: Vec<Range<usize>> = Vec::with_capacity(2);
        let next = self.items_of(at.list).nth(at.index + 1);
        match (own_start, own_end) {
            (Some(s), Some(e)) => cuts.push(s..e),
            _ => match next {
                Some(next) => {
                    let c = next.comments().attached;
                    let next_first = c.leading.map_or(next.span().start, |s| s.start);
                    cuts.push(first..next_first.max(first));
                }
                None => {
                    // Spaces before it on its line go too.
                    let start = own_start.unwrap_or_else(|| {
                        let mut s = first;
                        while s > gap.start && matches!(text.get(s - 1), Some(b' ' | b'\t')) {
                            s -= 1;
                        }
                        s
                    });
                    cuts.push(start..item_end.max(start));
                }
            },
        }
        // The last item of a list without a trailing comma: the `,` before
        // it goes too.
        if next.is_none()
            && comma.is_none()
            && at.index > 0
            && let Some(pc) = self
                .items_of(at.list)
                .nth(at.index - 1)
                .and_then(|p| p.comma())
        {
            cuts.insert(0, pc..pc + 1);
        }
        // A list left with only whitespace inside: `[]`.
        let inner = list.start as usize + 1..(list.end as usize).saturating_sub(1);
        if n == 1 {
            let left_blank = text
                .get(inner.clone())
                .unwrap_or_default()
                .iter()
                .enumerate()
                .all(|(i, b)| {
                    let i = inner.start + i;
                    cuts.iter().any(|c| c.contains(&i)) || matches!(b, b' ' | b'\t' | b'\r' | b'\n')
                });
            if left_blank {
                cuts = vec![inner];
            }
        }
        let (Some(lo), Some(hi)) = (
            cuts.first().map(|c| c.start),
            cuts.iter().map(|c| c.end).max(),
        ) else {
            return Ok(());
        };
        let mut kept = String::new();
        let mut pos = lo;
        for c in &cuts {
            kept.push_str(self.text.get(pos..c.start).unwrap_or_default());
            pos = pos.max(c.end);
        }
        kept.push_str(self.text.get(pos..hi).unwrap_or_default());
        let first_node = at.key.unwrap_or(at.value);
        let last_node = at.value + self.raw(at.value).size as usize;
        let piece = Piece {
            text: kept,
            nodes: Vec::new(),
        };
        self.splice(lo..hi, piece, 0, first_node..last_node, lists, 0)
    }

    /// Inserts an item (a pair when `key` is given) at `index` of list `id`.
    pub(crate) fn insert_entry(
        &mut self,
        id: usize,
        lists: &[usize],
        index: usize,
        key: Option<&Value>,
        value: &Value,
    ) -> Result<(), EditError> {
        let entries: Vec<super::At> = self.items_of(id).map(|e| e.at()).collect();
        let n = entries.len();
        if index > n {
            return Err(EditError::IndexOutOfRange { index, len: n });
        }
        if key.is_some_and(Value::is_ambiguous_key) {
            return Err(EditError::Value(Error::new(ErrorKind::AmbiguousKey)));
        }
        let list = self.raw(id);
        let depth = self.max_depth.saturating_sub(lists.len());
        let text = self.text.as_bytes();
        let entry = |at: super::At| Entry { doc: self, at };
        // The sibling whose layout the new item copies.
        let sibling = entries.get(index).or_else(|| entries.last()).copied();
        let line_mode = sibling.is_some_and(|s| {
            let e = entry(s);
            let gap = e.gap_before();
            text.get(gap.range()).is_some_and(|g| g.contains(&b'\n'))
        });
        let space = self.comma_space(&entries);
        let colon = self.colon_style(&entries);
        let indent = match sibling {
            Some(s) => self.indent_at(entry(s).span().start).to_owned(),
            None => {
                let mut i = self.indent_at(list.start as usize).to_owned();
                i.push_str("  ");
                i
            }
        };
        // The item's text, its nodes' offset within it.
        let item = |doc: &Document, col: usize| -> Result<(String, Vec<Raw>), EditError> {
            let mut out = String::new();
            let mut nodes = Vec::new();
            if let Some(k) = key {
                let p = doc.piece(k, &indent, 0, depth, true)?;
                nodes.extend_from_slice(&p.nodes);
                if let Some(root) = nodes.first_mut() {
                    root.flags |= super::KEY;
                }
                out.push_str(&p.text);
                out.push_str(colon);
            }
            let col = col + out.chars().count();
            let p = doc.piece(value, &indent, col, depth, false)?;
            let at = out.len();
            nodes.extend(p.nodes.iter().map(|r| shift(*r, at as i64)));
            out.push_str(&p.text);
            Ok((out, nodes))
        };
        // Where the new nodes go: before the nodes of item `index`, or
        // after the list's last node.
        let node_at = entries
            .get(index)
            .map_or(id + list.size as usize, |e| e.key.unwrap_or(e.value));
        let (range, before, after) = if n == 0 {
            let inner = list.start as usize + 1..(list.end as usize).saturating_sub(1);
            let blank = text
                .get(inner.clone())
                .is_some_and(|g| g.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n')));
            if blank {
                (inner, String::new(), String::new())
            } else {
                // Comments inside: the item goes on a line of its own
                // before the `]`.
                let close = inner.end;
                let ls = self.line_start(close);
                if ls > inner.start && self.is_blank(ls..close) {
                    (ls..ls, indent.clone(), ",\n".to_owned())
                } else {
                    (close..close, format!("\n{indent}"), ",\n".to_owned())
                }
            }
        } else if let Some(&next) = entries.get(index) {
            let e = entry(next);
            let first = e
                .comments()
                .attached
                .leading
                .map_or(e.span().start, |s| s.start);
            match self.own_line_start(first, e.gap_before().start) {
                Some(ls) if line_mode => (ls..ls, indent.clone(), ",\n".to_owned()),
                _ => (first..first, String::new(), format!(",{space}")),
            }
        } else {
            // Append after the last item.
            let last = entries[n - 1];
            let e = entry(last);
            let comma = e.comma();
            let close = (list.end as usize).saturating_sub(1);
            let ls = self.line_start(close);
            let end = e.span().end;
            if line_mode && ls > end && self.is_blank(ls..close) {
                match comma {
                    Some(_) => (ls..ls, indent.clone(), ",\n".to_owned()),
                    None => {
                        // Add the `,` the last item now needs, right after
                        // it; the text up to the new line stays.
                        let mid = self.text.get(end..ls).unwrap_or_default();
                        (end..ls, format!(",{mid}{indent}"), "\n".to_owned())
                    }
                }
            } else {
                match comma {
                    Some(c) if line_mode => (c + 1..c + 1, format!("\n{indent}"), ",".to_owned()),
                    Some(c) => (c + 1..c + 1, space.to_owned(), ",".to_owned()),
                    None if line_mode => (end..end, format!(",\n{indent}"), String::new()),
                    None => (end..end, format!(",{space}"), String::new()),
                }
            }
        };
        let col = match before.rfind('\n') {
            Some(nl) => before[nl + 1..].chars().count(),
            None => self.column_at(range.start) + before.chars().count(),
        };
        let (item_text, item_nodes) = item(self, col)?;
        let mut text = before;
        let offset = text.len();
        text.push_str(&item_text);
        text.push_str(&after);
        let piece = Piece {
            text,
            nodes: item_nodes,
        };
        let lists_owned = lists.to_vec();
        self.splice(range, piece, offset, node_at..node_at, &lists_owned, 0)
    }

    /// The text and nodes of `value` written where a value starting on a
    /// line indented by `indent` goes, within `depth` more list levels.
    fn piece(
        &self,
        value: &Value,
        indent: &str,
        col: usize,
        depth: usize,
        one_line: bool,
    ) -> Result<Piece, EditError> {
        if value.depth() > depth {
            return Err(EditError::Value(Error::new(ErrorKind::TooDeep(depth))));
        }
        let text = match value {
            Value::List(_) if !one_line => {
                // The pretty writer lays a list out from column 0; it
                // starts at `col` here.
                let width = crate::PrettyConfig::new().max_width().saturating_sub(col);
                let config = crate::PrettyConfig::new().with_max_width(width);
                let pretty = crate::to_string_pretty_with(value, &config);
                if pretty.contains('\n') && !indent.is_empty() {
                    pretty.replace('\n', &format!("\n{indent}"))
                } else {
                    pretty
                }
            }
            _ => jtoo::to_string(value)?,
        };
        let nodes = parse::nodes(text.as_bytes(), depth).map_err(|e| {
            EditError::Value(
                crate::Options::new()
                    .with_max_depth(depth)
                    .from_str(&text)
                    .err()
                    .unwrap_or_else(|| e.into_error(text.as_bytes())),
            )
        })?;
        Ok(Piece { text, nodes })
    }

    /// Replaces `range` of the text with `piece.text` and the nodes
    /// `old_nodes` with the piece's nodes (their offsets are relative to
    /// `offset` bytes into the piece's text); `lists` are the lists that
    /// hold the range. `flags` are added to the piece's first node.
    fn splice(
        &mut self,
        range: Range<usize>,
        piece: Piece,
        offset: usize,
        old_nodes: Range<usize>,
        lists: &[usize],
        flags: u8,
    ) -> Result<(), EditError> {
        let Piece { text, mut nodes } = piece;
        let new_len = self.text.len() - range.len() + text.len();
        if new_len > Document::MAX_LEN {
            return Err(EditError::Value(Error::new(ErrorKind::TokenTooLong(
                Document::MAX_LEN,
            ))));
        }
        let delta = text.len() as i64 - range.len() as i64;
        let base = (range.start + offset) as i64;
        for r in &mut nodes {
            *r = shift(*r, base);
        }
        if let Some(first) = nodes.first_mut() {
            first.flags |= flags;
        }
        let added = nodes.len();
        let removed = old_nodes.len();
        self.text.replace_range(range, &text);
        let old_start = old_nodes.start;
        self.nodes.splice(old_nodes, nodes);
        for r in self.nodes.iter_mut().skip(old_start + added) {
            *r = shift(*r, delta);
        }
        for &l in lists {
            if let Some(r) = self.nodes.get_mut(l) {
                r.end = (r.end as i64 + delta) as u32;
                r.size = (r.size as i64 + added as i64 - removed as i64) as u32;
            }
        }
        Ok(())
    }

    /// The start of the line holding `pos`.
    pub(crate) fn line_start(&self, pos: usize) -> usize {
        let before = self.text.as_bytes().get(..pos).unwrap_or_default();
        memchr::memrchr(b'\n', before).map_or(0, |i| i + 1)
    }

    /// The spaces and tabs that start the line holding `pos`.
    pub(crate) fn indent_at(&self, pos: usize) -> &str {
        let ls = self.line_start(pos);
        let line = self.text.get(ls..).unwrap_or_default();
        let n = line
            .bytes()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count()
            .min(pos.saturating_sub(ls));
        line.get(..n).unwrap_or_default()
    }

    /// The number of characters between the start of the line holding
    /// `pos` and `pos`.
    fn column_at(&self, pos: usize) -> usize {
        let ls = self.line_start(pos);
        self.text.get(ls..pos).map_or(0, |t| t.chars().count())
    }

    /// `true` when `range` holds only spaces, tabs and CRs.
    fn is_blank(&self, range: Range<usize>) -> bool {
        self.text
            .as_bytes()
            .get(range)
            .is_some_and(|g| g.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r')))
    }

    /// Where the line of an item whose first byte (comments included) is
    /// `first` starts, when nothing but indentation precedes it on that line
    /// and the line starts inside the gap before it (which starts at
    /// `gap_start`).
    fn own_line_start(&self, first: usize, gap_start: usize) -> Option<usize> {
        let ls = self.line_start(first);
        (ls > gap_start && self.is_blank(ls..first)).then_some(ls)
    }

    /// After the line feed that ends the item's last line, when only its
    /// `,` and comments follow it on that line.
    fn own_line_end(&self, entry: Entry<'_>) -> Option<usize> {
        let gap = entry.gap_after();
        let mut comma = false;
        for t in self.trivia(gap.range()) {
            match t.kind {
                // A `,` on a later line: the item's lines do not hold it.
                super::TriviaKind::Newline if !comma && entry.comma().is_some() => return None,
                super::TriviaKind::Newline => return Some(t.span.end),
                super::TriviaKind::Comma => comma = true,
                super::TriviaKind::Colon => return None,
                _ => {}
            }
        }
        None
    }

    /// What follows the `,` between two items on one line: copied from the
    /// list (the first such gap of spaces only), else one space.
    fn comma_space(&self, entries: &[super::At]) -> &'static str {
        for pair in entries.windows(2) {
            let e = Entry {
                doc: self,
                at: pair[0],
            };
            if let Some(c) = e.comma() {
                let next = Entry {
                    doc: self,
                    at: pair[1],
                };
                let gap = self.text.get(c + 1..next.span().start).unwrap_or_default();
                if gap.is_empty() {
                    return "";
                }
                if gap == " " {
                    return " ";
                }
            }
        }
        " "
    }

    /// The `:` of a pair with the spacing of the list's first pair without
    /// comments around its `:`, else `": "`.
    fn colon_style(&self, entries: &[super::At]) -> &'static str {
        for &at in entries {
            let Some(key) = at.key else { continue };
            let from = self.raw(key).end as usize;
            let to = self.raw(at.value).start as usize;
            match self.text.get(from..to) {
                Some(":") => return ":",
                Some(": ") => return ": ",
                Some(" : ") => return " : ",
                _ => {}
            }
        }
        ": "
    }
}

/// `r` with its offsets moved by `by` bytes.
fn shift(mut r: Raw, by: i64) -> Raw {
    r.start = (r.start as i64 + by) as u32;
    r.end = (r.end as i64 + by) as u32;
    r
}
