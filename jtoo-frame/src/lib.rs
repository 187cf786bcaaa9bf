#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

mod builder;
mod codec;
mod error;
mod frame;
mod greeting;
mod handshake;
mod header;
mod parsed;
#[cfg(feature = "server")]
pub mod server;
mod typed;

/// The `bytes`, `futures` and `tokio_util` crates this crate is built with,
/// so users of its types need no version-matched dependencies of their own.
#[doc(no_inline)]
pub use {bytes, futures, tokio_util};

pub use builder::Builder;
pub use codec::FrameCodec;
pub use error::{FrameError, GreetingError, HandshakeError, Section};
pub use frame::{FRAME_OVERHEAD, Frame, MAX_SECTION_LEN};
pub use greeting::{
    GREETING_MAX_LEN, Greeting, UNSUPPORTED_PROTOCOL_REPLY, is_unsupported_protocol_reply,
};
pub use handshake::{DEFAULT_HANDSHAKE_TIMEOUT, Handshake, client_handshake, server_handshake};
pub use typed::{TypedCodec, WithBinary};
