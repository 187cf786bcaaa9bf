//! [`Policed`]: a connection's byte stream under the server's limits, for
//! protocols that read and write it themselves (JTE's peer, say).

use super::budget::{Acquire, Charge};
use super::{ConnectionError, MAX_READ, MIN_READ};
use crate::header::{self, HEADER_LEN};
use std::fmt;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Waker, ready};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep, sleep_until};

/// How a [`Policed`] stream tells where one frame ends and the next
/// begins: what its frame timeout, frame counts and budget charge count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Framing {
    /// JTOO frames (`jjjjjj bbbbbb …\n`), the greeting first.
    Frames,
    /// Lines: a frame is everything up to and including a `\n` (JSON
    /// lines).
    Lines,
}

/// Where a stream of bytes is in its frames: how many bytes of an
/// unfinished frame have passed.
#[derive(Debug)]
struct Scanner {
    framing: Framing,
    /// Bytes of the unfinished frame so far.
    open: usize,
    /// Frames: the header's bytes so far.
    head: [u8; HEADER_LEN],
    /// Frames: the bytes after the header still to come (`None` while the
    /// header is incomplete).
    rest: Option<usize>,
}

impl Scanner {
    fn new(framing: Framing) -> Scanner {
        Scanner {
            framing,
            open: 0,
            head: [0; HEADER_LEN],
            rest: None,
        }
    }

    /// Takes `bytes` in; returns how many frames they finished.
    fn feed(&mut self, mut bytes: &[u8]) -> u64 {
        let mut ended = 0;
        match self.framing {
            Framing::Lines => {
                match bytes.iter().rposition(|&b| b == b'\n') {
                    Some(last) => {
                        ended = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
                        self.open = bytes.len() - last - 1;
                    }
                    None => self.open = self.open.saturating_add(bytes.len()),
                }
                ended
            }
            Framing::Frames => {
                while !bytes.is_empty() {
                    let rest = match self.rest {
                        Some(rest) => rest,
                        None => {
                            let have = self.open.min(HEADER_LEN);
                            let take = (HEADER_LEN - have).min(bytes.len());
                            let (now, later) = bytes.split_at(take);
                            if let Some(slot) = self.head.get_mut(have..have + take) {
                                slot.copy_from_slice(now);
                            }
                            self.open += take;
                            bytes = later;
                            if self.open < HEADER_LEN {
                                break;
                            }
                            // A malformed header never ends: the protocol's
                            // decoder refuses it and closes.
                            let rest =
                                header::read(&self.head).map_or(usize::MAX, |(j, b)| j + b + 2);
                            self.rest = Some(rest);
                            rest
                        }
                    };
                    let take = rest.min(bytes.len());
                    bytes = bytes.get(take..).unwrap_or_default();
                    self.open = self.open.saturating_add(take);
                    if take == rest {
                        ended += 1;
                        self.open = 0;
                        self.rest = None;
                    } else {
                        self.rest = Some(rest - take);
                    }
                }
                ended
            }
        }
    }
}

/// What a [`Policed`] stream and the server share: frame counts and the
/// limit that cut it, if one did.
#[derive(Debug, Default)]
pub(crate) struct Shared {
    pub(crate) received: AtomicU64,
    pub(crate) sent: AtomicU64,
    cause: Mutex<Option<ConnectionError>>,
}

impl Shared {
    /// The limit that cut the connection, if one did.
    pub(crate) fn take_cause(&self) -> Option<ConnectionError> {
        self.cause
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }

    fn set_cause(&self, e: ConnectionError) -> io::Error {
        let kind = match e {
            ConnectionError::IdleTimeout(_)
            | ConnectionError::FrameTimeout(_)
            | ConnectionError::WriteTimeout(_) => io::ErrorKind::TimedOut,
            _ => io::ErrorKind::Other,
        };
        let error = io::Error::new(kind, e.to_string());
        let mut cause = self.cause.lock().unwrap_or_else(PoisonError::into_inner);
        if cause.is_none() {
            *cause = Some(e);
        }
        error
    }
}

/// The timeouts of a [`Policed`] stream.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Timeouts {
    pub(crate) idle: Duration,
    pub(crate) frame: Duration,
    pub(crate) write: Duration,
}

/// A connection's byte stream under the server's limits, as
/// [`Server::serve_lines`](super::Server::serve_lines) and
/// [`Server::serve_framed`](super::Server::serve_framed) hand it to a
/// protocol that reads and writes it itself (such as the `jte` crate's
/// peer). It knows where frames end ([`Framing`]) and enforces:
///
/// - **idle timeout**: waiting longer than it for the first byte of a next
///   frame (counted from the end of the last frame in either direction)
///   fails the read;
/// - **frame timeout**: a frame whose first byte arrived must be whole
///   before the server has waited this long for its bytes, however they
///   trickle;
/// - **write timeout**: once a write has to wait, an outgoing frame must be
///   finished within it (a peer that does not read);
/// - **read backpressure**: while an outgoing frame waits for the peer to
///   read, nothing more is read from it (what a peer that does not read
///   asks for would pile up in the answers); this pause counts towards no
///   read timeout;
/// - **memory budget**: the bytes of its unfinished incoming frame and the
///   room of each read are charged to the server's budget before they are
///   read, and the room stays charged until the frame is whole (the
///   reader's buffer holds it meanwhile; a reader that grows its buffer
///   as [`ReadBuffer`](super::ReadBuffer) does is charged about its
///   capacity); a read waits for room (cutting connections over
///   their fair share to make it), and fails at its deadline if none
///   comes; when another connection needs room and this one holds more
///   than its share, its next read fails.
///
/// Only time spent waiting for the peer counts towards the read
/// timeouts: a protocol that stops reading for a while (its own
/// backpressure) is not cut for it. Once a limit is hit, every later read
/// and write fails with the same error (an `io::Error` whose message is the
/// [`ConnectionError`]'s; the server's [`Event::Closed`](super::Event::Closed)
/// reports the limit itself).
pub struct Policed<T> {
    io: T,
    peer: SocketAddr,
    charge: Charge,
    timeouts: Timeouts,
    inbound: Scanner,
    outbound: Scanner,
    /// Time waited for the peer's bytes in the current state (idle, or
    /// the current frame), before `read_since`.
    read_waited: Duration,
    /// Since when the read in progress has been waiting.
    read_since: Option<Instant>,
    read_timer: Pin<Box<Sleep>>,
    acquire: Option<Acquire>,
    /// Since when an unfinished write has been waiting.
    write_since: Option<Instant>,
    write_timer: Pin<Box<Sleep>>,
    shared: Arc<Shared>,
    failed: Option<(io::ErrorKind, String)>,
    /// The reader, parked while an outgoing frame waits for the peer.
    parked: Option<Waker>,
}

impl<T> fmt::Debug for Policed<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Policed")
            .field("peer", &self.peer)
            .field("framing", &self.inbound.framing)
            .field("unfinished", &self.inbound.open)
            .field("charged", &self.charge.held())
            .finish_non_exhaustive()
    }
}

impl<T> Policed<T> {
    pub(crate) fn new(
        io: T,
        peer: SocketAddr,
        framing: Framing,
        charge: Charge,
        timeouts: Timeouts,
        shared: Arc<Shared>,
    ) -> Policed<T> {
        let now = Instant::now();
        Policed {
            io,
            peer,
            charge,
            timeouts,
            inbound: Scanner::new(framing),
            outbound: Scanner::new(framing),
            read_waited: Duration::ZERO,
            read_since: None,
            read_timer: Box::pin(sleep_until(now)),
            acquire: None,
            write_since: None,
            write_timer: Box::pin(sleep_until(now)),
            shared,
            failed: None,
            parked: None,
        }
    }

    /// The peer's address.
    pub fn peer_addr(&self) -> SocketAddr {
        self.peer
    }

    /// The stream's framing.
    pub fn framing(&self) -> Framing {
        self.inbound.framing
    }

    /// The wrapped stream.
    pub fn get_ref(&self) -> &T {
        &self.io
    }

    /// Fails this and every later read and write with `e`.
    fn fail(&mut self, e: ConnectionError) -> io::Error {
        let error = self.shared.set_cause(e);
        self.failed = Some((error.kind(), error.to_string()));
        if let Some(reader) = self.parked.take() {
            reader.wake();
        }
        error
    }

    fn failed(&self) -> Option<io::Error> {
        self.failed
            .as_ref()
            .map(|(kind, message)| io::Error::new(*kind, message.clone()))
    }

    /// The read timeout that applies now.
    fn read_limit(&self) -> (Duration, ConnectionError) {
        if self.inbound.open == 0 {
            let t = self.timeouts.idle;
            (t, ConnectionError::IdleTimeout(t))
        } else {
            let t = self.timeouts.frame;
            (t, ConnectionError::FrameTimeout(t))
        }
    }

    /// The read has to wait: starts its clock (at the time left of its
    /// timeout), and fails it once that has run out.
    fn read_pending(&mut self, cx: &mut Context<'_>, budget: bool) -> Poll<io::Result<()>> {
        if self.read_since.is_none() {
            let now = Instant::now();
            self.read_since = Some(now);
            let (limit, _) = self.read_limit();
            let left = limit.saturating_sub(self.read_waited);
            self.read_timer.as_mut().reset(super::after(now, left));
        }
        if self.read_timer.as_mut().poll(cx).is_ready() {
            let (_, expired) = self.read_limit();
            let e = if budget {
                ConnectionError::Budget
            } else {
                expired
            };
            self.acquire = None;
            return Poll::Ready(Err(self.fail(e)));
        }
        Poll::Pending
    }

    /// The clock of the read that was waiting stops.
    fn read_ready(&mut self) {
        if let Some(since) = self.read_since.take() {
            self.read_waited += Instant::now().saturating_duration_since(since);
        }
    }

    /// Room for a read of up to `want` bytes, charged to the budget.
    fn poll_room(&mut self, cx: &mut Context<'_>, want: usize) -> Poll<io::Result<usize>> {
        let open = self.inbound.open;
        loop {
            if let Some(acquire) = &mut self.acquire {
                match acquire.future.as_mut().poll(cx) {
                    Poll::Ready(true) => {
                        let more = acquire.more;
                        self.acquire = None;
                        self.charge.add_acquired(more);
                    }
                    Poll::Ready(false) => {
                        self.acquire = None;
                        return Poll::Ready(Err(self.fail(ConnectionError::Budget)));
                    }
                    Poll::Pending => {
                        ready!(self.read_pending(cx, true))?;
                        return Poll::Pending;
                    }
                }
            }
            let room = self.charge.held().saturating_sub(open);
            if room > 0 {
                return Poll::Ready(Ok(room.min(want)));
            }
            if self.charge.try_grow_to(open + want) {
                return Poll::Ready(Ok(want));
            }
            let small = want.min(MIN_READ);
            if self.charge.try_grow_to(open + small) {
                return Poll::Ready(Ok(small));
            }
            match self.charge.start_acquire(open + small) {
                Ok(Some(acquire)) => self.acquire = Some(acquire),
                Ok(None) => return Poll::Ready(Ok(small)),
                Err(e) => return Poll::Ready(Err(self.fail(e))),
            }
        }
    }

    /// A frame was finished in either direction: the idle clock restarts.
    fn restart_idle(&mut self) {
        if self.inbound.open == 0 {
            self.read_waited = Duration::ZERO;
            if self.read_since.is_some() {
                let now = Instant::now();
                self.read_since = Some(now);
                let deadline = super::after(now, self.timeouts.idle);
                self.read_timer.as_mut().reset(deadline);
            }
        }
    }

    /// The write has to wait: starts its clock, and fails it once the
    /// write timeout has run out.
    fn write_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        if self.write_since.is_none() {
            let now = Instant::now();
            self.write_since = Some(now);
            let deadline = super::after(now, self.timeouts.write);
            self.write_timer.as_mut().reset(deadline);
        }
        if self.write_timer.as_mut().poll(cx).is_ready() {
            let t = self.timeouts.write;
            return Poll::Ready(self.fail(ConnectionError::WriteTimeout(t)));
        }
        Poll::Pending
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Policed<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if let Some(e) = this.failed() {
            return Poll::Ready(Err(e));
        }
        if let Poll::Ready(e) = this.charge.poll_cut(cx) {
            return Poll::Ready(Err(this.fail(e)));
        }
        // A peer that does not read what it is sent gets nothing more read
        // from it until it does (or the write timeout cuts it): what it
        // asks for would pile up in the protocol's answers.
        if this.write_since.is_some() {
            this.read_ready();
            this.parked = Some(cx.waker().clone());
            return Poll::Pending;
        }
        let want = buf
            .remaining()
            .min(this.inbound.open.clamp(MIN_READ, MAX_READ));
        if want == 0 {
            return Poll::Ready(Ok(()));
        }
        let room = ready!(this.poll_room(cx, want))?;
        let n = {
            let mut limited = ReadBuf::new(buf.initialize_unfilled_to(room));
            match Pin::new(&mut this.io).poll_read(cx, &mut limited) {
                Poll::Ready(Ok(())) => limited.filled().len(),
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return this.read_pending(cx, false),
            }
        };
        this.read_ready();
        let was_open = this.inbound.open;
        let bytes = buf.initialize_unfilled_to(n).get(..n).unwrap_or_default();
        let ended = this.inbound.feed(bytes);
        buf.advance(n);
        if ended > 0 {
            this.shared.received.fetch_add(ended, Ordering::Relaxed);
        }
        if ended > 0 || (was_open == 0 && this.inbound.open > 0) {
            // A new state: idle, or a frame that just started.
            this.read_waited = Duration::ZERO;
            let started = (this.inbound.open > 0).then(Instant::now);
            this.charge.frame_started(started);
        }
        // The reader's buffer keeps the room it was given until the frame
        // is whole (a buffer grown for a long frame is still allocated
        // while it fills): so does the charge. Once a frame ends, only the
        // bytes of the next one stay charged.
        if ended > 0 || this.inbound.open == 0 {
            this.charge.shrink_to(this.inbound.open);
        }
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Policed<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if let Some(e) = this.failed() {
            return Poll::Ready(Err(e));
        }
        match Pin::new(&mut this.io).poll_write(cx, buf) {
            Poll::Ready(Ok(n)) => {
                let ended = this.outbound.feed(buf.get(..n).unwrap_or_default());
                if ended > 0 {
                    this.shared.sent.fetch_add(ended, Ordering::Relaxed);
                    this.write_since = None;
                    this.restart_idle();
                    if let Some(reader) = this.parked.take() {
                        reader.wake();
                    }
                }
                Poll::Ready(Ok(n))
            }
            Poll::Ready(Err(e)) => {
                // The reader learns of it from the socket itself.
                this.write_since = None;
                if let Some(reader) = this.parked.take() {
                    reader.wake();
                }
                Poll::Ready(Err(e))
            }
            Poll::Pending => this.write_pending(cx).map(Err),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if let Some(e) = this.failed() {
            return Poll::Ready(Err(e));
        }
        match Pin::new(&mut this.io).poll_flush(cx) {
            Poll::Ready(r) => Poll::Ready(r),
            Poll::Pending => this.write_pending(cx).map(Err),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.io).poll_shutdown(cx) {
            Poll::Ready(r) => Poll::Ready(r),
            Poll::Pending => this.write_pending(cx).map(Err),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scanner_finds_the_ends_of_frames_and_lines() {
        let mut lines = Scanner::new(Framing::Lines);
        assert_eq!(lines.feed(b"{\"a\":"), 0);
        assert_eq!(lines.open, 5);
        assert_eq!(lines.feed(b"1}\n\n{"), 2);
        assert_eq!(lines.open, 1);
        let mut frames = Scanner::new(Framing::Frames);
        let two = b"000003 000001 [1] x\n000000 000000  \n00000";
        // Byte by byte and whole agree.
        for step in [1, 3, two.len()] {
            let mut s = Scanner::new(Framing::Frames);
            let ended: u64 = two.chunks(step).map(|c| s.feed(c)).sum();
            assert_eq!((ended, s.open), (2, 5), "step {step}");
        }
        assert_eq!(frames.feed(b"ffffff ffffff "), 0);
        assert_eq!(frames.open, 14);
        assert_eq!(frames.rest, Some(0xff_ffff * 2 + 2));
        // A malformed header never ends.
        let mut bad = Scanner::new(Framing::Frames);
        assert_eq!(bad.feed(b"0000zz 000000 \n000000 000000  \n"), 0);
    }
}
