//! The crate's tests, as unit tests of the library: `cargo test` then builds
//! none of the benchmark programs (their `test = false`), only this.
mod fuzz_corpora;
mod typed_models;
