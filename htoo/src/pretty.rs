//! The pretty writer: HTOO meant for people to read and edit.
//!
//! Layout rules, all decided from the value alone (so the output is a
//! function of the value and pretty-printing is idempotent):
//!
//! - scalars are written in their canonical JTOO spelling (by
//!   `jtoo::encode`; nothing is formatted twice);
//! - a list that fits on the rest of its line (its one-line form, plus one
//!   column for a following `,` or `:`, within `max_width`) is written on one
//!   line: `[1, 2, "k": 3]`;
//! - any other list gets one item per line, indented one level deeper, each
//!   followed by `,`, and its `]` on a line of its own at the list's level;
//! - a pair is `key: value`, the value starting on the key's line.
//!
//! - indentation stops growing at [`MAX_INDENT_LEVEL`] levels: deeper lines
//!   are indented as that level, so output grows with the size of the value,
//!   never with the square of its depth.
//!
//! The writer uses an explicit stack, never recursion, so any depth is safe.
//! [`to_writer_pretty`] refuses lists nested deeper than the config's
//! [`PrettyConfig::max_depth`] (by default what the default parser reads).

use jtoo::encode;
use jtoo::{Error, ErrorKind, ItemRef, Value};

/// The deepest indentation level: lines nested deeper are indented as this
/// level (whatever reads HTOO ignores whitespace; people do not count past
/// it), which keeps output linear in the value's size.
pub const MAX_INDENT_LEVEL: usize = 64;

/// Layout settings for the pretty writer.
///
/// ```
/// let v = htoo::from_str(r#"["name": "Ada", "tags": ["math", "code"]]"#).unwrap();
/// let cfg = htoo::PrettyConfig::new().with_indent(4).with_max_width(20);
/// assert_eq!(
///     htoo::to_string_pretty_with(&v, &cfg),
///     "[\n    \"name\": \"Ada\",\n    \"tags\": [\n        \"math\",\n        \"code\",\n    ],\n]"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrettyConfig {
    indent: usize,
    max_width: usize,
    max_depth: usize,
}

impl Default for PrettyConfig {
    fn default() -> PrettyConfig {
        PrettyConfig::new()
    }
}

impl PrettyConfig {
    /// Two spaces per level, lines up to 80 columns.
    pub const fn new() -> PrettyConfig {
        PrettyConfig {
            indent: 2,
            max_width: 80,
            max_depth: jtoo::Options::DEFAULT_MAX_DEPTH,
        }
    }

    /// How deeply lists may nest for [`to_writer_pretty`] (default
    /// [`jtoo::Options::DEFAULT_MAX_DEPTH`], what the default parser reads
    /// back; at most [`jtoo::Options::DEPTH_CEILING`]).
    pub const fn with_max_depth(mut self, max_depth: usize) -> PrettyConfig {
        self.max_depth = jtoo::Options::new().with_max_depth(max_depth).max_depth();
        self
    }

    /// The depth limit of [`to_writer_pretty`].
    pub const fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// Spaces per nesting level (default 2).
    pub const fn with_indent(mut self, indent: usize) -> PrettyConfig {
        self.indent = indent;
        self
    }

    /// The widest line, in characters, a one-line list may make (default
    /// 80). Scalars are never split, so a long string can still make a
    /// longer line; `0` puts every non-empty list on several lines.
    pub const fn with_max_width(mut self, max_width: usize) -> PrettyConfig {
        self.max_width = max_width;
        self
    }

    /// Spaces per nesting level.
    pub const fn indent(&self) -> usize {
        self.indent
    }

    /// The line width a one-line list must fit in.
    pub const fn max_width(&self) -> usize {
        self.max_width
    }
}

/// Pretty HTOO text of `value` with the default [`PrettyConfig`], without a
/// final newline.
///
/// ```
/// let v = jtoo::from_str(r#"["id":7,"tags":["a","b"],"ok":Y]"#).unwrap();
/// assert_eq!(htoo::to_string_pretty(&v), r#"["id": 7, "tags": ["a", "b"], "ok": Y]"#);
/// assert_eq!(htoo::from_str(&htoo::to_string_pretty(&v)).unwrap(), v);
/// ```
pub fn to_string_pretty(value: &Value) -> String {
    to_string_pretty_with(value, &PrettyConfig::new())
}

/// Pretty HTOO text of `value` laid out by `config`, without a final
/// newline. [`crate::from_str`] reads it back to `value` when it nests no
/// deeper than the parser's limit; this writes any depth (linear in the
/// value's size), [`to_writer_pretty`] refuses past the limit.
pub fn to_string_pretty_with(value: &Value, config: &PrettyConfig) -> String {
    let mut w = Writer::new(config);
    w.value(value, 0);
    w.out
}

/// As [`to_string_pretty_with`], as bytes.
pub fn to_vec_pretty(value: &Value, config: &PrettyConfig) -> Vec<u8> {
    to_string_pretty_with(value, config).into_bytes()
}

/// Writes the pretty HTOO text of `value` to `writer` (built in memory
/// first, then written at once), without a final newline. Lists nested
/// deeper than [`PrettyConfig::max_depth`] are refused, as the parser with
/// that limit would refuse them.
///
/// ```
/// let mut deep = jtoo::Value::from(1);
/// for _ in 0..129 {
///     deep = jtoo::Value::from(vec![deep]);
/// }
/// let config = htoo::PrettyConfig::new();
/// let err = htoo::to_writer_pretty(Vec::new(), &deep, &config).unwrap_err();
/// assert_eq!(err.kind(), htoo::ErrorKind::TooDeep(128));
/// let config = config.with_max_depth(129);
/// assert!(htoo::to_writer_pretty(Vec::new(), &deep, &config).is_ok());
/// ```
///
/// # Errors
/// [`ErrorKind::TooDeep`]; I/O errors of the writer.
pub fn to_writer_pretty<W: std::io::Write>(
    mut writer: W,
    value: &Value,
    config: &PrettyConfig,
) -> Result<(), Error> {
    if value.depth() > config.max_depth {
        return Err(Error::new(ErrorKind::TooDeep(config.max_depth)));
    }
    writer.write_all(to_string_pretty_with(value, config).as_bytes())?;
    Ok(())
}

/// One step of the writer; a stack of these replaces recursion.
enum Task<'a> {
    /// A value at a nesting level, one line or several.
    Value(&'a Value, usize),
    /// A list item at a nesting level.
    Item(ItemRef<'a>, usize),
    /// A value on one line.
    Flat(&'a Value),
    /// A list item on one line.
    FlatItem(ItemRef<'a>),
    /// Literal ASCII punctuation.
    Text(&'static str),
    /// A line break and the indentation of a level.
    Newline(usize),
}

/// The pretty writer's state; the comment-keeping formatter
/// (`document::format`) writes through it too, so both share one layout.
pub(crate) struct Writer<'c> {
    pub(crate) out: String,
    /// Characters written since the last line break.
    pub(crate) col: usize,
    config: &'c PrettyConfig,
    /// Canonical text of one scalar.
    scratch: Vec<u8>,
}

impl<'c> Writer<'c> {
    pub(crate) fn new(config: &'c PrettyConfig) -> Writer<'c> {
        Writer {
            out: String::new(),
            col: 0,
            config,
            scratch: Vec::new(),
        }
    }

    /// Writes `root` as the value of a line at nesting `level`, from the
    /// current column.
    pub(crate) fn value(&mut self, root: &Value, level: usize) {
        if !matches!(root, Value::List(_)) {
            return self.scalar(root);
        }
        let mut tasks = vec![Task::Value(root, level)];
        while let Some(task) = tasks.pop() {
            match task {
                Task::Value(list @ Value::List(items), level) if !items.is_empty() => {
                    if self.fits(list) {
                        push_flat_list(&mut tasks, items);
                    } else {
                        tasks.push(Task::Text("]"));
                        tasks.push(Task::Newline(level));
                        for item in items.iter().rev() {
                            tasks.push(Task::Text(","));
                            tasks.push(Task::Item(item, level + 1));
                            tasks.push(Task::Newline(level + 1));
                        }
                        tasks.push(Task::Text("["));
                    }
                }
                Task::Value(v, _) | Task::Flat(v) => match v {
                    Value::List(items) => push_flat_list(&mut tasks, items),
                    scalar => self.scalar(scalar),
                },
                Task::Item(ItemRef::Value(v), level) => tasks.push(Task::Value(v, level)),
                Task::Item(ItemRef::Pair(p), level) => {
                    tasks.push(Task::Value(p.value(), level));
                    tasks.push(Task::Text(": "));
                    tasks.push(Task::Value(p.key(), level));
                }
                Task::FlatItem(ItemRef::Value(v)) => tasks.push(Task::Flat(v)),
                Task::FlatItem(ItemRef::Pair(p)) => {
                    tasks.push(Task::Flat(p.value()));
                    tasks.push(Task::Text(": "));
                    tasks.push(Task::Flat(p.key()));
                }
                Task::Text(t) => {
                    self.out.push_str(t);
                    self.col += t.len();
                }
                Task::Newline(level) => self.newline(level),
            }
        }
    }

    /// `true` when `value` goes on the rest of the line (an empty list and
    /// a scalar always do): its one-line form, plus one column for the `,`
    /// or `:` that may follow, fits in the config's width.
    pub(crate) fn fits(&mut self, value: &Value) -> bool {
        match value {
            Value::List(items) if !items.is_empty() => {
                let budget = self.config.max_width.saturating_sub(self.col + 1);
                self.flat_width(value, budget).is_some()
            }
            _ => true,
        }
    }

    /// A line break and the indentation of `level`.
    pub(crate) fn newline(&mut self, level: usize) {
        let spaces = level
            .min(MAX_INDENT_LEVEL)
            .saturating_mul(self.config.indent);
        self.out.push('\n');
        push_spaces(&mut self.out, spaces);
        self.col = spaces;
    }

    /// Writes a scalar's canonical text.
    fn scalar(&mut self, v: &Value) {
        self.canonical(v);
        // The encoder writes UTF-8 (strings are `str`, the rest ASCII).
        let text = String::from_utf8_lossy(&self.scratch);
        self.col += text.chars().count();
        self.out.push_str(&text);
    }

    /// The canonical text of a scalar, in `self.scratch`.
    fn canonical(&mut self, v: &Value) {
        let out = &mut self.scratch;
        out.clear();
        match v {
            Value::String(s) => encode::write_str(out, s),
            Value::Bytes(b) => encode::write_bytes(out, b),
            Value::Bool(b) => encode::write_bool(out, *b),
            Value::Integer(i) => encode::write_integer(out, i),
            Value::Decimal(d) => encode::write_decimal(out, d),
            Value::DateTime(d) => encode::write_datetime(out, d),
            Value::Timestamp(t) => encode::write_timestamp(out, t),
            Value::List(_) => {}
        }
    }

    /// The width of `v` on one line, or `None` when it exceeds `budget`.
    /// Visits O(budget) values however large `v` is.
    fn flat_width(&mut self, v: &Value, budget: usize) -> Option<usize> {
        let mut total = 0usize;
        let mut pending = vec![v];
        while let Some(v) = pending.pop() {
            let left = budget - total;
            let w = match v {
                Value::List(items) => {
                    // `[`, `]`, `, ` between items and `: ` in each pair.
                    let pairs = items.iter().filter(|i| i.is_pair()).count();
                    let w = 2 + 2 * items.len().saturating_sub(1) + 2 * pairs;
                    if w > left {
                        return None;
                    }
                    for item in items {
                        match item {
                            ItemRef::Value(x) => pending.push(x),
                            ItemRef::Pair(p) => {
                                pending.push(p.key());
                                pending.push(p.value());
                            }
                        }
                    }
                    w
                }
                Value::String(s) if s.len() / 4 > left => return None,
                Value::Bytes(b) if b.len() > left => return None,
                scalar => {
                    self.canonical(scalar);
                    String::from_utf8_lossy(&self.scratch).chars().count()
                }
            };
            if w > left {
                return None;
            }
            total += w;
        }
        Some(total)
    }
}

/// Appends `n` spaces, a slice at a time.
fn push_spaces(out: &mut String, mut n: usize) {
    const SPACES: &str = "                                                                ";
    out.reserve(n);
    while n > 0 {
        let k = n.min(SPACES.len());
        out.push_str(&SPACES[..k]);
        n -= k;
    }
}

/// Pushes the one-line form of a list.
fn push_flat_list<'a>(tasks: &mut Vec<Task<'a>>, items: &'a jtoo::List) {
    tasks.push(Task::Text("]"));
    for (i, item) in items.iter().enumerate().rev() {
        tasks.push(Task::FlatItem(item));
        if i > 0 {
            tasks.push(Task::Text(", "));
        }
    }
    tasks.push(Task::Text("["));
}
