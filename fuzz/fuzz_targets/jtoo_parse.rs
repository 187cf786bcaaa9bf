#![no_main]
//! `jtoo_parse`: see `jtoo_fuzz_targets::jtoo_parse`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| jtoo_fuzz_targets::jtoo_parse(data));
