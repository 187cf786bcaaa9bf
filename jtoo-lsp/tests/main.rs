//! jtoo-lsp's integration tests, one module per file, in one test binary:
//! one link instead of one per file (the tests with a `main` of their
//! own, or a global allocator, stay separate binaries; see Cargo.toml).
mod common;
mod conformance;
mod protocol;
mod random_edits;
