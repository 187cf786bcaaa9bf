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
use bytes::{Buf, Bytes, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

const HEADER_LEN: usize = 14;

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
        }
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

    /// Reads and checks the header at the start of `buf`, which may be
    /// incomplete. Returns the two lengths once all 14 bytes are there.
    fn header(&self, buf: &[u8]) -> Result<Option<(usize, usize)>, FrameError> {
        let head = buf.get(..HEADER_LEN).unwrap_or(buf);
        let mut jlen = 0usize;
        let mut blen = 0usize;
        for (i, &b) in head.iter().enumerate() {
            match i {
                6 | 13 if b == b' ' => {}
                6 => {
                    return Err(FrameError::MalformedHeader(
                        "expected a space after the JTOO length",
                    ));
                }
                13 => {
                    return Err(FrameError::MalformedHeader(
                        "expected a space after the binary length",
                    ));
                }
                _ => {
                    let d = match hex_digit(b) {
                        Some(d) => d,
                        None if b.is_ascii_hexdigit() => {
                            return Err(FrameError::MalformedHeader(
                                "length digits must be lower-case hex",
                            ));
                        }
                        None => {
                            return Err(FrameError::MalformedHeader(
                                "expected six lower-case hex digits",
                            ));
                        }
                    };
                    if i < 6 {
                        jlen = (jlen << 4) | d;
                    } else {
                        blen = (blen << 4) | d;
                    }
                }
            }
        }
        if head.len() < HEADER_LEN {
            return Ok(None);
        }
        Ok(Some((jlen, blen)))
    }
}

/// The value of each byte as a lower-case hex digit; `0xff` for the others.
const HEX_VALUE: [u8; 256] = {
    let mut t = [0xff; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};

/// Six lower-case hex digits, or `None`.
#[inline]
fn hex6(digits: &[u8]) -> Option<usize> {
    let mut n = 0usize;
    let mut bad = 0u8;
    for &b in digits {
        let d = HEX_VALUE[usize::from(b)];
        bad |= d;
        n = (n << 4) | usize::from(d & 0xf);
    }
    (bad < 0x10 && digits.len() == 6).then_some(n)
}

/// The two lengths of a complete, well-formed header at the start of `buf`;
/// `None` when it is incomplete or malformed ([`FrameCodec::header`] then
/// says which).
#[inline]
fn whole_header(buf: &[u8]) -> Option<(usize, usize)> {
    let head = buf.get(..HEADER_LEN)?;
    if head.get(6) != Some(&b' ') || head.get(13) != Some(&b' ') {
        return None;
    }
    Some((hex6(head.get(..6)?)?, hex6(head.get(7..13)?)?))
}

#[inline]
fn hex_digit(b: u8) -> Option<usize> {
    match b {
        b'0'..=b'9' => Some(usize::from(b - b'0')),
        b'a'..=b'f' => Some(usize::from(b - b'a' + 10)),
        _ => None,
    }
}

impl FrameCodec {
    /// Checks the next frame in `buf` as far as it has arrived, without
    /// consuming anything; returns its two section lengths once all of it
    /// is there. Every check but the JTOO section's validity is done here.
    #[inline]
    fn next_frame(&mut self, buf: &mut BytesMut) -> Result<Option<(usize, usize)>, FrameError> {
        let (jlen, blen) = match self.state {
            State::Failed => return Err(FrameError::Unusable),
            State::Body { jlen, blen } => (jlen, blen),
            State::Header => {
                let (jlen, blen) = match whole_header(buf) {
                    Some(lens) => lens,
                    None => match self.header(buf) {
                        Ok(Some(lens)) => lens,
                        Ok(None) => return Ok(None),
                        Err(e) => return self.fail(e),
                    },
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
                if let Some(missing) = total.checked_sub(buf.len()) {
                    buf.reserve(missing);
                }
                (jlen, blen)
            }
        };
        let sep = HEADER_LEN + jlen;
        let total = sep + 1 + blen + 1;
        if let Some(&b) = buf.get(sep) {
            if b != b' ' {
                return self.fail(FrameError::MalformedFrame(
                    "expected a space after the JTOO section",
                ));
            }
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

impl Decoder for FrameCodec {
    type Item = Frame;
    type Error = FrameError;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<Frame>, FrameError> {
        let Some((jlen, blen)) = self.next_frame(buf)? else {
            return Ok(None);
        };
        buf.advance(HEADER_LEN);
        let jtoo = if jlen > 0 {
            Some(buf.split_to(jlen).freeze())
        } else {
            None
        };
        buf.advance(1);
        let binary = if blen > 0 {
            buf.split_to(blen).freeze()
        } else {
            Bytes::new()
        };
        buf.advance(1);
        self.state = State::Header;
        if let Some(j) = &jtoo {
            if let Err(e) = validate_jtoo(j) {
                return self.fail(e);
            }
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
    fn check_encode(&self, frame: &Frame) -> Result<usize, FrameError> {
        check_len(Section::Jtoo, frame.jtoo_len(), self.max_jtoo_len)?;
        check_len(Section::Binary, frame.binary().len(), self.max_binary_len)?;
        let total = frame.encoded_len();
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
        let total = self.check_encode(&frame)?;
        dst.reserve(total);
        write_frame(&frame, dst);
        Ok(())
    }
}
