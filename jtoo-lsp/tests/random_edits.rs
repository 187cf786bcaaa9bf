//! Fuzz-style: thousands of random edits (seeded, so a failure replays)
//! with requests in between. Every request is answered, with its own id;
//! the server never stops; and its copy of each document stays the text a
//! client would have, checked at the end against the same text opened
//! whole.

use crate::common::{Client, at, doc, range_json};
use serde_json::{Value as Json, json};

/// xorshift64*: a small seeded generator (no dependency needed).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Pieces of text edits are made of: tokens, half tokens, JSON habits,
/// multi-byte and astral characters, line ends of both kinds.
const PIECES: &[&str] = &[
    "[",
    "]",
    ",",
    ":",
    " ",
    "\n",
    "\r\n",
    "\r",
    "\t",
    "\"",
    "\\",
    "\\22",
    "\\n",
    "//",
    "/*",
    "*/",
    "// c\n",
    "/* c */",
    "1",
    "-",
    "0.5",
    "_",
    "1_000",
    "D2024-03-04",
    "T10:20",
    "~08",
    "-0800",
    "S1_709_528_240.001",
    "B4f",
    "Y",
    "N",
    "😀",
    "é",
    "你好",
    "\"key\": ",
    "true",
    "null",
    "{",
    "\u{0}",
    "\u{7f}",
    "\"a\"",
    "[\"x\": [1, 2],\n]",
];

/// The byte offset of an LSP position in `text`, written independently of
/// the server: a line past the end is the end; a character past its
/// line's end is the line's end (before its `\n`, `\r\n` or `\r`); inside
/// a surrogate pair is the character's start.
fn offset(text: &str, line: u32, character: u32) -> usize {
    let b = text.as_bytes();
    let mut start = 0;
    for _ in 0..line {
        // Lines end at `\n`, `\r\n` or a lone `\r`.
        match b[start..].iter().position(|&c| c == b'\n' || c == b'\r') {
            Some(i) if b[start + i..].starts_with(b"\r\n") => start += i + 2,
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    let mut units = 0;
    for (i, c) in text[start..].char_indices() {
        if c == '\n' || c == '\r' || units + c.len_utf16() > character as usize {
            return start + i;
        }
        units += c.len_utf16();
    }
    text.len()
}

fn random_position(rng: &mut Rng, text: &str) -> (u32, u32) {
    let lines = text.split('\n').count();
    let line = rng.below(lines + 2) as u32;
    let longest = text
        .split('\n')
        .map(|l| l.encode_utf16().count())
        .max()
        .unwrap_or(0);
    (line, rng.below(longest + 3) as u32)
}

fn requests(rng: &mut Rng, uri: &str, text: &str) -> (String, Json) {
    let (line, character) = random_position(rng, text);
    let pick = rng.below(8);
    let method = [
        "textDocument/hover",
        "textDocument/documentSymbol",
        "textDocument/foldingRange",
        "textDocument/formatting",
        "textDocument/completion",
        "textDocument/hover",
        "textDocument/documentSymbol",
        "textDocument/formatting",
    ][pick];
    let params = match pick {
        0 => at(uri, line, character),
        3 => {
            json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 2, "insertSpaces": true } })
        }
        4 => at(uri, line, character),
        // Wrong params for a known method.
        5 => json!({ "textDocument": 7 }),
        _ => doc(uri),
    };
    (method.to_owned(), params)
}

fn run(seed: u64, uri: &str, language: &str, start: &str, edits: usize) {
    let mut rng = Rng(seed);
    let mut c = Client::start();
    let mut text = start.to_owned();
    c.open(uri, language, &text);
    let mut version = 1;
    let mut answered = 0;
    let mut changes_sent = 0;
    for _ in 0..edits {
        // One to three changes per notification.
        let mut changes = Vec::new();
        for _ in 0..1 + rng.below(3) {
            let (l1, c1) = random_position(&mut rng, &text);
            let (l2, c2) = if rng.below(4) == 0 {
                random_position(&mut rng, &text)
            } else {
                (l1, c1 + rng.below(4) as u32)
            };
            let mut insert = String::new();
            for _ in 0..rng.below(4) {
                insert.push_str(PIECES[rng.below(PIECES.len())]);
            }
            let s = offset(&text, l1, c1);
            let e = offset(&text, l2, c2).max(s);
            text.replace_range(s..e, &insert);
            changes.push(json!({ "range": range_json([l1, c1, l2, c2]), "text": insert }));
        }
        version += 1;
        changes_sent += changes.len();
        c.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": changes }),
        );
        // Some requests, sent before any answer is read.
        let ids: Vec<_> = (0..rng.below(3))
            .map(|_| {
                let (method, params) = requests(&mut rng, uri, &text);
                c.send_request(&method, params)
            })
            .collect();
        for id in ids {
            // `response` fails the test unless the next response is this one.
            let _ = c.response(id);
            answered += 1;
        }
        // The server holds exactly the client's text.
        let held = c.call("jtoo/documentText", json!({ "uri": uri }));
        assert_eq!(
            held.as_str(),
            Some(text.as_str()),
            "after {changes_sent} changes"
        );
        if rng.below(64) == 0 {
            c.clear_notes();
        }
    }
    assert!(answered > edits / 2, "only {answered} requests");
    // The server's text is the client's: same diagnostics, outline and
    // formatting as the same text opened whole.
    let got = c.diagnostics_at(uri, version);
    let copy = format!("{uri}.copy.{language}");
    let want = c.open(&copy, language, &text);
    assert_eq!(got, want, "diagnostics differ for:\n{text}");
    for method in ["textDocument/documentSymbol", "textDocument/foldingRange"] {
        assert_eq!(
            c.call(method, doc(uri)),
            c.call(method, doc(&copy)),
            "{method}"
        );
    }
    let fmt = |u: &str| json!({ "textDocument": { "uri": u }, "options": { "tabSize": 2, "insertSpaces": true } });
    assert_eq!(
        c.call("textDocument/formatting", fmt(uri)),
        c.call("textDocument/formatting", fmt(&copy))
    );
    c.shutdown();
}

/// A hand-written HTOO config (as jtoo-cli/examples/config.htoo).
const CONFIG: &str = r#"// A service configuration, written by hand in HTOO.
[
  "service": "billing",
  "port": 8080,
  "enabled": Y,
  "ratio": 0.750,             /* trailing zeros are fine in HTOO */
  "limit": 1000000,           // no `_` needed either
  "started": D2024-03-04T10:20:30.400-0800,
  "checked": S1709528240.001,
  "key": B4F4B,
  "hosts": ["a.example", "b.example",],
  "note": "line one\nline two — 😀",
  "nested": [
    "deep": [[1, 2], [3, 4]],
  ],
]
"#;

#[test]
fn random_edits_to_htoo_are_all_answered() {
    for seed in [1, 2, 3] {
        run(seed, "file:///fuzz.htoo", "htoo", CONFIG, 700);
    }
}

#[test]
fn random_edits_to_jtoo_are_all_answered() {
    run(
        4,
        "file:///fuzz.jtoo",
        "jtoo",
        "[\"a\":[1,2,\"😀\"],\"b\":D2024-03-04]\n",
        700,
    );
}
