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
use futures::{Sink, Stream};
use jtoo_frame::server::{ReadBuffer, shrink_emptied};
use jtoo_frame::{FrameCodec, Greeting, Handshake, HandshakeError};
use std::pin::Pin;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite};
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
    /// A packet that arrived whole (a JSON line, a frame, a WebSocket
    /// message, a complete OSC sequence) but could not be read. The peer
    /// answers it `ECINVALID` when its `rpcid` could be read, and counts it
    /// in [`Stats::invalid_packets`](crate::Stats::invalid_packets); the
    /// connection goes on. A transport that cannot go on (broken framing)
    /// yields `Err` instead, which closes the connection.
    Invalid(InvalidPacket),
}

/// A packet that arrived whole but was refused: why, and its ids where
/// they could still be read (a string `rpcid` or `resid` given once in a
/// payload that is valid JSON or JTOO).
///
/// ```
/// use jte::{InvalidPacket, osc::Encoding};
/// let bad = br#"{"command":"echo","rpcid":"n","data":[1,null]}"#;
/// let error = jte::Packet::from_json_slice(bad).unwrap_err();
/// let p = InvalidPacket::read(error, bad, Encoding::Json);
/// assert_eq!(p.rpcid.as_deref(), Some("n"));
/// assert!(p.to_string().contains("null"));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub struct InvalidPacket {
    /// Why it was refused.
    pub error: JteError,
    /// Its `rpcid`, when readable: the peer answers `ECINVALID` to it.
    pub rpcid: Option<String>,
    /// Its `resid`, when readable: the call it answers fails `ECINVALID`.
    pub resid: Option<String>,
    /// The encoding of the payload (answers go out in it).
    pub encoding: Encoding,
}

impl InvalidPacket {
    /// A refused packet whose ids are unknown.
    pub fn new(error: JteError, encoding: Encoding) -> InvalidPacket {
        InvalidPacket {
            error,
            rpcid: None,
            resid: None,
            encoding,
        }
    }

    /// A refused packet, with its ids read from `payload` (a JSON text or
    /// a JTOO document, per `encoding`) where they can be.
    pub fn read(error: JteError, payload: &[u8], encoding: Encoding) -> InvalidPacket {
        let (rpcid, resid) = crate::packet::readable_ids(payload, encoding == Encoding::Json);
        InvalidPacket {
            error,
            rpcid,
            resid,
            encoding,
        }
    }
}

impl std::fmt::Display for InvalidPacket {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "refused packet: {}", self.error)?;
        if let Some(id) = &self.rpcid {
            write!(f, " (rpcid {id:?})")?;
        } else if let Some(id) = &self.resid {
            write!(f, " (resid {id:?})")?;
        }
        Ok(())
    }
}

/// A decoder that tells a packet refused on its own (the stream goes on)
/// from broken framing (`Err`: the stream is unusable).
pub(crate) trait DecodeInbound {
    /// The next packet, or the refusal of one; `Ok(None)` when more bytes
    /// are needed.
    fn decode_inbound(
        &mut self,
        buf: &mut BytesMut,
    ) -> Result<Option<Result<Packet, InvalidPacket>>, JteError>;

    /// As [`DecodeInbound::decode_inbound`] at the end of the stream.
    fn decode_inbound_eof(
        &mut self,
        buf: &mut BytesMut,
    ) -> Result<Option<Result<Packet, InvalidPacket>>, JteError>;
}

/// A packet codec whose decoder yields [`Inbound`] items, so that a
/// refused packet does not end the stream, and keeps the read buffer to
/// the [`ReadBuffer`] rules: it grows in exact steps up to the packet
/// limit, and a buffer grown for a long packet is given back after it.
struct Lenient<C> {
    codec: C,
    encoding: Encoding,
    buffer: ReadBuffer,
}

impl<C> Lenient<C> {
    fn new(codec: C, encoding: Encoding, limits: Limits) -> Lenient<C> {
        Lenient {
            codec,
            encoding,
            // A packet with its framing: a frame's header and terminators,
            // a line's `\r\n`.
            buffer: ReadBuffer::new(limits.max_packet_len.saturating_add(FRAMING_ROOM)),
        }
    }
}

/// Room for a packet's framing around its bytes (a frame's header and
/// terminators, a line's end), in the read buffer's limit.
const FRAMING_ROOM: usize = 64;

impl<C: DecodeInbound> Decoder for Lenient<C> {
    type Item = Inbound;
    type Error = JteError;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<Inbound>, JteError> {
        match self.codec.decode_inbound(buf)? {
            Some(read) => {
                self.buffer.frame_taken(buf);
                Ok(Some(self.inbound(read)))
            }
            None => {
                // Before the reader's next read (its own `reserve` would
                // double the buffer).
                self.buffer.make_room(buf);
                Ok(None)
            }
        }
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<Inbound>, JteError> {
        Ok(self.codec.decode_inbound_eof(buf)?.map(|r| self.inbound(r)))
    }
}

impl<C> Lenient<C> {
    fn inbound(&self, read: Result<Packet, InvalidPacket>) -> Inbound {
        match read {
            Ok(p) => Inbound::Packet(p, self.encoding),
            Err(invalid) => Inbound::Invalid(invalid),
        }
    }
}

impl<C: Encoder<Packet, Error = JteError>> Encoder<Packet> for Lenient<C> {
    type Error = JteError;

    fn encode(&mut self, packet: Packet, dst: &mut BytesMut) -> Result<(), JteError> {
        self.codec.encode(packet, dst)
    }
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
            let parts = framed.into_parts();
            let codec = PacketCodec::with_frame_codec(codec);
            let (reader, writer) = tokio::io::split(parts.io);
            // What the handshake read past the greeting stays first.
            let buffered = [&parts.read_buf[..], &parts.write_buf[..]];
            halves(reader, writer, codec, Encoding::Jtoo, buffered, limits)
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
    /// lines are skipped; a line over the packet limit closes the
    /// connection, a line that is not a packet is refused alone (see
    /// [`Inbound::Invalid`]).
    pub fn json_lines<T>(io: T) -> Transport
    where
        T: AsyncRead + AsyncWrite + Send + 'static,
    {
        Transport::new(move |limits| {
            let codec = JsonLinesCodec::new(limits.max_packet_len);
            let (reader, writer) = tokio::io::split(io);
            halves(reader, writer, codec, Encoding::Json, [&[], &[]], limits)
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
            let lenient = Lenient::new(codec.clone(), Encoding::Json, limits);
            let inbound = FramedRead::new(reader, lenient);
            let outbound = Outbound(FramedWrite::new(Box::pin(writer), codec));
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
        let framed = Handshake::new()
            .client(Duplex { reader, writer }, &Greeting::new(PROTOCOL))
            .await?;
        Ok(Transport::frames_split(framed))
    }

    /// [`Transport::frames`] on a reader and a writer that are separate
    /// already.
    fn frames_split<R, W>(framed: Framed<Duplex<R, W>, FrameCodec>) -> Transport
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        Transport::new(move |limits| {
            let codec = FrameCodec::builder()
                .max_jtoo_len(limits.max_packet_len)
                .max_binary_len(0)
                .new_codec();
            let parts = framed.into_parts();
            let codec = PacketCodec::with_frame_codec(codec);
            let Duplex { reader, writer } = parts.io;
            let buffered = [&parts.read_buf[..], &parts.write_buf[..]];
            halves(reader, writer, codec, Encoding::Jtoo, buffered, limits)
        })
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
        let (framed, greeting) = Handshake::new()
            .server(Duplex { reader, writer }, &[PROTOCOL])
            .await?;
        Ok((Transport::frames_split(framed), greeting))
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

/// A connection's two halves, each with its own copy of the packet codec;
/// `buffered` is what was read already and what waits to be written.
fn halves<R, W, C>(
    reader: R,
    writer: W,
    codec: C,
    encoding: Encoding,
    buffered: [&[u8]; 2],
    limits: Limits,
) -> Parts
where
    R: AsyncRead + Send + 'static,
    W: AsyncWrite + Send + 'static,
    C: DecodeInbound + Encoder<Packet, Error = JteError> + Clone + Send + Unpin + 'static,
{
    // The bytes read already come first (in the read buffer they would
    // wait for the next read to be decoded).
    let reader = std::io::Cursor::new(buffered[0].to_vec()).chain(reader);
    let inbound = FramedRead::new(reader, Lenient::new(codec.clone(), encoding, limits));
    let mut outbound = FramedWrite::new(Box::pin(writer), codec);
    outbound.write_buffer_mut().extend_from_slice(buffered[1]);
    let outbound = Outbound(outbound);
    parts(Box::pin(inbound), Box::pin(outbound), encoding)
}

/// A sink of packets as a sink of `(packet, encoding)`, the encoding
/// ignored. Each packet goes to the inner sink in its own `start_send`, so
/// an error encoding it (too large) is that packet's, never a later one's.
/// A write buffer grown for a long packet is given back once it is
/// written out ([`shrink_emptied`]).
struct Outbound<W, C>(FramedWrite<Pin<Box<W>>, C>);

impl<W, C> Sink<(Packet, Encoding)> for Outbound<W, C>
where
    W: AsyncWrite,
    C: Encoder<Packet, Error = JteError> + Unpin,
{
    type Error = JteError;

    fn poll_ready(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), JteError>> {
        Pin::new(&mut self.0).poll_ready(cx)
    }

    fn start_send(mut self: Pin<&mut Self>, item: (Packet, Encoding)) -> Result<(), JteError> {
        Pin::new(&mut self.0).start_send(item.0)
    }

    fn poll_flush(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), JteError>> {
        std::task::ready!(Pin::new(&mut self.0).poll_flush(cx))?;
        shrink_emptied(self.0.write_buffer_mut());
        std::task::Poll::Ready(Ok(()))
    }

    fn poll_close(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), JteError>> {
        Pin::new(&mut self.0).poll_close(cx)
    }
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

    /// The next line's packet. A line that is not a packet is an error
    /// after which decoding may go on (the line is consumed); a line over
    /// the limit leaves the stream unusable.
    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<Packet>, JteError> {
        self.decode_inbound(buf)?
            .transpose()
            .map_err(|invalid| invalid.error)
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<Packet>, JteError> {
        self.decode_inbound_eof(buf)?
            .transpose()
            .map_err(|invalid| invalid.error)
    }
}

/// A line's packet, or its refusal with its ids.
fn json_line(text: &[u8]) -> Result<Packet, InvalidPacket> {
    Packet::from_json_slice(text).map_err(|e| InvalidPacket::read(e, text, Encoding::Json))
}

impl DecodeInbound for JsonLinesCodec {
    fn decode_inbound(
        &mut self,
        buf: &mut BytesMut,
    ) -> Result<Option<Result<Packet, InvalidPacket>>, JteError> {
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
            return Ok(Some(json_line(text)));
        }
    }

    fn decode_inbound_eof(
        &mut self,
        buf: &mut BytesMut,
    ) -> Result<Option<Result<Packet, InvalidPacket>>, JteError> {
        match self.decode_inbound(buf)? {
            Some(p) => Ok(Some(p)),
            None if buf.iter().all(u8::is_ascii_whitespace) => {
                buf.clear();
                Ok(None)
            }
            // A last line without its `\n`.
            None => {
                let line = buf.split();
                self.searched = 0;
                Ok(Some(json_line(&line)))
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

#[cfg(test)]
mod tests {
    use super::*;
    use futures::SinkExt;

    /// A write buffer grown for a long answer is given back once it is
    /// written out (before: each connection that once sent a 256 KiB
    /// answer kept a 256 KiB buffer).
    #[tokio::test]
    async fn a_long_packet_s_write_buffer_is_given_back() {
        let (x, mut y) = tokio::io::duplex(1 << 16);
        let reading = tokio::spawn(async move {
            let mut all = Vec::new();
            y.read_to_end(&mut all).await.map(|_| all.len())
        });
        let mut out = Outbound(FramedWrite::new(
            Box::pin(x),
            JsonLinesCodec::new(DEFAULT_MAX_PACKET_LEN),
        ));
        let long = format!("{{\"resid\":\"1\",\"data\":\"{}\"}}", "w".repeat(300_000));
        let packet = Packet::from_json_slice(long.as_bytes()).unwrap();
        out.send((packet, Encoding::Json)).await.unwrap();
        assert!(out.0.write_buffer().capacity() <= 8 * 1024);
        // A short one after it: the buffer stays small.
        out.send((Packet::response("2"), Encoding::Json))
            .await
            .unwrap();
        assert!(out.0.write_buffer().capacity() <= 8 * 1024);
        out.close().await.unwrap();
        assert_eq!(reading.await.unwrap().unwrap(), long.len() + 1 + 14);
    }
}
