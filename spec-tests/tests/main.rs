//! spec-tests's integration tests, one module per file, in one test binary:
//! one link instead of one per file (the tests with a `main` of their
//! own, or a global allocator, stay separate binaries; see Cargo.toml).
mod in_process;
mod manifest;
#[cfg(unix)]
mod runner;
