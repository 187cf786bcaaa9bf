//! `htoo::Document` edits: each changes exactly the lines it concerns, keeps
//! the tree consistent with its text, and a refused edit changes nothing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use htoo::{Document, EditError};
use jtoo::{PathItem, Value, path};
use proptest::prelude::*;

const CONFIG: &str = "\
// Service settings.
[
  \"name\": \"api\", // the public name

  // Where to listen.
  \"port\": 8080,
  \"ratio\": 0.750,
  /* TLS */ \"tls\": N,
  \"hosts\": [\"a.example\", \"b.example\"],
  \"limits\": [
    \"timeout_ms\": 1000, // per request
    \"retries\": 3,
  ],
]
";

/// The lines `before` and `after` do not share (after the common first and
/// last lines): (removed, added).
fn diff<'a>(before: &'a str, after: &'a str) -> (Vec<&'a str>, Vec<&'a str>) {
    let a: Vec<&str> = before.split('\n').collect();
    let b: Vec<&str> = after.split('\n').collect();
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    (
        a[head..a.len() - tail].to_vec(),
        b[head..b.len() - tail].to_vec(),
    )
}

/// The document agrees with a fresh parse of its text: same nodes, same
/// value.
fn consistent(doc: &Document) {
    let again = Document::parse_with(
        doc.as_str(),
        &htoo::Options::new().with_max_depth(doc.max_depth()),
    )
    .unwrap_or_else(|e| panic!("{e}: {}", doc.as_str()));
    assert!(
        again == *doc,
        "tree differs from a fresh parse of:\n{}",
        doc.as_str()
    );
    assert_eq!(doc.value(), htoo::from_str(doc.as_str()).unwrap());
}

fn edited(f: impl FnOnce(&mut Document) -> Result<(), EditError>) -> Document {
    let mut doc = Document::parse(CONFIG).unwrap();
    f(&mut doc).unwrap();
    consistent(&doc);
    doc
}

#[test]
fn set_a_scalar() {
    let doc = edited(|d| d.set(&path!["limits", "timeout_ms"], &Value::from(2500)));
    assert_eq!(
        diff(CONFIG, doc.as_str()),
        (
            vec!["    \"timeout_ms\": 1000, // per request"],
            vec!["    \"timeout_ms\": 2_500, // per request"]
        )
    );
    let v = doc.value();
    assert_eq!(
        v.get("limits").unwrap().get("timeout_ms"),
        Some(&Value::from(2500))
    );
    // A string is written canonically.
    let doc = edited(|d| d.set(&path!["name"], &Value::from("web\t\"2\"")));
    assert_eq!(
        diff(CONFIG, doc.as_str()).1,
        ["  \"name\": \"web\\09\\222\\22\", // the public name"]
    );
}

#[test]
fn replace_a_subtree() {
    let hosts = list([
        "alpha.example.com",
        "beta.example.com",
        "gamma.example.com",
        "delta.example.com",
    ]);
    let doc = edited(|d| d.set(&path!["hosts"], &hosts));
    assert_eq!(
        diff(CONFIG, doc.as_str()),
        (
            vec!["  \"hosts\": [\"a.example\", \"b.example\"],"],
            vec![
                "  \"hosts\": [",
                "    \"alpha.example.com\",",
                "    \"beta.example.com\",",
                "    \"gamma.example.com\",",
                "    \"delta.example.com\",",
                "  ],"
            ]
        )
    );
    // A list replaced by a scalar, and the other way round.
    let doc = edited(|d| d.set(&path!["limits"], &Value::from(Y)));
    let (removed, added) = diff(CONFIG, doc.as_str());
    assert_eq!(removed.len(), 4);
    assert_eq!(added, ["  \"limits\": Y,"]);
    let doc = edited(|d| d.set(&path!["port"], &list([1, 2])));
    assert_eq!(diff(CONFIG, doc.as_str()).1, ["  \"port\": [1, 2],"]);
    // The whole document.
    let doc = edited(|d| d.set(&[], &Value::from(1)));
    assert_eq!(doc.as_str(), "// Service settings.\n1\n");
}

const Y: bool = true;

fn list<T: Into<Value>>(items: impl IntoIterator<Item = T>) -> Value {
    Value::from(items.into_iter().map(Into::into).collect::<Vec<Value>>())
}

#[test]
fn insert_a_pair_at_the_end_and_at_an_index() {
    let doc = edited(|d| d.push_pair(&path!["limits"], &"burst".into(), &Value::from(10)));
    assert_eq!(
        diff(CONFIG, doc.as_str()),
        (vec![], vec!["    \"burst\": 10,"])
    );
    assert!(doc.as_str().find("\"burst\"").unwrap() > doc.as_str().find("\"retries\"").unwrap());
    // Before the commented pair: above its comment block.
    let doc = edited(|d| d.insert_pair(&[], 1, &"debug".into(), &Value::from(false)));
    assert_eq!(
        diff(CONFIG, doc.as_str()),
        (vec![], vec!["  \"debug\": N,"])
    );
    let text = doc.as_str();
    assert!(text.find("\"debug\"").unwrap() < text.find("// Where to listen.").unwrap());
    // `set` of a missing key appends the pair.
    let doc = edited(|d| d.set(&path!["owner"], &Value::from("ops")));
    assert_eq!(
        diff(CONFIG, doc.as_str()),
        (vec![], vec!["  \"owner\": \"ops\","])
    );
    // A new subtree is written pretty at the items' indentation.
    let sub = Value::List(jtoo::List::from_pairs([
        jtoo::Pair::with_str_key("user", Value::from("someone-with-a-long-name")),
        jtoo::Pair::with_str_key("password_file", Value::from("/etc/service/secret")),
    ]));
    let doc = edited(|d| d.push_pair(&[], &"auth".into(), &sub));
    assert_eq!(
        diff(CONFIG, doc.as_str()),
        (
            vec![],
            vec![
                "  \"auth\": [",
                "    \"user\": \"someone-with-a-long-name\",",
                "    \"password_file\": \"/etc/service/secret\",",
                "  ],"
            ]
        )
    );
}

#[test]
fn insert_items_in_one_line_lists() {
    let doc = edited(|d| d.push(&path!["hosts"], &"c.example".into()));
    assert_eq!(
        diff(CONFIG, doc.as_str()),
        (
            vec!["  \"hosts\": [\"a.example\", \"b.example\"],"],
            vec!["  \"hosts\": [\"a.example\", \"b.example\", \"c.example\"],"]
        )
    );
    let doc = edited(|d| d.insert(&path!["hosts"], 0, &"z.example".into()));
    assert_eq!(
        diff(CONFIG, doc.as_str()).1,
        ["  \"hosts\": [\"z.example\", \"a.example\", \"b.example\"],"]
    );
    let cases: &[(&str, usize, &str)] = &[
        ("[]", 0, "[9]"),
        ("[ ]", 0, "[9]"),
        ("[1]", 1, "[1, 9]"),
        ("[1,2]", 1, "[1,9,2]"),
        ("[1,2]", 2, "[1,2,9]"),
        ("[1, 2,]", 2, "[1, 2, 9,]"),
        ("[1 /* one */]", 1, "[1, 9 /* one */]"),
        ("[\n  1,\n  2\n]", 2, "[\n  1,\n  2,\n  9\n]"),
        ("[\n  1,\n  2 // two\n]", 2, "[\n  1,\n  2, // two\n  9\n]"),
        ("[\n  1,\n  2,\n]", 0, "[\n  9,\n  1,\n  2,\n]"),
        ("[\n  1,\n  2]", 2, "[\n  1,\n  2,\n  9]"),
        ("[ // none yet\n]", 0, "[ // none yet\n  9,\n]"),
        ("[1, // one\n 2]", 1, "[1, // one\n 9,\n 2]"),
    ];
    for (before, index, after) in cases {
        let mut doc = Document::parse(before).unwrap();
        doc.insert(&[], *index, &Value::from(9)).unwrap();
        assert_eq!(doc.as_str(), *after, "{before:?}");
        consistent(&doc);
    }
}

#[test]
fn remove_a_pair_with_its_comments() {
    // The comment block above and the end-of-line comment go; the blank
    // line and the comments of the neighbours stay.
    let doc = edited(|d| d.remove(&path!["port"]));
    assert_eq!(
        diff(CONFIG, doc.as_str()),
        (vec!["  // Where to listen.", "  \"port\": 8080,"], vec![])
    );
    let doc = edited(|d| d.remove(&path!["name"]));
    assert_eq!(
        diff(CONFIG, doc.as_str()),
        (vec!["  \"name\": \"api\", // the public name"], vec![])
    );
    let doc = edited(|d| d.remove(&path!["tls"]));
    assert_eq!(
        diff(CONFIG, doc.as_str()),
        (vec!["  /* TLS */ \"tls\": N,"], vec![])
    );
    let doc = edited(|d| d.remove(&path!["limits", "timeout_ms"]));
    assert_eq!(
        diff(CONFIG, doc.as_str()),
        (vec!["    \"timeout_ms\": 1000, // per request"], vec![])
    );
    let doc = edited(|d| d.remove(&path!["hosts", 0]));
    assert_eq!(
        diff(CONFIG, doc.as_str()),
        (
            vec!["  \"hosts\": [\"a.example\", \"b.example\"],"],
            vec!["  \"hosts\": [\"b.example\"],"]
        )
    );
}

#[test]
fn remove_fixes_commas() {
    let cases: &[(&str, usize, &str)] = &[
        ("[1]", 0, "[]"),
        ("[ 1 ]", 0, "[]"),
        ("[1,]", 0, "[]"),
        ("[1, 2]", 0, "[2]"),
        ("[1, 2]", 1, "[1]"),
        ("[1, 2,]", 1, "[1,]"),
        ("[1, 2, 3]", 1, "[1, 3]"),
        ("[1, /* two */ 2, 3]", 1, "[1, 3]"),
        ("[1, 2 /* two */]", 1, "[1]"),
        ("[\n  1,\n  2\n]", 1, "[\n  1\n]"),
        ("[\n  1, // one\n  2 // two\n]", 1, "[\n  1 // one\n]"),
        ("[\n  1,\n  2,\n]", 1, "[\n  1,\n]"),
        ("[\n  1,\n  2,\n]", 0, "[\n  2,\n]"),
        ("[\n  \"a\",\n]", 0, "[]"),
        ("[ // keep\n  1,\n]", 0, "[ // keep\n]"),
        ("[\n  1, // one\n  2, /* x */ ]", 1, "[\n  1, // one\n ]"),
        (
            "[\n  // gone\n  1,\n\n  // stays\n\n  // gone too\n  2,\n]",
            1,
            "[\n  // gone\n  1,\n\n  // stays\n\n]",
        ),
        ("[1, // one\n 2]", 1, "[1 // one\n]"),
        ("[[1, 2]: 3, 4]", 0, "[4]"),
        // A `,` on the next line goes with its item.
        ("[\n  // c\n  \"k\": 1\n,\n]", 0, "[]"),
        ("[\n  1\n  , 2\n]", 0, "[\n  2\n]"),
    ];
    for (before, index, after) in cases {
        let mut doc = Document::parse(before).unwrap();
        doc.remove(&[PathItem::Index(*index)]).unwrap();
        assert_eq!(doc.as_str(), *after, "{before:?}");
        consistent(&doc);
    }
}

#[test]
fn rename_a_key() {
    let doc = edited(|d| d.rename(&path!["limits", "retries"], &"attempts".into()));
    assert_eq!(
        diff(CONFIG, doc.as_str()),
        (vec!["    \"retries\": 3,"], vec!["    \"attempts\": 3,"])
    );
    assert_eq!(doc.get(&path!["limits", "attempts"]).unwrap().as_str(), "3");
}

#[test]
fn refused_edits_change_nothing() {
    let mut doc = Document::parse(CONFIG).unwrap();
    let before = doc.clone();
    let cases: Vec<Result<(), EditError>> = vec![
        doc.set(&path!["port", "x"], &Value::from(1)),
        doc.set(&path!["nope", "x"], &Value::from(1)),
        doc.set(&path!["hosts", 5], &Value::from(1)),
        doc.remove(&[]),
        doc.remove(&path!["nope"]),
        doc.rename(&path!["hosts", 0], &"k".into()),
        doc.rename(
            &path!["port"],
            &"T10"
                .parse::<jtoo::DateTime>()
                .map(Value::DateTime)
                .unwrap(),
        ),
        doc.insert(&path!["hosts"], 3, &Value::from(1)),
        doc.insert(&path!["port"], 0, &Value::from(1)),
        doc.push_pair(
            &[],
            &"T10:20"
                .parse::<jtoo::DateTime>()
                .map(Value::DateTime)
                .unwrap(),
            &Value::from(1),
        ),
    ];
    for r in &cases {
        assert!(r.is_err());
    }
    assert!(matches!(cases[0], Err(EditError::NotAList { step: 1 })));
    assert!(matches!(cases[1], Err(EditError::Missing { step: 0 })));
    assert!(matches!(cases[3], Err(EditError::Root)));
    assert!(matches!(cases[5], Err(EditError::NotAPair)));
    assert!(matches!(
        cases[7],
        Err(EditError::IndexOutOfRange { index: 3, len: 2 })
    ));
    assert_eq!(doc, before);
    // Too deep for the document's limit.
    let mut doc = Document::parse_with("[[1]]", &htoo::Options::new().with_max_depth(3)).unwrap();
    let deep = list([list([1])]);
    assert!(matches!(
        doc.set(&path![0, 0], &deep),
        Err(EditError::Value(_))
    ));
    doc.set(&path![0], &deep).unwrap();
    assert_eq!(doc.as_str(), "[[[1]]]");
}

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<bool>().prop_map(Value::from),
        "[a-z/*\"é]{0,6}".prop_map(|s| Value::from(s.as_str())),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::from),
            prop::collection::vec(("[a-c]{1,2}", inner), 0..5).prop_map(|pairs| {
                Value::List(jtoo::List::from_pairs(
                    pairs
                        .into_iter()
                        .map(|(k, v)| jtoo::Pair::with_str_key(k.as_str(), v)),
                ))
            }),
        ]
    })
}

/// Text for `v` with comments at line ends and above lines.
fn decorate(pretty: &str, seed: u64) -> String {
    let mut out = String::new();
    for (i, line) in pretty.split('\n').enumerate() {
        match seed.wrapping_add(i as u64) % 4 {
            0 => out.push_str(&format!("  // {i}\n{line}")),
            1 => out.push_str(&format!("{line} // e{i}")),
            2 => out.push_str(&format!("{line} /* {i} */")),
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// The paths of every item of `v`, outermost first.
fn item_paths(v: &Value) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut stack = vec![(v, Vec::new())];
    while let Some((v, path)) = stack.pop() {
        if let Value::List(items) = v {
            for (i, item) in items.iter().enumerate() {
                let mut p = path.clone();
                p.push(i);
                stack.push((item.value(), p.clone()));
                out.push(p);
            }
        }
    }
    out
}

fn at_path<'v>(v: &'v mut Value, path: &[usize]) -> &'v mut Value {
    let mut v = v;
    for &i in path {
        let Value::List(items) = v else { panic!() };
        v = match items.get_mut(i).unwrap() {
            jtoo::ItemMut::Value(v) => v,
            jtoo::ItemMut::Pair(p) => p.value_mut(),
        };
    }
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random edits on random commented documents: the text stays valid,
    /// the tree agrees with a fresh parse, and the value changes as the
    /// same edit on the value would.
    #[test]
    fn random_edits(v in value(), seed in any::<u64>(), width in 0usize..30,
                    ops in prop::collection::vec((0u8..4, any::<prop::sample::Index>(), scalar()), 1..6)) {
        let cfg = htoo::PrettyConfig::new().with_max_width(width);
        let text = decorate(&htoo::to_string_pretty_with(&v, &cfg), seed);
        let mut doc = Document::parse(&text).unwrap();
        let mut expected = v.clone();
        for (op, pick, new) in ops {
            let paths = item_paths(&expected);
            if paths.is_empty() { break; }
            let p = pick.get(&paths).clone();
            let path: Vec<PathItem<'_>> = p.iter().map(|&i| PathItem::Index(i)).collect();
            match op {
                0 => {
                    doc.set(&path, &new).unwrap();
                    *at_path(&mut expected, &p) = new;
                }
                1 => {
                    doc.remove(&path).unwrap();
                    let (last, parent) = p.split_last().unwrap();
                    let Value::List(items) = at_path(&mut expected, parent) else { panic!() };
                    items.remove(*last);
                }
                2 => {
                    let (last, parent) = p.split_last().unwrap();
                    let ppath: Vec<PathItem<'_>> = parent.iter().map(|&i| PathItem::Index(i)).collect();
                    doc.insert(&ppath, *last, &new).unwrap();
                    let Value::List(items) = at_path(&mut expected, parent) else { panic!() };
                    items.insert(*last, new);
                }
                _ => {
                    let (_, parent) = p.split_last().unwrap();
                    let ppath: Vec<PathItem<'_>> = parent.iter().map(|&i| PathItem::Index(i)).collect();
                    doc.push_pair(&ppath, &Value::from("new"), &new).unwrap();
                    let Value::List(items) = at_path(&mut expected, parent) else { panic!() };
                    items.push(jtoo::Pair::with_str_key("new", new));
                }
            }
            consistent(&doc);
            prop_assert_eq!(doc.value(), expected.clone(), "{}", doc.as_str());
        }
        // Every comment of the original that belonged to no removed item is
        // still there (checked loosely: the document still parses).
    }
}
