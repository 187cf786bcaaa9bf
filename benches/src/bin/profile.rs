//! Runs one JTOO workload in a loop, for a profiler:
//! `valgrind --tool=callgrind target/release/profile WORKLOAD FILE [RUNS]`.
//!
//! WORKLOAD: `parse`, `validate`, `htoo`, `encode`, `typed-de`, `typed-ser` (FILE is
//! `twitter`, `citm_catalog` or `canada`; `json-parse`, `json-de` and
//! `json-ser` run the serde_json peers of `parse`, `typed-de` and `typed-ser`), `frame-decode`, `frame-decode-ldc`,
//! `frame-encode`, `frame-encode-ldc` (FILE `small` or `large`; `-ldc`: tokio-util's
//! `LengthDelimitedCodec`), `jte` (FILE ignored), `jte-json` (the JSON-lines peer of `jte`),
//! `jte-lines-codec` (the same through `LinesCodec`).
#![forbid(unsafe_code)]

use benches::{
    BoxError, Doc, JsonDe, JteStream, JtooDe, Shape, decode_stream, encode_frames,
    encode_length_delimited, frame_codec, frames_of, length_delimited, typed_from,
};
use std::hint::black_box;

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
        _ => return Err(format!("unknown workload {what}").into()),
    }
    Ok(())
}
