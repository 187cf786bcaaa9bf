//! `jtoo from-json [--lines] [--null-error] [FILE]`: JSON (or JSON Lines) as
//! canonical JTOO.

use crate::io::{read_input, write_stdout};
use jtoo::json::{FromJsonOptions, NullPolicy};
use std::path::PathBuf;

/// Arguments of `jtoo from-json`.
#[derive(clap::Args)]
pub struct Args {
    /// Read JSON Lines: one JSON value per line (blank lines skipped), one
    /// JTOO document per output line.
    #[arg(long)]
    lines: bool,
    /// Refuse every JSON `null` (by default a null object member is left
    /// out and any other null is an error).
    #[arg(long)]
    null_error: bool,
    /// Input file (stdin when absent or `-`).
    file: Option<PathBuf>,
}

/// Converts each JSON value (see `jtoo::json` for the mapping) and prints its
/// canonical JTOO and `\n`. Exit 0; 1 for invalid or unconvertible input
/// (nothing more is printed after it); 2 for usage or I/O errors.
pub fn run(args: Args) -> u8 {
    let (name, bytes) = match read_input(args.file.as_deref()) {
        Ok(x) => x,
        Err(msg) => {
            eprintln!("{msg}");
            return 2;
        }
    };
    let mut options = FromJsonOptions::new();
    if args.null_error {
        options = options.with_null_policy(NullPolicy::Error);
    }
    let mut out = Vec::new();
    let mut status = 0;
    if args.lines {
        for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match convert(line, &options) {
                Ok(doc) => {
                    out.extend_from_slice(&doc);
                    out.push(b'\n');
                }
                Err(msg) => {
                    eprintln!("{name}:{}: {msg}", i + 1);
                    status = 1;
                    break;
                }
            }
        }
    } else {
        match convert(&bytes, &options) {
            Ok(doc) => {
                out.extend_from_slice(&doc);
                out.push(b'\n');
            }
            Err(msg) => {
                eprintln!("{name}: {msg}");
                status = 1;
            }
        }
    }
    match write_stdout(&out) {
        Ok(()) => status,
        Err(code) => code,
    }
}

fn convert(json: &[u8], options: &FromJsonOptions) -> Result<Vec<u8>, String> {
    let json: serde_json::Value =
        serde_json::from_slice(json).map_err(|e| format!("invalid JSON: {e}"))?;
    let value = jtoo::json::from_json_with(&json, options).map_err(|e| e.to_string())?;
    jtoo::to_vec(&value).map_err(|e| e.to_string())
}
