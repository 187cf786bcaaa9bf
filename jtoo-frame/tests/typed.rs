//! `TypedCodec`: typed messages over frames. The one-pass reading against
//! validate-then-decode (`FrameCodec` then `Frame::to_serde`) on valid and
//! corrupted frames, any chunking, the limits on sending, and loopback TCP
//! after the handshake.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use bytes::{Bytes, BytesMut};
use futures::{SinkExt, StreamExt};
use jtoo_frame::{
    Frame, FrameCodec, FrameError, Greeting, Section, TypedCodec, WithBinary, client_handshake,
    server_handshake,
};
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::{Decoder, Encoder};

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Msg {
    id: u64,
    name: String,
    tags: Vec<String>,
    score: f64,
    ok: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

fn msg(id: u64) -> Msg {
    Msg {
        id,
        name: format!("user {id} \"é\""),
        tags: vec!["a".into(), "b\\c".into()],
        score: id as f64 / 8.0,
        ok: id.is_multiple_of(2),
        note: id.is_multiple_of(3).then(|| "three".to_string()),
    }
}

fn frame_of(jtoo: &[u8], binary: &[u8]) -> Vec<u8> {
    let mut out = format!("{:06x} {:06x} ", jtoo.len(), binary.len()).into_bytes();
    out.extend_from_slice(jtoo);
    out.push(b' ');
    out.extend_from_slice(binary);
    out.push(b'\n');
    out
}

/// What a codec answered to each call on `stream` (`decode_eof` until the
/// end, an error seen twice, or `calls` calls), as comparable text.
fn answers<D: Decoder<Error = FrameError>>(
    mut codec: D,
    stream: &[u8],
    calls: usize,
    show: impl Fn(D::Item) -> String,
) -> Vec<String> {
    let mut buf = BytesMut::from(stream);
    let mut out = Vec::new();
    for _ in 0..calls {
        match codec.decode_eof(&mut buf) {
            Ok(None) => {
                out.push("end".to_string());
                break;
            }
            Ok(Some(item)) => out.push(show(item)),
            Err(e) => out.push(format!("error {e:?}")),
        }
    }
    out
}

/// The one-pass reading of `stream` as `T`.
fn one_pass<T: DeserializeOwned + std::fmt::Debug>(stream: &[u8]) -> Vec<String> {
    answers(TypedCodec::<T>::new(), stream, 6, |m| format!("{m:?}"))
}

/// The reference: validate every frame (`FrameCodec`), then deserialize.
fn validate_then_decode<T: DeserializeOwned + std::fmt::Debug>(stream: &[u8]) -> Vec<String> {
    answers(FrameCodec::new(), stream, 6, |f| {
        match (f.to_serde::<T>(), f.binary().len()) {
            (Ok(m), 0) => format!("{m:?}"),
            (Ok(_), length) => format!("error {:?}", FrameError::UnexpectedBinary { length }),
            (Err(e), _) => format!("error {:?}", FrameError::Decode(e)),
        }
    })
}

/// Both readings, for three message types: a struct, any value
/// (`deserialize_any`) and `IgnoredAny` (everything skipped).
fn assert_same_reading(stream: &[u8]) {
    let show = String::from_utf8_lossy(stream);
    assert_eq!(
        one_pass::<Msg>(stream),
        validate_then_decode::<Msg>(stream),
        "Msg: {show}"
    );
    assert_eq!(
        one_pass::<jtoo::Value>(stream),
        validate_then_decode::<jtoo::Value>(stream),
        "Value: {show}"
    );
    assert_eq!(
        one_pass::<serde::de::IgnoredAny>(stream),
        validate_then_decode::<serde::de::IgnoredAny>(stream),
        "IgnoredAny: {show}"
    );
}

fn encoded(msgs: &[Msg]) -> BytesMut {
    let mut codec = TypedCodec::<Msg>::new();
    let mut buf = BytesMut::new();
    for m in msgs {
        codec.encode(m, &mut buf).unwrap();
    }
    buf
}

#[test]
fn round_trip_owned_and_borrowed_and_frame_equivalent() {
    let mut codec = TypedCodec::<Msg>::new();
    let mut buf = BytesMut::new();
    codec.encode(msg(1), &mut buf).unwrap();
    codec.encode(&msg(2), &mut buf).unwrap();
    // The same bytes as an untyped frame from `Frame::from_serde`.
    let mut want = BytesMut::new();
    let mut frames = FrameCodec::new();
    for m in [msg(1), msg(2)] {
        frames
            .encode(Frame::from_serde(&m).unwrap(), &mut want)
            .unwrap();
    }
    assert_eq!(buf, want);
    assert_eq!(codec.decode(&mut buf).unwrap(), Some(msg(1)));
    assert_eq!(codec.decode_eof(&mut buf).unwrap(), Some(msg(2)));
    assert_eq!(codec.decode_eof(&mut buf).unwrap(), None);
    assert!(codec.frame_codec().is_between_frames());
}

#[test]
fn with_binary_both_ways_and_plain_types_refuse_a_binary_section() {
    let mut codec = TypedCodec::<WithBinary<Msg>>::new();
    let mut buf = BytesMut::new();
    codec
        .encode(WithBinary::new(msg(4), &b"\x00raw\n"[..]), &mut buf)
        .unwrap();
    codec
        .encode(&WithBinary::new(msg(5), Bytes::new()), &mut buf)
        .unwrap();
    let stream = buf.clone();
    let a = codec.decode(&mut buf).unwrap().unwrap();
    assert_eq!((a.value, &a.binary[..]), (msg(4), &b"\x00raw\n"[..]));
    let b = codec.decode(&mut buf).unwrap().unwrap();
    assert_eq!((b.value, b.binary.len()), (msg(5), 0));

    // A plain `Msg` codec refuses the first frame but reads the second.
    let mut plain = TypedCodec::<Msg>::new();
    let mut buf = stream;
    let e = plain.decode(&mut buf).unwrap_err();
    assert!(
        matches!(e, FrameError::UnexpectedBinary { length: 5 }),
        "{e:?}"
    );
    assert!(e.is_recoverable() && e.is_protocol_error());
    assert_eq!(plain.decode(&mut buf).unwrap(), Some(msg(5)));
}

#[test]
fn a_section_of_the_wrong_shape_is_recoverable_invalid_jtoo_is_final() {
    let mut stream = frame_of(br#"["id":1]"#, b"");
    stream.extend(frame_of(b"", b""));
    stream.extend(encoded(&[msg(7)]));
    stream.extend(frame_of(br#"["id":1,]"#, b""));
    stream.extend(encoded(&[msg(8)]));
    let mut codec = TypedCodec::<Msg>::new();
    let mut buf = BytesMut::from(&stream[..]);
    let e = codec.decode(&mut buf).unwrap_err();
    assert!(matches!(e, FrameError::Decode(_)), "{e:?}");
    assert!(e.to_string().contains("missing field `name`"), "{e}");
    let e = codec.decode(&mut buf).unwrap_err();
    assert!(e.to_string().contains("found an empty JTOO section"), "{e}");
    assert_eq!(codec.decode(&mut buf).unwrap(), Some(msg(7)));
    let e = codec.decode(&mut buf).unwrap_err();
    let FrameError::InvalidJtoo(inner) = &e else {
        panic!("{e:?}")
    };
    // The position validation gives (the `]` after the trailing comma).
    assert_eq!(inner.position().map(|p| p.offset), Some(8), "{e}");
    assert!(!e.is_recoverable());
    assert!(matches!(codec.decode(&mut buf), Err(FrameError::Unusable)));
    assert_same_reading(&stream);
}

#[test]
fn edge_sections_read_as_validate_then_decode_reads_them() {
    let good = encoded(&[msg(3)]);
    let good_jtoo = &good[14..good.len() - 2];
    let mut sections: Vec<Vec<u8>> = vec![
        good_jtoo.to_vec(),
        b"[]".to_vec(),
        b"[1,2]".to_vec(),
        b"5".to_vec(),
        b"\"x\"".to_vec(),
        b"[\"id\":1".to_vec(),
        b"[\"id\":1] ".to_vec(),
        b"[\"id\":1]]".to_vec(),
        b"[\"id\":-1,\"name\":\"n\",\"tags\":[],\"score\":1.0,\"ok\":Y]".to_vec(),
        b"[\"id\":1,\"name\":\"n\",\"tags\":[],\"score\":1.50,\"ok\":Y]".to_vec(),
        b"[\"id\":1,\"name\":\"n\",\"tags\":[],\"score\":1.5,\"ok\":Y,\"x\":[T10:2]]".to_vec(),
        b"[\"id\":1,\"name\":\"n\",\"tags\":[],\"score\":1.5,\"ok\":Y,\"x\":[[[D2023-02-30]]]]"
            .to_vec(),
        b"[\"id\":1,\"name\":\"n\",\"tags\":[],\"score\":1.5,\"ok\":Y,\"id\":2]".to_vec(),
        b"[\"id\":1,\"name\":\"\xff\",\"tags\":[],\"score\":1.5,\"ok\":Y]".to_vec(),
        b"[\"name\":\"caf\\e9\"]".to_vec(),
        b"[\"tags\":[\"a\",5]]".to_vec(),
    ];
    // Nesting at and over the depth limit (128), in an ignored member.
    for depth in [127, 128] {
        let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        sections.push(format!(r#"["x":{deep}]"#).into_bytes());
    }
    for s in &sections {
        let mut stream = frame_of(s, b"");
        stream.extend(&good);
        assert_same_reading(&stream);
        // With a binary section too.
        let mut stream = frame_of(s, b"bin");
        stream.extend(&good);
        assert_same_reading(&stream);
    }
}

#[test]
fn framing_errors_are_the_frame_codecs() {
    let good = encoded(&[msg(1)]);
    for bad in [
        &b"00000X 000000 "[..],
        b"000003 000000 [1]x\n",
        b"000003 000000 [1] x",
        b"ffffff 000000 ",
        b"000002 000000 [",
    ] {
        let mut stream = good.to_vec();
        stream.extend_from_slice(bad);
        assert_same_reading(&stream);
    }
    let codec = FrameCodec::builder()
        .max_jtoo_len(8)
        .new_typed_codec::<Msg>();
    let got = answers(codec, &good, 3, |m| format!("{m:?}"));
    assert!(got[0].contains("TooLong"), "{got:?}");
}

#[test]
fn byte_by_byte_input_reads_the_same_messages() {
    let msgs: Vec<Msg> = (0..5).map(msg).collect();
    let mut codec = TypedCodec::<WithBinary<Msg>>::new();
    let mut all = BytesMut::new();
    for (i, m) in msgs.iter().enumerate() {
        let binary = vec![b'\n'; i * 3];
        codec
            .encode(WithBinary::new(m.clone(), binary), &mut all)
            .unwrap();
    }
    let mut codec = TypedCodec::<WithBinary<Msg>>::new();
    let mut buf = BytesMut::new();
    let mut got = Vec::new();
    for &b in all.iter() {
        buf.extend_from_slice(&[b]);
        while let Some(m) = codec.decode(&mut buf).unwrap() {
            assert_eq!(m.binary.len(), got.len() * 3);
            got.push(m.value);
        }
    }
    assert_eq!(codec.decode_eof(&mut buf).unwrap(), None);
    assert_eq!(got, msgs);

    // Every single cut, then the rest, through `decode_eof`.
    let all = encoded(&msgs);
    for cut in 0..all.len() {
        let mut codec = TypedCodec::<Msg>::new();
        let mut buf = BytesMut::from(&all[..cut]);
        let mut got = Vec::new();
        while let Some(m) = codec.decode(&mut buf).unwrap() {
            got.push(m);
        }
        buf.extend_from_slice(&all[cut..]);
        while let Some(m) = codec.decode_eof(&mut buf).unwrap() {
            got.push(m);
        }
        assert_eq!(got, msgs, "cut at {cut}");
    }
    // A stream that ends inside a frame.
    let mut codec = TypedCodec::<Msg>::new();
    let mut buf = BytesMut::from(&all[..all.len() - 1]);
    while codec.decode(&mut buf).unwrap().is_some() {}
    let e = codec.decode_eof(&mut buf).unwrap_err();
    assert!(matches!(e, FrameError::Truncated { .. }), "{e:?}");
}

#[test]
fn sending_refuses_over_the_limits_and_unencodable_values_writing_nothing() {
    let mut codec = FrameCodec::builder()
        .max_jtoo_len(40)
        .max_binary_len(4)
        .new_typed_codec::<WithBinary<Vec<f64>>>();
    let mut dst = BytesMut::from(&b"pending"[..]);
    let e = codec
        .encode(WithBinary::new(vec![1.5; 20], Bytes::new()), &mut dst)
        .unwrap_err();
    assert!(
        matches!(
            e,
            FrameError::TooLong {
                section: Section::Jtoo,
                length: 81,
                max: 40
            }
        ),
        "{e:?}"
    );
    let e = codec
        .encode(WithBinary::new(vec![1.5], &b"12345"[..]), &mut dst)
        .unwrap_err();
    assert!(
        matches!(
            e,
            FrameError::TooLong {
                section: Section::Binary,
                ..
            }
        ),
        "{e:?}"
    );
    let e = codec
        .encode(WithBinary::new(vec![f64::NAN], Bytes::new()), &mut dst)
        .unwrap_err();
    assert!(matches!(e, FrameError::Encode(_)), "{e:?}");
    assert!(!e.is_protocol_error() && e.is_recoverable());
    // Failing after part of the section went into the buffer: cut back.
    let e = codec
        .encode(
            WithBinary::new(vec![1.5, 2.5, f64::NAN], Bytes::new()),
            &mut dst,
        )
        .unwrap_err();
    assert!(matches!(e, FrameError::Encode(_)), "{e:?}");
    assert_eq!(&dst[..], b"pending");
    // The codec still sends after the errors.
    codec
        .encode(WithBinary::new(vec![2.0], &b"ab"[..]), &mut dst)
        .unwrap();
    assert_eq!(&dst[..], b"pending000005 000002 [2.0] ab\n");
}

#[test]
fn a_message_that_fits_the_write_buffer_does_not_move_it() {
    let mut codec = TypedCodec::<Msg>::new();
    let mut dst = BytesMut::with_capacity(4096);
    let (start, capacity) = (dst.as_ptr(), dst.capacity());
    for id in 0..20 {
        codec.encode(&msg(id), &mut dst).unwrap();
    }
    assert!(dst.len() > 1000);
    assert_eq!((dst.as_ptr(), dst.capacity()), (start, capacity));
}

#[test]
fn frame_serde_names_and_empty_sections() {
    let f = Frame::from_serde(&msg(9)).unwrap();
    assert_eq!(f.to_serde::<Msg>().unwrap(), msg(9));
    let e = Frame::empty().to_serde::<Msg>().unwrap_err();
    assert!(e.to_string().contains("empty JTOO section"), "{e}");
    assert!(matches!(
        Frame::from_serde(&f64::NAN),
        Err(FrameError::Encode(_))
    ));
}

#[test]
fn to_bytes_refuses_a_section_over_ffffff() {
    // Issue 18, defect 10: this used to return an empty vector.
    let e = Frame::from_binary(vec![0; 17 << 20])
        .to_bytes()
        .unwrap_err();
    assert!(
        matches!(
            e,
            FrameError::TooLong {
                section: Section::Binary,
                length,
                max: 0xff_ffff
            } if length == 17 << 20
        ),
        "{e:?}"
    );
    assert_eq!(
        Frame::from_binary(&b"ok"[..]).to_bytes().unwrap(),
        b"000000 000002  ok\n"
    );
}

/// Bytes that matter to the grammar and the framing, for mutations.
const ALPHABET: &[u8] = b"[]:,\"\\YNBDTSZ~+-_.0123456789abcdefx \n\x00\x7f\xc3\xa9";

fn any_msg() -> impl Strategy<Value = Msg> {
    (
        any::<u64>(),
        "\\PC{0,12}",
        proptest::collection::vec("[a-z\"\\\\é]{0,4}", 0..4),
        any::<f64>().prop_filter("finite", |f| f.is_finite()),
        any::<bool>(),
        proptest::option::of("\\PC{0,6}"),
    )
        .prop_map(|(id, name, tags, score, ok, note)| Msg {
            id,
            name,
            tags,
            score,
            ok,
            note,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn generated_messages_round_trip(m in any_msg(), binary in proptest::collection::vec(any::<u8>(), 0..8)) {
        let mut codec = TypedCodec::<WithBinary<Msg>>::new();
        let mut buf = BytesMut::new();
        codec.encode(WithBinary::new(m.clone(), binary.clone()), &mut buf).unwrap();
        let stream = buf.to_vec();
        let got = codec.decode_eof(&mut buf).unwrap().unwrap();
        prop_assert_eq!(&got.value, &m);
        prop_assert_eq!(&got.binary[..], &binary[..]);
        if binary.is_empty() {
            prop_assert_eq!(one_pass::<Msg>(&stream), validate_then_decode::<Msg>(&stream));
        }
    }

    #[test]
    fn corrupted_frames_read_as_validate_then_decode_reads_them(
        m in any_msg(),
        edits in proptest::collection::vec((0usize..400, 0usize..ALPHABET.len(), 0u8..3), 1..4),
        whole in any::<bool>(),
    ) {
        let good = encoded(&[m]);
        let mutate = |mut text: Vec<u8>| {
            for &(at, c, op) in &edits {
                let at = at % (text.len() + 1);
                let c = ALPHABET[c];
                match op {
                    0 => text.insert(at, c),
                    1 if at < text.len() => { text.remove(at); }
                    _ if at < text.len() => text[at] = c,
                    _ => text.push(c),
                }
            }
            text
        };
        // Either the JTOO section is corrupted (and framed with its true
        // length), or the frame's bytes are.
        let mut stream = if whole {
            mutate(good.to_vec())
        } else {
            frame_of(&mutate(good[14..good.len() - 2].to_vec()), b"")
        };
        stream.extend(encoded(&[msg(1)]));
        assert_same_reading(&stream);
    }
}

#[tokio::test]
async fn a_505_reply_is_an_error_of_the_clients_first_read() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(async move {
        for _ in 0..2 {
            let (socket, _) = listener.accept().await.unwrap();
            let e = server_handshake(socket, &["other/1"]).await.unwrap_err();
            assert!(matches!(
                e,
                jtoo_frame::HandshakeError::UnsupportedProtocol(_)
            ));
        }
    });
    // Untyped.
    let socket = TcpStream::connect(addr).await.unwrap();
    let mut framed = client_handshake(socket, &Greeting::new("sum/1"))
        .await
        .unwrap();
    let e = framed.next().await.unwrap().unwrap_err();
    assert!(matches!(e, FrameError::UnsupportedProtocol), "{e:?}");
    assert!(e.to_string().contains("505"), "{e}");
    // Typed, through `map_codec`.
    let socket = TcpStream::connect(addr).await.unwrap();
    let framed = client_handshake(socket, &Greeting::new("sum/1"))
        .await
        .unwrap();
    let mut framed = framed.map_codec(TypedCodec::<Vec<i64>>::with_frame_codec);
    // The request may or may not reach the server before it closes.
    let _ = framed.send(vec![1, 2]).await;
    let e = framed.next().await.unwrap().unwrap_err();
    assert!(matches!(e, FrameError::UnsupportedProtocol), "{e:?}");
    server.await.unwrap();
}

#[test]
fn only_the_first_frame_after_a_greeting_can_be_the_505_reply() {
    // A server sending the 505 bytes as its second frame is just a frame.
    let reply = jtoo_frame::UNSUPPORTED_PROTOCOL_REPLY;
    let mut buf = BytesMut::from(reply);
    buf.extend_from_slice(reply);
    let mut codec = FrameCodec::new();
    assert!(codec.decode(&mut buf).unwrap().is_some());
    assert!(codec.decode(&mut buf).unwrap().is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousand_concurrent_typed_clients() {
    const CLIENTS: usize = 1000;
    const MESSAGES: u64 = 20;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(async move {
        let mut conns = Vec::with_capacity(CLIENTS);
        for _ in 0..CLIENTS {
            let (socket, _) = listener.accept().await.unwrap();
            conns.push(tokio::spawn(async move {
                let (framed, greeting) = server_handshake(socket, &["typed/1"])
                    .await
                    .map_err(|e| format!("server handshake: {e}"))?;
                let client = greeting
                    .get("client")
                    .and_then(jtoo::Value::as_u64)
                    .ok_or("no client id")?;
                let mut framed = framed.map_codec(TypedCodec::<Msg>::with_frame_codec);
                let mut n = 0;
                while let Some(m) = framed.next().await {
                    let mut m = m.map_err(|e| format!("server read: {e}"))?;
                    if m.id / 1000 != client {
                        return Err("misattributed message".to_string());
                    }
                    m.ok = !m.ok;
                    framed
                        .send(&m)
                        .await
                        .map_err(|e| format!("server write: {e}"))?;
                    n += 1;
                }
                Ok::<u64, String>(n)
            }));
        }
        let mut total = 0;
        for c in conns {
            total += c.await.unwrap().unwrap();
        }
        total
    });
    let connecting = std::sync::Arc::new(tokio::sync::Semaphore::new(200));
    let mut clients = Vec::with_capacity(CLIENTS);
    for client in 0..CLIENTS as u64 {
        let connecting = connecting.clone();
        clients.push(tokio::spawn(async move {
            let permit = connecting.acquire_owned().await.unwrap();
            let socket = TcpStream::connect(addr).await.unwrap();
            let greeting = Greeting::new("typed/1")
                .with("client", jtoo::Value::from(client))
                .unwrap();
            let framed = client_handshake(socket, &greeting).await.unwrap();
            drop(permit);
            let mut framed = framed.map_codec(TypedCodec::<Msg>::with_frame_codec);
            let sent: Vec<Msg> = (0..MESSAGES).map(|i| msg(client * 1000 + i)).collect();
            for m in &sent {
                framed.feed(m).await.unwrap();
            }
            SinkExt::<&Msg>::flush(&mut framed).await.unwrap();
            for m in &sent {
                let back = framed.next().await.unwrap().unwrap();
                assert_eq!(
                    back,
                    Msg {
                        ok: !m.ok,
                        ..m.clone()
                    }
                );
            }
            framed
        }));
    }
    let mut open = Vec::with_capacity(CLIENTS);
    for c in clients {
        open.push(c.await.unwrap());
    }
    drop(open);
    assert_eq!(server.await.unwrap(), CLIENTS as u64 * MESSAGES);
}

#[test]
fn request_and_reply_types_and_the_readme_wire_example() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    enum Request {
        Add { a: i64, b: i64 },
        Neg(i64),
    }
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Reply {
        value: i64,
    }
    let mut client = TypedCodec::<Reply, Request>::new();
    let mut server = FrameCodec::builder().new_typed_codec::<Request>();
    let mut wire = BytesMut::new();
    client
        .encode(Request::Add { a: 2, b: 40 }, &mut wire)
        .unwrap();
    assert_eq!(&wire[..], b"000016 000000 [\"Add\":[\"a\":2,\"b\":40]] \n");
    client.encode(&Request::Neg(7), &mut wire).unwrap();
    assert_eq!(
        server.decode(&mut wire).unwrap(),
        Some(Request::Add { a: 2, b: 40 })
    );
    assert_eq!(server.decode(&mut wire).unwrap(), Some(Request::Neg(7)));
    let mut replies = TypedCodec::<Request, Reply>::with_frame_codec(server.into_frame_codec());
    replies.encode(Reply { value: 42 }, &mut wire).unwrap();
    assert_eq!(client.decode(&mut wire).unwrap(), Some(Reply { value: 42 }));
}

#[test]
#[allow(deprecated)]
fn the_former_names_are_aliases() {
    let f = Frame::encode(&msg(3)).unwrap();
    assert_eq!(f, Frame::from_serde(&msg(3)).unwrap());
    assert_eq!(f.decode::<Msg>().unwrap(), msg(3));
    assert!(Frame::encode(&f64::NAN).unwrap_err().is_data());
}
