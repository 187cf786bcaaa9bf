//! jtoo-frame (work in progress).
#![forbid(unsafe_code)]
