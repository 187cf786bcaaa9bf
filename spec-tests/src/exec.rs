//! Running an external command on one input, with a time limit.
//!
//! The command is a shell command line (`sh -c CMD` on Unix, `cmd /C CMD` on
//! Windows, passed to `cmd` verbatim so that its own quoting rules apply), so
//! `"python3 my_decoder.py --strict"` works as written.
//!
//! Nothing a command starts outlives its check. On Unix the shell is started
//! as the leader of a new process group, and when the run ends (the shell
//! exited, or the time limit passed) the whole group is killed: a decoder
//! that the shell started, and any child that decoder forked, go with it. On
//! Windows a timed-out command's process tree is killed with
//! `taskkill /T /F`. If the output pipes are still held open after that (a
//! process left the group on purpose), the runner stops waiting once the
//! time limit has passed and reports a timeout.

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};
use wait_timeout::ChildExt;

/// How a run ended.
#[derive(Debug)]
pub enum Outcome {
    /// The process exited with a code.
    Exited {
        /// The exit code.
        code: i32,
        /// Everything written to stdout.
        stdout: Vec<u8>,
        /// Everything written to stderr.
        stderr: Vec<u8>,
    },
    /// The process was ended by a signal (Unix), or exited without a code.
    Signaled {
        /// A description (e.g. `signal 11`).
        what: String,
        /// Everything written to stderr.
        stderr: Vec<u8>,
    },
    /// The process ran longer than the limit (or left its output open that
    /// long) and was killed with everything it started.
    TimedOut,
    /// The command could not be started.
    SpawnFailed(String),
}

impl Outcome {
    /// A one-line description of a run that is neither exit 0 nor exit 1.
    pub fn describe(&self) -> String {
        match self {
            Outcome::Exited { code, stderr, .. } => {
                format!("exit {code}{}", stderr_tail(stderr))
            }
            Outcome::Signaled { what, stderr } => {
                format!("killed by {what}{}", stderr_tail(stderr))
            }
            Outcome::TimedOut => "timed out".to_string(),
            Outcome::SpawnFailed(e) => format!("could not start: {e}"),
        }
    }
}

/// The last line of stderr, for messages (`""` when empty).
pub fn stderr_tail(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    match text.trim().lines().last() {
        Some(line) if !line.is_empty() => {
            let line: String = line.chars().take(160).collect();
            format!(" (stderr: {line})")
        }
        _ => String::new(),
    }
}

/// The process ids of the commands running now (each leads its own group).
static RUNNING: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

fn running() -> std::sync::MutexGuard<'static, BTreeSet<u32>> {
    RUNNING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Kills every command [`run`] has started and not yet finished, with
/// everything each started: for a runner that is interrupted (its commands
/// are in process groups of their own, so the terminal's Ctrl-C does not
/// reach them).
pub fn kill_running() {
    let pids: Vec<u32> = running().iter().copied().collect();
    for pid in pids {
        kill_pid_group(pid);
    }
}

/// Whether process `pid` still runs (a zombie, which runs no more, does
/// not); `false` on systems where this cannot be told. For tests that
/// check that nothing outlives a run.
#[doc(hidden)]
pub fn is_running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state letter follows the command name in parentheses.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z')),
        Err(_) => process_exists(pid),
    }
}

/// Runs `cmd` with `input` on stdin and the extra environment `env`; kills
/// everything it started once it ends or `timeout` passes.
pub fn run(cmd: &str, input: &[u8], timeout: Duration, env: &[(&str, &str)]) -> Outcome {
    let deadline = Instant::now() + timeout;
    let mut command = shell(cmd);
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        command.env(k, v);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // The shell leads a new group (pgid = its pid): see `kill_group`.
        command.process_group(0);
    }
    let mut child = match command.spawn() {
        Ok(c) => c,
        Err(e) => return Outcome::SpawnFailed(e.to_string()),
    };
    running().insert(child.id());
    let outcome = finish(&mut child, input, timeout, deadline);
    running().remove(&child.id());
    outcome
}

/// [`run`] after the spawn: feeds the input, waits, kills, collects.
fn finish(child: &mut Child, input: &[u8], timeout: Duration, deadline: Instant) -> Outcome {
    // A program may exit without reading its input: a broken pipe is fine.
    // The writer is never joined: a process that escaped the group may hold
    // stdin open without reading it.
    if let Some(mut stdin) = child.stdin.take() {
        let input = input.to_vec();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
    }
    let stdout = child.stdout.take().map(reader);
    let stderr = child.stderr.take().map(reader);
    let status = match child.wait_timeout(timeout) {
        Ok(Some(status)) => status,
        Ok(None) | Err(_) => {
            // Still running (so its pid, the group id, cannot be reused yet).
            kill_group(child);
            kill_tree_on_timeout(child);
            let _ = child.kill();
            let _ = child.wait();
            return Outcome::TimedOut;
        }
    };
    // The shell has exited; whatever it left running in its group goes too,
    // so that a background child holding the pipes cannot stall the runner.
    kill_group(child);
    let (Some(stdout), Some(stderr)) = (collect(stdout, deadline), collect(stderr, deadline))
    else {
        return Outcome::TimedOut;
    };
    match status.code() {
        Some(code) => Outcome::Exited {
            code,
            stdout,
            stderr,
        },
        None => Outcome::Signaled {
            what: signal_of(&status),
            stderr,
        },
    }
}

/// Reads a pipe to its end on a thread; the bytes arrive on the channel.
fn reader<R: Read + Send + 'static>(mut r: R) -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = r.read_to_end(&mut buf);
        let _ = tx.send(buf);
    });
    rx
}

/// The bytes of a pipe, or `None` if it is still open at the deadline (a
/// short grace period is allowed when the deadline has already passed).
fn collect(pipe: Option<mpsc::Receiver<Vec<u8>>>, deadline: Instant) -> Option<Vec<u8>> {
    let Some(pipe) = pipe else {
        return Some(Vec::new());
    };
    let wait = deadline
        .saturating_duration_since(Instant::now())
        .max(Duration::from_millis(100));
    pipe.recv_timeout(wait).ok()
}

/// Kills the process group the shell leads (Unix); errors (the group is
/// already gone) are ignored.
fn kill_group(child: &Child) {
    #[cfg(unix)]
    kill_pid_group(child.id());
    #[cfg(not(unix))]
    let _ = child;
}

/// Kills a timed-out command's process tree (Windows: `cmd` does not take
/// its children with it).
fn kill_tree_on_timeout(child: &Child) {
    #[cfg(windows)]
    kill_pid_group(child.id());
    #[cfg(not(windows))]
    let _ = child;
}

/// Kills the process group led by `pid` (Unix: every command leads one);
/// errors (the group is already gone) are ignored.
#[cfg(unix)]
fn kill_pid_group(pid: u32) {
    use rustix::process::{Pid, Signal, kill_process_group};
    if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
        let _ = kill_process_group(pid, Signal::KILL);
    }
}

/// Kills the process tree of `pid` (Windows).
#[cfg(windows)]
fn kill_pid_group(pid: u32) {
    let _ = Command::new("taskkill")
        .args(["/T", "/F", "/PID", &pid.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

#[cfg(not(any(unix, windows)))]
fn kill_pid_group(_pid: u32) {}

#[cfg(unix)]
fn process_exists(pid: u32) -> bool {
    use rustix::process::{Pid, test_kill_process};
    i32::try_from(pid)
        .ok()
        .and_then(Pid::from_raw)
        .is_some_and(|pid| test_kill_process(pid).is_ok())
}

#[cfg(not(unix))]
fn process_exists(_pid: u32) -> bool {
    false
}

fn shell(cmd: &str) -> Command {
    #[cfg(windows)]
    {
        use std::os::windows::process::CommandExt;
        // `cmd /C` parses the rest of its command line itself; Rust's
        // argument quoting would wrap a command holding spaces or quotes in
        // another pair of quotes and change its meaning.
        let mut c = Command::new("cmd");
        c.arg("/C").raw_arg(cmd);
        c
    }
    #[cfg(not(windows))]
    {
        let mut c = Command::new("sh");
        c.arg("-c").arg(cmd);
        c
    }
}

#[cfg(unix)]
fn signal_of(status: &std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match status.signal() {
        Some(s) => format!("signal {s}"),
        None => "an unknown cause".to_string(),
    }
}

#[cfg(not(unix))]
fn signal_of(_status: &std::process::ExitStatus) -> String {
    "an unknown cause".to_string()
}

#[cfg(all(test, unix))]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_and_output() {
        let o = run("cat; exit 3", b"abc", Duration::from_secs(10), &[]);
        match o {
            Outcome::Exited { code, stdout, .. } => {
                assert_eq!(code, 3);
                assert_eq!(stdout, b"abc");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn not_reading_stdin_is_fine() {
        let big = vec![b'x'; 1 << 20];
        let o = run("exit 1", &big, Duration::from_secs(10), &[]);
        assert!(matches!(o, Outcome::Exited { code: 1, .. }), "{o:?}");
    }

    #[test]
    fn timeout_is_reported() {
        let o = run("exec sleep 5", b"", Duration::from_millis(300), &[]);
        assert!(matches!(o, Outcome::TimedOut), "{o:?}");
    }

    /// Polls [`is_running`] for up to ten seconds: a killed process is
    /// reaped by its new parent, not by us.
    fn gone(pid: u32) -> bool {
        for _ in 0..200 {
            if !is_running(pid) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    fn child_pid(file: &std::path::Path) -> u32 {
        let pid = std::fs::read_to_string(file).unwrap();
        pid.trim().parse().unwrap()
    }

    #[test]
    fn a_timeout_kills_the_forked_child_too() {
        // The shell forks a child that hangs, and waits for it: the old
        // runner killed only the shell and left `sleep` running.
        let dir = std::env::temp_dir().join(format!("spec-tests-exec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pidfile = dir.join("timeout.pid");
        let cmd = format!("sleep 1000 & echo $! > '{}'; wait", pidfile.display());
        let o = run(&cmd, b"", Duration::from_millis(500), &[]);
        assert!(matches!(o, Outcome::TimedOut), "{o:?}");
        let pid = child_pid(&pidfile);
        assert!(gone(pid), "the forked child {pid} outlived the timeout");
    }

    #[test]
    fn a_background_child_holding_stdout_is_killed_at_exit() {
        // The shell exits at once but its child keeps stdout open: the run
        // still ends with the shell's exit code, and the child is gone.
        let dir = std::env::temp_dir().join(format!("spec-tests-exec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pidfile = dir.join("background.pid");
        let cmd = format!(
            "sleep 1000 & echo $! > '{}'; echo out; exit 1",
            pidfile.display()
        );
        let o = run(&cmd, b"", Duration::from_secs(30), &[]);
        match o {
            Outcome::Exited { code, stdout, .. } => {
                assert_eq!(code, 1);
                assert_eq!(stdout, b"out\n");
            }
            other => panic!("{other:?}"),
        }
        let pid = child_pid(&pidfile);
        assert!(gone(pid), "the background child {pid} outlived the run");
    }

    #[test]
    fn signal_is_not_an_exit_code() {
        let o = run("kill -9 $$", b"", Duration::from_secs(10), &[]);
        assert!(matches!(o, Outcome::Signaled { .. }), "{o:?}");
    }
}
