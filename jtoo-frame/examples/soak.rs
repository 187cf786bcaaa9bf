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
//! [20], `--rss-limit-mib` [768].
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
    churned: AtomicU64,
    churn_errors: AtomicU64,
    connect_errors: AtomicU64,
}

struct Config {
    addr: SocketAddr,
    pid: Option<u32>,
    seconds: u64,
    counts: HashMap<&'static str, usize>,
    rss_limit_mib: u64,
}

fn parse_args() -> Result<Config, String> {
    let mut counts = HashMap::from([
        ("honest", 1000),
        ("header-only", 1000),
        ("slow", 50),
        ("idle", 200),
        ("never-readers", 20),
        ("churners", 20),
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
            match timeout(Duration::from_secs(60), framed.next()).await {
                Ok(Some(Ok(back))) if back == frame => {
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
    for id in 0..n("honest") {
        honest_tasks.spawn(honest(id, addr, end, stats.clone()));
    }
    let mut hostile = JoinSet::new();
    for _ in 0..n("header-only") {
        hostile.spawn(header_only(addr, end, stats.clone()));
    }
    for _ in 0..n("slow") {
        hostile.spawn(slow(addr, end, stats.clone()));
    }
    for _ in 0..n("idle") {
        hostile.spawn(idle(addr, end, stats.clone()));
    }
    for _ in 0..n("never-readers") {
        hostile.spawn(never_reader(addr, end, stats.clone()));
    }
    for id in 0..n("churners") {
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
                "soak: {:>4} s: {} frames echoed, {} errors, peak RSS {} MiB, peak fds {}",
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
    println!("soak: {} s against {addr}", start.elapsed().as_secs());
    println!(
        "clients: {} honest, {} header-only, {} slow greeters, {} idle holders, {} never-readers, {} churners",
        n("honest"),
        n("header-only"),
        n("slow"),
        n("idle"),
        n("never-readers"),
        n("churners")
    );
    println!(
        "honest frames: {} sent, {} echoed intact, {} corrupted, {} lost; honest errors {}",
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
    println!(
        "cut by the server: {} header-only (frame timeout), {} slow greeters (greeting timeout), {} idle (idle timeout), {} never-readers (write timeout); {} busy replies, {} connect errors",
        get(&s.header_only_cut),
        get(&s.slow_cut),
        get(&s.idle_cut),
        get(&s.never_reader_cut),
        get(&s.busy),
        get(&s.connect_errors)
    );
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
