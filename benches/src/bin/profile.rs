//! Runs one JTOO workload in a loop, for a profiler:
//! `valgrind --tool=callgrind target/release/profile WORKLOAD FILE [RUNS]`.
//!
//! WORKLOAD: `parse`, `validate`, `htoo`, `encode`, `typed-de`, `typed-ser` (FILE is
//! `twitter`, `citm_catalog` or `canada`; `json-parse`, `json-de` and
//! `json-ser` run the serde_json peers of `parse`, `typed-de` and `typed-ser`), `frame-decode`, `frame-decode-ldc`,
//! `frame-encode`, `frame-encode-ldc` (FILE `small` or `large`; `-ldc`: tokio-util's
//! `LengthDelimitedCodec`; a run of `small` is compare's 1,000,000 × 100 B),
//! `jte` (FILE ignored; a run decodes 20,000 packets of compare's JTE stream
//! through `PacketCodec`), `jte-json` (the JSON-lines peer of `jte`,
//! compare's), `jte-lines-codec` (the same through `LinesCodec`); `msg-encode`,
//! `msg-decode` (typed messages through `TypedCodec`, FILE the message
//! count) and their peers `msg-encode-json`, `msg-decode-json` (JSON lines,
//! `from_str`), `msg-decode-json-slice` (`from_slice`), `msg-encode-ldc`,
//! `msg-decode-ldc` (`LengthDelimitedCodec` + serde_json), `msg-encode-frame`,
//! `msg-decode-frame` (the two-pass path: `Frame::from_serde`/`to_serde`
//! around `FrameCodec`); see
//! `benches/callgrind-messages.sh`.
#![forbid(unsafe_code)]

use benches::messages::{self, MessageStreams};
use benches::{
    BoxError, Doc, JsonDe, JteStream, JtooDe, Shape, decode_stream, encode_frames,
    encode_length_delimited, frame_codec, frames_of, length_delimited, typed_from,
};
use bytes::BytesMut;
use std::hint::black_box;
use tokio_util::codec::{Decoder, Encoder};

/// The frame workload's message shape: `large` or (anything else) small.
fn shape_of(file: &str) -> Shape {
    if file == "large" {
        Shape::LARGE
    } else {
        Shape::SMALL
    }
}

fn main() -> Result<(), BoxError> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let what = args.first().map_or("parse", String::as_str);
    let file = args.get(1).map_or("twitter", String::as_str);
    let runs: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(10);
    let doc = || -> Result<Doc, BoxError> {
        let name = benches::FILES
            .iter()
            .find(|f| **f == file)
            .ok_or("unknown file")?;
        Doc::load(name)
    };
    match what {
        "parse" | "validate" | "htoo" | "encode" | "typed-de" | "typed-ser" | "json-parse"
        | "json-de" | "json-ser" => {
            let d = doc()?;
            let model = typed_from(d.name, &d.json, JsonDe)?;
            for _ in 0..runs {
                match what {
                    "parse" => drop(black_box(jtoo::from_slice(&d.jtoo)?)),
                    "validate" => jtoo::validate(black_box(&d.jtoo))?,
                    "htoo" => drop(black_box(htoo::from_str(&d.htoo)?)),
                    "encode" => drop(black_box(jtoo::to_vec(&d.value)?)),
                    "typed-de" => drop(black_box(typed_from(d.name, &d.jtoo, JtooDe)?)),
                    // The serde_json peers, for instruction-count comparisons.
                    "json-parse" => drop(black_box(serde_json::from_slice::<serde_json::Value>(
                        &d.json,
                    )?)),
                    "json-de" => drop(black_box(typed_from(d.name, &d.json, JsonDe)?)),
                    "json-ser" => drop(black_box(model.to_json())),
                    _ => drop(black_box(model.to_jtoo())),
                }
            }
        }
        "frame-decode" => {
            let shape = shape_of(file);
            // The inputs stay alive, as in `frame-decode-ldc`: freeing them
            // before the runs would charge the first run's allocation
            // with consolidating the heap.
            let messages = shape.messages();
            let frames = frames_of(&messages);
            let encoded = encode_frames(&mut frame_codec(shape), &frames)?;
            for _ in 0..runs {
                black_box(decode_stream(&mut frame_codec(shape), &encoded)?);
            }
        }
        "frame-decode-ldc" => {
            let shape = shape_of(file);
            let messages = shape.messages();
            let encoded = encode_length_delimited(&mut length_delimited(shape), &messages)?;
            for _ in 0..runs {
                black_box(decode_stream(&mut length_delimited(shape), &encoded)?);
            }
        }
        "frame-encode" | "frame-encode-ldc" => {
            let shape = shape_of(file);
            let messages = shape.messages();
            let frames = frames_of(&messages);
            for _ in 0..runs {
                if what == "frame-encode" {
                    black_box(encode_frames(&mut frame_codec(shape), &frames)?);
                } else {
                    black_box(encode_length_delimited(
                        &mut length_delimited(shape),
                        &messages,
                    )?);
                }
            }
        }
        "jte" => {
            let s = JteStream::build(20_000)?;
            for _ in 0..runs {
                let mut b = s.frames.clone();
                black_box(JteStream::decode_frames(&mut b)?);
            }
        }
        "jte-json" | "jte-lines-codec" => {
            let s = JteStream::build(20_000)?;
            for _ in 0..runs {
                let mut b = s.lines.clone();
                if what == "jte-json" {
                    black_box(JteStream::decode_lines(&mut b)?);
                } else {
                    black_box(JteStream::decode_lines_codec(&mut b)?);
                }
            }
        }
        w if w.starts_with("msg-") => {
            // FILE is the message count here.
            let count: usize = file.parse().unwrap_or(20_000);
            let s = MessageStreams::build(count)?;
            for _ in 0..runs {
                match w {
                    "msg-encode" => {
                        let mut dst = BytesMut::with_capacity(s.frames.len());
                        let mut codec = jtoo_frame::TypedCodec::new();
                        messages::encode_typed(&mut codec, &s.messages, &mut dst)?;
                        black_box(dst);
                    }
                    "msg-encode-json" => {
                        let mut dst = BytesMut::with_capacity(s.lines.len());
                        messages::encode_json_lines(&s.messages, &mut dst)?;
                        black_box(dst);
                    }
                    "msg-encode-ldc" => {
                        let mut dst = BytesMut::with_capacity(s.delimited.len());
                        let mut codec = messages::length_delimited();
                        messages::encode_length_delimited_json(&mut codec, &s.messages, &mut dst)?;
                        black_box(dst);
                    }
                    // The two-pass path TypedCodec replaces: a `Frame`
                    // (section validated), then `Frame::to_serde`.
                    "msg-encode-frame" => {
                        let mut dst = BytesMut::with_capacity(s.frames.len());
                        let mut codec = jtoo_frame::FrameCodec::new();
                        for m in &s.messages {
                            codec.encode(jtoo_frame::Frame::from_serde(m)?, &mut dst)?;
                        }
                        black_box(dst);
                    }
                    "msg-decode-frame" => {
                        let mut b = s.frames.clone();
                        let mut codec = jtoo_frame::FrameCodec::new();
                        while let Some(f) = codec.decode(&mut b)? {
                            black_box(f.to_serde::<messages::Message>()?);
                        }
                    }
                    "msg-decode" => {
                        black_box(messages::decode_typed(&mut s.frames.clone())?);
                    }
                    "msg-decode-json" => {
                        black_box(messages::decode_json_lines(&mut s.lines.clone())?);
                    }
                    "msg-decode-json-slice" => {
                        black_box(messages::decode_json_lines_from_slice(
                            &mut s.lines.clone(),
                        )?);
                    }
                    "msg-decode-ldc" => {
                        black_box(messages::decode_length_delimited_json(
                            &mut s.delimited.clone(),
                        )?);
                    }
                    _ => return Err(format!("unknown workload {w}").into()),
                }
            }
        }
        _ => return Err(format!("unknown workload {what}").into()),
    }
    Ok(())
}
