//! Node.js bindings of the JTOO core: `index.js` wraps these functions into
//! the package's API (`parse`, `stringify`, `pretty`, `fromJson`, `toJson`,
//! `FrameDecoder`, `encodeFrame`, the greeting helpers, `encodePacket`,
//! `decodePacket`).
//!
//! The binding is thin: every rule of JTOO and HTOO lives in the Rust crates
//! (`jtoo`, `htoo`, `jtoo-frame`, `jte`, `spec-tests`). This crate converts
//! values between JTOO (a document walked by `jtoo::visit`, or a
//! `jtoo::Value`) and JavaScript and turns errors into JavaScript
//! exceptions; it never parses or checks JTOO itself.
//!
//! JavaScript classes (`Decimal`, `DateTime`, `Timestamp`, `Pair`,
//! `DecodeError`) are defined in `index.js` and handed to every call in a
//! context object, together with a private token that lets the native side
//! build instances without their constructors re-checking the text, and a
//! private symbol under which each class's prototype names its kind.
#![deny(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

use bytes::BytesMut;
use jtoo::parse::Syntax;
use jtoo::visit::{Scalar, VisitError, Visitor, visit_slice, visit_str};
use jtoo::{Item, TimePrecision, TimestampPrecision, Value};
use napi::bindgen_prelude::{
    Array, BigInt, FnArgs, FromNapiValue, Function, JsObjectValue, Null, Object, ToNapiValue,
    Uint8ArraySlice, Unknown,
};
use napi::{Env, Error, JsString, JsValue, Result, Status, ValueType};
use napi_derive::napi;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hasher};
use tokio_util::codec::Decoder;

/// The largest integer a JavaScript number holds exactly (2^53 − 1).
const MAX_SAFE: u64 = (1 << 53) - 1;

/// Kinds the classes of `index.js` carry under the private kind symbol.
const KIND_DECIMAL: u32 = 1;
const KIND_DATETIME: u32 = 2;
const KIND_TIMESTAMP: u32 = 3;
const KIND_PAIR: u32 = 4;

type Ctor2<'e> = Function<'e, FnArgs<(Unknown<'e>, Unknown<'e>)>, Unknown<'e>>;
type Ctor3<'e> = Function<'e, FnArgs<(Unknown<'e>, Unknown<'e>, Unknown<'e>)>, Unknown<'e>>;
type Ctor4<'e> =
    Function<'e, FnArgs<(Unknown<'e>, Unknown<'e>, Unknown<'e>, Unknown<'e>)>, Unknown<'e>>;

/// The classes and private keys of `index.js`.
struct Cx<'e> {
    env: &'e Env,
    decimal: Ctor2<'e>,
    datetime: Ctor3<'e>,
    timestamp: Ctor3<'e>,
    pair: Ctor2<'e>,
    map: Function<'e, Unknown<'e>, Unknown<'e>>,
    token: Unknown<'e>,
    kind: Unknown<'e>,
    /// Record keys already made into JavaScript strings during this call:
    /// a repeated key reuses its string (which V8 has internalized), the
    /// largest cost of building objects otherwise.
    keys: RefCell<HashMap<Box<str>, Unknown<'e>, Fnv>>,
}

/// FNV-1a on words: a fast hash for short keys (no hostile-input concern: the
/// tables live for one call and hold one entry per distinct key).
#[derive(Default, Clone, Copy)]
struct Fnv;

impl BuildHasher for Fnv {
    type Hasher = FnvHasher;
    fn build_hasher(&self) -> FnvHasher {
        FnvHasher(0xcbf2_9ce4_8422_2325)
    }
}

struct FnvHasher(u64);

impl FnvHasher {
    #[inline]
    fn step(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(0x0100_0000_01b3);
        self.0 ^= self.0 >> 29;
    }
}

impl Hasher for FnvHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    /// Eight bytes at a time (FNV-1a's step on words): keys of 20 bytes
    /// are three steps, not twenty.
    fn write(&mut self, bytes: &[u8]) {
        let mut rest = bytes;
        while let Some((word, tail)) = rest.split_first_chunk::<8>() {
            self.step(u64::from_le_bytes(*word));
            rest = tail;
        }
        let mut last = [0; 8];
        if let Some(to) = last.get_mut(..rest.len()) {
            to.copy_from_slice(rest);
        }
        self.step(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 59));
    }
}

impl<'e> Cx<'e> {
    fn new(env: &'e Env, ctx: &Object<'e>) -> Result<Cx<'e>> {
        Ok(Cx {
            env,
            decimal: ctx.get_named_property("Decimal")?,
            datetime: ctx.get_named_property("DateTime")?,
            timestamp: ctx.get_named_property("Timestamp")?,
            pair: ctx.get_named_property("Pair")?,
            map: ctx.get_named_property("Map")?,
            token: ctx.get_named_property("token")?,
            kind: ctx.get_named_property("kind")?,
            keys: RefCell::new(HashMap::with_hasher(Fnv)),
        })
    }

    /// The JavaScript string of a record key, made once per call.
    fn key(&self, k: &str) -> Result<Unknown<'e>> {
        if let Some(js) = self.keys.borrow().get(k) {
            return Ok(*js);
        }
        let js = self.env.create_string(k)?.to_unknown();
        self.keys.borrow_mut().insert(k.into(), js);
        Ok(js)
    }

    // ---- Rust → JavaScript -------------------------------------------

    fn to_js(&self, v: &Value) -> Result<Unknown<'e>> {
        let env = self.env;
        match v {
            Value::String(s) => Ok(env.create_string(s.as_str())?.to_unknown()),
            Value::Bytes(b) => Uint8ArraySlice::copy_from(env, b)?.into_unknown(env),
            Value::Bool(b) => b.into_unknown(env),
            Value::Integer(i) => {
                let magnitude = i.magnitude();
                if magnitude <= u128::from(MAX_SAFE) {
                    // Exact: |i| < 2^53.
                    #[allow(clippy::cast_precision_loss)]
                    let m = magnitude as f64;
                    (if i.is_negative() { -m } else { m }).into_unknown(env)
                } else {
                    #[allow(clippy::cast_possible_truncation)]
                    let words = vec![magnitude as u64, (magnitude >> 64) as u64];
                    BigInt {
                        sign_bit: i.is_negative(),
                        words,
                    }
                    .into_unknown(env)
                }
            }
            Value::Decimal(d) => {
                let text = env.create_string(d.to_plain_string())?.to_unknown();
                self.decimal.new_instance(FnArgs::from((self.token, text)))
            }
            Value::DateTime(d) => self.datetime_to_js(d),
            Value::Timestamp(t) => self.timestamp_to_js(t),
            Value::List(list) => self.list_to_js(list),
        }
    }

    fn list_to_js(&self, list: &jtoo::List) -> Result<Unknown<'e>> {
        let env = self.env;
        if let Some(pairs) = list.pairs()
            && plain_object_keys(pairs)
        {
            let mut obj = Object::new(env)?;
            for p in pairs {
                let key = self.key(p.key().as_str().unwrap_or_default())?;
                obj.set_property(key, self.to_js(p.value())?)?;
            }
            return Ok(obj.to_unknown());
        }
        let len = u32::try_from(list.len())
            .map_err(|_| Error::new(Status::GenericFailure, "list too long for JavaScript"))?;
        let mut arr = env.create_array(len)?;
        for (i, item) in (0..len).zip(list.iter()) {
            let js = match item.as_pair() {
                Some(p) => {
                    let k = self.to_js(p.key())?;
                    let v = self.to_js(p.value())?;
                    self.pair.new_instance(FnArgs::from((k, v)))?
                }
                None => self.to_js(item.value())?,
            };
            arr.set(i, js)?;
        }
        arr.into_unknown(env)
    }

    fn datetime_to_js(&self, d: &jtoo::DateTime) -> Result<Unknown<'e>> {
        let env = self.env;
        let mut fields = env.create_array(11)?;
        for (i, f) in (0..).zip(datetime_fields(d)) {
            match f {
                Field::Null => fields.set(i, Null)?,
                #[allow(clippy::cast_precision_loss)]
                Field::Num(n) => fields.set(i, n as f64)?,
                Field::Str(s) => fields.set(i, s)?,
            }
        }
        let text = env.create_string(d.to_string())?.to_unknown();
        self.datetime
            .new_instance(FnArgs::from((self.token, text, fields.into_unknown(env)?)))
    }

    fn timestamp_to_js(&self, t: &jtoo::Timestamp) -> Result<Unknown<'e>> {
        let env = self.env;
        // [seconds, nanosecond, digits]: seconds as a number when exact,
        // else a BigInt.
        let mut fields = env.create_array(3)?;
        let secs = t.secs();
        if secs.unsigned_abs() <= MAX_SAFE {
            #[allow(clippy::cast_precision_loss)]
            fields.set(0, secs as f64)?;
        } else {
            fields.set(0, BigInt::from(secs))?;
        }
        fields.set(1, t.subsec_nanos())?;
        let digits = timestamp_digits(t);
        fields.set(2, digits)?;
        let text = env.create_string(t.to_string())?.to_unknown();
        self.timestamp
            .new_instance(FnArgs::from((self.token, text, fields.into_unknown(env)?)))
    }

    // ---- JavaScript → Rust -------------------------------------------

    fn to_value(&self, v: Unknown<'e>, depth: usize) -> Result<Value> {
        if depth > MAX_DEPTH {
            return Err(type_error(format!(
                "nested deeper than {MAX_DEPTH} lists (a cycle?)"
            )));
        }
        match v.get_type()? {
            ValueType::String => Ok(Value::String(js_string(v)?.into())),
            ValueType::Boolean => Ok(Value::Bool(bool::from_unknown(v)?)),
            ValueType::Number => number(f64::from_unknown(v)?),
            ValueType::BigInt => {
                let b = BigInt::from_unknown(v)?;
                let (negative, magnitude, lossless) = b.get_u128();
                if !lossless {
                    return Err(type_error(
                        "a BigInt beyond ±(2^128−1) has no JTOO integer".to_string(),
                    ));
                }
                Ok(Value::Integer(jtoo::Integer::new(negative, magnitude)))
            }
            ValueType::Object => self.object(Object::from_unknown(v)?, depth),
            ValueType::Undefined => Err(type_error("undefined has no JTOO value".to_string())),
            ValueType::Null => Err(type_error(
                "null has no JTOO value (leave the member out)".to_string(),
            )),
            ValueType::Symbol => Err(type_error("a symbol has no JTOO value".to_string())),
            ValueType::Function => Err(type_error("a function has no JTOO value".to_string())),
            _ => Err(type_error("this value has no JTOO value".to_string())),
        }
    }

    fn object(&self, obj: Object<'e>, depth: usize) -> Result<Value> {
        if obj.is_array()? {
            let len = obj.get_array_length()?;
            let mut items = Vec::with_capacity(len as usize);
            for i in 0..len {
                let el: Unknown = obj.get_element(i)?;
                items.push(self.item(el, depth + 1)?);
            }
            return Ok(Value::List(items.into()));
        }
        if obj.is_typedarray()? {
            let Ok(bytes) = Uint8ArraySlice::from_unknown(obj.to_unknown()) else {
                return Err(type_error(
                    "only a Uint8Array (or Buffer) holds JTOO bytes".to_string(),
                ));
            };
            return Ok(Value::Bytes(bytes.to_vec()));
        }
        let kind: Unknown = obj.get_property(self.kind)?;
        if kind.get_type()? == ValueType::Number {
            let text = || -> Result<String> { js_string(obj.get_named_property("text")?) };
            return match u32::from_unknown(kind)? {
                KIND_DECIMAL => decimal_from_text(&text()?).map(Value::Decimal),
                KIND_DATETIME => text()?
                    .parse()
                    .map(Value::DateTime)
                    .map_err(jtoo_type_error),
                KIND_TIMESTAMP => text()?
                    .parse()
                    .map(Value::Timestamp)
                    .map_err(jtoo_type_error),
                _ => Err(type_error(
                    "a Pair stands only as an item of an array".to_string(),
                )),
            };
        }
        if obj.is_date()? {
            return Err(type_error(
                "a Date has no JTOO value: use Timestamp.fromDate(d)".to_string(),
            ));
        }
        if obj.instanceof(self.map)? {
            let entries: Function<'e, (), Object<'e>> = obj.get_named_property("entries")?;
            let iter = entries.apply(obj, ())?;
            let next: Function<'e, (), Object<'e>> = iter.get_named_property("next")?;
            let mut items = Vec::new();
            loop {
                let step = next.apply(iter, ())?;
                if step.get_named_property::<bool>("done")? {
                    break;
                }
                let entry: Object = step.get_named_property("value")?;
                let k = self.to_value(entry.get_element(0)?, depth + 1)?;
                let v = self.to_value(entry.get_element(1)?, depth + 1)?;
                items.push(Item::Pair(jtoo::Pair::new(k, v).map_err(jtoo_type_error)?));
            }
            return Ok(Value::List(items.into()));
        }
        // A plain object: its own enumerable string keys, in order.
        let keys = obj.get_property_names()?;
        let len = keys.get_array_length()?;
        let mut pairs = Vec::with_capacity(len as usize);
        for i in 0..len {
            let key: Unknown = keys.get_element(i)?;
            let value: Unknown = obj.get_property(key)?;
            let k = js_string(key)?;
            let v = self
                .to_value(value, depth + 1)
                .map_err(|e| Error::new(e.status, format!("{}: {}", k, e.reason)))?;
            pairs.push(jtoo::Pair::with_str_key(k, v));
        }
        Ok(Value::List(jtoo::List::from_pairs(pairs)))
    }

    fn item(&self, v: Unknown<'e>, depth: usize) -> Result<Item> {
        if v.get_type()? == ValueType::Object {
            let obj = Object::from_unknown(v)?;
            let kind: Unknown = obj.get_property(self.kind)?;
            if kind.get_type()? == ValueType::Number && u32::from_unknown(kind)? == KIND_PAIR {
                let k = self.to_value(obj.get_named_property("key")?, depth + 1)?;
                let v = self.to_value(obj.get_named_property("value")?, depth + 1)?;
                return jtoo::Pair::new(k, v)
                    .map(Item::Pair)
                    .map_err(jtoo_type_error);
            }
        }
        self.to_value(v, depth).map(Item::Value)
    }
}

/// Deepest nesting `stringify` follows (JTOO readers refuse more than 128
/// by default; this only stops cycles and runaway recursion).
const MAX_DEPTH: usize = 256;

/// Whether a record's pairs can be a plain object that gives them back in
/// the same order: string keys only, each once, none that JavaScript orders
/// first (array indices) and not `__proto__`.
fn plain_object_keys(pairs: &[jtoo::Pair]) -> bool {
    plain_object_keys_in(pairs, &mut HashSet::with_hasher(Fnv))
}

/// [`plain_object_keys`] with a set to reuse (cleared here).
fn plain_object_keys_in<'a>(pairs: &'a [jtoo::Pair], set: &mut HashSet<&'a str, Fnv>) -> bool {
    set.clear();
    let mut seen: Vec<&str> = Vec::new();
    for p in pairs {
        let Some(k) = p.key().as_str() else {
            return false;
        };
        if k == "__proto__" || is_array_index(k) {
            return false;
        }
        if pairs.len() <= 16 {
            if seen.contains(&k) {
                return false;
            }
            seen.push(k);
        } else if !set.insert(k) {
            return false;
        }
    }
    true
}

/// ECMAScript's array index: the canonical decimal text of an integer in
/// 0 ..= 2^32 − 2 (such keys are enumerated first, in numeric order).
fn is_array_index(k: &str) -> bool {
    let b = k.as_bytes();
    if b.is_empty() || b.len() > 10 || !b.iter().all(u8::is_ascii_digit) {
        return false;
    }
    if b.len() > 1 && b[0] == b'0' {
        return false;
    }
    k.parse::<u64>().is_ok_and(|n| n < u64::from(u32::MAX))
}

/// A JavaScript string as Rust text; a lone surrogate has no UTF-8 spelling
/// and is refused (napi's UTF-8 conversion would replace it with U+FFFD
/// silently, so a U+FFFD in the result is checked against the UTF-16).
fn js_string(v: Unknown) -> Result<String> {
    let s = JsString::from_unknown(v)?;
    let utf8 = s.into_utf8()?.into_owned()?;
    if !utf8.contains('\u{fffd}') {
        return Ok(utf8);
    }
    let utf16 = s.into_utf16()?;
    let units = utf16.as_slice();
    // `as_slice` ends with the terminating NUL napi writes.
    let units = units.strip_suffix(&[0]).unwrap_or(units);
    String::from_utf16(units)
        .map_err(|_| type_error("a string with a lone surrogate has no JTOO value".to_string()))
}

/// A JavaScript number: an integer when it has no fraction, else the
/// shortest decimal that reads back as the same double.
fn number(n: f64) -> Result<Value> {
    if !n.is_finite() {
        return Err(type_error(format!("{n} has no JTOO value")));
    }
    if n.fract() == 0.0 && n.abs() < 1.8e38 {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let magnitude = n.abs() as u128;
        return Ok(Value::Integer(jtoo::Integer::new(n < 0.0, magnitude)));
    }
    jtoo::Decimal::from_f64(n)
        .map(Value::Decimal)
        .map_err(jtoo_type_error)
}

/// A decimal from its text, read by the HTOO grammar (`1000.5`, `1_000.50`,
/// `-0.5`; an integer such as `3` becomes `3.0`).
fn decimal_from_text(text: &str) -> Result<jtoo::Decimal> {
    match htoo::from_str(text) {
        Ok(Value::Decimal(d)) => Ok(d),
        Ok(Value::Integer(i)) => Ok(jtoo::Decimal::from(i)),
        _ => Err(type_error(format!("{text:?} is not a decimal"))),
    }
}

fn type_error(msg: String) -> Error {
    Error::new(Status::InvalidArg, msg)
}

fn jtoo_type_error(e: jtoo::Error) -> Error {
    type_error(e.to_string())
}

/// Throws a `TypeError` for conversion errors (`InvalidArg`), returns
/// others as they are.
fn throw(env: &Env, e: Error) -> Error {
    if e.status == Status::InvalidArg && env.throw_type_error(&e.reason, None).is_ok() {
        return Error::new(Status::PendingException, e.reason);
    }
    e
}

/// Text or bytes from JavaScript.
fn input_bytes(v: Unknown) -> Result<Vec<u8>> {
    match v.get_type()? {
        ValueType::String => Ok(js_string(v)?.into_bytes()),
        ValueType::Object => Ok(Uint8ArraySlice::from_unknown(v)
            .map_err(|_| type_error("expected a string or a Uint8Array".to_string()))?
            .to_vec()),
        _ => Err(type_error("expected a string or a Uint8Array".to_string())),
    }
}

/// A parse error for `index.js` to throw as a `DecodeError`.
fn decode_error<'e>(env: &'e Env, e: &jtoo::Error, ctx: &Object<'e>) -> Result<Unknown<'e>> {
    let ctor: Ctor4<'e> = ctx.get_named_property("DecodeError")?;
    let msg = env.create_string(e.message())?.to_unknown();
    #[allow(clippy::cast_precision_loss)]
    let (line, column, offset) = (
        (e.line() as f64).into_unknown(env)?,
        (e.column() as f64).into_unknown(env)?,
        (e.offset() as f64).into_unknown(env)?,
    );
    let err = ctor.new_instance(FnArgs::from((msg, line, column, offset)))?;
    env.throw(err)?;
    Err(Error::new(Status::PendingException, e.to_string()))
}

// ---- Bulk transfer: JSON text for V8's JSON.parse ----------------------

// Building a large value with one napi call per node costs about four times
// what V8's own JSON.parse spends: so `parse` and `fromJson` hand V8 the
// value as JSON text (plain objects, arrays, strings, booleans, integers
// within ±(2^53−1)) and a list of patches for everything else, which
// `index.js` applies after JSON.parse. This is a transfer encoding of a
// value the Rust crates have already read and checked, not JTOO: no rule
// of the format is applied in JavaScript.
//
// The text is `[ROOT,[PATCH,…]]`. A patch is `[kind, n, s1 … sn, payload…]`:
// the path s1 … sn (array indices and object keys from the outer array)
// leads to the placeholder `0` (or, for a pair, the array `[key,value]`)
// that the value of `kind` replaces. Patches come children first, so that
// a path never passes through a value already replaced.

const PATCH_BIGINT: u8 = 1;
const PATCH_DECIMAL: u8 = 2;
const PATCH_DATETIME: u8 = 3;
const PATCH_TIMESTAMP: u8 = 4;
const PATCH_BYTES: u8 = 5;
const PATCH_PAIR: u8 = 6;

enum Seg<'a> {
    Key(Cow<'a, str>),
    Index(usize),
}

struct Transfer<'a> {
    out: String,
    patches: String,
    path: Vec<Seg<'a>>,
    /// Reused by every record's key check.
    keys: HashSet<&'a str, Fnv>,
}

impl<'a> Transfer<'a> {
    fn new(size_hint: usize) -> Transfer<'a> {
        Transfer {
            out: String::with_capacity(size_hint + size_hint / 4 + 16),
            patches: String::new(),
            path: vec![Seg::Index(0)],
            keys: HashSet::with_hasher(Fnv),
        }
    }

    /// `[ROOT,[PATCH,…]]` of `v`, or `None` when the patches would be
    /// longer than the tree (a document of mostly decimals, say): their
    /// paths then cost V8 more than one napi call per node.
    fn run(mut self, v: &'a Value) -> Option<String> {
        self.out.push('[');
        self.value(v);
        self.finish()
    }

    /// The transfer text once the root is written (see [`Transfer::run`]).
    fn finish(mut self) -> Option<String> {
        if self.patches.len() > self.out.len() {
            return None;
        }
        self.out.push_str(",[");
        self.out.push_str(&self.patches);
        self.out.push_str("]]");
        Some(self.out)
    }

    /// Starts a patch of `kind` at the current path; the caller appends its
    /// payload (each item preceded by a comma) and `]`.
    fn patch(&mut self, kind: u8) {
        let p = &mut self.patches;
        if !p.is_empty() {
            p.push(',');
        }
        p.push('[');
        p.push(char::from(b'0' + kind));
        p.push(',');
        p.push_str(itoa::Buffer::new().format(self.path.len()));
        for seg in &self.path {
            p.push(',');
            match seg {
                Seg::Key(k) => json_str(p, k),
                Seg::Index(i) => p.push_str(itoa::Buffer::new().format(*i)),
            }
        }
    }

    fn text_patch(&mut self, kind: u8, text: &str) {
        self.out.push('0');
        self.patch(kind);
        self.patches.push(',');
        json_str(&mut self.patches, text);
        self.patches.push(']');
    }

    fn value(&mut self, v: &'a Value) {
        match v {
            Value::List(list) => self.list(list),
            Value::String(s) => self.scalar(&Scalar::String(Cow::Borrowed(s))),
            Value::Bytes(b) => self.bytes(b),
            Value::Bool(b) => self.scalar(&Scalar::Bool(*b)),
            Value::Integer(i) => self.scalar(&Scalar::Integer(*i)),
            Value::Decimal(d) => self.scalar(&Scalar::Decimal(*d)),
            Value::DateTime(d) => self.scalar(&Scalar::DateTime(*d)),
            Value::Timestamp(t) => self.scalar(&Scalar::Timestamp(*t)),
        }
    }

    fn bytes(&mut self, b: &[u8]) {
        let mut hex = String::with_capacity(b.len() * 2);
        for &byte in b {
            hex.push(char::from(HEX[usize::from(byte >> 4)]));
            hex.push(char::from(HEX[usize::from(byte & 15)]));
        }
        self.text_patch(PATCH_BYTES, &hex);
    }

    /// A scalar's transfer text (and patch): one place for both the
    /// `Value` walk and the direct walk of a document ([`Direct`]).
    fn scalar(&mut self, s: &Scalar<'_>) {
        match s {
            Scalar::String(s) => json_str(&mut self.out, s),
            Scalar::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Scalar::Integer(i) if i.magnitude() <= u128::from(MAX_SAFE) => {
                if i.is_negative() {
                    self.out.push('-');
                }
                self.out.push_str(itoa::Buffer::new().format(i.magnitude()));
            }
            Scalar::Integer(i) => self.text_patch(PATCH_BIGINT, &i.to_plain_string()),
            Scalar::Decimal(d) => self.text_patch(PATCH_DECIMAL, &d.to_plain_string()),
            Scalar::Bytes(b) => self.bytes(b),
            Scalar::DateTime(d) => {
                self.out.push('0');
                self.patch(PATCH_DATETIME);
                let p = &mut self.patches;
                p.push(',');
                json_str(p, &d.to_string());
                for f in datetime_fields(d) {
                    p.push(',');
                    match f {
                        Field::Null => p.push_str("null"),
                        Field::Num(n) => p.push_str(itoa::Buffer::new().format(n)),
                        Field::Str(s) => json_str(p, s),
                    }
                }
                p.push(']');
            }
            Scalar::Timestamp(t) => {
                self.out.push('0');
                self.patch(PATCH_TIMESTAMP);
                let p = &mut self.patches;
                p.push(',');
                json_str(p, &t.to_string());
                p.push(',');
                p.push_str(itoa::Buffer::new().format(t.secs()));
                p.push(',');
                p.push_str(itoa::Buffer::new().format(t.subsec_nanos()));
                p.push(',');
                p.push_str(itoa::Buffer::new().format(timestamp_digits(t)));
                p.push(']');
            }
        }
    }

    fn list(&mut self, list: &'a jtoo::List) {
        if let Some(pairs) = list.pairs()
            && plain_object_keys_in(pairs, &mut self.keys)
        {
            self.out.push('{');
            for (n, p) in pairs.iter().enumerate() {
                if n > 0 {
                    self.out.push(',');
                }
                let k = p.key().as_str().unwrap_or_default();
                json_str(&mut self.out, k);
                self.out.push(':');
                self.path.push(Seg::Key(Cow::Borrowed(k)));
                self.value(p.value());
                self.path.pop();
            }
            self.out.push('}');
            return;
        }
        self.out.push('[');
        for (n, item) in list.iter().enumerate() {
            if n > 0 {
                self.out.push(',');
            }
            self.path.push(Seg::Index(n));
            match item.as_pair() {
                Some(p) => {
                    self.out.push('[');
                    self.path.push(Seg::Index(0));
                    self.value(p.key());
                    self.path.pop();
                    self.out.push(',');
                    self.path.push(Seg::Index(1));
                    self.value(p.value());
                    self.path.pop();
                    self.out.push(']');
                    self.patch(PATCH_PAIR);
                    self.patches.push(']');
                }
                None => self.value(item.value()),
            }
            self.path.pop();
        }
        self.out.push(']');
    }
}

/// Why [`Direct`] stopped: the document has a list that is neither an
/// array of plain values nor a plain-object record (pairs mixed with
/// values, a key that is not a string, a repeated key, an array-index key,
/// `__proto__`), whose transfer form is only known at its end; the
/// document then goes through a `Value` ([`Transfer::run`]).
struct Fallback;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Empty,
    Array,
    Object,
}

/// A list open in [`Direct`]: where its `[` is in the text, its shape so
/// far, its item count, where its keys start in [`Direct::keys`].
struct Open {
    at: usize,
    shape: Shape,
    count: usize,
    keys_base: usize,
}

/// Writes a document's transfer text while it is parsed (`jtoo::visit`):
/// no `Value` in between. Arrays and plain-object records only; anything
/// else is a [`Fallback`].
struct Direct<'a> {
    t: Transfer<'a>,
    open: Vec<Open>,
    /// The keys of the open records, for the repeated-key check.
    keys: Vec<Cow<'a, str>>,
    /// Each key's [`fingerprint`], beside it.
    prints: Vec<u64>,
    /// The fingerprint table of [`distinct_prints`] (all zero between
    /// calls) and the slots a call filled.
    table: Vec<u64>,
    filled: Vec<usize>,
    /// A key was just written: the next value is its pair's.
    after_key: bool,
    seen: HashSet<Cow<'a, str>, Fnv>,
}

impl<'a> Direct<'a> {
    fn new(size_hint: usize) -> Direct<'a> {
        let mut t = Transfer::new(size_hint);
        t.out.push('[');
        Direct {
            t,
            open: Vec::new(),
            keys: Vec::new(),
            prints: Vec::new(),
            table: Vec::new(),
            filled: Vec::new(),
            after_key: false,
            seen: HashSet::with_hasher(Fnv),
        }
    }

    /// Before a value: the comma and the path of an array item.
    #[inline]
    fn start_value(&mut self) {
        if self.after_key {
            self.after_key = false;
            return;
        }
        if let Some(top) = self.open.last() {
            if top.count > 0 {
                self.t.out.push(',');
            }
            if let Some(last) = self.t.path.last_mut() {
                *last = Seg::Index(top.count);
            }
        }
    }

    /// Whether the keys of the record closing now are all different: by
    /// their fingerprints in a small open-addressed table (no string is
    /// read again), and by the keys themselves only when two fingerprints
    /// are equal or the record is large. (A `HashSet` of the keys was 4%
    /// of twitter's parse.)
    fn distinct_keys(&mut self, base: usize) -> bool {
        let keys = self.keys.get(base..).unwrap_or_default();
        let prints = self.prints.get(base..).unwrap_or_default();
        if keys.len() <= 4 {
            return keys.iter().enumerate().all(|(i, k)| !keys[..i].contains(k));
        }
        if prints.len() <= PRINT_SLOTS / 2 {
            if self.table.is_empty() {
                self.table.resize(PRINT_SLOTS, 0);
            }
            let distinct = distinct_prints(prints, &mut self.table, &mut self.filled);
            for &at in &self.filled {
                if let Some(slot) = self.table.get_mut(at) {
                    *slot = 0;
                }
            }
            self.filled.clear();
            if distinct {
                return true;
            }
        }
        self.seen.clear();
        keys.iter().all(|k| self.seen.insert(k.clone()))
    }
}

/// Slots of [`distinct_prints`]' table (a power of two).
const PRINT_SLOTS: usize = 128;

/// A key's fingerprint for [`Direct::distinct_keys`]: its length and its
/// first and last eight bytes, mixed; never zero. Equal keys have equal
/// fingerprints; different ones almost never do.
#[inline]
fn fingerprint(k: &str) -> u64 {
    let b = k.as_bytes();
    let (first, last) = match (b.first_chunk::<8>(), b.last_chunk::<8>()) {
        (Some(f), Some(l)) => (u64::from_le_bytes(*f), u64::from_le_bytes(*l)),
        _ => (b.iter().fold(0, |w, &x| w << 8 | u64::from(x)), 0),
    };
    let mixed = (first ^ last.rotate_left(29) ^ b.len() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (mixed ^ mixed >> 32) | 1
}

/// Whether `prints` (at most half of [`PRINT_SLOTS`]) are all different,
/// entered in `table` (all zero, [`PRINT_SLOTS`] long); `filled` gets the
/// slots filled, for the caller to zero again (no table to clear whole).
fn distinct_prints(prints: &[u64], table: &mut [u64], filled: &mut Vec<usize>) -> bool {
    for &p in prints {
        let mut at = (p >> 57) as usize;
        loop {
            at %= PRINT_SLOTS;
            let Some(slot) = table.get_mut(at) else {
                return false;
            };
            if *slot == 0 {
                *slot = p;
                filled.push(at);
                break;
            }
            if *slot == p {
                return false;
            }
            at += 1;
        }
    }
    true
}

impl<'a> Visitor<'a> for Direct<'a> {
    type Value = ();
    type List = ();
    type Error = Fallback;

    fn scalar(&mut self, s: Scalar<'a>) -> std::result::Result<(), Fallback> {
        self.start_value();
        match &s {
            Scalar::String(Cow::Borrowed(text)) => json_plain_str(&mut self.t.out, text),
            s => self.t.scalar(s),
        }
        // Patches outgrowing the tree (see `Transfer::run`): stop now
        // rather than at the end.
        if self.t.patches.len() > self.t.out.len() + 4096 {
            return Err(Fallback);
        }
        Ok(())
    }

    fn key(&mut self, s: Scalar<'a>) -> std::result::Result<(), Fallback> {
        let Scalar::String(k) = s else {
            return Err(Fallback);
        };
        if k == "__proto__" || is_array_index(&k) {
            return Err(Fallback);
        }
        let top = self.open.last_mut().ok_or(Fallback)?;
        match top.shape {
            Shape::Array => return Err(Fallback),
            Shape::Empty => {
                top.shape = Shape::Object;
                self.t.out.replace_range(top.at..top.at + 1, "{");
            }
            Shape::Object => self.t.out.push(','),
        }
        match &k {
            Cow::Borrowed(text) => json_plain_str(&mut self.t.out, text),
            Cow::Owned(text) => json_str(&mut self.t.out, text),
        }
        self.t.out.push(':');
        if let Some(last) = self.t.path.last_mut() {
            *last = Seg::Key(k.clone());
        }
        self.prints.push(fingerprint(&k));
        self.keys.push(k);
        self.after_key = true;
        Ok(())
    }

    fn begin_list(&mut self) -> std::result::Result<(), Fallback> {
        self.start_value();
        self.open.push(Open {
            at: self.t.out.len(),
            shape: Shape::Empty,
            count: 0,
            keys_base: self.keys.len(),
        });
        self.t.out.push('[');
        self.t.path.push(Seg::Index(0));
        Ok(())
    }

    fn item(&mut self, _: &mut (), _: ()) -> std::result::Result<(), Fallback> {
        let top = self.open.last_mut().ok_or(Fallback)?;
        if top.shape == Shape::Object {
            return Err(Fallback);
        }
        top.shape = Shape::Array;
        top.count += 1;
        Ok(())
    }

    fn pair(&mut self, _: &mut (), _: (), _: ()) -> std::result::Result<(), Fallback> {
        let top = self.open.last_mut().ok_or(Fallback)?;
        // (A list as a key never went through `key`.)
        if top.shape != Shape::Object {
            return Err(Fallback);
        }
        top.count += 1;
        Ok(())
    }

    fn end_list(&mut self, _: ()) -> std::result::Result<(), Fallback> {
        let top = self.open.pop().ok_or(Fallback)?;
        self.t.path.pop();
        if top.shape == Shape::Object {
            if !self.distinct_keys(top.keys_base) {
                return Err(Fallback);
            }
            self.keys.truncate(top.keys_base);
            self.prints.truncate(top.keys_base);
            self.t.out.push('}');
        } else {
            self.t.out.push(']');
        }
        Ok(())
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// `s` as a JSON string: the runs between the bytes JSON escapes found by
/// [`json_special`]'s block search, not byte by byte.
fn json_str(out: &mut String, s: &str) {
    out.push('"');
    let mut rest = s;
    while let Some(at) = json_special(rest.as_bytes()) {
        // (The byte at `at` is ASCII: char boundaries on both sides.)
        let Some((run, tail)) = rest.split_at_checked(at) else {
            break;
        };
        let Some(&b) = tail.as_bytes().first() else {
            break;
        };
        out.push_str(run);
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            _ => {
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 15)]));
            }
        }
        rest = tail.get(1..).unwrap_or_default();
    }
    out.push_str(rest);
    out.push('"');
}

/// A string that `jtoo::visit` borrowed from the document
/// (`Scalar::String(Cow::Borrowed)`) as a JSON string, unchecked: the
/// parser borrows only a string written without escapes, and JTOO and
/// HTOO write `"`, `\`, U+0000–U+001F and U+007F only as escapes
/// (`jtoo::parse::string`), so it holds nothing JSON escapes.
/// `json_str`'s search was a tenth of twitter's parse.
#[inline]
fn json_plain_str(out: &mut String, s: &str) {
    debug_assert!(json_special(s.as_bytes()).is_none(), "{s:?}");
    out.push('"');
    out.push_str(s);
    out.push('"');
}

/// Where the first byte JSON must escape in a string (`"`, `\`, a control
/// character) is. Sixteen bytes at a time as a fixed-size block, with no
/// branch inside it (the compiler makes one vector compare of it).
#[inline]
fn json_special(bytes: &[u8]) -> Option<usize> {
    let special = |b: u8| b == b'"' || b == b'\\' || b < 0x20;
    let mut rest = bytes;
    while let Some((block, tail)) = rest.split_first_chunk::<16>() {
        let any = block.iter().fold(0u8, |any, &b| {
            any | u8::from(b == b'"') | u8::from(b == b'\\') | u8::from(b < 0x20)
        });
        if any != 0 {
            break;
        }
        rest = tail;
    }
    let at = bytes.len() - rest.len();
    rest.iter().position(|&b| special(b)).map(|i| at + i)
}

enum Field {
    Null,
    Num(i64),
    Str(&'static str),
}

/// A date/time's fields in `DateTime`'s constructor order: year, month,
/// day, week, weekDay, hour, minute, second, nanosecond, precision, offset.
fn datetime_fields(d: &jtoo::DateTime) -> [Field; 11] {
    let mut f = [const { Field::Null }; 11];
    if let Some(date) = d.date() {
        f[0] = Field::Num(i64::from(date.year()));
        f[1] = date
            .month()
            .map_or(Field::Null, |m| Field::Num(i64::from(m)));
        f[2] = date.day().map_or(Field::Null, |x| Field::Num(i64::from(x)));
        f[3] = date
            .week()
            .map_or(Field::Null, |x| Field::Num(i64::from(x)));
        f[4] = date
            .week_day()
            .map_or(Field::Null, |x| Field::Num(i64::from(x)));
    }
    if let Some(t) = d.time() {
        let p = t.precision();
        f[5] = Field::Num(i64::from(t.hour()));
        if p != TimePrecision::Hour {
            f[6] = Field::Num(i64::from(t.minute()));
        }
        if !matches!(p, TimePrecision::Hour | TimePrecision::Minute) {
            f[7] = Field::Num(i64::from(t.second()));
            f[8] = Field::Num(i64::from(t.nanosecond()));
        }
        f[9] = Field::Str(precision_name(p));
    }
    if let Some(o) = d.offset() {
        f[10] = Field::Num(i64::from(o.minutes()));
    }
    f
}

fn precision_name(p: TimePrecision) -> &'static str {
    match p {
        TimePrecision::Hour => "hour",
        TimePrecision::Minute => "minute",
        TimePrecision::Second => "second",
        TimePrecision::Millisecond => "millisecond",
        TimePrecision::Microsecond => "microsecond",
        TimePrecision::Nanosecond => "nanosecond",
    }
}

fn timestamp_digits(t: &jtoo::Timestamp) -> u32 {
    match t.precision() {
        TimestampPrecision::Seconds => 0,
        TimestampPrecision::Milliseconds => 3,
        TimestampPrecision::Microseconds => 6,
        TimestampPrecision::Nanoseconds => 9,
    }
}

/// The transfer text as a JavaScript string, handed over in V8's own
/// representations so that it copies instead of decoding UTF-8 (which it
/// reads twice): one byte per character (Latin-1) when every character is
/// at most U+00FF (ASCII documents, and accented Latin text), else UTF-16.
/// A one-byte string is also the one V8's JSON parser reads fastest. The
/// conversions are `encoding_rs`'s (ASCII a word at a time): this crate's
/// own loops were 2.1M instructions of twitter's parse.
fn transfer_string<'e>(env: &'e Env, json: &str) -> Result<Unknown<'e>> {
    use encoding_rs::mem;
    let s = if json.is_ascii() {
        env.create_string_latin1(json.as_bytes())?
    } else if mem::is_str_latin1(json) {
        let mut latin1 = vec![0; json.len()];
        let n = mem::convert_utf8_to_latin1_lossy(json.as_bytes(), &mut latin1);
        latin1.truncate(n);
        env.create_string_latin1(latin1)?
    } else {
        let mut utf16 = vec![0; json.len()];
        let n = mem::convert_str_to_utf16(json, &mut utf16);
        utf16.truncate(n);
        env.create_string_utf16(utf16)?
    };
    Ok(s.to_unknown())
}

/// The UTF-8 of a string argument's UTF-16 code units (as napi hands them
/// over: ending with a NUL, left out), a lone surrogate replaced by U+FFFD
/// as napi's own UTF-8 conversion does; by `encoding_rs`. napi's
/// conversion (V8's `Utf8Length`, then `WriteUtf8`) was 30% of the native
/// side of twitter's parse.
fn utf8_of_utf16(units: &[u16]) -> Vec<u8> {
    let mut rest = units.split_last().map_or(units, |(_, text)| text);
    // One and a half bytes a unit first (twitter's text needs 1.18), grown
    // when that is not enough: three bytes a unit at most (a pair's four
    // bytes are two units) would be twice the memory to zero.
    let mut utf8 = vec![0; rest.len() + rest.len() / 2 + 8];
    let mut written = 0;
    loop {
        let dst = utf8.get_mut(written..).unwrap_or_default();
        let (read, n) = encoding_rs::mem::convert_utf16_to_utf8_partial(rest, dst);
        written += n;
        rest = rest.get(read..).unwrap_or_default();
        if rest.is_empty() {
            break;
        }
        utf8.resize(written + rest.len() * 3 + 8, 0);
    }
    utf8.truncate(written);
    utf8
}

/// The value for `index.js`: transfer JSON text, or (see [`Transfer::run`])
/// `[value]` built node by node.
fn hand_over<'e>(
    env: &'e Env,
    v: &Value,
    ctx: &Object<'e>,
    size_hint: usize,
) -> Result<Unknown<'e>> {
    match Transfer::new(size_hint).run(v) {
        Some(json) => transfer_string(env, &json),
        None => {
            let mut wrapper = env.create_array(1)?;
            wrapper.set(0, Cx::new(env, ctx)?.to_js(v)?)?;
            wrapper.into_unknown(env)
        }
    }
}

/// `parse(text, htoo)` for `index.js`: the document as transfer JSON (see
/// above) or `[value]`, or a thrown `DecodeError`.
#[napi]
pub fn parse_transfer<'e>(
    env: &'e Env,
    input: Unknown<'e>,
    htoo: bool,
    ctx: Object<'e>,
) -> Result<Unknown<'e>> {
    let syntax = if htoo {
        Syntax::Lenient
    } else {
        Syntax::Strict
    };
    if input.get_type()? == ValueType::String {
        let utf8 = utf8_of_utf16(JsString::from_unknown(input)?.into_utf16()?.as_slice());
        // (Checked again as safe Rust must, by simdutf8.)
        let s = simdutf8::basic::from_utf8(&utf8)
            .map_err(|_| Error::new(Status::InvalidArg, "a string that is not UTF-8"))?;
        return parse_document(env, s.as_bytes(), Some(s), syntax, &ctx);
    }
    let bytes = input_bytes(input).map_err(|e| throw(env, e))?;
    parse_document(env, &bytes, None, syntax, &ctx)
}

/// One document's value for `index.js`: its transfer text written while it
/// is parsed ([`Direct`]); or, for a document with a list that only a
/// `Value` can tell the form of (see [`Fallback`]), through a `Value`.
fn parse_document<'e>(
    env: &'e Env,
    bytes: &[u8],
    text: Option<&str>,
    syntax: Syntax,
    ctx: &Object<'e>,
) -> Result<Unknown<'e>> {
    let depth = jtoo::Options::DEFAULT_MAX_DEPTH;
    let mut direct = Direct::new(bytes.len());
    let walked = match text {
        Some(t) => visit_str(t, syntax, depth, &mut direct),
        None => visit_slice(bytes, syntax, depth, &mut direct),
    };
    match walked {
        Ok(()) => {
            if let Some(json) = direct.t.finish() {
                return transfer_string(env, &json);
            }
        }
        Err(VisitError::Parse(e)) => return decode_error(env, &e, ctx),
        Err(VisitError::Visitor(Fallback)) => {}
    }
    match jtoo::parse::document(bytes, syntax, depth) {
        Ok(v) => hand_over(env, &v, ctx, bytes.len()),
        Err(e) => decode_error(env, &e, ctx),
    }
}

/// `fromJson(text)` for `index.js`, as [`parse_transfer`] gives it.
#[napi]
pub fn from_json_transfer<'e>(
    env: &'e Env,
    input: Unknown<'e>,
    ctx: Object<'e>,
) -> Result<Unknown<'e>> {
    let bytes = input_bytes(input).map_err(|e| throw(env, e))?;
    match jtoo::json::from_json_slice(&bytes) {
        Ok(v) => hand_over(env, &v, &ctx, bytes.len()),
        Err(e) => decode_error(env, &e, &ctx),
    }
}

/// `stringify(value)`: canonical JTOO text.
#[napi]
pub fn stringify<'e>(env: &'e Env, value: Unknown<'e>, ctx: Object<'e>) -> Result<String> {
    let cx = Cx::new(env, &ctx)?;
    let v = cx.to_value(value, 0).map_err(|e| throw(env, e))?;
    jtoo::to_string(&v).map_err(|e| throw(env, jtoo_type_error(e)))
}

/// `pretty(value)`: pretty HTOO text (ends with a newline).
#[napi]
pub fn pretty<'e>(env: &'e Env, value: Unknown<'e>, ctx: Object<'e>) -> Result<String> {
    let cx = Cx::new(env, &ctx)?;
    let v = cx.to_value(value, 0).map_err(|e| throw(env, e))?;
    Ok(htoo::to_string_pretty(&v))
}

/// `toJson(value)`: the value as JSON text (exact numbers, order and
/// duplicate keys kept).
#[napi]
pub fn to_json<'e>(env: &'e Env, value: Unknown<'e>, ctx: Object<'e>) -> Result<String> {
    let cx = Cx::new(env, &ctx)?;
    let v = cx.to_value(value, 0).map_err(|e| throw(env, e))?;
    Ok(jtoo::json::to_json_string(&v))
}

/// One HTOO scalar (`"1.50"`, `"D2024-03-04"`, `"S1.5"`) as a JavaScript
/// value: the public constructors of `Decimal`, `DateTime` and `Timestamp`.
#[napi]
pub fn scalar<'e>(env: &'e Env, text: String, ctx: Object<'e>) -> Result<Unknown<'e>> {
    let v = match htoo::from_str(&text) {
        Ok(Value::List(_)) | Err(_) => {
            return Err(throw(
                env,
                type_error(format!("{text:?} is not a JTOO scalar")),
            ));
        }
        Ok(v) => v,
    };
    Cx::new(env, &ctx)?.to_js(&v)
}

/// A decimal from text or a number (`new Decimal(x)`).
#[napi]
pub fn decimal<'e>(env: &'e Env, x: Unknown<'e>, ctx: Object<'e>) -> Result<Unknown<'e>> {
    let d = match x.get_type()? {
        ValueType::Number => match number(f64::from_unknown(x)?) {
            Ok(Value::Decimal(d)) => Ok(d),
            Ok(Value::Integer(i)) => Ok(jtoo::Decimal::from(i)),
            Ok(_) => Err(type_error("not a decimal".to_string())),
            Err(e) => Err(e),
        },
        ValueType::BigInt => {
            let (negative, magnitude, lossless) = BigInt::from_unknown(x)?.get_u128();
            if lossless {
                jtoo::Decimal::new(negative, magnitude, 0).map_err(jtoo_type_error)
            } else {
                Err(type_error("BigInt out of range".to_string()))
            }
        }
        _ => decimal_from_text(&js_string(x)?),
    }
    .map_err(|e| throw(env, e))?;
    Cx::new(env, &ctx)?.to_js(&Value::Decimal(d))
}

/// A timestamp of millisecond precision from milliseconds since the epoch
/// (`Timestamp.fromDate`).
#[napi]
pub fn timestamp_from_millis<'e>(env: &'e Env, ms: f64, ctx: Object<'e>) -> Result<Unknown<'e>> {
    if !ms.is_finite() || ms.fract() != 0.0 || ms.abs() > 8.64e15 {
        return Err(throw(env, type_error(format!("{ms} is not a valid time"))));
    }
    #[allow(clippy::cast_possible_truncation)]
    let ms = ms as i64;
    let (secs, rem) = (ms.div_euclid(1000), ms.rem_euclid(1000));
    #[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation)]
    let t = jtoo::Timestamp::new(
        secs,
        rem as u32 * 1_000_000,
        TimestampPrecision::Milliseconds,
    )
    .map_err(|e| throw(env, jtoo_type_error(e)))?;
    Cx::new(env, &ctx)?.to_js(&Value::Timestamp(t))
}

// ---- The conformance suite's protocol -----------------------------------

/// Tagged JSON (the conformance suite's form, `spec_tests::tagged`) of a
/// JavaScript value.
#[napi]
pub fn to_tagged<'e>(env: &'e Env, value: Unknown<'e>, ctx: Object<'e>) -> Result<String> {
    let cx = Cx::new(env, &ctx)?;
    let v = cx.to_value(value, 0).map_err(|e| throw(env, e))?;
    Ok(spec_tests::tagged::to_tagged(&v).to_string())
}

/// A JavaScript value from tagged JSON text.
#[napi]
pub fn from_tagged<'e>(env: &'e Env, text: Unknown<'e>, ctx: Object<'e>) -> Result<Unknown<'e>> {
    let bytes = input_bytes(text).map_err(|e| throw(env, e))?;
    let mut de = serde_json::Deserializer::from_slice(&bytes);
    de.disable_recursion_limit();
    let json: serde_json::Value = serde::Deserialize::deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v))
        .map_err(|e| Error::new(Status::GenericFailure, format!("not JSON: {e}")))?;
    let v = spec_tests::tagged::from_tagged(&json).map_err(|why| {
        Error::new(
            Status::GenericFailure,
            format!("invalid tagged JSON: {why}"),
        )
    })?;
    Cx::new(env, &ctx)?.to_js(&v)
}

// ---- Errors with positions ------------------------------------------------

/// Where an error is, when it has a place: byte offset, 1-based line and
/// column (each may be unknown).
#[derive(Clone, Copy, Default)]
struct Place {
    offset: Option<usize>,
    line: Option<usize>,
    column: Option<usize>,
}

impl Place {
    fn of_jtoo(e: &jtoo::Error) -> Place {
        e.position().map_or_else(Place::default, |p| Place {
            offset: Some(p.offset),
            line: Some(p.line),
            column: Some(p.column),
        })
    }

    fn of_frame(e: &jtoo_frame::FrameError) -> Place {
        match e {
            jtoo_frame::FrameError::InvalidJtoo(e) => Place::of_jtoo(e),
            _ => Place::default(),
        }
    }

    fn of_packet(e: &jte::JteError) -> Place {
        match e {
            jte::JteError::Jtoo(e) => Place::of_jtoo(e),
            jte::JteError::Json(e) => Place {
                offset: None,
                line: Some(e.line()),
                column: Some(e.column()),
            },
            jte::JteError::Frame(e) => Place::of_frame(e),
            _ => Place::default(),
        }
    }
}

/// Throws an instance of `index.js`'s error class `class` (`FrameError`,
/// `PacketError`, `GreetingError`): `new class(message, offset, line,
/// column)`, `null` for what is unknown.
fn throw_error(env: &Env, ctx: &Object<'_>, class: &str, message: String, place: Place) -> Error {
    let thrown = (|| -> Result<()> {
        let ctor: Ctor4<'_> = ctx.get_named_property(class)?;
        #[allow(clippy::cast_precision_loss)]
        let num = |n: Option<usize>| -> Result<Unknown<'_>> {
            match n {
                Some(n) => (n as f64).into_unknown(env),
                None => Null.into_unknown(env),
            }
        };
        let err = ctor.new_instance(FnArgs::from((
            env.create_string(&message)?.to_unknown(),
            num(place.offset)?,
            num(place.line)?,
            num(place.column)?,
        )))?;
        env.throw(err)
    })();
    match thrown {
        Ok(()) => Error::new(Status::PendingException, message),
        Err(e) => e,
    }
}

fn frame_error(env: &Env, ctx: &Object<'_>, e: &jtoo_frame::FrameError) -> Error {
    throw_error(env, ctx, "FrameError", e.to_string(), Place::of_frame(e))
}

fn packet_error(env: &Env, ctx: &Object<'_>, e: &jte::JteError) -> Error {
    throw_error(env, ctx, "PacketError", e.to_string(), Place::of_packet(e))
}

fn greeting_error(env: &Env, ctx: &Object<'_>, e: &jtoo_frame::GreetingError) -> Error {
    throw_error(env, ctx, "GreetingError", e.to_string(), Place::default())
}

/// A length limit from JavaScript (a non-negative integer).
fn limit(n: f64, what: &str) -> Result<usize> {
    if n.is_finite() && n >= 0.0 && n.fract() == 0.0 && n <= 9_007_199_254_740_991.0 {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        return Ok(n as usize);
    }
    Err(Error::new(
        Status::InvalidArg,
        format!("{what} must be a non-negative integer"),
    ))
}

/// A frame given as its JTOO text (or null) and binary section, as
/// `index.js`'s `Frame` holds it; the text is checked as a frame's is.
fn frame_of(
    env: &Env,
    ctx: &Object<'_>,
    text: Option<String>,
    binary: &[u8],
) -> Result<jtoo_frame::Frame> {
    let frame = match text {
        Some(t) => {
            jtoo_frame::Frame::from_jtoo(t.into_bytes()).map_err(|e| frame_error(env, ctx, &e))?
        }
        None => jtoo_frame::Frame::empty(),
    };
    Ok(frame.with_binary(binary.to_vec()))
}

// ---- Frames ---------------------------------------------------------------

/// An incremental frame reader: `feed` bytes as they arrive, get the
/// frames they complete. Memory grows with the bytes received (a declared
/// length is checked against the limits before anything is reserved).
#[napi]
pub struct FrameDecoder {
    codec: jtoo_frame::FrameCodec,
    buf: BytesMut,
}

#[napi]
impl FrameDecoder {
    /// A decoder with the default limits, or these (bytes; each optional):
    /// the JTOO section, the binary section, the whole frame.
    #[napi(constructor)]
    pub fn new(
        max_jtoo_len: Option<f64>,
        max_binary_len: Option<f64>,
        max_frame_len: Option<f64>,
    ) -> Result<FrameDecoder> {
        let mut builder = jtoo_frame::FrameCodec::builder();
        if let Some(n) = max_jtoo_len {
            builder.max_jtoo_len(limit(n, "maxJtooLen")?);
        }
        if let Some(n) = max_binary_len {
            builder.max_binary_len(limit(n, "maxBinaryLen")?);
        }
        if let Some(n) = max_frame_len {
            builder.max_frame_len(limit(n, "maxFrameLen")?);
        }
        Ok(FrameDecoder {
            codec: builder.new_codec(),
            buf: BytesMut::new(),
        })
    }

    /// Feeds bytes; returns the frames completed, each as
    /// `[jtooText | null, binary]` (`index.js` makes them `Frame`s).
    #[napi]
    pub fn feed<'e>(
        &mut self,
        env: &'e Env,
        chunk: Uint8ArraySlice<'e>,
        ctx: Object<'e>,
    ) -> Result<Array<'e>> {
        self.buf.extend_from_slice(&chunk);
        let mut out = env.create_array(0)?;
        let mut n = 0;
        loop {
            match self.codec.decode(&mut self.buf) {
                Ok(Some(frame)) => {
                    let mut pair = env.create_array(2)?;
                    match frame.jtoo_str() {
                        Some(s) => pair.set(0, s)?,
                        None => pair.set(0, Null)?,
                    }
                    pair.set(1, Uint8ArraySlice::copy_from(env, frame.binary())?)?;
                    out.set(n, pair)?;
                    n += 1;
                }
                Ok(None) => return Ok(out),
                Err(e) => {
                    self.buf = BytesMut::new();
                    return Err(frame_error(env, &ctx, &e));
                }
            }
        }
    }

    /// Bytes received but not yet part of a whole frame.
    #[napi(getter)]
    pub fn buffered(&self) -> u32 {
        u32::try_from(self.buf.len()).unwrap_or(u32::MAX)
    }

    /// Whether the stream ended cleanly: no partial frame is held.
    #[napi(getter)]
    pub fn is_between_frames(&self) -> bool {
        self.buf.is_empty() && self.codec.is_between_frames()
    }
}

/// `encodeFrame(value, binary)`: one frame's bytes; `value` undefined or
/// null sends a frame without a JTOO section.
#[napi]
pub fn encode_frame<'e>(
    env: &'e Env,
    value: Unknown<'e>,
    binary: Option<Uint8ArraySlice<'e>>,
    ctx: Object<'e>,
) -> Result<Uint8ArraySlice<'e>> {
    let frame = match value.get_type()? {
        ValueType::Undefined | ValueType::Null => jtoo_frame::Frame::empty(),
        _ => {
            let cx = Cx::new(env, &ctx)?;
            let v = cx.to_value(value, 0).map_err(|e| throw(env, e))?;
            jtoo_frame::Frame::from_value(&v).map_err(|e| frame_error(env, &ctx, &e))?
        }
    };
    let frame = match binary {
        Some(b) => frame.with_binary(b.to_vec()),
        None => frame,
    };
    let bytes = frame.to_bytes().map_err(|e| frame_error(env, &ctx, &e))?;
    Uint8ArraySlice::from_data(env, bytes)
}

// ---- Greetings --------------------------------------------------------------

/// `encodeGreeting(protocol, fields)`: the greeting frame's bytes; `fields`
/// (an object or a `Map` of string keys, or undefined) follow `protocol`.
#[napi]
pub fn encode_greeting<'e>(
    env: &'e Env,
    protocol: String,
    fields: Unknown<'e>,
    ctx: Object<'e>,
) -> Result<Uint8ArraySlice<'e>> {
    let mut greeting = jtoo_frame::Greeting::new(protocol);
    if !matches!(fields.get_type()?, ValueType::Undefined | ValueType::Null) {
        let cx = Cx::new(env, &ctx)?;
        let v = cx.to_value(fields, 0).map_err(|e| throw(env, e))?;
        let Some(list) = v.as_list() else {
            return Err(type_error(
                "greeting fields must be an object or a Map".to_string(),
            ));
        };
        for item in list.iter() {
            let Some(Value::String(k)) = item.as_pair().map(|p| p.key()) else {
                return Err(type_error(
                    "greeting fields must have string keys".to_string(),
                ));
            };
            let value = item.value().clone();
            greeting
                .insert(k.to_string(), value)
                .map_err(|e| greeting_error(env, &ctx, &e))?;
        }
    }
    let bytes = greeting
        .to_frame()
        .and_then(|f| f.to_bytes())
        .map_err(|e| frame_error(env, &ctx, &e))?;
    Uint8ArraySlice::from_data(env, bytes)
}

/// The greeting read from a frame, as `[protocol, fields]` (`fields` as
/// `parse` gives a record).
fn greeting_to_js<'e>(
    env: &'e Env,
    ctx: &Object<'e>,
    greeting: &jtoo_frame::Greeting,
) -> Result<Array<'e>> {
    let pairs = greeting
        .fields()
        .iter()
        .map(|(k, v)| jtoo::Pair::with_str_key(k.as_str(), v.clone()))
        .collect::<Vec<_>>();
    let fields = Value::List(jtoo::List::from_pairs(pairs));
    let mut out = env.create_array(2)?;
    out.set(0, greeting.protocol())?;
    out.set(1, Cx::new(env, ctx)?.to_js(&fields)?)?;
    Ok(out)
}

/// `decodeGreeting(frame)`: `[protocol, fields]`; a `GreetingError` when
/// the frame is not a valid greeting.
#[napi]
pub fn decode_greeting<'e>(
    env: &'e Env,
    text: Option<String>,
    binary: Uint8ArraySlice<'e>,
    ctx: Object<'e>,
) -> Result<Array<'e>> {
    let frame = frame_of(env, &ctx, text, &binary)?;
    let greeting =
        jtoo_frame::Greeting::from_frame(&frame).map_err(|e| greeting_error(env, &ctx, &e))?;
    greeting_to_js(env, &ctx, &greeting)
}

/// `checkGreeting(frame, supported)`, what a server does with the first
/// frame: `[protocol, fields]` when the greeting is valid and asks for one
/// of `supported`; a `GreetingError` when it is invalid (drop the
/// connection); an `UnsupportedProtocolError` when the protocol is not
/// supported (send `UNSUPPORTED_PROTOCOL_REPLY`, then close).
#[napi]
pub fn check_greeting<'e>(
    env: &'e Env,
    text: Option<String>,
    binary: Uint8ArraySlice<'e>,
    supported: Vec<String>,
    ctx: Object<'e>,
) -> Result<Array<'e>> {
    let frame = frame_of(env, &ctx, text, &binary)?;
    let greeting =
        jtoo_frame::Greeting::from_frame(&frame).map_err(|e| greeting_error(env, &ctx, &e))?;
    if !supported.iter().any(|p| p == greeting.protocol()) {
        return Err(throw_error(
            env,
            &ctx,
            "UnsupportedProtocolError",
            greeting.protocol().to_string(),
            Place::default(),
        ));
    }
    greeting_to_js(env, &ctx, &greeting)
}

/// `isUnsupportedProtocolReply(frame)`: whether the frame is a server's 505
/// reply to a greeting.
#[napi]
pub fn is_unsupported_protocol_reply(
    env: &Env,
    text: Option<String>,
    binary: Uint8ArraySlice<'_>,
    ctx: Object<'_>,
) -> Result<bool> {
    let frame = frame_of(env, &ctx, text, &binary)?;
    Ok(jtoo_frame::is_unsupported_protocol_reply(&frame))
}

/// The 505 reply's bytes (`UNSUPPORTED_PROTOCOL_REPLY`).
#[napi]
pub fn unsupported_protocol_reply(env: &Env) -> Result<Uint8ArraySlice<'_>> {
    Uint8ArraySlice::copy_from(env, jtoo_frame::UNSUPPORTED_PROTOCOL_REPLY)
}

/// The most bytes a greeting frame may have (`GREETING_MAX_LEN`).
#[napi]
pub fn greeting_max_len() -> u32 {
    u32::try_from(jtoo_frame::GREETING_MAX_LEN).unwrap_or(u32::MAX)
}

// ---- JTE packets ------------------------------------------------------------

/// `encodePacket(value, json)`: a JTE packet (given as its JTOO value) as
/// JTOO text, or as JSON text when `json` is true; the packet's fields are
/// checked by the `jte` crate.
#[napi]
pub fn encode_packet<'e>(
    env: &'e Env,
    value: Unknown<'e>,
    json: bool,
    ctx: Object<'e>,
) -> Result<String> {
    let cx = Cx::new(env, &ctx)?;
    let v = cx.to_value(value, 0).map_err(|e| throw(env, e))?;
    let packet = jte::Packet::from_owned_value(v).map_err(|e| packet_error(env, &ctx, &e))?;
    let bytes = if json {
        packet.to_json_vec()
    } else {
        packet.to_jtoo()
    }
    .map_err(|e| packet_error(env, &ctx, &e))?;
    String::from_utf8(bytes).map_err(|e| Error::new(Status::GenericFailure, e.to_string()))
}

/// `decodePacket(text, json)`: a JTE packet read from JTOO text (or JSON
/// text when `json` is true), checked, as its JTOO value.
#[napi]
pub fn decode_packet<'e>(
    env: &'e Env,
    input: Unknown<'e>,
    json: bool,
    ctx: Object<'e>,
) -> Result<Unknown<'e>> {
    let bytes = input_bytes(input).map_err(|e| throw(env, e))?;
    let packet = if json {
        jte::Packet::from_json_slice(&bytes)
    } else {
        jte::Packet::from_jtoo(&bytes)
    }
    .map_err(|e| packet_error(env, &ctx, &e))?;
    let value = packet.to_value().map_err(|e| packet_error(env, &ctx, &e))?;
    Cx::new(env, &ctx)?.to_js(&value)
}
