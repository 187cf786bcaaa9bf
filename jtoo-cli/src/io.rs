//! The one input and output path of every subcommand.
//!
//! **Output.** Everything a command prints on stdout goes through [`Out`];
//! diagnostics go to stderr through [`say!`]. Neither ever panics. When the
//! reader of stdout goes away (`jtoo to-json big.jtoo | head -c1`), the
//! command stops quietly with [`BROKEN_PIPE`] (141, the status a shell shows
//! for a tool killed by `SIGPIPE`, as `cat` and `jq` are); any other write
//! error is reported and exits 2.
//!
//! **Input.** Inputs are read incrementally ([`next_document`]): the bytes
//! read so far are checked at doubling sizes, and reading stops at the first
//! error that no further byte could repair, so `jtoo check < /dev/zero`
//! stops after its first chunk instead of reading until memory runs out.
//! Memory grows with the bytes of the document that arrived, never beyond
//! the first definite error plus [`jtoo::stream::FINAL_AFTER`] bytes and a
//! chunk, and never beyond [`MAX_DOCUMENT`]: a command that holds its
//! document whole stops there with exit status 1 (see [`too_long`]), as
//! the streaming commands stop at a token of [`MAX_TOKEN`] bytes, so no
//! input, `/dev/zero` or an endless string included, grows memory without
//! bound.

use std::io::{BufRead, BufReader, BufWriter, Read, Stdout, Write};
use std::path::{Path, PathBuf};

/// Exit status after stdout was closed by its reader (128 + `SIGPIPE`).
pub const BROKEN_PIPE: u8 = 141;

/// Prints a diagnostic line to stderr, ignoring a closed stderr (where
/// `eprintln!` would panic).
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}
pub(crate) use say;

/// Buffered stdout whose errors become exit statuses.
pub struct Out {
    w: BufWriter<Sink>,
}

impl Out {
    /// Stdout, buffered.
    pub fn new() -> Out {
        Out {
            w: BufWriter::with_capacity(64 * 1024, Sink::stdout()),
        }
    }

    /// Writes `bytes`; on failure the exit status (see [`output_failed`]).
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), u8> {
        self.w.write_all(bytes).map_err(output_failed)
    }

    /// Writes `bytes` and a `\n`.
    pub fn line(&mut self, bytes: &[u8]) -> Result<(), u8> {
        self.write(bytes)?;
        self.write(b"\n")
    }

    /// Flushes what is buffered (before a long wait, or at the end).
    pub fn flush(&mut self) -> Result<(), u8> {
        self.w.flush().map_err(output_failed)
    }

    /// Flushes and turns the command's `status` into the exit status: a
    /// failed flush wins.
    pub fn finish(mut self, status: u8) -> u8 {
        match self.flush() {
            Ok(()) => status,
            Err(code) => code,
        }
    }
}

/// Where [`Out`]'s buffer goes: on Unix a handle of its own on stdout's
/// file (a duplicate of descriptor 1), written to as a plain file, so its
/// 64 KiB chunks are not scanned for a newline as std's line-buffered
/// `Stdout` does with every write (about 27M instructions of `to-json`'s
/// 1,214M on a 28.9 MB document). Where stdout cannot be duplicated (it is
/// closed; not Unix), and from the first failed write on, std's `Stdout`:
/// the failed write is made again through it, so every error is what
/// `Stdout` makes of it (a closed pipe or a full disk reported, a stdout
/// that is not writable ignored as std ignores it).
enum Sink {
    #[cfg_attr(not(unix), allow(dead_code))]
    File(std::fs::File),
    Std(Stdout),
}

impl Sink {
    fn stdout() -> Sink {
        let stdout = std::io::stdout();
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            if let Ok(fd) = stdout.as_fd().try_clone_to_owned() {
                // Anything std's `Stdout` still buffers goes first.
                let _ = stdout.lock().flush();
                return Sink::File(std::fs::File::from(fd));
            }
        }
        Sink::Std(stdout)
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Sink::File(f) => match f.write(buf) {
                Ok(n) => Ok(n),
                // A write that fails writes nothing: std's `Stdout` has it.
                Err(_) => {
                    let mut stdout = std::io::stdout();
                    let written = stdout.write(buf);
                    *self = Sink::Std(stdout);
                    written
                }
            },
            Sink::Std(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Sink::File(f) => f.flush(),
            Sink::Std(s) => s.flush(),
        }
    }
}

/// [`Out`] as an [`std::io::Write`] for writers that take one (a streamed
/// document's canonical form), remembering the exit status of a failed
/// write so it is not mistaken for a read error.
pub struct OutWrite<'a> {
    out: &'a mut Out,
    /// The exit status of the first failed write.
    pub failed: Option<u8>,
}

impl Out {
    /// This output as an [`std::io::Write`].
    pub fn as_write(&mut self) -> OutWrite<'_> {
        OutWrite {
            out: self,
            failed: None,
        }
    }
}

impl Write for OutWrite<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.out.w.write(buf).inspect_err(|e| {
            if e.kind() != std::io::ErrorKind::Interrupted && self.failed.is_none() {
                self.failed = Some(output_failed(std::io::Error::new(e.kind(), e.to_string())));
            }
        })
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.w.flush()
    }
}

/// The exit status for a failed write to stdout: [`BROKEN_PIPE`], quietly,
/// when the reader went away; otherwise 2 with the error on stderr.
pub fn output_failed(e: std::io::Error) -> u8 {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        BROKEN_PIPE
    } else {
        say!("jtoo: cannot write output: {e}");
        2
    }
}

/// Runs `f` to completion on a multi-threaded tokio runtime: its exit
/// status, or 2 when no runtime can be started. A blocking read of stdin
/// may still be pending after an early decision: it is not waited for.
pub fn block_on(f: impl std::future::Future<Output = u8>) -> u8 {
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            say!("jtoo: cannot start the async runtime: {e}");
            return 2;
        }
    };
    let status = rt.block_on(f);
    rt.shutdown_background();
    status
}

/// Checks the bytes of a document read so far (see [`next_document`]).
pub type Probe<'a> = &'a dyn Fn(&[u8]) -> Result<(), jtoo::Error>;

/// Converts one line of the lines mode (see [`each_line`]).
pub type Convert<'a> = &'a dyn Fn(&[u8]) -> Result<Vec<u8>, jtoo::Error>;

/// `Ok` value or exit status: the `?` of the subcommands.
pub type Status<T = ()> = Result<T, u8>;

/// An open input: FILE, or stdin for `None` or `-`.
pub struct Input {
    /// Shown in messages: the path, or `<stdin>`.
    pub name: String,
    /// Where the bytes come from.
    pub reader: Box<dyn BufRead>,
}

impl Input {
    /// Opens FILE (stdin for `None` or `-`); a file that cannot be opened
    /// is reported and gives exit status 2.
    pub fn open(file: Option<&Path>) -> Status<Input> {
        match file {
            Some(p) if p != Path::new("-") => match std::fs::File::open(p) {
                Ok(f) => Ok(Input {
                    name: p.display().to_string(),
                    reader: Box::new(BufReader::with_capacity(CHUNK, f)),
                }),
                Err(e) => {
                    say!("jtoo: cannot read {}: {e}", p.display());
                    Err(2)
                }
            },
            _ => Ok(Input {
                name: "<stdin>".into(),
                reader: Box::new(BufReader::with_capacity(CHUNK, std::io::stdin())),
            }),
        }
    }

    /// Reads the next document: the whole input, or with `lines` the next
    /// line (without its `\n`), stopping early at an error `probe` finds
    /// that no further byte could repair (see [`jtoo::stream::is_final`]). A read error
    /// is reported and gives exit status 2.
    ///
    /// A document (or line) longer than [`MAX_DOCUMENT`] is not held: it is
    /// reported (see [`too_long`]) and gives exit status 1.
    pub fn next_document(&mut self, lines: bool, probe: Probe<'_>) -> Status<Next> {
        next_document(&mut self.reader, lines, probe).map_err(|e| self.read_failed(lines, &e))
    }

    /// Reports a failed read: a document over [`MAX_DOCUMENT`] (exit
    /// status 1) or an I/O error (2).
    fn read_failed(&self, lines: bool, e: &std::io::Error) -> u8 {
        if is_too_long(e) {
            too_long(&self.name, if lines { "line" } else { "document" });
            return 1;
        }
        say!("jtoo: cannot read {}: {e}", self.name);
        2
    }
}

/// The longest document (or line) a command holds whole in memory: the
/// same 256 MiB as the longest token a streaming command reads
/// ([`MAX_TOKEN`]). `fmt` and `check` stream longer inputs, `from-json`
/// and `to-json FILE` always stream; every other read stops here.
pub const MAX_DOCUMENT: usize = MAX_TOKEN;

/// Reports that the input's `what` ("document" or "line") is longer than
/// [`MAX_DOCUMENT`].
pub fn too_long(name: &str, what: &str) {
    say!(
        "jtoo: {name}: {what} too long: more than {} MiB, the most this command holds in memory \
         (fmt, check, from-json and to-json FILE stream inputs of any size)",
        MAX_DOCUMENT >> 20
    );
}

/// The error a read returns past [`MAX_DOCUMENT`] bytes.
#[derive(Debug)]
struct TooLong;

impl std::fmt::Display for TooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "more than {} bytes", MAX_DOCUMENT)
    }
}

impl std::error::Error for TooLong {}

fn is_too_long(e: &std::io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<TooLong>())
}

/// Bytes of a document that `fmt` and `check` hold in memory; a longer
/// input is read in one streaming pass in a bounded window instead
/// ([`jtoo::stream::Reader`]), so memory stays at about this plus the
/// window whatever the input's size.
pub const HOLD: usize = 8 << 20;

/// The longest single token (string, byte string, number, whitespace run)
/// a streamed document may hold: what bounds memory on endless input.
pub const MAX_TOKEN: usize = 256 << 20;

impl Input {
    /// Reads the input whole when it is at most [`HOLD`] bytes, else its
    /// first bytes, stopping early at an error `probe` finds that no
    /// further byte could repair (as [`Input::next_document`]). A read
    /// error is reported and gives exit status 2.
    pub fn head(&mut self, probe: Probe<'_>) -> Status<Head> {
        read_document(&mut self.reader, false, probe, HOLD).map_err(|e| self.read_failed(false, &e))
    }

    /// A streaming reader of the document whose first bytes are `head`
    /// (the rest is this input's), following `syntax`.
    pub fn stream(&mut self, head: Vec<u8>, syntax: Syntax) -> Stream {
        let rest = std::mem::replace(&mut self.reader, Box::new(std::io::empty()));
        jtoo::stream::Reader::new(std::io::Cursor::new(head).chain(rest))
            .with_syntax(if syntax.htoo {
                jtoo::parse::Syntax::Lenient
            } else {
                jtoo::parse::Syntax::Strict
            })
            .with_max_depth(syntax.max_depth)
            .with_final_newline(true)
            .with_max_token(MAX_TOKEN)
    }
}

/// A streamed document (see [`Input::stream`]).
pub type Stream = jtoo::stream::Reader<std::io::Chain<std::io::Cursor<Vec<u8>>, Box<dyn BufRead>>>;

/// Reads a streamed document to its end, checking it.
pub fn drain(reader: &mut Stream) -> Result<(), jtoo::Error> {
    reader.check_to_end().map(drop)
}

/// Reports an error of a streamed document, or a read error of its input
/// (exit status 2 instead of 1).
pub fn report_streamed(syntax: Syntax, name: &str, reader: &Stream, err: &jtoo::Error) -> u8 {
    if err.kind() == jtoo::ErrorKind::Io {
        say!("jtoo: cannot read {name}: {}", err.message());
        return 2;
    }
    // Shown against the bytes the reader still holds: the error's own
    // line, unless it began before them.
    let (start, held) = reader.buffered();
    match err.position() {
        Some(p) if p.offset >= start => {
            let local = jtoo::Position {
                offset: p.offset - start,
                ..p
            };
            let err = jtoo::Error::at_position(err.kind(), local);
            syntax.report_part(name, held, &err);
        }
        _ => report_short(name, None, &[], err, None),
    }
    1
}

/// The inputs of a command taking `FILE…`: stdin when there are none.
pub fn inputs(files: &[PathBuf]) -> Vec<Option<&Path>> {
    if files.is_empty() {
        vec![None]
    } else {
        files.iter().map(|f| Some(f.as_path())).collect()
    }
}

/// Bytes read at a time, and the size of the first check.
const CHUNK: usize = 64 * 1024;

/// One document read by [`next_document`].
pub enum Next {
    /// The input had no more bytes (lines mode only).
    End,
    /// The document's bytes.
    Doc(Vec<u8>),
    /// Reading stopped early at an error no further byte can repair; the
    /// bytes read so far, and the error in them.
    Invalid(Vec<u8>, jtoo::Error),
}

/// The start of an input (see [`Input::head`]).
pub enum Head {
    /// All of it ([`Next::Doc`] or [`Next::Invalid`]).
    Whole(Next),
    /// The first bytes of an input longer than [`HOLD`]; the rest is still
    /// to be read.
    Part(Vec<u8>),
}

/// See [`Input::next_document`]. A document longer than [`MAX_DOCUMENT`]
/// is an error (of a kind [`Input::next_document`] tells apart).
pub fn next_document(
    reader: &mut dyn BufRead,
    lines: bool,
    probe: Probe<'_>,
) -> std::io::Result<Next> {
    match read_document(reader, lines, probe, MAX_DOCUMENT)? {
        Head::Whole(next) => Ok(next),
        Head::Part(_) => Err(std::io::Error::other(TooLong)),
    }
}

/// [`next_document`], stopping after more than `limit` bytes: the rest is
/// then streamed ([`HOLD`]) or refused ([`MAX_DOCUMENT`]). The buffer
/// grows to at most `limit` and a chunk (never doubled past it).
fn read_document(
    reader: &mut dyn BufRead,
    lines: bool,
    probe: Probe<'_>,
    limit: usize,
) -> std::io::Result<Head> {
    let mut doc: Vec<u8> = Vec::new();
    let mut next_probe = CHUNK;
    let mut any = false;
    // Held whole (not streamed after `limit`): checked at doubling sizes.
    let whole = limit == MAX_DOCUMENT;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(Head::Whole(if lines && !any {
                Next::End
            } else {
                Next::Doc(doc)
            }));
        }
        any = true;
        let (take, done) = match lines.then(|| chunk.iter().position(|&b| b == b'\n')) {
            Some(Some(i)) => (i, true),
            _ => (chunk.len(), false),
        };
        if doc.capacity() - doc.len() < take {
            let need = doc.len() + take;
            let want = doc
                .capacity()
                .saturating_mul(2)
                .min(limit.saturating_add(CHUNK))
                .max(need);
            doc.reserve_exact(want - doc.len());
        }
        doc.extend_from_slice(chunk.get(..take).unwrap_or_default());
        reader.consume(if done { take + 1 } else { take });
        if done {
            return Ok(Head::Whole(Next::Doc(doc)));
        }
        if doc.len() > limit {
            return Ok(Head::Part(doc));
        }
        if doc.len() >= next_probe {
            // Doubling sizes; with a limit (the rest is then streamed,
            // which stops at the first error itself) the first chunk only.
            next_probe = if whole {
                doc.len().saturating_mul(2)
            } else {
                usize::MAX
            };
            if let Err(e) = probe(&doc)
                && jtoo::stream::is_final(e.kind(), e.offset(), doc.len())
            {
                return Ok(Head::Whole(Next::Invalid(doc, e)));
            }
        }
    }
}

/// Reads all of FILE (stdin for `None` or `-`) at once, for the commands
/// whose input is not a document (the conformance encoder, frame JSON
/// lines): exit status 2 when it cannot be read.
/// Exit status 1 past [`MAX_DOCUMENT`] bytes (see [`too_long`]).
pub fn read_all(file: Option<&Path>) -> Status<(String, Vec<u8>)> {
    let mut input = Input::open(file)?;
    match next_document(&mut input.reader, false, &|_| Ok(())) {
        Ok(Next::Doc(bytes)) => Ok((input.name, bytes)),
        // Not returned without lines, nor by a probe that finds nothing.
        Ok(Next::End | Next::Invalid(..)) => Ok((input.name, Vec::new())),
        Err(e) => Err(input.read_failed(false, &e)),
    }
}

/// How a text command reads a document.
#[derive(Clone, Copy)]
pub struct Syntax {
    /// HTOO instead of strict JTOO.
    pub htoo: bool,
    /// The nesting limit.
    pub max_depth: usize,
}

impl Syntax {
    /// Strict JTOO (`false`) or HTOO (`true`) with the default depth limit.
    pub fn new(htoo: bool) -> Syntax {
        Syntax {
            htoo,
            max_depth: jtoo::Options::DEFAULT_MAX_DEPTH,
        }
    }

    /// The syntax of `file`: HTOO when its name ends in `.htoo` (any case),
    /// as if `--htoo` were given; else this one. The one rule by which
    /// every command reads `.htoo` files as HTOO.
    pub fn for_file(self, file: Option<&Path>) -> Syntax {
        Syntax {
            htoo: self.htoo || file.is_some_and(is_htoo_file),
            ..self
        }
    }

    /// Parses a document file's bytes: HTOO, or strict JTOO where one final
    /// `\n` (as `jtoo fmt` writes it) ends the text file and is not part of
    /// the document. (`jtoo decode`, the conformance decoder, reads exact
    /// bytes.)
    pub fn parse(self, bytes: &[u8]) -> Result<jtoo::Value, jtoo::Error> {
        if self.htoo {
            htoo::Options::new()
                .with_max_depth(self.max_depth)
                .from_slice(bytes)
        } else {
            jtoo::Options::new()
                .with_max_depth(self.max_depth)
                .from_slice(bytes.strip_suffix(b"\n").unwrap_or(bytes))
        }
    }

    /// Checks the bytes without building the value where the parser can.
    pub fn validate(self, bytes: &[u8]) -> Result<(), jtoo::Error> {
        if self.htoo {
            self.parse(bytes).map(drop)
        } else {
            jtoo::Options::new()
                .with_max_depth(self.max_depth)
                .validate(bytes.strip_suffix(b"\n").unwrap_or(bytes))
        }
    }

    /// Reads one whole document from `input` and parses it: its bytes and
    /// its value. An invalid document is reported (see [`Syntax::report`])
    /// and gives exit status 1.
    pub fn read(self, input: &mut Input) -> Status<(Vec<u8>, jtoo::Value)> {
        let probe = |b: &[u8]| self.validate(b);
        match input.next_document(false, &probe)? {
            Next::Doc(bytes) => match self.parse(&bytes) {
                Ok(value) => Ok((bytes, value)),
                Err(e) => {
                    self.report(&input.name, &bytes, &e);
                    Err(1)
                }
            },
            Next::Invalid(bytes, e) => {
                self.report(&input.name, &bytes, &e);
                Err(1)
            }
            Next::End => Err(1),
        }
    }

    /// Reports a parse error on stderr, once: for HTOO a rustc-style
    /// diagnostic (source line and caret); for strict JTOO one
    /// `file:line:col: message` line. A hint follows when the error looks
    /// like a JSON habit, or when strict input would read as HTOO.
    pub fn report(self, name: &str, source: &[u8], err: &jtoo::Error) {
        if !self.htoo {
            let looks_like_htoo = name.ends_with(".htoo") || htoo::from_slice(source).is_ok();
            let hint = looks_like_htoo.then_some("this looks like HTOO: try --htoo");
            return report_short(name, None, source, err, hint);
        }
        self.report_part(name, source, err);
    }

    /// [`Syntax::report`] where `source` is only part of the input, around
    /// the error (whose offset is in `source`; line and column are the
    /// input's): no guess about the whole input.
    pub fn report_part(self, name: &str, source: &[u8], err: &jtoo::Error) {
        if self.htoo {
            say!(
                "{}",
                htoo::Diagnostic::new(err, source, name)
                    .to_string()
                    .trim_end()
            );
            return;
        }
        report_short(name, None, source, err, None);
    }
}

/// Whether `path` names an HTOO file: its extension is `htoo` (any case).
pub fn is_htoo_file(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("htoo"))
}

/// Reports `err`, found in `source` (all of the input, or for the lines
/// mode its line number `line`), as one `name:line:col: message` line on
/// stderr, then the source line around the error with a caret under it
/// (`htoo::Diagnostic::excerpt`: a window of a long line), then
/// `name:line:col: help: …` when `hint` or [`htoo::hint`] has one.
pub fn report_short(
    name: &str,
    line: Option<usize>,
    source: &[u8],
    err: &jtoo::Error,
    hint: Option<&str>,
) {
    let (line, column) = (line.unwrap_or(err.line()), err.column());
    say!("{name}:{line}:{column}: {}", err.message());
    if !source.is_empty() {
        // The line around the error, with a caret, as HTOO diagnostics
        // show it (a window of a long line).
        let position = err.position().map(|p| jtoo::Position { line, ..p });
        let excerpt = htoo::Diagnostic::at("", position, source, name).excerpt();
        if !excerpt.is_empty() {
            say!("{}", excerpt.trim_end());
        }
    }
    if let Some(hint) = htoo::hint(err, source).or(hint) {
        say!("{name}:{line}:{column}: help: {hint}");
    }
}

/// The lines mode of `to-json` and `from-json`: converts each non-blank
/// line of `input` (a final `\r` dropped) with `convert` and writes each
/// result as one line. Stops at the first error, reported as
/// `name:LINE:COL: message` with the input's line and the column in it;
/// exit status 1.
pub fn each_line(
    input: &mut Input,
    out: &mut Out,
    probe: Probe<'_>,
    convert: Convert<'_>,
) -> Status {
    let mut number = 0usize;
    loop {
        number += 1;
        let (line, err) = match input.next_document(true, probe)? {
            Next::End => return Ok(()),
            Next::Invalid(line, e) => (line, e),
            Next::Doc(mut line) => {
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                match convert(&line) {
                    Ok(converted) => {
                        out.line(&converted)?;
                        continue;
                    }
                    Err(e) => (line, e),
                }
            }
        };
        report_short(&input.name, Some(number), &line, &err, None);
        return Err(1);
    }
}
