//! A connection's memory follows its limits, not the longest packet it
//! ever carried (issue 33, the soak's RSS): the read buffer grown for a
//! long packet is given back once the packet is decoded. (Before: 500
//! callers that each once sent a 256 KiB line kept about 410 MiB of
//! buffers between their calls.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jte::{Peer, RpcError, Transport};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use tokio::io::{
    AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream, ReadBuf,
};

/// A stream that records how much room each read was offered: the free
/// capacity of the reader's buffer.
struct Watch {
    io: DuplexStream,
    offered: Arc<Mutex<Vec<usize>>>,
}

impl AsyncRead for Watch {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        self.offered.lock().unwrap().push(buf.remaining());
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl AsyncWrite for Watch {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

fn watched() -> (Watch, DuplexStream, Arc<Mutex<Vec<usize>>>) {
    let (x, y) = tokio::io::duplex(1 << 16);
    let offered = Arc::new(Mutex::new(Vec::new()));
    let io = Watch {
        io: x,
        offered: offered.clone(),
    };
    (io, y, offered)
}

fn echo_server() -> jte::Builder {
    Peer::builder().handle("echo", |v: jtoo::Value| async move { Ok::<_, RpcError>(v) })
}

#[tokio::test]
async fn a_long_line_s_read_buffer_is_given_back() {
    let (io, client, offered) = watched();
    let server = echo_server().start(Transport::json_lines(io));
    let (r, mut w) = tokio::io::split(client);
    let mut r = BufReader::new(r);
    let data = "l".repeat(900_000);
    let line = format!("{{\"command\":\"echo\",\"rpcid\":\"1\",\"data\":\"{data}\"}}\n");
    w.write_all(line.as_bytes()).await.unwrap();
    let mut answer = String::new();
    r.read_line(&mut answer).await.unwrap();
    assert!(answer.contains(&data), "{}", answer.len());
    // The line was decoded before it was answered: every read from here
    // on comes after it.
    let mark = offered.lock().unwrap().len();
    // A short call, then the connection idles: each read since the long
    // line is offered a small buffer.
    w.write_all(b"{\"command\":\"echo\",\"rpcid\":\"2\",\"data\":1}\n")
        .await
        .unwrap();
    answer.clear();
    r.read_line(&mut answer).await.unwrap();
    assert_eq!(answer, "{\"resid\":\"2\",\"data\":1}\n");
    let offered = offered.lock().unwrap().clone();
    let max = offered.iter().copied().max().unwrap_or(0);
    // While the line arrived, the buffer grew with it (and never past the
    // packet limit).
    assert!((100_000..=(1 << 20) + 64).contains(&max), "{max}");
    // Before: the reads after it were offered the rest of the line's
    // 1 MiB allocation (148 KB), which the connection kept.
    let after = offered.get(mark..).unwrap_or_default();
    assert!(!after.is_empty(), "{offered:?}");
    assert!(after.iter().all(|&n| n <= 8 * 1024), "{after:?}");
    drop(server);
}

#[tokio::test]
async fn a_long_frame_s_read_buffer_is_given_back() {
    let (io, client, offered) = watched();
    let (accepted, connected) = tokio::join!(Transport::accept(io), Transport::connect(client));
    let server = echo_server().start(accepted.unwrap().0);
    let client = Peer::builder().start(connected.unwrap());
    let data = "f".repeat(900_000);
    let back: String = client.call("echo", &data).await.unwrap();
    assert_eq!(back, data);
    let mark = offered.lock().unwrap().len();
    let one: u32 = client.call("echo", &1u32).await.unwrap();
    assert_eq!(one, 1);
    let offered = offered.lock().unwrap().clone();
    let after = offered.get(mark..).unwrap_or_default();
    assert!(!after.is_empty(), "{offered:?}");
    assert!(after.iter().all(|&n| n <= 8 * 1024), "{after:?}");
    drop(server);
}
