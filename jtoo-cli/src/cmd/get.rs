//! `jtoo get [--htoo] [--json] FILE PATH`: one value of a document.

use crate::edit::{Target, refuse, resolve};
use crate::io::{Out, Status};

/// Arguments of `jtoo get`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    target: Target,
    /// Print the value as JSON (as to-json maps it) instead of canonical
    /// JTOO.
    #[arg(long)]
    json: bool,
}

/// Prints the value at PATH as canonical JTOO (or JSON) and a `\n`. Exit
/// 0; 1 for an invalid document or a path that names nothing; 2 for usage
/// or I/O errors.
pub fn run(args: Args) -> u8 {
    get(&args).err().unwrap_or(0)
}

fn get(args: &Args) -> Status {
    let (loaded, steps) = args.target.open(false)?;
    let resolved = resolve(&loaded.doc, &steps).map_err(|why| refuse(&loaded.name, why))?;
    let node = match loaded.doc.get(&resolved.path) {
        Some(node) if resolved.found => node,
        _ => return Err(refuse(&loaded.name, resolved.missing)),
    };
    let value = node.value();
    let text = if args.json {
        jtoo::json::to_json_string(&value).into_bytes()
    } else {
        jtoo::to_vec(&value).map_err(|e| refuse(&loaded.name, e))?
    };
    let mut out = Out::new();
    let written = out.line(&text);
    match out.finish(written.err().unwrap_or(0)) {
        0 => Ok(()),
        code => Err(code),
    }
}
