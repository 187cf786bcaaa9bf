//! Running an external command on one input, with a time limit.
//!
//! The command is a shell command line (`sh -c CMD` on Unix, `cmd /C CMD` on
//! Windows), so `"python3 my_decoder.py --strict"` works as written. On
//! timeout the runner kills the process it started (only that one) and stops
//! waiting for its output: a grandchild that still holds the pipes is left to
//! finish on its own, and its output is ignored.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::Duration;
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
    /// The process ran longer than the limit and was killed.
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

/// Runs `cmd` with `input` on stdin and the extra environment `env`.
pub fn run(cmd: &str, input: &[u8], timeout: Duration, env: &[(&str, &str)]) -> Outcome {
    let mut command = shell(cmd);
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = match command.spawn() {
        Ok(c) => c,
        Err(e) => return Outcome::SpawnFailed(e.to_string()),
    };
    let stdin = child.stdin.take();
    let input = input.to_vec();
    // A program may exit without reading its input: a broken pipe is fine.
    let writer = std::thread::spawn(move || {
        if let Some(mut stdin) = stdin {
            let _ = stdin.write_all(&input);
        }
    });
    let stdout = child.stdout.take().map(reader);
    let stderr = child.stderr.take().map(reader);
    let status = match child.wait_timeout(timeout) {
        Ok(Some(status)) => status,
        Ok(None) | Err(_) => {
            let _ = child.kill();
            let _ = child.wait();
            // The I/O threads are detached, not joined: a grandchild may
            // still hold the pipes open.
            return Outcome::TimedOut;
        }
    };
    let _ = writer.join();
    let stdout = stdout
        .map(|h| h.join().unwrap_or_default())
        .unwrap_or_default();
    let stderr = stderr
        .map(|h| h.join().unwrap_or_default())
        .unwrap_or_default();
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

fn reader<R: Read + Send + 'static>(mut r: R) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = r.read_to_end(&mut buf);
        buf
    })
}

fn shell(cmd: &str) -> Command {
    if cfg!(windows) {
        let mut c = Command::new("cmd");
        c.arg("/C").arg(cmd);
        c
    } else {
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

    #[test]
    fn signal_is_not_an_exit_code() {
        let o = run("kill -9 $$", b"", Duration::from_secs(10), &[]);
        assert!(matches!(o, Outcome::Signaled { .. }), "{o:?}");
    }
}
