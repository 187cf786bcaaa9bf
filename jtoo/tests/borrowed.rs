//! `jtoo::ValueRef` (a borrowed view of a checked value) and `jtoo::get`
//! (path lookup that parses only what lies before the value found): every
//! accessor agrees with the `Value` the parser builds, lookups agree with
//! navigating that `Value`, and lookup errors are the validator's.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jtoo::{
    ErrorKind, Item, ItemRef, Options, Pair, PathItem, Value, ValueKind, ValueRef, ValueRefItem,
};
use proptest::prelude::*;
use std::borrow::Cow;

/// A path with owned keys, for generated paths.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

fn items(path: &[Step]) -> Vec<PathItem<'_>> {
    path.iter()
        .map(|s| match s {
            Step::Key(k) => PathItem::Key(k),
            Step::Index(i) => PathItem::Index(*i),
        })
        .collect()
}

/// `path` followed on a built `Value`: `Value::get` for keys, the item's
/// value (as `Index<usize>`) for positions.
fn navigate<'v>(v: &'v Value, path: &[PathItem<'_>]) -> Option<&'v Value> {
    path.iter().try_fold(v, |v, step| match *step {
        PathItem::Key(k) => v.get(k),
        PathItem::Index(i) => v.as_list()?.get(i).map(ItemRef::value),
    })
}

fn kind_of(v: &Value) -> ValueKind {
    match v {
        Value::String(_) => ValueKind::String,
        Value::Bytes(_) => ValueKind::Bytes,
        Value::Bool(_) => ValueKind::Bool,
        Value::Integer(_) => ValueKind::Integer,
        Value::Decimal(_) => ValueKind::Decimal,
        Value::DateTime(_) => ValueKind::DateTime,
        Value::Timestamp(_) => ValueKind::Timestamp,
        Value::List(_) => ValueKind::List,
    }
}

/// Every accessor of `r` against the `Value` it shows, recursively.
fn check_view(r: ValueRef<'_>, v: &Value) {
    assert_eq!(r.raw(), jtoo::to_vec(v).unwrap().as_slice());
    assert_eq!(r.as_raw_str(), r.to_string());
    assert_eq!(&r.to_value(), v);
    assert_eq!(Value::from(r), *v);
    assert_eq!(r.kind(), kind_of(v));
    assert_eq!(r.kind().name(), v.type_name());
    assert_eq!(r.is_list(), v.as_list().is_some());
    assert_eq!(r.as_str().as_deref(), v.as_str());
    assert_eq!(r.as_bytes().as_deref(), v.as_bytes());
    assert_eq!(r.as_bool(), v.as_bool());
    assert_eq!(r.as_integer(), v.as_integer());
    assert_eq!(r.as_i64(), v.as_i64());
    assert_eq!(r.as_u64(), v.as_u64());
    assert_eq!(r.as_i128(), v.as_i128());
    assert_eq!(r.as_u128(), v.as_u128());
    assert_eq!(
        r.as_f64().map(f64::to_bits),
        v.as_f64().map(f64::to_bits),
        "{r}"
    );
    assert_eq!(r.as_decimal(), v.as_decimal());
    assert_eq!(r.as_datetime(), v.as_datetime());
    assert_eq!(r.as_timestamp(), v.as_timestamp());
    if let Some(s) = r.as_str() {
        // Borrowed exactly when the text has no escape.
        assert_eq!(
            matches!(s, Cow::Borrowed(_)),
            !r.raw().contains(&b'\\'),
            "{r}"
        );
    }
    let list = v.as_list();
    let viewed: Vec<ValueRefItem<'_>> = r.items().collect();
    assert_eq!(viewed.len(), list.map_or(0, |l| l.len()));
    for (i, item) in viewed.iter().enumerate() {
        let built = list.unwrap().get(i).unwrap();
        assert_eq!(item.is_pair(), built.is_pair());
        assert_eq!(r.index(i), Some(item.value()));
        match (item, built) {
            (ValueRefItem::Value(a), ItemRef::Value(b)) => {
                assert_eq!(item.as_value(), Some(*a));
                assert!(item.key().is_none());
                check_view(*a, b);
            }
            (ValueRefItem::Pair(k, a), ItemRef::Pair(p)) => {
                assert!(item.as_value().is_none());
                assert_eq!(item.key(), Some(*k));
                check_view(*k, p.key());
                check_view(*a, p.value());
                if let Some(key) = p.key().as_str() {
                    // The first pair with this key.
                    assert_eq!(r.get(key).map(|g| g.to_value()).as_ref(), v.get(key));
                }
            }
            _ => panic!("item {i} of {r}"),
        }
    }
    assert!(r.index(viewed.len()).is_none());
    assert!(r.get("\u{0}never a key").is_none());
}

fn view_of(doc: &[u8]) -> ValueRef<'_> {
    ValueRef::from_slice(doc).unwrap()
}

// ---------------------------------------------------------------------------
// Accessors.

#[test]
fn every_accessor_on_every_kind() {
    let doc = concat!(
        r#"["s":"plain","e":"tab\09quote\22","u":"é中😀","b":B4f4b,"b0":B,"y":Y,"n":N,"#,
        r#""i":-1_000,"big":340_282_366_920_938_463_463_374_607_431_768_211_455,"#,
        r#""d":-0.000_1,"f":1.5,"dt":D2023-12-30T01:02:03~08,"t":T10:20,"w":D2020-W53,"#,
        r#""ts":S1_709_528_240.001,"l":[1,"k":2,[]:Y,[3]:[4]],"empty":[],"#,
        r#"T10Z:"time key",D2024:1,0:2]"#
    );
    let v = jtoo::from_str(doc).unwrap();
    check_view(view_of(doc.as_bytes()), &v);
    let r = ValueRef::from_str(doc).unwrap();
    check_view(r, &v);
    // Spot checks, by name.
    assert_eq!(r.get("b").unwrap().as_bytes(), Some(b"OK".to_vec()));
    assert_eq!(r.get("b0").unwrap().as_bytes(), Some(vec![]));
    assert_eq!(r.get("i").unwrap().as_i64(), Some(-1000));
    assert_eq!(r.get("i").unwrap().as_u64(), None);
    assert_eq!(r.get("big").unwrap().as_u128(), Some(u128::MAX));
    assert_eq!(r.get("big").unwrap().as_i64(), None);
    assert_eq!(r.get("f").unwrap().as_f64(), Some(1.5));
    assert_eq!(r.get("y").unwrap().as_bool(), Some(true));
    assert_eq!(r.get("n").unwrap().as_bool(), Some(false));
    assert_eq!(r.get("t").unwrap().kind(), ValueKind::DateTime);
    assert_eq!(r.get("ts").unwrap().kind(), ValueKind::Timestamp);
    assert_eq!(r.get("d").unwrap().kind(), ValueKind::Decimal);
    assert_eq!(r.get("l").unwrap().index(3).unwrap().raw(), b"[4]");
    assert_eq!(r.get("empty").unwrap().items().count(), 0);
    assert!(r.get("empty").unwrap().index(0).is_none());
    // Non-string keys are items, not `get` keys.
    assert!(r.get("T10Z").is_none());
    let last = r.items().last().unwrap();
    assert_eq!(last.key().unwrap().as_i64(), Some(0));
    // Scalars have no items and no keys.
    let s = r.get("s").unwrap();
    assert_eq!(s.items().count(), 0);
    assert!(s.get("s").is_none() && s.index(0).is_none());
    assert_eq!(s.path(&[]), Some(s));
    assert!(s.path(&jtoo::path![0]).is_none());
}

#[test]
fn strings_borrow_unless_escaped() {
    let doc = r#"["","plain","é中😀","\00","a\5cb","x\7f","k\22":"v"]"#;
    let r = ValueRef::from_str(doc).unwrap();
    let strs: Vec<Cow<'_, str>> = r.items().map(|i| i.value().as_str().unwrap()).collect();
    let want = ["", "plain", "é中😀", "\0", "a\\b", "x\u{7f}", "v"];
    assert_eq!(strs, want);
    let borrowed: Vec<bool> = strs.iter().map(|s| matches!(s, Cow::Borrowed(_))).collect();
    assert_eq!(borrowed, [true, true, true, false, false, false, true]);
    // A borrowed string is a slice of the document itself.
    let Cow::Borrowed(plain) = r.index(1).unwrap().as_str().unwrap() else {
        panic!()
    };
    assert!(doc.as_bytes().as_ptr_range().contains(&plain.as_ptr()));
    // Escaped keys are matched by their value.
    assert_eq!(r.get("k\"").unwrap().as_str().as_deref(), Some("v"));
    assert!(r.get("k\\22").is_none());
    // The same through `jtoo::get`.
    let found = jtoo::get(doc.as_bytes(), &jtoo::path![2]).unwrap().unwrap();
    assert!(matches!(found.as_str(), Some(Cow::Borrowed("é中😀"))));
    let found = jtoo::get(doc.as_bytes(), &jtoo::path!["k\""])
        .unwrap()
        .unwrap();
    assert_eq!(found.raw(), br#""v""#);
}

#[test]
fn equality_is_value_equality() {
    use std::collections::HashSet;
    let r = view_of(br#"[[1,"a":B00],"x":[1,"a":B00],[1,"a":B0000]]"#);
    let items: Vec<ValueRef<'_>> = r.items().map(ValueRefItem::value).collect();
    assert_eq!(items[0], items[1]);
    assert_ne!(items[0], items[2]);
    let set: HashSet<ValueRef<'_>> = items.iter().copied().collect();
    assert_eq!(set.len(), 2);
    // Views of one value at different depths are equal.
    assert_eq!(view_of(b"[1,\"a\":B00]"), items[0]);
}

#[test]
fn from_slice_checks_the_whole_document() {
    for bad in [
        &b""[..],
        b" 1",
        b"1 ",
        b"[1,]",
        b"[1,2",
        b"[\"a\":1]x",
        b"[T10:1]",
        b"T10:1",
        b"[\"\xff\"]",
    ] {
        let want = jtoo::validate(bad).unwrap_err();
        let got = ValueRef::from_slice(bad).unwrap_err();
        assert_eq!(
            (got.kind(), got.offset()),
            (want.kind(), want.offset()),
            "{bad:?}"
        );
    }
    // The depth limit of the options, kept for the values inside.
    let deep = format!("{}1{}", "[".repeat(5), "]".repeat(5));
    let opts = Options::new().with_max_depth(5);
    let r = ValueRef::from_slice_with(deep.as_bytes(), &opts).unwrap();
    assert_eq!(r.to_value(), jtoo::from_str(&deep).unwrap());
    let inner = r.path(&jtoo::path![0, 0]).unwrap();
    assert_eq!(inner.raw(), b"[[[1]]]");
    assert_eq!(inner.to_value().depth(), 3);
    let err = ValueRef::from_slice_with(deep.as_bytes(), &opts.with_max_depth(4)).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::DepthLimitExceeded, 4)
    );
}

// ---------------------------------------------------------------------------
// `jtoo::get`.

#[test]
fn get_follows_paths() {
    let doc =
        br#"["statuses":[["id":1],["id":2,"user":["name":"ann","id":9]],[3]:4],"n":[5,"k":6]]"#;
    let v = jtoo::from_slice(doc).unwrap();
    let paths: Vec<Vec<PathItem<'_>>> = vec![
        vec![],
        jtoo::path!["statuses"].to_vec(),
        jtoo::path!["statuses", 1, "user", "name"].to_vec(),
        jtoo::path!["statuses", 1, "user", 1].to_vec(),
        jtoo::path!["statuses", 2].to_vec(),
        jtoo::path!["statuses", 3].to_vec(),
        jtoo::path!["statuses", 0, "id", 0].to_vec(),
        jtoo::path!["statuses", "id"].to_vec(),
        jtoo::path!["n", 1].to_vec(),
        jtoo::path!["n", "k"].to_vec(),
        jtoo::path![1, 0].to_vec(),
        jtoo::path!["missing"].to_vec(),
    ];
    for path in &paths {
        let got = jtoo::get(doc, path).unwrap();
        let want = navigate(&v, path);
        assert_eq!(got.map(|g| g.to_value()).as_ref(), want, "{path:?}");
        assert_eq!(view_of(doc).path(path), got, "{path:?}");
        if let (Some(g), Some(w)) = (got, want) {
            check_view(g, w);
        }
    }
    // A path built from a `String` and a computed position.
    let key = String::from("user");
    let i: usize = 1;
    let path = [PathItem::from("statuses"), i.into(), (&key).into()];
    assert_eq!(
        jtoo::get(doc, &path).unwrap().unwrap().raw(),
        br#"["name":"ann","id":9]"#
    );
}

/// The `Error` of `jtoo::validate` and of `jtoo::get`, comparably.
fn err(e: jtoo::Error) -> (ErrorKind, usize, usize, usize) {
    (e.kind(), e.offset(), e.line(), e.column())
}

#[test]
fn get_reports_errors_before_the_target() {
    let cases: &[(&[u8], Vec<PathItem<'_>>)] = &[
        // In an item skipped on the way.
        (br#"["a":[1,2x],"b":1]"#, jtoo::path!["b"].to_vec()),
        (br#"["a":"\41","b":1]"#, jtoo::path!["b"].to_vec()),
        (b"[\"a\":\"\xff\",\"b\":1]", jtoo::path!["b"].to_vec()),
        (b"[\"\xe4\xb8\":1,\"b\":1]", jtoo::path!["b"].to_vec()),
        (br#"[1.50,2]"#, jtoo::path![1].to_vec()),
        (br#"[[1,],2]"#, jtoo::path![1].to_vec()),
        // In a key, or the `:` after one.
        (br#"["\x":1,"b":1]"#, jtoo::path!["b"].to_vec()),
        (br#"[T10:"a","b":1]"#, jtoo::path!["b"].to_vec()),
        (br#"[T10:"a","b":1]"#, jtoo::path![1].to_vec()),
        (br#"["a":"#, jtoo::path!["b"].to_vec()),
        // In the value found.
        (br#"["a":[1,2x]]"#, jtoo::path!["a"].to_vec()),
        (br#"["a":D2023-02-29]"#, jtoo::path!["a"].to_vec()),
        // Where the walk ends without a value.
        (br#"[1,2"#, jtoo::path![5].to_vec()),
        (br#"[1 ,2]"#, jtoo::path![1].to_vec()),
        (br#" [1]"#, jtoo::path![0].to_vec()),
        (br#"1.50"#, jtoo::path![0].to_vec()),
        (b"", vec![]),
        (b"", jtoo::path![0].to_vec()),
    ];
    for (doc, path) in cases {
        let want = jtoo::validate(doc).unwrap_err();
        let got = jtoo::get(doc, path)
            .map_err(err)
            .expect_err(&String::from_utf8_lossy(doc));
        assert_eq!(got, err(want), "{} {path:?}", String::from_utf8_lossy(doc));
    }
}

#[test]
fn get_does_not_parse_past_the_value_found() {
    // Broken, or cut short, after the value found: still answered.
    let cases: &[(&[u8], Vec<PathItem<'_>>, &[u8])] = &[
        (br#"["a":1,"b":[1,],"#, jtoo::path!["a"].to_vec(), b"1"),
        (br#"["a":[2,3],xyz"#, jtoo::path!["a", 1].to_vec(), b"3"),
        (b"[[1],\xff\xff", jtoo::path![0].to_vec(), b"[1]"),
        (br#"[1]trailing"#, vec![], b"[1]"),
        (br#"["a":1"#, jtoo::path!["a"].to_vec(), b"1"),
        (br#"["a":1x]"#, jtoo::path!["a"].to_vec(), b"1"),
        (
            br#"[1,[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["#,
            jtoo::path![0].to_vec(),
            b"1",
        ),
    ];
    for (doc, path, want) in cases {
        assert!(jtoo::validate(doc).is_err());
        let got = jtoo::get(doc, path).unwrap().unwrap();
        assert_eq!(got.raw(), *want, "{}", String::from_utf8_lossy(doc));
    }
    // Not found: read to the end of the list searched, no further.
    assert!(
        jtoo::get(br#"[["a":1],!"#, &jtoo::path![0, "b"])
            .unwrap()
            .is_none()
    );
    // A step into a scalar: the scalar is checked, then nothing is found.
    assert!(
        jtoo::get(br#"["a":1,!"#, &jtoo::path!["a", 0])
            .unwrap()
            .is_none()
    );
    assert!(matches!(
        jtoo::get(br#"["a":1.50,!"#, &jtoo::path!["a", 0])
            .unwrap_err()
            .kind(),
        ErrorKind::InvalidDecimal(_)
    ));
    // What follows a scalar is the list's to check: not parsed either.
    assert!(
        jtoo::get(br#"["a":1x,!"#, &jtoo::path!["a", 0])
            .unwrap()
            .is_none()
    );
}

#[test]
fn deep_documents_at_the_depth_limit() {
    let limit = Options::DEFAULT_MAX_DEPTH;
    let nested = |depth: usize| format!("{}7{}", "[".repeat(depth), "]".repeat(depth));
    let zeros = |n: usize| vec![PathItem::Index(0); n];
    // At the limit: every level reachable, the innermost list is `[7]`.
    let doc = nested(limit);
    let inner = jtoo::get(doc.as_bytes(), &zeros(limit - 1))
        .unwrap()
        .unwrap();
    assert_eq!(inner.raw(), b"[7]");
    assert_eq!(inner.to_value(), jtoo::from_str("[7]").unwrap());
    let seven = jtoo::get(doc.as_bytes(), &zeros(limit)).unwrap().unwrap();
    assert_eq!(seven.as_i64(), Some(7));
    assert!(
        jtoo::get(doc.as_bytes(), &zeros(limit + 1))
            .unwrap()
            .is_none()
    );
    let root = view_of(doc.as_bytes());
    assert_eq!(root.path(&zeros(limit)), Some(seven));
    assert_eq!(root.to_value(), jtoo::from_str(&doc).unwrap());
    assert_eq!(root.path(&zeros(limit - 1)), Some(inner));
    // One deeper: refused at the innermost `[` whether or not the path goes
    // there, as long as the walk reads it.
    let doc = nested(limit + 1);
    let want = err(jtoo::validate(doc.as_bytes()).unwrap_err());
    assert_eq!((want.0, want.1), (ErrorKind::DepthLimitExceeded, limit));
    for n in [0, 1, limit - 1, limit, limit + 1] {
        assert_eq!(err(jtoo::get(doc.as_bytes(), &zeros(n)).unwrap_err()), want);
    }
    assert_eq!(err(ValueRef::from_slice(doc.as_bytes()).unwrap_err()), want);
    // Too deep after the value found: not parsed.
    let doc = format!("[1,{}]", nested(limit * 2));
    assert_eq!(
        jtoo::get(doc.as_bytes(), &jtoo::path![0])
            .unwrap()
            .unwrap()
            .as_i64(),
        Some(1)
    );
    // Deep inside a pair's value and key.
    let doc = format!("[{}:1,\"k\":{}]", nested(limit - 1), nested(limit - 1));
    let v = jtoo::from_str(&doc).unwrap();
    let path: Vec<PathItem<'_>> = std::iter::once(PathItem::Key("k"))
        .chain(zeros(limit - 2))
        .collect();
    let found = jtoo::get(doc.as_bytes(), &path).unwrap().unwrap();
    assert_eq!(found.raw(), b"[7]");
    assert_eq!(Some(&found.to_value()), navigate(&v, &path));
    let doc = format!("[{}:1,\"k\":2]", nested(limit));
    assert_eq!(
        jtoo::get(doc.as_bytes(), &jtoo::path!["k"])
            .unwrap_err()
            .kind(),
        ErrorKind::DepthLimitExceeded
    );
}

// ---------------------------------------------------------------------------
// The corpus: JSON benchmark files, converted.

/// Paths into `v`: at each list, its first, second, middle and last items,
/// by position and (for string keys) by key, down to `depth` steps.
#[cfg(feature = "json")]
fn sample_paths(v: &Value, depth: usize, prefix: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(prefix.clone());
    let Some(list) = v.as_list() else { return };
    if depth == 0 {
        return;
    }
    let len = list.len();
    let mut picks = vec![0, 1, len / 2, len.saturating_sub(1), len];
    picks.dedup();
    for i in picks {
        let Some(item) = list.get(i) else {
            prefix.push(Step::Index(i));
            out.push(prefix.clone());
            prefix.pop();
            continue;
        };
        prefix.push(Step::Index(i));
        sample_paths(item.value(), depth - 1, prefix, out);
        prefix.pop();
        if let ItemRef::Pair(p) = item
            && let Some(k) = p.key().as_str()
        {
            prefix.push(Step::Key(k.to_owned()));
            sample_paths(p.value(), depth - 1, prefix, out);
            prefix.pop();
        }
    }
}

#[cfg(feature = "json")]
#[test]
fn get_on_the_corpus() {
    for name in ["twitter", "citm_catalog", "canada"] {
        let path = format!(
            "{}/../testdata/corpus/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let json = std::fs::read(&path).unwrap();
        let v = jtoo::json::from_json_slice(&json).unwrap();
        let doc = jtoo::to_vec(&v).unwrap();
        let root = view_of(&doc);
        let mut paths = Vec::new();
        sample_paths(&v, 4, &mut Vec::new(), &mut paths);
        // canada is one long run of numbers, slow to walk in a debug build.
        paths.truncate(if name == "canada" { 24 } else { 200 });
        if name == "twitter" {
            paths.push(vec![
                Step::Key("statuses".into()),
                Step::Index(50),
                Step::Key("user".into()),
            ]);
            paths.push(vec![
                Step::Key("search_metadata".into()),
                Step::Key("count".into()),
            ]);
        }
        let mut found = 0;
        for (i, p) in paths.iter().enumerate() {
            let p = items(p);
            let want = navigate(&v, &p);
            let got = jtoo::get(&doc, &p).unwrap();
            assert_eq!(got.map(|g| g.to_value()).as_ref(), want, "{name} {p:?}");
            if i % 8 == 0 {
                // (The properties below hold `ValueRef::path` to `get`.)
                assert_eq!(root.path(&p), got, "{name} {p:?}");
            }
            if let Some(g) = got {
                assert_eq!(g.raw(), jtoo::to_vec(want.unwrap()).unwrap().as_slice());
                if g.raw().len() < 4096 {
                    check_view(g, want.unwrap());
                }
                found += 1;
            }
        }
        assert!(
            found > paths.len() / 2,
            "{name}: {found} of {}",
            paths.len()
        );
        if name == "twitter" {
            let user = jtoo::get(&doc, &jtoo::path!["statuses", 50, "user"])
                .unwrap()
                .unwrap();
            assert_eq!(
                Some(&user.to_value()),
                v.get("statuses").map(|s| &s[50]["user"])
            );
            assert!(user.get("screen_name").and_then(|n| n.as_str()).is_some());
        }
    }
}

// ---------------------------------------------------------------------------
// Properties.

/// Keys from a small set, so that lists repeat them (`get` takes the first).
fn arb_key() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["a", "b", "k", "", "é", "q\"", "t\tab", "\u{7f}"])
        .prop_map(String::from)
}

fn arb_scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<String>().prop_map(Value::from),
        arb_key().prop_map(Value::from),
        prop::collection::vec(any::<u8>(), 0..6).prop_map(Value::Bytes),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u128>().prop_map(Value::from),
        (any::<bool>(), any::<u64>(), 0u32..30)
            .prop_map(|(n, c, s)| Value::Decimal(jtoo::Decimal::new(n, c.into(), s).unwrap())),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| Value::try_from(f).unwrap()),
        prop::sample::select(vec![
            "D2023-12-31",
            "T10",
            "T10:20",
            "T10:20:30.400",
            "D2023-W01-1T23:59~08",
            "S1_709_528_240",
            "S-1.500",
        ])
        .prop_map(|s| jtoo::from_str(s).unwrap()),
    ]
}

fn arb_value() -> impl Strategy<Value = Value> {
    arb_scalar().prop_recursive(5, 96, 8, |inner| {
        prop::collection::vec(
            prop_oneof![
                inner.clone().prop_map(Item::Value),
                (arb_key(), inner.clone()).prop_map(|(k, v)| Item::Pair(Pair::with_str_key(k, v))),
                (inner.clone(), inner).prop_filter_map("unambiguous key", |(k, v)| Pair::new(k, v)
                    .ok()
                    .map(Item::Pair)),
            ],
            0..8,
        )
        .prop_map(Value::from)
    })
}

/// A path drawn against `v`: each step (a choice and a number) picks an
/// item of the list reached so far by position or by one of its string
/// keys, or (now and then) a position or key it does not have.
fn path_into(v: &Value, choices: &[(u8, usize)]) -> Vec<Step> {
    let mut path = Vec::new();
    let mut at = Some(v);
    for &(choice, n) in choices {
        let list = at.and_then(Value::as_list);
        let len = list.map_or(0, |l| l.len());
        let keys: Vec<&str> = list
            .into_iter()
            .flat_map(|l| l.iter())
            .filter_map(|i| match i {
                ItemRef::Pair(p) => p.key().as_str(),
                ItemRef::Value(_) => None,
            })
            .collect();
        let step = match choice % 5 {
            0 | 1 => Step::Index(n % (len + 1)),
            2 | 3 if !keys.is_empty() => Step::Key(keys[n % keys.len()].to_owned()),
            _ => Step::Key(["a", "b", "missing"][n % 3].to_owned()),
        };
        at = at.and_then(|v| navigate(v, &items(std::slice::from_ref(&step))));
        path.push(step);
    }
    path
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// `get(encode(v), path)` is navigating `v`; so is `ValueRef::path`,
    /// and the view found shows the value found.
    #[test]
    fn get_is_navigation(
        v in arb_value(),
        choices in prop::collection::vec((any::<u8>(), any::<usize>()), 0..6),
    ) {
        let doc = jtoo::to_vec(&v).unwrap();
        let path = path_into(&v, &choices);
        let path = items(&path);
        let want = navigate(&v, &path);
        let got = jtoo::get(&doc, &path).unwrap();
        let built = got.map(|g| g.to_value());
        prop_assert_eq!(built.as_ref(), want);
        prop_assert_eq!(view_of(&doc).path(&path), got);
        if let (Some(g), Some(w)) = (got, want) {
            check_view(g, w);
        }
    }

    /// Every accessor of the whole document's view, recursively.
    #[test]
    fn views_show_their_values(v in arb_value()) {
        let doc = jtoo::to_vec(&v).unwrap();
        check_view(view_of(&doc), &v);
    }

    /// In a damaged document, `get` fails exactly when the damage comes
    /// before the end of what it reads, with the validator's error; what it
    /// finds in spite of damage further on is what the undamaged document
    /// holds there.
    #[test]
    fn damaged_documents(
        v in arb_value(),
        choices in prop::collection::vec((any::<u8>(), any::<usize>()), 0..4),
        at in any::<usize>(),
        byte in prop::sample::select(b"[],:\"\\0_.-BYTZ \xff".to_vec()),
        cut in any::<bool>(),
    ) {
        let good = jtoo::to_vec(&v).unwrap();
        let mut doc = good.clone();
        let at = at % (doc.len() + 1);
        if cut {
            doc.truncate(at);
        } else if at < doc.len() {
            doc[at] = byte;
        } else {
            doc.push(byte);
        }
        let path = path_into(&v, &choices);
        let path = items(&path);
        match jtoo::get(&doc, &path) {
            Err(e) => {
                let want = jtoo::validate(&doc).unwrap_err();
                prop_assert_eq!(err(e), err(want));
            }
            Ok(found) => {
                // Sound only where the damage is after the value found (or
                // the document is still valid).
                if let Some(f) = found {
                    let end = f.raw().as_ptr() as usize - doc.as_ptr() as usize + f.raw().len();
                    if end < at {
                        let want = navigate(&v, &path);
                        let got = f.to_value();
                        prop_assert_eq!(Some(&got), want);
                    }
                }
                if let Ok(damaged) = jtoo::from_slice(&doc) {
                    let want = navigate(&damaged, &path);
                    let built = found.map(|f| f.to_value());
                    prop_assert_eq!(built.as_ref(), want);
                }
            }
        }
    }
}
