//! Criterion benches of the frame codec (1,000,000 × 100 B and 2,000 ×
//! 64 KiB messages) beside tokio-util's `LengthDelimitedCodec`, and of JTE
//! packets over frames beside JSON lines with serde_json.
//!
//! `cargo bench -p benches --bench frame [-- FILTER]`
#![forbid(unsafe_code)]
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use benches::{
    JteStream, Shape, decode_stream, encode_frames, encode_length_delimited, frame_codec,
    frames_of, length_delimited,
};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};

fn frames(c: &mut Criterion) {
    for (name, shape) in [("1M x 100B", Shape::SMALL), ("2000 x 64KiB", Shape::LARGE)] {
        let messages = shape.messages();
        let frames = frames_of(&messages);
        let encoded = encode_frames(&mut frame_codec(shape), &frames).unwrap();
        let delimited = encode_length_delimited(&mut length_delimited(shape), &messages).unwrap();
        let mut g = c.benchmark_group(format!("frame/{name}"));
        g.sample_size(10);
        g.throughput(Throughput::Bytes(shape.bytes()));
        // As from a socket: 64 KiB reads appended to a read buffer.
        g.bench_function("decode jtoo-frame", |b| {
            b.iter(|| decode_stream(&mut frame_codec(shape), &encoded).unwrap())
        });
        g.bench_function("decode LengthDelimitedCodec", |b| {
            b.iter(|| decode_stream(&mut length_delimited(shape), &delimited).unwrap())
        });
        g.bench_function("encode jtoo-frame", |b| {
            b.iter(|| encode_frames(&mut frame_codec(shape), &frames).unwrap())
        });
        g.bench_function("encode LengthDelimitedCodec", |b| {
            b.iter(|| encode_length_delimited(&mut length_delimited(shape), &messages).unwrap())
        });
        g.finish();
    }
}

fn jte(c: &mut Criterion) {
    let s = JteStream::build(100_000).expect("protocols/jte.jsonl");
    let mut g = c.benchmark_group("jte/100k packets");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(s.frames.len() as u64));
    g.bench_function("frames + Packet", |b| {
        b.iter_batched_ref(
            || s.frames.clone(),
            |buf| JteStream::decode_frames(buf).unwrap(),
            BatchSize::PerIteration,
        )
    });
    g.throughput(Throughput::Bytes(s.lines.len() as u64));
    g.bench_function("JSON lines + serde_json", |b| {
        b.iter_batched_ref(
            || s.lines.clone(),
            |buf| JteStream::decode_lines(buf).unwrap(),
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

criterion_group!(benches, frames, jte);
criterion_main!(benches);
