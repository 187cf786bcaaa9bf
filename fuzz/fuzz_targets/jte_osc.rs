#![no_main]
//! `jte_osc`: see `jtoo_fuzz_targets::jte_osc`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| jtoo_fuzz_targets::jte_osc(data));
