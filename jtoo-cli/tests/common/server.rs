//! A `jtoo … serve` child process for the server tests: started under
//! optional `ulimit` settings, its log collected, killed when dropped.

use jtoo_frame::{Frame, Greeting};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a client waits for anything before the test calls it a hang.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A running `jtoo … serve`, killed when dropped.
pub struct Serve {
    child: Child,
    /// Where it listens, as it said (`127.0.0.1:PORT` or a socket path).
    pub addr: String,
    /// Every line it wrote to stderr so far.
    pub log: Arc<Mutex<Vec<String>>>,
}

impl Serve {
    /// Starts `jtoo ARGS` under `ulimit` settings (`-v KiB`, or none).
    pub fn start(ulimit: &str, args: &[&str]) -> Serve {
        let limit = if ulimit.is_empty() {
            String::new()
        } else {
            format!("ulimit {ulimit} && ")
        };
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("{limit}exec \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_jtoo"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the server");
        let stderr = child.stderr.take().unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = mpsc::channel();
        let lines = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if let Some(rest) = line.strip_prefix("listening on ") {
                    let addr = rest.split(',').next().unwrap_or_default().to_owned();
                    let _ = tx.send(addr);
                }
                lines.lock().unwrap().push(line);
            }
        });
        let addr = rx
            .recv_timeout(PATIENCE)
            .expect("the server says where it listens");
        Serve { child, addr, log }
    }

    /// Starts `jtoo frame serve` of `echo/1` on a free port under `ulimit`
    /// settings (`-v KiB`, `-n fds`, or none), with extra flags.
    pub fn frame(ulimit: &str, flags: &[&str]) -> Serve {
        let mut all = vec![
            "frame",
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--protocol",
            "echo/1",
        ];
        all.extend_from_slice(flags);
        Serve::start(ulimit, &all)
    }

    /// Starts `jtoo jte serve` on a free port with extra flags.
    pub fn jte(args: &[&str]) -> Serve {
        let mut all = vec!["jte", "serve", "--listen", "127.0.0.1:0"];
        all.extend_from_slice(args);
        Serve::start("", &all)
    }

    /// A new connection, with [`PATIENCE`] as its read timeout.
    pub fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(PATIENCE)).unwrap();
        s
    }

    /// A connection that has sent the greeting of `protocol`.
    pub fn greeted(&self, protocol: &str) -> TcpStream {
        let mut s = self.connect();
        let greeting = Greeting::new(protocol).to_frame().unwrap();
        s.write_all(&greeting.to_bytes().unwrap()).unwrap();
        s
    }

    /// Sends `frame` on a new `echo/1` connection and checks that it
    /// comes back.
    pub fn echoes(&self, frame: &Frame) {
        let mut s = self.greeted("echo/1");
        let bytes = frame.to_bytes().unwrap();
        s.write_all(&bytes).unwrap();
        let mut back = vec![0u8; bytes.len()];
        s.read_exact(&mut back).unwrap();
        assert_eq!(back, bytes);
    }

    /// How many log lines contain `needle`.
    pub fn log_lines(&self, needle: &str) -> usize {
        let log = self.log.lock().unwrap();
        log.iter().filter(|l| l.contains(needle)).count()
    }

    /// Waits until the log has `n` lines containing `needle`.
    pub fn wait_for_log(&self, needle: &str, n: usize) {
        let deadline = Instant::now() + PATIENCE;
        while self.log_lines(needle) < n {
            assert!(
                Instant::now() < deadline,
                "no {n} log lines with {needle:?}: {:?}",
                self.log
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Whether the server is still running.
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
