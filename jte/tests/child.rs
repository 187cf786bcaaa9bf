//! The peer over a child process's stdin and stdout: JTOO frames after the
//! greeting handshake. The child is this test binary again, started with
//! the argument `stdio`, serving the `rpc` example's commands (a test
//! without libtest's harness, so nothing else writes to its stdout).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[allow(dead_code)]
#[path = "../examples/rpc.rs"]
mod example;

#[path = "one_test.rs"]
mod one_test;
use futures::StreamExt;
use jte::{Peer, Transport};
use std::process::Stdio;

async fn calls_over_a_child_processs_stdio() {
    let mut child = tokio::process::Command::new(std::env::current_exe().unwrap())
        .arg("stdio")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let peer = Peer::builder().start(Transport::connect_split(stdout, stdin).await.unwrap());
    let styled: String = peer
        .call("term:setstyle", &jtoo::from_str(r#"["color":3]"#).unwrap())
        .await
        .unwrap();
    assert_eq!(styled, "color 3");
    let e = peer
        .call::<_, String>("term:setstyle", &jtoo::from_str(r#"["color":99]"#).unwrap())
        .await
        .unwrap_err();
    assert_eq!(e.to_string(), "remote error: ECRANGE: color 99 is over 15");
    let lines: Vec<String> = peer
        .call_stream::<_, String>("file:tail", &3u32)
        .await
        .unwrap()
        .map(Result::unwrap)
        .collect()
        .await;
    assert_eq!(lines, ["line 1", "line 2", "line 3"]);
    let total: i64 = peer
        .call_with_requests("math:sum", futures::stream::iter(1..=10i64))
        .await
        .unwrap();
    assert_eq!(total, 55);
    peer.close();
    drop(peer);
    assert!(child.wait().await.unwrap().success());
}

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    if std::env::args().nth(1).as_deref() == Some("stdio") {
        runtime.block_on(example::serve_stdio()).unwrap();
        std::process::exit(0);
    }
    if one_test::should_run("calls_over_a_child_processs_stdio") {
        runtime.block_on(calls_over_a_child_processs_stdio());
        println!("test calls_over_a_child_processs_stdio ... ok");
    }
}
