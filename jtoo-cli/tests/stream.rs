//! `jtoo fmt` and `jtoo check` on inputs larger than the memory they may
//! use: an address-space cap (`ulimit -v`) below the input's size, and the
//! same bytes and verdicts as on a small input.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{Read, Write};
use std::process::Command;

#[allow(dead_code)] // Only the capped start is used here.
use crate::common::spawn_capped;
use std::thread;

/// One record, as a long document repeats it.
const RECORD: &[u8] = r#"["id":12_345,"name":"café \22bar\22\0a","tags":["a","b"],"at":D2024-05-06T07:08:09Z,"ok":Y,"ratio":0.125]"#.as_bytes();

/// `[RECORD,RECORD,…]` of at least `size` bytes, then `tail`, written to
/// `to` in pieces (the whole never exists in this process either).
fn write_document(mut to: impl Write, size: usize, tail: &[u8]) -> std::io::Result<u64> {
    let mut piece = Vec::with_capacity(1 << 20);
    let mut sent = 1u64;
    to.write_all(b"[")?;
    let mut first = true;
    while sent < size as u64 {
        piece.clear();
        while piece.len() < (1 << 20) - RECORD.len() - 1 {
            if !first {
                piece.push(b',');
            }
            first = false;
            piece.extend_from_slice(RECORD);
        }
        to.write_all(&piece)?;
        sent += piece.len() as u64;
    }
    to.write_all(tail)?;
    Ok(sent + tail.len() as u64)
}

/// Runs `jtoo ARGS` under an address-space cap of `cap_kib`, feeding it a
/// generated document of `size` bytes ending in `tail`; returns its exit
/// code, its stdout's length and last bytes, and its stderr.
fn capped(
    args: &str,
    cap_kib: usize,
    size: usize,
    tail: &'static [u8],
) -> (i32, u64, Vec<u8>, String) {
    let mut child = spawn_capped(cap_kib, &[args]);
    let stdin = child.stdin.take().unwrap();
    let writer = thread::spawn(move || write_document(stdin, size, tail));
    let mut stdout = child.stdout.take().unwrap();
    let reader = thread::spawn(move || {
        let (mut n, mut last, mut buf) = (0u64, Vec::new(), vec![0u8; 1 << 16]);
        loop {
            let k = stdout.read(&mut buf).unwrap();
            if k == 0 {
                return (n, last);
            }
            n += k as u64;
            last = buf[..k].iter().rev().take(64).rev().copied().collect();
        }
    });
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    let _ = writer.join().unwrap();
    let (n, last) = reader.join().unwrap();
    (status.code().unwrap_or(-1), n, last, stderr)
}

/// Above what the binary itself needs (about 40 MiB of address space in a
/// debug build, with the 8 MiB it holds before it streams), below the
/// inputs.
const CAP_KIB: usize = 48 << 10;
const SIZE: usize = 64 << 20;

#[test]
fn fmt_and_check_read_more_than_their_address_space() {
    // Valid: fmt writes the same bytes (strict JTOO is its own canonical
    // form) and a newline. (HTOO and `check` on valid input stream the
    // same way: see the tests below, on smaller inputs.)
    let (code, n, last, err) = capped("fmt", CAP_KIB, SIZE, b"]");
    assert_eq!(code, 0, "{err}");
    assert!(n > SIZE as u64, "{n}");
    assert!(
        last.ends_with(b"0.125]]\n"),
        "{:?}",
        String::from_utf8_lossy(&last)
    );

    // An error after 64 MB: found, with its position, exit 1.
    let (code, _, _, err) = capped("check", CAP_KIB, SIZE, b",x]");
    assert_eq!(code, 1, "{err}");
    assert!(err.starts_with("<stdin>:1:"), "{err}");
    assert!(err.contains("expected a value"), "{err}");
}

#[test]
fn a_small_input_is_read_whole_and_a_large_one_streamed_with_the_same_verdicts() {
    for (tail, verdict) in [
        (&b"]"[..], 0),
        (b"]\n", 0),
        (b"]\n\n", 1),
        (b",]", 1),
        (b"", 1),
    ] {
        for size in [1000, 9 << 20] {
            let (code, _, _, err) = capped("check", 1 << 30, size, tail);
            assert_eq!(code, verdict, "{size} {tail:?}: {err}");
        }
    }
}

#[test]
fn fmt_check_and_in_place_stream_a_large_file() {
    let dir = std::env::temp_dir().join(format!("jtoo-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let canonical = dir.join("big.jtoo");
    write_document(std::fs::File::create(&canonical).unwrap(), 9 << 20, b"]\n").unwrap();
    let spaced = dir.join("spaced.jtoo");
    write_document(std::fs::File::create(&spaced).unwrap(), 9 << 20, b" ]\n").unwrap();

    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_jtoo"))
            .args(args)
            .output()
            .unwrap()
    };
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let out = run(&["fmt", "--check", &path(&canonical)]);
    assert_eq!((out.status.code(), out.stdout.len()), (Some(0), 0));
    // Not strict JTOO: an error, as for a small file.
    let out = run(&["fmt", "--check", &path(&spaced)]);
    assert_eq!((out.status.code(), out.stdout.len()), (Some(1), 0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected `,` or `]`"));
    let out = run(&["fmt", "--check", "--htoo", &path(&spaced)]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), path(&spaced));

    let out = run(&["fmt", "--in-place", "--htoo", &path(&spaced)]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(&spaced).unwrap(),
        std::fs::read(&canonical).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_worst_case_shape_parses_to_a_value_under_an_address_space_cap() {
    // Issue 22 (worst-case shapes): 2 MB of `[1,1,…]` read whole into a
    // `Value` (inputs up to 8 MiB are) under a cap of 50 times its size.
    // A list item used to cost 64 bytes and its list was copied out of the
    // parser's stack: about 140 MB of address space (estimated); now 40-50 MB.
    let mut doc = b"[".to_vec();
    for _ in 0..999_999 {
        doc.extend_from_slice(b"1,");
    }
    doc.extend_from_slice(b"1]");
    let mut child = spawn_capped(100 << 10, &["fmt"]);
    let mut stdin = child.stdin.take().unwrap();
    let writer = thread::spawn(move || stdin.write_all(&doc).map(|()| doc));
    let out = child.wait_with_output().unwrap();
    let doc = writer.join().unwrap().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stdout.len(), doc.len() + 1);
    assert!(out.stdout.starts_with(&doc));
}

/// Issue 31: a long FILE that turns out invalid writes nothing (it is
/// checked in a first pass); only standard input too long to hold, which
/// cannot be read twice, leaves the output before the error (documented).
#[test]
fn fmt_of_a_long_invalid_file_writes_nothing() {
    let dir = std::env::temp_dir().join(format!("jtoo-stream-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.jtoo");
    write_document(std::fs::File::create(&bad).unwrap(), 9 << 20, b",x]").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_jtoo"))
        .args(["fmt", bad.to_str().unwrap()])
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout.len(), 0);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("expected a value"), "{err}");

    let (code, n, _, err) = capped("fmt", 1 << 30, 9 << 20, b",x]");
    assert_eq!(code, 1, "{err}");
    assert!(n > 0, "standard input is written as it is read");
}
