//! The headline: a commented config read into a struct, changed, and
//! written back through `jtoo_serde::update` keeps every comment that did
//! not belong to the removed field.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Limits {
    timeout_ms: u32,
    retries: u8,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Config {
    name: String,
    port: u16,
    ratio: jtoo::Decimal,
    #[serde(skip_serializing_if = "Option::is_none")]
    legacy: Option<bool>,
    hosts: Vec<String>,
    limits: Limits,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    owner: Option<String>,
}

const TEXT: &str = "\
/* Service settings.
   Edited by people and by programs. */
[
  \"name\": \"api\", // the public name

  // Where to listen.
  \"port\": 8080, // 80 needs root
  \"ratio\": 0.750, /* three quarters */

  // Deprecated: remove after the migration.
  // (Still read by v1 clients.)
  \"legacy\": Y, // really old
  \"hosts\": [
    \"a.example\", // primary
    \"b.example\",
  ],
  \"limits\": [\"timeout_ms\": 1000, \"retries\": 3], // per request
]
// end of file
";

/// Every comment of `text`, in order.
fn comments(text: &str) -> Vec<String> {
    let doc = htoo::Document::parse(text).unwrap();
    let mut out = Vec::new();
    // The whole text: trivia between values, at every level.
    let mut gaps = vec![doc.leading_trivia(), doc.trailing_trivia()];
    let mut nodes = vec![doc.root()];
    while let Some(node) = nodes.pop() {
        let entries: Vec<_> = node.entries().collect();
        for e in &entries {
            gaps.push(e.gap_before());
            if let Some(k) = e.key() {
                gaps.push(htoo::Span::new(k.span().end, e.value().span().start));
                nodes.push(k);
            }
            nodes.push(e.value());
        }
        if let Some(last) = entries.last() {
            gaps.push(last.gap_after());
        } else if node.is_list() {
            let s = node.span();
            gaps.push(htoo::Span::new(s.start + 1, s.end - 1));
        }
    }
    gaps.sort();
    for g in gaps {
        for t in doc.trivia(g.range()) {
            if t.kind.is_comment() {
                out.push(text[t.span.range()].to_owned());
            }
        }
    }
    out
}

#[test]
fn read_change_write_back_keeps_the_comments() {
    let mut doc = htoo::Document::parse(TEXT).unwrap();
    let mut config: Config = jtoo_serde::from_document(&doc).unwrap();
    assert_eq!(config.port, 8080);
    assert_eq!(config.legacy, Some(true));
    config.port = 9090; // changed
    config.limits.retries = 5; // changed
    config.legacy = None; // removed
    config.owner = Some("ops".into()); // added
    jtoo_serde::update(&mut doc, &config).unwrap();
    let out = doc.to_string();
    assert_eq!(
        out,
        "\
/* Service settings.
   Edited by people and by programs. */
[
  \"name\": \"api\", // the public name

  // Where to listen.
  \"port\": 9_090, // 80 needs root
  \"ratio\": 0.750, /* three quarters */

  \"hosts\": [
    \"a.example\", // primary
    \"b.example\",
  ],
  \"limits\": [\"timeout_ms\": 1000, \"retries\": 5], // per request
  \"owner\": \"ops\",
]
// end of file
"
    );
    // Every comment but the removed field's survives, in order.
    let before = comments(TEXT);
    let after = comments(&out);
    let gone = [
        "// Deprecated: remove after the migration.",
        "// (Still read by v1 clients.)",
        "// really old",
    ];
    let expected: Vec<String> = before
        .iter()
        .filter(|c| !gone.contains(&c.as_str()))
        .cloned()
        .collect();
    assert_eq!(after, expected);
    assert_eq!(before.len(), after.len() + 3);
    // It reads back as the changed struct.
    let back: Config = jtoo_serde::from_htoo_str(&out).unwrap();
    assert_eq!(back, config);
}
