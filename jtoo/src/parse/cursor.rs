//! The list grammar, in one place: `[` [ item *( `,` item ) ] `]`,
//! item = value [ `:` value ]. Lenient (HTOO) adds whitespace/comments around
//! `[`, `]`, `,`, `:` and one trailing comma (`[1,]`, never `[,]`).
//!
//! Two readers walk lists with these rules:
//!
//! - the slice productions ([`open`], [`pair_colon`], [`separator`]), which the
//!   [`Value`](crate::Value) builder ([`super::list`]) and the validator
//!   ([`super::validate`]) use: each step takes the rest of the input and
//!   returns the rest after it, as every nom production does;
//! - [`Cursor`], a position in a whole input with the same steps as methods
//!   (`begin_list`, `after_item`, `colon`, `end_list`, `skip_value`), which
//!   pull-style readers such as `jtoo-serde`'s `Deserializer` use; its steps
//!   are written with the slice productions.
//!
//! Errors are the same whichever reader meets them: an input that ends inside
//! a list is "unclosed list" where the list began; a missing `,` is reported
//! where the item's last value ended; a `,` before `]` is refused in strict
//! JTOO; nesting deeper than the depth limit is refused at the `[`.
//!
//! ```
//! use jtoo::parse::{cursor::Cursor, Syntax};
//! let mut c = Cursor::new(b"[1,2]", Syntax::Strict, 128);
//! let start = c.begin_list()?;
//! let mut items = 0;
//! while !c.at_list_end(start)? {
//!     c.skip_value()?;
//!     items += 1;
//!     c.after_item(start)?;
//! }
//! c.end_list(start)?;
//! assert_eq!((items, c.pos), (2, 5));
//! # Ok::<(), jtoo::parse::ParseError>(())
//! ```

use super::string::Known;
use super::{PResult, ParseError, Syntax, fail, unwrap_nom_err, ws};
use crate::error::ErrorKind;

/// What follows a list item: another item, or the end of the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// A `,` was read; another item starts here.
    Item,
    /// The list ends here (the rest starts at its `]`).
    End,
}

/// Opens the list whose `[` starts `input`: checks `depth` (how many more
/// list levels may be opened) and returns the rest after `[` and any
/// whitespace (HTOO), with the depth left for the list's items.
///
/// # Errors
/// "depth limit exceeded" at the `[`; "unclosed list" there when the input
/// ends right after it.
#[inline(always)]
pub fn open(input: &[u8], syntax: Syntax, depth: usize) -> PResult<'_, usize> {
    if depth == 0 {
        return fail(input, ErrorKind::DepthLimitExceeded);
    }
    let (rest, ()) = ws::skip(input.get(1..).unwrap_or_default(), syntax)?;
    if rest.is_empty() {
        return fail(input, ErrorKind::UnclosedList);
    }
    Ok((rest, depth - 1))
}

/// After an item's first value (`rest` starts where it ended): skips
/// whitespace (HTOO) and reads the `:` of a pair. Returns `true` and the rest
/// after `:` and whitespace, where the pair's value starts; or `false` and
/// `rest` itself when the item is a plain value (where [`separator`] starts).
/// `ambiguous_key` is asked only when a `:` is found: whether the first value
/// may not be a pair key.
///
/// # Errors
/// "ambiguous key" at the `:`; "unclosed list" at `list_start` when the input
/// ends after the `:`.
#[inline(always)]
pub fn pair_colon<'a>(
    rest: &'a [u8],
    list_start: &'a [u8],
    syntax: Syntax,
    ambiguous_key: impl FnOnce() -> bool,
) -> PResult<'a, bool> {
    let (r, ()) = ws::skip(rest, syntax)?;
    if r.first() != Some(&b':') {
        return Ok((rest, false));
    }
    if ambiguous_key() {
        return fail(r, ErrorKind::AmbiguousKey);
    }
    let (r, ()) = ws::skip(&r[1..], syntax)?;
    if r.is_empty() {
        return fail(list_start, ErrorKind::UnclosedList);
    }
    Ok((r, true))
}

/// After a whole item (`item_end` starts where its last value ended): skips
/// whitespace (HTOO) and reads `,` or finds `]`. Returns [`Next::Item`] and
/// where the next item starts, or [`Next::End`] and the rest starting at the
/// list's `]` (HTOO's trailing `,` before `]` is consumed).
///
/// # Errors
/// "expected `,` or `]`" at `item_end`; "expected a value" at a `]` right
/// after `,` in strict JTOO; "unclosed list" at `list_start` when the input
/// ends.
#[inline(always)]
pub fn separator<'a>(
    item_end: &'a [u8],
    list_start: &'a [u8],
    syntax: Syntax,
) -> PResult<'a, Next> {
    if !syntax.is_lenient()
        && let Some(next) = strict_separator(item_end)
    {
        return Ok(next);
    }
    separator_general(item_end, list_start, syntax)
}

/// [`separator`]'s strict fast path: `,` before another item, or `]`;
/// `None` for anything else (which [`separator`] reads in full). Also
/// right after an item's first value, before [`pair_colon`]: a `,` or `]`
/// there means the item is a plain value.
///
/// ```
/// use jtoo::parse::cursor::{strict_separator, Next};
/// assert_eq!(strict_separator(b",2]"), Some((&b"2]"[..], Next::Item)));
/// assert_eq!(strict_separator(b"]"), Some((&b"]"[..], Next::End)));
/// assert_eq!(strict_separator(b",]"), None); // an error: `separator` says which
/// assert_eq!(strict_separator(b":2]"), None);
/// ```
#[inline(always)]
pub fn strict_separator(item_end: &[u8]) -> Option<(&[u8], Next)> {
    match item_end {
        [b',', next, ..] if *next != b']' => Some((&item_end[1..], Next::Item)),
        [b']', ..] => Some((item_end, Next::End)),
        _ => None,
    }
}

/// [`separator`] in full: HTOO, the end of input, errors.
#[inline(never)]
fn separator_general<'a>(
    item_end: &'a [u8],
    list_start: &'a [u8],
    syntax: Syntax,
) -> PResult<'a, Next> {
    let (r, ()) = ws::skip(item_end, syntax)?;
    match r.first() {
        Some(b',') => {
            let (r, ()) = ws::skip(&r[1..], syntax)?;
            match r.first() {
                Some(b']') if syntax.is_lenient() => Ok((r, Next::End)),
                Some(b']') => fail(r, ErrorKind::ExpectedValue),
                Some(_) => Ok((r, Next::Item)),
                None => fail(list_start, ErrorKind::UnclosedList),
            }
        }
        Some(b']') => Ok((r, Next::End)),
        None => fail(list_start, ErrorKind::UnclosedList),
        Some(_) => fail(item_end, ErrorKind::ExpectedCommaOrEnd),
    }
}

/// A position in one whole input, with the list steps as methods: the reader
/// for pull-style consumers (a serde `Deserializer`) that ask for one list
/// step at a time. Positions are byte offsets in [`Cursor::input`]; errors
/// are [`ParseError`]s, positioned in that input by
/// [`ParseError::into_error`].
#[derive(Clone, Copy, Debug)]
pub struct Cursor<'a> {
    /// The whole input.
    pub input: &'a [u8],
    /// What was checked once for the whole input (UTF-8).
    pub known: Known<'a>,
    /// The byte offset of the next unread byte.
    pub pos: usize,
    /// The grammar followed.
    pub syntax: Syntax,
    /// How many more list levels may be opened.
    pub depth: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `input`, checking its UTF-8 once (see
    /// [`Known::check`]).
    pub fn new(input: &'a [u8], syntax: Syntax, max_depth: usize) -> Cursor<'a> {
        Cursor::with_known(input, Known::check(input), syntax, max_depth)
    }

    /// A cursor at the start of `input` whose [`Known`] facts the caller
    /// already has (a `&str` is known to be UTF-8: [`Known::of_str`]).
    pub fn with_known(
        input: &'a [u8],
        known: Known<'a>,
        syntax: Syntax,
        max_depth: usize,
    ) -> Cursor<'a> {
        Cursor {
            input,
            known,
            pos: 0,
            syntax,
            depth: max_depth,
        }
    }

    /// The unread input.
    #[inline]
    pub fn rest(&self) -> &'a [u8] {
        self.input.get(self.pos..).unwrap_or_default()
    }

    /// Moves to where `rest` (a suffix of the input) starts.
    #[inline]
    pub fn set_rest(&mut self, rest: &'a [u8]) {
        self.pos = self.input.len().saturating_sub(rest.len());
    }

    /// The next unread byte.
    #[inline]
    pub fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    /// An error of `kind` at byte offset `at`.
    #[cold]
    pub fn error_at(&self, kind: ErrorKind, at: usize) -> ParseError {
        ParseError::new(self.input.get(at..).unwrap_or_default(), kind)
    }

    /// Runs a slice step on the rest and moves past what it read.
    #[inline(always)]
    fn step<T>(&mut self, f: impl FnOnce(&'a [u8]) -> PResult<'a, T>) -> Result<T, ParseError> {
        match f(self.rest()) {
            Ok((rest, v)) => {
                self.set_rest(rest);
                Ok(v)
            }
            Err(e) => Err(unwrap_nom_err(e, self.input)),
        }
    }

    /// Skips whitespace and comments (HTOO; nothing in strict JTOO).
    #[inline(always)]
    pub fn skip_ws(&mut self) -> Result<(), ParseError> {
        if self.syntax.is_lenient() {
            let syntax = self.syntax;
            self.step(|r| ws::skip(r, syntax))?;
        }
        Ok(())
    }

    /// Consumes the `[` at the current position (and whitespace after it),
    /// counting depth; returns where the list started, for
    /// [`Cursor::at_list_end`], [`Cursor::after_item`] and
    /// [`Cursor::end_list`]. See [`open`].
    #[inline(always)]
    pub fn begin_list(&mut self) -> Result<usize, ParseError> {
        let start = self.pos;
        let (syntax, depth) = (self.syntax, self.depth);
        self.depth = self.step(|r| open(r, syntax, depth))?;
        Ok(start)
    }

    /// `true` (without consuming it) when the list that started at `start`
    /// ends here.
    ///
    /// # Errors
    /// "unclosed list" at `start` when the input ends.
    #[inline(always)]
    pub fn at_list_end(&self, start: usize) -> Result<bool, ParseError> {
        match self.peek() {
            Some(b']') => Ok(true),
            None => Err(self.error_at(ErrorKind::UnclosedList, start)),
            Some(_) => Ok(false),
        }
    }

    /// After an item of the list that started at `start`: consumes `,` (and,
    /// in HTOO, a trailing `,` before `]`), or leaves `]` in place. See
    /// [`separator`].
    #[inline(always)]
    pub fn after_item(&mut self, start: usize) -> Result<(), ParseError> {
        // [`strict_separator`], on the position (a `]` may be the input's
        // last byte).
        if !self.syntax.is_lenient() {
            match self.input.get(self.pos..self.pos + 2) {
                Some([b',', next]) if *next != b']' => {
                    self.pos += 1;
                    return Ok(());
                }
                Some([b']', _]) => return Ok(()),
                Some(_) => {}
                None if self.peek() == Some(b']') => return Ok(()),
                None => {}
            }
        }
        self.after_item_general(start)
    }

    #[inline(never)]
    fn after_item_general(&mut self, start: usize) -> Result<(), ParseError> {
        let (input, syntax) = (self.input, self.syntax);
        let list_start = input.get(start..).unwrap_or_default();
        self.step(|r| separator_general(r, list_start, syntax))
            .map(drop)
    }

    /// After a pair's key: consumes `:` and the whitespace around it.
    /// Returns `false`, having consumed only whitespace, when the item is a
    /// plain value (what is missing after the `:` is the next step's error).
    #[inline(always)]
    pub fn colon(&mut self) -> Result<bool, ParseError> {
        self.skip_ws()?;
        if self.peek() != Some(b':') {
            return Ok(false);
        }
        self.pos += 1;
        self.skip_ws()?;
        Ok(true)
    }

    /// Consumes the `]` of the list that started at `start` (after
    /// whitespace), giving its depth back.
    ///
    /// # Errors
    /// "unclosed list" at `start` when the input ends; "expected `,` or `]`"
    /// at anything else.
    #[inline(always)]
    pub fn end_list(&mut self, start: usize) -> Result<(), ParseError> {
        self.skip_ws()?;
        match self.peek() {
            Some(b']') => {
                self.pos += 1;
                self.depth += 1;
                Ok(())
            }
            None => Err(self.error_at(ErrorKind::UnclosedList, start)),
            Some(_) => Err(self.error_at(ErrorKind::ExpectedCommaOrEnd, self.pos)),
        }
    }

    /// Skips one value (after whitespace), any list included, with the same
    /// checks as [`super::validate`].
    pub fn skip_value(&mut self) -> Result<(), ParseError> {
        self.skip_key().map(drop)
    }

    /// As [`Cursor::skip_value`], for an item's first value: also says
    /// whether the value may not be a pair key (a time of hour or minute
    /// precision without an offset), for [`Cursor::pair_colon`].
    ///
    /// ```
    /// use jtoo::parse::{cursor::Cursor, Syntax};
    /// // (In strict JTOO a `:` right after `T10` is read as the time's.)
    /// let mut c = Cursor::new(br#"["k":1,T10 :"v"]"#, Syntax::Lenient, 128);
    /// let start = c.begin_list()?;
    /// let ambiguous = c.skip_key()?; // "k"
    /// assert!(c.pair_colon(start, ambiguous)?);
    /// c.skip_value()?;
    /// c.after_item(start)?;
    /// let ambiguous = c.skip_key()?; // T10
    /// assert!(ambiguous);
    /// let err = c.pair_colon(start, ambiguous).unwrap_err();
    /// assert_eq!((err.kind, err.offset(c.input)), (jtoo::ErrorKind::AmbiguousKey, 11));
    /// # Ok::<(), jtoo::parse::ParseError>(())
    /// ```
    pub fn skip_key(&mut self) -> Result<bool, ParseError> {
        self.skip_ws()?;
        let (syntax, depth, known) = (self.syntax, self.depth, self.known);
        self.step(|r| super::validate::value_key(r, syntax, depth, known))
    }

    /// After an item's first value, in the list that started at `start`:
    /// reads the `:` of a pair with the validator's rule ([`pair_colon`]).
    /// Returns `true`, past the `:` and whitespace, where the pair's value
    /// starts; or `false`, not moving, when the item is a plain value.
    ///
    /// # Errors
    /// "ambiguous key" at the `:` when `ambiguous` (see
    /// [`Cursor::skip_key`]); "unclosed list" at `start` when the input
    /// ends after the `:`.
    ///
    /// ```
    /// use jtoo::parse::{cursor::Cursor, Syntax};
    /// let mut c = Cursor::new(b"[1,2:", Syntax::Strict, 128);
    /// let start = c.begin_list()?;
    /// c.skip_value()?;
    /// assert!(!c.pair_colon(start, false)?); // a plain item: `,` follows
    /// c.after_item(start)?;
    /// c.skip_value()?;
    /// let err = c.pair_colon(start, false).unwrap_err();
    /// assert_eq!((err.kind, err.offset(c.input)), (jtoo::ErrorKind::UnclosedList, 0));
    /// # Ok::<(), jtoo::parse::ParseError>(())
    /// ```
    pub fn pair_colon(&mut self, start: usize, ambiguous: bool) -> Result<bool, ParseError> {
        let (input, syntax) = (self.input, self.syntax);
        let list_start = input.get(start..).unwrap_or_default();
        self.step(|r| pair_colon(r, list_start, syntax, || ambiguous))
    }
}
