//! The `jtoo` command's interfaces that other tools drive: exact stdout,
//! stderr and exit codes.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn jtoo(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_jtoo"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn jtoo");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn temp_file(name: &str, content: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jtoo-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

#[test]
fn fmt_writes_canonical_text_and_a_newline() {
    let out = jtoo(&["fmt"], br#"["a":1_000]"#);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"[\"a\":1_000]\n");
    assert!(out.stderr.is_empty());
}

#[test]
fn fmt_htoo_normalises() {
    let out = jtoo(&["fmt", "--htoo"], b" [ \"a\" : 1000, // c\n 0.50, ]\n");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"[\"a\":1_000,0.5]\n");
}

#[test]
fn fmt_invalid_input_exits_1_with_position_and_no_stdout() {
    let out = jtoo(&["fmt"], b"[1,1000]");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        "<stdin>:1:7: invalid integer: more than three digits need `_` every three digits\n"
    );
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn fmt_reads_a_file_and_reports_its_name() {
    let path = temp_file("bad.jtoo", b"[1 ]");
    let out = jtoo(&["fmt", path.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with(&format!("{}:1:3: expected `,` or `]`", path.display())),
        "{err}"
    );
}

#[test]
fn usage_and_io_errors_exit_2() {
    assert_eq!(
        jtoo(&["fmt", "/nonexistent/x.jtoo"], b"").status.code(),
        Some(2)
    );
    assert_eq!(jtoo(&["fmt", "--bogus"], b"").status.code(), Some(2));
    assert_eq!(jtoo(&["no-such-command"], b"").status.code(), Some(2));
}

#[test]
fn check_reports_each_invalid_file() {
    let good = temp_file("good.jtoo", b"[Y,N]");
    let bad = temp_file("bad2.jtoo", b"[t,f]");
    let out = jtoo(&["check", good.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    let out = jtoo(
        &["check", good.to_str().unwrap(), bad.to_str().unwrap()],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    let report = String::from_utf8(out.stdout).unwrap();
    assert_eq!(report, format!("{}:1:2: expected a value\n", bad.display()));
}

#[test]
fn check_htoo_shows_a_caret_diagnostic() {
    let bad = temp_file("bad.htoo", b"[\n  [\"b\", 2 3],\n]\n");
    let out = jtoo(&["check", "--htoo", bad.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    let report = String::from_utf8(out.stdout).unwrap();
    assert!(report.contains(":2:11: expected `,` or `]`"), "{report}");
    assert!(report.contains("2 |   [\"b\", 2 3],"), "{report}");
    assert!(report.contains("^"), "{report}");
}

#[test]
fn pretty_round_trips_through_fmt() {
    let out = jtoo(&["pretty"], br#"["a":[1,2],"b":"x"]"#);
    assert_eq!(out.status.code(), Some(0));
    let back = jtoo(&["fmt", "--htoo"], &out.stdout);
    assert_eq!(back.stdout, b"[\"a\":[1,2],\"b\":\"x\"]\n");
}

#[test]
fn demo_runs_on_built_in_data() {
    let out = jtoo(&["demo"], b"");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("== canonical JTOO"));
    assert!(!text.contains("FAIL"));
    assert_eq!(text.matches("ok  ").count(), 3);
}

#[test]
fn text_file_commands_accept_one_final_newline_but_decode_does_not() {
    let out = jtoo(&["fmt"], b"[1]\n");
    assert_eq!(
        (out.status.code(), out.stdout.as_slice()),
        (Some(0), &b"[1]\n"[..])
    );
    let again = jtoo(&["fmt"], &out.stdout);
    assert_eq!(again.stdout, b"[1]\n");
    assert_eq!(jtoo(&["fmt"], b"[1]\n\n").status.code(), Some(1));
    assert_eq!(jtoo(&["check"], b"[1]\n").status.code(), Some(0));
    assert_eq!(jtoo(&["decode"], b"[1]\n").status.code(), Some(1));
}
