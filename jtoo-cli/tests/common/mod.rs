//! Running the `jtoo` binary from the CLI's test crates.

pub mod server;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Starts jtoo with `args` and all three streams piped.
pub fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_jtoo"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn jtoo")
}

/// Runs jtoo with `args`, `stdin` as its input, to the end.
pub fn jtoo(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = spawn(args);
    // A command may exit before reading its input (a usage error).
    let _ = child.stdin.take().expect("piped stdin").write_all(stdin);
    child.wait_with_output().expect("jtoo runs")
}

/// Starts jtoo with `args` under an address-space cap of `cap_kib` KiB
/// (`ulimit -v`), all three streams piped: what it holds in memory must
/// stay below the cap, or its allocation fails and it aborts.
#[allow(dead_code)] // Not every test crate caps its runs.
pub fn spawn_capped(cap_kib: usize, args: &[&str]) -> Child {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {cap_kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_jtoo"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn capped jtoo")
}

/// Writes `content` to a file called `name` in a new directory of its own
/// and returns its path. Tests run in parallel, and two of them may use the
/// same name: each file gets its own directory so that they never meet.
#[allow(dead_code)] // Not every test crate writes files.
pub fn temp_file(name: &str, content: impl AsRef<[u8]>) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("jtoo-cli-tests-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create a test directory");
    let path = dir.join(name);
    std::fs::write(&path, content).expect("write a test file");
    path
}
