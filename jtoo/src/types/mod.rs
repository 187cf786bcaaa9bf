//! The scalar types of JTOO: small `Copy` values with validating
//! constructors, whose `Display` is their canonical JTOO text and whose
//! `FromStr` is its exact inverse.

mod date;
mod datetime;
mod decimal;
mod integer;
mod offset;
mod time;
mod timestamp;

pub use date::Date;
pub use datetime::DateTime;
pub use decimal::{Decimal, MAX_SCALE as DECIMAL_MAX_SCALE};
pub use integer::Integer;
pub use offset::{Offset, OffsetSign};
pub use time::{Time, TimePrecision};
pub use timestamp::{Timestamp, TimestampPrecision};
