//! `jtoo decode [--htoo] [FILE]`: the conformance-suite decoder.
//!
//! Reads one document (stdin by default) and writes its value as tagged JSON
//! (see `jtoo::json::tagged`) followed by a newline. Exit codes follow the
//! `spec-tests` protocol: 0 with the tagged JSON on stdout; 1 when the
//! document is invalid (the error, with its position, on stderr); 2 when the
//! input cannot be read or the output cannot be written.

use crate::io::{Input, Next, Out, say};
use std::path::PathBuf;

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Read HTOO (the lenient, human-writable variant) instead of strict
    /// JTOO (a file named *.htoo is read as HTOO without it).
    #[arg(long)]
    htoo: bool,
    /// Input file (stdin when absent or -).
    file: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: Args) -> u8 {
    let mut input = match Input::open(args.file.as_deref()) {
        Ok(input) => input,
        Err(code) => return code,
    };
    let htoo = crate::io::Syntax::new(args.htoo)
        .for_file(args.file.as_deref())
        .htoo;
    let parse = |bytes: &[u8]| {
        if htoo {
            htoo::from_slice(bytes)
        } else {
            jtoo::from_slice(bytes)
        }
    };
    // The exact bytes, read up to the first error no further byte repairs.
    let probe = |bytes: &[u8]| parse(bytes).map(drop);
    let parsed = match input.next_document(false, &probe) {
        Ok(Next::Doc(bytes)) => parse(&bytes),
        Ok(Next::Invalid(_, e)) => Err(e),
        Ok(Next::End) => parse(b""),
        Err(code) => return code,
    };
    let name = input.name;
    match parsed {
        Ok(value) => {
            let mut out = jtoo::json::tagged::to_tagged_string(&value).into_bytes();
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
