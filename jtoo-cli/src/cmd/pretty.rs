//! `jtoo pretty [--htoo] [FILE]`: a document as pretty HTOO.
//!
//! Reads strict JTOO, or HTOO with `--htoo`. Invalid input writes nothing on
//! stdout, a diagnostic (file:line:column, the line, a caret) on stderr, and
//! exits 1.

use crate::io::{read_input, write_stdout};
use std::path::PathBuf;

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Read the input as HTOO (comments, whitespace, trailing commas, …)
    /// instead of strict JTOO.
    #[arg(long)]
    htoo: bool,
    /// Spaces per nesting level.
    #[arg(long, value_name = "N", default_value_t = htoo::PrettyConfig::new().indent())]
    indent: usize,
    /// Widest line a one-line list may make.
    #[arg(long, value_name = "N", default_value_t = htoo::PrettyConfig::new().max_width())]
    width: usize,
    /// Maximum list nesting depth.
    #[arg(long, value_name = "N", default_value_t = jtoo::Options::DEFAULT_MAX_DEPTH)]
    max_depth: usize,
    /// Input file (stdin when absent or `-`).
    file: Option<PathBuf>,
}

/// Runs the command: 0 written, 1 invalid input, 2 usage or I/O error.
pub fn run(args: Args) -> u8 {
    let (name, input) = match read_input(args.file.as_deref()) {
        Ok(read) => read,
        Err(message) => {
            eprintln!("{message}");
            return 2;
        }
    };
    let parsed = if args.htoo {
        htoo::Options::new()
            .with_max_depth(args.max_depth)
            .from_slice(&input)
    } else {
        jtoo::Options::new()
            .with_max_depth(args.max_depth)
            .from_slice(&input)
    };
    let value = match parsed {
        Ok(value) => value,
        Err(err) => {
            eprint!("{}", htoo::render_diagnostic(&err, &input, &name));
            return 1;
        }
    };
    let config = htoo::PrettyConfig::new()
        .with_indent(args.indent)
        .with_max_width(args.width);
    let mut out = htoo::to_string_pretty_with(&value, &config).into_bytes();
    out.push(b'\n');
    match write_stdout(&out) {
        Ok(()) => 0,
        Err(code) => code,
    }
}
