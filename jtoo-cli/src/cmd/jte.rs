//! `jtoo jte`: JTE RPC for scripting and debugging: `call` makes one call
//! and prints the answer, `serve` answers a few built-in commands.
//!
//! Addresses: `HOST:PORT` (TCP) or `unix:PATH` (a Unix socket). Packets go
//! in JTOO frames after the `jte/1` greeting, or as JSON lines with
//! `--json-lines`.

use crate::cmd::frame::{ServerLimits, bind, log_event};
use crate::io::say;
use clap::Subcommand;
use futures::StreamExt;
use jte::{Peer, RpcError, Transport};
use jtoo::Value;
use jtoo_frame::server::{ConnectionError, Listener, Server};
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
    ///
    /// Listeners run under jtoo-frame's server runtime, as `frame serve`
    /// does: a connection cap, a memory budget with fair shares, idle,
    /// frame and write timeouts (for JSON lines a frame is a line) and a
    /// listen backlog of 4,096. Each connection queues at most its share
    /// of the memory budget (budget ÷ max connections, 64 KiB to 1 MiB;
    /// 256 KiB by default) of answers for a client that does not read
    /// them.
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
        #[command(flatten)]
        limits: ServerLimits,
        /// Log only refusals, errors and failed connections, not every
        /// accepted and cleanly closed one.
        #[arg(long)]
        quiet: bool,
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
    /// Accepted for scripts written for earlier versions: every answer of
    /// a stream of responses (`cont`) is printed as it comes, with or
    /// without it.
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
                limits,
                quiet,
            } => {
                let server = limits
                    .apply(Server::new([jte::PROTOCOL]))
                    .on_event(move |event| log_event(event, quiet));
                let queued = answer_queue(limits);
                serve(listen, stdio, json_lines, server, queued).await
            }
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
            // As `check` reports HTOO: the source with a caret, and the
            // `help:` a JSON habit gets (`true`, `null`, `{`).
            let source = c.data.as_deref().unwrap_or_default();
            crate::io::Syntax::new(true).report("DATA", source.as_bytes(), &e);
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
    // Every answer is printed, whether or not `--stream` was given: an
    // answer is a stream of one item (or none, without data), and a
    // stream's items are never dropped.
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

/// The answers `serve` queues on one connection, in bytes: the memory
/// budget's share of a connection ([`ServerLimits::share`]), at least
/// 64 KiB and at most 1 MiB. A client that does not read them holds no
/// more, so the connections at their cap together queue at most the
/// budget again (256 MiB with the defaults: 1,024 connections of 256 KiB;
/// at jte's own default of 4 MiB each, 4 GiB).
fn answer_queue(limits: ServerLimits) -> usize {
    limits.share().clamp(64 << 10, 1 << 20)
}

/// The peer `serve` runs on each connection, queuing at most `queued`
/// bytes of answers.
fn jte_server(queued: usize) -> jte::Builder {
    Peer::builder()
        .max_queued_bytes(queued)
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

async fn serve(
    listen: Option<String>,
    stdio: bool,
    json_lines: bool,
    server: Server,
    queued: usize,
) -> u8 {
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
        let why = jte_server(queued).start(transport).closed().await;
        say!("stdio: {why}");
        return 0;
    }
    let Some(listen) = listen else {
        say!("jtoo: give --listen ADDR or --stdio");
        return 2;
    };
    #[cfg(unix)]
    if let Some(path) = listen.strip_prefix("unix:") {
        return match bind_unix(path) {
            Ok(l) => {
                say!("listening on {listen}");
                serve_on(l, json_lines, &server, queued).await
            }
            Err(e) => {
                say!("jtoo: cannot listen on {listen}: {e}");
                2
            }
        };
    }
    match bind(&listen).await {
        Ok(l) => {
            match l.local_addr() {
                Ok(addr) => say!("listening on {addr}"),
                Err(_) => say!("listening on {listen}"),
            }
            serve_on(l, json_lines, &server, queued).await
        }
        Err(e) => {
            say!("jtoo: cannot listen on {listen}: {e}");
            2
        }
    }
}

/// A Unix socket listener with the system's largest backlog (std's
/// `bind` asks for it; tokio's would ask for 1,024).
#[cfg(unix)]
fn bind_unix(path: &str) -> std::io::Result<tokio::net::UnixListener> {
    let listener = std::os::unix::net::UnixListener::bind(path)?;
    listener.set_nonblocking(true)?;
    tokio::net::UnixListener::from_std(listener)
}

/// Serves the JTE peer on every connection of `listener` under the
/// server's limits.
async fn serve_on<L: Listener>(
    listener: L,
    json_lines: bool,
    server: &Server,
    queued: usize,
) -> u8 {
    let forever = std::future::pending();
    if json_lines {
        let handler = move |io| peer_until_closed(Transport::json_lines(io), queued);
        server.serve_lines(listener, handler, forever).await;
    } else {
        let handler = move |framed, _greeting| peer_until_closed(Transport::frames(framed), queued);
        server.serve_framed(listener, handler, forever).await;
    }
    0
}

/// Runs the peer on one connection until it closes; a close for any other
/// reason than the client leaving is the connection's error.
async fn peer_until_closed(transport: Transport, queued: usize) -> Result<(), ConnectionError> {
    let why = jte_server(queued).start(transport).closed().await;
    if why.as_ref() == "the other side closed the connection" {
        Ok(())
    } else {
        Err(ConnectionError::Other(why.to_string().into()))
    }
}

#[cfg(test)]
mod tests {
    use super::{ServerLimits, answer_queue};
    use clap::Parser;

    #[derive(Parser)]
    struct Limits {
        #[command(flatten)]
        limits: ServerLimits,
    }

    fn queue(args: &[&str]) -> usize {
        let argv = std::iter::once("serve").chain(args.iter().copied());
        answer_queue(Limits::parse_from(argv).limits)
    }

    #[test]
    fn each_connection_queues_its_share_of_the_budget() {
        // 256 MiB over 1,024 connections.
        assert_eq!(queue(&[]), 256 << 10);
        // At least 64 KiB, at most 1 MiB.
        assert_eq!(queue(&["--memory-budget-mib", "16"]), 64 << 10);
        assert_eq!(queue(&["--max-connections", "10"]), 1 << 20);
        assert_eq!(queue(&["--max-connections", "512"]), 512 << 10);
    }
}
