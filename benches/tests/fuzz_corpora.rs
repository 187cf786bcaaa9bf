//! Replays the committed fuzz corpora (`fuzz/corpus/TARGET/*`: the seeds and
//! every kept crash input) through the fuzz target bodies, so a plain
//! `cargo test` checks them without cargo-fuzz.
#![forbid(unsafe_code)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

fn corpus_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target)
}

fn replay(target: &str) {
    let body = jtoo_fuzz_targets::target(target).expect("a known target");
    let dir = corpus_dir(target);
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    assert!(!entries.is_empty(), "{}: empty corpus", dir.display());
    for path in entries {
        let data = std::fs::read(&path).unwrap();
        let outcome = std::panic::catch_unwind(|| body(&data));
        assert!(outcome.is_ok(), "{target}: {} fails", path.display());
    }
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
fn jte_osc_corpus() {
    replay("jte_osc");
}

#[test]
fn greeting_corpus() {
    replay("greeting");
}
