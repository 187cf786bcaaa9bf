//! [`Peer`]: the symmetric RPC end of a JTE connection, and its
//! [`Builder`].
//!
//! One reader task routes incoming packets (responses to the calls waiting
//! for them, requests to handler tasks) and one writer task sends what the
//! calls and handlers queue. Nothing on the reader's path waits for a slow
//! caller or handler: each call and each streaming request has a bounded
//! buffer, and one that overflows fails alone (`ECOVERFLOW`).

use crate::data::{from_data, to_data};
use crate::detect::{Capabilities, DETECT};
use crate::osc::Encoding;
use crate::transport::{DEFAULT_MAX_PACKET_LEN, Inbound, InboundStream, Limits, OutboundSink};
use crate::{Error, InvalidPacket, JteError, Packet, Policy, RpcError, Transport};
use futures::stream::BoxStream;
use futures::{SinkExt, Stream, StreamExt};
use jtoo_serde::RawBuf;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, watch};
use tokio::task::JoinSet;
use tokio::time::{Instant, Sleep};
use tokio_util::sync::PollSemaphore;

/// The default timeout of a call, and of a request that carries none.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// The default number of this side's calls in flight at once.
pub const DEFAULT_MAX_CALLS: usize = 1024;
/// The default number of the other side's calls handled at once.
pub const DEFAULT_MAX_HANDLERS: usize = 1024;
/// The default number of packets buffered for one call or one streaming
/// request that is not read.
pub const DEFAULT_MAX_BUFFERED: usize = 256;
/// The default longest wait for room in a full stream buffer.
pub const DEFAULT_STALL_TIMEOUT: Duration = Duration::from_secs(5);
/// The default limit of outgoing data queued on one connection: 4 MiB.
pub const DEFAULT_MAX_QUEUED_BYTES: usize = 4 << 20;
/// The default longest time writing to the connection may make no
/// progress: 30 s, as [`jtoo_frame::server::DEFAULT_WRITE_TIMEOUT`].
pub const DEFAULT_WRITE_TIMEOUT: Duration = jtoo_frame::server::DEFAULT_WRITE_TIMEOUT;

/// What a handler yields: data for one response packet, or the error that
/// ends the call.
type Responses = BoxStream<'static, Result<Option<RawBuf>, RpcError>>;

/// A handler with its types erased: the first packet's data and, for a
/// streaming request, the packets that follow.
type RunHandler = dyn Fn(Option<RawBuf>, Option<mpsc::Receiver<Packet>>) -> Responses + Send + Sync;

/// What [`Builder::on_invalid_packet`] calls.
type OnInvalid = Arc<dyn Fn(&InvalidPacket) + Send + Sync>;

/// A handler with its types erased.
#[derive(Clone)]
struct Handler {
    run: Arc<RunHandler>,
    /// Takes further request packets (`cont`).
    streaming_requests: bool,
    /// Answers with a stream (`cont` responses, no default timeout).
    streaming_responses: bool,
}

/// Builds a [`Peer`]: limits, timeout, handlers; then
/// [`start`](Builder::start) on a [`Transport`].
///
/// ```
/// use jte::{Peer, RpcError, Transport};
/// use std::time::Duration;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let (a, b) = tokio::io::duplex(1 << 16);
/// let server = Peer::builder()
///     .handle("math:add", |(x, y): (i64, i64)| async move { Ok::<_, RpcError>(x + y) })
///     .start(Transport::json_lines(a));
/// let client = Peer::builder()
///     .default_timeout(Some(Duration::from_secs(5)))
///     .start(Transport::json_lines(b));
/// let sum: i64 = client.call("math:add", &(2, 3)).await?;
/// assert_eq!(sum, 5);
/// let err = client.call::<_, i64>("math:mul", &(2, 3)).await.unwrap_err();
/// assert_eq!(err.code(), Some("UNKNOWN"));
/// # drop(server);
/// # Ok(())
/// # }
/// ```
pub struct Builder {
    max_packet_len: usize,
    max_calls: usize,
    max_handlers: usize,
    max_buffered: usize,
    stall: Duration,
    max_queued: usize,
    write_timeout: Duration,
    default_timeout: Option<Duration>,
    handlers: HashMap<String, Handler>,
    capabilities: Option<Capabilities>,
    policy: Option<Policy>,
    encoding: Option<Encoding>,
    on_invalid: Option<OnInvalid>,
}

impl std::fmt::Debug for Builder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut commands: Vec<_> = self.handlers.keys().collect();
        commands.sort();
        f.debug_struct("Builder")
            .field("max_packet_len", &self.max_packet_len)
            .field("max_calls", &self.max_calls)
            .field("max_handlers", &self.max_handlers)
            .field("max_buffered", &self.max_buffered)
            .field("stall_timeout", &self.stall)
            .field("max_queued_bytes", &self.max_queued)
            .field("write_timeout", &self.write_timeout)
            .field("default_timeout", &self.default_timeout)
            .field("handlers", &commands)
            .field("policy", &self.policy)
            .finish_non_exhaustive()
    }
}

impl Default for Builder {
    fn default() -> Builder {
        Builder {
            max_packet_len: DEFAULT_MAX_PACKET_LEN,
            max_calls: DEFAULT_MAX_CALLS,
            max_handlers: DEFAULT_MAX_HANDLERS,
            max_buffered: DEFAULT_MAX_BUFFERED,
            stall: DEFAULT_STALL_TIMEOUT,
            max_queued: DEFAULT_MAX_QUEUED_BYTES,
            write_timeout: DEFAULT_WRITE_TIMEOUT,
            default_timeout: Some(DEFAULT_TIMEOUT),
            handlers: HashMap::new(),
            capabilities: None,
            policy: None,
            encoding: None,
            on_invalid: None,
        }
    }
}

impl Builder {
    /// The largest packet read or written, in bytes of its encoding
    /// (default [`DEFAULT_MAX_PACKET_LEN`], 1 MiB). A larger incoming
    /// packet closes the connection; a larger outgoing one fails its call
    /// (`ECTOOLARGE`).
    #[must_use]
    pub fn max_packet_len(mut self, n: usize) -> Builder {
        self.max_packet_len = n;
        self
    }

    /// How many of this side's calls may be in flight at once (default
    /// [`DEFAULT_MAX_CALLS`]); more wait for one to finish.
    #[must_use]
    pub fn max_calls_in_flight(mut self, n: usize) -> Builder {
        self.max_calls = n.max(1);
        self
    }

    /// How many of the other side's calls and notifications may run at
    /// once (default [`DEFAULT_MAX_HANDLERS`]); more are answered
    /// `ECBUSY` (notifications dropped).
    #[must_use]
    pub fn max_handlers_in_flight(mut self, n: usize) -> Builder {
        self.max_handlers = n.max(1);
        self
    }

    /// How many packets are buffered for one response stream or one
    /// streaming request that its reader has not taken yet (default
    /// [`DEFAULT_MAX_BUFFERED`]). When the buffer is full, reading from
    /// the connection waits for room (flow control) up to the
    /// [`stall_timeout`](Builder::stall_timeout); a reader further behind
    /// than that loses its call (`ECOVERFLOW`) and the connection goes on.
    #[must_use]
    pub fn max_buffered(mut self, n: usize) -> Builder {
        self.max_buffered = n.max(1);
        self
    }

    /// The longest the connection waits for room in a full stream buffer
    /// (default [`DEFAULT_STALL_TIMEOUT`], 5 s); see
    /// [`max_buffered`](Builder::max_buffered).
    #[must_use]
    pub fn stall_timeout(mut self, stall: Duration) -> Builder {
        self.stall = stall;
        self
    }

    /// The most outgoing data queued on the connection, in bytes (default
    /// [`DEFAULT_MAX_QUEUED_BYTES`], 4 MiB): packets waiting for the
    /// writer, counted at their approximate size in memory (strings and
    /// bytes plus a fixed cost per value). When it is full, handlers'
    /// sends and this side's calls wait, streams pause, and no new request
    /// of the other side is started. Answers are made by at most four
    /// handlers of a connection at once (a handler is polled only with
    /// leave to make one, held until its answer has room), so beside the
    /// queue at most four answers wait for room, whatever the handlers
    /// would produce: one connection's answers take this limit plus four
    /// answers. Handlers that wait (for a timer, for their own calls)
    /// hold no leave, and any number of them can wait at once. A packet
    /// larger than the limit is sent alone.
    #[must_use]
    pub fn max_queued_bytes(mut self, n: usize) -> Builder {
        self.max_queued = n.max(1);
        self
    }

    /// The longest the writer may make no progress (default
    /// [`DEFAULT_WRITE_TIMEOUT`], 30 s): when the transport takes nothing
    /// for that long (the other side does not read), the connection is
    /// closed and its pending calls fail.
    #[must_use]
    pub fn write_timeout(mut self, timeout: Duration) -> Builder {
        self.write_timeout = timeout;
        self
    }

    /// The timeout of this side's calls (sent as `timeout`), and of the
    /// other side's requests that carry none, for handlers that answer
    /// once. Default [`DEFAULT_TIMEOUT`]; `None` waits forever. Response
    /// streams get no default timeout (a `tail -f` never ends): give one
    /// with [`Peer::with_timeout`].
    #[must_use]
    pub fn default_timeout(mut self, timeout: Option<Duration>) -> Builder {
        self.default_timeout = timeout;
        self
    }

    /// The commands the other side may run; the default depends on the
    /// transport (see [`Policy`]).
    #[must_use]
    pub fn policy(mut self, policy: Policy) -> Builder {
        self.policy = Some(policy);
        self
    }

    /// The reply to `detect`, instead of the table made from the
    /// registered handlers that the policy allows.
    #[must_use]
    pub fn capabilities(mut self, capabilities: Capabilities) -> Builder {
        self.capabilities = Some(capabilities);
        self
    }

    /// The encoding of this side's own calls on transports that carry both
    /// (terminal escapes); default JTOO. Answers always use the encoding
    /// of the request.
    #[must_use]
    pub fn encoding(mut self, encoding: Encoding) -> Builder {
        self.encoding = Some(encoding);
        self
    }

    /// Called with every packet that arrived whole but was refused (the
    /// log line of a dropped packet): it is answered `ECINVALID` when its
    /// `rpcid` could be read, fails the call its `resid` names, and is
    /// dropped otherwise; each is counted in [`Stats::invalid_packets`].
    ///
    /// ```
    /// use jte::{Peer, Transport};
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// let (a, _b) = tokio::io::duplex(1 << 16);
    /// let _peer = Peer::builder()
    ///     .on_invalid_packet(|p| eprintln!("jte: {p}"))
    ///     .start(Transport::json_lines(a));
    /// # }
    /// ```
    #[must_use]
    pub fn on_invalid_packet(
        mut self,
        f: impl Fn(&InvalidPacket) + Send + Sync + 'static,
    ) -> Builder {
        self.on_invalid = Some(Arc::new(f));
        self
    }

    fn register(mut self, command: impl Into<String>, handler: Handler) -> Builder {
        self.handlers.insert(command.into(), handler);
        self
    }

    /// Registers a handler that answers once: `f` gets the request's
    /// `data` as a `Req` (no `data` reads as `()` or `None`), and its
    /// `Ok` becomes the response's `data`, its `Err` the response's
    /// `error`. A request whose data does not fit `Req` is answered
    /// `ECINVALID`. Notifications (no `rpcid`) run the same handler and
    /// its answer is dropped. Registering `detect` replaces the built-in
    /// one.
    #[must_use]
    pub fn handle<Req, Resp, F, Fut>(self, command: impl Into<String>, f: F) -> Builder
    where
        Req: DeserializeOwned + Send + 'static,
        Resp: Serialize + Send + 'static,
        F: Fn(Req) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Resp, RpcError>> + Send + 'static,
    {
        let f = Arc::new(f);
        let run = move |data: Option<RawBuf>, _: Option<mpsc::Receiver<Packet>>| -> Responses {
            match from_data::<Req>(data.as_ref()) {
                Err(e) => futures::stream::once(async move { Err(invalid(&e)) }).boxed(),
                Ok(req) => {
                    let fut = f(req);
                    futures::stream::once(async move { fut.await.and_then(|r| encode(&r)) }).boxed()
                }
            }
        };
        self.register(
            command,
            Handler {
                run: Arc::new(run),
                streaming_requests: false,
                streaming_responses: false,
            },
        )
    }

    /// Registers a handler that answers with a stream: every `Ok` item is a
    /// response packet with `cont: Y`, and the end of the stream sends the
    /// last packet (no `cont`, no `data`); an `Err` item ends the call with
    /// its error. The handler is dropped when the request's `timeout`
    /// passes (it has no default timeout) or the connection closes.
    #[must_use]
    pub fn handle_stream<Req, Resp, F, S>(self, command: impl Into<String>, f: F) -> Builder
    where
        Req: DeserializeOwned + Send + 'static,
        Resp: Serialize + Send + 'static,
        F: Fn(Req) -> S + Send + Sync + 'static,
        S: Stream<Item = Result<Resp, RpcError>> + Send + 'static,
    {
        let run = move |data: Option<RawBuf>, _: Option<mpsc::Receiver<Packet>>| -> Responses {
            match from_data::<Req>(data.as_ref()) {
                Err(e) => futures::stream::once(async move { Err(invalid(&e)) }).boxed(),
                Ok(req) => f(req).map(|item| item.and_then(|r| encode(&r))).boxed(),
            }
        };
        self.register(
            command,
            Handler {
                run: Arc::new(run),
                streaming_requests: false,
                streaming_responses: true,
            },
        )
    }

    /// Registers a handler of a streaming request: `f` gets every request
    /// packet's data, in order, as a [`Requests`] stream (the first
    /// packet's data first; a packet without data only ends it), and
    /// answers once.
    #[must_use]
    pub fn handle_requests<Req, Resp, F, Fut>(self, command: impl Into<String>, f: F) -> Builder
    where
        Req: DeserializeOwned + Send + 'static,
        Resp: Serialize + Send + 'static,
        F: Fn(Requests<Req>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Resp, RpcError>> + Send + 'static,
    {
        let run = move |data: Option<RawBuf>, rest: Option<mpsc::Receiver<Packet>>| -> Responses {
            let fut = f(Requests {
                first: data,
                rest,
                done: false,
                _type: PhantomData,
            });
            futures::stream::once(async move { fut.await.and_then(|r| encode(&r)) }).boxed()
        };
        self.register(
            command,
            Handler {
                run: Arc::new(run),
                streaming_requests: true,
                streaming_responses: false,
            },
        )
    }

    /// Starts the peer on `transport`: spawns its reader and writer tasks
    /// on the current tokio runtime and returns the handle.
    ///
    /// # Panics
    /// Outside a tokio runtime (as `tokio::spawn` does).
    pub fn start(self, transport: Transport) -> Peer {
        let parts = transport.build(Limits {
            max_packet_len: self.max_packet_len,
        });
        let policy = self.policy.unwrap_or(parts.policy);
        let detect = self.capabilities.unwrap_or_else(|| {
            let mut commands: Vec<&str> = self
                .handlers
                .keys()
                .map(String::as_str)
                .filter(|c| policy.allows(c))
                .collect();
            commands.push(DETECT);
            Capabilities::from_commands(commands)
        });
        let (out, out_rx) = mpsc::unbounded_channel();
        // The semaphore's permits are bytes; tokio takes at most
        // `u32::MAX` at once.
        let max_queued = self
            .max_queued
            .min(Semaphore::MAX_PERMITS)
            .min(u32::MAX as usize);
        let (closed, _) = watch::channel(None);
        let inner = Arc::new(Inner {
            out,
            encoding: self.encoding.unwrap_or(parts.encoding),
            calls: Mutex::new(HashMap::new()),
            call_permits: Arc::new(Semaphore::new(self.max_calls)),
            reason: Mutex::new(None),
            max_buffered: self.max_buffered,
            stall: self.stall,
            room: Arc::new(Semaphore::new(max_queued)),
            max_queued,
            makers: Arc::new(Semaphore::new(MAKERS)),
            write_timeout: self.write_timeout,
            default_timeout: self.default_timeout,
            closed,
            written: watch::channel(false).0,
            stats: Counters::default(),
        });
        let dispatch = Dispatch {
            inner: Arc::clone(&inner),
            handlers: self.handlers,
            policy,
            detect: to_data(&detect).ok().flatten(),
            permits: Arc::new(Semaphore::new(self.max_handlers)),
            requests: Arc::new(Mutex::new(HashMap::new())),
            tasks: JoinSet::new(),
            on_invalid: self.on_invalid,
        };
        tokio::spawn(read_loop(dispatch, parts.inbound));
        tokio::spawn(write_loop(Arc::clone(&inner), out_rx, parts.outbound));
        Peer {
            _alive: Arc::new(Alive(Arc::clone(&inner))),
            inner,
            timeout: None,
        }
    }
}

fn panicked() -> RpcError {
    RpcError::new("PANIC", "the handler panicked")
}

fn invalid(e: &str) -> RpcError {
    RpcError::new(RpcError::INVALID, format!("request data: {e}"))
}

fn encode<T: Serialize>(value: &T) -> Result<Option<RawBuf>, RpcError> {
    to_data(value).map_err(|e| RpcError::new("ENCODE", format!("response data: {e}")))
}

/// Counts of what a peer dropped, for monitoring.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Stats {
    /// Responses to no call in flight (the call was dropped, timed out or
    /// had ended, or the `resid` was never ours): discarded.
    pub late_responses: u64,
    /// Request packets with no call to go to (a continuation of a request
    /// that ended, a notification of an unknown command, a packet with
    /// neither `command` nor `resid`): discarded.
    pub stray_packets: u64,
    /// Packets that arrived whole but could not be read (answered
    /// `ECINVALID` when their `rpcid` could be read, dropped otherwise).
    pub invalid_packets: u64,
    /// Calls and notifications the policy refused.
    pub denied: u64,
    /// Calls and notifications refused because too many were running.
    pub busy: u64,
    /// Outgoing data queued now, in bytes as
    /// [`Builder::max_queued_bytes`] counts them (never more than it).
    pub queued_bytes: u64,
}

#[derive(Default)]
struct Counters {
    late_responses: AtomicU64,
    stray_packets: AtomicU64,
    invalid_packets: AtomicU64,
    denied: AtomicU64,
    busy: AtomicU64,
}

fn bump(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

/// A call waiting for responses.
struct Pending {
    tx: mpsc::Sender<Packet>,
    /// Set when the reader gave up on the call because its buffer was full.
    overflow: Arc<AtomicBool>,
}

/// A packet queued for the writer, with the bytes of room it holds.
type Queued = (Packet, Encoding, u32);

struct Inner {
    /// The writer's queue; its size is bounded by `room`.
    out: mpsc::UnboundedSender<Queued>,
    /// Room in the queue, in bytes (see [`Builder::max_queued_bytes`]).
    room: Arc<Semaphore>,
    max_queued: usize,
    /// Leave to make an answer: [`MAKERS`] handlers at once (see
    /// [`Metered`]).
    makers: Arc<Semaphore>,
    write_timeout: Duration,
    encoding: Encoding,
    calls: Mutex<HashMap<String, Pending>>,
    call_permits: Arc<Semaphore>,
    max_buffered: usize,
    stall: Duration,
    default_timeout: Option<Duration>,
    /// Why the connection ended or is ending: set when the other side
    /// stops sending (its calls can no longer be answered) or at close.
    reason: Mutex<Option<Arc<str>>>,
    /// `Some(why)` once the connection is closed.
    closed: watch::Sender<Option<Arc<str>>>,
    /// `true` once the writer has written (or given up on) what was queued
    /// before the close.
    written: watch::Sender<bool>,
    stats: Counters,
}

/// Locks a map, recovering it if a panicking thread poisoned it (the maps
/// hold no invariant a panic could break halfway).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Inner {
    /// Ends every pending call (no response can come any more) and keeps
    /// the first reason given.
    fn end_calls(&self, why: &str) -> Arc<str> {
        let why = Arc::clone(lock(&self.reason).get_or_insert_with(|| Arc::from(why)));
        // Dropping the senders ends every pending call with `Closed`.
        lock(&self.calls).clear();
        why
    }

    fn close(&self, why: &str) {
        let why = self.end_calls(why);
        // Senders waiting for room fail; nothing more is queued.
        self.room.close();
        self.closed.send_if_modified(|c| {
            if c.is_some() {
                return false;
            }
            *c = Some(why);
            true
        });
    }

    fn closed_error(&self) -> Error {
        let why = lock(&self.reason).clone();
        Error::Closed(why.unwrap_or_else(|| Arc::from("the connection is closed")))
    }

    fn is_ending(&self) -> bool {
        lock(&self.reason).is_some()
    }

    /// Queues a packet for the writer, waiting for room.
    async fn send(&self, packet: Packet, encoding: Encoding) -> Result<(), Error> {
        if self.closed.borrow().is_some() {
            return Err(self.closed_error());
        }
        let size = weight(&packet).min(self.max_queued);
        let size = u32::try_from(size).unwrap_or(u32::MAX);
        // Closed with the connection: every waiting sender then fails.
        let permit = Arc::clone(&self.room)
            .acquire_many_owned(size)
            .await
            .map_err(|_| self.closed_error())?;
        // The writer gives the room back once the packet is written.
        permit.forget();
        self.out.send((packet, encoding, size)).map_err(|_| {
            self.room.add_permits(size as usize);
            self.closed_error()
        })
    }

    /// Waits until the queue has room (behind the senders waiting for
    /// it), or the connection closes.
    async fn wait_for_room(&self) {
        let _ = self.room.acquire().await;
    }

    fn queued_bytes(&self) -> usize {
        self.max_queued
            .saturating_sub(self.room.available_permits())
    }
}

/// Closes the connection when the last [`Peer`] handle is dropped.
struct Alive(Arc<Inner>);

impl Drop for Alive {
    fn drop(&mut self) {
        self.0.close("closed by this side");
    }
}

/// The symmetric RPC end of a JTE connection: makes calls and answers the
/// other side's with the handlers it was built with. Cheap to clone; the
/// connection closes when the last clone is dropped, when
/// [`Peer::close`] is called, or when the transport fails.
///
/// See the [crate docs](crate) for an example per transport.
#[derive(Clone)]
pub struct Peer {
    inner: Arc<Inner>,
    _alive: Arc<Alive>,
    /// This handle's timeout, when set with [`Peer::with_timeout`].
    timeout: Option<Option<Duration>>,
}

impl std::fmt::Debug for Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Peer")
            .field("closed", &*self.inner.closed.borrow())
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}

impl Peer {
    /// A [`Builder`] with the defaults.
    pub fn builder() -> Builder {
        Builder::default()
    }

    /// This handle with another timeout for the calls made through it
    /// (`None`: wait forever), response streams included. The connection
    /// is shared.
    #[must_use]
    pub fn with_timeout(&self, timeout: Option<Duration>) -> Peer {
        Peer {
            timeout: Some(timeout),
            ..self.clone()
        }
    }

    /// Calls `command` with `request` as `data` and returns the response's
    /// `data` as a `Resp` (no `data` reads as `()` or `None`).
    ///
    /// # Errors
    /// [`Error::Rpc`] with the other side's error, or `ECTIMEOUT` when no
    /// answer came in time; [`Error::Closed`] when the connection closes
    /// first; [`Error::Data`] when the request cannot be encoded or the
    /// response does not fit `Resp`.
    pub async fn call<Req, Resp>(&self, command: &str, request: &Req) -> Result<Resp, Error>
    where
        Req: Serialize + ?Sized,
        Resp: DeserializeOwned,
    {
        let timeout = self.timeout.unwrap_or(self.inner.default_timeout);
        let data = to_data(request).map_err(|e| Error::Data(Arc::from(e)))?;
        let mut responses = self.start(command, data, None, timeout).await?;
        match responses.next_data().await {
            Some(item) => item.and_then(|data| decode(Some(&data))),
            None => decode(None),
        }
    }

    /// Calls `command` and returns the stream of its responses' `data`,
    /// ending at the last packet (or with the first error). Dropping the
    /// stream forgets the call. No timeout unless this handle has one
    /// ([`Peer::with_timeout`]); the timeout covers the whole stream.
    ///
    /// # Errors
    /// The request cannot be encoded, or the connection is closed.
    pub async fn call_stream<Req, Resp>(
        &self,
        command: &str,
        request: &Req,
    ) -> Result<ResponseStream<Resp>, Error>
    where
        Req: Serialize + ?Sized,
        Resp: DeserializeOwned,
    {
        let timeout = self.timeout.flatten();
        let data = to_data(request).map_err(|e| Error::Data(Arc::from(e)))?;
        let raw = self.start(command, data, None, timeout).await?;
        Ok(ResponseStream {
            raw,
            _type: PhantomData,
        })
    }

    /// Calls `command` with a streaming request: every item of `requests`
    /// is a request packet (`cont: Y`), then a last packet without data
    /// ends the request; returns the one answer. The items are sent as
    /// fast as the connection takes them.
    ///
    /// # Errors
    /// As [`Peer::call`].
    pub async fn call_with_requests<Req, Resp, S>(
        &self,
        command: &str,
        requests: S,
    ) -> Result<Resp, Error>
    where
        Req: Serialize,
        Resp: DeserializeOwned,
        S: Stream<Item = Req> + Send,
    {
        let timeout = self.timeout.unwrap_or(self.inner.default_timeout);
        let requests = requests.map(|r| to_data(&r).map_err(|e| Error::Data(Arc::from(e))));
        let mut responses = self
            .start(command, None, Some(requests.boxed()), timeout)
            .await?;
        match responses.next_data().await {
            Some(item) => item.and_then(|data| decode(Some(&data))),
            None => decode(None),
        }
    }

    /// Sends `command` without `rpcid`: fire and forget, no response.
    ///
    /// # Errors
    /// The data cannot be encoded, or the connection is closed.
    pub async fn notify<T: Serialize + ?Sized>(
        &self,
        command: &str,
        data: &T,
    ) -> Result<(), Error> {
        let data = to_data(data).map_err(|e| Error::Data(Arc::from(e)))?;
        let mut packet = Packet::command(command);
        packet.data = data;
        self.inner.send(packet, self.inner.encoding).await
    }

    /// Asks the other side what it supports (the built-in `detect`).
    ///
    /// # Errors
    /// As [`Peer::call`].
    pub async fn detect(&self) -> Result<Capabilities, Error> {
        self.call(DETECT, &()).await
    }

    /// What this peer dropped so far.
    pub fn stats(&self) -> Stats {
        let c = &self.inner.stats;
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        Stats {
            late_responses: get(&c.late_responses),
            stray_packets: get(&c.stray_packets),
            invalid_packets: get(&c.invalid_packets),
            denied: get(&c.denied),
            busy: get(&c.busy),
            queued_bytes: self.inner.queued_bytes() as u64,
        }
    }

    /// Closes the connection: pending calls end with [`Error::Closed`],
    /// running handlers are dropped.
    pub fn close(&self) {
        self.inner.close("closed by this side");
    }

    /// `Some(why)` once the connection is closed.
    pub fn closed_reason(&self) -> Option<Arc<str>> {
        self.inner.closed.borrow().clone()
    }

    /// Waits until the connection is closed, and what was queued before
    /// is written (or the writing gave up), and says why it closed.
    pub async fn closed(&self) -> Arc<str> {
        let mut written = self.inner.written.subscribe();
        let _ = written.wait_for(|w| *w).await.map(|_| ());
        self.closed_reason()
            .unwrap_or_else(|| Arc::from("the connection is closed"))
    }

    /// Sends a request (and its continuation packets) and registers the
    /// call.
    async fn start(
        &self,
        command: &str,
        data: Option<RawBuf>,
        more: Option<BoxStream<'_, Result<Option<RawBuf>, Error>>>,
        timeout: Option<Duration>,
    ) -> Result<RawResponses, Error> {
        let inner = &self.inner;
        if inner.is_ending() {
            return Err(inner.closed_error());
        }
        let mut closed = inner.closed.subscribe();
        let permit = tokio::select! {
            p = Arc::clone(&inner.call_permits).acquire_owned() => p.map_err(|_| inner.closed_error())?,
            _ = wait_closed(&mut closed) => return Err(inner.closed_error()),
        };
        let rpcid = uuid::Uuid::new_v4().to_string();
        let (tx, rx) = mpsc::channel(inner.max_buffered);
        let overflow = Arc::new(AtomicBool::new(false));
        {
            let mut calls = lock(&inner.calls);
            // Checked under the lock that `end_calls` clears: a call is
            // either ended by it or refused here.
            if inner.is_ending() {
                return Err(inner.closed_error());
            }
            calls.insert(
                rpcid.clone(),
                Pending {
                    tx,
                    overflow: Arc::clone(&overflow),
                },
            );
        }
        let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
        let guard = CallGuard {
            inner: Arc::clone(inner),
            rpcid: rpcid.clone(),
            _permit: permit,
        };
        let mut first = Packet::request(command, rpcid.clone());
        first.data = data;
        if let Some(t) = timeout {
            first.timeout = Some(u64::try_from(t.as_millis()).unwrap_or(u64::MAX));
        }
        let encoding = inner.encoding;
        match more {
            None => inner.send(first, encoding).await?,
            Some(mut more) => {
                first.cont = true;
                inner.send(first, encoding).await?;
                while let Some(item) = more.next().await {
                    // A packet without data would end the request.
                    let Some(data) = item? else { continue };
                    let packet = Packet {
                        rpcid: Some(rpcid.clone()),
                        cont: true,
                        data: Some(data),
                        ..Packet::default()
                    };
                    inner.send(packet, encoding).await?;
                }
                let last = Packet {
                    rpcid: Some(rpcid.clone()),
                    ..Packet::default()
                };
                inner.send(last, encoding).await?;
            }
        }
        Ok(RawResponses {
            rx,
            overflow,
            sleep: deadline.map(|d| Box::pin(tokio::time::sleep_until(d))),
            timeout,
            done: false,
            _guard: guard,
        })
    }
}

/// Gives `packet` to a call's or a handler's buffer, waiting up to `stall`
/// for room (flow control for a reader a little behind). `Err(true)`: the
/// reader fell further behind than that; `Err(false)`: it is gone.
async fn deliver(tx: &mpsc::Sender<Packet>, packet: Packet, stall: Duration) -> Result<(), bool> {
    match tx.try_send(packet) {
        Ok(()) => Ok(()),
        Err(mpsc::error::TrySendError::Closed(_)) => Err(false),
        Err(mpsc::error::TrySendError::Full(packet)) => {
            match tokio::time::timeout(stall, tx.send(packet)).await {
                Ok(Ok(())) => Ok(()),
                Ok(Err(_)) => Err(false),
                Err(_) => Err(true),
            }
        }
    }
}

/// Returns once the connection is closed.
async fn wait_closed(rx: &mut watch::Receiver<Option<Arc<str>>>) {
    // The guard `wait_for` returns is dropped here, before any await.
    let _ = rx.wait_for(Option::is_some).await.map(|_| ());
}

fn decode<T: DeserializeOwned>(data: Option<&RawBuf>) -> Result<T, Error> {
    from_data(data).map_err(|e| Error::Data(Arc::from(format!("response data: {e}"))))
}

/// Forgets a call when its future or stream is dropped.
struct CallGuard {
    inner: Arc<Inner>,
    rpcid: String,
    _permit: OwnedSemaphorePermit,
}

impl Drop for CallGuard {
    fn drop(&mut self) {
        lock(&self.inner.calls).remove(&self.rpcid);
    }
}

/// The responses of one call, as raw `data`.
struct RawResponses {
    rx: mpsc::Receiver<Packet>,
    overflow: Arc<AtomicBool>,
    sleep: Option<Pin<Box<Sleep>>>,
    timeout: Option<Duration>,
    done: bool,
    _guard: CallGuard,
}

impl RawResponses {
    async fn next_data(&mut self) -> Option<Result<RawBuf, Error>> {
        futures::future::poll_fn(|cx| self.poll_data(cx)).await
    }

    fn poll_data(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<RawBuf, Error>>> {
        if self.done {
            return Poll::Ready(None);
        }
        loop {
            let packet = match self.rx.poll_recv(cx) {
                Poll::Ready(Some(p)) => p,
                Poll::Ready(None) => {
                    self.done = true;
                    let e = if self.overflow.load(Ordering::Relaxed) {
                        Error::Rpc(RpcError::new(
                            RpcError::OVERFLOW,
                            "more responses arrived than the caller read",
                        ))
                    } else {
                        self._guard.inner.closed_error()
                    };
                    return Poll::Ready(Some(Err(e)));
                }
                Poll::Pending => {
                    if let Some(sleep) = &mut self.sleep
                        && sleep.as_mut().poll(cx).is_ready()
                    {
                        self.done = true;
                        let ms = self.timeout.map_or(0, |t| t.as_millis());
                        return Poll::Ready(Some(Err(Error::Rpc(RpcError::new(
                            RpcError::TIMEOUT,
                            format!("no response within {ms} ms"),
                        )))));
                    }
                    return Poll::Pending;
                }
            };
            if let Some(e) = packet.error {
                self.done = true;
                return Poll::Ready(Some(Err(Error::Rpc(RpcError::parse(&e)))));
            }
            if !packet.cont {
                self.done = true;
            }
            match packet.data {
                Some(v) => return Poll::Ready(Some(Ok(v))),
                None if self.done => return Poll::Ready(None),
                None => {}
            }
        }
    }
}

/// The responses of [`Peer::call_stream`]: a [`Stream`] of each response's
/// `data` as a `T`, ending after the last packet, or with an error item
/// (the other side's error, `ECTIMEOUT`, `ECOVERFLOW` when the stream was
/// not read for longer than [`Builder::stall_timeout`] with
/// [`Builder::max_buffered`] responses waiting, or the connection
/// closing). Dropping it forgets the call: later responses are discarded
/// and counted in [`Stats::late_responses`].
pub struct ResponseStream<T> {
    raw: RawResponses,
    _type: PhantomData<fn() -> T>,
}

impl<T> std::fmt::Debug for ResponseStream<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResponseStream")
            .field("rpcid", &self.raw._guard.rpcid)
            .field("done", &self.raw.done)
            .finish_non_exhaustive()
    }
}

impl<T: DeserializeOwned> Stream for ResponseStream<T> {
    type Item = Result<T, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.raw
            .poll_data(cx)
            .map(|item| item.map(|r| r.and_then(|v| decode(Some(&v)))))
    }
}

/// The request packets of a streaming request, for a handler registered
/// with [`Builder::handle_requests`]: each packet's `data` as a `Req`.
/// The stream ends at the packet without `cont`; an error item means the
/// data did not fit `Req`, or the request ended early (the connection
/// closed, or more than [`Builder::max_buffered`] packets waited unread).
pub struct Requests<Req> {
    first: Option<RawBuf>,
    rest: Option<mpsc::Receiver<Packet>>,
    done: bool,
    _type: PhantomData<fn() -> Req>,
}

impl<Req> std::fmt::Debug for Requests<Req> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Requests")
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl<Req: DeserializeOwned> Stream for Requests<Req> {
    type Item = Result<Req, RpcError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let typed = |v: RawBuf| from_data::<Req>(Some(&v)).map_err(|e| invalid(&e));
        let this = &mut *self;
        if let Some(v) = this.first.take() {
            return Poll::Ready(Some(typed(v)));
        }
        if this.done {
            return Poll::Ready(None);
        }
        let Some(rx) = &mut this.rest else {
            this.done = true;
            return Poll::Ready(None);
        };
        loop {
            match rx.poll_recv(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => {
                    this.done = true;
                    return Poll::Ready(Some(Err(RpcError::new(
                        RpcError::OVERFLOW,
                        "the request stream ended before its last packet",
                    ))));
                }
                Poll::Ready(Some(p)) => {
                    if !p.cont {
                        this.done = true;
                    }
                    match p.data {
                        Some(v) => return Poll::Ready(Some(typed(v))),
                        None if this.done => return Poll::Ready(None),
                        None => {}
                    }
                }
            }
        }
    }
}

/// The reader's side of the peer.
struct Dispatch {
    inner: Arc<Inner>,
    handlers: HashMap<String, Handler>,
    policy: Policy,
    detect: Option<RawBuf>,
    permits: Arc<Semaphore>,
    /// The other side's calls being handled, by `rpcid`; `Some` while a
    /// streaming request takes more packets.
    requests: Arc<Mutex<HashMap<String, Option<mpsc::Sender<Packet>>>>>,
    /// The handler tasks: dropped (aborted) with the reader.
    tasks: JoinSet<()>,
    on_invalid: Option<OnInvalid>,
}

async fn read_loop(mut d: Dispatch, mut inbound: InboundStream) {
    let mut closed = d.inner.closed.subscribe();
    let why: String = loop {
        tokio::select! {
            item = inbound.next() => match item {
                None => break "the other side closed the connection".to_owned(),
                Some(Err(e)) => {
                    d.inner.close(&format!("closed after a transport error: {e}"));
                    break String::new();
                }
                Some(Ok(Inbound::Invalid(invalid))) => d.invalid(invalid).await,
                Some(Ok(Inbound::Packet(p, encoding))) => d.packet(p, encoding).await,
            },
            Some(_) = d.tasks.join_next(), if !d.tasks.is_empty() => {}
            () = wait_closed(&mut closed) => break String::new(),
        }
    };
    if !why.is_empty() {
        // The other side stopped sending but may still read: our calls
        // cannot be answered any more, the handlers running finish (within
        // their timeouts) and their answers are sent, then we close.
        d.inner.end_calls(&why);
        loop {
            tokio::select! {
                next = d.tasks.join_next() => if next.is_none() { break },
                () = wait_closed(&mut closed) => break,
            }
        }
        d.inner.close(&why);
    }
    // Dropping the join set aborts the handlers still running.
    d.tasks.shutdown().await;
}

impl Dispatch {
    async fn reply_error(&self, rpcid: String, encoding: Encoding, error: RpcError) {
        let packet = Packet::response(rpcid).with_error(error.to_string());
        // A closed connection has nobody to tell.
        let _ = self.inner.send(packet, encoding).await;
    }

    /// A packet that arrived whole but was refused: answered `ECINVALID`
    /// when its `rpcid` is known, failing the call its `resid` names
    /// otherwise, else only counted and logged.
    async fn invalid(&mut self, invalid: InvalidPacket) {
        bump(&self.inner.stats.invalid_packets);
        if let Some(f) = &self.on_invalid {
            f(&invalid);
        }
        let error = RpcError::new(RpcError::INVALID, invalid.error.to_string());
        if let Some(rpcid) = invalid.rpcid {
            // A streaming request it continued takes no more packets.
            if let Some(slot) = lock(&self.requests).get_mut(&rpcid) {
                *slot = None;
            }
            self.reply_error(rpcid, invalid.encoding, error).await;
        } else if let Some(resid) = invalid.resid {
            let packet = Packet::response(resid.clone()).with_error(error.to_string());
            self.response(resid, packet).await;
        }
    }

    async fn packet(&mut self, packet: Packet, encoding: Encoding) {
        let stats = &self.inner.stats;
        if let Some(resid) = packet.resid.clone() {
            return self.response(resid, packet).await;
        }
        let Some(rpcid) = packet.rpcid.clone() else {
            return match packet.command.clone() {
                Some(command) => self.call(command, None, packet, encoding).await,
                None => bump(&stats.stray_packets),
            };
        };
        let open = lock(&self.requests).get(&rpcid).cloned();
        match open {
            // A continuation of a streaming request.
            Some(Some(tx)) => {
                let last = !packet.cont;
                let delivered = deliver(&tx, packet, self.inner.stall).await.is_ok();
                if last || !delivered {
                    // The end, or a handler that fell behind or is gone:
                    // no more packets for it.
                    if let Some(slot) = lock(&self.requests).get_mut(&rpcid) {
                        *slot = None;
                    }
                }
                if !delivered {
                    bump(&stats.stray_packets);
                }
            }
            // A call with this id is running: ids are unique per session.
            // A request is answered (the first call goes on); anything
            // else is dropped.
            Some(None) => match &packet.command {
                Some(command) => {
                    let e = RpcError::new(
                        RpcError::DUPLICATE,
                        format!("{command}: rpcid {rpcid:?} is already in flight"),
                    );
                    self.reply_error(rpcid, encoding, e).await;
                }
                None => bump(&stats.stray_packets),
            },
            None => match packet.command.clone() {
                Some(command) => self.call(command, Some(rpcid), packet, encoding).await,
                None => bump(&stats.stray_packets),
            },
        }
    }

    /// Routes a response to its call.
    async fn response(&self, resid: String, packet: Packet) {
        let stats = &self.inner.stats;
        let last = !packet.cont || packet.error.is_some();
        let Some((tx, overflow)) = lock(&self.inner.calls)
            .get(&resid)
            .map(|p| (p.tx.clone(), Arc::clone(&p.overflow)))
        else {
            return bump(&stats.late_responses);
        };
        match deliver(&tx, packet, self.inner.stall).await {
            Ok(()) if !last => return,
            Ok(()) => {}
            Err(fell_behind) => {
                overflow.store(fell_behind, Ordering::Relaxed);
                bump(&stats.late_responses);
            }
        }
        lock(&self.inner.calls).remove(&resid);
    }

    /// Starts a handler for a call (`rpcid`) or a notification (`None`).
    async fn call(
        &mut self,
        command: String,
        rpcid: Option<String>,
        packet: Packet,
        encoding: Encoding,
    ) {
        // No new work while the answers wait for room: the other side
        // is not reading them (backpressure reaches its sends).
        self.inner.wait_for_room().await;
        let stats = &self.inner.stats;
        let handler = match self.handlers.get(&command) {
            Some(h) if self.policy.allows(&command) => h.clone(),
            Some(_) => {
                bump(&stats.denied);
                if let Some(rpcid) = rpcid {
                    let e = RpcError::new(RpcError::DENIED, format!("{command} is not allowed"));
                    self.reply_error(rpcid, encoding, e).await;
                }
                return;
            }
            None if command == DETECT => {
                if let Some(rpcid) = rpcid {
                    let mut reply = Packet::response(rpcid);
                    reply.data = self.detect.clone();
                    let _ = self.inner.send(reply, encoding).await;
                }
                return;
            }
            None => {
                match rpcid {
                    Some(rpcid) => {
                        let e =
                            RpcError::new(RpcError::UNKNOWN, format!("unknown command {command}"));
                        self.reply_error(rpcid, encoding, e).await;
                    }
                    None => bump(&stats.stray_packets),
                }
                return;
            }
        };
        let Ok(permit) = Arc::clone(&self.permits).try_acquire_owned() else {
            bump(&stats.busy);
            if let Some(rpcid) = rpcid {
                let e = RpcError::new(RpcError::BUSY, "too many calls in flight");
                self.reply_error(rpcid, encoding, e).await;
            }
            return;
        };
        let more = if handler.streaming_requests && packet.cont && rpcid.is_some() {
            let (tx, rx) = mpsc::channel(self.inner.max_buffered);
            Some((tx, rx))
        } else {
            None
        };
        let (tx, rx) = match more {
            Some((tx, rx)) => (Some(tx), Some(rx)),
            None => (None, None),
        };
        if let Some(rpcid) = &rpcid {
            lock(&self.requests).insert(rpcid.clone(), tx);
        }
        let timeout = match packet.timeout {
            Some(ms) => Some(Duration::from_millis(ms)),
            None if handler.streaming_responses => None,
            None => self.inner.default_timeout,
        };
        let deadline = timeout.and_then(|t| Instant::now().checked_add(t));
        let run = Arc::clone(&handler.run);
        let data = packet.data;
        let responses = move || run(data, rx);
        let task = HandlerTask {
            inner: Arc::clone(&self.inner),
            requests: Arc::clone(&self.requests),
            rpcid,
            encoding,
            streaming: handler.streaming_responses,
            _permit: permit,
        };
        self.tasks.spawn(task.run(responses, deadline, timeout));
        // With other handlers running (a burst), let this one start before
        // the next packet is read, so that its answers count against the
        // room the next request waits for: requests that fill the queue do
        // not start every handler at once. (A lone call needs no yield.)
        if self.tasks.len() > 1 {
            tokio::task::yield_now().await;
        }
    }
}

/// One running handler.
struct HandlerTask {
    inner: Arc<Inner>,
    requests: Arc<Mutex<HashMap<String, Option<mpsc::Sender<Packet>>>>>,
    rpcid: Option<String>,
    encoding: Encoding,
    streaming: bool,
    _permit: OwnedSemaphorePermit,
}

impl Drop for HandlerTask {
    fn drop(&mut self) {
        if let Some(rpcid) = &self.rpcid {
            lock(&self.requests).remove(rpcid);
        }
    }
}

impl HandlerTask {
    async fn run(
        self,
        responses: impl FnOnce() -> Responses,
        deadline: Option<Instant>,
        timeout: Option<Duration>,
    ) {
        use futures::FutureExt;
        use std::panic::AssertUnwindSafe;
        // A handler that panics, when called or when polled, fails its
        // call, not the peer.
        let run = async {
            match std::panic::catch_unwind(AssertUnwindSafe(responses)) {
                Ok(responses) => {
                    AssertUnwindSafe(self.answer(responses))
                        .catch_unwind()
                        .await
                }
                Err(p) => Err(p),
            }
        };
        let error = match deadline {
            None => run.await.err().map(|_| panicked()),
            Some(deadline) => match tokio::time::timeout_at(deadline, run).await {
                Ok(Ok(())) => None,
                Ok(Err(_)) => Some(panicked()),
                // The handler was dropped; tell the caller (who has likely
                // given up already).
                Err(_) => {
                    let ms = timeout.map_or(0, |t| t.as_millis());
                    Some(RpcError::new(
                        RpcError::TIMEOUT,
                        format!("handler ran over {ms} ms"),
                    ))
                }
            },
        };
        if let (Some(e), Some(rpcid)) = (error, &self.rpcid) {
            let packet = Packet::response(rpcid.clone()).with_error(e.to_string());
            let _ = self.inner.send(packet, self.encoding).await;
        }
    }

    async fn answer(&self, responses: Responses) {
        let mut responses = Metered::new(responses, &self.inner);
        let Some(rpcid) = &self.rpcid else {
            // A notification: run it, drop what it answers.
            while responses.next().await.is_some() {}
            return;
        };
        let respond = |result: Result<Option<RawBuf>, RpcError>, cont: bool| {
            let mut packet = Packet::response(rpcid.clone());
            match result {
                Ok(data) => {
                    packet.data = data;
                    packet.cont = cont;
                }
                Err(e) => packet.error = Some(e.to_string()),
            }
            packet
        };
        while let Some((item, leave)) = responses.next().await {
            let end = item.is_err() || !self.streaming;
            let sent = self.inner.send(respond(item, !end), self.encoding).await;
            drop(leave);
            if sent.is_err() || end {
                return;
            }
        }
        // The end of a stream (or a handler that yielded nothing).
        let _ = self
            .inner
            .send(respond(Ok(None), false), self.encoding)
            .await;
    }
}

/// The handlers of one connection that may make an answer at once (see
/// [`Metered`]).
const MAKERS: usize = 4;

/// A handler's answers, polled only with leave to make one: one of
/// [`MAKERS`] per connection, held while the handler is polled and, when
/// it answers, until the answer has room in the queue. So when the queue
/// is full (the other side does not read), at most that many answers wait
/// beside it, whatever the handlers would make; and a handler that waits
/// (for a timer, for its own calls) holds no leave, so any number of them
/// can wait at once.
struct Metered {
    responses: Responses,
    makers: PollSemaphore,
}

impl Metered {
    fn new(responses: Responses, inner: &Inner) -> Metered {
        Metered {
            responses,
            makers: PollSemaphore::new(Arc::clone(&inner.makers)),
        }
    }

    /// The next answer and the leave it was made with (to drop once the
    /// answer is queued); `None` at the end of the answers or once the
    /// connection is closed.
    async fn next(&mut self) -> Option<(Result<Option<RawBuf>, RpcError>, OwnedSemaphorePermit)> {
        futures::future::poll_fn(|cx| {
            let Some(leave) = std::task::ready!(self.makers.poll_acquire(cx)) else {
                return Poll::Ready(None);
            };
            // Pending: the leave goes back as `leave` drops.
            self.responses
                .poll_next_unpin(cx)
                .map(|item| item.map(|item| (item, leave)))
        })
        .await
    }
}

/// The writer task: sends what calls and handlers queue. A packet the
/// transport refuses alone (too large, data with no encoding) fails its
/// call; an I/O error closes the connection.
async fn write_loop(
    inner: Arc<Inner>,
    mut rx: mpsc::UnboundedReceiver<Queued>,
    mut sink: OutboundSink,
) {
    /// Marks the writing done however the task ends (a transport's sink
    /// that panicked included), so that [`Peer::closed`] resolves.
    struct Done(Arc<Inner>);
    impl Drop for Done {
        fn drop(&mut self) {
            self.0.close("closed: the writer stopped");
            self.0.written.send_replace(true);
        }
    }
    let _done = Done(Arc::clone(&inner));
    let mut closed = inner.closed.subscribe();
    loop {
        let item = tokio::select! {
            item = rx.recv() => item,
            () = wait_closed(&mut closed) => None,
        };
        let Some((packet, encoding, size)) = item else {
            break;
        };
        let written = write_one(&inner, &mut sink, packet, encoding, rx.is_empty()).await;
        inner.room.add_permits(size as usize);
        if !written {
            inner.written.send_replace(true);
            return;
        }
    }
    // What was queued before the close still goes out, within a second.
    let drain = async {
        while let Ok((packet, encoding, _)) = rx.try_recv() {
            if !write_one(&inner, &mut sink, packet, encoding, rx.is_empty()).await {
                return;
            }
        }
        let _ = sink.close().await;
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), drain).await;
    inner.written.send_replace(true);
}

/// Writes one packet, flushing when `flush`; `false` once the transport
/// failed (the connection is then closed).
async fn write_one(
    inner: &Inner,
    sink: &mut OutboundSink,
    packet: Packet,
    encoding: Encoding,
    flush: bool,
) -> bool {
    // What `refused` needs, should the transport refuse the packet.
    let ids = Ids {
        rpcid: packet.rpcid.clone(),
        resid: packet.resid.clone(),
        is_error: packet.error.is_some(),
    };
    // Flush only when nothing else is queued: one write per burst.
    let sent = if flush {
        within(inner.write_timeout, sink.send((packet, encoding))).await
    } else {
        within(inner.write_timeout, sink.feed((packet, encoding))).await
    };
    let Ok(sent) = sent else {
        let secs = inner.write_timeout.as_secs_f64();
        inner.close(&format!(
            "closed: nothing could be written for {secs} s (write timeout): the other side does not read"
        ));
        return false;
    };
    match sent {
        Ok(()) => true,
        Err(e @ JteError::Frame(jtoo_frame::FrameError::Io(_))) => {
            inner.close(&format!("closed after a write error: {e}"));
            false
        }
        Err(e) => {
            refused(inner, ids, encoding, &e);
            true
        }
    }
}

/// `op`, or `Err` when it does not finish within `limit`; the timer is
/// set only when `op` has to wait (most writes finish at once).
async fn within<F: Future>(limit: Duration, op: F) -> Result<F::Output, ()> {
    let mut op = std::pin::pin!(op);
    let first = futures::future::poll_fn(|cx| Poll::Ready(op.as_mut().poll(cx))).await;
    match first {
        Poll::Ready(out) => Ok(out),
        Poll::Pending => tokio::time::timeout(limit, op).await.map_err(|_| ()),
    }
}

/// The ids of a packet being written.
struct Ids {
    rpcid: Option<String>,
    resid: Option<String>,
    is_error: bool,
}

/// A packet the transport refused: its call fails with `ECTOOLARGE` (or
/// the encoding error), here or on the other side.
fn refused(inner: &Inner, packet: Ids, encoding: Encoding, e: &JteError) {
    let error = RpcError::new(RpcError::TOOLARGE, format!("packet refused: {e}")).to_string();
    if let Some(rpcid) = packet.rpcid {
        // Our request: fail the call here.
        let calls = lock(&inner.calls);
        if let Some(pending) = calls.get(&rpcid) {
            let _ = pending
                .tx
                .try_send(Packet::response(rpcid).with_error(error));
        }
    } else if let Some(resid) = packet.resid {
        // Our response: tell the caller (a short packet always fits).
        if !packet.is_error {
            let reply = Packet::response(resid).with_error(error);
            // Outside the room: it takes the place of a larger packet.
            let _ = inner.out.send((reply, encoding, 0));
        }
    }
}

/// A packet's approximate size in memory, for [`Builder::max_queued_bytes`]:
/// the packet, its strings and the text of its data.
fn weight(packet: &Packet) -> usize {
    let text = |s: &Option<String>| s.as_ref().map_or(0, String::len);
    std::mem::size_of::<Packet>()
        + text(&packet.command)
        + text(&packet.rpcid)
        + text(&packet.resid)
        + text(&packet.error)
        + text(&packet.datatype)
        + packet.data.as_ref().map_or(0, |d| d.as_str().len())
}
