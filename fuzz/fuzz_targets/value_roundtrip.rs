#![no_main]
//! `value_roundtrip`: see `jtoo_fuzz_targets::value_roundtrip`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| jtoo_fuzz_targets::value_roundtrip(data));
