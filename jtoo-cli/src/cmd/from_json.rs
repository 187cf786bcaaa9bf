//! `jtoo from-json [--lines] [--null-error] [FILE]`: JSON (or JSON Lines) as
//! canonical JTOO.

use crate::io::{Head, Input, MAX_TOKEN, Next, Out, Status, each_line, report_short, say};
use jtoo::json::{FromJsonOptions, NullPolicy};
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

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
    /// Read tagged JSON, the exact form to-json --exact writes (every list
    /// an array, a pair {"key": K, "value": V}, every scalar {"type": T,
    /// "value": "text"}), so a document comes back byte for byte. The input
    /// is held whole (up to 256 MiB).
    #[arg(long, conflicts_with = "null_error")]
    exact: bool,
    /// Input file (stdin when absent or -). Up to 8 MiB is converted in
    /// memory and written only once known valid; a longer FILE is read
    /// twice in bounded memory (checked, then converted), so invalid input
    /// writes nothing. Standard input longer than 8 MiB is converted as it
    /// is read: on an error, the JTOO of what came before it has already
    /// been written (partial output, exit 1).
    file: Option<PathBuf>,
}

/// With `--exact`, reads tagged JSON instead (`jtoo::json::tagged`), the
/// exact form `to-json --exact` writes.
///
/// Converts each JSON value as `jtoo::json::from_json_slice_with` does
/// (member order, exact numbers and duplicate keys all kept) and prints its
/// canonical JTOO and `\n`. Exit 0; 1 for invalid or unconvertible input,
/// reported as `file:line:col: message` (nothing more is printed after
/// it); 2 for usage or I/O errors.
///
/// Without `--lines`, nothing is written for invalid input, except from
/// a stream too long to hold: an input of up to 8 MiB (`crate::io::HOLD`)
/// is converted into memory and written once it is known to be valid; a
/// longer FILE is read twice in bounded memory (`jtoo::json::stream`), a
/// first pass that checks it and a second that writes its JTOO as it
/// reads, so files larger than memory convert; standard input longer than
/// 8 MiB cannot be read twice and is converted as it is read, in memory
/// bounded by a fixed buffer and the longest string or number (at most
/// 256 MiB, as `fmt` and `check` allow): on invalid input, the JTOO of
/// everything before the error has then already been written to stdout
/// (without a final `\n`) and stays there. The output is the same bytes
/// on every path.
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
    if args.exact {
        return exact(&mut input, args.lines, out);
    }
    if args.lines {
        let to_jtoo = |json: &[u8]| jtoo::json::from_json_slice_with(json, &options);
        let probe = |json: &[u8]| to_jtoo(json).map(drop);
        let convert = |json: &[u8]| to_jtoo(json).and_then(|v| jtoo::to_vec(&v));
        return each_line(&mut input, out, &probe, &convert);
    }
    let probe = |json: &[u8]| jtoo::json::from_json_slice_with(json, &options).map(drop);
    let head = match input.head(&probe)? {
        // All of it: converted into memory, written only when valid.
        Head::Whole(Next::Doc(bytes) | Next::Invalid(bytes, _)) => {
            let mut jtoo = Vec::with_capacity(bytes.len() + 1);
            return match stream(&bytes[..], &options, &input.name, &mut jtoo, &bytes) {
                Ok(()) => out.line(&jtoo),
                Err(status) => Err(status),
            };
        }
        Head::Whole(Next::End) => Vec::new(),
        Head::Part(head) => head,
    };
    let file = args.file.as_deref().filter(|p| *p != Path::new("-"));
    if let Some(path) = file {
        // A first pass checks the file, so invalid input writes nothing.
        let rest = std::io::Cursor::new(head).chain(&mut input.reader);
        stream(rest, &options, &input.name, &mut std::io::sink(), &[])?;
        let mut again = Input::open(Some(path))?;
        let name = again.name.clone();
        return stream_out(&mut again.reader, &options, &name, out);
    }
    let mut rest = std::io::Cursor::new(head).chain(&mut input.reader);
    stream_out(&mut rest, &options, &input.name, out)
}

/// `--exact`: tagged JSON (`jtoo::json::tagged`), the whole input or each
/// non-blank line, written only once converted; the first error is
/// reported as `name: message` (`name:LINE: message` for a line), exit 1.
fn exact(input: &mut Input, lines: bool, out: &mut Out) -> Status {
    let mut number = 0usize;
    loop {
        number += 1;
        let mut json = match input.next_document(lines, &|_| Ok(()))? {
            Next::End => return Ok(()),
            Next::Doc(json) | Next::Invalid(json, _) => json,
        };
        if lines && json.last() == Some(&b'\r') {
            json.pop();
        }
        if lines && json.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let converted = jtoo::json::tagged::from_tagged_slice(&json)
            .map_err(|e| e.to_string())
            .and_then(|v| jtoo::to_vec(&v).map_err(|e| e.to_string()));
        match converted {
            Ok(jtoo) => out.line(&jtoo)?,
            Err(why) if lines => {
                say!("{}:{number}: {why}", input.name);
                return Err(1);
            }
            Err(why) => {
                say!("{}: {why}", input.name);
                return Err(1);
            }
        }
        if !lines {
            return Ok(());
        }
    }
}

/// Converts the JSON read from `src` into `sink`, reporting an error of
/// the input named `name` (exit status 1, or 2 for a read error) against
/// `whole`, the input's bytes when `src` reads them from memory (else
/// empty: against the bytes the reader still holds).
fn stream(
    src: impl Read,
    options: &FromJsonOptions,
    name: &str,
    sink: &mut impl std::io::Write,
    whole: &[u8],
) -> Status {
    let mut reader = jtoo::json::stream::Reader::new(src)
        .with_options(options)
        .with_max_token(MAX_TOKEN);
    match reader.write_jtoo(sink) {
        Ok(_) => Ok(()),
        Err(e) if !whole.is_empty() && e.kind() != jtoo::ErrorKind::Io => {
            report_short(name, None, whole, &e, None);
            Err(1)
        }
        Err(e) => Err(report_streamed_json(
            name,
            reader.held_from(e.offset()),
            &e,
            None,
        )),
    }
}

/// Converts the JSON read from `src` to stdout as it is read, and a final
/// `\n`.
fn stream_out(
    src: &mut dyn BufRead,
    options: &FromJsonOptions,
    name: &str,
    out: &mut Out,
) -> Status {
    let mut reader = jtoo::json::stream::Reader::new(src)
        .with_options(options)
        .with_max_token(MAX_TOKEN);
    let mut sink = out.as_write();
    match reader.write_jtoo(&mut sink) {
        Ok(_) => out.write(b"\n"),
        Err(e) => {
            let held = reader.held_from(e.offset());
            Err(report_streamed_json(name, held, &e, sink.failed))
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
