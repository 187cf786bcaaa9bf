//! The one packet reader (`Packet::from_jtoo`, `PacketCodec`, and
//! `Packet::from_owned_value` on a `jtoo::Value`) against a reference
//! written here, straight from the rules of packets on a `jtoo::Value`:
//! for valid and mutated packets alike, the same packet or the same error,
//! and invalid JTOO is never accepted.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use bytes::BytesMut;
use jte::{JteError, Packet, PacketCodec};
use jtoo::{Item, Value};
use jtoo_frame::{FrameCodec, FrameError};
use proptest::prelude::*;
use tokio_util::codec::{Decoder, Encoder};

/// The reference: parse to a value, then read the packet from it by the
/// rules (a list of pairs with string keys; unknown keys ignored; a known
/// key once; strings, a number >= 0 of milliseconds (an integer that fits
/// a `u64`, a decimal rounded up), a boolean; any `data`).
fn reference(text: &[u8]) -> Result<Packet, JteError> {
    let value = jtoo::from_slice(text)?;
    let by_value = Packet::from_owned_value(value.clone());
    let by_rules = rules(value);
    assert!(same(&by_value, &by_rules), "{by_value:?} vs {by_rules:?}");
    by_rules
}

fn rules(value: Value) -> Result<Packet, JteError> {
    let Value::List(items) = value else {
        return Err(JteError::NotARecord);
    };
    let mut p = Packet::default();
    let mut seen = Vec::new();
    for item in items {
        let Item::Pair(pair) = item else {
            return Err(JteError::NotARecord);
        };
        let (key, value) = pair.into_parts();
        let Value::String(key) = key else {
            return Err(JteError::NotARecord);
        };
        let field = match key.as_str() {
            "command" => "command",
            "rpcid" => "rpcid",
            "resid" => "resid",
            "timeout" => "timeout",
            "cont" => "cont",
            "error" => "error",
            "datatype" => "datatype",
            "data" => "data",
            _ => continue,
        };
        if seen.contains(&field) {
            return Err(JteError::DuplicateKey(field.to_owned()));
        }
        seen.push(field);
        let bad = |expected| JteError::InvalidField { field, expected };
        let string = |v: Value| match v {
            Value::String(s) => Ok(Some(s.as_str().to_owned())),
            _ => Err(bad("a string")),
        };
        match field {
            "command" => p.command = string(value)?,
            "rpcid" => p.rpcid = string(value)?,
            "resid" => p.resid = string(value)?,
            "error" => p.error = string(value)?,
            "datatype" => p.datatype = string(value)?,
            "cont" => p.cont = value.as_bool().ok_or(bad("a boolean"))?,
            "timeout" => {
                let ms = match &value {
                    Value::Integer(i) => i.to_u64(),
                    Value::Decimal(d) if d.is_negative() && d.coefficient() != 0 => None,
                    Value::Decimal(d) => Some(ceil_ms(d.coefficient(), d.exponent())),
                    _ => None,
                };
                p.timeout = Some(ms.ok_or(bad("a number >= 0 (milliseconds)"))?);
            }
            _ => p.data = Some(jtoo_serde::RawBuf::from_value(&value).unwrap()),
        }
    }
    Ok(p)
}

/// `c × 10^e` rounded up, saturating at `u64::MAX`.
fn ceil_ms(c: u128, e: i32) -> u64 {
    let mut whole = c;
    let mut fraction = false;
    if e >= 0 {
        for _ in 0..e {
            whole = whole.saturating_mul(10);
        }
    } else {
        for _ in 0..e.unsigned_abs() {
            fraction |= !whole.is_multiple_of(10);
            whole /= 10;
        }
    }
    u64::try_from(whole + u128::from(fraction)).unwrap_or(u64::MAX)
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
    r#"["timeout":1.5]"#,
    r#"["timeout":-0.0]"#,
    r#"["timeout":-1.5]"#,
    r#"["timeout":0.000_000_000_000_000_000_000_000_000_000_000_000_000_1]"#,
    r#"["timeout":18_446_744_073_709_551_616.5]"#,
    r#"["timeout":1.0e30]"#,
    r#"["cont":N,"cont":Y]"#,
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
fn timeouts_are_exact() {
    let ms = |t: &str| {
        Packet::from_jtoo(format!(r#"["timeout":{t}]"#).as_bytes())
            .map(|p| p.timeout)
            .map_err(|e| e.to_string())
    };
    assert_eq!(ms("1.5"), Ok(Some(2)));
    assert_eq!(ms("2.0"), Ok(Some(2)));
    assert_eq!(ms("0.000_000_000_000_000_000_1"), Ok(Some(1)));
    assert_eq!(ms("18_446_744_073_709_551_615"), Ok(Some(u64::MAX)));
    assert_eq!(ms("18_446_744_073_709_551_616.5"), Ok(Some(u64::MAX)));
    let e = ms("18_446_744_073_709_551_616").unwrap_err();
    assert_eq!(
        e,
        "JTE packet: `timeout` must be a number >= 0 (milliseconds)"
    );
    assert!(ms("-1.5").is_err());
    assert!(ms("-1").is_err());
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
        Packet::response("r1").with_data(jtoo_serde::RawBuf::from_text(r#"["a":[1,2]]"#).unwrap()),
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
