//! Finding the cases of one spec revision on disk.
//!
//! ```text
//! cases/<rev>/valid/{jtoo,htoo}/<type>/<name>.{jtoo,htoo}   + <name>.json (+ <name>.canonical.jtoo for htoo)
//! cases/<rev>/invalid/{jtoo,htoo}/<type>/<name>.{jtoo,htoo}
//! cases/<rev>/implementation-defined/{jtoo,htoo}/<type>/<name>.{jtoo,htoo}  (+ .json, .txt)
//! cases/<rev>/valid/frame/<name>.frames     + <name>.json (JSON lines)
//! cases/<rev>/invalid/frame/<name>.frames   + <name>.json (lines printed before the error)
//! cases/<rev>/greeting/{accept,terminate,reply-505}/<name>.frames   + greeting/PROTOCOLS
//! cases/<rev>/invalid/tagged/<name>.json    (encoder input that must be refused)
//! cases/<rev>/from-json/valid/<name>.json    + <name>.jtoo (JSON -> canonical JTOO)
//! cases/<rev>/from-json/invalid/<name>.json  (JSON a converter must refuse)
//! cases/<rev>/jte/valid/<name>.{json,jtoo}   + <name>.canonical.jtoo (a JTE packet)
//! cases/<rev>/jte/invalid/<name>.{json,jtoo} (payloads that are no packet)
//! ```

use std::path::{Path, PathBuf};

/// Which grammar a document case is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// Strict JTOO (`.jtoo`).
    Jtoo,
    /// Lenient HTOO (`.htoo`).
    Htoo,
}

impl Syntax {
    /// The folder name and file extension.
    pub fn name(self) -> &'static str {
        match self {
            Syntax::Jtoo => "jtoo",
            Syntax::Htoo => "htoo",
        }
    }
}

/// What a greeting checker must do with a greeting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Greeting {
    /// Keep the connection: exit 0, write nothing.
    Accept,
    /// Close the connection without a reply: exit 1, write nothing.
    Terminate,
    /// Reply with the exact 505 frame, then close: exit 1.
    Reply505,
}

/// The kind of a case, from its place in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A document that must be accepted with the value in `<name>.json`.
    Valid(Syntax),
    /// A document that must be rejected (exit 1).
    Invalid(Syntax),
    /// A document the spec leaves open: reported, never counted.
    ImplementationDefined(Syntax),
    /// A frame stream that must decode to the lines in `<name>.json`.
    FrameValid,
    /// A frame stream that must fail after printing the lines in `<name>.json`.
    FrameInvalid,
    /// A greeting with its expected outcome.
    Greeting(Greeting),
    /// Tagged JSON that an encoder must refuse (exit 1).
    TaggedInvalid,
    /// A JSON document a JSON-to-JTOO converter must turn into the canonical
    /// JTOO in `<name>.jtoo`.
    FromJsonValid,
    /// A JSON document a JSON-to-JTOO converter must refuse (exit 1).
    FromJsonInvalid,
    /// A JTE packet payload (JSON or JTOO) a packet checker must write as
    /// the packet's comparison form in `<name>.canonical.jtoo`.
    JtePacketValid,
    /// A JTE payload that is no valid packet (exit 1).
    JtePacketInvalid,
}

/// One case file.
#[derive(Clone, Debug)]
pub struct Case {
    /// Path relative to the revision folder, with `/` separators: the case id.
    pub id: String,
    /// Absolute path of the input file.
    pub path: PathBuf,
    /// What kind of case it is.
    pub kind: Kind,
    /// For a strict-invalid case: HTOO accepts it (one of HTOO's leniencies
    /// makes it valid), so an HTOO decoder is not asked to reject it. Listed
    /// in `invalid/jtoo/HTOO-ACCEPTS`.
    pub htoo_accepts: bool,
}

impl Case {
    /// A sibling file of the case: `with_suffix(".json")` turns
    /// `a/b.jtoo` into `a/b.json`.
    pub fn sibling(&self, suffix: &str) -> PathBuf {
        let stem = self
            .path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        self.path.with_file_name(format!("{stem}{suffix}"))
    }

    /// The id of a sibling file (same rules as [`Case::sibling`]).
    pub fn sibling_id(&self, suffix: &str) -> String {
        match self.id.rfind('.') {
            Some(dot) => format!("{}{suffix}", &self.id[..dot]),
            None => format!("{}{suffix}", self.id),
        }
    }
}

/// The default folder holding the revisions (`spec-tests/cases`).
pub fn default_cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("cases")
}

/// The revisions in `cases_dir`, sorted (the last is the newest by name).
pub fn revisions(cases_dir: &Path) -> std::io::Result<Vec<String>> {
    let mut revs = Vec::new();
    for entry in std::fs::read_dir(cases_dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            revs.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    revs.sort();
    Ok(revs)
}

/// The file listing the strict-invalid cases that HTOO accepts, relative to
/// the revision folder: one case id per line, `#` comments.
pub const HTOO_ACCEPTS_FILE: &str = "invalid/jtoo/HTOO-ACCEPTS";

/// The ids listed in [`HTOO_ACCEPTS_FILE`] (empty when the file is absent).
pub fn htoo_accepts(rev_dir: &Path) -> std::io::Result<Vec<String>> {
    let path = rev_dir.join(HTOO_ACCEPTS_FILE);
    if !path.is_file() {
        return Ok(Vec::new());
    }
    Ok(id_list(&std::fs::read_to_string(path)?))
}

/// The entries of a list file: one per line, `#` starts a comment, blank
/// lines are ignored (skip lists and [`HTOO_ACCEPTS_FILE`]).
pub fn id_list(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// Every case of the revision folder `rev_dir`, sorted by id.
pub fn load(rev_dir: &Path) -> std::io::Result<Vec<Case>> {
    let accepts = htoo_accepts(rev_dir)?;
    let mut files = Vec::new();
    walk(rev_dir, &mut files)?;
    let mut cases = Vec::new();
    for path in files {
        let Ok(rel) = path.strip_prefix(rev_dir) else {
            continue;
        };
        let id = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        if let Some(kind) = classify(&id) {
            let htoo_accepts = kind == Kind::Invalid(Syntax::Jtoo) && accepts.contains(&id);
            cases.push(Case {
                id,
                path,
                kind,
                htoo_accepts,
            });
        }
    }
    cases.sort_by(|a, b| a.id.cmp(&b.id));
    if let Some(missing) = accepts.iter().find(|id| {
        !cases
            .iter()
            .any(|c| &c.id == *id && c.kind == Kind::Invalid(Syntax::Jtoo))
    }) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{HTOO_ACCEPTS_FILE} names {missing:?}, which is no invalid/jtoo case"),
        ));
    }
    Ok(cases)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            walk(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

fn classify(id: &str) -> Option<Kind> {
    let parts: Vec<&str> = id.split('/').collect();
    let file = *parts.last()?;
    let syntax = |s: &str| match s {
        "jtoo" => Some(Syntax::Jtoo),
        "htoo" => Some(Syntax::Htoo),
        _ => None,
    };
    match parts.as_slice() {
        [top, syn, _type, _name]
            if matches!(*top, "valid" | "invalid" | "implementation-defined") =>
        {
            let syn = syntax(syn)?;
            // `.canonical.jtoo` beside an HTOO case is not a case.
            if !file.ends_with(&format!(".{}", syn.name())) || file.ends_with(".canonical.jtoo") {
                return None;
            }
            Some(match *top {
                "valid" => Kind::Valid(syn),
                "invalid" => Kind::Invalid(syn),
                _ => Kind::ImplementationDefined(syn),
            })
        }
        ["valid", "frame", _] if file.ends_with(".frames") => Some(Kind::FrameValid),
        ["invalid", "frame", _] if file.ends_with(".frames") => Some(Kind::FrameInvalid),
        ["invalid", "tagged", _] if file.ends_with(".json") => Some(Kind::TaggedInvalid),
        ["from-json", "valid", _] if file.ends_with(".json") => Some(Kind::FromJsonValid),
        ["from-json", "invalid", _] if file.ends_with(".json") => Some(Kind::FromJsonInvalid),
        ["jte", outcome, _]
            if (file.ends_with(".json") || file.ends_with(".jtoo"))
                && !file.ends_with(".canonical.jtoo") =>
        {
            match *outcome {
                "valid" => Some(Kind::JtePacketValid),
                "invalid" => Some(Kind::JtePacketInvalid),
                _ => None,
            }
        }
        ["greeting", outcome, _] if file.ends_with(".frames") => match *outcome {
            "accept" => Some(Kind::Greeting(Greeting::Accept)),
            "terminate" => Some(Kind::Greeting(Greeting::Terminate)),
            "reply-505" => Some(Kind::Greeting(Greeting::Reply505)),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn classifies_the_layout() {
        assert_eq!(
            classify("valid/jtoo/integer/zero.jtoo"),
            Some(Kind::Valid(Syntax::Jtoo))
        );
        assert_eq!(classify("valid/jtoo/integer/zero.json"), None);
        assert_eq!(classify("valid/htoo/list/a.canonical.jtoo"), None);
        assert_eq!(
            classify("invalid/htoo/list/a.htoo"),
            Some(Kind::Invalid(Syntax::Htoo))
        );
        assert_eq!(classify("valid/frame/a.frames"), Some(Kind::FrameValid));
        assert_eq!(classify("valid/frame/a.json"), None);
        assert_eq!(
            classify("greeting/reply-505/x.frames"),
            Some(Kind::Greeting(Greeting::Reply505))
        );
        assert_eq!(classify("greeting/PROTOCOLS"), None);
        assert_eq!(classify("invalid/tagged/x.json"), Some(Kind::TaggedInvalid));
        assert_eq!(
            classify("from-json/valid/x.json"),
            Some(Kind::FromJsonValid)
        );
        assert_eq!(classify("from-json/valid/x.jtoo"), None);
        assert_eq!(classify("jte/valid/x.jtoo"), Some(Kind::JtePacketValid));
        assert_eq!(classify("jte/valid/x.canonical.jtoo"), None);
        assert_eq!(classify("jte/invalid/x.json"), Some(Kind::JtePacketInvalid));
        assert_eq!(
            classify("from-json/invalid/x.json"),
            Some(Kind::FromJsonInvalid)
        );
    }
}
