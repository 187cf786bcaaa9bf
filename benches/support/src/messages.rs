//! Typed messages of about 100 bytes, the protocol author's workload: the
//! same `Vec<Message>` through `jtoo_frame::TypedCodec` and through the two
//! usual JSON transports, JSON lines and `LengthDelimitedCodec`, both with
//! serde_json. In memory (encode, decode) and over loopback TCP.

use crate::BoxError;
use bytes::{Buf, BufMut, Bytes, BytesMut};
use futures::{SinkExt, StreamExt};
use jtoo_frame::TypedCodec;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::{Decoder, Encoder, FramedRead, FramedWrite, LengthDelimitedCodec};

/// One message: about 131 bytes as JTOO (a frame of 147), 133 as JSON.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
pub struct Message {
    /// A sequence number.
    pub id: u64,
    /// Who sent it.
    pub user: String,
    /// The payload text.
    pub text: String,
    /// A score.
    pub score: f64,
    /// Labels.
    pub tags: Vec<String>,
    /// A flag.
    pub urgent: bool,
}

impl Message {
    /// The `i`-th message.
    pub fn sample(i: usize) -> Message {
        Message {
            id: 1_000_000 + i as u64,
            user: format!("user{:04}", i % 5000),
            text: format!("status update number {i} from the field"),
            score: (i % 1000) as f64 / 8.0,
            tags: vec!["ops".into(), ["eu", "us", "ap"][i % 3].into()],
            urgent: i.is_multiple_of(7),
        }
    }

    /// `count` messages.
    pub fn samples(count: usize) -> Vec<Message> {
        (0..count).map(Message::sample).collect()
    }
}

/// A length-delimited codec as the JSON peer uses it (default limits).
pub fn length_delimited() -> LengthDelimitedCodec {
    LengthDelimitedCodec::new()
}

/// Encodes every message as a frame with a [`TypedCodec`].
///
/// # Errors
/// The codec's.
pub fn encode_typed(
    codec: &mut TypedCodec<Message>,
    messages: &[Message],
    dst: &mut BytesMut,
) -> Result<(), BoxError> {
    for m in messages {
        codec.encode(m, dst)?;
    }
    Ok(())
}

/// Encodes every message as a JSON line with [`JsonLines`].
///
/// # Errors
/// serde_json's.
pub fn encode_json_lines(messages: &[Message], dst: &mut BytesMut) -> Result<(), BoxError> {
    let mut codec = JsonLines::default();
    for m in messages {
        codec.encode(m, dst)?;
    }
    Ok(())
}

/// Encodes every message with `LengthDelimitedCodec`, each serialized by
/// `serde_json::to_vec` first (as tokio-serde's JSON codec does).
///
/// # Errors
/// serde_json's or the codec's.
pub fn encode_length_delimited_json(
    codec: &mut LengthDelimitedCodec,
    messages: &[Message],
    dst: &mut BytesMut,
) -> Result<(), BoxError> {
    for m in messages {
        codec.encode(Bytes::from(serde_json::to_vec(m)?), dst)?;
    }
    Ok(())
}

/// Decodes every frame in `buf` into a [`Message`]; returns how many.
///
/// # Errors
/// The codec's.
pub fn decode_typed(buf: &mut BytesMut) -> Result<usize, BoxError> {
    Ok(crate::decode_all(&mut TypedCodec::<Message>::new(), buf)?)
}

/// Decodes every JSON line in `buf` ([`JsonLines`], `from_str`); returns
/// how many.
///
/// # Errors
/// serde_json's.
pub fn decode_json_lines(buf: &mut BytesMut) -> Result<usize, BoxError> {
    crate::decode_all(&mut JsonLines::default(), buf)
}

/// Decodes every JSON line in `buf` with `memchr` and
/// `serde_json::from_slice` (which checks UTF-8 string by string); returns
/// how many.
///
/// # Errors
/// serde_json's.
pub fn decode_json_lines_from_slice(buf: &mut BytesMut) -> Result<usize, BoxError> {
    let mut n = 0;
    while let Some(end) = memchr::memchr(b'\n', buf) {
        let m: Message = serde_json::from_slice(&buf[..end])?;
        std::hint::black_box(&m);
        buf.advance(end + 1);
        n += 1;
    }
    Ok(n)
}

/// Decodes every length-delimited message in `buf` with
/// `serde_json::from_slice`; returns how many.
///
/// # Errors
/// serde_json's or the codec's.
pub fn decode_length_delimited_json(buf: &mut BytesMut) -> Result<usize, BoxError> {
    let mut codec = length_delimited();
    let mut n = 0;
    while let Some(frame) = codec.decode(buf)? {
        let m: Message = serde_json::from_slice(&frame)?;
        std::hint::black_box(&m);
        n += 1;
    }
    Ok(n)
}

/// JSON lines of [`Message`]s as a tokio-util codec, written the way a
/// careful user would: `memchr` for the `\n`, the line's UTF-8 checked in
/// place and `serde_json::from_str` (faster than `from_slice`), no copy;
/// `serde_json::to_writer` into a `Vec` kept between messages, then one
/// append to the write buffer (faster than writing through
/// `BufMut::writer`, which pays a capacity check per small write).
#[derive(Clone, Debug, Default)]
pub struct JsonLines {
    scratch: Vec<u8>,
}

impl Decoder for JsonLines {
    type Item = Message;
    type Error = BoxError;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<Message>, BoxError> {
        let Some(end) = memchr::memchr(b'\n', buf) else {
            return Ok(None);
        };
        let m = serde_json::from_str(std::str::from_utf8(&buf[..end])?)?;
        buf.advance(end + 1);
        Ok(Some(m))
    }
}

impl Encoder<&Message> for JsonLines {
    type Error = BoxError;

    fn encode(&mut self, m: &Message, dst: &mut BytesMut) -> Result<(), BoxError> {
        self.scratch.clear();
        serde_json::to_writer(&mut self.scratch, m)?;
        dst.reserve(self.scratch.len() + 1);
        dst.extend_from_slice(&self.scratch);
        dst.put_u8(b'\n');
        Ok(())
    }
}

/// The in-memory streams of `count` messages.
pub struct MessageStreams {
    /// The messages.
    pub messages: Vec<Message>,
    /// As frames ([`TypedCodec`]).
    pub frames: BytesMut,
    /// As JSON lines.
    pub lines: BytesMut,
    /// As length-delimited JSON.
    pub delimited: BytesMut,
}

impl MessageStreams {
    /// Builds the streams and checks that each decodes to the messages.
    ///
    /// # Errors
    /// An encoding error, or a stream that does not read back.
    pub fn build(count: usize) -> Result<MessageStreams, BoxError> {
        let messages = Message::samples(count);
        let mut frames = BytesMut::new();
        encode_typed(&mut TypedCodec::new(), &messages, &mut frames)?;
        let mut lines = BytesMut::new();
        encode_json_lines(&messages, &mut lines)?;
        let mut delimited = BytesMut::new();
        encode_length_delimited_json(&mut length_delimited(), &messages, &mut delimited)?;
        let mut back = Vec::with_capacity(count);
        let mut b = frames.clone();
        while let Some(m) = TypedCodec::<Message>::new().decode(&mut b)? {
            back.push(m);
        }
        if back != messages {
            return Err("the frames do not read back".into());
        }
        for n in [
            decode_json_lines(&mut lines.clone())?,
            decode_json_lines_from_slice(&mut lines.clone())?,
            decode_length_delimited_json(&mut delimited.clone())?,
        ] {
            if n != count {
                return Err("a JSON stream does not read back".into());
            }
        }
        Ok(MessageStreams {
            messages,
            frames,
            lines,
            delimited,
        })
    }
}

/// Sends `messages` over a loopback TCP connection, from a client task
/// (`FramedWrite` with `encoder`, `feed` each message then `flush`) to a
/// server task (`FramedRead` with `decoder`, each message deserialized);
/// returns the time from the connection to the server's last message.
///
/// # Errors
/// I/O, the codecs', or a count that does not match.
pub async fn loopback<E, D>(
    messages: std::sync::Arc<Vec<Message>>,
    encoder: E,
    decoder: D,
) -> Result<Duration, BoxError>
where
    E: for<'a> Encoder<&'a Message> + Send + 'static,
    for<'a> <E as Encoder<&'a Message>>::Error: Into<BoxError>,
    D: Decoder<Item = Message> + Send + 'static,
    D::Error: Into<BoxError>,
{
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let count = messages.len();
    let start = Instant::now();
    let server = tokio::spawn(async move {
        let (socket, _) = listener.accept().await?;
        let mut read = FramedRead::new(socket, decoder);
        let mut n = 0;
        while let Some(m) = read.next().await {
            std::hint::black_box(m.map_err(Into::into)?);
            n += 1;
        }
        Ok::<_, BoxError>((n, start.elapsed()))
    });
    let socket = TcpStream::connect(addr).await?;
    socket.set_nodelay(true)?;
    let mut write = FramedWrite::new(socket, encoder);
    for m in messages.iter() {
        write.feed(m).await.map_err(Into::into)?;
    }
    SinkExt::<&Message>::close(&mut write)
        .await
        .map_err(Into::into)?;
    drop(write);
    let (n, elapsed) = server.await??;
    if n != count {
        return Err(format!("{n} of {count} messages arrived").into());
    }
    Ok(elapsed)
}

/// A runtime for [`loopback`]: two worker threads (client and server).
///
/// # Errors
/// When tokio cannot start it.
pub fn runtime() -> Result<tokio::runtime::Runtime, BoxError> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?)
}
