#![no_main]
//! `stream_read`: see `jtoo_fuzz_targets::stream_read`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| jtoo_fuzz_targets::stream_read(data));
