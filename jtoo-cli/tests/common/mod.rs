//! Running the `jtoo` binary from the CLI's test crates.

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

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
