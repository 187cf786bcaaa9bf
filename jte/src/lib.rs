#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

mod codec;
mod error;
mod packet;

pub mod osc;

pub use codec::PacketCodec;
pub use error::{ErrorCode, JteError};
pub use packet::Packet;
