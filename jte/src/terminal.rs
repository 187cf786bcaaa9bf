//! Terminal escapes: a [`Transport`] that carries packets as OSC sequences
//! inside a terminal byte stream, passing every other byte through
//! untouched and in order.
//!
//! - [`program`]: the program's side. It writes OSC 23198 packets into its
//!   output (stdout) and reads OSC 23199 packets from its input (stdin);
//!   the other input bytes (keys typed) go to a writer of your choice, and
//!   its ordinary output goes through the [`Output`] handle, so text and
//!   packets reach the terminal in the order they were written.
//! - [`terminal`]: the terminal's side (an emulator, or anything holding
//!   the other end of a pseudo-terminal). It reads OSC 23198 packets from
//!   the program's output and writes OSC 23199 ones into its input; the
//!   other output bytes go to a writer (the screen), and keys go in
//!   through the [`Output`] handle.
//!
//! Packets of the wrong direction (a terminal's own 23199 echoed back by a
//! pty in cooked mode) are dropped. A sequence that is not a readable
//! packet is dropped and counted
//! ([`Stats::invalid_packets`](crate::Stats::invalid_packets)); the
//! connection goes on. Payloads are JTOO (`[`) or JSON (`{`); a peer
//! answers a request in the encoding it came in, and makes its own calls
//! in the encoding set with [`Builder::encoding`](crate::Builder::encoding)
//! (JTOO by default).
//!
//! The terminal side's default [`Policy`] runs no command but `detect`:
//! see [`Policy`] for why.

use crate::osc::{self, Encoding, Osc, OscScanner, TermEvent};
use crate::transport::{Inbound, InvalidPacket, Limits, Parts};
use crate::{JteError, Packet, Policy, Transport};
use bytes::Bytes;
use futures::StreamExt;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio_util::codec::FramedRead;
use tokio_util::sync::PollSender;

/// How many writes may wait for the writer before [`Output::write`] waits.
const QUEUE: usize = 64;

/// A handle that writes ordinary bytes (not packets) into the stream the
/// peer writes its packets to, in order with them. Cloneable.
#[derive(Clone, Debug)]
pub struct Output {
    tx: mpsc::Sender<Write>,
}

/// What the one writer of the stream is asked to do.
#[derive(Debug)]
enum Write {
    /// Write bytes: ordinary output, or a packet already wrapped in its OSC
    /// sequence.
    Bytes(Bytes),
    /// Flush, then say so.
    Flush(tokio::sync::oneshot::Sender<()>),
}

impl Output {
    /// Writes `bytes` after everything written before (bytes and packets).
    ///
    /// # Errors
    /// The stream is closed.
    pub async fn write(&self, bytes: impl Into<Bytes>) -> Result<(), JteError> {
        self.tx
            .send(Write::Bytes(bytes.into()))
            .await
            .map_err(|_| closed())
    }

    /// Waits until everything written before (bytes and packets) is
    /// written and flushed.
    ///
    /// # Errors
    /// The stream is closed.
    pub async fn flush(&self) -> Result<(), JteError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.tx.send(Write::Flush(tx)).await.map_err(|_| closed())?;
        rx.await.map_err(|_| closed())
    }
}

fn closed() -> JteError {
    JteError::Frame(jtoo_frame::FrameError::Io(std::io::Error::new(
        std::io::ErrorKind::BrokenPipe,
        "the terminal stream is closed",
    )))
}

/// The program's side: packets out as OSC 23198 in `output`, in as OSC
/// 23199 from `input`; other input bytes are written to `passthrough`.
pub fn program<R, W, P>(input: R, output: W, passthrough: P) -> (Transport, Output)
where
    R: AsyncRead + Send + 'static,
    W: AsyncWrite + Send + 'static,
    P: AsyncWrite + Send + 'static,
{
    side(
        input,
        output,
        passthrough,
        Osc::FromTerminal,
        Policy::allow_all(),
    )
}

/// The terminal's side: packets in as OSC 23198 from the program's
/// `output`, out as OSC 23199 into its `input`; other output bytes are
/// written to `screen`. The default policy runs no command but `detect`.
pub fn terminal<R, W, P>(output: R, input: W, screen: P) -> (Transport, Output)
where
    R: AsyncRead + Send + 'static,
    W: AsyncWrite + Send + 'static,
    P: AsyncWrite + Send + 'static,
{
    side(output, input, screen, Osc::ToTerminal, Policy::deny_all())
}

fn side<R, W, P>(
    reader: R,
    writer: W,
    passthrough: P,
    incoming: Osc,
    policy: Policy,
) -> (Transport, Output)
where
    R: AsyncRead + Send + 'static,
    W: AsyncWrite + Send + 'static,
    P: AsyncWrite + Send + 'static,
{
    let outgoing = match incoming {
        Osc::ToTerminal => Osc::FromTerminal,
        Osc::FromTerminal => Osc::ToTerminal,
    };
    let (tx, rx) = mpsc::channel(QUEUE);
    let output = Output { tx: tx.clone() };
    let transport = Transport::new(move |limits: Limits| {
        let max = limits.max_packet_len;
        let scanner = OscScanner::new().with_max_payload_len(max);
        let events = FramedRead::new(reader, scanner);
        let passthrough: std::pin::Pin<Box<dyn AsyncWrite + Send>> = Box::pin(passthrough);
        let inbound = futures::stream::unfold(
            (Box::pin(events), passthrough),
            move |(mut events, mut passthrough)| async move {
                loop {
                    let event = match events.next().await {
                        None => {
                            // Best effort: the bytes were already written.
                            let _ = passthrough.flush().await;
                            return None;
                        }
                        // A pty's master reads EIO once the program side
                        // has closed: that is its end of stream.
                        Some(Err(e)) if is_pty_end(&e) => {
                            let _ = passthrough.flush().await;
                            return None;
                        }
                        Some(Err(e)) => return Some((Err(e.into()), (events, passthrough))),
                        Some(Ok(event)) => event,
                    };
                    match event {
                        TermEvent::Output(bytes) => {
                            let written = passthrough.write_all(&bytes).await;
                            let written = match written {
                                Ok(()) => passthrough.flush().await,
                                e => e,
                            };
                            if let Err(e) = written {
                                return Some((Err(e.into()), (events, passthrough)));
                            }
                        }
                        TermEvent::Packet {
                            osc,
                            encoding,
                            packet,
                        } if osc == incoming => {
                            let item = Ok(Inbound::Packet(packet, encoding));
                            return Some((item, (events, passthrough)));
                        }
                        TermEvent::Packet { .. } => {}
                        TermEvent::Invalid { osc, error, raw } if osc == incoming => {
                            let invalid = refused_sequence(error, &raw);
                            return Some((Ok(Inbound::Invalid(invalid)), (events, passthrough)));
                        }
                        TermEvent::Invalid { .. } => {}
                    }
                }
            },
        );
        tokio::spawn(write_all(rx, writer));
        let outbound = OscSink {
            tx: PollSender::new(tx),
            osc: outgoing,
            max,
        };
        Parts {
            inbound: Box::pin(inbound),
            outbound: Box::pin(outbound),
            encoding: Encoding::Jtoo,
            policy,
        }
    });
    (transport, output)
}

/// `EIO`, what reading a pseudo-terminal's master side gives once the
/// other side is closed (Linux and the BSDs).
fn is_pty_end(e: &std::io::Error) -> bool {
    const EIO: i32 = 5;
    cfg!(unix) && e.raw_os_error() == Some(EIO)
}

/// The sink of packets: each is encoded and wrapped here (so a packet over
/// the limit is refused alone, the sink staying usable), then queued for
/// the writer with the ordinary bytes.
struct OscSink {
    tx: PollSender<Write>,
    osc: Osc,
    max: usize,
}

impl futures::Sink<(Packet, Encoding)> for OscSink {
    type Error = JteError;

    fn poll_ready(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), JteError>> {
        self.tx.poll_reserve(cx).map_err(|_| closed())
    }

    fn start_send(
        mut self: std::pin::Pin<&mut Self>,
        (packet, encoding): (Packet, Encoding),
    ) -> Result<(), JteError> {
        let payload = match encoding {
            Encoding::Json => packet.to_json_vec()?,
            Encoding::Jtoo => packet.to_jtoo()?,
        };
        if payload.len() > self.max {
            return Err(JteError::TooLong {
                length: payload.len(),
                max: self.max,
            });
        }
        let seq = osc::wrap(self.osc, &payload, true);
        self.tx
            .send_item(Write::Bytes(Bytes::from(seq)))
            .map_err(|_| closed())
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), JteError>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn poll_close(
        mut self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), JteError>> {
        self.tx.close();
        std::task::Poll::Ready(Ok(()))
    }
}

/// The one writer of the stream: bytes and packets in the order queued,
/// one flush per burst.
async fn write_all<W: AsyncWrite + Send>(mut rx: mpsc::Receiver<Write>, writer: W) {
    let mut writer = std::pin::pin!(writer);
    while let Some(first) = rx.recv().await {
        let mut next = Some(first);
        let mut flushed = Vec::new();
        while let Some(write) = next.take() {
            match write {
                Write::Bytes(bytes) => {
                    if writer.write_all(&bytes).await.is_err() {
                        return;
                    }
                }
                Write::Flush(done) => flushed.push(done),
            }
            next = rx.try_recv().ok();
        }
        if writer.flush().await.is_err() {
            return;
        }
        for done in flushed {
            let _ = done.send(());
        }
    }
    let _ = writer.shutdown().await;
}

/// A sequence that could not be read, with the ids of its payload (`ESC ]
/// 2319x ; num-bytes ; payload BEL`) where they can be read.
fn refused_sequence(error: crate::JteError, raw: &[u8]) -> InvalidPacket {
    let mut parts = raw.splitn(3, |b| *b == b';');
    let payload = parts.nth(2).unwrap_or_default();
    let payload = payload.strip_suffix(b"\x07").unwrap_or(payload);
    let encoding = match payload.first() {
        Some(b'{') => Encoding::Json,
        _ => Encoding::Jtoo,
    };
    InvalidPacket::read(error, payload, encoding)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::osc::{Encoding, Osc};
    use futures::SinkExt;

    #[tokio::test]
    async fn output_and_packets_keep_their_order() {
        let (mine, theirs) = tokio::io::duplex(1 << 16);
        let (_unused_r, unused_w) = tokio::io::duplex(16);
        let (transport, output) = program(tokio::io::empty(), mine, unused_w);
        let mut parts = transport.build(Limits {
            max_packet_len: 1024,
        });
        output.write(&b"hello "[..]).await.unwrap();
        parts
            .outbound
            .send((Packet::command("term:bell"), Encoding::Jtoo))
            .await
            .unwrap();
        output.write(&b"world"[..]).await.unwrap();
        drop(parts);
        drop(output);
        let mut all = Vec::new();
        let mut theirs = theirs;
        tokio::io::AsyncReadExt::read_to_end(&mut theirs, &mut all)
            .await
            .unwrap();
        let mut expected = b"hello ".to_vec();
        expected.extend(
            osc::encode(
                &Packet::command("term:bell"),
                Osc::ToTerminal,
                Encoding::Jtoo,
            )
            .unwrap(),
        );
        expected.extend_from_slice(b"world");
        assert_eq!(all, expected);
    }
}
