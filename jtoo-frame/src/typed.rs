//! [`TypedCodec`]: serde messages as the JTOO sections of frames, read in
//! one strict pass and written without an intermediate frame.

use crate::builder::Builder;
use crate::codec::FrameCodec;
use crate::error::FrameError;
use crate::frame::{section_to_serde, validate_jtoo};
use crate::header::{self, HEADER_LEN};
use bytes::{Bytes, BytesMut};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt;
use std::marker::PhantomData;
use tokio_util::codec::{Decoder, Encoder};

/// A message with the binary section of its frame, for a [`TypedCodec`]
/// whose frames carry both: `TypedCodec<WithBinary<T>>` decodes
/// `WithBinary<T>` (any binary section, also empty) and encodes it.
///
/// ```
/// use bytes::{Bytes, BytesMut};
/// use jtoo_frame::{TypedCodec, WithBinary};
/// use tokio_util::codec::{Decoder, Encoder};
///
/// let mut codec = TypedCodec::<WithBinary<Vec<u8>>>::new();
/// let mut buf = BytesMut::new();
/// codec.encode(WithBinary::new(vec![1, 2], Bytes::from_static(b"raw")), &mut buf)?;
/// assert_eq!(&buf[..], b"000005 000003 [1,2] raw\n");
/// let m = codec.decode(&mut buf)?.unwrap();
/// assert_eq!((m.value, &m.binary[..]), (vec![1, 2], &b"raw"[..]));
/// # Ok::<(), jtoo_frame::FrameError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct WithBinary<T> {
    /// The message: the frame's JTOO section.
    pub value: T,
    /// The frame's binary section (a view of the read buffer when decoded).
    pub binary: Bytes,
}

impl<T> WithBinary<T> {
    /// A message with a binary section.
    pub fn new(value: T, binary: impl Into<Bytes>) -> WithBinary<T> {
        WithBinary {
            value,
            binary: binary.into(),
        }
    }
}

/// Typed messages over JTOO frames: a tokio-util [`Decoder`] of `In` and an
/// [`Encoder`] of `Out` and `&Out` (by default the same type), the way
/// `LengthDelimitedCodec` plus `serde_json` is used for JSON, in one codec.
/// A server reading requests and writing replies uses
/// `TypedCodec<Request, Reply>`, its client `TypedCodec<Reply, Request>`.
///
/// Each frame's JTOO section holds one message serialized through
/// `jtoo-serde`. A plain message travels without binary section (receiving
/// a frame that has one is [`FrameError::UnexpectedBinary`]); use
/// [`WithBinary<T>`] as either type to carry one.
///
/// **Receiving** reads each message straight from the read buffer in one strict
/// pass: the typed deserializer is the validator. The result is the same as
/// [`FrameCodec`] followed by [`Frame::to_serde`](crate::Frame::to_serde):
/// framing errors and invalid JTOO (including trailing bytes and nesting
/// deeper than 128) give the same [`FrameError`]s with the same positions
/// and leave the stream unusable; a valid section that does not fit the
/// type (or an empty one) is [`FrameError::Decode`], after which the codec reads
/// on (the frame was consumed).
///
/// **Sending** serializes into a buffer the codec keeps (no allocation
/// once it has grown to the largest message), checks the section against
/// the limits, reserves the whole frame in the write buffer once and
/// appends it. A section over the limits is [`FrameError::TooLong`] and a
/// value JTOO cannot hold is [`FrameError::Encode`]; nothing is written
/// then.
///
/// ```
/// use bytes::BytesMut;
/// use jtoo_frame::TypedCodec;
/// use serde::{Deserialize, Serialize};
/// use tokio_util::codec::{Decoder, Encoder};
///
/// #[derive(Serialize, Deserialize, Debug, PartialEq)]
/// struct Ping { seq: u32, note: String }
///
/// let mut codec = TypedCodec::<Ping>::new();
/// let mut buf = BytesMut::new();
/// codec.encode(&Ping { seq: 1, note: "hi".into() }, &mut buf)?;
/// assert_eq!(&buf[..], &b"000015 000000 [\"seq\":1,\"note\":\"hi\"] \n"[..]);
/// assert_eq!(codec.decode(&mut buf)?, Some(Ping { seq: 1, note: "hi".into() }));
///
/// // Valid JTOO of the wrong shape: an error, and the stream goes on.
/// let mut buf = BytesMut::from(&b"000005 000000 [1,2] \n000000 000000  \n"[..]);
/// assert!(matches!(codec.decode(&mut buf), Err(jtoo_frame::FrameError::Decode(_))));
/// assert!(codec.decode(&mut buf).is_err()); // no document for a Ping
/// # Ok::<(), jtoo_frame::FrameError>(())
/// ```
///
/// With tokio's `Framed` (here after the greeting handshake, see the crate
/// documentation for a whole client and server):
///
/// ```no_run
/// # async fn f(socket: tokio::net::TcpStream) -> Result<(), Box<dyn std::error::Error>> {
/// use futures::{SinkExt, StreamExt};
/// use jtoo_frame::{Greeting, TypedCodec, client_handshake};
/// let framed = client_handshake(socket, &Greeting::new("sum/1")).await?;
/// let mut framed = framed.map_codec(TypedCodec::<Vec<i64>>::with_frame_codec);
/// framed.send(vec![1, 2, 3]).await?;
/// let reply: Option<Result<Vec<i64>, _>> = framed.next().await;
/// # Ok(()) }
/// ```
pub struct TypedCodec<In, Out = In> {
    frames: FrameCodec,
    // `fn(Out) -> In`: the codec holds no message, so it is `Send` and
    // `Sync` whatever the message types are.
    messages: PhantomData<fn(Out) -> In>,
}

impl<In, Out> TypedCodec<In, Out> {
    /// Over a default [`FrameCodec`] (each section up to `ffffff` bytes).
    pub fn new() -> TypedCodec<In, Out> {
        TypedCodec::with_frame_codec(FrameCodec::new())
    }

    /// Over the given frame codec: its limits, and its state (use it with
    /// `Framed::map_codec` after a handshake, which keeps the bytes already
    /// read).
    pub fn with_frame_codec(frames: FrameCodec) -> TypedCodec<In, Out> {
        TypedCodec {
            frames,
            messages: PhantomData,
        }
    }

    /// A [`Builder`] to configure limits
    /// ([`Builder::new_typed_codec`] ends it).
    pub fn builder() -> Builder {
        Builder::new()
    }

    /// The frame codec underneath (limits and state).
    pub fn frame_codec(&self) -> &FrameCodec {
        &self.frames
    }

    /// The frame codec underneath, to read or write untyped
    /// [`Frame`](crate::Frame)s on the same stream.
    pub fn frame_codec_mut(&mut self) -> &mut FrameCodec {
        &mut self.frames
    }

    /// The frame codec underneath.
    pub fn into_frame_codec(self) -> FrameCodec {
        self.frames
    }

    /// Serializes `value` as the JTOO section of a frame with `binary`
    /// straight into `dst`, after a placeholder for the header that is
    /// patched with both lengths once they are known; on any error `dst`
    /// is cut back to what it held, so nothing is written.
    fn encode_parts<M: Serialize + ?Sized>(
        &mut self,
        value: &M,
        binary: &[u8],
        dst: &mut BytesMut,
    ) -> Result<(), FrameError> {
        let start = dst.len();
        dst.extend_from_slice(&[b' '; HEADER_LEN]);
        let done = value.serialize(&mut jtoo_serde::Serializer::from_output(&mut *dst));
        let jlen = dst.len() - start - HEADER_LEN;
        let checked = match done {
            Ok(()) => self.frames.check_lengths(jlen, binary.len()),
            Err(e) => Err(FrameError::Encode(e)),
        };
        if let Err(e) = checked {
            dst.truncate(start);
            return Err(e);
        }
        dst.reserve(binary.len() + 2);
        dst.extend_from_slice(b" ");
        dst.extend_from_slice(binary);
        dst.extend_from_slice(b"\n");
        if let Some(head) = dst.get_mut(start..start + HEADER_LEN) {
            head.copy_from_slice(&header::write(jlen, binary.len())[..HEADER_LEN]);
        }
        Ok(())
    }

    /// Decodes the next frame with `read`, which gets the JTOO section
    /// (unvalidated: `read` parses it strictly) and the binary section.
    fn decode_with<M>(
        &mut self,
        buf: &mut BytesMut,
        read: impl FnOnce(&[u8], &[u8]) -> Result<M, FrameError>,
    ) -> Result<Option<M>, FrameError> {
        match self.frames.decode_unvalidated(buf, read)? {
            None => Ok(None),
            Some(Ok(m)) => Ok(Some(m)),
            Some(Err(FrameError::InvalidJtoo(e))) => Err(self.frames.fail_invalid_jtoo(e)),
            Some(Err(e)) => Err(e),
        }
    }

    fn decode_eof_with<M>(
        &mut self,
        buf: &mut BytesMut,
        decode: impl FnOnce(&mut Self, &mut BytesMut) -> Result<Option<M>, FrameError>,
    ) -> Result<Option<M>, FrameError> {
        match decode(self, buf)? {
            Some(m) => Ok(Some(m)),
            None => self.frames.check_eof(buf).map(|()| None),
        }
    }
}

/// Reads a `T` from a JTOO section in one strict pass.
///
/// When the deserializer fails, the section is validated to tell invalid
/// JTOO (the error [`FrameCodec`] reports for it, at the same position)
/// from valid JTOO that does not fit `T`. Only error paths pay for that.
fn read_section<T: DeserializeOwned>(jtoo: &[u8]) -> Result<T, FrameError> {
    section_to_serde(jtoo).map_err(|e| match validate_jtoo(jtoo) {
        Err(invalid) if !jtoo.is_empty() => invalid,
        _ => FrameError::Decode(e),
    })
}

impl<In, Out> Default for TypedCodec<In, Out> {
    fn default() -> TypedCodec<In, Out> {
        TypedCodec::new()
    }
}

impl<In, Out> Clone for TypedCodec<In, Out> {
    /// A codec with the same limits and decoding state and an empty
    /// serialize buffer.
    fn clone(&self) -> TypedCodec<In, Out> {
        TypedCodec::with_frame_codec(self.frames.clone())
    }
}

impl<In, Out> fmt::Debug for TypedCodec<In, Out> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypedCodec")
            .field("in", &std::any::type_name::<In>())
            .field("out", &std::any::type_name::<Out>())
            .field("frames", &self.frames)
            .finish()
    }
}

impl<T: DeserializeOwned, Out> Decoder for TypedCodec<T, Out> {
    type Item = T;
    type Error = FrameError;

    /// Decodes the next frame's JTOO section straight into a `T`.
    ///
    /// # Errors
    /// As [`FrameCodec`]'s decoder; [`FrameError::Decode`] for a section
    /// that does not fit `T` and [`FrameError::UnexpectedBinary`] for a
    /// binary section (after both, the codec reads on).
    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<T>, FrameError> {
        self.decode_with(buf, |jtoo, binary| {
            let value = read_section(jtoo)?;
            if binary.is_empty() {
                Ok(value)
            } else {
                Err(FrameError::UnexpectedBinary {
                    length: binary.len(),
                })
            }
        })
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<T>, FrameError> {
        self.decode_eof_with(buf, Self::decode)
    }
}

impl<T: DeserializeOwned, Out> Decoder for TypedCodec<WithBinary<T>, Out> {
    type Item = WithBinary<T>;
    type Error = FrameError;

    /// Decodes the next frame's JTOO section straight into a `T`, and its
    /// binary section as a view of the read buffer.
    ///
    /// # Errors
    /// As [`FrameCodec`]'s decoder, and [`FrameError::Decode`] for a
    /// section that does not fit `T` (the codec reads on after it).
    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<WithBinary<T>>, FrameError> {
        let Some((jtoo, binary)) = self.frames.decode_sections(buf)? else {
            return Ok(None);
        };
        match read_section(jtoo.as_deref().unwrap_or_default()) {
            Ok(value) => Ok(Some(WithBinary { value, binary })),
            Err(FrameError::InvalidJtoo(e)) => Err(self.frames.fail_invalid_jtoo(e)),
            Err(e) => Err(e),
        }
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<WithBinary<T>>, FrameError> {
        self.decode_eof_with(buf, Self::decode)
    }
}

impl<In, T: Serialize> Encoder<T> for TypedCodec<In, T> {
    type Error = FrameError;

    /// Writes `item` as a frame.
    ///
    /// # Errors
    /// [`FrameError::Encode`] or [`FrameError::TooLong`]; nothing is
    /// written then.
    fn encode(&mut self, item: T, dst: &mut BytesMut) -> Result<(), FrameError> {
        self.encode_parts(&item, &[], dst)
    }
}

impl<In, T: Serialize> Encoder<&T> for TypedCodec<In, T> {
    type Error = FrameError;

    /// Writes `item` as a frame.
    ///
    /// # Errors
    /// As for an owned `T`.
    fn encode(&mut self, item: &T, dst: &mut BytesMut) -> Result<(), FrameError> {
        self.encode_parts(item, &[], dst)
    }
}

impl<In, T: Serialize> Encoder<WithBinary<T>> for TypedCodec<In, WithBinary<T>> {
    type Error = FrameError;

    /// Writes `item.value` as the JTOO section and `item.binary` as the
    /// binary section.
    ///
    /// # Errors
    /// As for a plain `T`, and [`FrameError::TooLong`] for the binary
    /// section.
    fn encode(&mut self, item: WithBinary<T>, dst: &mut BytesMut) -> Result<(), FrameError> {
        self.encode_parts(&item.value, &item.binary, dst)
    }
}

impl<In, T: Serialize> Encoder<&WithBinary<T>> for TypedCodec<In, WithBinary<T>> {
    type Error = FrameError;

    /// As for an owned `WithBinary<T>`.
    ///
    /// # Errors
    /// As for an owned `WithBinary<T>`.
    fn encode(&mut self, item: &WithBinary<T>, dst: &mut BytesMut) -> Result<(), FrameError> {
        self.encode_parts(&item.value, &item.binary, dst)
    }
}
