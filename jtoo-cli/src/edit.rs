//! What `get`, `set` and `rm` share: a document loaded losslessly
//! ([`htoo::Document`]), JSON Pointer paths into it, and writing the edited
//! text out.
//!
//! **Paths** are JSON Pointers (RFC 6901): `/limits/timeout_ms`,
//! `/hosts/1`; in a step `~1` stands for `/` and `~0` for `~`; the leading
//! `/` may be left out (`limits/timeout_ms`); the empty path is the
//! document's value. A step names an item of a list:
//!
//! - a step that is the key of a pair in the list (a string key equal to
//!   the step) names that pair's value, **even when the step is digits**:
//!   `/ports/80` on `["ports": ["80": "http"]]` is `"http"`, as a JSON
//!   Pointer reads a member named `80` (and as `to-json` turns such a list
//!   into an object with that member);
//! - otherwise digits without a leading zero (`0`, `1`, `42`) name the
//!   n-th item of the list, counted from 0, plain item or pair (a pair's
//!   value);
//! - anything else is a key the list does not have.
//!
//! `set` creates a missing last step that is a key (the pair is appended
//! to the list), and appends a plain item for `-` (RFC 6902's "past the
//! end"); a missing position is an error.

use crate::io::{Input, Next, Out, Status, Syntax, say};
use crate::replace::replace_file;
use jtoo::PathItem;
use std::path::{Path, PathBuf};

/// A document read for editing.
pub struct Loaded {
    /// Shown in messages.
    pub name: String,
    /// Its bytes as read.
    pub bytes: Vec<u8>,
    /// The document, losslessly (strict JTOO is HTOO too).
    pub doc: htoo::Document,
    /// How it was read: strict JTOO is written back canonical.
    pub syntax: Syntax,
}

/// Reads FILE (stdin for `-`) whole (at most 256 MiB) as `syntax` (HTOO
/// for `*.htoo`) into a document. An invalid document is reported as the
/// other commands report it (exit status 1); a file that cannot be read
/// gives 2.
pub fn load(file: &Path, syntax: Syntax) -> Status<Loaded> {
    let syntax = syntax.for_file(Some(file));
    let mut input = Input::open(Some(file))?;
    let probe = |b: &[u8]| syntax.validate(b);
    let bytes = match input.next_document(false, &probe)? {
        Next::Doc(bytes) => bytes,
        Next::Invalid(bytes, e) => {
            syntax.report(&input.name, &bytes, &e);
            return Err(1);
        }
        Next::End => Vec::new(),
    };
    if !syntax.htoo {
        syntax.validate(&bytes).map_err(|e| {
            syntax.report(&input.name, &bytes, &e);
            1
        })?;
    }
    let options = htoo::Options::new().with_max_depth(syntax.max_depth);
    let doc = htoo::Document::from_slice_with(&bytes, &options).map_err(|e| {
        syntax.report(&input.name, &bytes, &e);
        1
    })?;
    Ok(Loaded {
        name: input.name,
        bytes,
        doc,
        syntax,
    })
}

/// Splits a JSON Pointer into its steps, unescaped.
///
/// # Errors
/// A `~` not followed by `0` or `1`.
pub fn parse_pointer(text: &str) -> Result<Vec<String>, String> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let body = text.strip_prefix('/').unwrap_or(text);
    body.split('/')
        .map(|step| {
            let mut out = String::with_capacity(step.len());
            let mut chars = step.chars();
            while let Some(c) = chars.next() {
                match (c, c == '~') {
                    (_, false) => out.push(c),
                    (_, true) => match chars.next() {
                        Some('0') => out.push('~'),
                        Some('1') => out.push('/'),
                        _ => {
                            return Err(format!(
                                "path `{text}`: `~` must be followed by `0` (for `~`) or `1` (for `/`)"
                            ));
                        }
                    },
                }
            }
            Ok(out)
        })
        .collect()
}

/// The pointer of the first `n` steps, escaped (`/a/b`; the empty path is
/// the empty string).
fn pointer(steps: &[String], n: usize) -> String {
    let mut out = String::new();
    for step in steps.iter().take(n) {
        out.push('/');
        out.push_str(&step.replace('~', "~0").replace('/', "~1"));
    }
    out
}

/// Where the first `n` steps lead, for messages.
fn place(steps: &[String], n: usize) -> String {
    if n == 0 {
        "the document's value".into()
    } else {
        format!("`{}`", pointer(steps, n))
    }
}

/// A position step: digits without a leading zero.
fn position(step: &str) -> Option<usize> {
    if step.len() > 1 && step.starts_with('0') {
        return None;
    }
    if step.is_empty() || !step.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    step.parse().ok()
}

/// How `step` reads in `list` (see the module's documentation).
fn step_in<'s>(list: &htoo::Node<'_>, step: &'s str) -> PathItem<'s> {
    if list.get(step).is_some() {
        return PathItem::Key(step);
    }
    match position(step) {
        Some(n) => PathItem::Index(n),
        None => PathItem::Key(step),
    }
}

/// The steps of a path resolved in a document, and whether the last one
/// names an existing item.
pub struct Resolved<'s> {
    /// The path, step by step.
    pub path: Vec<PathItem<'s>>,
    /// The last step names an item of its list (always for the empty
    /// path).
    pub found: bool,
    /// The message for a last step that names nothing.
    pub missing: String,
}

/// Follows `steps` through `doc`: every step but the last must name an
/// item, and every step must go into a list.
///
/// # Errors
/// A message saying which step names nothing or goes into a scalar.
pub fn resolve<'s>(doc: &htoo::Document, steps: &'s [String]) -> Result<Resolved<'s>, String> {
    let mut node = doc.root();
    let mut path = Vec::with_capacity(steps.len());
    for (i, step) in steps.iter().enumerate() {
        if !node.is_list() {
            let kind = node.kind().name();
            let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            return Err(format!(
                "path `{}`: {} is not a list (it is {article} {kind})",
                pointer(steps, steps.len()),
                place(steps, i),
            ));
        }
        let item = step_in(&node, step);
        path.push(item);
        let missing = match item {
            PathItem::Key(key) => format!(
                "path `{}`: {} has no pair with the key \"{key}\"",
                pointer(steps, steps.len()),
                place(steps, i)
            ),
            PathItem::Index(n) => format!(
                "path `{}`: {} has no item {n} (it has {} items, counted from 0)",
                pointer(steps, steps.len()),
                place(steps, i),
                node.len()
            ),
        };
        match node.find(item) {
            Some(entry) => node = entry.value(),
            None if i + 1 == steps.len() => {
                return Ok(Resolved {
                    path,
                    found: false,
                    missing,
                });
            }
            None => return Err(missing),
        }
    }
    Ok(Resolved {
        path,
        found: true,
        missing: String::new(),
    })
}

/// The text `loaded` becomes with its document as edited: HTOO as the
/// document holds it (every other byte as it was), strict JTOO canonical
/// (as it was: strict JTOO has one spelling) with the final `\n` it had.
pub fn edited_text(loaded: &Loaded) -> Status<Vec<u8>> {
    if loaded.syntax.htoo {
        return Ok(loaded.doc.as_str().as_bytes().to_vec());
    }
    let mut text = jtoo::to_vec(&loaded.doc.value()).map_err(|e| {
        say!("jtoo: {}: {e}", loaded.name);
        1
    })?;
    if loaded.bytes.ends_with(b"\n") {
        text.push(b'\n');
    }
    Ok(text)
}

/// Writes the edited document: to stdout, or with `in_place` over `file`
/// (through the safe write; only when it changed).
pub fn write_out(loaded: &Loaded, file: &Path, in_place: bool) -> Status {
    let text = edited_text(loaded)?;
    if in_place {
        if text != loaded.bytes {
            replace_file(file, |f| f.write_all(&text).map_err(|e| e.to_string()))?;
        }
        return Ok(());
    }
    let mut out = Out::new();
    let written = out.write(&text);
    match out.finish(written.err().unwrap_or(0)) {
        0 => Ok(()),
        code => Err(code),
    }
}

/// Reports a refused path or value (exit status 1).
pub fn refuse(name: &str, why: impl std::fmt::Display) -> u8 {
    say!("jtoo: {name}: {why}");
    1
}

/// Arguments every editing command takes.
#[derive(clap::Args)]
pub struct Target {
    /// Read FILE as HTOO (a file named *.htoo is read as HTOO without
    /// it); otherwise strict JTOO.
    #[arg(long)]
    pub htoo: bool,
    /// The document (- for stdin).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// A JSON Pointer: /limits/timeout_ms, /hosts/1 (~1 is /, ~0 is ~,
    /// the leading / may be left out, the empty path is the whole
    /// document). A step that is the key of a pair in its list names that
    /// pair's value, digits or not; otherwise digits name the n-th item
    /// (from 0).
    #[arg(value_name = "PATH", allow_hyphen_values = true)]
    pub path: String,
}

impl Target {
    /// Loads FILE and parses PATH, what `get`, `set` and `rm` do first;
    /// `in_place`: the command is to rewrite FILE, which stdin cannot be.
    pub fn open(&self, in_place: bool) -> Status<(Loaded, Vec<String>)> {
        if in_place && self.file.as_os_str() == "-" {
            say!("jtoo: --in-place needs a FILE, not stdin");
            return Err(2);
        }
        let loaded = load(&self.file, Syntax::new(self.htoo))?;
        let steps = parse_pointer(&self.path).map_err(|why| refuse(&loaded.name, why))?;
        Ok((loaded, steps))
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_pointer, pointer, position};

    #[test]
    fn pointers_split_and_unescape_as_rfc_6901_says() {
        let steps = |text: &str| parse_pointer(text).unwrap_or_else(|e| vec![e]);
        assert_eq!(steps(""), Vec::<String>::new());
        assert_eq!(steps("/"), [""]);
        assert_eq!(steps("//"), ["", ""]);
        assert_eq!(steps("/a/b"), ["a", "b"]);
        assert_eq!(steps("a/b"), ["a", "b"]);
        assert_eq!(steps("/a~1b/m~0n"), ["a/b", "m~n"]);
        // `~01` is `~1` (the `~0` is read first), not `/`.
        assert_eq!(steps("/~01"), ["~1"]);
        assert_eq!(steps("/é/ü"), ["é", "ü"]);
        for bad in ["/~", "/~2", "/a~"] {
            assert!(parse_pointer(bad).is_err(), "{bad}");
        }
        let parsed = steps("/a~1b/m~0n/");
        assert_eq!(pointer(&parsed, parsed.len()), "/a~1b/m~0n/");
    }

    #[test]
    fn positions_are_digits_without_a_leading_zero() {
        assert_eq!(position("0"), Some(0));
        assert_eq!(position("42"), Some(42));
        for not in ["", "01", "-1", "+1", "1a", "-", "99999999999999999999999"] {
            assert_eq!(position(not), None, "{not}");
        }
    }
}
