//! The pretty writer's layout, and its round trip on hand-picked values.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use htoo::PrettyConfig;
use jtoo::{Item, Value};

/// Pretty-prints the strict document `doc` with `cfg` and checks the round trip.
fn pretty(doc: &str, cfg: &PrettyConfig) -> String {
    let v = jtoo::from_str(doc).unwrap();
    let out = htoo::to_string_pretty_with(&v, cfg);
    assert_eq!(htoo::from_str(&out).unwrap(), v, "{out}");
    assert_eq!(
        htoo::to_string_pretty_with(&htoo::from_str(&out).unwrap(), cfg),
        out
    );
    out
}

fn default(doc: &str) -> String {
    pretty(doc, &PrettyConfig::new())
}

#[test]
fn scalars_are_canonical() {
    for doc in [
        r#""a\09b\22""#,
        "B4f4b",
        "Y",
        "N",
        "-1_000",
        "0.000_1",
        "D2023-12-30T01:02:03~08",
        "S1_709_528_240.000_001",
        "T10:20",
    ] {
        assert_eq!(default(doc), doc);
    }
}

#[test]
fn short_lists_stay_on_one_line() {
    assert_eq!(default("[]"), "[]");
    assert_eq!(default("[1,2,3]"), "[1, 2, 3]");
    assert_eq!(default(r#"["a":1,"b":[Y,N]]"#), r#"["a": 1, "b": [Y, N]]"#);
    assert_eq!(default("[[],[[]]]"), "[[], [[]]]");
    assert_eq!(default("[[1,2]:3]"), "[[1, 2]: 3]");
}

#[test]
fn long_lists_get_one_item_per_line_with_trailing_commas() {
    let doc = format!(
        "[{}]",
        (0..30).map(|i| i.to_string()).collect::<Vec<_>>().join(",")
    );
    let out = default(&doc);
    assert!(out.starts_with("[\n  0,\n  1,\n"), "{out}");
    assert!(out.ends_with("\n  29,\n]"), "{out}");
    assert_eq!(out.lines().count(), 32);
}

#[test]
fn nested_layout() {
    let doc = r#"["name":"service","ports":[80,443],"hosts":["alpha.example.com","beta.example.com","gamma.example.com","delta.example.com"],"empty":[]]"#;
    assert_eq!(
        default(doc),
        r#"[
  "name": "service",
  "ports": [80, 443],
  "hosts": [
    "alpha.example.com",
    "beta.example.com",
    "gamma.example.com",
    "delta.example.com",
  ],
  "empty": [],
]"#
    );
}

#[test]
fn width_counts_from_the_current_column_and_leaves_room_for_the_comma() {
    // `[1, 2]` is 6 wide; with its `,` it needs 7 columns after the indent.
    let cfg = PrettyConfig::new().with_max_width(9);
    assert_eq!(pretty("[[1,2],3]", &cfg), "[\n  [1, 2],\n  3,\n]");
    let cfg = PrettyConfig::new().with_max_width(8);
    assert_eq!(
        pretty("[[1,2],3]", &cfg),
        "[\n  [\n    1,\n    2,\n  ],\n  3,\n]"
    );
    // The top-level list has no comma after it: 7 columns for `[1, 2]`.
    assert_eq!(
        pretty("[1,2]", &PrettyConfig::new().with_max_width(7)),
        "[1, 2]"
    );
    assert_eq!(
        pretty("[1,2]", &PrettyConfig::new().with_max_width(6)),
        "[\n  1,\n  2,\n]"
    );
}

#[test]
fn width_counts_characters_not_bytes() {
    // 9 characters, 15 bytes.
    let doc = r#"["你好",1]"#;
    assert_eq!(
        pretty(doc, &PrettyConfig::new().with_max_width(10)),
        r#"["你好", 1]"#
    );
    assert_eq!(
        pretty(doc, &PrettyConfig::new().with_max_width(9)),
        "[\n  \"你好\",\n  1,\n]"
    );
}

#[test]
fn width_zero_breaks_every_list() {
    let cfg = PrettyConfig::new().with_max_width(0).with_indent(1);
    assert_eq!(
        pretty(r#"[[1],"k":[]]"#, &cfg),
        "[\n [\n  1,\n ],\n \"k\": [],\n]"
    );
}

#[test]
fn indent_width() {
    let cfg = PrettyConfig::new().with_max_width(0).with_indent(4);
    assert_eq!(pretty("[[1]]", &cfg), "[\n    [\n        1,\n    ],\n]");
    let cfg = PrettyConfig::new().with_max_width(0).with_indent(0);
    assert_eq!(pretty("[[1]]", &cfg), "[\n[\n1,\n],\n]");
}

#[test]
fn keys_of_every_kind() {
    let doc = "[T10Z:20,T10:20:30:5,D2023:5,S0:1,1.5:2,B:3,Y:4,[T10Z:1]:5,\"k\":T10:20]";
    let out = pretty(doc, &PrettyConfig::new().with_max_width(0));
    assert!(out.contains("\n  T10Z: 20,\n"), "{out}");
    assert!(out.contains("\n  T10:20:30: 5,\n"), "{out}");
    assert!(out.contains("\n  \"k\": T10:20,\n"), "{out}");
    assert!(out.contains("\n  [\n    T10Z: 1,\n  ]: 5,\n"), "{out}");
    let wide = PrettyConfig::new().with_max_width(120);
    assert_eq!(
        pretty(doc, &wide),
        "[T10Z: 20, T10:20:30: 5, D2023: 5, S0: 1, 1.5: 2, B: 3, Y: 4, [T10Z: 1]: 5, \"k\": T10:20]"
    );
}

#[test]
fn long_scalars_are_never_split() {
    let long = "x".repeat(200);
    let doc = format!("[\"{long}\",B{}]", "ab".repeat(100));
    let out = default(&doc);
    assert_eq!(
        out,
        format!("[\n  \"{long}\",\n  B{},\n]", "ab".repeat(100))
    );
}

#[test]
fn huge_lists_measure_in_bounded_time() {
    // Measuring a list stops once it exceeds the width.
    let v = Value::List((0..200_000).map(|i| Item::Value(Value::from(i))).collect());
    let out = htoo::to_string_pretty(&v);
    assert_eq!(out.lines().count(), 200_002);
    assert_eq!(htoo::from_str(&out).unwrap(), v);
}

/// Takes a deeply nested value apart without recursion (dropping it
/// naively would recurse once per level).
fn dismantle(mut v: Value) {
    while let Value::List(items) = &mut v {
        match items.pop() {
            Some(Item::Value(inner)) => v = inner,
            _ => break,
        }
    }
}

fn nested(depth: usize) -> Value {
    let mut v = Value::List(Vec::new().into());
    for _ in 1..depth {
        v = Value::List(vec![Item::Value(v)].into());
    }
    v
}

#[test]
fn deep_values_do_not_overflow_the_stack() {
    // Built programmatically, far deeper than the parser allows.
    let n = 200_000;
    let v = nested(n);
    let broken = htoo::to_string_pretty_with(&v, &PrettyConfig::new().with_indent(0));
    let flat = htoo::to_string_pretty_with(&v, &PrettyConfig::new().with_max_width(usize::MAX));
    // Take the value apart before asserting: a panic would drop it recursively.
    dismantle(v);
    let expected = format!("{}{}", "[".repeat(n), "]".repeat(n));
    assert_eq!(flat, expected);
    assert_eq!(broken.replace(['\n', ','], ""), expected);
    // The innermost 39 lists fit in 80 columns; each outer one takes 2 lines.
    assert_eq!(broken.lines().count(), 2 * (n - 39) + 1);
    // At the parser's limit the round trip holds.
    let v = nested(128);
    let out = htoo::to_string_pretty(&v);
    assert_eq!(htoo::from_str(&out).unwrap(), v);
}

#[test]
fn pretty_output_is_linear_in_depth() {
    // Before indentation stopped at MAX_INDENT_LEVEL, 10,000 levels made
    // 100 MB (the square of the depth); now each line is at most the
    // deepest indentation plus `[],`.
    let n = 10_000;
    let v = nested(n);
    let config = PrettyConfig::new().with_max_width(0);
    let out = htoo::to_string_pretty_with(&v, &config);
    let widest = 2 * htoo::MAX_INDENT_LEVEL + "[],".len();
    assert!(out.lines().all(|l| l.len() <= widest));
    assert!(out.len() <= 2 * n * (widest + 1), "{}", out.len());
    // Lines past the deepest indentation still read back.
    let v = nested(128);
    let out = htoo::to_string_pretty_with(&v, &config);
    assert!(
        out.lines()
            .any(|l| l.len() == 2 * htoo::MAX_INDENT_LEVEL + 1)
    );
    assert_eq!(htoo::from_str(&out).unwrap(), v);
    let mut written = Vec::new();
    htoo::to_writer_pretty(&mut written, &v, &config).unwrap();
    assert_eq!(written, out.into_bytes());
    let e = htoo::to_writer_pretty(Vec::new(), &nested(129), &config).unwrap_err();
    assert_eq!(e.kind(), htoo::ErrorKind::TooDeep(128));
}
