//! What the server knows about one version of a document: its parse, and
//! the answers built from it (diagnostics, outline, folding, hover,
//! formatting).

use std::cell::OnceCell;

use htoo::{Document, Node, PrettyConfig};
use jtoo::{Error, ErrorKind, Value};
use lsp_types::{
    Diagnostic, DiagnosticSeverity, DocumentSymbol, FoldingRange, FoldingRangeKind, Hover,
    HoverContents, MarkupContent, MarkupKind, NumberOrString, SymbolKind,
};

use crate::text::Text;

/// Documents longer than this are not parsed: one diagnostic says so, and
/// the other features answer with nothing. (A parse is linear, but an
/// editor should never wait on a file of hundreds of megabytes.)
pub const MAX_BYTES: usize = 64 << 20;

/// The most symbols an outline has: a client shows no more usefully, and
/// the answer stays small (about 250 bytes of JSON each).
pub const MAX_SYMBOLS: usize = 10_000;

/// The most folding ranges answered.
pub const MAX_FOLDS: usize = 10_000;

/// How much of a value's text a symbol's detail or a hover shows.
const SHOWN: usize = 80;

/// Which language a document is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// Strict JTOO (`.jtoo`): checked as `jtoo check` checks a file.
    Jtoo,
    /// HTOO (`.htoo`, and anything else).
    Htoo,
}

impl Syntax {
    /// From the client's `languageId`, else from the URI's extension.
    pub fn of(language_id: &str, uri: &str) -> Syntax {
        match language_id {
            "jtoo" => Syntax::Jtoo,
            "htoo" => Syntax::Htoo,
            _ if uri.ends_with(".jtoo") => Syntax::Jtoo,
            _ => Syntax::Htoo,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Syntax::Jtoo => "jtoo",
            Syntax::Htoo => "htoo",
        }
    }
}

/// One version of a document, parsed.
#[derive(Debug)]
pub struct Analysis {
    /// The lossless tree (HTOO reads every JTOO document too), for the
    /// outline, folding and hover; `None` when the text is not HTOO. Made
    /// with the diagnostics for HTOO (the same parse gives both), when
    /// first asked for in a strict file (whose diagnostics come from the
    /// faster strict validator).
    doc: OnceCell<Option<Document>>,
    /// The first error of the document's syntax.
    pub error: Option<Error>,
    /// The text is over [`MAX_BYTES`] and was not parsed.
    pub too_large: bool,
}

/// A strict file may end in one `\n`, as the CLI's text commands read it.
fn strict_body(text: &str) -> &str {
    text.strip_suffix('\n').unwrap_or(text)
}

impl Analysis {
    /// Parses `text` as `syntax`.
    pub fn new(text: &str, syntax: Syntax) -> Analysis {
        let doc = OnceCell::new();
        if text.len() > MAX_BYTES {
            let _ = doc.set(None);
            return Analysis {
                doc,
                error: None,
                too_large: true,
            };
        }
        let error = match syntax {
            Syntax::Htoo => match Document::parse(text) {
                Ok(parsed) => {
                    let _ = doc.set(Some(parsed));
                    None
                }
                Err(e) => {
                    let _ = doc.set(None);
                    Some(e)
                }
            },
            Syntax::Jtoo => jtoo::validate(strict_body(text).as_bytes()).err(),
        };
        Analysis {
            doc,
            error,
            too_large: false,
        }
    }

    /// The lossless tree of `text` (the text this analysis was made of).
    fn doc(&self, text: &Text) -> Option<&Document> {
        self.doc
            .get_or_init(|| Document::parse(text.as_str()).ok())
            .as_ref()
    }

    /// The diagnostics to publish: the parser's message over the bytes it
    /// is about, with its `help:` hint.
    pub fn diagnostics(&self, text: &Text, syntax: Syntax) -> Vec<Diagnostic> {
        if self.too_large {
            return vec![Diagnostic {
                range: text.range(0, 0),
                severity: Some(DiagnosticSeverity::WARNING),
                source: Some(syntax.name().to_owned()),
                message: format!(
                    "not checked: the document is {} bytes; the language server reads up to {} MiB",
                    text.as_str().len(),
                    MAX_BYTES >> 20
                ),
                ..Diagnostic::default()
            }];
        }
        let Some(err) = &self.error else {
            return Vec::new();
        };
        let src = text.as_str();
        let (start, end) = error_span(err, src);
        let mut message = err.message();
        if let Some(hint) = htoo::hint(err, src.as_bytes()) {
            message.push_str("\nhelp: ");
            message.push_str(hint);
        }
        vec![Diagnostic {
            range: text.range(start, end),
            severity: Some(DiagnosticSeverity::ERROR),
            code: Some(NumberOrString::String(kind_name(err.kind()))),
            source: Some(syntax.name().to_owned()),
            message,
            ..Diagnostic::default()
        }]
    }

    /// The outline: every pair under its key, and every list item that is
    /// a list (as `[index]`), nested as in the document, down to the
    /// deepest level at which there are at most [`MAX_SYMBOLS`] in all (the
    /// first [`MAX_SYMBOLS`] of the top level when even it has more).
    pub fn symbols(&self, text: &Text) -> Vec<DocumentSymbol> {
        let Some(doc) = self.doc(text) else {
            return Vec::new();
        };
        // How many symbols each level has (no recursion: a stack).
        let mut per_level: Vec<usize> = Vec::new();
        let mut todo = vec![(doc.root(), 0)];
        while let Some((list, level)) = todo.pop() {
            for entry in list.entries() {
                let value = entry.value();
                if entry.key().is_some() || value.is_list() {
                    if per_level.len() <= level {
                        per_level.resize(level + 1, 0);
                    }
                    per_level[level] += 1;
                    if value.is_list() {
                        todo.push((value, level + 1));
                    }
                }
            }
        }
        let mut total = 0;
        let levels = per_level
            .iter()
            .take_while(|&&n| {
                total += n;
                total <= MAX_SYMBOLS
            })
            .count()
            .max(1);
        let mut budget = MAX_SYMBOLS;
        children(doc.root(), text, levels, &mut budget)
    }

    /// A folding range for every list over more than one line (at most
    /// [`MAX_FOLDS`]).
    pub fn folding(&self, text: &Text) -> Vec<FoldingRange> {
        let Some(doc) = self.doc(text) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        // Depth-first over lists (no recursion: depth is the parser's limit,
        // but a stack is as simple).
        let mut todo = vec![doc.root()];
        while let Some(node) = todo.pop() {
            if !node.is_list() {
                continue;
            }
            let span = node.span();
            let start = text.position(span.start);
            let end = text.position(span.end.saturating_sub(1));
            // The `]` stays visible: fold up to the line before it, unless
            // items follow it on its line.
            if out.len() == MAX_FOLDS {
                break;
            }
            if end.line > start.line + 1 || (end.line > start.line && end.character > 0) {
                out.push(FoldingRange {
                    start_line: start.line,
                    start_character: None,
                    end_line: end.line - 1,
                    end_character: None,
                    kind: Some(FoldingRangeKind::Region),
                    collapsed_text: None,
                });
            }
            for entry in node.entries() {
                todo.push(entry.value());
                if let Some(key) = entry.key() {
                    todo.push(key);
                }
            }
        }
        out.sort_by_key(|r| (r.start_line, r.end_line));
        out
    }

    /// Hover on the scalar at byte `offset`: its kind and canonical
    /// spelling, and for a timestamp its UTC date-time, for a date its
    /// weekday, for a byte string its length.
    pub fn hover(&self, text: &Text, offset: usize) -> Option<Hover> {
        let doc = self.doc(text)?;
        let mut node = doc.root();
        while node.is_list() {
            let inside = |n: &Node<'_>| {
                let s = n.span();
                s.start <= offset && offset < s.end
            };
            let entry = node
                .entries()
                .find(|e| e.key().is_some_and(|k| inside(&k)) || inside(&e.value()))?;
            node = match entry.key() {
                Some(key) if inside(&key) => key,
                _ => entry.value(),
            };
        }
        let span = node.span();
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: describe(&node.value()),
            }),
            range: Some(text.range(span.start, span.end)),
        })
    }
}

/// The document formatted as the CLI formats it: HTOO as `jtoo pretty`
/// writes it (every comment kept), strict JTOO as `jtoo fmt` writes it
/// (canonical, so the file stays JTOO); both end in `\n`.
///
/// A `.jtoo` file that is HTOO (spaces, `1000`) formats to canonical JTOO
/// too, unless it has comments: canonical JTOO has none, and formatting
/// never drops one. `None` when there is nothing to do safely: the text
/// does not parse, or is such a commented file.
pub fn format(text: &str, syntax: Syntax) -> Option<String> {
    if text.len() > MAX_BYTES {
        return None;
    }
    let mut out = match syntax {
        Syntax::Htoo => htoo::format(text, &PrettyConfig::new()).ok()?,
        Syntax::Jtoo => {
            let value = match jtoo::from_str(strict_body(text)) {
                Ok(value) => value,
                Err(_) if !has_comment(text) => htoo::from_str(text).ok()?,
                Err(_) => return None,
            };
            jtoo::to_string(&value).ok()?
        }
    };
    out.push('\n');
    Some(out)
}

/// Whether valid HTOO `text` has a comment: in HTOO, a `/` outside a
/// string can only start one.
fn has_comment(text: &str) -> bool {
    let mut in_string = false;
    let mut bytes = text.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b'"' => in_string = !in_string,
            b'\\' if in_string => {
                bytes.next();
            }
            b'/' if !in_string => return true,
            _ => {}
        }
    }
    false
}

/// The byte range a diagnostic underlines: the token the error points at.
fn error_span(err: &Error, src: &str) -> (usize, usize) {
    let Some(p) = err.position() else {
        return (0, 0);
    };
    let mut start = p.offset.min(src.len());
    while !src.is_char_boundary(start) {
        start -= 1;
    }
    // An error after a value (`2 3`: expected `,` or `]`) points at the
    // space after it: underline what follows (after HTOO whitespace:
    // space, tab, CR, LF) instead.
    let next = src[start..]
        .find(|c: char| !matches!(c, ' ' | '\t' | '\r' | '\n'))
        .map_or(start, |i| start + i);
    if next > start
        && matches!(
            err.kind(),
            ErrorKind::ExpectedCommaOrEnd | ErrorKind::TrailingCharacters
        )
    {
        start = next;
    }
    let rest = &src[start..];
    let first = rest.chars().next().map_or(0, char::len_utf8);
    let len = match err.kind() {
        ErrorKind::UnclosedComment => 2.min(rest.len()),
        ErrorKind::UnclosedString
        | ErrorKind::UnclosedList
        | ErrorKind::InvalidString(_)
        | ErrorKind::InvalidUtf8 => first,
        ErrorKind::InvalidEscape(_) => rest
            .char_indices()
            .take_while(|&(i, c)| i == 0 || !matches!(c, '"' | '\\' | '\n' | '\r'))
            .take(3)
            .map(|(_, c)| c.len_utf8())
            .sum(),
        kind => {
            let time = matches!(
                kind,
                ErrorKind::InvalidTime(_) | ErrorKind::InvalidOffset(_) | ErrorKind::AmbiguousKey
            ) || rest.starts_with(['D', 'T']);
            let token = rest
                .char_indices()
                .find(|&(_, c)| {
                    c.is_whitespace()
                        || matches!(c, '[' | ']' | ',' | '"' | '/')
                        || (c == ':' && !time)
                })
                .map_or(rest.len(), |(i, _)| i);
            // At least one character (not a line break), within reason.
            if token == 0 && !rest.starts_with(['\n', '\r']) {
                first
            } else {
                token.min(256)
            }
        }
    };
    let mut end = start + len;
    while !src.is_char_boundary(end) {
        end -= 1;
    }
    (start, end)
}

/// The error kind's name, as the diagnostic's code (`ExpectedValue`).
fn kind_name(kind: ErrorKind) -> String {
    let debug = format!("{kind:?}");
    match debug.find('(') {
        Some(i) => debug[..i].to_owned(),
        None => debug,
    }
}

/// The symbols of a list's entries.
/// The symbols of a list's entries, `levels` deep, at most `budget` in all.
fn children(list: Node<'_>, text: &Text, levels: usize, budget: &mut usize) -> Vec<DocumentSymbol> {
    if !list.is_list() || levels == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (index, entry) in list.entries().enumerate() {
        if *budget == 0 {
            break;
        }
        let value = entry.value();
        let (name, selection) = match entry.key() {
            Some(key) => {
                let name = key
                    .as_string()
                    .map_or_else(|| key.as_str().to_owned(), |s| s.into_owned());
                (name, key.span())
            }
            None if value.is_list() => (format!("[{index}]"), value.span()),
            None => continue,
        };
        let span = entry.span();
        *budget -= 1;
        #[allow(deprecated)] // `deprecated` is a required field of the struct.
        out.push(DocumentSymbol {
            name: if name.is_empty() {
                "\"\"".to_owned()
            } else {
                shorten(&name)
            },
            detail: Some(detail(&value)),
            kind: symbol_kind(&value),
            tags: None,
            deprecated: None,
            range: text.range(span.start, span.end),
            selection_range: text.range(selection.start, selection.end),
            children: (value.is_list() && levels > 1)
                .then(|| children(value, text, levels - 1, budget)),
        });
    }
    out
}

fn symbol_kind(node: &Node<'_>) -> SymbolKind {
    match node.kind() {
        jtoo::ValueKind::List => {
            if node.entries().any(|e| e.is_pair()) {
                SymbolKind::OBJECT
            } else {
                SymbolKind::ARRAY
            }
        }
        jtoo::ValueKind::String | jtoo::ValueKind::Bytes => SymbolKind::STRING,
        jtoo::ValueKind::Bool => SymbolKind::BOOLEAN,
        jtoo::ValueKind::Integer | jtoo::ValueKind::Decimal => SymbolKind::NUMBER,
        _ => SymbolKind::CONSTANT,
    }
}

fn detail(node: &Node<'_>) -> String {
    if node.is_list() {
        let n = node.len();
        format!("{n} item{}", if n == 1 { "" } else { "s" })
    } else {
        shorten(node.as_str())
    }
}

/// `s` cut to [`SHOWN`] characters, with `…` when cut.
fn shorten(s: &str) -> String {
    match s.char_indices().nth(SHOWN) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// The hover text of a scalar (Markdown).
fn describe(value: &Value) -> String {
    let canonical = shorten(&jtoo::to_string(value).unwrap_or_default());
    let head = |kind: &str| format!("**{kind}** `{canonical}`");
    match value {
        Value::Timestamp(t) => {
            let utc: chrono::DateTime<chrono::Utc> = (*t).into();
            format!(
                "{}\n\n{} UTC",
                head("timestamp"),
                utc.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
            )
        }
        Value::DateTime(dt) => {
            let mut out = head(match (dt.date(), dt.time()) {
                (Some(_), Some(_)) => "date-time",
                (Some(_), None) => "date",
                (None, Some(_)) => "time",
                (None, None) => "offset",
            });
            if let Some(date) = dt.date()
                && let Ok(day) = chrono::NaiveDate::try_from(date)
            {
                use chrono::Datelike;
                let wd = WEEKDAYS[day.weekday().num_days_from_monday() as usize];
                let week = day.iso_week();
                out.push_str(&format!(
                    "\n\n{}, {} (ISO week {}-W{:02})",
                    wd,
                    day.format("%Y-%m-%d"),
                    week.year(),
                    week.week()
                ));
            }
            if let Ok(at) = chrono::DateTime::<chrono::Utc>::try_from(*dt) {
                out.push_str(&format!(
                    "\n\n{} UTC",
                    at.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
                ));
            }
            out
        }
        Value::Bytes(b) => {
            let mut out = format!(
                "{}\n\n{} byte{}",
                head("byte string"),
                b.len(),
                if b.len() == 1 { "" } else { "s" }
            );
            if !b.is_empty() && b.iter().all(|c| c.is_ascii_graphic() || *c == b' ') {
                out.push_str(&format!(
                    ": ASCII `{}`",
                    shorten(&String::from_utf8_lossy(b))
                ));
            }
            out
        }
        Value::String(s) => {
            let chars = s.chars().count();
            format!(
                "{}\n\n{} character{}, {} byte{} of UTF-8",
                head("string"),
                chars,
                if chars == 1 { "" } else { "s" },
                s.len(),
                if s.len() == 1 { "" } else { "s" }
            )
        }
        Value::Bool(b) => format!("{}\n\n{}", head("boolean"), if *b { "yes" } else { "no" }),
        Value::Integer(_) => head("integer"),
        Value::Decimal(_) => head("decimal"),
        Value::List(l) => head(&format!("list of {}", l.len())),
    }
}
