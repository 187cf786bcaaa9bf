//! `jtoo to-json [--htoo] [--pretty | --lines] [FILE]`: JTOO (or HTOO) as
//! JSON.

use crate::io::{HOLD, Input, Out, Status, Syntax, each_line, report_streamed};
use jtoo::json::stream::{Shapes, write_json};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `jtoo to-json`.
#[derive(clap::Args)]
pub struct Args {
    /// Read the input as HTOO (the lenient, human-writable variant; a
    /// file named *.htoo is read as HTOO without it).
    #[arg(long)]
    htoo: bool,
    /// Indent the JSON output.
    #[arg(long, conflicts_with = "lines")]
    pretty: bool,
    /// Read one document per line (blank lines skipped) and write one JSON
    /// value per line (JSON Lines), as from-json --lines reads them.
    #[arg(long)]
    lines: bool,
    /// Write tagged JSON, the exact form from-json --exact reads back as the
    /// same document: every list an array, a pair {"key": K, "value": V},
    /// every scalar {"type": T, "value": "text"} (string, bytes, bool,
    /// integer, decimal, datetime, timestamp). The document is held whole
    /// (up to 256 MiB). Without it, JSON as a JSON program expects it, which
    /// loses types (bytes become hex strings, dates strings, keys strings).
    #[arg(long)]
    exact: bool,
    /// Input file (stdin when absent or -). A file is read twice in a
    /// bounded window (files larger than memory convert); stdin is read
    /// whole into memory.
    file: Option<PathBuf>,
}

/// Prints the document (strict JTOO, optionally followed by one `\n`) as
/// JSON (see `jtoo::json::to_json_string` for the mapping: pairs-only
/// lists become objects, `[]` stays `[]`, bytes become lower-case hex
/// strings, dates and times their JTOO text, numbers their exact digits).
/// Duplicate keys are all kept, in order: JSON text allows them, and
/// nothing is dropped. With `--exact`, tagged JSON instead
/// (`jtoo::json::tagged`), which `from-json --exact` reads back as the
/// same canonical bytes. Exit 0; 1 for invalid input; 2 for usage or I/O
/// errors.
///
/// A FILE (without `--lines`) is read twice in bounded memory, so files
/// larger than memory convert: a first pass checks the document and
/// records, per list, whether it is a record (a JSON object) and whether it
/// is a key (two bits per list); the second writes the JSON as it reads
/// (`jtoo::json::stream::write_json`), `--pretty` included. Invalid input
/// is found by the first pass, before anything is written. Stdin cannot be
/// read twice: it is read whole into memory and converted at once.
pub fn run(args: Args) -> u8 {
    let mut out = Out::new();
    let status = convert(&args, &mut out).err().unwrap_or(0);
    out.finish(status)
}

fn convert(args: &Args, out: &mut Out) -> Status {
    let syntax = Syntax::new(args.htoo).for_file(args.file.as_deref());
    let mut input = Input::open(args.file.as_deref())?;
    let to_json = if args.exact {
        jtoo::json::tagged::to_tagged_string
    } else {
        jtoo::json::to_json_string
    };
    if args.lines {
        let probe = |b: &[u8]| syntax.validate(b);
        let convert = |line: &[u8]| syntax.parse(line).map(|v| to_json(&v).into_bytes());
        return each_line(&mut input, out, &probe, &convert);
    }
    if let Some(path) = args.file.as_deref().filter(|p| *p != Path::new("-"))
        && !args.exact
    {
        return two_passes(path, syntax, &mut input, args.pretty, out);
    }
    let (_, value) = syntax.read(&mut input)?;
    let json = to_json(&value);
    if args.pretty {
        out.line(pretty_json(&json).as_bytes())
    } else {
        out.line(json.as_bytes())
    }
}

/// Converts FILE in two streaming passes (see [`run`]).
fn two_passes(
    path: &Path,
    syntax: Syntax,
    input: &mut Input,
    pretty: bool,
    out: &mut Out,
) -> Status {
    let mut first = input.stream(Vec::new(), syntax);
    let shapes = match Shapes::read(&mut first) {
        Ok(shapes) => shapes,
        Err(e) => {
            // Invalid: a file that `fmt` and `check` would hold is read
            // again whole and reported as the in-memory path reports it
            // (hints that look at the whole input included).
            let small = std::fs::metadata(path).is_ok_and(|m| m.len() <= HOLD as u64);
            if small && e.kind() != jtoo::ErrorKind::Io {
                Input::open(Some(path)).and_then(|mut again| syntax.read(&mut again))?;
            }
            return Err(report_streamed(syntax, &input.name, &first, &e));
        }
    };
    let mut second = Input::open(Some(path))?.stream(Vec::new(), syntax);
    let mut sink = out.as_write();
    let written = if pretty {
        let mut p = Pretty::new(&mut sink);
        write_json(&mut second, &shapes, &mut p)
            .and_then(|()| p.finish().map_err(jtoo::Error::from))
    } else {
        write_json(&mut second, &shapes, &mut sink)
    };
    match (written, sink.failed) {
        (Ok(()), _) => out.write(b"\n"),
        (Err(_), Some(status)) => Err(status),
        (Err(e), None) => Err(report_streamed(syntax, &input.name, &second, &e)),
    }
}

/// Indents compact JSON text as `serde_json::to_string_pretty` does (two
/// spaces, `": "`, empty `[]` and `{}` kept on one line), without parsing
/// it into a map, so duplicate keys and exact numbers stay as they are.
pub fn pretty_json(compact: &str) -> String {
    let mut out = Vec::with_capacity(compact.len() * 2);
    let mut p = Pretty::new(&mut out);
    // Writing to a Vec does not fail.
    let _ = p.write_all(compact.as_bytes()).and_then(|()| p.finish());
    String::from_utf8(out).unwrap_or_default()
}

/// [`pretty_json`] as a writer: compact JSON in, indented JSON out to the
/// inner writer, in bounded memory. Call [`Pretty::finish`] at the end.
pub struct Pretty<W: Write> {
    out: W,
    buf: Vec<u8>,
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// A `[` or `{` was just written: an empty one closes on the same line.
    opened: bool,
}

impl<W: Write> Pretty<W> {
    /// Indents into `out`.
    pub fn new(out: W) -> Pretty<W> {
        Pretty {
            out,
            buf: Vec::with_capacity(64 * 1024),
            depth: 0,
            in_string: false,
            escaped: false,
            opened: false,
        }
    }

    fn newline(&mut self) {
        self.buf.push(b'\n');
        for _ in 0..self.depth {
            self.buf.extend_from_slice(b"  ");
        }
    }

    fn byte(&mut self, c: u8) {
        if self.opened {
            self.opened = false;
            if c == b']' || c == b'}' {
                self.buf.push(c);
                return;
            }
            self.depth += 1;
            self.newline();
        }
        if self.in_string {
            self.buf.push(c);
            match (self.escaped, c) {
                (true, _) => self.escaped = false,
                (false, b'\\') => self.escaped = true,
                (false, b'"') => self.in_string = false,
                _ => {}
            }
            return;
        }
        match c {
            b'"' => {
                self.in_string = true;
                self.buf.push(c);
            }
            b'[' | b'{' => {
                self.buf.push(c);
                self.opened = true;
            }
            b']' | b'}' => {
                self.depth = self.depth.saturating_sub(1);
                self.newline();
                self.buf.push(c);
            }
            b',' => {
                self.buf.push(c);
                self.newline();
            }
            b':' => self.buf.extend_from_slice(b": "),
            c => self.buf.push(c),
        }
    }

    /// Ends the text and writes what is left.
    ///
    /// # Errors
    /// A write error of the inner writer.
    pub fn finish(&mut self) -> std::io::Result<()> {
        if self.opened {
            self.opened = false;
            self.depth += 1;
            self.newline();
        }
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }
}

impl<W: Write> Write for Pretty<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let mut rest = bytes;
        while let Some((&c, tail)) = rest.split_first() {
            if self.in_string && !self.escaped && !self.opened {
                // Inside a string: copy up to its next quote or backslash at once.
                let run = rest
                    .iter()
                    .position(|&b| b == b'"' || b == b'\\')
                    .unwrap_or(rest.len());
                if run > 0 {
                    let (text, after) = rest.split_at(run);
                    self.buf.extend_from_slice(text);
                    rest = after;
                    continue;
                }
            }
            self.byte(c);
            rest = tail;
        }
        if self.buf.len() >= 64 * 1024 {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{Pretty, pretty_json};
    use std::io::Write;

    #[test]
    fn pretty_writes_the_same_however_the_text_is_split() {
        let compact = r#"{"a":[1,{"b":"x,\"y\":[]\\"},[],{}],"c":"\\\"","d":{"e":[]}}"#;
        let whole = pretty_json(compact);
        for step in 1..7 {
            let mut out = Vec::new();
            let mut p = Pretty::new(&mut out);
            for piece in compact.as_bytes().chunks(step) {
                p.write_all(piece).unwrap_or_default();
            }
            p.finish().unwrap_or_default();
            assert_eq!(String::from_utf8_lossy(&out), whole, "{step}");
        }
        assert_eq!(pretty_json("[]"), "[]");
        assert_eq!(pretty_json("["), "[\n  ");
    }

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
