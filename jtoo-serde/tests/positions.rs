//! Typed errors point at the offending value or key, not at the list
//! around it (issue 18 defect 4).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use chrono::{DateTime, Utc};
use serde::Deserialize;

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Event {
    name: String,
    #[serde(with = "jtoo_serde::chrono::datetime")]
    at: DateTime<Utc>,
}

#[test]
fn a_conversion_error_points_at_the_value() {
    // An offset-less date-time cannot be a `DateTime<Utc>`.
    let text = r#"["name":"x","at":D2024-03-04T05:06:07]"#;
    let err = jtoo_serde::from_str::<Event>(text).unwrap_err();
    assert_eq!((err.line(), err.column()), (1, 18), "{err}");
    assert_eq!(err.path(), "at");
    // The same inside a sequence.
    let text = r#"[["name":"x","at":D2024-03-04T05:06:07Z],["name":"y","at":D2024-03-04]]"#;
    let err = jtoo_serde::from_str::<Vec<Event>>(text).unwrap_err();
    assert_eq!(err.column(), 59, "{err}");
    assert_eq!(err.path(), "[1].at");
}

#[test]
fn a_duplicate_field_points_at_the_second_key() {
    let text = r#"["name":"x","name":"y","at":D2024-03-04T05:06:07Z]"#;
    let err = jtoo_serde::from_str::<Event>(text).unwrap_err();
    assert!(
        err.to_string().starts_with("duplicate field `name`"),
        "{err}"
    );
    assert_eq!((err.line(), err.column()), (1, 13), "{err}");
    // HTOO too, with whitespace around.
    let text = "[\n  \"name\": \"x\",\n  \"name\" : \"y\",\n]";
    let err = jtoo_serde::from_htoo_str::<Event>(text).unwrap_err();
    assert_eq!((err.line(), err.column()), (3, 3), "{err}");
}

#[test]
fn a_missing_field_still_points_at_the_list() {
    let err = jtoo_serde::from_str::<Event>(r#"[1,["name":"x"]]"#.get(3..15).unwrap()).unwrap_err();
    assert!(err.to_string().starts_with("missing field `at`"), "{err}");
    assert_eq!(err.column(), 1);
}
