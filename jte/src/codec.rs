//! [`PacketCodec`]: JTE packets as the JTOO sections of JTOO frames (the
//! socket transport).

use crate::osc::Encoding;
use crate::transport::DecodeInbound;
use crate::{InvalidPacket, JteError, Packet};
use bytes::BytesMut;
use jtoo_frame::{FrameCodec, FrameError, TypedCodec};
use tokio_util::codec::{Decoder, Encoder};

/// JTE packets as the JTOO sections of frames: a [`Decoder`] of
/// [`Packet`]s and an [`Encoder`] of packets, over a [`FrameCodec`].
///
/// Frames with an empty JTOO section or a JTOO section that is not a packet
/// are errors. Binary sections are ignored when decoding and empty when
/// encoding.
///
/// ```
/// use bytes::BytesMut;
/// use jte::{Packet, PacketCodec};
/// use tokio_util::codec::{Decoder, Encoder};
/// let mut codec = PacketCodec::new();
/// let mut buf = BytesMut::new();
/// codec.encode(Packet::command("term:resetstyle"), &mut buf).unwrap();
/// assert_eq!(&buf[..], b"00001d 000000 [\"command\":\"term:resetstyle\"] \n");
/// assert_eq!(codec.decode(&mut buf).unwrap(), Some(Packet::command("term:resetstyle")));
/// ```
#[derive(Clone, Debug, Default)]
pub struct PacketCodec {
    /// The frames; packets are written with the typed codec's encoder
    /// (serialized straight into the write buffer).
    frames: TypedCodec<Packet>,
}

impl PacketCodec {
    /// Over a default [`FrameCodec`].
    pub fn new() -> PacketCodec {
        PacketCodec::default()
    }

    /// Over the given frame codec.
    pub fn with_frame_codec(frames: FrameCodec) -> PacketCodec {
        PacketCodec {
            frames: TypedCodec::with_frame_codec(frames),
        }
    }
}

impl Decoder for PacketCodec {
    type Item = Packet;
    type Error = JteError;

    /// Decodes the next frame's JTOO section straight into a [`Packet`], in
    /// one strict pass over the bytes in `buf` ([`Packet::from_jtoo`]: no
    /// separate validation, no intermediate `jtoo::Value`, `data` kept as
    /// its text): invalid JTOO is still
    /// [`JteError::Jtoo`] and leaves the stream unusable, as with
    /// [`FrameCodec`]. A frame whose JTOO section is empty or not a packet
    /// is an error that leaves the stream usable.
    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<Packet>, JteError> {
        // Read in place and moved once, into the result (matched out
        // rather than mapped: `Result::map` moved it twice).
        let mut packet = Packet::default();
        let read = |jtoo: &[u8], _binary: &[u8]| {
            if jtoo.is_empty() {
                return Ok(Err(JteError::NotARecord));
            }
            match packet.read_jtoo(jtoo) {
                Ok(()) => Ok(Ok(())),
                Err(JteError::Jtoo(e)) => Err(e),
                Err(JteError::NotARecord) if is_505(jtoo) => Ok(Err(JteError::UnsupportedProtocol)),
                Err(e) => Ok(Err(e)),
            }
        };
        match self.frames.frame_codec_mut().decode_parsed(buf, read)? {
            None => Ok(None),
            Some(Ok(())) => Ok(Some(packet)),
            Some(Err(e)) => Err(e),
        }
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<Packet>, JteError> {
        match self.decode(buf)? {
            Some(p) => Ok(Some(p)),
            // Nothing left to decode: the frame codec's end-of-stream check.
            None => match self.frames.frame_codec_mut().decode_eof(buf)? {
                None => Ok(None),
                Some(_) => Err(JteError::NotARecord),
            },
        }
    }
}

impl Encoder<Packet> for PacketCodec {
    type Error = JteError;

    /// Writes the packet's frame straight into `dst` (the bytes of
    /// [`Packet::to_frame`]); on an error nothing is written.
    fn encode(&mut self, packet: Packet, dst: &mut BytesMut) -> Result<(), JteError> {
        self.frames.encode(&packet, dst).map_err(|e| match e {
            FrameError::Encode(e) => JteError::Encode(e),
            other => JteError::Frame(other),
        })
    }
}

impl DecodeInbound for PacketCodec {
    /// As [`PacketCodec::decode`], but a frame whose JTOO section is not a
    /// packet (invalid JTOO included: the frame's length and terminator
    /// were checked, so its end is certain) is a refusal that leaves the
    /// stream usable. A bad header, a frame over the limit and the 505
    /// reply are errors.
    fn decode_inbound(
        &mut self,
        buf: &mut BytesMut,
    ) -> Result<Option<Result<Packet, InvalidPacket>>, JteError> {
        // Read in place, as in `decode`.
        let mut packet = Packet::default();
        let read = |jtoo: &[u8], _binary: &[u8]| {
            let refused = |e| Ok(Ok(Err(InvalidPacket::read(e, jtoo, Encoding::Jtoo))));
            if jtoo.is_empty() {
                return refused(JteError::NotARecord);
            }
            match packet.read_jtoo(jtoo) {
                Ok(()) => Ok(Ok(Ok(()))),
                Err(JteError::NotARecord) if is_505(jtoo) => Ok(Err(JteError::UnsupportedProtocol)),
                Err(e) => refused(e),
            }
        };
        match self.frames.frame_codec_mut().decode_parsed(buf, read)? {
            None => Ok(None),
            Some(Ok(Ok(()))) => Ok(Some(Ok(packet))),
            Some(Ok(Err(refused))) => Ok(Some(Err(refused))),
            Some(Err(e)) => Err(e),
        }
    }

    fn decode_inbound_eof(
        &mut self,
        buf: &mut BytesMut,
    ) -> Result<Option<Result<Packet, InvalidPacket>>, JteError> {
        match self.decode_inbound(buf)? {
            Some(p) => Ok(Some(p)),
            None => match self.frames.frame_codec_mut().decode_eof(buf)? {
                None => Ok(None),
                Some(_) => Err(JteError::NotARecord),
            },
        }
    }
}

/// `true` for the JTOO section of the greeting's 505 reply.
fn is_505(jtoo: &[u8]) -> bool {
    let reply = jtoo_frame::UNSUPPORTED_PROTOCOL_REPLY;
    reply.get(14..reply.len().saturating_sub(2)) == Some(jtoo)
}
