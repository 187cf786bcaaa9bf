//! Lossless HTOO documents: [`Document`] keeps every byte of the text it was
//! parsed from (comments, whitespace, trailing commas, the spelling of every
//! number and string) and knows where each value is.
//!
//! # How it is stored
//!
//! The text is kept whole, in one `String`; the tree is an index into it: one
//! small node per value (its start and end offsets and the size of its
//! subtree, 16 bytes), in document order. Nothing else is stored: the
//! whitespace, comments, `,` and `:` between values are the bytes between
//! where one value ends and the next begins, read back from the text when
//! asked for ([`Document::trivia`]). Printing is therefore the text itself,
//! and an edit splices the text and shifts the offsets after it, without
//! parsing anything but the new piece.
//!
//! The parser is jtoo's: the lossless walk runs the list steps of
//! `jtoo::parse::cursor` and the scalar productions the validator runs, and
//! an input it refuses gets the error [`crate::from_slice`] gives, so the two
//! cannot disagree on what is HTOO.
//!
//! # Walking the tree
//!
//! [`Document::root`] is the document's value, a [`Node`]. A list's
//! [`Node::entries`] are [`Entry`]s: a plain value, or a pair with a key
//! ([`Entry::key`]) and a value ([`Entry::value`]), both [`Node`]s. The text
//! around them is trivia: between the `[` and the first item, between an
//! item and the next (its `,`: [`Entry::comma`]), inside a pair around its
//! `:` ([`Entry::colon`]), and from the last item to the `]`.
//! [`Document::trivia`] splits any such range into [`Trivia`] pieces.
//!
//! ```
//! use htoo::{Document, TriviaKind};
//! let doc = Document::parse("[\n  // the port\n  \"port\": 8080, // default\n]\n")?;
//! let item = doc.root().entry(0).unwrap();
//! assert_eq!(item.key().unwrap().as_str(), "\"port\"");
//! assert_eq!(item.value().as_str(), "8080");
//! let comments = item.comments();
//! assert_eq!(comments.leading(), Some("// the port"));
//! assert_eq!(comments.trailing(), Some("// default"));
//! // The trivia between the `[` and the item.
//! let before = item.gap_before();
//! let kinds: Vec<_> = doc.trivia(before.range()).map(|t| t.kind).collect();
//! assert_eq!(kinds, [
//!     TriviaKind::Newline, TriviaKind::Whitespace, TriviaKind::LineComment,
//!     TriviaKind::Newline, TriviaKind::Whitespace,
//! ]);
//! # Ok::<(), htoo::Error>(())
//! ```

mod edit;
mod format;
mod parse;
mod trivia;
mod update;

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use jtoo::parse::{Syntax, ws};
use jtoo::{Error, ErrorKind, PathItem, Position, Value, ValueKind};

use crate::Options;

pub use edit::EditError;
pub use format::{format, format_slice};
pub use trivia::{Trivia, TriviaIter, TriviaKind};

/// The node is a list (else a scalar).
pub(crate) const LIST: u8 = 1;
/// The node is the key of a pair (its next sibling is the pair's value).
pub(crate) const KEY: u8 = 2;

/// One value in the text: where it starts and ends, and how many nodes its
/// subtree has (itself included), so that its next sibling is `size` nodes
/// on. Offsets are `u32`: a [`Document`] holds less than 4 GiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Raw {
    pub(crate) start: u32,
    pub(crate) end: u32,
    pub(crate) size: u32,
    pub(crate) flags: u8,
}

impl Raw {
    fn new(start: usize, end: usize, flags: u8) -> Raw {
        Raw {
            start: start as u32,
            end: end as u32,
            size: 1,
            flags,
        }
    }

    pub(crate) fn span(&self) -> Span {
        Span::new(self.start as usize, self.end as usize)
    }

    pub(crate) fn is_list(&self) -> bool {
        self.flags & LIST != 0
    }

    pub(crate) fn is_key(&self) -> bool {
        self.flags & KEY != 0
    }
}

/// A byte range of a document's text: `start..end`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// The offset of the first byte.
    pub start: usize,
    /// The offset after the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// As a `Range`, to slice the text with.
    pub const fn range(&self) -> Range<usize> {
        self.start..self.end
    }

    /// The number of bytes.
    pub const fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }

    /// `true` when the span holds no byte.
    pub const fn is_empty(&self) -> bool {
        self.end <= self.start
    }
}

impl From<Span> for Range<usize> {
    fn from(s: Span) -> Range<usize> {
        s.range()
    }
}

/// An HTOO document that keeps every byte of its text, with a tree of its
/// values to navigate, read and edit.
///
/// - [`Document::parse`] accepts exactly what [`crate::from_str`] accepts,
///   and refuses the rest with the same error;
/// - `to_string()` ([`fmt::Display`]) and [`Document::as_str`] give the text
///   back byte for byte;
/// - [`Document::value`] is the value [`crate::from_str`] reads from it;
/// - [`Document::get`] follows a path of keys and positions to a [`Node`],
///   which knows its [`Span`], its line and column, and its comments.
///
/// ```
/// use htoo::Document;
/// let text = "[\n  \"name\": \"api\",  // the service\n  \"port\": 8080,\n]\n";
/// let doc: Document = text.parse()?;
/// assert_eq!(doc.to_string(), text);
/// assert_eq!(doc.value(), htoo::from_str(text)?);
/// let port = doc.get(&jtoo::path!["port"]).unwrap();
/// assert_eq!(port.as_str(), "8080");
/// assert_eq!(port.value(), jtoo::Value::from(8080));
/// let p = port.start_position();
/// assert_eq!((p.line, p.column), (3, 11));
/// assert_eq!(doc.get(&jtoo::path!["name"]).unwrap().comments().trailing(), Some("// the service"));
/// # Ok::<(), htoo::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Document {
    /// The whole text.
    pub(crate) text: String,
    /// The values, in document order; `nodes[0]` is the document's value.
    pub(crate) nodes: Vec<Raw>,
    /// The depth limit the text was checked with (edits keep to it).
    pub(crate) max_depth: usize,
}

impl fmt::Debug for Document {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Document")
            .field("text", &self.text)
            .field("nodes", &self.nodes.len())
            .finish()
    }
}

impl fmt::Display for Document {
    /// The text, byte for byte.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl FromStr for Document {
    type Err = Error;

    /// As [`Document::parse`].
    fn from_str(text: &str) -> Result<Document, Error> {
        Document::parse(text)
    }
}

impl Document {
    /// The largest text a `Document` holds: offsets are stored as `u32`.
    pub const MAX_LEN: usize = u32::MAX as usize;

    /// Parses HTOO text into a document (depth limit 128).
    ///
    /// ```
    /// let doc = htoo::Document::parse("[1, 2,] // two")?;
    /// assert_eq!(doc.as_str(), "[1, 2,] // two");
    /// let err = htoo::Document::parse("[1 2]").unwrap_err();
    /// assert_eq!(err.to_string(), htoo::from_str("[1 2]").unwrap_err().to_string());
    /// # Ok::<(), htoo::Error>(())
    /// ```
    ///
    /// # Errors
    /// Exactly the error [`crate::from_str`] gives for the text; a text
    /// longer than [`Document::MAX_LEN`] is refused with
    /// [`ErrorKind::TokenTooLong`].
    pub fn parse(text: &str) -> Result<Document, Error> {
        Document::parse_with(text, &Options::new())
    }

    /// [`Document::parse`] with [`Options`] (the depth limit).
    ///
    /// ```
    /// let opts = htoo::Options::new().with_max_depth(1);
    /// assert!(htoo::Document::parse_with("[[1]]", &opts).is_err());
    /// ```
    ///
    /// # Errors
    /// As [`Document::parse`], with the options' limit.
    pub fn parse_with(text: &str, options: &Options) -> Result<Document, Error> {
        Document::build(text.as_bytes(), options).map(|(nodes, max_depth)| Document {
            text: text.to_owned(),
            nodes,
            max_depth,
        })
    }

    /// Parses HTOO bytes (UTF-8) into a document.
    ///
    /// ```
    /// let doc = htoo::Document::from_slice(b"[\"a\": 1]")?;
    /// assert_eq!(doc.root().get("a").unwrap().as_str(), "1");
    /// let err = htoo::Document::from_slice(b"\"\xff\"").unwrap_err();
    /// assert_eq!(err.to_string(), htoo::from_slice(b"\"\xff\"").unwrap_err().to_string());
    /// # Ok::<(), htoo::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Document::parse`] (an input that is not UTF-8 is not HTOO).
    pub fn from_slice(input: &[u8]) -> Result<Document, Error> {
        Document::from_slice_with(input, &Options::new())
    }

    /// [`Document::from_slice`] with [`Options`].
    ///
    /// # Errors
    /// As [`Document::parse_with`].
    pub fn from_slice_with(input: &[u8], options: &Options) -> Result<Document, Error> {
        let (nodes, max_depth) = Document::build(input, options)?;
        // Checked text is UTF-8 (strings and comments were checked, the rest
        // is ASCII); the check here is the conversion's.
        let text = std::str::from_utf8(input)
            .map_err(|e| Error::at(ErrorKind::InvalidUtf8, input, e.valid_up_to()))?;
        Ok(Document {
            text: text.to_owned(),
            nodes,
            max_depth,
        })
    }

    /// Parses `input` into nodes; on any failure, the fast parser's error.
    fn build(input: &[u8], options: &Options) -> Result<(Vec<Raw>, usize), Error> {
        let max_depth = options.max_depth();
        if input.len() > Document::MAX_LEN {
            return Err(Error::at(
                ErrorKind::TokenTooLong(Document::MAX_LEN),
                input,
                Document::MAX_LEN,
            ));
        }
        match parse::nodes(input, max_depth) {
            Ok(nodes) => Ok((nodes, max_depth)),
            // The fast parser reads the same productions, so it refuses the
            // input too, with the error `from_slice` users know.
            Err(e) => Err(options
                .from_slice(input)
                .err()
                .unwrap_or_else(|| e.into_error(input))),
        }
    }

    /// The text, byte for byte (as `to_string()`, without a copy).
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The text, byte for byte.
    pub fn into_string(self) -> String {
        self.text
    }

    /// The depth limit the document was parsed with; edits keep to it.
    pub fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// The value of the whole document, as [`crate::from_str`] reads the
    /// text.
    ///
    /// ```
    /// let doc = htoo::Document::parse("[\"a\": 1000, /* b */ \"b\": 0.50]")?;
    /// assert_eq!(jtoo::to_string(&doc.value())?, r#"["a":1_000,"b":0.5]"#);
    /// # Ok::<(), htoo::Error>(())
    /// ```
    pub fn value(&self) -> Value {
        // The text is valid HTOO within the depth limit (parsed, and every
        // edit is checked), so this never fails.
        Options::new()
            .with_max_depth(self.max_depth)
            .from_str(&self.text)
            .unwrap_or_else(|_| Value::List(jtoo::List::new()))
    }

    /// The document's value.
    pub fn root(&self) -> Node<'_> {
        Node {
            doc: self,
            id: 0,
            item: None,
        }
    }

    /// The value at `path` (keys and positions, as [`jtoo::get`] and
    /// [`jtoo::ValueRef::path`] follow them), or `None` when the path names
    /// nothing. An empty path is the document's value.
    ///
    /// ```
    /// let doc = htoo::Document::parse(r#"["hosts": ["a", "b"], "hosts": 1]"#)?;
    /// let b = doc.get(&jtoo::path!["hosts", 1]).unwrap();
    /// assert_eq!((b.as_str(), b.span().range()), ("\"b\"", 16..19));
    /// assert!(doc.get(&jtoo::path!["hosts", 2]).is_none());
    /// assert!(doc.get(&jtoo::path!["hosts", 0, 0]).is_none()); // into a scalar
    /// # Ok::<(), htoo::Error>(())
    /// ```
    pub fn get(&self, path: &[PathItem<'_>]) -> Option<Node<'_>> {
        self.root().path(path)
    }

    /// The line and column (1-based, columns in characters, as in
    /// [`jtoo::Error`]) of byte `offset` of the text.
    pub fn position(&self, offset: usize) -> Position {
        Position::of(self.text.as_bytes(), offset)
    }

    /// The trivia in `range` of the text, split into pieces: whitespace,
    /// newlines, comments, `,` and `:`. `range` should lie between values
    /// (see [`Entry::gap_before`], [`Entry::gap_after`], [`Entry::colon`]);
    /// anything else in it is reported as one [`TriviaKind::Whitespace`]
    /// piece to the end of the range.
    pub fn trivia(&self, range: Range<usize>) -> TriviaIter<'_> {
        TriviaIter::new(&self.text, range.start, range.end)
    }

    /// The text between the start of the document and its value.
    pub fn leading_trivia(&self) -> Span {
        Span::new(0, self.raw(0).start as usize)
    }

    /// The text between the document's value and the end.
    pub fn trailing_trivia(&self) -> Span {
        Span::new(self.raw(0).end as usize, self.text.len())
    }

    /// Node `id` (the root if out of range, which never happens).
    pub(crate) fn raw(&self, id: usize) -> Raw {
        self.nodes
            .get(id)
            .or_else(|| self.nodes.first())
            .copied()
            .unwrap_or(Raw::new(0, 0, 0))
    }

    /// The offset after the trivia at `from` (the next `,`, `:`, `]` or value).
    pub(crate) fn skip_trivia(&self, from: usize) -> usize {
        let rest = self.text.as_bytes().get(from..).unwrap_or_default();
        match ws::skip(rest, Syntax::Lenient) {
            Ok((r, ())) => self.text.len() - r.len(),
            Err(_) => from,
        }
    }

    /// The items of list node `list`, in order.
    pub(crate) fn items_of(&self, list: usize) -> Entries<'_> {
        let raw = self.raw(list);
        let (next, end) = if raw.is_list() {
            (list + 1, list + raw.size as usize)
        } else {
            (list, list)
        };
        Entries {
            doc: self,
            list,
            next,
            end,
            index: 0,
            gap_start: raw.start as usize + 1,
        }
    }
}

/// Where an item is: its list, its position, its key and value nodes, and
/// where the gap before it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct At {
    pub(crate) list: usize,
    pub(crate) index: usize,
    pub(crate) key: Option<usize>,
    pub(crate) value: usize,
    pub(crate) gap_start: usize,
}

/// One value of a [`Document`]: a scalar or a list, with its place in the
/// text. Made by [`Document::root`], [`Document::get`] and navigation.
///
/// ```
/// let doc = htoo::Document::parse("[1, [2.50, B4F]]")?;
/// let inner = doc.root().index(1).unwrap();
/// assert_eq!(inner.kind(), jtoo::ValueKind::List);
/// let values: Vec<&str> = inner.entries().map(|i| i.value().as_str()).collect();
/// assert_eq!(values, ["2.50", "B4F"]);
/// # Ok::<(), htoo::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Node<'d> {
    doc: &'d Document,
    id: usize,
    /// The item the node is the value or key of (`None` for the root).
    item: Option<At>,
}

impl PartialEq for Node<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.doc, other.doc) && self.id == other.id
    }
}

impl Eq for Node<'_> {}

impl<'d> Node<'d> {
    fn raw(&self) -> Raw {
        self.doc.raw(self.id)
    }

    /// The document this node is in.
    pub fn document(&self) -> &'d Document {
        self.doc
    }

    /// The node's index in the document's node list (document order; the
    /// root is 0). Changes when the document is edited.
    pub fn id(&self) -> usize {
        self.id
    }

    /// Where the value is in the text: from its first byte (a list's `[`)
    /// to after its last (a list's `]`).
    pub fn span(&self) -> Span {
        self.raw().span()
    }

    /// The line and column of the value's first byte.
    pub fn start_position(&self) -> Position {
        self.doc.position(self.raw().start as usize)
    }

    /// The line and column just after the value's last byte.
    pub fn end_position(&self) -> Position {
        self.doc.position(self.raw().end as usize)
    }

    /// The value's text as written (a list's with everything inside it).
    pub fn as_str(&self) -> &'d str {
        self.doc.text.get(self.span().range()).unwrap_or_default()
    }

    /// `true` for a list.
    pub fn is_list(&self) -> bool {
        self.raw().is_list()
    }

    /// `true` when this node is the key of a pair.
    pub fn is_key(&self) -> bool {
        self.raw().is_key()
    }

    /// What kind of value this is.
    pub fn kind(&self) -> ValueKind {
        let text = self.as_str().as_bytes();
        match text.first() {
            Some(b'[') => ValueKind::List,
            Some(b'"') => ValueKind::String,
            Some(b'B') => ValueKind::Bytes,
            Some(b'Y' | b'N') => ValueKind::Bool,
            Some(b'D' | b'T') => ValueKind::DateTime,
            Some(b'S') => ValueKind::Timestamp,
            _ if text.contains(&b'.') => ValueKind::Decimal,
            _ => ValueKind::Integer,
        }
    }

    /// The value, as the parser reads its text.
    ///
    /// ```
    /// let doc = htoo::Document::parse("[\"a\": [1000, \"x\\ty\"]]")?;
    /// let a = doc.get(&jtoo::path!["a"]).unwrap();
    /// assert_eq!(a.value().to_string(), r#"[1_000,"x\09y"]"#);
    /// # Ok::<(), htoo::Error>(())
    /// ```
    pub fn value(&self) -> Value {
        let text = self.as_str().as_bytes();
        jtoo::parse::list::value(text, Syntax::Lenient, self.doc.max_depth)
            .map_or_else(|_| Value::List(jtoo::List::new()), |(_, v)| v)
    }

    /// For a string, its value (escapes read); `None` for anything else.
    pub fn as_string(&self) -> Option<std::borrow::Cow<'d, str>> {
        let text = self.as_str();
        if !text.starts_with('"') {
            return None;
        }
        if !text.contains('\\') {
            return text.get(1..text.len() - 1).map(std::borrow::Cow::Borrowed);
        }
        jtoo::parse::string::string(text.as_bytes(), Syntax::Lenient)
            .ok()
            .map(|(_, s)| s)
    }

    /// `true` when this is a string whose value is `key`.
    pub(crate) fn is_string(&self, key: &str) -> bool {
        let text = self.as_str();
        if !text.starts_with('"') {
            return false;
        }
        if !text.contains('\\') {
            return text.get(1..text.len() - 1) == Some(key);
        }
        self.as_string().is_some_and(|s| s == key)
    }

    /// The items of a list, in order (none for a scalar).
    pub fn entries(&self) -> Entries<'d> {
        self.doc.items_of(self.id)
    }

    /// The number of items of a list (0 for a scalar); counts them.
    pub fn len(&self) -> usize {
        self.entries().count()
    }

    /// `true` for an empty list or a scalar.
    pub fn is_empty(&self) -> bool {
        self.entries().next().is_none()
    }

    /// The item at `index` of a list.
    pub fn entry(&self, index: usize) -> Option<Entry<'d>> {
        self.entries().nth(index)
    }

    /// The value of the first pair whose key is the string `key` (as
    /// [`Value::get`] finds it).
    pub fn get(&self, key: &str) -> Option<Node<'d>> {
        self.entries()
            .find(|i| i.key().is_some_and(|k| k.is_string(key)))
            .map(|i| i.value())
    }

    /// The value of the item at `index` (a pair's value for a pair).
    pub fn index(&self, index: usize) -> Option<Node<'d>> {
        self.entry(index).map(|i| i.value())
    }

    /// The item a path step names in this list.
    pub fn find(&self, step: PathItem<'_>) -> Option<Entry<'d>> {
        match step {
            PathItem::Key(key) => self
                .entries()
                .find(|i| i.key().is_some_and(|k| k.is_string(key))),
            PathItem::Index(n) => self.entry(n),
        }
    }

    /// Follows `path` from this value (see [`Document::get`]).
    pub fn path(&self, path: &[PathItem<'_>]) -> Option<Node<'d>> {
        let mut node = *self;
        for &step in path {
            node = node.find(step)?.value();
        }
        Some(node)
    }

    /// The item this node is the value or the key of (`None` for the
    /// document's value).
    pub fn parent_entry(&self) -> Option<Entry<'d>> {
        self.item.map(|at| Entry { doc: self.doc, at })
    }

    /// The comments attached to this value: those of its item (see
    /// [`Entry::comments`]), or for the document's value the comment block
    /// above it and the comments after it on its last line.
    pub fn comments(&self) -> Comments<'d> {
        match self.parent_entry() {
            Some(item) => item.comments(),
            None => {
                let span = self.span();
                let a = trivia::attached(
                    &self.doc.text,
                    Span::new(0, span.start),
                    span,
                    Span::new(span.end, self.doc.text.len()),
                );
                Comments {
                    doc: self.doc,
                    attached: a,
                }
            }
        }
    }
}

/// One item of a list in a [`Document`]: a plain value or a `key: value`
/// pair, with the trivia around it.
///
/// ```
/// let doc = htoo::Document::parse("[\"a\" : 1 , 2]")?;
/// let a = doc.root().entry(0).unwrap();
/// assert_eq!(a.span().range(), 1..8);
/// assert_eq!((a.colon(), a.comma()), (Some(5), Some(9)));
/// let two = doc.root().entry(1).unwrap();
/// assert!(two.key().is_none() && two.comma().is_none());
/// # Ok::<(), htoo::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Entry<'d> {
    doc: &'d Document,
    at: At,
}

impl PartialEq for Entry<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.doc, other.doc) && self.at == other.at
    }
}

impl Eq for Entry<'_> {}

impl<'d> Entry<'d> {
    pub(crate) fn at(&self) -> At {
        self.at
    }

    /// The position of the item in its list.
    pub fn index(&self) -> usize {
        self.at.index
    }

    /// The list the item is in.
    pub fn list(&self) -> Node<'d> {
        Node {
            doc: self.doc,
            id: self.at.list,
            item: None,
        }
    }

    /// The pair's key, if the item is a pair.
    pub fn key(&self) -> Option<Node<'d>> {
        self.at.key.map(|id| Node {
            doc: self.doc,
            id,
            item: Some(self.at),
        })
    }

    /// The item's value (a pair's value for a pair).
    pub fn value(&self) -> Node<'d> {
        Node {
            doc: self.doc,
            id: self.at.value,
            item: Some(self.at),
        }
    }

    /// `true` for a pair.
    pub fn is_pair(&self) -> bool {
        self.at.key.is_some()
    }

    /// From the first byte of the key (or plain value) to the last of the
    /// value.
    pub fn span(&self) -> Span {
        let start = self.at.key.unwrap_or(self.at.value);
        Span::new(
            self.doc.raw(start).start as usize,
            self.doc.raw(self.at.value).end as usize,
        )
    }

    /// The offset of a pair's `:`.
    pub fn colon(&self) -> Option<usize> {
        let key = self.at.key?;
        let at = self.doc.skip_trivia(self.doc.raw(key).end as usize);
        (self.doc.text.as_bytes().get(at) == Some(&b':')).then_some(at)
    }

    /// The offset of the `,` after the item (`None` for a last item
    /// without a trailing comma).
    pub fn comma(&self) -> Option<usize> {
        let at = self
            .doc
            .skip_trivia(self.doc.raw(self.at.value).end as usize);
        (self.doc.text.as_bytes().get(at) == Some(&b',')).then_some(at)
    }

    /// The text between the previous item (its value's end, so the
    /// previous `,` is in it) or the list's `[` and this item.
    pub fn gap_before(&self) -> Span {
        Span::new(self.at.gap_start, self.span().start)
    }

    /// The text between this item and the next item, or the list's `]`
    /// (the item's `,` is in it).
    pub fn gap_after(&self) -> Span {
        let value = self.doc.raw(self.at.value);
        let list = self.doc.raw(self.at.list);
        // The next item's first node follows this item's value's subtree.
        let next = self.at.value + value.size.max(1) as usize;
        let end = if next < self.at.list + list.size as usize {
            self.doc.raw(next).start as usize
        } else {
            (list.end as usize).saturating_sub(1)
        };
        Span::new(value.end as usize, end)
    }

    /// The comments that belong to the item: the block of comment lines
    /// just above it (up to a blank line or a line with anything else, plus
    /// comments before it on its own line), and the comments after it on
    /// the line where it ends (after its `,`, or before the `]`), when no
    /// other item starts on that line.
    pub fn comments(&self) -> Comments<'d> {
        Comments {
            doc: self.doc,
            attached: trivia::attached(
                &self.doc.text,
                self.gap_before(),
                self.span(),
                self.gap_after(),
            ),
        }
    }
}

/// The comments attached to an item (see [`Entry::comments`]).
#[derive(Clone, Copy, Debug)]
pub struct Comments<'d> {
    doc: &'d Document,
    attached: trivia::Attached,
}

impl<'d> Comments<'d> {
    /// The comment block above the item: from its first comment to the end
    /// of its last, everything between included (line breaks, indentation).
    pub fn leading(&self) -> Option<&'d str> {
        self.leading_span()
            .and_then(|s| self.doc.text.get(s.range()))
    }

    /// Where [`Comments::leading`] is.
    pub fn leading_span(&self) -> Option<Span> {
        self.attached.leading
    }

    /// The end-of-line comments of the item, from the first to the end of
    /// the last.
    pub fn trailing(&self) -> Option<&'d str> {
        self.trailing_span()
            .and_then(|s| self.doc.text.get(s.range()))
    }

    /// Where [`Comments::trailing`] is.
    pub fn trailing_span(&self) -> Option<Span> {
        self.attached.trailing
    }
}

/// The items of a list in a [`Document`] (see [`Node::entries`]).
#[derive(Clone, Debug)]
pub struct Entries<'d> {
    doc: &'d Document,
    list: usize,
    /// The next item's first node.
    next: usize,
    /// After the list's last node.
    end: usize,
    index: usize,
    gap_start: usize,
}

impl<'d> Iterator for Entries<'d> {
    type Item = Entry<'d>;

    fn next(&mut self) -> Option<Entry<'d>> {
        if self.next >= self.end {
            return None;
        }
        let first = self.doc.raw(self.next);
        let (key, value) = if first.is_key() {
            (Some(self.next), self.next + first.size.max(1) as usize)
        } else {
            (None, self.next)
        };
        let v = self.doc.raw(value);
        let at = At {
            list: self.list,
            index: self.index,
            key,
            value,
            gap_start: self.gap_start,
        };
        self.next = value + v.size.max(1) as usize;
        self.index += 1;
        self.gap_start = v.end as usize;
        Some(Entry { doc: self.doc, at })
    }
}

impl std::iter::FusedIterator for Entries<'_> {}
