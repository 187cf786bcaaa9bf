//! `jtoo fmt [--htoo] [FILE]`: canonical JTOO of one document.

use crate::io::{read_input, write_stdout};
use std::path::PathBuf;

/// Arguments of `jtoo fmt`.
#[derive(clap::Args)]
pub struct Args {
    /// Read the input as HTOO (the lenient, human-writable variant).
    #[arg(long)]
    htoo: bool,
    /// Input file (stdin when absent or `-`).
    file: Option<PathBuf>,
}

/// Parses the input as JTOO (or HTOO) and prints its canonical JTOO and one
/// `\n`. Exit 0; 1 for invalid input (message with line:column on stderr,
/// nothing on stdout); 2 for usage or I/O errors.
pub fn run(args: Args) -> u8 {
    let (name, bytes) = match read_input(args.file.as_deref()) {
        Ok(x) => x,
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
            let mut out = match jtoo::to_vec(&value) {
                Ok(out) => out,
                Err(e) => {
                    eprintln!("jtoo: {name}: {e}");
                    return 1;
                }
            };
            out.push(b'\n');
            match write_stdout(&out) {
                Ok(()) => 0,
                Err(code) => code,
            }
        }
        Err(e) => {
            eprintln!("{name}:{}:{}: {}", e.line(), e.column(), e.message());
            1
        }
    }
}
