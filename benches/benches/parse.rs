//! Criterion benches: parse (being written).
fn main() {}
