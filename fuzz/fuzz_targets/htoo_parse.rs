#![no_main]
//! `htoo_parse`: see `jtoo_fuzz_targets::htoo_parse`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| jtoo_fuzz_targets::htoo_parse(data));
