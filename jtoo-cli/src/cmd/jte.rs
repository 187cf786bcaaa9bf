//! `jtoo jte`: JTE RPC for scripting and debugging: `call` makes one call
//! and prints the answer, `serve` answers a few built-in commands.
//!
//! Addresses: `HOST:PORT` (TCP) or `unix:PATH` (a Unix socket). Packets go
//! in JTOO frames after the `jte/1` greeting, or as JSON lines with
//! `--json-lines`.

use crate::io::say;
use clap::Subcommand;
use futures::StreamExt;
use jte::{Peer, RpcError, Transport};
use jtoo::Value;
use std::time::Duration;

/// JTE subcommands.
#[derive(Subcommand)]
pub enum JteCommand {
    /// Call COMMAND on the JTE peer at ADDR with DATA (HTOO or JTOO text;
    /// none when absent) and print each response's data as canonical JTOO,
    /// one line each (JSON with `--json`). A remote error goes to stderr
    /// as `jtoo: remote error: EC…: …` with exit 1; a connection error
    /// exits 2.
    Call(CallArgs),
    /// Answer JTE calls on ADDR (or on stdin/stdout with `--stdio`), logging
    /// each connection to stderr. Commands: `echo` (answers its data),
    /// `echo:stream` (answers each item of a list, as a stream), `sleep`
    /// (waits DATA milliseconds, answers them), `fail` (answers its data,
    /// a string, as the error: `"ECNOPE: message"`), and `detect`.
    Serve {
        /// `HOST:PORT` or `unix:PATH` to listen on.
        #[arg(long, required_unless_present = "stdio")]
        listen: Option<String>,
        /// Serve one connection on stdin and stdout instead.
        #[arg(long, conflicts_with = "listen")]
        stdio: bool,
        /// Speak JSON lines instead of JTOO frames.
        #[arg(long)]
        json_lines: bool,
        /// Connections served at once; more wait to be accepted.
        #[arg(long, default_value_t = 256)]
        max_connections: usize,
    },
}

/// The arguments of `jtoo jte call`.
#[derive(clap::Args)]
pub struct CallArgs {
    /// `HOST:PORT`, or `unix:PATH`.
    addr: String,
    /// The command, e.g. `term:setstyle`.
    command: String,
    /// The request data, e.g. `["color":31]`.
    data: Option<String>,
    /// Read a stream of responses (`cont`), printing each as it comes.
    #[arg(long)]
    stream: bool,
    /// Seconds to wait for the answer (sent as `timeout`); 0 waits
    /// forever.
    #[arg(long, default_value_t = 30.0)]
    timeout: f64,
    /// Speak JSON lines instead of JTOO frames.
    #[arg(long)]
    json_lines: bool,
    /// Print the data as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(cmd: JteCommand) -> u8 {
    crate::io::block_on(async move {
        match cmd {
            JteCommand::Call(args) => call(args).await,
            JteCommand::Serve {
                listen,
                stdio,
                json_lines,
                max_connections,
            } => serve(listen, stdio, json_lines, max_connections).await,
        }
    })
}

/// A connected transport, or the message and exit code.
async fn connect(addr: &str, json_lines: bool) -> Result<Transport, String> {
    #[cfg(unix)]
    if let Some(path) = addr.strip_prefix("unix:") {
        let socket = tokio::net::UnixStream::connect(path)
            .await
            .map_err(|e| format!("jtoo: cannot connect to {addr}: {e}"))?;
        return if json_lines {
            Ok(Transport::json_lines(socket))
        } else {
            Transport::connect(socket)
                .await
                .map_err(|e| format!("jtoo: handshake with {addr} failed: {e}"))
        };
    }
    let socket = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| format!("jtoo: cannot connect to {addr}: {e}"))?;
    if json_lines {
        Ok(Transport::json_lines(socket))
    } else {
        Transport::connect(socket)
            .await
            .map_err(|e| format!("jtoo: handshake with {addr} failed: {e}"))
    }
}

fn print(value: &Value, json: bool) -> Result<(), u8> {
    let line = if json {
        jtoo::json::to_json_string(value)
    } else {
        value.to_string()
    };
    let mut out = crate::io::Out::new();
    out.line(line.as_bytes())?;
    out.flush()
}

/// The exit code of a failed call, with its message on stderr.
fn failed(e: &jte::Error) -> u8 {
    match e {
        jte::Error::Rpc(e) => {
            say!("jtoo: remote error: {e}");
            1
        }
        e => {
            say!("jtoo: {e}");
            2
        }
    }
}

async fn call(c: CallArgs) -> u8 {
    let data: Option<Value> = match c.data.as_deref().map(htoo::from_str) {
        None => None,
        Some(Ok(v)) => Some(v),
        Some(Err(e)) => {
            say!("jtoo: DATA: {e}");
            return 2;
        }
    };
    if !(c.timeout.is_finite() && c.timeout >= 0.0) {
        say!("jtoo: --timeout must be a number of seconds, 0 or more");
        return 2;
    }
    let timeout = (c.timeout > 0.0).then(|| Duration::from_secs_f64(c.timeout));
    let transport = match connect(&c.addr, c.json_lines).await {
        Ok(t) => t,
        Err(message) => {
            say!("{message}");
            return 2;
        }
    };
    let peer = Peer::builder()
        .default_timeout(timeout)
        .start(transport)
        .with_timeout(timeout);
    if !c.stream {
        return match peer.call::<_, Option<Value>>(&c.command, &data).await {
            Ok(Some(v)) => print(&v, c.json).err().unwrap_or(0),
            Ok(None) => 0,
            Err(e) => failed(&e),
        };
    }
    let mut responses = match peer.call_stream::<_, Value>(&c.command, &data).await {
        Ok(r) => r,
        Err(e) => return failed(&e),
    };
    while let Some(item) = responses.next().await {
        match item {
            Ok(v) => {
                if let Err(code) = print(&v, c.json) {
                    return code;
                }
            }
            Err(e) => return failed(&e),
        }
    }
    0
}

/// The peer `serve` runs on each connection.
fn server() -> jte::Builder {
    Peer::builder()
        .handle("echo", |data: Option<Value>| async move {
            Ok::<_, RpcError>(data)
        })
        .handle_stream("echo:stream", |data: Option<Value>| {
            let items: Vec<Result<Value, RpcError>> = match data {
                Some(Value::List(items)) => items
                    .into_iter()
                    .map(|item| match item {
                        jtoo::Item::Value(v) => Ok(v),
                        jtoo::Item::Pair(p) => Ok(Value::List(vec![jtoo::Item::Pair(p)].into())),
                    })
                    .collect(),
                _ => vec![Err(RpcError::new(
                    RpcError::INVALID,
                    "echo:stream takes a list",
                ))],
            };
            futures::stream::iter(items)
        })
        .handle("sleep", |ms: u64| async move {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            Ok::<_, RpcError>(ms)
        })
        .handle("fail", |error: String| async move {
            Err::<(), _>(RpcError::message(error))
        })
}

async fn serve(listen: Option<String>, stdio: bool, json_lines: bool, max: usize) -> u8 {
    if stdio {
        let (stdin, stdout) = (tokio::io::stdin(), tokio::io::stdout());
        let transport = if json_lines {
            Transport::json_lines_split(stdin, stdout)
        } else {
            match Transport::accept_split(stdin, stdout).await {
                Ok((t, _)) => t,
                Err(e) => {
                    say!("jtoo: handshake failed: {e}");
                    return 1;
                }
            }
        };
        let why = server().start(transport).closed().await;
        say!("stdio: {why}");
        return 0;
    }
    let Some(listen) = listen else {
        say!("jtoo: give --listen ADDR or --stdio");
        return 2;
    };
    #[cfg(unix)]
    if let Some(path) = listen.strip_prefix("unix:") {
        return match tokio::net::UnixListener::bind(path) {
            Ok(l) => {
                say!("listening on {listen}");
                accept_loop(l, max, json_lines).await
            }
            Err(e) => {
                say!("jtoo: cannot listen on {listen}: {e}");
                2
            }
        };
    }
    match tokio::net::TcpListener::bind(&listen).await {
        Ok(l) => {
            match l.local_addr() {
                Ok(addr) => say!("listening on {addr}"),
                Err(_) => say!("listening on {listen}"),
            }
            accept_loop(l, max, json_lines).await
        }
        Err(e) => {
            say!("jtoo: cannot listen on {listen}: {e}");
            2
        }
    }
}

/// A listening socket: TCP or Unix.
trait Listener {
    type Io: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + Unpin + 'static;
    /// The next connection and a name for the log.
    fn next(&self) -> impl std::future::Future<Output = std::io::Result<(Self::Io, String)>>;
}

impl Listener for tokio::net::TcpListener {
    type Io = tokio::net::TcpStream;
    async fn next(&self) -> std::io::Result<(Self::Io, String)> {
        let (socket, from) = self.accept().await?;
        Ok((socket, from.to_string()))
    }
}

#[cfg(unix)]
impl Listener for tokio::net::UnixListener {
    type Io = tokio::net::UnixStream;
    async fn next(&self) -> std::io::Result<(Self::Io, String)> {
        let (socket, _) = self.accept().await?;
        Ok((socket, "unix client".to_owned()))
    }
}

/// Serves every connection, at most `max` at once (more wait to be
/// accepted).
async fn accept_loop(listener: impl Listener, max: usize, json_lines: bool) -> u8 {
    let limit = std::sync::Arc::new(tokio::sync::Semaphore::new(max.max(1)));
    loop {
        let Ok(permit) = limit.clone().acquire_owned().await else {
            return 2;
        };
        match listener.next().await {
            Ok((socket, from)) => {
                tokio::spawn(connection(socket, from, json_lines, permit));
            }
            Err(e) => accept_failed(&e).await,
        }
    }
}

/// An accept error (out of descriptors, say): log it and back off, so the
/// loop neither spins nor floods the log.
async fn accept_failed(e: &std::io::Error) {
    say!("accept failed: {e}; retrying in 100 ms");
    tokio::time::sleep(Duration::from_millis(100)).await;
}

async fn connection<T>(
    socket: T,
    from: String,
    json_lines: bool,
    _permit: tokio::sync::OwnedSemaphorePermit,
) where
    T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let transport = if json_lines {
        Transport::json_lines(socket)
    } else {
        match Transport::accept(socket).await {
            Ok((t, _)) => t,
            Err(e) => {
                say!("{from}: handshake failed: {e}");
                return;
            }
        }
    };
    say!("{from}: connected");
    let peer = server().start(transport);
    let why = peer.closed().await;
    say!("{from}: {why} ({:?})", peer.stats());
}
