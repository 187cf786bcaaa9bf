//! The load generator of `scripts/soak.sh` (issue 22): runs a mix of honest
//! and hostile clients against an echo server (`jtoo frame serve`) on
//! loopback for a bounded time, samples the server's memory and file
//! descriptors from `/proc`, prints a summary and exits non-zero on any
//! lost or corrupted frame, any failure of an honest client, memory over
//! the limit, or a server that died.
//!
//! ```text
//! cargo run --release -p jtoo-frame --example soak -- \
//!     --addr 127.0.0.1:7000 --server-pid 1234 --seconds 600
//! ```
//!
//! Options (defaults in brackets): `--honest` echo clients [1000],
//! `--header-only` clients that send `ffffff ffffff ` and stall [1000],
//! `--slow` greeters that send a byte a second [50], `--idle` holders that
//! greet and say nothing [200], `--never-readers` that send and never read
//! [20], `--churners` that connect, echo one frame and leave in a loop
//! [20], `--hogs` that declare a frame of 16 MiB, send 6.5 MB of it and
//! then a byte a second [40] (issue 33, finding 3: 40 of them hold more
//! than a 256 MiB budget), `--rss-limit-mib` [768].
//!
//! With `--jte 1` it loads `jtoo jte serve --json-lines` instead (issue
//! 33): honest callers make `echo` calls (JSON lines, a JTE request each,
//! the answer's data compared with the request's) with 0.2–1 s pauses;
//! the hostile kinds are `--header-only` senders of a long line (900 KB,
//! then a byte a second), `--slow` senders of a short line a byte a
//! second, `--idle` holders, `--never-readers` (200 KB `echo` calls,
//! never reading the answers) and `--refused` senders of well-formed but
//! refused packets (`"data":[1,null]`, `"timeout":1000.0`, an rpcid
//! already in flight), each followed by an honest call on the same
//! connection. In both modes every honest round trip's answer time is
//! recorded: the summary gives p50, p99 and the slowest, and a p99 over
//! 1 s fails the run.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use jtoo_frame::futures::{SinkExt, StreamExt};
use jtoo_frame::server::BUSY_REPLY;
use jtoo_frame::{Frame, Greeting, client_handshake};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::task::JoinSet;
use tokio::time::{Instant, sleep, timeout};

const PROTOCOL: &str = "echo/1";

/// Counters, all clients together.
#[derive(Default)]
struct Stats {
    sent: AtomicU64,
    echoed: AtomicU64,
    corrupted: AtomicU64,
    honest_errors: AtomicU64,
    /// Honest errors by kind: connect, handshake, send, no echo (closed,
    /// error or 60 s timeout), wrong echo.
    honest_by_kind: [AtomicU64; 5],
    busy: AtomicU64,
    header_only_cut: AtomicU64,
    slow_cut: AtomicU64,
    idle_cut: AtomicU64,
    never_reader_cut: AtomicU64,
    hog_cut: AtomicU64,
    churned: AtomicU64,
    churn_errors: AtomicU64,
    connect_errors: AtomicU64,
    /// Answer times of honest round trips, in microseconds.
    latencies: std::sync::Mutex<Vec<u32>>,
    /// JTE: refused packets answered with an error, connections closed
    /// after one, and the honest calls after them answered.
    refused_answered: AtomicU64,
    refused_closed: AtomicU64,
    refused_then_served: AtomicU64,
}

impl Stats {
    fn answered_in(&self, started: Instant) {
        let us = u32::try_from(started.elapsed().as_micros()).unwrap_or(u32::MAX);
        self.latencies.lock().unwrap().push(us);
    }
}

struct Config {
    addr: SocketAddr,
    pid: Option<u32>,
    seconds: u64,
    counts: HashMap<&'static str, usize>,
    rss_limit_mib: u64,
    jte: bool,
}

fn parse_args() -> Result<Config, String> {
    let mut counts = HashMap::from([
        ("honest", 1000),
        ("header-only", 1000),
        ("slow", 50),
        ("idle", 200),
        ("never-readers", 20),
        ("churners", 20),
        ("refused", 0),
        ("hogs", 40),
        ("jte", 0),
    ]);
    let (mut addr, mut pid, mut seconds, mut rss) = (None, None, 60, 768);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        let number = || value.parse::<u64>().map_err(|e| format!("{flag}: {e}"));
        match flag.trim_start_matches("--") {
            "addr" => addr = Some(value.parse().map_err(|e| format!("--addr: {e}"))?),
            "server-pid" => pid = Some(u32::try_from(number()?).map_err(|e| e.to_string())?),
            "seconds" => seconds = number()?,
            "rss-limit-mib" => rss = number()?,
            name => match counts.get_mut(name) {
                Some(n) => *n = usize::try_from(number()?).map_err(|e| e.to_string())?,
                None => return Err(format!("unknown option {flag}")),
            },
        }
    }
    Ok(Config {
        addr: addr.ok_or("--addr is required")?,
        pid,
        seconds,
        jte: counts.get("jte").is_some_and(|&n| n > 0),
        counts,
        rss_limit_mib: rss,
    })
}

/// A small deterministic generator (xorshift), one per client.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Frame `seq` of client `id`: a JTOO section (the list `[id,seq]`) and a
/// binary section of pseudo-random length and content (every 64th frame's
/// is 256 KiB).
fn make_frame(id: usize, seq: u64, rng: &mut Rng) -> Frame {
    let len = if seq % 64 == 63 {
        256 * 1024
    } else {
        (rng.next() % 4096) as usize
    };
    let seed = rng.next();
    let binary: Vec<u8> = (0..len)
        .map(|i| (seed.wrapping_mul(i as u64 + 1) >> 24) as u8)
        .collect();
    Frame::from_serde(&(id as u64, seq))
        .expect("a list of two integers")
        .with_binary(binary)
}

fn greeting_bytes() -> Vec<u8> {
    Greeting::new(PROTOCOL)
        .to_frame()
        .expect("a short greeting")
        .to_bytes()
        .expect("a short greeting")
}

/// One honest client: echo round trips with pauses until `end`,
/// reconnecting if the connection fails (which counts as an error).
async fn honest(id: usize, addr: SocketAddr, end: Instant, stats: Arc<Stats>) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (id as u64 + 1));
    let mut seq = 0u64;
    let failed = |kind: usize| {
        stats.honest_errors.fetch_add(1, Relaxed);
        stats.honest_by_kind[kind].fetch_add(1, Relaxed);
    };
    sleep(Duration::from_millis(rng.next() % 5000)).await;
    'connection: while Instant::now() < end {
        let Ok(socket) = TcpStream::connect(addr).await else {
            stats.connect_errors.fetch_add(1, Relaxed);
            failed(0);
            sleep(Duration::from_secs(1)).await;
            continue;
        };
        let Ok(mut framed) = client_handshake(socket, &Greeting::new(PROTOCOL)).await else {
            failed(1);
            continue;
        };
        while Instant::now() < end {
            let frame = make_frame(id, seq, &mut rng);
            seq += 1;
            if framed.send(frame.clone()).await.is_err() {
                failed(2);
                continue 'connection;
            }
            stats.sent.fetch_add(1, Relaxed);
            let started = Instant::now();
            match timeout(Duration::from_secs(60), framed.next()).await {
                Ok(Some(Ok(back))) if back == frame => {
                    stats.answered_in(started);
                    stats.echoed.fetch_add(1, Relaxed);
                }
                Ok(Some(Ok(back))) => {
                    if back.to_bytes().is_ok_and(|b| b == BUSY_REPLY) {
                        stats.busy.fetch_add(1, Relaxed);
                    } else {
                        stats.corrupted.fetch_add(1, Relaxed);
                    }
                    failed(4);
                    continue 'connection;
                }
                _ => {
                    failed(3);
                    continue 'connection;
                }
            }
            sleep(Duration::from_millis(200 + rng.next() % 800)).await;
        }
    }
}

/// Connects and greets; `None` when that fails.
async fn greeted(addr: SocketAddr, stats: &Stats) -> Option<TcpStream> {
    let mut s = match TcpStream::connect(addr).await {
        Ok(s) => s,
        Err(_) => {
            stats.connect_errors.fetch_add(1, Relaxed);
            sleep(Duration::from_secs(1)).await;
            return None;
        }
    };
    s.write_all(&greeting_bytes()).await.ok()?;
    Some(s)
}

/// Reads until the server closes the connection; `true` if it did (as
/// opposed to an error). A busy reply is counted.
async fn until_closed(s: &mut TcpStream, stats: &Stats) -> bool {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf).await {
            Ok(0) => {
                if got == BUSY_REPLY {
                    stats.busy.fetch_add(1, Relaxed);
                }
                return true;
            }
            Ok(n) => got.extend_from_slice(&buf[..n.min(buf.len())]),
            Err(_) => return false,
        }
    }
}

/// Greets, declares the largest frame and sends nothing more; again once
/// the server cuts it (frame timeout).
async fn header_only(addr: SocketAddr, end: Instant, stats: Arc<Stats>) {
    while Instant::now() < end {
        let Some(mut s) = greeted(addr, &stats).await else {
            continue;
        };
        if s.write_all(b"ffffff ffffff ").await.is_ok() && until_closed(&mut s, &stats).await {
            stats.header_only_cut.fetch_add(1, Relaxed);
        }
    }
}

/// Greets and says nothing more; again once cut (idle timeout).
async fn idle(addr: SocketAddr, end: Instant, stats: Arc<Stats>) {
    while Instant::now() < end {
        let Some(mut s) = greeted(addr, &stats).await else {
            continue;
        };
        if until_closed(&mut s, &stats).await {
            stats.idle_cut.fetch_add(1, Relaxed);
        }
    }
}

/// Sends its greeting a byte a second; again once cut (greeting timeout).
async fn slow(addr: SocketAddr, end: Instant, stats: Arc<Stats>) {
    let greeting = greeting_bytes();
    while Instant::now() < end {
        let Ok(mut s) = TcpStream::connect(addr).await else {
            stats.connect_errors.fetch_add(1, Relaxed);
            sleep(Duration::from_secs(1)).await;
            continue;
        };
        for b in &greeting {
            if s.write_all(&[*b]).await.is_err() {
                break;
            }
            let mut one = [0u8; 1];
            match timeout(Duration::from_secs(1), s.read(&mut one)).await {
                Err(_) => {}
                Ok(Ok(0)) | Ok(Err(_)) => {
                    stats.slow_cut.fetch_add(1, Relaxed);
                    break;
                }
                Ok(Ok(_)) => break,
            }
        }
    }
}

/// Sends 256 KiB frames and never reads the echoes; again once the
/// server gives up on it (write timeout).
async fn never_reader(addr: SocketAddr, end: Instant, stats: Arc<Stats>) {
    let frame = Frame::from_binary(vec![0x5au8; 256 * 1024])
        .to_bytes()
        .expect("256 KiB is within ffffff");
    while Instant::now() < end {
        let Some(mut s) = greeted(addr, &stats).await else {
            continue;
        };
        while s.write_all(&frame).await.is_ok() {}
        stats.never_reader_cut.fetch_add(1, Relaxed);
    }
}

/// Connects, echoes one frame and leaves, in a loop.
async fn churner(id: usize, addr: SocketAddr, end: Instant, stats: Arc<Stats>) {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d ^ (id as u64 + 1));
    let mut seq = 0u64;
    while Instant::now() < end {
        let ok = async {
            let socket = TcpStream::connect(addr).await.ok()?;
            let mut framed = client_handshake(socket, &Greeting::new(PROTOCOL))
                .await
                .ok()?;
            let frame = make_frame(usize::MAX - id, seq, &mut rng);
            framed.send(frame.clone()).await.ok()?;
            let back = timeout(Duration::from_secs(60), framed.next())
                .await
                .ok()??
                .ok()?;
            (back == frame).then_some(())
        }
        .await;
        seq += 1;
        match ok {
            Some(()) => stats.churned.fetch_add(1, Relaxed),
            None => stats.churn_errors.fetch_add(1, Relaxed),
        };
        sleep(Duration::from_millis(20)).await;
    }
}

/// JTE over JSON lines: a connection read line by line.
struct Lines {
    reader: tokio::io::BufReader<tokio::net::tcp::OwnedReadHalf>,
    writer: tokio::net::tcp::OwnedWriteHalf,
}

impl Lines {
    async fn connect(addr: SocketAddr, stats: &Stats) -> Option<Lines> {
        match TcpStream::connect(addr).await {
            Ok(s) => {
                let (r, w) = s.into_split();
                Some(Lines {
                    reader: tokio::io::BufReader::new(r),
                    writer: w,
                })
            }
            Err(_) => {
                stats.connect_errors.fetch_add(1, Relaxed);
                sleep(Duration::from_secs(1)).await;
                None
            }
        }
    }

    /// The next line as JSON; `None` at the end, on an error or after 60 s.
    async fn next(&mut self) -> Option<serde_json::Value> {
        use tokio::io::AsyncBufReadExt;
        let mut line = String::new();
        match timeout(Duration::from_secs(60), self.reader.read_line(&mut line)).await {
            Ok(Ok(n)) if n > 0 => serde_json::from_str(&line).ok(),
            _ => None,
        }
    }

    /// The answer to `rpcid` (skipping others); `None` when the
    /// connection ended first.
    async fn answer(&mut self, rpcid: &str) -> Option<serde_json::Value> {
        loop {
            let packet = self.next().await?;
            if packet.get("resid").and_then(|r| r.as_str()) == Some(rpcid) {
                return Some(packet);
            }
        }
    }

    /// Makes one `echo` call of `data`; `Ok(true)` when the answer's
    /// data is `data`, `Ok(false)` for a wrong answer, `Err` when the
    /// connection failed.
    async fn echo(
        &mut self,
        rpcid: &str,
        data: &serde_json::Value,
        stats: &Stats,
    ) -> Result<bool, usize> {
        let request = serde_json::json!({"command": "echo", "rpcid": rpcid, "data": data});
        let mut line = serde_json::to_vec(&request).expect("JSON");
        line.push(b'\n');
        if self.writer.write_all(&line).await.is_err() {
            return Err(2);
        }
        stats.sent.fetch_add(1, Relaxed);
        let started = Instant::now();
        let answer = self.answer(rpcid).await.ok_or(3usize)?;
        if answer.get("data") == Some(data) && answer.get("error").is_none() {
            stats.answered_in(started);
            stats.echoed.fetch_add(1, Relaxed);
            Ok(true)
        } else {
            stats.corrupted.fetch_add(1, Relaxed);
            Ok(false)
        }
    }
}

/// The data of honest call `seq` of client `id`: `[id, seq, "…"]` with a
/// pseudo-random string of 0–4 KiB (every 64th: 256 KiB).
fn make_data(id: usize, seq: u64, rng: &mut Rng) -> serde_json::Value {
    let len = if seq % 64 == 63 {
        256 * 1024
    } else {
        (rng.next() % 4096) as usize
    };
    let seed = rng.next();
    let text: String = (0..len)
        .map(|i| char::from(b'a' + ((seed.wrapping_mul(i as u64 + 1) >> 24) % 26) as u8))
        .collect();
    serde_json::json!([id, seq, text])
}

/// One honest JTE caller: `echo` calls with pauses until `end`,
/// reconnecting if the connection fails (which counts as an error).
async fn jte_honest(id: usize, addr: SocketAddr, end: Instant, stats: Arc<Stats>) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (id as u64 + 1));
    let mut seq = 0u64;
    let failed = |kind: usize| {
        stats.honest_errors.fetch_add(1, Relaxed);
        stats.honest_by_kind[kind].fetch_add(1, Relaxed);
    };
    sleep(Duration::from_millis(rng.next() % 5000)).await;
    'connection: while Instant::now() < end {
        let Some(mut conn) = Lines::connect(addr, &stats).await else {
            failed(0);
            continue;
        };
        while Instant::now() < end {
            let data = make_data(id, seq, &mut rng);
            seq += 1;
            match conn.echo(&seq.to_string(), &data, &stats).await {
                Ok(true) => {}
                Ok(false) => {
                    failed(4);
                    continue 'connection;
                }
                Err(kind) => {
                    failed(kind);
                    continue 'connection;
                }
            }
            sleep(Duration::from_millis(200 + rng.next() % 800)).await;
        }
    }
}

/// Connects, makes one call and leaves, in a loop.
async fn jte_churner(id: usize, addr: SocketAddr, end: Instant, stats: Arc<Stats>) {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d ^ (id as u64 + 1));
    let mut seq = 0u64;
    while Instant::now() < end {
        let data = make_data(usize::MAX - id, seq, &mut rng);
        seq += 1;
        let ok = match Lines::connect(addr, &stats).await {
            Some(mut conn) => matches!(conn.echo("c", &data, &stats).await, Ok(true)),
            None => false,
        };
        match ok {
            true => stats.churned.fetch_add(1, Relaxed),
            false => stats.churn_errors.fetch_add(1, Relaxed),
        };
        sleep(Duration::from_millis(20)).await;
    }
}

/// Reads and drops everything until the server closes; `true` if it did.
async fn drain_until_closed(s: &mut TcpStream) -> bool {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        match s.read(&mut buf).await {
            Ok(0) => return true,
            Ok(_) => {}
            Err(_) => return false,
        }
    }
}

/// Sends `first` and then a byte a second until the server cuts the
/// connection; again until `end`.
async fn trickler(
    addr: SocketAddr,
    end: Instant,
    stats: Arc<Stats>,
    first: Vec<u8>,
    cut: fn(&Stats) -> &AtomicU64,
) {
    while Instant::now() < end {
        let Ok(mut s) = TcpStream::connect(addr).await else {
            stats.connect_errors.fetch_add(1, Relaxed);
            sleep(Duration::from_secs(1)).await;
            continue;
        };
        if s.write_all(&first).await.is_err() {
            continue;
        }
        loop {
            if s.write_all(b"x").await.is_err() {
                cut(&stats).fetch_add(1, Relaxed);
                break;
            }
            let mut one = [0u8; 1];
            match timeout(Duration::from_secs(1), s.read(&mut one)).await {
                Err(_) => {}
                Ok(_) => {
                    cut(&stats).fetch_add(1, Relaxed);
                    break;
                }
            }
        }
    }
}

/// Connects and says nothing; again once cut (idle timeout).
async fn jte_idle(addr: SocketAddr, end: Instant, stats: Arc<Stats>) {
    while Instant::now() < end {
        let Ok(mut s) = TcpStream::connect(addr).await else {
            stats.connect_errors.fetch_add(1, Relaxed);
            sleep(Duration::from_secs(1)).await;
            continue;
        };
        if drain_until_closed(&mut s).await {
            stats.idle_cut.fetch_add(1, Relaxed);
        }
    }
}

/// Makes 200 KB `echo` calls and never reads the answers; again once the
/// server gives up on it.
async fn jte_never_reader(addr: SocketAddr, end: Instant, stats: Arc<Stats>) {
    let data = "n".repeat(200_000);
    let mut n = 0u64;
    while Instant::now() < end {
        let Ok(mut s) = TcpStream::connect(addr).await else {
            stats.connect_errors.fetch_add(1, Relaxed);
            sleep(Duration::from_secs(1)).await;
            continue;
        };
        loop {
            n += 1;
            let line = format!("{{\"command\":\"echo\",\"rpcid\":\"{n}\",\"data\":\"{data}\"}}\n");
            if s.write_all(line.as_bytes()).await.is_err() {
                break;
            }
        }
        stats.never_reader_cut.fetch_add(1, Relaxed);
    }
}

/// Sends a well-formed packet the server refuses, then an honest call on
/// the same connection, in a loop.
async fn jte_refused(id: usize, addr: SocketAddr, end: Instant, stats: Arc<Stats>) {
    let mut n = 0u64;
    while Instant::now() < end {
        let Some(mut conn) = Lines::connect(addr, &stats).await else {
            continue;
        };
        while Instant::now() < end {
            n += 1;
            let bad = match n % 3 {
                0 => format!("{{\"command\":\"echo\",\"rpcid\":\"r{n}\",\"data\":[1,null]}}\n"),
                1 => format!(
                    "{{\"command\":\"echo\",\"rpcid\":\"r{n}\",\"timeout\":1000.0,\"data\":1}}\n"
                ),
                // A second call with the id of one still running.
                _ => format!(
                    "{{\"command\":\"sleep\",\"rpcid\":\"r{n}\",\"data\":300}}\n{{\"command\":\"echo\",\"rpcid\":\"r{n}\",\"data\":2}}\n"
                ),
            };
            if conn.writer.write_all(bad.as_bytes()).await.is_err() {
                stats.refused_closed.fetch_add(1, Relaxed);
                break;
            }
            let rpcid = format!("r{n}");
            match conn.answer(&rpcid).await {
                Some(a) if a.get("error").is_some() => {
                    stats.refused_answered.fetch_add(1, Relaxed);
                }
                Some(_) => {}
                None => {
                    stats.refused_closed.fetch_add(1, Relaxed);
                    break;
                }
            }
            let data = serde_json::json!([id, n, "after a refused packet"]);
            match conn.echo(&format!("h{n}"), &data, &stats).await {
                Ok(true) => stats.refused_then_served.fetch_add(1, Relaxed),
                _ => {
                    stats.refused_closed.fetch_add(1, Relaxed);
                    break;
                }
            };
            sleep(Duration::from_millis(500)).await;
        }
    }
}

/// p-th percentile of sorted `v`, in milliseconds.
fn percentile(v: &[u32], p: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let at = ((v.len() as f64 - 1.0) * p).round() as usize;
    f64::from(v[at.min(v.len() - 1)]) / 1000.0
}

/// The server's peak resident memory and descriptors, and whether it is
/// still there.
struct Peaks {
    rss_kib: u64,
    fds: usize,
    alive: bool,
}

impl Peaks {
    /// Reads `/proc/PID` (when there is a PID).
    fn sample(&mut self, pid: Option<u32>) {
        let Some(pid) = pid else { return };
        let read = || -> Option<(u64, usize)> {
            let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
            let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
            let hwm = line.split_whitespace().nth(1)?.parse().ok()?;
            let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count();
            Some((hwm, fds))
        };
        match read() {
            Some((hwm, fds)) => {
                self.rss_kib = self.rss_kib.max(hwm);
                self.fds = self.fds.max(fds);
            }
            None => self.alive = false,
        }
    }
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let cfg = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("soak: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let stats = Arc::new(Stats::default());
    let start = Instant::now();
    let end = start + Duration::from_secs(cfg.seconds);
    let addr = cfg.addr;
    let n = |k: &str| cfg.counts.get(k).copied().unwrap_or(0);
    let mut honest_tasks = JoinSet::new();
    let mut hostile = JoinSet::new();
    if cfg.jte {
        for id in 0..n("honest") {
            honest_tasks.spawn(jte_honest(id, addr, end, stats.clone()));
        }
        for id in 0..n("churners") {
            honest_tasks.spawn(jte_churner(id, addr, end, stats.clone()));
        }
        let long = {
            let mut line = b"{\"command\":\"echo\",\"rpcid\":\"x\",\"data\":\"".to_vec();
            line.resize(line.len() + 900_000, b'l');
            line
        };
        for _ in 0..n("header-only") {
            let first = long.clone();
            hostile.spawn(trickler(addr, end, stats.clone(), first, |s| {
                &s.header_only_cut
            }));
        }
        for _ in 0..n("slow") {
            let first = b"{\"command\":\"echo\",\"rpcid\":\"s\",\"data\":\"".to_vec();
            hostile.spawn(trickler(addr, end, stats.clone(), first, |s| &s.slow_cut));
        }
        for _ in 0..n("idle") {
            hostile.spawn(jte_idle(addr, end, stats.clone()));
        }
        for _ in 0..n("never-readers") {
            hostile.spawn(jte_never_reader(addr, end, stats.clone()));
        }
        for id in 0..n("refused") {
            hostile.spawn(jte_refused(id, addr, end, stats.clone()));
        }
    }
    for id in 0..n("honest") * usize::from(!cfg.jte) {
        honest_tasks.spawn(honest(id, addr, end, stats.clone()));
    }
    for _ in 0..n("header-only") * usize::from(!cfg.jte) {
        hostile.spawn(header_only(addr, end, stats.clone()));
    }
    let frames = usize::from(!cfg.jte);
    let hog = {
        let mut first = greeting_bytes();
        first.extend_from_slice(b"000000 ffffff  ");
        first.resize(first.len() + 6_500_000, b'h');
        first
    };
    for _ in 0..n("hogs") * frames {
        let first = hog.clone();
        hostile.spawn(trickler(addr, end, stats.clone(), first, |s| &s.hog_cut));
    }
    for _ in 0..n("slow") * frames {
        hostile.spawn(slow(addr, end, stats.clone()));
    }
    for _ in 0..n("idle") * frames {
        hostile.spawn(idle(addr, end, stats.clone()));
    }
    for _ in 0..n("never-readers") * frames {
        hostile.spawn(never_reader(addr, end, stats.clone()));
    }
    for id in 0..n("churners") * frames {
        honest_tasks.spawn(churner(id, addr, end, stats.clone()));
    }

    // Sample the server every second until the end.
    let mut peaks = Peaks {
        rss_kib: 0,
        fds: 0,
        alive: true,
    };
    let mut last_print = start;
    while Instant::now() < end && peaks.alive {
        sleep(Duration::from_secs(1)).await;
        peaks.sample(cfg.pid);
        if last_print.elapsed() >= Duration::from_secs(30) {
            last_print = Instant::now();
            eprintln!(
                "soak: {:>4} s: {} answered, {} errors, peak RSS {} MiB, peak fds {}",
                start.elapsed().as_secs(),
                stats.echoed.load(Relaxed),
                stats.honest_errors.load(Relaxed),
                peaks.rss_kib / 1024,
                peaks.fds
            );
        }
    }
    hostile.abort_all();
    // Honest clients finish their round trip in flight.
    let mut panicked = 0;
    let drained = timeout(Duration::from_secs(90), async {
        while let Some(done) = honest_tasks.join_next().await {
            if done.is_err() {
                panicked += 1;
            }
        }
    })
    .await
    .is_ok();
    peaks.sample(cfg.pid);
    let Peaks {
        rss_kib: peak_rss,
        fds: peak_fds,
        alive,
    } = peaks;

    let get = |c: &AtomicU64| c.load(Relaxed);
    let s = &stats;
    let lost = get(&s.sent) - get(&s.echoed) - get(&s.corrupted);
    let what = if cfg.jte {
        "jte serve --json-lines"
    } else {
        "frame serve"
    };
    println!(
        "soak: {} s against {what} at {addr}",
        start.elapsed().as_secs()
    );
    if cfg.jte {
        println!(
            "clients: {} honest callers, {} long-line slow senders, {} slow senders, {} idle holders, {} never-readers, {} refused-packet senders, {} churners",
            n("honest"),
            n("header-only"),
            n("slow"),
            n("idle"),
            n("never-readers"),
            n("refused"),
            n("churners")
        );
    } else {
        println!(
            "clients: {} honest, {} header-only, {} slow senders of long frames, {} slow greeters, {} idle holders, {} never-readers, {} churners",
            n("honest"),
            n("header-only"),
            n("hogs"),
            n("slow"),
            n("idle"),
            n("never-readers"),
            n("churners")
        );
    }
    let mut latencies = std::mem::take(&mut *stats.latencies.lock().unwrap());
    latencies.sort_unstable();
    println!(
        "honest answer times: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({} answers)",
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0),
        latencies.len()
    );
    if cfg.jte {
        println!(
            "refused packets: {} answered with an error, {} connections closed after one, {} honest calls served after one",
            get(&stats.refused_answered),
            get(&stats.refused_closed),
            get(&stats.refused_then_served)
        );
    }
    let unit = if cfg.jte {
        "honest calls (callers, churners and calls after refused packets)"
    } else {
        "honest frames"
    };
    println!(
        "{unit}: {} sent, {} echoed intact, {} corrupted, {} lost; honest errors {}",
        get(&s.sent),
        get(&s.echoed),
        get(&s.corrupted),
        lost,
        get(&s.honest_errors)
    );
    let kinds = &s.honest_by_kind;
    println!(
        "honest errors by kind: connect {}, handshake {}, send {}, no echo {}, wrong echo {}",
        get(&kinds[0]),
        get(&kinds[1]),
        get(&kinds[2]),
        get(&kinds[3]),
        get(&kinds[4])
    );
    println!(
        "churn: {} connections echoed, {} failed",
        get(&s.churned),
        get(&s.churn_errors)
    );
    let cut = [
        get(&s.header_only_cut),
        get(&s.slow_cut),
        get(&s.idle_cut),
        get(&s.never_reader_cut),
    ];
    let (busy, connect_errors) = (get(&s.busy), get(&s.connect_errors));
    if cfg.jte {
        println!(
            "cut by the server: {} long-line senders, {} slow senders, {} idle, {} never-readers; {busy} busy replies, {connect_errors} connect errors",
            cut[0], cut[1], cut[2], cut[3]
        );
    } else {
        println!(
            "cut by the server: {} header-only (frame timeout), {} slow senders of long frames, {} slow greeters (greeting timeout), {} idle (idle timeout), {} never-readers (write timeout); {busy} busy replies, {connect_errors} connect errors",
            cut[0],
            get(&s.hog_cut),
            cut[1],
            cut[2],
            cut[3]
        );
    }
    println!(
        "server: peak RSS {} MiB (limit {} MiB), peak fds {}, {}",
        peak_rss / 1024,
        cfg.rss_limit_mib,
        peak_fds,
        if alive { "alive" } else { "DIED" }
    );
    let mut failures = Vec::new();
    if get(&s.corrupted) > 0 || lost > 0 {
        failures.push("frames lost or corrupted");
    }
    if get(&s.honest_errors) > 0 || get(&s.churn_errors) > 0 {
        failures.push("honest clients failed");
    }
    if panicked > 0 {
        failures.push("client tasks panicked");
    }
    if !drained {
        failures.push("honest clients did not finish");
    }
    if percentile(&latencies, 0.99) > 1000.0 {
        failures.push("p99 answer time over 1 s");
    }
    if peak_rss / 1024 > cfg.rss_limit_mib {
        failures.push("memory over the limit");
    }
    if cfg.pid.is_some() && !alive {
        failures.push("the server died");
    }
    if failures.is_empty() {
        println!("PASS");
        std::process::ExitCode::SUCCESS
    } else {
        println!("FAIL: {}", failures.join(", "));
        std::process::ExitCode::FAILURE
    }
}
