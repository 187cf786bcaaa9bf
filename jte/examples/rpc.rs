//! The JTE RPC peer over JTOO frames: a server and a client on loopback
//! TCP make calls both ways, a response stream, a streaming request and a
//! notification.
//!
//! Run with `cargo run -p jte --example rpc`. With the argument `stdio`
//! it is instead a server on its own stdin/stdout (after the greeting
//! handshake), which the crate's tests start as a child process.

use futures::StreamExt;
use jte::{Peer, RpcError, Transport};
use serde::{Deserialize, Serialize};
use tokio::net::{TcpListener, TcpStream};

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The payload of `term:setstyle`, typed on both sides.
#[derive(Debug, Serialize, Deserialize)]
struct SetStyle {
    color: u8,
    #[serde(default)]
    bold: bool,
}

/// The server's commands.
fn server() -> jte::Builder {
    Peer::builder()
        .handle("term:setstyle", |s: SetStyle| async move {
            if s.color > 15 {
                return Err(RpcError::new(
                    "RANGE",
                    format!("color {} is over 15", s.color),
                ));
            }
            Ok(format!(
                "color {}{}",
                s.color,
                if s.bold { ", bold" } else { "" }
            ))
        })
        .handle_stream("file:tail", |lines: u32| {
            futures::stream::iter((1..=lines).map(|i| Ok::<_, RpcError>(format!("line {i}"))))
        })
        .handle_requests("math:sum", |numbers: jte::Requests<i64>| async move {
            let mut numbers = std::pin::pin!(numbers);
            let mut total = 0i64;
            while let Some(n) = numbers.next().await {
                total = total.saturating_add(n?);
            }
            Ok(total)
        })
        .handle("event:log", |text: String| async move {
            eprintln!("server: event:log {text:?}");
            Ok::<_, RpcError>(())
        })
}

/// The server on this process's stdin and stdout, until the client
/// closes.
pub async fn serve_stdio() -> Result<(), BoxError> {
    let (transport, _greeting) =
        Transport::accept_split(tokio::io::stdin(), tokio::io::stdout()).await?;
    let peer = server().start(transport);
    eprintln!("stdio server: {}", peer.closed().await);
    Ok(())
}

async fn client(peer: &Peer) -> Result<(), BoxError> {
    let caps = peer.detect().await?;
    println!("detect: {caps:?}");
    let styled: String = peer
        .call(
            "term:setstyle",
            &SetStyle {
                color: 3,
                bold: true,
            },
        )
        .await?;
    println!("term:setstyle -> {styled}");
    let refused = peer
        .call::<_, String>(
            "term:setstyle",
            &SetStyle {
                color: 99,
                bold: false,
            },
        )
        .await;
    println!("term:setstyle 99 -> {refused:?}");
    let mut lines = peer.call_stream::<_, String>("file:tail", &3u32).await?;
    while let Some(line) = lines.next().await {
        println!("file:tail -> {}", line?);
    }
    let total: i64 = peer
        .call_with_requests("math:sum", futures::stream::iter([1i64, 2, 3, 4]))
        .await?;
    println!("math:sum 1..4 -> {total}");
    peer.notify("event:log", "the client is done").await?;
    let unknown = peer.call::<_, ()>("no:such", &()).await;
    println!("no:such -> {unknown:?}");
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    if std::env::args().nth(1).as_deref() == Some("stdio") {
        serve_stdio().await?;
        // stdin is read on a blocking thread: leave without waiting for it.
        std::process::exit(0);
    }
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    println!("server listening on {addr}");
    let serve = tokio::spawn(async move {
        let (socket, _) = listener.accept().await?;
        let (transport, greeting) = Transport::accept(socket).await?;
        println!("server: greeting {:?}", greeting.protocol());
        // The server calls the client too: the protocol is symmetric.
        let peer = server().start(transport);
        let hello: String = peer.call("client:hello", &"server").await?;
        println!("server: client:hello -> {hello}");
        Ok::<_, BoxError>(peer.closed().await)
    });
    let socket = TcpStream::connect(addr).await?;
    let peer = Peer::builder()
        .handle("client:hello", |who: String| async move {
            Ok::<_, RpcError>(format!("hello, {who}"))
        })
        .start(Transport::connect(socket).await?);
    client(&peer).await?;
    peer.close();
    println!("server: {}", serve.await??);
    Ok(())
}
