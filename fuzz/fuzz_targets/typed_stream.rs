#![no_main]
//! `typed_stream`: see `jtoo_fuzz_targets::typed_stream`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| jtoo_fuzz_targets::typed_stream(data));
