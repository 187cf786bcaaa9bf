//! `jtoo check [--htoo] [FILE…]`: validate documents.

use crate::io::{Input, Next, Status, Syntax, inputs};
use std::path::{Path, PathBuf};

/// Arguments of `jtoo check`.
#[derive(clap::Args)]
pub struct Args {
    /// Read the inputs as HTOO and show rustc-style diagnostics.
    #[arg(long)]
    htoo: bool,
    /// Input files (stdin when none, or -).
    files: Vec<PathBuf>,
}

/// Checks every input. Exit 0 when all are valid; 1 when any is invalid,
/// with one report each on stderr (strict: `file:line:col: message`; HTOO:
/// a rustc-style diagnostic with the source line and a caret) and nothing
/// on stdout; 2 when a file cannot be read. Each input is read only up to
/// its first definite error.
pub fn run(args: Args) -> u8 {
    let syntax = Syntax::new(args.htoo);
    inputs(&args.files)
        .into_iter()
        .map(|file| check_one(file, syntax).err().unwrap_or(0))
        .max()
        .unwrap_or(0)
}

fn check_one(file: Option<&Path>, syntax: Syntax) -> Status {
    let mut input = Input::open(file)?;
    let probe = |b: &[u8]| syntax.validate(b);
    let (bytes, err) = match input.next_document(false, &probe)? {
        Next::Doc(bytes) => match syntax.validate(&bytes) {
            Ok(()) => return Ok(()),
            Err(e) => (bytes, e),
        },
        Next::Invalid(bytes, e) => (bytes, e),
        Next::End => return Ok(()),
    };
    syntax.report(&input.name, &bytes, &err);
    Err(1)
}
