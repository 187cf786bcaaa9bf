//! `jtoo to-json [--htoo] [--pretty] [FILE]`: a JTOO (or HTOO) document as JSON.

use crate::io::{read_input, write_stdout};
use std::path::PathBuf;

/// Arguments of `jtoo to-json`.
#[derive(clap::Args)]
pub struct Args {
    /// Read the input as HTOO (the lenient, human-writable variant).
    #[arg(long)]
    htoo: bool,
    /// Indent the JSON output.
    #[arg(long)]
    pretty: bool,
    /// Input file (stdin when absent or `-`).
    file: Option<PathBuf>,
}

/// Prints the document (strict JTOO, optionally followed by one `\n`) as
/// one line of JSON (see `jtoo::json` for the
/// mapping: pairs-only lists become objects, `[]` stays `[]`, bytes become
/// lower-case hex strings, dates and times their JTOO text). Exit 0; 1 for
/// invalid input; 2 for usage or I/O errors.
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
        // One final newline ends the text file (as `jtoo fmt` writes it); it
        // is not part of the document.
        jtoo::from_slice(bytes.strip_suffix(b"\n").unwrap_or(&bytes))
    };
    let value = match parsed {
        Ok(v) => v,
        Err(e) => {
            eprintln!("{name}:{}:{}: {}", e.line(), e.column(), e.message());
            return 1;
        }
    };
    let json = jtoo::json::to_json(&value);
    let text = if args.pretty {
        serde_json::to_string_pretty(&json)
    } else {
        serde_json::to_string(&json)
    };
    match text {
        Ok(mut text) => {
            text.push('\n');
            match write_stdout(text.as_bytes()) {
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
