//! JTE packets: the protocol corpus through JSON → JTOO → frame → JTOO →
//! JSON, packet conversions, and the OSC scanner on terminal output.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use bytes::BytesMut;
use jte::osc::{self, Encoding, Osc, OscScanner, TermEvent};
use jte::{JteError, Packet, PacketCodec};
use jtoo_frame::{Frame, FrameCodec};
use proptest::prelude::*;
use serde_json::Value as Json;
use tokio_util::codec::{Decoder, Encoder};

fn corpus() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/corpus/protocols");
    let mut out = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("the protocol samples in testdata/corpus/protocols")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    entries.sort();
    for path in entries {
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, line) in text.lines().enumerate() {
            if !line.trim().is_empty() {
                out.push((format!("{}:{}", path.display(), i + 1), line.to_string()));
            }
        }
    }
    out
}

/// JSON as `to_json(from_json(..))` is expected to give it back: `{}` reads
/// back as `[]`, null members are gone.
fn normalise(j: &Json) -> Json {
    match j {
        Json::Object(m) if m.values().all(Json::is_null) => Json::Array(vec![]),
        Json::Object(m) => Json::Object(
            m.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), normalise(v)))
                .collect(),
        ),
        Json::Array(a) => Json::Array(a.iter().map(normalise).collect()),
        other => other.clone(),
    }
}

#[test]
fn corpus_through_json_jtoo_frame_jtoo_json() {
    let corpus = corpus();
    assert!(corpus.len() >= 40, "{} messages", corpus.len());
    let mut codec = FrameCodec::new();
    let mut wire = BytesMut::new();
    let mut expected = Vec::new();
    for (_, line) in &corpus {
        let json: Json = serde_json::from_str(line).unwrap();
        let value = jtoo::json::from_json(&json).unwrap();
        codec
            .encode(Frame::from_value(&value).unwrap(), &mut wire)
            .unwrap();
        expected.push(json);
    }
    for ((at, _), json) in corpus.iter().zip(&expected) {
        let frame = codec.decode(&mut wire).unwrap().unwrap();
        let text = frame.jtoo().unwrap();
        let value = jtoo::from_slice(text).unwrap();
        // Canonical: re-encoding gives the same bytes.
        assert_eq!(&jtoo::to_vec(&value).unwrap()[..], &text[..], "{at}");
        assert_eq!(jtoo::json::to_json(&value), normalise(json), "{at}");
    }
    assert!(wire.is_empty());
}

#[test]
fn jte_corpus_packets_in_both_encodings() {
    for (at, line) in corpus().iter().filter(|(at, _)| at.contains("jte.jsonl")) {
        let p = Packet::from_json_slice(line.as_bytes()).unwrap();
        // JTOO and JSON encodings read back to the same packet.
        assert_eq!(Packet::from_jtoo(&p.to_jtoo().unwrap()).unwrap(), p, "{at}");
        assert_eq!(
            Packet::from_json_slice(&p.to_json_vec().unwrap()).unwrap(),
            p,
            "{at}"
        );
        // The packet's JSON is the line's JSON (the seed writes no nulls).
        assert_eq!(
            p.to_json().unwrap(),
            normalise(&serde_json::from_str(line).unwrap()),
            "{at}"
        );
        assert_eq!(Packet::from_frame(&p.to_frame().unwrap()).unwrap(), p);
        // The serde path (jtoo-serde) agrees byte for byte and value for value.
        assert_eq!(
            jtoo_serde::to_vec(&p).unwrap(),
            p.to_jtoo().unwrap(),
            "{at}"
        );
        let frame = p.to_frame().unwrap();
        assert_eq!(frame.to_serde::<Packet>().unwrap(), p, "{at}");
        assert_eq!(Frame::from_serde(&p).unwrap(), frame, "{at}");
    }
}

#[test]
fn error_codes() {
    let p =
        Packet::from_json_slice(br#"{"resid": "0b8e", "error": "ECTIMEOUT: Request timed out"}"#)
            .unwrap();
    let code = p.error_code().unwrap();
    assert_eq!((code.code, code.message), ("TIMEOUT", "Request timed out"));
    assert!(
        Packet::response("x")
            .with_error("boom")
            .error_code()
            .is_none()
    );
}

#[test]
fn packet_field_rules() {
    let bad: &[(&str, &str)] = &[
        (r#"["command":1]"#, "command"),
        (r#"["timeout":-1]"#, "timeout"),
        (r#"["timeout":-0.5]"#, "timeout"),
        (r#"["timeout":"1"]"#, "timeout"),
        (r#"["cont":"yes"]"#, "cont"),
        (r#"["rpcid":"a","rpcid":"b"]"#, "duplicate"),
        (r#"[1]"#, "record"),
        (r#"[1:"a"]"#, "record"),
        (r#""x""#, "record"),
    ];
    for (text, what) in bad {
        let e = Packet::from_jtoo(text.as_bytes()).unwrap_err();
        let ok = match *what {
            "duplicate" => matches!(e, JteError::DuplicateKey(_)),
            "record" => matches!(e, JteError::NotARecord),
            field => matches!(e, JteError::InvalidField { field: f, .. } if f == field),
        };
        assert!(ok, "{text}: {e:?}");
    }
    // Unknown keys are extensions: ignored.
    let p = Packet::from_jtoo(br#"["command":"x","ext":[1,2],"cont":Y]"#).unwrap();
    assert_eq!(p, Packet::command("x").with_cont(true));
    // JSON nulls: a null member is absent, a null elsewhere is an error.
    let p = Packet::from_json_slice(br#"{"command":"x","data":null}"#).unwrap();
    assert_eq!(p, Packet::command("x"));
    assert!(Packet::from_json_slice(br#"{"command":"x","data":[null]}"#).is_err());
    assert!(Packet::from_json_slice(b"[1]").is_err());
}

#[test]
fn packet_codec_over_frames() {
    let mut codec = PacketCodec::new();
    let mut buf = BytesMut::new();
    let packets = vec![
        Packet::request("detect", "r1").with_timeout(5000),
        Packet::response("r1")
            .with_cont(true)
            .with_datatype("line")
            .with_data(jtoo_serde::to_raw("text").unwrap()),
        Packet::response("r1").with_error("ECDONE"),
    ];
    for p in &packets {
        codec.encode(p.clone(), &mut buf).unwrap();
    }
    let mut got = Vec::new();
    while let Some(p) = codec.decode_eof(&mut buf).unwrap() {
        got.push(p);
    }
    assert_eq!(got, packets);
    // A frame without a JTOO section is not a packet.
    let mut buf = BytesMut::from(&b"000000 000000  \n"[..]);
    assert!(matches!(codec.decode(&mut buf), Err(JteError::NotARecord)));
}

/// The codec reads each packet in place: a packet that breaks a rule after
/// some of its fields were read leaves nothing in the next one.
#[test]
fn packet_codec_reads_every_frame_afresh() {
    let mut frames = FrameCodec::new();
    let mut buf = BytesMut::new();
    for jtoo in [
        &br#"["command":"detect","datatype":"x","rpcid":5]"#[..],
        br#"["resid":"r2"]"#,
        br#"["command":"a","command":"b"]"#,
        br#"["cont":Y,"data":[1,2]]"#,
    ] {
        let frame = Frame::from_jtoo(bytes::Bytes::copy_from_slice(jtoo)).unwrap();
        frames.encode(frame, &mut buf).unwrap();
    }
    let mut codec = PacketCodec::new();
    assert!(matches!(
        codec.decode(&mut buf),
        Err(JteError::InvalidField { field: "rpcid", .. })
    ));
    assert_eq!(
        codec.decode(&mut buf).unwrap(),
        Some(Packet::response("r2"))
    );
    assert!(matches!(codec.decode(&mut buf), Err(JteError::DuplicateKey(k)) if k == "command"));
    let last = codec.decode(&mut buf).unwrap().unwrap();
    assert_eq!(
        last,
        Packet::default()
            .with_cont(true)
            .with_data(jtoo_serde::RawBuf::from_text("[1,2]").unwrap())
    );
    assert_eq!(codec.decode_eof(&mut buf).unwrap(), None);
}

/// Terminal output mixing text, SGR colours, other OSC sequences, and JTE
/// packets in both encodings, with or without `num-bytes`.
type Found = Vec<(Osc, Encoding, Packet)>;

fn terminal_stream() -> (Vec<u8>, Found, Vec<u8>) {
    let mut input = Vec::new();
    let mut output = Vec::new();
    let mut packets = Vec::new();
    let text: &[&[u8]] = &[
        b"plain text\r\n",
        b"\x1b[31mred\x1b[0m and \x1b[1;32mbold green\x1b[0m\n",
        b"\x1b]0;window title\x07",
        b"\x1b]2319;not jte\x07",
        b"\x1b]23198x;\x1b[K",
        b"\xe4\xbd\xa0\xe5\xa5\xbd \x1b",
        b"[2J",
    ];
    let corpus_packets: Vec<Packet> = corpus()
        .iter()
        .filter(|(at, _)| at.contains("jte.jsonl"))
        .map(|(_, l)| Packet::from_json_slice(l.as_bytes()).unwrap())
        .collect();
    for (i, p) in corpus_packets.iter().enumerate() {
        let t = text[i % text.len()];
        input.extend_from_slice(t);
        output.extend_from_slice(t);
        let osc = if i % 2 == 0 {
            Osc::ToTerminal
        } else {
            Osc::FromTerminal
        };
        let encoding = if i % 3 == 0 {
            Encoding::Json
        } else {
            Encoding::Jtoo
        };
        if i % 4 == 1 {
            let payload = match encoding {
                Encoding::Json => p.to_json_vec().unwrap(),
                Encoding::Jtoo => p.to_jtoo().unwrap(),
            };
            input.extend_from_slice(&osc::wrap(osc, &payload, false));
        } else {
            input.extend_from_slice(&osc::encode(p, osc, encoding).unwrap());
        }
        packets.push((osc, encoding, p.clone()));
    }
    input.extend_from_slice(b"$ ");
    output.extend_from_slice(b"$ ");
    (input, packets, output)
}

type Scanned = (Found, Vec<u8>, Vec<String>);

fn scan(input: &[u8], cuts: &[usize], max: usize) -> Scanned {
    let mut scanner = OscScanner::new().with_max_payload_len(max);
    let mut buf = BytesMut::new();
    let mut packets = Vec::new();
    let mut output = Vec::new();
    let mut invalid = Vec::new();
    let mut take = |e: TermEvent| match e {
        TermEvent::Output(b) => output.extend_from_slice(&b),
        TermEvent::Packet {
            osc,
            encoding,
            packet,
        } => packets.push((osc, encoding, packet)),
        TermEvent::Invalid { error, raw, .. } => {
            invalid.push(format!("{error} {}", String::from_utf8_lossy(&raw)));
        }
    };
    let mut points: Vec<usize> = cuts.iter().map(|&c| c.min(input.len())).collect();
    points.sort_unstable();
    points.push(input.len());
    let mut start = 0;
    for end in points {
        buf.extend_from_slice(&input[start..end.max(start)]);
        start = end.max(start);
        while let Some(e) = scanner.decode(&mut buf).unwrap() {
            take(e);
        }
    }
    while let Some(e) = scanner.decode_eof(&mut buf).unwrap() {
        take(e);
    }
    (packets, output, invalid)
}

#[test]
fn scanner_finds_packets_in_terminal_output() {
    let (input, packets, output) = terminal_stream();
    let (got, out, invalid) = scan(&input, &[], 1 << 20);
    assert!(invalid.is_empty(), "{invalid:?}");
    assert_eq!(got, packets);
    assert_eq!(out, output);
    assert!(got.iter().any(|(_, e, _)| *e == Encoding::Json));
    assert!(got.iter().any(|(_, e, _)| *e == Encoding::Jtoo));
    // One byte at a time.
    let cuts: Vec<usize> = (0..input.len()).collect();
    assert_eq!(scan(&input, &cuts, 1 << 20), (packets, output, invalid));
}

#[test]
fn scanner_invalid_sequences() {
    // A delimited payload that is not a packet: reported, consumed whole.
    let (got, out, invalid) = scan(b"a\x1b]23198;5;[1,2]\x07b", &[], 100);
    assert!(got.is_empty());
    assert_eq!(out, b"ab");
    assert_eq!(invalid.len(), 1);
    // A payload that is neither JSON nor JTOO.
    let (_, out, invalid) = scan(b"\x1b]23199;0;hello\x07", &[], 100);
    assert!(out.is_empty());
    assert!(invalid[0].contains("must start with"), "{invalid:?}");
    // num-bytes pointing past the BEL: only the header is skipped.
    let (_, out, invalid) = scan(b"\x1b]23198;3;[]\x07xy", &[], 100);
    assert_eq!(invalid.len(), 1);
    assert_eq!(out, b"[]\x07xy");
    // Over the limit, declared or read-to-BEL.
    let (_, _, invalid) = scan(b"\x1b]23198;101;", &[], 100);
    assert!(invalid[0].contains("too long"), "{invalid:?}");
    let mut long = b"\x1b]23198;0;[\"".to_vec();
    long.extend(std::iter::repeat_n(b'a', 200));
    long.extend_from_slice(b"\"]\x07");
    let (got, _, invalid) = scan(&long, &[], 100);
    assert!(got.is_empty());
    assert!(invalid[0].contains("too long"), "{invalid:?}");
    // Interrupted by ESC.
    let (_, out, invalid) = scan(b"\x1b]23198;0;[\"a\x1b[0m", &[], 100);
    assert!(invalid[0].contains("interrupted"), "{invalid:?}");
    assert_eq!(out, b"\x1b[0m");
    // An unfinished sequence at the end passes through.
    let (_, out, invalid) = scan(b"x\x1b]23198;12;[\"a", &[], 100);
    assert!(invalid.is_empty());
    assert_eq!(out, b"x\x1b]23198;12;[\"a");
}

#[test]
fn scanner_memory_is_bounded_by_the_limit() {
    let mut scanner = OscScanner::new().with_max_payload_len(1000);
    let mut buf = BytesMut::from(&b"\x1b]23198;0;["[..]);
    let mut events = 0;
    for _ in 0..100 {
        buf.extend_from_slice(&[b'1'; 100]);
        while scanner.decode(&mut buf).unwrap().is_some() {
            events += 1;
        }
        assert!(buf.len() <= 1100, "buffered {}", buf.len());
    }
    assert!(events > 0);
}

proptest! {
    #[test]
    fn scanner_any_chunking(cuts in proptest::collection::vec(0usize..3000, 0..30)) {
        let (input, packets, output) = terminal_stream();
        let (got, out, invalid) = scan(&input, &cuts, 1 << 20);
        prop_assert!(invalid.is_empty());
        prop_assert_eq!(got, packets);
        prop_assert_eq!(out, output);
    }

    #[test]
    fn scanner_any_chunking_with_limits(cuts in proptest::collection::vec(0usize..3000, 0..30), max in 20usize..200) {
        let (input, _, _) = terminal_stream();
        prop_assert_eq!(scan(&input, &cuts, max), scan(&input, &[], max));
    }
}
