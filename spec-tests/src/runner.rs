//! Running the cases against external programs and judging the results.

use crate::cases::{Case, Greeting, Kind, Syntax};
use crate::compare;
use crate::exec::{self, Outcome};
use serde_json::Value as Json;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// What to run and how.
#[derive(Clone, Debug)]
pub struct Config {
    /// The revision folder (`cases/<rev>`).
    pub rev_dir: PathBuf,
    /// Decoder command: document on stdin, tagged JSON on stdout.
    pub decoder: Option<String>,
    /// The decoder is an HTOO decoder: run the valid JTOO cases, the HTOO
    /// cases, and the strict-invalid cases that stay invalid in HTOO.
    pub htoo: bool,
    /// Encoder command: tagged JSON on stdin, canonical JTOO on stdout.
    pub encoder: Option<String>,
    /// Frame decoder command: a frame stream on stdin, JSON lines on stdout.
    pub frame_decoder: Option<String>,
    /// Greeting checker command: a greeting on stdin; see the README.
    pub greeting_checker: Option<String>,
    /// JSON-to-JTOO converter command: JSON on stdin, canonical JTOO on stdout.
    pub from_json: Option<String>,
    /// JTE packet checker command: a packet payload (JSON or JTOO) on stdin,
    /// the packet's comparison form (canonical JTOO) on stdout.
    pub jte_packet: Option<String>,
    /// Case ids (or `prefix*` patterns) expected to fail.
    pub skips: Vec<String>,
    /// Only run checks whose id starts with one of these (all when empty).
    pub only: Vec<String>,
    /// Time limit for one run.
    pub timeout: Duration,
    /// Parallel runs.
    pub jobs: usize,
}

/// The verdict on one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Did what the case requires.
    Pass,
    /// Did not; the message says how.
    Fail(String),
    /// In the skip list and failed as expected.
    Skipped(String),
    /// In the skip list but passed: the skip is stale.
    Stale,
    /// An implementation-defined case: what the program did (never counted).
    Reported(String),
}

/// One check's result.
#[derive(Clone, Debug)]
pub struct CheckResult {
    /// The check id: the case id, prefixed with `encode:` for encoder checks.
    pub id: String,
    /// The verdict.
    pub status: Status,
}

/// Totals of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Checks that passed.
    pub passed: usize,
    /// Checks that failed (skipped checks are not counted here).
    pub failed: usize,
    /// Checks in the skip list that still fail.
    pub skipped: usize,
    /// Checks in the skip list that now pass.
    pub stale: usize,
    /// Implementation-defined cases reported.
    pub reported: usize,
}

impl Summary {
    /// Totals of `results`.
    pub fn of(results: &[CheckResult]) -> Summary {
        let mut s = Summary::default();
        for r in results {
            match r.status {
                Status::Pass => s.passed += 1,
                Status::Fail(_) => s.failed += 1,
                Status::Skipped(_) => s.skipped += 1,
                Status::Stale => s.stale += 1,
                Status::Reported(_) => s.reported += 1,
            }
        }
        s
    }

    /// The closing line: `N passed, N failed, N skipped`.
    pub fn line(&self) -> String {
        format!(
            "{} passed, {} failed, {} skipped",
            self.passed + self.stale,
            self.failed,
            self.skipped
        )
    }
}

#[derive(Clone, Copy, Debug)]
enum Role {
    Decode,
    Encode,
    Frame,
    Greet,
    FromJson,
    JtePacket,
}

struct Check<'a> {
    id: String,
    case: &'a Case,
    role: Role,
}

/// Reads a skip file: one check id or `prefix*` per line; `#` starts a comment.
pub fn read_skips(path: &Path) -> std::io::Result<Vec<String>> {
    Ok(crate::cases::id_list(&std::fs::read_to_string(path)?))
}

fn matches(pattern: &str, id: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => id.starts_with(prefix),
        None => pattern == id,
    }
}

/// Runs every applicable case; results are sorted by id.
pub fn run(config: &Config, cases: &[Case]) -> Vec<CheckResult> {
    let checks = plan(config, cases);
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(checks.len()));
    let jobs = config.jobs.max(1).min(checks.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..jobs {
            // Deep JSON is compared recursively: give workers a roomy stack.
            let worker = std::thread::Builder::new().stack_size(64 << 20);
            let spawned = worker.spawn_scoped(s, || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(check) = checks.get(i) else { break };
                    let status = judge(config, check);
                    if let Ok(mut r) = results.lock() {
                        r.push(CheckResult {
                            id: check.id.clone(),
                            status,
                        });
                    }
                }
            });
            if spawned.is_err() {
                break;
            }
        }
    });
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by(|a, b| a.id.cmp(&b.id));
    results
}

/// The ids of the checks `config` runs on `cases`, in the order they are
/// planned (what `manifest.json` lists per program kind).
pub fn planned_ids(config: &Config, cases: &[Case]) -> Vec<String> {
    plan(config, cases).into_iter().map(|c| c.id).collect()
}

fn plan<'a>(config: &Config, cases: &'a [Case]) -> Vec<Check<'a>> {
    let mut checks = Vec::new();
    for case in cases {
        let mut add = |role: Role, id: String| {
            if config.only.is_empty() || config.only.iter().any(|p| id.starts_with(p.as_str())) {
                checks.push(Check { id, case, role });
            }
        };
        if config.decoder.is_some() {
            let wanted = match case.kind {
                Kind::Valid(Syntax::Jtoo) | Kind::ImplementationDefined(Syntax::Jtoo) => true,
                // An HTOO parser behaves like a JTOO parser: it rejects every
                // strict-invalid document except those that one of HTOO's
                // leniencies makes valid.
                Kind::Invalid(Syntax::Jtoo) => !config.htoo || !case.htoo_accepts,
                Kind::Valid(Syntax::Htoo)
                | Kind::Invalid(Syntax::Htoo)
                | Kind::ImplementationDefined(Syntax::Htoo) => config.htoo,
                _ => false,
            };
            if wanted {
                add(Role::Decode, case.id.clone());
            }
        }
        if config.encoder.is_some() {
            match case.kind {
                Kind::Valid(_) => add(Role::Encode, format!("encode:{}", case.sibling_id(".json"))),
                Kind::TaggedInvalid => add(Role::Encode, format!("encode:{}", case.id)),
                _ => {}
            }
        }
        if config.frame_decoder.is_some()
            && matches!(case.kind, Kind::FrameValid | Kind::FrameInvalid)
        {
            add(Role::Frame, case.id.clone());
        }
        if config.greeting_checker.is_some() && matches!(case.kind, Kind::Greeting(_)) {
            add(Role::Greet, case.id.clone());
        }
        if config.from_json.is_some()
            && matches!(case.kind, Kind::FromJsonValid | Kind::FromJsonInvalid)
        {
            add(Role::FromJson, case.id.clone());
        }
        if config.jte_packet.is_some()
            && matches!(case.kind, Kind::JtePacketValid | Kind::JtePacketInvalid)
        {
            add(Role::JtePacket, case.id.clone());
        }
    }
    checks
}

fn judge(config: &Config, check: &Check<'_>) -> Status {
    let verdict = match check.role {
        Role::Decode => decode(config, check.case),
        Role::Encode => encode(config, check.case),
        Role::Frame => frame(config, check.case),
        Role::Greet => greet(config, check.case),
        Role::FromJson => from_json(config, check.case),
        Role::JtePacket => jte_packet(config, check.case),
    };
    if matches!(verdict, Status::Reported(_)) {
        return verdict;
    }
    if config.skips.iter().any(|p| matches(p, &check.id)) {
        return match verdict {
            Status::Pass => Status::Stale,
            Status::Fail(why) => Status::Skipped(why),
            other => other,
        };
    }
    verdict
}

fn read(path: &Path) -> Result<Vec<u8>, Status> {
    std::fs::read(path).map_err(|e| Status::Fail(format!("cannot read {}: {e}", path.display())))
}

fn read_json(path: &Path) -> Result<Json, Status> {
    let bytes = read(path)?;
    compare::parse_json(&bytes)
        .map_err(|e| Status::Fail(format!("bad expected JSON in {}: {e}", path.display())))
}

fn env_for<'a>(case: &'a Case, syntax: &'a str) -> [(&'a str, &'a str); 2] {
    [
        ("JTOO_TEST_CASE", case.id.as_str()),
        ("JTOO_TEST_SYNTAX", syntax),
    ]
}

fn decode(config: &Config, case: &Case) -> Status {
    let Some(cmd) = config.decoder.as_deref() else {
        return Status::Fail("no decoder".into());
    };
    let input = match read(&case.path) {
        Ok(i) => i,
        Err(s) => return s,
    };
    let syntax = if config.htoo { "htoo" } else { "jtoo" };
    let outcome = exec::run(cmd, &input, config.timeout, &env_for(case, syntax));
    match case.kind {
        Kind::Valid(_) => {
            let expected = match read_json(&case.sibling(".json")) {
                Ok(j) => j,
                Err(s) => return s,
            };
            match outcome {
                Outcome::Exited {
                    code: 0, stdout, ..
                } => check_tagged(&expected, &stdout),
                Outcome::Exited {
                    code: 1, stderr, ..
                } => Status::Fail(format!(
                    "rejected a valid document{}",
                    exec::stderr_tail(&stderr)
                )),
                other => Status::Fail(format!("crash: {}", other.describe())),
            }
        }
        Kind::ImplementationDefined(_) => match outcome {
            Outcome::Exited {
                code: 0, stdout, ..
            } => match read_json(&case.sibling(".json")) {
                Ok(expected) => match check_tagged(&expected, &stdout) {
                    Status::Pass => Status::Reported("accepted".into()),
                    Status::Fail(why) => Status::Reported(format!("accepted, wrong value: {why}")),
                    other => other,
                },
                Err(_) => Status::Reported("accepted".into()),
            },
            Outcome::Exited { code: 1, .. } => Status::Reported("rejected".into()),
            // Open behaviour is accepting or rejecting; a crash or a hang is
            // a failure here as everywhere (e.g. a stack overflow on deep
            // nesting).
            other => Status::Fail(format!(
                "crash on an implementation-defined case (accepting or rejecting are both fine): {}",
                other.describe()
            )),
        },
        _ => match outcome {
            Outcome::Exited { code: 1, .. } => Status::Pass,
            Outcome::Exited {
                code: 0, stdout, ..
            } => Status::Fail(format!(
                "accepted an invalid document: {}",
                preview(&stdout)
            )),
            other => Status::Fail(format!("crash: {}", other.describe())),
        },
    }
}

fn check_tagged(expected: &Json, stdout: &[u8]) -> Status {
    match compare::parse_json(stdout) {
        Ok(got) => match compare::same(expected, &got) {
            Ok(()) => Status::Pass,
            Err(why) => Status::Fail(why),
        },
        Err(e) => Status::Fail(format!("output is not JSON ({e}): {}", preview(stdout))),
    }
}

fn preview(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let text: String = text.chars().take(120).collect();
    format!("{text:?}")
}

fn encode(config: &Config, case: &Case) -> Status {
    let Some(cmd) = config.encoder.as_deref() else {
        return Status::Fail("no encoder".into());
    };
    let (input_path, expected) = match case.kind {
        Kind::Valid(Syntax::Jtoo) => (case.sibling(".json"), Some(case.path.clone())),
        Kind::Valid(Syntax::Htoo) => (case.sibling(".json"), Some(case.sibling(".canonical.jtoo"))),
        _ => (case.path.clone(), None),
    };
    convert(
        config,
        cmd,
        case,
        &input_path,
        expected.as_deref(),
        "tagged",
    )
}

fn from_json(config: &Config, case: &Case) -> Status {
    let Some(cmd) = config.from_json.as_deref() else {
        return Status::Fail("no JSON-to-JTOO converter".into());
    };
    let expected = (case.kind == Kind::FromJsonValid).then(|| case.sibling(".jtoo"));
    convert(config, cmd, case, &case.path, expected.as_deref(), "json")
}

fn jte_packet(config: &Config, case: &Case) -> Status {
    let Some(cmd) = config.jte_packet.as_deref() else {
        return Status::Fail("no JTE packet checker".into());
    };
    let expected = (case.kind == Kind::JtePacketValid).then(|| case.sibling(".canonical.jtoo"));
    convert(config, cmd, case, &case.path, expected.as_deref(), "jte")
}

/// Runs a program that writes canonical JTOO: with `expected`, it must write
/// exactly those bytes; without, it must refuse its input (exit 1).
fn convert(
    config: &Config,
    cmd: &str,
    case: &Case,
    input_path: &Path,
    expected: Option<&Path>,
    syntax: &str,
) -> Status {
    let input = match read(input_path) {
        Ok(i) => i,
        Err(s) => return s,
    };
    let outcome = exec::run(cmd, &input, config.timeout, &env_for(case, syntax));
    match (expected, outcome) {
        (
            Some(expected),
            Outcome::Exited {
                code: 0, stdout, ..
            },
        ) => {
            let expected = match read(expected) {
                Ok(e) => e,
                Err(s) => return s,
            };
            // Canonical JTOO never ends in a newline, so one trailing LF (or
            // CR LF, as written on Windows) is unambiguous and tolerated.
            let got = strip_line_end(&stdout);
            if got == expected.as_slice() {
                Status::Pass
            } else {
                Status::Fail(format!(
                    "expected {}, got {}",
                    preview(&expected),
                    preview(&stdout)
                ))
            }
        }
        (
            Some(_),
            Outcome::Exited {
                code: 1, stderr, ..
            },
        ) => Status::Fail(format!(
            "refused valid {}{}",
            if syntax == "json" {
                "JSON"
            } else {
                "tagged JSON"
            },
            exec::stderr_tail(&stderr)
        )),
        (None, Outcome::Exited { code: 1, .. }) => Status::Pass,
        (
            None,
            Outcome::Exited {
                code: 0, stdout, ..
            },
        ) => Status::Fail(format!(
            "converted input that has no JTOO form: {}",
            preview(&stdout)
        )),
        (_, other) => Status::Fail(format!("crash: {}", other.describe())),
    }
}

/// `bytes` without one final `\n` or `\r\n`.
pub fn strip_line_end(bytes: &[u8]) -> &[u8] {
    bytes
        .strip_suffix(b"\r\n")
        .or_else(|| bytes.strip_suffix(b"\n"))
        .unwrap_or(bytes)
}

fn frame(config: &Config, case: &Case) -> Status {
    let Some(cmd) = config.frame_decoder.as_deref() else {
        return Status::Fail("no frame decoder".into());
    };
    let input = match read(&case.path) {
        Ok(i) => i,
        Err(s) => return s,
    };
    let expected = match read(&case.sibling(".json")) {
        Ok(e) => e,
        Err(s) => return s,
    };
    let want_code = if case.kind == Kind::FrameValid { 0 } else { 1 };
    match exec::run(cmd, &input, config.timeout, &env_for(case, "frame")) {
        Outcome::Exited {
            code,
            stdout,
            stderr,
        } if code == 0 || code == 1 => {
            if code != want_code {
                return Status::Fail(if want_code == 0 {
                    format!(
                        "rejected a valid frame stream{}",
                        exec::stderr_tail(&stderr)
                    )
                } else {
                    format!("accepted an invalid frame stream: {}", preview(&stdout))
                });
            }
            compare_lines(&expected, &stdout)
        }
        other => Status::Fail(format!("crash: {}", other.describe())),
    }
}

fn compare_lines(expected: &[u8], got: &[u8]) -> Status {
    let lines = |b: &[u8]| -> Result<Vec<Json>, String> {
        String::from_utf8_lossy(b)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                serde_json::from_str::<Json>(l).map_err(|e| format!("bad JSON line {l:?}: {e}"))
            })
            .collect()
    };
    let (want, have) = match (lines(expected), lines(got)) {
        (Ok(w), Ok(h)) => (w, h),
        (Err(e), _) | (_, Err(e)) => return Status::Fail(e),
    };
    if want.len() != have.len() {
        return Status::Fail(format!(
            "expected {} frame lines, got {}: {}",
            want.len(),
            have.len(),
            preview(got)
        ));
    }
    for (i, (w, h)) in want.iter().zip(&have).enumerate() {
        let jtoo_ok = w.get("jtoo") == h.get("jtoo");
        let bin = |v: &Json| {
            v.get("binary")
                .and_then(Json::as_str)
                .map(str::to_ascii_lowercase)
        };
        if !jtoo_ok || bin(w) != bin(h) || h.as_object().is_none_or(|o| o.len() != 2) {
            return Status::Fail(format!(
                "frame {i}: expected {}, got {}",
                compare::short(w),
                compare::short(h)
            ));
        }
    }
    Status::Pass
}

/// The reply the spec mandates for an unsupported protocol.
pub const REPLY_505: &[u8] =
    b"00002d 000000 [[\"code\":505,\"error\":\"unsupported protocol\"]] \n";

fn greet(config: &Config, case: &Case) -> Status {
    let Some(cmd) = config.greeting_checker.as_deref() else {
        return Status::Fail("no greeting checker".into());
    };
    let Kind::Greeting(want) = case.kind else {
        return Status::Fail("not a greeting case".into());
    };
    let input = match read(&case.path) {
        Ok(i) => i,
        Err(s) => return s,
    };
    let protocols_file = config.rev_dir.join("greeting").join("PROTOCOLS");
    let protocols = std::fs::read_to_string(&protocols_file).unwrap_or_default();
    let protocols_file = protocols_file.display().to_string();
    let env = [
        ("JTOO_TEST_CASE", case.id.as_str()),
        ("JTOO_SUPPORTED_PROTOCOLS", protocols.trim_end()),
        ("JTOO_PROTOCOLS_FILE", protocols_file.as_str()),
    ];
    let got = match exec::run(cmd, &input, config.timeout, &env) {
        Outcome::Exited {
            code: 0, stdout, ..
        } if stdout.is_empty() => Greeting::Accept,
        Outcome::Exited {
            code: 1, stdout, ..
        } if stdout.is_empty() => Greeting::Terminate,
        Outcome::Exited {
            code: 1, stdout, ..
        } if stdout == REPLY_505 => Greeting::Reply505,
        Outcome::Exited { code, stdout, .. } if code == 0 || code == 1 => {
            return Status::Fail(format!(
                "exit {code} with an unexpected reply {}",
                preview(&stdout)
            ));
        }
        other => return Status::Fail(format!("crash: {}", other.describe())),
    };
    if got == want {
        Status::Pass
    } else {
        Status::Fail(format!("expected {want:?}, got {got:?}"))
    }
}

/// The skip-list patterns that matched no check (worth cleaning up).
pub fn unused_skips(config: &Config, results: &[CheckResult]) -> Vec<String> {
    let ids: BTreeSet<&str> = results.iter().map(|r| r.id.as_str()).collect();
    config
        .skips
        .iter()
        .filter(|p| !ids.iter().any(|id| matches(p, id)))
        .cloned()
        .collect()
}

/// The results as a JSON document (`--json`).
pub fn to_json(results: &[CheckResult], config: &Config) -> Json {
    let summary = Summary::of(results);
    let items: Vec<Json> = results
        .iter()
        .map(|r| {
            let (status, detail) = match &r.status {
                Status::Pass => ("pass", None),
                Status::Fail(d) => ("fail", Some(d.clone())),
                Status::Skipped(d) => ("skip", Some(d.clone())),
                Status::Stale => ("stale", Some("in the skip list but passes".to_string())),
                Status::Reported(d) => ("implementation-defined", Some(d.clone())),
            };
            let mut o = serde_json::Map::new();
            o.insert("id".into(), Json::from(r.id.clone()));
            o.insert("status".into(), Json::from(status));
            if let Some(d) = detail {
                o.insert("detail".into(), Json::from(d));
            }
            Json::Object(o)
        })
        .collect();
    serde_json::json!({
        "revision": config.rev_dir.file_name().map(|n| n.to_string_lossy().into_owned()),
        "passed": summary.passed + summary.stale,
        "failed": summary.failed,
        "skipped": summary.skipped,
        "stale": summary.stale,
        "implementation_defined": summary.reported,
        "unused_skips": unused_skips(config, results),
        "results": items,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn skip_patterns() {
        assert!(matches("valid/jtoo/*", "valid/jtoo/integer/zero.jtoo"));
        assert!(matches("a.jtoo", "a.jtoo"));
        assert!(!matches("a.jtoo", "a.jtoo2"));
    }

    #[test]
    fn one_line_end_is_tolerated() {
        assert_eq!(strip_line_end(b"[]\r\n"), b"[]");
        assert_eq!(strip_line_end(b"[]\n"), b"[]");
        assert_eq!(strip_line_end(b"[]\n\n"), b"[]\n");
        assert_eq!(strip_line_end(b"[]\r"), b"[]\r");
    }

    #[test]
    fn frame_lines_compare_binary_case_insensitively() {
        let want = br#"{"jtoo": null, "binary": "ab"}"#;
        let have = b"{\"binary\":\"AB\",\"jtoo\":null}\n";
        assert_eq!(compare_lines(want, have), Status::Pass);
        assert!(matches!(compare_lines(want, b""), Status::Fail(_)));
    }
}
