//! Replays the committed fuzz corpora (`fuzz/corpus/TARGET/*`: the seeds and
//! every kept crash input) through the fuzz target bodies, so a plain
//! `cargo test` checks them without cargo-fuzz.
#![forbid(unsafe_code)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

fn corpus_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target)
}

/// Corpus files that fail today because of an open bug in a library crate:
/// `(target, file name, the bug)`. They are replayed but not counted; when
/// the bug is fixed, delete the line (the test says so).
const KNOWN_FAILURES: &[(&str, &str, &str)] = &[];

fn replay(target: &str) {
    let body = jtoo_fuzz_targets::target(target).expect("a known target");
    let dir = corpus_dir(target);
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    assert!(!entries.is_empty(), "{}: empty corpus", dir.display());
    let mut failures = Vec::new();
    for path in entries {
        let data = std::fs::read(&path).unwrap();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let known = KNOWN_FAILURES
            .iter()
            .find(|(t, f, _)| *t == target && *f == file);
        let outcome = std::panic::catch_unwind(|| body(&data));
        match (outcome.is_ok(), known) {
            (true, None) => {}
            (false, Some((_, _, bug))) => eprintln!("{target}/{file}: known failure: {bug}"),
            (true, Some(_)) => eprintln!(
                "{target}/{file} passes now: remove it from KNOWN_FAILURES in {}",
                file!()
            ),
            (false, None) => failures.push(path.display().to_string()),
        }
    }
    assert!(
        failures.is_empty(),
        "{target}: failing inputs: {failures:#?}"
    );
}

#[test]
fn every_target_has_a_corpus() {
    for (name, _) in jtoo_fuzz_targets::TARGETS {
        assert!(corpus_dir(name).is_dir(), "no corpus for {name}");
    }
}

#[test]
fn jtoo_parse_corpus() {
    replay("jtoo_parse");
}

#[test]
fn htoo_parse_corpus() {
    replay("htoo_parse");
}

#[test]
fn value_roundtrip_corpus() {
    replay("value_roundtrip");
}

#[test]
fn frame_stream_corpus() {
    replay("frame_stream");
}

#[test]
fn typed_stream_corpus() {
    replay("typed_stream");
}

#[test]
fn jte_osc_corpus() {
    replay("jte_osc");
}

#[test]
fn greeting_corpus() {
    replay("greeting");
}

#[test]
fn pretty_roundtrip_corpus() {
    replay("pretty_roundtrip");
}

#[test]
fn serde_roundtrip_corpus() {
    replay("serde_roundtrip");
}

#[test]
fn server_session_corpus() {
    replay("server_session");
}

/// Found by `serde_roundtrip` (`corpus/serde_roundtrip/crash-negative-integer-beyond-i128`,
/// which the target skips): jtoo-serde read a negative integer below
/// `i128::MIN` into a `jtoo::Value` without its sign. serde has no primitive
/// for it, so it is now a clear error; it must never come back flipped.
#[test]
fn jtoo_serde_never_flips_the_sign_of_integers_below_i128() {
    for text in [
        "[-170_141_183_460_469_231_731_687_303_715_884_105_729]",
        "[N,-297_623_718_103_276_260_469_732_451_033_273_967_815:1]",
    ] {
        match jtoo_serde::from_str::<jtoo::Value>(text) {
            Ok(v) => assert_eq!(v, jtoo::from_str(text).unwrap(), "{text}"),
            Err(e) => assert!(e.to_string().contains("below i128::MIN"), "{text}: {e}"),
        }
    }
}

#[test]
fn document_roundtrip_corpus() {
    replay("document_roundtrip");
}

#[test]
fn stream_read_corpus() {
    replay("stream_read");
}
