//! Shared input/output helpers for the subcommands.

use std::io::Read;
use std::path::{Path, PathBuf};

/// Reads FILE, or stdin when `None`. Returns the display name and the bytes.
pub fn read_input(file: Option<&Path>) -> Result<(String, Vec<u8>), String> {
    match file {
        Some(p) if p != Path::new("-") => std::fs::read(p)
            .map(|b| (p.display().to_string(), b))
            .map_err(|e| format!("jtoo: cannot read {}: {e}", p.display())),
        _ => {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .map(|_| ("<stdin>".to_string(), buf))
                .map_err(|e| format!("jtoo: cannot read stdin: {e}"))
        }
    }
}

/// Display name of an optional path argument.
#[allow(dead_code)]
pub fn name_of(file: Option<&PathBuf>) -> String {
    file.map_or_else(|| "<stdin>".to_string(), |p| p.display().to_string())
}

/// Writes all of `bytes` to stdout; a broken pipe or other error gives exit code 2.
pub fn write_stdout(bytes: &[u8]) -> Result<(), u8> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|e| {
            eprintln!("jtoo: cannot write output: {e}");
            2
        })
}
