//! htoo's integration tests, one module per file, in one test binary:
//! one link instead of one per file (the tests with a `main` of their
//! own, or a global allocator, stay separate binaries; see Cargo.toml).
mod diagnostics;
mod document;
mod document_edit;
mod document_serde;
mod document_update;
mod format;
mod near_misses;
mod pretty;
mod properties;
mod relaxations;
