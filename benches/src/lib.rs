//! Benchmark support: the corpus (JSON converted to canonical JTOO), typed
//! models of the three files, and the message shapes of the frame and JTE
//! benches. Used by the criterion benches and the `compare` binary.
#![forbid(unsafe_code)]
