//! Every case of the conformance suite (spec-tests/cases/) through the
//! server: a valid document has no diagnostic, and formats to text with the
//! same value; an invalid one has exactly the parser's error, message and
//! position, as its one diagnostic.

use std::path::{Path, PathBuf};

use crate::common::{Client, doc};
use serde_json::{Value as Json, json};

fn cases(kind: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-tests/cases");
    let mut out = Vec::new();
    let mut todo: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path().join(kind))
        .collect();
    while let Some(dir) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "jtoo" || x == "htoo") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The LSP position of byte `offset`, counted here without the server:
/// lines end at `\n`, `\r\n` or `\r`; characters are UTF-16 units.
fn lsp_position(text: &str, offset: usize) -> Json {
    let (mut line, mut character) = (0, 0);
    let mut chars = text[..offset].chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => {}
            '\r' | '\n' => (line, character) = (line + 1, 0),
            c => character += c.len_utf16(),
        }
    }
    json!({ "line": line, "character": character })
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

#[test]
fn valid_cases_have_no_diagnostics_and_format_to_the_same_value() {
    let mut c = Client::start();
    let mut n = 0;
    for path in cases("valid") {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let u = uri(&path);
        let lang = if u.ends_with(".jtoo") { "jtoo" } else { "htoo" };
        assert_eq!(c.open(&u, lang, &text), Vec::<Json>::new(), "{u}");
        let value = htoo::from_str(&text).unwrap();
        let fmt = json!({ "textDocument": { "uri": u }, "options": { "tabSize": 2, "insertSpaces": true } });
        let edits = c.call("textDocument/formatting", fmt);
        let formatted = match edits.as_array().map(Vec::as_slice) {
            Some([]) => text.clone(),
            Some([edit]) => edit["newText"].as_str().unwrap().to_owned(),
            _ => panic!("{u}: {edits}"),
        };
        assert_eq!(htoo::from_str(&formatted).unwrap(), value, "{u}");
        if lang == "jtoo" {
            assert!(
                jtoo::validate(formatted.trim_end_matches('\n').as_bytes()).is_ok(),
                "{u}"
            );
        }
        assert!(c.call("textDocument/documentSymbol", doc(&u)).is_array());
        c.notify("textDocument/didClose", doc(&u));
        let _ = c.diagnostics(&u);
        n += 1;
    }
    assert!(n > 390, "only {n} valid cases");
    c.shutdown();
}

#[test]
fn invalid_cases_have_the_parsers_error_where_it_is() {
    let mut c = Client::start();
    let (mut n, mut skipped) = (0, 0);
    for path in cases("invalid") {
        // JSON text is Unicode: a case of invalid UTF-8 cannot be sent.
        let Ok(text) = std::fs::read_to_string(&path) else {
            skipped += 1;
            continue;
        };
        let u = uri(&path);
        let strict = u.ends_with(".jtoo");
        let err = if strict {
            // One final newline is allowed, as `jtoo check` allows it.
            jtoo::validate(text.strip_suffix('\n').unwrap_or(&text).as_bytes()).err()
        } else {
            htoo::from_str(&text).err()
        };
        let d = c.open(&u, if strict { "jtoo" } else { "htoo" }, &text);
        let Some(err) = err else {
            assert_eq!(d, Vec::<Json>::new(), "{u}");
            continue;
        };
        assert_eq!(d.len(), 1, "{u}: {d:?}");
        let mut message = err.message();
        if let Some(hint) = htoo::hint(&err, text.as_bytes()) {
            message = format!("{message}\nhelp: {hint}");
        }
        assert_eq!(d[0]["message"], message, "{u}");
        let mut at = err.position().map_or(0, |p| p.offset);
        // After a value, the diagnostic underlines what follows the
        // whitespace, if anything does.
        let rest = text[at..].trim_start_matches([' ', '\t', '\r', '\n']);
        if !rest.is_empty()
            && matches!(
                err.kind(),
                jtoo::ErrorKind::ExpectedCommaOrEnd | jtoo::ErrorKind::TrailingCharacters
            )
        {
            at = text.len() - rest.len();
        }
        assert_eq!(d[0]["range"]["start"], lsp_position(&text, at), "{u}");
        let (start, end) = (&d[0]["range"]["start"], &d[0]["range"]["end"]);
        let key = |p: &Json| {
            (
                p["line"].as_u64().unwrap(),
                p["character"].as_u64().unwrap(),
            )
        };
        assert!(key(start) <= key(end), "{u}");
        c.notify("textDocument/didClose", doc(&u));
        let _ = c.diagnostics(&u);
        n += 1;
    }
    assert!(n > 290, "only {n} invalid cases ({skipped} not UTF-8)");
    c.shutdown();
}
