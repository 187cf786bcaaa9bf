//! `jtoo encode [FILE]`: the conformance-suite encoder.
//!
//! Reads tagged JSON (see `jtoo::tagged`; stdin by default) and writes the
//! value's canonical JTOO, byte for byte, with **no trailing newline** (a
//! canonical document never ends in one; `jtoo fmt` is the command that adds
//! one for terminals). Exit codes follow the `spec-tests` protocol: 0 with the
//! JTOO on stdout; 1 when the input is not valid tagged JSON or has no JTOO
//! spelling (a pair as the document, an ambiguous key, a malformed scalar),
//! with the reason on stderr; 2 when the input cannot be read or the output
//! cannot be written.

use std::path::PathBuf;

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Input file (stdin when absent or `-`).
    file: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: Args) -> u8 {
    let (name, bytes) = match crate::io::read_input(args.file.as_deref()) {
        Ok(input) => input,
        Err(msg) => {
            eprintln!("{msg}");
            return 2;
        }
    };
    let json = match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(json) => json,
        Err(e) => {
            eprintln!("jtoo: {name}: not JSON: {e}");
            return 1;
        }
    };
    let value = match jtoo::tagged::from_tagged(&json) {
        Ok(value) => value,
        Err(why) => {
            eprintln!("jtoo: {name}: invalid tagged JSON: {why}");
            return 1;
        }
    };
    match jtoo::to_vec(&value) {
        Ok(out) => match crate::io::write_stdout(&out) {
            Ok(()) => 0,
            Err(code) => code,
        },
        Err(e) => {
            eprintln!("jtoo: {name}: cannot encode: {e}");
            1
        }
    }
}
