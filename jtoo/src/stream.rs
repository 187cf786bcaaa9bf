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
use crate::window::{Judged, Window};
use std::io::{Read, Write};

/// Bytes kept ahead of the position before each step: tokens shorter than
/// this are read in one try.
const LOOKAHEAD: usize = 64 * 1024;

/// Events [`Reader::next_event`] reads ahead in one walk of the window.
const READ_AHEAD: usize = 256;

/// Bytes of output [`Reader::write_canonical`] keeps back
/// to write with what follows them.
const TAIL: usize = 4096;

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

/// One step of [`Reader::next_part`]: an event, or a whole list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part<'a> {
    /// What [`Reader::next_event`] would return.
    Event(Event<'a>),
    /// A list (with its role's `:` check done, as for a scalar) that ended
    /// within the bytes already held, checked in one run of the validator:
    /// its text from `[` to `]`.
    List(&'a [u8]),
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

    /// Whether [`Scalar::text`] is strict JTOO, hence the value's one
    /// canonical spelling.
    #[cfg(feature = "json")]
    pub(crate) fn is_strict(&self) -> bool {
        !self.syntax.is_lenient()
    }

    /// The scalar's canonical text: its own in strict JTOO, else written
    /// into `held`.
    #[cfg(feature = "json")]
    #[inline]
    pub(crate) fn canonical<'b>(&self, held: &'b mut Vec<u8>) -> Result<&'b [u8], Error>
    where
        'a: 'b,
    {
        if self.is_strict() {
            return Ok(self.text);
        }
        held.clear();
        self.write_canonical(held)?;
        Ok(held)
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

/// An open list: where its `[` is (the input offset; the window keeps its
/// position for "unclosed list" once its bytes are dropped, as a mark),
/// and the role of the list itself.
#[derive(Clone, Copy, Debug)]
struct Open {
    start: usize,
    role: Role,
}

/// A pull reader of one document from a byte stream: see the
/// [module documentation](self).
pub struct Reader<R> {
    w: Window<R>,
    syntax: Syntax,
    max_depth: usize,
    final_newline: bool,
    open: Vec<Open>,
    state: State,
    /// [`Reader::next_part`]: the input offsets of the lists found still
    /// open at the window's end (ascending), which was at input offset
    /// `unfit_end`: not checked whole again while it is there.
    unfit: Vec<usize>,
    unfit_end: usize,
    /// [`Reader::next_event`]'s events read ahead, from `served` on.
    pending: Vec<Pending>,
    served: usize,
    /// The input offset of the last list opened.
    opened: usize,
}

impl<R: Read> Reader<R> {
    /// A reader of strict JTOO with the default depth limit.
    pub fn new(src: R) -> Reader<R> {
        Reader {
            w: Window::new(src, LOOKAHEAD),
            syntax: Syntax::Strict,
            max_depth: crate::Options::DEFAULT_MAX_DEPTH,
            final_newline: false,
            open: Vec::new(),
            state: State::Start,
            unfit: Vec::new(),
            unfit_end: 0,
            pending: Vec::new(),
            served: 0,
            opened: 0,
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
        self.w.set_max_token(bytes);
        self
    }

    /// Reads `bytes` at a time (at least 1; 64 KiB by default) and keeps
    /// that many ahead of the position before each step. Smaller saves
    /// memory and costs speed; any size reads the same document the same
    /// way.
    pub fn with_buffer_size(mut self, bytes: usize) -> Self {
        self.w.set_lookahead(bytes);
        self
    }

    /// The bytes the reader holds now (its buffer's capacity): 2 times the
    /// read size while the input is that short, 16 times once it is
    /// longer, or twice the longest token read so far, for watching memory.
    pub fn buffer_capacity(&self) -> usize {
        self.w.capacity()
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
        self.w.buffered()
    }

    /// The number of input bytes consumed so far.
    pub fn offset(&self) -> usize {
        self.w.offset()
    }

    /// The input offset of the `[` of the list the last [`Event::Open`]
    /// opened (0 before one).
    #[cfg(feature = "json")]
    pub(crate) fn list_start(&self) -> usize {
        self.opened
    }

    /// The input from offset `start` to `end` while the reader still
    /// holds it.
    #[cfg(feature = "json")]
    pub(crate) fn held(&self, start: usize, end: usize) -> Option<&[u8]> {
        let (base, held) = self.w.buffered();
        held.get(start.checked_sub(base)?..end.checked_sub(base)?)
    }

    /// The syntax read.
    #[cfg(feature = "json")]
    pub(crate) fn syntax(&self) -> Syntax {
        self.syntax
    }

    /// The next event, or `None` after the document's end was checked
    /// (nothing but HTOO whitespace, or the allowed final newline, after
    /// its value).
    ///
    /// # Errors
    /// The parser's errors, positioned in the input; an I/O error of the
    /// source ([`ErrorKind::Io`]); [`ErrorKind::TokenTooLong`]. After an
    /// error the reader returns `None`.
    #[inline]
    pub fn next_event(&mut self) -> Result<Option<Event<'_>>, Error> {
        // An event read ahead comes without a call.
        let step = match self.read_ahead() {
            Some(step) => Some(step),
            None => self
                .advance(Lists::Events, READ_AHEAD)
                .inspect_err(|_| self.state = State::Done)?,
        };
        Ok(match step {
            Some(Step::Scalar(start) | Step::Whole(start)) => Some(Event::Scalar(Scalar {
                text: self.w.since(start),
                syntax: self.syntax,
            })),
            Some(Step::Open) => Some(Event::Open),
            Some(Step::Close) => Some(Event::Close),
            Some(Step::Colon) => Some(Event::Colon),
            None => None,
        })
    }

    /// [`Reader::next_event`], except that a list which ends within the
    /// bytes held (about the read size ahead) comes whole, checked, as
    /// [`Part::List`]: for a consumer that hands small values to a
    /// whole-input parser and walks only the large lists event by event
    /// (`jtoo_serde::from_reader`). A list whose check fails is read event
    /// by event instead, so its error comes when the reader reaches it, as
    /// a whole-input parser that stops at an earlier error would report.
    ///
    /// ```
    /// use jtoo::stream::{Event, Part, Reader};
    /// let mut r = Reader::new(&b"[[1,2],3]"[..]).with_buffer_size(4);
    /// assert_eq!(r.next_part()?, Some(Part::Event(Event::Open)));
    /// assert_eq!(r.next_part()?, Some(Part::List(b"[1,2]")));
    /// assert!(matches!(r.next_part()?, Some(Part::Event(Event::Scalar(_)))));
    /// assert_eq!(r.next_part()?, Some(Part::Event(Event::Close)));
    /// assert_eq!(r.next_part()?, None);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Reader::next_event`].
    pub fn next_part(&mut self) -> Result<Option<Part<'_>>, Error> {
        let step = self
            .advance(Lists::WholeOrEvents, 1)
            .inspect_err(|_| self.state = State::Done)?;
        Ok(step.map(|step| match step {
            Step::Whole(start) => Part::List(self.w.since(start)),
            Step::Scalar(start) => Part::Event(Event::Scalar(Scalar {
                text: self.w.since(start),
                syntax: self.syntax,
            })),
            Step::Open => Part::Event(Event::Open),
            Step::Close => Part::Event(Event::Close),
            Step::Colon => Part::Event(Event::Colon),
        }))
    }

    /// The line and column of input offset `offset` while the reader still
    /// holds that byte (from [`Reader::buffered`]'s start to the end of the
    /// bytes held, that end included); `None` otherwise.
    ///
    /// ```
    /// use jtoo::stream::Reader;
    /// let mut r = Reader::new("[\"\u{e9}\",1]".as_bytes());
    /// while r.next_event()?.is_some() {}
    /// let p = r.position(5).unwrap(); // the `,` after the string
    /// assert_eq!((p.line, p.column), (1, 5));
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn position(&self, offset: usize) -> Option<Position> {
        let (start, held) = self.w.buffered();
        let index = offset.checked_sub(start)?;
        (index <= held.len()).then(|| self.w.position(index))
    }

    /// Reads the whole document, checking it: `jtoo check` in bounded
    /// memory. Returns the number of bytes read. The window is checked
    /// token after token without events, each byte once (a token cut by
    /// the window's end again from its start, on a window grown to hold
    /// it), whatever the window's size and wherever the items fall.
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
        loop {
            self.walk().inspect_err(|_| self.state = State::Done)?;
            if self.step()?.is_none() {
                return Ok(self.offset());
            }
        }
    }

    /// Checks on from the position through every token the window holds
    /// with at least the read size after it (or all of them at the end of
    /// input), keeping the open lists on the reader's stack as it goes:
    /// [`Walk::run`], the steps every read takes, without events. It stops before a token it cannot judge in this window (one
    /// that reaches the window's end or fails; an error) and before the
    /// document's end, which the next step reads with the window grown as
    /// needed and reports. So each byte is checked once whatever the
    /// window's size and wherever items fall against it (a list that does
    /// not fit is never checked once whole and again item by item), and a
    /// token cut by the window's end is checked again from its start.
    /// Returns the bytes consumed.
    fn walk(&mut self) -> Result<usize, Error> {
        if self.served < self.pending.len() {
            // Events read ahead are given first.
            return Ok(0);
        }
        let lookahead = self.w.lookahead();
        self.w.fill(lookahead.saturating_mul(2))?;
        // Each token is read with at least the read size after it, as a
        // step of `advance` would be after its `fill`.
        let limit = |len: usize, eof| match eof {
            true => len + 1,
            false => len.saturating_sub(lookahead),
        };
        let (i, state, _stop) = self.walk_on(limit, &mut Check);
        self.state = state;
        #[cfg(test)]
        {
            // A token it stopped before was gone over up to the window's
            // end at most.
            let n = match _stop {
                Stop::More | Stop::Failed => self.w.rest().len(),
                Stop::Done | Stop::Before => i,
            };
            self.w.checked.set(self.w.checked.get() + n);
        }
        self.w.skip(i);
        Ok(i)
    }

    /// Runs a [`Walk`] on the window from the position, from the reader's
    /// state, through the tokens that start before `limit(window's length,
    /// whether the input ends with it)`, telling `visit` of each event,
    /// with the open lists on the reader's stack (and the window's marks
    /// of their `[`). Returns the bytes it consumed (the position is not
    /// moved), the state after them and why it stopped.
    fn walk_on(
        &mut self,
        limit: impl FnOnce(usize, bool) -> usize,
        visit: &mut impl Visit,
    ) -> (usize, State, Stop) {
        let eof = self.w.eof();
        let window = self.w.rest();
        let walk = Walk {
            window,
            offset: self.w.offset(),
            limit: limit(window.len(), eof),
            eof,
            known: self.w.known(),
            grammar: self.grammar(),
        };
        let open_before = self.open.len();
        let mut stack = Stack {
            lowest: open_before,
            open: &mut self.open,
        };
        let mut state = self.state;
        let (i, stop) = walk.run(&mut state, &mut stack, visit);
        let lowest = stack.lowest;
        // The window keeps the position of each open list's `[`.
        for _ in lowest..open_before {
            self.w.pop_mark();
        }
        for o in self.open.get(lowest..).unwrap_or_default() {
            self.w.push_mark(o.start);
        }
        (i, state, stop)
    }

    /// The next step, event by event. After an error, the reader is done.
    fn step(&mut self) -> Result<Option<Step>, Error> {
        self.advance(Lists::Events, 1)
            .inspect_err(|_| self.state = State::Done)
    }

    /// Reads the whole document, appending its canonical JTOO (as
    /// [`crate::to_vec`] of its value writes it) to `out` as it goes:
    /// `jtoo fmt` in bounded memory. Returns the number of bytes read. In
    /// strict JTOO a valid document is its own canonical form, so its bytes
    /// are copied as they are checked (as [`Reader::check_to_end`] checks
    /// them); HTOO is re-encoded token by token.
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
        // A long run of output goes out as it is; its last [`TAIL`] bytes
        // wait in `chunk` (less than [`LOOKAHEAD`] in all), so that its end
        // goes out in one write with what the caller writes after it (a
        // newline, through a buffer of the read size).
        let mut chunk: Vec<u8> = Vec::with_capacity(LOOKAHEAD);
        loop {
            if strict {
                // The bytes `walk` checks are copied as they are (a step's
                // `,` is dropped with the bytes before its token when the
                // window reads on: it is written again below).
                let n = self.walk().inspect_err(|_| self.state = State::Done)?;
                let walked = self.w.since(self.w.pos() - n);
                if chunk.len() + walked.len() >= LOOKAHEAD {
                    let (head, tail) = walked.split_at(walked.len().saturating_sub(TAIL));
                    out.write_all(&chunk)?;
                    out.write_all(head)?;
                    chunk.clear();
                    chunk.extend_from_slice(tail);
                } else {
                    chunk.extend_from_slice(walked);
                }
            }
            let before = self.state;
            let Some(step) = self.step()? else {
                break;
            };
            // A value after an item of its list.
            let value = !matches!(step, Step::Close | Step::Colon);
            if value && matches!(before, State::AfterFirst { .. } | State::AfterItem) {
                chunk.push(b',');
            }
            match step {
                Step::Open => chunk.push(b'['),
                Step::Close => chunk.push(b']'),
                Step::Colon => chunk.push(b':'),
                Step::Scalar(start) | Step::Whole(start) if strict => {
                    chunk.extend_from_slice(self.w.since(start));
                }
                Step::Scalar(start) | Step::Whole(start) => {
                    let scalar = Scalar {
                        text: self.w.since(start),
                        syntax: self.syntax,
                    };
                    scalar.write_canonical(&mut chunk)?;
                }
            }
            if chunk.len() >= LOOKAHEAD {
                let head = chunk.len() - TAIL;
                out.write_all(chunk.get(..head).unwrap_or_default())?;
                chunk.drain(..head);
            }
        }
        out.write_all(&chunk)?;
        Ok(self.offset())
    }

    /// The next step: an event read ahead, else the events of a walk from
    /// the position (up to `batch` of them, read ahead), else the token a
    /// walk stopped before, on a window grown for it.
    fn advance(&mut self, lists: Lists, batch: usize) -> Result<Option<Step>, Error> {
        loop {
            if let Some(step) = self.read_ahead() {
                return Ok(Some(step));
            }
            match self.state {
                State::Done => return Ok(None),
                State::Start => {
                    self.skip_ws()?;
                    if self.w.peek()?.is_none() {
                        return Err(self.w.error(ErrorKind::ExpectedValue, self.w.pos()));
                    }
                    self.state = State::Value(Role::Top);
                    continue;
                }
                State::End { ambiguous } => return self.end(ambiguous),
                _ => {}
            }
            let mut lists_from = None;
            if lists == Lists::WholeOrEvents {
                // A list is read whole where it fits; one that does not
                // (just tried) is read event by event.
                let tried = match self.state {
                    State::Value(role) => match self.value_whole(role)? {
                        Some(step) => return Ok(Some(step)),
                        None => true,
                    },
                    _ => false,
                };
                lists_from = Some(usize::from(tried));
            }
            if let Some(step) = self.walk_events(batch, lists_from)? {
                return Ok(Some(step));
            }
        }
    }

    /// The next of the events a walk read ahead, if any: the reader moves
    /// to its end and to the state after it.
    #[inline(always)]
    fn read_ahead(&mut self) -> Option<Step> {
        let p = *self.pending.get(self.served)?;
        self.served += 1;
        if self.served == self.pending.len() {
            self.pending.clear();
            self.served = 0;
        }
        self.w.skip_to(p.to);
        self.state = p.after;
        Some(self.event_step(p.took, p.from))
    }

    /// The step of an event that began at buffer index `from`.
    #[inline(always)]
    fn event_step(&mut self, took: Took, from: usize) -> Step {
        match took {
            Took::Open(_) => {
                self.opened = self.w.offset_of(from);
                Step::Open
            }
            Took::Close => Step::Close,
            Took::Colon => Step::Colon,
            Took::Scalar => Step::Scalar(from),
        }
    }

    /// Walks the window from the position (it holds at least the read
    /// size, or the rest of the input) to its end or `batch` events, which
    /// are read ahead ([`Reader::read_ahead`] gives them), and stops before
    /// a list from window index `lists_from` on. Without an event, the
    /// reader moves to where the walk stopped, and the token there, which
    /// did not end in the window or failed, is read on a window grown for
    /// it ([`Reader::grow`]). `None`: the walk stopped at the document's
    /// end or before a list; or read ahead.
    fn walk_events(
        &mut self,
        batch: usize,
        lists_from: Option<usize>,
    ) -> Result<Option<Step>, Error> {
        self.w.fill(self.w.lookahead())?;
        let mut events = Events {
            at: self.w.pos(),
            pending: std::mem::take(&mut self.pending),
            batch,
            lists_from,
            failed: None,
        };
        let (i, state, stop) = self.walk_on(|len, eof| len + usize::from(eof), &mut events);
        self.pending = events.pending;
        #[cfg(test)]
        self.w.checked.set(self.w.checked.get() + i);
        if !self.pending.is_empty() {
            // Read again from the last one's end.
            return Ok(None);
        }
        self.state = state;
        self.w.skip(i);
        match stop {
            Stop::Before => Ok(None),
            Stop::Done if matches!(state, State::End { .. }) => Ok(None),
            // (Not met: a token that ends the window ends at the input's
            // end, or is an event.)
            Stop::Done | Stop::More => self.grow(Judged::More),
            Stop::Failed => {
                let (window, eof) = (self.w.rest(), self.w.eof());
                let judged = match events.failed {
                    Some(e) => judge(Err(e), window, eof),
                    None => Judged::More,
                };
                self.grow(judged)
            }
        }
    }

    /// The token at the position, which did not end in the window as it
    /// is (`judged` there): the steps of [`Walk::run`] up to it and through
    /// it, run on a window grown (doubling) until it ends in it, is found
    /// wrong, or is longer than the token limit. Its event, if it is one.
    #[cold]
    #[inline(never)]
    fn grow(
        &mut self,
        judged: Judged<(State, Option<(Took, usize)>)>,
    ) -> Result<Option<Step>, Error> {
        let (grammar, state, start) = (self.grammar(), self.state, self.w.offset());
        let open = &self.open;
        let production = |window: &[u8], known, eof| {
            // The token at index 0 only, with the lists as they are.
            let walk = Walk {
                window,
                offset: start,
                limit: 1,
                eof,
                known,
                grammar,
            };
            let (mut at, mut first) = (state, FirstEvent::default());
            match walk.run(&mut at, &mut Looking(open), &mut first) {
                (_, Stop::Failed) => match first.failed {
                    Some(e) => judge(Err(e), window, eof),
                    None => Judged::More,
                },
                (_, Stop::More) => Judged::More,
                (i, Stop::Done | Stop::Before) => Judged::Done(i, (at, first.event)),
            }
        };
        let (taken, (next, first)) = self.w.run_judged(judged, production, |w, kind, index| {
            match (kind, open.last()) {
                // "Unclosed list" is reported where the innermost list
                // began, which may have left the window; a list that
                // cannot open is its own.
                (ErrorKind::UnclosedList, Some(o))
                    if o.start < w.offset() && !matches!(state, State::Value(_)) =>
                {
                    w.last_mark_error(kind)
                }
                _ => w.error(kind, index),
            }
        })?;
        self.state = next;
        let Some((took, from)) = first else {
            return Ok(None);
        };
        match took {
            Took::Open(role) => {
                self.open.open(Open {
                    start: start + from,
                    role,
                });
                self.w.push_mark(start + from);
            }
            Took::Close => {
                self.open.close();
                self.w.pop_mark();
            }
            Took::Colon | Took::Scalar => {}
        }
        let from = self.w.pos() - taken + from;
        Ok(Some(self.event_step(took, from)))
    }

    /// After the document's value: the end of input, after HTOO whitespace
    /// (or strict JTOO's allowed final newline).
    fn end(&mut self, ambiguous: bool) -> Result<Option<Step>, Error> {
        self.skip_ws()?;
        if self.final_newline && !self.syntax.is_lenient() {
            self.w.fill(2)?;
            if self.w.rest() == b"\n" {
                self.w.skip(1);
            }
        }
        match self.w.peek()? {
            None => {
                self.state = State::Done;
                Ok(None)
            }
            Some(b':') if ambiguous => Err(self.w.error(ErrorKind::AmbiguousKey, self.w.pos())),
            Some(_) => Err(self.w.error(ErrorKind::TrailingCharacters, self.w.pos())),
        }
    }

    fn grammar(&self) -> Grammar {
        Grammar {
            syntax: self.syntax,
            max_depth: self.max_depth,
        }
    }

    /// Reads a list in `role` in one run of the validator when it ends,
    /// valid, in the window as it is (the window never grows for it):
    /// `None` when it does not, or when the value is not a list, and
    /// nothing was consumed.
    fn value_whole(&mut self, role: Role) -> Result<Option<Step>, Error> {
        self.w.fill(self.w.lookahead())?;
        let window = self.w.rest();
        if window.first() != Some(&b'[') {
            return Ok(None);
        }
        let offset = self.w.offset();
        let end = offset + window.len();
        if end == self.unfit_end && self.unfit.binary_search(&offset).is_ok() {
            return Ok(None);
        }
        let depth = self.max_depth.saturating_sub(self.open.len());
        let eof = self.w.eof();
        let checked = validate::value_key(window, self.syntax, depth, self.w.known());
        #[cfg(test)]
        {
            let n = match &checked {
                Ok((rest, _)) => window.len() - rest.len(),
                Err(_) => window.len(),
            };
            self.w.checked.set(self.w.checked.get() + n);
        }
        match checked {
            Ok((rest, ambiguous)) if !rest.is_empty() || eof => {
                let start = self.w.pos();
                self.w.skip(window.len() - rest.len());
                self.state = role.after(ambiguous);
                Ok(Some(Step::Whole(start)))
            }
            // Not ended in the window, or an error: read event by event,
            // which meets the error in its place. The lists in it that are
            // still open where this check stopped would stop it the same
            // way: they are found in one walk, not each checked in turn to
            // the window's end, until the window reads on.
            _ => {
                let walk = Walk {
                    window,
                    offset,
                    limit: window.len() + usize::from(eof),
                    eof,
                    known: self.w.known(),
                    grammar: self.grammar(),
                };
                let mut spine = Spine {
                    outer: self.open.len(),
                    lists: Vec::new(),
                };
                let (_walked, _) = walk.run(&mut State::Value(role), &mut spine, &mut Check);
                #[cfg(test)]
                self.w.checked.set(self.w.checked.get() + _walked);
                self.unfit.clear();
                self.unfit.extend(spine.lists.iter().map(|o| o.start));
                self.unfit_end = end;
                Ok(None)
            }
        }
    }

    /// Skips HTOO whitespace and comments (nothing in strict JTOO): a run
    /// of them as long as it is, on a window grown to hold it.
    fn skip_ws(&mut self) -> Result<(), Error> {
        if self.syntax.is_lenient() {
            let syntax = self.syntax;
            self.w.run(
                |window, _, eof| {
                    let found =
                        ws::skip(window, syntax).map(|(r, ())| (window.len() - r.len(), ()));
                    judge(found, window, eof)
                },
                |w, kind, index| w.error(kind, index),
            )?;
        }
        Ok(())
    }
}

/// What a production found (the bytes it read and its result, or its
/// error), as the window judges it: a result; an error that no later byte
/// could change (the input has ended, or [`is_final`]); or more input
/// needed.
#[inline(always)]
fn judge<T>(
    found: Result<(usize, T), nom::Err<ParseError>>,
    window: &[u8],
    eof: bool,
) -> Judged<T> {
    match found {
        Ok((len, v)) => Judged::Done(len, v),
        Err(e) => {
            let e = unwrap_nom_err(e, window);
            let at = e.offset(window);
            if eof || is_final(e.kind, at, window.len()) {
                Judged::Fail(at, e.kind)
            } else {
                Judged::More
            }
        }
    }
}

/// After an item's first value at the start of `w`: the `:` of a pair
/// (`true`, consumed with the whitespace around it) or not (`false`).
/// Whitespace up to the window's end: read on (the `:` may follow); without
/// a `:`, nothing is consumed, so a missing `,` is reported where the item
/// ended.
fn after_first(w: &[u8], syntax: Syntax, ambiguous: bool) -> PResult<'_, bool> {
    let (r, ()) = ws::skip(w, syntax)?;
    if r.is_empty() {
        return Ok((r, false));
    }
    cursor::pair_colon(w, w, syntax, || ambiguous)
}

/// The grammar a reader reads with.
#[derive(Clone, Copy)]
struct Grammar {
    syntax: Syntax,
    max_depth: usize,
}

/// What a step of [`Walk::run`] read, for the reader's events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Took {
    /// A `[` (and HTOO whitespace after it): a list in this role opens.
    Open(Role),
    /// A `]` (after HTOO whitespace and a trailing `,`): the innermost
    /// list closes.
    Close,
    /// A pair's `:` and the whitespace around it.
    Colon,
    /// A scalar.
    Scalar,
}

/// Told each step of a [`Walk`] that makes an event.
trait Visit {
    /// The step read `took` from window index `from` to `to`, and the
    /// walk is in `after`; `true` stops the walk after it.
    fn took(&mut self, took: Took, from: usize, to: usize, after: State) -> bool;

    /// `true` stops the walk before the list that starts at window index
    /// `from`.
    #[inline(always)]
    fn before_list(&mut self, _from: usize) -> bool {
        false
    }

    /// The walk stops before a token whose production failed with `error`.
    #[inline(always)]
    fn failed(&mut self, _error: nom::Err<ParseError>) {}
}

/// No events: a check.
struct Check;

impl Visit for Check {
    #[inline(always)]
    fn took(&mut self, _: Took, _: usize, _: usize, _: State) -> bool {
        false
    }
}

/// The first event (what it read, from which window index), which ends
/// the walk, or the error it stopped at.
#[derive(Default)]
struct FirstEvent {
    event: Option<(Took, usize)>,
    failed: Option<nom::Err<ParseError>>,
}

impl Visit for FirstEvent {
    #[inline(always)]
    fn took(&mut self, took: Took, from: usize, _: usize, _: State) -> bool {
        self.event = Some((took, from));
        true
    }

    fn failed(&mut self, error: nom::Err<ParseError>) {
        self.failed = Some(error);
    }
}

/// An event read ahead: what it read, from buffer index `from` to `to`,
/// and the state after it.
#[derive(Clone, Copy, Debug)]
struct Pending {
    took: Took,
    from: usize,
    to: usize,
    after: State,
}

/// Events read ahead, up to `batch` of them, from a walk of the window
/// that starts at buffer index `at`; it stops before a list from window
/// index `lists_from` on.
struct Events {
    at: usize,
    pending: Vec<Pending>,
    batch: usize,
    lists_from: Option<usize>,
    failed: Option<nom::Err<ParseError>>,
}

impl Visit for Events {
    #[inline(always)]
    fn took(&mut self, took: Took, from: usize, to: usize, after: State) -> bool {
        self.pending.push(Pending {
            took,
            from: self.at + from,
            to: self.at + to,
            after,
        });
        self.pending.len() >= self.batch
    }

    #[inline(always)]
    fn before_list(&mut self, from: usize) -> bool {
        self.lists_from.is_some_and(|k| from >= k)
    }

    fn failed(&mut self, error: nom::Err<ParseError>) {
        self.failed = Some(error);
    }
}

/// Why a [`Walk`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// At its limit, at the document's end, or after the event that ended
    /// it.
    Done,
    /// Before a list, where [`Visit::before_list`] said.
    Before,
    /// Before a token whose result reaches the end of the window, which
    /// may go on: it must run again on more of the input.
    More,
    /// Before a token whose production failed (more input may change
    /// that: see [`judge`]), with the error told to [`Visit::failed`].
    Failed,
}

/// A walk through the tokens of a window: see [`Reader::walk`].
struct Walk<'w> {
    window: &'w [u8],
    /// The input offset of `window[0]`.
    offset: usize,
    /// Tokens start before this index.
    limit: usize,
    /// The input ends with the window.
    eof: bool,
    known: Known<'static>,
    grammar: Grammar,
}

impl Walk<'_> {
    /// The stream grammar, in one place: from `state`, the production
    /// each token calls for (the list steps of [`cursor`] and the scalar
    /// productions) through every token that starts before the limit and
    /// ends before the window's end (or the input's), opening and closing
    /// lists on `nest` and telling `visit` of each event. It stops before
    /// any other token (saying why), at the document's end, and where
    /// `visit` says. Returns the bytes consumed. `check_to_end` walks with
    /// [`Check`] (no events), `next_event` with [`Events`] (read ahead, a
    /// batch at a time), a token that needs a longer window is walked
    /// alone on it ([`Reader::grow`]).
    fn run(
        &self,
        at: &mut State,
        nest: &mut impl Nesting,
        visit: &mut impl Visit,
    ) -> (usize, Stop) {
        let (window, len, eof) = (self.window, self.window.len(), self.eof);
        let (limit, known, offset) = (self.limit, self.known, self.offset);
        let (syntax, max_depth) = (self.grammar.syntax, self.grammar.max_depth);
        // Whether a production's result holds whatever follows: it ended
        // before the window's end, or the input has ended.
        let judged = |r: &[u8]| !r.is_empty() || eof;
        let mut state = *at;
        let mut i = 0;
        let stop = loop {
            if i >= limit {
                break Stop::Done;
            }
            let rest = window.get(i..).unwrap_or_default();
            let from = i;
            match state {
                State::Value(role) if rest.first() == Some(&b'[') => {
                    if visit.before_list(from) {
                        break Stop::Before;
                    }
                    let depth = max_depth.saturating_sub(nest.depth());
                    // It fails unless a byte follows the `[`.
                    match cursor::open(rest, syntax, depth) {
                        Ok((r, _)) => {
                            nest.open(Open {
                                start: offset + i,
                                role,
                            });
                            i = len - r.len();
                            state = State::ListFirst;
                            if visit.took(Took::Open(role), from, i, state) {
                                break Stop::Done;
                            }
                        }
                        Err(e) => {
                            visit.failed(e);
                            break Stop::Failed;
                        }
                    }
                }
                State::Value(role) => match validate::value_key(rest, syntax, 1, known) {
                    Ok((r, ambiguous)) if judged(r) => {
                        i = len - r.len();
                        state = role.after(ambiguous);
                        if visit.took(Took::Scalar, from, i, state) {
                            break Stop::Done;
                        }
                    }
                    Ok(_) => {
                        break Stop::More;
                    }
                    Err(e) => {
                        visit.failed(e);
                        break Stop::Failed;
                    }
                },
                State::ListFirst => match rest.first() {
                    Some(b']') => {
                        i += 1;
                        state = nest.close().after(false);
                        if visit.took(Took::Close, from, i, state) {
                            break Stop::Done;
                        }
                    }
                    _ => state = State::Value(Role::First),
                },
                State::AfterFirst { ambiguous } => {
                    // Strict JTOO has no whitespace: any byte but `:` ends
                    // the item here (what `pair_colon` finds).
                    if !syntax.is_lenient() && rest.first().is_some_and(|&b| b != b':') {
                        state = State::AfterItem;
                        continue;
                    }
                    match after_first(rest, syntax, ambiguous) {
                        Ok((r, pair)) if judged(r) => {
                            i = len - r.len();
                            if pair {
                                state = State::Value(Role::PairValue);
                                if visit.took(Took::Colon, from, i, state) {
                                    break Stop::Done;
                                }
                            } else {
                                state = State::AfterItem;
                            }
                        }
                        Ok(_) => {
                            break Stop::More;
                        }
                        Err(e) => {
                            visit.failed(e);
                            break Stop::Failed;
                        }
                    }
                }
                State::AfterItem => {
                    // A strict `,` or `]`: `separator`'s own rule for them.
                    let next = match syntax.is_lenient() {
                        false => cursor::strict_separator(rest),
                        true => None,
                    };
                    let next = match next {
                        Some(next) => next,
                        None => match cursor::separator(rest, rest, syntax) {
                            Ok((r, next)) if judged(r) => (r, next),
                            Ok(_) => {
                                break Stop::More;
                            }
                            Err(e) => {
                                visit.failed(e);
                                break Stop::Failed;
                            }
                        },
                    };
                    match next {
                        (r, Next::Item) => {
                            i = len - r.len();
                            state = State::Value(Role::First);
                        }
                        // `r` starts at the `]`.
                        (r, Next::End) => {
                            i = len - r.len() + 1;
                            state = nest.close().after(false);
                            if visit.took(Took::Close, from, i, state) {
                                break Stop::Done;
                            }
                        }
                    }
                }
                State::Start | State::End { .. } | State::Done => break Stop::Done,
            }
        };
        *at = state;
        (i, stop)
    }
}

/// The lists a [`Walk`] opens and closes.
trait Nesting {
    /// How many are open.
    fn depth(&self) -> usize;
    fn open(&mut self, list: Open);
    /// Closes the innermost: its role.
    fn close(&mut self) -> Role;
}

/// The reader's open lists.
impl Nesting for Vec<Open> {
    #[inline]
    fn depth(&self) -> usize {
        self.len()
    }

    #[inline]
    fn open(&mut self, list: Open) {
        self.push(list);
    }

    #[inline]
    fn close(&mut self) -> Role {
        self.pop().map_or(Role::Top, |o| o.role)
    }
}

/// The reader's open lists as a step that may not be taken sees them,
/// unchanged: what it opens and closes is done once it is.
struct Looking<'a>(&'a [Open]);

impl Nesting for Looking<'_> {
    #[inline]
    fn depth(&self) -> usize {
        self.0.len()
    }

    #[inline]
    fn open(&mut self, _: Open) {}

    #[inline]
    fn close(&mut self) -> Role {
        self.0.last().map_or(Role::Top, |o| o.role)
    }
}

/// The reader's open lists, and the fewest there were during a walk.
struct Stack<'a> {
    open: &'a mut Vec<Open>,
    lowest: usize,
}

impl Nesting for Stack<'_> {
    #[inline]
    fn depth(&self) -> usize {
        self.open.len()
    }

    #[inline]
    fn open(&mut self, list: Open) {
        self.open.push(list);
    }

    #[inline]
    fn close(&mut self) -> Role {
        let role = self.open.close();
        self.lowest = self.lowest.min(self.open.len());
        role
    }
}

/// The lists a walk that only looks opened, `outer` being open before it:
/// it ends when the first of them closes.
struct Spine {
    outer: usize,
    lists: Vec<Open>,
}

impl Nesting for Spine {
    #[inline]
    fn depth(&self) -> usize {
        self.outer + self.lists.len()
    }

    #[inline]
    fn open(&mut self, list: Open) {
        self.lists.push(list);
    }

    #[inline]
    fn close(&mut self) -> Role {
        match (self.lists.pop(), self.lists.is_empty()) {
            (Some(list), false) => list.role,
            // The document's role: the walk ends.
            _ => Role::Top,
        }
    }
}

/// How [`Reader::advance`] reads a list that ends within the window.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lists {
    /// Event by event.
    Events,
    /// Whole when it is valid, else event by event.
    WholeOrEvents,
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]
    use super::*;

    /// `[[[…[0,0,1,…],0,1,…],…]`: `depth` lists opened one after the
    /// other, each holding the next one and then `filler` one-digit items,
    /// so every list but the innermost is longer than a small window.
    fn spine(depth: usize, filler: usize) -> Vec<u8> {
        let items: String = (0..filler).map(|k| format!(",{}", k % 10)).collect();
        let mut doc = "[".repeat(depth);
        doc.push('0');
        for _ in 0..depth {
            doc.push_str(&items);
            doc.push(']');
        }
        doc.into_bytes()
    }

    /// `doc` as the second item of a list whose first is a string of
    /// `shift` bytes: the same items, falling elsewhere against the window.
    fn shifted(doc: &[u8], shift: usize) -> Vec<u8> {
        let mut out = format!("[\"{}\",", "x".repeat(shift)).into_bytes();
        out.extend_from_slice(doc);
        out.push(b']');
        out
    }

    /// The bytes the productions went over while `check_to_end` read
    /// `doc` `buffer` bytes at a time (it must be valid).
    fn checked(doc: &[u8], buffer: usize) -> usize {
        let mut r = Reader::new(doc).with_buffer_size(buffer);
        assert_eq!(r.check_to_end().unwrap(), doc.len());
        r.w.checked.get()
    }

    /// The same for [`Reader::next_part`] to the end.
    fn checked_in_parts(doc: &[u8], buffer: usize) -> usize {
        let mut r = Reader::new(doc).with_buffer_size(buffer);
        while r.next_part().unwrap().is_some() {}
        r.w.checked.get()
    }

    #[test]
    fn a_long_list_is_gone_over_a_bounded_number_of_times() {
        // Before, `check_to_end`: a list longer than the window was checked
        // whole up to the window's end, found unclosed, then read item by
        // item, its first item (the next list) again whole to the window's
        // end, and so on down: the first window's bytes once per level
        // (here up to 24 times the document's length, with where it fell
        // against the window; 1.3 now). `next_part` the same, then event
        // by event (up to 6.7 times; 1.7 now, separators not counted).
        let doc = spine(100, 200);
        for buffer in [64, 256, 1000] {
            for shift in [0, 1, 10, 100, 1000, 3000, 10_000] {
                let doc = shifted(&doc, shift);
                for (how, n) in [
                    ("check_to_end", checked(&doc, buffer)),
                    ("next_part", checked_in_parts(&doc, buffer)),
                ] {
                    assert!(
                        n <= 2 * doc.len(),
                        "{how}, buffer {buffer}, shift {shift}: {n} bytes checked for {}",
                        doc.len()
                    );
                }
            }
        }
    }

    #[test]
    fn check_goes_over_a_long_string_a_bounded_number_of_times() {
        // A token longer than the window is checked again on a window twice
        // as long each time: at most about four times its length in all.
        for len in [1000, 70_000, 300_000] {
            let doc = format!("[\"{}\",1]", "y".repeat(len)).into_bytes();
            for buffer in [16, 4096, 65_536] {
                let n = checked(&doc, buffer);
                assert!(
                    n <= 4 * doc.len() + 2 * buffer,
                    "buffer {buffer}: {n} bytes checked for {}",
                    doc.len()
                );
            }
        }
    }
}
