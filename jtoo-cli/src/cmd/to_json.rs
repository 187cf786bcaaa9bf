//! `jtoo to-json [--htoo] [--pretty | --lines] [FILE]`: JTOO (or HTOO) as
//! JSON.

use crate::io::{HOLD, Head, Input, Next, Out, Status, Stream, Syntax, each_line, report_streamed};
use jtoo::json::stream::{OnePass, Shapes, write_json, write_json_one_pass};
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
    /// Input file (stdin when absent or -). A file is read in one pass in
    /// a bounded window (files larger than memory convert); one of up to
    /// 8 MiB writes nothing unless it is valid, a longer one is written as
    /// it is read, so when it turns out invalid the part before the error
    /// has been written (exit 1). Stdin is read whole into memory.
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
/// A FILE (without `--lines`) is read once in bounded memory, so files
/// larger than memory convert: the JSON is written as the document is
/// checked (`jtoo::json::stream::write_json_one_pass`), `--pretty`
/// included, holding back only the output of a list whose JSON form its
/// later items decide (a record's, up to 8 MiB; past that the two passes
/// of `Shapes::read` and `write_json` finish it). A FILE of up to 8 MiB is
/// converted in memory and written only when valid; a longer one that
/// turns out invalid leaves the JSON before the error written (exit 1).
/// Stdin is read whole into memory and converted at once.
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
        return streamed(path, syntax, &mut input, args.pretty, out);
    }
    let (_, value) = syntax.read(&mut input)?;
    let json = to_json(&value);
    if args.pretty {
        out.line(pretty_json(&json).as_bytes())
    } else {
        out.line(json.as_bytes())
    }
}

/// Converts FILE in one streaming pass (see [`run`]): a document of up to
/// [`HOLD`] bytes is converted in memory and written only when it is
/// valid; a longer one is written as it is read.
fn streamed(path: &Path, syntax: Syntax, input: &mut Input, pretty: bool, out: &mut Out) -> Status {
    let probe = |b: &[u8]| syntax.validate(b);
    let (head, small) = match input.head(&probe)? {
        Head::Whole(Next::Invalid(bytes, e)) => {
            syntax.report(&input.name, &bytes, &e);
            return Err(1);
        }
        Head::Whole(Next::Doc(bytes)) => (bytes, true),
        Head::Whole(Next::End) => (Vec::new(), true),
        Head::Part(head) => (head, false),
    };
    let mut reader = input.stream(head, syntax);
    let again = || Ok(Input::open(Some(path))?.stream(Vec::new(), syntax));
    if small {
        let mut json = Vec::new();
        return match convert_to(&mut reader, again, usize::MAX, pretty, &mut json) {
            Ok(()) => out.line(&json),
            Err(Failed::Open(status)) => Err(status),
            Err(Failed::Read(e, other)) => {
                // Reported as the in-memory path reports it (hints that
                // look at the whole input included).
                if e.kind() != jtoo::ErrorKind::Io {
                    Input::open(Some(path)).and_then(|mut again| syntax.read(&mut again))?;
                }
                Err(report_streamed(
                    syntax,
                    &input.name,
                    other.as_deref().unwrap_or(&reader),
                    &e,
                ))
            }
        };
    }
    let mut sink = out.as_write();
    let written = convert_to(&mut reader, again, HOLD, pretty, &mut sink);
    match (written, sink.failed) {
        (Ok(()), _) => out.write(b"\n"),
        (Err(_), Some(status)) => Err(status),
        (Err(Failed::Open(status)), None) => Err(status),
        (Err(Failed::Read(e, other)), None) => Err(report_streamed(
            syntax,
            &input.name,
            other.as_deref().unwrap_or(&reader),
            &e,
        )),
    }
}

/// Why [`convert_to`] failed.
enum Failed {
    /// The input could not be opened again (reported: the exit status).
    Open(u8),
    /// A read or write error, and the reader of the two passes that met
    /// it (`None`: the one pass's).
    Read(jtoo::Error, Option<Box<Stream>>),
}

/// Writes the JSON of the document `reader` reads to `out`, indented with
/// `pretty`: in one pass holding back at most `max_pending` bytes of
/// output, and in two passes over the document `again` opens (the bytes
/// written already left out) for what the one pass leaves undecided.
fn convert_to(
    reader: &mut Stream,
    again: impl Fn() -> Status<Stream>,
    max_pending: usize,
    pretty: bool,
    out: &mut impl Write,
) -> Result<(), Failed> {
    if !pretty {
        return one_then_two(reader, again, max_pending, out);
    }
    let mut p = Pretty::new(out);
    one_then_two(reader, again, max_pending, &mut p)?;
    p.finish()
        .map_err(|e| Failed::Read(jtoo::Error::from(e), None))
}

/// [`convert_to`] without indenting.
fn one_then_two(
    reader: &mut Stream,
    again: impl Fn() -> Status<Stream>,
    max_pending: usize,
    out: &mut impl Write,
) -> Result<(), Failed> {
    let written = match write_json_one_pass(reader, &mut *out, max_pending) {
        Ok(OnePass::Undecided { written }) => written,
        Ok(_) => return Ok(()),
        Err(e) => return Err(Failed::Read(e, None)),
    };
    let mut out = Skip { out, skip: written };
    let mut first = again().map_err(Failed::Open)?;
    let shapes = match Shapes::read(&mut first) {
        Ok(shapes) => shapes,
        Err(e) => return Err(Failed::Read(e, Some(Box::new(first)))),
    };
    let mut second = again().map_err(Failed::Open)?;
    match write_json(&mut second, &shapes, &mut out) {
        Ok(()) => Ok(()),
        Err(e) => Err(Failed::Read(e, Some(Box::new(second)))),
    }
}

/// A writer that leaves out the first `skip` bytes written to it (those
/// the one pass wrote already) and writes the rest to `out`.
struct Skip<'a, W: Write> {
    out: &'a mut W,
    skip: u64,
}

impl<W: Write> Write for Skip<'_, W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let n = usize::try_from(self.skip)
            .unwrap_or(usize::MAX)
            .min(bytes.len());
        self.skip -= n as u64;
        self.out.write_all(bytes.get(n..).unwrap_or_default())?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
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
