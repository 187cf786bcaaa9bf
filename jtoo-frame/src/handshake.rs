//! The greeting handshake of JTOO protocols, over any tokio byte stream.
//!
//! The initiator (client) sends a [`Greeting`] as its first frame. The
//! server reads it under a timeout with a codec limited to 16 KiB, then:
//!
//! - a malformed or oversize greeting frame, duplicate keys, a missing or
//!   non-string `protocol`, a non-pair item or a non-string key: the server
//!   drops the connection at once, without a reply;
//! - an unsupported protocol: the server writes exactly
//!   `00002d 000000 [["code":505,"error":"unsupported protocol"]] \n`,
//!   closes its side, and drops the connection;
//! - otherwise the server returns the [`Framed`] transport with every byte
//!   that arrived after the greeting still in its read buffer.

use crate::builder::Builder;
use crate::codec::FrameCodec;
use crate::error::{FrameError, HandshakeError};
use crate::greeting::{GREETING_MAX_LEN, Greeting, UNSUPPORTED_PROTOCOL_REPLY};
use futures::{SinkExt, StreamExt};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio_util::codec::Framed;

/// The default handshake timeout: 10 seconds.
pub const DEFAULT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long the server keeps reading (and discarding) after sending the 505
/// reply, so the peer reads the reply before the connection goes away.
const LINGER: Duration = Duration::from_millis(500);

/// Settings of a handshake: the timeout and the codec of the established
/// transport.
///
/// ```
/// use jtoo_frame::{FrameCodec, Handshake};
/// use std::time::Duration;
/// let hs = Handshake::new()
///     .timeout(Duration::from_secs(2))
///     .codec(*FrameCodec::builder().max_binary_len(1 << 20));
/// # let _ = hs;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handshake {
    timeout: Duration,
    codec: Builder,
}

impl Default for Handshake {
    fn default() -> Handshake {
        Handshake::new()
    }
}

impl Handshake {
    /// The defaults: [`DEFAULT_HANDSHAKE_TIMEOUT`] and the default codec.
    pub fn new() -> Handshake {
        Handshake {
            timeout: DEFAULT_HANDSHAKE_TIMEOUT,
            codec: Builder::new(),
        }
    }

    /// How long the whole handshake may take (reading the greeting on the
    /// server, writing it on the client).
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Handshake {
        self.timeout = timeout;
        self
    }

    /// The limits of the codec of the returned transport.
    #[must_use]
    pub fn codec(mut self, codec: Builder) -> Handshake {
        self.codec = codec;
        self
    }

    /// The client side: sends `greeting` and returns the transport.
    ///
    /// The spec defines no acceptance message, so this returns once the
    /// greeting is written. A server that does not support the protocol
    /// answers with its 505 reply and closes: the returned transport's
    /// first read then fails with [`FrameError::UnsupportedProtocol`]
    /// (also after [`Framed::map_codec`] to a
    /// [`TypedCodec`](crate::TypedCodec)), so callers need not inspect the
    /// first frame themselves.
    ///
    /// # Errors
    /// The greeting is over 16 KiB, the write fails, or it times out.
    pub async fn client<T>(
        &self,
        io: T,
        greeting: &Greeting,
    ) -> Result<Framed<T, FrameCodec>, HandshakeError>
    where
        T: AsyncRead + AsyncWrite + Unpin,
    {
        let frame = greeting.to_frame()?;
        let mut framed = Framed::new(io, self.codec.new_codec().after_greeting());
        match tokio::time::timeout(self.timeout, framed.send(frame)).await {
            Ok(Ok(())) => Ok(framed),
            Ok(Err(e)) => Err(HandshakeError::Frame(e)),
            Err(_) => Err(HandshakeError::Timeout),
        }
    }

    /// The server side: reads the peer's greeting and accepts it if its
    /// protocol is one of `supported`.
    ///
    /// # Errors
    /// Every way the handshake can fail; the connection has then been
    /// terminated (dropped, or closed after the 505 reply).
    pub async fn server<T, P>(
        &self,
        io: T,
        supported: &[P],
    ) -> Result<(Framed<T, FrameCodec>, Greeting), HandshakeError>
    where
        T: AsyncRead + AsyncWrite + Unpin,
        P: AsRef<str>,
    {
        let greeting_codec = Builder::new().max_frame_len(GREETING_MAX_LEN).new_codec();
        let mut framed = Framed::new(io, greeting_codec);
        let frame = match tokio::time::timeout(self.timeout, framed.next()).await {
            Err(_) => return Err(HandshakeError::Timeout),
            Ok(None) => return Err(HandshakeError::Closed),
            Ok(Some(Err(e))) => return Err(HandshakeError::Frame(e)),
            Ok(Some(Ok(frame))) => frame,
        };
        let greeting = Greeting::from_frame(&frame)?;
        if !supported.iter().any(|p| p.as_ref() == greeting.protocol()) {
            let mut io = framed.into_parts().io;
            // Best effort: the connection is closed whatever happens here.
            let _ = tokio::time::timeout(
                self.timeout,
                reply_and_close(&mut io, UNSUPPORTED_PROTOCOL_REPLY),
            )
            .await;
            return Err(HandshakeError::UnsupportedProtocol(
                greeting.protocol().to_owned(),
            ));
        }
        let codec = self.codec.new_codec();
        Ok((framed.map_codec(|_| codec), greeting))
    }
}

/// Writes `reply` (a whole frame), closes the writing side and lingers
/// briefly so the peer can read it: the 505 reply, the server's busy reply.
pub(crate) async fn reply_and_close<T: AsyncRead + AsyncWrite + Unpin>(
    io: &mut T,
    reply: &[u8],
) -> std::io::Result<()> {
    io.write_all(reply).await?;
    io.flush().await?;
    io.shutdown().await?;
    // Read and discard until the peer closes (or briefly): closing a TCP
    // socket with unread input sends a reset, which can destroy the reply
    // before the peer reads it.
    let _ = tokio::time::timeout(LINGER, async {
        let mut sink = [0u8; 4096];
        let mut total = 0usize;
        while let Ok(n) = io.read(&mut sink).await {
            if n == 0 || total > GREETING_MAX_LEN * 64 {
                break;
            }
            total += n;
        }
    })
    .await;
    Ok(())
}

/// Sends `greeting` on `io` with the default [`Handshake`] settings.
///
/// # Errors
/// See [`Handshake::client`].
pub async fn client_handshake<T>(
    io: T,
    greeting: &Greeting,
) -> Result<Framed<T, FrameCodec>, HandshakeError>
where
    T: AsyncRead + AsyncWrite + Unpin,
{
    Handshake::new().client(io, greeting).await
}

/// Reads and checks the peer's greeting on `io` with the default
/// [`Handshake`] settings; returns the transport and the greeting.
///
/// # Errors
/// See [`Handshake::server`].
pub async fn server_handshake<T, P>(
    io: T,
    supported: &[P],
) -> Result<(Framed<T, FrameCodec>, Greeting), HandshakeError>
where
    T: AsyncRead + AsyncWrite + Unpin,
    P: AsRef<str>,
{
    Handshake::new().server(io, supported).await
}

impl HandshakeError {
    /// `true` when the peer broke a greeting rule (as opposed to I/O
    /// trouble, a timeout or an unsupported protocol).
    pub fn is_violation(&self) -> bool {
        match self {
            HandshakeError::Greeting(_) => true,
            HandshakeError::Frame(e) => !matches!(e, FrameError::Io(_)),
            _ => false,
        }
    }
}
