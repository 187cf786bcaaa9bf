#![no_main]
//! `document_roundtrip`: see `jtoo_fuzz_targets::document_roundtrip`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| jtoo_fuzz_targets::document_roundtrip(data));
