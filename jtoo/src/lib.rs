#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

#[cfg(feature = "arbitrary")]
mod arbitrary;
mod borrowed;
pub mod encode;
mod error;
mod float;
#[cfg(feature = "json")]
pub mod json;
// The one JSON-number reading, for the JSON conversions and for the serde
// layer (serde_json's `arbitrary_precision` numbers) alike.
#[cfg(any(feature = "json", feature = "serde"))]
#[path = "json/number.rs"]
mod json_number;
mod macros;
mod options;
pub mod parse;
mod scan;
#[cfg(feature = "serde")]
pub mod serde;
pub mod stream;
pub mod types;
mod value;
pub mod visit;
mod window;

pub use borrowed::{PathItem, ValueKind, ValueRef, ValueRefItem, ValueRefIter, get};
pub use encode::{to_string, to_vec, to_writer};
pub use error::{Error, ErrorKind, Position, Result};
pub use options::{Options, from_slice, from_str, validate};
pub use types::{
    Date, DateTime, Decimal, Integer, Offset, OffsetSign, Time, TimePrecision, Timestamp,
    TimestampPrecision,
};
pub use value::{Item, ItemMut, ItemRef, List, Pair, Str, Value, list, walk};

#[doc(hidden)]
pub use macros::__private;
