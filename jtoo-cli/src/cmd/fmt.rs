//! `jtoo fmt [--htoo] [--check | --in-place] [FILE…]`: canonical JTOO.

use crate::io::{Head, Input, Next, Out, Status, Syntax, drain, inputs, report_streamed, say};
use crate::replace::replace_file;
use std::path::{Path, PathBuf};

/// Arguments of `jtoo fmt`.
#[derive(clap::Args)]
pub struct Args {
    /// Read the inputs as HTOO (the lenient, human-writable variant);
    /// files named *.htoo are read as HTOO without it.
    #[arg(long)]
    htoo: bool,
    /// Write nothing; list each FILE whose bytes are not what fmt would
    /// write, and exit 1 if there is any.
    #[arg(long, conflicts_with = "in_place")]
    check: bool,
    /// Rewrite each FILE with its canonical form (files already canonical
    /// are left untouched). Safe: a new file beside it (its mode and owner
    /// from the start), synced and renamed over it; a symlink's target is
    /// rewritten and the link kept; a file with hard links is refused.
    /// An HTOO input with comments is refused too (canonical JTOO has
    /// none): pretty --in-place formats it keeping them.
    #[arg(long, requires = "files")]
    in_place: bool,
    /// Input files (stdin when none, or -). Invalid input writes nothing,
    /// except standard input longer than 8 MiB: it is formatted as it is
    /// read, so on an error the part before it has been written (exit 1).
    files: Vec<PathBuf>,
}

/// Formats every input. Without a flag, writes each document's canonical
/// JTOO and one `\n` to stdout. Exit 0; 1 when an input is invalid (a
/// diagnostic on stderr, nothing on stdout for it) or, with `--check`, not
/// canonical; 2 for usage or I/O errors. An input of up to 8 MiB is read
/// whole; a longer one is formatted as it is read, in bounded memory (a
/// window of the input, not the input). A longer FILE is read twice, a
/// first pass checking it, so invalid input writes nothing; standard input
/// longer than 8 MiB cannot be read twice, so when it turns out invalid the
/// part before the error has been written (partial output, exit 1).
pub fn run(args: Args) -> u8 {
    let syntax = Syntax::new(args.htoo);
    let mut out = Out::new();
    let mut status = 0;
    for file in inputs(&args.files) {
        let result = format_one(file, syntax.for_file(file), &args, &mut out);
        match result {
            Ok(()) => {}
            Err(code @ crate::io::BROKEN_PIPE) => return code,
            Err(code) => status = status.max(code),
        }
    }
    out.finish(status)
}

fn format_one(file: Option<&Path>, syntax: Syntax, args: &Args, out: &mut Out) -> Status {
    let mut input = Input::open(file)?;
    let probe = |b: &[u8]| syntax.validate(b);
    let bytes = match input.head(&probe)? {
        Head::Whole(Next::Doc(bytes)) => bytes,
        Head::Whole(Next::Invalid(bytes, e)) => {
            syntax.report(&input.name, &bytes, &e);
            return Err(1);
        }
        Head::Whole(Next::End) => Vec::new(),
        Head::Part(head) => return format_streamed(file, input, head, syntax, args, out),
    };
    let value = syntax.parse(&bytes).map_err(|e| {
        syntax.report(&input.name, &bytes, &e);
        1
    })?;
    let mut canonical = jtoo::to_vec(&value).map_err(|e| {
        say!("jtoo: {}: {e}", input.name);
        1
    })?;
    canonical.push(b'\n');
    if args.check {
        if bytes == canonical {
            return Ok(());
        }
        out.line(input.name.as_bytes())?;
        return Err(1);
    }
    match file {
        Some(path) if args.in_place => {
            if bytes != canonical {
                if syntax.htoo {
                    keep_comments(&input.name, &bytes, syntax)?;
                }
                replace_file(path, |f| f.write_all(&canonical).map_err(|e| e.to_string()))?;
            }
            Ok(())
        }
        _ => out.write(&canonical),
    }
}

/// [`format_one`] for an input longer than [`crate::io::HOLD`], in one
/// streaming pass (two for a file that `--in-place` rewrites): memory
/// stays bounded whatever the input's size. A FILE is checked in a first
/// pass and written in a second; standard input is written to stdout as
/// it is read, so when it turns out invalid the part before the error is
/// left there (exit 1, as always).
fn format_streamed(
    file: Option<&Path>,
    mut input: Input,
    head: Vec<u8>,
    syntax: Syntax,
    args: &Args,
    out: &mut Out,
) -> Status {
    if args.check || args.in_place {
        // Canonical exactly when the input is strict JTOO and one `\n`.
        let strict = Syntax {
            htoo: false,
            ..syntax
        };
        let mut reader = input.stream(head, strict);
        let checked = drain(&mut reader);
        let canonical = checked.is_ok() && reader.buffered().1.last() == Some(&b'\n');
        match checked {
            Err(e) if e.kind() == jtoo::ErrorKind::Io => {
                return Err(report_streamed(strict, &input.name, &reader, &e));
            }
            Err(e) if !syntax.htoo => {
                return Err(report_streamed(strict, &input.name, &reader, &e));
            }
            // Valid as HTOO? Only a file can be read again to tell;
            // standard input is then listed as not canonical.
            Err(_) => {
                if let Some(path) = file {
                    let mut again = Input::open(Some(path))?;
                    let mut reader = again.stream(Vec::new(), syntax);
                    if let Err(e) = drain(&mut reader) {
                        return Err(report_streamed(syntax, &again.name, &reader, &e));
                    }
                }
            }
            Ok(()) if canonical => return Ok(()),
            Ok(()) => {}
        }
        return match file {
            Some(path) if args.in_place => {
                if syntax.htoo {
                    let (_, bytes) = crate::io::read_all(Some(path))?;
                    keep_comments(&input.name, &bytes, syntax)?;
                }
                replace_file(path, |mut f| {
                    let mut again =
                        Input::open(Some(path)).map_err(|_| "cannot read it again".to_string())?;
                    let mut reader = again.stream(Vec::new(), syntax);
                    reader
                        .write_canonical(&mut f)
                        .and_then(|_| f.write_all(b"\n").map_err(jtoo::Error::from))
                        .map_err(|e| e.to_string())
                })
            }
            _ => {
                out.line(input.name.as_bytes())?;
                Err(1)
            }
        };
    }
    let mut reader = input.stream(head, syntax);
    let name = input.name.clone();
    if let Some(path) = file {
        // A file can be read twice: checked first, so that invalid input
        // writes nothing.
        if let Err(e) = drain(&mut reader) {
            return Err(report_streamed(syntax, &name, &reader, &e));
        }
        reader = Input::open(Some(path))?.stream(Vec::new(), syntax);
    }
    let mut sink = out.as_write();
    match reader.write_canonical(&mut sink) {
        Ok(_) => out.write(b"\n"),
        Err(e) => Err(sink
            .failed
            .unwrap_or_else(|| report_streamed(syntax, &name, &reader, &e))),
    }
}

/// Refuses to rewrite an HTOO input that has comments (exit status 2):
/// canonical JTOO has none, so `fmt --in-place` would drop them. `pretty
/// --in-place` formats it keeping them; `fmt` to stdout converts it.
fn keep_comments(name: &str, bytes: &[u8], syntax: Syntax) -> Status {
    let options = htoo::Options::new().with_max_depth(syntax.max_depth);
    let doc = htoo::Document::from_slice_with(bytes, &options).map_err(|e| {
        syntax.report(name, bytes, &e);
        1
    })?;
    if !has_comments(&doc) {
        return Ok(());
    }
    say!(
        "jtoo: {name}: not rewritten: it has comments, and canonical JTOO has none \
         (fmt would drop them); `jtoo pretty --in-place {name}` formats it keeping them, \
         `jtoo fmt --htoo {name} > NEW` converts it without them"
    );
    Err(2)
}

/// Whether the document holds a comment anywhere: in the trivia before
/// or after its value, or in any gap between the tokens of its lists.
pub fn has_comments(doc: &htoo::Document) -> bool {
    let comment = |start: usize, end: usize| {
        doc.trivia(start..end)
            .any(|t: htoo::Trivia| t.kind.is_comment())
    };
    let (lead, trail) = (doc.leading_trivia(), doc.trailing_trivia());
    if comment(lead.start, lead.end) || comment(trail.start, trail.end) {
        return true;
    }
    let mut lists = vec![doc.root()];
    while let Some(list) = lists.pop() {
        if !list.is_list() {
            continue;
        }
        let span = list.span();
        // After the `[`, between the values (keys included), before the `]`.
        let mut at = span.start + 1;
        for entry in list.entries() {
            for node in entry.key().into_iter().chain([entry.value()]) {
                if comment(at, node.span().start) {
                    return true;
                }
                at = node.span().end;
                lists.push(node);
            }
        }
        if comment(at, span.end.saturating_sub(1)) {
            return true;
        }
    }
    false
}
