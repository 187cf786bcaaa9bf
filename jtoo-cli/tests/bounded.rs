//! Every command stops reading an endless input at the 256 MiB document or
//! token limit, with exit status 1 and a message, under an address-space
//! cap well below what reading it all would take (issue 33).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{Read, Write};
use std::process::Stdio;
use std::thread;

#[allow(dead_code)] // Only the capped start is used here.
use crate::common::spawn_capped;

/// 1 GiB of address space: the 256 MiB the commands hold at most, what
/// they build from it and the binary itself fit; an input read without
/// bound does not.
const CAP_KIB: usize = 1 << 20;

/// Runs `jtoo ARGS` capped, feeding it `prefix` and then `fill` forever
/// (until it stops reading); its exit code and stderr.
fn endless(args: &[&str], prefix: &'static [u8], fill: u8) -> (Option<i32>, String) {
    let mut child = spawn_capped(CAP_KIB, args);
    let mut stdin = child.stdin.take().unwrap();
    let writer = thread::spawn(move || {
        let chunk = vec![fill; 1 << 20];
        let mut sent = 0u64;
        if stdin.write_all(prefix).is_err() {
            return sent;
        }
        // Ends when jtoo closes its input (it exited): a broken pipe.
        while stdin.write_all(&chunk).is_ok() {
            sent += chunk.len() as u64;
        }
        sent
    });
    let mut stdout = child.stdout.take().unwrap();
    let drain = thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    let sent = writer.join().unwrap();
    let _ = drain.join().unwrap();
    // It read at least up to the limit before it stopped.
    assert!(sent >= 200 << 20, "{args:?}: only {sent} bytes sent: {err}");
    (status.code(), err)
}

#[test]
fn an_endless_string_stops_every_command_that_holds_its_document() {
    for args in [&["pretty"][..], &["decode", "--htoo"], &["to-json"]] {
        let (code, err) = endless(args, b"[\"", b'a');
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert!(
            err.contains("<stdin>: document too long: more than 256 MiB"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn an_endless_comment_or_line_stops_too() {
    let (code, err) = endless(&["pretty", "--htoo"], b"[1, /* ", b'c');
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("document too long"), "{err}");
    for args in [&["to-json", "--lines"][..], &["from-json", "--lines"]] {
        let (code, err) = endless(args, b"[1]\n\"", b'a');
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert!(
            err.contains("<stdin>: line too long: more than 256 MiB"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn encode_stops_reading_dev_zero() {
    // `jtoo encode < /dev/zero` used to read until memory ran out (3.6 GB
    // in 10 s).
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {CAP_KIB} && exec \"$0\" encode"))
        .arg(env!("CARGO_BIN_EXE_jtoo"))
        .stdin(Stdio::from(std::fs::File::open("/dev/zero").unwrap()))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(
        err.contains("<stdin>: document too long: more than 256 MiB"),
        "{err}"
    );
}

#[test]
fn encode_stops_at_an_endless_string_too() {
    let (code, err) = endless(&["encode"], b"{\"string\":\"", b'a');
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("document too long"), "{err}");
}
