//! Every case against our crates, in-process: `jtoo` (strict), `htoo`
//! (lenient), the canonical encoder and `jtoo::tagged`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use spec_tests::cases::{self, Case, Kind, Syntax};
use spec_tests::compare;
use std::path::Path;

fn rev_dir() -> std::path::PathBuf {
    let dir = cases::default_cases_dir();
    dir.join(spec_tests::latest_revision(&dir).expect("a revision"))
}

fn known_failures() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/known-failures.txt");
    spec_tests::runner::read_skips(&path).expect("known-failures.txt")
}

fn parse(syntax: Syntax, bytes: &[u8]) -> Result<jtoo::Value, jtoo::Error> {
    match syntax {
        Syntax::Jtoo => jtoo::from_slice(bytes),
        Syntax::Htoo => htoo::from_slice(bytes),
    }
}

/// Checks one case; `Err` says what went wrong.
fn check(case: &Case, syntax: Syntax) -> Result<(), String> {
    let input = std::fs::read(&case.path).map_err(|e| e.to_string())?;
    match case.kind {
        Kind::Valid(_) => {
            let expected = read_json(&case.sibling(".json"))?;
            let v = parse(syntax, &input).map_err(|e| format!("rejected: {e}"))?;
            compare::same(&expected, &jtoo::tagged::to_tagged(&v))?;
            let canonical = match case.kind {
                Kind::Valid(Syntax::Htoo) => {
                    std::fs::read(case.sibling(".canonical.jtoo")).map_err(|e| e.to_string())?
                }
                _ => input.clone(),
            };
            let out = jtoo::to_vec(&v).map_err(|e| format!("encode: {e}"))?;
            if out != canonical {
                return Err(format!(
                    "encoded as {:?}, expected {:?}",
                    String::from_utf8_lossy(&out),
                    String::from_utf8_lossy(&canonical)
                ));
            }
            // The canonical text is strict JTOO with the same value.
            let again = jtoo::from_slice(&canonical).map_err(|e| format!("canonical: {e}"))?;
            if again != v {
                return Err("canonical text reads back as another value".into());
            }
            Ok(())
        }
        Kind::Invalid(_) => match parse(syntax, &input) {
            Ok(v) => Err(format!("accepted as {}", jtoo::tagged::to_tagged(&v))),
            Err(_) => Ok(()),
        },
        _ => Ok(()),
    }
}

fn read_json(path: &Path) -> Result<serde_json::Value, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    compare::parse_json(&bytes)
}

/// The encoder half: tagged JSON → canonical bytes, and refusals.
fn check_encode(case: &Case) -> Result<(), String> {
    match case.kind {
        Kind::Valid(syntax) => {
            let tagged = read_json(&case.sibling(".json"))?;
            let want = match syntax {
                Syntax::Jtoo => std::fs::read(&case.path),
                Syntax::Htoo => std::fs::read(case.sibling(".canonical.jtoo")),
            }
            .map_err(|e| e.to_string())?;
            let v = jtoo::tagged::from_tagged(&tagged)?;
            let out = jtoo::to_vec(&v).map_err(|e| e.to_string())?;
            if out == want {
                Ok(())
            } else {
                Err(format!("encoded as {:?}", String::from_utf8_lossy(&out)))
            }
        }
        Kind::TaggedInvalid => {
            let tagged = read_json(&case.path)?;
            match jtoo::tagged::from_tagged(&tagged).map(|v| jtoo::to_vec(&v)) {
                Ok(Ok(out)) => Err(format!("encoded as {:?}", String::from_utf8_lossy(&out))),
                _ => Ok(()),
            }
        }
        _ => Ok(()),
    }
}

fn is_known(id: &str, known: &[String]) -> bool {
    known.iter().any(|k| match k.strip_suffix('*') {
        Some(p) => id.starts_with(p),
        None => k == id,
    })
}

#[test]
fn every_case_in_process() {
    let all = cases::load(&rev_dir()).unwrap();
    let known = known_failures();
    let mut failures = Vec::new();
    let mut stale = Vec::new();
    let mut passed = 0;
    let mut record = |id: String, result: Result<(), String>| match (result, is_known(&id, &known))
    {
        (Ok(()), false) => passed += 1,
        (Ok(()), true) => stale.push(id),
        (Err(why), false) => failures.push(format!("{id}: {why}")),
        (Err(_), true) => {}
    };
    for case in &all {
        match case.kind {
            Kind::Valid(Syntax::Jtoo) => {
                record(case.id.clone(), check(case, Syntax::Jtoo));
                // An HTOO parser reads every JTOO document with the same value.
                record(format!("htoo:{}", case.id), check(case, Syntax::Htoo));
            }
            Kind::Valid(Syntax::Htoo) | Kind::Invalid(Syntax::Htoo) => {
                record(case.id.clone(), check(case, Syntax::Htoo));
            }
            Kind::Invalid(Syntax::Jtoo) => record(case.id.clone(), check(case, Syntax::Jtoo)),
            Kind::ImplementationDefined(syntax) => {
                // Open behaviour, but it must not panic or overflow the stack.
                let input = std::fs::read(&case.path).unwrap();
                let _ = parse(syntax, &input);
            }
            _ => {}
        }
        if matches!(case.kind, Kind::Valid(_) | Kind::TaggedInvalid) {
            let id = match case.kind {
                Kind::Valid(_) => format!("encode:{}", case.sibling_id(".json")),
                _ => format!("encode:{}", case.id),
            };
            record(id, check_encode(case));
        }
    }
    println!("in-process: {passed} checks passed");
    assert!(
        failures.is_empty(),
        "{} in-process failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        stale.is_empty(),
        "known failures that now pass (remove them from tests/known-failures.txt): {stale:?}"
    );
}

#[test]
fn the_suite_is_big_enough_and_complete() {
    let all = cases::load(&rev_dir()).unwrap();
    assert!(all.len() >= 400, "only {} cases", all.len());
    for case in &all {
        match case.kind {
            Kind::Valid(Syntax::Jtoo) => assert!(case.sibling(".json").is_file(), "{}", case.id),
            Kind::Valid(Syntax::Htoo) => {
                assert!(case.sibling(".json").is_file(), "{}", case.id);
                assert!(case.sibling(".canonical.jtoo").is_file(), "{}", case.id);
            }
            Kind::FrameValid | Kind::FrameInvalid => {
                assert!(case.sibling(".json").is_file(), "{}", case.id)
            }
            _ => {}
        }
    }
    let coverage =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("COVERAGE.md")).unwrap();
    for clause in ["`E1`", "`E9`", "`X1`", "`d.ambiguous-key`", "`greet.505`"] {
        assert!(coverage.contains(&format!("| {clause} |")), "{clause}");
    }
}
