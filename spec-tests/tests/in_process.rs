//! Every case against our crates, in-process: `jtoo` (strict), `htoo`
//! (lenient), the canonical encoder and `spec_tests::tagged`; the frame cases
//! through `jtoo_frame::FrameCodec` and the greeting cases through
//! `jtoo_frame::Handshake::server`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jtoo_frame::bytes::BytesMut;
use jtoo_frame::tokio_util::codec::Decoder;
use jtoo_frame::{Frame, FrameCodec, FrameError, Handshake, HandshakeError};
use spec_tests::cases::{self, Case, Greeting, Kind, Syntax};
use spec_tests::compare;
use std::path::Path;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn rev_dir() -> std::path::PathBuf {
    let dir = cases::default_cases_dir();
    dir.join(spec_tests::latest_revision(&dir).expect("a revision"))
}

fn known_failures() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/known-failures.txt");
    spec_tests::runner::read_skips(&path).expect("known-failures.txt")
}

fn parse(syntax: Syntax, bytes: &[u8]) -> Result<jtoo::Value, jtoo::Error> {
    match syntax {
        Syntax::Jtoo => jtoo::from_slice(bytes),
        Syntax::Htoo => htoo::from_slice(bytes),
    }
}

/// Checks one case; `Err` says what went wrong.
fn check(case: &Case, syntax: Syntax) -> Result<(), String> {
    let input = std::fs::read(&case.path).map_err(|e| e.to_string())?;
    match case.kind {
        Kind::Valid(_) => {
            let expected = read_json(&case.sibling(".json"))?;
            let v = parse(syntax, &input).map_err(|e| format!("rejected: {e}"))?;
            compare::same(&expected, &spec_tests::tagged::to_tagged(&v))?;
            let canonical = match case.kind {
                Kind::Valid(Syntax::Htoo) => {
                    std::fs::read(case.sibling(".canonical.jtoo")).map_err(|e| e.to_string())?
                }
                _ => input.clone(),
            };
            let out = jtoo::to_vec(&v).map_err(|e| format!("encode: {e}"))?;
            if out != canonical {
                return Err(format!(
                    "encoded as {:?}, expected {:?}",
                    String::from_utf8_lossy(&out),
                    String::from_utf8_lossy(&canonical)
                ));
            }
            // The canonical text is strict JTOO with the same value.
            let again = jtoo::from_slice(&canonical).map_err(|e| format!("canonical: {e}"))?;
            if again != v {
                return Err("canonical text reads back as another value".into());
            }
            Ok(())
        }
        Kind::Invalid(_) => match parse(syntax, &input) {
            Ok(v) => Err(format!("accepted as {}", spec_tests::tagged::to_tagged(&v))),
            Err(_) => Ok(()),
        },
        _ => Ok(()),
    }
}

fn read_json(path: &Path) -> Result<serde_json::Value, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    compare::parse_json(&bytes)
}

/// The encoder half: tagged JSON → canonical bytes, and refusals.
fn check_encode(case: &Case) -> Result<(), String> {
    match case.kind {
        Kind::Valid(syntax) => {
            let tagged = read_json(&case.sibling(".json"))?;
            let want = match syntax {
                Syntax::Jtoo => std::fs::read(&case.path),
                Syntax::Htoo => std::fs::read(case.sibling(".canonical.jtoo")),
            }
            .map_err(|e| e.to_string())?;
            let v = spec_tests::tagged::from_tagged(&tagged)?;
            let out = jtoo::to_vec(&v).map_err(|e| e.to_string())?;
            if out == want {
                Ok(())
            } else {
                Err(format!("encoded as {:?}", String::from_utf8_lossy(&out)))
            }
        }
        Kind::TaggedInvalid => {
            let tagged = read_json(&case.path)?;
            match spec_tests::tagged::from_tagged(&tagged).map(|v| jtoo::to_vec(&v)) {
                Ok(Ok(out)) => Err(format!("encoded as {:?}", String::from_utf8_lossy(&out))),
                _ => Ok(()),
            }
        }
        _ => Ok(()),
    }
}

/// JSON text -> canonical JTOO through `jtoo::json::from_json_slice` (exact
/// numbers and member order whatever serde_json's features), and the
/// refusals.
fn check_from_json(case: &Case) -> Result<(), String> {
    let input = std::fs::read(&case.path).map_err(|e| e.to_string())?;
    let converted = jtoo::json::from_json_slice(&input)
        .map_err(|e| e.to_string())
        .and_then(|v| jtoo::to_vec(&v).map_err(|e| e.to_string()));
    check_written(case, case.kind == Kind::FromJsonValid, ".jtoo", converted)
}

/// A JTE payload through `jte::Packet` (JSON when it starts
/// with `{`, JTOO when with `[`), written back with `Packet::to_jtoo`.
fn check_jte_packet(case: &Case) -> Result<(), String> {
    use jte::Packet;
    let input = std::fs::read(&case.path).map_err(|e| e.to_string())?;
    let packet = match input.first() {
        Some(b'{') => Packet::from_json_slice(&input).map_err(|e| e.to_string()),
        Some(b'[') => Packet::from_jtoo(&input).map_err(|e| e.to_string()),
        _ => Err("neither JSON nor JTOO".to_string()),
    };
    let written = packet.and_then(|p| p.to_jtoo().map_err(|e| e.to_string()));
    check_written(
        case,
        case.kind == Kind::JtePacketValid,
        ".canonical.jtoo",
        written,
    )
}

/// Judges what a converter wrote: a valid case must give exactly the bytes
/// of its sibling `expected` file, an invalid one must be refused.
fn check_written(
    case: &Case,
    valid: bool,
    expected: &str,
    written: Result<Vec<u8>, String>,
) -> Result<(), String> {
    match (valid, written) {
        (true, Ok(out)) => {
            let want = std::fs::read(case.sibling(expected)).map_err(|e| e.to_string())?;
            if out == want {
                Ok(())
            } else {
                Err(format!("written as {:?}", String::from_utf8_lossy(&out)))
            }
        }
        (true, Err(e)) => Err(format!("refused: {e}")),
        (false, Ok(out)) => Err(format!("accepted as {:?}", String::from_utf8_lossy(&out))),
        (false, Err(_)) => Ok(()),
    }
}

fn is_known(id: &str, known: &[String]) -> bool {
    known.iter().any(|k| match k.strip_suffix('*') {
        Some(p) => id.starts_with(p),
        None => k == id,
    })
}

#[test]
fn every_case_in_process() {
    let all = cases::load(&rev_dir()).unwrap();
    let known = known_failures();
    let mut failures = Vec::new();
    let mut stale = Vec::new();
    let mut passed = 0;
    let mut record = |id: String, result: Result<(), String>| match (result, is_known(&id, &known))
    {
        (Ok(()), false) => passed += 1,
        (Ok(()), true) => stale.push(id),
        (Err(why), false) => failures.push(format!("{id}: {why}")),
        (Err(_), true) => {}
    };
    for case in &all {
        match case.kind {
            Kind::Valid(Syntax::Jtoo) => {
                record(case.id.clone(), check(case, Syntax::Jtoo));
                // An HTOO parser reads every JTOO document with the same value.
                record(format!("htoo:{}", case.id), check(case, Syntax::Htoo));
            }
            Kind::Valid(Syntax::Htoo) | Kind::Invalid(Syntax::Htoo) => {
                record(case.id.clone(), check(case, Syntax::Htoo));
            }
            Kind::Invalid(Syntax::Jtoo) => {
                record(case.id.clone(), check(case, Syntax::Jtoo));
                // HTOO behaves like JTOO: it rejects the case too, unless one
                // of its leniencies makes it valid (and then it must accept).
                let id = format!("htoo:{}", case.id);
                if case.htoo_accepts {
                    let input = std::fs::read(&case.path).unwrap();
                    let r = htoo::from_slice(&input)
                        .map(|_| ())
                        .map_err(|e| format!("listed in HTOO-ACCEPTS but rejected by htoo: {e}"));
                    record(id, r);
                } else {
                    record(id, check(case, Syntax::Htoo));
                }
            }
            Kind::ImplementationDefined(syntax) => {
                // Open behaviour, but it must not panic or overflow the stack.
                let input = std::fs::read(&case.path).unwrap();
                let _ = parse(syntax, &input);
            }
            _ => {}
        }
        if matches!(case.kind, Kind::FromJsonValid | Kind::FromJsonInvalid) {
            record(case.id.clone(), check_from_json(case));
        }
        if matches!(case.kind, Kind::JtePacketValid | Kind::JtePacketInvalid) {
            record(case.id.clone(), check_jte_packet(case));
        }
        if matches!(case.kind, Kind::Valid(_) | Kind::TaggedInvalid) {
            let id = match case.kind {
                Kind::Valid(_) => format!("encode:{}", case.sibling_id(".json")),
                _ => format!("encode:{}", case.id),
            };
            record(id, check_encode(case));
        }
    }
    println!("in-process: {passed} checks passed");
    assert!(
        failures.is_empty(),
        "{} in-process failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        stale.is_empty(),
        "known failures that now pass (remove them from tests/known-failures.txt): {stale:?}"
    );
}

#[test]
fn the_suite_is_big_enough_and_complete() {
    let all = cases::load(&rev_dir()).unwrap();
    assert!(all.len() >= 400, "only {} cases", all.len());
    for case in &all {
        match case.kind {
            Kind::Valid(Syntax::Jtoo) => assert!(case.sibling(".json").is_file(), "{}", case.id),
            Kind::Valid(Syntax::Htoo) => {
                assert!(case.sibling(".json").is_file(), "{}", case.id);
                assert!(case.sibling(".canonical.jtoo").is_file(), "{}", case.id);
            }
            Kind::FrameValid | Kind::FrameInvalid => {
                assert!(case.sibling(".json").is_file(), "{}", case.id)
            }
            _ => {}
        }
    }
    let coverage =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("COVERAGE.md")).unwrap();
    for clause in ["`E1`", "`E9`", "`X1`", "`d.ambiguous-key`", "`greet.505`"] {
        assert!(coverage.contains(&format!("| {clause} |")), "{clause}");
    }
}

/// A frame as the line `jtoo frame decode` prints.
fn frame_line(frame: &Frame) -> serde_json::Value {
    let hex: String = frame.binary().iter().map(|b| format!("{b:02x}")).collect();
    serde_json::json!({"jtoo": frame.jtoo_str(), "binary": hex})
}

/// Decodes `input` with a fresh [`FrameCodec`], feeding it `chunk` bytes at
/// a time and calling `decode_eof` at the end: the frames decoded, and the
/// error that stopped decoding, if any.
fn decode_frames(input: &[u8], chunk: usize) -> (Vec<serde_json::Value>, Option<FrameError>) {
    let mut codec = FrameCodec::new();
    let mut buf = BytesMut::new();
    let mut rest = input;
    let mut lines = Vec::new();
    loop {
        let eof = rest.is_empty();
        let next = if eof {
            codec.decode_eof(&mut buf)
        } else {
            codec.decode(&mut buf)
        };
        match next {
            Ok(Some(frame)) => lines.push(frame_line(&frame)),
            Ok(None) if eof => return (lines, None),
            Ok(None) => {
                let (now, later) = rest.split_at(chunk.min(rest.len()));
                buf.extend_from_slice(now);
                rest = later;
            }
            Err(e) => {
                // Every decoding error is final.
                assert!(codec.is_failed(), "codec usable after {e}");
                return (lines, Some(e));
            }
        }
    }
}

/// Checks a frame case with the whole input at once (`chunk` = its length)
/// or in smaller pieces.
fn check_frames(case: &Case, chunk: usize) -> Result<(), String> {
    let input = std::fs::read(&case.path).map_err(|e| e.to_string())?;
    let expected = std::fs::read_to_string(case.sibling(".json")).map_err(|e| e.to_string())?;
    let want: Vec<serde_json::Value> = expected
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).map_err(|e| format!("bad expected line {l:?}: {e}")))
        .collect::<Result<_, _>>()?;
    let (got, error) = decode_frames(&input, chunk.max(1));
    match (case.kind, &error) {
        (Kind::FrameValid, Some(e)) => {
            return Err(format!("rejected after {} frames: {e}", got.len()));
        }
        (Kind::FrameInvalid, None) => {
            return Err(format!("accepted as {} frames", got.len()));
        }
        _ => {}
    }
    let lower = |v: &serde_json::Value| {
        let mut v = v.clone();
        if let Some(s) = v.get("binary").and_then(|b| b.as_str()) {
            v["binary"] = s.to_ascii_lowercase().into();
        }
        v
    };
    let want: Vec<_> = want.iter().map(lower).collect();
    if got != want {
        return Err(format!(
            "frames {got:?}, expected {want:?}{}",
            error.map(|e| format!(" (then {e})")).unwrap_or_default()
        ));
    }
    Ok(())
}

/// The protocols the greeting cases' responder supports.
fn protocols() -> Vec<String> {
    std::fs::read_to_string(rev_dir().join("greeting/PROTOCOLS"))
        .expect("greeting/PROTOCOLS")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// Plays the initiator against `Handshake::server` over an in-memory
/// stream: sends the case's bytes, closes its side, and reads what the
/// server wrote until the server drops its end.
fn check_greeting(
    rt: &tokio::runtime::Runtime,
    case: &Case,
    protocols: &[String],
) -> Result<(), String> {
    let Kind::Greeting(want) = case.kind else {
        return Err("not a greeting case".into());
    };
    let input = std::fs::read(&case.path).map_err(|e| e.to_string())?;
    let (got, reply) = rt.block_on(async {
        let (mut client, server) = tokio::io::duplex(input.len() + 64 * 1024);
        client.write_all(&input).await.map_err(|e| e.to_string())?;
        client.shutdown().await.map_err(|e| e.to_string())?;
        let result = Handshake::new()
            .timeout(Duration::from_secs(5))
            .server(server, protocols)
            .await
            // Dropping the transport closes the server's end.
            .map(|(_framed, greeting)| greeting);
        let mut reply = Vec::new();
        client
            .read_to_end(&mut reply)
            .await
            .map_err(|e| e.to_string())?;
        Ok::<_, String>((result, reply))
    })?;
    let got = match got {
        Ok(_) => Greeting::Accept,
        Err(HandshakeError::UnsupportedProtocol(_)) => Greeting::Reply505,
        Err(e @ (HandshakeError::Timeout | HandshakeError::Frame(FrameError::Io(_)))) => {
            return Err(format!("handshake failed: {e}"));
        }
        Err(_) => Greeting::Terminate,
    };
    let want_reply: &[u8] = match got {
        Greeting::Reply505 => jtoo_frame::UNSUPPORTED_PROTOCOL_REPLY,
        _ => b"",
    };
    if reply != want_reply {
        return Err(format!(
            "{got:?} but wrote {:?}",
            String::from_utf8_lossy(&reply)
        ));
    }
    if got != want {
        return Err(format!("expected {want:?}, got {got:?}"));
    }
    Ok(())
}

#[test]
fn every_frame_and_greeting_case_in_process() {
    let all = cases::load(&rev_dir()).unwrap();
    let known = known_failures();
    let protocols = protocols();
    assert!(!protocols.is_empty());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (mut frames, mut greetings) = (0, 0);
    let mut failures = Vec::new();
    let mut stale = Vec::new();
    let mut passed = 0;
    let mut record = |id: String, result: Result<(), String>| match (result, is_known(&id, &known))
    {
        (Ok(()), false) => passed += 1,
        (Ok(()), true) => stale.push(id),
        (Err(why), false) => failures.push(format!("{id}: {why}")),
        (Err(_), true) => {}
    };
    for case in &all {
        match case.kind {
            Kind::FrameValid | Kind::FrameInvalid => {
                frames += 1;
                record(case.id.clone(), check_frames(case, usize::MAX));
                // The same frames when the input arrives byte by byte.
                record(format!("bytewise:{}", case.id), check_frames(case, 1));
            }
            Kind::Greeting(_) => {
                greetings += 1;
                record(case.id.clone(), check_greeting(&rt, case, &protocols));
            }
            _ => {}
        }
    }
    println!(
        "in-process: {frames} frame cases (x2), {greetings} greeting cases, {passed} checks passed"
    );
    assert!(
        frames >= 40 && greetings >= 20,
        "{frames} frame, {greetings} greeting cases"
    );
    assert!(
        failures.is_empty(),
        "{} in-process frame/greeting failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        stale.is_empty(),
        "known failures that now pass (remove them from tests/known-failures.txt): {stale:?}"
    );
}

#[test]
fn the_runner_and_jtoo_frame_agree_on_the_505_reply() {
    assert_eq!(
        spec_tests::runner::REPLY_505,
        jtoo_frame::UNSUPPORTED_PROTOCOL_REPLY
    );
}
