//! Backpressure (issue 33, finding 1): answers the other side does not
//! read are bounded per connection by a byte limit on queued outgoing
//! data; handlers' sends wait and streams pause when it is full, and a
//! connection that cannot write for the write timeout is closed. Paused
//! time: the 30 s pass without waiting.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use futures::StreamExt;
use jte::{Peer, RpcError, Transport};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::io::AsyncWriteExt;

const LIMIT: usize = 64 << 10;

#[tokio::test(start_paused = true)]
async fn a_client_that_never_reads_parks_the_handlers_then_is_cut() {
    let produced = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&produced);
    let server =
        Peer::builder()
            .max_queued_bytes(LIMIT)
            .handle_stream("stream", move |n: usize| {
                let counter = Arc::clone(&counter);
                futures::stream::iter(0..n).map(move |_| {
                    counter.fetch_add(1, Ordering::SeqCst);
                    Ok::<_, RpcError>("x".repeat(10_000))
                })
            });
    let (x, y) = tokio::io::duplex(16 << 10);
    let peer = server.start(Transport::json_lines(x));
    // The client: 50 calls, each answered by 1,000 packets of 10 KB
    // (500 MB in all), and it never reads.
    let (_unread, mut write) = tokio::io::split(y);
    for i in 0..50 {
        let line = format!("{{\"command\":\"stream\",\"rpcid\":\"s{i}\",\"data\":1000}}\n");
        write.write_all(line.as_bytes()).await.unwrap();
    }
    let start = tokio::time::Instant::now();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let queued = peer.stats().queued_bytes;
    assert!(
        queued > 0 && queued <= LIMIT as u64,
        "{queued} bytes queued"
    );
    // A handler's stream is polled only with leave to make a packet (four
    // per connection): what was made is what fits in the queue, the
    // codec's buffer and the pipe, and four waiting, not a packet per
    // handler. (Before: the queue alone held 256 packets; then one parked
    // packet per handler, 50 more.)
    let made = produced.load(Ordering::SeqCst);
    assert!(made <= LIMIT / 10_000 + 4 + 4, "{made} packets made");
    tokio::time::sleep(Duration::from_secs(10)).await;
    assert_eq!(produced.load(Ordering::SeqCst), made, "the handlers wait");
    // Nothing is written for the write timeout: the connection closes.
    let why = peer.closed().await;
    assert!(why.contains("write timeout"), "{why}");
    assert!(start.elapsed() >= jte::DEFAULT_WRITE_TIMEOUT);
}

#[tokio::test(start_paused = true)]
async fn handlers_that_wait_make_their_answers_only_where_they_fit() {
    // 200 calls, each answered after 100 ms by 20 KB, from a client that
    // never reads. The handlers hold no room while they wait, so all of
    // them start; but an answer is made only with leave to make one (four
    // per connection, held until it has room in the queue), so the
    // connection holds a few answers, not 200 (4 MB).
    let started = Arc::new(AtomicUsize::new(0));
    let made = Arc::new(AtomicUsize::new(0));
    let (s, m) = (Arc::clone(&started), Arc::clone(&made));
    let server = Peer::builder()
        .max_queued_bytes(LIMIT)
        .handle("slow", move |n: usize| {
            s.fetch_add(1, Ordering::SeqCst);
            let m = Arc::clone(&m);
            async move {
                tokio::time::sleep(Duration::from_millis(100)).await;
                m.fetch_add(1, Ordering::SeqCst);
                Ok::<_, RpcError>("x".repeat(n))
            }
        });
    let (x, y) = tokio::io::duplex(16 << 10);
    let peer = server.start(Transport::json_lines(x));
    let (_unread, mut write) = tokio::io::split(y);
    for i in 0..200 {
        let line = format!("{{\"command\":\"slow\",\"rpcid\":\"w{i}\",\"data\":20000}}\n");
        write.write_all(line.as_bytes()).await.unwrap();
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(started.load(Ordering::SeqCst), 200);
    let made = made.load(Ordering::SeqCst);
    // What fits in the queue, the codec's buffer and the pipe, and four
    // waiting beside the queue.
    assert!(made <= LIMIT / 20_000 + 2 + 4, "{made} answers made");
    assert!(peer.stats().queued_bytes <= LIMIT as u64);
    let why = peer.closed().await;
    assert!(why.contains("write timeout"), "{why}");
}

#[tokio::test(start_paused = true)]
async fn new_requests_wait_while_the_queue_is_full() {
    let started = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&started);
    let server = Peer::builder()
        .max_queued_bytes(LIMIT)
        .write_timeout(Duration::from_secs(5))
        .handle("big", move |n: usize| {
            counter.fetch_add(1, Ordering::SeqCst);
            async move { Ok::<_, RpcError>("x".repeat(n)) }
        });
    let (x, y) = tokio::io::duplex(16 << 10);
    let peer = server.start(Transport::json_lines(x));
    let (_unread, mut write) = tokio::io::split(y);
    let writer = tokio::spawn(async move {
        for i in 0..1000 {
            let line = format!("{{\"command\":\"big\",\"rpcid\":\"b{i}\",\"data\":100000}}\n");
            if write.write_all(line.as_bytes()).await.is_err() {
                break;
            }
        }
    });
    tokio::time::sleep(Duration::from_secs(1)).await;
    // The reader stopped taking requests once the answers filled the
    // queue: a few handlers ran, not a thousand.
    let n = started.load(Ordering::SeqCst);
    assert!(n < 20, "{n} handlers started");
    let why = peer.closed().await;
    assert!(why.contains("write timeout"), "{why}");
    writer.abort();
}

#[tokio::test]
async fn a_slow_reader_loses_nothing() {
    let (x, y) = tokio::io::duplex(1 << 12);
    let (a, b) = tokio::join!(Transport::connect(x), Transport::accept(y));
    let client = Peer::builder().start(a.unwrap());
    let _server = Peer::builder()
        .max_queued_bytes(8 << 10)
        .handle_stream("count", |n: u64| {
            futures::stream::iter((0..n).map(|i| Ok::<_, RpcError>((i, "y".repeat(500)))))
        })
        .start(b.unwrap().0);
    let mut stream = client
        .call_stream::<_, (u64, String)>("count", &2_000u64)
        .await
        .unwrap();
    let mut next = 0;
    while let Some(item) = stream.next().await {
        assert_eq!(item.unwrap().0, next);
        next += 1;
        if next % 100 == 0 {
            tokio::task::yield_now().await;
        }
    }
    assert_eq!(next, 2_000);
}
