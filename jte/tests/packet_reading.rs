//! The one-pass packet reader (`Packet::from_jtoo`, `PacketCodec`) against
//! the reference reading through a `jtoo::Value`: for valid and mutated
//! packets alike, the same packet or the same error, and invalid JTOO is
//! never accepted.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use bytes::BytesMut;
use jte::{JteError, Packet, PacketCodec};
use jtoo_frame::{FrameCodec, FrameError};
use proptest::prelude::*;
use tokio_util::codec::{Decoder, Encoder};

/// The reference: parse to a value, then read the packet from it.
fn reference(text: &[u8]) -> Result<Packet, JteError> {
    Packet::from_owned_value(jtoo::from_slice(text)?)
}

fn same(a: &Result<Packet, JteError>, b: &Result<Packet, JteError>) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => a == b,
        (Err(a), Err(b)) => format!("{a:?}") == format!("{b:?}"),
        _ => false,
    }
}

const SAMPLES: &[&str] = &[
    r#"["command":"term:cursormove","data":["y":-2]]"#,
    r##"["command":"term:setstyle","data":["color":31,"bgcolor":"#aaaaaa","bold":Y]]"##,
    r#"["command":"detect","rpcid":"6f1c","timeout":5_000]"#,
    r#"["resid":"0b8e","cont":Y,"datatype":"line","data":"Nov 21 06:21:04 host"]"#,
    r#"["resid":"0b8e","error":"ECTIMEOUT: Request timed out"]"#,
    r#"["resid":"r","data":["capabilities":["term":["level":1,"include":["term:*"]]]]]"#,
    r#"["command":"x","ext":[1,2,"a":B00ff,T10:20,D2023-05-06T10Z:S1.500],"cont":N]"#,
    r#"["command":"caf\22\5c\0a\7f","data":[1.5,-0.000_1,"é"]]"#,
    r#"[]"#,
    r#"["data":[]]"#,
];

/// Texts that must give what the reference gives, most of them errors.
const EDGES: &[&str] = &[
    "",
    "[",
    "]",
    "[,]",
    r#"["command""#,
    r#"["command":]"#,
    r#"["command":"x",]"#,
    r#"["command":"x"]x"#,
    r#"["command":"x"] "#,
    r#"["command":"x","command":"y"]"#,
    r#"["ext":1,"ext":2]"#,
    r#"["command":5]"#,
    r#"["command":B78]"#,
    r#"["timeout":-1]"#,
    r#"["timeout":0]"#,
    r#"["timeout":1.0]"#,
    r#"["timeout":18_446_744_073_709_551_616]"#,
    r#"["timeout":1000]"#,
    r#"["timeout":01]"#,
    r#"["cont":Y]"#,
    r#"["cont":Yes]"#,
    r#"["cont":"Y"]"#,
    r#"[0:"x"]"#,
    r#"[B00:"x"]"#,
    r#"["command"]"#,
    r#"["command":"x",5]"#,
    r#"["command":"x":"y"]"#,
    r#"["comm\61nd":"x"]"#,
    r#"["data":[1,2],"data":3]"#,
    r#"["data":[T10:20]]"#,
    r#"["data":[T10:2]]"#,
    r#"["data":[D2023-02-30]]"#,
    r#"["ext":[T10:2]]"#,
    r#"["ext":"\41"]"#,
    r#"["data":1 ]"#,
    r#"["data":Yx]"#,
    r#"["datatype":"a	b"]"#,
    "[\"command\":\"\u{7f}\"]",
    r#"["x":1]"#,
    r#"[["a"]:1]"#,
    r#""x""#,
    "5",
];

#[test]
fn samples_and_edges_read_as_the_reference_reads_them() {
    for text in SAMPLES.iter().chain(EDGES) {
        let want = reference(text.as_bytes());
        let got = Packet::from_jtoo(text.as_bytes());
        assert!(same(&got, &want), "{text}: {got:?} vs {want:?}");
        // serde (`Frame::to_serde`) agrees on what is a packet.
        let serde = jtoo_serde::from_slice::<Packet>(text.as_bytes());
        match (&serde, &want) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{text}"),
            (Err(_), Err(_)) => {}
            _ => panic!("{text}: serde {serde:?} vs {want:?}"),
        }
    }
    // The samples are all valid.
    for text in SAMPLES {
        assert!(Packet::from_jtoo(text.as_bytes()).is_ok(), "{text}");
    }
}

#[test]
fn depth_limit_is_the_documents() {
    // 128 levels in all, the record being the first: accepted; 129: refused.
    for (depth, ok) in [(127, true), (128, false)] {
        let data = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        for key in ["data", "ext"] {
            let text = format!(r#"["{key}":{data}]"#);
            let want = reference(text.as_bytes());
            assert_eq!(want.is_ok(), ok, "{key} {depth}");
            let got = Packet::from_jtoo(text.as_bytes());
            assert!(same(&got, &want), "{key} {depth}: {got:?} vs {want:?}");
        }
    }
}

fn frame_bytes(jtoo: &[u8]) -> Vec<u8> {
    let mut out = format!("{:06x} {:06x} ", jtoo.len(), 0).into_bytes();
    out.extend_from_slice(jtoo);
    out.extend_from_slice(b" \n");
    out
}

#[test]
fn codec_fails_on_invalid_jtoo_and_goes_on_after_a_non_packet() {
    let mut codec = PacketCodec::new();
    let mut buf = BytesMut::new();
    buf.extend_from_slice(&frame_bytes(br#"["command":5]"#));
    buf.extend_from_slice(&frame_bytes(br#"["command":"ok"]"#));
    buf.extend_from_slice(&frame_bytes(br#"["command":"x""#));
    buf.extend_from_slice(&frame_bytes(br#"["command":"never"]"#));
    let e = codec.decode(&mut buf).unwrap_err();
    assert!(
        matches!(
            e,
            JteError::InvalidField {
                field: "command",
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(codec.decode(&mut buf).unwrap(), Some(Packet::command("ok")));
    let e = codec.decode(&mut buf).unwrap_err();
    assert!(matches!(e, JteError::Jtoo(_)), "{e:?}");
    let e = codec.decode(&mut buf).unwrap_err();
    assert!(matches!(e, JteError::Frame(FrameError::Unusable)), "{e:?}");
}

#[test]
fn codec_reads_split_input_and_checks_the_end() {
    let mut enc = PacketCodec::new();
    let mut all = BytesMut::new();
    let packets = [
        Packet::request("detect", "r1").with_timeout(5000),
        Packet::response("r1").with_data(jtoo::from_str(r#"["a":[1,2]]"#).unwrap()),
    ];
    for p in &packets {
        enc.encode(p.clone(), &mut all).unwrap();
    }
    for cut in 0..all.len() {
        let mut codec = PacketCodec::new();
        let mut buf = BytesMut::from(&all[..cut]);
        let mut got = Vec::new();
        while let Some(p) = codec.decode(&mut buf).unwrap() {
            got.push(p);
        }
        buf.extend_from_slice(&all[cut..]);
        while let Some(p) = codec.decode_eof(&mut buf).unwrap() {
            got.push(p);
        }
        assert_eq!(got, packets, "cut at {cut}");
    }
    // A stream that ends inside a frame.
    let mut codec = PacketCodec::new();
    let mut buf = BytesMut::from(&all[..all.len() - 1]);
    codec.decode(&mut buf).unwrap();
    let e = codec.decode_eof(&mut buf).unwrap_err();
    assert!(
        matches!(e, JteError::Frame(FrameError::Truncated { .. })),
        "{e:?}"
    );
}

/// Bytes that matter to the grammar, for mutations.
const ALPHABET: &[u8] = b"[]:,\"\\YNBDTSZ~+-_.0123456789abcdefx \x00\x7f\xc3\xa9";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn mutated_packets_read_as_the_reference_reads_them(
        which in 0..SAMPLES.len(),
        edits in proptest::collection::vec((0usize..200, 0usize..ALPHABET.len(), 0u8..3), 1..4),
    ) {
        let mut text = SAMPLES[which].as_bytes().to_vec();
        for (at, c, op) in edits {
            let at = at % (text.len() + 1);
            let c = ALPHABET[c];
            match op {
                0 => text.insert(at, c),
                1 if at < text.len() => { text.remove(at); }
                _ if at < text.len() => text[at] = c,
                _ => text.push(c),
            }
        }
        let want = reference(&text);
        let got = Packet::from_jtoo(&text);
        prop_assert!(same(&got, &want), "{:?}: {:?} vs {:?}", String::from_utf8_lossy(&text), got, want);
        // Through frames: a packet, or the same error; invalid JTOO only
        // when the frame codec also refuses the frame.
        let mut buf = BytesMut::from(&frame_bytes(&text)[..]);
        let got = PacketCodec::new().decode(&mut buf);
        let frame = FrameCodec::new().decode(&mut BytesMut::from(&frame_bytes(&text)[..]));
        match (&got, &want) {
            (Ok(Some(a)), Ok(b)) => prop_assert_eq!(a, b),
            (Err(JteError::Jtoo(_)), Err(JteError::Jtoo(_))) => {
                prop_assert!(matches!(frame, Err(FrameError::InvalidJtoo(_))));
            }
            (Err(JteError::NotARecord), _) if text.is_empty() => {}
            (Err(a), Err(b)) => prop_assert_eq!(format!("{a:?}"), format!("{b:?}")),
            _ => prop_assert!(false, "{:?}: {:?} vs {:?}", String::from_utf8_lossy(&text), got, want),
        }
        if matches!(frame, Ok(Some(_))) {
            prop_assert!(!matches!(got, Err(JteError::Jtoo(_))));
        }
    }
}
