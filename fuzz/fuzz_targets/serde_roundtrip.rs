#![no_main]
//! `serde_roundtrip`: see `jtoo_fuzz_targets::serde_roundtrip`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| jtoo_fuzz_targets::serde_roundtrip(data));
