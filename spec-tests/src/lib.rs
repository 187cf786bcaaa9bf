//! spec-tests (work in progress).
#![forbid(unsafe_code)]
