//! jtoo-serde's integration tests, one module per file, in one test binary:
//! one link instead of one per file (the tests with a `main` of their
//! own, or a global allocator, stay separate binaries; see Cargo.toml).
mod corpus;
mod depth;
mod duplicate_keys;
mod mapping;
mod option_variant;
mod positions;
mod pretty;
mod raw;
mod reader;
mod roundtrip_props;
mod spanned;
