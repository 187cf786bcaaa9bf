//! `Document::update`: a new value merged into a commented document.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use htoo::Document;
use jtoo::{Pair, Value};
use proptest::prelude::*;

const CONFIG: &str = "\
// Service settings.
[
  \"name\": \"api\", // the public name

  // Where to listen.
  \"port\": 8080,
  \"ratio\": 0.750, /* three quarters */
  // Old, to go.
  \"legacy\": Y, // really old
  \"hosts\": [
    \"a.example\", // first
    \"b.example\", // second
    \"c.example\", // third
  ],
  \"limits\": [\"timeout_ms\": 1000, \"retries\": 3],
]
";

fn consistent(doc: &Document) {
    let again = Document::parse(doc.as_str()).unwrap_or_else(|e| panic!("{e}: {}", doc.as_str()));
    assert!(
        again == *doc,
        "tree differs from a fresh parse of:\n{}",
        doc.as_str()
    );
}

fn pair(k: &str, v: impl Into<Value>) -> Pair {
    Pair::with_str_key(k, v.into())
}

#[test]
fn an_unchanged_value_changes_nothing() {
    let mut doc = Document::parse(CONFIG).unwrap();
    let v = doc.value();
    doc.update(&v).unwrap();
    assert_eq!(doc.as_str(), CONFIG);
    // Equal scalars keep their spelling.
    let v = htoo::from_str(CONFIG).unwrap();
    assert_eq!(jtoo::to_string(v.get("port").unwrap()).unwrap(), "8_080");
    doc.update(&v).unwrap();
    assert_eq!(doc.as_str(), CONFIG);
}

#[test]
fn change_two_remove_one_add_one() {
    let mut doc = Document::parse(CONFIG).unwrap();
    let mut v = doc.value();
    *v.get_mut("port").unwrap() = Value::from(9090);
    *v.get_mut("name").unwrap() = Value::from("web");
    let list = v.as_list_mut().unwrap();
    list.remove(3); // legacy
    list.push(pair("debug", false));
    doc.update(&v).unwrap();
    consistent(&doc);
    assert_eq!(
        doc.as_str(),
        "\
// Service settings.
[
  \"name\": \"web\", // the public name

  // Where to listen.
  \"port\": 9_090,
  \"ratio\": 0.750, /* three quarters */
  \"hosts\": [
    \"a.example\", // first
    \"b.example\", // second
    \"c.example\", // third
  ],
  \"limits\": [\"timeout_ms\": 1000, \"retries\": 3],
  \"debug\": N,
]
"
    );
    assert_eq!(doc.value(), v);
}

#[test]
fn plain_items_matched_from_both_ends() {
    let mut doc = Document::parse(CONFIG).unwrap();
    let mut v = doc.value();
    let hosts = v.get_mut("hosts").unwrap().as_list_mut().unwrap();
    hosts.remove(1);
    doc.update(&v).unwrap();
    consistent(&doc);
    assert!(!doc.as_str().contains("// second"));
    assert!(
        doc.as_str()
            .contains("\"a.example\", // first\n    \"c.example\", // third\n")
    );
    assert_eq!(doc.value(), v);
    // Appended at the end.
    let hosts = v.get_mut("hosts").unwrap().as_list_mut().unwrap();
    hosts.push(Value::from("d.example"));
    doc.update(&v).unwrap();
    assert!(
        doc.as_str()
            .contains("\"c.example\", // third\n    \"d.example\",\n  ],")
    );
    assert_eq!(doc.value(), v);
}

#[test]
fn pairs_keep_the_documents_order() {
    let mut doc = Document::parse("[\"b\": 1, \"a\": 2]").unwrap();
    let v = Value::List(jtoo::List::from_pairs([
        pair("a", 3),
        pair("c", 4),
        pair("b", 1),
    ]));
    doc.update(&v).unwrap();
    consistent(&doc);
    // `c` follows `a`, its predecessor in the new value.
    assert_eq!(doc.as_str(), "[\"b\": 1, \"a\": 3, \"c\": 4]");
}

#[test]
fn kinds_change_whole() {
    let mut doc = Document::parse("[\n  \"a\": 1, // one\n  \"b\": [1, 2],\n]").unwrap();
    let v = Value::List(jtoo::List::from_pairs([
        pair("a", Value::from(vec![Value::from(1), Value::from(2)])),
        pair("b", "x"),
    ]));
    doc.update(&v).unwrap();
    consistent(&doc);
    assert_eq!(
        doc.as_str(),
        "[\n  \"a\": [1, 2], // one\n  \"b\": \"x\",\n]"
    );
    // The document's value itself.
    doc.update(&Value::from(5)).unwrap();
    assert_eq!(doc.as_str(), "5");
}

#[test]
fn refused_updates_change_nothing() {
    let mut doc = Document::parse_with("[1]", &htoo::Options::new().with_max_depth(2)).unwrap();
    let deep = Value::from(vec![Value::from(vec![Value::from(vec![Value::from(1)])])]);
    assert!(doc.update(&deep).is_err());
    assert_eq!(doc.as_str(), "[1]");
    let ambiguous = Value::List(jtoo::List::from_pairs([Pair::new(
        Value::from(1),
        Value::from(2),
    )
    .unwrap()]));
    doc.update(&ambiguous).unwrap();
    assert_eq!(doc.as_str(), "[1: 2]");
}

// ---------------------------------------------------------------------------
// Generated documents and changes.

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0i64..4).prop_map(Value::from),
        any::<bool>().prop_map(Value::from),
        "[a-c]{0,2}".prop_map(|s| Value::from(s.as_str())),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(3, 24, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::from),
            prop::collection::vec(("[a-c]", inner), 0..5).prop_map(|pairs| {
                Value::List(jtoo::List::from_pairs(
                    pairs
                        .into_iter()
                        .map(|(k, v)| Pair::with_str_key(k.as_str(), v)),
                ))
            }),
        ]
    })
}

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

/// Applies a few random changes to `v` that keep the order of its pairs:
/// set, remove, insert (plain or pair) anywhere.
fn mutate(v: &mut Value, ops: &[(u8, prop::sample::Index, Value)]) {
    for (op, pick, new) in ops {
        let mut lists: Vec<Vec<usize>> = vec![vec![]];
        let mut stack = vec![(v.clone(), vec![])];
        while let Some((x, p)) = stack.pop() {
            if let Value::List(items) = x {
                for (i, item) in items.iter().enumerate() {
                    let mut q: Vec<usize> = p.clone();
                    q.push(i);
                    if item.value().as_list().is_some() {
                        lists.push(q.clone());
                    }
                    stack.push((item.value().clone(), q));
                }
            }
        }
        let path = pick.get(&lists).clone();
        let mut target = &mut *v;
        for &i in &path {
            let Value::List(items) = target else { return };
            target = match items.get_mut(i).unwrap() {
                jtoo::ItemMut::Value(x) => x,
                jtoo::ItemMut::Pair(p) => p.value_mut(),
            };
        }
        let Value::List(items) = target else { continue };
        let n = items.len();
        let at = pick.index(n + 1);
        match op {
            0 if n > 0 => match items.get_mut(at.min(n - 1)).unwrap() {
                jtoo::ItemMut::Value(x) => *x = new.clone(),
                jtoo::ItemMut::Pair(p) => *p.value_mut() = new.clone(),
            },
            1 if n > 0 => {
                items.remove(at.min(n - 1));
            }
            2 => {
                items.insert(at, new.clone());
            }
            _ => {
                // A new key, so that the pairs' order stays the document's.
                items.insert(at, Pair::with_str_key("zz", new.clone()));
            }
        }
    }
}

/// `true` when a list of `v` has two pairs with the same key.
fn has_duplicate_keys(v: &Value) -> bool {
    let Value::List(items) = v else { return false };
    let mut keys = std::collections::HashSet::new();
    items.iter().any(|i| {
        i.as_pair().is_some_and(|p| !keys.insert(p.key().clone())) || has_duplicate_keys(i.value())
    })
}

/// `v` with the items of every list in a normal order: the plain items in
/// their order, then the pairs ordered by key and value.
fn normalized(v: &Value) -> Value {
    let Value::List(items) = v else {
        return v.clone();
    };
    let mut list = jtoo::List::new();
    for i in items.iter().filter(|i| !i.is_pair()) {
        list.push(normalized(i.value()));
    }
    let mut pairs: Vec<(String, Pair)> = items
        .iter()
        .filter_map(|i| i.as_pair())
        .map(|p| {
            let value = normalized(p.value());
            let key = jtoo::to_string(p.key()).unwrap() + ":" + &jtoo::to_string(&value).unwrap();
            (key, Pair::new(p.key().clone(), value).unwrap())
        })
        .collect();
    pairs.sort_by(|a, b| a.0.cmp(&b.0));
    for (_, p) in pairs {
        list.push(p);
    }
    Value::List(list)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn update_to_a_changed_value(v in value(), seed in any::<u64>(), width in 0usize..30,
                                 ops in prop::collection::vec((0u8..4, any::<prop::sample::Index>(), scalar()), 0..5)) {
        let cfg = htoo::PrettyConfig::new().with_max_width(width);
        let text = decorate(&htoo::to_string_pretty_with(&v, &cfg), seed);
        let mut doc = Document::parse(&text).unwrap();
        let mut w = v.clone();
        mutate(&mut w, &ops);
        doc.update(&w).unwrap();
        consistent(&doc);
        // Pairs are matched by key, the k-th with a key to the k-th: with
        // duplicate keys a removal can match another pair than the one the
        // change kept, and the order of pairs may then differ.
        if has_duplicate_keys(&v) || has_duplicate_keys(&w) {
            prop_assert_eq!(normalized(&doc.value()), normalized(&w));
        } else {
            prop_assert_eq!(doc.value(), w.clone(), "{}\n->\n{}", text, doc.as_str());
            // Updating again changes nothing.
            let once = doc.as_str().to_owned();
            doc.update(&w).unwrap();
            prop_assert_eq!(doc.as_str(), once);
        }
    }

    #[test]
    fn update_to_any_value(v in value(), w in value(), seed in any::<u64>()) {
        let text = decorate(&htoo::to_string_pretty(&v), seed);
        let mut doc = Document::parse(&text).unwrap();
        doc.update(&w).unwrap();
        consistent(&doc);
        // Equal up to the order of pairs: the same value once both are
        // read as sorted maps is too strong a claim with duplicate keys;
        // the canonical texts have the same length and the same items.
        let got = doc.value();
        prop_assert_eq!(jtoo::to_string(&got).unwrap().len(), jtoo::to_string(&w).unwrap().len());
    }
}
