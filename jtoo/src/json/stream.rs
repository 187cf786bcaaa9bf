//! JSON text to canonical JTOO from any [`std::io::Read`] in bounded memory.
//!
//! [`Reader`] pulls the [`Event`]s of the JTOO value a JSON text converts to
//! (the mapping of [`from_json_slice_with`](super::from_json_slice_with)):
//! arrays and objects open and close, object keys, and scalars. It holds a
//! window of the input, not the input, as [`crate::stream::Reader`] does: a
//! token (a string, a number) is read by the one JSON reading of the slice
//! converter on the window, and read again on a longer window when it
//! reaches the window's end; consumed bytes are dropped. Memory is a fixed
//! buffer plus the longest token and the open nesting, whatever the size
//! of the input. [`write_jtoo`] writes the canonical JTOO as it goes.
//!
//! A member whose value is `null` is left out under
//! [`NullPolicy::OmitMembers`] with one token of lookahead after its key
//! (the key is held, never the object). Member order, duplicate keys and
//! every number's exact value are kept; errors are those of the slice
//! converter, at the same positions.
//!
//! ```
//! use jtoo::json::{FromJsonOptions, stream::write_jtoo};
//! let json = br#"{"b":[1.50,true],"gone":null,"a":"x"}"#;
//! let mut out = Vec::new();
//! let read = write_jtoo(&json[..], &mut out, &FromJsonOptions::new())?;
//! assert_eq!(out, br#"["b":[1.5,Y],"a":"x"]"#);
//! assert_eq!(read, json.len() as u64);
//!
//! // Errors are the slice converter's, where it reports them.
//! let bad = b"{\"a\":\n [1,null]}";
//! let err = write_jtoo(&bad[..], &mut Vec::new(), &FromJsonOptions::new()).unwrap_err();
//! let slice_err = jtoo::json::from_json_slice(bad).unwrap_err();
//! assert_eq!((err.kind(), err.position()), (slice_err.kind(), slice_err.position()));
//! # Ok::<(), jtoo::Error>(())
//! ```

use super::text::{self, Scalar};
use super::{FromJsonOptions, NullPolicy};
use crate::error::{Error, ErrorKind};
use crate::parse::Number;
use crate::stream::is_final;
use crate::window::{Judged, Window};
use std::io::{Read, Write};

/// Bytes read at a time and kept ahead of the position by default.
const LOOKAHEAD: usize = 64 * 1024;

/// One step of the converted value, in document order.
///
/// ```
/// use jtoo::json::stream::{Event, Reader};
/// let mut r = Reader::new(&br#"{"k":[true]}"#[..]);
/// assert_eq!(r.next_event()?, Some(Event::Open { object: true }));
/// assert_eq!(r.next_event()?, Some(Event::Key("k")));
/// assert_eq!(r.next_event()?, Some(Event::Open { object: false }));
/// assert_eq!(r.next_event()?, Some(Event::Bool(true)));
/// # Ok::<(), jtoo::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event<'a> {
    /// A JSON array (`object: false`) or object (`true`) opens: a JTOO list.
    Open {
        /// Whether it is an object (its items will be pairs).
        object: bool,
    },
    /// The innermost open array or object closes.
    Close,
    /// An object member's key (its value follows).
    Key(&'a str),
    /// A string.
    String(&'a str),
    /// A number, exactly.
    Number(Number),
    /// `true` or `false`.
    Bool(bool),
}

/// What the reader expects next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// A value: the document, an array element or a member's value.
    Value,
    /// Right after `[` or `{`: the first element or member, or the close.
    First,
    /// An object member's key.
    Key,
    /// After an element or member: `,` or the close.
    After,
    /// After the document's value: only whitespace.
    End,
    /// The end was checked, or an error returned.
    Done,
}

/// A pull reader of one JSON text from a byte stream, converting as it
/// goes: see the [module documentation](self).
///
/// ```
/// use jtoo::json::stream::{Event, Reader};
/// let mut r = Reader::new(&br#"{"a":[1,"x"],"n":null}"#[..]);
/// let mut seen = Vec::new();
/// while let Some(event) = r.next_event()? {
///     seen.push(format!("{event:?}"));
/// }
/// // Open, Key("a"), Open, Number, String, Close, Close: the null member is left out.
/// assert_eq!(seen.len(), 7);
/// # Ok::<(), jtoo::Error>(())
/// ```
pub struct Reader<R> {
    w: Window<R>,
    options: FromJsonOptions,
    /// The open containers: `true` for an object.
    open: Vec<bool>,
    state: State,
    /// The text of the last string read.
    text: String,
    /// The key of the member being read.
    key: String,
}

/// A scalar read off the window, without its borrow.
enum Token {
    /// In [`Reader::text`].
    Str,
    Number(Number),
    Bool(bool),
    Null,
}

impl<R: Read> Reader<R> {
    /// A reader with the default [`FromJsonOptions`].
    ///
    /// ```
    /// let mut r = jtoo::json::stream::Reader::new(&b"7"[..]);
    /// assert!(r.next_event()?.is_some());
    /// assert!(r.next_event()?.is_none());
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn new(src: R) -> Reader<R> {
        Reader {
            w: Window::new(src, LOOKAHEAD),
            options: FromJsonOptions::default(),
            open: Vec::new(),
            state: State::Value,
            text: String::new(),
            key: String::new(),
        }
    }

    /// Converts following `options` (null policy, depth limit).
    ///
    /// ```
    /// use jtoo::json::{FromJsonOptions, NullPolicy, stream::Reader};
    /// let strict = FromJsonOptions::new().with_null_policy(NullPolicy::Error);
    /// let mut r = Reader::new(&br#"{"a":null}"#[..]).with_options(&strict);
    /// assert!(r.next_event().is_ok()); // {
    /// assert!(r.next_event().is_ok()); // "a"
    /// assert!(r.next_event().is_err()); // its null
    /// ```
    pub fn with_options(mut self, options: &FromJsonOptions) -> Self {
        self.options = *options;
        self
    }

    /// Reads `bytes` at a time (at least 1; 64 KiB by default). Any size
    /// reads the same text the same way.
    ///
    /// ```
    /// let mut out = Vec::new();
    /// jtoo::json::stream::Reader::new(&b"[1,2]"[..]).with_buffer_size(1).write_jtoo(&mut out)?;
    /// assert_eq!(out, b"[1,2]");
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn with_buffer_size(mut self, bytes: usize) -> Self {
        self.w.set_lookahead(bytes);
        self
    }

    /// Refuses a single token (a string or number) longer than `bytes`
    /// with [`ErrorKind::TokenTooLong`], bounding memory whatever the
    /// input. Unlimited by default.
    ///
    /// ```
    /// let endless = std::io::repeat(b'a');
    /// let json = std::io::Read::chain(&b"[\""[..], endless);
    /// let mut r = jtoo::json::stream::Reader::new(json).with_max_token(1 << 20);
    /// assert!(r.next_event().is_ok());
    /// let err = r.next_event().unwrap_err();
    /// assert_eq!(err.kind(), jtoo::ErrorKind::TokenTooLong(1 << 20));
    /// ```
    pub fn with_max_token(mut self, bytes: usize) -> Self {
        self.w.set_max_token(bytes);
        self
    }

    /// The bytes of input the reader holds now (its buffer's capacity): 2
    /// times the read size while the input is that short, 16 times once it
    /// is longer, or twice the longest token read so far, for watching
    /// memory.
    ///
    /// ```
    /// let mut r = jtoo::json::stream::Reader::new(&b"[1]"[..]).with_buffer_size(16);
    /// r.next_event()?;
    /// assert_eq!(r.buffer_capacity(), 2 * 16);
    /// let long = format!("[{}1]", "1, ".repeat(100));
    /// let mut r = jtoo::json::stream::Reader::new(long.as_bytes()).with_buffer_size(16);
    /// while r.next_event()?.is_some() {}
    /// assert_eq!(r.buffer_capacity(), 16 * 16);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn buffer_capacity(&self) -> usize {
        self.w.capacity()
    }

    /// The number of input bytes consumed so far.
    ///
    /// ```
    /// let mut r = jtoo::json::stream::Reader::new(&b" [1] "[..]);
    /// while r.next_event()?.is_some() {}
    /// assert_eq!(r.offset(), 5);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn offset(&self) -> usize {
        self.w.offset()
    }

    /// The input still held from byte `offset` on (empty when it was
    /// dropped already): after an error, the bytes at its position, to
    /// show or hint from.
    ///
    /// ```
    /// let mut r = jtoo::json::stream::Reader::new(&b"[1,nul]"[..]);
    /// let err = loop {
    ///     if let Err(e) = r.next_event() { break e; }
    /// };
    /// assert!(r.held_from(err.offset()).starts_with(b"nul]"));
    /// ```
    pub fn held_from(&self, offset: usize) -> &[u8] {
        self.w.held_from(offset)
    }

    /// The next event, or `None` after the end of the text was checked
    /// (nothing but whitespace after its value).
    ///
    /// # Errors
    /// Those of [`from_json_slice_with`](super::from_json_slice_with) at the
    /// same positions; an I/O error of the source ([`ErrorKind::Io`]);
    /// [`ErrorKind::TokenTooLong`]. After an error the reader returns
    /// `None`.
    ///
    /// ```
    /// let mut r = jtoo::json::stream::Reader::new(&b"[1] x"[..]);
    /// while let Ok(Some(_)) = r.next_event() {}
    /// assert!(r.next_event()?.is_none());
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    pub fn next_event(&mut self) -> Result<Option<Event<'_>>, Error> {
        match self.advance() {
            Ok(Some(Step::Open(object))) => Ok(Some(Event::Open { object })),
            Ok(Some(Step::Close)) => Ok(Some(Event::Close)),
            Ok(Some(Step::Key)) => Ok(Some(Event::Key(&self.key))),
            Ok(Some(Step::Token(Token::Str))) => Ok(Some(Event::String(&self.text))),
            Ok(Some(Step::Token(Token::Number(n)))) => Ok(Some(Event::Number(n))),
            Ok(Some(Step::Token(Token::Bool(b)))) => Ok(Some(Event::Bool(b))),
            // `advance` never returns a null (it is left out or an error).
            Ok(Some(Step::Token(Token::Null))) | Ok(None) => Ok(None),
            Err(e) => {
                self.state = State::Done;
                Err(e)
            }
        }
    }

    /// Reads the whole text, writing its canonical JTOO (the bytes
    /// [`crate::to_vec`] writes for the value
    /// [`from_json_slice_with`](super::from_json_slice_with) returns) to
    /// `out` as it goes. Returns the number of bytes read.
    ///
    /// ```
    /// let mut out = Vec::new();
    /// let mut r = jtoo::json::stream::Reader::new(&br#"[{"k":-0.0},{}]"#[..]);
    /// r.write_jtoo(&mut out)?;
    /// assert_eq!(out, br#"[["k":0.0],[]]"#);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Reader::next_event`]; a write error of `out` ([`ErrorKind::Io`]).
    /// On an error, the JTOO of everything before it is written first, so
    /// the output is always a prefix of the canonical text.
    pub fn write_jtoo(&mut self, out: &mut impl Write) -> Result<u64, Error> {
        let mut chunk: Vec<u8> = Vec::with_capacity(LOOKAHEAD + 64);
        // Per open list: no item written yet.
        let mut first: Vec<bool> = Vec::new();
        let mut after_key = false;
        loop {
            let event = match self.next_event() {
                Ok(Some(event)) => event,
                Ok(None) => break,
                Err(e) => {
                    out.write_all(&chunk)?;
                    return Err(e);
                }
            };
            if event != Event::Close
                && !after_key
                && let Some(f) = first.last_mut()
            {
                if !*f {
                    chunk.push(b',');
                }
                *f = false;
            }
            after_key = false;
            match event {
                Event::Open { .. } => {
                    chunk.push(b'[');
                    first.push(true);
                }
                Event::Close => {
                    chunk.push(b']');
                    first.pop();
                }
                Event::Key(k) => {
                    crate::encode::write_str(&mut chunk, k);
                    chunk.push(b':');
                    after_key = true;
                }
                Event::String(s) => crate::encode::write_str(&mut chunk, s),
                Event::Number(Number::Integer(i)) => crate::encode::write_integer(&mut chunk, &i),
                Event::Number(Number::Decimal(d)) => crate::encode::write_decimal(&mut chunk, &d),
                Event::Bool(b) => crate::encode::write_bool(&mut chunk, b),
            }
            if chunk.len() >= LOOKAHEAD {
                out.write_all(&chunk)?;
                chunk.clear();
            }
        }
        out.write_all(&chunk)?;
        Ok(u64::try_from(self.offset()).unwrap_or(u64::MAX))
    }

    fn advance(&mut self) -> Result<Option<Step>, Error> {
        loop {
            match self.state {
                State::Done => return Ok(None),
                State::Value => return self.value().map(Some),
                State::First => {
                    self.skip_ws()?;
                    let object = self.open.last() == Some(&true);
                    let close = if object { b'}' } else { b']' };
                    if self.w.peek()? == Some(close) {
                        return Ok(Some(self.close()));
                    }
                    self.state = if object { State::Key } else { State::Value };
                }
                State::Key => {
                    if let Some(step) = self.key()? {
                        return Ok(Some(step));
                    }
                }
                State::After => {
                    self.skip_ws()?;
                    let object = self.open.last() == Some(&true);
                    let (close, other) = if object {
                        (b'}', ErrorKind::ExpectedValue)
                    } else {
                        (b']', ErrorKind::ExpectedCommaOrEnd)
                    };
                    match self.w.peek()? {
                        Some(b',') => {
                            self.w.skip(1);
                            self.state = if object { State::Key } else { State::Value };
                        }
                        Some(b) if b == close => return Ok(Some(self.close())),
                        None => return Err(self.w.error(ErrorKind::UnexpectedEnd, self.w.pos())),
                        Some(_) => return Err(self.w.error(other, self.w.pos())),
                    }
                }
                State::End => {
                    self.skip_ws()?;
                    if self.w.peek()?.is_some() {
                        return Err(self.w.error(ErrorKind::TrailingCharacters, self.w.pos()));
                    }
                    self.state = State::Done;
                    return Ok(None);
                }
            }
        }
    }

    /// The state after a value: `,` or the close inside a container, the
    /// end of the text at the top.
    fn after_value(&self) -> State {
        if self.open.is_empty() {
            State::End
        } else {
            State::After
        }
    }

    /// Reads a value: opens an array or object, or reads a scalar (a
    /// `null` here is an error: members' nulls are dealt with at the key).
    fn value(&mut self) -> Result<Step, Error> {
        self.skip_ws()?;
        match self.w.peek()? {
            Some(b @ (b'[' | b'{')) => {
                if self.open.len() >= self.options.depth_limit() {
                    return Err(self.w.error(ErrorKind::DepthLimitExceeded, self.w.pos()));
                }
                self.w.skip(1);
                self.open.push(b == b'{');
                self.state = State::First;
                Ok(Step::Open(b == b'{'))
            }
            _ => {
                // `scalar` may drop what was before the token: keep its offset.
                let start = self.offset();
                let token = self.scalar()?;
                if let Token::Null = token {
                    return Err(self.w.error(
                        ErrorKind::Unencodable("JSON null has no JTOO form"),
                        self.w.index(start),
                    ));
                }
                self.state = self.after_value();
                Ok(Step::Token(token))
            }
        }
    }

    /// Reads a member's key and its `:`. Under
    /// [`NullPolicy::OmitMembers`] a `null` value is read here too and the
    /// member left out (`None`).
    fn key(&mut self) -> Result<Option<Step>, Error> {
        self.skip_ws()?;
        if self.w.peek()? != Some(b'"') {
            return Err(self.w.error(
                ErrorKind::InvalidString("expected a `\"` starting an object key"),
                self.w.pos(),
            ));
        }
        if !matches!(self.scalar()?, Token::Str) {
            return Err(self.w.error(ErrorKind::ExpectedValue, self.w.pos()));
        }
        std::mem::swap(&mut self.key, &mut self.text);
        self.skip_ws()?;
        if self.w.peek()? != Some(b':') {
            return Err(self.w.error(ErrorKind::ExpectedValue, self.w.pos()));
        }
        self.w.skip(1);
        self.state = State::Value;
        if self.options.null_policy() == NullPolicy::OmitMembers {
            self.skip_ws()?;
            if self.w.peek()? == Some(b'n') {
                // `scalar` may drop what was before the token: keep its offset.
                let start = self.offset();
                if let Token::Null = self.scalar()? {
                    self.state = State::After;
                    return Ok(None);
                }
                return Err(self.w.error(ErrorKind::ExpectedValue, self.w.index(start)));
            }
        }
        Ok(Some(Step::Key))
    }

    /// Consumes the close of the innermost container.
    fn close(&mut self) -> Step {
        self.w.skip(1);
        self.open.pop();
        self.state = self.after_value();
        Step::Close
    }

    /// Reads the scalar at the position with [`text::scalar`] on the
    /// window, growing the window while the token reaches its end or fails
    /// in a way more bytes could change ([`is_final`]). A string's text
    /// goes to `self.text`.
    fn scalar(&mut self) -> Result<Token, Error> {
        let text = &mut self.text;
        let (_, token) = self.w.run(
            |window, _, eof| match text::scalar(window) {
                Ok((taken, s)) => Judged::Done(
                    taken,
                    match s {
                        Scalar::Str(s) => {
                            text.clear();
                            text.push_str(&s);
                            Token::Str
                        }
                        Scalar::Number(n) => Token::Number(n),
                        Scalar::Bool(b) => Token::Bool(b),
                        Scalar::Null => Token::Null,
                    },
                ),
                // An out-of-range number is judged on all of its digits:
                // more of them could still be coming.
                Err((at, kind))
                    if eof
                        || is_final(kind, at, window.len())
                            && !(matches!(kind, ErrorKind::NumberOutOfRange(_))
                                && number_run(window) == window.len()) =>
                {
                    Judged::Fail(at, kind)
                }
                Err(_) => Judged::More,
            },
            |w, kind, index| w.error(kind, index),
        )?;
        Ok(token)
    }

    /// Skips JSON whitespace, reading on (and dropping what it passed) as
    /// long as there is more.
    fn skip_ws(&mut self) -> Result<(), Error> {
        loop {
            let rest = self.w.rest();
            let n = rest
                .iter()
                .position(|&b| !text::is_ws(b))
                .unwrap_or(rest.len());
            let all = n == rest.len();
            self.w.skip(n);
            if !all || self.w.eof() {
                return Ok(());
            }
            self.w.fill(1)?;
        }
    }
}

/// What [`Reader::advance`] found (the event without its borrow).
enum Step {
    Open(bool),
    Close,
    Key,
    Token(Token),
}

/// The length of the run of bytes a JSON number could be made of at the
/// start of `b`.
fn number_run(b: &[u8]) -> usize {
    b.iter()
        .position(|c| !matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
        .unwrap_or(b.len())
}

/// Converts the JSON text read from `reader` to canonical JTOO written to
/// `out`, in bounded memory: the bytes of
/// `jtoo::to_vec(&jtoo::json::from_json_slice_with(input, options)?)`.
/// Returns the number of bytes read. See [`Reader::write_jtoo`].
///
/// ```
/// use jtoo::json::{FromJsonOptions, stream::write_jtoo};
/// let json = br#"{"n":12345678901234567890123,"e":1e5}"#;
/// let mut out = Vec::new();
/// write_jtoo(&json[..], &mut out, &FromJsonOptions::new())?;
/// let whole = jtoo::to_vec(&jtoo::json::from_json_slice(json)?)?;
/// assert_eq!(out, whole);
/// # Ok::<(), jtoo::Error>(())
/// ```
///
/// # Errors
/// As [`Reader::write_jtoo`].
pub fn write_jtoo(
    reader: impl Read,
    mut out: impl Write,
    options: &FromJsonOptions,
) -> Result<u64, Error> {
    Reader::new(reader)
        .with_options(options)
        .write_jtoo(&mut out)
}

/// What JTOO → JSON needs to know about each list before writing its
/// first byte, learnt by a first pass over the document
/// ([`Shapes::read`]): whether it is a record (non-empty, every item a
/// pair: a JSON object), whether it is a pair's key (written as its JTOO
/// text), and whether it is a list of another kind that holds pairs (its
/// plain scalars are then read one event ahead, to see whether a `:`
/// follows). Three bits per list in document order, held up to the last
/// list that has one set.
///
/// ```
/// use jtoo::json::stream::{Shapes, write_json};
/// let doc = br#"[["a":1],[2],[[3]:4],[]]"#;
/// let shapes = Shapes::read(&mut jtoo::stream::Reader::new(&doc[..]))?;
/// assert_eq!(shapes.lists(), 6);
/// let mut out = Vec::new();
/// write_json(&mut jtoo::stream::Reader::new(&doc[..]), &shapes, &mut out)?;
/// assert_eq!(out, br#"[{"a":1},[2],{"[3]":4},[]]"#);
/// # Ok::<(), jtoo::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shapes {
    record: Vec<u64>,
    key: Vec<u64>,
    /// Not a record, but holds a pair.
    mixed: Vec<u64>,
    lists: usize,
}

/// Sets bit `i`.
fn set_bit(bits: &mut Vec<u64>, i: usize) {
    let word = i / 64;
    if bits.len() <= word {
        bits.resize(word + 1, 0);
    }
    if let Some(w) = bits.get_mut(word) {
        *w |= 1 << (i % 64);
    }
}

/// Bit `i`.
fn bit(bits: &[u64], i: usize) -> bool {
    bits.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
}

/// An open list of the first pass.
struct Counted {
    index: usize,
    items: u64,
    pairs: u64,
}

impl Shapes {
    /// Reads a whole document (checking it) and records its lists' shapes.
    ///
    /// ```
    /// let shapes = jtoo::json::stream::Shapes::read(&mut jtoo::stream::Reader::new(&b"[1,[]]"[..]))?;
    /// assert_eq!(shapes.lists(), 2);
    /// # Ok::<(), jtoo::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`crate::stream::Reader::next_event`].
    pub fn read<R: Read>(reader: &mut crate::stream::Reader<R>) -> Result<Shapes, Error> {
        use crate::stream::Event as E;
        let mut shapes = Shapes::default();
        let mut open: Vec<Counted> = Vec::new();
        // The last event was a `:`: the next value is a pair's, not an item.
        let mut after_colon = false;
        // The last event closed this list.
        let mut closed: Option<usize> = None;
        while let Some(event) = reader.next_event()? {
            match event {
                E::Open | E::Scalar(_) => {
                    if !after_colon && let Some(f) = open.last_mut() {
                        f.items += 1;
                    }
                    after_colon = false;
                    closed = None;
                    if event == E::Open {
                        open.push(Counted {
                            index: shapes.lists,
                            items: 0,
                            pairs: 0,
                        });
                        shapes.lists += 1;
                    }
                }
                E::Close => {
                    if let Some(f) = open.pop() {
                        if f.pairs > 0 {
                            let bits = if f.items == f.pairs {
                                &mut shapes.record
                            } else {
                                &mut shapes.mixed
                            };
                            set_bit(bits, f.index);
                        }
                        closed = Some(f.index);
                    }
                }
                E::Colon => {
                    if let Some(f) = open.last_mut() {
                        f.pairs += 1;
                    }
                    if let Some(i) = closed.take() {
                        set_bit(&mut shapes.key, i);
                    }
                    after_colon = true;
                }
            }
        }
        Ok(shapes)
    }

    /// The number of lists in the document.
    ///
    /// ```
    /// assert_eq!(jtoo::json::stream::Shapes::default().lists(), 0);
    /// ```
    pub fn lists(&self) -> usize {
        self.lists
    }
}

/// An open list of the second pass.
struct Written {
    /// Written as a JSON object (a record).
    object: bool,
    /// Not a record, but holds pairs: a plain scalar may be a key.
    mixed: bool,
    /// No item written yet.
    first: bool,
    /// The current item's key was written: its `:` comes next.
    keyed: bool,
    pair: PairState,
}

/// The pair an open list's current item may be, as it is written.
#[derive(Clone, Copy, Debug, Default)]
struct PairState {
    /// The current item is a pair whose value is being read.
    in_value: bool,
    /// The current item is a pair written as a one-member object.
    wrapped: bool,
}

impl PairState {
    /// After a value in the list: a pair's value ends its item (and the
    /// one-member object it is written as).
    #[inline]
    fn end_value(&mut self, out: &mut Vec<u8>) {
        if self.in_value {
            self.in_value = false;
            if self.wrapped {
                out.push(b'}');
                self.wrapped = false;
            }
        }
    }
}

/// The second pass of JTOO → JSON: reads the document again and writes
/// its JSON (the bytes of [`to_json_string`](super::to_json_string) of its
/// value) to `out` as it goes, using the `shapes` the first pass found.
/// Each scalar is written from its canonical text by the one mapping of
/// [`to_json_string`](super::to_json_string), into one buffer that goes to
/// `out` 64 KiB at a time: no value and no allocation per scalar. Memory:
/// the window, the open nesting, and the text of the key being written
/// when a key is a list.
///
/// ```
/// use jtoo::json::stream::{Shapes, write_json};
/// let doc = br#"[1,"k":B4f,"r":["x":D2023-12-08]]"#;
/// let shapes = Shapes::read(&mut jtoo::stream::Reader::new(&doc[..]))?;
/// let mut out = Vec::new();
/// write_json(&mut jtoo::stream::Reader::new(&doc[..]), &shapes, &mut out)?;
/// let whole = jtoo::json::to_json_string(&jtoo::from_slice(doc)?);
/// assert_eq!(out, whole.as_bytes());
/// # Ok::<(), jtoo::Error>(())
/// ```
///
/// # Errors
/// As [`crate::stream::Reader::next_event`]; a write error of `out`;
/// [`ErrorKind::Unencodable`] when the document is not the one `shapes`
/// was read from.
pub fn write_json<R: Read>(
    reader: &mut crate::stream::Reader<R>,
    shapes: &Shapes,
    mut out: impl Write,
) -> Result<(), Error> {
    use crate::stream::Event as E;
    let changed = || {
        Error::new(ErrorKind::Unencodable(
            "the document changed between passes",
        ))
    };
    let mut chunk: Vec<u8> = Vec::with_capacity(LOOKAHEAD + 4096);
    // The canonical text of an HTOO scalar, of a scalar read one event
    // ahead, or of a list that is a key.
    let mut held: Vec<u8> = Vec::new();
    let mut open: Vec<Written> = Vec::new();
    let mut lists = 0usize;
    let mut event = reader.next_event()?;
    while let Some(e) = event {
        if chunk.len() >= LOOKAHEAD {
            out.write_all(&chunk)?;
            chunk.clear();
        }
        // A value that starts an item of the innermost list (not a pair's
        // value): a `,` before it unless it is the first.
        let item = match open.last_mut() {
            Some(f) if !f.pair.in_value && matches!(e, E::Open | E::Scalar(_)) => {
                if !f.first {
                    chunk.push(b',');
                }
                f.first = false;
                Some(f)
            }
            _ => None,
        };
        match e {
            E::Scalar(s) => match item {
                // In a list that holds pairs among other items, only the
                // next event tells whether this scalar is a key.
                Some(f) if !f.object && f.mixed => {
                    held.clear();
                    s.write_canonical(&mut held)?;
                    let ahead = reader.next_event()?;
                    let key = matches!(ahead, Some(E::Colon));
                    if key && let Some(f) = open.last_mut() {
                        chunk.push(b'{');
                        f.pair.wrapped = true;
                        f.keyed = true;
                    }
                    text::write_json_canonical(&mut chunk, &held, key);
                    event = ahead;
                    continue;
                }
                item => {
                    let key = item.is_some_and(|f| {
                        f.keyed = f.object;
                        f.object
                    });
                    let text = s.canonical(&mut held)?;
                    text::write_json_canonical(&mut chunk, text, key);
                    if !key {
                        end_value(&mut open, &mut chunk);
                    }
                }
            },
            E::Open => {
                if let Some(f) = item
                    && (f.object || bit(&shapes.key, lists))
                {
                    if !f.object {
                        chunk.push(b'{');
                        f.pair.wrapped = true;
                    }
                    f.keyed = true;
                    held.clear();
                    key_text(reader, &mut lists, &mut held)?;
                    text::write_json_canonical(&mut chunk, &held, true);
                } else {
                    let object = bit(&shapes.record, lists);
                    let mixed = bit(&shapes.mixed, lists);
                    lists += 1;
                    chunk.push(if object { b'{' } else { b'[' });
                    open.push(Written {
                        object,
                        mixed,
                        first: true,
                        keyed: false,
                        pair: PairState::default(),
                    });
                }
            }
            E::Colon => {
                let f = open.last_mut().filter(|f| f.keyed).ok_or_else(changed)?;
                f.keyed = false;
                f.pair.in_value = true;
                chunk.push(b':');
            }
            E::Close => {
                let f = open.pop().ok_or_else(changed)?;
                chunk.push(if f.object { b'}' } else { b']' });
                end_value(&mut open, &mut chunk);
            }
        }
        event = reader.next_event()?;
    }
    out.write_all(&chunk)?;
    Ok(())
}

/// After a value in the innermost list: a pair's value ends its item.
fn end_value(open: &mut [Written], chunk: &mut Vec<u8>) {
    if let Some(f) = open.last_mut() {
        f.pair.end_value(chunk);
    }
}

/// Appends to `text` the canonical JTOO text of a list used as a key,
/// whose `[` was just read; counts the lists in it.
fn key_text<R: Read>(
    reader: &mut crate::stream::Reader<R>,
    lists: &mut usize,
    text: &mut Vec<u8>,
) -> Result<(), Error> {
    use crate::stream::Event as E;
    *lists += 1;
    text.push(b'[');
    // Per open list: no item written yet.
    let mut first = vec![true];
    let mut after_colon = false;
    while let Some(event) = reader.next_event()? {
        let value = matches!(event, E::Open | E::Scalar(_));
        if value
            && !after_colon
            && let Some(f) = first.last_mut()
        {
            if !*f {
                text.push(b',');
            }
            *f = false;
        }
        if value {
            after_colon = false;
        }
        match event {
            E::Open => {
                *lists += 1;
                text.push(b'[');
                first.push(true);
            }
            E::Close => {
                text.push(b']');
                first.pop();
                if first.is_empty() {
                    break;
                }
            }
            E::Colon => {
                text.push(b':');
                after_colon = true;
            }
            E::Scalar(s) => s.write_canonical(text)?,
        }
    }
    Ok(())
}

/// What [`write_json_one_pass`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OnePass {
    /// The whole document was read, checked and its JSON written.
    Written,
    /// A list's JSON form was still open when the output held back for it
    /// passed the bound (or a list turned out to be a pair's key after its
    /// text had left the window). The first `written` bytes of the JSON
    /// went to `out`; the rest comes from the two passes ([`Shapes::read`],
    /// then [`write_json`]) on the document again, leaving out that many
    /// bytes.
    Undecided {
        /// The bytes of JSON already written.
        written: u64,
    },
}

/// The JSON form of an open list, as far as its items tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// No item has ended yet.
    Unknown,
    /// Every item so far is a pair: an object, unless a plain item follows.
    Object,
    /// An array (pairs in it are one-member objects).
    Array,
}

/// An open list of [`write_json_one_pass`].
struct Opened {
    /// The output offset of its `[` or `{`.
    start: u64,
    /// The input offset of its `[`.
    input_start: usize,
    form: Form,
    /// An item's first value: a `:` after it makes it a pair's key.
    candidate: bool,
    /// No item written yet.
    first: bool,
    pair: PairState,
}

/// The first value of the innermost list's current item, written as a
/// value, until the next event tells whether it is a pair's key.
#[derive(Clone, Copy)]
struct Last {
    /// Its output offset.
    start: u64,
    what: LastWhat,
}

#[derive(Clone, Copy)]
enum LastWhat {
    /// A scalar: the first byte of its canonical text.
    Scalar(u8),
    /// A list: its input offsets, from `[` to after `]`.
    List(usize, usize),
}

/// Where a value stands in [`write_json_one_pass`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Top,
    First,
    PairValue,
}

/// The output of [`write_json_one_pass`]: what is decided goes out, from
/// the start of the outermost undecided list (or value) on it is held.
struct Held {
    buf: Vec<u8>,
    /// The output offset of `buf[0]`.
    base: u64,
    open: Vec<Opened>,
    last: Option<Last>,
    /// The length at which to try writing out again.
    flush_at: usize,
}

impl Held {
    /// The index in `buf` of output offset `at` (held).
    fn index(&self, at: u64) -> usize {
        usize::try_from(at.saturating_sub(self.base)).unwrap_or(usize::MAX)
    }

    fn end(&self) -> u64 {
        self.base + self.buf.len() as u64
    }

    /// Starts a value: its place, and the `,` before an item but the first.
    #[inline]
    fn place(&mut self) -> Place {
        let Held { open, buf, .. } = self;
        match open.last_mut() {
            None => Place::Top,
            Some(f) if f.pair.in_value => Place::PairValue,
            Some(f) => {
                if !f.first {
                    buf.push(b',');
                }
                f.first = false;
                Place::First
            }
        }
    }

    /// After a pair's value (or the document's): its item ends.
    #[inline]
    fn end_value(&mut self) {
        if let Some(f) = self.open.last_mut() {
            f.pair.end_value(&mut self.buf);
        }
    }

    /// The innermost list's current item was the plain value written from
    /// output offset `start` on.
    #[inline]
    fn plain_item(&mut self, start: u64) {
        let Some(f) = self.open.last_mut() else {
            return;
        };
        match f.form {
            Form::Unknown => f.form = Form::Array,
            Form::Array => {}
            Form::Object => {
                f.form = Form::Array;
                let from = f.start;
                self.unwrap_object(from, start);
            }
        }
    }

    /// Rewrites the object whose `{` is at output offset `from` and whose
    /// pairs end before the item at `to` (after its `,`) as an array of
    /// one-member objects. Our own JSON is split at its top-level commas.
    #[cold]
    fn unwrap_object(&mut self, from: u64, to: u64) {
        let (from, to) = (self.index(from), self.index(to));
        let tail = self.buf.split_off(from);
        let (pairs, rest) = tail.split_at(to.saturating_sub(from).min(tail.len()));
        // Between the `{` and the `,` before the plain item.
        let pairs = pairs
            .get(1..pairs.len().saturating_sub(1))
            .unwrap_or_default();
        self.buf.push(b'[');
        let (mut depth, mut string, mut escaped, mut item) = (0usize, false, false, 0);
        for (i, &b) in pairs.iter().enumerate() {
            if string {
                match (escaped, b) {
                    (true, _) => escaped = false,
                    (false, b'\\') => escaped = true,
                    (false, b'"') => string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => string = true,
                b'[' | b'{' => depth += 1,
                b']' | b'}' => depth = depth.saturating_sub(1),
                b',' if depth == 0 => {
                    self.wrap(pairs.get(item..i).unwrap_or_default());
                    item = i + 1;
                }
                _ => {}
            }
        }
        self.wrap(pairs.get(item..).unwrap_or_default());
        self.buf.extend_from_slice(rest);
    }

    /// Appends the pair `pair` as a one-member object and a `,`.
    fn wrap(&mut self, pair: &[u8]) {
        self.buf.push(b'{');
        self.buf.extend_from_slice(pair);
        self.buf.extend_from_slice(b"},");
    }

    /// The value `last` is the key of a pair of the innermost list: it is
    /// written again as a key and the `:` follows. `false` when it is a
    /// list whose text the reader no longer holds.
    fn make_key<R: Read>(
        &mut self,
        last: Last,
        reader: &crate::stream::Reader<R>,
    ) -> Result<bool, Error> {
        let from = self.index(last.start);
        match last.what {
            // Strings, dates, times: the same text as a value or a key.
            LastWhat::Scalar(b'Y') => self.replace_from(from, b"\"Y\""),
            LastWhat::Scalar(b'N') => self.replace_from(from, b"\"N\""),
            // `"4f"` as a value, `"B4f"` as a key.
            LastWhat::Scalar(b'B') => self.buf.insert(from + 1, b'B'),
            LastWhat::Scalar(b'-' | b'0'..=b'9') => {
                let digits = self.buf.get(from..).unwrap_or_default();
                let mut canonical = Vec::new();
                match crate::json_number::read(digits) {
                    Ok((_, Number::Integer(i))) => crate::encode::write_integer(&mut canonical, &i),
                    Ok((_, Number::Decimal(d))) => crate::encode::write_decimal(&mut canonical, &d),
                    Err(_) => return Err(changed()),
                }
                self.buf.truncate(from);
                text::write_json_str(&mut self.buf, &canonical);
            }
            LastWhat::Scalar(_) => {}
            LastWhat::List(start, end) => {
                let Some(held) = reader.held(start, end) else {
                    return Ok(false);
                };
                let mut canonical = Vec::new();
                let held = if reader.syntax().is_lenient() {
                    crate::stream::Reader::new(held)
                        .with_syntax(crate::parse::Syntax::Lenient)
                        .with_max_depth(crate::Options::DEPTH_CEILING)
                        .write_canonical(&mut canonical)?;
                    &canonical
                } else {
                    held
                };
                self.buf.truncate(from);
                text::write_json_str(&mut self.buf, held);
            }
        }
        let Held {
            open, buf, base, ..
        } = self;
        let f = open.last_mut().ok_or_else(changed)?;
        match f.form {
            Form::Unknown => {
                f.form = Form::Object;
                let i = usize::try_from(f.start.saturating_sub(*base)).unwrap_or(usize::MAX);
                if let Some(b) = buf.get_mut(i) {
                    *b = b'{';
                }
            }
            Form::Object => {}
            Form::Array => {
                buf.insert(from.min(buf.len()), b'{');
                f.pair.wrapped = true;
            }
        }
        f.pair.in_value = true;
        buf.push(b':');
        Ok(true)
    }

    /// Replaces what was written from index `from` on with `text`.
    fn replace_from(&mut self, from: usize, text: &[u8]) {
        self.buf.truncate(from);
        self.buf.extend_from_slice(text);
    }

    /// Writes out what is decided. `Some(written)` when more than
    /// `max_pending` bytes are still held.
    fn flush(&mut self, out: &mut impl Write, max_pending: usize) -> Result<Option<u64>, Error> {
        let hold = match self
            .open
            .iter()
            .find(|f| f.form != Form::Array || f.candidate)
        {
            Some(f) => f.start,
            None => self.last.map_or(self.end(), |l| l.start),
        };
        let n = self.index(hold).min(self.buf.len());
        if n > 0 {
            out.write_all(self.buf.get(..n).unwrap_or_default())?;
            self.buf.drain(..n);
            self.base += n as u64;
        }
        if self.buf.len() > max_pending {
            return Ok(Some(self.base));
        }
        self.flush_at = self.buf.len() + step(max_pending);
        Ok(None)
    }
}

/// The output bytes between two tries to write out: 64 KiB, fewer when
/// fewer may be held.
fn step(max_pending: usize) -> usize {
    LOOKAHEAD.min(max_pending.saturating_add(1))
}

fn changed() -> Error {
    Error::new(ErrorKind::Unencodable(
        "the document's events are out of order",
    ))
}

/// JTOO → JSON in one pass: reads and checks the document once, writing
/// its JSON (the bytes of [`to_json_string`](super::to_json_string) of its
/// value) to `out` straight from the reader's tokens, 64 KiB at a time.
///
/// A list's JSON form is known only from its items (an object when every
/// item is a pair, else an array whose pairs are one-member objects), and
/// an item's first value is a pair's key only when a `:` follows it. So
/// the output from the outermost list (or value) still undecided on is
/// held and mended once it is known: a `[` becomes `{`, an object whose
/// pairs meet a plain item becomes an array of one-member objects, a value
/// followed by `:` is written again as a key. Memory: the window, the
/// open nesting, and the output held, at most `max_pending` bytes; past
/// that the function stops and returns [`OnePass::Undecided`], and the
/// rest is for the two-pass writer ([`Shapes::read`], [`write_json`]).
///
/// ```
/// use jtoo::json::stream::{OnePass, write_json_one_pass};
/// let doc = br#"[1,"k":B4f,"r":["x":D2023-12-08],[2]:3]"#;
/// let mut out = Vec::new();
/// let done = write_json_one_pass(&mut jtoo::stream::Reader::new(&doc[..]), &mut out, 1 << 20)?;
/// assert_eq!(done, OnePass::Written);
/// let whole = jtoo::json::to_json_string(&jtoo::from_slice(doc)?);
/// assert_eq!(out, whole.as_bytes());
/// # Ok::<(), jtoo::Error>(())
/// ```
///
/// # Errors
/// As [`crate::stream::Reader::next_event`]; a write error of `out`. What
/// was written before an error stays written: a prefix of the JSON.
pub fn write_json_one_pass<R: Read>(
    reader: &mut crate::stream::Reader<R>,
    mut out: impl Write,
    max_pending: usize,
) -> Result<OnePass, Error> {
    use crate::stream::Event as E;
    let mut w = Held {
        buf: Vec::with_capacity(LOOKAHEAD + 4096),
        base: 0,
        open: Vec::new(),
        last: None,
        flush_at: step(max_pending),
    };
    // The canonical text of an HTOO scalar.
    let mut held: Vec<u8> = Vec::new();
    loop {
        let event = reader.next_event()?;
        if let Some(start) = w.last.as_ref().map(|l| l.start) {
            if event == Some(E::Colon)
                && let Some(last) = w.last.take()
            {
                if !w.make_key(last, reader)? {
                    return Ok(OnePass::Undecided { written: w.base });
                }
                continue;
            }
            w.last = None;
            w.plain_item(start);
        }
        let Some(event) = event else {
            break;
        };
        match event {
            E::Scalar(s) => {
                let place = w.place();
                let start = w.end();
                let text = s.canonical(&mut held)?;
                text::write_json_canonical(&mut w.buf, text, false);
                match place {
                    Place::First => {
                        w.last = Some(Last {
                            start,
                            what: LastWhat::Scalar(text.first().copied().unwrap_or(0)),
                        });
                    }
                    Place::PairValue => w.end_value(),
                    Place::Top => {}
                }
            }
            E::Open => {
                let place = w.place();
                let start = w.end();
                w.buf.push(b'[');
                w.open.push(Opened {
                    start,
                    input_start: reader.list_start(),
                    form: Form::Unknown,
                    candidate: place == Place::First,
                    first: true,
                    pair: PairState::default(),
                });
            }
            E::Close => {
                let f = w.open.pop().ok_or_else(changed)?;
                w.buf.push(if f.form == Form::Object { b'}' } else { b']' });
                if f.candidate {
                    w.last = Some(Last {
                        start: f.start,
                        what: LastWhat::List(f.input_start, reader.offset()),
                    });
                } else {
                    w.end_value();
                }
            }
            E::Colon => return Err(changed()),
        }
        if w.buf.len() >= w.flush_at
            && let Some(written) = w.flush(&mut out, max_pending)?
        {
            return Ok(OnePass::Undecided { written });
        }
    }
    out.write_all(&w.buf)?;
    Ok(OnePass::Written)
}
