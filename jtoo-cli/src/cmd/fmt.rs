//! `jtoo fmt [--htoo] [--check | --in-place] [FILE…]`: canonical JTOO.

use crate::io::{Input, Out, Status, Syntax, inputs, say};
use std::path::{Path, PathBuf};

/// Arguments of `jtoo fmt`.
#[derive(clap::Args)]
pub struct Args {
    /// Read the inputs as HTOO (the lenient, human-writable variant).
    #[arg(long)]
    htoo: bool,
    /// Write nothing; list each FILE whose bytes are not what fmt would
    /// write, and exit 1 if there is any.
    #[arg(long, conflicts_with = "in_place")]
    check: bool,
    /// Rewrite each FILE with its canonical form (files already canonical
    /// are left untouched).
    #[arg(long, requires = "files")]
    in_place: bool,
    /// Input files (stdin when none, or -).
    files: Vec<PathBuf>,
}

/// Formats every input. Without a flag, writes each document's canonical
/// JTOO and one `\n` to stdout. Exit 0; 1 when an input is invalid (a
/// diagnostic on stderr, nothing on stdout for it) or, with `--check`, not
/// canonical; 2 for usage or I/O errors.
pub fn run(args: Args) -> u8 {
    let syntax = Syntax::new(args.htoo);
    let mut out = Out::new();
    let mut status = 0;
    for file in inputs(&args.files) {
        let result = format_one(file, syntax, &args, &mut out);
        match result {
            Ok(()) => {}
            Err(code @ crate::io::BROKEN_PIPE) => return code,
            Err(code) => status = status.max(code),
        }
    }
    out.finish(status)
}

fn format_one(file: Option<&Path>, syntax: Syntax, args: &Args, out: &mut Out) -> Status {
    let mut input = Input::open(file)?;
    let (bytes, value) = syntax.read(&mut input)?;
    let mut canonical = jtoo::to_vec(&value).map_err(|e| {
        say!("jtoo: {}: {e}", input.name);
        1
    })?;
    canonical.push(b'\n');
    if args.check {
        if bytes == canonical {
            return Ok(());
        }
        out.line(input.name.as_bytes())?;
        return Err(1);
    }
    match file {
        Some(path) if args.in_place => {
            if bytes != canonical {
                replace_file(path, &canonical)?;
            }
            Ok(())
        }
        _ => out.write(&canonical),
    }
}

/// Replaces `path`'s contents with `bytes` through a file beside it renamed
/// over it, so a crash leaves the old or the new file, never half of one.
fn replace_file(path: &Path, bytes: &[u8]) -> Status {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".jtoo-fmt-{}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let written = std::fs::write(&tmp, bytes)
        .and_then(|()| match std::fs::metadata(path) {
            Ok(meta) => std::fs::set_permissions(&tmp, meta.permissions()),
            Err(e) => Err(e),
        })
        .and_then(|()| std::fs::rename(&tmp, path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        say!("jtoo: cannot write {}: {e}", path.display());
        2
    })
}
