//! The comparison binary (being written).
fn main() {}
