//! `jtoo jte serve` and `jtoo frame serve` against hostile clients (issue
//! 33, findings 2 and 3): both run under jtoo-frame's server runtime, so
//! tricklers are cut by the frame timeout, idle connections by the idle
//! timeout, a connection over the cap is answered at once, the listen
//! backlog is 4,096, and slow senders of long frames cannot lock new
//! clients out of the memory budget. Each test starts the real binary.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jtoo_frame::Frame;
use jtoo_frame::server::BUSY_REPLY;
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::Duration;

use crate::common::jtoo;
use crate::common::server::Serve;

/// Reads until the server closes the connection; panics if it does not
/// within [`PATIENCE`]. A reset counts as closed.
fn closed_by_server(s: &mut TcpStream) -> Vec<u8> {
    let mut got = Vec::new();
    match s.read_to_end(&mut got) {
        Ok(_) => got,
        Err(e) if e.kind() == ErrorKind::ConnectionReset => got,
        Err(e) => panic!("the server did not close the connection: {e}"),
    }
}

/// Sends `first`, then a byte every 200 ms (for at most a minute) until
/// the server closes the connection.
fn trickle(mut s: TcpStream, first: &[u8]) -> std::thread::JoinHandle<()> {
    s.write_all(first).unwrap();
    std::thread::spawn(move || {
        for _ in 0..300 {
            if s.write_all(b" ").is_err() {
                break;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    })
}

/// Issue 33, finding 2: a JTE connection trickling a byte at a time was
/// never cut (`jte serve` had no timeouts). The frame timeout cuts it, on
/// JSON lines (a frame is a line) and on JTOO frames.
#[test]
fn jte_serve_cuts_a_trickler_at_the_frame_timeout() {
    let flags = ["--frame-timeout", "1", "--idle-timeout", "600"];
    let lines = Serve::jte(&[&flags[..], &["--json-lines"]].concat());
    let mut s = lines.connect();
    let drip = trickle(s.try_clone().unwrap(), b"{\"command\":\"echo\",\"data\":\"");
    closed_by_server(&mut s);
    lines.wait_for_log("frame timeout", 1);
    drip.join().unwrap();

    let frames = Serve::jte(&flags);
    let mut s = frames.greeted("jte/1");
    let drip = trickle(s.try_clone().unwrap(), b"000100 000000 [");
    closed_by_server(&mut s);
    frames.wait_for_log("frame timeout", 1);
    drip.join().unwrap();
}

/// Issue 33, finding 2: connections that said nothing held every slot and
/// a new caller hung. Now a connection over the cap is closed at once
/// (JSON lines) or gets the 503 busy reply (frames), and the idle ones are
/// cut at the idle timeout, after which callers are served again.
#[test]
fn jte_serve_at_its_cap_answers_at_once_and_idle_slots_come_back() {
    let serve = Serve::jte(&[
        "--json-lines",
        "--max-connections",
        "3",
        "--idle-timeout",
        "2",
    ]);
    let idle: Vec<TcpStream> = (0..3).map(|_| serve.connect()).collect();
    serve.wait_for_log("accepted", 3);
    let mut extra = serve.connect();
    assert_eq!(closed_by_server(&mut extra), b"");
    serve.wait_for_log("refused: at the connection cap", 1);
    serve.wait_for_log("idle timeout", 3);
    let out = jtoo(
        &["jte", "call", &serve.addr, "echo", "1", "--json-lines"],
        b"",
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1\n");
    assert_eq!(out.status.code(), Some(0));
    drop(idle);

    let frames = Serve::jte(&["--max-connections", "2"]);
    let held: Vec<TcpStream> = (0..2).map(|_| frames.greeted("jte/1")).collect();
    frames.wait_for_log("accepted", 2);
    let mut extra = frames.connect();
    assert_eq!(closed_by_server(&mut extra), BUSY_REPLY);
    drop(held);
}

/// The kernel's listen backlog of the listening socket on `port`, from
/// `ss` (`None` when `ss` is not there).
fn backlog(filter: &[&str], needle: &str) -> Option<u32> {
    let out = Command::new("ss").args(filter).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text.lines().find(|l| l.contains(needle))?;
    // LISTEN  Recv-Q  Send-Q(= backlog)  …
    let fields: Vec<&str> = line.split_whitespace().collect();
    let at = fields.iter().position(|f| *f == "LISTEN")?;
    fields.get(at + 2)?.parse().ok()
}

/// Issue 33, finding 2: `jte serve` listened with a backlog of 128 (of
/// 1,000 simultaneous connections, 178–230 were reset); now 4,096 (or the
/// system's cap, `net.core.somaxconn`), over TCP and Unix sockets.
#[test]
fn jte_serve_listens_with_a_backlog_of_4096() {
    let somaxconn: u32 = std::fs::read_to_string("/proc/sys/net/core/somaxconn")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(4096);
    let want = somaxconn.min(4096);
    let tcp = Serve::jte(&["--json-lines"]);
    let port = tcp.addr.rsplit(':').next().unwrap().to_owned();
    let Some(got) = backlog(&["-ltnH"], &format!(":{port} ")) else {
        eprintln!("no `ss`: backlog not checked");
        return;
    };
    assert_eq!(got, want);
    let dir = std::env::temp_dir().join(format!("jtoo-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.sock");
    let listen = format!("unix:{}", path.display());
    let unix = Serve::start("", &["jte", "serve", "--listen", &listen]);
    let got = backlog(&["-lxH"], &path.display().to_string());
    drop(unix);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(got, Some(want));
}

/// Issue 33, finding 3: slow senders that declared long frames took the
/// whole budget of `frame serve`, and every new client's handshake timed
/// out until the frame timeout cut them. Now the senders over their fair
/// share are cut and new clients are served at once (here a 10 s greeting
/// timeout against a 600 s frame timeout).
#[test]
fn frame_serve_slow_senders_cannot_lock_new_clients_out() {
    let serve = Serve::frame(
        "-v 1048576",
        &[
            "--memory-budget-mib",
            "8",
            "--frame-timeout",
            "600",
            "--timeout",
            "10",
        ],
    );
    // 20 senders declare a 1,000,000-byte frame and send 600 KB of it
    // (12 MB against an 8 MiB budget), then wait.
    let hogs: Vec<_> = (0..20)
        .map(|_| {
            let mut s = serve.greeted("echo/1");
            std::thread::spawn(move || {
                let _ = s.write_all(b"000000 0f4240  ");
                let _ = s.write_all(&vec![7u8; 600_000]);
                let _ = s.read_to_end(&mut Vec::new());
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(1));
    let frame = Frame::from_binary(vec![3u8; 20_000]).to_bytes().unwrap();
    for _ in 0..10 {
        let mut c = serve.greeted("echo/1");
        c.write_all(&frame).unwrap();
        let mut back = vec![0u8; frame.len()];
        c.read_exact(&mut back).unwrap();
        assert_eq!(back, frame);
    }
    assert!(
        serve.log_lines("over its fair share") >= 1,
        "{:?}",
        serve.log
    );
    drop(serve);
    for hog in hogs {
        hog.join().unwrap();
    }
}

/// The same for `jte serve --json-lines` under a 1 GiB address-space
/// limit: 100 slow senders of long lines (900 KB each, 90 MB against a
/// 32 MiB budget) and 100 idle connections; a caller is still answered.
#[test]
fn jte_serve_under_1_gib_serves_callers_among_slow_senders() {
    let mut serve = Serve::start(
        "-v 1048576",
        &[
            "jte",
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--json-lines",
            "--quiet",
            "--memory-budget-mib",
            "32",
            "--frame-timeout",
            "600",
        ],
    );
    let hogs: Vec<_> = (0..100)
        .map(|_| {
            let mut s = serve.connect();
            std::thread::spawn(move || {
                let _ = s.write_all(b"{\"command\":\"echo\",\"rpcid\":\"1\",\"data\":\"");
                let _ = s.write_all(&vec![b'x'; 900_000]);
                let _ = s.read_to_end(&mut Vec::new());
            })
        })
        .collect();
    let idle: Vec<TcpStream> = (0..100).map(|_| serve.connect()).collect();
    std::thread::sleep(Duration::from_secs(1));
    for n in 0..5 {
        let data = n.to_string();
        let out = jtoo(
            &["jte", "call", &serve.addr, "echo", &data, "--json-lines"],
            b"",
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{n}\n"));
    }
    assert!(serve.is_running());
    drop(idle);
    drop(serve);
    for hog in hogs {
        hog.join().unwrap();
    }
}
