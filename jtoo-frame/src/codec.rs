//! [`FrameCodec`]: the tokio-util [`Decoder`] and [`Encoder`] of JTOO frames.
//!
//! ```text
//!  0      6 7     13 14          14+J 15+J       15+J+B 16+J+B
//!  +------+-+------+-+--------------+-+-------------+--+
//!  |jjjjjj| |bbbbbb| | JTOO section | |binary section|\n|
//!  +------+-+------+-+--------------+-+-------------+--+
//!   J: 6 lower-case hex digits, big-endian, length of the JTOO section
//!   B: 6 lower-case hex digits, big-endian, length of the binary section
//!   each at most ffffff; the frame is J + B + 16 bytes
//! ```
//!
//! Decoding is strict: exactly six lower-case hex digits per length, the two
//! spaces of the header, the space after the JTOO section and the final `\n`;
//! a non-empty JTOO section must be one valid strict JTOO document. A
//! declared length over the configured maximum is rejected as soon as the
//! header has arrived, before any of the section is buffered. Header bytes
//! are checked as they arrive, so a stream that does not start with a
//! header is refused at its first wrong byte.
//!
//! Every decoding error is final: after a malformed frame the stream no
//! longer has reliable framing, the codec answers
//! [`FrameError::Unusable`] to any further call, and the connection should be
//! closed.

use crate::builder::Builder;
use crate::error::{FrameError, Section};
use crate::frame::{FRAME_OVERHEAD, Frame, check_len, validate_jtoo, write_frame};
use crate::greeting::UNSUPPORTED_PROTOCOL_REPLY;
use crate::header::{self, HEADER_LEN};
use bytes::{Buf, Bytes, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

/// The most the decoder reserves at once for a frame's body (8 KiB, what
/// tokio-util's `Framed` starts with): a thousand connections that each
/// sent a header cost 8 MiB, not 32 GiB.
const MAX_RESERVE_STEP: usize = 8 * 1024;

/// The JTOO frame codec: decodes [`Frame`]s from a byte stream and encodes
/// them to it.
///
/// ```
/// use bytes::BytesMut;
/// use jtoo_frame::{Frame, FrameCodec};
/// use tokio_util::codec::{Decoder, Encoder};
///
/// let mut codec = FrameCodec::new();
/// let mut buf = BytesMut::from(&b"00000c 000003 [\"code\":200] abc\n000000 000000  \n"[..]);
/// let f = codec.decode(&mut buf).unwrap().unwrap();
/// assert_eq!(f.jtoo_str(), Some(r#"["code":200]"#));
/// assert_eq!(&f.binary()[..], b"abc");
/// assert_eq!(codec.decode(&mut buf).unwrap(), Some(Frame::empty()));
/// assert_eq!(codec.decode(&mut buf).unwrap(), None);
///
/// let mut out = BytesMut::new();
/// codec.encode(f, &mut out).unwrap();
/// assert_eq!(&out[..], b"00000c 000003 [\"code\":200] abc\n");
/// ```
#[derive(Clone, Debug)]
pub struct FrameCodec {
    max_jtoo_len: usize,
    max_binary_len: usize,
    max_frame_len: usize,
    state: State,
    /// Set on a client's codec after its greeting: the next frame is
    /// checked against the server's 505 reply.
    refusal_possible: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Waiting for (the rest of) a header.
    Header,
    /// Header read; waiting for the frame's `total` bytes.
    Body { jlen: usize, blen: usize },
    /// A decoding error happened.
    Failed,
}

impl Default for FrameCodec {
    fn default() -> FrameCodec {
        FrameCodec::new()
    }
}

impl FrameCodec {
    /// A codec with the default limits (each section up to `ffffff` bytes).
    pub fn new() -> FrameCodec {
        Builder::new().new_codec()
    }

    /// A [`Builder`] to configure limits.
    pub fn builder() -> Builder {
        Builder::new()
    }

    pub(crate) fn from_limits(
        max_jtoo_len: usize,
        max_binary_len: usize,
        max_frame_len: usize,
    ) -> FrameCodec {
        FrameCodec {
            max_jtoo_len,
            max_binary_len,
            max_frame_len,
            state: State::Header,
            refusal_possible: false,
        }
    }

    /// The codec of a client that has just sent its greeting: if the first
    /// frame it decodes is the 505 reply, decoding fails with
    /// [`FrameError::UnsupportedProtocol`].
    pub(crate) fn after_greeting(mut self) -> FrameCodec {
        self.refusal_possible = true;
        self
    }

    /// The largest JTOO section accepted.
    pub fn max_jtoo_len(&self) -> usize {
        self.max_jtoo_len
    }

    /// The largest binary section accepted.
    pub fn max_binary_len(&self) -> usize {
        self.max_binary_len
    }

    /// The largest whole frame accepted.
    pub fn max_frame_len(&self) -> usize {
        self.max_frame_len
    }

    /// `true` once a decoding error has made the stream unusable.
    pub fn is_failed(&self) -> bool {
        self.state == State::Failed
    }

    /// `true` when no partial frame has been started (between frames).
    pub fn is_between_frames(&self) -> bool {
        self.state == State::Header
    }

    fn fail<T>(&mut self, e: FrameError) -> Result<T, FrameError> {
        self.state = State::Failed;
        Err(e)
    }
}

impl FrameCodec {
    /// Checks the next frame in `buf` as far as it has arrived, without
    /// consuming anything; returns its two section lengths once all of it
    /// is there. Every check but the JTOO section's validity is done here.
    #[inline(always)]
    fn next_frame(&mut self, buf: &mut BytesMut) -> Result<Option<(usize, usize)>, FrameError> {
        // The common case inline, in the caller: its lengths stay in
        // registers (the general path returns them through memory).
        let whole = self.whole_frame(buf);
        if let Some(lens) = whole
            && !self.refusal_possible
        {
            return Ok(Some(lens));
        }
        self.next_frame_checked(buf, whole)
    }

    /// [`FrameCodec::next_frame`] out of line, given what
    /// [`FrameCodec::whole_frame`] found: every case, the 505 reply
    /// included.
    #[inline(never)]
    fn next_frame_checked(
        &mut self,
        buf: &mut BytesMut,
        whole: Option<(usize, usize)>,
    ) -> Result<Option<(usize, usize)>, FrameError> {
        let lens = match whole {
            Some(lens) => Some(lens),
            None => self.next_frame_in_parts(buf)?,
        };
        if self.refusal_possible
            && let Some((jlen, blen)) = lens
        {
            self.refusal_possible = false;
            let frame = buf.get(..jlen + blen + FRAME_OVERHEAD);
            if frame == Some(UNSUPPORTED_PROTOCOL_REPLY) {
                return self.fail(FrameError::UnsupportedProtocol);
            }
        }
        Ok(lens)
    }

    /// The common case of [`FrameCodec::next_frame`]: between frames, a
    /// whole well-formed frame within the limits at the start of `buf`.
    /// `None` for anything else, which the general path then handles.
    #[inline]
    fn whole_frame(&self, buf: &[u8]) -> Option<(usize, usize)> {
        if !matches!(self.state, State::Header) {
            return None;
        }
        let (jlen, blen) = header::read(buf)?;
        // Both below 2^24: the sum cannot overflow.
        let total = jlen + blen + FRAME_OVERHEAD;
        let fits =
            jlen <= self.max_jtoo_len && blen <= self.max_binary_len && total <= self.max_frame_len;
        let closed =
            buf.get(HEADER_LEN + jlen) == Some(&b' ') && buf.get(total - 1) == Some(&b'\n');
        (fits && closed).then_some((jlen, blen))
    }

    /// [`FrameCodec::next_frame`] in general: a header or frame that may be
    /// incomplete, malformed or over the limits.
    #[inline(never)]
    fn next_frame_in_parts(
        &mut self,
        buf: &mut BytesMut,
    ) -> Result<Option<(usize, usize)>, FrameError> {
        let (jlen, blen) = match self.state {
            State::Failed => return Err(FrameError::Unusable),
            State::Body { jlen, blen } => (jlen, blen),
            State::Header => {
                let (jlen, blen) = match header::diagnose(buf) {
                    Ok(Some(lens)) => lens,
                    Ok(None) => return Ok(None),
                    Err(e) => return self.fail(e),
                };
                if let Err(e) = check_len(Section::Jtoo, jlen, self.max_jtoo_len)
                    .and_then(|()| check_len(Section::Binary, blen, self.max_binary_len))
                {
                    return self.fail(e);
                }
                // Both lengths are below 2^24: no overflow, but stay checked.
                let total = jlen
                    .checked_add(blen)
                    .and_then(|n| n.checked_add(FRAME_OVERHEAD));
                let total = match total {
                    Some(t) => t,
                    None => {
                        return self.fail(FrameError::TooLong {
                            section: Section::Frame,
                            length: usize::MAX,
                            max: self.max_frame_len,
                        });
                    }
                };
                if let Err(e) = check_len(Section::Frame, total, self.max_frame_len) {
                    return self.fail(e);
                }
                self.state = State::Body { jlen, blen };
                // Room for the body as it arrives, in bounded steps: never
                // reserve what the peer merely declared (a 14-byte header
                // may declare 32 MiB). Later reads grow the buffer
                // geometrically with the bytes that did arrive.
                if let Some(missing) = total.checked_sub(buf.len()) {
                    buf.reserve(missing.min(MAX_RESERVE_STEP));
                }
                (jlen, blen)
            }
        };
        let sep = HEADER_LEN + jlen;
        let total = sep + 1 + blen + 1;
        if let Some(&b) = buf.get(sep)
            && b != b' '
        {
            return self.fail(FrameError::MalformedFrame(
                "expected a space after the JTOO section",
            ));
        }
        match buf.get(total - 1) {
            None => Ok(None),
            Some(b'\n') => Ok(Some((jlen, blen))),
            Some(_) => self.fail(FrameError::MalformedFrame(
                "expected `\\n` after the binary section",
            )),
        }
    }

    /// Decodes the next frame without validating its JTOO section: `read`
    /// gets the JTOO section (empty when there is none) and the binary
    /// section, borrowed from `buf`, and the frame is consumed afterwards.
    ///
    /// The caller must check the JTOO section itself (typically by parsing
    /// it strictly, which validates it) and call
    /// [`FrameCodec::fail_invalid_jtoo`] when it is invalid, so that invalid
    /// input is treated exactly as [`Decoder::decode`] treats it.
    pub(crate) fn decode_unvalidated<T>(
        &mut self,
        buf: &mut BytesMut,
        read: impl FnOnce(&[u8], &[u8]) -> T,
    ) -> Result<Option<T>, FrameError> {
        let Some((jlen, blen)) = self.next_frame(buf)? else {
            return Ok(None);
        };
        let sep = HEADER_LEN + jlen;
        let jtoo = buf.get(HEADER_LEN..sep).unwrap_or_default();
        let binary = buf.get(sep + 1..sep + 1 + blen).unwrap_or_default();
        let t = read(jtoo, binary);
        buf.advance(sep + 1 + blen + 1);
        self.state = State::Header;
        Ok(Some(t))
    }

    /// Marks the stream unusable after [`FrameCodec::decode_unvalidated`]
    /// gave an invalid JTOO section; returns the error to report.
    pub(crate) fn fail_invalid_jtoo(&mut self, e: jtoo::Error) -> FrameError {
        self.state = State::Failed;
        FrameError::InvalidJtoo(e)
    }

    /// The end-of-stream check of [`Decoder::decode_eof`] after `decode`
    /// returned `None`: nothing may be left over.
    pub(crate) fn check_eof(&mut self, buf: &BytesMut) -> Result<(), FrameError> {
        if buf.is_empty() && self.state == State::Header {
            Ok(())
        } else {
            let buffered = buf.len();
            self.fail(FrameError::Truncated { buffered })
        }
    }
}

impl FrameCodec {
    /// Decodes the next frame without validating its JTOO section: its two
    /// sections, split from `buf` without copying (`None` for an empty JTOO
    /// section). The caller validates the JTOO section as
    /// [`FrameCodec::decode_unvalidated`] says.
    #[inline]
    pub(crate) fn decode_sections(
        &mut self,
        buf: &mut BytesMut,
    ) -> Result<Option<(Option<Bytes>, Bytes)>, FrameError> {
        let Some((jlen, blen)) = self.next_frame(buf)? else {
            return Ok(None);
        };
        self.state = State::Header;
        // One split off the read buffer; the sections are views of it.
        let sep = HEADER_LEN + jlen;
        let mut frame = buf.split_to(sep + 1 + blen + 1);
        let jtoo = if jlen > 0 {
            frame.advance(HEADER_LEN);
            Some(frame.split_to(jlen).freeze())
        } else {
            None
        };
        let binary = if blen > 0 {
            frame.advance(frame.len() - blen - 1);
            frame.truncate(blen);
            frame.freeze()
        } else {
            Bytes::new()
        };
        Ok(Some((jtoo, binary)))
    }
}

impl Decoder for FrameCodec {
    type Item = Frame;
    type Error = FrameError;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<Frame>, FrameError> {
        let Some((jtoo, binary)) = self.decode_sections(buf)? else {
            return Ok(None);
        };
        if let Some(j) = &jtoo
            && let Err(e) = validate_jtoo(j)
        {
            return self.fail(e);
        }
        Ok(Some(Frame::from_validated(jtoo, binary)))
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<Frame>, FrameError> {
        match self.decode(buf)? {
            Some(frame) => Ok(Some(frame)),
            None => self.check_eof(buf).map(|()| None),
        }
    }
}

impl FrameCodec {
    /// The total length of a frame with these section lengths, once they
    /// are within the limits (the check before encoding).
    pub(crate) fn check_lengths(&self, jlen: usize, blen: usize) -> Result<usize, FrameError> {
        check_len(Section::Jtoo, jlen, self.max_jtoo_len)?;
        check_len(Section::Binary, blen, self.max_binary_len)?;
        let total = jlen.saturating_add(blen).saturating_add(FRAME_OVERHEAD);
        check_len(Section::Frame, total, self.max_frame_len)?;
        Ok(total)
    }
}

impl Encoder<Frame> for FrameCodec {
    type Error = FrameError;

    /// Writes the frame.
    ///
    /// # Errors
    /// [`FrameError::TooLong`] when a section is over the configured maximum
    /// (nothing is written then).
    fn encode(&mut self, frame: Frame, dst: &mut BytesMut) -> Result<(), FrameError> {
        let total = self.check_lengths(frame.jtoo_len(), frame.binary().len())?;
        dst.reserve(total);
        write_frame(&frame, dst);
        Ok(())
    }
}
