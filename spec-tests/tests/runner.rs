//! The runner binary against external programs: stand-ins that reject
//! everything, crash or hang (must be reported as failing, never as
//! passing). The runner against our `jtoo` CLI, which must pass everything
//! but the known failures, is jtoo-cli's `tests/conformance.rs`: there the
//! test uses the binary `cargo test` built.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::Value as Json;
use std::path::Path;
use std::process::Command;

const RUNNER: &str = env!("CARGO_BIN_EXE_spec-tests");

/// Runs the runner with `args` plus `--json`; returns its exit code and report.
fn run(args: &[&str]) -> (i32, Json) {
    let out = Command::new(RUNNER)
        .args(args)
        .arg("--json")
        .output()
        .expect("run spec-tests");
    let report: Json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "runner output is not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), report)
}

fn count(report: &Json, key: &str) -> u64 {
    report[key].as_u64().unwrap()
}

fn failures(report: &Json) -> Vec<String> {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["status"] == "fail")
        .map(|r| format!("{}: {}", r["id"], r["detail"]))
        .collect()
}

/// Number of case files under `cases/<rev>/<sub>` with extension `ext`.
fn count_cases(sub: &str, ext: &str) -> u64 {
    let dir = spec_tests::cases::default_cases_dir();
    let rev = spec_tests::latest_revision(&dir).unwrap();
    let all = spec_tests::cases::load(&dir.join(rev)).unwrap();
    all.iter()
        .filter(|c| {
            c.id.starts_with(sub) && c.id.ends_with(ext) && !c.id.ends_with(".canonical.jtoo")
        })
        .count() as u64
}

fn script(name: &str, body: &str) -> String {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    format!("sh {}", path.display())
}

#[test]
fn a_decoder_that_rejects_everything_fails_every_valid_case() {
    let reject = script("reject-all.sh", "cat >/dev/null\necho nope >&2\nexit 1");
    let (code, report) = run(&["--decoder", &reject]);
    assert_eq!(code, 1);
    assert_eq!(
        count(&report, "failed"),
        count_cases("valid/jtoo/", ".jtoo")
    );
    assert_eq!(
        count(&report, "passed"),
        count_cases("invalid/jtoo/", ".jtoo")
    );
    let results = report["results"].as_array().unwrap();
    let yes = results
        .iter()
        .find(|r| r["id"] == "valid/jtoo/bool/yes.jtoo")
        .unwrap();
    assert_eq!(yes["status"], "fail");
    assert!(
        yes["detail"]
            .as_str()
            .unwrap()
            .contains("rejected a valid document")
    );
    // Implementation-defined cases are reported, never counted.
    let depth = results
        .iter()
        .find(|r| r["id"] == "implementation-defined/jtoo/list/depth-129.jtoo")
        .unwrap();
    assert_eq!(depth["status"], "implementation-defined");
    assert_eq!(depth["detail"], "rejected");
}

#[test]
fn crashes_are_failures_even_on_invalid_input() {
    for (name, body) in [
        ("exit-3.sh", "exit 3"),
        ("killed.sh", "kill -9 $$"),
        ("exit-2.sh", "exit 2"),
    ] {
        let cmd = script(name, body);
        let (code, report) = run(&[
            "--decoder",
            &cmd,
            "--only",
            "invalid/jtoo/bool/",
            "--only",
            "valid/jtoo/bool/",
        ]);
        assert_eq!(code, 1, "{name}");
        assert_eq!(count(&report, "passed"), 0, "{name}: {report}");
        assert!(count(&report, "failed") >= 10, "{name}");
        for r in report["results"].as_array().unwrap() {
            assert!(
                r["detail"].as_str().unwrap().starts_with("crash:"),
                "{name}: {r}"
            );
        }
    }
}

#[test]
fn a_hanging_decoder_times_out() {
    let cmd = script("hang.sh", "exec sleep 5");
    let (code, report) = run(&[
        "--decoder",
        &cmd,
        "--only",
        "valid/jtoo/bool/yes",
        "--timeout",
        "0.3",
    ]);
    assert_eq!(code, 1);
    assert_eq!(failures(&report).len(), 1);
    assert!(failures(&report)[0].contains("timed out"));
}

#[test]
fn wrong_values_and_accepting_everything_fail() {
    let cmd = script(
        "always-yes.sh",
        "cat >/dev/null\necho '{\"type\": \"bool\", \"value\": \"true\"}'",
    );
    let (code, report) = run(&[
        "--decoder",
        &cmd,
        "--only",
        "valid/jtoo/bool/",
        "--only",
        "invalid/jtoo/bool/",
    ]);
    assert_eq!(code, 1);
    let results = report["results"].as_array().unwrap();
    let status = |id: &str| results.iter().find(|r| r["id"] == id).unwrap()["status"].clone();
    assert_eq!(status("valid/jtoo/bool/yes.jtoo"), "pass");
    assert_eq!(status("valid/jtoo/bool/no.jtoo"), "fail");
    assert_eq!(status("invalid/jtoo/bool/json-true.jtoo"), "fail");
}

#[test]
fn skips_are_reported_and_stale_skips_detected() {
    let skip = Path::new(env!("CARGO_TARGET_TMPDIR")).join("skips.txt");
    std::fs::write(
        &skip,
        "# a skip that still fails, one that passes, one that matches nothing\n\
         valid/jtoo/bool/no.jtoo\nvalid/jtoo/bool/yes.jtoo\nvalid/jtoo/nothing-here\n",
    )
    .unwrap();
    let cmd = script(
        "always-yes-2.sh",
        "cat >/dev/null\necho '{\"type\": \"bool\", \"value\": \"true\"}'",
    );
    let skip = skip.display().to_string();
    let (code, report) = run(&[
        "--decoder",
        &cmd,
        "--only",
        "valid/jtoo/bool/",
        "--skip",
        &skip,
    ]);
    assert_eq!(count(&report, "skipped"), 1);
    assert_eq!(count(&report, "stale"), 1);
    // Every other valid bool case fails (lists, and `N`-holding ones).
    let others = count_cases("valid/jtoo/bool/", ".jtoo") - 2;
    assert_eq!(count(&report, "failed"), others, "{report}");
    assert_eq!(report["unused_skips"][0], "valid/jtoo/nothing-here");
    assert_eq!(code, 1);
    // Text output ends with the summary line.
    let out = Command::new(RUNNER)
        .args([
            "--decoder",
            &cmd,
            "--only",
            "valid/jtoo/bool/",
            "--skip",
            &skip,
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("STALE valid/jtoo/bool/yes.jtoo"), "{text}");
    assert_eq!(
        text.lines().last(),
        Some(format!("1 passed, {others} failed, 1 skipped").as_str())
    );
}

#[test]
fn encoder_and_greeting_protocols_judge_outcomes() {
    let refuse = script("refuse.sh", "cat >/dev/null\nexit 1");
    let (code, report) = run(&["--encoder", &refuse]);
    assert_eq!(code, 1);
    assert_eq!(
        count(&report, "passed"),
        count_cases("invalid/tagged/", ".json")
    );
    // A responder that closes on everything passes only the terminate cases.
    let (_, report) = run(&["--greeting-checker", &refuse]);
    assert_eq!(
        count(&report, "passed"),
        count_cases("greeting/terminate/", ".frames")
    );
    // One that always replies 505 passes only the reply-505 cases.
    let reply = script(
        "reply-505.sh",
        "cat >/dev/null\nprintf '00002d 000000 [[\"code\":505,\"error\":\"unsupported protocol\"]] \\n'\nexit 1",
    );
    let (_, report) = run(&["--greeting-checker", &reply]);
    assert_eq!(
        count(&report, "passed"),
        count_cases("greeting/reply-505/", ".frames")
    );
}

#[test]
fn a_crash_on_an_implementation_defined_case_is_a_failure() {
    // Accepting or rejecting 100,000 nested lists are both fine; crashing is not.
    let cmd = script("killed-open.sh", "cat >/dev/null\nkill -9 $$");
    let (code, report) = run(&["--decoder", &cmd, "--only", "implementation-defined/jtoo/"]);
    assert_eq!(code, 1);
    let cases = count_cases("implementation-defined/jtoo/", ".jtoo");
    assert!(cases >= 5);
    assert_eq!(count(&report, "failed"), cases, "{report}");
    assert_eq!(count(&report, "implementation_defined"), 0);
    for f in failures(&report) {
        assert!(f.contains("crash on an implementation-defined case"), "{f}");
    }
    // Rejecting them is reported, not counted.
    let reject = script("reject-open.sh", "cat >/dev/null\nexit 1");
    let (code, report) = run(&[
        "--decoder",
        &reject,
        "--only",
        "implementation-defined/jtoo/",
    ]);
    assert_eq!(code, 0);
    assert_eq!(count(&report, "implementation_defined"), cases);
}

#[test]
fn htoo_mode_runs_the_strict_invalid_cases_that_stay_invalid() {
    let reject = script("reject-all-htoo.sh", "cat >/dev/null\nexit 1");
    let (_, report) = run(&["--htoo", "--decoder", &reject]);
    let dir = spec_tests::cases::default_cases_dir();
    let rev = dir.join(spec_tests::latest_revision(&dir).unwrap());
    let accepted_by_htoo = spec_tests::cases::htoo_accepts(&rev).unwrap().len() as u64;
    assert!(accepted_by_htoo >= 40, "{accepted_by_htoo}");
    let strict_invalid = count_cases("invalid/jtoo/", ".jtoo");
    // A decoder that rejects everything passes exactly the invalid checks.
    assert_eq!(
        count(&report, "passed"),
        count_cases("invalid/htoo/", ".htoo") + strict_invalid - accepted_by_htoo,
        "{report}"
    );
    let results = report["results"].as_array().unwrap();
    let ran = |id: &str| results.iter().any(|r| r["id"] == id);
    assert!(ran("invalid/jtoo/string/utf8-surrogate-d800.jtoo"));
    assert!(ran("invalid/jtoo/datetime/week-53-2023.jtoo"));
    assert!(!ran("invalid/jtoo/integer/missing-separator-01.jtoo"));
}

#[test]
fn the_jte_packet_role_judges_payloads() {
    // `cat` writes every payload back unchanged: it passes exactly the JTOO
    // payloads that are already in their comparison form, and fails every
    // payload that must be refused.
    let (code, report) = run(&["--jte-packet", "cat"]);
    assert_eq!(code, 1);
    let results = report["results"].as_array().unwrap();
    let status = |id: &str| results.iter().find(|r| r["id"] == id).unwrap()["status"].clone();
    assert_eq!(status("jte/valid/jtoo-decisions-example.jtoo"), "pass");
    assert_eq!(status("jte/valid/jtoo-fields-reordered.jtoo"), "fail");
    assert_eq!(status("jte/valid/json-request.json"), "fail");
    assert_eq!(status("jte/invalid/jtoo-duplicate-key.jtoo"), "fail");
    let refuse = script("refuse-packets.sh", "cat >/dev/null\nexit 1");
    let (_, report) = run(&["--jte-packet", &refuse]);
    assert_eq!(
        count(&report, "passed"),
        count_cases("jte/invalid/", ".json") + count_cases("jte/invalid/", ".jtoo")
    );
}

#[test]
fn an_interrupted_runner_leaves_no_command_behind() {
    // A decoder that forks a child which hangs; the runner is interrupted
    // (SIGINT, as Ctrl-C sends) while both hang.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("interrupted");
    std::fs::create_dir_all(&dir).unwrap();
    let pids = dir.join("pids");
    let _ = std::fs::remove_file(&pids);
    let cmd = script(
        "hang-and-fork.sh",
        &format!(
            "cat >/dev/null\nsleep 1000 & echo $! >> '{}'\nwait",
            pids.display()
        ),
    );
    let mut runner = Command::new(RUNNER)
        .args([
            "--decoder",
            &cmd,
            "--only",
            "valid/jtoo/bool/",
            "--jobs",
            "2",
        ])
        .args(["--timeout", "600"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let read_pids = || -> Vec<u32> {
        std::fs::read_to_string(&pids)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    };
    // Wait (generously) until both commands have forked their child.
    for _ in 0..600 {
        if read_pids().len() >= 2 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let children = read_pids();
    assert!(children.len() >= 2, "{children:?}");
    let status = Command::new("kill")
        .args(["-INT", &runner.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exit = runner.wait().unwrap();
    assert_eq!(exit.code(), Some(130), "{exit:?}");
    for pid in children {
        let mut gone = false;
        for _ in 0..200 {
            if !spec_tests::exec::is_running(pid) {
                gone = true;
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert!(
            gone,
            "the forked child {pid} outlived the interrupted runner"
        );
    }
}
