//! The comment-keeping formatter (`htoo::format`, `Document::to_pretty_string`):
//! where each comment goes, blank lines, and its properties:
//!
//! - without comments, the layout is exactly `to_string_pretty_with`'s;
//! - the output means the same value and holds the same comments in the
//!   same order, each with its text unchanged;
//! - formatting is idempotent.
//!
//! Checked on hand-written cases, on generated values written with comments
//! and blank lines at every token boundary, on the conformance suite's valid
//! documents and on the corpus.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use htoo::PrettyConfig;
use jtoo::{Item, Pair, Value};
use proptest::prelude::*;

fn fmt(text: &str) -> String {
    fmt_with(text, &PrettyConfig::new())
}

/// Formats `text` and checks every property on the way: same value, same
/// comments, idempotent.
fn fmt_with(text: &str, cfg: &PrettyConfig) -> String {
    let out = match htoo::format(text, cfg) {
        Ok(out) => out,
        Err(e) => panic!("{}", htoo::render_diagnostic(&e, text.as_bytes(), "input")),
    };
    check(text, &out, cfg);
    out
}

fn check(text: &str, out: &str, cfg: &PrettyConfig) {
    let back = match htoo::from_str(out) {
        Ok(v) => v,
        Err(e) => panic!(
            "{}\n--- input\n{text}\n--- output\n{out}",
            htoo::render_diagnostic(&e, out.as_bytes(), "output")
        ),
    };
    assert_eq!(
        back,
        htoo::from_str(text).unwrap(),
        "--- input\n{text}\n--- output\n{out}"
    );
    assert_eq!(
        comments_of(out),
        comments_of(text),
        "--- input\n{text}\n--- output\n{out}"
    );
    let again = htoo::format(out, cfg).unwrap();
    assert_eq!(
        again, out,
        "not idempotent\n--- input\n{text}\n--- once\n{out}\n--- twice\n{again}"
    );
}

/// The comments of an HTOO text in order, found by a scanner of its own
/// (strings skipped): `//` comments without the line break (nor any `\r`
/// before it), `/* */` comments whole but for the indentation of their
/// later lines.
fn comments_of(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match (b[i], b.get(i + 1)) {
            (b'"', _) => {
                i += 1;
                while b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            (b'/', Some(b'/')) => {
                let end = text[i..].find('\n').map_or(b.len(), |n| i + n);
                out.push(text[i..end].trim_end_matches('\r').to_owned());
                i = end;
            }
            (b'/', Some(b'*')) => {
                let end = i + 2 + text[i + 2..].find("*/").unwrap() + 2;
                let lines: Vec<&str> = text[i..end]
                    .split('\n')
                    .enumerate()
                    .map(|(n, l)| {
                        if n == 0 {
                            l
                        } else {
                            l.trim_start_matches([' ', '\t'])
                        }
                    })
                    .collect();
                out.push(lines.join("\n"));
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Where comments go.

#[test]
fn no_comments_is_the_pretty_writer() {
    assert_eq!(fmt("[1,2,3]"), "[1, 2, 3]");
    assert_eq!(fmt("[\n\n1,\n\n 2]"), "[1, 2]");
    assert_eq!(fmt(" 1000 "), "1_000");
    assert_eq!(fmt("[\"a\" : 0.50, B4F : [ ] ,]"), "[\"a\": 0.5, B4f: []]");
}

#[test]
fn comments_before_and_after_the_document() {
    assert_eq!(fmt("/* c */ 1"), "/* c */\n1");
    assert_eq!(fmt("// header\n[]"), "// header\n[]");
    assert_eq!(fmt("1//c"), "1 //c");
    assert_eq!(fmt("1 /* a */ // b"), "1 /* a */ // b");
    assert_eq!(fmt("1\n// after\n\n\n// end\n"), "1\n// after\n\n// end");
    assert_eq!(
        fmt("\n\n// licence\n\n\n// about\n[1, 2] // two\n\n"),
        "// licence\n\n// about\n[1, 2] // two"
    );
}

#[test]
fn a_list_with_a_comment_has_one_item_per_line() {
    assert_eq!(
        fmt("[1, // one\n2 // two\n]"),
        "[\n  1, // one\n  2, // two\n]"
    );
    assert_eq!(
        fmt("[\"a\" /* This is a comment. */,\"b\"]"),
        "[\n  \"a\", /* This is a comment. */\n  \"b\",\n]"
    );
    // ... and so has every list around it; lists without comments inside
    // keep the pretty writer's layout.
    assert_eq!(
        fmt("[[1, 2], [3 /* c */], \"k\": [4]]"),
        "[\n  [1, 2],\n  [\n    3, /* c */\n  ],\n  \"k\": [4],\n]"
    );
}

#[test]
fn comments_in_front_of_items_stay_in_front() {
    let src = "[
    // The name.
    \"name\": \"api\",
    /* The port. */ \"port\": 8080,
    // Last.
    \"x\": Y,
]";
    assert_eq!(
        fmt(src),
        "[
  // The name.
  \"name\": \"api\",
  /* The port. */
  \"port\": 8_080,
  // Last.
  \"x\": Y,
]"
    );
}

#[test]
fn comments_after_the_open_bracket_and_before_the_close() {
    assert_eq!(fmt("[ // first\n 1]"), "[\n  // first\n  1,\n]");
    assert_eq!(fmt("[1,\n// dangling\n]"), "[\n  1,\n  // dangling\n]");
    assert_eq!(fmt("[1,/*x*/]"), "[\n  1, /*x*/\n]");
    assert_eq!(fmt("[1 /*x*/ ,]"), "[\n  1, /*x*/\n]");
    assert_eq!(fmt("[1 /*x*/ ]"), "[\n  1, /*x*/\n]");
}

#[test]
fn comments_in_empty_lists() {
    assert_eq!(fmt("[/* none */]"), "[\n  /* none */\n]");
    assert_eq!(
        fmt("[\"k\": [ // nothing yet\n]]"),
        "[\n  \"k\": [\n    // nothing yet\n  ],\n]"
    );
}

#[test]
fn comments_between_key_and_value_move_before_the_pair() {
    assert_eq!(
        fmt("[\"a\"/*k*/:/*v*/1]"),
        "[\n  /*k*/\n  /*v*/\n  \"a\": 1,\n]"
    );
    assert_eq!(
        fmt("[\"port\": // the default\n  80, \"b\": 2]"),
        "[\n  // the default\n  \"port\": 80,\n  \"b\": 2,\n]"
    );
    // After the comments above the pair, in order.
    assert_eq!(
        fmt("[\n  // above\n  \"a\" /* between */ : 1,\n]"),
        "[\n  // above\n  /* between */\n  \"a\": 1,\n]"
    );
}

#[test]
fn comments_after_a_key_with_comments_inside_stay_after_it() {
    // Moving them in front would put them before the key's own comments.
    assert_eq!(
        fmt("[[1 /* in */] /* after */ : 2]"),
        "[\n  [\n    1, /* in */\n  ] /* after */: 2,\n]"
    );
    assert_eq!(
        fmt("[[1 /* in */] // after\n : 2]"),
        "[\n  [\n    1, /* in */\n  ] // after\n  : 2,\n]"
    );
}

#[test]
fn own_line_comments_after_an_item_stay_on_their_own_lines() {
    // A comment on the item's line is its end-of-line comment; from the
    // first line break on, comments get lines of their own, even before
    // the comma.
    assert_eq!(
        fmt("[1 /* a */\n /* b */ , /* c */\n 2]"),
        "[\n  1, /* a */\n  /* b */\n  /* c */\n  2,\n]"
    );
    assert_eq!(
        fmt("[1 // a\n /* b */ , 2]"),
        "[\n  1, // a\n  /* b */\n  2,\n]"
    );
}

#[test]
fn a_comment_between_two_items_on_one_line_goes_with_the_next() {
    // Before the comma it ends the first item's line; after it, the next
    // item starts on the same line, and the comment goes above that.
    assert_eq!(
        fmt("[1 /* one */, /* two */ 2, 3]"),
        "[\n  1, /* one */\n  /* two */\n  2,\n  3,\n]"
    );
    assert_eq!(
        fmt("[\"port\": 80, /* ms */ \"timeout\": 30, // end\n]"),
        "[\n  \"port\": 80,\n  /* ms */\n  \"timeout\": 30, // end\n]"
    );
    // With a line break in the gap, a comment on the item's line is the
    // item's.
    assert_eq!(fmt("[1, /* one */\n 2]"), "[\n  1, /* one */\n  2,\n]");
    // Before `]`, there is no next item.
    assert_eq!(fmt("[1, /* one */]"), "[\n  1, /* one */\n]");
}

#[test]
fn at_most_one_blank_line_is_kept_where_there_were_any() {
    let src = "[\n\n\n  1,\n\n\n\n  2,\n  3,\n\n  // four\n\n  4,\n\n]";
    assert_eq!(fmt(src), "[\n  1,\n\n  2,\n  3,\n\n  // four\n\n  4,\n]");
    // A comment moved from between key and value takes the pair's blank line.
    assert_eq!(
        fmt("[1,\n\n\"a\" /* k */ : 2]"),
        "[\n  1,\n\n  /* k */\n  \"a\": 2,\n]"
    );
}

#[test]
fn blank_lines_are_kept_in_lists_laid_out_one_item_per_line_only() {
    let cfg = PrettyConfig::new().with_max_width(10);
    assert_eq!(fmt_with("[1,\n\n2]", &cfg), "[1, 2]");
    assert_eq!(
        fmt_with("[100,\n\n\n200, 300,\n\n[4, 5],\n[6\n\n]]", &cfg),
        "[\n  100,\n\n  200,\n  300,\n\n  [4, 5],\n  [6],\n]"
    );
    // Not after `[`, not before `]`, not before a comma.
    assert_eq!(
        fmt_with("[\n\n100\n\n, 200\n\n]", &cfg),
        "[\n  100,\n  200,\n]"
    );
}

#[test]
fn comment_text_is_kept_but_reindented() {
    let src = "[1,\n/*\n * two  \n */2]";
    assert_eq!(fmt(src), "[\n  1,\n  /*\n   * two  \n   */\n  2,\n]");
    // Starting on the item's line, it ends that line.
    let src = "[1,/*\n * two\n */2]";
    assert_eq!(fmt(src), "[\n  1, /*\n   * two\n   */\n  2,\n]");
    // A `//` comment loses the `\r` of a CRLF line ending, nothing else.
    assert_eq!(fmt("[1,// c \r\n2]"), "[\n  1, // c \n  2,\n]");
}

#[test]
fn comments_over_several_lines_move_as_a_block() {
    // Left, as far as the indentation goes.
    assert_eq!(
        fmt("[\n    /* first\n     * second\n x */\n    1]"),
        "[\n  /* first\n   * second\nx */\n  1,\n]"
    );
    // Right; empty lines stay empty.
    assert_eq!(
        fmt("[\"k\": [\n/* a\n\n * b\n */ 1]]"),
        "[\n  \"k\": [\n    /* a\n\n     * b\n     */\n    1,\n  ],\n]"
    );
    // At the end of an item's line, by as much as its start moved.
    assert_eq!(
        fmt("[1000, /* a\n          b */\n2]"),
        "[\n  1_000, /* a\n            b */\n  2,\n]"
    );
}

#[test]
fn scalars_are_canonical_and_keys_of_every_kind_work() {
    assert_eq!(
        fmt("[ // c\n T10Z : 20, D2023-12-30T01:02:03-08: 0.750, [1] : -1000, B4F4B:\"a\\tb\"]"),
        "[\n  // c\n  T10Z: 20,\n  D2023-12-30T01:02:03~08: 0.75,\n  [1]: -1_000,\n  B4f4b: \"a\\09b\",\n]"
    );
}

#[test]
fn width_and_indent_are_the_configs() {
    let cfg = PrettyConfig::new().with_indent(4).with_max_width(14);
    assert_eq!(
        fmt_with("[ /* c */ [1, 2, 3], [1, 2, 3, 4, 5]]", &cfg),
        "[\n    /* c */\n    [1, 2, 3],\n    [\n        1,\n        2,\n        3,\n        4,\n        5,\n    ],\n]"
    );
}

#[test]
fn errors_are_the_parsers() {
    for bad in [
        "",
        "// only",
        "[1 2]",
        "[1,,]",
        "/* open",
        "[T10 :20]",
        "[1",
    ] {
        let e = htoo::format(bad, &PrettyConfig::new()).unwrap_err();
        let parsed = htoo::from_str(bad).unwrap_err();
        assert_eq!(e.to_string(), parsed.to_string(), "{bad}");
        assert_eq!(e.offset(), parsed.offset(), "{bad}");
    }
}

#[test]
fn documents_at_the_depth_limit() {
    // 128 lists, each with comments around everything.
    let depth = htoo::Options::DEFAULT_MAX_DEPTH;
    let text = commented_nest(depth);
    let out = fmt(&text);
    assert_eq!(comments_of(&out).len(), 4 * depth + 1);
    // One deeper is the parser's error.
    let deeper = format!("[{text}]");
    let e = htoo::format(&deeper, &PrettyConfig::new()).unwrap_err();
    assert_eq!(e.kind(), htoo::from_str(&deeper).unwrap_err().kind());
}

/// `depth` nested lists with comments around everything.
fn commented_nest(depth: usize) -> String {
    let mut text = String::new();
    for i in 0..depth {
        text.push_str(&format!("// level {i}\n[ /* open {i} */ "));
    }
    text.push_str("1 // innermost\n");
    for i in (0..depth).rev() {
        text.push_str(&format!("/* close {i} */ ] // after {i}\n"));
    }
    text
}

#[test]
fn documents_at_the_depth_ceiling() {
    // The deepest any config allows, on a test thread's stack.
    let depth = jtoo::Options::DEPTH_CEILING;
    let cfg = PrettyConfig::new().with_max_depth(depth);
    let text = commented_nest(depth);
    let out = htoo::format(&text, &cfg).unwrap();
    let read = htoo::Options::new().with_max_depth(depth);
    assert_eq!(read.from_str(&out).unwrap(), read.from_str(&text).unwrap());
    assert_eq!(comments_of(&out), comments_of(&text));
    assert_eq!(htoo::format(&out, &cfg).unwrap(), out);
    // Past the default limit, the default config refuses as the parser does.
    let e = htoo::format(&text, &PrettyConfig::new()).unwrap_err();
    assert_eq!(
        e.to_string(),
        htoo::from_str(&text).unwrap_err().to_string()
    );
}

#[test]
fn crlf_documents_get_lf_lines() {
    assert_eq!(
        fmt("// top\r\n[\r\n  1, // one\r\n\r\n  2\r\n]\r\n"),
        "// top\n[\n  1, // one\n\n  2,\n]"
    );
}

#[test]
fn edited_documents_format() {
    let mut doc =
        htoo::Document::parse("[\n  // a\n  \"a\": 1,\n  \"b\": [2, 3], // b\n]").unwrap();
    doc.set(&jtoo::path!["a"], &Value::from(1000)).unwrap();
    doc.push(&jtoo::path!["b"], &Value::from(4)).unwrap();
    let out = doc.to_pretty_string(&PrettyConfig::new());
    assert_eq!(
        out,
        "[\n  // a\n  \"a\": 1_000,\n  \"b\": [2, 3, 4], // b\n]"
    );
    check(doc.as_str(), &out, &PrettyConfig::new());
}

#[test]
fn text_bytes_and_documents_format_alike() {
    let text = "/* a */ [\"k\" : 1000, // b\n [ /* c */ ], 0.50]";
    let cfg = PrettyConfig::new();
    let out = fmt(text);
    assert_eq!(htoo::format_slice(text.as_bytes(), &cfg).unwrap(), out);
    let doc = htoo::Document::parse(text).unwrap();
    assert_eq!(doc.to_pretty_string(&cfg), out);
    let e = htoo::format_slice(b"[1, \"\xff\"]", &cfg).unwrap_err();
    assert_eq!(
        e.to_string(),
        htoo::from_slice(b"[1, \"\xff\"]").unwrap_err().to_string()
    );
}

// ---------------------------------------------------------------------------
// The conformance suite and the corpus.

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn every_valid_conformance_document() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-tests/cases");
    let mut files = Vec::new();
    files_under(&root, &mut files);
    let mut checked = 0;
    for path in files {
        let name = path.to_string_lossy();
        if !name.contains("/valid/") || !(name.ends_with(".htoo") || name.ends_with(".jtoo")) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        // Strict documents that HTOO reads (all of them, by the spec).
        let Ok(value) = htoo::from_str(&text) else {
            assert!(htoo::format(&text, &PrettyConfig::new()).is_err(), "{name}");
            continue;
        };
        for cfg in [
            PrettyConfig::new(),
            PrettyConfig::new().with_max_width(0).with_indent(1),
        ] {
            let out = fmt_with(&text, &cfg);
            if comments_of(&text).is_empty() {
                assert_eq!(out, htoo::to_string_pretty_with(&value, &cfg), "{name}");
            }
        }
        checked += 1;
    }
    assert!(checked > 250, "{checked}");
}

#[test]
fn the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/corpus");
    for name in ["twitter", "citm_catalog", "canada"] {
        let json = std::fs::read(root.join(format!("{name}.json"))).unwrap();
        let value = jtoo::json::from_json_slice(&json).unwrap();
        let cfg = PrettyConfig::new();
        let pretty = htoo::to_string_pretty_with(&value, &cfg);
        // Without comments: exactly the pretty writer, from pretty or
        // canonical input.
        assert_eq!(htoo::format(&pretty, &cfg).unwrap(), pretty, "{name}");
        let canonical = jtoo::to_string(&value).unwrap();
        assert_eq!(htoo::format(&canonical, &cfg).unwrap(), pretty, "{name}");
        // With a comment at the end of every tenth line and before every
        // seventh: the same value, the same comments, idempotent.
        let commented: String = pretty
            .split('\n')
            .enumerate()
            .map(|(i, line)| match (i % 10, i % 7) {
                (0, _) => format!("{line} // line {i}\n"),
                (_, 0) => format!("/* before {i} */ {line}\n"),
                _ => format!("{line}\n"),
            })
            .collect();
        let out = htoo::format(&commented, &cfg).unwrap();
        check(&commented, &out, &cfg);
    }
}

// ---------------------------------------------------------------------------
// Generated documents.

fn scalar() -> impl Strategy<Value = Value> {
    let string = prop::collection::vec(
        prop_oneof![
            3 => prop::char::range(' ', '~'),
            1 => prop::sample::select(vec!['"', '\\', '/', '*', '\n', '\r', '你', '😀']),
        ],
        0..10,
    )
    .prop_map(|c| Value::from(String::from_iter(c)));
    let spelled = prop::sample::select(vec![
        "Y",
        "N",
        "0.5",
        "-1_000.000_1",
        "B",
        "B4f4b",
        "D2023-12-30T01:02:03~08",
        "D2023-W05-3",
        "T10:20:30.123",
        "T10Z",
        "S1_709_528_240.000_001",
    ])
    .prop_map(|s| jtoo::from_str(s).unwrap());
    prop_oneof![
        3 => string,
        2 => any::<i64>().prop_map(Value::from),
        1 => any::<i128>().prop_map(Value::from),
        2 => spelled,
    ]
}

fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(5, 64, 8, |inner| {
        let item = prop_oneof![
            2 => inner.clone().prop_map(Item::Value),
            2 => (inner.clone(), inner).prop_map(|(k, v)| match Pair::new(k.clone(), v) {
                Ok(p) => Item::Pair(p),
                Err(_) => Item::Value(k),
            }),
        ];
        prop::collection::vec(item, 0..8).prop_map(Value::from)
    })
}

fn config() -> impl Strategy<Value = PrettyConfig> {
    (0usize..5, prop_oneof![0usize..20, 20usize..120]).prop_map(|(indent, width)| {
        PrettyConfig::new()
            .with_indent(indent)
            .with_max_width(width)
    })
}

/// Writes a value as HTOO with the given trivia between tokens: each gap
/// takes the next choice of `gaps` (cycling).
struct Noisy<'g> {
    out: String,
    gaps: &'g [u8],
    next: usize,
}

impl Noisy<'_> {
    fn gap(&mut self) {
        let n = self.next;
        let choice = self
            .gaps
            .get(n % self.gaps.len().max(1))
            .copied()
            .unwrap_or(0);
        self.next += 1;
        let text = match choice % 14 {
            0 | 1 => String::new(),
            2 => " ".into(),
            3 => "\n  ".into(),
            4 => "\n\n\n".into(),
            5 => format!(" /* c{n} */ "),
            6 => format!(" // c{n}\n"),
            7 => format!("\n  /* m{n}\n   * two\n   */\n"),
            8 => format!("\n\n// d{n}\n\n  "),
            9 => "/**/".into(),
            10 => format!("\r\n// crlf{n}\r\n"),
            11 => format!("\t/* t{n}\r\n\t\t* tab\r\n\n*/\t"),
            12 => format!("  /* e{n}\n */ // f{n} \r\r\n\t\n"),
            _ => format!("/*a{n}*//*b{n}*/\n"),
        };
        self.out.push_str(&text);
    }

    fn value(&mut self, v: &Value) {
        match v.as_list() {
            None => self.out.push_str(&jtoo::to_string(v).unwrap()),
            Some(items) => {
                self.out.push('[');
                for (i, item) in items.iter().enumerate() {
                    self.gap();
                    if i > 0 {
                        self.out.push(',');
                        self.gap();
                    }
                    match item {
                        jtoo::ItemRef::Value(x) => self.value(x),
                        jtoo::ItemRef::Pair(p) => {
                            self.value(p.key());
                            self.gap();
                            self.out.push(':');
                            self.gap();
                            self.value(p.value());
                        }
                    }
                }
                self.gap();
                if !items.is_empty() && self.next.is_multiple_of(3) {
                    self.out.push(',');
                    self.gap();
                }
                self.out.push(']');
            }
        }
    }
}

fn noisy(v: &Value, gaps: &[u8]) -> String {
    let mut w = Noisy {
        out: String::new(),
        gaps,
        next: 0,
    };
    w.gap();
    w.value(v);
    w.gap();
    w.out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn without_comments_the_layout_is_the_pretty_writers(v in value(), a in config(), b in config()) {
        let expected = htoo::to_string_pretty_with(&v, &b);
        let from_pretty = htoo::format(&htoo::to_string_pretty_with(&v, &a), &b).unwrap();
        prop_assert_eq!(&from_pretty, &expected);
        let from_canonical = htoo::format(&jtoo::to_string(&v).unwrap(), &b).unwrap();
        prop_assert_eq!(&from_canonical, &expected);
        // Whitespace alone changes nothing either.
        let spaced = noisy(&v, &[0, 2, 3]);
        prop_assert_eq!(htoo::format(&spaced, &b).unwrap(), expected);
    }

    #[test]
    fn comments_anywhere_are_kept_in_order_and_formatting_is_idempotent(
        v in value(),
        gaps in prop::collection::vec(any::<u8>(), 1..40),
        cfg in config(),
    ) {
        let text = noisy(&v, &gaps);
        let out = fmt_with(&text, &cfg);
        prop_assert_eq!(htoo::from_str(&out).unwrap(), v);
    }
}

#[test]
fn the_readme_example() {
    let text = r#"// Service settings.
["name":"api", "port":8080, // the public port
 "hosts": ["a.example","b.example",],

 /* Limits. */ "limits": ["timeout" /* seconds */: 30, "retries": 3]]"#;
    assert_eq!(
        fmt(text),
        r#"// Service settings.
[
  "name": "api",
  "port": 8_080, // the public port
  "hosts": ["a.example", "b.example"],

  /* Limits. */
  "limits": [
    /* seconds */
    "timeout": 30,
    "retries": 3,
  ],
]"#
    );
}
