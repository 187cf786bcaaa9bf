//! The terminal transport: JTE packets in OSC sequences.
//!
//! ```text
//! ESC ] 23198 ; <num-bytes> ; <payload> BEL     program → terminal
//! ESC ] 23199 ; <num-bytes> ; <payload> BEL     terminal → program
//! ```
//!
//! `num-bytes` is the payload length in decimal, or `0` for "read to BEL".
//! The payload is a JSON object (first byte `{`) or a JTOO list of pairs
//! (first byte `[`); neither can contain a raw BEL or ESC, since both
//! formats escape control characters.
//!
//! [`OscScanner`] is a tokio-util [`Decoder`] over a terminal byte stream:
//! it yields every other byte unchanged as [`TermEvent::Output`] and every
//! JTE sequence as [`TermEvent::Packet`] (or [`TermEvent::Invalid`] when its
//! payload is not a packet). Memory is bounded by the payload limit.
//!
//! ```
//! use bytes::BytesMut;
//! use jte::{Packet, osc::{self, Encoding, Osc, OscScanner, TermEvent}};
//! use tokio_util::codec::Decoder;
//!
//! let p = Packet::command("term:resetstyle");
//! let seq = osc::encode(&p, Osc::ToTerminal, Encoding::Jtoo).unwrap();
//! assert_eq!(seq, b"\x1b]23198;29;[\"command\":\"term:resetstyle\"]\x07");
//!
//! let mut buf = BytesMut::from(&b"\x1b[31mred\x1b[0m"[..]);
//! buf.extend_from_slice(&seq);
//! buf.extend_from_slice(b"\x1b]23198;0;{\"command\":\"term:bell\"}\x07done");
//! let mut scanner = OscScanner::new();
//! let mut events = Vec::new();
//! while let Some(e) = scanner.decode_eof(&mut buf).unwrap() {
//!     events.push(e);
//! }
//! let packets: Vec<_> = events.iter().filter_map(|e| match e {
//!     TermEvent::Packet { packet, encoding, .. } => Some((packet.command.clone(), *encoding)),
//!     _ => None,
//! }).collect();
//! assert_eq!(packets, [
//!     (Some("term:resetstyle".to_string()), Encoding::Jtoo),
//!     (Some("term:bell".to_string()), Encoding::Json),
//! ]);
//! let output: Vec<u8> = events.iter().filter_map(|e| match e {
//!     TermEvent::Output(b) => Some(&b[..]),
//!     _ => None,
//! }).flatten().copied().collect();
//! assert_eq!(output, b"\x1b[31mred\x1b[0mdone");
//! ```

use crate::{JteError, Packet};
use bytes::{Bytes, BytesMut};
use tokio_util::codec::Decoder;

const ESC: u8 = 0x1b;
const BEL: u8 = 0x07;
/// `ESC ] 2319` — the part shared by both OSC numbers.
const PREFIX: &[u8] = b"\x1b]2319";
/// The most digits of `num-bytes` considered (more is not a JTE sequence).
const MAX_DIGITS: usize = 10;

/// The default payload limit of [`OscScanner`]: 1 MiB.
pub const DEFAULT_MAX_PAYLOAD_LEN: usize = 1 << 20;

/// The OSC number: the direction of a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Osc {
    /// 23198: from a program to the terminal.
    ToTerminal,
    /// 23199: from the terminal to a program.
    FromTerminal,
}

impl Osc {
    /// The number, 23198 or 23199.
    pub fn number(self) -> u32 {
        match self {
            Osc::ToTerminal => 23198,
            Osc::FromTerminal => 23199,
        }
    }
}

/// The encoding of a payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// A JSON object (`{…}`).
    Json,
    /// A JTOO list of pairs (`[…]`).
    Jtoo,
}

/// Encodes a packet as an OSC sequence with its exact `num-bytes`.
///
/// # Errors
/// When `data` holds a value that cannot be encoded.
pub fn encode(packet: &Packet, osc: Osc, encoding: Encoding) -> Result<Vec<u8>, JteError> {
    let payload = match encoding {
        Encoding::Json => packet.to_json_vec()?,
        Encoding::Jtoo => packet.to_jtoo()?,
    };
    Ok(wrap(osc, &payload, true))
}

/// Wraps a payload in an OSC sequence; `declare_len: false` writes
/// `num-bytes` as `0` ("read to BEL").
///
/// ```
/// use jte::osc::{wrap, Osc};
/// assert_eq!(wrap(Osc::FromTerminal, b"[]", false), b"\x1b]23199;0;[]\x07");
/// ```
pub fn wrap(osc: Osc, payload: &[u8], declare_len: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + 20);
    out.extend_from_slice(PREFIX);
    out.push(match osc {
        Osc::ToTerminal => b'8',
        Osc::FromTerminal => b'9',
    });
    out.push(b';');
    let len = if declare_len { payload.len() } else { 0 };
    out.extend_from_slice(len.to_string().as_bytes());
    out.push(b';');
    out.extend_from_slice(payload);
    out.push(BEL);
    out
}

/// What the scanner found in the stream.
#[derive(Debug)]
pub enum TermEvent {
    /// Bytes that are not part of a JTE sequence, unchanged. Consecutive
    /// output may arrive split into several events.
    Output(Bytes),
    /// A JTE packet.
    Packet {
        /// Its OSC number.
        osc: Osc,
        /// Its payload's encoding.
        encoding: Encoding,
        /// The packet.
        packet: Packet,
    },
    /// A JTE sequence that could not be read. When its end is known (the
    /// payload was delimited but is not a packet), `raw` is the whole
    /// sequence; otherwise (`TooLong`, `LengthMismatch`, `Unterminated`)
    /// `raw` is what was skipped, and the bytes after it are scanned as
    /// ordinary output.
    Invalid {
        /// Its OSC number.
        osc: Osc,
        /// The bytes consumed.
        raw: Bytes,
        /// What was wrong.
        error: JteError,
    },
}

/// A streaming scanner of terminal output for JTE sequences (a tokio-util
/// [`Decoder`]); see the [module docs](self).
///
/// Any chunking of the input gives the same packets and the same output
/// bytes.
#[derive(Clone, Debug)]
pub struct OscScanner {
    max_payload_len: usize,
    /// For a `num-bytes` 0 sequence: payload bytes already searched for BEL.
    searched: usize,
}

impl Default for OscScanner {
    fn default() -> OscScanner {
        OscScanner::new()
    }
}

enum Header {
    NeedMore,
    NotJte,
    Jte {
        osc: Osc,
        declared: usize,
        len: usize,
    },
}

impl OscScanner {
    /// A scanner with the default payload limit ([`DEFAULT_MAX_PAYLOAD_LEN`]).
    pub fn new() -> OscScanner {
        OscScanner {
            max_payload_len: DEFAULT_MAX_PAYLOAD_LEN,
            searched: 0,
        }
    }

    /// Sets the largest payload accepted.
    #[must_use]
    pub fn with_max_payload_len(mut self, max: usize) -> OscScanner {
        self.max_payload_len = max;
        self
    }

    /// Reads the sequence header at the start of `buf` (which starts with
    /// ESC).
    fn header(buf: &[u8]) -> Header {
        let n = buf.len().min(PREFIX.len());
        if buf.get(..n) != PREFIX.get(..n) {
            return Header::NotJte;
        }
        let osc = match buf.get(PREFIX.len()) {
            None => return Header::NeedMore,
            Some(b'8') => Osc::ToTerminal,
            Some(b'9') => Osc::FromTerminal,
            Some(_) => return Header::NotJte,
        };
        match buf.get(PREFIX.len() + 1) {
            None => return Header::NeedMore,
            Some(b';') => {}
            Some(_) => return Header::NotJte,
        }
        let digits_at = PREFIX.len() + 2;
        let mut declared = 0usize;
        for i in 0..=MAX_DIGITS {
            match buf.get(digits_at + i) {
                None => return Header::NeedMore,
                Some(b';') if i > 0 => {
                    return Header::Jte {
                        osc,
                        declared,
                        len: digits_at + i + 1,
                    };
                }
                Some(d @ b'0'..=b'9') if i < MAX_DIGITS => {
                    declared = declared
                        .saturating_mul(10)
                        .saturating_add(usize::from(d - b'0'));
                }
                Some(_) => return Header::NotJte,
            }
        }
        Header::NotJte
    }

    fn output_from_escape(buf: &mut BytesMut) -> TermEvent {
        // The ESC and everything up to the next ESC.
        let end = buf
            .get(1..)
            .and_then(|rest| memchr::memchr(ESC, rest))
            .map_or(buf.len(), |i| i + 1);
        TermEvent::Output(buf.split_to(end).freeze())
    }

    fn invalid(
        &mut self,
        buf: &mut BytesMut,
        osc: Osc,
        consume: usize,
        error: JteError,
    ) -> TermEvent {
        self.searched = 0;
        TermEvent::Invalid {
            osc,
            raw: buf.split_to(consume.min(buf.len())).freeze(),
            error,
        }
    }

    fn payload_event(
        &mut self,
        buf: &mut BytesMut,
        osc: Osc,
        header: usize,
        payload_len: usize,
    ) -> TermEvent {
        self.searched = 0;
        let raw = buf
            .split_to((header + payload_len + 1).min(buf.len()))
            .freeze();
        let payload = raw.get(header..header + payload_len).unwrap_or_default();
        let (encoding, result) = match payload.first() {
            Some(b'{') => (Encoding::Json, Packet::from_json_slice(payload)),
            Some(b'[') => (Encoding::Jtoo, Packet::from_jtoo(payload)),
            _ => (Encoding::Json, Err(JteError::UnknownPayload)),
        };
        match result {
            Ok(packet) => TermEvent::Packet {
                osc,
                encoding,
                packet,
            },
            Err(error) => TermEvent::Invalid { osc, raw, error },
        }
    }
}

impl Decoder for OscScanner {
    type Item = TermEvent;
    type Error = std::io::Error;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<TermEvent>, std::io::Error> {
        match memchr::memchr(ESC, buf) {
            None if buf.is_empty() => return Ok(None),
            None => return Ok(Some(TermEvent::Output(buf.split().freeze()))),
            Some(0) => {}
            Some(i) => return Ok(Some(TermEvent::Output(buf.split_to(i).freeze()))),
        }
        let (osc, declared, header) = match OscScanner::header(buf) {
            Header::NeedMore => return Ok(None),
            Header::NotJte => return Ok(Some(OscScanner::output_from_escape(buf))),
            Header::Jte { osc, declared, len } => (osc, declared, len),
        };
        let max = self.max_payload_len;
        if declared > max {
            let e = JteError::TooLong {
                length: declared,
                max,
            };
            return Ok(Some(self.invalid(buf, osc, header, e)));
        }
        if declared > 0 {
            let total = header + declared + 1;
            match buf.get(total - 1) {
                None => {
                    buf.reserve(total - buf.len());
                    return Ok(None);
                }
                Some(&BEL) => {}
                Some(_) => {
                    return Ok(Some(self.invalid(
                        buf,
                        osc,
                        header,
                        JteError::LengthMismatch,
                    )));
                }
            }
            return Ok(Some(self.payload_event(buf, osc, header, declared)));
        }
        // `0`: read to BEL.
        let from = header + self.searched;
        let found = buf
            .get(from..)
            .and_then(|rest| memchr::memchr2(BEL, ESC, rest))
            .map(|i| from + i);
        match found {
            Some(at) if buf.get(at) == Some(&BEL) && at - header <= max => {
                Ok(Some(self.payload_event(buf, osc, header, at - header)))
            }
            Some(at) if at - header > max => {
                let e = JteError::TooLong {
                    length: max.saturating_add(1),
                    max,
                };
                Ok(Some(self.invalid(buf, osc, header, e)))
            }
            Some(at) => Ok(Some(self.invalid(buf, osc, at, JteError::Unterminated))),
            None if buf.len() - header > max => {
                let e = JteError::TooLong {
                    length: max.saturating_add(1),
                    max,
                };
                Ok(Some(self.invalid(buf, osc, header, e)))
            }
            None => {
                self.searched = buf.len() - header;
                Ok(None)
            }
        }
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<TermEvent>, std::io::Error> {
        match self.decode(buf)? {
            Some(e) => Ok(Some(e)),
            None if buf.is_empty() => Ok(None),
            // An unfinished sequence at the end passes through untouched.
            None => {
                self.searched = 0;
                Ok(Some(TermEvent::Output(buf.split().freeze())))
            }
        }
    }
}
