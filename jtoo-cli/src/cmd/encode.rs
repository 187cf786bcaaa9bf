//! `jtoo encode [FILE]`: the conformance-suite encoder.
//!
//! Reads tagged JSON (see `spec_tests::tagged`; stdin by default) and writes the
//! value's canonical JTOO, byte for byte, with **no trailing newline** (a
//! canonical document never ends in one; `jtoo fmt` is the command that adds
//! one for terminals). Exit codes follow the `spec-tests` protocol: 0 with the
//! JTOO on stdout; 1 when the input is not valid tagged JSON or has no JTOO
//! spelling (a pair as the document, an ambiguous key, a malformed scalar),
//! with the reason on stderr; 2 when the input cannot be read or the output
//! cannot be written.

use crate::io::{Out, say};
use std::path::PathBuf;

/// Arguments.
#[derive(clap::Args)]
pub struct Args {
    /// Input file (stdin when absent or -).
    file: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: Args) -> u8 {
    let (name, bytes) = match crate::io::read_all(args.file.as_deref()) {
        Ok(input) => input,
        Err(code) => return code,
    };
    // Tagged JSON nests about twice as deep as the JTOO it describes (a pair
    // is an object holding a value), deeper than serde_json's default 128:
    // bound the depth ourselves, then parse without serde_json's limit.
    if json_depth(&bytes) > MAX_TAGGED_DEPTH {
        say!("jtoo: {name}: tagged JSON nested deeper than {MAX_TAGGED_DEPTH}");
        return 1;
    }
    let mut de = serde_json::Deserializer::from_slice(&bytes);
    de.disable_recursion_limit();
    let parsed = serde::Deserialize::deserialize(&mut de)
        .and_then(|v: serde_json::Value| de.end().map(|()| v));
    let json = match parsed {
        Ok(json) => json,
        Err(e) => {
            say!("jtoo: {name}: not JSON: {e}");
            return 1;
        }
    };
    let value = match spec_tests::tagged::from_tagged(&json) {
        Ok(value) => value,
        Err(why) => {
            say!("jtoo: {name}: invalid tagged JSON: {why}");
            return 1;
        }
    };
    match jtoo::to_vec(&value) {
        Ok(out) => {
            let mut stdout = Out::new();
            let written = stdout.write(&out);
            stdout.finish(written.err().unwrap_or(0))
        }
        Err(e) => {
            say!("jtoo: {name}: cannot encode: {e}");
            1
        }
    }
}

/// Deepest tagged-JSON nesting `jtoo encode` reads (JTOO's default depth
/// limit of 128, doubled for pairs, with room to spare).
const MAX_TAGGED_DEPTH: usize = 1024;

/// The maximum nesting of `[`/`{` outside strings (a cheap pre-scan; the
/// parser reports malformed input).
fn json_depth(bytes: &[u8]) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in bytes {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}
