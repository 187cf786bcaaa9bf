//! `jtoo encode [FILE]`: the conformance-suite encoder.
//!
//! Reads tagged JSON (see `jtoo::json::tagged`; stdin by default) and writes the
//! value's canonical JTOO, byte for byte, with **no trailing newline** (a
//! canonical document never ends in one; `jtoo fmt` is the command that adds
//! one for terminals). Exit codes follow the `spec-tests` protocol: 0 with the
//! JTOO on stdout; 1 when the input is not valid tagged JSON or has no JTOO
//! spelling (a pair as the document, an ambiguous key, a malformed scalar),
//! with the reason on stderr; 2 when the input cannot be read or the output
//! cannot be written.

use crate::io::{Out, say};
use std::path::PathBuf;

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Input file (stdin when absent or -).
    file: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: Args) -> u8 {
    let (name, bytes) = match crate::io::read_all(args.file.as_deref()) {
        Ok(input) => input,
        Err(code) => return code,
    };
    let value = match jtoo::json::tagged::from_tagged_slice(&bytes) {
        Ok(value) => value,
        Err(why) => {
            say!("jtoo: {name}: invalid tagged JSON: {why}");
            return 1;
        }
    };
    match jtoo::to_vec(&value) {
        Ok(out) => {
            let mut stdout = Out::new();
            let written = stdout.write(&out);
            stdout.finish(written.err().unwrap_or(0))
        }
        Err(e) => {
            say!("jtoo: {name}: cannot encode: {e}");
            1
        }
    }
}
