//! The benches' programs and criterion benches share `bench-support`
//! (benches/support): the corpus, typed models and message streams. It is
//! re-exported here so they name it `benches::…`. The tests are in
//! `bench-support`, so `cargo test --workspace` builds none of this
//! package's peers (simd-json, sonic-rs, criterion).
#![forbid(unsafe_code)]

pub use bench_support::*;
