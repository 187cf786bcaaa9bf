#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

mod codec;
mod data;
mod detect;
mod error;
mod packet;
mod peer;
mod transport;
#[cfg(feature = "websocket")]
mod websocket;

pub mod osc;
pub mod terminal;

pub use codec::PacketCodec;
pub use detect::{Capabilities, DETECT, Policy, System, glob_match};
pub use error::{Error, ErrorCode, JteError, RpcError};
pub use osc::Encoding;
pub use packet::Packet;
pub use peer::{
    Builder, DEFAULT_MAX_BUFFERED, DEFAULT_MAX_CALLS, DEFAULT_MAX_HANDLERS,
    DEFAULT_MAX_QUEUED_BYTES, DEFAULT_STALL_TIMEOUT, DEFAULT_TIMEOUT, DEFAULT_WRITE_TIMEOUT, Peer,
    Requests, ResponseStream, Stats,
};
pub use transport::{
    DEFAULT_MAX_PACKET_LEN, Inbound, InboundStream, InvalidPacket, JsonLinesCodec, Limits,
    OutboundSink, PROTOCOL, Parts, Transport,
};
