//! The typed models read the same data from the JTOO conversion as from the
//! JSON file (so the typed benches compare like with like).
#![forbid(unsafe_code)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::models::Canada;
use crate::{Doc, JsonDe, JtooDe, typed_from};

/// canada.json's floats read from JTOO are the correctly rounded values of
/// the JSON text (serde_json's default parser is off by one ULP on some,
/// e.g. `43.474709000000132`).
#[test]
fn canada_floats_are_correctly_rounded() {
    let d = Doc::load("canada").unwrap();
    let a: Canada = jtoo_serde::from_slice(&d.jtoo).unwrap();
    // The numbers' own text, in order, straight from the JSON file (its
    // strings hold no digits), parsed by std (correctly rounded): this does
    // not depend on serde_json's features.
    let text = std::str::from_utf8(&d.json).unwrap();
    let mut expected = text
        .split(|c: char| !(c.is_ascii_digit() || matches!(c, '-' | '.' | 'e' | 'E' | '+')))
        .filter(|t| t.bytes().any(|b| b.is_ascii_digit()))
        .map(|t| t.parse::<f64>().unwrap());
    let mut n = 0;
    for f in &a.features {
        for ring in &f.geometry.coordinates {
            for &(x, y) in ring {
                assert_eq!((x, y), (expected.next().unwrap(), expected.next().unwrap()));
                n += 1;
            }
        }
    }
    assert!(expected.next().is_none());
    assert!(n > 50_000, "{n} points");
}

#[test]
fn every_model_reads_the_same_from_jtoo_and_json() {
    for d in Doc::load_all().unwrap() {
        let a = typed_from(d.name, &d.jtoo, JtooDe).unwrap();
        let b = typed_from(d.name, &d.json, JsonDe).unwrap();
        assert!(a.same_as(&b), "{}", d.name);
    }
}
