//! jtoo-cli's integration tests, one module per file, in one test binary:
//! one link instead of one per file (the tests with a `main` of their
//! own, or a global allocator, stay separate binaries; see Cargo.toml).
mod bounded;
mod cli;
mod common;
mod conformance;
mod edit;
mod htoo_files;
mod in_place;
mod jte;
mod serve;
mod serve_hostile;
mod stream;
mod stream_json;
