//! Deserializing from any [`std::io::Read`] in bounded memory.
//!
//! [`IoDeserializer`] reads through [`jtoo::stream::Reader`]'s window (the
//! grammar of `jtoo::parse`, run on a window of the input). Every value
//! that ends within the window (a scalar, or a list of up to about the read
//! size) is read whole, checked, and handed to the slice [`Deserializer`]
//! on those bytes, through [`Owned`] (nothing is borrowed from a window
//! that moves on). Only lists longer than the window are walked event by
//! event here, with the same mapping as the slice deserializer's (the same
//! steps, in the same order, and the same errors). Memory is the window
//! (a fixed buffer, or twice the longest token) and the result.

use crate::de::{
    Deserializer, PairItem, Place, Scalar, ScalarDeserializer, SpanAccess, empty_variant,
    list_as_key, not_a_pair,
};
use crate::error::{Error, Result, Segment, moved};
use crate::keys::{KeyStack, SeenKeys};
use crate::owned::Owned;
use crate::spanned;
use jtoo::serde::{DATETIME_MARKER, DECIMAL_MARKER, ITEM_MARKER, TIMESTAMP_MARKER, VALUE_MARKER};
use jtoo::stream::{Event, Part, Reader};
use jtoo::{ErrorKind, Options, Position};
use serde::de::{
    self, DeserializeSeed, Deserializer as _, MapAccess, SeqAccess, Unexpected, Visitor,
};
use std::borrow::Cow;
use std::io::Read;

/// A deserializer of strict JTOO from a reader, in bounded memory: see
/// [`crate::from_reader`].
///
/// ```
/// use serde::Deserialize;
/// let input = &br#"["a":[1,2],"b":[]]"#[..];
/// let mut de = jtoo_serde::IoDeserializer::new(input).with_buffer_size(4);
/// let v = std::collections::BTreeMap::<String, Vec<u8>>::deserialize(&mut de)?;
/// de.end()?;
/// assert_eq!(v["a"], [1, 2]);
/// # Ok::<(), jtoo_serde::Error>(())
/// ```
pub struct IoDeserializer<R> {
    r: Reader<R>,
    /// A step read ahead (to see whether a list ends, or a `:` follows).
    pending: Option<Tok>,
    /// An error met looking for a `:` that the slice deserializer only
    /// peeks for: it meets the error at its next step, and so do we.
    pending_err: Option<Error>,
    /// Lists open in the reader (not those read whole).
    open: usize,
    max_depth: usize,
    /// The keys of the maps being read, for duplicate keys.
    keys: KeyStack<'static>,
    /// The `]` an enum's variant read (`["Name"]`, no payload), for the
    /// enum's end.
    variant_closed: Option<Position>,
    /// The position of the last step's start: positions are counted on
    /// from there, once per byte, while the bytes are held (an error may
    /// come after they were dropped).
    last: Position,
}

/// A step of the reader, without its borrow: where it starts (and ends).
#[derive(Clone, Copy, Debug)]
enum Tok {
    /// A scalar, or a list read whole, from `start` to input offset `end`.
    Whole { start: Position, end: usize },
    /// A `[` (the list is now open).
    Open(Position),
    /// A `]`.
    Close(Position),
    /// A `:`.
    Colon(Position),
}

impl Tok {
    fn start(self) -> Position {
        match self {
            Tok::Whole { start, .. } => start,
            Tok::Open(at) | Tok::Close(at) | Tok::Colon(at) => at,
        }
    }
}

impl<R: Read> IoDeserializer<R> {
    /// Reads strict JTOO from `reader`, 64 KiB at a time, with no limit on
    /// a token's length and the default depth limit.
    pub fn new(reader: R) -> Self {
        IoDeserializer {
            r: Reader::new(reader),
            pending: None,
            pending_err: None,
            open: 0,
            max_depth: Options::DEFAULT_MAX_DEPTH,
            keys: KeyStack::default(),
            variant_closed: None,
            last: START,
        }
    }

    /// Reads `bytes` at a time (at least 1): lists up to about this long
    /// are read whole; any size reads the same document the same way.
    pub fn with_buffer_size(mut self, bytes: usize) -> Self {
        self.r = self.r.with_buffer_size(bytes);
        self
    }

    /// Refuses a single token (a string, byte string or number) longer
    /// than `bytes` that does not fit in the fixed buffer
    /// ([`jtoo::ErrorKind::TokenTooLong`]), as
    /// [`jtoo::stream::Reader::with_max_token`]: memory is then bounded by
    /// about twice this, the buffer and the result.
    pub fn with_max_token(mut self, bytes: usize) -> Self {
        self.r = self.r.with_max_token(bytes);
        self
    }

    /// Sets how deeply lists may nest, as
    /// [`crate::Deserializer::with_max_depth`].
    pub fn with_max_depth(mut self, max_depth: usize) -> Self {
        self.max_depth = Options::new().with_max_depth(max_depth).max_depth();
        self.r = self.r.with_max_depth(self.max_depth);
        self
    }

    /// Checks that nothing follows the value read so far.
    ///
    /// # Errors
    /// "trailing characters" at the first extra byte; I/O errors.
    pub fn end(&mut self) -> Result<()> {
        match self.next_tok()? {
            None => Ok(()),
            Some(tok) => Err(syntax_err(ErrorKind::TrailingCharacters, tok.start())),
        }
    }

    // ---------------------------------------------------------- low level

    /// The next step (the one read ahead first); `None` after the
    /// document's end was checked.
    fn next_tok(&mut self) -> Result<Option<Tok>> {
        self.fetch(true)
    }

    /// [`Self::next_tok`]; with `colon_at_end`, input that ends right
    /// after a value's `:` gives that `:` (and then the end), as the slice
    /// deserializer reads it: "unexpected end" where the pair's value
    /// should be, not the reader's "unclosed list".
    fn fetch(&mut self, colon_at_end: bool) -> Result<Option<Tok>> {
        if let Some(e) = self.pending_err.take() {
            return Err(e);
        }
        if let Some(tok) = self.pending.take() {
            return Ok(Some(tok));
        }
        let part = match self.r.next_part() {
            Ok(part) => part,
            Err(e) => {
                let (base, held) = self.r.buffered();
                let at = self.r.offset();
                if colon_at_end
                    && e.kind() == ErrorKind::UnclosedList
                    && held.get(at.saturating_sub(base)..) == Some(&b":"[..])
                {
                    return Ok(Some(Tok::Colon(self.pos_of(at))));
                }
                return Err(self.stream_err(e));
            }
        };
        // `b'w'`: a scalar or a whole list; else the event's byte.
        let (kind, len) = match part {
            None => return Ok(None),
            Some(Part::List(text)) => (b'w', text.len()),
            Some(Part::Event(Event::Scalar(s))) => (b'w', s.text().len()),
            Some(Part::Event(Event::Open)) => (b'[', 1),
            Some(Part::Event(Event::Close)) => (b']', 1),
            Some(Part::Event(Event::Colon)) => (b':', 1),
        };
        let end = self.r.offset();
        let start = self.pos_of(end.saturating_sub(len));
        Ok(Some(match kind {
            b'[' => {
                self.open += 1;
                Tok::Open(start)
            }
            b']' => {
                self.open = self.open.saturating_sub(1);
                Tok::Close(start)
            }
            b':' => Tok::Colon(start),
            _ => Tok::Whole { start, end },
        }))
    }

    /// The next step, which must start a value.
    fn value_tok(&mut self) -> Result<Tok> {
        match self.next_tok()? {
            Some(tok @ (Tok::Whole { .. } | Tok::Open(_))) => Ok(tok),
            Some(tok) => Err(syntax_err(ErrorKind::ExpectedValue, tok.start())),
            None => Err(self.unexpected_end()),
        }
    }

    /// The first step of a list's next item, or `None` at its `]`
    /// (`closed` is then set); the end of the input is an error.
    fn item_tok(&mut self, closed: &mut bool) -> Result<Option<Tok>> {
        match self.next_tok()? {
            Some(Tok::Close(_)) => {
                *closed = true;
                Ok(None)
            }
            Some(tok) => Ok(Some(tok)),
            None => Err(self.unexpected_end()),
        }
    }

    /// The position of input offset `offset`, at or after the last one
    /// asked for, while its bytes are held: counted on from the last one.
    fn pos_of(&mut self, offset: usize) -> Position {
        let (base, held) = self.r.buffered();
        let from = self.last.offset;
        let p = match held.get(from.wrapping_sub(base)..offset.wrapping_sub(base)) {
            Some(part) if from >= base => moved(self.last, Position::of(part, part.len())),
            _ => self.r.position(offset).unwrap_or(Position {
                offset,
                line: 0,
                column: 0,
            }),
        };
        self.last = p;
        p
    }

    /// "Unexpected end" at the end of the input.
    #[cold]
    fn unexpected_end(&mut self) -> Error {
        let (base, held) = self.r.buffered();
        let at = self.pos_of(base + held.len());
        syntax_err(ErrorKind::UnexpectedEnd, at)
    }

    /// After a value, where the slice deserializer peeks for a pair's
    /// `:`: whether one follows. A step that is not `:` is kept for later,
    /// and so is an error (met at the next step, as the slice
    /// deserializer meets it).
    fn colon_follows(&mut self) -> Result<bool> {
        match self.next_tok() {
            Ok(Some(Tok::Colon(_))) => Ok(true),
            Ok(next) => {
                self.pending = next;
                Ok(false)
            }
            Err(e) if e.classify() == crate::Category::Io => Err(e),
            Err(e) => {
                self.pending_err = Some(e);
                Ok(false)
            }
        }
    }

    /// An error of the reader; an empty input is "unexpected end", as the
    /// slice deserializer says.
    #[cold]
    fn stream_err(&self, e: jtoo::Error) -> Error {
        if e.kind() == ErrorKind::ExpectedValue && self.r.buffered() == (0, &[][..]) {
            return syntax_err(ErrorKind::UnexpectedEnd, START);
        }
        Error::from_stream(e)
    }

    /// Runs the slice deserializer on the bytes of `tok` (a value read
    /// whole, still held), with the depth left.
    fn whole<T>(
        &mut self,
        start: Position,
        end: usize,
        f: impl for<'w> FnOnce(&mut Deserializer<'w>) -> Result<T>,
    ) -> Result<T> {
        let (base, held) = self.r.buffered();
        let text = held
            .get(start.offset.saturating_sub(base)..end.saturating_sub(base))
            .unwrap_or_default();
        let depth = self.max_depth.saturating_sub(self.open);
        on_text(text, start, depth, f).map_err(|e| e.rebase(start))
    }

    /// A value: read whole by the slice deserializer (`slice`), or, for a
    /// list longer than the window, walked by `open` (told where the list
    /// starts, once it is open).
    fn value<'de, V: Visitor<'de>>(
        &mut self,
        visitor: V,
        slice: impl for<'w> FnOnce(&mut Deserializer<'w>, Owned<'w, 'de, V>) -> Result<V::Value>,
        open: impl FnOnce(&mut Self, Position, V) -> Result<V::Value>,
    ) -> Result<V::Value> {
        match self.value_tok()? {
            Tok::Open(at) => open(self, at, visitor).map_err(|e| e.at_position(at)),
            tok => self.whole(tok.start(), end_of(tok), |de| {
                slice(de, Owned::new(visitor))
            }),
        }
    }

    /// The text of the value `tok` starts (a list longer than the window
    /// is read into a [`jtoo::Value`] and written back: its canonical text,
    /// which in strict JTOO is its text).
    fn value_text(&mut self, tok: Tok) -> Result<Vec<u8>> {
        match tok {
            Tok::Open(_) => Ok(self.list_value()?.to_string().into_bytes()),
            tok => {
                let (base, held) = self.r.buffered();
                Ok(held
                    .get(tok.start().offset.saturating_sub(base)..end_of(tok).saturating_sub(base))
                    .unwrap_or_default()
                    .to_vec())
            }
        }
    }

    /// The scalar `tok` is (`None` for a list, which is left to read).
    fn scalar(&mut self, tok: Tok) -> Result<Option<Scalar<'static>>> {
        let (base, held) = self.r.buffered();
        if let Tok::Whole { start, end } = tok
            && held.get(start.offset.saturating_sub(base)) != Some(&b'[')
        {
            let s = self.whole(start, end, |de| {
                Ok(de.parse_scalar()?.map(Scalar::into_owned))
            })?;
            return Ok(s);
        }
        self.pending = Some(tok);
        Ok(None)
    }

    /// Reads the rest of the open list into a [`jtoo::Value`] (the reader
    /// checked it).
    fn list_value(&mut self) -> Result<jtoo::Value> {
        let mut stack: Vec<(jtoo::List, Option<jtoo::Value>)> = vec![(jtoo::List::new(), None)];
        loop {
            let v = match self.fetch(false)? {
                Some(Tok::Open(_)) => {
                    stack.push((jtoo::List::new(), None));
                    continue;
                }
                Some(Tok::Close(_)) => match stack.pop() {
                    Some((list, _)) if stack.is_empty() => return Ok(jtoo::Value::List(list)),
                    Some((list, _)) => jtoo::Value::List(list),
                    None => return Err(Error::message("internal: unbalanced lists")),
                },
                Some(tok @ Tok::Whole { .. }) => {
                    let (base, held) = self.r.buffered();
                    let text = held
                        .get(
                            tok.start().offset.saturating_sub(base)
                                ..end_of(tok).saturating_sub(base),
                        )
                        .unwrap_or_default();
                    jtoo::from_slice(text).map_err(|e| Error::from_jtoo(e).rebase(tok.start()))?
                }
                Some(tok) => return Err(syntax_err(ErrorKind::ExpectedValue, tok.start())),
                None => return Err(self.unexpected_end()),
            };
            let Some((list, key)) = stack.last_mut() else {
                return Err(Error::message("internal: unbalanced lists"));
            };
            match key.take() {
                Some(k) => list.push(jtoo::Pair::new(k, v).map_err(Error::from_jtoo)?),
                None => match self.fetch(false)? {
                    Some(Tok::Colon(_)) => *key = Some(v),
                    next => {
                        self.pending = next;
                        list.push(v);
                    }
                },
            }
        }
    }

    /// After a list walked event by event: its `]` (unless the visitor
    /// already read it).
    fn leave(&mut self, closed: bool) -> Result<()> {
        if closed {
            return Ok(());
        }
        match self.next_tok()? {
            Some(Tok::Close(_)) => Ok(()),
            Some(tok) => Err(syntax_err(ErrorKind::ExpectedCommaOrEnd, tok.start())),
            None => Err(self.unexpected_end()),
        }
    }

    /// After an item's first value failed to deserialize, somewhere inside
    /// it: whether the item is well formed but not a pair (no `:` after
    /// its first value), reading on to see, with `depth` lists open before
    /// the item.
    #[cold]
    fn is_plain_item(&mut self, depth: usize) -> bool {
        while self.open > depth {
            if !matches!(self.fetch(false), Ok(Some(_))) {
                return false;
            }
        }
        !matches!(self.next_tok(), Ok(Some(Tok::Colon(_))))
    }

    /// Skips the rest of the open list (the reader checks it).
    fn skip_list(&mut self) -> Result<()> {
        let mut depth = 1usize;
        while depth > 0 {
            match self.fetch(false)? {
                Some(Tok::Open(_)) => depth += 1,
                Some(Tok::Close(_)) => depth -= 1,
                Some(_) => {}
                None => return Err(self.unexpected_end()),
            }
        }
        Ok(())
    }

    /// A list of pairs as a map or struct; with `UNIQUE` (maps), a
    /// repeated key is an error.
    fn pairs<'de, V: Visitor<'de>, const UNIQUE: bool>(
        &mut self,
        at: Position,
        visitor: V,
    ) -> Result<V::Value> {
        let seen = UNIQUE.then(|| SeenKeys::new(&self.keys));
        let mut pairs = Pairs::<R, UNIQUE> {
            de: self,
            key_start: at,
            key: Vec::new(),
            value_pending: false,
            seen,
            closed: false,
        };
        let r = visitor.visit_map(&mut pairs);
        if let Some(seen) = &pairs.seen {
            seen.finish(&mut pairs.de.keys);
        }
        let closed = pairs.closed;
        let v = match r {
            Ok(v) => v,
            Err(e) => {
                let at = if pairs.value_pending {
                    pairs.key_start
                } else {
                    at
                };
                return Err(e.at_position(at));
            }
        };
        self.leave(closed)?;
        Ok(v)
    }

    /// A sequence of a list longer than the window.
    fn seq<'de, V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let mut seq = Seq {
            de: self,
            index: 0,
            closed: false,
        };
        let v = visitor.visit_seq(&mut seq)?;
        let closed = seq.closed;
        self.leave(closed)?;
        Ok(v)
    }

    /// `deserialize_any` on a list longer than the window: a list whose
    /// first item is a pair is a map, any other list a sequence.
    ///
    /// Only the visitor's call is generic: [`Self::any_list_start`] reads
    /// up to it.
    fn any_list<'de, V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let (v, closed) = match self.any_list_start()? {
            AnyStart::Empty => {
                return visitor.visit_seq(AnySeq {
                    de: self,
                    first: None,
                    index: 0,
                    done: true,
                });
            }
            AnyStart::Map {
                first,
                item_start,
                key,
                seen,
            } => {
                let mut map = AnyMap {
                    de: self,
                    pending_key: Some(first),
                    pending_value: None,
                    key_start: item_start,
                    key,
                    seen,
                    closed: false,
                };
                let r = visitor.visit_map(&mut map);
                map.seen.finish(&mut map.de.keys);
                (r?, map.closed)
            }
            AnyStart::Seq(first) => self.any_seq(visitor, first)?,
        };
        self.leave(closed)?;
        Ok(v)
    }

    /// The list `any_list` reads, up to what decides between map and
    /// sequence: its first item.
    fn any_list_start(&mut self) -> Result<AnyStart> {
        let tok = match self.next_tok()? {
            Some(Tok::Close(_)) => return Ok(AnyStart::Empty),
            Some(tok) => tok,
            None => return Err(self.unexpected_end()),
        };
        let item_start = tok.start();
        let key = match tok {
            Tok::Whole { .. } => self.value_text(tok)?,
            _ => Vec::new(),
        };
        let Some(first) = self.scalar(tok)? else {
            return Ok(AnyStart::Seq(None));
        };
        if !self.colon_follows()? {
            return Ok(AnyStart::Seq(Some((first, item_start))));
        }
        let mut seen = SeenKeys::new(&self.keys);
        // The first key cannot repeat an earlier one.
        let _ = seen.insert(&mut self.keys, Cow::Owned(key.clone()));
        Ok(AnyStart::Map {
            first,
            item_start,
            key,
            seen,
        })
    }

    fn any_seq<'de, V: Visitor<'de>>(
        &mut self,
        visitor: V,
        first: Option<(Scalar<'static>, Position)>,
    ) -> Result<(V::Value, bool)> {
        let mut seq = AnySeq {
            de: self,
            first,
            index: 0,
            done: false,
        };
        let v = visitor.visit_seq(&mut seq)?;
        Ok((v, seq.done))
    }

    /// The path segment of a key spelled `text`.
    #[cold]
    fn key_segment(text: &[u8]) -> Segment {
        Deserializer::from_slice(text).key_segment((0, text.len()))
    }

    /// `["Name":content]` or `["Name"]` longer than the window.
    fn variant<'de, V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.next_tok()? {
            Some(Tok::Close(_)) => Err(empty_variant()),
            Some(tok) => {
                self.pending = Some(tok);
                self.variant_closed = None;
                let v = visitor.visit_enum(Variant {
                    de: &mut *self,
                    payload: true,
                })?;
                let closed = self.variant_closed.take().is_some();
                self.leave(closed)?;
                Ok(v)
            }
            None => Err(self.unexpected_end()),
        }
    }
}

/// How [`IoDeserializer::any_list`] goes on after the first item.
enum AnyStart {
    /// `[]`.
    Empty,
    /// A map: its first key (read, and its `:`), where it starts and its
    /// text.
    Map {
        first: Scalar<'static>,
        item_start: Position,
        key: Vec<u8>,
        seen: SeenKeys<'static>,
    },
    /// A sequence: its first item if a scalar (and where it starts).
    Seq(Option<(Scalar<'static>, Position)>),
}

/// Runs the slice deserializer on `text` (a whole value, at `origin` in the
/// document) with `depth` levels left.
fn on_text<T>(
    text: &[u8],
    origin: Position,
    depth: usize,
    f: impl for<'w> FnOnce(&mut Deserializer<'w>) -> Result<T>,
) -> Result<T> {
    let mut de = Deserializer::from_slice(text)
        .with_max_depth(depth)
        .with_origin(origin);
    let v = f(&mut de)?;
    de.end()?;
    Ok(v)
}

fn end_of(tok: Tok) -> usize {
    match tok {
        Tok::Whole { end, .. } => end,
        tok => tok.start().offset + 1,
    }
}

/// The position of the first byte.
const START: Position = Position {
    offset: 0,
    line: 1,
    column: 1,
};

#[cold]
fn syntax_err(kind: ErrorKind, at: Position) -> Error {
    Error::syntax(jtoo::Error::at_position(kind, at))
}

/// The type error for a list where a scalar is needed.
fn seq_error<'de, V: Visitor<'de>>(visitor: &V) -> Error {
    de::Error::invalid_type(Unexpected::Seq, visitor)
}

// ------------------------------------------------------------ accesses

/// The items of a list read as a sequence (typed: no pairs allowed).
struct Seq<'a, R> {
    de: &'a mut IoDeserializer<R>,
    index: usize,
    closed: bool,
}

impl<'de, R: Read> SeqAccess<'de> for Seq<'_, R> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.closed {
            return Ok(None);
        }
        let Some(tok) = self.de.item_tok(&mut self.closed)? else {
            return Ok(None);
        };
        let value_start = match tok {
            Tok::Colon(at) => return Err(syntax_err(ErrorKind::ExpectedCommaOrEnd, at)),
            tok => {
                self.de.pending = Some(tok);
                tok.start()
            }
        };
        let index = self.index;
        let v = seed
            .deserialize(&mut *self.de)
            .map_err(|e| e.at_position(value_start).in_segment(Segment::Index(index)))?;
        self.index += 1;
        Ok(Some(v))
    }
}

/// The pairs of a list read as a map or struct.
struct Pairs<'a, R, const UNIQUE: bool> {
    de: &'a mut IoDeserializer<R>,
    key_start: Position,
    /// The text of the last key.
    key: Vec<u8>,
    value_pending: bool,
    seen: Option<SeenKeys<'static>>,
    closed: bool,
}

impl<'de, R: Read, const UNIQUE: bool> MapAccess<'de> for Pairs<'_, R, UNIQUE> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.closed {
            return Ok(None);
        }
        let de = &mut *self.de;
        let tok = match de.item_tok(&mut self.closed)? {
            None => return Ok(None),
            Some(tok @ (Tok::Whole { .. } | Tok::Open(_))) => tok,
            Some(tok) => return Err(syntax_err(ErrorKind::ExpectedValue, tok.start())),
        };
        let key_start = tok.start();
        let depth = de
            .open
            .saturating_sub(usize::from(matches!(tok, Tok::Open(_))));
        let k = if let (Tok::Open(_), false) = (tok, UNIQUE) {
            // A list longer than the window as a struct's key (a type
            // error, mostly): read as any other value.
            self.key.clear();
            de.pending = Some(tok);
            seed.deserialize(&mut *de)
        } else {
            // A map's keys are kept, to find a repeated one.
            self.key = de.value_text(tok)?;
            let depth = de.max_depth.saturating_sub(de.open);
            on_text(&self.key, key_start, depth, |d| {
                seed.deserialize(Owned::new(d))
            })
            .map_err(|e| e.rebase(key_start))
        };
        let k = match k {
            Ok(k) => k,
            // A key the type cannot take may be a plain item instead of a
            // pair (`[1,2]` for a struct): say that, it is the real mistake.
            Err(_) if de.is_plain_item(depth) => return Err(not_a_pair().at_position(key_start)),
            Err(e) => return Err(e.at_position(key_start)),
        };
        self.key_start = key_start;
        if let Some(seen) = &mut self.seen {
            seen.insert(&mut de.keys, Cow::Owned(self.key.clone()))
                .map_err(|e| e.at_position(key_start))?;
        }
        match de.next_tok() {
            Ok(Some(Tok::Colon(_))) => {}
            _ => return Err(not_a_pair().at_position(key_start)),
        }
        self.value_pending = true;
        Ok(Some(k))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.value_pending = false;
        let de = &mut *self.de;
        let tok = de.value_tok()?;
        de.pending = Some(tok);
        let key = &self.key;
        seed.deserialize(&mut *de).map_err(|e| {
            e.at_position(tok.start())
                .in_segment(IoDeserializer::<R>::key_segment(key))
        })
    }
}

/// A list read as a sequence by `deserialize_any`: a pair item is presented
/// as `{"$__jtoo_private_Pair": [key, value]}`.
struct AnySeq<'a, R> {
    de: &'a mut IoDeserializer<R>,
    first: Option<(Scalar<'static>, Position)>,
    index: usize,
    /// The list's `]` was read.
    done: bool,
}

impl<'de, R: Read> SeqAccess<'de> for AnySeq<'_, R> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.done {
            return Ok(None);
        }
        let index = self.index;
        let de = &mut *self.de;
        let (scalar, item_start) = match self.first.take() {
            Some(first) => (Some(first.0), first.1),
            None => match de.item_tok(&mut self.done)? {
                None => return Ok(None),
                Some(tok) => (de.scalar(tok)?, tok.start()),
            },
        };
        let r = match scalar {
            None => {
                let v = seed.deserialize(&mut *de);
                if v.is_ok() && de.colon_follows()? {
                    return Err(list_as_key().at_position(item_start));
                }
                v
            }
            Some(s) => match de.colon_follows()? {
                true => seed.deserialize(PairItem {
                    de: &mut *de,
                    key: Some(s),
                }),
                false => seed.deserialize(ScalarDeserializer(s)),
            },
        };
        let v = r.map_err(|e| e.at_position(item_start).in_segment(Segment::Index(index)))?;
        self.index += 1;
        Ok(Some(v))
    }
}

/// A list read as a map by `deserialize_any`: a plain item is presented as
/// an entry with the key `"$__jtoo_private_Item"`; a repeated key (or a
/// second plain item) is an error.
struct AnyMap<'a, R> {
    de: &'a mut IoDeserializer<R>,
    pending_key: Option<Scalar<'static>>,
    pending_value: Option<Option<Scalar<'static>>>,
    key_start: Position,
    /// The text of the last key (empty for a list).
    key: Vec<u8>,
    seen: SeenKeys<'static>,
    closed: bool,
}

impl<'de, R: Read> MapAccess<'de> for AnyMap<'_, R> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let key_start = self.key_start;
        if let Some(k) = self.pending_key.take() {
            return seed
                .deserialize(ScalarDeserializer(k))
                .map(Some)
                .map_err(|e| e.at_position(key_start));
        }
        if self.closed {
            return Ok(None);
        }
        let de = &mut *self.de;
        let Some(tok) = de.item_tok(&mut self.closed)? else {
            return Ok(None);
        };
        let item_start = tok.start();
        self.key_start = item_start;
        self.key.clear();
        let s = de.scalar(tok)?;
        if s.is_some() {
            self.key = de.value_text(tok)?;
            if de.colon_follows()?
                && let Some(k) = s
            {
                self.seen
                    .insert(&mut de.keys, Cow::Owned(self.key.clone()))
                    .map_err(|e| e.at_position(item_start))?;
                return seed
                    .deserialize(ScalarDeserializer(k))
                    .map(Some)
                    .map_err(|e| e.at_position(item_start));
            }
        }
        self.seen
            .insert_item()
            .map_err(|e| e.at_position(item_start))?;
        self.pending_value = Some(s);
        seed.deserialize(de::value::BorrowedStrDeserializer::new(ITEM_MARKER))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let de = &mut *self.de;
        let r = match self.pending_value.take() {
            Some(Some(s)) => seed.deserialize(ScalarDeserializer(s)),
            Some(None) => {
                let v = seed.deserialize(&mut *de);
                if v.is_ok() && de.colon_follows()? {
                    return Err(list_as_key().at_position(self.key_start));
                }
                v
            }
            None => seed.deserialize(&mut *de),
        };
        let (start, key) = (self.key_start, &self.key);
        r.map_err(|e| {
            e.at_position(start)
                .in_segment(IoDeserializer::<R>::key_segment(key))
        })
    }
}

impl<R: Read> Place for IoDeserializer<R> {
    fn place(&mut self) -> Position {
        self.pos_of(self.r.offset())
    }
}

/// `["Name":content]`, or `["Name"]`, of a list longer than the window.
struct Variant<'a, R> {
    de: &'a mut IoDeserializer<R>,
    payload: bool,
}

impl<'de, R: Read> de::EnumAccess<'de> for Variant<'_, R> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let key_start = match self.de.pending {
            Some(tok) => tok.start(),
            None => self.de.pos_of(self.de.r.offset()),
        };
        let v = seed
            .deserialize(&mut *self.de)
            .map_err(|e| e.at_position(key_start))?;
        let payload = match self.de.next_tok() {
            Ok(Some(Tok::Close(at))) => {
                self.de.variant_closed = Some(at);
                false
            }
            Ok(Some(Tok::Colon(_))) => true,
            Err(e) if e.classify() == crate::Category::Io => return Err(e),
            _ => return Err(not_a_pair().at_position(key_start)),
        };
        Ok((v, Variant { payload, ..self }))
    }
}

impl<'de, R: Read> de::VariantAccess<'de> for Variant<'_, R> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        // `["Name":[]]` and `["Name"]` also read as a unit variant.
        if !self.payload {
            return Ok(());
        }
        self.de.deserialize_unit(de::IgnoredAny).map(|_| ())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        if !self.payload {
            let at = self.de.variant_closed.unwrap_or(START);
            return seed
                .deserialize(crate::no_payload::NoPayload)
                .map_err(|e| e.at_position(at));
        }
        seed.deserialize(&mut *self.de)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        if !self.payload {
            let at = self.de.variant_closed.unwrap_or(START);
            return de::Deserializer::deserialize_seq(crate::no_payload::NoPayload, visitor)
                .map_err(|e| e.at_position(at));
        }
        self.de.deserialize_seq(visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        if !self.payload {
            let at = self.de.variant_closed.unwrap_or(START);
            return de::Deserializer::deserialize_map(crate::no_payload::NoPayload, visitor)
                .map_err(|e| e.at_position(at));
        }
        self.de.deserialize_map(visitor)
    }
}

// ------------------------------------------------------------ Deserializer

/// `deserialize_*` methods of values that cannot be lists: a list longer
/// than the window is a type error, as in the slice deserializer.
macro_rules! scalar_only {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            self.value(
                visitor,
                |de, v| de.$method(v),
                |_, _, visitor| Err(seq_error(&visitor)),
            )
        }
    )*};
}

impl<'de, R: Read> de::Deserializer<'de> for &mut IoDeserializer<R> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.value(
            visitor,
            |de, v| de.deserialize_any(v),
            |de, _, visitor| de.any_list(visitor),
        )
    }

    scalar_only! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_str
        deserialize_string
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.value(
            visitor,
            |de, v| de.deserialize_bytes(v),
            |de, _, visitor| de.seq(visitor),
        )
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        // JTOO has no null: a value that is present is `Some`.
        visitor.visit_some(self)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.value(
            visitor,
            |de, v| de.deserialize_unit(v),
            |de, _, visitor| match de.next_tok()? {
                Some(Tok::Close(_)) => visitor.visit_unit(),
                _ => Err(seq_error(&visitor)),
            },
        )
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        match name {
            DECIMAL_MARKER | DATETIME_MARKER | TIMESTAMP_MARKER => self.value(
                visitor,
                |de, v| de.deserialize_newtype_struct(name, v),
                |_, _, visitor| Err(seq_error(&visitor)),
            ),
            VALUE_MARKER => self.value(
                visitor,
                |de, v| de.deserialize_newtype_struct(name, v),
                |de, _, visitor| {
                    let v = de.list_value()?;
                    let depth = de.max_depth.saturating_sub(de.open);
                    visitor
                        .visit_newtype_struct(crate::value_de::ValueDeserializer::exact(v, depth))
                },
            ),
            _ => visitor.visit_newtype_struct(self),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.value(
            visitor,
            |de, v| de.deserialize_seq(v),
            |de, _, visitor| de.seq(visitor),
        )
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.value(
            visitor,
            |de, v| de.deserialize_map(v),
            |de, at, visitor| de.pairs::<V, true>(at, visitor),
        )
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        if name == spanned::NAME {
            let tok = self.value_tok()?;
            self.pending = Some(tok);
            return visitor.visit_map(SpanAccess {
                de: self,
                start: tok.start(),
                step: 0,
            });
        }
        self.value(
            visitor,
            |de, v| de.deserialize_struct(name, fields, v),
            |de, at, visitor| de.pairs::<V, false>(at, visitor),
        )
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.value(
            visitor,
            |de, v| de.deserialize_enum(name, variants, v),
            |de, _, visitor| de.variant(visitor),
        )
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.value(
            visitor,
            |de, v| de.deserialize_identifier(v),
            |de, _, visitor| de.any_list(visitor),
        )
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let Tok::Open(_) = self.value_tok()? {
            self.skip_list()?;
        }
        visitor.visit_unit()
    }
}
