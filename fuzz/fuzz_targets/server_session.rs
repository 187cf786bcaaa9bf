#![no_main]
//! `server_session`: see `jtoo_fuzz_targets::server_session`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| jtoo_fuzz_targets::server_session(data));
