//! `jtoo frame serve` under hostile clients and resource limits (issue 22):
//! each test starts the server as a child process, in some tests under a
//! shell `ulimit`, and checks what clients see and what it logs.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jtoo_frame::Frame;
use jtoo_frame::server::BUSY_REPLY;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::common::server::Serve;

/// Issue 22 defects 1 and 2: under a 1 GiB address-space limit, header-only
/// clients declaring the largest frame (`ffffff ffffff `) used to make the
/// server reserve 32 MiB each and abort after about 30 of them. (The soak
/// script runs 1,000.)
#[test]
fn a_memory_limited_server_survives_header_only_clients() {
    let mut serve = Serve::frame("-v 1048576", &["--quiet"]);
    let clients: Vec<TcpStream> = (0..120)
        .map(|_| {
            let mut s = serve.greeted("echo/1");
            s.write_all(b"ffffff ffffff ").unwrap();
            s
        })
        .collect();
    // Every one of them is waiting for its body; an honest client is served.
    serve.echoes(&Frame::from_binary(vec![5u8; 200_000]));
    assert!(serve.is_running());
    drop(clients);
    serve.echoes(&Frame::empty());
    assert!(serve.is_running());
}

#[test]
fn over_the_connection_cap_clients_get_the_busy_reply() {
    let serve = Serve::frame("", &["--max-connections", "3"]);
    let held: Vec<TcpStream> = (0..3).map(|_| serve.greeted("echo/1")).collect();
    // The three are established once each echoes.
    for mut s in &held {
        s.write_all(&Frame::empty().to_bytes().unwrap()).unwrap();
        let mut back = [0u8; 16];
        s.read_exact(&mut back).unwrap();
    }
    let mut extra = TcpStream::connect(&serve.addr).unwrap();
    extra
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut reply = Vec::new();
    extra.read_to_end(&mut reply).unwrap();
    assert_eq!(reply, BUSY_REPLY);
    drop(held);
    // The slots come back (the server notices the closes soon after).
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let mut s = serve.greeted("echo/1");
        s.write_all(&Frame::empty().to_bytes().unwrap()).unwrap();
        let mut back = [0u8; 16];
        match s.read_exact(&mut back) {
            Ok(()) => break,
            Err(_) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => panic!("no slot came back: {e}"),
        }
    }
}

#[test]
fn idle_and_frame_timeouts_close_connections() {
    let serve = Serve::frame("", &["--idle-timeout", "1", "--frame-timeout", "1"]);
    // Idle after the greeting: the server closes (EOF, not our 60 s read
    // timeout).
    let mut idle = serve.greeted("echo/1");
    let mut rest = Vec::new();
    idle.read_to_end(&mut rest).unwrap();
    assert!(rest.is_empty());
    // A frame started and never finished: closed too.
    let mut partial = serve.greeted("echo/1");
    partial.write_all(b"000000 000010  abc").unwrap();
    partial.read_to_end(&mut rest).unwrap();
    assert!(rest.is_empty());
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(serve.log_lines("idle timeout"), 1, "{:?}", serve.log);
    assert_eq!(serve.log_lines("frame timeout"), 1, "{:?}", serve.log);
}

/// Issue 22 defect 4: out of file descriptors, the accept loop used to
/// spin and log every failure (millions of lines). It backs off and logs
/// at most about once a second.
#[test]
fn out_of_descriptors_the_server_backs_off_and_recovers() {
    let mut serve = Serve::frame("-n 40", &["--quiet"]);
    let started = Instant::now();
    let mut held = Vec::new();
    for _ in 0..80 {
        match TcpStream::connect(&serve.addr) {
            Ok(s) => held.push(s),
            Err(_) => break,
        }
    }
    std::thread::sleep(Duration::from_secs(3));
    let failures = serve.log_lines("accept failed");
    let seconds = started.elapsed().as_secs();
    assert!(failures >= 1, "{:?}", serve.log);
    assert!(
        failures as u64 <= seconds + 2,
        "{failures} accept-error lines in {seconds} s"
    );
    drop(held);
    assert!(serve.is_running());
    // With descriptors back, it serves again.
    serve.echoes(&Frame::from_binary(&b"back"[..]));
}

/// `frame connect` reads its stdin by lines: an endless line is refused at
/// a bound instead of buffered until memory runs out (it used to grow one
/// `String` without limit; under a 1 GiB address-space cap that aborted).
#[test]
fn frame_connect_refuses_an_endless_stdin_line() {
    let serve = Serve::frame("", &["--quiet"]);
    let script = "ulimit -v 1048576 && head -c 3000000000 /dev/zero | tr '\\0' a \
                  | \"$0\" frame connect --addr \"$1\" --protocol echo/1";
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_jtoo"))
        .arg(&serve.addr)
        .output()
        .expect("run jtoo frame connect");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    assert!(
        stderr.contains("<stdin>:1: line longer than"),
        "stderr: {stderr}"
    );
}
