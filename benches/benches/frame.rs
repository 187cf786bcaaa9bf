//! Criterion benches: frames (being written).
fn main() {}
