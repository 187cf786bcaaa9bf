#![no_main]
//! `greeting`: see `jtoo_fuzz_targets::greeting`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| jtoo_fuzz_targets::greeting(data));
