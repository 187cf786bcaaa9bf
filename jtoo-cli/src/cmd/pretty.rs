//! `jtoo pretty [--htoo] [--check | --in-place] [FILE…]`: documents as
//! pretty HTOO, every comment kept.
//!
//! Reads strict JTOO (one final `\n` allowed), or HTOO with `--htoo` or for
//! a file named `*.htoo`, as every text command does, and lays it out with
//! `htoo::format_slice`: the pretty writer's layout, with every comment
//! (end-of-line and interior) kept in place. Formatting its own output
//! gives the same bytes. Invalid input writes nothing on stdout, a
//! diagnostic on stderr, and exits 1.

use crate::io::{BROKEN_PIPE, Input, Next, Out, Status, Syntax, inputs, say};
use crate::replace::replace_file;
use std::path::{Path, PathBuf};

/// Arguments of `jtoo pretty`.
#[derive(clap::Args)]
pub struct Args {
    /// Read the inputs as HTOO (comments, whitespace, trailing commas, …)
    /// instead of strict JTOO; files named *.htoo are read as HTOO
    /// without it.
    #[arg(long)]
    htoo: bool,
    /// Write nothing; list each FILE whose bytes are not what pretty would
    /// write, and exit 1 if there is any.
    #[arg(long, conflicts_with = "in_place")]
    check: bool,
    /// Rewrite each FILE as pretty HTOO, keeping every comment (files
    /// already pretty are left untouched). Only HTOO files (*.htoo, or
    /// with --htoo): a strict JTOO file would stop being JTOO. Safe as
    /// fmt's: a new file beside it, synced and renamed over it; symlinks
    /// followed, hard links refused.
    #[arg(long, requires = "files")]
    in_place: bool,
    /// Spaces per nesting level.
    #[arg(long, value_name = "N", default_value_t = htoo::PrettyConfig::new().indent())]
    indent: usize,
    /// Widest line a one-line list may make.
    #[arg(long, value_name = "N", default_value_t = htoo::PrettyConfig::new().max_width())]
    width: usize,
    /// Maximum list nesting depth.
    #[arg(long, value_name = "N", default_value_t = jtoo::Options::DEFAULT_MAX_DEPTH)]
    max_depth: usize,
    /// Input files (stdin when none, or -).
    files: Vec<PathBuf>,
}

/// Runs the command: writes each document's pretty HTOO and a `\n`
/// (or checks or rewrites the files). Exit 0; 1 for invalid input or,
/// with `--check`, a file that is not pretty; 2 for usage or I/O errors.
/// Each input is held whole (at most 256 MiB).
pub fn run(args: Args) -> u8 {
    let syntax = Syntax {
        htoo: args.htoo,
        max_depth: args.max_depth,
    };
    let config = htoo::PrettyConfig::new()
        .with_indent(args.indent)
        .with_max_width(args.width)
        .with_max_depth(args.max_depth);
    let mut out = Out::new();
    let mut status = 0;
    for file in inputs(&args.files) {
        match pretty_one(file, syntax.for_file(file), &config, &args, &mut out) {
            Ok(()) => {}
            Err(BROKEN_PIPE) => return BROKEN_PIPE,
            Err(code) => status = status.max(code),
        }
    }
    out.finish(status)
}

fn pretty_one(
    file: Option<&Path>,
    syntax: Syntax,
    config: &htoo::PrettyConfig,
    args: &Args,
    out: &mut Out,
) -> Status {
    let mut input = Input::open(file)?;
    let name = input.name.clone();
    let report = |bytes: &[u8], e: jtoo::Error| {
        syntax.report(&name, bytes, &e);
        1
    };
    let probe = |b: &[u8]| syntax.validate(b);
    let bytes = match input.next_document(false, &probe)? {
        Next::Doc(bytes) => bytes,
        Next::Invalid(bytes, e) => return Err(report(&bytes, e)),
        Next::End => Vec::new(),
    };
    // Strict input is checked as strict JTOO first (which is HTOO too);
    // the formatter reports HTOO's errors as htoo::from_slice does.
    let text = if syntax.htoo {
        &bytes[..]
    } else {
        syntax.validate(&bytes).map_err(|e| report(&bytes, e))?;
        bytes.strip_suffix(b"\n").unwrap_or(&bytes)
    };
    let mut pretty = htoo::format_slice(text, config)
        .map_err(|e| report(&bytes, e))?
        .into_bytes();
    pretty.push(b'\n');
    if args.check {
        if bytes == pretty {
            return Ok(());
        }
        out.line(name.as_bytes())?;
        return Err(1);
    }
    match file {
        Some(path) if args.in_place => {
            if bytes != pretty {
                if !syntax.htoo {
                    say!(
                        "jtoo: {name}: not rewritten: it is read as strict JTOO, and pretty HTOO \
                         is not strict JTOO; pass --htoo (or name the file *.htoo) to rewrite it as HTOO"
                    );
                    return Err(2);
                }
                replace_file(path, |f| f.write_all(&pretty).map_err(|e| e.to_string()))?;
            }
            Ok(())
        }
        _ => out.write(&pretty),
    }
}
