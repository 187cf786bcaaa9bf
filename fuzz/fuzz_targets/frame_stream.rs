#![no_main]
//! `frame_stream`: see `jtoo_fuzz_targets::frame_stream`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| jtoo_fuzz_targets::frame_stream(data));
