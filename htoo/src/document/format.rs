//! The formatter: pretty HTOO that keeps every comment ([`format()`],
//! [`format_slice`], [`Document::to_pretty_string`]; the rules are in
//! [`format()`]'s documentation).
//!
//! How it works: the document's nodes say where every value is, so the
//! comments and blank lines are found in the bytes between them (a quick
//! scan, once, into sorted offsets: "does this list hold a comment" is a
//! binary search). A document with neither is handed whole to the pretty
//! writer. Otherwise the walk goes down the nodes and the value side by
//! side, with one stack of tasks (no recursion, as the pretty writer's): a
//! list without comments is written by the pretty writer (`pretty::Writer`,
//! at the current column and level, so its layout is decided in one
//! place); a list with comments is written here, one item per line, its
//! gaps split into trivia pieces ([`super::trivia`]) to place each comment.

use jtoo::{Error, ItemRef, Value};

use super::trivia::{TriviaIter, TriviaKind};
use super::{Document, Raw, Span};
use crate::Options;
use crate::pretty::{PrettyConfig, Writer};

impl Document {
    /// The document laid out by `config` as [`crate::to_string_pretty_with`]
    /// lays out its value, with every comment kept, without a final line
    /// break: [`format()`] of the document's text (see there for where each
    /// comment goes).
    ///
    /// ```
    /// let doc = htoo::Document::parse("[\"port\":8080 // the default\n,\"hosts\":[\"a\",\"b\"]]")?;
    /// let config = htoo::PrettyConfig::new();
    /// assert_eq!(
    ///     doc.to_pretty_string(&config),
    ///     "[\n  \"port\": 8_080, // the default\n  \"hosts\": [\"a\", \"b\"],\n]"
    /// );
    /// // Without comments, the pretty writer's text.
    /// let doc = htoo::Document::parse("[\"hosts\" : [\"a\",\"b\"],]")?;
    /// assert_eq!(doc.to_pretty_string(&config), htoo::to_string_pretty_with(&doc.value(), &config));
    /// # Ok::<(), htoo::Error>(())
    /// ```
    pub fn to_pretty_string(&self, config: &PrettyConfig) -> String {
        pretty(self, &self.value(), config)
    }
}

/// Formats HTOO text: pretty HTOO laid out by `config`, keeping every
/// comment, without a final line break.
///
/// The layout is the pretty writer's ([`crate::to_string_pretty_with`]):
/// scalars in their canonical spelling, `key: value` pairs, a list on one
/// line when it fits, else one item per line with a trailing `,`. A
/// document without comments or blank lines formats to exactly the pretty
/// writer's text of its value. Comments and blank lines go as follows:
///
/// - **A list that holds a comment** (anywhere inside it) gets one item per
///   line, and so does every list around it.
/// - **A comment on the line where an item ends** (before or after its
///   `,`) stays at the end of that line, after the `,`:
///   `"port": 8_080, // the default`; but when the next item starts on the
///   same line, a comment between the `,` and that item goes above it. A
///   comment after the document's value on its last line stays there.
/// - **Every other comment gets a line of its own**, indented as the items
///   around it: above the item it was above; after the `[` (in an empty
///   list too); before the `]`; before or after the document's value.
///   Several comments on one line of their own get a line each.
/// - **A comment between a pair's key and its value** (before or after the
///   `:`) moves above the pair, after the comments already there. Only
///   when the key is itself a list holding comments do they stay between
///   the key and the `:` (above, they would come before the key's own).
/// - **Blank lines**: where one or more separated two lines of a list laid
///   out one item per line (items or comments), or the comments and the
///   value of the document, one is kept; none after a `[`, before a `]` or
///   before a `,`. A blank line never keeps a list from going on one line.
/// - **Comment text is never changed**, only indented: a `/* */` comment
///   over several lines moves as a block (its later lines shift by as many
///   columns as its first, as far as their indentation allows); a `//`
///   comment loses any `\r` before its line break (output lines end in `\n`).
///
/// The output reads back to the same value, holds the same comments in the
/// same order, and formats to itself. Lists nest at most
/// [`PrettyConfig::max_depth`] deep (by default what [`crate::from_str`]
/// reads).
///
/// ```
/// let text = "// Service settings.
/// [\"name\":\"api\" /* public */, /* the default */ \"port\":8080,
///
///   \"hosts\": [\"a.example\",\"b.example\",], // primary first
///   \"timeout\" /* seconds */ : 30]";
/// let config = htoo::PrettyConfig::new();
/// let pretty = htoo::format(text, &config)?;
/// assert_eq!(pretty, "// Service settings.
/// [
///   \"name\": \"api\", /* public */
///   /* the default */
///   \"port\": 8_080,
///
///   \"hosts\": [\"a.example\", \"b.example\"], // primary first
///   /* seconds */
///   \"timeout\": 30,
/// ]");
/// assert_eq!(htoo::format(&pretty, &config)?, pretty);
/// assert_eq!(htoo::from_str(&pretty)?, htoo::from_str(text)?);
/// # Ok::<(), htoo::Error>(())
/// ```
///
/// # Errors
/// What [`crate::from_str`] reports for the text (with the config's depth
/// limit), at the same position.
pub fn format(text: &str, config: &PrettyConfig) -> Result<String, Error> {
    let options = Options::new().with_max_depth(config.max_depth());
    if plain(text) {
        // No comment nor blank line: the pretty writer's text of the value,
        // without building the document.
        return Ok(crate::to_string_pretty_with(
            &options.from_str(text)?,
            config,
        ));
    }
    let doc = Document::parse_with(text, &options)?;
    let value = options.from_str(text)?;
    Ok(pretty(&doc, &value, config))
}

/// `true` when `text` has no `/` (so no comment) and no blank line. A line
/// break is never inside a value (strings escape control characters), so
/// without comments every blank line is between values.
fn plain(text: &str) -> bool {
    if memchr::memchr(b'/', text.as_bytes()).is_some() {
        return false;
    }
    let bytes = text.as_bytes();
    !memchr::memchr_iter(b'\n', bytes).any(|i| blank_line(bytes, i, bytes.len()).0)
}

/// At the line break `bytes[at]`: whether only spaces stand between it and
/// another line break before `end`, and how many of those spaces follow it.
fn blank_line(bytes: &[u8], at: usize, end: usize) -> (bool, usize) {
    let after = bytes.get(at + 1..end).unwrap_or_default();
    let spaces = after
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\r'))
        .count();
    (after.get(spaces) == Some(&b'\n'), spaces)
}

/// [`format()`] for bytes: what [`crate::from_slice`] reads.
///
/// ```
/// let out = htoo::format_slice(b"[1,2] // two", &htoo::PrettyConfig::new())?;
/// assert_eq!(out, "[1, 2] // two");
/// let err = htoo::format_slice(b"[\"\xff\"]", &htoo::PrettyConfig::new()).unwrap_err();
/// assert_eq!(err.to_string(), "invalid UTF-8 at line 1 column 3");
/// # Ok::<(), htoo::Error>(())
/// ```
///
/// # Errors
/// What [`crate::from_slice`] reports for the input (with the config's
/// depth limit), at the same position.
pub fn format_slice(input: &[u8], config: &PrettyConfig) -> Result<String, Error> {
    match std::str::from_utf8(input) {
        Ok(text) => format(text, config),
        // Not HTOO: the document reports the parser's first error.
        Err(_) => {
            let options = Options::new().with_max_depth(config.max_depth());
            Document::from_slice_with(input, &options).map(|doc| doc.to_pretty_string(config))
        }
    }
}

/// The formatted text of `doc`, whose value is `value`.
fn pretty(doc: &Document, value: &Value, config: &PrettyConfig) -> String {
    let text = doc.as_str();
    let mut f = Formatter {
        text,
        doc,
        marks: Marks::of(text, &doc.nodes),
        w: Writer::new(config),
    };
    // About the size of the text (pretty text gains some indentation).
    f.w.out.reserve(text.len() + text.len() / 8);
    if f.marks.comments.is_empty() && f.marks.blanks.is_empty() {
        f.w.value(value, 0);
        return f.w.out;
    }
    match f.document(value) {
        Some(()) => f.w.out,
        // The nodes and the value disagree: never happens (both are the
        // same parse of the same text). Nothing is lost: the text is kept.
        None => text.to_owned(),
    }
}

/// Where the comments and the blank lines outside every scalar are: the
/// offsets of each comment's first byte and of each line break followed
/// by another after nothing but spaces, in order.
struct Marks {
    comments: Vec<u32>,
    blanks: Vec<u32>,
}

impl Marks {
    fn of(text: &str, nodes: &[Raw]) -> Marks {
        let mut marks = Marks {
            comments: Vec::new(),
            blanks: Vec::new(),
        };
        let mut from = 0;
        for raw in nodes.iter().filter(|r| !r.is_list()) {
            marks.scan(text, from, raw.start as usize);
            from = raw.end as usize;
        }
        marks.scan(text, from, text.len());
        marks
    }

    /// Scans `text[start..end]`, which holds trivia, brackets, `,` and `:`.
    fn scan(&mut self, text: &str, start: usize, end: usize) {
        let bytes = text.as_bytes();
        let end = end.min(bytes.len());
        let mut i = start;
        while i < end {
            match bytes.get(i) {
                Some(b'/') => {
                    self.comments.push(i as u32);
                    let body = bytes.get(i + 2..end).unwrap_or_default();
                    i += 2 + match bytes.get(i + 1) {
                        Some(b'*') => {
                            memchr::memmem::find(body, b"*/").map_or(body.len(), |n| n + 2)
                        }
                        _ => memchr::memchr(b'\n', body).unwrap_or(body.len()),
                    };
                }
                Some(b'\n') => {
                    let (blank, spaces) = blank_line(bytes, i, end);
                    if blank {
                        self.blanks.push(i as u32);
                    }
                    i += 1 + spaces;
                }
                _ => i += 1,
            }
        }
    }
}

/// `true` when one of the sorted `marks` lies in `span`.
fn any_in(marks: &[u32], span: Span) -> bool {
    let i = marks.partition_point(|&m| (m as usize) < span.start);
    marks.get(i).is_some_and(|&m| (m as usize) < span.end)
}

/// A comment to write: its text and, for a `/* */` comment over several
/// lines, the column its first line started at in the source.
#[derive(Clone, Copy)]
struct Comment<'a> {
    text: &'a str,
    column: Option<usize>,
}

/// One step of the formatter; a stack of these replaces recursion.
enum Task<'a> {
    /// The value of node `node` at a nesting level.
    Value(usize, &'a Value, usize),
    /// Literal ASCII punctuation.
    Text(&'static str),
    /// A comment.
    Comment(Comment<'a>),
    /// A line break and the indentation of a level.
    Newline(usize),
    /// An empty line (a line break; a [`Task::Newline`] follows).
    Blank,
}

struct Formatter<'a, 'c> {
    text: &'a str,
    doc: &'a Document,
    marks: Marks,
    w: Writer<'c>,
}

/// The tasks of a run of lines at one level: a list's body, or the
/// document's lines (comments, the value, comments).
struct Lines<'a> {
    tasks: Vec<Task<'a>>,
    level: usize,
    /// A line was started.
    started: bool,
    /// The first line starts with a line break (in a list, after its `[`).
    break_first: bool,
}

impl<'a> Lines<'a> {
    /// Starts a line, after an empty one when `blank` (never first).
    fn line(&mut self, blank: bool) {
        if self.started && blank {
            self.tasks.push(Task::Blank);
        }
        if self.started || self.break_first {
            self.tasks.push(Task::Newline(self.level));
        }
        self.started = true;
    }

    fn comment_line(&mut self, blank: bool, comment: Comment<'a>) {
        self.line(blank);
        self.tasks.push(Task::Comment(comment));
    }
}

impl<'a> Formatter<'a, '_> {
    fn raw(&self, node: usize) -> Option<Raw> {
        self.doc.nodes.get(node).copied()
    }

    /// The comment that the trivia `piece` is.
    fn comment(&self, piece: super::Trivia) -> Comment<'a> {
        let text = self.text.get(piece.span.range()).unwrap_or_default();
        if piece.kind == TriviaKind::LineComment {
            return Comment {
                text: text.trim_end_matches('\r'),
                column: None,
            };
        }
        let column = text.contains('\n').then(|| {
            let before = self.text.get(..piece.span.start).unwrap_or_default();
            let line = before.rfind('\n').map_or(0, |i| i + 1);
            before.get(line..).unwrap_or_default().chars().count()
        });
        Comment { text, column }
    }

    /// Writes a comment; a `/* */` comment over several lines moves as a
    /// block: its later lines shift by as many columns as its first moved
    /// (to the left as far as their indentation goes).
    fn write_comment(&mut self, c: Comment<'a>) {
        let out = &mut self.w.out;
        let Some(from) = c.column else {
            out.push_str(c.text);
            self.w.col += c.text.chars().count();
            return;
        };
        let to = self.w.col;
        let mut lines = c.text.split('\n');
        let first = lines.next().unwrap_or_default();
        out.push_str(first);
        let mut col = to + first.chars().count();
        for line in lines {
            out.push('\n');
            col = 0;
            let line = if to >= from {
                if !line.trim().is_empty() {
                    out.extend(std::iter::repeat_n(' ', to - from));
                    col = to - from;
                }
                line
            } else {
                let indent = line
                    .bytes()
                    .take(from - to)
                    .take_while(|b| matches!(b, b' ' | b'\t'))
                    .count();
                line.get(indent..).unwrap_or(line)
            };
            out.push_str(line);
            col += line.chars().count();
        }
        self.w.col = col;
    }

    /// The document: comments before its value on lines of their own, the
    /// value, comments after it.
    fn document(&mut self, value: &'a Value) -> Option<()> {
        let root = self.raw(0)?;
        let mut lines = Lines {
            tasks: Vec::new(),
            level: 0,
            started: false,
            break_first: false,
        };
        let blank = self.gap(0, root.start as usize, false, false, &mut lines);
        lines.line(blank);
        lines.tasks.push(Task::Value(0, value, 0));
        self.gap(root.end as usize, self.text.len(), true, false, &mut lines);
        self.run(lines.tasks)
    }

    /// Runs `tasks` in order, and the tasks they make.
    fn run(&mut self, first: Vec<Task<'a>>) -> Option<()> {
        let mut tasks: Vec<Task<'a>> = first.into_iter().rev().collect();
        while let Some(task) = tasks.pop() {
            match task {
                Task::Value(node, value, level) => {
                    let raw = self.raw(node)?;
                    let span = raw.span();
                    if !raw.is_list()
                        || !any_in(&self.marks.comments, span)
                            && (!any_in(&self.marks.blanks, span) || self.w.fits(value))
                    {
                        self.w.value(value, level);
                    } else {
                        let body = self.list(node, value, level)?;
                        tasks.extend(body.into_iter().rev());
                    }
                }
                Task::Text(t) => {
                    self.w.out.push_str(t);
                    self.w.col += t.len();
                }
                Task::Comment(c) => self.write_comment(c),
                Task::Newline(level) => self.w.newline(level),
                Task::Blank => self.w.out.push('\n'),
            }
        }
        Some(())
    }

    /// The tasks of list `node` (`value`) at `level`, one item per line.
    fn list(&self, node: usize, value: &'a Value, level: usize) -> Option<Vec<Task<'a>>> {
        let raw = self.raw(node)?;
        let items = value.as_list()?;
        let inner = level + 1;
        let mut lines = Lines {
            tasks: vec![Task::Text("[")],
            level: inner,
            started: false,
            break_first: true,
        };
        let mut gap_start = raw.start as usize + 1;
        let mut open = false;
        let mut count = 0;
        for (entry, item) in self.doc.items_of(node).zip(items.iter()) {
            let at = entry.at();
            count += 1;
            let value_raw = self.raw(at.value)?;
            let first = at.key.unwrap_or(at.value);
            let start = self.raw(first)?.start as usize;
            let blank = self.gap(gap_start, start, open, true, &mut lines);
            match (at.key, item) {
                (None, ItemRef::Value(v)) => {
                    lines.line(blank);
                    lines.tasks.push(Task::Value(at.value, v, inner));
                }
                (Some(key), ItemRef::Pair(p)) => {
                    self.pair(&mut lines, blank, (key, p.key()), (at.value, p.value()))?;
                }
                _ => return None,
            }
            lines.tasks.push(Task::Text(","));
            open = true;
            gap_start = value_raw.end as usize;
        }
        if count != items.len() {
            return None;
        }
        let end = (raw.end as usize).saturating_sub(1);
        self.gap(gap_start, end, open, false, &mut lines);
        lines.tasks.push(Task::Newline(level));
        lines.tasks.push(Task::Text("]"));
        Some(lines.tasks)
    }

    /// A pair's line, from its key's node and value and its value's: the
    /// comments between key and value above it (or, when the key holds
    /// comments itself, after the key), then `key: value`.
    fn pair(
        &self,
        lines: &mut Lines<'a>,
        blank: bool,
        (key, key_value): (usize, &'a Value),
        (value, value_value): (usize, &'a Value),
    ) -> Option<()> {
        let key_raw = self.raw(key)?;
        let value_raw = self.raw(value)?;
        let between = TriviaIter::new(self.text, key_raw.end as usize, value_raw.start as usize)
            .filter(|p| p.kind.is_comment());
        let inner = lines.level;
        if key_raw.is_list() && any_in(&self.marks.comments, key_raw.span()) {
            lines.line(blank);
            lines.tasks.push(Task::Value(key, key_value, inner));
            let mut line_start = false;
            for piece in between {
                if !line_start {
                    lines.tasks.push(Task::Text(" "));
                }
                lines.tasks.push(Task::Comment(self.comment(piece)));
                line_start = piece.kind == TriviaKind::LineComment;
                if line_start {
                    lines.tasks.push(Task::Newline(inner));
                }
            }
        } else {
            let mut blank = blank;
            for piece in between {
                lines.comment_line(blank, self.comment(piece));
                blank = false;
            }
            lines.line(blank);
            lines.tasks.push(Task::Value(key, key_value, inner));
        }
        lines.tasks.push(Task::Text(": "));
        lines.tasks.push(Task::Value(value, value_value, inner));
        Some(())
    }

    /// The comments in the gap `text[start..end]` (trivia between two items,
    /// or at either end of a list or the document). While `open`, the line
    /// of what precedes the gap goes on: comments before the gap's first
    /// line break end that line, except, when an item follows (`item`) on
    /// the same line, those after the `,`: they are that item's. The others
    /// get lines of their own. Returns whether a blank line stands at the
    /// end of the gap (after its last comment or `,`), before what follows.
    fn gap(
        &self,
        start: usize,
        end: usize,
        mut open: bool,
        item: bool,
        lines: &mut Lines<'a>,
    ) -> bool {
        let one_line = open
            && item
            && any_in(&self.marks.comments, Span::new(start, end))
            && !self.text.get(start..end).is_some_and(|g| g.contains('\n'));
        let mut breaks = 0;
        for piece in TriviaIter::new(self.text, start, end) {
            match piece.kind {
                TriviaKind::Newline => {
                    breaks += 1;
                    open = false;
                }
                TriviaKind::Comma | TriviaKind::Colon => {
                    breaks = 0;
                    open &= !one_line;
                }
                TriviaKind::Whitespace => {}
                TriviaKind::LineComment | TriviaKind::BlockComment => {
                    let comment = self.comment(piece);
                    if open {
                        lines.tasks.push(Task::Text(" "));
                        lines.tasks.push(Task::Comment(comment));
                    } else {
                        lines.comment_line(breaks >= 2, comment);
                    }
                    breaks = 0;
                }
            }
        }
        breaks >= 2
    }
}
