//! A language server for JTOO and HTOO: `jtoo lsp`.
//!
//! It speaks the Language Server Protocol over stdio (or any
//! [`lsp_server::Connection`]) and gives an editor:
//!
//! - **diagnostics** on open and on every change: the parser's message over
//!   the bytes it is about, with its `help:` hint (`.jtoo` files are checked
//!   as strict JTOO, as `jtoo check` checks them; everything else as HTOO);
//! - **incremental text sync** (ranged changes, UTF-16 positions);
//! - **formatting** of the whole document: HTOO as `jtoo pretty` writes it,
//!   keeping every comment ([`htoo::format`]); strict JTOO as `jtoo fmt`
//!   writes it (canonical);
//! - **document symbols**: the outline of keys;
//! - **folding ranges** for lists over several lines;
//! - **hover** on scalars: a timestamp's UTC date-time, a date's weekday, a
//!   byte string's length.
//!
//! One request of its own, `jtoo/documentText` (params: `{ "uri": … }`),
//! answers the text the server holds for an open document (`null` for
//! another): a way to check a client's incremental sync.
//!
//! It is built on `lsp-server` and `lsp-types`, rust-analyzer's synchronous
//! scaffold: one thread handles the messages in order, with no async
//! runtime. When changes arrive faster than they are checked, the queue is
//! drained first and the document parsed once for all of them. Every
//! request is answered (an unknown one with `MethodNotFound`), and a
//! document over 64 MiB is not parsed (a diagnostic says so), so the server
//! neither blocks nor dies on what an editor sends.
//!
//! ```
//! use jtoo_lsp::lsp_server::{Connection, Message, Notification, Request, RequestId};
//! use serde_json::json;
//!
//! // The server on one end of an in-memory connection, a client on the other.
//! let (server, client) = Connection::memory();
//! let thread = std::thread::spawn(move || jtoo_lsp::run(&server));
//! let request = |id: i32, method: &str, params| {
//!     client.sender.send(Request::new(RequestId::from(id), method.into(), params).into())
//! };
//! let notify = |method: &str, params| client.sender.send(Notification::new(method.into(), params).into());
//!
//! request(1, "initialize", json!({ "capabilities": {} }))?;
//! let Message::Response(init) = client.receiver.recv()? else { panic!() };
//! assert_eq!(init.response_result.unwrap()["capabilities"]["documentFormattingProvider"], true);
//! notify("initialized", json!({}))?;
//!
//! // An HTOO file with an error on line 2 (LSP lines count from 0).
//! notify("textDocument/didOpen", json!({ "textDocument": {
//!     "uri": "file:///app.htoo", "languageId": "htoo", "version": 1,
//!     "text": "[\n  \"debug\": true,\n]\n" } }))?;
//! let Message::Notification(n) = client.receiver.recv()? else { panic!() };
//! assert_eq!(n.method, "textDocument/publishDiagnostics");
//! let d = &n.params["diagnostics"][0];
//! assert_eq!(d["range"], json!({ "start": { "line": 1, "character": 11 },
//!                                "end": { "line": 1, "character": 15 } }));
//! assert_eq!(d["message"], "expected a value\nhelp: booleans are `Y` / `N`");
//!
//! request(2, "shutdown", json!(null))?;
//! let Message::Response(done) = client.receiver.recv()? else { panic!() };
//! assert_eq!(done.id, RequestId::from(2));
//! notify("exit", json!(null))?;
//! assert_eq!(thread.join().unwrap()?, jtoo_lsp::Ended::AfterShutdown);
//! # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
//! ```
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod analysis;
mod server;
mod text;

pub use lsp_server;
pub use lsp_types;

/// How a server that followed the protocol ended.
///
/// The protocol asks a server to exit with status 0 when `shutdown` came
/// before `exit`, and 1 otherwise; the same holds when the client closes
/// the connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// `exit` (or the end of the connection) after `shutdown`.
    AfterShutdown,
    /// `exit` (or the end of the connection) without `shutdown` first.
    WithoutShutdown,
}

impl Ended {
    /// The process's exit status: 0 after `shutdown`, else 1.
    ///
    /// ```
    /// assert_eq!(jtoo_lsp::Ended::AfterShutdown.exit_code(), 0);
    /// assert_eq!(jtoo_lsp::Ended::WithoutShutdown.exit_code(), 1);
    /// ```
    pub fn exit_code(self) -> u8 {
        match self {
            Ended::AfterShutdown => 0,
            Ended::WithoutShutdown => 1,
        }
    }
}

/// What ends the server other than an `exit`: the connection failed or
/// broke the protocol.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// Runs the server on stdin and stdout until the client sends `exit` (or
/// closes stdin). This is `jtoo lsp`, which exits with
/// [`Ended::exit_code`].
///
/// # Errors
/// When the connection breaks the protocol (no `initialize` first) or an
/// I/O error ends it.
pub fn run_stdio() -> Result<Ended, Error> {
    let (connection, threads) = lsp_server::Connection::stdio();
    let result = run(&connection);
    // The writer thread ends when its channel does.
    drop(connection);
    threads.join()?;
    result
}

/// Runs the server on `connection`: answers `initialize`, then handles
/// messages until `exit`, or until the client's end of the connection is
/// dropped.
///
/// # Errors
/// When the client sends something other than `initialize` first (other
/// requests are answered `ServerNotInitialized` meanwhile), or the
/// connection closes before `initialize`.
pub fn run(connection: &lsp_server::Connection) -> Result<Ended, Error> {
    server::Server::new(connection).run()
}
