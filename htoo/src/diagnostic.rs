//! Errors people can act on: the message, `file:line:column`, the source
//! line and a caret under the spot, in the style of rustc and toml.
//!
//! ```text
//! error: expected `,` or `]`
//!  --> config.htoo:3:10
//!   |
//! 3 |   ["b", 2 3],
//!   |          ^
//! ```
//!
//! The caret stays under the right character with tabs (shown as four
//! spaces), wide characters (two columns), control characters (shown as
//! their Unicode "control picture", e.g. `␛`), CRLF line ends, invalid UTF-8
//! (shown as `�`) and errors at the end of the input. Very long lines (a
//! minified document) are cut to a window around the caret. Rendering never
//! panics.

use jtoo::{Error, ErrorKind};
use std::fmt;

/// How many columns of a long source line are shown around the caret.
const WINDOW: usize = 100;

/// Columns a tab is shown as.
const TAB: usize = 4;

/// A parse error, laid out for people: see [`render_diagnostic`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    message: String,
    file_name: String,
    snippet: Option<Snippet>,
    hint: Option<&'static str>,
}

/// The positioned part of a diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Snippet {
    line: usize,
    column: usize,
    /// The source line as shown (tabs expanded, controls made visible).
    text: String,
    /// Display columns before the caret.
    caret: usize,
    label: Option<&'static str>,
}

impl Diagnostic {
    /// Lays out `err`, which came from parsing `source` (the whole input),
    /// read from `file_name` (shown as is, e.g. `config.htoo` or `<stdin>`).
    pub fn new(err: &Error, source: &[u8], file_name: &str) -> Diagnostic {
        let mut d = Diagnostic::at(err.message(), err.position(), source, file_name);
        if let Some(s) = &mut d.snippet {
            s.label = label(err.kind());
        }
        d.hint = hint(err, source);
        d
    }

    /// Lays out any `message` about `position` in `source` (the whole
    /// input, read from `file_name`): for errors that are not
    /// [`jtoo::Error`]s, such as a typed deserializer's "missing field".
    ///
    /// ```
    /// let src = b"[\n  \"port\": \"80\",\n]";
    /// let at = jtoo::Position::of(src, 12);
    /// let d = htoo::Diagnostic::at("port: expected u16", Some(at), src, "app.htoo");
    /// assert_eq!(
    ///     d.to_string(),
    ///     "error: port: expected u16\n --> app.htoo:2:11\n  |\n2 |   \"port\": \"80\",\n  |           ^\n"
    /// );
    /// ```
    pub fn at(
        message: impl Into<String>,
        position: Option<jtoo::Position>,
        source: &[u8],
        file_name: &str,
    ) -> Diagnostic {
        let snippet = position.map(|p| {
            let offset = p.offset.min(source.len());
            let line_start = memchr::memrchr(b'\n', &source[..offset]).map_or(0, |i| i + 1);
            let line_end =
                memchr::memchr(b'\n', &source[offset..]).map_or(source.len(), |i| offset + i);
            let mut line = &source[line_start..line_end];
            if let [head @ .., b'\r'] = line
                && offset < line_start + head.len()
            {
                line = head;
            }
            // Only the part of a long line the window can show is read (a
            // minified document may be one line of hundreds of MiB): every
            // character is at least one column and at most four bytes, so
            // `REACH` bytes on each side hold more than the window needs,
            // and cutting there keeps the window and its `…` marks as they
            // would be from the whole line.
            let from = char_start(line, (offset - line_start).saturating_sub(REACH));
            let to = char_start(line, (offset - line_start).saturating_add(REACH));
            let caret = display_width(&String::from_utf8_lossy(&line[from..offset - line_start]));
            let (text, caret) = window(&String::from_utf8_lossy(&line[from..to]), caret);
            Snippet {
                line: p.line,
                column: p.column,
                text,
                caret,
                label: None,
            }
        });
        Diagnostic {
            message: message.into(),
            file_name: file_name.to_owned(),
            snippet,
            hint: None,
        }
    }

    /// The hint shown as `= help: …`, when the error looks like a JSON
    /// habit (see [`hint`]).
    pub fn hint(&self) -> Option<&'static str> {
        self.hint
    }

    /// The message, e.g. ``expected `,` or `]` ``.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The file name given to [`Diagnostic::new`].
    pub fn file_name(&self) -> &str {
        &self.file_name
    }

    /// The source excerpt alone: the gutter, the error's line (a window of
    /// about 100 columns around the caret when the line is longer, a
    /// minified document's included) and the caret, each line ending in
    /// `\n`; empty when the error has no position. For a tool whose first
    /// line is its own, such as `file:line:col: message`.
    ///
    /// ```
    /// let src = format!("[{}1,,2]", "1,".repeat(5000));
    /// let err = jtoo::from_str(&src).unwrap_err();
    /// let excerpt = htoo::Diagnostic::new(&err, src.as_bytes(), "big.jtoo").excerpt();
    /// assert_eq!(excerpt.lines().count(), 3);
    /// assert!(excerpt.lines().nth(1).is_some_and(|l| l.starts_with("1 | …1,1,") && l.len() < 120));
    /// assert!(excerpt.ends_with("^\n"));
    /// ```
    pub fn excerpt(&self) -> String {
        let mut out = String::new();
        if let Some(s) = &self.snippet {
            // Writing to a String does not fail.
            let _ = s.write_excerpt(&mut out);
        }
        out
    }

    /// 1-based line, when the error has a position.
    pub fn line(&self) -> Option<usize> {
        self.snippet.as_ref().map(|s| s.line)
    }

    /// 1-based column (in Unicode scalar values), when the error has a
    /// position.
    pub fn column(&self) -> Option<usize> {
        self.snippet.as_ref().map(|s| s.column)
    }
}

impl Snippet {
    /// The gutter, the source line and the caret line.
    fn write_excerpt(&self, f: &mut impl fmt::Write) -> fmt::Result {
        let number = self.line.to_string();
        let pad = " ".repeat(number.len());
        writeln!(f, "{pad} |")?;
        if self.text.is_empty() {
            writeln!(f, "{number} |")?;
        } else {
            writeln!(f, "{number} | {}", self.text)?;
        }
        write!(f, "{pad} | {}^", " ".repeat(self.caret))?;
        match self.label {
            Some(label) => writeln!(f, " {label}"),
            None => writeln!(f),
        }
    }
}

impl fmt::Display for Diagnostic {
    /// The rendered diagnostic; every line, the last included, ends in `\n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "error: {}", self.message)?;
        let Some(s) = &self.snippet else {
            return writeln!(f, " --> {}", self.file_name);
        };
        let pad = " ".repeat(s.line.to_string().len());
        writeln!(f, "{pad}--> {}:{}:{}", self.file_name, s.line, s.column)?;
        s.write_excerpt(f)?;
        match self.hint {
            Some(hint) => writeln!(f, "{pad} = help: {hint}"),
            None => Ok(()),
        }
    }
}

/// A hint for an error caused by a byte-order mark at the start or a CRLF
/// line end, or where a JSON habit meets JTOO: `true` / `false`,
/// `null`, `{`, a decimal without its leading `0`. `source` is the input
/// `err` came from; the hint looks at the bytes where the error points.
///
/// ```
/// let src = r#"["debug":true]"#;
/// let err = htoo::from_str(src).unwrap_err();
/// assert_eq!(htoo::hint(&err, src.as_bytes()), Some("booleans are `Y` / `N`"));
/// let shown = htoo::render_diagnostic(&err, src.as_bytes(), "app.htoo");
/// assert!(shown.ends_with("  = help: booleans are `Y` / `N`\n"));
///
/// // A byte-order mark, or CRLF line ends in strict JTOO, are named too.
/// let bom = b"\xef\xbb\xbf[1]";
/// let err = jtoo::from_slice(bom).unwrap_err();
/// assert!(htoo::hint(&err, bom).is_some_and(|h| h.contains("byte-order mark")));
/// let crlf = b"[1]\r\n";
/// let err = jtoo::from_slice(crlf).unwrap_err();
/// assert!(htoo::hint(&err, crlf).is_some_and(|h| h.contains("CRLF")));
/// ```
pub fn hint(err: &Error, source: &[u8]) -> Option<&'static str> {
    let offset = err.position()?.offset;
    let at = source.get(offset..)?;
    if offset == 0 && at.starts_with(b"\xef\xbb\xbf") {
        return Some(
            "the file starts with a byte-order mark (U+FEFF), which JTOO and HTOO do not allow: \
             save it as UTF-8 without a BOM",
        );
    }
    if at.starts_with(b"\r\n") {
        return Some(
            "a CRLF line end (`\\r\\n`, as Windows writes them): strict JTOO allows no line \
             break but one final `\\n`; HTOO reads CRLF line ends",
        );
    }
    let word = |w: &[u8]| {
        at.strip_prefix(w)
            .is_some_and(|rest| !rest.first().is_some_and(u8::is_ascii_alphanumeric))
    };
    let signed = at.strip_prefix(b"-").unwrap_or(at);
    if word(b"true") || word(b"false") {
        Some("booleans are `Y` / `N`")
    } else if word(b"null") {
        Some("JTOO has no null: leave the member out")
    } else if at.first() == Some(&b'{') {
        Some(r#"records are lists of pairs: `["key":value]`"#)
    } else if signed.first() == Some(&b'.') && signed.get(1).is_some_and(u8::is_ascii_digit) {
        Some("a decimal starts with a digit: `0.75`, not `.75`")
    } else {
        None
    }
}

/// Renders `err` from parsing `source` (read from `file_name`) as a
/// rustc-style diagnostic. Every line ends in `\n`, so print it with
/// `eprint!`.
///
/// ```
/// let src = "[\n  [\"a\", 1],\n  [\"b\", 2 3],\n]\n";
/// let err = htoo::from_str(src).unwrap_err();
/// assert_eq!(
///     htoo::render_diagnostic(&err, src.as_bytes(), "config.htoo"),
///     "error: expected `,` or `]`\n \
///      --> config.htoo:3:10\n  \
///       |\n\
///      3 |   [\"b\", 2 3],\n  \
///       |          ^\n"
/// );
/// ```
pub fn render_diagnostic(err: &Error, source: &[u8], file_name: &str) -> String {
    Diagnostic::new(err, source, file_name).to_string()
}

/// The label after the caret: errors positioned where something started.
fn label(kind: ErrorKind) -> Option<&'static str> {
    match kind {
        ErrorKind::UnclosedString => Some("the string starts here"),
        ErrorKind::UnclosedList => Some("the list starts here"),
        ErrorKind::UnclosedComment => Some("the comment starts here"),
        _ => None,
    }
}

/// How a character is shown, and its width in columns.
fn shown(c: char) -> (Shown, usize) {
    match c {
        '\t' => (Shown::Spaces(TAB), TAB),
        '\0'..='\x1f' => (
            Shown::Char(char::from_u32(0x2400 + c as u32).unwrap_or('�')),
            1,
        ),
        '\x7f' => (Shown::Char('\u{2421}'), 1),
        c if is_wide(c) => (Shown::Char(c), 2),
        c => (Shown::Char(c), 1),
    }
}

enum Shown {
    Spaces(usize),
    Char(char),
}

/// The bytes on each side of an error's offset that its line's window is
/// made from (see [`Diagnostic::at`]).
const REACH: usize = 4 * (WINDOW + 1);

/// The start of the character at or after `at` in `line` (`line.len()`
/// past its end): a cut there splits no UTF-8 sequence.
fn char_start(line: &[u8], at: usize) -> usize {
    let mut at = at.min(line.len());
    while at < line.len() && at > 0 && line[at] & 0xC0 == 0x80 {
        at += 1;
    }
    at
}

fn display_width(s: &str) -> usize {
    s.chars().map(|c| shown(c).1).sum()
}

/// The shown form of `line`, cut to about [`WINDOW`] columns around the
/// caret when it is longer, and the caret's column in it.
fn window(line: &str, caret: usize) -> (String, usize) {
    let total = display_width(line);
    let (lo, hi) = if total <= WINDOW {
        (0, total)
    } else {
        let lo = caret.saturating_sub(WINDOW / 2);
        (lo, lo + WINDOW)
    };
    let mut text = String::new();
    let mut caret_out = caret - lo;
    if lo > 0 {
        text.push('…');
        caret_out += 1;
    }
    let mut col = 0;
    for c in line.chars() {
        let (s, w) = shown(c);
        if col >= lo && col + w <= hi {
            match s {
                Shown::Spaces(n) => text.extend(std::iter::repeat_n(' ', n)),
                Shown::Char(c) => text.push(c),
            }
        } else if col < lo && col + w > lo {
            // A wide character cut by the window's left edge.
            text.push(' ');
        }
        col += w;
        if col >= hi {
            break;
        }
    }
    if hi < total {
        text.push('…');
    }
    (text, caret_out)
}

/// East Asian wide and fullwidth characters and emoji, which take two
/// terminal columns: a close approximation of Unicode's `EastAsianWidth`
/// W and F classes, as sorted, disjoint inclusive ranges.
const WIDE: [(u32, u32); 15] = [
    (0x1100, 0x115F),
    (0x2E80, 0x303E),
    (0x3041, 0x33FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xA000, 0xA4CF),
    (0xAC00, 0xD7A3),
    (0xF900, 0xFAFF),
    (0xFE30, 0xFE4F),
    (0xFF00, 0xFF60),
    (0xFFE0, 0xFFE6),
    (0x1F300, 0x1F64F),
    (0x1F900, 0x1F9FF),
    (0x20000, 0x2FFFD),
    (0x30000, 0x3FFFD),
];

fn is_wide(c: char) -> bool {
    let c = c as u32;
    let i = WIDE.partition_point(|&(_, hi)| hi < c);
    WIDE.get(i).is_some_and(|&(lo, _)| lo <= c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_characters() {
        assert!(WIDE.windows(2).all(|w| w[0].1 < w[1].0));
        assert!(is_wide('你') && is_wide('😀') && is_wide('\u{1100}') && is_wide('\u{3fffd}'));
        assert!(!is_wide('a') && !is_wide('é') && !is_wide('\u{10ff}') && !is_wide('\u{1160}'));
    }

    proptest::proptest! {
        /// A long line's window, made from the bytes around the offset
        /// alone, is the window made from the whole line.
        #[test]
        fn a_window_from_the_reach_is_the_window_from_the_whole_line(
            before in proptest::collection::vec(proptest::sample::select(vec!['a', '\t', '\u{1}', 'é', '你', '😀']), 0..700),
            after in proptest::collection::vec(proptest::sample::select(vec!['b', '\t', '\u{7f}', 'ü', '語', '🎉', '\r']), 0..700),
        ) {
            let before: String = before.into_iter().collect();
            let after: String = after.into_iter().collect();
            let source = format!("x\n{before}{after}\ny");
            let offset = 2 + before.len();
            let position = jtoo::Position { line: 2, column: 1, offset };
            let snippet = Diagnostic::at("m", Some(position), source.as_bytes(), "f")
                .snippet
                .expect("a snippet");
            // The whole line, as the window was made before.
            let mut line = format!("{before}{after}");
            if line.ends_with('\r') && offset < 2 + line.len() - 1 {
                line.pop();
            }
            let (text, caret) = window(&line, display_width(&before));
            proptest::prop_assert_eq!((snippet.text, snippet.caret), (text, caret));
        }
    }

    #[test]
    fn window_keeps_short_lines_whole() {
        assert_eq!(window("abc", 1), ("abc".to_owned(), 1));
        assert_eq!(window("a\tb", 2), ("a    b".to_owned(), 2));
    }

    #[test]
    fn window_cuts_long_lines_around_the_caret() {
        let line = "x".repeat(1000);
        let (text, caret) = window(&line, 500);
        assert_eq!(text.chars().count(), WINDOW + 2);
        assert!(text.starts_with('…') && text.ends_with('…'));
        assert_eq!(caret, WINDOW / 2 + 1);
    }
}
