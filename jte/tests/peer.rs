//! The RPC peer over in-memory duplex pipes and loopback TCP: calls,
//! streams both ways, notifications, errors, timeouts (paused time),
//! cancellation, symmetric load, and hostile peers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use futures::{SinkExt, StreamExt};
use jte::{Builder, Capabilities, Packet, PacketCodec, Peer, Policy, RpcError, Transport};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};
use tokio_util::codec::Framed;

/// `v` as a packet's `data`.
fn data<T: Serialize>(v: T) -> jtoo_serde::RawBuf {
    jtoo_serde::to_raw(&v).unwrap()
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct SetStyle {
    color: u8,
    bold: bool,
}

/// The handlers both sides get in most tests.
fn handlers(b: Builder) -> Builder {
    b.handle("math:add", |(x, y): (i64, i64)| async move {
        Ok::<_, RpcError>(x + y)
    })
    .handle("term:setstyle", |s: SetStyle| async move {
        Ok::<_, RpcError>(format!("color {} bold {}", s.color, s.bold))
    })
    .handle("fail", |code: String| async move {
        Err::<(), _>(RpcError::new(code, "it failed"))
    })
    .handle("sleep", |ms: u64| async move {
        tokio::time::sleep(Duration::from_millis(ms)).await;
        Ok::<_, RpcError>(ms)
    })
    .handle_stream("count", |n: u64| {
        futures::stream::iter((0..n).map(Ok::<_, RpcError>))
    })
    .handle_requests("sum", |reqs: jte::Requests<i64>| async move {
        let mut total = 0;
        let mut reqs = std::pin::pin!(reqs);
        while let Some(r) = reqs.next().await {
            total += r?;
        }
        Ok::<_, RpcError>(total)
    })
}

/// Two peers over JTOO frames on an in-memory pipe, after the handshake.
async fn frame_pair(a: Builder, b: Builder) -> (Peer, Peer) {
    let (x, y) = tokio::io::duplex(1 << 16);
    let (client, server) = tokio::join!(Transport::connect(x), Transport::accept(y));
    let (server, greeting) = server.unwrap();
    assert_eq!(greeting.protocol(), "jte/1");
    (a.start(client.unwrap()), b.start(server))
}

fn json_pair(a: Builder, b: Builder) -> (Peer, Peer) {
    let (x, y) = tokio::io::duplex(1 << 16);
    (
        a.start(Transport::json_lines(x)),
        b.start(Transport::json_lines(y)),
    )
}

async fn exercise(client: &Peer) {
    let sum: i64 = client.call("math:add", &(2, 40)).await.unwrap();
    assert_eq!(sum, 42);
    let styled: String = client
        .call(
            "term:setstyle",
            &SetStyle {
                color: 31,
                bold: true,
            },
        )
        .await
        .unwrap();
    assert_eq!(styled, "color 31 bold true");
    let e = client.call::<_, ()>("fail", "NOTFOUND").await.unwrap_err();
    assert_eq!(e.code(), Some("NOTFOUND"));
    assert_eq!(e.to_string(), "remote error: ECNOTFOUND: it failed");
    let e = client.call::<_, ()>("nope", &()).await.unwrap_err();
    assert_eq!(e.code(), Some("UNKNOWN"));
    let e = client
        .call::<_, i64>("math:add", "not a pair")
        .await
        .unwrap_err();
    assert_eq!(e.code(), Some("INVALID"), "{e}");
    let counted: Vec<u64> = client
        .call_stream::<_, u64>("count", &5u64)
        .await
        .unwrap()
        .map(Result::unwrap)
        .collect()
        .await;
    assert_eq!(counted, [0, 1, 2, 3, 4]);
    let empty: Vec<Result<u64, _>> = client
        .call_stream("count", &0u64)
        .await
        .unwrap()
        .collect()
        .await;
    assert!(empty.is_empty());
    let total: i64 = client
        .call_with_requests("sum", futures::stream::iter(1..=100i64))
        .await
        .unwrap();
    assert_eq!(total, 5050);
    let total: i64 = client
        .call_with_requests("sum", futures::stream::iter(Vec::<i64>::new()))
        .await
        .unwrap();
    assert_eq!(total, 0);
    let caps = client.detect().await.unwrap();
    for c in ["math:add", "term:setstyle", "count", "sum", "detect"] {
        assert!(caps.supports(c), "{c} in {caps:?}");
    }
    assert!(!caps.supports("file:read"));
}

#[tokio::test]
async fn frames_calls_streams_errors_and_detect_both_ways() {
    let (a, b) = frame_pair(handlers(Peer::builder()), handlers(Peer::builder())).await;
    exercise(&a).await;
    exercise(&b).await;
}

#[tokio::test]
async fn json_lines_calls_streams_errors_and_detect_both_ways() {
    let (a, b) = json_pair(handlers(Peer::builder()), handlers(Peer::builder()));
    exercise(&a).await;
    exercise(&b).await;
}

#[tokio::test]
async fn loopback_tcp() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(async move {
        let (socket, _) = listener.accept().await.unwrap();
        let (transport, _) = Transport::accept(socket).await.unwrap();
        let peer = handlers(Peer::builder()).start(transport);
        peer.closed().await
    });
    let socket = tokio::net::TcpStream::connect(addr).await.unwrap();
    let client = handlers(Peer::builder()).start(Transport::connect(socket).await.unwrap());
    exercise(&client).await;
    drop(client);
    let why = server.await.unwrap();
    assert_eq!(&*why, "the other side closed the connection");
}

#[tokio::test]
async fn notifications_run_without_an_answer() {
    let seen = Arc::new(AtomicUsize::new(0));
    let (tx, mut rx) = tokio::sync::mpsc::channel(4);
    let s = Arc::clone(&seen);
    let server = Peer::builder().handle("event:mouseclick", move |pos: (u32, u32)| {
        let s = Arc::clone(&s);
        let tx = tx.clone();
        async move {
            s.fetch_add(1, Ordering::SeqCst);
            tx.send(pos).await.unwrap();
            Ok::<_, RpcError>(())
        }
    });
    let (client, _server) = json_pair(Peer::builder(), server);
    client
        .notify("event:mouseclick", &(10u32, 20u32))
        .await
        .unwrap();
    client.notify("event:unknown", &1).await.unwrap();
    assert_eq!(rx.recv().await, Some((10, 20)));
    // A call after the notifications: by then both were read.
    client.detect().await.unwrap();
    assert_eq!(seen.load(Ordering::SeqCst), 1);
    assert_eq!(_server.stats().stray_packets, 1);
    assert_eq!(client.stats().late_responses, 0);
}

#[tokio::test(start_paused = true)]
async fn caller_timeout_is_sent_and_honoured_by_the_callee() {
    let dropped = Arc::new(AtomicUsize::new(0));
    let d = Arc::clone(&dropped);
    struct OnDrop(Arc<AtomicUsize>);
    impl Drop for OnDrop {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    let server = Peer::builder().handle("slow", move |()| {
        let guard = OnDrop(Arc::clone(&d));
        async move {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            drop(guard);
            Ok::<_, RpcError>(())
        }
    });
    let (client, server) = frame_pair(Peer::builder(), server).await;
    let start = tokio::time::Instant::now();
    let e = client
        .with_timeout(Some(Duration::from_millis(500)))
        .call::<_, ()>("slow", &())
        .await
        .unwrap_err();
    let took = start.elapsed();
    assert_eq!(e.code(), Some("TIMEOUT"), "{e}");
    // Paused time: the timeout fires at its value, within 10%.
    assert!(
        took >= Duration::from_millis(500) && took <= Duration::from_millis(550),
        "{took:?}"
    );
    // The callee got the timeout and dropped the handler.
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(dropped.load(Ordering::SeqCst), 1);
    // Its late ECTIMEOUT answer was discarded and counted.
    client.detect().await.unwrap();
    assert_eq!(client.stats().late_responses, 1);
    drop(server);
}

#[tokio::test(start_paused = true)]
async fn callee_default_timeout_applies_to_requests_without_one() {
    let server = handlers(Peer::builder().default_timeout(Some(Duration::from_secs(2))));
    let client = Peer::builder().default_timeout(None);
    let (client, _server) = json_pair(client, server);
    let e = client
        .call::<_, u64>("sleep", &10_000u64)
        .await
        .unwrap_err();
    assert_eq!(e.code(), Some("TIMEOUT"));
    assert!(e.to_string().contains("handler ran over 2000 ms"), "{e}");
    let ok: u64 = client.call("sleep", &1_000u64).await.unwrap();
    assert_eq!(ok, 1_000);
}

#[tokio::test(start_paused = true)]
async fn dropped_calls_are_forgotten_and_late_answers_counted() {
    let (client, _server) = frame_pair(Peer::builder(), handlers(Peer::builder())).await;
    let call = client.call::<_, u64>("sleep", &1_000u64);
    assert!(
        tokio::time::timeout(Duration::from_millis(10), call)
            .await
            .is_err()
    );
    let mut stream = client
        .call_stream::<_, u64>("count", &1_000u64)
        .await
        .unwrap();
    assert_eq!(stream.next().await.unwrap().unwrap(), 0);
    drop(stream);
    tokio::time::sleep(Duration::from_secs(2)).await;
    // The sleeper's answer and the rest of the stream were discarded.
    let late = client.stats().late_responses;
    assert!(late >= 1, "{late}");
    // And never reached another call.
    let sum: i64 = client.call("math:add", &(1, 1)).await.unwrap();
    assert_eq!(sum, 2);
}

#[tokio::test]
async fn an_unread_stream_overflows_alone() {
    let client = Peer::builder()
        .max_buffered(8)
        .stall_timeout(Duration::from_millis(100));
    let (client, _server) = json_pair(client, handlers(Peer::builder()));
    let mut stream = client
        .call_stream::<_, u64>("count", &100_000u64)
        .await
        .unwrap();
    // While the stream is unread, other calls still work.
    for i in 0..10 {
        let sum: i64 = client.call("math:add", &(i, 1)).await.unwrap();
        assert_eq!(sum, i + 1);
    }
    let mut got = 0;
    let end = loop {
        match stream.next().await {
            Some(Ok(_)) => got += 1,
            Some(Err(e)) => break e,
            None => panic!("the stream cannot have ended"),
        }
    };
    assert_eq!(end.code(), Some("OVERFLOW"), "{end}");
    assert!(got <= 8, "{got}");
}

#[tokio::test]
async fn closing_resolves_every_pending_call() {
    let (client, server) = json_pair(Peer::builder(), handlers(Peer::builder()));
    let calls: Vec<_> = (0..50)
        .map(|_| {
            let c = client.clone();
            tokio::spawn(async move { c.call::<_, u64>("sleep", &60_000u64).await })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(50)).await;
    server.close();
    for call in calls {
        let e = call.await.unwrap().unwrap_err();
        assert!(e.is_closed(), "{e}");
    }
    let e = client
        .call::<_, i64>("math:add", &(1, 2))
        .await
        .unwrap_err();
    assert!(e.is_closed());
    assert_eq!(
        &*client.closed().await,
        "the other side closed the connection"
    );
}

#[tokio::test]
async fn policy_denies_and_detect_lists_only_what_is_allowed() {
    let server = handlers(Peer::builder()).policy(Policy::deny_all().allow("math:*"));
    let (client, server) = json_pair(Peer::builder(), server);
    let sum: i64 = client.call("math:add", &(1, 2)).await.unwrap();
    assert_eq!(sum, 3);
    let e = client.call::<_, u64>("count", &1u64).await.unwrap_err();
    assert_eq!(e.code(), Some("DENIED"));
    let caps = client.detect().await.unwrap();
    assert_eq!(caps, Capabilities::from_commands(["math:add", "detect"]));
    assert_eq!(server.stats().denied, 1);
}

#[tokio::test]
async fn busy_when_too_many_handlers_run() {
    let (started_tx, mut started) = tokio::sync::mpsc::channel(2);
    let (release_tx, release) = tokio::sync::watch::channel(false);
    let server = handlers(Peer::builder())
        .max_handlers_in_flight(2)
        .handle("hold", move |()| {
            let started_tx = started_tx.clone();
            let mut release = release.clone();
            async move {
                started_tx.send(()).await.unwrap();
                let _ = release.wait_for(|r| *r).await;
                Ok::<_, RpcError>(())
            }
        });
    let (client, _server) = json_pair(Peer::builder(), server);
    let held: Vec<_> = (0..2)
        .map(|_| {
            let c = client.clone();
            tokio::spawn(async move { c.call::<_, ()>("hold", &()).await })
        })
        .collect();
    // Both handlers are running.
    started.recv().await.unwrap();
    started.recv().await.unwrap();
    let e = client
        .call::<_, i64>("math:add", &(1, 2))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Some("BUSY"));
    release_tx.send_replace(true);
    for h in held {
        h.await.unwrap().unwrap();
    }
    let sum: i64 = client.call("math:add", &(1, 2)).await.unwrap();
    assert_eq!(sum, 3);
}

/// 1,000 calls from each side at once, 100 of them streams of 100
/// responses: every response reaches its own caller exactly once.
async fn load(a: Peer, b: Peer) {
    async fn side(peer: Peer, tag: i64) {
        let mut tasks = Vec::new();
        for i in 0..1_000i64 {
            let p = peer.clone();
            tasks.push(tokio::spawn(async move {
                if i % 10 == 0 {
                    let got: Vec<u64> = p
                        .call_stream::<_, u64>("count", &100u64)
                        .await
                        .unwrap()
                        .map(Result::unwrap)
                        .collect()
                        .await;
                    assert_eq!(got, (0..100).collect::<Vec<_>>());
                } else {
                    let sum: i64 = p.call("math:add", &(tag, i)).await.unwrap();
                    assert_eq!(sum, tag + i);
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
    }
    tokio::join!(side(a.clone(), 1_000_000), side(b.clone(), 2_000_000));
    assert_eq!(a.stats().late_responses, 0);
    assert_eq!(b.stats().late_responses, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_over_frames() {
    let (a, b) = frame_pair(handlers(Peer::builder()), handlers(Peer::builder())).await;
    load(a, b).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn load_over_json_lines() {
    let (a, b) = json_pair(handlers(Peer::builder()), handlers(Peer::builder()));
    load(a, b).await;
}

// ---- hostile peers: raw bytes against a real peer ----

/// A peer on one end; the raw other end for the test to play the hostile
/// side.
async fn hostile_frames(b: Builder) -> (Peer, DuplexStream) {
    let (x, mut y) = tokio::io::duplex(1 << 16);
    let accept = tokio::spawn(Transport::accept(x));
    y.write_all(b"000014 000000 [\"protocol\":\"jte/1\"] \n")
        .await
        .unwrap();
    let (transport, _) = accept.await.unwrap().unwrap();
    (b.start(transport), y)
}

#[tokio::test]
async fn garbage_closes_with_a_clear_error_and_fails_pending_calls() {
    let (peer, mut raw) = hostile_frames(handlers(Peer::builder())).await;
    let pending = {
        let p = peer.clone();
        tokio::spawn(async move { p.call::<_, ()>("anything", &()).await })
    };
    // Read the request the peer sent, so we know the call is pending.
    let mut buf = [0u8; 256];
    let n = raw.read(&mut buf).await.unwrap();
    assert!(buf[..n].starts_with(b"0000"));
    raw.write_all(b"hello, this is not a frame\n")
        .await
        .unwrap();
    let e = pending.await.unwrap().unwrap_err();
    assert!(e.is_closed(), "{e}");
    let why = peer.closed().await;
    assert!(why.contains("closed after a transport error"), "{why}");
}

#[tokio::test]
async fn a_declared_16_mib_packet_is_refused_before_it_is_buffered() {
    let (peer, mut raw) = hostile_frames(Peer::builder()).await;
    raw.write_all(b"ffffff 000000 [").await.unwrap();
    let why = peer.closed().await;
    assert!(why.contains("too long") || why.contains("maximum"), "{why}");
}

#[tokio::test]
async fn a_packet_over_the_limit_closes_the_connection() {
    let (peer, mut raw) = hostile_frames(Peer::builder().max_packet_len(64)).await;
    let big = Packet::command("x").with_data(data("y".repeat(100)));
    let mut codec = PacketCodec::new();
    let mut buf = bytes::BytesMut::new();
    tokio_util::codec::Encoder::encode(&mut codec, big, &mut buf).unwrap();
    raw.write_all(&buf).await.unwrap();
    let why = peer.closed().await;
    assert!(why.contains("64"), "{why}");
}

#[tokio::test]
async fn truncated_packet_then_eof() {
    let (peer, mut raw) = hostile_frames(Peer::builder()).await;
    raw.write_all(b"00001d 000000 [\"command\":\"te")
        .await
        .unwrap();
    raw.shutdown().await.unwrap();
    drop(raw);
    let why = peer.closed().await;
    assert!(
        why.contains("truncated") || why.contains("transport error"),
        "{why}"
    );
}

#[tokio::test]
async fn responses_to_unknown_resids_are_counted_and_dropped() {
    let (x, y) = tokio::io::duplex(1 << 16);
    let peer = handlers(Peer::builder()).start(Transport::json_lines(x));
    let mut raw = Framed::new(y, jte::JsonLinesCodec::new(1 << 20));
    for i in 0..100 {
        raw.send(Packet::response(format!("nobody-{i}")).with_data(data(1)))
            .await
            .unwrap();
    }
    raw.send(Packet::request("math:add", "r1").with_data(data([1, 2])))
        .await
        .unwrap();
    let answer = raw.next().await.unwrap().unwrap();
    assert_eq!(answer.resid.as_deref(), Some("r1"));
    assert_eq!(answer.data, Some(data(3)));
    assert_eq!(peer.stats().late_responses, 100);
}

#[tokio::test]
async fn an_endless_request_stream_stays_bounded() {
    let (x, y) = tokio::io::duplex(1 << 16);
    // A handler that never reads its requests.
    let server = Peer::builder().max_buffered(16).handle_requests(
        "sink",
        |_reqs: jte::Requests<u64>| async move {
            futures::future::pending::<Result<(), RpcError>>().await
        },
    );
    let peer = server.start(Transport::json_lines(x));
    let mut raw = Framed::new(y, jte::JsonLinesCodec::new(1 << 20));
    raw.send(
        Packet::request("sink", "r1")
            .with_cont(true)
            .with_data(data(0)),
    )
    .await
    .unwrap();
    for i in 0..10_000u64 {
        let p = Packet {
            rpcid: Some("r1".into()),
            cont: true,
            data: Some(data(i)),
            ..Packet::default()
        };
        raw.send(p).await.unwrap();
    }
    // Still answering; everything past the buffer was dropped and counted.
    raw.send(Packet::request("detect", "r2")).await.unwrap();
    let answer = raw.next().await.unwrap().unwrap();
    assert_eq!(answer.resid.as_deref(), Some("r2"));
    assert!(
        peer.stats().stray_packets >= 10_000 - 16,
        "{:?}",
        peer.stats()
    );
}

#[tokio::test]
async fn an_endless_response_stream_is_cut_by_the_callers_timeout() {
    let (x, y) = tokio::io::duplex(1 << 16);
    let peer = Peer::builder().start(Transport::json_lines(x));
    let mut raw = Framed::new(y, jte::JsonLinesCodec::new(1 << 20));
    let caller = peer.with_timeout(Some(Duration::from_millis(300)));
    let stream = tokio::spawn(async move {
        let mut s = caller.call_stream::<_, u64>("tail", &()).await.unwrap();
        let mut n = 0u64;
        loop {
            match s.next().await {
                Some(Ok(_)) => n += 1,
                Some(Err(e)) => return (n, e),
                None => panic!("endless"),
            }
        }
    });
    let request = raw.next().await.unwrap().unwrap();
    let rpcid = request.rpcid.unwrap();
    assert_eq!(request.timeout, Some(300));
    let feed = tokio::spawn(async move {
        for i in 0u64.. {
            let p = Packet::response(rpcid.clone())
                .with_cont(true)
                .with_data(data(i));
            if raw.send(p).await.is_err() {
                break;
            }
            if i % 64 == 0 {
                tokio::task::yield_now().await;
            }
        }
    });
    let (n, e) = stream.await.unwrap();
    assert!(n > 0);
    assert_eq!(e.code(), Some("TIMEOUT"));
    peer.close();
    feed.abort();
}

#[tokio::test]
async fn an_oversized_request_fails_its_call_only() {
    let client = Peer::builder().max_packet_len(128);
    let (client, _server) = frame_pair(client, handlers(Peer::builder())).await;
    let e = client
        .call::<_, String>("echo", &"x".repeat(1_000))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Some("TOOLARGE"), "{e}");
    let sum: i64 = client.call("math:add", &(1, 2)).await.unwrap();
    assert_eq!(sum, 3);
}

#[tokio::test]
async fn rpcids_are_uuid_v4() {
    let (x, y) = tokio::io::duplex(1 << 16);
    let peer = Peer::builder().start(Transport::json_lines(x));
    let mut raw = Framed::new(y, jte::JsonLinesCodec::new(1 << 20));
    let p = peer.clone();
    tokio::spawn(async move { p.call::<_, ()>("a", &()).await });
    let p = peer.clone();
    tokio::spawn(async move { p.call::<_, ()>("b", &()).await });
    let one = raw.next().await.unwrap().unwrap().rpcid.unwrap();
    let two = raw.next().await.unwrap().unwrap().rpcid.unwrap();
    assert_ne!(one, two);
    for id in [one, two] {
        let u = uuid::Uuid::parse_str(&id).unwrap();
        assert_eq!(u.get_version_num(), 4);
    }
}

#[tokio::test]
async fn a_client_that_stops_sending_still_gets_every_answer() {
    let (x, y) = tokio::io::duplex(1 << 16);
    let peer = handlers(Peer::builder()).start(Transport::json_lines(x));
    let (read, mut write) = tokio::io::split(y);
    for i in 0..20 {
        let line = format!(
            "{{\"command\":\"sleep\",\"rpcid\":\"r{i}\",\"data\":{}}}\n",
            20 - i
        );
        write.write_all(line.as_bytes()).await.unwrap();
    }
    write.shutdown().await.unwrap();
    let mut answers = tokio_util::codec::FramedRead::new(read, jte::JsonLinesCodec::new(1 << 20));
    let mut seen = std::collections::BTreeSet::new();
    while let Some(p) = answers.next().await {
        let p = p.unwrap();
        assert_eq!(p.error, None);
        assert!(seen.insert(p.resid.unwrap()));
    }
    assert_eq!(seen.len(), 20);
    assert_eq!(
        &*peer.closed().await,
        "the other side closed the connection"
    );
}

// ---- terminal escapes over in-memory pipes ----

/// A terminal side on pipes: (peer, what the program writes, what the
/// program reads, the screen).
fn terminal_side(
    b: Builder,
) -> (
    Peer,
    DuplexStream,
    DuplexStream,
    tokio::task::JoinHandle<Vec<u8>>,
) {
    let (program_out, term_in) = tokio::io::duplex(1 << 16);
    let (term_out, program_in) = tokio::io::duplex(1 << 16);
    let (screen_w, mut screen_r) = tokio::io::duplex(1 << 16);
    let screen = tokio::spawn(async move {
        let mut all = Vec::new();
        screen_r.read_to_end(&mut all).await.unwrap();
        all
    });
    let (transport, _keys) = jte::terminal::terminal(term_in, term_out, screen_w);
    (b.start(transport), program_out, program_in, screen)
}

#[tokio::test]
async fn terminal_answers_in_the_encoding_of_the_request() {
    let b = handlers(Peer::builder()).policy(Policy::allow_all());
    let (peer, mut program_out, mut program_in, screen) = terminal_side(b);
    program_out
        .write_all(
            b"text \x1b]23198;0;{\"command\":\"math:add\",\"rpcid\":\"j\",\"data\":[1,2]}\x07more ",
        )
        .await
        .unwrap();
    let mut buf = vec![0u8; 256];
    let n = program_in.read(&mut buf).await.unwrap();
    assert_eq!(&buf[..n], b"\x1b]23199;22;{\"resid\":\"j\",\"data\":3}\x07");
    program_out
        .write_all(b"\x1b]23198;0;[\"command\":\"math:add\",\"rpcid\":\"t\",\"data\":[1,2]]\x07end")
        .await
        .unwrap();
    let n = program_in.read(&mut buf).await.unwrap();
    assert_eq!(&buf[..n], b"\x1b]23199;22;[\"resid\":\"t\",\"data\":3]\x07");
    drop(program_out);
    assert_eq!(
        &*peer.closed().await,
        "the other side closed the connection"
    );
    drop(peer);
    assert_eq!(screen.await.unwrap(), b"text more end");
}

#[tokio::test]
async fn terminal_side_runs_nothing_but_detect_by_default() {
    let ran = Arc::new(AtomicUsize::new(0));
    let r = Arc::clone(&ran);
    let b = Peer::builder().handle("term:exec", move |_: String| {
        r.fetch_add(1, Ordering::SeqCst);
        async { Ok::<_, RpcError>(()) }
    });
    let (peer, mut program_out, mut program_in, _screen) = terminal_side(b);
    program_out
        .write_all(b"\x1b]23198;0;{\"command\":\"term:exec\",\"rpcid\":\"x\",\"data\":\"sh\"}\x07")
        .await
        .unwrap();
    let mut buf = vec![0u8; 256];
    let n = program_in.read(&mut buf).await.unwrap();
    let answer = String::from_utf8_lossy(&buf[..n]).into_owned();
    assert!(
        answer.contains("ECDENIED: term:exec is not allowed"),
        "{answer}"
    );
    program_out
        .write_all(b"\x1b]23198;0;{\"command\":\"detect\",\"rpcid\":\"d\"}\x07")
        .await
        .unwrap();
    let n = program_in.read(&mut buf).await.unwrap();
    let answer = String::from_utf8_lossy(&buf[..n]).into_owned();
    // The table lists only what the policy allows.
    assert_eq!(
        answer,
        "\x1b]23199;65;{\"resid\":\"d\",\"data\":{\"capabilities\":{\"\":{\"include\":[\"detect\"]}}}}\x07"
    );
    assert_eq!(ran.load(Ordering::SeqCst), 0);
    assert_eq!(peer.stats().denied, 1);
}

#[tokio::test]
async fn terminal_skips_unreadable_sequences_and_goes_on() {
    let b = handlers(Peer::builder()).policy(Policy::allow_all());
    let (peer, mut program_out, mut program_in, screen) = terminal_side(b);
    program_out
        .write_all(b"a\x1b]23198;0;{\"command\":1}\x07b\x1b]23198;0;[broken\x07c")
        .await
        .unwrap();
    program_out
        .write_all(b"\x1b]23198;0;{\"command\":\"math:add\",\"rpcid\":\"k\",\"data\":[2,2]}\x07")
        .await
        .unwrap();
    let mut buf = vec![0u8; 256];
    let n = program_in.read(&mut buf).await.unwrap();
    assert_eq!(&buf[..n], b"\x1b]23199;22;{\"resid\":\"k\",\"data\":4}\x07");
    assert_eq!(peer.stats().invalid_packets, 2);
    drop(program_out);
    peer.closed().await;
    drop(peer);
    assert_eq!(screen.await.unwrap(), b"abc");
}

#[tokio::test]
async fn a_stream_read_slower_than_it_is_sent_loses_nothing() {
    let client = Peer::builder().max_buffered(4);
    let (client, _server) = frame_pair(client, handlers(Peer::builder())).await;
    let mut stream = client
        .call_stream::<_, u64>("count", &5_000u64)
        .await
        .unwrap();
    let mut next = 0;
    while let Some(item) = stream.next().await {
        assert_eq!(item.unwrap(), next);
        next += 1;
        if next % 100 == 0 {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }
    assert_eq!(next, 5_000);
    assert_eq!(client.stats().late_responses, 0);
}

#[tokio::test]
async fn memory_stays_bounded_when_the_other_side_stops_reading() {
    // The other side never reads: its pipe buffer fills, then the
    // peer's queue, then senders wait. Nothing grows past those bounds.
    let (x, _never_read) = tokio::io::duplex(4096);
    let limit = 32 << 10;
    let peer = Peer::builder()
        .max_queued_bytes(limit)
        .start(Transport::json_lines(x));
    let sent = Arc::new(AtomicUsize::new(0));
    let s = Arc::clone(&sent);
    let p = peer.clone();
    let sender = tokio::spawn(async move {
        let data = "x".repeat(100);
        loop {
            p.notify("log", &data).await.unwrap();
            s.fetch_add(1, Ordering::SeqCst);
        }
    });
    // Wait until the sender makes no progress for 200 ms (at most 30 s).
    let mut stuck_at = usize::MAX;
    for _ in 0..150 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let now = sent.load(Ordering::SeqCst);
        if now == stuck_at {
            break;
        }
        stuck_at = now;
    }
    assert_eq!(sent.load(Ordering::SeqCst), stuck_at, "the sender waits");
    // At most the queue's limit (each packet counts for more than its 100
    // bytes of data) plus what fits in the pipe (4 KiB) and in the codec's
    // write buffer (tokio-util's 8 KiB backpressure boundary).
    assert!(
        stuck_at <= (limit + 4096 + 8192) / 100 + 1,
        "{stuck_at} packets accepted"
    );
    let queued = peer.stats().queued_bytes;
    assert!(queued > 0 && queued <= limit as u64, "{queued}");
    sender.abort();
}

#[tokio::test]
async fn a_panicking_handler_fails_its_call_only() {
    let server = handlers(Peer::builder()).handle("boom", |()| async {
        if true {
            panic!("a handler bug");
        }
        Ok::<_, RpcError>(())
    });
    let server = server.handle(
        "boom:now",
        |()| -> std::future::Ready<Result<(), RpcError>> {
            panic!("a handler bug before its future")
        },
    );
    let (client, _server) = json_pair(Peer::builder(), server);
    let e = client.call::<_, ()>("boom", &()).await.unwrap_err();
    assert_eq!(e.code(), Some("PANIC"));
    let e = client.call::<_, ()>("boom:now", &()).await.unwrap_err();
    assert_eq!(e.code(), Some("PANIC"));
    let sum: i64 = client.call("math:add", &(1, 2)).await.unwrap();
    assert_eq!(sum, 3);
}

#[tokio::test]
async fn a_server_that_does_not_speak_jte_is_named() {
    let (x, y) = tokio::io::duplex(1 << 16);
    let server = tokio::spawn(async move {
        let e = jtoo_frame::Handshake::new().server(y, &["other/1"]).await;
        assert!(e.is_err());
    });
    let client = Peer::builder().start(Transport::connect(x).await.unwrap());
    let e = client.call::<_, ()>("detect", &()).await.unwrap_err();
    assert!(e.is_closed(), "{e}");
    let why = client.closed().await;
    assert!(why.contains("does not speak jte/1"), "{why}");
    server.await.unwrap();
}
