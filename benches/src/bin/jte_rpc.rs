//! JTE RPC throughput over loopback TCP, JTOO frames beside JSON lines, in
//! one process: round trips per second of a small typed call (one at a
//! time, then 64 in flight), and streaming responses per second.
//!
//! `cargo run --release -p benches --bin jte_rpc [SECONDS_PER_ROW]`
//! (default 1). Each row is the median of 5 runs.
//!
//! For instruction counts, independent of the machine's load:
//! `valgrind --tool=callgrind target/release/jte_rpc calls frames|lines N`
//! makes N calls one at a time between two peers on an in-memory pipe, on
//! one thread; `stream` instead of `calls` reads one stream of N responses
//! (subtract a run with a smaller N to remove the start-up).
#![forbid(unsafe_code)]

use futures::StreamExt;
use jte::{Peer, RpcError, Transport};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};
use tokio::net::{TcpListener, TcpStream};

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The small typed call: a `term:setstyle` request and its answer.
#[derive(Clone, Serialize, Deserialize)]
struct SetStyle {
    color: u8,
    bgcolor: String,
    bold: bool,
}

#[derive(Clone, Copy, Debug)]
enum Wire {
    Frames,
    JsonLines,
}

fn server() -> jte::Builder {
    Peer::builder()
        .handle("term:setstyle", |s: SetStyle| async move {
            Ok::<_, RpcError>(u32::from(s.color) + u32::from(s.bold))
        })
        .handle_stream("bench:count", |n: u64| {
            futures::stream::iter((0..n).map(Ok::<_, RpcError>))
        })
}

/// A client peer connected to a server peer over loopback TCP.
async fn pair(wire: Wire) -> Result<Peer, BoxError> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        let (socket, _) = listener.accept().await?;
        socket.set_nodelay(true)?;
        let transport = match wire {
            Wire::Frames => Transport::accept(socket).await?.0,
            Wire::JsonLines => Transport::json_lines(socket),
        };
        server().start(transport).closed().await;
        Ok::<_, BoxError>(())
    });
    let socket = TcpStream::connect(addr).await?;
    socket.set_nodelay(true)?;
    let transport = match wire {
        Wire::Frames => Transport::connect(socket).await?,
        Wire::JsonLines => Transport::json_lines(socket),
    };
    Ok(Peer::builder().start(transport))
}

fn style() -> SetStyle {
    SetStyle {
        color: 31,
        bgcolor: "#aaaaaa".into(),
        bold: true,
    }
}

/// Calls per second with `in_flight` calls at a time, for `secs`.
async fn round_trips(peer: &Peer, in_flight: usize, secs: f64) -> Result<f64, BoxError> {
    let start = Instant::now();
    let until = start + Duration::from_secs_f64(secs);
    let mut workers = Vec::new();
    for _ in 0..in_flight {
        let p = peer.clone();
        workers.push(tokio::spawn(async move {
            let s = style();
            let mut n = 0u64;
            while Instant::now() < until {
                let r: u32 = p.call("term:setstyle", &s).await?;
                assert_eq!(r, 32);
                n += 1;
            }
            Ok::<_, BoxError>(n)
        }));
    }
    let mut total = 0u64;
    for w in workers {
        total += w.await??;
    }
    Ok(total as f64 / start.elapsed().as_secs_f64())
}

/// Streamed responses per second (streams of 10,000), for `secs`.
async fn streaming(peer: &Peer, secs: f64) -> Result<f64, BoxError> {
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed().as_secs_f64() < secs {
        let mut s = peer
            .call_stream::<_, u64>("bench:count", &10_000u64)
            .await?;
        while let Some(item) = s.next().await {
            item?;
            n += 1;
        }
    }
    Ok(n as f64 / start.elapsed().as_secs_f64())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// The callgrind workload: `n` sequential calls (or, with `stream`, one
/// stream of `n` responses) over an in-memory pipe.
fn in_memory(stream: bool, wire: &str, n: u64) -> Result<(), BoxError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let (a, b) = tokio::io::duplex(1 << 16);
        let (client, server_peer) = if wire == "lines" {
            (Transport::json_lines(a), Transport::json_lines(b))
        } else {
            let (c, s) = tokio::join!(Transport::connect(a), Transport::accept(b));
            (c?, s?.0)
        };
        let _server = server().start(server_peer);
        let client = Peer::builder().start(client);
        if stream {
            let mut s = client.call_stream::<_, u64>("bench:count", &n).await?;
            let mut next = 0;
            while let Some(item) = s.next().await {
                assert_eq!(item?, next);
                next += 1;
            }
            return Ok(());
        }
        let s = style();
        for _ in 0..n {
            let r: u32 = client.call("term:setstyle", &s).await?;
            assert_eq!(r, 32);
        }
        Ok(())
    })
}

fn main() -> Result<(), BoxError> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(what @ ("calls" | "stream")) = args.first().map(String::as_str) {
        let wire = args.get(1).map_or("frames", String::as_str);
        let n = args.get(2).map(|s| s.parse()).transpose()?.unwrap_or(1_000);
        return in_memory(what == "stream", wire, n);
    }
    tokio::runtime::Runtime::new()?.block_on(table())
}

async fn table() -> Result<(), BoxError> {
    let secs: f64 = std::env::args()
        .nth(1)
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(1.0);
    println!("| workload | JTOO frames | JSON lines | frames ÷ lines |");
    println!("|---|---:|---:|---:|");
    let frames = pair(Wire::Frames).await?;
    let lines = pair(Wire::JsonLines).await?;
    let rows: [(&str, usize); 2] = [
        ("round trips/s, 1 call at a time", 1),
        ("round trips/s, 64 calls in flight", 64),
    ];
    for (name, in_flight) in rows {
        let (mut f, mut l) = (Vec::new(), Vec::new());
        // Alternate the two, so drift hits both alike.
        for _ in 0..5 {
            f.push(round_trips(&frames, in_flight, secs).await?);
            l.push(round_trips(&lines, in_flight, secs).await?);
        }
        let (f, l) = (median(f), median(l));
        println!("| {name} | {f:.0} | {l:.0} | {:.2} |", f / l);
    }
    let (mut f, mut l) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        f.push(streaming(&frames, secs).await?);
        l.push(streaming(&lines, secs).await?);
    }
    let (f, l) = (median(f), median(l));
    println!("| streamed responses/s | {f:.0} | {l:.0} | {:.2} |", f / l);
    Ok(())
}
