//! `jtoo decode [--htoo] [FILE]`: the conformance-suite decoder.
//!
//! Reads one document (stdin by default) and writes its value as tagged JSON
//! (see `jtoo::tagged`) followed by a newline. Exit codes follow the
//! `spec-tests` protocol: 0 with the tagged JSON on stdout; 1 when the
//! document is invalid (the error, with its position, on stderr); 2 when the
//! input cannot be read or the output cannot be written.

use std::path::PathBuf;

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Read HTOO (the lenient, human-writable variant) instead of strict JTOO.
    #[arg(long)]
    htoo: bool,
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
    let parsed = if args.htoo {
        htoo::from_slice(&bytes)
    } else {
        jtoo::from_slice(&bytes)
    };
    match parsed {
        Ok(value) => {
            let mut out = jtoo::tagged::to_tagged(&value).to_string().into_bytes();
            out.push(b'\n');
            match crate::io::write_stdout(&out) {
                Ok(()) => 0,
                Err(code) => code,
            }
        }
        Err(e) => {
            eprintln!("jtoo: {name}: {e}");
            1
        }
    }
}
