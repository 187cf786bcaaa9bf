//! `jtoo to-json [--htoo] [--pretty | --lines] [FILE]`: JTOO (or HTOO) as
//! JSON.

use crate::io::{Input, Out, Status, Syntax, each_line};
use std::path::PathBuf;

/// Arguments of `jtoo to-json`.
#[derive(clap::Args)]
pub struct Args {
    /// Read the input as HTOO (the lenient, human-writable variant).
    #[arg(long)]
    htoo: bool,
    /// Indent the JSON output.
    #[arg(long, conflicts_with = "lines")]
    pretty: bool,
    /// Read one document per line (blank lines skipped) and write one JSON
    /// value per line (JSON Lines), as from-json --lines reads them.
    #[arg(long)]
    lines: bool,
    /// Input file (stdin when absent or -).
    file: Option<PathBuf>,
}

/// Prints the document (strict JTOO, optionally followed by one `\n`) as
/// JSON (see `jtoo::json::to_json_string` for the mapping: pairs-only
/// lists become objects, `[]` stays `[]`, bytes become lower-case hex
/// strings, dates and times their JTOO text, numbers their exact digits).
/// Duplicate keys are all kept, in order: JSON text allows them, and
/// nothing is dropped. Exit 0; 1 for invalid input; 2 for usage or I/O
/// errors.
pub fn run(args: Args) -> u8 {
    let mut out = Out::new();
    let status = convert(&args, &mut out).err().unwrap_or(0);
    out.finish(status)
}

fn convert(args: &Args, out: &mut Out) -> Status {
    let syntax = Syntax::new(args.htoo);
    let mut input = Input::open(args.file.as_deref())?;
    if args.lines {
        let probe = |b: &[u8]| syntax.validate(b);
        let convert = |line: &[u8]| {
            syntax
                .parse(line)
                .map(|v| jtoo::json::to_json_string(&v).into_bytes())
        };
        return each_line(&mut input, out, &probe, &convert);
    }
    let (_, value) = syntax.read(&mut input)?;
    let json = jtoo::json::to_json_string(&value);
    if args.pretty {
        out.line(pretty_json(&json).as_bytes())
    } else {
        out.line(json.as_bytes())
    }
}

/// Indents compact JSON text as `serde_json::to_string_pretty` does (two
/// spaces, `": "`, empty `[]` and `{}` kept on one line), without parsing
/// it into a map, so duplicate keys and exact numbers stay as they are.
pub fn pretty_json(compact: &str) -> String {
    fn newline(out: &mut String, depth: usize) {
        out.push('\n');
        out.extend(std::iter::repeat_n("  ", depth));
    }
    let mut out = String::with_capacity(compact.len() * 2);
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    let mut chars = compact.chars().peekable();
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '[' | '{' => {
                out.push(c);
                match chars.next_if(|&n| n == ']' || n == '}') {
                    Some(close) => out.push(close),
                    None => {
                        depth += 1;
                        newline(&mut out, depth);
                    }
                }
            }
            ']' | '}' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::pretty_json;

    #[test]
    fn pretty_json_matches_serde_json_layout() {
        let compact = r#"{"a":[1,{"b":"x,\"y\":[]"},[],{}],"c":1.50,"a":2}"#;
        assert_eq!(
            pretty_json(compact),
            "{\n  \"a\": [\n    1,\n    {\n      \"b\": \"x,\\\"y\\\":[]\"\n    },\n    [],\n    {}\n  ],\n  \"c\": 1.50,\n  \"a\": 2\n}"
        );
        let without_duplicates = r#"{"k":[1,2],"e":{},"s":"a\\"}"#;
        let value: serde_json::Value = serde_json::from_str(without_duplicates).unwrap_or_default();
        assert_eq!(
            pretty_json(without_duplicates),
            serde_json::to_string_pretty(&value).unwrap_or_default()
        );
    }
}
