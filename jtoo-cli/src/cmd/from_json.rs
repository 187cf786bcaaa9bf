//! `jtoo from-json [--lines] [--null-error] [FILE]`: JSON (or JSON Lines) as
//! canonical JTOO.

use crate::io::{Input, MAX_TOKEN, Out, Status, each_line, report_short, say};
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
    /// Input file (stdin when absent or -). Read in one streaming pass in
    /// bounded memory, whatever its size.
    file: Option<PathBuf>,
}

/// Converts each JSON value as `jtoo::json::from_json_slice_with` does
/// (member order, exact numbers and duplicate keys all kept) and prints its
/// canonical JTOO and `\n`. Exit 0; 1 for invalid or unconvertible input,
/// reported as `file:line:col: message` (nothing more is printed after
/// it); 2 for usage or I/O errors.
///
/// Without `--lines` the input (file or stdin) is converted as it is read
/// (`jtoo::json::stream`), in memory bounded by a fixed buffer and the
/// longest string or number (at most 256 MiB, as `fmt` and `check`
/// allow), so inputs larger than memory convert. The
/// output is the same bytes as converting the whole input at once; but on
/// invalid input, the JTOO of everything before the error has already been
/// written to stdout (without a final `\n`) and stays there.
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
    if args.lines {
        let to_jtoo = |json: &[u8]| jtoo::json::from_json_slice_with(json, &options);
        let probe = |json: &[u8]| to_jtoo(json).map(drop);
        let convert = |json: &[u8]| to_jtoo(json).and_then(|v| jtoo::to_vec(&v));
        return each_line(&mut input, out, &probe, &convert);
    }
    let mut reader = jtoo::json::stream::Reader::new(&mut input.reader)
        .with_options(&options)
        .with_max_token(MAX_TOKEN);
    let mut sink = out.as_write();
    match reader.write_jtoo(&mut sink) {
        Ok(_) => out.write(b"\n"),
        Err(e) => {
            let held = reader.held_from(e.offset());
            Err(report_streamed_json(&input.name, held, &e, sink.failed))
        }
    }
}

/// The exit status for an error of a streaming conversion, reported as the
/// in-memory path reports it: a failed write (`failed`, already reported);
/// a read error (2); invalid input (1) as one `file:line:col: message`
/// line, with the hint that the bytes at the error (`held`, from its
/// offset on) give.
fn report_streamed_json(name: &str, held: &[u8], err: &jtoo::Error, failed: Option<u8>) -> u8 {
    if let Some(status) = failed {
        return status;
    }
    if err.kind() == jtoo::ErrorKind::Io {
        match std::error::Error::source(err) {
            Some(io) => say!("jtoo: cannot read {name}: {io}"),
            None => say!("jtoo: cannot read {name}: {}", err.message()),
        }
        return 2;
    }
    // The error against the held bytes: at offset 0 of them, same line
    // and column.
    let local = err.position().map(|p| jtoo::Position { offset: 0, ..p });
    match local {
        Some(p) => report_short(
            name,
            None,
            held,
            &jtoo::Error::at_position(err.kind(), p),
            None,
        ),
        None => report_short(name, None, &[], err, None),
    }
    1
}
