//! `jtoo pretty [--htoo] [FILE]`: a document as pretty HTOO.
//!
//! Reads strict JTOO (one final `\n` allowed), or HTOO with `--htoo`, as
//! every text command does. Invalid input writes nothing on stdout, a
//! diagnostic on stderr, and exits 1.

use crate::io::{Input, Out, Syntax};
use std::path::PathBuf;

/// Arguments of `jtoo pretty`.
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
    /// Input file (stdin when absent or -).
    file: Option<PathBuf>,
}

/// Runs the command: 0 written, 1 invalid input, 2 usage or I/O error.
pub fn run(args: Args) -> u8 {
    let syntax = Syntax {
        htoo: args.htoo,
        max_depth: args.max_depth,
    };
    let value = match Input::open(args.file.as_deref()).and_then(|mut i| syntax.read(&mut i)) {
        Ok((_, value)) => value,
        Err(code) => return code,
    };
    let config = htoo::PrettyConfig::new()
        .with_indent(args.indent)
        .with_max_width(args.width);
    let mut out = Out::new();
    let written = out.line(htoo::to_string_pretty_with(&value, &config).as_bytes());
    out.finish(written.err().unwrap_or(0))
}
