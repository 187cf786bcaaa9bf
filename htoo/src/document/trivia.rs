//! The bytes between values: whitespace, newlines, comments and the `,` and
//! `:` between items. A [`Document`](super::Document) does not store them:
//! they are the text between where one value ended and the next began,
//! split into pieces here when asked for. The text was checked by the
//! parser (`jtoo::parse::ws`) before any of it is split, so splitting only
//! looks for where each piece ends.

use super::Span;

/// What one piece of trivia is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TriviaKind {
    /// A run of spaces, tabs and carriage returns (never a line feed).
    Whitespace,
    /// One line feed (`\n`).
    Newline,
    /// A `// …` comment, up to (not including) its line feed.
    LineComment,
    /// A `/* … */` comment (it may span lines).
    BlockComment,
    /// The `,` after a list item.
    Comma,
    /// The `:` of a pair.
    Colon,
}

impl TriviaKind {
    /// `true` for both kinds of comment.
    pub fn is_comment(self) -> bool {
        matches!(self, TriviaKind::LineComment | TriviaKind::BlockComment)
    }
}

/// One piece of the text between two values: its kind and where it is.
///
/// ```
/// use htoo::{Document, TriviaKind};
/// let doc = Document::parse("[1, // one\n 2]")?;
/// let kinds: Vec<TriviaKind> = doc.trivia(2..doc.as_str().len() - 2).map(|t| t.kind).collect();
/// assert_eq!(kinds, [
///     TriviaKind::Comma, TriviaKind::Whitespace, TriviaKind::LineComment,
///     TriviaKind::Newline, TriviaKind::Whitespace,
/// ]);
/// # Ok::<(), htoo::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Trivia {
    /// What the piece is.
    pub kind: TriviaKind,
    /// Where it is in the document's text.
    pub span: Span,
}

/// The pieces of trivia in a range of a document's text, in order (see
/// [`Document::trivia`](super::Document::trivia)).
#[derive(Clone, Debug)]
pub struct TriviaIter<'d> {
    text: &'d [u8],
    pos: usize,
    end: usize,
}

impl<'d> TriviaIter<'d> {
    pub(super) fn new(text: &'d str, start: usize, end: usize) -> TriviaIter<'d> {
        let end = end.min(text.len());
        TriviaIter {
            text: text.as_bytes(),
            pos: start.min(end),
            end,
        }
    }
}

impl Iterator for TriviaIter<'_> {
    type Item = Trivia;

    fn next(&mut self) -> Option<Trivia> {
        let text = self.text.get(..self.end)?;
        let start = self.pos;
        let first = *text.get(start)?;
        let end = match first {
            b'\n' => start + 1,
            b',' | b':' => start + 1,
            b'/' => match text.get(start + 1) {
                Some(b'*') => text
                    .get(start + 2..)
                    .and_then(|rest| memchr::memmem::find(rest, b"*/"))
                    .map_or(self.end, |n| start + 2 + n + 2),
                _ => text
                    .get(start..)
                    .and_then(|rest| memchr::memchr(b'\n', rest))
                    .map_or(self.end, |n| start + n),
            },
            b' ' | b'\t' | b'\r' => {
                start
                    + text[start..]
                        .iter()
                        .take_while(|b| matches!(b, b' ' | b'\t' | b'\r'))
                        .count()
            }
            // Not trivia (the range was not a gap between values): the
            // rest of the range is reported as whitespace, never split.
            _ => self.end,
        };
        let kind = match first {
            b'\n' => TriviaKind::Newline,
            b',' => TriviaKind::Comma,
            b':' => TriviaKind::Colon,
            b'/' if text.get(start + 1) == Some(&b'*') => TriviaKind::BlockComment,
            b'/' => TriviaKind::LineComment,
            _ => TriviaKind::Whitespace,
        };
        self.pos = end.min(self.end);
        Some(Trivia {
            kind,
            span: Span::new(start, self.pos),
        })
    }
}

impl std::iter::FusedIterator for TriviaIter<'_> {}

/// The comments around an item found in the gaps before and after it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Attached {
    /// From the first to the last comment of the block above the item (and
    /// before it on its own line).
    pub(crate) leading: Option<Span>,
    /// Where the lines of the leading block start: the first byte of the
    /// topmost comment line (what a removal takes away with the item).
    pub(crate) leading_line: Option<usize>,
    /// From the first to the last comment after the item on its last line.
    pub(crate) trailing: Option<Span>,
}

/// The comments that belong to the item at `item` given the gap before it
/// (`before`, from the end of the previous value or the `[`) and the gap
/// after it (`after`, to the next item, the `]` or the end of the text).
pub(super) fn attached(text: &str, before: Span, item: Span, after: Span) -> Attached {
    let (leading, leading_line) = leading(text, before);
    Attached {
        leading,
        leading_line,
        trailing: trailing(text, after, item),
    }
}

/// The comment block just above the item whose gap before it is `gap`:
/// comments before it on its own line (after any `,`), then whole lines of
/// comments above it, up to a blank line or a line with anything else.
fn leading(text: &str, gap: Span) -> (Option<Span>, Option<usize>) {
    let pieces: Vec<Trivia> = TriviaIter::new(text, gap.start, gap.end).collect();
    let mut first: Option<usize> = None; // start of the block's first comment
    let mut last: Option<usize> = None; // end of the block's last comment
    let mut line_start: Option<usize> = None;
    // The item's own line, back to the last newline or `,`.
    let mut i = pieces.len();
    while let Some(p) = i.checked_sub(1).and_then(|k| pieces.get(k)) {
        match p.kind {
            TriviaKind::Newline | TriviaKind::Comma | TriviaKind::Colon => break,
            k if k.is_comment() => {
                first = Some(p.span.start);
                last = last.or(Some(p.span.end));
            }
            _ => {}
        }
        i -= 1;
    }
    // Whole lines above, each ending at the newline at `i - 1`.
    while i > 0 && pieces.get(i - 1).map(|p| p.kind) == Some(TriviaKind::Newline) {
        let mut j = i - 1;
        let (mut line_first, mut line_last, mut pure) = (None, None, true);
        while let Some(p) = j.checked_sub(1).and_then(|k| pieces.get(k)) {
            match p.kind {
                TriviaKind::Newline => break,
                TriviaKind::Whitespace => {}
                k if k.is_comment() => {
                    line_first = Some(p.span.start);
                    line_last = line_last.or(Some(p.span.end));
                }
                _ => pure = false,
            }
            j -= 1;
        }
        // A whole line starts after a newline of the gap, or the gap
        // starts a line.
        let whole = j > 0 || gap.start == 0 || text.as_bytes().get(gap.start - 1) == Some(&b'\n');
        match (line_first, line_last) {
            (Some(f), Some(l)) if pure && whole => {
                first = Some(f);
                last = last.or(Some(l));
                line_start = Some(pieces.get(j).map_or(gap.start, |p| p.span.start));
            }
            _ => break,
        }
        i = j;
    }
    match (first, last) {
        (Some(f), Some(l)) => (Some(Span::new(f, l)), line_start),
        _ => (None, None),
    }
}

/// The comments after the item on the line where it ends: up to the first
/// newline of the gap after it (`gap`), when no other item starts on that
/// line.
fn trailing(text: &str, gap: Span, _item: Span) -> Option<Span> {
    let mut first = None;
    let mut last = None;
    let mut newline = false;
    for p in TriviaIter::new(text, gap.start, gap.end) {
        match p.kind {
            TriviaKind::Newline => {
                newline = true;
                break;
            }
            k if k.is_comment() => {
                first = first.or(Some(p.span.start));
                last = Some(p.span.end);
            }
            _ => {}
        }
    }
    // Without a newline, the gap ends at the next item (on the same line:
    // the comments are between two items) or at the `]` or the end.
    let at_end = matches!(text.as_bytes().get(gap.end), None | Some(b']'));
    match (first, last) {
        (Some(f), Some(l)) if newline || at_end => Some(Span::new(f, l)),
        _ => None,
    }
}
