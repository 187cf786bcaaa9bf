//! JTE packets in JTOO frames over loopback TCP.
//!
//! A server and a client do the greeting handshake, then the client makes
//! a request/response RPC (`detect`) and a streaming one (`file:tail`, whose
//! responses carry `cont: Y` until the last), printing every packet as it
//! goes. Run with `cargo run -p jte --example rpc_by_hand`.

use futures::{SinkExt, StreamExt};
use jte::{ErrorCode, Packet, PacketCodec};
use jtoo::Value;
use jtoo_frame::{Greeting, client_handshake, server_handshake};
use tokio::net::{TcpListener, TcpStream};

const PROTOCOL: &str = "jte/1";

type BoxError = Box<dyn std::error::Error + Send + Sync>;

fn show(who: &str, dir: &str, p: &Packet) {
    let text = p
        .to_jtoo()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_else(|e| format!("<{e}>"));
    println!("{who:6} {dir} {text}");
}

async fn serve(listener: TcpListener) -> Result<(), BoxError> {
    let (socket, peer) = listener.accept().await?;
    let (framed, greeting) = server_handshake(socket, &[PROTOCOL]).await?;
    println!(
        "server accepted {peer}: protocol {:?}, client {:?}",
        greeting.protocol(),
        greeting.get("client").and_then(Value::as_str)
    );
    let mut packets = framed.map_codec(PacketCodec::with_frame_codec);
    while let Some(request) = packets.next().await {
        let request = request?;
        show("server", "<-", &request);
        let Some(rpcid) = request.rpcid.clone() else {
            continue; // fire-and-forget
        };
        match request.command.as_deref() {
            Some("detect") => {
                let caps = jtoo::from_str(r#"["term":["level":1,"include":["term:*"]]]"#)?;
                let reply = Packet::response(&rpcid).with_data(caps);
                show("server", "->", &reply);
                packets.send(reply.clone()).await?;
            }
            Some("file:tail") => {
                let lines = ["eth0 link up", "dhcp lease acquired", "ntp synced"];
                for (i, line) in lines.iter().enumerate() {
                    let reply = Packet::response(&rpcid)
                        .with_cont(i + 1 < lines.len())
                        .with_datatype("line")
                        .with_data(*line);
                    show("server", "->", &reply);
                    packets.send(reply.clone()).await?;
                }
            }
            _ => {
                let reply = Packet::response(&rpcid).with_error("ECUNKNOWN: no such command");
                show("server", "->", &reply);
                packets.send(reply.clone()).await?;
            }
        }
    }
    println!("server: client closed the connection");
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), BoxError> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    println!("server listening on {addr}");
    let server = tokio::spawn(serve(listener));

    let socket = TcpStream::connect(addr).await?;
    let greeting = Greeting::new(PROTOCOL).with("client", Value::from("jte_rpc example"))?;
    let framed = client_handshake(socket, &greeting).await?;
    println!("client sent greeting {}", greeting.to_value());
    let mut packets = framed.map_codec(PacketCodec::with_frame_codec);

    // A fire-and-forget command.
    let style = Packet::command("term:setstyle").with_data(jtoo::from_str(
        r##"["color":31,"bgcolor":"#aaaaaa","bold":Y]"##,
    )?);
    show("client", "->", &style);
    packets.send(style.clone()).await?;

    // Request / response.
    let detect = Packet::request("detect", "rpc-1").with_timeout(5000);
    show("client", "->", &detect);
    packets.send(detect.clone()).await?;
    let reply = packets.next().await.ok_or("connection closed")??;
    show("client", "<-", &reply);
    assert_eq!(reply.resid.as_deref(), Some("rpc-1"));

    // A streaming response: read until a packet without `cont`.
    let tail = Packet::request("file:tail", "rpc-2")
        .with_data(jtoo::from_str(r#"["path":"/var/log/syslog","follow":Y]"#)?);
    show("client", "->", &tail);
    packets.send(tail.clone()).await?;
    let mut lines = 0;
    loop {
        let reply = packets.next().await.ok_or("connection closed")??;
        show("client", "<-", &reply);
        lines += 1;
        if !reply.cont {
            break;
        }
    }
    println!("client: streaming response complete after {lines} packets");

    // An error response with an error code.
    let bogus = Packet::request("term:nope", "rpc-3");
    show("client", "->", &bogus);
    packets.send(bogus.clone()).await?;
    let reply = packets.next().await.ok_or("connection closed")??;
    show("client", "<-", &reply);
    if let Some(ErrorCode { code, message }) = reply.error_code() {
        println!("client: error code {code}: {message}");
    }

    drop(packets);
    server.await??;
    Ok(())
}
