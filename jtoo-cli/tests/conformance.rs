//! The conformance suite against this package's `jtoo` binary: the
//! spec-tests runner drives `jtoo decode`, `encode`, `decode --htoo`,
//! `from-json`, `frame decode` and `frame check-greeting` over every case,
//! and everything passes but the known failures.
//!
//! The runner runs in-process here (its binary is a thin command line over
//! the same `spec_tests::runner`), so these tests use the `jtoo` that this
//! `cargo test` built. They used to live in spec-tests and build the binary
//! with a nested `cargo build -p jtoo-cli`, whose features differ from the
//! workspace test build's: a second build of six crates inside the test run.
//! spec-tests' own tests still check the runner's command line and that it
//! counts a decoder that rejects everything, crashes or hangs as failing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use spec_tests::cases::{self, Case};
use spec_tests::runner::{self, CheckResult, Config, Status, Summary};
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

const JTOO: &str = env!("CARGO_BIN_EXE_jtoo");

fn rev_dir() -> PathBuf {
    let dir = cases::default_cases_dir();
    dir.join(spec_tests::latest_revision(&dir).unwrap())
}

fn all_cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| cases::load(&rev_dir()).unwrap())
}

/// The crates' known failures (spec-tests' list, which its in-process
/// tests read too) and the CLI's own (`tests/known-failures.txt` here).
fn known_failures() -> Vec<String> {
    let crates = cases::default_cases_dir()
        .with_file_name("tests")
        .join("known-failures.txt");
    let cli = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/known-failures.txt");
    let mut skips = runner::read_skips(&crates).unwrap();
    skips.extend(runner::read_skips(&cli).unwrap());
    skips
}

/// A runner configuration with no command set, the known failures skipped,
/// and the runner binary's defaults.
fn config() -> Config {
    Config {
        rev_dir: rev_dir(),
        decoder: None,
        htoo: false,
        encoder: None,
        frame_decoder: None,
        greeting_checker: None,
        from_json: None,
        jte_packet: None,
        skips: known_failures(),
        only: Vec::new(),
        timeout: Duration::from_secs(10),
        jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
    }
}

/// Runs the suite; fails on any failed check or stale known failure.
fn passes(config: &Config) -> (Summary, Vec<CheckResult>) {
    let results = runner::run(config, all_cases());
    let failures: Vec<String> = results
        .iter()
        .filter_map(|r| match &r.status {
            Status::Fail(why) => Some(format!("{}: {why}", r.id)),
            Status::Stale => Some(format!("{}: passes, but is a known failure", r.id)),
            _ => None,
        })
        .collect();
    assert_eq!(failures, Vec::<String>::new());
    (Summary::of(&results), results)
}

/// Number of cases whose id starts with `prefix` and ends with `ext`.
fn count_cases(prefix: &str, ext: &str) -> usize {
    all_cases()
        .iter()
        .filter(|c| {
            c.id.starts_with(prefix) && c.id.ends_with(ext) && !c.id.ends_with(".canonical.jtoo")
        })
        .count()
}

#[test]
fn strict_decoder_and_encoder() {
    let (summary, _) = passes(&Config {
        decoder: Some(format!("{JTOO} decode")),
        encoder: Some(format!("{JTOO} encode")),
        ..config()
    });
    assert!(summary.passed >= 400, "{summary:?}");
    assert!(summary.reported > 0, "{summary:?}");
}

#[test]
fn htoo_decoder() {
    let (summary, _) = passes(&Config {
        htoo: true,
        decoder: Some(format!("{JTOO} decode --htoo")),
        ..config()
    });
    assert!(summary.passed >= 400, "{summary:?}");
}

#[test]
fn from_json() {
    let (summary, _) = passes(&Config {
        from_json: Some(format!("{JTOO} from-json")),
        ..config()
    });
    let cases = count_cases("from-json/", ".json");
    assert!(cases >= 40, "{cases}");
    assert_eq!(summary.passed, cases);
}

#[test]
fn frames_and_greetings() {
    // `--protocol P` for each protocol the responder must support.
    let protocols = std::fs::read_to_string(rev_dir().join("greeting/PROTOCOLS")).unwrap();
    let flags: String = protocols
        .lines()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| format!(" --protocol '{p}'"))
        .collect();
    assert!(!flags.is_empty());
    let (summary, _) = passes(&Config {
        frame_decoder: Some(format!("{JTOO} frame decode")),
        greeting_checker: Some(format!("{JTOO} frame check-greeting{flags}")),
        ..config()
    });
    let cases = count_cases("valid/frame/", ".frames")
        + count_cases("invalid/frame/", ".frames")
        + count_cases("greeting/", ".frames");
    assert!(cases >= 60, "only {cases} frame and greeting cases");
    assert_eq!(summary.passed + summary.skipped, cases, "{summary:?}");
}
