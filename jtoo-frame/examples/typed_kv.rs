//! A typed key-value protocol over JTOO frames on loopback TCP.
//!
//! The server reads `Request`s and writes `Reply`s through
//! `TypedCodec<WithBinary<Request>, WithBinary<Reply>>`: the request or
//! reply is the JTOO section, a stored value travels as the binary section.
//! A second client asks for a protocol the server does not speak and gets
//! the 505 refusal as the error of its first read. Run with
//! `cargo run -p jtoo-frame --example typed_kv`.

use bytes::Bytes;
use futures::{SinkExt, StreamExt};
use jtoo_frame::{
    FrameError, Greeting, TypedCodec, WithBinary, client_handshake, server_handshake,
};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use tokio::net::{TcpListener, TcpStream};

const PROTOCOL: &str = "kv/1";

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// What a client asks; `Put`'s value is the frame's binary section.
#[derive(Serialize, Deserialize, Debug)]
enum Request {
    Put { key: String },
    Get { key: String },
    Keys,
}

/// What the server answers; `Found`'s value is the binary section.
#[derive(Serialize, Deserialize, Debug)]
enum Reply {
    Stored { replaced: bool },
    Found,
    Missing,
    Keys(Vec<String>),
}

async fn serve(listener: TcpListener) -> Result<(), BoxError> {
    let mut store: HashMap<String, Bytes> = HashMap::new();
    for _ in 0..2 {
        let (socket, _) = listener.accept().await?;
        let framed = match server_handshake(socket, &[PROTOCOL]).await {
            Ok((framed, _greeting)) => framed,
            Err(e) => {
                println!("server: {e}");
                continue;
            }
        };
        let mut framed = framed
            .map_codec(TypedCodec::<WithBinary<Request>, WithBinary<Reply>>::with_frame_codec);
        while let Some(request) = framed.next().await {
            let WithBinary { value, binary } = request?;
            println!("server <- {value:?} ({} bytes)", binary.len());
            let reply = match value {
                Request::Put { key } => WithBinary::new(
                    Reply::Stored {
                        replaced: store.insert(key, binary).is_some(),
                    },
                    Bytes::new(),
                ),
                Request::Get { key } => match store.get(&key) {
                    Some(v) => WithBinary::new(Reply::Found, v.clone()),
                    None => WithBinary::new(Reply::Missing, Bytes::new()),
                },
                Request::Keys => {
                    let mut keys: Vec<String> = store.keys().cloned().collect();
                    keys.sort();
                    WithBinary::new(Reply::Keys(keys), Bytes::new())
                }
            };
            framed.send(&reply).await?;
        }
    }
    Ok(())
}

async fn client(addr: std::net::SocketAddr) -> Result<(), BoxError> {
    let socket = TcpStream::connect(addr).await?;
    let framed = client_handshake(socket, &Greeting::new(PROTOCOL)).await?;
    let mut framed =
        framed.map_codec(TypedCodec::<WithBinary<Reply>, WithBinary<Request>>::with_frame_codec);
    let requests = [
        WithBinary::new(Request::Put { key: "logo".into() }, &b"\x89PNG..."[..]),
        WithBinary::new(Request::Put { key: "motd".into() }, &b"hello"[..]),
        WithBinary::new(Request::Put { key: "motd".into() }, &b"hello again"[..]),
        WithBinary::new(Request::Get { key: "motd".into() }, Bytes::new()),
        WithBinary::new(Request::Get { key: "nope".into() }, Bytes::new()),
        WithBinary::new(Request::Keys, Bytes::new()),
    ];
    for request in requests {
        framed.send(request).await?;
        let reply = framed.next().await.ok_or("the server closed")??;
        println!(
            "client <- {:?} {:?}",
            reply.value,
            String::from_utf8_lossy(&reply.binary)
        );
    }
    Ok(())
}

async fn wrong_protocol(addr: std::net::SocketAddr) -> Result<(), BoxError> {
    let socket = TcpStream::connect(addr).await?;
    let framed = client_handshake(socket, &Greeting::new("kv/2")).await?;
    let mut framed = framed.map_codec(TypedCodec::<Reply, Request>::with_frame_codec);
    match framed.next().await {
        Some(Err(FrameError::UnsupportedProtocol)) => {
            println!("client: the server does not speak kv/2 (505)");
            Ok(())
        }
        other => Err(format!("expected the 505 refusal, got {other:?}").into()),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), BoxError> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let server = tokio::spawn(serve(listener));
    client(addr).await?;
    wrong_protocol(addr).await?;
    server.await??;
    Ok(())
}
