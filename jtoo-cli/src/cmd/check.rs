//! `jtoo check [--htoo] [FILE…]`: validate documents.

use crate::io::{Head, Input, Next, Status, Syntax, drain, inputs, report_streamed};
use std::path::{Path, PathBuf};

/// Arguments of `jtoo check`.
#[derive(clap::Args)]
pub struct Args {
    /// Read the inputs as HTOO and show rustc-style diagnostics (files
    /// named *.htoo are read as HTOO without it).
    #[arg(long)]
    htoo: bool,
    /// Input files (stdin when none, or -).
    files: Vec<PathBuf>,
}

/// Checks every input. Exit 0 when all are valid; 1 when any is invalid,
/// with one report each on stderr (strict: `file:line:col: message`; HTOO:
/// a rustc-style diagnostic with the source line and a caret) and nothing
/// on stdout; 2 when a file cannot be read. An input of up to 8 MiB is
/// read whole; a longer one in one pass in a bounded window, up to its
/// first error.
pub fn run(args: Args) -> u8 {
    let syntax = Syntax::new(args.htoo);
    inputs(&args.files)
        .into_iter()
        .map(|file| check_one(file, syntax.for_file(file)).err().unwrap_or(0))
        .max()
        .unwrap_or(0)
}

fn check_one(file: Option<&Path>, syntax: Syntax) -> Status {
    let mut input = Input::open(file)?;
    let probe = |b: &[u8]| syntax.validate(b);
    let (bytes, err) = match input.head(&probe)? {
        Head::Whole(Next::Doc(bytes)) => match syntax.validate(&bytes) {
            Ok(()) => return Ok(()),
            Err(e) => (bytes, e),
        },
        Head::Whole(Next::Invalid(bytes, e)) => (bytes, e),
        Head::Whole(Next::End) => return Ok(()),
        // Longer than what is held in memory: one pass in a bounded window.
        Head::Part(head) => {
            let mut reader = input.stream(head, syntax);
            return drain(&mut reader)
                .map_err(|e| report_streamed(syntax, &input.name, &reader, &e));
        }
    };
    syntax.report(&input.name, &bytes, &err);
    Err(1)
}
