//! A refused packet costs one call, never the connection (issue 33,
//! finding 4): on JSON lines and frames, whose boundaries can be trusted, a
//! packet that arrives whole but cannot be read is answered `ECINVALID`
//! when its `rpcid` can be read, and dropped and counted otherwise; the
//! connection and the other calls go on. Only broken framing closes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use futures::StreamExt;
use jte::{Builder, JsonLinesCodec, Packet, Peer, RpcError, Transport};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio_util::codec::Framed;

fn server() -> Builder {
    Peer::builder()
        .handle("echo", |v: jtoo::Value| async move { Ok::<_, RpcError>(v) })
        .handle("sleep", |ms: u64| async move {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            Ok::<_, RpcError>(ms)
        })
        .handle(
            "big",
            |n: usize| async move { Ok::<_, RpcError>("x".repeat(n)) },
        )
}

/// The peer on JSON lines, and the raw other end as lines.
fn json_lines(b: Builder) -> (Peer, BufReader<DuplexStream>) {
    let (x, y) = tokio::io::duplex(1 << 16);
    (b.start(Transport::json_lines(x)), BufReader::new(y))
}

async fn line(raw: &mut BufReader<DuplexStream>) -> String {
    let mut s = String::new();
    let n = raw.read_line(&mut s).await.unwrap();
    assert!(n > 0, "the connection closed");
    s
}

#[tokio::test]
async fn a_refused_json_line_is_answered_and_the_connection_goes_on() {
    let (peer, mut raw) = json_lines(server());
    // A call in flight, then refused lines and a good one in the same
    // write: every answer comes.
    let lines = concat!(
        "{\"command\":\"sleep\",\"rpcid\":\"slow\",\"data\":50}\n",
        "{\"command\":\"echo\",\"rpcid\":\"n\",\"data\":[1,null]}\n",
        "{\"command\":\"echo\",\"rpcid\":\"t\",\"timeout\":\"soon\"}\n",
        "{\"command\":7,\"rpcid\":\"c\"}\n",
        "{\"command\":\"echo\",\"rpcid\":\"ok\",\"data\":1}\n",
    );
    raw.get_mut().write_all(lines.as_bytes()).await.unwrap();
    let mut answers = Vec::new();
    for _ in 0..5 {
        answers.push(line(&mut raw).await);
    }
    let find = |id: &str| {
        answers
            .iter()
            .find(|a| a.contains(&format!("\"resid\":\"{id}\"")))
            .unwrap_or_else(|| panic!("no answer to {id}: {answers:?}"))
            .clone()
    };
    for id in ["n", "t", "c"] {
        assert!(find(id).contains("\"error\":\"ECINVALID: "), "{}", find(id));
    }
    assert!(find("n").contains("null"), "{}", find("n"));
    assert!(find("t").contains("timeout"), "{}", find("t"));
    assert_eq!(find("ok"), "{\"resid\":\"ok\",\"data\":1}\n");
    assert_eq!(find("slow"), "{\"resid\":\"slow\",\"data\":50}\n");
    assert_eq!(peer.stats().invalid_packets, 3);
    assert!(peer.closed_reason().is_none());
}

#[tokio::test]
async fn an_unreadable_json_line_is_dropped_counted_and_logged() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let b = server().on_invalid_packet(move |p| log.lock().unwrap().push(p.to_string()));
    let (peer, mut raw) = json_lines(b);
    let lines = concat!(
        "this is not JSON\n",
        "[1,2]\n",
        "{\"command\":\"echo\",\"rpcid\":5}\n",
        "{\"command\":\"echo\",\"rpcid\":\"a\",\"rpcid\":\"b\"}\n",
        "{\"command\":\"echo\",\"data\":[null]}\n",
        "{\"command\":\"echo\",\"rpcid\":\"ok\",\"data\":2}\n",
    );
    raw.get_mut().write_all(lines.as_bytes()).await.unwrap();
    assert_eq!(line(&mut raw).await, "{\"resid\":\"ok\",\"data\":2}\n");
    assert_eq!(peer.stats().invalid_packets, 5);
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 5, "{seen:?}");
    assert!(seen[0].contains("expected an object"), "{seen:?}");
    assert!(seen[4].contains("null"), "{seen:?}");
    assert!(peer.closed_reason().is_none());
}

#[tokio::test]
async fn broken_framing_still_closes_json_lines() {
    let (peer, mut raw) = json_lines(server().max_packet_len(64));
    raw.get_mut()
        .write_all(format!("{}\n", "x".repeat(100)).as_bytes())
        .await
        .unwrap();
    let why = peer.closed().await;
    assert!(why.contains("64"), "{why}");
}

#[tokio::test]
async fn timeout_is_any_number_of_milliseconds_rounded_up() {
    for (text, ms) in [
        ("1000", 1000),
        ("1000.0", 1000),
        ("1.5", 2),
        ("5e3", 5000),
        ("0.001", 1),
        ("0", 0),
        ("-0.0", 0),
        ("1e30", u64::MAX),
    ] {
        let json = format!("{{\"command\":\"a\",\"timeout\":{text}}}");
        let p = Packet::from_json_slice(json.as_bytes()).unwrap();
        assert_eq!(p.timeout, Some(ms), "{text}");
    }
    for text in ["-1", "-0.5", "\"10\"", "true"] {
        let json = format!("{{\"command\":\"a\",\"timeout\":{text}}}");
        let e = Packet::from_json_slice(json.as_bytes()).unwrap_err();
        assert!(e.to_string().contains("timeout"), "{text}: {e}");
    }
    let p = Packet::from_jtoo(br#"["command":"a","timeout":1.5]"#).unwrap();
    assert_eq!(p.timeout, Some(2));
}

#[tokio::test(start_paused = true)]
async fn a_fractional_timeout_is_honoured() {
    let (_peer, mut raw) = json_lines(server());
    raw.get_mut()
        .write_all(b"{\"command\":\"sleep\",\"rpcid\":\"s\",\"timeout\":1000.0,\"data\":5000}\n")
        .await
        .unwrap();
    let answer = line(&mut raw).await;
    assert!(answer.contains("ECTIMEOUT"), "{answer}");
}

#[tokio::test]
async fn a_duplicate_rpcid_in_flight_is_answered_and_the_first_call_goes_on() {
    let (_peer, mut raw) = json_lines(server());
    raw.get_mut()
        .write_all(b"{\"command\":\"sleep\",\"rpcid\":\"d\",\"data\":50}\n")
        .await
        .unwrap();
    raw.get_mut()
        .write_all(b"{\"command\":\"echo\",\"rpcid\":\"d\",\"data\":1}\n")
        .await
        .unwrap();
    let first = line(&mut raw).await;
    assert!(
        first.starts_with("{\"resid\":\"d\",\"error\":\"ECDUPLICATE: "),
        "{first}"
    );
    assert_eq!(line(&mut raw).await, "{\"resid\":\"d\",\"data\":50}\n");
}

#[tokio::test]
async fn a_refused_response_fails_its_call_at_once() {
    let (x, y) = tokio::io::duplex(1 << 16);
    let peer = Peer::builder()
        .default_timeout(None)
        .start(Transport::json_lines(x));
    let mut raw = Framed::new(y, JsonLinesCodec::new(1 << 20));
    let p = peer.clone();
    let call = tokio::spawn(async move { p.call::<_, i64>("x", &()).await });
    let rpcid = raw.next().await.unwrap().unwrap().rpcid.unwrap();
    let bad = format!("{{\"resid\":\"{rpcid}\",\"data\":[null]}}\n");
    raw.get_mut().write_all(bad.as_bytes()).await.unwrap();
    let e = call.await.unwrap().unwrap_err();
    assert_eq!(e.code(), Some("INVALID"), "{e}");
    assert!(peer.closed_reason().is_none());
}

/// The peer on frames after the handshake, and the raw other end.
async fn frames(b: Builder) -> (Peer, BufReader<DuplexStream>) {
    let (x, mut y) = tokio::io::duplex(1 << 16);
    let accept = tokio::spawn(Transport::accept(x));
    y.write_all(b"000014 000000 [\"protocol\":\"jte/1\"] \n")
        .await
        .unwrap();
    let (transport, _) = accept.await.unwrap().unwrap();
    (b.start(transport), BufReader::new(y))
}

fn frame(jtoo: &[u8]) -> Vec<u8> {
    let mut f = format!("{:06x} 000000 ", jtoo.len()).into_bytes();
    f.extend_from_slice(jtoo);
    f.extend_from_slice(b" \n");
    f
}

#[tokio::test]
async fn a_refused_frame_is_answered_and_the_connection_goes_on() {
    let (peer, mut raw) = frames(server()).await;
    let mut bytes = Vec::new();
    for bad in [
        &br#"["rpcid":"dup","command":"a","command":"b"]"#[..],
        br#"["command":"a","rpcid":"type","timeout":"soon"]"#,
        br#"["cont":1]"#,
        br#"["command":"a","rpcid":"syntax",]"#,
        br#"[1,2]"#,
    ] {
        bytes.extend(frame(bad));
    }
    bytes.extend(frame(br#"["command":"echo","rpcid":"ok","data":3]"#));
    raw.get_mut().write_all(&bytes).await.unwrap();
    let dup = line(&mut raw).await;
    assert!(
        dup.contains(r#"["resid":"dup","error":"ECINVALID: "#),
        "{dup}"
    );
    let ty = line(&mut raw).await;
    assert!(
        ty.contains(r#"["resid":"type","error":"ECINVALID: "#),
        "{ty}"
    );
    assert!(ty.contains("timeout"), "{ty}");
    let ok = line(&mut raw).await;
    assert_eq!(ok, "000017 000000 [\"resid\":\"ok\",\"data\":3] \n");
    assert_eq!(peer.stats().invalid_packets, 5);
    assert!(peer.closed_reason().is_none());
}

#[tokio::test]
async fn a_bad_frame_header_still_closes() {
    let (peer, mut raw) = frames(server()).await;
    raw.get_mut()
        .write_all(b"00000x 000000 []  \n")
        .await
        .unwrap();
    let why = peer.closed().await;
    assert!(why.contains("transport error"), "{why}");
}

#[tokio::test]
async fn an_answer_over_the_limit_is_refused_to_its_caller_on_json_lines() {
    let (_peer, mut raw) = json_lines(server().max_packet_len(256));
    raw.get_mut()
        .write_all(b"{\"command\":\"big\",\"rpcid\":\"b\",\"data\":1000}\n{\"command\":\"echo\",\"rpcid\":\"e\",\"data\":1}\n")
        .await
        .unwrap();
    let mut answers = vec![line(&mut raw).await, line(&mut raw).await];
    answers.sort();
    assert!(
        answers[0].starts_with("{\"resid\":\"b\",\"error\":\"ECTOOLARGE: "),
        "{answers:?}"
    );
    assert_eq!(answers[1], "{\"resid\":\"e\",\"data\":1}\n");
}

#[tokio::test]
async fn an_answer_over_the_limit_is_refused_to_its_caller_on_frames() {
    let (client, server) = {
        let (x, y) = tokio::io::duplex(1 << 16);
        let (c, s) = tokio::join!(Transport::connect(x), Transport::accept(y));
        (
            Peer::builder().start(c.unwrap()),
            server().max_packet_len(256).start(s.unwrap().0),
        )
    };
    let e = client.call::<_, String>("big", &1000).await.unwrap_err();
    assert_eq!(e.code(), Some("TOOLARGE"), "{e}");
    let back: i64 = client.call("echo", &7).await.unwrap();
    assert_eq!(back, 7);
    assert!(server.closed_reason().is_none());
}

#[tokio::test]
async fn a_packet_read_with_the_greeting_is_answered() {
    let (x, mut y) = tokio::io::duplex(1 << 16);
    let mut bytes = b"000014 000000 [\"protocol\":\"jte/1\"] \n".to_vec();
    bytes.extend(frame(br#"["command":"echo","rpcid":"early","data":1]"#));
    y.write_all(&bytes).await.unwrap();
    let (transport, _) = Transport::accept(x).await.unwrap();
    let _peer = server().start(transport);
    let mut raw = BufReader::new(y);
    let answer = line(&mut raw).await;
    assert!(answer.contains(r#"["resid":"early","data":1]"#), "{answer}");
}
