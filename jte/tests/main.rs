//! jte's integration tests, one module per file, in one test binary:
//! one link instead of one per file (the tests with a `main` of their
//! own, or a global allocator, stay separate binaries; see Cargo.toml).
mod backpressure;
mod hostile_bytes;
mod memory;
mod packet_reading;
mod packets;
mod peer;
mod refused;
#[cfg(feature = "websocket")]
mod websocket;
