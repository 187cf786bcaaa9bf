//! `jtoo to-json [--htoo] [--pretty] [FILE]`: a JTOO (or HTOO) document as JSON.

use crate::io::write_stdout;
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
    let (name, value) = match crate::io::read_document(args.file.as_deref(), args.htoo) {
        Ok(x) => x,
        Err(code) => return code,
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
