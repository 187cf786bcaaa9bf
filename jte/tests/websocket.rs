//! The peer over WebSocket messages (feature `websocket`): calls both ways
//! in binary (JTOO frame) messages, a JSON text message answered in JSON,
//! and a bad message closing the connection.
#![cfg(feature = "websocket")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use futures::{SinkExt, StreamExt};
use jte::{Peer, RpcError, Transport};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{WebSocketStream, accept_async, client_async};

async fn sockets() -> (
    WebSocketStream<tokio::io::DuplexStream>,
    WebSocketStream<tokio::io::DuplexStream>,
) {
    let (a, b) = tokio::io::duplex(1 << 16);
    let (client, server) = tokio::join!(client_async("ws://localhost/jte", a), accept_async(b));
    (client.unwrap().0, server.unwrap())
}

fn add() -> jte::Builder {
    Peer::builder().handle("math:add", |(x, y): (i64, i64)| async move {
        Ok::<_, RpcError>(x + y)
    })
}

#[tokio::test]
async fn calls_both_ways_over_websocket() {
    let (c, s) = sockets().await;
    let client = add().start(Transport::websocket(c));
    let server = add().start(Transport::websocket(s));
    let sum: i64 = client.call("math:add", &(20, 22)).await.unwrap();
    assert_eq!(sum, 42);
    let sum: i64 = server.call("math:add", &(1, 2)).await.unwrap();
    assert_eq!(sum, 3);
    let e = client.call::<_, ()>("nope", &()).await.unwrap_err();
    assert_eq!(e.code(), Some("UNKNOWN"));
}

#[tokio::test]
async fn a_json_text_message_is_answered_in_json() {
    let (mut c, s) = sockets().await;
    let _server = add().start(Transport::websocket(s));
    c.send(Message::Text(
        r#"{"command":"math:add","rpcid":"1","data":[2,3]}"#.into(),
    ))
    .await
    .unwrap();
    let answer = c.next().await.unwrap().unwrap();
    assert_eq!(answer, Message::Text(r#"{"resid":"1","data":5}"#.into()));
    let request = br#"["command":"math:add","rpcid":"2","data":[2,3]]"#;
    let mut frame = format!("{:06x} 000000 ", request.len()).into_bytes();
    frame.extend_from_slice(request);
    frame.extend_from_slice(b" \n");
    c.send(Message::Binary(frame.into())).await.unwrap();
    let answer = c.next().await.unwrap().unwrap();
    assert_eq!(
        answer,
        Message::Binary(
            b"000016 000000 [\"resid\":\"2\",\"data\":5] \n"
                .to_vec()
                .into()
        )
    );
}

#[tokio::test]
async fn a_message_that_is_not_one_frame_closes_the_connection() {
    let (mut c, s) = sockets().await;
    let server = add().start(Transport::websocket(s));
    c.send(Message::Binary(b"not a frame".to_vec().into()))
        .await
        .unwrap();
    let why = server.closed().await;
    assert!(why.contains("transport error"), "{why}");
}
