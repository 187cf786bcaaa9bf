//! The typed models read the same data from the JTOO conversion as from the
//! JSON file (so the typed benches compare like with like).
#![forbid(unsafe_code)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use benches::models::Canada;
use benches::{Doc, JsonDe, JtooDe, typed_from};

/// canada.json's floats read from JTOO are the correctly rounded values of
/// the JSON text (serde_json's default parser is off by one ULP on some,
/// e.g. `43.474709000000132`).
#[test]
fn canada_floats_are_correctly_rounded() {
    let d = Doc::load("canada").unwrap();
    let a: Canada = jtoo_serde::from_slice(&d.jtoo).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&d.json).unwrap();
    let features = json["features"].as_array().unwrap();
    for (fa, fj) in a.features.iter().zip(features) {
        let rings = fj["geometry"]["coordinates"].as_array().unwrap();
        for (ra, rj) in fa.geometry.coordinates.iter().zip(rings) {
            for (pa, pj) in ra.iter().zip(rj.as_array().unwrap()) {
                // arbitrary_precision: the number's own text.
                let x: f64 = pj[0].to_string().parse().unwrap();
                let y: f64 = pj[1].to_string().parse().unwrap();
                assert_eq!(*pa, (x, y));
            }
        }
    }
}

#[test]
fn every_model_reads_the_same_from_jtoo_and_json() {
    for d in Doc::load_all().unwrap() {
        let a = typed_from(d.name, &d.jtoo, JtooDe).unwrap();
        let b = typed_from(d.name, &d.json, JsonDe).unwrap();
        assert!(a.same_as(&b), "{}", d.name);
    }
}
