//! The bodies of the JTOO fuzz targets, as plain functions.
//!
//! Each `pub fn TARGET(data: &[u8])` checks its properties with `assert!`
//! and panics when one fails; otherwise it returns normally for every
//! input. The cargo-fuzz binaries in `fuzz/fuzz_targets/` only call these,
//! and `benches/support/src/tests/fuzz_corpora.rs` replays the committed corpora
//! (`fuzz/corpus/TARGET/*`) through them in a plain `cargo test`, so CI
//! checks every seed and every kept crash input without cargo-fuzz.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod serde_types;

use arbitrary::{Arbitrary, Unstructured};
use bytes::BytesMut;
use jte::osc::{OscScanner, TermEvent};
use jtoo::Value;
use jtoo_frame::{Frame, FrameCodec, FrameError, GREETING_MAX_LEN, Greeting, TypedCodec};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio_util::codec::{Decoder, Encoder};

/// A target's body.
pub type Body = fn(&[u8]);

/// Every target: its name (as in `fuzz/fuzz_targets/NAME.rs` and
/// `fuzz/corpus/NAME/`) and its body.
pub const TARGETS: &[(&str, Body)] = &[
    ("jtoo_parse", jtoo_parse),
    ("htoo_parse", htoo_parse),
    ("value_roundtrip", value_roundtrip),
    ("serde_roundtrip", serde_roundtrip),
    ("frame_stream", frame_stream),
    ("typed_stream", typed_stream),
    ("jte_osc", jte_osc),
    ("greeting", greeting),
    ("server_session", server_session),
    ("pretty_roundtrip", pretty_roundtrip),
    ("stream_read", stream_read),
    ("document_roundtrip", document_roundtrip),
];

/// The body of the target called `name`, if there is one.
pub fn target(name: &str) -> Option<Body> {
    TARGETS.iter().find(|(n, _)| *n == name).map(|&(_, f)| f)
}

/// Any bytes: the strict parser never panics, and when it accepts the input
/// the canonical encoding of the value is the input, byte for byte (one
/// spelling per value).
pub fn jtoo_parse(data: &[u8]) {
    if let Ok(v) = jtoo::from_slice(data) {
        let out = jtoo::to_vec(&v).unwrap_or_default();
        assert!(
            out == data,
            "accepted input is not canonical:\n input  {:?}\n encode {:?}",
            String::from_utf8_lossy(data),
            String::from_utf8_lossy(&out)
        );
    }
}

/// Any bytes: the HTOO parser never panics; when it accepts the input, the
/// canonical encoding parses strictly to the same value, and the pretty
/// output parses back (as HTOO) to the same value.
pub fn htoo_parse(data: &[u8]) {
    let Ok(v) = htoo::from_slice(data) else {
        return;
    };
    check_encodings(&v);
}

/// Encodes `v` canonically and prettily and checks both read back to `v`.
fn check_encodings(v: &Value) {
    check_canonical(v);
    let pretty = htoo::to_string_pretty(v);
    match htoo::from_str(&pretty) {
        Ok(back) => assert!(back == *v, "pretty text reads back differently:\n{pretty}"),
        Err(e) => panic!("pretty text is not HTOO ({e}):\n{pretty}"),
    }
}

/// Encodes `v` canonically and checks the text reads back to `v`.
fn check_canonical(v: &Value) {
    let canonical = jtoo::to_vec(v).unwrap_or_default();
    match jtoo::from_slice(&canonical) {
        Ok(back) => assert!(
            back == *v,
            "canonical text reads back differently: {:?}",
            String::from_utf8_lossy(&canonical)
        ),
        Err(e) => panic!(
            "canonical text is not strict JTOO ({e}): {:?}",
            String::from_utf8_lossy(&canonical)
        ),
    }
}

/// An arbitrary valid [`Value`] (see `jtoo/src/arbitrary.rs`): encode, then
/// parse, gives the value back, and the text is the one spelling of the
/// value. (The pretty text is [`pretty_roundtrip`]'s: checking both here
/// took more than half of each execution.)
pub fn value_roundtrip(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(v) = Value::arbitrary(&mut u) else {
        return;
    };
    check_canonical(&v);
}

/// Two layout bytes (indent 0-7, width 0-127) and an arbitrary [`Value`]:
/// the pretty HTOO text with that layout reads back (HTOO) to the value.
/// (Generated values nest at most 24 deep, under [`htoo::MAX_INDENT_LEVEL`];
/// htoo's tests hold the cap. `to_writer_pretty` is this text behind a depth
/// check, tested in `htoo/tests/pretty.rs`: writing it a second time here
/// took a quarter of each execution.)
pub fn pretty_roundtrip(data: &[u8]) {
    let Some((&[indent, width], rest)) = data.split_first_chunk::<2>() else {
        return;
    };
    let (indent, width) = (usize::from(indent % 8), usize::from(width % 128));
    let mut u = Unstructured::new(rest);
    let Ok(v) = Value::arbitrary(&mut u) else {
        return;
    };
    let config = htoo::PrettyConfig::new()
        .with_indent(indent)
        .with_max_width(width);
    let pretty = htoo::to_string_pretty_with(&v, &config);
    match htoo::from_str(&pretty) {
        Ok(back) => assert!(
            back == v,
            "pretty text (indent {indent}, width {width}) reads back differently:\n{pretty}"
        ),
        Err(e) => {
            panic!("pretty text (indent {indent}, width {width}) is not HTOO ({e}):\n{pretty}")
        }
    }
}

/// Arbitrary derived structs and enums (see [`serde_types`]) through
/// jtoo-serde and back: `to_vec` succeeds (NaN and infinities, which JTOO
/// cannot write, are replaced first), the text is strict JTOO, and
/// `from_slice` gives the same data. The one accepted refusal is data
/// nested deeper than the default depth limit (128), and only when the
/// parser would indeed reject its text.
pub fn serde_roundtrip(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(mut root) = serde_types::Root::arbitrary(&mut u) else {
        return;
    };
    root.sanitise();
    if root.value.as_ref().is_some_and(has_integer_below_i128) {
        // serde has no primitive below i128::MIN, so such a value cannot pass
        // through it: reading one is a clear error by design (once a sign
        // flip, pinned by benches/support/src/tests/fuzz_corpora.rs). Nothing to compare.
        return;
    }
    let text = match jtoo_serde::to_vec(&root) {
        Ok(t) => t,
        Err(e) if e.to_string().contains("nested too deeply") => {
            // By design (see jtoo-serde's "Limits"): check that the text,
            // written with the highest limit (the ceiling), is indeed too
            // deep to read. Deeper than the ceiling, no reader could read it.
            let mut ser = jtoo_serde::Serializer::new(Vec::new()).with_max_depth(usize::MAX);
            let unlimited = match serde::Serialize::serialize(&root, &mut ser)
                .and_then(|()| ser.into_inner())
            {
                Ok(text) => text,
                Err(e) if e.to_string().contains("nested too deeply") => return,
                Err(e) => panic!("cannot serialize with the highest depth limit ({e})"),
            };
            assert!(
                jtoo::from_slice(&unlimited).is_err(),
                "refused as too deep ({e}), but the parser reads it: {:?}",
                String::from_utf8_lossy(&unlimited)
            );
            return;
        }
        Err(e) => panic!("cannot serialize ({e}): {root:?}"),
    };
    // The grammar check without building a value (`from_slice` below
    // builds the typed data).
    if let Err(e) = jtoo::validate(&text) {
        panic!(
            "serialized text is not strict JTOO ({e}): {:?}",
            String::from_utf8_lossy(&text)
        );
    }
    match jtoo_serde::from_slice::<serde_types::Root>(&text) {
        Ok(back) => {
            if back != root {
                let (a, b) = (format!("{root:?}"), format!("{back:?}"));
                let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
                let from = (0..=at.saturating_sub(200))
                    .rev()
                    .find(|&i| a.is_char_boundary(i))
                    .unwrap_or(0);
                panic!(
                    "round trip differs at byte {at} of the Debug text:\n before …{}\n after  …{}\n text   {:?}",
                    a.get(from..(at + 200).min(a.len())).unwrap_or(&a),
                    b.get(from..(at + 200).min(b.len())).unwrap_or(&b),
                    String::from_utf8_lossy(&text)
                );
            }
        }
        Err(e) => panic!(
            "cannot read back ({e}): {:?}",
            String::from_utf8_lossy(&text)
        ),
    }
}

/// `true` when `v` holds an integer below `i128::MIN`, at any depth.
fn has_integer_below_i128(v: &Value) -> bool {
    match v {
        Value::Integer(i) => i.is_negative() && i.magnitude() > i128::MAX as u128 + 1,
        Value::List(items) => items.iter().any(|item| match item {
            jtoo::ItemRef::Value(v) => has_integer_below_i128(v),
            jtoo::ItemRef::Pair(p) => {
                has_integer_below_i128(p.key()) || has_integer_below_i128(p.value())
            }
        }),
        _ => false,
    }
}

/// A tiny deterministic generator of chunk sizes, so a corpus file is
/// plain stream bytes after one control byte.
struct Chunks {
    state: u32,
    max: usize,
}

impl Chunks {
    fn new(seed: u8) -> Chunks {
        // Seeds 0..4 give fixed sizes 1, 2, 3, 7; the others pseudo-random
        // sizes up to 1..=64 or 1..=4096.
        let max = match seed & 0x80 {
            0 => 64,
            _ => 4096,
        };
        Chunks {
            state: u32::from(seed) | 0x9e37_7900,
            max,
        }
    }

    fn next(&mut self, seed: u8) -> usize {
        match seed {
            0 => 1,
            1 => 2,
            2 => 3,
            3 => 7,
            _ => {
                // xorshift32
                let mut x = self.state;
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                self.state = x;
                1 + (x as usize) % self.max
            }
        }
    }
}

/// Feeds `stream` to `decoder` in chunks chosen by `seed` (or in one piece
/// when `seed` is `None`), then signals the end; returns what it yielded.
/// After each `Ok(None)` it calls `check_buffered` with the bytes the
/// decoder holds.
fn run_decoder<D: Decoder>(
    mut decoder: D,
    stream: &[u8],
    seed: Option<u8>,
    mut check_buffered: impl FnMut(&BytesMut),
) -> Vec<Result<D::Item, String>>
where
    D::Error: std::fmt::Display,
{
    let mut out = Vec::new();
    let mut buf = BytesMut::new();
    let mut rest = stream;
    let mut chunks = seed.map(Chunks::new);
    while !rest.is_empty() {
        let n = match (&mut chunks, seed) {
            (Some(c), Some(s)) => c.next(s).min(rest.len()),
            _ => rest.len(),
        };
        buf.extend_from_slice(&rest[..n]);
        rest = &rest[n..];
        loop {
            match decoder.decode(&mut buf) {
                Ok(Some(item)) => out.push(Ok(item)),
                Ok(None) => {
                    check_buffered(&buf);
                    break;
                }
                Err(e) => {
                    out.push(Err(e.to_string()));
                    return out;
                }
            }
        }
    }
    loop {
        match decoder.decode_eof(&mut buf) {
            Ok(Some(item)) => out.push(Ok(item)),
            Ok(None) => return out,
            Err(e) => {
                out.push(Err(e.to_string()));
                return out;
            }
        }
    }
}

/// The frame codec limits of `frame_stream`, chosen by the control byte.
fn frame_limits(control: u8) -> (usize, usize, usize) {
    match control & 3 {
        0 => (1024, 1024, 1500),
        1 => (64, 64, 200),
        2 => (4096, 0, 4096 + 16),
        _ => (jtoo_frame::MAX_SECTION_LEN, 8192, 16 * 1024),
    }
}

/// `data[0]` picks the codec limits and the chunking; `data[1..]` is a byte
/// stream. Decoding it in those chunks gives the same frames, then the same
/// error, as decoding it in one piece; after an error the codec stays
/// failed; and the codec never holds more than one frame's worth beyond
/// what it was given (a declared length over the limit is refused before
/// anything is buffered for it).
pub fn frame_stream(data: &[u8]) {
    let Some((&control, stream)) = data.split_first() else {
        return;
    };
    let (max_jtoo, max_binary, max_frame) = frame_limits(control);
    let codec = || {
        FrameCodec::builder()
            .max_jtoo_len(max_jtoo)
            .max_binary_len(max_binary)
            .max_frame_len(max_frame)
            .new_codec()
    };
    let bound = |buf: &BytesMut| {
        // What we appended is at most the whole stream; what the codec may
        // reserve for is at most one frame of `max_frame` bytes.
        let limit = 2 * (stream.len() + max_frame) + 64;
        assert!(
            buf.capacity() <= limit,
            "codec buffer capacity {} over {limit}",
            buf.capacity()
        );
    };
    let one_shot = run_decoder(codec(), stream, None, bound);
    let chunked = run_decoder(codec(), stream, Some(control >> 2), bound);
    assert_eq!(one_shot, chunked, "chunking changed the decoded frames");
    for f in one_shot.iter().flatten() {
        assert!(f.jtoo_len() <= max_jtoo && f.binary().len() <= max_binary);
        assert!(f.encoded_len() <= max_frame);
        // A decoded frame re-encodes to exactly its bytes (checked through
        // a fresh decode: the frame's JTOO section is canonical).
        let bytes = f.to_bytes().expect("a decoded frame is within ffffff");
        let mut buf = BytesMut::from(&bytes[..]);
        let again = codec().decode(&mut buf);
        assert!(matches!(again, Ok(Some(ref g)) if g == f) && buf.is_empty());
    }
    if let Some(Err(_)) = one_shot.last() {
        // Every decoding error is final.
        let mut c = codec();
        let mut buf = BytesMut::from(stream);
        while let Ok(Some(_)) = c.decode(&mut buf) {}
        if c.is_failed() {
            assert!(c.decode(&mut buf).is_err());
        }
    }
}

/// What `decoder` answers, call by call, to `stream` fed in chunks of
/// `chunk + 1` bytes (all at once for `None`), as comparable text; stops
/// at the end, at an error that leaves the codec unusable, or after 64
/// answers.
fn typed_answers<D>(mut decoder: D, stream: &[u8], chunk: Option<u8>) -> Vec<String>
where
    D: Decoder<Error = FrameError>,
    D::Item: std::fmt::Debug,
{
    const MAX: usize = 64;
    let step = chunk.map_or(stream.len().max(1), |c| usize::from(c) + 1);
    let mut buf = BytesMut::new();
    let mut out = Vec::new();
    // Records one answer; `Some(done)` when there was one.
    let record = |r: Result<Option<D::Item>, FrameError>, out: &mut Vec<String>| match r {
        Ok(Some(item)) => {
            out.push(format!("{item:?}"));
            Some(false)
        }
        Ok(None) => None,
        Err(e) => {
            out.push(format!("error {e:?}"));
            Some(!e.is_recoverable())
        }
    };
    for piece in stream.chunks(step) {
        buf.extend_from_slice(piece);
        while out.len() < MAX {
            match record(decoder.decode(&mut buf), &mut out) {
                None => break,
                Some(true) => return out,
                Some(false) => {}
            }
        }
    }
    while out.len() < MAX {
        match record(decoder.decode_eof(&mut buf), &mut out) {
            None | Some(true) => break,
            Some(false) => {}
        }
    }
    out
}

/// The reference of `typed_stream`: every frame validated by `FrameCodec`,
/// then deserialized with `Frame::to_serde`.
struct TwoPass<T>(FrameCodec, std::marker::PhantomData<T>);

impl<T: DeserializeOwned> Decoder for TwoPass<T> {
    type Item = T;
    type Error = FrameError;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<T>, FrameError> {
        self.0
            .decode(buf)
            .and_then(|f| f.map(read_frame).transpose())
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<T>, FrameError> {
        self.0
            .decode_eof(buf)
            .and_then(|f| f.map(read_frame).transpose())
    }
}

fn read_frame<T: DeserializeOwned>(f: Frame) -> Result<T, FrameError> {
    let value = f.to_serde::<T>().map_err(FrameError::Decode)?;
    match f.binary().len() {
        0 => Ok(value),
        length => Err(FrameError::UnexpectedBinary { length }),
    }
}

fn typed_case<T>(stream: &[u8], chunk: u8)
where
    T: DeserializeOwned + Serialize + std::fmt::Debug + PartialEq,
{
    let codec = || FrameCodec::builder().max_jtoo_len(4096).new_codec();
    let want = typed_answers(
        TwoPass::<T>(codec(), std::marker::PhantomData),
        stream,
        None,
    );
    let got = typed_answers(TypedCodec::<T>::with_frame_codec(codec()), stream, None);
    assert_eq!(got, want, "one pass and validate-then-decode differ");
    let chunked = typed_answers(
        TypedCodec::<T>::with_frame_codec(codec()),
        stream,
        Some(chunk),
    );
    assert_eq!(chunked, want, "chunking changed the typed reading");
    // Every message read back is written again and reads back the same.
    let mut codec = TypedCodec::<T>::with_frame_codec(codec());
    let mut buf = BytesMut::from(stream);
    while let Ok(Some(m)) = codec.decode(&mut buf) {
        let mut out = BytesMut::new();
        let mut again = TypedCodec::<T>::new();
        if again.encode(&m, &mut out).is_ok() {
            assert_eq!(again.decode(&mut out).ok().flatten().as_ref(), Some(&m));
        }
    }
}

/// `data[0]` picks the message type (bits 0-1: `jtoo::Value`, the derived
/// `serde_types::Root`, `Vec<String>`, `IgnoredAny`) and the chunking;
/// `data[1..]` is a frame stream. `TypedCodec` reads it exactly as
/// validate-then-decode does (`FrameCodec`, then `Frame::to_serde`: the
/// same messages, the same errors at the same positions, the same
/// recovery), in any chunking, and every message it reads writes back to a
/// frame that reads the same.
pub fn typed_stream(data: &[u8]) {
    let Some((&control, stream)) = data.split_first() else {
        return;
    };
    let chunk = control >> 2;
    match control & 3 {
        0 => typed_case::<Value>(stream, chunk),
        1 => typed_case::<serde_types::Root>(stream, chunk),
        2 => typed_case::<Vec<String>>(stream, chunk),
        _ => {
            // Nothing to write back for `IgnoredAny`: compare the readings.
            let codec = || FrameCodec::builder().max_jtoo_len(4096).new_codec();
            type Skip = serde::de::IgnoredAny;
            let want = typed_answers(
                TwoPass::<Skip>(codec(), std::marker::PhantomData),
                stream,
                None,
            );
            let got = typed_answers(
                TypedCodec::<Skip>::with_frame_codec(codec()),
                stream,
                Some(chunk),
            );
            assert_eq!(got, want, "one pass and validate-then-decode differ");
        }
    }
}

/// One scanner event in a form that can be compared: output is merged
/// across events, since chunking may split it.
#[derive(Debug, PartialEq)]
enum Event {
    Output(Vec<u8>),
    Packet(String),
    Invalid(Vec<u8>, String),
}

fn normalise(events: Vec<Result<TermEvent, String>>) -> Vec<Result<Event, String>> {
    let mut out: Vec<Result<Event, String>> = Vec::new();
    for e in events {
        let e = match e {
            Ok(TermEvent::Output(b)) => {
                if let Some(Ok(Event::Output(prev))) = out.last_mut() {
                    prev.extend_from_slice(&b);
                    continue;
                }
                Ok(Event::Output(b.to_vec()))
            }
            Ok(TermEvent::Packet {
                osc,
                encoding,
                packet,
            }) => Ok(Event::Packet(format!("{osc:?} {encoding:?} {packet:?}"))),
            Ok(TermEvent::Invalid { osc, raw, error }) => {
                Ok(Event::Invalid(raw.to_vec(), format!("{osc:?} {error}")))
            }
            Err(e) => Err(e),
        };
        out.push(e);
    }
    out
}

/// `data[0]` picks the payload limit and the chunking; `data[1..]` is
/// terminal output. The scanner never panics; any chunking gives the same
/// events (output merged) as one piece; every input byte comes out exactly
/// once, as output or inside a packet or invalid sequence; and it never
/// holds more than one sequence of at most the payload limit.
pub fn jte_osc(data: &[u8]) {
    let Some((&control, stream)) = data.split_first() else {
        return;
    };
    let max = if control & 1 == 0 { 64 } else { 1 << 20 };
    let scanner = || OscScanner::new().with_max_payload_len(max);
    let bound = |buf: &BytesMut| {
        // Held back: at most a header (`ESC ] 2319x ; 10 digits ;`) and a
        // payload of `max` bytes with its BEL.
        assert!(
            buf.len() <= max + 24,
            "scanner holds {} bytes (payload limit {max})",
            buf.len()
        );
    };
    let one_shot = normalise(run_decoder(scanner(), stream, None, bound));
    let chunked = normalise(run_decoder(scanner(), stream, Some(control >> 1), bound));
    assert_eq!(one_shot, chunked, "chunking changed the scanner's events");
    // Byte accounting: output and invalid sequences are raw input bytes;
    // packets consumed the rest.
    let raw: usize = one_shot
        .iter()
        .map(|e| match e {
            Ok(Event::Output(b)) | Ok(Event::Invalid(b, _)) => b.len(),
            _ => 0,
        })
        .sum();
    assert!(raw <= stream.len());
    if !one_shot.iter().any(|e| matches!(e, Ok(Event::Packet(_)))) {
        assert_eq!(raw, stream.len(), "bytes lost without a packet");
    }
}

/// The greeting rules, checked independently of `jtoo_frame::Greeting`:
/// `Some((protocol, other fields))` exactly when `v` is a greeting.
fn greeting_oracle(v: &Value) -> Option<(&str, Vec<(&str, &Value)>)> {
    let items = v.as_list()?;
    let pairs = match (items.len(), items.first()) {
        (1, Some(jtoo::ItemRef::Value(Value::List(inner)))) => inner,
        _ => items,
    };
    let mut protocol = None;
    let mut fields = Vec::new();
    let mut keys = std::collections::HashSet::new();
    for item in pairs {
        let pair = item.as_pair()?;
        let key = pair.key().as_str()?;
        if !keys.insert(key) {
            return None;
        }
        if key == "protocol" {
            protocol = Some(pair.value().as_str()?);
        } else {
            fields.push((key, pair.value()));
        }
    }
    Some((protocol?, fields))
}

/// The most input a structured greeting candidate is built from.
const CANDIDATE_INPUT: usize = 1024;

/// A structured greeting candidate, mostly well-formed so that each rule is
/// broken on its own.
#[derive(Arbitrary, Debug)]
struct Candidate {
    wrapped: bool,
    fields: Vec<(Key, Value)>,
    extra: Option<Value>,
}

#[derive(Arbitrary, Debug)]
enum Key {
    Protocol,
    Named(u8),
    Other(Value),
}

impl Candidate {
    fn into_value(self) -> Option<Value> {
        let mut items = Vec::with_capacity(self.fields.len() + 1);
        for (k, v) in self.fields {
            let key = match k {
                Key::Protocol => Value::from("protocol"),
                Key::Named(n) => Value::from(format!("k{}", n % 4)),
                Key::Other(v) => v,
            };
            items.push(jtoo::Item::Pair(jtoo::Pair::new(key, v).ok()?));
        }
        if let Some(extra) = self.extra {
            items.push(jtoo::Item::Value(extra));
        }
        let list = Value::List(items.into());
        Some(if self.wrapped {
            Value::List(vec![jtoo::Item::Value(list)].into())
        } else {
            list
        })
    }
}

/// `data[0]` even: `data[1..]` is a frame as it arrives (the handshake's
/// codec, 16 KiB limit); odd: `data[1..]` drives a structured candidate.
/// Reading a greeting never panics and succeeds exactly when every rule
/// holds (a list of pairs, optionally wrapped in one list; string keys, no
/// duplicates; a string `"protocol"`); an accepted greeting has the fields
/// read, and writes a frame that reads back to it.
pub fn greeting(data: &[u8]) {
    let Some((&control, rest)) = data.split_first() else {
        return;
    };
    // The frame, and the value in it for the oracle (the structured branch
    // has it already: encode → parse gives it back, value_roundtrip's
    // property).
    let (frame, value) = if control & 1 == 0 {
        let mut codec = FrameCodec::builder()
            .max_frame_len(GREETING_MAX_LEN)
            .new_codec();
        let mut buf = BytesMut::from(rest);
        match codec.decode_eof(&mut buf) {
            Ok(Some(f)) => {
                let value = f.value().ok().flatten();
                (f, value)
            }
            _ => return,
        }
    } else {
        // A few KiB drive every rule; more only builds values far over the
        // 16 KiB size rule (which the frame branch covers) and slows the
        // fuzzer down.
        let mut u = Unstructured::new(rest.get(..CANDIDATE_INPUT).unwrap_or(rest));
        let Ok(c) = Candidate::arbitrary(&mut u) else {
            return;
        };
        let Some(v) = c.into_value() else {
            return;
        };
        match Frame::from_value(&v) {
            // Over 16 KiB a greeting breaks the size rule, which the
            // handshake's codec enforces before `from_frame` sees it.
            Ok(f) if f.encoded_len() <= GREETING_MAX_LEN => (f, Some(v)),
            _ => return,
        }
    };
    let expected = value.as_ref().and_then(greeting_oracle);
    match (Greeting::from_frame(&frame), expected) {
        (Ok(g), Some((protocol, fields))) => {
            assert_eq!(g.protocol(), protocol);
            let read: Vec<(&str, &Value)> = g.fields().iter().map(|(k, v)| (&k[..], v)).collect();
            assert_eq!(read, fields);
            match g.to_frame() {
                Ok(f2) => {
                    let back = Greeting::from_frame(&f2);
                    assert!(
                        back.as_ref() == Ok(&g),
                        "greeting does not read back from its own frame:\n greeting {g:?}\n frame    {:?}\n read     {back:?}",
                        f2.jtoo_str()
                    );
                }
                // The written shape wraps the pairs in one more list (two
                // bytes): an unwrapped greeting at the size limit cannot be
                // written back, and that is the only refusal allowed.
                Err(jtoo_frame::FrameError::TooLong { .. })
                    if !is_wrapped(&value) && frame.encoded_len() + 2 > GREETING_MAX_LEN => {}
                Err(e) => panic!("cannot write an accepted greeting ({e}): {g:?}"),
            }
        }
        (Err(_), None) => {}
        (Ok(g), None) => panic!("accepted a greeting that breaks a rule: {g:?} from {value:?}"),
        (Err(e), Some(_)) => panic!("refused a valid greeting ({e}): {value:?}"),
    }
}

/// Whether a greeting value is in the wrapped shape `[[pairs…]]`.
fn is_wrapped(value: &Option<Value>) -> bool {
    let list = value.as_ref().and_then(Value::as_list);
    matches!(
        list.map(|l| (l.len(), l.first())),
        Some((1, Some(jtoo::ItemRef::Value(Value::List(_)))))
    )
}

/// The server's handshake and frame loop, driven by a schedule of byte
/// chunks (`jtoo_frame::server`). `data[0]` picks the options: bit 0
/// prepends a valid `echo/1` greeting, bit 1 a small memory budget (64 KiB)
/// and small frame limits, bit 2 a client that never reads. The rest is the
/// schedule: each item is a byte `h` then `h & 63` bytes sent at once; `h >>
/// 6` = 1 waits 100 ms before them, 2 waits 5 s, 3 ends the schedule.
///
/// On tokio's paused clock, against an echo handler: the server never
/// panics; it closes the connection within its timeouts once the client has
/// closed its side; everything it writes is a valid frame stream, and it is
/// either nothing, the 505 reply, or the frames the client sent after an
/// accepted greeting, in order and intact (all of them when the
/// connection ended cleanly).
pub fn server_session(data: &[u8]) {
    let Some((&control, schedule)) = data.split_first() else {
        return;
    };
    let Ok(rt) = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
    else {
        return;
    };
    rt.block_on(server::session(control, schedule));
}

mod server {
    use bytes::BytesMut;
    use jtoo_frame::server::{Connection, ConnectionError, Listener, Server};
    use jtoo_frame::{FrameCodec, Greeting, UNSUPPORTED_PROTOCOL_REPLY};
    use std::net::SocketAddr;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;
    use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};
    use tokio_util::codec::Decoder;

    /// Hands out one connection, then none.
    struct One(Option<DuplexStream>);

    impl Listener for One {
        type Io = DuplexStream;
        async fn accept(&mut self) -> std::io::Result<(DuplexStream, SocketAddr)> {
            match self.0.take() {
                Some(io) => Ok((io, SocketAddr::from(([127, 0, 0, 1], 1)))),
                None => std::future::pending().await,
            }
        }
    }

    type Outcome = Arc<Mutex<Option<Result<(), String>>>>;

    pub(super) async fn session(control: u8, schedule: &[u8]) {
        let small = control & 2 != 0;
        let never_reads = control & 4 != 0;
        let mut codec = FrameCodec::builder();
        if small {
            codec.max_jtoo_len(300).max_binary_len(3000);
        }
        let server = Server::new(["echo/1"])
            .greeting_timeout(Duration::from_secs(1))
            .idle_timeout(Duration::from_secs(2))
            .frame_timeout(Duration::from_secs(1))
            .write_timeout(Duration::from_secs(1))
            .memory_budget(if small { 64 * 1024 } else { 1 << 20 })
            .codec(codec);
        let (client, server_io) = tokio::io::duplex(if never_reads { 256 } else { 1 << 16 });
        let outcome: Outcome = Arc::default();
        let seen = outcome.clone();
        let handler = move |mut conn: Connection<DuplexStream>| {
            let seen = seen.clone();
            async move {
                let result: Result<(), ConnectionError> = async {
                    while let Some(frame) = conn.recv().await? {
                        conn.send(frame).await?;
                    }
                    Ok(())
                }
                .await;
                *seen.lock().unwrap_or_else(|e| e.into_inner()) =
                    Some(result.map_err(|e| e.to_string()));
                Ok(())
            }
        };
        let serving = tokio::spawn(async move {
            server
                .serve_listener(One(Some(server_io)), handler, std::future::pending())
                .await;
        });

        // The client's bytes, as sent.
        let mut sent = Vec::new();
        if control & 1 != 0
            && let Ok(bytes) = Greeting::new("echo/1")
                .to_frame()
                .and_then(|g| g.to_bytes())
        {
            sent.extend_from_slice(&bytes);
        }
        let (mut reader, mut writer) = tokio::io::split(client);
        let reading = tokio::spawn(async move {
            let mut out = Vec::new();
            if !never_reads {
                let _ = reader.read_to_end(&mut out).await;
            }
            out
        });
        let _ = writer.write_all(&sent).await;
        let mut rest = schedule;
        while let Some((&h, tail)) = rest.split_first() {
            let n = usize::from(h & 63).min(tail.len());
            let (chunk, next) = tail.split_at(n);
            rest = next;
            match h >> 6 {
                1 => tokio::time::sleep(Duration::from_millis(100)).await,
                2 => tokio::time::sleep(Duration::from_secs(5)).await,
                3 => break,
                _ => {}
            }
            if writer.write_all(chunk).await.is_err() {
                break;
            }
            sent.extend_from_slice(chunk);
        }
        let _ = writer.shutdown().await;

        // The server must be done with the connection within its timeouts.
        if never_reads {
            let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
            while outcome.lock().unwrap_or_else(|e| e.into_inner()).is_none()
                && tokio::time::Instant::now() < deadline
            {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            serving.abort();
            return;
        }
        let received = tokio::time::timeout(Duration::from_secs(30), reading)
            .await
            .expect("the server closes the connection within its timeouts")
            .unwrap_or_default();
        serving.abort();
        // The handler records its outcome before the connection closes.
        let outcome = outcome.lock().unwrap_or_else(|e| e.into_inner()).clone();
        check_output(&sent, &received, outcome, small);
    }

    /// What the server wrote, against what the client sent.
    fn check_output(
        sent: &[u8],
        received: &[u8],
        outcome: Option<Result<(), String>>,
        small: bool,
    ) {
        if received.is_empty() {
            return;
        }
        let mut greeting_codec = FrameCodec::builder()
            .max_frame_len(jtoo_frame::GREETING_MAX_LEN)
            .new_codec();
        let mut buf = BytesMut::from(sent);
        let greeting = match greeting_codec.decode(&mut buf) {
            Ok(Some(f)) => Greeting::from_frame(&f).ok(),
            _ => None,
        };
        let accepted = greeting.as_ref().is_some_and(|g| g.protocol() == "echo/1");
        // The 505 reply, unless the greeting was accepted: then the same
        // bytes are the echo of a client frame that happens to be them
        // (found by this target: an echo server cannot tell them apart,
        // and neither can its client).
        if received == UNSUPPORTED_PROTOCOL_REPLY && !accepted {
            assert!(outcome.is_none(), "505 after an accepted greeting");
            return;
        }
        let echoed = frames(received, FrameCodec::new());
        let echoed = echoed.expect("the server writes a valid frame stream");
        // The frames the client sent after its greeting, up to the first
        // error (which ends the connection).
        assert!(
            accepted,
            "echoed frames without an accepted greeting: {greeting:?}"
        );
        let mut codec = FrameCodec::builder();
        if small {
            codec
                .max_jtoo_len(300)
                .max_binary_len(3000)
                .max_frame_len(64 * 1024);
        } else {
            codec.max_frame_len(1 << 20);
        }
        let mut codec = codec.new_codec();
        let mut expected = Vec::new();
        while let Ok(Some(f)) = codec.decode_eof(&mut buf) {
            expected.push(f);
        }
        assert!(
            echoed.len() <= expected.len() && echoed[..] == expected[..echoed.len()],
            "the echo is not the frames sent, in order"
        );
        if let Some(Ok(())) = outcome {
            assert_eq!(echoed.len(), expected.len(), "a clean close lost frames");
        }
    }

    /// Every frame of a whole stream; `None` if it is not one.
    fn frames(bytes: &[u8], mut codec: FrameCodec) -> Option<Vec<jtoo_frame::Frame>> {
        let mut buf = BytesMut::from(bytes);
        let mut out = Vec::new();
        loop {
            match codec.decode_eof(&mut buf) {
                Ok(Some(f)) => out.push(f),
                Ok(None) => return Some(out),
                Err(_) => return None,
            }
        }
    }
}

/// A source that hands out at most `step` bytes per read, cycling through
/// sizes 1..=step, so the streaming readers meet every boundary.
struct Trickle<'a> {
    bytes: &'a [u8],
    step: usize,
    n: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        self.n = self.n % self.step + 1;
        let k = self.n.min(out.len()).min(self.bytes.len());
        out[..k].copy_from_slice(&self.bytes[..k]);
        self.bytes = &self.bytes[k..];
        Ok(k)
    }
}

/// The first byte chooses the reader (bit 0: HTOO; bit 1: JSON to JTOO;
/// bit 2: JTOO to JSON, its bits 6 and 7 the output the one pass may hold)
/// and, with the second, its buffer size and read sizes; the rest is the
/// document. The streaming readers (`jtoo::stream::Reader` and
/// `jtoo::json::stream`) read it in a window exactly as the whole-input
/// readers read it: the same canonical bytes, or the same error at the
/// same position; `next_part` gives `next_event`'s events. JTOO to JSON: the one pass
/// (`jtoo::json::stream::write_json_one_pass`, the two passes finishing
/// what it leaves undecided, as `jtoo to-json` does) writes what the two
/// passes (`Shapes::read`, `write_json`) write, and they what
/// `jtoo::json::to_json_string` writes of the whole-input parser's value;
/// or all fail with the same error at the same position.
pub fn stream_read(data: &[u8]) {
    let [mode, sizes, doc @ ..] = data else {
        return;
    };
    let buffer = usize::from(sizes & 0x0f) + 1;
    let step = usize::from(sizes >> 4) + 1;
    let source = Trickle {
        bytes: doc,
        step,
        n: 0,
    };
    if mode & 4 != 0 {
        let max_pending = [0, 7, 64, 1 << 20][usize::from(mode >> 6)];
        return stream_to_json(doc, mode & 1 != 0, buffer, step, max_pending);
    }
    let (whole, streamed) = if mode & 2 != 0 {
        let options = jtoo::json::FromJsonOptions::new();
        let whole = jtoo::json::from_json_slice_with(doc, &options).and_then(|v| jtoo::to_vec(&v));
        let mut out = Vec::new();
        let streamed = jtoo::json::stream::Reader::new(source)
            .with_options(&options)
            .with_buffer_size(buffer)
            .write_jtoo(&mut out)
            .map(|_| out);
        (whole, streamed)
    } else {
        let syntax = if mode & 1 != 0 {
            jtoo::parse::Syntax::Lenient
        } else {
            jtoo::parse::Syntax::Strict
        };
        let whole = jtoo::parse::document(doc, syntax, jtoo::Options::DEFAULT_MAX_DEPTH)
            .and_then(|v| jtoo::to_vec(&v));
        let mut reader = jtoo::stream::Reader::new(source)
            .with_syntax(syntax)
            .with_buffer_size(buffer);
        let mut out = Vec::new();
        let streamed = reader.write_canonical(&mut out).map(|_| out);
        // Checking alone agrees too.
        let checked = jtoo::stream::Reader::new(Trickle {
            bytes: doc,
            step,
            n: 0,
        })
        .with_syntax(syntax)
        .with_buffer_size(buffer)
        .check_to_end();
        match (&whole, &checked) {
            (Ok(_), Ok(n)) => assert_eq!(*n, doc.len()),
            (Err(a), Err(b)) => assert_eq!((a.kind(), a.position()), (b.kind(), b.position())),
            _ => panic!("check: {whole:?} vs {checked:?}"),
        }
        // So does reading in parts (lists whole when they end in the window).
        assert!(
            events(doc, syntax, buffer, step, true) == events(doc, syntax, buffer, step, false),
            "next_part vs next_event"
        );
        (whole, streamed)
    };
    match (&whole, &streamed) {
        (Ok(a), Ok(b)) => assert!(a == b, "{a:?} vs {b:?}"),
        (Err(a), Err(b)) => assert_eq!(
            (a.kind(), a.position()),
            (b.kind(), b.position()),
            "{a} vs {b}"
        ),
        _ => panic!("{whole:?} vs {streamed:?}"),
    }
}

/// An error's kind, position and message.
type ErrorSeen = (jtoo::ErrorKind, Option<jtoo::Position>, String);

/// The events `jtoo::stream::Reader` gives of `doc` (with `parts`, by
/// `next_part`, a whole list read into its events), then its error's kind,
/// position and message.
fn events(
    doc: &[u8],
    syntax: jtoo::parse::Syntax,
    buffer: usize,
    step: usize,
    parts: bool,
) -> (Vec<Vec<u8>>, Option<ErrorSeen>) {
    use jtoo::stream::{Event, Part, Reader};
    fn text(e: Event<'_>) -> Vec<u8> {
        match e {
            Event::Open => b"[".to_vec(),
            Event::Close => b"]".to_vec(),
            Event::Colon => b":".to_vec(),
            Event::Scalar(s) => s.text().to_vec(),
        }
    }
    let mut r = Reader::new(Trickle {
        bytes: doc,
        step,
        n: 0,
    })
    .with_syntax(syntax)
    .with_buffer_size(buffer);
    let mut seen = Vec::new();
    loop {
        let next = if parts {
            r.next_part()
        } else {
            r.next_event().map(|e| e.map(Part::Event))
        };
        match next {
            Ok(None) => return (seen, None),
            Err(e) => return (seen, Some((e.kind(), e.position(), e.to_string()))),
            Ok(Some(Part::Event(e))) => seen.push(text(e)),
            Ok(Some(Part::List(list))) => {
                let mut whole = Reader::new(list).with_syntax(syntax);
                loop {
                    match whole.next_event() {
                        Ok(Some(e)) => seen.push(text(e)),
                        Ok(None) => break,
                        Err(e) => panic!("a list given whole fails: {e}"),
                    }
                }
            }
        }
    }
}

/// [`stream_read`]'s JTOO to JSON: the one pass against the two passes
/// against the whole-input value, on `doc` read `buffer` bytes at a time
/// from a source giving `step` bytes a read at most.
fn stream_to_json(doc: &[u8], htoo: bool, buffer: usize, step: usize, max_pending: usize) {
    use jtoo::json::stream::{OnePass, Shapes, write_json, write_json_one_pass};
    let syntax = if htoo {
        jtoo::parse::Syntax::Lenient
    } else {
        jtoo::parse::Syntax::Strict
    };
    let reader = || {
        jtoo::stream::Reader::new(Trickle {
            bytes: doc,
            step,
            n: 0,
        })
        .with_syntax(syntax)
        .with_buffer_size(buffer)
    };
    let whole = jtoo::parse::document(doc, syntax, jtoo::Options::DEFAULT_MAX_DEPTH)
        .map(|v| jtoo::json::to_json_string(&v).into_bytes());
    let two = Shapes::read(&mut reader()).and_then(|shapes| {
        let mut out = Vec::new();
        write_json(&mut reader(), &shapes, &mut out).map(|()| out)
    });
    let mut out = Vec::new();
    // What the one pass leaves undecided is the two passes' to write.
    let one = match write_json_one_pass(&mut reader(), &mut out, max_pending) {
        Err(e) => Err(e),
        Ok(OnePass::Written) => Ok(out),
        Ok(OnePass::Undecided { written }) => {
            assert_eq!(written, out.len() as u64, "bytes written");
            // (An error after where it stopped is the two passes' to find.)
            if let Ok(all) = &two {
                assert!(all.starts_with(&out), "the one pass wrote a prefix");
            }
            return check_same("two passes", &whole, &two);
        }
        Ok(other) => panic!("a new outcome: {other:?}"),
    };
    check_same("two passes", &whole, &two);
    check_same("one pass", &two, &one);
}

/// Asserts that two ways of writing JSON wrote the same bytes, or failed
/// with the same error (kind, position, message).
fn check_same(what: &str, a: &Result<Vec<u8>, jtoo::Error>, b: &Result<Vec<u8>, jtoo::Error>) {
    match (a, b) {
        (Ok(a), Ok(b)) => assert!(
            a == b,
            "{what}: {:?} vs {:?}",
            String::from_utf8_lossy(a),
            String::from_utf8_lossy(b)
        ),
        (Err(a), Err(b)) => assert_eq!(
            (a.kind(), a.position(), a.to_string()),
            (b.kind(), b.position(), b.to_string()),
            "{what}"
        ),
        _ => panic!("{what}: {a:?} vs {b:?}"),
    }
}

/// `htoo::Document` against the fast parser, then random edits.
///
/// The input is an HTOO text, optionally followed by a `0xff` byte (never
/// in UTF-8 text) and an edit script. The text: accepted by
/// `htoo::Document` exactly when `htoo::from_slice` accepts it, with the
/// same error (kind, message, position) when not; when accepted, printed
/// back byte for byte, with the same value, every node's value equal to
/// the value at its place. The script, three bytes an edit (kind, which
/// item, which new value): set, remove, insert, push a pair, rename, or an
/// update to the value with one item changed. After each edit the text
/// parses to the same tree (a fresh `Document` of it equals the edited
/// one) and the value is the same edit applied to the value.
pub fn document_roundtrip(data: &[u8]) {
    let (text, script) = match data.iter().position(|&b| b == 0xff) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let doc = match (htoo::from_slice(text), htoo::Document::from_slice(text)) {
        (Ok(v), Ok(doc)) => {
            assert!(doc.as_str().as_bytes() == text, "text not kept");
            assert!(doc.to_string().as_bytes() == text, "Display not the text");
            assert!(doc.value() == v, "value differs");
            check_nodes(&doc, &v);
            doc
        }
        (Err(a), Err(b)) => {
            assert_eq!(
                (a.kind(), a.position(), a.to_string()),
                (b.kind(), b.position(), b.to_string())
            );
            return;
        }
        (a, b) => panic!("parsers disagree: {a:?} vs {b:?}"),
    };
    document_edits(doc, script);
}

/// Every node's value is the value at its place.
fn check_nodes(doc: &htoo::Document, v: &Value) {
    let mut stack = vec![(doc.root(), v)];
    while let Some((node, value)) = stack.pop() {
        match value {
            Value::List(items) => {
                assert!(node.is_list(), "a list that is not a list node");
                let mut n = 0;
                for (entry, item) in node.entries().zip(items.iter()) {
                    n += 1;
                    match (entry.key(), item) {
                        (Some(k), jtoo::ItemRef::Pair(p)) => stack.push((k, p.key())),
                        (None, jtoo::ItemRef::Value(_)) => {}
                        _ => panic!("pair and plain item mixed up"),
                    }
                    stack.push((entry.value(), item.value()));
                }
                assert_eq!(n, items.len());
            }
            scalar => assert!(node.value() == *scalar, "node value differs"),
        }
    }
}

/// New values an edit script picks from.
fn new_value(b: u8) -> Value {
    match b % 8 {
        0 => Value::from(i64::from(b) - 100),
        1 => Value::from(b.is_multiple_of(2)),
        2 => Value::from("new \"text\"\n"),
        3 => Value::from(vec![Value::from(1), Value::from("a")]),
        4 => Value::List(jtoo::List::from_pairs([
            jtoo::Pair::with_str_key("k", Value::from(b)),
            jtoo::Pair::with_str_key("long key for a long line", Value::from("x".repeat(40))),
        ])),
        5 => Value::List(jtoo::List::new()),
        6 => Value::from(&b"\x01\xff"[..]),
        _ => Value::from(vec![Value::from(vec![Value::from(b)])]),
    }
}

/// The positions of every item of `v`.
fn item_paths(v: &Value) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut stack = vec![(v, Vec::new())];
    while let Some((v, path)) = stack.pop() {
        if let Value::List(items) = v {
            for (i, item) in items.iter().enumerate() {
                let mut p = path.clone();
                p.push(i);
                stack.push((item.value(), p.clone()));
                out.push(p);
            }
        }
    }
    out
}

fn value_at<'v>(v: &'v mut Value, path: &[usize]) -> Option<&'v mut Value> {
    let mut v = v;
    for &i in path {
        let Value::List(items) = v else { return None };
        v = match items.get_mut(i)? {
            jtoo::ItemMut::Value(x) => x,
            jtoo::ItemMut::Pair(p) => p.value_mut(),
        };
    }
    Some(v)
}

/// `v` with the items of every list in a normal order: the plain items in
/// their order, then the pairs ordered by the canonical text of their key
/// and value (with duplicate keys, `update` matches the k-th pair with a
/// key to the k-th, so their order may change).
fn normalized(v: &Value) -> Value {
    match v {
        Value::List(items) => {
            let mut plain = Vec::new();
            let mut pairs = Vec::new();
            for item in items.iter() {
                match item {
                    jtoo::ItemRef::Value(x) => plain.push(jtoo::Item::from(normalized(x))),
                    jtoo::ItemRef::Pair(p) => {
                        let value = normalized(p.value());
                        let key = jtoo::to_string(p.key()).unwrap_or_default()
                            + ":"
                            + &jtoo::to_string(&value).unwrap_or_default();
                        pairs.push((key, p.key().clone(), value));
                    }
                }
            }
            pairs.sort_by(|a, b| a.0.cmp(&b.0));
            let mut list = jtoo::List::new();
            for item in plain {
                list.push(item);
            }
            for (_, k, x) in pairs {
                if let Ok(p) = jtoo::Pair::new(k, x) {
                    list.push(p);
                }
            }
            Value::List(list)
        }
        scalar => scalar.clone(),
    }
}

fn document_edits(mut doc: htoo::Document, script: &[u8]) {
    let mut expected = doc.value();
    for op in script.chunks_exact(3).take(8) {
        let (kind, pick, new) = (op[0], op[1], new_value(op[2]));
        let paths = item_paths(&expected);
        let Some(path) = paths.get(usize::from(pick) % paths.len().max(1)) else {
            // Nothing to pick: only a push into the document's list.
            if let Value::List(items) = &mut expected {
                doc.push(&[], &new).unwrap();
                items.push(new);
            }
            continue;
        };
        let steps: Vec<jtoo::PathItem<'_>> =
            path.iter().map(|&i| jtoo::PathItem::Index(i)).collect();
        let (last, parent) = path.split_last().unwrap_or((&0, &[]));
        let parent_steps = &steps[..steps.len() - 1];
        let before = doc.clone();
        let result = match kind % 6 {
            0 => doc.set(&steps, &new).map(|()| {
                if let Some(x) = value_at(&mut expected, path) {
                    *x = new;
                }
            }),
            1 => doc.remove(&steps).map(|()| {
                if let Some(Value::List(items)) = value_at(&mut expected, parent) {
                    items.remove(*last);
                }
            }),
            2 => doc.insert(parent_steps, *last, &new).map(|()| {
                if let Some(Value::List(items)) = value_at(&mut expected, parent) {
                    items.insert(*last, new);
                }
            }),
            3 => doc
                .push_pair(parent_steps, &Value::from("new"), &new)
                .map(|()| {
                    if let Some(Value::List(items)) = value_at(&mut expected, parent) {
                        items.push(jtoo::Pair::with_str_key("new", new));
                    }
                }),
            4 => doc.rename(&steps, &Value::from("renamed")).map(|()| {
                if let Some(Value::List(items)) = value_at(&mut expected, parent)
                    && let Some(jtoo::ItemMut::Pair(p)) = items.get_mut(*last)
                {
                    let value = std::mem::replace(p.value_mut(), Value::from(0));
                    *p = jtoo::Pair::with_str_key("renamed", value);
                }
            }),
            _ => {
                let mut changed = expected.clone();
                if let Some(x) = value_at(&mut changed, path) {
                    *x = new;
                }
                doc.update(&changed).map(|()| {
                    // Pairs matched by key keep the document's order.
                    assert!(
                        normalized(&doc.value()) == normalized(&changed),
                        "update gave another value:\n{}",
                        doc.as_str()
                    );
                    expected = doc.value();
                })
            }
        };
        match result {
            Ok(()) => {}
            Err(e) => {
                // Refused (a plain item to rename, a value too deep): nothing changed.
                assert!(doc == before, "a refused edit changed the document: {e}");
                continue;
            }
        }
        let again = htoo::Document::parse_with(
            doc.as_str(),
            &htoo::Options::new().with_max_depth(doc.max_depth()),
        );
        match again {
            Ok(again) => assert!(
                again == doc,
                "tree differs from a fresh parse:\n{}",
                doc.as_str()
            ),
            Err(e) => panic!("an edit made invalid HTOO ({e}):\n{}", doc.as_str()),
        }
        assert!(
            doc.value() == expected,
            "value differs after an edit:\n{}",
            doc.as_str()
        );
    }
}
