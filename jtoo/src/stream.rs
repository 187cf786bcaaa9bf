//! Reading a document from any [`std::io::Read`] in bounded memory.
//!
//! [`Reader`] pulls one [`Event`] at a time (`[`, `]`, a pair's `:`, a
//! scalar) out of a byte stream. It holds a window of the input, not the
//! input: memory is a fixed buffer plus the longest single token (a string,
//! a number, a run of HTOO whitespace), whatever the size of the document.
//! A file larger than memory is read in one pass; `jtoo fmt`, `check`,
//! `to-json` and `from-json` are built on it.
//!
//! The grammar is the one of [`crate::parse`]: the list steps of
//! [`crate::parse::cursor`] and the scalar productions run on the window, so
//! a document is accepted, and every error reported with its position,
//! exactly as [`crate::from_slice`] (or `htoo::from_slice`) would on the
//! whole input. A production that reaches the end of the window is run
//! again on a longer one, so tokens are never cut.
//!
//! ```
//! use jtoo::stream::{Event, Reader};
//! let mut r = Reader::new(&br#"["a":[1,Y],"b"]"#[..]);
//! let mut seen = Vec::new();
//! while let Some(event) = r.next_event()? {
//!     seen.push(match event {
//!         Event::Open => "[".to_string(),
//!         Event::Close => "]".to_string(),
//!         Event::Colon => ":".to_string(),
//!         Event::Scalar(s) => String::from_utf8_lossy(s.text()).into_owned(),
//!     });
//! }
//! assert_eq!(seen, ["[", "\"a\"", ":", "[", "1", "Y", "]", "\"b\"", "]"]);
//!
//! // Errors say where, as the whole-input parser does.
//! let err = Reader::new(&b"[1,2x]"[..]).write_canonical(&mut Vec::new()).unwrap_err();
//! assert_eq!(err.to_string(), jtoo::from_slice(b"[1,2x]").unwrap_err().to_string());
//! # Ok::<(), jtoo::Error>(())
//! ```

use crate::error::{Error, ErrorKind, Position};
use crate::parse::cursor::{self, Next};
use crate::parse::string::Known;
use crate::parse::{PResult, ParseError, Syntax, list, unwrap_nom_err, validate, ws};
use crate::value::Value;
use std::io::{Read, Write};

/// Bytes kept ahead of the position before each step: tokens shorter than
/// this are read in one try.
const LOOKAHEAD: usize = 64 * 1024;

/// Bytes that must follow an error's position before it is trusted while
/// more input may come: more than any token whose error could move with
/// bytes still to come (the longest date-time is 40 bytes; a JSON number
/// out of range could still gain an exponent, hence the margin).
pub const FINAL_AFTER: usize = 4096;

/// Whether `err`, found at byte `offset` of `len` bytes read so far of an
/// input that may go on, stays whatever follows: not a "the input ended"
/// error, and at least [`FINAL_AFTER`] bytes after it were already read.
/// The one rule for every reader that stops early on bad input.
///
/// ```
/// use jtoo::{ErrorKind, stream::is_final};
/// assert!(is_final(ErrorKind::ExpectedValue, 0, 5000));
/// assert!(!is_final(ErrorKind::ExpectedValue, 0, 100));
/// assert!(!is_final(ErrorKind::UnclosedString, 0, 1 << 20));
/// ```
pub fn is_final(kind: ErrorKind, offset: usize, len: usize) -> bool {
    use ErrorKind::*;
    !matches!(
        kind,
        UnexpectedEnd | UnclosedString | UnclosedList | UnclosedComment
    ) && offset.saturating_add(FINAL_AFTER) <= len
}

/// One step through a document, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event<'a> {
    /// A list opens (`[`).
    Open,
    /// The innermost open list closes (`]`).
    Close,
    /// Between a pair's key and its value (`:`).
    Colon,
    /// A value that is not a list, already checked.
    Scalar(Scalar<'a>),
}

/// A scalar as it appears in the input (valid; in strict JTOO also its one
/// canonical spelling).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scalar<'a> {
    text: &'a [u8],
    syntax: Syntax,
}

impl<'a> Scalar<'a> {
    /// The bytes of the scalar in the input.
    pub fn text(&self) -> &'a [u8] {
        self.text
    }

    /// The scalar as a [`Value`].
    ///
    /// # Errors
    /// None in practice (the text was checked when it was read); a failure
    /// would be reported as the parser's error.
    pub fn to_value(&self) -> Result<Value, Error> {
        match list::scalar(self.text, self.syntax) {
            Ok((_, v)) => Ok(v),
            Err(e) => Err(unwrap_nom_err(e, self.text).into_error(self.text)),
        }
    }

    /// Appends the scalar's canonical JTOO spelling to `out`: its text in
    /// strict JTOO, re-encoded from HTOO.
    ///
    /// # Errors
    /// As [`Scalar::to_value`].
    pub fn write_canonical(&self, out: &mut Vec<u8>) -> Result<(), Error> {
        if self.syntax.is_lenient() {
            crate::encode::write_value(out, &self.to_value()?)
        } else {
            out.extend_from_slice(self.text);
            Ok(())
        }
    }
}

/// What the reader expects next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// The document's value (after leading HTOO whitespace).
    Start,
    /// A value in the given role.
    Value(Role),
    /// Right after a `[`: its first item or its `]`.
    ListFirst,
    /// After an item's first value: its `:` or the item's end.
    AfterFirst { ambiguous: bool },
    /// After a whole item: `,` or `]`.
    AfterItem,
    /// After the document's value: its end.
    End { ambiguous: bool },
    /// The document was read to its end (or an error was returned).
    Done,
}

/// Where a value stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// The document itself.
    Top,
    /// An item's first value (a plain value or a pair's key).
    First,
    /// A pair's value.
    PairValue,
}

impl Role {
    /// What follows a value in this role that could not be a key.
    fn after(self, ambiguous: bool) -> State {
        match self {
            Role::Top => State::End { ambiguous },
            Role::First => State::AfterFirst { ambiguous },
            Role::PairValue => State::AfterItem,
        }
    }
}

/// An open list: where its `[` is (the input offset, and its position
/// once counted: when its bytes are dropped, or for an error), and the
/// role of the list itself.
#[derive(Clone, Copy, Debug)]
struct Open {
    start: usize,
    position: Option<Position>,
    role: Role,
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

/// A pull reader of one document from a byte stream: see the
/// [module documentation](self).
pub struct Reader<R> {
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
    syntax: Syntax,
    max_depth: usize,
    max_token: usize,
    lookahead: usize,
    final_newline: bool,
    open: Vec<Open>,
    state: State,
}

impl<R: Read> Reader<R> {
    /// A reader of strict JTOO with the default depth limit.
    pub fn new(src: R) -> Reader<R> {
        Reader {
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
            syntax: Syntax::Strict,
            max_depth: crate::Options::DEFAULT_MAX_DEPTH,
            max_token: usize::MAX,
            lookahead: LOOKAHEAD,
            final_newline: false,
            open: Vec::new(),
            state: State::Start,
        }
    }

    /// Reads with `syntax` ([`Syntax::Lenient`] for HTOO).
    pub fn with_syntax(mut self, syntax: Syntax) -> Self {
        self.syntax = syntax;
        self
    }

    /// Refuses lists nested deeper than `max_depth` (at most
    /// [`crate::Options::DEPTH_CEILING`]), as [`crate::Options::with_max_depth`].
    pub fn with_max_depth(mut self, max_depth: usize) -> Self {
        self.max_depth = crate::Options::new().with_max_depth(max_depth).max_depth();
        self
    }

    /// Refuses a single token (a string, byte string, number or run of
    /// whitespace) longer than `bytes` with [`ErrorKind::TokenTooLong`]:
    /// the reader's memory is then bounded by about twice this plus a
    /// fixed buffer, whatever the input. Unlimited by default.
    pub fn with_max_token(mut self, bytes: usize) -> Self {
        self.max_token = bytes;
        self
    }

    /// Reads `bytes` at a time (at least 1; 64 KiB by default) and keeps
    /// that many ahead of the position before each step. Smaller saves
    /// memory and costs speed; any size reads the same document the same
    /// way.
    pub fn with_buffer_size(mut self, bytes: usize) -> Self {
        self.lookahead = bytes.max(1);
        self
    }

    /// The bytes the reader holds now (its buffer's capacity): a fixed
    /// buffer (16 times the read size) or twice the longest token read so
    /// far, for watching memory.
    pub fn buffer_capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// Accepts one `\n` after a strict document, as text files end (HTOO
    /// accepts any whitespace there anyway).
    pub fn with_final_newline(mut self, allowed: bool) -> Self {
        self.final_newline = allowed;
        self
    }

    /// The input offset of the first byte the reader still holds, and the
    /// bytes it holds (those consumed last and those read ahead): the
    /// context to show with an error.
    ///
    /// ```
    /// use jtoo::stream::Reader;
    /// let mut r = Reader::new(&b"[1,2x]"[..]);
    /// let err = loop {
    ///     if let Err(e) = r.next_event() { break e; }
    /// };
    /// let (start, held) = r.buffered();
    /// assert_eq!(&held[err.offset() - start..], b"x]");
    /// ```
    pub fn buffered(&self) -> (usize, &[u8]) {
        (self.base, self.buf.get(..self.end).unwrap_or_default())
    }

    /// The number of input bytes consumed so far.
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// The next event, or `None` after the document's end was checked
    /// (nothing but HTOO whitespace, or the allowed final newline, after
    /// its value).
    ///
    /// # Errors
    /// The parser's errors, positioned in the input; an I/O error of the
    /// source ([`ErrorKind::Io`]); [`ErrorKind::TokenTooLong`]. After an
    /// error the reader returns `None`.
    pub fn next_event(&mut self) -> Result<Option<Event<'_>>, Error> {
        Ok(match self.step(false)? {
            Some(Step::Scalar(start) | Step::Whole(start)) => Some(Event::Scalar(Scalar {
                text: self.buf.get(start..self.pos).unwrap_or_default(),
                syntax: self.syntax,
            })),
            Some(Step::Open) => Some(Event::Open),
            Some(Step::Close) => Some(Event::Close),
            Some(Step::Colon) => Some(Event::Colon),
            None => None,
        })
    }

    /// Reads the whole document, checking it: `jtoo check` in bounded
    /// memory. Returns the number of bytes read. Lists that fit in the
    /// window are checked in one run of the validator, so this runs near
    /// [`crate::validate`]'s speed.
    ///
    /// ```
    /// use jtoo::stream::Reader;
    /// assert_eq!(Reader::new(&b"[1,[2,3]]"[..]).check_to_end()?, 9);
    /// assert!(Reader::new(&b"[1,[2,3]"[..]).check_to_end().is_err());
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Reader::next_event`].
    pub fn check_to_end(&mut self) -> Result<usize, Error> {
        while self.step(true)?.is_some() {}
        Ok(self.offset())
    }

    /// The next step; with `whole`, a list that fits in the window is read
    /// whole. After an error, the reader is done.
    fn step(&mut self, whole: bool) -> Result<Option<Step>, Error> {
        self.advance(whole)
            .inspect_err(|_| self.state = State::Done)
    }

    /// Reads the whole document, appending its canonical JTOO (as
    /// [`crate::to_vec`] of its value writes it) to `out` as it goes:
    /// `jtoo fmt` in bounded memory. Returns the number of bytes read. In
    /// strict JTOO a valid document is its own canonical form, so its bytes
    /// are copied as they are checked (lists that fit in the window in one
    /// piece); HTOO is re-encoded token by token.
    ///
    /// ```
    /// use jtoo::{parse::Syntax, stream::Reader};
    /// let mut out = Vec::new();
    /// Reader::new(&b"[ 1_0 , \"a\" : Y, ] // done\n"[..])
    ///     .with_syntax(Syntax::Lenient)
    ///     .write_canonical(&mut out)?;
    /// assert_eq!(out, br#"[10,"a":Y]"#);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Reader::next_event`]; a write error of `out` ([`ErrorKind::Io`]).
    /// What was written before an error stays written.
    pub fn write_canonical(&mut self, out: &mut impl Write) -> Result<usize, Error> {
        let strict = !self.syntax.is_lenient();
        let mut chunk: Vec<u8> = Vec::with_capacity(LOOKAHEAD);
        // Per open list: no item written yet.
        let mut first: Vec<bool> = Vec::new();
        let mut after_colon = false;
        while let Some(step) = self.step(strict)? {
            let value = !matches!(step, Step::Close | Step::Colon);
            if value && !after_colon && first.last() == Some(&false) {
                chunk.push(b',');
            }
            if let Some(f) = first.last_mut()
                && value
            {
                *f = false;
            }
            after_colon = false;
            match step {
                Step::Open => {
                    chunk.push(b'[');
                    first.push(true);
                }
                Step::Close => {
                    chunk.push(b']');
                    first.pop();
                }
                Step::Colon => {
                    chunk.push(b':');
                    after_colon = true;
                }
                Step::Scalar(start) | Step::Whole(start) => {
                    let text = self.buf.get(start..self.pos).unwrap_or_default();
                    if strict {
                        chunk.extend_from_slice(text);
                    } else {
                        let scalar = Scalar {
                            text,
                            syntax: self.syntax,
                        };
                        scalar.write_canonical(&mut chunk)?;
                    }
                }
            }
            if chunk.len() >= LOOKAHEAD {
                out.write_all(&chunk)?;
                chunk.clear();
            }
        }
        out.write_all(&chunk)?;
        Ok(self.offset())
    }

    fn advance(&mut self, whole: bool) -> Result<Option<Step>, Error> {
        loop {
            match self.state {
                State::Done => return Ok(None),
                State::Start => {
                    self.skip_ws()?;
                    if self.peek()?.is_none() {
                        return Err(self.error(ErrorKind::ExpectedValue, self.pos));
                    }
                    self.state = State::Value(Role::Top);
                }
                State::Value(role) => {
                    if whole && let Some(step) = self.value_whole(role)? {
                        return Ok(Some(step));
                    }
                    return self.value(role).map(Some);
                }
                State::ListFirst => {
                    if self.peek()? == Some(b']') {
                        return Ok(Some(self.close(1)));
                    }
                    self.state = State::Value(Role::First);
                }
                State::AfterFirst { ambiguous } => {
                    let syntax = self.syntax;
                    let (_, pair) = self.run(|w| {
                        // Whitespace up to the window's end: read on (the
                        // `:` may follow); without a `:`, nothing is
                        // consumed, so a missing `,` is reported where the
                        // item ended.
                        let (r, ()) = ws::skip(w, syntax)?;
                        if r.is_empty() {
                            return Ok((r, false));
                        }
                        cursor::pair_colon(w, w, syntax, || ambiguous)
                    })?;
                    if pair {
                        self.state = State::Value(Role::PairValue);
                        return Ok(Some(Step::Colon));
                    }
                    self.state = State::AfterItem;
                }
                State::AfterItem => {
                    let syntax = self.syntax;
                    match self.run(|w| cursor::separator(w, w, syntax))? {
                        (_, Next::Item) => self.state = State::Value(Role::First),
                        (_, Next::End) => return Ok(Some(self.close(1))),
                    }
                }
                State::End { ambiguous } => {
                    self.skip_ws()?;
                    if self.final_newline && !self.syntax.is_lenient() {
                        self.fill(2)?;
                        if self.buf.get(self.pos..self.end) == Some(b"\n") {
                            self.pos += 1;
                        }
                    }
                    return match self.peek()? {
                        None => {
                            self.state = State::Done;
                            Ok(None)
                        }
                        Some(b':') if ambiguous => {
                            Err(self.error(ErrorKind::AmbiguousKey, self.pos))
                        }
                        Some(_) => Err(self.error(ErrorKind::TrailingCharacters, self.pos)),
                    };
                }
            }
        }
    }

    /// Reads a value in `role`: opens a list, or checks a scalar.
    fn value(&mut self, role: Role) -> Result<Step, Error> {
        let syntax = self.syntax;
        if self.peek()? == Some(b'[') {
            let start = self.offset();
            let depth = self.max_depth.saturating_sub(self.open.len());
            // Pushed first: an "unclosed list" error is this one's.
            self.open.push(Open {
                start,
                position: None,
                role,
            });
            self.run(|w| cursor::open(w, syntax, depth))?;
            self.state = State::ListFirst;
            return Ok(Step::Open);
        }
        let (consumed, ambiguous) =
            self.run_known(|w, known| validate::value_key(w, syntax, 1, known))?;
        // `run` may have moved the window: the scalar ends at `pos`.
        let start = self.pos - consumed;
        self.state = role.after(ambiguous);
        Ok(Step::Scalar(start))
    }

    /// Reads a list in `role` in one run of the validator when it ends in
    /// the window as it is (the window never grows for it): `None` when
    /// it does not, or when the value is not a list, and nothing was
    /// consumed.
    fn value_whole(&mut self, role: Role) -> Result<Option<Step>, Error> {
        self.fill(self.lookahead)?;
        let window = self.buf.get(self.pos..self.end).unwrap_or_default();
        if window.first() != Some(&b'[') {
            return Ok(None);
        }
        let known = if self.utf8 == self.end {
            Known::UTF8
        } else {
            Known::NOTHING
        };
        let depth = self.max_depth.saturating_sub(self.open.len());
        match validate::value_key(window, self.syntax, depth, known) {
            Ok((rest, ambiguous)) if !rest.is_empty() || self.eof => {
                let start = self.pos;
                self.pos += window.len() - rest.len();
                self.state = role.after(ambiguous);
                Ok(Some(Step::Whole(start)))
            }
            Ok(_) => Ok(None),
            Err(e) => {
                let e = unwrap_nom_err(e, window);
                let at = e.offset(window);
                // The list is in the window from its `[`: the error's own
                // position is right, "unclosed list" included.
                if self.eof || is_final(e.kind, at, window.len()) {
                    Err(self.error(e.kind, self.pos + at))
                } else {
                    Ok(None)
                }
            }
        }
    }

    /// Consumes the `]` (`len` bytes) that closes the innermost list.
    fn close(&mut self, len: usize) -> Step {
        self.pos += len;
        let role = self.open.pop().map_or(Role::Top, |o| o.role);
        self.state = role.after(false);
        Step::Close
    }

    /// Skips HTOO whitespace and comments (nothing in strict JTOO).
    fn skip_ws(&mut self) -> Result<(), Error> {
        if self.syntax.is_lenient() {
            let syntax = self.syntax;
            self.run(|w| ws::skip(w, syntax))?;
        }
        Ok(())
    }

    /// The next byte, reading if needed; `None` at the end of input.
    fn peek(&mut self) -> Result<Option<u8>, Error> {
        self.fill(1)?;
        Ok(self
            .buf
            .get(self.pos..self.end)
            .and_then(|w| w.first())
            .copied())
    }

    /// Runs a production on the window and moves past what it read; returns
    /// the bytes consumed and its result. When the production reaches the
    /// end of the window, or fails in a way more input could change, the
    /// window grows (doubling) and it runs again.
    fn run<T>(
        &mut self,
        production: impl Fn(&[u8]) -> PResult<'_, T>,
    ) -> Result<(usize, T), Error> {
        self.run_known(|w, _| production(w))
    }

    /// [`Reader::run`] for a production told what is known of the window
    /// (its UTF-8, when every byte of it was checked).
    fn run_known<T>(
        &mut self,
        production: impl for<'w> Fn(&'w [u8], Known<'static>) -> PResult<'w, T>,
    ) -> Result<(usize, T), Error> {
        let mut want = self.lookahead;
        loop {
            self.fill(want)?;
            let known = if self.utf8 == self.end {
                Known::UTF8
            } else {
                Known::NOTHING
            };
            let window = self.buf.get(self.pos..self.end).unwrap_or_default();
            let len = window.len();
            match production(window, known) {
                Ok((rest, v)) if !rest.is_empty() || self.eof => {
                    let consumed = len - rest.len();
                    self.pos += consumed;
                    return Ok((consumed, v));
                }
                Ok(_) => {}
                Err(e) => {
                    let e = unwrap_nom_err(e, window);
                    let at = e.offset(window);
                    if self.eof || is_final(e.kind, at, len) {
                        return Err(self.parse_error(e, at));
                    }
                }
            }
            if len >= self.max_token {
                return Err(self.error(ErrorKind::TokenTooLong(self.max_token), self.pos));
            }
            want = len.saturating_mul(2).max(self.lookahead);
        }
    }

    /// Reads until `want` bytes are ahead of the position or the input
    /// ends. Reads go into the room after the held bytes; when there is
    /// too little, the consumed bytes are dropped first, and the buffer
    /// grows only for a window longer than it.
    fn fill(&mut self, want: usize) -> Result<(), Error> {
        while !self.eof && self.end - self.pos < want {
            let block = want.max(self.lookahead);
            if self.buf.len() - self.end < block {
                if self.pos > 0 {
                    self.discard();
                }
                let size = (self.end + block).max(self.lookahead.saturating_mul(16));
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
                // Invalid, not cut: strings now check their own UTF-8.
                self.not_utf8 = e.error_len().is_some() || self.eof;
            }
        }
    }

    /// Drops the consumed bytes, keeping their lines and columns (and the
    /// positions of the open lists that began in them).
    fn discard(&mut self) {
        for i in 0..self.open.len() {
            if let Some(o) = self.open.get(i).copied()
                && o.position.is_none()
                && o.start < self.base + self.pos
            {
                let index = o.start - self.base;
                self.count_lines(index);
                let position = self.position(index);
                if let Some(o) = self.open.get_mut(i) {
                    o.position = Some(position);
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

    /// The position of buffer index `index` (at or after the line count's).
    fn position(&self, index: usize) -> Position {
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

    /// A production's error at `at` bytes past the position.
    fn parse_error(&self, e: ParseError, at: usize) -> Error {
        match (e.kind, self.open.last()) {
            // "Unclosed list" is reported where the innermost list began,
            // which may have left the window.
            (ErrorKind::UnclosedList, Some(open)) if open.start < self.offset() => {
                match (open.position, open.start.checked_sub(self.base)) {
                    (Some(p), _) => Error::at_position(e.kind, p),
                    (None, Some(index)) => self.error(e.kind, index),
                    // Dropped bytes had their lists' positions counted.
                    (None, None) => self.error(e.kind, 0),
                }
            }
            _ => self.error(e.kind, self.pos + at),
        }
    }

    /// An error at `index` in the buffer.
    fn error(&self, kind: ErrorKind, index: usize) -> Error {
        Error::at_position(kind, self.position(index))
    }
}

/// What [`Reader::advance`] found (the event without its borrow).
enum Step {
    Open,
    Close,
    Colon,
    /// A scalar from this index in the buffer to the position.
    Scalar(usize),
    /// A whole list, checked, from this index in the buffer to the
    /// position.
    Whole(usize),
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
