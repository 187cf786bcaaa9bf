//! [`ReadBuffer`]: how a connection's read buffer grows and when it is
//! given back, for the server's own connections and for protocols reading
//! a [`Policed`](super::Policed) stream through a decoder of their own
//! (the `jte` crate's transports).

use super::{KEPT_CAPACITY, MAX_READ, MIN_READ};
use bytes::BytesMut;

/// The least free room a read is given: a buffer with less grows first.
const LEAST_ROOM: usize = 1024;

/// The rules of a connection's read buffer, so that its memory follows the
/// bytes that arrived and the frame limit, not the allocator's rounding or
/// the longest frame the connection ever received:
///
/// - [`make_room`](ReadBuffer::make_room) (before a read): a buffer with
///   less than 1 KiB free grows to exactly its bytes plus a step that
///   grows with them (8 KiB to 1 MiB), never past the frame limit given
///   to [`new`](ReadBuffer::new) (`BytesMut::reserve` would double it);
/// - [`frame_taken`](ReadBuffer::frame_taken) (after a frame or line was
///   split off): a buffer that grew past 64 KiB is replaced by one just
///   large enough for the bytes left (at least 8 KiB), so a thousand
///   connections that each once received a 256 KiB line do not keep
///   256 MiB that nothing counts.
///
/// Tracked explicitly: after `split_to`, `BytesMut::capacity` no longer
/// shows the allocation the remaining bytes share.
///
/// ```
/// use bytes::BytesMut;
/// use jtoo_frame::server::ReadBuffer;
/// let mut policy = ReadBuffer::new(1 << 20);
/// let mut buf = BytesMut::with_capacity(8 * 1024);
/// // A 300 KB line arrives in reads, each after `make_room`.
/// while buf.len() < 300_000 {
///     policy.make_room(&mut buf);
///     let n = (buf.capacity() - buf.len()).min(300_000 - buf.len());
///     buf.extend_from_slice(&vec![b'x'; n]);
/// }
/// assert!(buf.capacity() <= 2 * 300_000, "exact steps, not doubling");
/// buf.extend_from_slice(b"\n{");
/// let line = buf.split_to(300_001);
/// drop(line);
/// policy.frame_taken(&mut buf);
/// assert_eq!(&buf[..], b"{");
/// assert_eq!(buf.capacity(), 8 * 1024, "the long line's buffer is given back");
/// ```
#[derive(Clone, Debug)]
pub struct ReadBuffer {
    limit: usize,
    grown: bool,
}

impl ReadBuffer {
    /// The rules for a decoder that holds at most `limit` bytes before it
    /// refuses them (its longest frame or line, with its terminator).
    pub fn new(limit: usize) -> ReadBuffer {
        ReadBuffer {
            limit,
            grown: false,
        }
    }

    /// Before a read: gives `buf` room for it when it has less than 1 KiB
    /// free, in an allocation of exactly the size wanted.
    pub fn make_room(&mut self, buf: &mut BytesMut) {
        let len = buf.len();
        if buf.capacity() - len >= LEAST_ROOM {
            return;
        }
        let step = len.clamp(MIN_READ, MAX_READ);
        let size = (len + step).min(self.limit).max(len + LEAST_ROOM);
        let mut bigger = BytesMut::with_capacity(size);
        bigger.extend_from_slice(buf);
        *buf = bigger;
        self.note(buf);
    }

    /// Records that `buf` may have grown by other means (a decoder's own
    /// `reserve`).
    pub fn note(&mut self, buf: &BytesMut) {
        self.grown |= buf.capacity() > KEPT_CAPACITY;
    }

    /// After a frame or line was taken out of `buf`: if the buffer grew
    /// past 64 KiB and what is left fits in that, it is replaced by a
    /// small one holding the same bytes.
    pub fn frame_taken(&mut self, buf: &mut BytesMut) {
        self.note(buf);
        if self.grown && buf.len() <= KEPT_CAPACITY {
            let mut small = BytesMut::with_capacity(MIN_READ.max(buf.len()));
            small.extend_from_slice(buf);
            *buf = small;
            self.grown = false;
        }
    }
}

/// After a write buffer was written out whole: if it is empty and grew
/// past 64 KiB (for a long frame), it is replaced by an 8 KiB one, so a
/// connection that once sent a long answer does not keep its buffer.
///
/// ```
/// use bytes::{BufMut, BytesMut};
/// let mut buf = BytesMut::new();
/// buf.put_slice(&[b'x'; 300_000]);
/// buf.clear(); // written out
/// jtoo_frame::server::shrink_emptied(&mut buf);
/// assert_eq!(buf.capacity(), 8 * 1024);
/// ```
pub fn shrink_emptied(buf: &mut BytesMut) {
    if buf.is_empty() && buf.capacity() > KEPT_CAPACITY {
        *buf = BytesMut::with_capacity(MIN_READ);
    }
}
