//! `jtoo check [--htoo] [FILE…]`: validate documents.

use crate::io::read_input;
use std::path::PathBuf;

/// Arguments of `jtoo check`.
#[derive(clap::Args)]
pub struct Args {
    /// Read the inputs as HTOO and show rustc-style diagnostics.
    #[arg(long)]
    htoo: bool,
    /// Input files (stdin when none).
    files: Vec<PathBuf>,
}

/// Checks every input. Exit 0 when all are valid, 1 when any is invalid
/// (one `file:line:col: message` line each on stdout; with `--htoo` followed
/// by a rustc-style diagnostic with the source line and a caret), 2 when a
/// file cannot be read.
pub fn run(args: Args) -> u8 {
    let inputs: Vec<Option<PathBuf>> = if args.files.is_empty() {
        vec![None]
    } else {
        args.files.into_iter().map(Some).collect()
    };
    let mut code = 0;
    for file in inputs {
        let (name, bytes) = match read_input(file.as_deref()) {
            Ok(x) => x,
            Err(msg) => {
                eprintln!("{msg}");
                code = 2;
                continue;
            }
        };
        let parsed = crate::io::parse_document(&bytes, args.htoo);
        if let Err(e) = parsed {
            println!("{name}:{}:{}: {}", e.line(), e.column(), e.message());
            if args.htoo {
                print!("{}", htoo::render_diagnostic(&e, &bytes, &name));
            }
            code = code.max(1);
        }
    }
    code
}
