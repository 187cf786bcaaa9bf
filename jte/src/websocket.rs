//! JTE over WebSocket (cargo feature `websocket`): one packet per message,
//! a JTOO frame in a binary message or a JSON packet in a text message.
//! Answers go back in the kind of message the request came in; this side's
//! own calls use binary messages (JTOO).

use crate::osc::Encoding;
use crate::transport::{Inbound, Limits, Parts};
use crate::{JteError, Packet, PacketCodec, Policy, Transport};
use bytes::BytesMut;
use futures::{SinkExt, StreamExt};
use jtoo_frame::{FRAME_OVERHEAD, FrameCodec};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_util::codec::{Decoder, Encoder};

impl Transport {
    /// JTE over a WebSocket whose handshake is done (from
    /// `tokio_tungstenite::accept_async` or `client_async`, say). A binary
    /// message must hold exactly one JTOO frame, a text message one JSON
    /// packet; anything else, or a message over the packet limit, closes
    /// the connection. Pings are answered by the WebSocket layer.
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
            let (sink, stream) = ws.split();
            let mut reader = codec.clone();
            let inbound = stream.filter_map(move |message| {
                let item = match message {
                    Err(e) => Some(Err(io(e))),
                    Ok(message) => read(&mut reader, message, max),
                };
                futures::future::ready(item)
            });
            let mut writer = codec;
            let outbound =
                sink.sink_map_err(io)
                    .with(move |(packet, encoding): (Packet, Encoding)| {
                        futures::future::ready(write(&mut writer, packet, encoding, max))
                    });
            Parts {
                inbound: Box::pin(inbound),
                outbound: Box::pin(outbound),
                encoding: Encoding::Jtoo,
                policy: Policy::allow_all(),
            }
        })
    }
}

fn io(e: tokio_tungstenite::tungstenite::Error) -> JteError {
    JteError::from(std::io::Error::other(e))
}

/// The packet in one message; `None` for control messages.
fn read(
    codec: &mut PacketCodec,
    message: Message,
    max: usize,
) -> Option<Result<Inbound, JteError>> {
    let too_long = |length: usize| JteError::TooLong { length, max };
    match message {
        Message::Binary(bytes) => {
            if bytes.len() > max.saturating_add(FRAME_OVERHEAD) {
                return Some(Err(too_long(bytes.len())));
            }
            let mut buf = BytesMut::from(&bytes[..]);
            let packet = match codec.decode_eof(&mut buf) {
                Ok(Some(p)) if buf.is_empty() => Ok(Inbound::Packet(p, Encoding::Jtoo)),
                Ok(_) => Err(JteError::NotARecord),
                Err(e) => Err(e),
            };
            Some(packet)
        }
        Message::Text(text) => {
            if text.len() > max {
                return Some(Err(too_long(text.len())));
            }
            Some(
                Packet::from_json_slice(text.as_bytes())
                    .map(|p| Inbound::Packet(p, Encoding::Json)),
            )
        }
        Message::Ping(_) | Message::Pong(_) | Message::Close(_) | Message::Frame(_) => None,
    }
}

/// One packet as one message.
fn write(
    codec: &mut PacketCodec,
    packet: Packet,
    encoding: Encoding,
    max: usize,
) -> Result<Message, JteError> {
    match encoding {
        Encoding::Jtoo => {
            let mut buf = BytesMut::new();
            codec.encode(packet, &mut buf)?;
            Ok(Message::Binary(buf.freeze()))
        }
        Encoding::Json => {
            let json = packet.to_json_vec()?;
            if json.len() > max {
                return Err(JteError::TooLong {
                    length: json.len(),
                    max,
                });
            }
            let text = String::from_utf8(json).map_err(|_| JteError::NotARecord)?;
            Ok(Message::Text(text.into()))
        }
    }
}
