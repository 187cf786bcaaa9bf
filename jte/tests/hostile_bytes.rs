//! Arbitrary bytes from the other side, on every socket transport: the
//! peer never panics, never hangs, and either goes on or closes with a
//! reason; an over-long JSON line is refused before it is buffered whole.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jte::{Peer, RpcError, Transport};
use proptest::prelude::*;
use std::time::Duration;
use tokio::io::AsyncWriteExt;

fn peer() -> jte::Builder {
    Peer::builder()
        .max_packet_len(4096)
        .handle("echo", |v: jtoo::Value| async move { Ok::<_, RpcError>(v) })
}

/// Writes `chunks` to a peer on `transport`, then ends the stream; the
/// peer must close within a bound, with a reason.
fn run(frames: bool, chunks: Vec<Vec<u8>>) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        let (x, mut y) = tokio::io::duplex(1 << 16);
        let transport = if frames {
            let accept = tokio::spawn(Transport::accept(x));
            y.write_all(b"000014 000000 [\"protocol\":\"jte/1\"] \n")
                .await
                .unwrap();
            accept.await.unwrap().unwrap().0
        } else {
            Transport::json_lines(x)
        };
        let peer = peer().start(transport);
        for chunk in chunks {
            if y.write_all(&chunk).await.is_err() {
                break;
            }
        }
        drop(y);
        let why = tokio::time::timeout(Duration::from_secs(10), peer.closed())
            .await
            .expect("the peer closes");
        assert!(!why.is_empty());
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn arbitrary_bytes_over_frames(chunks in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..200), 0..8)) {
        run(true, chunks);
    }

    #[test]
    fn arbitrary_bytes_over_json_lines(chunks in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..200), 0..8)) {
        run(false, chunks);
    }

    #[test]
    fn packet_like_lines(lines in prop::collection::vec(
        prop_oneof![
            Just(r#"{"command":"echo","rpcid":"1","data":[1,2]}"#.to_owned()),
            Just(r#"{"resid":"nobody","data":1}"#.to_owned()),
            Just(r#"{"rpcid":"2","cont":true}"#.to_owned()),
            Just(r#"{"command":"echo","rpcid":"3","data":{"a":null}}"#.to_owned()),
            "[ -~]{0,40}",
        ],
        0..20,
    )) {
        let text = lines.join("\n").into_bytes();
        run(false, vec![text]);
    }
}

#[tokio::test]
async fn an_endless_json_line_is_refused_at_the_limit() {
    let (x, mut y) = tokio::io::duplex(1 << 16);
    let peer = peer().start(Transport::json_lines(x));
    let writer = tokio::spawn(async move {
        let chunk = vec![b'x'; 1024];
        // Far more than the 4 KiB limit, never a newline.
        for _ in 0..1024 {
            if y.write_all(&chunk).await.is_err() {
                break;
            }
        }
    });
    let why = peer.closed().await;
    assert!(why.contains("too long") && why.contains("4096"), "{why}");
    writer.abort();
}
