//! jtoo-frame's integration tests, one module per file, in one test binary:
//! one link instead of one per file (the tests with a `main` of their
//! own, or a global allocator, stay separate binaries; see Cargo.toml).
mod codec;
mod option_variant;
mod tcp;
mod typed;
