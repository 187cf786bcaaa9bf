//! `jtoo fmt [--htoo] [FILE]`: canonical JTOO of one document.

use crate::io::{read_document, write_stdout};
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

/// Parses the input as JTOO (one final `\n` allowed) or HTOO and prints its
/// canonical JTOO and one `\n`. Exit 0; 1 for invalid input (message with line:column on stderr,
/// nothing on stdout); 2 for usage or I/O errors.
pub fn run(args: Args) -> u8 {
    let (name, value) = match read_document(args.file.as_deref(), args.htoo) {
        Ok(x) => x,
        Err(code) => return code,
    };
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
