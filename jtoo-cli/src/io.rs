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

/// Parses a document file's bytes: HTOO, or strict JTOO where one final `\n`
/// (as `jtoo fmt` writes it) ends the text file and is not part of the
/// document. (`jtoo decode`, the conformance decoder, reads exact bytes.)
pub fn parse_document(bytes: &[u8], htoo: bool) -> Result<jtoo::Value, jtoo::Error> {
    if htoo {
        htoo::from_slice(bytes)
    } else {
        jtoo::from_slice(bytes.strip_suffix(b"\n").unwrap_or(bytes))
    }
}

/// Reads FILE (or stdin) and parses it with [`parse_document`]. On failure
/// prints `name:line:col: message` (or the I/O error) to stderr and returns
/// the exit code: 1 for invalid input, 2 for I/O errors.
pub fn read_document(file: Option<&Path>, htoo: bool) -> Result<(String, jtoo::Value), u8> {
    let (name, bytes) = read_input(file).map_err(|msg| {
        eprintln!("{msg}");
        2
    })?;
    match parse_document(&bytes, htoo) {
        Ok(value) => Ok((name, value)),
        Err(e) => {
            eprintln!("{name}:{}:{}: {}", e.line(), e.column(), e.message());
            Err(1)
        }
    }
}
