//! The handshake and the codec over real loopback TCP sockets.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use futures::{SinkExt, StreamExt};
use jtoo::Value;
use jtoo_frame::{
    Frame, FrameCodec, FrameError, Greeting, GreetingError, Handshake, HandshakeError,
    UNSUPPORTED_PROTOCOL_REPLY, client_handshake, server_handshake,
};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;
use tokio_util::codec::Encoder;

const P: &str = "test/1";

/// A server that handshakes one connection, echoes its frames, and returns
/// the handshake result (and the number of frames echoed).
async fn one_shot_server(
    hs: Handshake,
) -> (
    SocketAddr,
    JoinHandle<Result<(Greeting, usize), HandshakeError>>,
) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let (socket, _) = listener.accept().await.unwrap();
        let (mut framed, greeting) = hs.server(socket, &[P, "other/2"]).await?;
        let mut n = 0;
        while let Some(Ok(frame)) = framed.next().await {
            framed.send(frame).await.unwrap();
            n += 1;
        }
        Ok((greeting, n))
    });
    (addr, task)
}

fn frame_bytes(frame: &Frame) -> Vec<u8> {
    let mut buf = bytes::BytesMut::new();
    FrameCodec::new().encode(frame.clone(), &mut buf).unwrap();
    buf.to_vec()
}

fn greeting_bytes(jtoo: &str) -> Vec<u8> {
    format!("{:06x} 000000 {jtoo} \n", jtoo.len()).into_bytes()
}

/// Sends raw bytes, then reads everything the server sends until it closes.
async fn raw_exchange(addr: SocketAddr, bytes: &[u8]) -> Vec<u8> {
    let mut s = TcpStream::connect(addr).await.unwrap();
    // The server may reset the connection mid-write; that is fine.
    let _ = s.write_all(bytes).await;
    let _ = s.shutdown().await;
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut out))
        .await
        .expect("the server must close the connection");
    out
}

#[tokio::test]
async fn good_handshake_and_echo() {
    let (addr, server) = one_shot_server(Handshake::new()).await;
    let socket = TcpStream::connect(addr).await.unwrap();
    let greeting = Greeting::new(P)
        .with("id", Value::Bytes(vec![0xc8, 0xfd]))
        .unwrap();
    let mut framed = client_handshake(socket, &greeting).await.unwrap();
    let frame = Frame::from_jtoo(&b"[\"hello\":Y]"[..])
        .unwrap()
        .with_binary(&b"bin\n"[..]);
    framed.send(frame.clone()).await.unwrap();
    assert_eq!(framed.next().await.unwrap().unwrap(), frame);
    drop(framed);
    let (got, n) = server.await.unwrap().unwrap();
    assert_eq!(got, greeting);
    assert_eq!(n, 1);
}

#[tokio::test]
async fn unwrapped_greeting_shape_is_accepted() {
    let (addr, server) = one_shot_server(Handshake::new()).await;
    let mut bytes = greeting_bytes(r#"["nonce":B00,"protocol":"other/2"]"#);
    bytes.extend_from_slice(b"000000 000000  \n");
    let out = raw_exchange(addr, &bytes).await;
    assert_eq!(out, b"000000 000000  \n");
    let (g, n) = server.await.unwrap().unwrap();
    assert_eq!((g.protocol(), n), ("other/2", 1));
}

#[tokio::test]
async fn unsupported_protocol_gets_the_exact_505_reply() {
    let (addr, server) = one_shot_server(Handshake::new()).await;
    let out = raw_exchange(addr, &greeting_bytes(r#"[["protocol":"nope/9"]]"#)).await;
    assert_eq!(out, UNSUPPORTED_PROTOCOL_REPLY);
    assert_eq!(
        out,
        b"00002d 000000 [[\"code\":505,\"error\":\"unsupported protocol\"]] \n"
    );
    match server.await.unwrap() {
        Err(HandshakeError::UnsupportedProtocol(p)) => assert_eq!(p, "nope/9"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn unsupported_protocol_reply_survives_pipelined_frames() {
    let (addr, server) = one_shot_server(Handshake::new()).await;
    let mut bytes = greeting_bytes(r#"[["protocol":"nope/9"]]"#);
    for _ in 0..1000 {
        bytes.extend_from_slice(&frame_bytes(&Frame::from_binary(vec![1u8; 100])));
    }
    let out = raw_exchange(addr, &bytes).await;
    assert_eq!(out, UNSUPPORTED_PROTOCOL_REPLY);
    assert!(server.await.unwrap().is_err());
}

#[tokio::test]
async fn every_greeting_violation_terminates_without_reply() {
    let oversize = {
        let pad = "a".repeat(16 * 1024);
        greeting_bytes(&format!(r#"[["protocol":"{P}","pad":"{pad}"]]"#))
    };
    let exactly_16k_plus_1 = {
        // 16 bytes of framing + a section of 16 KiB - 15.
        let fixed = format!(r#"[["protocol":"{P}","pad":""]]"#).len();
        let pad = "a".repeat(16 * 1024 - 15 - fixed);
        greeting_bytes(&format!(r#"[["protocol":"{P}","pad":"{pad}"]]"#))
    };
    assert_eq!(exactly_16k_plus_1.len(), 16 * 1024 + 1);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "duplicate protocol",
            greeting_bytes(r#"[["protocol":"test/1","protocol":"test/1"]]"#),
        ),
        (
            "duplicate key",
            greeting_bytes(r#"[["protocol":"test/1","id":1,"id":2]]"#),
        ),
        ("missing protocol", greeting_bytes(r#"[["id":1]]"#)),
        (
            "non-string protocol",
            greeting_bytes(r#"[["protocol":B74]]"#),
        ),
        (
            "non-pair item",
            greeting_bytes(r#"[["protocol":"test/1",1]]"#),
        ),
        (
            "non-string key",
            greeting_bytes(r#"[["protocol":"test/1",1:2]]"#),
        ),
        ("too deep", greeting_bytes(r#"[[["protocol":"test/1"]]]"#)),
        ("not a list", greeting_bytes(r#""test/1""#)),
        ("empty", b"000000 000000  \n".to_vec()),
        ("oversize", oversize),
        ("16 KiB + 1", exactly_16k_plus_1),
        (
            "upper-case length",
            b"00001A 000000 [[\"protocol\":\"test/1\"]] \n".to_vec(),
        ),
        (
            "invalid JTOO",
            greeting_bytes(r#"[["protocol":"test/1",]]"#),
        ),
        ("not a frame", b"GET / HTTP/1.1\r\n\r\n".to_vec()),
    ];
    for (name, bytes) in cases {
        let (addr, server) = one_shot_server(Handshake::new()).await;
        let out = raw_exchange(addr, &bytes).await;
        assert!(out.is_empty(), "{name}: the server replied {out:?}");
        let e = server.await.unwrap().expect_err(name);
        assert!(e.is_violation(), "{name}: {e:?}");
    }
}

#[tokio::test]
async fn greeting_of_exactly_16_kib_is_accepted() {
    let fixed = format!(r#"[["protocol":"{P}","pad":""]]"#).len();
    let pad = "a".repeat(16 * 1024 - 16 - fixed);
    let bytes = greeting_bytes(&format!(r#"[["protocol":"{P}","pad":"{pad}"]]"#));
    assert_eq!(bytes.len(), 16 * 1024);
    let (addr, server) = one_shot_server(Handshake::new()).await;
    assert!(raw_exchange(addr, &bytes).await.is_empty());
    assert!(server.await.unwrap().is_ok());
}

#[tokio::test]
async fn bytes_right_after_the_greeting_are_kept() {
    let (addr, server) = one_shot_server(Handshake::new()).await;
    let frames: Vec<Frame> = (0..5)
        .map(|i| {
            Frame::from_value(&Value::from(i))
                .unwrap()
                .with_binary(vec![i as u8; 3])
        })
        .collect();
    // Greeting and frames in one write, so they arrive in one read.
    let mut bytes = Greeting::new(P).to_frame().unwrap().to_bytes().unwrap();
    for f in &frames {
        bytes.extend_from_slice(&frame_bytes(f));
    }
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(&bytes).await.unwrap();
    s.shutdown().await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let expected: Vec<u8> = frames.iter().flat_map(frame_bytes).collect();
    assert_eq!(out, expected);
    assert_eq!(server.await.unwrap().unwrap().1, 5);
}

#[tokio::test]
async fn silent_peer_times_out() {
    let (addr, server) =
        one_shot_server(Handshake::new().timeout(Duration::from_millis(200))).await;
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(b"000010 00").await.unwrap(); // a partial header, then silence
    let start = Instant::now();
    assert!(matches!(
        server.await.unwrap(),
        Err(HandshakeError::Timeout)
    ));
    assert!(start.elapsed() < Duration::from_secs(5));
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out).await;
    assert!(out.is_empty());
}

#[tokio::test]
async fn peer_closing_before_greeting() {
    let (addr, server) = one_shot_server(Handshake::new()).await;
    drop(TcpStream::connect(addr).await.unwrap());
    assert!(matches!(server.await.unwrap(), Err(HandshakeError::Closed)));
}

#[tokio::test]
async fn truncated_greeting_is_a_frame_error() {
    let (addr, server) = one_shot_server(Handshake::new()).await;
    let _ = raw_exchange(addr, b"000010 000000 [").await;
    assert!(matches!(
        server.await.unwrap(),
        Err(HandshakeError::Frame(FrameError::Truncated { .. }))
    ));
}

#[test]
fn greeting_errors_are_typed() {
    assert!(matches!(
        Greeting::from_value(&jtoo::from_str("[[\"a\":1]]").unwrap()),
        Err(GreetingError::MissingProtocol)
    ));
}

#[tokio::test]
async fn oversize_frames_after_handshake_are_rejected_with_bounded_memory() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(async move {
        let (socket, _) = listener.accept().await.unwrap();
        let hs = Handshake::new().codec(*FrameCodec::builder().max_binary_len(1024));
        let (mut framed, _) = hs.server(socket, &[P]).await.unwrap();
        let r = framed.next().await.unwrap();
        (r, framed.read_buffer().capacity())
    });
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(&Greeting::new(P).to_frame().unwrap().to_bytes().unwrap())
        .await
        .unwrap();
    s.write_all(b"000000 ffffff ").await.unwrap();
    let (r, capacity) = server.await.unwrap();
    assert!(matches!(
        r,
        Err(FrameError::TooLong {
            length: 0xff_ffff,
            max: 1024,
            ..
        })
    ));
    assert!(capacity < 64 * 1024, "buffered {capacity}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousand_concurrent_clients_hundred_frames_each() {
    const CLIENTS: usize = 1000;
    const FRAMES: usize = 100;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let start = Instant::now();
    let server = tokio::spawn(async move {
        let mut conns = Vec::with_capacity(CLIENTS);
        for _ in 0..CLIENTS {
            let (socket, _) = listener.accept().await.unwrap();
            conns.push(tokio::spawn(async move {
                let (mut framed, greeting) = server_handshake(socket, &[P])
                    .await
                    .map_err(|e| format!("server handshake: {e}"))?;
                let id = greeting.get("client").and_then(Value::as_u64);
                let mut n = 0;
                while let Some(frame) = framed.next().await {
                    let frame = frame.map_err(|e| format!("server read: {e}"))?;
                    // Frames come from the client the greeting named.
                    let v = frame.value().unwrap().unwrap();
                    if v.get("client").and_then(Value::as_u64) != id {
                        return Err("misattributed frame".to_string());
                    }
                    framed
                        .send(frame)
                        .await
                        .map_err(|e| format!("server write: {e}"))?;
                    n += 1;
                }
                Ok::<usize, String>(n)
            }));
        }
        let mut total = 0;
        for c in conns {
            total += c.await.unwrap().unwrap();
        }
        total
    });
    // All clients stay connected until every one has finished its exchange;
    // the connects are spread a little so the accept queue never overflows.
    let connecting = std::sync::Arc::new(tokio::sync::Semaphore::new(200));
    let mut clients = Vec::with_capacity(CLIENTS);
    for id in 0..CLIENTS {
        let connecting = connecting.clone();
        clients.push(tokio::spawn(async move {
            let permit = connecting.acquire_owned().await.unwrap();
            let socket = TcpStream::connect(addr).await.unwrap();
            let greeting = Greeting::new(P).with("client", Value::from(id)).unwrap();
            let mut framed = client_handshake(socket, &greeting).await.unwrap();
            drop(permit);
            let sent: Vec<Frame> = (0..FRAMES)
                .map(|seq| {
                    let v: Value = [("client", Value::from(id)), ("seq", Value::from(seq))]
                        .into_iter()
                        .collect();
                    Frame::from_value(&v)
                        .unwrap()
                        .with_binary(format!("{id}/{seq}").into_bytes())
                })
                .collect();
            for f in &sent {
                framed.feed(f.clone()).await.unwrap();
            }
            SinkExt::<Frame>::flush(&mut framed).await.unwrap();
            for f in &sent {
                assert_eq!(&framed.next().await.unwrap().unwrap(), f);
            }
            framed
        }));
    }
    let mut open = Vec::with_capacity(CLIENTS);
    for c in clients {
        open.push(c.await.unwrap());
    }
    let exchanged = start.elapsed();
    drop(open);
    let echoed = server.await.unwrap();
    assert_eq!(echoed, CLIENTS * FRAMES);
    eprintln!("{CLIENTS} clients x {FRAMES} frames: {exchanged:?}");
}
