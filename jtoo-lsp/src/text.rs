//! A document's text and the conversions between byte offsets and LSP
//! positions (line and UTF-16 code unit, the protocol's default encoding).

use lsp_types::{Position, Range, TextDocumentContentChangeEvent};

/// How far apart the UTF-16 checkpoints are, in bytes: converting an offset
/// counts at most this many bytes, however long its line is.
const STRIDE: usize = 128;

/// A document's text with its line starts and UTF-16 checkpoints.
#[derive(Clone, Debug, Default)]
pub struct Text {
    text: String,
    /// Byte offset of the start of every line (the first is 0). Lines end
    /// at `\n`, `\r\n` or a lone `\r`, as the protocol counts them.
    lines: Vec<usize>,
    /// For byte offset `k * STRIDE` rounded down to a character boundary:
    /// that offset and the UTF-16 units of the text before it.
    marks: Vec<(usize, usize)>,
}

impl Text {
    /// Indexes `text`.
    pub fn new(text: String) -> Text {
        let mut t = Text {
            text,
            lines: Vec::new(),
            marks: Vec::new(),
        };
        t.index();
        t
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    fn index(&mut self) {
        let bytes = self.text.as_bytes();
        self.lines.clear();
        self.lines.push(0);
        self.lines.extend(
            memchr::memchr2_iter(b'\n', b'\r', bytes)
                // The `\r` of a `\r\n` is not a line end of its own.
                .filter(|&i| !(bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n')))
                .map(|i| i + 1),
        );
        self.marks.clear();
        let mut units = 0;
        let mut at = 0;
        for k in 0..=bytes.len() / STRIDE {
            let mut mark = k * STRIDE;
            while !self.text.is_char_boundary(mark) {
                mark -= 1;
            }
            units += utf16_len(&bytes[at..mark]);
            at = mark;
            self.marks.push((mark, units));
        }
    }

    /// UTF-16 units of the text before byte `offset` (a char boundary).
    fn units_before(&self, offset: usize) -> usize {
        let (mark, units) = self
            .marks
            .get(offset / STRIDE)
            .copied()
            .filter(|&(m, _)| m <= offset)
            .or_else(|| self.marks.get((offset / STRIDE).saturating_sub(1)).copied())
            .unwrap_or((0, 0));
        units + utf16_len(&self.text.as_bytes()[mark..offset])
    }

    /// The LSP position of byte `offset` (clamped to the text, moved back
    /// to a character boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self
            .lines
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.lines.get(line).copied().unwrap_or(0);
        let character = self.units_before(offset) - self.units_before(start);
        Position::new(to_u32(line), to_u32(character))
    }

    /// The LSP range of bytes `start..end`.
    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end))
    }

    /// The byte offset of an LSP position. A line past the end means the
    /// end of the text; a character past the end of its line means the end
    /// of the line (as the protocol says); one inside a surrogate pair
    /// means the character's start.
    pub fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.lines.get(position.line as usize) else {
            return self.text.len();
        };
        let end = match self.lines.get(position.line as usize + 1) {
            Some(&next) if self.text.as_bytes()[..next].ends_with(b"\r\n") => next - 2,
            Some(&next) => next - 1,
            None => self.text.len(),
        };
        // Start counting at the last checkpoint on the line before the
        // target, so a long line costs no more than a short one.
        let target = self.units_before(start) + position.character as usize;
        let k = self.marks.partition_point(|&(_, units)| units <= target);
        let (from, mut units) = match k.checked_sub(1).and_then(|k| self.marks.get(k)) {
            Some(&(mark, units)) if mark > start && mark <= end => (mark, units),
            _ => (start, self.units_before(start)),
        };
        let line = self.text.get(from..end).unwrap_or_default();
        for (i, c) in line.char_indices() {
            units += c.len_utf16();
            if units > target {
                return from + i;
            }
        }
        end
    }

    /// The range of the whole text.
    pub fn full_range(&self) -> Range {
        Range::new(Position::new(0, 0), self.position(self.text.len()))
    }

    /// Applies one change of `textDocument/didChange`: a ranged edit, or the
    /// whole new text when it has no range.
    pub fn apply(&mut self, change: TextDocumentContentChangeEvent) {
        match change.range {
            None => self.text = change.text,
            Some(range) => {
                let start = self.offset(range.start);
                let end = self.offset(range.end).max(start);
                self.text.replace_range(start..end, &change.text);
            }
        }
        self.index();
    }
}

/// UTF-16 code units of valid UTF-8 `bytes`: one per character, two for
/// one of four bytes.
fn utf16_len(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .map(|&b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0))
        .sum()
}

/// Protocol numbers are `u32`; a text is far smaller (`Document` holds less
/// than 4 GiB), so this saturates only in theory.
fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position::new(line, character)
    }

    #[test]
    fn positions_count_utf16_units() {
        // "é" is 2 bytes / 1 unit, "😀" 4 bytes / 2 units.
        let t = Text::new("[\"é😀\",\n x]".to_owned());
        assert_eq!(t.position(0), pos(0, 0));
        assert_eq!(t.position(2), pos(0, 2));
        assert_eq!(t.position(4), pos(0, 3));
        assert_eq!(t.position(8), pos(0, 5));
        assert_eq!(t.position(11), pos(1, 0));
        assert_eq!(t.position(12), pos(1, 1));
        // Inside a character: its start.
        assert_eq!(t.position(5), pos(0, 3));
        // Past the end: the end.
        assert_eq!(t.position(99), pos(1, 3));
        for offset in [0, 2, 4, 8, 9, 10, 11, 12, 13, 14] {
            assert_eq!(t.offset(t.position(offset)), offset, "{offset}");
        }
        // Between the two halves of 😀: the character's start.
        assert_eq!(t.offset(pos(0, 4)), 4);
        // Past the end of a line: the line's end; past the last line: the end.
        assert_eq!(t.offset(pos(0, 99)), 10);
        assert_eq!(t.offset(pos(7, 0)), 14);
    }

    #[test]
    fn lines_end_at_lf_crlf_and_lone_cr() {
        let t = Text::new("a\r\nb\rc\nd".to_owned());
        assert_eq!(t.position(3), pos(1, 0));
        assert_eq!(t.position(5), pos(2, 0));
        assert_eq!(t.position(7), pos(3, 0));
        // The line's end is before its terminator, whole.
        assert_eq!(t.offset(pos(0, 9)), 1);
        assert_eq!(t.offset(pos(1, 9)), 4);
        assert_eq!(t.offset(pos(2, 9)), 6);
        assert_eq!(t.offset(pos(3, 9)), 8);
        assert_eq!(t.position(1), pos(0, 1));
    }

    #[test]
    fn long_lines_convert_through_checkpoints() {
        let mut s = String::new();
        for i in 0..5000 {
            s.push(if i % 3 == 0 { '😀' } else { 'a' });
        }
        let t = Text::new(s.clone());
        let mut units = 0;
        for (i, c) in s.char_indices() {
            assert_eq!(t.position(i), pos(0, units), "{i}");
            assert_eq!(t.offset(pos(0, units)), i);
            units += c.len_utf16() as u32;
        }
        assert_eq!(t.position(s.len()), pos(0, units));
    }

    #[test]
    fn every_boundary_round_trips_on_many_long_lines() {
        let mut s = String::new();
        for line in 0..40 {
            for i in 0..(line * 37) % 400 {
                s.push(['a', 'é', '😀', '你'][(i + line) % 4]);
            }
            s.push_str(["\n", "\r\n", "\r"][line % 3]);
        }
        let t = Text::new(s.clone());
        let mut line = 0;
        let mut character = 0;
        let mut chars = s.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            assert_eq!(t.position(i), pos(line, character), "{i}");
            assert_eq!(t.offset(pos(line, character)), i, "{line}:{character}");
            match c {
                '\r' if chars.peek().map(|&(_, c)| c) == Some('\n') => {
                    chars.next();
                    (line, character) = (line + 1, 0);
                }
                '\r' | '\n' => (line, character) = (line + 1, 0),
                c => character += c.len_utf16() as u32,
            }
        }
    }

    #[test]
    fn ranged_changes_apply() {
        let mut t = Text::new("[1,\n 2]".to_owned());
        t.apply(TextDocumentContentChangeEvent {
            range: Some(Range::new(pos(1, 1), pos(1, 2))),
            range_length: None,
            text: "\"😀\"".to_owned(),
        });
        assert_eq!(t.as_str(), "[1,\n \"😀\"]");
        t.apply(TextDocumentContentChangeEvent {
            range: Some(Range::new(pos(0, 0), pos(1, 0))),
            range_length: None,
            text: String::new(),
        });
        assert_eq!(t.as_str(), " \"😀\"]");
        // A reversed range deletes nothing.
        t.apply(TextDocumentContentChangeEvent {
            range: Some(Range::new(pos(0, 1), pos(0, 0))),
            range_length: None,
            text: "x".to_owned(),
        });
        assert_eq!(t.as_str(), " x\"😀\"]");
        t.apply(TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: "Y".to_owned(),
        });
        assert_eq!(t.as_str(), "Y");
        assert_eq!(t.full_range(), Range::new(pos(0, 0), pos(0, 1)));
    }
}
