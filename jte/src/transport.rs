//! [`Transport`]: how a [`Peer`](crate::Peer) reads and writes packets.
//!
//! Every transport is a stream of incoming packets and a sink of outgoing
//! ones, built when the peer starts so that the peer's limits (the largest
//! packet) apply to its decoder. The same peer code runs on all of them:
//!
//! | transport | constructor | bytes on the wire |
//! |---|---|---|
//! | JTOO frames | [`Transport::frames`], [`Transport::connect`], [`Transport::accept`] | the greeting `["protocol":"jte/1"]`, then one packet per frame |
//! | JSON lines | [`Transport::json_lines`] | one JSON packet per line |
//! | terminal escapes | [`terminal::program`](crate::terminal::program), [`terminal::terminal`](crate::terminal::terminal) | OSC 23198/23199 sequences among ordinary output |
//! | WebSocket (feature `websocket`) | `Transport::websocket` | one JTOO frame per binary message, one JSON packet per text message |
//! | your own | [`Transport::new`] | anything that gives and takes [`Packet`]s |

use crate::osc::Encoding;
use crate::{JteError, Packet, PacketCodec, Policy};
use bytes::{BufMut, BytesMut};
use futures::{Sink, SinkExt, Stream, StreamExt, TryStreamExt};
use jtoo_frame::{FrameCodec, Greeting, Handshake, HandshakeError};
use std::pin::Pin;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::codec::{Decoder, Encoder, Framed, FramedRead, FramedWrite};

/// The greeting protocol of JTE over JTOO frames.
pub const PROTOCOL: &str = "jte/1";

/// The default largest packet: 1 MiB.
pub const DEFAULT_MAX_PACKET_LEN: usize = 1 << 20;

/// What a transport yields.
#[derive(Debug)]
#[non_exhaustive]
pub enum Inbound {
    /// A packet, and the encoding it came in (answers go out in the same).
    Packet(Packet, Encoding),
    /// A packet that could not be read, on a transport that can skip it
    /// and go on (terminal escapes: the other bytes are still good). The
    /// peer counts it in [`Stats::invalid_packets`](crate::Stats::invalid_packets).
    /// A transport that cannot go on yields `Err` instead, which closes
    /// the connection.
    Invalid(JteError),
}

/// The stream half of a transport.
pub type InboundStream = Pin<Box<dyn Stream<Item = Result<Inbound, JteError>> + Send>>;
/// The sink half of a transport.
pub type OutboundSink = Pin<Box<dyn Sink<(Packet, Encoding), Error = JteError> + Send>>;

/// The two halves a transport gives the peer when it starts.
pub struct Parts {
    /// Incoming packets; the end of the stream is the end of the
    /// connection.
    pub inbound: InboundStream,
    /// Outgoing packets with the encoding to write them in (transports
    /// with one encoding ignore it).
    pub outbound: OutboundSink,
    /// The encoding of this side's own calls.
    pub encoding: Encoding,
    /// The policy used when the builder sets none.
    pub policy: Policy,
}

/// The settings a transport is built with.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Limits {
    /// The largest packet read or written, in bytes of its encoding.
    pub max_packet_len: usize,
}

type Build = Box<dyn FnOnce(Limits) -> Parts + Send>;

/// A way to carry packets, handed to [`Builder::start`](crate::Builder::start).
pub struct Transport {
    build: Build,
}

impl std::fmt::Debug for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Transport")
    }
}

impl Transport {
    /// A transport from a function that builds its parts once the limits
    /// are known (for transports of your own).
    pub fn new(build: impl FnOnce(Limits) -> Parts + Send + 'static) -> Transport {
        Transport {
            build: Box::new(build),
        }
    }

    pub(crate) fn build(self, limits: Limits) -> Parts {
        (self.build)(limits)
    }

    /// JTE over JTOO frames on a connection whose greeting handshake is
    /// done (see [`Transport::connect`] and [`Transport::accept`], which do
    /// it). Bytes already read past the greeting are kept.
    pub fn frames<T>(framed: Framed<T, FrameCodec>) -> Transport
    where
        T: AsyncRead + AsyncWrite + Send + Unpin + 'static,
    {
        Transport::new(move |limits| {
            let codec = FrameCodec::builder()
                .max_jtoo_len(limits.max_packet_len)
                .max_binary_len(0)
                .new_codec();
            let framed = framed.map_codec(|_| PacketCodec::with_frame_codec(codec));
            split(framed, Encoding::Jtoo)
        })
    }

    /// The client side over JTOO frames: sends the greeting
    /// `["protocol":"jte/1"]` on `io`.
    ///
    /// # Errors
    /// The greeting cannot be written in time.
    pub async fn connect<T>(io: T) -> Result<Transport, HandshakeError>
    where
        T: AsyncRead + AsyncWrite + Send + Unpin + 'static,
    {
        let framed = Handshake::new()
            .client(io, &Greeting::new(PROTOCOL))
            .await?;
        Ok(Transport::frames(framed))
    }

    /// The server side over JTOO frames: reads the client's greeting on
    /// `io` and accepts protocol `"jte/1"` (any other gets the 505 reply).
    ///
    /// # Errors
    /// Every way the handshake can fail.
    pub async fn accept<T>(io: T) -> Result<(Transport, Greeting), HandshakeError>
    where
        T: AsyncRead + AsyncWrite + Send + Unpin + 'static,
    {
        let (framed, greeting) = Handshake::new().server(io, &[PROTOCOL]).await?;
        Ok((Transport::frames(framed), greeting))
    }

    /// JTE as JSON lines: one JSON packet per `\n`-terminated line (JTE's
    /// "raw socket" form), so a JTOO peer talks to a JSON-only one. Blank
    /// lines are skipped; a line over the packet limit or one that is not
    /// a packet closes the connection.
    pub fn json_lines<T>(io: T) -> Transport
    where
        T: AsyncRead + AsyncWrite + Send + 'static,
    {
        Transport::new(move |limits| {
            let framed = Framed::new(io, JsonLinesCodec::new(limits.max_packet_len));
            split(framed, Encoding::Json)
        })
    }

    /// [`Transport::json_lines`] over separate read and write halves (a
    /// child process's stdout and stdin, say).
    pub fn json_lines_split<R, W>(reader: R, writer: W) -> Transport
    where
        R: AsyncRead + Send + 'static,
        W: AsyncWrite + Send + 'static,
    {
        Transport::new(move |limits| {
            let codec = JsonLinesCodec::new(limits.max_packet_len);
            let inbound = FramedRead::new(reader, codec.clone())
                .map_ok(|p| Inbound::Packet(p, Encoding::Json));
            let outbound = FramedWrite::new(writer, codec)
                .with(|(p, _): (Packet, Encoding)| futures::future::ready(Ok::<_, JteError>(p)));
            parts(Box::pin(inbound), Box::pin(outbound), Encoding::Json)
        })
    }

    /// The client side over JTOO frames on separate halves: writes the
    /// greeting to `writer` (a child's stdin), then reads packets from
    /// `reader` (its stdout).
    ///
    /// # Errors
    /// The greeting cannot be written in time.
    pub async fn connect_split<R, W>(reader: R, writer: W) -> Result<Transport, HandshakeError>
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        Transport::connect(Duplex { reader, writer }).await
    }

    /// The server side over JTOO frames on separate halves: reads the
    /// greeting from `reader` (this process's stdin, say) and accepts
    /// `"jte/1"`.
    ///
    /// # Errors
    /// Every way the handshake can fail.
    pub async fn accept_split<R, W>(
        reader: R,
        writer: W,
    ) -> Result<(Transport, Greeting), HandshakeError>
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        Transport::accept(Duplex { reader, writer }).await
    }
}

fn parts(inbound: InboundStream, outbound: OutboundSink, encoding: Encoding) -> Parts {
    Parts {
        inbound,
        outbound,
        encoding,
        policy: Policy::allow_all(),
    }
}

/// Splits a framed packet codec into the two halves.
fn split<T, C>(framed: Framed<T, C>, encoding: Encoding) -> Parts
where
    T: AsyncRead + AsyncWrite + Send + 'static,
    C: Decoder<Item = Packet, Error = JteError>
        + Encoder<Packet, Error = JteError>
        + Send
        + 'static,
{
    let (sink, stream) = framed.split();
    let inbound = stream.map_ok(move |p| Inbound::Packet(p, encoding));
    let outbound =
        sink.with(|(p, _): (Packet, Encoding)| futures::future::ready(Ok::<_, JteError>(p)));
    parts(Box::pin(inbound), Box::pin(outbound), encoding)
}

/// A reader and a writer as one `AsyncRead + AsyncWrite`, for the
/// handshake on split halves.
struct Duplex<R, W> {
    reader: R,
    writer: W,
}

impl<R: AsyncRead + Unpin, W: Unpin> AsyncRead for Duplex<R, W> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        Pin::new(&mut self.reader).poll_read(cx, buf)
    }
}

impl<R: Unpin, W: AsyncWrite + Unpin> AsyncWrite for Duplex<R, W> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        Pin::new(&mut self.writer).poll_write(cx, buf)
    }

    fn poll_flush(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        Pin::new(&mut self.writer).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        Pin::new(&mut self.writer).poll_shutdown(cx)
    }
}

/// JSON lines: a [`Decoder`] and [`Encoder`] of packets, one JSON object
/// per `\n`-terminated line, with a line length limit checked before the
/// line is buffered whole.
///
/// ```
/// use bytes::BytesMut;
/// use jte::{JsonLinesCodec, Packet};
/// use tokio_util::codec::{Decoder, Encoder};
/// let mut codec = JsonLinesCodec::new(1024);
/// let mut buf = BytesMut::new();
/// codec.encode(Packet::request("detect", "r1"), &mut buf).unwrap();
/// assert_eq!(&buf[..], b"{\"command\":\"detect\",\"rpcid\":\"r1\"}\n");
/// assert_eq!(codec.decode(&mut buf).unwrap(), Some(Packet::request("detect", "r1")));
/// ```
#[derive(Clone, Debug)]
pub struct JsonLinesCodec {
    max_len: usize,
    /// Bytes of the current line already searched for `\n`.
    searched: usize,
}

impl JsonLinesCodec {
    /// A codec refusing lines over `max_len` bytes (without the `\n`).
    pub fn new(max_len: usize) -> JsonLinesCodec {
        JsonLinesCodec {
            max_len,
            searched: 0,
        }
    }
}

impl Decoder for JsonLinesCodec {
    type Item = Packet;
    type Error = JteError;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<Packet>, JteError> {
        loop {
            let from = self.searched.min(buf.len());
            let Some(at) = buf.get(from..).and_then(|b| memchr::memchr(b'\n', b)) else {
                self.searched = buf.len();
                if buf.len() > self.max_len {
                    return Err(JteError::TooLong {
                        length: buf.len(),
                        max: self.max_len,
                    });
                }
                return Ok(None);
            };
            let end = from + at;
            self.searched = 0;
            if end > self.max_len {
                return Err(JteError::TooLong {
                    length: end,
                    max: self.max_len,
                });
            }
            let line = buf.split_to(end + 1);
            let text = line.get(..end).unwrap_or_default();
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            if text.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            return Packet::from_json_slice(text).map(Some);
        }
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<Packet>, JteError> {
        match self.decode(buf)? {
            Some(p) => Ok(Some(p)),
            None if buf.iter().all(u8::is_ascii_whitespace) => {
                buf.clear();
                Ok(None)
            }
            // A last line without its `\n`.
            None => {
                let line = buf.split();
                self.searched = 0;
                Packet::from_json_slice(&line).map(Some)
            }
        }
    }
}

impl Encoder<Packet> for JsonLinesCodec {
    type Error = JteError;

    fn encode(&mut self, packet: Packet, dst: &mut BytesMut) -> Result<(), JteError> {
        let json = packet.to_json_vec()?;
        if json.len() > self.max_len {
            return Err(JteError::TooLong {
                length: json.len(),
                max: self.max_len,
            });
        }
        dst.reserve(json.len() + 1);
        dst.put_slice(&json);
        dst.put_u8(b'\n');
        Ok(())
    }
}
