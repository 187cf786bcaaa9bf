//! `jtoo from-json [--lines] [--null-error] [FILE]`: JSON (or JSON Lines) as
//! canonical JTOO.

use crate::io::{Input, Next, Out, Status, each_line, report_short};
use jtoo::json::{FromJsonOptions, NullPolicy};
use std::path::PathBuf;

/// Arguments of `jtoo from-json`.
#[derive(clap::Args)]
pub struct Args {
    /// Read JSON Lines: one JSON value per line (blank lines skipped), one
    /// JTOO document per output line.
    #[arg(long)]
    lines: bool,
    /// Refuse every JSON null (by default a null object member is left
    /// out and any other null is an error).
    #[arg(long)]
    null_error: bool,
    /// Input file (stdin when absent or -).
    file: Option<PathBuf>,
}

/// Converts each JSON value with `jtoo::json::from_json_slice_with` (member
/// order, exact numbers and duplicate keys all kept) and prints its
/// canonical JTOO and `\n`. Exit 0; 1 for invalid or unconvertible input,
/// reported as `file:line:col: message` (nothing more is printed after
/// it); 2 for usage or I/O errors.
pub fn run(args: Args) -> u8 {
    let mut out = Out::new();
    let status = convert(&args, &mut out).err().unwrap_or(0);
    out.finish(status)
}

fn convert(args: &Args, out: &mut Out) -> Status {
    let mut options = FromJsonOptions::new();
    if args.null_error {
        options = options.with_null_policy(NullPolicy::Error);
    }
    let mut input = Input::open(args.file.as_deref())?;
    let to_jtoo = |json: &[u8]| jtoo::json::from_json_slice_with(json, &options);
    let probe = |json: &[u8]| to_jtoo(json).map(drop);
    let convert = |json: &[u8]| to_jtoo(json).and_then(|v| jtoo::to_vec(&v));
    if args.lines {
        return each_line(&mut input, out, &probe, &convert);
    }
    let (json, failed) = match input.next_document(false, &probe)? {
        Next::Doc(json) => match convert(&json) {
            Ok(doc) => return out.line(&doc),
            Err(e) => (json, e),
        },
        Next::Invalid(json, e) => (json, e),
        Next::End => return Ok(()),
    };
    report_short(&input.name, None, &json, &failed, None);
    Err(1)
}
