//! `jtoo frame …`: decode and encode JTOO frames, a reference server and
//! client for JTOO protocols, and a greeting checker for the conformance
//! suite.
//!
//! Frames are shown as JSON lines, one per frame:
//! `{"jtoo":"<canonical text>" or null,"binary":"<lower-case hex>"}`.

use crate::io::{Input, Next, Out, say};
use jtoo_frame::bytes::BytesMut;
use jtoo_frame::futures::{SinkExt, StreamExt};
use jtoo_frame::server::{self, Connection, ConnectionError, Event, Server};
use jtoo_frame::tokio_util::codec::{Decoder, FramedRead, LinesCodec, LinesCodecError};
use jtoo_frame::{
    DEFAULT_HANDSHAKE_TIMEOUT, Frame, FrameCodec, FrameError, Greeting, Handshake, HandshakeError,
};
use std::io::Read;
use std::path::PathBuf;
use std::time::Duration;

/// The limits of a server (`frame serve`, `jte serve`): jtoo-frame's
/// server runtime, with its defaults.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct ServerLimits {
    /// Most connections open at once; over it a new connection gets the
    /// 503 busy reply (JTOO frames) or is closed (JSON lines).
    #[arg(long, default_value_t = server::DEFAULT_MAX_CONNECTIONS)]
    max_connections: usize,
    /// MiB buffered from clients across all connections (each may hold
    /// its fair share when it runs short); frames longer than this are
    /// refused.
    #[arg(long, default_value_t = server::DEFAULT_MEMORY_BUDGET >> 20)]
    memory_budget_mib: usize,
    /// Seconds a connection may wait between frames (JSON lines: lines).
    #[arg(long, default_value_t = server::DEFAULT_IDLE_TIMEOUT.as_secs())]
    idle_timeout: u64,
    /// Seconds a started frame (JSON lines: line) has to arrive whole.
    #[arg(long, default_value_t = server::DEFAULT_FRAME_TIMEOUT.as_secs())]
    frame_timeout: u64,
    /// Seconds writing one frame (line) to a client may take.
    #[arg(long, default_value_t = server::DEFAULT_WRITE_TIMEOUT.as_secs())]
    write_timeout: u64,
}

impl ServerLimits {
    /// The memory budget's share of one connection when every connection
    /// is open: the budget divided by the connection cap.
    pub fn share(self) -> usize {
        self.memory_budget_mib.saturating_mul(1 << 20) / self.max_connections.max(1)
    }

    /// `server` with these limits.
    pub fn apply(self, server: Server) -> Server {
        server
            .max_connections(self.max_connections)
            .memory_budget(self.memory_budget_mib.saturating_mul(1 << 20))
            .idle_timeout(Duration::from_secs(self.idle_timeout))
            .frame_timeout(Duration::from_secs(self.frame_timeout))
            .write_timeout(Duration::from_secs(self.write_timeout))
    }
}

/// Frame subcommands.
#[derive(clap::Subcommand)]
pub enum FrameCommand {
    /// Decode a byte stream of frames to JSON lines
    ///
    /// One JSON line per frame: {"jtoo": "<text>" or null, "binary":
    /// "<hex>"}. On a malformed or truncated frame, print the frames before
    /// it, then the error on stderr, and exit 1.
    Decode {
        /// Input file (stdin when absent or -).
        file: Option<PathBuf>,
    },
    /// Encode JSON lines as printed by "frame decode" back to frames
    Encode {
        /// Input file (stdin when absent or -).
        file: Option<PathBuf>,
    },
    /// Run a reference echo server
    ///
    /// The server side of the greeting handshake (terminate on a bad
    /// greeting, reply 505 to an unsupported protocol), then echo every
    /// frame back unchanged, under the limits of jtoo-frame's server: a
    /// connection cap (over it: the 503 busy reply), a budget of buffered
    /// bytes across connections, and greeting, idle, frame and write
    /// timeouts. Logs each connection to stderr.
    Serve {
        /// Address to listen on, e.g. 127.0.0.1:7000.
        #[arg(long, value_name = "ADDR")]
        listen: String,
        /// A supported protocol (repeat for several).
        #[arg(long = "protocol", required = true)]
        protocols: Vec<String>,
        /// Seconds a client has to send its greeting.
        #[arg(long, visible_alias = "greeting-timeout", default_value_t = DEFAULT_HANDSHAKE_TIMEOUT.as_secs())]
        timeout: u64,
        #[command(flatten)]
        limits: ServerLimits,
        /// Log only refusals, errors and failed connections, not every
        /// accepted and cleanly closed one.
        #[arg(long)]
        quiet: bool,
    },
    /// Check a greeting handshake read from a file or stdin
    ///
    /// Plays the responder of a greeting handshake on one byte stream, as
    /// "frame serve" does on a connection (the conformance suite's
    /// --greeting-checker): read the initiator's bytes from FILE or stdin,
    /// then exit 0 with nothing on stdout to accept; exit 1 with nothing on
    /// stdout to terminate (malformed or over-16-KiB greeting frame, bad
    /// greeting, no greeting); or write the exact 505 reply to stdout and
    /// exit 1 for an unsupported protocol. Bytes after the greeting frame
    /// are the connection's next frames and are not read. Exit 2 on an I/O
    /// error. The outcome is logged to stderr.
    CheckGreeting {
        /// A supported protocol (repeat for several).
        #[arg(long = "protocol", required = true)]
        protocols: Vec<String>,
        /// Seconds the initiator has to send its greeting.
        #[arg(long, default_value_t = 10)]
        timeout: u64,
        /// Input file (stdin when absent or -).
        file: Option<PathBuf>,
    },
    /// Run a reference client
    ///
    /// Sends a greeting, then the frames read from stdin (JSON lines as in
    /// "frame encode"), printing replies as "frame decode" does.
    Connect {
        /// Address of the server, e.g. 127.0.0.1:7000.
        #[arg(long, value_name = "ADDR")]
        addr: String,
        /// The protocol to ask for.
        #[arg(long)]
        protocol: String,
    },
}

/// Runs the command.
pub fn run(cmd: FrameCommand) -> u8 {
    match cmd {
        FrameCommand::Decode { file } => decode(file),
        FrameCommand::Encode { file } => encode(file),
        FrameCommand::Serve {
            listen,
            protocols,
            timeout,
            limits,
            quiet,
        } => {
            let server = limits
                .apply(Server::new(protocols))
                .greeting_timeout(Duration::from_secs(timeout))
                .on_event(move |event| log_event(event, quiet));
            crate::io::block_on(serve(listen, server))
        }
        FrameCommand::Connect { addr, protocol } => crate::io::block_on(connect(addr, protocol)),
        FrameCommand::CheckGreeting {
            protocols,
            timeout,
            file,
        } => check_greeting(file, &protocols, Duration::from_secs(timeout)),
    }
}

/// `frame check-greeting`: runs jtoo-frame's server handshake
/// ([`Handshake::server`]) on stdin (or FILE) joined with stdout, so every
/// greeting rule, the 16 KiB limit and the 505 reply are the library's own.
fn check_greeting(file: Option<PathBuf>, protocols: &[String], timeout: Duration) -> u8 {
    crate::io::block_on(async {
        let input: Box<dyn tokio::io::AsyncRead + Unpin + Send> = match file {
            Some(p) if p.as_os_str() != "-" => match tokio::fs::File::open(&p).await {
                Ok(f) => Box::new(f),
                Err(e) => {
                    say!("jtoo: cannot read {}: {e}", p.display());
                    return 2;
                }
            },
            _ => Box::new(tokio::io::stdin()),
        };
        let io = tokio::io::join(input, tokio::io::stdout());
        match Handshake::new()
            .timeout(timeout)
            .server(io, protocols)
            .await
        {
            Ok((_, greeting)) => {
                say!("accepted protocol {:?}", greeting.protocol());
                0
            }
            Err(HandshakeError::Frame(FrameError::Io(e))) => {
                say!("jtoo: cannot read the greeting: {e}");
                2
            }
            Err(e @ HandshakeError::UnsupportedProtocol(_)) => {
                say!("{e}");
                1
            }
            Err(e) => {
                say!("terminated without reply: {e}");
                1
            }
        }
    })
}

/// The JSON line of a frame (without the newline).
fn frame_to_json(frame: &Frame) -> String {
    let mut map = serde_json::Map::with_capacity(2);
    map.insert(
        "jtoo".into(),
        frame.jtoo_str().map_or(serde_json::Value::Null, |s| {
            serde_json::Value::String(s.into())
        }),
    );
    map.insert(
        "binary".into(),
        serde_json::Value::String(hex(frame.binary())),
    );
    serde_json::Value::Object(map).to_string()
}

/// The frame of a JSON line: `jtoo` must be canonical strict JTOO text (or
/// null / absent / empty for none), `binary` lower-case hex (absent: empty).
fn json_to_frame(line: &[u8]) -> Result<Frame, String> {
    let json: serde_json::Value =
        serde_json::from_slice(line).map_err(|e| format!("invalid JSON: {e}"))?;
    let obj = json
        .as_object()
        .ok_or("expected an object {\"jtoo\": …, \"binary\": …}")?;
    if let Some(k) = obj.keys().find(|k| *k != "jtoo" && *k != "binary") {
        return Err(format!("unknown key {k:?}"));
    }
    let frame = match obj.get("jtoo") {
        None | Some(serde_json::Value::Null) => Frame::empty(),
        Some(serde_json::Value::String(s)) => {
            Frame::from_jtoo(s.clone().into_bytes()).map_err(|e| local_error("jtoo", e))?
        }
        Some(_) => return Err("\"jtoo\" must be a string or null".into()),
    };
    let binary = match obj.get("binary") {
        None => Vec::new(),
        Some(serde_json::Value::String(s)) => unhex(s)?,
        Some(_) => return Err("\"binary\" must be a hex string".into()),
    };
    Ok(frame.with_binary(binary))
}

/// A frame error about a section given on a local input line, without the
/// codec's "the stream is unusable" (nothing was streamed).
fn local_error(field: &str, e: FrameError) -> String {
    match e {
        FrameError::InvalidJtoo(e) => format!("\"{field}\" is not strict JTOO: {e}"),
        FrameError::TooLong { length, max, .. } => {
            format!("\"{field}\" too long: {length} bytes, the maximum is {max}")
        }
        e => format!("\"{field}\": {e}"),
    }
}

fn hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(char::from(HEX[usize::from(b >> 4)]));
        s.push(char::from(HEX[usize::from(b & 0xf)]));
    }
    s
}

fn unhex(s: &str) -> Result<Vec<u8>, String> {
    let digit = |c: u8| match c {
        b'0'..=b'9' => Ok(c - b'0'),
        b'a'..=b'f' => Ok(c - b'a' + 10),
        _ => Err("\"binary\" must be lower-case hex digits".to_string()),
    };
    let bytes = s.as_bytes();
    if !bytes.len().is_multiple_of(2) {
        return Err("\"binary\" must have an even number of hex digits".into());
    }
    bytes
        .chunks_exact(2)
        .map(|pair| match pair {
            [h, l] => Ok(digit(*h)? << 4 | digit(*l)?),
            _ => Err("odd hex".to_string()),
        })
        .collect()
}

fn decode(file: Option<PathBuf>) -> u8 {
    let (name, mut input): (String, Box<dyn Read>) = match file {
        Some(p) if p.as_os_str() != "-" => match std::fs::File::open(&p) {
            Ok(f) => (p.display().to_string(), Box::new(f)),
            Err(e) => {
                say!("jtoo: cannot read {}: {e}", p.display());
                return 2;
            }
        },
        _ => ("<stdin>".into(), Box::new(std::io::stdin().lock())),
    };
    let mut out = Out::new();
    let mut codec = FrameCodec::new();
    let mut buf = BytesMut::with_capacity(64 * 1024);
    let mut chunk = vec![0u8; 64 * 1024];
    let mut frames = 0usize;
    let mut eof = false;
    loop {
        let next = if eof {
            codec.decode_eof(&mut buf)
        } else {
            codec.decode(&mut buf)
        };
        match next {
            Ok(Some(frame)) => {
                frames += 1;
                if let Err(code) = out.line(frame_to_json(&frame).as_bytes()) {
                    return code;
                }
                continue;
            }
            Ok(None) if eof => break,
            Ok(None) => {}
            Err(e) => {
                say!("jtoo: {name}: frame {}: {e}", frames + 1);
                return out.finish(1);
            }
        }
        match input.read(&mut chunk) {
            Ok(0) => eof = true,
            Ok(n) => buf.extend_from_slice(chunk.get(..n).unwrap_or_default()),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                say!("jtoo: cannot read {name}: {e}");
                return out.finish(2);
            }
        }
    }
    out.finish(0)
}

fn encode(file: Option<PathBuf>) -> u8 {
    let mut input = match Input::open(file.as_deref()) {
        Ok(input) => input,
        Err(code) => return code,
    };
    let mut out = Out::new();
    // Lines are read one at a time; one that is already not JSON stops the
    // reading early (an endless line of garbage is not read to its end).
    let probe = |line: &[u8]| jtoo::json::from_json_slice(line).map(drop);
    let mut number = 0usize;
    loop {
        number += 1;
        let line = match input.next_document(true, &probe) {
            Ok(Next::End) => return out.finish(0),
            Ok(Next::Doc(line)) => line,
            Ok(Next::Invalid(_, e)) => {
                say!("{}:{number}: invalid JSON: {e}", input.name);
                return out.finish(1);
            }
            Err(code) => return out.finish(code),
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let written = match json_to_frame(&line) {
            Ok(frame) if frame.binary().len() > jtoo_frame::MAX_SECTION_LEN => {
                say!(
                    "{}:{number}: \"binary\" too long: {} bytes, the maximum is {}",
                    input.name,
                    frame.binary().len(),
                    jtoo_frame::MAX_SECTION_LEN
                );
                return out.finish(1);
            }
            Ok(frame) => match frame.to_bytes() {
                Ok(bytes) => out.write(&bytes),
                Err(e) => {
                    say!("{}:{number}: {e}", input.name);
                    return out.finish(1);
                }
            },
            Err(msg) => {
                say!("{}:{number}: {msg}", input.name);
                return out.finish(1);
            }
        };
        if let Err(code) = written {
            return code;
        }
    }
}

/// The listen backlog of `frame serve` and `jte serve` (the kernel caps it at
/// `net.core.somaxconn`): a burst of connections waits in it for `accept`
/// instead of having its handshake packets dropped.
const LISTEN_BACKLOG: u32 = 4096;

/// A listener on the first address `listen` resolves to, with a backlog
/// of [`LISTEN_BACKLOG`].
pub(crate) async fn bind(listen: &str) -> std::io::Result<tokio::net::TcpListener> {
    let addr = tokio::net::lookup_host(listen)
        .await?
        .next()
        .ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "no address to listen on")
        })?;
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

async fn serve(listen: String, server: Server) -> u8 {
    let listener = match bind(&listen).await {
        Ok(l) => l,
        Err(e) => {
            say!("jtoo: cannot listen on {listen}: {e}");
            return 2;
        }
    };
    let addr = listener
        .local_addr()
        .map_or_else(|_| listen.clone(), |a| a.to_string());
    say!("listening on {addr}, {server:?}");
    server.serve(listener, echo).await;
    0
}

/// The reference protocol: every frame back, unchanged.
async fn echo(mut conn: Connection) -> Result<(), ConnectionError> {
    while let Some(frame) = conn.recv().await? {
        conn.send(frame).await?;
    }
    Ok(())
}

/// The server's log: one stderr line per event; with `quiet`, only the
/// ones that report trouble.
pub(crate) fn log_event(event: &Event<'_>, quiet: bool) {
    let trouble = match event {
        Event::Accepted { .. } | Event::Opened { .. } => false,
        Event::Closed { error, .. } => error.is_some(),
        _ => true,
    };
    if trouble || !quiet {
        say!("{event}");
    }
}

/// The longest stdin line `frame connect` reads: the JSON line of a frame
/// with both sections at the header's maximum (`ffffff` bytes each, the
/// binary one hex-encoded, the JTOO one JSON-escaped) fits.
/// Past it the line is refused rather than buffered without end.
const MAX_STDIN_LINE: usize = 128 << 20;

async fn connect(addr: String, protocol: String) -> u8 {
    let socket = match tokio::net::TcpStream::connect(&addr).await {
        Ok(s) => s,
        Err(e) => {
            say!("jtoo: cannot connect to {addr}: {e}");
            return 2;
        }
    };
    let framed = match jtoo_frame::client_handshake(socket, &Greeting::new(protocol)).await {
        Ok(f) => f,
        Err(e) => {
            say!("jtoo: handshake: {e}");
            return 2;
        }
    };
    let (mut sink, mut stream) = framed.split();
    let reader = tokio::spawn(async move {
        let mut out = Out::new();
        let mut status = 0u8;
        let mut n = 0usize;
        while let Some(next) = stream.next().await {
            match next {
                Ok(frame) => {
                    n += 1;
                    // Each reply is shown as it arrives.
                    if let Err(code) = out
                        .line(frame_to_json(&frame).as_bytes())
                        .and_then(|()| out.flush())
                    {
                        return code;
                    }
                    if n == 1 && jtoo_frame::is_unsupported_protocol_reply(&frame) {
                        say!("jtoo: the server does not support the protocol (505)");
                        status = 1;
                    }
                }
                Err(e) => {
                    say!("jtoo: {addr}: frame {}: {e}", n + 1);
                    return out.finish(1);
                }
            }
        }
        out.finish(status)
    });
    let mut status = 0u8;
    let mut lines = FramedRead::new(
        tokio::io::stdin(),
        LinesCodec::new_with_max_length(MAX_STDIN_LINE),
    );
    let mut line_no = 0usize;
    loop {
        let line = match lines.next().await {
            Some(Ok(line)) => line,
            None => break,
            Some(Err(LinesCodecError::MaxLineLengthExceeded)) => {
                say!(
                    "<stdin>:{}: line longer than {MAX_STDIN_LINE} bytes (a frame's JSON line is shorter)",
                    line_no + 1
                );
                status = 1;
                break;
            }
            Some(Err(LinesCodecError::Io(e))) => {
                say!("jtoo: cannot read stdin: {e}");
                status = 2;
                break;
            }
        };
        line_no += 1;
        if line.trim().is_empty() {
            continue;
        }
        match json_to_frame(line.as_bytes()) {
            Ok(frame) => {
                if let Err(e) = sink.send(frame).await {
                    say!("jtoo: send failed: {e}");
                    status = 2;
                    break;
                }
            }
            Err(msg) => {
                say!("<stdin>:{line_no}: {msg}");
                status = 1;
                break;
            }
        }
    }
    // Close our side; the server closes after echoing what it got.
    let _ = sink.close().await;
    let read_status = reader.await.unwrap_or(2);
    status.max(read_status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_lines_round_trip() {
        let f = Frame::from_jtoo(&b"[\"a\":1]"[..])
            .map(|f| f.with_binary(vec![0u8, 0xab]))
            .ok();
        let Some(f) = f else { return };
        let line = frame_to_json(&f);
        assert_eq!(line, r#"{"jtoo":"[\"a\":1]","binary":"00ab"}"#);
        assert_eq!(json_to_frame(line.as_bytes()).ok(), Some(f));
        assert_eq!(
            json_to_frame(br#"{"jtoo":null,"binary":""}"#).ok(),
            Some(Frame::empty())
        );
        assert!(json_to_frame(br#"{"jtoo":"[1,]"}"#).is_err());
        assert!(json_to_frame(br#"{"binary":"AB"}"#).is_err());
        assert!(json_to_frame(br#"{"binary":"abc"}"#).is_err());
        assert!(json_to_frame(br#"{"x":1}"#).is_err());
    }
}
