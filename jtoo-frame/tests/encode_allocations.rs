//! `TypedCodec` serializes a message straight into the write buffer: once
//! the buffer has room, sending allocates nothing (no scratch buffer, no
//! copy, no growth), counted by dhat's allocator in this test binary.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use bytes::{Bytes, BytesMut};
use jtoo_frame::{TypedCodec, WithBinary};
use serde::Serialize;
use tokio_util::codec::Encoder;

// dhat's allocator counts every allocation of this test binary.
#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

#[derive(Serialize)]
struct Msg<'a> {
    id: u64,
    name: &'a str,
    tags: [&'a str; 2],
    score: f64,
}

#[test]
fn sending_into_a_buffer_with_room_allocates_nothing() {
    let mut codec = TypedCodec::<(), Msg<'_>>::new();
    let mut binary_codec = TypedCodec::<(), WithBinary<Msg<'_>>>::new();
    let binary = Bytes::from_static(b"\x00\x01\x02");
    let mut dst = BytesMut::with_capacity(64 * 1024);
    let _profiler = dhat::Profiler::builder().testing().build();
    let before = dhat::HeapStats::get().total_blocks;
    for id in 0..200 {
        let m = Msg {
            id,
            name: "user \"é\"",
            tags: ["a", "b\\c"],
            score: id as f64 / 8.0,
        };
        codec.encode(&m, &mut dst).unwrap();
        binary_codec
            .encode(WithBinary::new(m, binary.clone()), &mut dst)
            .unwrap();
    }
    assert_eq!(dhat::HeapStats::get().total_blocks - before, 0);
    assert!(dst.len() > 10_000 && dst.len() < 64 * 1024);
}
