//! `htoo::Document`, read side: lossless round trip, the same value and the
//! same errors as `htoo::from_slice`, navigation, spans and comments.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use htoo::{Document, Span, TriviaKind};
use jtoo::{PathItem, Value, ValueKind, path};
use proptest::prelude::*;

/// Parses `input` both ways and checks they agree: same text back and the
/// same value, or the same error.
fn agree(input: &[u8]) -> Option<Document> {
    let fast = htoo::from_slice(input);
    let doc = Document::from_slice(input);
    match (fast, doc) {
        (Ok(v), Ok(doc)) => {
            assert_eq!(doc.as_str().as_bytes(), input);
            assert_eq!(doc.to_string().as_bytes(), input);
            assert_eq!(doc.value(), v, "{}", String::from_utf8_lossy(input));
            assert_eq!(doc.root().value(), v);
            check_tree(&doc, &v);
            Some(doc)
        }
        (Err(e), Err(d)) => {
            assert_eq!(
                (e.kind(), e.offset(), e.line(), e.column(), e.to_string()),
                (d.kind(), d.offset(), d.line(), d.column(), d.to_string())
            );
            None
        }
        (Ok(_), Err(e)) => panic!(
            "document refuses: {e}: {:?}",
            String::from_utf8_lossy(input)
        ),
        (Err(e), Ok(_)) => panic!(
            "document accepts ({e}): {:?}",
            String::from_utf8_lossy(input)
        ),
    }
}

/// Every node's value is the value at the same place in `v`, and spans nest.
fn check_tree(doc: &Document, v: &Value) {
    let mut stack = vec![(doc.root(), v.clone())];
    while let Some((node, value)) = stack.pop() {
        assert_eq!(node.value(), value);
        assert_eq!(node.kind().name(), value.type_name());
        let span = node.span();
        assert_eq!(&doc.as_str()[span.range()], node.as_str());
        if let Value::List(items) = &value {
            assert_eq!(node.len(), items.len());
            for (entry, item) in node.entries().zip(items.iter()) {
                let s = entry.span();
                assert!(span.start < s.start && s.end < span.end);
                let gap = entry.gap_before();
                assert!(gap.end == s.start && gap.start <= gap.end);
                // Gaps hold trivia only.
                for t in doc.trivia(gap.range()) {
                    let text = &doc.as_str()[t.span.range()];
                    match t.kind {
                        TriviaKind::Whitespace => {
                            assert!(text.bytes().all(|b| b" \t\r".contains(&b)), "{text:?}")
                        }
                        TriviaKind::Newline => assert_eq!(text, "\n"),
                        TriviaKind::LineComment => assert!(text.starts_with("//")),
                        TriviaKind::BlockComment => {
                            assert!(text.starts_with("/*") && text.ends_with("*/"))
                        }
                        TriviaKind::Comma => assert_eq!(text, ","),
                        TriviaKind::Colon => panic!("a colon between items"),
                    }
                }
                match (entry.key(), item.as_pair().map(|p| p.key())) {
                    (Some(k), Some(key)) => {
                        assert_eq!(&doc.as_str()[entry.colon().unwrap()..][..1], ":");
                        assert!(k.is_key());
                        stack.push((k, key.clone()));
                    }
                    (None, None) => assert!(entry.colon().is_none()),
                    _ => panic!("pair/plain mismatch"),
                }
                stack.push((entry.value(), item.value().clone()));
            }
        }
    }
}

#[test]
fn round_trip_of_every_relaxation() {
    let inputs: &[&str] = &[
        "1",
        " 1 ",
        "[]",
        "[ ]",
        "[1,]",
        "[[1,2,],]",
        "/* leading */ [ // after the bracket\n Y ]",
        "1 // comment",
        "[\"a\" /* c */ : /* d */ 1 , \"b\":2,]\n",
        "[\r\n  [\"a\", 1],\r\n  [\"b\", 2]\r\n]\r\n",
        "\"a\\tb\\r\\n\\\"\"",
        "B4F4B",
        "[0.750, T10-0800, 1000, 1_0_0_0, S1709528240.000001]",
        "[T10+0500, T10:20-0800, D2023-12-30T01:02:03-08, D2023~00]",
        "[T10Z : 20, T10:20]",
        "[\"k\":[\"x\":[1,[2,[3]]]]]",
        "[[]:[],[1]:2]",
        "/**/1/**/",
        "[\"é\": \"ü\" // ü\n]",
    ];
    for input in inputs {
        assert!(agree(input.as_bytes()).is_some(), "{input}");
    }
}

#[test]
fn errors_are_the_parsers() {
    let inputs: &[&[u8]] = &[
        b"",
        b"   ",
        b"// only a comment",
        b"[1 2]",
        b"[1,,2]",
        b"[,]",
        b"[1,,]",
        b"[T10 :20]",
        b"T10 :20",
        b"T10:20 :",
        b"1 2",
        b"[1",
        b"[\"a\":",
        b"[\"a\" : ]",
        b"/* open",
        b"1 /",
        b"\"\xff\"",
        b"// \xff\n1",
        b"1 // \xff",
        b"[1]]",
        b"-0",
        b"[\"a\"::1]",
        b"]",
        b"[:1]",
    ];
    for input in inputs {
        assert!(agree(input).is_none(), "{}", String::from_utf8_lossy(input));
    }
}

#[test]
fn the_depth_limit() {
    let deep = format!("{}{}", "[".repeat(129), "]".repeat(129));
    assert!(agree(deep.as_bytes()).is_none());
    let ok = format!("{}{}", "[".repeat(128), "]".repeat(128));
    assert!(agree(ok.as_bytes()).is_some());
    let opts = htoo::Options::new().with_max_depth(2);
    assert_eq!(
        Document::parse_with("[[[1]]]", &opts)
            .unwrap_err()
            .to_string(),
        opts.from_str("[[[1]]]").unwrap_err().to_string()
    );
    assert_eq!(Document::parse_with("[[1]]", &opts).unwrap().max_depth(), 2);
}

/// The latest revision of the conformance suite.
fn cases_dir() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-tests/cases");
    let mut revs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    revs.sort();
    revs.pop().expect("a revision")
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("htoo" | "jtoo")
        ) {
            out.push(p);
        }
    }
}

#[test]
fn every_case_of_the_conformance_suite() {
    let mut all = Vec::new();
    files(&cases_dir(), &mut all);
    let (mut valid, mut invalid) = (0, 0);
    for path in &all {
        let input = std::fs::read(path).unwrap();
        match agree(&input) {
            Some(_) => valid += 1,
            None => invalid += 1,
        }
    }
    // Every valid HTOO case is among them.
    assert!(
        valid > 500 && invalid > 300,
        "{valid} valid, {invalid} invalid"
    );
}

#[test]
fn the_pretty_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/corpus");
    for name in ["twitter", "citm_catalog", "canada"] {
        let json = std::fs::read(root.join(format!("{name}.json"))).unwrap();
        let value = jtoo::json::from_json_slice(&json).unwrap();
        let pretty = htoo::to_string_pretty(&value);
        let doc = agree(pretty.as_bytes()).unwrap();
        assert_eq!(doc.value(), value);
        // With comments on many lines.
        let commented: String = pretty
            .split('\n')
            .enumerate()
            .map(|(i, line)| match (i % 10, i % 7) {
                (0, _) => format!("{line} // line {i}\n"),
                (_, 0) => format!("/* before {i} */ {line}\n"),
                _ => format!("{line}\n"),
            })
            .collect();
        agree(commented.as_bytes()).unwrap();
        let canonical = jtoo::to_string(&value).unwrap();
        agree(canonical.as_bytes()).unwrap();
    }
}

#[test]
fn navigation_by_path() {
    let text = r#"[
  "statuses": [["id": 1], ["id": 2, "user": ["name": "ann"]]],
  "a\tb": 1,
  "dup": 1,
  "dup": 2,
  T10Z: "time key",
  7,
]"#;
    let doc = Document::parse(text).unwrap();
    let v = doc.value();
    let paths: Vec<Vec<PathItem<'_>>> = vec![
        path!["statuses", 1, "user", "name"].to_vec(),
        path!["statuses", 0].to_vec(),
        path!["a\tb"].to_vec(),
        path!["dup"].to_vec(),
        path![3].to_vec(),
        path![4].to_vec(),
        path![5].to_vec(),
        vec![],
    ];
    for p in &paths {
        let node = doc.get(p).unwrap();
        let expected = jtoo::ValueRef::from_slice(jtoo::to_string(&v).unwrap().as_bytes())
            .unwrap()
            .path(p)
            .unwrap()
            .to_value();
        assert_eq!(node.value(), expected, "{p:?}");
    }
    assert_eq!(doc.get(&path!["dup"]).unwrap().as_str(), "1");
    for missing in [
        path!["nope"].to_vec(),
        path![6].to_vec(),
        path!["dup", 0].to_vec(),
        path!["statuses", 1, "user", "name", 0].to_vec(),
        path!["statuses", "id"].to_vec(),
    ] {
        assert!(doc.get(&missing).is_none(), "{missing:?}");
    }
    let name = doc.get(&path!["statuses", 1, "user", "name"]).unwrap();
    assert_eq!(name.kind(), ValueKind::String);
    assert_eq!(name.as_string().as_deref(), Some("ann"));
    let (s, e) = (name.start_position(), name.end_position());
    assert_eq!((s.line, s.column, e.line, e.column), (2, 54, 2, 59));
    assert_eq!(&text[name.span().range()], "\"ann\"");
    let entry = name.parent_entry().unwrap();
    assert_eq!(entry.key().unwrap().as_str(), "\"name\"");
    assert_eq!(entry.list().as_str(), r#"["name": "ann"]"#);
    assert_eq!(
        doc.root().entry(4).unwrap().key().unwrap().kind(),
        ValueKind::DateTime
    );
}

#[test]
fn spans_and_positions() {
    let text = "// head\n[\n  \"é\": 1,\n  \"b\": [2, 3],\n]\n";
    let doc = Document::parse(text).unwrap();
    assert_eq!(doc.root().span(), Span::new(8, text.len() - 1));
    assert_eq!(doc.leading_trivia(), Span::new(0, 8));
    assert_eq!(doc.trailing_trivia(), Span::new(text.len() - 1, text.len()));
    let one = doc.get(&path!["é"]).unwrap();
    let p = one.start_position();
    // Columns count characters, as jtoo::Error's do.
    assert_eq!((p.line, p.column, p.offset), (3, 8, one.span().start));
    let b = doc.get(&path!["b"]).unwrap();
    assert_eq!(b.as_str(), "[2, 3]");
    let (s, e) = (b.start_position(), b.end_position());
    assert_eq!((s.line, s.column, e.line, e.column), (4, 8, 4, 14));
}

#[test]
fn comments_attached_to_items() {
    let text = "\
// about the document
[
  // section header

  // about a
  // more about a
  \"a\": 1, // a's
  /* about b */ \"b\": 2,
  \"c\": [1, /* c1 */ 2 /* c2 */], /* c's */ // too
  \"d\": 4 // d's, no comma
]
";
    let doc = Document::parse(text).unwrap();
    let c = |k: &str| doc.get(&[PathItem::Key(k)]).unwrap().comments();
    assert_eq!(c("a").leading(), Some("// about a\n  // more about a"));
    assert_eq!(c("a").trailing(), Some("// a's"));
    assert_eq!(c("b").leading(), Some("/* about b */"));
    assert_eq!(c("b").trailing(), None);
    assert_eq!(c("c").leading(), None);
    assert_eq!(c("c").trailing(), Some("/* c's */ // too"));
    assert_eq!(c("d").trailing(), Some("// d's, no comma"));
    let inner = doc.get(&path!["c"]).unwrap();
    assert_eq!(inner.entry(0).unwrap().comments().trailing(), None);
    assert_eq!(
        inner.entry(1).unwrap().comments().leading(),
        Some("/* c1 */")
    );
    assert_eq!(
        inner.entry(1).unwrap().comments().trailing(),
        Some("/* c2 */")
    );
    let root = doc.root().comments();
    assert_eq!(root.leading(), Some("// about the document"));
    assert_eq!(root.trailing(), None);
    assert_eq!(
        Document::parse("1 // one")
            .unwrap()
            .root()
            .comments()
            .trailing(),
        Some("// one")
    );
}

#[test]
fn comment_lookalikes_in_strings() {
    let text = "[\"// not\": \"/* no */\", \"x\": \"a,b\" // yes\n]";
    let doc = Document::parse(text).unwrap();
    assert_eq!(doc.get(&path!["// not"]).unwrap().as_str(), "\"/* no */\"");
    assert_eq!(
        doc.get(&path!["x"]).unwrap().comments().trailing(),
        Some("// yes")
    );
    assert_eq!(
        doc.get(&path!["// not"]).unwrap().comments().trailing(),
        None
    );
}

#[test]
fn large_inputs_are_limited() {
    assert_eq!(Document::MAX_LEN, u32::MAX as usize);
}

/// Text with comments and whitespace inserted between tokens of `v`'s
/// pretty form (at line breaks) and varied number spellings.
fn decorate(pretty: &str, seed: u64) -> String {
    let mut out = String::new();
    for (i, line) in pretty.split('\n').enumerate() {
        let k = (seed.wrapping_mul(31).wrapping_add(i as u64)) % 5;
        match k {
            0 => out.push_str(&format!("// {i}\n{line}")),
            1 => out.push_str(&format!("{line} /* {i} */")),
            2 => out.push_str(&format!("{line}\t// e{i}")),
            3 => out.push_str(&format!("\r{line}  ")),
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<bool>().prop_map(Value::from),
        "[a-z/*\"\\\\é\t]{0,8}".prop_map(|s| Value::from(s.as_str())),
        prop::collection::vec(any::<u8>(), 0..4).prop_map(|b| Value::from(&b[..])),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            prop::collection::vec(("[a-z]{0,3}", inner), 0..6).prop_map(|pairs| {
                let mut list = jtoo::List::new();
                for (k, v) in pairs {
                    list.push(jtoo::Pair::with_str_key(k.as_str(), v));
                }
                Value::List(list)
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_text_round_trips(v in value(), seed in any::<u64>(), width in 0usize..40) {
        let cfg = htoo::PrettyConfig::new().with_max_width(width);
        let pretty = htoo::to_string_pretty_with(&v, &cfg);
        let text = decorate(&pretty, seed);
        let doc = agree(text.as_bytes()).unwrap();
        prop_assert_eq!(doc.value(), v);
    }

    #[test]
    fn any_bytes_agree(bytes in prop::collection::vec(
        prop::sample::select(b"[]:, \n/*\"1aTZ-.B_Y".to_vec()), 0..24)) {
        agree(&bytes);
    }
}
