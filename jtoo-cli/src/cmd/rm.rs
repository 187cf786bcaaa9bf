//! `jtoo rm [--htoo] [--in-place] FILE PATH`: remove one item, keeping the
//! rest of the file byte for byte.

use crate::edit::{Target, refuse, resolve, write_out};
use crate::io::Status;

/// Arguments of `jtoo rm`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    target: Target,
    /// Rewrite FILE instead of writing the result to stdout (safely, as
    /// fmt --in-place does).
    #[arg(long)]
    in_place: bool,
}

/// Removes the item at PATH (a pair with its key, or a plain item) with
/// its comments: the comment block just above it and its end-of-line
/// comment. Everything else keeps its bytes; a strict JTOO file stays
/// canonical. Writes the whole document to stdout, or with `--in-place`
/// rewrites FILE. Exit 0; 1 for an invalid document or a path that names
/// nothing (FILE untouched); 2 for usage or I/O errors.
pub fn run(args: Args) -> u8 {
    rm(&args).err().unwrap_or(0)
}

fn rm(args: &Args) -> Status {
    let (mut loaded, steps) = args.target.open(args.in_place)?;
    let name = loaded.name.clone();
    if steps.is_empty() {
        return Err(refuse(
            &name,
            "the empty path names the whole document; rm removes an item of a list",
        ));
    }
    let resolved = resolve(&loaded.doc, &steps).map_err(|why| refuse(&name, why))?;
    if !resolved.found {
        return Err(refuse(&name, resolved.missing));
    }
    loaded
        .doc
        .remove(&resolved.path)
        .map_err(|e| refuse(&name, format!("path `{}`: {e}", args.target.path)))?;
    write_out(&loaded, &args.target.file, args.in_place)
}
