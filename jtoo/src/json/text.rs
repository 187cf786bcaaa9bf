//! Exact JSON text ⇄ JTOO, independent of serde_json's cargo features.
//!
//! serde_json keeps object order only with its `preserve_order` feature and
//! exact numbers only with `arbitrary_precision`; both change serde_json for
//! a whole program once any crate enables them. Converting from JSON *text*
//! needs neither: this reader keeps member order and every number's exact
//! value, and the writer prints decimals with their exact digits.

use crate::error::{Error, ErrorKind};
use crate::json::{FromJsonOptions, NullPolicy};
use crate::parse::Number;
use crate::value::walk::{Event, Walk};
use crate::value::{Item, ItemRef, Pair, Value};
use std::borrow::Cow;

struct Reader<'a> {
    input: &'a [u8],
    pos: usize,
    options: FromJsonOptions,
}

/// What a JSON value turned into: a JTOO value, or a `null`.
enum Read {
    Value(Value),
    Null,
}

impl<'a> Reader<'a> {
    fn err(&self, kind: ErrorKind) -> Error {
        Error::at(kind, self.input, self.pos)
    }

    #[inline]
    fn skip_ws(&mut self) {
        while self.input.get(self.pos).is_some_and(|&b| is_ws(b)) {
            self.pos += 1;
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    fn value(&mut self, depth: usize) -> Result<Read, Error> {
        self.skip_ws();
        match self.peek() {
            Some(b'{') => self.object(depth).map(Read::Value),
            Some(b'[') => self.array(depth).map(Read::Value),
            _ => {
                let start = self.pos;
                match scalar(self.input.get(start..).unwrap_or_default()) {
                    Ok((len, s)) => {
                        self.pos = start + len;
                        Ok(match s {
                            Scalar::Str(s) => Read::Value(Value::String(s.into())),
                            Scalar::Number(n) => Read::Value(Value::from(n)),
                            Scalar::Bool(b) => Read::Value(Value::Bool(b)),
                            Scalar::Null => Read::Null,
                        })
                    }
                    Err((at, kind)) => Err(Error::at(kind, self.input, start + at)),
                }
            }
        }
    }

    fn enter(&self, depth: usize) -> Result<usize, Error> {
        depth
            .checked_sub(1)
            .ok_or_else(|| self.err(ErrorKind::DepthLimitExceeded))
    }

    /// Steps over an array's or object's opening bracket: the depth left
    /// for its members, or `None` when `close` follows at once (empty).
    fn open(&mut self, depth: usize, close: u8) -> Result<Option<usize>, Error> {
        let depth = self.enter(depth)?;
        self.pos += 1;
        self.skip_ws();
        if self.peek() == Some(close) {
            self.pos += 1;
            return Ok(None);
        }
        Ok(Some(depth))
    }

    fn array(&mut self, depth: usize) -> Result<Value, Error> {
        let mut items = Vec::new();
        let Some(depth) = self.open(depth, b']')? else {
            return Ok(Value::List(items.into()));
        };
        loop {
            let at = self.pos;
            match self.value(depth)? {
                Read::Value(v) => items.push(Item::Value(v)),
                Read::Null => {
                    return Err(self.null_at(at));
                }
            }
            if self.closes(b']', ErrorKind::ExpectedCommaOrEnd)? {
                return Ok(Value::List(items.into()));
            }
        }
    }

    /// The error for a JSON `null` that starts at `at` (reported there).
    fn null_at(&mut self, at: usize) -> Error {
        self.pos = at;
        self.skip_ws();
        self.err(ErrorKind::Unencodable("JSON null has no JTOO form"))
    }

    /// After an array element or object member: `,` (another follows,
    /// `false`) or `close` (`true`); anything else is `other`.
    fn closes(&mut self, close: u8, other: ErrorKind) -> Result<bool, Error> {
        self.skip_ws();
        match self.peek() {
            Some(b',') => {
                self.pos += 1;
                Ok(false)
            }
            Some(b) if b == close => {
                self.pos += 1;
                Ok(true)
            }
            None => Err(self.err(ErrorKind::UnexpectedEnd)),
            Some(_) => Err(self.err(other)),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, Error> {
        let mut items = Vec::new();
        let Some(depth) = self.open(depth, b'}')? else {
            return Ok(Value::List(items.into()));
        };
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.err(ErrorKind::InvalidString(
                    "expected a `\"` starting an object key",
                )));
            }
            let start = self.pos;
            let key = match string(self.input.get(start..).unwrap_or_default()) {
                Ok((len, key)) => {
                    self.pos = start + len;
                    key
                }
                Err((at, kind)) => return Err(Error::at(kind, self.input, start + at)),
            };
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.err(ErrorKind::ExpectedValue));
            }
            self.pos += 1;
            let at = self.pos;
            match self.value(depth)? {
                Read::Value(v) => items.push(Item::Pair(Pair::with_str_key(key, v))),
                Read::Null if self.options.null_policy() == NullPolicy::OmitMembers => {}
                Read::Null => {
                    return Err(self.null_at(at));
                }
            }
            if self.closes(b'}', ErrorKind::ExpectedValue)? {
                return Ok(Value::List(items.into()));
            }
        }
    }
}

/// JSON whitespace (space, tab, CR, LF).
#[inline]
pub(super) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// A JSON value that is not an array or object, as [`scalar`] reads it.
pub(super) enum Scalar<'a> {
    /// A string, borrowed from the input when it has no escapes.
    Str(Cow<'a, str>),
    /// A number, exactly ([`crate::json_number::read`]).
    Number(Number),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
}

/// Why a JSON token could not be read: the offset (from the token's start)
/// and the kind of the error.
pub(super) type TokenError = (usize, ErrorKind);

/// Reads the JSON scalar (string, number, `true`, `false`, `null`) at the
/// start of `input`: the bytes it takes and its value. The one reading of
/// JSON scalars, for the slice reader here and the window reader of
/// [`super::stream`].
pub(super) fn scalar(input: &[u8]) -> Result<(usize, Scalar<'_>), TokenError> {
    let literal = |lit: &[u8], s: Scalar<'static>| {
        if input.starts_with(lit) {
            Ok((lit.len(), s))
        } else {
            Err((0, ErrorKind::ExpectedValue))
        }
    };
    match input.first() {
        None => Err((0, ErrorKind::UnexpectedEnd)),
        Some(b'"') => string(input).map(|(len, s)| (len, Scalar::Str(s))),
        Some(b't') => literal(b"true", Scalar::Bool(true)),
        Some(b'f') => literal(b"false", Scalar::Bool(false)),
        Some(b'n') => literal(b"null", Scalar::Null),
        Some(b'-' | b'0'..=b'9') => {
            crate::json_number::read(input).map(|(len, n)| (len, Scalar::Number(n)))
        }
        Some(_) => Err((0, ErrorKind::ExpectedValue)),
    }
}

/// Reads the JSON string whose `"` starts `input`: the bytes it takes
/// (both quotes included) and its text. Escapes are decoded by serde_json
/// (surrogate pairs and all); a string without escapes is validated and
/// borrowed. An unclosed string is reported at its start.
pub(super) fn string(input: &[u8]) -> Result<(usize, Cow<'_, str>), TokenError> {
    let unclosed = (0, ErrorKind::UnclosedString);
    let mut i = 1;
    let mut escaped = false;
    loop {
        let rest = input.get(i..).ok_or(unclosed)?;
        match memchr::memchr2(b'"', b'\\', rest) {
            None => return Err(unclosed),
            Some(n) if rest.get(n) == Some(&b'\\') => {
                escaped = true;
                i += n + 2;
                if i > input.len() {
                    return Err(unclosed);
                }
            }
            Some(n) => {
                i += n;
                break;
            }
        }
    }
    let raw = input.get(..=i).unwrap_or_default();
    if !escaped {
        let body = raw.get(1..i).unwrap_or_default();
        if let Some(bad) = body.iter().position(|&b| b < 0x20) {
            return Err((
                1 + bad,
                ErrorKind::InvalidString("control characters must be escaped in JSON"),
            ));
        }
        return match std::str::from_utf8(body) {
            Ok(s) => Ok((i + 1, Cow::Borrowed(s))),
            Err(e) => Err((1 + e.valid_up_to(), ErrorKind::InvalidUtf8)),
        };
    }
    match serde_json::from_slice::<String>(raw) {
        Ok(s) => Ok((i + 1, Cow::Owned(s))),
        Err(_) => Err((0, ErrorKind::InvalidString("invalid JSON string"))),
    }
}

/// Converts JSON text to JTOO exactly: member order kept, numbers with their
/// exact values, `null` members left out (other nulls are errors), whatever
/// cargo features serde_json was built with.
///
/// ```
/// let v = jtoo::json::from_json_slice(br#"{"b":1,"a":[1.50,1e5,-0],"n":null}"#).unwrap();
/// assert_eq!(v.to_string(), r#"["b":1,"a":[1.5,100_000.0,0]]"#);
/// let e = jtoo::json::from_json_slice(b"[1,null]").unwrap_err();
/// assert_eq!(e.column(), 4);
/// ```
///
/// # Errors
/// Invalid JSON, a `null` that cannot be omitted, a number out of range,
/// nesting deeper than the limit; all with positions.
pub fn from_json_slice(input: &[u8]) -> Result<Value, Error> {
    from_json_slice_with(input, &FromJsonOptions::default())
}

/// [`from_json_slice`] with options (null policy, depth limit).
///
/// # Errors
/// As [`from_json_slice`].
pub fn from_json_slice_with(input: &[u8], options: &FromJsonOptions) -> Result<Value, Error> {
    let mut r = Reader {
        input,
        pos: 0,
        options: *options,
    };
    let v = match r.value(options.depth_limit())? {
        Read::Value(v) => v,
        Read::Null => {
            r.pos = 0;
            r.skip_ws();
            return Err(r.err(ErrorKind::Unencodable("JSON null has no JTOO form")));
        }
    };
    r.skip_ws();
    if r.pos != input.len() {
        return Err(r.err(ErrorKind::TrailingCharacters));
    }
    Ok(v)
}

/// [`from_json_slice`] on a `&str`.
///
/// # Errors
/// As [`from_json_slice`].
pub fn from_json_str(input: &str) -> Result<Value, Error> {
    from_json_slice(input.as_bytes())
}

/// Writes `value` as compact JSON text with exact numbers (the mapping of
/// [`crate::json::to_json`], without going through `serde_json::Number`).
///
/// ```
/// let v = jtoo::from_str(r#"["a":1_000.123_456_789_012_345_678_9,"b":[Y,B4f]]"#).unwrap();
/// assert_eq!(jtoo::json::to_json_string(&v), r#"{"a":1000.1234567890123456789,"b":[true,"4f"]}"#);
/// ```
pub fn to_json_string(value: &Value) -> String {
    let mut out = Vec::new();
    write_json(&mut out, value);
    // Every byte written is a copy of UTF-8 text or ASCII.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Appends the bytes of `s` (UTF-8 text, or any bytes of it) as the inside
/// of a JSON string, escaped as serde_json escapes them: `\"`, `\\`, the
/// short escapes `\b \f \n \r \t`, `\u00xx` for the other control codes;
/// everything else raw (U+007F included). One scan a word at a time
/// ([`find_special_in`](crate::scan::find_special_in): JTOO's special
/// bytes are JSON's plus U+007F).
fn push_json_escaped(out: &mut Vec<u8>, mut s: &[u8]) {
    while let Some(i) = crate::scan::find_special_in(s) {
        let (plain, rest) = s.split_at(i);
        out.extend_from_slice(plain);
        let Some((&b, rest)) = rest.split_first() else {
            return;
        };
        push_json_escape(out, b);
        s = rest;
    }
    out.extend_from_slice(s);
}

/// Appends the one byte `b` of a JSON string's inside (see
/// [`push_json_escaped`]).
fn push_json_escape(out: &mut Vec<u8>, b: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    match b {
        b'"' => out.extend_from_slice(b"\\\""),
        b'\\' => out.extend_from_slice(b"\\\\"),
        0x08 => out.extend_from_slice(b"\\b"),
        0x0c => out.extend_from_slice(b"\\f"),
        b'\n' => out.extend_from_slice(b"\\n"),
        b'\r' => out.extend_from_slice(b"\\r"),
        b'\t' => out.extend_from_slice(b"\\t"),
        0..0x20 => out.extend_from_slice(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[usize::from(b >> 4)],
            HEX[usize::from(b & 15)],
        ]),
        _ => out.push(b),
    }
}

/// Appends `s` as a JSON string.
pub(super) fn write_json_str(out: &mut Vec<u8>, s: &[u8]) {
    out.push(b'"');
    push_json_escaped(out, s);
    out.push(b'"');
}

/// Appends, as JSON text, the scalar whose canonical strict JTOO spelling
/// is `text` (as the encoder writes it, or a strict reader checked it): the
/// one place of the JTOO → JSON mapping of scalars (the table of the
/// [module documentation](super)). With `key`, the scalar is a pair's key:
/// a string key is its string, any other key the JSON string of its JTOO
/// text (a list's included).
///
/// Everything is written from the text: a string's `\xx` escapes become
/// JSON's, numbers lose their `_`, the rest is copied.
#[inline(always)]
pub(super) fn write_json_canonical(out: &mut Vec<u8>, text: &[u8], key: bool) {
    // The exact digits, ungrouped (numbers first: most scalars are).
    if !key && matches!(text.first(), Some(b'0'..=b'9' | b'-')) {
        return push_ungrouped(out, text);
    }
    match text.split_first() {
        Some((b'"', body)) => {
            let body = body.strip_suffix(b"\"").unwrap_or(body);
            match crate::scan::find_special_in(body) {
                // Nothing to change: the text, quotes included, as it is.
                None if text.len() == body.len() + 2 => out.extend_from_slice(text),
                first => {
                    out.push(b'"');
                    jtoo_string_as_json(out, body, first);
                    out.push(b'"');
                }
            }
        }
        _ if key => write_json_str(out, text),
        Some((b'Y', _)) => out.extend_from_slice(b"true"),
        Some((b'N', _)) => out.extend_from_slice(b"false"),
        // Lower-case hex after the `B`: the JSON string of the bytes.
        Some((b'B', hex)) => write_json_str(out, hex),
        // Dates, times and timestamps: their JTOO text as a string.
        _ => write_json_str(out, text),
    }
}

/// Appends a number's text without its `_`. In canonical text the
/// separators (`_`, and the `.`) stand every four bytes from the first
/// one, so from there on each eight bytes hold two of them: a number of
/// eight to [`UNGROUP_ROOM`] bytes is ungrouped eight bytes at a time into
/// a buffer, each word losing its `_` by a shift ([`ungroup_word`]), and
/// copied out as a fixed 32 bytes cut back; a shorter or longer number, or
/// any other shape, is copied byte by byte or run by run.
#[inline]
fn push_ungrouped(out: &mut Vec<u8>, text: &[u8]) {
    let mut buf = [0u8; UNGROUP_ROOM + 8];
    match (
        ungroup_words(text, &mut buf),
        buf.first_chunk::<UNGROUP_ROOM>(),
    ) {
        (Some(n), Some(head)) => {
            let len = out.len();
            out.extend_from_slice(head);
            out.truncate(len + n);
        }
        // Short numbers are common: not the cold path.
        _ if text.len() < 8 => out.extend(text.iter().filter(|&&b| b != b'_')),
        _ => push_ungrouped_runs(out, text),
    }
}

/// [`push_ungrouped`] for the numbers of eight bytes or more that
/// [`ungroup_words`] leaves (longer than [`UNGROUP_ROOM`], or not grouped
/// as canonical text is).
#[cold]
#[inline(never)]
fn push_ungrouped_runs(out: &mut Vec<u8>, text: &[u8]) {
    for digits in text.split(|&b| b == b'_') {
        out.extend_from_slice(digits);
    }
}

/// The longest number [`ungroup_words`] takes.
const UNGROUP_ROOM: usize = 32;

/// `0x80` in each byte of `w` equal to `b`, `0` in the others (exact: no
/// borrow runs between bytes).
#[inline(always)]
fn bytes_equal(w: u64, b: u8) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let x = w ^ (0x0101_0101_0101_0101 * u64::from(b));
    !(((x & LOW7) + LOW7) | x | LOW7)
}

/// The eight bytes of `w` (little-endian) without a `_` at byte 0 or byte
/// 4, and how many bytes were dropped; `None` when a `_` stands elsewhere.
/// The bytes freed at the top are zero.
#[inline(always)]
fn ungroup_word(w: u64) -> Option<(u64, usize)> {
    const AT0: u64 = 0x80;
    const AT4: u64 = 0x80 << 32;
    match bytes_equal(w, b'_') {
        0 => Some((w, 0)),
        AT0 => Some((w >> 8, 1)),
        AT4 => Some((w & 0xffff_ffff | (w >> 8) & 0x00ff_ffff_0000_0000, 1)),
        u if u == AT0 | AT4 => Some((
            (w >> 8) & 0x00ff_ffff | (w >> 16) & 0x0000_ffff_ff00_0000,
            2,
        )),
        _ => None,
    }
}

/// Writes `text` (8 to [`UNGROUP_ROOM`] bytes) without its `_` into
/// `buf`, when they stand at the first byte after the first that is not a
/// digit (the first separator, `_` or `.`, in a number) and every fourth
/// byte after it: the length written, or `None` for any other text.
#[inline(always)]
fn ungroup_words(text: &[u8], buf: &mut [u8; UNGROUP_ROOM + 8]) -> Option<usize> {
    if text.len() > UNGROUP_ROOM {
        return None;
    }
    let first = u64::from_le_bytes(*text.first_chunk::<8>()?);
    let last = u64::from_le_bytes(*text.last_chunk::<8>()?);
    if first as u8 == b'_' {
        return None;
    }
    // `0x80` in each byte but the first that is not an ASCII digit: its
    // low seven bits less `0x30` reach 10 (no carry between bytes), or
    // its top bit is set.
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let x = first ^ 0x3030_3030_3030_3030;
    let others = (((x & LOW7) + 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8000;
    if others == 0 {
        return None;
    }
    let mut n = (others.trailing_zeros() / 8) as usize;
    *buf.first_chunk_mut::<8>()? = first.to_le_bytes();
    let rest = text.get(n..)?;
    let mut words = rest.chunks_exact(8);
    for word in &mut words {
        let (w, dropped) = ungroup_word(u64::from_le_bytes(word.try_into().ok()?))?;
        put_word(buf, n, w);
        n += 8 - dropped;
    }
    let tail = words.remainder().len();
    if tail > 0 {
        // The last `tail` bytes, from the text's last eight (zeros above
        // them: not `_`, so no more than `tail` bytes are dropped).
        let (w, dropped) = ungroup_word(last >> (8 * (8 - tail)))?;
        put_word(buf, n, w);
        n = (n + tail).wrapping_sub(dropped);
    }
    Some(n)
}

/// Stores `w` at `buf[n..n + 8]`. Where [`ungroup_words`] calls it, `n`
/// (bytes written) is at most the bytes of the text already read, which
/// are fewer than [`UNGROUP_ROOM`]: taking `n` modulo it changes nothing,
/// and the store needs no bounds check.
#[inline(always)]
fn put_word(buf: &mut [u8; UNGROUP_ROOM + 8], n: usize, w: u64) {
    if let Some(to) = buf
        .get_mut(n % UNGROUP_ROOM..)
        .and_then(|b| b.first_chunk_mut::<8>())
    {
        *to = w.to_le_bytes();
    }
}

/// Appends the inside of a strict JTOO string (between its quotes) as the
/// inside of a JSON string, in one scan for JTOO's special bytes: runs
/// without them are copied, each `\xx` becomes the byte it stands for,
/// escaped for JSON (any other special byte, which strict text does not
/// hold, is escaped as itself). `first` is where the first special byte
/// stands (the caller's scan found it), so no byte is scanned twice.
fn jtoo_string_as_json(out: &mut Vec<u8>, mut body: &[u8], first: Option<usize>) {
    let mut next = first;
    while let Some(i) = next {
        let (plain, rest) = body.split_at(i);
        out.extend_from_slice(plain);
        let hex = |k: usize| rest.get(k).and_then(|&h| char::from(h).to_digit(16));
        match (rest.first(), hex(1), hex(2)) {
            (Some(b'\\'), Some(hi), Some(lo)) => {
                push_json_escape(out, (hi * 16 + lo) as u8);
                body = rest.get(3..).unwrap_or_default();
            }
            (Some(&b), ..) => {
                push_json_escape(out, b);
                body = rest.get(1..).unwrap_or_default();
            }
            (None, ..) => return,
        }
        next = crate::scan::find_special_in(body);
    }
    out.extend_from_slice(body);
}

/// Writes `value` as JSON text, without recursion (any depth is safe).
fn write_json(out: &mut Vec<u8>, value: &Value) {
    let Value::List(items) = value else {
        return write_json_scalar(out, value, false);
    };
    // Per open list: written as an object (every item a pair).
    let mut objects: Vec<bool> = Vec::new();
    // Inside a pair's key (written already as text): the lists open in it.
    let mut in_key: Option<usize> = None;
    for event in Walk::new(items) {
        if let Some(open) = &mut in_key {
            match event {
                Event::Open(_) => *open += 1,
                Event::Close => *open -= 1,
                Event::Colon if *open == 0 => {
                    in_key = None;
                    out.push(b':');
                }
                _ => {}
            }
            continue;
        }
        let in_object = objects.last() == Some(&true);
        match event {
            Event::Leaf(v) => write_json_scalar(out, v, false),
            Event::Open(items) => {
                let object = !items.is_empty() && items.is_record();
                objects.push(object);
                out.push(if object { b'{' } else { b'[' });
            }
            Event::Close => out.push(if objects.pop() == Some(true) {
                b'}'
            } else {
                b']'
            }),
            Event::Item { first, item, .. } => {
                if !first {
                    out.push(b',');
                }
                if let ItemRef::Pair(p) = item {
                    if !in_object {
                        out.push(b'{');
                    }
                    write_json_scalar(out, p.key(), true);
                    in_key = Some(0);
                }
            }
            Event::ItemEnd { pair: true } if !in_object => out.push(b'}'),
            Event::ItemEnd { .. } | Event::Colon => {}
        }
    }
}

/// Appends a value that is not a list as JSON (a list as the JSON string
/// of its JTOO text), or as a pair's key with `key`: by its canonical text
/// ([`write_json_canonical`]; a string straight from its text).
pub(super) fn write_json_scalar(out: &mut Vec<u8>, value: &Value, key: bool) {
    if let Value::String(s) = value {
        return write_json_str(out, s.as_bytes());
    }
    let mut text = Vec::new();
    // A value that has no canonical spelling (not made by the parser)
    // falls back to its display text.
    if crate::encode::write_value(&mut text, value).is_err() {
        text = value.to_string().into_bytes();
    }
    let key = key || matches!(value, Value::List(_));
    write_json_canonical(out, &text, key);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_exact() {
        let cases = [
            ("0", "0"),
            ("-0", "0"),
            ("-0.0", "0.0"),
            ("1.50", "1.5"),
            ("1e5", "100_000.0"),
            ("1E+2", "100.0"),
            ("12.5e-1", "1.25"),
            ("-65.613616999999977", "-65.613_616_999_999_977"),
            (
                "340282366920938463463374607431768211455",
                "340_282_366_920_938_463_463_374_607_431_768_211_455",
            ),
            (
                "0.000000000000000000000000000000000000000001",
                "0.000_000_000_000_000_000_000_000_000_000_000_000_000_001",
            ),
        ];
        for (json, jtoo) in cases {
            assert_eq!(from_json_str(json).unwrap().to_string(), jtoo, "{json}");
        }
        for bad in [
            "1e999999999",
            "340282366920938463463374607431768211456",
            "01",
            "1.",
            "-",
            "1e",
            ".5",
            "+1",
        ] {
            assert!(from_json_str(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn structure_order_and_nulls() {
        let v = from_json_str(r#" {"z":{"y":[true,false,"a\u00e9\ud83d\ude00\n"]},"a":null} "#)
            .unwrap();
        assert_eq!(
            v.to_string(),
            "[\"z\":[\"y\":[Y,N,\"a\u{e9}\u{1f600}\\0a\"]]]"
        );
        assert!(from_json_str("null").is_err());
        assert!(from_json_str("[null]").is_err());
        assert!(from_json_str("{\"a\":1,}").is_err());
        assert!(from_json_str("[1] x").is_err());
        assert!(from_json_str(&"[".repeat(100_000)).is_err());
        assert!(from_json_str("\"a\tb\"").is_err());
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them_from_values_and_from_text() {
        let mut all: String = (0u32..0x100).filter_map(char::from_u32).collect();
        all.push_str("\u{2028}\u{1f600}\"\\x");
        let mut cases: Vec<String> = all.chars().map(String::from).collect();
        cases.push(all.clone());
        cases.push("plain text, nothing to escape".into());
        cases.push("a\u{7f}b\"c\\d\u{1}e\nf".into());
        for s in cases {
            let expected = serde_json::to_string(&s).unwrap();
            let value = Value::String(s.as_str().into());
            assert_eq!(to_json_string(&value), expected, "{s:?}");
            // The same from the canonical text, as the streaming writer
            // reads it (`\xx` escapes), as a value and as a key.
            let mut text = Vec::new();
            crate::encode::write_value(&mut text, &value).unwrap();
            for key in [false, true] {
                let mut out = Vec::new();
                write_json_canonical(&mut out, &text, key);
                assert_eq!(String::from_utf8(out).unwrap(), expected, "{s:?}");
            }
        }
    }

    #[test]
    fn scalars_from_text_are_what_they_are_from_values() {
        let doc = r#"[1,-1_234_567,0.000_1,-65.613_616_999_999_977,1.0,Y,N,B,B4f4b,D2023-12-08,T10:20:30.500Z,"",340_282_366_920_938_463_463_374_607_431_768_211_455]"#;
        let v = crate::from_str(doc).unwrap();
        assert_eq!(
            to_json_string(&v),
            r#"[1,-1234567,0.0001,-65.613616999999977,1.0,true,false,"","4f4b","D2023-12-08","T10:20:30.500Z","",340282366920938463463374607431768211455]"#
        );
        // Grouped as canonical text is, or not (the fast path must give way).
        for text in [
            "1_000.000_1",
            "-1_234_567.89",
            "0.5",
            "123",
            "1_0_00",
            "1_00_0",
            "10_00.0_0",
            "1_000_",
            "_1",
            "1__000",
            "505_874_924_095_815_700",
            "-65.613_616_999_999_977",
            "1_000_000_",
            "1_000_00_0",
            "12345678_9",
            "1.000_000_0_0",
            "_000_000_000",
            "1_000.000_000_1",
        ] {
            let mut out = b"[".to_vec();
            push_ungrouped(&mut out, text.as_bytes());
            assert_eq!(
                out,
                format!("[{}", text.replace('_', "")).as_bytes(),
                "{text}"
            );
        }
        // Every placement of `_` and `.` among digits, up to 20 bytes
        // (pseudo-random), and of `-` and other bytes up to 40: the same as
        // removing each `_`.
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for k in 0..40_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let (len, kinds) = if k % 2 == 0 {
                (seed % 21, 8)
            } else {
                (seed % 41, 12)
            };
            let text: String = (0..len as usize)
                .map(|i| match (seed >> (i * 3 % 61)) % kinds {
                    0 | 1 => '_',
                    2 => '.',
                    8 => '-',
                    9 => 'e',
                    10 => '\u{7f}',
                    11 => 'é',
                    _ => char::from(b'0' + (i % 10) as u8),
                })
                .collect();
            let mut out = Vec::new();
            push_ungrouped(&mut out, text.as_bytes());
            assert_eq!(out, text.replace('_', "").as_bytes(), "{text}");
        }
        let long = format!("0.{}1", "000_".repeat(30));
        let mut out = Vec::new();
        write_json_canonical(&mut out, long.as_bytes(), false);
        assert_eq!(out, format!("0.{}1", "000".repeat(30)).as_bytes());
        let keys = crate::from_str(r#"[1_000:1,B4f:2,D2023:3,[1,"a\22"]:4,Y:5]"#).unwrap();
        assert_eq!(
            to_json_string(&keys),
            r#"{"1_000":1,"B4f":2,"D2023":3,"[1,\"a\\22\"]":4,"Y":5}"#
        );
    }

    #[test]
    fn writer_round_trips_the_corpus_shapes() {
        for json in [
            r#"{"a":[1,2.5,{"b":"c\"d"}],"e":"x"}"#,
            "[]",
            "[1,-2,0.001]",
        ] {
            let v = from_json_str(json).unwrap();
            assert_eq!(to_json_string(&v), json);
        }
    }
}
