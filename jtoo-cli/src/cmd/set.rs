//! `jtoo set [--htoo] [--in-place] FILE PATH VALUE`: change one value,
//! keeping the rest of the file byte for byte.

use crate::edit::{Target, refuse, resolve, write_out};
use crate::io::{Status, Syntax, say};
use jtoo::PathItem;

/// Arguments of `jtoo set`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    target: Target,
    /// The new value, as HTOO: 8080, Y, '"text"' (a string needs its
    /// quotes), '["a", "b"]', '["port": 80]'. The last step - appends a
    /// plain item; a missing last key is created.
    #[arg(value_name = "VALUE", allow_hyphen_values = true)]
    value: String,
    /// Rewrite FILE instead of writing the result to stdout (safely, as
    /// fmt --in-place does).
    #[arg(long)]
    in_place: bool,
}

/// Sets the value at PATH to VALUE: replaces the value there, or creates
/// the pair when the last step is a key its list does not have, or
/// appends a plain item for the last step `-`. Everything else keeps its
/// bytes (comments and layout included); a strict JTOO file stays
/// canonical. Writes the whole document to stdout, or with `--in-place`
/// rewrites FILE. Exit 0; 1 for an invalid document, path or value (FILE
/// untouched); 2 for usage or I/O errors.
pub fn run(args: Args) -> u8 {
    set(&args).err().unwrap_or(0)
}

fn set(args: &Args) -> Status {
    let (mut loaded, steps) = args.target.open(args.in_place)?;
    let name = loaded.name.clone();
    let value = htoo::from_str(&args.value).map_err(|e| {
        Syntax::new(true).report("VALUE", args.value.as_bytes(), &e);
        let quoted = format!("\"{}\"", args.value);
        if !args.value.contains('"') && htoo::from_str(&quoted).is_ok() {
            say!("help: VALUE is HTOO, where a string needs its quotes: '{quoted}'");
        }
        1
    })?;
    let resolved = resolve(&loaded.doc, &steps).map_err(|why| refuse(&name, why))?;
    let (last, parent) = match resolved.path.split_last() {
        Some((last, parent)) => (Some(*last), parent),
        None => (None, &[][..]),
    };
    let edited = match last {
        _ if resolved.found => loaded.doc.set(&resolved.path, &value),
        Some(PathItem::Key("-")) => loaded.doc.push(parent, &value),
        // A missing key: the pair is appended to its list.
        Some(PathItem::Key(_)) => loaded.doc.set(&resolved.path, &value),
        _ => {
            return Err(refuse(
                &name,
                format!("{}; the step `-` appends an item", resolved.missing),
            ));
        }
    };
    edited.map_err(|e| refuse(&name, format!("path `{}`: {e}", args.target.path)))?;
    write_out(&loaded, &args.target.file, args.in_place)
}
