//! jtoo's integration tests, one module per file, in one test binary:
//! one link instead of one per file (the tests with a `main` of their
//! own, or a global allocator, stay separate binaries; see Cargo.toml).
mod borrowed;
mod common;
mod deep_values;
mod encoder;
#[cfg(feature = "json")]
mod json_stream;
mod nom_compose;
mod number_grammar;
mod number_writer;
mod stream;
mod strict;
mod temporal;
mod value_macro;
