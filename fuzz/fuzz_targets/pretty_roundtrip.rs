#![no_main]
//! `pretty_roundtrip`: see `jtoo_fuzz_targets::pretty_roundtrip`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| jtoo_fuzz_targets::pretty_roundtrip(data));
