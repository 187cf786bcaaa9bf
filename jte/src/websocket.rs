//! JTE over WebSocket (cargo feature `websocket`): one packet per message,
//! a JTOO frame in a binary message or a JSON packet in a text message.
//! Answers go back in the kind of message the request came in; this side's
//! own calls use binary messages (JTOO).

use crate::osc::Encoding;
use crate::transport::{DecodeInbound, Inbound, InvalidPacket, Limits, Parts};
use crate::{JteError, Packet, PacketCodec, Policy, Transport};
use bytes::BytesMut;
use futures::{Sink, StreamExt};
use jtoo_frame::{FRAME_OVERHEAD, FrameCodec};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::protocol::frame::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_util::codec::Encoder;

/// The Close frame to send once the connection closes, set by the reader
/// when it meets broken framing.
type Closing = Arc<Mutex<Option<CloseFrame>>>;

impl Transport {
    /// JTE over a WebSocket whose handshake is done (from
    /// `tokio_tungstenite::accept_async_with_config` or
    /// `client_async_with_config`, say).
    ///
    /// A binary message holds exactly one JTOO frame, a text message one
    /// JSON packet. The limits:
    ///
    /// - a message over the packet limit ([`Builder::max_packet_len`],
    ///   plus the frame's 16 bytes for binary messages) closes the
    ///   connection with Close code 1009 (message too big) and a reason;
    /// - a binary message that is not exactly one frame, a frame whose
    ///   JTOO section is not valid JTOO, or a text message that is not
    ///   UTF-8, closes it with code 1007 (invalid data) and a reason;
    /// - a message that is one frame or one JSON text but not a packet is
    ///   refused alone, as on the other transports: answered `ECINVALID`
    ///   when its `rpcid` can be read, dropped otherwise;
    /// - an outgoing packet over the limit is refused to its caller
    ///   (`ECTOOLARGE`) and the connection goes on.
    ///
    /// The WebSocket layer reads a whole message before jte sees it, and
    /// its limits can be set only at the handshake: do the handshake with
    /// [`Transport::accept_websocket`] or [`Transport::connect_websocket`],
    /// or build the stream with [`Transport::websocket_config`], so that
    /// it refuses longer messages and frames as they arrive (tungstenite's
    /// defaults buffer up to 64 MiB). Pings are answered by the WebSocket
    /// layer.
    ///
    /// [`Builder::max_packet_len`]: crate::Builder::max_packet_len
    pub fn websocket<S>(ws: WebSocketStream<S>) -> Transport
    where
        S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
    {
        Transport::new(move |limits: Limits| {
            let max = limits.max_packet_len;
            let codec = PacketCodec::with_frame_codec(
                FrameCodec::builder()
                    .max_jtoo_len(max)
                    .max_binary_len(0)
                    .new_codec(),
            );
            let closing = Closing::default();
            let (sink, stream) = ws.split();
            let mut reader = codec.clone();
            let close_with = Arc::clone(&closing);
            let inbound = stream.filter_map(move |message| {
                let item = match message {
                    Err(e) => {
                        if let Some(code) = close_code(&e) {
                            set_close(&close_with, code, &e.to_string());
                        }
                        Some(Err(io(e)))
                    }
                    Ok(message) => read(&mut reader, message, max, &close_with),
                };
                futures::future::ready(item)
            });
            let outbound = WsSink {
                sink,
                codec,
                max,
                closing,
                close_sent: false,
            };
            Parts {
                inbound: Box::pin(inbound),
                outbound: Box::pin(outbound),
                encoding: Encoding::Jtoo,
                policy: Policy::allow_all(),
            }
        })
    }

    /// Accepts a WebSocket connection on `stream` (the server's side of
    /// the handshake) with the limits of [`Transport::websocket_config`]
    /// for `max_packet_len`, and speaks JTE over it
    /// ([`Transport::websocket`]): the WebSocket layer refuses a message
    /// or a WebSocket frame longer than the largest packet's frame as it
    /// arrives, with Close code 1009, and buffers nothing longer.
    ///
    /// ```no_run
    /// # async fn serve(socket: tokio::net::TcpStream) -> Result<(), jte::JteError> {
    /// use jte::{DEFAULT_MAX_PACKET_LEN, Peer, Transport};
    /// let transport = Transport::accept_websocket(socket, DEFAULT_MAX_PACKET_LEN).await?;
    /// let peer = Peer::builder().start(transport);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// A failed handshake (an I/O error, or a request that is not a
    /// WebSocket upgrade).
    pub async fn accept_websocket<S>(
        stream: S,
        max_packet_len: usize,
    ) -> Result<Transport, JteError>
    where
        S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
    {
        let config = Transport::websocket_config(max_packet_len);
        let ws = tokio_tungstenite::accept_async_with_config(stream, Some(config))
            .await
            .map_err(io)?;
        Ok(Transport::websocket(ws))
    }

    /// Opens a WebSocket connection on `stream` (the client's side of the
    /// handshake, to `request`: a URL such as `ws://host/jte`, or an HTTP
    /// request) with the limits of [`Transport::websocket_config`] for
    /// `max_packet_len`, and speaks JTE over it, as
    /// [`Transport::accept_websocket`] does.
    ///
    /// ```no_run
    /// # async fn call() -> Result<(), Box<dyn std::error::Error>> {
    /// use jte::{DEFAULT_MAX_PACKET_LEN, Peer, Transport};
    /// let socket = tokio::net::TcpStream::connect("127.0.0.1:9000").await?;
    /// let transport =
    ///     Transport::connect_websocket("ws://127.0.0.1:9000/jte", socket, DEFAULT_MAX_PACKET_LEN)
    ///         .await?;
    /// let sum: i64 = Peer::builder().start(transport).call("math:add", &(1, 2)).await?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// A failed handshake (an I/O error, or a refused upgrade).
    pub async fn connect_websocket<S, R>(
        request: R,
        stream: S,
        max_packet_len: usize,
    ) -> Result<Transport, JteError>
    where
        S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
        R: tungstenite::client::IntoClientRequest + Unpin,
    {
        let config = Transport::websocket_config(max_packet_len);
        let (ws, _) = tokio_tungstenite::client_async_with_config(request, stream, Some(config))
            .await
            .map_err(io)?;
        Ok(Transport::websocket(ws))
    }

    /// The WebSocket settings that match a packet limit (`max_packet_len`,
    /// as given to [`Builder::max_packet_len`]; the default is
    /// [`DEFAULT_MAX_PACKET_LEN`](crate::DEFAULT_MAX_PACKET_LEN)): the
    /// largest message and the largest WebSocket frame are the largest
    /// packet's frame, so that nothing longer is buffered.
    ///
    /// ```
    /// use jte::{DEFAULT_MAX_PACKET_LEN, Transport};
    /// let config = Transport::websocket_config(DEFAULT_MAX_PACKET_LEN);
    /// assert_eq!(config.max_message_size, Some(DEFAULT_MAX_PACKET_LEN + 16));
    /// assert_eq!(config.max_frame_size, Some(DEFAULT_MAX_PACKET_LEN + 16));
    /// // tokio_tungstenite::accept_async_with_config(socket, Some(config))
    /// ```
    ///
    /// [`Builder::max_packet_len`]: crate::Builder::max_packet_len
    pub fn websocket_config(max_packet_len: usize) -> WebSocketConfig {
        let max = max_packet_len.saturating_add(FRAME_OVERHEAD);
        WebSocketConfig::default()
            .max_message_size(Some(max))
            .max_frame_size(Some(max))
    }
}

fn io(e: tungstenite::Error) -> JteError {
    JteError::from(std::io::Error::other(e))
}

/// The Close code for an error of the WebSocket layer: `None` when the
/// connection is gone anyway.
fn close_code(e: &tungstenite::Error) -> Option<CloseCode> {
    match e {
        tungstenite::Error::Capacity(_) => Some(CloseCode::Size),
        tungstenite::Error::Utf8(_) => Some(CloseCode::Invalid),
        tungstenite::Error::Protocol(_) => Some(CloseCode::Protocol),
        _ => None,
    }
}

/// Records the Close frame to send (the first reason wins); the reason is
/// cut to what a Close frame holds (123 bytes).
fn set_close(closing: &Closing, code: CloseCode, why: &str) {
    let mut end = why.len().min(123);
    while !why.is_char_boundary(end) {
        end -= 1;
    }
    let reason = why.get(..end).unwrap_or_default();
    let mut slot = closing
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    slot.get_or_insert_with(|| CloseFrame {
        code,
        reason: reason.into(),
    });
}

/// The packet in one message; `None` for control messages. Broken framing
/// is an error (and sets the Close frame); a packet refused alone is
/// [`Inbound::Invalid`].
fn read(
    codec: &mut PacketCodec,
    message: Message,
    max: usize,
    closing: &Closing,
) -> Option<Result<Inbound, JteError>> {
    let broken = |code: CloseCode, e: JteError| {
        set_close(closing, code, &e.to_string());
        Some(Err(e))
    };
    let too_long = |length: usize| JteError::TooLong { length, max };
    match message {
        Message::Binary(bytes) => {
            if bytes.len() > max.saturating_add(FRAME_OVERHEAD) {
                return broken(CloseCode::Size, too_long(bytes.len()));
            }
            let mut buf = BytesMut::from(&bytes[..]);
            match codec.decode_inbound_eof(&mut buf) {
                Ok(Some(read)) if buf.is_empty() => Some(Ok(match read {
                    Ok(p) => Inbound::Packet(p, Encoding::Jtoo),
                    Err(invalid) => Inbound::Invalid(invalid),
                })),
                Ok(_) => broken(CloseCode::Invalid, JteError::NotARecord),
                Err(e) => broken(CloseCode::Invalid, e),
            }
        }
        Message::Text(text) => {
            if text.len() > max {
                return broken(CloseCode::Size, too_long(text.len()));
            }
            let json = text.as_bytes();
            Some(Ok(match Packet::from_json_slice(json) {
                Ok(p) => Inbound::Packet(p, Encoding::Json),
                Err(e) => Inbound::Invalid(InvalidPacket::read(e, json, Encoding::Json)),
            }))
        }
        Message::Ping(_) | Message::Pong(_) | Message::Close(_) | Message::Frame(_) => None,
    }
}

/// The writing half: each packet is encoded in its own `start_send`, so a
/// packet that cannot be sent (too large) fails alone and the sink stays
/// usable; closing sends the Close frame the reader chose.
struct WsSink<S> {
    sink: futures::stream::SplitSink<WebSocketStream<S>, Message>,
    codec: PacketCodec,
    max: usize,
    closing: Closing,
    close_sent: bool,
}

impl<S> WsSink<S> {
    /// One packet as one message.
    fn message(&mut self, packet: Packet, encoding: Encoding) -> Result<Message, JteError> {
        match encoding {
            Encoding::Jtoo => {
                let mut buf = BytesMut::new();
                self.codec.encode(packet, &mut buf)?;
                Ok(Message::Binary(buf.freeze()))
            }
            Encoding::Json => {
                let json = packet.to_json_vec()?;
                if json.len() > self.max {
                    return Err(JteError::TooLong {
                        length: json.len(),
                        max: self.max,
                    });
                }
                let text = String::from_utf8(json).map_err(|_| JteError::NotARecord)?;
                Ok(Message::Text(text.into()))
            }
        }
    }
}

impl<S> Sink<(Packet, Encoding)> for WsSink<S>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    type Error = JteError;

    fn poll_ready(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), JteError>> {
        Pin::new(&mut self.sink).poll_ready(cx).map_err(io)
    }

    fn start_send(
        mut self: Pin<&mut Self>,
        (packet, encoding): (Packet, Encoding),
    ) -> Result<(), JteError> {
        let message = self.message(packet, encoding)?;
        Pin::new(&mut self.sink).start_send(message).map_err(io)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), JteError>> {
        Pin::new(&mut self.sink).poll_flush(cx).map_err(io)
    }

    fn poll_close(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), JteError>> {
        if !self.close_sent {
            let lock = |c: &Closing| {
                c.lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .is_some()
            };
            if lock(&self.closing) {
                ready!(Pin::new(&mut self.sink).poll_ready(cx)).map_err(io)?;
                let frame = self
                    .closing
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .take();
                self.close_sent = true;
                Pin::new(&mut self.sink)
                    .start_send(Message::Close(frame))
                    .map_err(io)?;
            }
            self.close_sent = true;
        }
        Pin::new(&mut self.sink).poll_close(cx).map_err(io)
    }
}
