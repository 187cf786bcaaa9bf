//! `jtoo decode [--htoo] [FILE]`: the conformance-suite decoder.
//!
//! Reads one document (stdin by default) and writes its value as tagged JSON
//! (see `jtoo::tagged`) followed by a newline. Exit codes follow the
//! `spec-tests` protocol: 0 with the tagged JSON on stdout; 1 when the
//! document is invalid (the error, with its position, on stderr); 2 when the
//! input cannot be read or the output cannot be written.

use crate::io::{Out, say};
use std::path::PathBuf;

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Read HTOO (the lenient, human-writable variant) instead of strict JTOO.
    #[arg(long)]
    htoo: bool,
    /// Input file (stdin when absent or -).
    file: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: Args) -> u8 {
    let (name, bytes) = match crate::io::read_all(args.file.as_deref()) {
        Ok(input) => input,
        Err(code) => return code,
    };
    let parsed = if args.htoo {
        htoo::from_slice(&bytes)
    } else {
        jtoo::from_slice(&bytes)
    };
    match parsed {
        Ok(value) => {
            let mut out = jtoo::tagged::to_tagged(&value).to_string().into_bytes();
            out.push(b'\n');
            let mut stdout = Out::new();
            let written = stdout.write(&out);
            stdout.finish(written.err().unwrap_or(0))
        }
        Err(e) => {
            say!("jtoo: {name}: {e}");
            1
        }
    }
}
