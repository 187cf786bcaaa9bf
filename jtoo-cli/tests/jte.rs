//! `jtoo jte call` and `jtoo jte serve`: exact stdout, stderr and exit
//! codes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use crate::common::jtoo;

/// `jtoo jte serve` on a free loopback port; killed on drop.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_jtoo"))
            .args(["jte", "serve", "--listen", "127.0.0.1:0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn jtoo jte serve");
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        let addr = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_owned();
        // Keep draining the log so the server never blocks on it.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        Server { child, addr }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn text(b: &[u8]) -> &str {
    std::str::from_utf8(b).unwrap()
}

#[test]
fn call_prints_the_answer_as_canonical_jtoo() {
    for extra in [&[][..], &["--json-lines"][..]] {
        let server = Server::start(extra);
        let mut args = vec![
            "jte",
            "call",
            &server.addr,
            "echo",
            r#"["a":1_000,"b":[Y,N]]"#,
        ];
        args.extend_from_slice(extra);
        let out = jtoo(&args, b"");
        assert_eq!(text(&out.stderr), "");
        assert_eq!(text(&out.stdout), "[\"a\":1_000,\"b\":[Y,N]]\n");
        assert_eq!(out.status.code(), Some(0));
    }
}

#[test]
fn call_streams_json_errors_and_timeouts() {
    let server = Server::start(&[]);
    let a = server.addr.as_str();
    let out = jtoo(
        &["jte", "call", a, "echo:stream", "[1,\"x\"]", "--stream"],
        b"",
    );
    assert_eq!(text(&out.stdout), "1\n\"x\"\n");
    assert_eq!(out.status.code(), Some(0));
    // Without --stream every answer is printed too, never only the first.
    let out = jtoo(&["jte", "call", a, "echo:stream", "[1,\"x\",Y]"], b"");
    assert_eq!(text(&out.stdout), "1\n\"x\"\nY\n");
    assert_eq!(out.status.code(), Some(0));
    let out = jtoo(&["jte", "call", a, "echo", "[\"a\":1.5]", "--json"], b"");
    assert_eq!(text(&out.stdout), "{\"a\":1.5}\n");
    let out = jtoo(&["jte", "call", a, "fail", "\"ECNOPE: not here\""], b"");
    assert_eq!(text(&out.stdout), "");
    assert_eq!(text(&out.stderr), "jtoo: remote error: ECNOPE: not here\n");
    assert_eq!(out.status.code(), Some(1));
    let out = jtoo(&["jte", "call", a, "no:such"], b"");
    assert_eq!(
        text(&out.stderr),
        "jtoo: remote error: ECUNKNOWN: unknown command no:such\n"
    );
    assert_eq!(out.status.code(), Some(1));
    let out = jtoo(
        &["jte", "call", a, "sleep", "60000", "--timeout", "0.2"],
        b"",
    );
    // The caller's timeout or the server's, whichever is first.
    assert!(
        text(&out.stderr).starts_with("jtoo: remote error: ECTIMEOUT: "),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(1));
    let out = jtoo(&["jte", "call", a, "echo", "[oops"], b"");
    assert!(
        text(&out.stderr).contains("DATA:1:"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(2));
    // JSON data gets the hints `check` gives.
    let out = jtoo(&["jte", "call", a, "echo", "[\"debug\": true]"], b"");
    assert!(
        text(&out.stderr).contains("help: booleans are `Y` / `N`"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn call_to_nobody_is_a_connection_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    drop(listener);
    let out = jtoo(&["jte", "call", &addr, "echo"], b"");
    assert!(text(&out.stderr).starts_with(&format!("jtoo: cannot connect to {addr}")));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn serve_stdio_answers_every_json_line_request() {
    let input = b"{\"command\":\"echo\",\"rpcid\":\"1\",\"data\":{\"a\":1}}\n\
        {\"command\":\"echo:stream\",\"rpcid\":\"2\",\"data\":[1,\"x\"]}\n\
        {\"command\":\"fail\",\"rpcid\":\"3\",\"data\":\"ECNOPE: no\"}\n\
        {\"command\":\"nope\",\"rpcid\":\"4\"}\n\
        {\"command\":\"echo\",\"data\":\"a notification\"}\n";
    let out = jtoo(&["jte", "serve", "--stdio", "--json-lines"], input);
    assert_eq!(out.status.code(), Some(0));
    // Handlers run concurrently: answers to different calls may come in
    // any order, a stream's in its own order.
    let mut lines: Vec<&str> = text(&out.stdout).lines().collect();
    let stream: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.contains("\"2\""))
        .collect();
    assert_eq!(
        stream,
        [
            r#"{"resid":"2","cont":true,"data":1}"#,
            r#"{"resid":"2","cont":true,"data":"x"}"#,
            r#"{"resid":"2"}"#
        ]
    );
    lines.sort_unstable();
    assert_eq!(
        lines,
        [
            r#"{"resid":"1","data":{"a":1}}"#,
            r#"{"resid":"2","cont":true,"data":"x"}"#,
            r#"{"resid":"2","cont":true,"data":1}"#,
            r#"{"resid":"2"}"#,
            r#"{"resid":"3","error":"ECNOPE: no"}"#,
            r#"{"resid":"4","error":"ECUNKNOWN: unknown command nope"}"#,
        ]
    );
}

#[cfg(unix)]
#[test]
fn serve_and_call_over_a_unix_socket() {
    let dir = std::env::temp_dir().join(format!("jtoo-jte-unix-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.sock");
    let addr = format!("unix:{}", path.display());
    let mut child = Command::new(env!("CARGO_BIN_EXE_jtoo"))
        .args(["jte", "serve", "--listen", &addr])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), format!("listening on {addr}"));
    let out = jtoo(&["jte", "call", &addr, "echo", "\"over unix\""], b"");
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(text(&out.stdout), "\"over unix\"\n");
    assert_eq!(out.status.code(), Some(0));
}
