//! The peer over WebSocket messages (feature `websocket`): calls both ways
//! in binary (JTOO frame) messages, a JSON text message answered in JSON,
//! a refused message answered alone, an oversize answer refused to its
//! caller (`ECTOOLARGE`), and broken framing closing with a Close code.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use futures::{SinkExt, StreamExt};
use jte::{Peer, RpcError, Transport};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::{WebSocketStream, accept_async, accept_async_with_config, client_async};

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

/// The next message that is not a ping or pong.
async fn next(c: &mut WebSocketStream<tokio::io::DuplexStream>) -> Message {
    loop {
        match c.next().await.unwrap().unwrap() {
            Message::Ping(_) | Message::Pong(_) => {}
            m => return m,
        }
    }
}

/// Waits for `peer` to close, failing (instead of hanging) after 10 s.
async fn closed(peer: &Peer) -> std::sync::Arc<str> {
    tokio::time::timeout(Duration::from_secs(10), peer.closed())
        .await
        .expect("the peer did not close")
}

#[tokio::test]
async fn a_message_that_is_not_one_frame_closes_with_1007() {
    let (mut c, s) = sockets().await;
    let server = add().start(Transport::websocket(s));
    c.send(Message::Binary(b"not a frame".to_vec().into()))
        .await
        .unwrap();
    let why = closed(&server).await;
    assert!(why.contains("transport error"), "{why}");
    let Message::Close(Some(frame)) = next(&mut c).await else {
        panic!("no Close frame with a code");
    };
    assert_eq!(frame.code, CloseCode::Invalid);
    assert!(frame.reason.contains("frame"), "{}", frame.reason);
}

#[tokio::test]
async fn a_message_over_the_limit_closes_with_1009() {
    for config in [None, Some(Transport::websocket_config(1024))] {
        let (a, b) = tokio::io::duplex(1 << 16);
        let (client, server) = tokio::join!(
            client_async("ws://localhost/jte", a),
            accept_async_with_config(b, config)
        );
        let mut c = client.unwrap().0;
        let server = add()
            .max_packet_len(1024)
            .start(Transport::websocket(server.unwrap()));
        let text = format!(r#"{{"command":"math:add","data":"{}"}}"#, "x".repeat(2000));
        c.send(Message::Text(text.into())).await.unwrap();
        closed(&server).await;
        let Message::Close(Some(frame)) = next(&mut c).await else {
            panic!("no Close frame with a code");
        };
        assert_eq!(frame.code, CloseCode::Size, "{config:?}");
        assert!(!frame.reason.is_empty());
    }
}

#[tokio::test]
async fn the_handshake_helpers_set_the_websocket_limits() {
    let (a, b) = tokio::io::duplex(1 << 16);
    let (client, server) = tokio::join!(
        Transport::connect_websocket("ws://localhost/jte", a, 1 << 20),
        Transport::accept_websocket(b, 1024)
    );
    // The peer's own limit is the default 1 MiB: only the WebSocket
    // layer's limit, set at the handshake, refuses a 4 KB message.
    let server = add().start(server.unwrap());
    let client = Peer::builder().start(client.unwrap());
    let sum: i64 = client.call("math:add", &(1, 2)).await.unwrap();
    assert_eq!(sum, 3);
    let e = client
        .call::<_, i64>("math:add", &("x".repeat(4000), 1))
        .await
        .unwrap_err();
    assert!(e.is_closed(), "{e}");
    let why = closed(&server).await;
    assert!(why.contains("Message too long: 4116 > 1040"), "{why}");
}

#[tokio::test]
async fn a_refused_message_is_answered_and_the_connection_goes_on() {
    let (mut c, s) = sockets().await;
    let server = add().start(Transport::websocket(s));
    c.send(Message::Text(
        r#"{"command":"math:add","rpcid":"n","data":[1,null]}"#.into(),
    ))
    .await
    .unwrap();
    let Message::Text(answer) = next(&mut c).await else {
        panic!("not a text answer");
    };
    assert!(
        answer.starts_with(r#"{"resid":"n","error":"ECINVALID: "#),
        "{answer}"
    );
    let bad = br#"["command":"math:add","rpcid":"t","timeout":"soon"]"#;
    let mut frame = format!("{:06x} 000000 ", bad.len()).into_bytes();
    frame.extend_from_slice(bad);
    frame.extend_from_slice(b" \n");
    c.send(Message::Binary(frame.into())).await.unwrap();
    let Message::Binary(answer) = next(&mut c).await else {
        panic!("not a binary answer");
    };
    let answer = String::from_utf8_lossy(&answer).into_owned();
    assert!(
        answer.contains(r#"["resid":"t","error":"ECINVALID: "#),
        "{answer}"
    );
    c.send(Message::Text(
        r#"{"command":"math:add","rpcid":"ok","data":[1,2]}"#.into(),
    ))
    .await
    .unwrap();
    assert_eq!(
        next(&mut c).await,
        Message::Text(r#"{"resid":"ok","data":3}"#.into())
    );
    assert_eq!(server.stats().invalid_packets, 2);
    assert!(server.closed_reason().is_none());
}

fn big() -> jte::Builder {
    add().max_packet_len(1024).handle(
        "big",
        |n: usize| async move { Ok::<_, RpcError>("x".repeat(n)) },
    )
}

#[tokio::test]
async fn an_oversize_answer_is_refused_to_its_caller_and_the_connection_goes_on() {
    let (c, s) = sockets().await;
    let client = add().max_packet_len(1024).start(Transport::websocket(c));
    let server = big().start(Transport::websocket(s));
    for _ in 0..3 {
        let e = client.call::<_, String>("big", &2000).await.unwrap_err();
        assert_eq!(e.code(), Some("TOOLARGE"), "{e}");
        let sum: i64 = client.call("math:add", &(1, 2)).await.unwrap();
        assert_eq!(sum, 3);
    }
    // An outgoing request over the limit fails its call alone too.
    let e = client
        .call::<_, String>("big", &"x".repeat(2000))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Some("TOOLARGE"), "{e}");
    let sum: i64 = client.call("math:add", &(2, 2)).await.unwrap();
    assert_eq!(sum, 4);
    // The server sees the client leave.
    drop(client);
    let why = closed(&server).await;
    assert!(!why.is_empty());
}

#[tokio::test]
async fn an_oversize_json_answer_is_refused_in_json() {
    let (mut c, s) = sockets().await;
    let server = big().start(Transport::websocket(s));
    c.send(Message::Text(
        r#"{"command":"big","rpcid":"b","data":2000}"#.into(),
    ))
    .await
    .unwrap();
    let Message::Text(answer) = next(&mut c).await else {
        panic!("not a text answer");
    };
    assert!(
        answer.starts_with(r#"{"resid":"b","error":"ECTOOLARGE: "#),
        "{answer}"
    );
    drop(c);
    closed(&server).await;
}
