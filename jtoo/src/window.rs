//! The window over a byte stream that the streaming readers share
//! ([`crate::stream::Reader`] for JTOO and HTOO, [`crate::json::stream::Reader`]
//! for JSON): reading ahead, dropping consumed bytes, running a production
//! again on a longer window when it reaches the window's end, the token
//! limit, and the line and column of any byte still held.
//!
//! Memory: a buffer of 2 reads, then of 16 once the input is longer, grown
//! beyond that only for a window longer than it (a token longer than the
//! buffer), and bounded by the token limit.

use crate::error::{Error, ErrorKind, Position};
use crate::parse::string::Known;
use std::io::Read;

/// What a production run on the window found.
pub(crate) enum Judged<T> {
    /// A result after `.0` bytes. When they are the whole window and more
    /// input may come, the production runs again on a longer window.
    Done(usize, T),
    /// An error `.0` bytes past the position, which no later byte could
    /// change (the production judges that: it is told the window and
    /// whether the input has ended).
    Fail(usize, ErrorKind),
    /// More input could change the outcome: run again on a longer window.
    More,
}

/// Lines and columns, counted once per byte: the position of buffer index
/// `index`, from which later positions are counted on.
#[derive(Clone, Copy, Debug)]
struct Lines {
    index: usize,
    /// 1-based line at `index`.
    line: usize,
    /// Code points between the start of that line and `index`.
    column: usize,
}

/// A window over `src`: see the [module documentation](self).
pub(crate) struct Window<R> {
    src: R,
    /// `buf[..end]` holds the bytes read and not yet dropped; the rest is
    /// room for the next reads.
    buf: Vec<u8>,
    end: usize,
    /// `buf[..utf8]` is known to be UTF-8 (checked once per read).
    utf8: usize,
    /// An invalid UTF-8 sequence was read: strings check their own.
    not_utf8: bool,
    /// The next unread byte in `buf`.
    pos: usize,
    /// The input offset of `buf[0]`.
    base: usize,
    lines: Lines,
    eof: bool,
    /// Bytes per read, kept ahead of the position before each step.
    lookahead: usize,
    /// The longest token a production may need.
    max_token: usize,
    /// Input offsets whose positions outlive their bytes (the `[` of each
    /// open list), counted when the bytes are dropped.
    marks: Vec<Mark>,
    /// Bytes the productions run on the window went over, for the tests
    /// that bound how often each byte is checked: what a production took,
    /// or the window it failed on.
    #[cfg(test)]
    pub(crate) checked: std::cell::Cell<usize>,
}

/// An input offset and, once its bytes were dropped, its position.
#[derive(Clone, Copy, Debug)]
struct Mark {
    offset: usize,
    position: Option<Position>,
}

impl<R: Read> Window<R> {
    pub(crate) fn new(src: R, lookahead: usize) -> Window<R> {
        Window {
            src,
            buf: Vec::new(),
            end: 0,
            utf8: 0,
            not_utf8: false,
            pos: 0,
            base: 0,
            lines: Lines {
                index: 0,
                line: 1,
                column: 0,
            },
            eof: false,
            lookahead,
            max_token: usize::MAX,
            marks: Vec::new(),
            #[cfg(test)]
            checked: std::cell::Cell::new(0),
        }
    }

    pub(crate) fn set_lookahead(&mut self, bytes: usize) {
        self.lookahead = bytes.max(1);
    }

    pub(crate) fn lookahead(&self) -> usize {
        self.lookahead
    }

    pub(crate) fn set_max_token(&mut self, bytes: usize) {
        self.max_token = bytes;
    }

    /// The buffer's capacity in bytes.
    pub(crate) fn capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// The input offset of the first byte held, and the bytes held.
    pub(crate) fn buffered(&self) -> (usize, &[u8]) {
        (self.base, self.buf.get(..self.end).unwrap_or_default())
    }

    /// The input still held from input offset `offset` on (empty when it
    /// was dropped already).
    #[cfg(feature = "json")]
    pub(crate) fn held_from(&self, offset: usize) -> &[u8] {
        offset
            .checked_sub(self.base)
            .and_then(|i| self.buf.get(i..self.end))
            .unwrap_or_default()
    }

    /// The input offset of the position.
    pub(crate) fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// The buffer index of input offset `offset` (a byte still held).
    pub(crate) fn index(&self, offset: usize) -> usize {
        offset.saturating_sub(self.base)
    }

    /// The buffer index of the position.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// Moves the position `n` bytes on (within the bytes held).
    pub(crate) fn skip(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.end);
    }

    /// Moves the position to buffer index `index` (within the bytes held).
    pub(crate) fn skip_to(&mut self, index: usize) {
        self.pos = index.min(self.end);
    }

    /// The input offset of buffer index `index`.
    pub(crate) fn offset_of(&self, index: usize) -> usize {
        self.base + index
    }

    /// The bytes from buffer index `start` to the position.
    pub(crate) fn since(&self, start: usize) -> &[u8] {
        self.buf.get(start..self.pos).unwrap_or_default()
    }

    /// The bytes held from the position on.
    pub(crate) fn rest(&self) -> &[u8] {
        self.buf.get(self.pos..self.end).unwrap_or_default()
    }

    /// Whether the input has ended (every byte of it is held or dropped).
    pub(crate) fn eof(&self) -> bool {
        self.eof
    }

    /// What is known of the bytes held: UTF-8 when every one was checked.
    pub(crate) fn known(&self) -> Known<'static> {
        if self.utf8 == self.end {
            Known::UTF8
        } else {
            Known::NOTHING
        }
    }

    /// The next byte, reading if needed; `None` at the end of input.
    pub(crate) fn peek(&mut self) -> Result<Option<u8>, Error> {
        self.fill(1)?;
        Ok(self.rest().first().copied())
    }

    /// Runs `production` on the window (told what is known of it and
    /// whether the input has ended) and moves past what it read; returns
    /// the bytes consumed and its result. While it asks for more input, or
    /// its result reaches the end of the window, the window grows
    /// (doubling) and it runs again, up to the token limit. An error is
    /// made by `report` from its kind and buffer index.
    pub(crate) fn run<T>(
        &mut self,
        mut production: impl FnMut(&[u8], Known<'static>, bool) -> Judged<T>,
        report: impl Fn(&Self, ErrorKind, usize) -> Error,
    ) -> Result<(usize, T), Error> {
        self.fill(self.lookahead)?;
        let judged = production(self.rest(), self.known(), self.eof);
        self.run_judged(judged, production, report)
    }

    /// [`Window::run`] when `judged` is what `production` found on the
    /// window as it is, after a [`Window::fill`] of the read size.
    pub(crate) fn run_judged<T>(
        &mut self,
        mut judged: Judged<T>,
        mut production: impl FnMut(&[u8], Known<'static>, bool) -> Judged<T>,
        report: impl Fn(&Self, ErrorKind, usize) -> Error,
    ) -> Result<(usize, T), Error> {
        loop {
            let len = self.end - self.pos;
            #[cfg(test)]
            {
                let n = match judged {
                    Judged::Done(taken, _) => taken,
                    Judged::Fail(at, _) => at,
                    Judged::More => len,
                };
                self.checked.set(self.checked.get() + n);
            }
            match judged {
                Judged::Done(taken, v) if taken < len || self.eof => {
                    self.pos += taken;
                    return Ok((taken, v));
                }
                Judged::Fail(at, kind) => return Err(report(self, kind, self.pos + at)),
                Judged::Done(..) | Judged::More => {}
            }
            if len >= self.max_token {
                return Err(report(
                    self,
                    ErrorKind::TokenTooLong(self.max_token),
                    self.pos,
                ));
            }
            self.fill(len.saturating_mul(2).max(self.lookahead))?;
            judged = production(self.rest(), self.known(), self.eof);
        }
    }

    /// Reads until `want` bytes are ahead of the position or the input
    /// ends. Reads go into the room after the held bytes; when there is
    /// too little, the consumed bytes are dropped first, and the buffer
    /// grows from 2 reads to 16, beyond that only for a window longer than
    /// it. The buffer is zeroed only
    /// when it grows, so a source that returns a few bytes per read costs
    /// no more than one that fills it.
    #[inline]
    pub(crate) fn fill(&mut self, want: usize) -> Result<(), Error> {
        if self.eof || self.end - self.pos >= want {
            return Ok(());
        }
        self.read_more(want)
    }

    /// [`Window::fill`] when there is less than `want` ahead.
    #[inline(never)]
    fn read_more(&mut self, want: usize) -> Result<(), Error> {
        while !self.eof && self.end - self.pos < want {
            let block = want.max(self.lookahead);
            if self.buf.len() - self.end < block {
                if self.pos > 0 {
                    self.discard();
                }
                // Two reads' room at first, so a short input zeroes little
                // (from_reader of a 28-byte document zeroed 1 MiB); sixteen
                // once it is longer, so the held bytes move down about once
                // per fifteen reads.
                let reads = if self.buf.is_empty() { 2 } else { 16 };
                let size = (self.end + block).max(self.lookahead.saturating_mul(reads));
                if self.buf.len() < size {
                    self.buf.resize(size, 0);
                }
            }
            let room = self.buf.get_mut(self.end..).unwrap_or_default();
            let n = loop {
                match self.src.read(room) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(Error::from(e)),
                }
            };
            self.end += n;
            self.eof = n == 0;
            self.check_utf8();
        }
        Ok(())
    }

    /// Moves the checked-UTF-8 mark over the bytes just read, up to a
    /// sequence cut by the end of the read (checked with the next one).
    fn check_utf8(&mut self) {
        if self.not_utf8 {
            return;
        }
        let unchecked = self.buf.get(self.utf8..self.end).unwrap_or_default();
        match simdutf8::compat::from_utf8(unchecked) {
            Ok(_) => self.utf8 = self.end,
            Err(e) => {
                self.utf8 += e.valid_up_to();
                // Invalid, not cut: strings now check their own.
                self.not_utf8 = e.error_len().is_some() || self.eof;
            }
        }
    }

    /// Marks input offset `offset` (a byte held): its position stays known
    /// after its bytes are dropped, until [`Window::pop_mark`].
    pub(crate) fn push_mark(&mut self, offset: usize) {
        self.marks.push(Mark {
            offset,
            position: None,
        });
    }

    pub(crate) fn pop_mark(&mut self) {
        self.marks.pop();
    }

    /// An error at the last mark (or at the position, without one).
    pub(crate) fn last_mark_error(&self, kind: ErrorKind) -> Error {
        match self.marks.last() {
            Some(Mark {
                position: Some(p), ..
            }) => Error::at_position(kind, *p),
            Some(m) => self.error(kind, self.index(m.offset)),
            None => self.error(kind, self.pos),
        }
    }

    /// Drops the consumed bytes, keeping count of their lines (and the
    /// positions of the marks among them).
    fn discard(&mut self) {
        let dropped = self.base + self.pos;
        for i in 0..self.marks.len() {
            if let Some(m) = self.marks.get(i).copied()
                && m.position.is_none()
                && m.offset < dropped
            {
                let index = self.index(m.offset);
                self.count_lines(index);
                let position = self.position(index);
                if let Some(m) = self.marks.get_mut(i) {
                    m.position = Some(position);
                }
            }
        }
        self.count_lines(self.pos);
        self.buf.copy_within(self.pos..self.end, 0);
        self.end -= self.pos;
        self.utf8 = self.utf8.saturating_sub(self.pos);
        self.base += self.pos;
        self.lines.index -= self.pos;
        self.pos = 0;
    }

    /// Moves the line count on to buffer index `index` (at or after it).
    fn count_lines(&mut self, index: usize) {
        let p = self.position(index);
        self.lines = Lines {
            index,
            line: p.line,
            column: p.column - 1,
        };
    }

    /// The position of buffer index `index` (at or after the line count's),
    /// as [`Position::of`] counts it on the whole input.
    pub(crate) fn position(&self, index: usize) -> Position {
        let from = self.lines.index.min(index);
        let bytes = self.buf.get(from..index).unwrap_or_default();
        let (line, column) = match memchr::memrchr(b'\n', bytes) {
            Some(last) => (
                self.lines.line + memchr::memchr_iter(b'\n', bytes).count(),
                code_points(bytes.get(last + 1..).unwrap_or_default()),
            ),
            None => (self.lines.line, self.lines.column + code_points(bytes)),
        };
        Position {
            offset: self.base + index,
            line,
            column: column + 1,
        }
    }

    /// An error at buffer index `index`.
    pub(crate) fn error(&self, kind: ErrorKind, index: usize) -> Error {
        Error::at_position(kind, self.position(index))
    }
}

/// Code points in `bytes`: the bytes that are not UTF-8 continuation bytes
/// (as [`Position::of`] counts columns), eight at a time.
fn code_points(bytes: &[u8]) -> usize {
    let mut chunks = bytes.chunks_exact(8);
    let mut continuation = 0usize;
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        // `10xxxxxx`: the top bit set and the next one clear.
        continuation += (w & !(w << 1) & 0x8080_8080_8080_8080).count_ones() as usize;
    }
    let rest = chunks.remainder();
    continuation += rest.iter().filter(|&&b| (b as i8) < -0x40).count();
    bytes.len() - continuation
}
