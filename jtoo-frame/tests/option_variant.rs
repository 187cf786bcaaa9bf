//! `enum Response { Value(Option<T>), … }` over `TypedCodec`: `Value(None)`
//! travels as `["Value"]` (jtoo-serde leaves the payload out, as it does a
//! `None` field) and arrives as `Value(None)`. A value JTOO cannot hold is
//! `FrameError::Encode` from the sender's `send`, with nothing written.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use bytes::BytesMut;
use futures::{SinkExt, StreamExt};
use jtoo_frame::{FrameError, TypedCodec};
use serde::{Deserialize, Serialize};
use tokio_util::codec::{Decoder, Encoder, Framed};

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Response<T> {
    Value(Option<T>),
    Missing,
    Error(String),
}

#[test]
fn value_none_is_a_frame_and_reads_back() {
    let mut codec = TypedCodec::<Response<u32>>::new();
    let mut buf = BytesMut::new();
    for r in [
        Response::Value(None),
        Response::Value(Some(7)),
        Response::Missing,
        Response::Error("e".into()),
    ] {
        codec.encode(r.clone(), &mut buf).unwrap();
        assert_eq!(codec.decode(&mut buf).unwrap(), Some(r));
        assert!(buf.is_empty());
    }
    // The frame's JTOO section is the payload-less form.
    codec.encode(Response::Value(None), &mut buf).unwrap();
    let text = String::from_utf8_lossy(&buf).into_owned();
    assert!(text.contains(r#" ["Value"] "#), "{text:?}");
}

#[tokio::test]
async fn value_none_over_a_connection() {
    let (a, b) = tokio::io::duplex(4096);
    let mut server = Framed::new(a, TypedCodec::<Vec<u8>, Response<Vec<u8>>>::new());
    let mut client = Framed::new(b, TypedCodec::<Response<Vec<u8>>, Vec<u8>>::new());
    client.send(vec![1u8]).await.unwrap();
    assert_eq!(server.next().await.unwrap().unwrap(), vec![1]);
    server.send(Response::Value(None)).await.unwrap();
    server.send(Response::Value(Some(vec![2]))).await.unwrap();
    assert_eq!(client.next().await.unwrap().unwrap(), Response::Value(None));
    assert_eq!(
        client.next().await.unwrap().unwrap(),
        Response::Value(Some(vec![2]))
    );
}

#[tokio::test]
async fn an_encode_error_is_returned_to_the_sender() {
    let (a, b) = tokio::io::duplex(4096);
    let mut server = Framed::new(a, TypedCodec::<(), Vec<Option<u8>>>::new());
    let mut client = Framed::new(b, TypedCodec::<Vec<Option<u8>>, ()>::new());
    // `None` in a list has no JTOO form: `send` says so, and writes nothing.
    match server.send(vec![Some(1), None]).await {
        Err(FrameError::Encode(e)) => {
            assert!(e.to_string().starts_with("JTOO has no null"), "{e}")
        }
        other => panic!("expected an encode error, got {other:?}"),
    }
    // The connection is still usable: the next message arrives intact.
    server.send(vec![Some(3)]).await.unwrap();
    assert_eq!(client.next().await.unwrap().unwrap(), vec![Some(3)]);
}
