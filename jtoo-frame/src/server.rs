//! [`Server`]: a server for JTOO protocols (and line protocols) that
//! hostile clients cannot exhaust: the one place where connections are
//! accepted and policed.
//!
//! The server accepts connections (TCP, Unix sockets, or any
//! [`Listener`]), runs the greeting handshake ([`Handshake::server`]) and
//! hands each established [`Connection`] to your handler
//! ([`serve`](Server::serve)). A protocol that reads and writes its own
//! frames gets the connection's bytes as a [`Policed`] stream under the
//! same limits instead: after the handshake
//! ([`serve_framed`](Server::serve_framed): the `jte` crate's peer over
//! JTOO frames) or without one ([`serve_lines`](Server::serve_lines):
//! JSON lines, where a frame is a line). Around that it enforces:
//!
//! | limit | default | when it is hit |
//! |---|---|---|
//! | [`max_connections`](Server::max_connections) | [`DEFAULT_MAX_CONNECTIONS`] (1,024) | a new connection gets [`BUSY_REPLY`] and is closed |
//! | [`memory_budget`](Server::memory_budget) | [`DEFAULT_MEMORY_BUDGET`] (256 MiB) | reading waits for room; still none at the read deadline: [`ConnectionError::Budget`] |
//! | [`greeting_timeout`](Server::greeting_timeout) | [`DEFAULT_HANDSHAKE_TIMEOUT`] (10 s) | the connection is dropped without a reply |
//! | [`idle_timeout`](Server::idle_timeout) | [`DEFAULT_IDLE_TIMEOUT`] (60 s) | no byte of a next frame in time: [`ConnectionError::IdleTimeout`] |
//! | [`frame_timeout`](Server::frame_timeout) | [`DEFAULT_FRAME_TIMEOUT`] (30 s) | a started frame not complete in time: [`ConnectionError::FrameTimeout`] |
//! | [`write_timeout`](Server::write_timeout) | [`DEFAULT_WRITE_TIMEOUT`] (30 s) | a frame not written in time (a peer that does not read): [`ConnectionError::WriteTimeout`] |
//! | [`codec`](Server::codec) | each section up to `ffffff` | a longer declared frame is refused at its header |
//!
//! **The memory budget** counts the bytes the server has read from peers
//! and not yet released, across all connections: a connection is charged
//! 16 KiB during its handshake (the greeting limit), then the bytes of its
//! incomplete frame plus the room of its next read (8 KiB to 1 MiB, growing
//! with the bytes that arrived, never with a declared length), and a frame
//! it received until the handler asks for the next one. The read buffer
//! is allocated to exactly the charged room, and replaced by a small one
//! after a long frame. Not counted: the allocator's overhead and
//! fragmentation, up to 8 KiB per connection that the codec reserves when
//! a frame's header arrives, and what the handler allocates itself.
//! Frames longer than the budget are refused at their header. (The soak
//! test's record, `RELIABILITY.md` in the repository, measures the whole.)
//! A [`Policed`] stream is charged the bytes of its unfinished incoming
//! frame (or line) and the room given to its reads, until the frame is
//! whole (the reader's buffer holds that room meanwhile); a reader that
//! follows [`ReadBuffer`] (exact growth, given back after a long frame)
//! is then charged about its buffer's capacity.
//!
//! **Fair shares.** When a connection needs room the budget does not have,
//! the connections holding more than their fair share, the budget ÷ the
//! connections open (at least [`SHARE_FLOOR`], 64 KiB), are cut
//! ([`ConnectionError::OverShare`]), the one whose frame started first
//! (the slowest sender) first, until enough room is coming back. So a few
//! slow senders of long frames cannot lock new clients out until their
//! frame timeout: the clients are served and the senders cut. A
//! connection within its share is never cut for room; it may grow past
//! it only while at least as much as it would then hold stays free (else
//! it waits for room, cutting nobody), so slow senders of long frames
//! leave room for the others and are cut only when that runs out.
//!
//! **Accept errors** (such as running out of file descriptors) never stop
//! the server: it backs off, from 5 ms doubling to 1 s, while the error
//! persists, and reports at most one [`Event::AcceptError`] per second,
//! with the number of errors it left unreported. Errors of a connection
//! that went away before it was accepted are skipped without a pause.
//!
//! ```
//! use jtoo_frame::server::{Connection, ConnectionError, Server};
//! use jtoo_frame::{Frame, Greeting, client_handshake};
//! use jtoo_frame::futures::{SinkExt, StreamExt};
//! use std::time::Duration;
//! use tokio::net::{TcpListener, TcpStream};
//!
//! async fn echo(mut conn: Connection) -> Result<(), ConnectionError> {
//!     while let Some(frame) = conn.recv().await? {
//!         conn.send(frame).await?;
//!     }
//!     Ok(())
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let listener = TcpListener::bind("127.0.0.1:0").await?;
//! let addr = listener.local_addr()?;
//! let server = Server::new(["echo/1"])
//!     .max_connections(100)
//!     .memory_budget(64 << 20)
//!     .idle_timeout(Duration::from_secs(30))
//!     .on_event(|event| eprintln!("{event}"));
//! let running = tokio::spawn(async move { server.serve(listener, echo).await });
//!
//! let socket = TcpStream::connect(addr).await?;
//! let mut framed = client_handshake(socket, &Greeting::new("echo/1")).await?;
//! framed.send(Frame::from_binary(&b"ping"[..])).await?;
//! let reply = framed.next().await.ok_or("closed")??;
//! assert_eq!(&reply.binary()[..], b"ping");
//! running.abort();
//! # Ok(())
//! # }
//! ```

use crate::builder::Builder;
use crate::codec::FrameCodec;
use crate::error::{FrameError, HandshakeError};
use crate::frame::{Append, Frame, write_frame};
use crate::greeting::{GREETING_MAX_LEN, Greeting};
use crate::handshake::{DEFAULT_HANDSHAKE_TIMEOUT, Handshake, reply_and_close};
use budget::{Budget, Charge};
use bytes::{Bytes, BytesMut};
use std::fmt;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tokio::time::{Instant, sleep, timeout, timeout_at};
use tokio_util::codec::{Decoder, Framed};

/// The default cap on simultaneous connections: 1,024.
pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;
/// The default budget of bytes buffered across all connections: 256 MiB.
pub const DEFAULT_MEMORY_BUDGET: usize = 256 * 1024 * 1024;
/// The default time a connection may wait between frames: 60 seconds.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// The default time a started frame has to arrive whole: 30 seconds.
pub const DEFAULT_FRAME_TIMEOUT: Duration = Duration::from_secs(30);
/// The default time writing one frame may take: 30 seconds.
pub const DEFAULT_WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// What a server at its connection cap writes before closing a new
/// connection: `000024 000000 [["code":503,"error":"server busy"]] \n`
/// (the shape of the spec's 505 reply, with HTTP's code for "try later").
pub const BUSY_REPLY: &[u8] = b"000024 000000 [[\"code\":503,\"error\":\"server busy\"]] \n";

/// How many busy replies may be in flight at once; beyond that, refused
/// connections are closed without one.
const MAX_REFUSALS: usize = 64;
/// How long writing a busy reply may take.
const REFUSAL_TIMEOUT: Duration = Duration::from_secs(1);
/// The smallest and largest read of a connection (the largest is also the
/// step in which a long frame's buffer grows).
const MIN_READ: usize = 8 * 1024;
const MAX_READ: usize = 1024 * 1024;
/// The most read-buffer capacity a connection keeps between frames.
const KEPT_CAPACITY: usize = 8 * MIN_READ;
/// Frames up to this length are written from one copy; longer ones straight
/// from their sections.
const COPY_WRITE_MAX: usize = 64 * 1024;
/// The accept back-off: first pause, longest pause, and the least time
/// between two reported accept errors.
const BACKOFF_FIRST: Duration = Duration::from_millis(5);
const BACKOFF_MAX: Duration = Duration::from_secs(1);
const REPORT_EVERY: Duration = Duration::from_secs(1);

type EventHook = Arc<dyn Fn(&Event<'_>) + Send + Sync>;

mod budget;
mod buffer;
mod policed;

pub use budget::SHARE_FLOOR;
pub use buffer::{ReadBuffer, shrink_emptied};
pub use policed::{Framing, Policed};

/// A TCP server for a JTOO protocol, with caps, a memory budget and
/// timeouts (see the [module documentation](self) for each limit and its
/// default).
///
/// Configure it with the chained setters, then [`serve`](Server::serve) a
/// listener with a handler that gets each established [`Connection`].
#[derive(Clone)]
pub struct Server {
    protocols: Arc<[String]>,
    codec: Builder,
    max_connections: usize,
    memory_budget: usize,
    greeting_timeout: Duration,
    idle_timeout: Duration,
    frame_timeout: Duration,
    write_timeout: Duration,
    events: Option<EventHook>,
}

impl fmt::Debug for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("protocols", &self.protocols)
            .field("codec", &self.codec)
            .field("max_connections", &self.max_connections)
            .field("memory_budget", &self.memory_budget)
            .field("greeting_timeout", &self.greeting_timeout)
            .field("idle_timeout", &self.idle_timeout)
            .field("frame_timeout", &self.frame_timeout)
            .field("write_timeout", &self.write_timeout)
            .field("on_event", &self.events.is_some())
            .finish()
    }
}

impl Server {
    /// A server accepting greetings for `protocols` (others get the 505
    /// reply), with every limit at its default.
    pub fn new<I>(protocols: I) -> Server
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        Server {
            protocols: protocols.into_iter().map(Into::into).collect(),
            codec: Builder::new(),
            max_connections: DEFAULT_MAX_CONNECTIONS,
            memory_budget: DEFAULT_MEMORY_BUDGET,
            greeting_timeout: DEFAULT_HANDSHAKE_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            frame_timeout: DEFAULT_FRAME_TIMEOUT,
            write_timeout: DEFAULT_WRITE_TIMEOUT,
            events: None,
        }
    }

    /// The most connections open at once, counting those in their handshake
    /// (at least 1; default [`DEFAULT_MAX_CONNECTIONS`]). A connection over
    /// the cap gets [`BUSY_REPLY`] and is closed.
    #[must_use]
    pub fn max_connections(mut self, n: usize) -> Server {
        self.max_connections = n.clamp(1, Semaphore::MAX_PERMITS);
        self
    }

    /// The most bytes buffered from peers across all connections (default
    /// [`DEFAULT_MEMORY_BUDGET`]; at least 64 KiB). Frames longer than the
    /// budget are refused at their header.
    #[must_use]
    pub fn memory_budget(mut self, bytes: usize) -> Server {
        self.memory_budget = bytes.clamp(4 * GREETING_MAX_LEN, Semaphore::MAX_PERMITS);
        self
    }

    /// How long a new connection has to send its greeting (default
    /// [`DEFAULT_HANDSHAKE_TIMEOUT`]).
    #[must_use]
    pub fn greeting_timeout(mut self, t: Duration) -> Server {
        self.greeting_timeout = t;
        self
    }

    /// How long a connection may wait for the first byte of its next frame
    /// (default [`DEFAULT_IDLE_TIMEOUT`]).
    #[must_use]
    pub fn idle_timeout(mut self, t: Duration) -> Server {
        self.idle_timeout = t;
        self
    }

    /// How long a frame has to arrive whole once its first byte has
    /// (default [`DEFAULT_FRAME_TIMEOUT`]).
    #[must_use]
    pub fn frame_timeout(mut self, t: Duration) -> Server {
        self.frame_timeout = t;
        self
    }

    /// How long writing one frame may take (default
    /// [`DEFAULT_WRITE_TIMEOUT`]).
    #[must_use]
    pub fn write_timeout(mut self, t: Duration) -> Server {
        self.write_timeout = t;
        self
    }

    /// The frame limits of established connections (default: each section
    /// up to `ffffff` bytes). The whole-frame limit is lowered to the
    /// memory budget.
    #[must_use]
    pub fn codec(mut self, codec: Builder) -> Server {
        self.codec = codec;
        self
    }

    /// Calls `hook` for every [`Event`]: connections refused, rejected,
    /// accepted and closed, and (rate-limited) accept errors. The hook runs
    /// on the server's tasks: keep it quick. Without one, nothing is
    /// reported.
    #[must_use]
    pub fn on_event(mut self, hook: impl Fn(&Event<'_>) + Send + Sync + 'static) -> Server {
        self.events = Some(Arc::new(hook));
        self
    }

    /// Serves `listener` until the returned future is dropped (which closes
    /// every connection): accepts connections, runs the handshake and
    /// calls `handler` with each established [`Connection`] on its own
    /// task.
    pub async fn serve<F, Fut>(&self, listener: TcpListener, handler: F)
    where
        F: Fn(Connection) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<(), ConnectionError>> + Send + 'static,
    {
        self.serve_with_shutdown(listener, handler, std::future::pending())
            .await;
    }

    /// As [`serve`](Server::serve), until `shutdown` completes: then stops
    /// accepting, closes every connection and returns.
    pub async fn serve_with_shutdown<F, Fut>(
        &self,
        listener: TcpListener,
        handler: F,
        shutdown: impl Future<Output = ()>,
    ) where
        F: Fn(Connection) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<(), ConnectionError>> + Send + 'static,
    {
        self.serve_listener(listener, handler, shutdown).await;
    }

    /// The settings of one connection's handshake.
    fn handshake(&self) -> Handshake {
        let mut codec = self.codec;
        let max = codec.new_codec().max_frame_len().min(self.memory_budget);
        codec.max_frame_len(max);
        Handshake::new().timeout(self.greeting_timeout).codec(codec)
    }

    fn report(&self, event: &Event<'_>) {
        if let Some(hook) = &self.events {
            hook(event);
        }
    }

    /// As [`serve_with_shutdown`](Server::serve_with_shutdown), over any
    /// [`Listener`]: a TLS acceptor, a Unix socket, an in-memory source
    /// in tests.
    pub async fn serve_listener<L, F, Fut>(
        &self,
        listener: L,
        handler: F,
        shutdown: impl Future<Output = ()>,
    ) where
        L: Listener,
        F: Fn(Connection<L::Io>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<(), ConnectionError>> + Send + 'static,
    {
        let handler = Arc::new(handler);
        let start = move |server: Arc<Server>, io, peer, slot, budget| {
            run_connection(server, io, peer, slot, budget, handler.clone())
        };
        self.accept_loop(listener, Some(BUSY_REPLY), start, shutdown)
            .await;
    }

    /// Serves a line protocol (JSON lines, say) on `listener` until
    /// `shutdown` completes, under the same limits: `handler` gets each
    /// connection as a [`Policed`] stream in [`Framing::Lines`], where a
    /// frame is a line (the frame timeout is a line started and not
    /// finished in time; the budget is charged the bytes of an unfinished
    /// line). There is no handshake (the greeting timeout does not apply).
    /// Over the connection cap a new connection is closed without a reply
    /// (a line protocol has no generic "busy" line).
    ///
    /// ```
    /// use jtoo_frame::server::{Policed, Server};
    /// use std::time::Duration;
    /// use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    /// use tokio::net::{TcpListener, TcpStream};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let listener = TcpListener::bind("127.0.0.1:0").await?;
    /// let addr = listener.local_addr()?;
    /// let server = Server::new(Vec::<String>::new()).frame_timeout(Duration::from_secs(5));
    /// // Upper-cases each line.
    /// let handler = |io: Policed<TcpStream>| async move {
    ///     let (read, mut write) = tokio::io::split(io);
    ///     let mut lines = BufReader::new(read).lines();
    ///     while let Some(line) = lines.next_line().await.map_err(jtoo_frame::FrameError::Io)? {
    ///         let reply = format!("{}\n", line.to_uppercase());
    ///         write.write_all(reply.as_bytes()).await.map_err(jtoo_frame::FrameError::Io)?;
    ///     }
    ///     Ok(())
    /// };
    /// let running = tokio::spawn(async move {
    ///     server.serve_lines(listener, handler, std::future::pending()).await
    /// });
    /// let mut client = BufReader::new(TcpStream::connect(addr).await?);
    /// client.get_mut().write_all(b"hello\n").await?;
    /// let mut reply = String::new();
    /// client.read_line(&mut reply).await?;
    /// assert_eq!(reply, "HELLO\n");
    /// running.abort();
    /// # Ok(())
    /// # }
    /// ```
    pub async fn serve_lines<L, F, Fut>(
        &self,
        listener: L,
        handler: F,
        shutdown: impl Future<Output = ()>,
    ) where
        L: Listener,
        F: Fn(Policed<L::Io>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<(), ConnectionError>> + Send + 'static,
    {
        let handler = Arc::new(handler);
        let start = move |server: Arc<Server>, io, peer, slot, budget: Arc<Budget>| {
            let handler = handler.clone();
            async move {
                let _slot: OwnedSemaphorePermit = slot;
                let shared = Arc::new(policed::Shared::default());
                let io = server.police(io, peer, Framing::Lines, budget.charge(), &shared);
                server.report(&Event::Opened { peer });
                let result = handler(io).await;
                server.report_closed(peer, &shared, result);
            }
        };
        self.accept_loop(listener, None, start, shutdown).await;
    }

    /// Serves a protocol of JTOO frames that reads and writes the frames
    /// itself (the `jte` crate's peer, say) on `listener` until `shutdown`
    /// completes: the server runs the greeting handshake (over
    /// [`max_connections`](Server::max_connections): [`BUSY_REPLY`]), then
    /// gives `handler` the framed connection, its bytes a [`Policed`]
    /// stream in [`Framing::Frames`] (idle, frame and write timeouts and
    /// the budget as for [`serve`](Server::serve)), and the peer's
    /// greeting. Bytes that arrived after the greeting are in the
    /// `Framed`'s buffer; [`Framed::map_codec`](tokio_util::codec::Framed::map_codec)
    /// keeps them.
    pub async fn serve_framed<L, F, Fut>(
        &self,
        listener: L,
        handler: F,
        shutdown: impl Future<Output = ()>,
    ) where
        L: Listener,
        F: Fn(Framed<Policed<L::Io>, FrameCodec>, Greeting) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<(), ConnectionError>> + Send + 'static,
    {
        let handler = Arc::new(handler);
        let start = move |server: Arc<Server>, io, peer, slot, budget: Arc<Budget>| {
            let handler = handler.clone();
            async move {
                let _slot: OwnedSemaphorePermit = slot;
                let shared = Arc::new(policed::Shared::default());
                let io = server.police(io, peer, Framing::Frames, budget.charge(), &shared);
                let (framed, greeting) =
                    match server.handshake().server(io, &server.protocols).await {
                        Ok(done) => done,
                        Err(error) => {
                            server.report(&Event::Rejected {
                                peer,
                                error: &error,
                            });
                            return;
                        }
                    };
                server.report(&Event::Accepted {
                    peer,
                    greeting: &greeting,
                });
                // The greeting is not one of the protocol's frames.
                let _ = shared
                    .received
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
                let result = handler(framed, greeting).await;
                server.report_closed(peer, &shared, result);
            }
        };
        self.accept_loop(listener, Some(BUSY_REPLY), start, shutdown)
            .await;
    }

    /// `io` under this server's timeouts, charged to `charge`.
    fn police<T>(
        &self,
        io: T,
        peer: SocketAddr,
        framing: Framing,
        charge: Charge,
        shared: &Arc<policed::Shared>,
    ) -> Policed<T> {
        let timeouts = policed::Timeouts {
            idle: self.idle_timeout,
            frame: self.frame_timeout,
            write: self.write_timeout,
        };
        Policed::new(io, peer, framing, charge, timeouts, shared.clone())
    }

    /// Reports a policed connection's end: the limit that cut it, if one
    /// did, else the handler's error.
    fn report_closed(
        &self,
        peer: SocketAddr,
        shared: &policed::Shared,
        result: Result<(), ConnectionError>,
    ) {
        let error = shared.take_cause().map(Err).unwrap_or(result);
        self.report(&Event::Closed {
            peer,
            frames_received: shared.received.load(Ordering::Relaxed),
            frames_sent: shared.sent.load(Ordering::Relaxed),
            error: error.as_ref().err(),
        });
    }

    /// The one accept loop: the connection cap (over it, `busy` or a
    /// plain close), accept errors with back-off, and `start` for each
    /// connection on its own task.
    async fn accept_loop<L, S, Fut>(
        &self,
        mut listener: L,
        busy: Option<&'static [u8]>,
        start: S,
        shutdown: impl Future<Output = ()>,
    ) where
        L: Listener,
        S: Fn(Arc<Server>, L::Io, SocketAddr, OwnedSemaphorePermit, Arc<Budget>) -> Fut,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let server = Arc::new(self.clone());
        let slots = Arc::new(Semaphore::new(self.max_connections));
        let budget = Budget::new(self.memory_budget);
        let refusals = Arc::new(Semaphore::new(MAX_REFUSALS));
        let mut tasks = JoinSet::new();
        let mut errors = AcceptErrors::default();
        tokio::pin!(shutdown);
        loop {
            let accepted = tokio::select! {
                () = &mut shutdown => break,
                Some(_) = tasks.join_next(), if !tasks.is_empty() => continue,
                accepted = listener.accept() => accepted,
            };
            let (io, peer) = match accepted {
                Ok(x) => x,
                Err(e) if is_peer_gone(&e) => continue,
                Err(e) => {
                    let pause = errors.failed(&e, &server);
                    tokio::select! {
                        () = &mut shutdown => break,
                        () = sleep(pause) => continue,
                    }
                }
            };
            errors.succeeded();
            match slots.clone().try_acquire_owned() {
                Ok(slot) => {
                    tasks.spawn(start(server.clone(), io, peer, slot, budget.clone()));
                }
                Err(_) => {
                    server.report(&Event::Refused { peer });
                    match busy {
                        Some(reply) => {
                            if let Ok(permit) = refusals.clone().try_acquire_owned() {
                                tasks.spawn(refuse(io, reply, permit));
                            }
                        }
                        None => drop(io),
                    }
                }
            }
        }
    }
}

/// Where a [`Server`] accepts connections from
/// ([`Server::serve_listener`]); implemented for [`TcpListener`].
pub trait Listener: Send {
    /// A connection's byte stream.
    type Io: AsyncRead + AsyncWrite + Unpin + Send + 'static;
    /// The next connection and its peer's address. Errors are retried
    /// with a back-off (see the [module documentation](self)). Must be
    /// cancel safe, as [`TcpListener::accept`] is: the server may drop
    /// the future before it completes.
    fn accept(&mut self) -> impl Future<Output = io::Result<(Self::Io, SocketAddr)>> + Send;
}

impl Listener for TcpListener {
    type Io = TcpStream;
    async fn accept(&mut self) -> io::Result<(TcpStream, SocketAddr)> {
        TcpListener::accept(self).await
    }
}

/// Unix-socket peers have no IP address: they are reported as
/// `0.0.0.0:0`.
#[cfg(unix)]
impl Listener for tokio::net::UnixListener {
    type Io = tokio::net::UnixStream;
    async fn accept(&mut self) -> io::Result<(tokio::net::UnixStream, SocketAddr)> {
        let (io, _) = tokio::net::UnixListener::accept(self).await?;
        Ok((io, SocketAddr::from(([0, 0, 0, 0], 0))))
    }
}

/// Errors of a connection that went away before it was accepted: skipped
/// without a pause (as hyper does).
fn is_peer_gone(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// The back-off and rate-limited reporting of accept errors.
#[derive(Default)]
struct AcceptErrors {
    /// The current pause; zero after a successful accept.
    pause: Duration,
    /// When the last error was reported.
    reported: Option<Instant>,
    /// Errors since then that were not reported.
    suppressed: u64,
}

impl AcceptErrors {
    /// Records a failed accept, reports it if the last report is old
    /// enough, and returns how long to pause.
    fn failed(&mut self, error: &io::Error, server: &Server) -> Duration {
        let now = Instant::now();
        if self
            .reported
            .is_none_or(|at| now.duration_since(at) >= REPORT_EVERY)
        {
            server.report(&Event::AcceptError {
                error,
                suppressed: self.suppressed,
            });
            self.reported = Some(now);
            self.suppressed = 0;
        } else {
            self.suppressed += 1;
        }
        self.pause = (self.pause * 2).clamp(BACKOFF_FIRST, BACKOFF_MAX);
        self.pause
    }

    fn succeeded(&mut self) {
        self.pause = Duration::ZERO;
    }
}

/// Answers a connection over the cap with [`BUSY_REPLY`].
async fn refuse<T: AsyncRead + AsyncWrite + Unpin>(
    mut io: T,
    reply: &'static [u8],
    _permit: OwnedSemaphorePermit,
) {
    // Best effort: the connection is closed whatever happens.
    let _ = timeout(REFUSAL_TIMEOUT, reply_and_close(&mut io, reply)).await;
}

/// One connection's task: handshake, handler, report.
async fn run_connection<T, F, Fut>(
    server: Arc<Server>,
    io: T,
    peer: SocketAddr,
    _slot: OwnedSemaphorePermit,
    budget: Arc<Budget>,
    handler: Arc<F>,
) where
    T: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    F: Fn(Connection<T>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<(), ConnectionError>> + Send + 'static,
{
    let conn = match Connection::establish(&server, io, peer, budget).await {
        Ok(conn) => conn,
        Err(error) => {
            server.report(&Event::Rejected {
                peer,
                error: &error,
            });
            return;
        }
    };
    server.report(&Event::Accepted {
        peer,
        greeting: &conn.greeting,
    });
    let counts = conn.counts.clone();
    let result = handler(conn).await;
    server.report(&Event::Closed {
        peer,
        frames_received: counts.received.load(Ordering::Relaxed),
        frames_sent: counts.sent.load(Ordering::Relaxed),
        error: result.as_ref().err(),
    });
}

/// What the server reports to its [`on_event`](Server::on_event) hook.
/// Its `Display` is a one-line log message.
#[derive(Debug)]
#[non_exhaustive]
pub enum Event<'a> {
    /// A connection over the cap: answered [`BUSY_REPLY`] and closed.
    Refused {
        /// The peer's address.
        peer: SocketAddr,
    },
    /// The handshake failed (bad greeting, timeout, unsupported protocol
    /// answered with 505, …); the connection is closed.
    Rejected {
        /// The peer's address.
        peer: SocketAddr,
        /// Why.
        error: &'a HandshakeError,
    },
    /// A connection without a handshake
    /// ([`serve_lines`](Server::serve_lines)) was accepted; the handler
    /// runs next.
    Opened {
        /// The peer's address.
        peer: SocketAddr,
    },
    /// The handshake succeeded; the handler runs next.
    Accepted {
        /// The peer's address.
        peer: SocketAddr,
        /// The peer's greeting.
        greeting: &'a Greeting,
    },
    /// The handler returned; the connection is closed.
    Closed {
        /// The peer's address.
        peer: SocketAddr,
        /// Frames the handler received.
        frames_received: u64,
        /// Frames the handler sent.
        frames_sent: u64,
        /// The handler's error, if it returned one.
        error: Option<&'a ConnectionError>,
    },
    /// Accepting a connection failed (for example: out of file
    /// descriptors). Reported at most once a second.
    AcceptError {
        /// The error.
        error: &'a io::Error,
        /// Accept errors since the previous report that were not reported.
        suppressed: u64,
    },
}

impl fmt::Display for Event<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Refused { peer } => {
                write!(f, "{peer}: refused: at the connection cap (replied 503)")
            }
            Event::Rejected {
                peer,
                error: HandshakeError::UnsupportedProtocol(p),
            } => write!(
                f,
                "{peer}: unsupported protocol {p:?}: replied 505 and closed"
            ),
            Event::Rejected { peer, error } => {
                write!(f, "{peer}: terminated without reply: {error}")
            }
            Event::Opened { peer } => write!(f, "{peer}: accepted"),
            Event::Accepted { peer, greeting } => write!(
                f,
                "{peer}: accepted protocol {:?} (greeting {})",
                greeting.protocol(),
                greeting.to_value()
            ),
            Event::Closed {
                peer,
                frames_received,
                frames_sent,
                error,
            } => {
                write!(
                    f,
                    "{peer}: closed after {frames_received} frames in, {frames_sent} out"
                )?;
                match error {
                    Some(e) => write!(f, ": {e}"),
                    None => Ok(()),
                }
            }
            Event::AcceptError { error, suppressed } => {
                write!(f, "accept failed: {error}")?;
                if *suppressed > 0 {
                    write!(f, " ({suppressed} more since the last report)")?;
                }
                Ok(())
            }
        }
    }
}

/// Why a [`Connection`] ended.
#[derive(Debug)]
#[non_exhaustive]
pub enum ConnectionError {
    /// The peer's bytes broke the framing (malformed, too long, invalid
    /// JTOO, truncated), or reading failed.
    Frame(FrameError),
    /// No byte of a next frame within the idle timeout.
    IdleTimeout(Duration),
    /// A started frame did not arrive whole within the frame timeout.
    FrameTimeout(Duration),
    /// Writing a frame did not finish within the write timeout (the peer
    /// does not read).
    WriteTimeout(Duration),
    /// The server's memory budget had no room for this connection's next
    /// read before its read deadline.
    Budget,
    /// Cut to make room for other connections: the budget was short and
    /// this connection held more than its fair share of it (see
    /// [`SHARE_FLOOR`]).
    OverShare {
        /// The bytes it held.
        held: usize,
        /// Its fair share when it was cut: the budget ÷ the connections
        /// open, at least [`SHARE_FLOOR`].
        share: usize,
    },
    /// Writing failed.
    Io(io::Error),
    /// The handler's own reason.
    Other(Box<dyn std::error::Error + Send + Sync>),
}

impl fmt::Display for ConnectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConnectionError::Frame(e) => write!(f, "{e}"),
            ConnectionError::IdleTimeout(t) => {
                write!(f, "idle timeout: no next frame within {t:?}")
            }
            ConnectionError::FrameTimeout(t) => {
                write!(f, "frame timeout: a started frame did not arrive within {t:?}")
            }
            ConnectionError::WriteTimeout(t) => write!(
                f,
                "write timeout: the peer did not take a frame within {t:?}"
            ),
            ConnectionError::Budget => f.write_str(
                "the server's memory budget had no room for this connection before its read deadline",
            ),
            ConnectionError::OverShare { held, share } => write!(
                f,
                "cut to make room for other connections: held {held} bytes of the memory budget, over its fair share of {share}"
            ),
            ConnectionError::Io(e) => write!(f, "write failed: {e}"),
            ConnectionError::Other(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ConnectionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ConnectionError::Frame(e) => Some(e),
            ConnectionError::Io(e) => Some(e),
            ConnectionError::Other(e) => Some(&**e),
            _ => None,
        }
    }
}

impl From<FrameError> for ConnectionError {
    fn from(e: FrameError) -> ConnectionError {
        ConnectionError::Frame(e)
    }
}

/// Frames received and sent on a connection.
#[derive(Default)]
struct Counts {
    received: AtomicU64,
    sent: AtomicU64,
}

/// An established connection, as the handler gets it: receive frames with
/// [`recv`](Connection::recv) and send them with
/// [`send`](Connection::send), one at a time, under the server's timeouts
/// and memory budget. Dropping it closes the connection.
pub struct Connection<T = TcpStream> {
    io: T,
    codec: FrameCodec,
    read_buf: BytesMut,
    /// Whether the read buffer grew for a long frame.
    buffer: ReadBuffer,
    write_buf: BytesMut,
    eof: bool,
    greeting: Greeting,
    peer: SocketAddr,
    charge: Charge,
    frame_started: Option<Instant>,
    idle_timeout: Duration,
    frame_timeout: Duration,
    write_timeout: Duration,
    counts: Arc<Counts>,
}

impl<T> fmt::Debug for Connection<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Connection")
            .field("peer", &self.peer)
            .field("greeting", &self.greeting)
            .field("buffered", &self.read_buf.len())
            .field("charged", &self.charge.held())
            .finish_non_exhaustive()
    }
}

impl<T: AsyncRead + AsyncWrite + Unpin> Connection<T> {
    /// Charges the greeting's room, runs the handshake and sets up the
    /// connection.
    async fn establish(
        server: &Server,
        io: T,
        peer: SocketAddr,
        budget: Arc<Budget>,
    ) -> Result<Connection<T>, HandshakeError> {
        let mut charge = budget.charge();
        let deadline = after(Instant::now(), server.greeting_timeout);
        match timeout_at(deadline, charge.grow_to(GREETING_MAX_LEN)).await {
            Ok(Ok(())) => {}
            _ => return Err(HandshakeError::Timeout),
        }
        let handshake = server.handshake().timeout(
            deadline
                .checked_duration_since(Instant::now())
                .unwrap_or_default(),
        );
        let (framed, greeting) = handshake.server(io, &server.protocols).await?;
        let parts = framed.into_parts();
        Ok(Connection {
            io: parts.io,
            codec: parts.codec,
            read_buf: parts.read_buf,
            buffer: ReadBuffer::new(usize::MAX),
            write_buf: parts.write_buf,
            eof: false,
            greeting,
            peer,
            charge,
            frame_started: None,
            idle_timeout: server.idle_timeout,
            frame_timeout: server.frame_timeout,
            write_timeout: server.write_timeout,
            counts: Arc::default(),
        })
    }

    /// The peer's greeting.
    pub fn greeting(&self) -> &Greeting {
        &self.greeting
    }

    /// The peer's address.
    pub fn peer_addr(&self) -> SocketAddr {
        self.peer
    }

    /// The next frame; `None` once the peer has closed the connection
    /// between frames. The previous frame's bytes go back to the memory
    /// budget here.
    ///
    /// # Errors
    /// The peer broke the framing, a timeout expired, the budget stayed
    /// full, or reading failed. The connection is unusable afterwards.
    pub async fn recv(&mut self) -> Result<Option<Frame>, ConnectionError> {
        // A buffer grown for a long frame is not kept for the next ones:
        // a thousand connections that each once received 256 KiB would
        // otherwise hold 256 MiB the budget no longer counts.
        // (After frames were split off, the buffer's own capacity looks
        // small while it still holds the whole allocation: so remember.)
        self.buffer.frame_taken(&mut self.read_buf);
        self.charge.shrink_to(self.read_buf.len());
        loop {
            if let Some(frame) = decode_next(&mut self.codec, &mut self.read_buf, self.eof)? {
                self.frame_started = None;
                self.charge.frame_started(None);
                self.counts.received.fetch_add(1, Ordering::Relaxed);
                return Ok(Some(frame));
            }
            if self.eof {
                return Ok(None);
            }
            let (deadline, expired) = if self.read_buf.is_empty() {
                self.frame_started = None;
                (
                    after(Instant::now(), self.idle_timeout),
                    ConnectionError::IdleTimeout(self.idle_timeout),
                )
            } else {
                let started = match self.frame_started {
                    Some(at) => at,
                    None => {
                        let now = Instant::now();
                        self.frame_started = Some(now);
                        self.charge.frame_started(Some(now));
                        now
                    }
                };
                (
                    after(started, self.frame_timeout),
                    ConnectionError::FrameTimeout(self.frame_timeout),
                )
            };
            // Room for the next read, charged before it is allocated: in
            // steps that grow with the bytes that arrived while the budget
            // has room, in the smallest step (waiting for it) when not.
            let len = self.read_buf.len();
            let mut step = len.clamp(MIN_READ, MAX_READ);
            if !self.charge.try_grow_to(len + step) {
                step = MIN_READ;
                match timeout_at(deadline, self.charge.grow_to(len + step)).await {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) => return Err(e),
                    Err(_) => return Err(ConnectionError::Budget),
                }
            }
            // Exactly the charged room (`reserve` would round up to
            // double the buffer).
            if self.read_buf.capacity() - len < step {
                let mut bigger = BytesMut::with_capacity(len + step);
                bigger.extend_from_slice(&self.read_buf);
                self.read_buf = bigger;
            }
            self.buffer.note(&self.read_buf);
            let mut limited = (&mut self.io).take(step as u64);
            let read = limited.read_buf(&mut self.read_buf);
            // Another connection needing room cuts this one if it holds
            // more than its share.
            let cut = self.charge.cut();
            let read = tokio::select! {
                read = timeout_at(deadline, read) => read,
                e = cut => return Err(e),
            };
            match read {
                Ok(Ok(0)) => self.eof = true,
                Ok(Ok(_)) => {}
                Ok(Err(e)) => return Err(ConnectionError::Frame(FrameError::Io(e))),
                Err(_) => return Err(expired),
            }
        }
    }

    /// Sends `frame` and flushes it.
    ///
    /// # Errors
    /// A section over the codec's limits (nothing is written), the write
    /// timeout expired, or writing failed.
    pub async fn send(&mut self, frame: Frame) -> Result<(), ConnectionError> {
        let len = self
            .codec
            .check_lengths(frame.jtoo_len(), frame.binary().len())?;
        let io = &mut self.io;
        let buf = &mut self.write_buf;
        let write = async move {
            if len <= COPY_WRITE_MAX {
                buf.clear();
                write_frame(&frame, buf);
                io.write_all(buf).await?;
                // Idle connections keep no large copy around.
                if buf.capacity() > KEPT_CAPACITY {
                    *buf = BytesMut::new();
                }
            } else {
                let mut pieces = Pieces::of(&frame);
                write_frame(&frame, &mut pieces);
                for piece in &pieces.out {
                    io.write_all(piece).await?;
                }
            }
            io.flush().await
        };
        match timeout(self.write_timeout, write).await {
            Ok(Ok(())) => {
                self.counts.sent.fetch_add(1, Ordering::Relaxed);
                Ok(())
            }
            Ok(Err(e)) => Err(ConnectionError::Io(e)),
            Err(_) => Err(ConnectionError::WriteTimeout(self.write_timeout)),
        }
    }
}

/// `start + d`, or about thirty years on when that overflows (a timeout
/// of `Duration::MAX` means none).
fn after(start: Instant, d: Duration) -> Instant {
    start
        .checked_add(d)
        .unwrap_or_else(|| start + Duration::from_secs(30 * 365 * 86_400))
}

/// The next frame in `buf`: [`Decoder::decode`], or `decode_eof` once the
/// stream has ended.
fn decode_next(
    codec: &mut FrameCodec,
    buf: &mut BytesMut,
    eof: bool,
) -> Result<Option<Frame>, FrameError> {
    if eof {
        codec.decode_eof(buf)
    } else {
        codec.decode(buf)
    }
}

/// A frame as the pieces [`write_frame`] appends, without copying its
/// sections: an appended slice that is one of them is kept as a view.
struct Pieces {
    sections: [Bytes; 2],
    out: Vec<Bytes>,
}

impl Pieces {
    fn of(frame: &Frame) -> Pieces {
        Pieces {
            sections: [
                frame.jtoo().cloned().unwrap_or_default(),
                frame.binary().clone(),
            ],
            out: Vec::with_capacity(4),
        }
    }
}

impl Append for Pieces {
    fn append(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let view = self
            .sections
            .iter()
            .find(|s| s.as_ptr() == bytes.as_ptr() && s.len() == bytes.len());
        self.out.push(match view {
            Some(s) => s.clone(),
            None => Bytes::copy_from_slice(bytes),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handshake::client_handshake;
    use futures::{SinkExt, StreamExt};
    use std::sync::Mutex;
    use tokio::io::DuplexStream;
    use tokio::sync::mpsc;
    use tokio_util::codec::Framed;

    /// Writes `byte` once a second, 100 times or until the write fails:
    /// never idle, never done.
    fn trickle<W>(mut io: W, byte: &'static [u8]) -> tokio::task::JoinHandle<()>
    where
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        tokio::spawn(async move {
            for _ in 0..100 {
                if io.write_all(byte).await.is_err() {
                    break;
                }
                sleep(Duration::from_secs(1)).await;
            }
        })
    }

    /// Connections handed over by the test; `Err` items are accept errors.
    struct Fake(mpsc::UnboundedReceiver<io::Result<DuplexStream>>);

    impl Listener for Fake {
        type Io = DuplexStream;
        async fn accept(&mut self) -> io::Result<(DuplexStream, SocketAddr)> {
            match self.0.recv().await {
                Some(next) => next.map(|io| (io, SocketAddr::from(([127, 0, 0, 1], 1)))),
                None => std::future::pending().await,
            }
        }
    }

    type Outcomes = mpsc::UnboundedReceiver<Result<(), ConnectionError>>;

    struct Running {
        accept: mpsc::UnboundedSender<io::Result<DuplexStream>>,
        outcomes: Outcomes,
        events: Arc<Mutex<Vec<String>>>,
        task: tokio::task::JoinHandle<()>,
    }

    impl Running {
        /// A raw connection to the server.
        fn open(&self, buffer: usize) -> DuplexStream {
            let (client, server) = tokio::io::duplex(buffer);
            self.accept.send(Ok(server)).unwrap();
            client
        }

        /// A connection that has sent its greeting.
        async fn greeted(&self) -> Framed<DuplexStream, FrameCodec> {
            client_handshake(self.open(1 << 20), &Greeting::new("echo/1"))
                .await
                .unwrap()
        }

        async fn outcome(&mut self) -> Result<(), ConnectionError> {
            self.outcomes.recv().await.unwrap()
        }
    }

    impl Drop for Running {
        fn drop(&mut self) {
            self.task.abort();
        }
    }

    /// Serves an echo handler that reports how each connection ended.
    fn start(server: Server) -> Running {
        let (accept, rx) = mpsc::unbounded_channel();
        let (done, outcomes) = mpsc::unbounded_channel();
        let events = Arc::new(Mutex::new(Vec::new()));
        let log = events.clone();
        let server = server.on_event(move |e| log.lock().unwrap().push(e.to_string()));
        let task = tokio::spawn(async move {
            let handler = move |mut conn: Connection<DuplexStream>| {
                let done = done.clone();
                async move {
                    let result = async {
                        while let Some(frame) = conn.recv().await? {
                            conn.send(frame).await?;
                        }
                        Ok(())
                    }
                    .await;
                    let _ = done.send(result);
                    Ok(())
                }
            };
            server
                .serve_listener(Fake(rx), handler, std::future::pending())
                .await;
        });
        Running {
            accept,
            outcomes,
            events,
            task,
        }
    }

    fn echo_server() -> Server {
        Server::new(["echo/1"])
    }

    #[tokio::test(start_paused = true)]
    async fn any_limit_is_accepted_without_panicking() {
        for n in [0, 1, usize::MAX] {
            let server = echo_server()
                .max_connections(n)
                .memory_budget(n)
                .idle_timeout(Duration::MAX)
                .frame_timeout(Duration::ZERO);
            let mut s = start(server);
            let mut c = s.greeted().await;
            // A zero frame timeout cuts any frame that does not arrive in
            // one piece; a whole one still echoes.
            c.send(Frame::empty()).await.unwrap();
            assert_eq!(c.next().await.unwrap().unwrap(), Frame::empty());
            drop(c);
            assert!(s.outcome().await.is_ok());
        }
    }

    #[tokio::test(start_paused = true)]
    async fn frames_echo_and_a_clean_close_is_ok() {
        let mut s = start(echo_server());
        let mut c = s.greeted().await;
        let big = Frame::from_binary(vec![7u8; 300_000]);
        for f in [Frame::empty(), Frame::from_binary(&b"x"[..]), big] {
            c.send(f.clone()).await.unwrap();
            assert_eq!(c.next().await.unwrap().unwrap(), f);
        }
        drop(c);
        assert!(s.outcome().await.is_ok());
        let events = s.events.lock().unwrap().clone();
        assert!(
            events[0].contains("accepted protocol \"echo/1\""),
            "{events:?}"
        );
        assert!(
            events[1].ends_with("closed after 3 frames in, 3 out"),
            "{events:?}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_quiet_connection_is_closed_at_the_idle_timeout() {
        let mut s = start(echo_server().idle_timeout(Duration::from_secs(7)));
        let mut c = s.greeted().await;
        let t0 = Instant::now();
        c.send(Frame::empty()).await.unwrap();
        assert!(c.next().await.is_some());
        match s.outcome().await {
            Err(ConnectionError::IdleTimeout(t)) => assert_eq!(t, Duration::from_secs(7)),
            other => panic!("{other:?}"),
        }
        assert!(t0.elapsed() >= Duration::from_secs(7));
        // The server closed its side.
        assert!(c.next().await.is_none());
    }

    #[tokio::test(start_paused = true)]
    async fn a_started_frame_must_finish_in_time_even_if_bytes_trickle() {
        let server = echo_server()
            .idle_timeout(Duration::from_secs(100))
            .frame_timeout(Duration::from_secs(5));
        let mut s = start(server);
        let mut io = s.greeted().await.into_inner();
        let t0 = Instant::now();
        io.write_all(b"000000 0000ff  ").await.unwrap();
        let drip = trickle(io, b"z");
        match s.outcome().await {
            Err(ConnectionError::FrameTimeout(t)) => assert_eq!(t, Duration::from_secs(5)),
            other => panic!("{other:?}"),
        }
        let waited = t0.elapsed();
        assert!(waited >= Duration::from_secs(5) && waited < Duration::from_secs(100));
        drip.abort();
    }

    #[tokio::test(start_paused = true)]
    async fn a_peer_that_never_reads_is_cut_at_the_write_timeout() {
        let mut s = start(echo_server().write_timeout(Duration::from_secs(3)));
        let mut c = s.greeted().await;
        // The echo fills the 1 MiB pipe back to a client that never reads.
        for _ in 0..20 {
            if c.send(Frame::from_binary(vec![1u8; 100_000]))
                .await
                .is_err()
            {
                break;
            }
        }
        match s.outcome().await {
            Err(ConnectionError::WriteTimeout(t)) => assert_eq!(t, Duration::from_secs(3)),
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn over_the_connection_cap_a_client_gets_the_busy_reply() {
        let s = start(echo_server().max_connections(2));
        let _a = s.greeted().await;
        let _b = s.greeted().await;
        let mut third = s.open(4096);
        let mut reply = Vec::new();
        third.read_to_end(&mut reply).await.unwrap();
        assert_eq!(reply, BUSY_REPLY);
        let busy = Frame::from_jtoo(&br#"[["code":503,"error":"server busy"]]"#[..]).unwrap();
        assert_eq!(busy.to_bytes().unwrap(), BUSY_REPLY);
        assert!(
            s.events
                .lock()
                .unwrap()
                .iter()
                .any(|e| e.contains("refused: at the connection cap"))
        );
        // Room again once one closes.
        drop(_a);
        sleep(Duration::from_millis(10)).await;
        let mut d = s.greeted().await;
        d.send(Frame::empty()).await.unwrap();
        assert_eq!(d.next().await.unwrap().unwrap(), Frame::empty());
    }

    #[tokio::test(start_paused = true)]
    async fn a_frame_longer_than_the_budget_is_refused_at_its_header() {
        let mut s = start(echo_server().memory_budget(1 << 20));
        let mut io = s.greeted().await.into_inner();
        io.write_all(b"ffffff ffffff ").await.unwrap();
        match s.outcome().await {
            Err(ConnectionError::Frame(FrameError::TooLong { max, .. })) => {
                assert_eq!(max, 1 << 20);
            }
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn partial_frames_cannot_take_more_than_the_budget() {
        let budget = 1 << 20;
        let server = echo_server()
            .memory_budget(budget)
            .frame_timeout(Duration::from_secs(5));
        let mut s = start(server);
        // A hog: a 1,000,000-byte frame of which 700 KB arrive.
        let mut hog = s.greeted().await.into_inner();
        hog.write_all(b"000000 0f4240  ").await.unwrap();
        hog.write_all(&vec![0u8; 700_000]).await.unwrap();
        sleep(Duration::from_secs(1)).await;
        // A second hog cannot get room for 700 KB more: it waits, and the
        // first, over its fair share (half the budget), is cut for it (or
        // both reach their deadlines); the budget is never overdrawn.
        let mut hog2 = s.greeted().await.into_inner();
        hog2.write_all(b"000000 0f4240  ").await.unwrap();
        hog2.write_all(&vec![0u8; 700_000]).await.unwrap();
        let first = s.outcome().await;
        assert!(
            matches!(
                first,
                Err(ConnectionError::FrameTimeout(_) | ConnectionError::OverShare { .. })
            ),
            "{first:?}"
        );
        let second = s.outcome().await;
        assert!(
            matches!(
                second,
                Err(ConnectionError::Budget | ConnectionError::FrameTimeout(_))
            ),
            "{second:?}"
        );
        drop((hog, hog2));
        // All of it went back: an honest frame of 900 KB echoes.
        let mut c = s.greeted().await;
        let f = Frame::from_binary(vec![3u8; 900_000]);
        c.send(f.clone()).await.unwrap();
        assert_eq!(c.next().await.unwrap().unwrap(), f);
    }

    /// Found by the soak test: after one long frame, a connection kept
    /// its grown read buffer (and each of a thousand clients held 256 KiB
    /// or more outside the budget).
    #[tokio::test(start_paused = true)]
    async fn a_buffer_grown_for_a_long_frame_is_not_kept() {
        let budget = Budget::new(1 << 30);
        let (client, server_io) = tokio::io::duplex(1 << 20);
        let peer = SocketAddr::from(([127, 0, 0, 1], 1));
        let server = echo_server();
        let accept = Connection::establish(&server, server_io, peer, budget);
        let greeting = Greeting::new("echo/1");
        let hello = client_handshake(client, &greeting);
        let (conn, framed) = tokio::join!(accept, hello);
        let (mut conn, mut framed) = (conn.unwrap(), framed.unwrap());
        let long = Frame::from_binary(vec![1u8; 600_000]);
        framed.send(long.clone()).await.unwrap();
        let got = conn.recv().await.unwrap().unwrap();
        assert_eq!(got, long);
        framed.send(Frame::empty()).await.unwrap();
        assert_eq!(conn.recv().await.unwrap(), Some(Frame::empty()));
        assert!(conn.read_buf.capacity() <= KEPT_CAPACITY);
        // The long frame's allocation is no longer shared with the read
        // buffer: dropping the frame frees it.
        let (_, binary) = got.into_parts();
        assert!(
            binary.is_unique(),
            "the read buffer still holds the long frame's allocation"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn the_budget_is_returned_by_every_connection() {
        let mut s = start(echo_server().memory_budget(256 * 1024));
        for _ in 0..50 {
            let mut c = s.greeted().await;
            c.send(Frame::from_binary(vec![9u8; 50_000])).await.unwrap();
            assert_eq!(c.next().await.unwrap().unwrap().binary().len(), 50_000);
            drop(c);
            // 50 x (16 KiB + 50 KB) is far over 256 KiB: each connection
            // gave its charge back when it closed.
            assert!(s.outcome().await.is_ok());
        }
    }

    /// Accept errors that never stop (out of descriptors): the loop backs
    /// off instead of spinning, and reports about once a second.
    #[tokio::test(start_paused = true)]
    async fn accept_errors_back_off_and_are_reported_at_most_once_a_second() {
        struct Failing(Arc<AtomicU64>);
        impl Listener for Failing {
            type Io = DuplexStream;
            async fn accept(&mut self) -> io::Result<(DuplexStream, SocketAddr)> {
                // Past 10,000 calls (a spinning loop), stop answering.
                if self.0.fetch_add(1, Ordering::Relaxed) > 10_000 {
                    std::future::pending::<()>().await;
                }
                Err(io::Error::from_raw_os_error(24))
            }
        }
        let calls = Arc::new(AtomicU64::new(0));
        let events = Arc::new(Mutex::new(Vec::new()));
        let log = events.clone();
        let server = echo_server().on_event(move |e| {
            if let Event::AcceptError { suppressed, .. } = e {
                log.lock().unwrap().push(*suppressed);
            }
        });
        let listener = Failing(calls.clone());
        let stop = sleep(Duration::from_secs(10));
        let handler = |_: Connection<DuplexStream>| async { Ok(()) };
        server.serve_listener(listener, handler, stop).await;
        let calls = calls.load(Ordering::Relaxed);
        // 5 ms doubling to 1 s: 9 pauses reach 2.5 s, then one a second.
        assert!((10..=20).contains(&calls), "{calls} accept calls in 10 s");
        let reports = events.lock().unwrap().clone();
        assert!((5..=11).contains(&reports.len()), "{reports:?}");
        let reported: u64 = reports.iter().map(|s| s + 1).sum();
        assert!(reported <= calls, "{reports:?} of {calls}");
    }

    #[tokio::test(start_paused = true)]
    async fn handshake_failures_are_reported_and_hold_nothing() {
        let s = start(echo_server().greeting_timeout(Duration::from_secs(2)));
        // Unsupported protocol: the 505 reply.
        let mut c = client_handshake(s.open(4096), &Greeting::new("other/1"))
            .await
            .unwrap();
        // The client's first read reports the 505 reply.
        assert!(matches!(
            c.next().await,
            Some(Err(FrameError::UnsupportedProtocol))
        ));
        // A slow greeter: dropped at the greeting timeout.
        let mut slow = s.open(4096);
        slow.write_all(b"0000").await.unwrap();
        let mut rest = Vec::new();
        slow.read_to_end(&mut rest).await.unwrap();
        assert!(rest.is_empty());
        let events = s.events.lock().unwrap().clone();
        assert!(
            events[0].contains("unsupported protocol \"other/1\""),
            "{events:?}"
        );
        assert!(events[1].contains("terminated without reply"), "{events:?}");
    }

    /// Issue 33, finding 3: slow senders that declared long frames took the
    /// whole budget, and every new client's handshake waited for room until
    /// the greeting timeout. Now the budget cuts connections over their
    /// fair share (the oldest frame first) to make room.
    #[tokio::test(start_paused = true)]
    async fn slow_senders_over_their_share_are_cut_so_new_clients_get_in() {
        let server = echo_server()
            .memory_budget(4 << 20)
            .greeting_timeout(Duration::from_secs(10))
            .frame_timeout(Duration::from_secs(1000))
            .idle_timeout(Duration::from_secs(1000));
        let mut s = start(server);
        // Five senders declare a 1,000,000-byte frame, send 800 KB of it
        // and stall: about 4 MB of the 4 MiB budget.
        let mut hogs = Vec::new();
        for _ in 0..5 {
            let mut hog = s.greeted().await.into_inner();
            hog.write_all(b"000000 0f4240  ").await.unwrap();
            hog.write_all(&vec![1u8; 800_000]).await.unwrap();
            hogs.push(hog);
            sleep(Duration::from_millis(100)).await;
        }
        // Ten new clients are served (before: each handshake waited for
        // room and was dropped at the greeting timeout).
        for _ in 0..10 {
            let mut c = s.greeted().await;
            c.send(Frame::from_binary(vec![2u8; 30_000])).await.unwrap();
            let back = timeout(Duration::from_secs(5), c.next()).await;
            assert_eq!(back.unwrap().unwrap().unwrap().binary().len(), 30_000);
        }
        // Some hog was cut for it, by its share.
        let cut = s.outcome().await;
        match cut {
            Err(ConnectionError::OverShare { held, share }) => {
                assert!(held > share, "{held} {share}");
            }
            other => panic!("{other:?}"),
        }
        drop(hogs);
    }

    /// A connection within its share is never cut for room: a new
    /// connection waits instead (and gets in when room comes back).
    #[tokio::test(start_paused = true)]
    async fn connections_within_their_share_are_not_cut() {
        let server = echo_server()
            .memory_budget(256 * 1024)
            .greeting_timeout(Duration::from_secs(10));
        let mut s = start(server);
        // Four connections hold 16 KiB each; a fifth, a sixth... all fit.
        let mut held = Vec::new();
        for _ in 0..8 {
            let mut c = s.greeted().await;
            c.send(Frame::empty()).await.unwrap();
            assert!(c.next().await.is_some());
            held.push(c);
        }
        assert!(s.outcomes.try_recv().is_err());
    }

    /// Lines: each connection's bytes echoed (`tokio::io::copy`), each
    /// end reported through the events.
    fn start_lines(server: Server) -> Running {
        start_lines_with(server, |io: Policed<DuplexStream>| async move {
            let (mut r, mut w) = tokio::io::split(io);
            tokio::io::copy(&mut r, &mut w)
                .await
                .map_err(FrameError::Io)?;
            Ok(())
        })
    }

    /// Lines served by `handler`.
    fn start_lines_with<F, Fut>(server: Server, handler: F) -> Running
    where
        F: Fn(Policed<DuplexStream>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<(), ConnectionError>> + Send + 'static,
    {
        let (accept, rx) = mpsc::unbounded_channel();
        let (_done, outcomes) = mpsc::unbounded_channel();
        let events = Arc::new(Mutex::new(Vec::new()));
        let log = events.clone();
        let server = server.on_event(move |e| log.lock().unwrap().push(e.to_string()));
        let task = tokio::spawn(async move {
            server
                .serve_lines(Fake(rx), handler, std::future::pending())
                .await;
        });
        Running {
            accept,
            outcomes,
            events,
            task,
        }
    }

    impl Running {
        /// Waits (in paused time) for an event containing `needle`.
        async fn event(&self, needle: &str) -> String {
            for _ in 0..100_000 {
                if let Some(e) = self
                    .events
                    .lock()
                    .unwrap()
                    .iter()
                    .find(|e| e.contains(needle))
                {
                    return e.clone();
                }
                sleep(Duration::from_millis(10)).await;
            }
            panic!("no event {needle:?} in {:?}", self.events.lock().unwrap());
        }
    }

    #[tokio::test(start_paused = true)]
    async fn lines_are_echoed_and_counted() {
        let s = start_lines(Server::new(Vec::<String>::new()));
        let mut c = s.open(1 << 16);
        c.write_all(b"{\"a\":1}\n\n{\"b\"").await.unwrap();
        c.write_all(b":2}\n").await.unwrap();
        let mut back = vec![0u8; 17];
        c.read_exact(&mut back).await.unwrap();
        assert_eq!(back, b"{\"a\":1}\n\n{\"b\":2}\n");
        drop(c);
        let closed = s.event("closed").await;
        assert!(
            closed.ends_with("closed after 3 frames in, 3 out"),
            "{closed}"
        );
        assert!(s.events.lock().unwrap()[0].ends_with(": accepted"));
    }

    /// Issue 33, finding 2 (library side): a line trickled a byte a second
    /// is never idle; the frame timeout cuts it.
    #[tokio::test(start_paused = true)]
    async fn a_trickled_line_is_cut_at_the_frame_timeout() {
        let server = Server::new(Vec::<String>::new())
            .idle_timeout(Duration::from_secs(100))
            .frame_timeout(Duration::from_secs(5));
        let s = start_lines(server);
        let mut io = s.open(4096);
        let t0 = Instant::now();
        io.write_all(b"{").await.unwrap();
        let drip = trickle(io, b" ");
        let closed = s.event("closed").await;
        assert!(
            closed.ends_with("frame timeout: a started frame did not arrive within 5s"),
            "{closed}"
        );
        assert!(t0.elapsed() < Duration::from_secs(100));
        drip.abort();
    }

    #[tokio::test(start_paused = true)]
    async fn a_quiet_line_connection_is_cut_at_the_idle_timeout() {
        let server = Server::new(Vec::<String>::new()).idle_timeout(Duration::from_secs(7));
        let s = start_lines(server);
        let mut io = s.open(4096);
        io.write_all(b"1\n").await.unwrap();
        let mut back = [0u8; 2];
        io.read_exact(&mut back).await.unwrap();
        let t0 = Instant::now();
        let mut rest = Vec::new();
        io.read_to_end(&mut rest).await.unwrap();
        assert!(t0.elapsed() >= Duration::from_secs(7));
        let closed = s.event("closed").await;
        assert!(
            closed.ends_with("idle timeout: no next frame within 7s"),
            "{closed}"
        );
    }

    /// At the cap a line connection is closed at once (no reply), and the
    /// slots of the idle ones come back at their idle timeout.
    #[tokio::test(start_paused = true)]
    async fn over_the_cap_a_line_connection_is_closed_at_once() {
        let server = Server::new(Vec::<String>::new())
            .max_connections(2)
            .idle_timeout(Duration::from_secs(30));
        let s = start_lines(server);
        let _a = s.open(4096);
        let _b = s.open(4096);
        sleep(Duration::from_millis(10)).await;
        let t0 = Instant::now();
        let mut third = s.open(4096);
        let mut reply = Vec::new();
        third.read_to_end(&mut reply).await.unwrap();
        assert!(reply.is_empty());
        assert!(t0.elapsed() < Duration::from_secs(1));
        s.event("refused").await;
        // The idle two are cut; a new one is served.
        s.event("idle timeout").await;
        sleep(Duration::from_millis(10)).await;
        let mut d = s.open(4096);
        d.write_all(b"x\n").await.unwrap();
        let mut back = [0u8; 2];
        d.read_exact(&mut back).await.unwrap();
        assert_eq!(&back, b"x\n");
    }

    #[tokio::test(start_paused = true)]
    async fn a_line_client_that_never_reads_is_cut_at_the_write_timeout() {
        let server = Server::new(Vec::<String>::new()).write_timeout(Duration::from_secs(3));
        let s = start_lines(server);
        let mut c = s.open(64 * 1024);
        let line = vec![b'a'; 100_000];
        // The echo fills the 64 KiB pipe back to a client that never reads.
        for _ in 0..20 {
            if c.write_all(&line).await.is_err() || c.write_all(b"\n").await.is_err() {
                break;
            }
        }
        let closed = s.event("closed").await;
        assert!(closed.contains("write timeout"), "{closed}");
    }

    /// A protocol that reads while it writes (as the JTE peer does) reads
    /// nothing more from a peer that does not read its answers: what it
    /// read stays near what it wrote, until the write timeout cuts it.
    #[tokio::test(start_paused = true)]
    async fn nothing_more_is_read_from_a_peer_that_does_not_read() {
        use tokio::io::{AsyncBufReadExt, BufReader};
        let server = Server::new(Vec::<String>::new()).write_timeout(Duration::from_secs(3));
        // Reads lines on one task, writes them back on another, with an
        // unbounded queue between them.
        let s = start_lines_with(server, |io: Policed<DuplexStream>| async move {
            let (r, mut w) = tokio::io::split(io);
            let (tx, mut rx) = mpsc::unbounded_channel::<String>();
            let reader = tokio::spawn(async move {
                let mut lines = BufReader::new(r).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
            while let Some(line) = rx.recv().await {
                let line = format!("{line}\n");
                w.write_all(line.as_bytes()).await.map_err(FrameError::Io)?;
            }
            reader.abort();
            Ok(())
        });
        let mut c = s.open(64 * 1024);
        let line = [vec![b'a'; 999], vec![b'\n']].concat();
        let writer = tokio::spawn(async move {
            for _ in 0..20_000 {
                if c.write_all(&line).await.is_err() {
                    break;
                }
            }
            c
        });
        let closed = s.event("closed").await;
        assert!(closed.contains("write timeout"), "{closed}");
        // "closed after N frames in, M out": reading stopped once the
        // answers backed up, far from the 20,000 lines the client had.
        let counts: Vec<u64> = closed
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|n| n.parse().ok())
            .collect();
        let [.., frames_in, frames_out, _] = counts[..] else {
            panic!("{closed}")
        };
        assert!(frames_in < 5_000, "{closed} ({frames_out} out)");
        writer.abort();
    }

    /// Finding 3 on a policed protocol: slow senders of long lines are cut
    /// once others need room; a new connection is served.
    #[tokio::test(start_paused = true)]
    async fn slow_line_senders_over_their_share_are_cut_so_others_get_in() {
        let server = Server::new(Vec::<String>::new())
            .memory_budget(1 << 20)
            .frame_timeout(Duration::from_secs(1000))
            .idle_timeout(Duration::from_secs(1000));
        let s = start_lines(server);
        let mut hogs = Vec::new();
        for _ in 0..4 {
            let mut hog = s.open(1 << 20);
            hog.write_all(&vec![b'x'; 300_000]).await.unwrap();
            hogs.push(hog);
            sleep(Duration::from_millis(100)).await;
        }
        for _ in 0..5 {
            let mut c = s.open(1 << 16);
            c.write_all(b"hello\n").await.unwrap();
            let mut back = [0u8; 6];
            timeout(Duration::from_secs(5), c.read_exact(&mut back))
                .await
                .unwrap()
                .unwrap();
            assert_eq!(&back, b"hello\n");
        }
        let cut = s.event("fair share").await;
        assert!(
            cut.contains("cut to make room for other connections"),
            "{cut}"
        );
        drop(hogs);
    }

    /// The room a policed stream gave its reader stays charged until the
    /// line is whole: the reader's buffer holds it meanwhile (before, the
    /// charge fell back to the bytes after each read, and a reader whose
    /// buffer had doubled held up to twice what the budget counted).
    #[tokio::test(start_paused = true)]
    async fn a_policed_stream_is_charged_the_room_it_gave_until_the_line_ends() {
        let (tx, mut charged) = mpsc::unbounded_channel();
        let s = start_lines_with(Server::new(Vec::<String>::new()), move |mut io| {
            let tx = tx.clone();
            async move {
                let mut buf = BytesMut::with_capacity(1 << 20);
                for want in [20_000, 20_001] {
                    while buf.len() < want {
                        if io.read_buf(&mut buf).await.map_err(FrameError::Io)? == 0 {
                            return Ok(());
                        }
                    }
                    let debug = format!("{io:?}");
                    let n = debug
                        .split("charged: ")
                        .nth(1)
                        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
                        .and_then(|n| n.parse::<usize>().ok());
                    let _ = tx.send(n);
                }
                Ok(())
            }
        });
        let mut c = s.open(1 << 20);
        c.write_all(&[b'x'; 20_000]).await.unwrap();
        // Reads of 8, 8 and 16 KiB (growing with the bytes that arrived):
        // 32 KiB charged for 20,000 bytes of an unfinished line.
        let held = charged.recv().await.unwrap().unwrap();
        assert!(held > 20_000 && held <= 2 * 20_000 + 8 * 1024, "{held}");
        // The line ends: only the bytes of the next one stay charged.
        c.write_all(b"\n").await.unwrap();
        assert_eq!(charged.recv().await.unwrap(), Some(0));
    }

    /// A connection over its share grows only while as much as it would
    /// hold stays free: a slow sender of a long line leaves room for the
    /// others, who get in without anybody being cut.
    #[tokio::test(start_paused = true)]
    async fn a_connection_over_its_share_leaves_room_for_others() {
        let server = Server::new(Vec::<String>::new())
            .memory_budget(1 << 20)
            .frame_timeout(Duration::from_secs(1000));
        let s = start_lines(server);
        let mut hog = s.open(2 << 20);
        hog.write_all(&vec![b'x'; 1_000_000]).await.unwrap();
        sleep(Duration::from_secs(1)).await;
        for _ in 0..5 {
            let mut c = s.open(1 << 16);
            c.write_all(b"hello\n").await.unwrap();
            let mut back = [0u8; 6];
            timeout(Duration::from_secs(5), c.read_exact(&mut back))
                .await
                .unwrap()
                .unwrap();
        }
        let events = s.events.lock().unwrap().clone();
        assert!(
            !events.iter().any(|e| e.contains("fair share")),
            "{events:?}"
        );
        drop(hog);
    }

    /// `serve_framed`: the server's handshake, then a protocol's own
    /// `Framed` over the policed stream; its limits apply.
    #[tokio::test(start_paused = true)]
    async fn framed_connections_echo_and_trickled_frames_are_cut() {
        let (accept, rx) = mpsc::unbounded_channel();
        let events = Arc::new(Mutex::new(Vec::new()));
        let log = events.clone();
        let server = echo_server()
            .frame_timeout(Duration::from_secs(5))
            .on_event(move |e| log.lock().unwrap().push(e.to_string()));
        let task = tokio::spawn(async move {
            let handler = |mut framed: Framed<Policed<DuplexStream>, FrameCodec>, g: Greeting| async move {
                assert_eq!(g.protocol(), "echo/1");
                while let Some(frame) = framed.next().await {
                    framed.send(frame?).await?;
                }
                Ok(())
            };
            server
                .serve_framed(Fake(rx), handler, std::future::pending())
                .await;
        });
        let s = Running {
            accept,
            outcomes: mpsc::unbounded_channel().1,
            events,
            task,
        };
        let mut c = s.greeted().await;
        c.send(Frame::from_binary(&b"ping"[..])).await.unwrap();
        assert_eq!(&c.next().await.unwrap().unwrap().binary()[..], b"ping");
        drop(c);
        let closed = s.event("closed").await;
        assert!(
            closed.ends_with("closed after 1 frames in, 1 out"),
            "{closed}"
        );
        let mut io = s.greeted().await.into_inner();
        io.write_all(b"000000 0000ff  ").await.unwrap();
        let drip = trickle(io, b"z");
        let cut = s.event("frame timeout").await;
        assert!(
            cut.contains("closed after 0 frames in, 0 out: frame timeout"),
            "{cut}"
        );
        drip.abort();
    }
}
