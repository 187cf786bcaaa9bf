//! A program and a terminal side calling each other both ways over a real
//! pseudo-terminal while the program prints ordinary text (the `terminal`
//! example, started as the program): every ordinary byte reaches the
//! screen in order, no JTE sequence does, and the terminal's policy
//! refuses the command hidden in a printed file (issue 22, item 12).
//!
//! The program is this test binary again, started with the argument
//! `program` (a test without libtest's harness, so nothing else writes to
//! the pty).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(unix)]
#[allow(dead_code)]
#[path = "../examples/terminal.rs"]
mod example;

#[cfg(unix)]
#[path = "one_test.rs"]
mod one_test;
#[cfg(unix)]
use {
    example::demo,
    jte::{Peer, terminal},
    std::sync::Arc,
    std::sync::atomic::{AtomicUsize, Ordering},
    std::time::Duration,
    tokio::io::AsyncReadExt,
    tokio::sync::Notify,
};

#[cfg(unix)]
async fn program_and_terminal_over_a_pty() {
    let exe = std::env::current_exe().unwrap();
    let (reader, writer, mut child) = demo::spawn_program(&exe).unwrap();
    let (screen_in, mut screen_out) = tokio::io::duplex(1 << 16);
    let screen = tokio::spawn(async move {
        let mut all = Vec::new();
        screen_out.read_to_end(&mut all).await.unwrap();
        all
    });
    let (transport, _keys) = terminal::terminal(reader, writer, screen_in);
    let exec_runs = Arc::new(AtomicUsize::new(0));
    let ready = Arc::new(Notify::new());
    let peer: Peer = demo::terminal_peer(transport, Arc::clone(&exec_runs), Arc::clone(&ready));
    let run = async {
        ready.notified().await;
        let status: String = peer.call("prog:status", &()).await.unwrap();
        assert_eq!(status, "running");
        peer.notify("prog:quit", &()).await.unwrap();
        assert!(child.wait().await.unwrap().success());
        peer.closed().await
    };
    let why = tokio::time::timeout(Duration::from_secs(60), run)
        .await
        .expect("the pty session finished");
    assert_eq!(&*why, "the other side closed the connection");
    let peer_denied = peer.stats().denied;
    drop(peer);
    let screen = screen.await.unwrap();
    let text = String::from_utf8(screen.clone()).unwrap();
    let expected = "hello from the program\nthe terminal is 80x24\n\
         --- notes.txt ---\nline one\nline two\n--- end ---\n\
         term:exec answered: remote error: ECDENIED: term:exec is not allowed\nbye\n";
    assert_eq!(text, expected);
    assert!(!screen.contains(&0x1b), "no escape reached the screen");
    // Neither the program's call nor the two packets in the file ran.
    assert_eq!(exec_runs.load(Ordering::SeqCst), 0);
    assert_eq!(peer_denied, 3);
}

#[cfg(unix)]
fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    if std::env::args().nth(1).as_deref() == Some("program") {
        runtime.block_on(demo::program()).unwrap();
        std::process::exit(0);
    }
    if one_test::should_run("program_and_terminal_over_a_pty") {
        runtime.block_on(program_and_terminal_over_a_pty());
        println!("test program_and_terminal_over_a_pty ... ok");
    }
}

#[cfg(not(unix))]
fn main() {}
