//! The typed pretty writer and diagnostics for typed errors.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize, PartialEq, Debug)]
enum Role {
    Admin,
    Guest { until: jtoo::Date },
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Config {
    name: String,
    port: u16,
    ratio: f64,
    tags: Vec<String>,
    roles: Vec<Role>,
    limits: BTreeMap<String, u64>,
    key: Option<jtoo::Decimal>,
}

fn sample() -> Config {
    Config {
        name: "billing service with a long name".into(),
        port: 8080,
        ratio: 0.75,
        tags: (0..12).map(|i| format!("tag-{i}")).collect(),
        roles: vec![
            Role::Admin,
            Role::Guest {
                until: "D2025-01-31".parse().unwrap(),
            },
        ],
        limits: BTreeMap::from([("cpu".into(), 4), ("memory".into(), 1 << 30)]),
        key: None,
    }
}

#[test]
fn pretty_htoo_reads_back_to_the_same_value() {
    let config = sample();
    let text = jtoo_serde::to_string_pretty(&config).unwrap();
    assert!(text.contains("\n  \"port\": 8_080,\n"), "{text}");
    assert_eq!(jtoo_serde::from_htoo_str::<Config>(&text).unwrap(), config);
    // The same value as canonical JTOO.
    let strict = jtoo_serde::to_string(&config).unwrap();
    assert_eq!(htoo::from_str(&text).unwrap().to_string(), strict);
    let mut out = Vec::new();
    jtoo_serde::to_writer_pretty(&mut out, &config).unwrap();
    assert_eq!(out, format!("{text}\n").into_bytes());
}

#[test]
fn pretty_refuses_what_to_string_refuses() {
    assert!(jtoo_serde::to_string_pretty(&f64::NAN).is_err());
    assert!(jtoo_serde::to_string_pretty(&Option::<u8>::None).is_err());
}

#[test]
fn typed_errors_render_like_htoo_diagnostics() {
    let src = "[\n  \"name\": \"x\",\n  \"port\": 80,\n  \"ratio\": 0.5,\n  \"tags\": [],\n  \"roles\": [\"Root\"],\n  \"limits\": [],\n]\n";
    let err = jtoo_serde::from_htoo_str::<Config>(src).unwrap_err();
    let shown = err.render(src.as_bytes(), "app.htoo");
    assert!(
        shown.starts_with("error: roles[0]: unknown variant `Root`, expected `Admin` or `Guest`\n --> app.htoo:6:13\n"),
        "{shown}"
    );
    assert!(shown.contains("6 |   \"roles\": [\"Root\"],\n"), "{shown}");
    assert!(shown.ends_with("  |             ^\n"), "{shown}");
    // Syntax errors render as htoo's own, hints included.
    let src = "[\"name\": true]";
    let err = jtoo_serde::from_htoo_str::<Config>(src).unwrap_err();
    assert_eq!(
        err.render(src.as_bytes(), "app.htoo"),
        htoo::render_diagnostic(
            &htoo::from_str(src).unwrap_err(),
            src.as_bytes(),
            "app.htoo"
        )
    );
    // An error without a position still names the file.
    let err = jtoo_serde::Error::message("no position");
    assert_eq!(
        err.render(b"", "app.htoo"),
        "error: no position\n --> app.htoo\n"
    );
}
