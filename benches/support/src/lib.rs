//! Benchmark support shared by the criterion benches and the `compare`
//! binary: the corpus (the shared JSON files converted once to canonical
//! JTOO with `jtoo::json::from_json_slice`), typed models of the three files, and
//! the message streams of the frame and JTE benches.
//!
//! Everything here builds inputs; nothing times. A workload is a closure run
//! by the caller's timer.
#![forbid(unsafe_code)]

pub mod messages;
pub mod models;

#[cfg(test)]
mod tests;

use bytes::{Buf, Bytes, BytesMut};
use jte::{Packet, PacketCodec};
use jtoo_frame::{Frame, FrameCodec};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use tokio_util::codec::{Decoder, Encoder, LengthDelimitedCodec, LinesCodec};

/// An error while preparing the inputs.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The three corpus files.
pub const FILES: [&str; 3] = ["twitter", "citm_catalog", "canada"];

/// Where the corpus lives: `$JTOO_CORPUS`, else the repository's
/// `testdata/corpus`.
pub fn corpus_dir() -> PathBuf {
    std::env::var_os("JTOO_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/corpus"))
}

/// One corpus file in every form the benches read.
pub struct Doc {
    /// `twitter`, `citm_catalog` or `canada`.
    pub name: &'static str,
    /// The file as shipped.
    pub json_original: Vec<u8>,
    /// The same JSON without whitespace (what the JSON peers parse).
    pub json: Vec<u8>,
    /// serde_json's value of it.
    pub json_value: serde_json::Value,
    /// Canonical JTOO, converted with `jtoo::json::from_json_slice` (null members
    /// left out, as the project's decisions say).
    pub jtoo: Vec<u8>,
    /// The JTOO value.
    pub value: jtoo::Value,
    /// The same value as pretty HTOO (`htoo::to_string_pretty`).
    pub htoo: String,
}

impl Doc {
    /// Reads `NAME.json` from the corpus and converts it.
    ///
    /// # Errors
    /// A missing file, invalid JSON, or a conversion error.
    pub fn load(name: &'static str) -> Result<Doc, BoxError> {
        let path = corpus_dir().join(format!("{name}.json"));
        let json_original = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        // The peers parse the file without insignificant whitespace, in its
        // own member order and number spellings (nulls kept).
        let json = minify_json(&json_original);
        let json_value: serde_json::Value = serde_json::from_slice(&json)?;
        // Exact numbers and member order, whatever serde_json's features.
        let value = jtoo::json::from_json_slice(&json_original)?;
        let jtoo = jtoo::to_vec(&value)?;
        let htoo = htoo::to_string_pretty(&value);
        Ok(Doc {
            name,
            json_original,
            json,
            json_value,
            jtoo,
            value,
            htoo,
        })
    }

    /// The compact JSON again, without the members whose value is `null`
    /// (the content JTOO holds), serialized by serde_json: what `compare`'s
    /// "no null members" rows parse.
    ///
    /// Made on demand, not by [`Doc::load`]: the clone and its temporaries
    /// leave gaps in the heap, and a workload that never reads this text
    /// (`profile encode`, `typed-ser`) would have its growing output buffer
    /// moved through them by `realloc`, which says nothing about the code
    /// measured.
    ///
    /// # Errors
    /// serde_json's, should it refuse its own value.
    pub fn json_no_nulls(&self) -> Result<Vec<u8>, BoxError> {
        Ok(serde_json::to_vec(&without_null_members(
            self.json_value.clone(),
        ))?)
    }

    /// All three files.
    ///
    /// # Errors
    /// As [`Doc::load`].
    pub fn load_all() -> Result<Vec<Doc>, BoxError> {
        FILES.iter().map(|n| Doc::load(n)).collect()
    }
}

/// A typed model of a corpus file, in a form that is both `serde`-able and
/// comparable.
pub enum Typed {
    /// twitter.json
    Twitter(Box<models::Twitter>),
    /// citm_catalog.json
    Citm(Box<models::CitmCatalog>),
    /// canada.json
    Canada(Box<models::Canada>),
}

/// Deserializes `bytes` as the model of `name` with `de` (a `from_slice`
/// function), returning the model.
///
/// # Errors
/// What `de` returns, as text.
pub fn typed_from<E: std::fmt::Display>(
    name: &str,
    bytes: &[u8],
    de: impl TypedDe<E>,
) -> Result<Typed, String> {
    let r = match name {
        "twitter" => de
            .de::<models::Twitter>(bytes)
            .map(|t| Typed::Twitter(Box::new(t))),
        "citm_catalog" => de
            .de::<models::CitmCatalog>(bytes)
            .map(|t| Typed::Citm(Box::new(t))),
        _ => de
            .de::<models::Canada>(bytes)
            .map(|t| Typed::Canada(Box::new(t))),
    };
    r.map_err(|e| format!("{name}: {e}"))
}

/// A `from_slice` of some format, for any model type.
pub trait TypedDe<E> {
    /// Deserializes a `T`.
    ///
    /// # Errors
    /// The format's.
    fn de<T: serde::de::DeserializeOwned>(&self, bytes: &[u8]) -> Result<T, E>;
}

/// serde_json's `from_slice`.
pub struct JsonDe;
impl TypedDe<serde_json::Error> for JsonDe {
    fn de<T: serde::de::DeserializeOwned>(&self, bytes: &[u8]) -> Result<T, serde_json::Error> {
        serde_json::from_slice(bytes)
    }
}

/// serde_json's `from_str` on text whose UTF-8 was checked beforehand (as
/// when it was read into a `String`): the JSON peer at its cheapest. It
/// reads the text it holds; the bytes given to [`TypedDe::de`] must be the
/// same text (they only serve to check that).
pub struct JsonStrDe<'a>(pub &'a str);
impl TypedDe<serde_json::Error> for JsonStrDe<'_> {
    fn de<T: serde::de::DeserializeOwned>(&self, bytes: &[u8]) -> Result<T, serde_json::Error> {
        debug_assert_eq!(bytes, self.0.as_bytes());
        serde_json::from_str(self.0)
    }
}

/// jtoo-serde's `from_slice`.
pub struct JtooDe;
impl TypedDe<jtoo_serde::Error> for JtooDe {
    fn de<T: serde::de::DeserializeOwned>(&self, bytes: &[u8]) -> Result<T, jtoo_serde::Error> {
        jtoo_serde::from_slice(bytes)
    }
}

impl Typed {
    /// Serializes with serde_json.
    pub fn to_json(&self) -> Vec<u8> {
        let r = match self {
            Typed::Twitter(t) => serde_json::to_vec(t),
            Typed::Citm(t) => serde_json::to_vec(t),
            Typed::Canada(t) => serde_json::to_vec(t),
        };
        r.unwrap_or_default()
    }

    /// Serializes with jtoo-serde.
    pub fn to_jtoo(&self) -> Vec<u8> {
        let r = match self {
            Typed::Twitter(t) => jtoo_serde::to_vec(t),
            Typed::Citm(t) => jtoo_serde::to_vec(t),
            Typed::Canada(t) => jtoo_serde::to_vec(t),
        };
        r.unwrap_or_default()
    }

    /// `true` when both hold the same data.
    pub fn same_as(&self, other: &Typed) -> bool {
        match (self, other) {
            (Typed::Twitter(a), Typed::Twitter(b)) => a == b,
            (Typed::Citm(a), Typed::Citm(b)) => a == b,
            // serde_json's default float parser is not always correctly
            // rounded (it lacks the `float_roundtrip` feature): allow 1 ULP.
            (Typed::Canada(a), Typed::Canada(b)) => {
                a.kind == b.kind
                    && a.features.len() == b.features.len()
                    && a.features.iter().zip(&b.features).all(|(fa, fb)| {
                        fa.kind == fb.kind
                            && fa.properties == fb.properties
                            && fa.geometry.kind == fb.geometry.kind
                            && fa.geometry.coordinates.len() == fb.geometry.coordinates.len()
                            && fa
                                .geometry
                                .coordinates
                                .iter()
                                .zip(&fb.geometry.coordinates)
                                .all(|(ra, rb)| {
                                    ra.len() == rb.len()
                                        && ra.iter().zip(rb).all(|(pa, pb)| {
                                            within_ulp(pa.0, pb.0) && within_ulp(pa.1, pb.1)
                                        })
                                })
                    })
            }
            _ => false,
        }
    }
}

/// `true` when `a` and `b` are equal or neighbouring `f64`s.
fn within_ulp(a: f64, b: f64) -> bool {
    a == b || (a.signum() == b.signum() && a.to_bits().abs_diff(b.to_bits()) <= 1)
}

// ------------------------------------------------------------ frames

/// A message shape of the frame benches.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// How many messages.
    pub count: usize,
    /// Bytes per message.
    pub size: usize,
}

impl Shape {
    /// 1,000,000 × 100 bytes.
    pub const SMALL: Shape = Shape {
        count: 1_000_000,
        size: 100,
    };
    /// 2,000 × 64 KiB.
    pub const LARGE: Shape = Shape {
        count: 2_000,
        size: 64 * 1024,
    };

    /// The same shape with `count / div` messages (for quick runs).
    pub fn scaled(self, div: usize) -> Shape {
        Shape {
            count: (self.count / div.max(1)).max(1),
            size: self.size,
        }
    }

    /// Payload bytes in all.
    pub fn bytes(self) -> u64 {
        (self.count * self.size) as u64
    }

    /// The `i`-th message: printable ASCII without `\n` (valid for every
    /// codec, including `LinesCodec`).
    pub fn message(self, i: usize) -> Bytes {
        let mut m = vec![b'a'; self.size];
        for (j, b) in m.iter_mut().enumerate() {
            *b = b'a' + ((i + j) % 26) as u8;
        }
        Bytes::from(m)
    }

    /// The messages.
    pub fn messages(self) -> Vec<Bytes> {
        (0..self.count).map(|i| self.message(i)).collect()
    }
}

/// A frame codec large enough for `shape`.
pub fn frame_codec(shape: Shape) -> FrameCodec {
    FrameCodec::builder()
        .max_binary_len(shape.size.max(1))
        .max_jtoo_len(shape.size.max(1))
        .max_frame_len(shape.size + jtoo_frame::FRAME_OVERHEAD)
        .new_codec()
}

/// A length-delimited codec large enough for `shape`.
pub fn length_delimited(shape: Shape) -> LengthDelimitedCodec {
    LengthDelimitedCodec::builder()
        .max_frame_length(shape.size.max(1))
        .new_codec()
}

/// Frames carrying each message as the binary section.
pub fn frames_of(messages: &[Bytes]) -> Vec<Frame> {
    messages
        .iter()
        .map(|m| Frame::from_binary(m.clone()))
        .collect()
}

/// Encodes all frames with the frame codec into one buffer.
///
/// # Errors
/// A frame over the codec's limits.
pub fn encode_frames(codec: &mut FrameCodec, frames: &[Frame]) -> Result<BytesMut, BoxError> {
    let total: usize = frames.iter().map(Frame::encoded_len).sum();
    let mut buf = BytesMut::with_capacity(total);
    for f in frames {
        codec.encode(f.clone(), &mut buf)?;
    }
    Ok(buf)
}

/// Encodes all messages with a length-delimited codec into one buffer.
///
/// # Errors
/// A message over the codec's limit.
pub fn encode_length_delimited(
    codec: &mut LengthDelimitedCodec,
    messages: &[Bytes],
) -> Result<BytesMut, BoxError> {
    let total: usize = messages.iter().map(|m| m.len() + 4).sum();
    let mut buf = BytesMut::with_capacity(total);
    for m in messages {
        codec.encode(m.clone(), &mut buf)?;
    }
    Ok(buf)
}

/// Bytes per simulated socket read in the frame decode benches.
pub const READ_CHUNK: usize = 64 * 1024;

/// Decodes every item of `stream` with `codec` as a `FramedRead` over a
/// socket would get it: the bytes arrive in [`READ_CHUNK`] reads appended
/// to one read buffer (the copy a socket read makes), and after each read
/// every complete item is decoded; at the end, `decode_eof`. Each item is
/// owned (split from the read buffer), as a stream hands it on. Returns how
/// many.
///
/// # Errors
/// The codec's.
#[inline(never)] // one call per run; keeps it visible to profilers
pub fn decode_stream<D: Decoder>(codec: &mut D, stream: &[u8]) -> Result<usize, D::Error> {
    // tokio-util's `FramedRead` starts with 8 KiB and grows as needed.
    let mut buf = BytesMut::with_capacity(8 * 1024);
    let mut n = 0;
    for read in stream.chunks(READ_CHUNK) {
        buf.extend_from_slice(read);
        while let Some(item) = codec.decode(&mut buf)? {
            std::hint::black_box(&item);
            n += 1;
        }
    }
    while let Some(item) = codec.decode_eof(&mut buf)? {
        std::hint::black_box(&item);
        n += 1;
    }
    Ok(n)
}

/// Decodes every item in `buf` with `codec`; returns how many.
///
/// # Errors
/// The codec's.
pub fn decode_all<D: Decoder>(codec: &mut D, buf: &mut BytesMut) -> Result<usize, D::Error> {
    let mut n = 0;
    while let Some(item) = codec.decode(buf)? {
        std::hint::black_box(&item);
        n += 1;
    }
    Ok(n)
}

// ------------------------------------------------------------ JTE

/// The JTE packet of the JSON-lines peer: the same fields as
/// [`jte::Packet`], with `data` kept as its JSON text (checked, not
/// parsed), as `jte::Packet` keeps it as its JTOO text.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct JsonPacket {
    /// `command`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// `rpcid`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rpcid: Option<String>,
    /// `resid`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resid: Option<String>,
    /// `timeout`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u64>,
    /// `cont`
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cont: bool,
    /// `error`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// `datatype`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub datatype: Option<String>,
    /// `data`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Box<serde_json::value::RawValue>>,
}

/// The JTE packet stream: the protocol sample (`protocols/jte.jsonl`)
/// repeated to `count` packets, as JTOO frames and as JSON lines.
pub struct JteStream {
    /// How many packets.
    pub count: usize,
    /// The frames, one after the other (`PacketCodec`).
    pub frames: BytesMut,
    /// The JSON lines, `\n`-terminated.
    pub lines: BytesMut,
}

impl JteStream {
    /// Builds the stream.
    ///
    /// # Errors
    /// A missing or invalid sample file.
    pub fn build(count: usize) -> Result<JteStream, BoxError> {
        let path = corpus_dir().join("protocols/jte.jsonl");
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut packets = Vec::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            packets.push(Packet::from_json_slice(line.as_bytes())?);
        }
        if packets.is_empty() {
            return Err("no packets in jte.jsonl".into());
        }
        let mut codec = PacketCodec::new();
        let mut frames = BytesMut::new();
        let mut lines = BytesMut::new();
        for p in packets.iter().cycle().take(count) {
            codec.encode(p.clone(), &mut frames)?;
            lines.extend_from_slice(&p.to_json_vec()?);
            lines.extend_from_slice(b"\n");
        }
        Ok(JteStream {
            count,
            frames,
            lines,
        })
    }

    /// Decodes the frames into packets; returns how many.
    ///
    /// # Errors
    /// A decoding error.
    pub fn decode_frames(buf: &mut BytesMut) -> Result<usize, BoxError> {
        Ok(decode_all(&mut PacketCodec::new(), buf)?)
    }

    /// Splits the JSON lines with tokio-util's `LinesCodec` (a `String`
    /// per line) and deserializes each into a [`JsonPacket`]; returns how
    /// many. The usual way to read JSON lines from a tokio stream.
    ///
    /// # Errors
    /// A decoding error.
    pub fn decode_lines_codec(buf: &mut BytesMut) -> Result<usize, BoxError> {
        let mut codec = LinesCodec::new();
        let mut n = 0;
        while let Some(line) = codec.decode(buf)? {
            let p: JsonPacket = serde_json::from_str(&line)?;
            std::hint::black_box(&p);
            n += 1;
        }
        Ok(n)
    }

    /// Deserializes each JSON line into a [`JsonPacket`] straight from the
    /// buffer, as `PacketCodec` does with frames: find the `\n`, check the
    /// line's UTF-8 in place (no copy) and run `serde_json::from_str` on it
    /// (faster than `from_slice`, which checks UTF-8 string by string),
    /// consume the line; returns how many. This is the JSON-lines peer of
    /// the JTE benchmarks: the cheapest of the obvious ways.
    ///
    /// # Errors
    /// A decoding error.
    pub fn decode_lines(buf: &mut BytesMut) -> Result<usize, BoxError> {
        let mut n = 0;
        while let Some(end) = memchr::memchr(b'\n', buf) {
            let p: JsonPacket = serde_json::from_str(std::str::from_utf8(&buf[..end])?)?;
            std::hint::black_box(&p);
            buf.advance(end + 1);
            n += 1;
        }
        Ok(n)
    }
}

/// `v` without the object members whose value is `null`, at any depth.
pub fn without_null_members(v: serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::Object(map) => serde_json::Value::Object(
            map.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, without_null_members(v)))
                .collect(),
        ),
        serde_json::Value::Array(items) => {
            serde_json::Value::Array(items.into_iter().map(without_null_members).collect())
        }
        other => other,
    }
}

/// Why serde_json, as built into this binary, is not the one applications
/// use, if it is not: `arbitrary_precision` and `preserve_order` (turned on
/// when the workspace is built together with crates that ask for them)
/// make it several times slower and would flatter JTOO.
pub fn serde_json_handicap() -> Option<&'static str> {
    let exact = serde_json::from_str::<serde_json::Value>("0.10000000000000000000001")
        .map(|v| v.to_string())
        .unwrap_or_default();
    if exact == "0.10000000000000000000001" {
        return Some("serde_json was built with `arbitrary_precision`");
    }
    let ordered = serde_json::from_str::<serde_json::Value>(r#"{"b":1,"a":2}"#)
        .ok()
        .and_then(|v| v.as_object().and_then(|m| m.keys().next().cloned()));
    if ordered.as_deref() == Some("b") {
        return Some("serde_json was built with `preserve_order`");
    }
    None
}

/// JSON text without whitespace outside strings.
pub fn minify_json(json: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for &b in json {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            out.push(b);
        } else if !matches!(b, b' ' | b'\t' | b'\r' | b'\n') {
            in_string = b == b'"';
            out.push(b);
        }
    }
    out
}
