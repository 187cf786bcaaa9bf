//! `from_reader` reads every document exactly as `from_slice` does: the
//! same value, or the same error (message, kind, line and column), whatever
//! the read size (lists longer than the window are walked event by event,
//! shorter ones read whole) and however the source hands its bytes out.

use jtoo_serde::{Category, IoDeserializer, Spanned};
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::io::Read;

/// A source that hands out one byte per read.
struct OneByte<'a>(&'a [u8]);

impl Read for OneByte<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((b, rest)), Some(slot)) => {
                *slot = *b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

/// What a read gave, for comparing: the value, or the error as it shows.
#[derive(Debug, PartialEq)]
enum Outcome<T> {
    Value(T),
    Error {
        shown: String,
        category: Category,
        position: Option<jtoo::Position>,
    },
}

fn outcome<T>(r: jtoo_serde::Result<T>) -> Outcome<T> {
    match r {
        Ok(v) => Outcome::Value(v),
        Err(e) => Outcome::Error {
            shown: e.to_string(),
            category: e.classify(),
            position: e.position(),
        },
    }
}

fn read_with<T: DeserializeOwned>(src: impl Read, buffer: Option<usize>) -> jtoo_serde::Result<T> {
    let mut de = IoDeserializer::new(src);
    if let Some(size) = buffer {
        de = de.with_buffer_size(size);
    }
    let v = T::deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// Read sizes: 1 (every list of more than a few bytes walked event by
/// event), a few odd sizes, and the default.
const SIZES: [Option<usize>; 6] = [Some(1), Some(2), Some(3), Some(7), Some(40), None];

/// `from_reader` of `input` as `T`, in every way, is `from_slice`'s.
fn same<T: DeserializeOwned + PartialEq + Debug>(input: &[u8]) {
    same_in::<T>(input, &SIZES);
}

fn same_in<T: DeserializeOwned + PartialEq + Debug>(input: &[u8], sizes: &[Option<usize>]) {
    if let Some(difference) = differs::<T>(input, sizes) {
        panic!("{difference}");
    }
}

/// How `from_reader` of `input` as `T` differs from `from_slice`, if it
/// does, in one of the ways.
fn differs<T: DeserializeOwned + PartialEq + Debug>(
    input: &[u8],
    sizes: &[Option<usize>],
) -> Option<String> {
    let want = outcome(jtoo_serde::from_slice::<T>(input));
    let what = |how: &str, got: &Outcome<T>| {
        format!(
            "{:?} as {}, {how}:\n  from_reader {got:?}\n  from_slice  {want:?}",
            String::from_utf8_lossy(input),
            std::any::type_name::<T>()
        )
    };
    let got = outcome(jtoo_serde::from_reader::<_, T>(input));
    if got != want {
        return Some(what("from_reader", &got));
    }
    for &size in sizes {
        let got = outcome(read_with::<T>(input, size));
        if got != want {
            return Some(what(&format!("read size {size:?}"), &got));
        }
        let got = outcome(read_with::<T>(OneByte(input), size));
        if got != want {
            return Some(what(
                &format!("one byte per read, read size {size:?}"),
                &got,
            ));
        }
    }
    None
}

// ------------------------------------------------------------- the types

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
enum Kind {
    Plain,
    Count(i64),
    Pair(u8, String),
    Box { width: f64, labels: Vec<String> },
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "type")]
enum Tagged {
    Circle { r: u32 },
    Label { text: String, bold: Option<bool> },
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    One(i32),
    Many { items: Vec<u16> },
    Nothing,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
enum Loose {
    Number(i64),
    Word(String),
    Flags(Vec<bool>),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct WithRest {
    id: u64,
    #[serde(flatten)]
    rest: BTreeMap<String, i32>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Everything {
    name: String,
    letter: char,
    huge: i128,
    uhuge: u128,
    tiny: i8,
    real: f64,
    single: f32,
    #[serde(with = "serde_bytes")]
    blob: Vec<u8>,
    twice: Option<Option<u32>>,
    grid: Option<Vec<Vec<u8>>>,
    by_number: BTreeMap<i64, String>,
    by_tuple: Vec<((u8, bool), String)>,
    kinds: Vec<Kind>,
    tagged: Tagged,
    adjacent: Adjacent,
    loose: Vec<Loose>,
    with_rest: WithRest,
    money: jtoo::Decimal,
    day: jtoo::Date,
    at: jtoo::DateTime,
    stamp: jtoo::Timestamp,
    any: jtoo::Value,
}

/// `Spanned` compares by value and place.
#[derive(Deserialize, Debug)]
struct Placed {
    port: Spanned<u32>,
    names: Spanned<Vec<String>>,
}

impl PartialEq for Placed {
    fn eq(&self, other: &Placed) -> bool {
        let key = |p: &Placed| {
            (
                (*p.port.get_ref(), p.port.start(), p.port.end()),
                (p.names.get_ref().clone(), p.names.start(), p.names.end()),
            )
        };
        key(self) == key(other)
    }
}

fn everything(n: usize) -> Everything {
    Everything {
        name: format!("record \"{n}\"\nwith é and \u{1F600}"),
        letter: 'λ',
        huge: -170_141_183_460_469_231_731_687_303_715_884_105_728 + n as i128,
        uhuge: u128::MAX - n as u128,
        tiny: -7,
        real: 1.5e300 / (n as f64 + 1.0),
        single: 0.1,
        blob: (0..n as u8 * 3).collect(),
        twice: if n.is_multiple_of(2) {
            Some(None)
        } else {
            Some(Some(9))
        },
        grid: Some(vec![vec![1, 2], vec![], vec![3]]),
        by_number: BTreeMap::from([(-1, "minus".to_string()), (n as i64, "n".to_string())]),
        by_tuple: vec![((1, true), "a".to_string()), ((2, false), "b".to_string())],
        kinds: vec![
            Kind::Plain,
            Kind::Count(-3),
            Kind::Pair(4, "four".to_string()),
            Kind::Box {
                width: 2.5,
                labels: vec!["x".to_string(); n % 4],
            },
        ],
        tagged: if n.is_multiple_of(2) {
            Tagged::Circle { r: 3 }
        } else {
            Tagged::Label {
                text: "hi".to_string(),
                bold: Some(true),
            }
        },
        adjacent: match n % 3 {
            0 => Adjacent::One(-1),
            1 => Adjacent::Many { items: vec![1, 2] },
            _ => Adjacent::Nothing,
        },
        loose: vec![
            Loose::Number(5),
            Loose::Word("w".to_string()),
            Loose::Flags(vec![true, false]),
        ],
        with_rest: WithRest {
            id: 77,
            rest: BTreeMap::from([("a".to_string(), 1), ("b".to_string(), -2)]),
        },
        money: jtoo_serde::from_str("1_000.25").unwrap(),
        day: jtoo_serde::from_str("D2025-01-31").unwrap(),
        at: jtoo_serde::from_str("D2025-01-31T10:20:30.500Z").unwrap(),
        stamp: jtoo_serde::from_str("S1_700_000_000.250").unwrap(),
        any: jtoo::from_str(r#"["k":[1,"v",B00ff],2:N,[]]"#).unwrap(),
    }
}

/// Sample documents: each type's own, and hand-written ones.
fn samples() -> Vec<Vec<u8>> {
    let mut docs: Vec<Vec<u8>> = (0..3)
        .map(|n| jtoo_serde::to_vec(&everything(n)).unwrap())
        .collect();
    docs.push(jtoo_serde::to_vec(&(0..3).map(everything).collect::<Vec<_>>()).unwrap());
    for text in [
        r#"["port":80_000,"names":["a","b"]]"#,
        r#"["port":8080,"names":[]]"#,
        r#"[1,2,3]"#,
        r#"["a":1,"b":2,"a":3]"#,
        r#"[1:"x",2:"y"]"#,
        r#"[[1,2]:"list key",[3]:"other"]"#,
        r#"["Count":5]"#,
        r#"["Box":["width":1.0,"labels":["l"]]]"#,
        r#"["Plain"]"#,
        r#""Plain""#,
        r#"[]"#,
        r#"[[]]"#,
        r#"["x",1:2,"y"]"#,
        r#"[1:2,"x","y"]"#,
        r#"["type":"Circle","r":4]"#,
        r#"-12.5e-3"#,
        r#"D2024-02-29"#,
        r#"B00ff10"#,
        r#"Y"#,
    ] {
        docs.push(text.as_bytes().to_vec());
    }
    docs
}

/// Every sample as every type: the values and, mostly, the type errors.
fn all_types(doc: &[u8]) {
    same::<Everything>(doc);
    same::<Vec<Everything>>(doc);
    same::<jtoo::Value>(doc);
    same::<serde_json::Value>(doc);
    same::<IgnoredAny>(doc);
    same::<Placed>(doc);
    same::<Vec<Kind>>(doc);
    same::<Kind>(doc);
    same::<Tagged>(doc);
    same::<BTreeMap<String, i64>>(doc);
    same::<BTreeMap<Vec<u8>, String>>(doc);
    same::<Vec<(u8, u8)>>(doc);
    same::<Vec<u8>>(doc);
    same::<()>(doc);
    same::<Option<bool>>(doc);
    same::<jtoo::Date>(doc);
    same::<jtoo::Decimal>(doc);
    same::<f64>(doc);
    same::<String>(doc);
}

#[test]
fn every_sample_reads_as_from_slice_reads_it() {
    for doc in samples() {
        all_types(&doc);
    }
}

#[test]
fn a_value_reads_back_whole_through_any_window() {
    let records: Vec<Everything> = (0..5).map(everything).collect();
    let doc = jtoo_serde::to_vec(&records).unwrap();
    // (`Some(None)` is left out, so it reads back as `None`.)
    let want: Vec<Everything> = jtoo_serde::from_slice(&doc).unwrap();
    assert_eq!(want[1], records[1]);
    for size in [1, 5, 64, 1 << 16] {
        let back: Vec<Everything> = read_with(OneByte(&doc), Some(size)).unwrap();
        assert_eq!(back, want);
    }
}

/// Damaged documents: the same error at the same place, or the same
/// value where the damage still parses.
#[test]
fn damaged_samples_fail_as_from_slice_fails() {
    let sizes = [Some(1), None];
    let mut differences = Vec::new();
    let docs = samples();
    for doc in docs.iter().take(1).chain(&docs[4..]) {
        // About 20 places in each document, so the test stays short.
        for i in (0..doc.len()).step_by(doc.len() / 20 + 1) {
            let mut damaged = Vec::new();
            damaged.push(doc[..i].to_vec());
            let mut cut = doc.clone();
            cut.remove(i);
            damaged.push(cut);
            for b in [b',', b':', b']', b'[', b'x', b'"'] {
                let mut with = doc.clone();
                with.insert(i, b);
                damaged.push(with);
            }
            for d in &damaged {
                differences.extend(differs::<Everything>(d, &sizes));
                differences.extend(differs::<jtoo::Value>(d, &sizes));
                differences.extend(differs::<serde_json::Value>(d, &sizes));
                differences.extend(differs::<IgnoredAny>(d, &sizes));
            }
        }
    }
    assert!(
        differences.is_empty(),
        "{} differences, the first:\n{}",
        differences.len(),
        differences[..differences.len().min(8)].join("\n")
    );
}

/// The conformance documents, valid and invalid.
#[test]
fn conformance_documents_read_as_from_slice_reads_them() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../spec-tests/cases");
    let mut files = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(root)];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "jtoo") {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 100, "the conformance cases are missing");
    let sizes = [Some(1), None];
    for path in files {
        let doc = std::fs::read(&path).unwrap();
        same_in::<jtoo::Value>(&doc, &sizes);
        same_in::<serde_json::Value>(&doc, &sizes);
        same_in::<IgnoredAny>(&doc, &sizes);
        same_in::<Vec<String>>(&doc, &sizes);
    }
}

#[test]
fn trailing_bytes_and_a_final_newline_are_refused_as_from_slice_refuses_them() {
    for doc in [
        &b"[1,2]\n"[..],
        b"[1,2] ",
        b"[1,2]x",
        b"7\n",
        b"[1,2][",
        b"",
    ] {
        same::<Vec<u8>>(doc);
        same::<IgnoredAny>(doc);
    }
    let err = jtoo_serde::from_reader::<_, Vec<u8>>(&b"[1,2]\n"[..]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "trailing characters after the document at line 1 column 6"
    );
}

#[test]
fn duplicate_keys_are_refused_in_long_maps_too() {
    let mut doc = String::from("[");
    for i in 0..2000 {
        doc.push_str(&format!("\"k{i}\":\"{i}\","));
    }
    doc.push_str("\"k7\":\"0\"]");
    let err = jtoo_serde::from_slice::<BTreeMap<String, String>>(doc.as_bytes()).unwrap_err();
    assert!(
        err.to_string().starts_with("duplicate key `\"k7\"`"),
        "{err}"
    );
    assert_eq!(err.offset(), doc.rfind("\"k7\"").unwrap());
    same_in::<BTreeMap<String, String>>(doc.as_bytes(), &[Some(16), None]);
    same_in::<serde_json::Value>(doc.as_bytes(), &[Some(16), None]);
}

#[test]
fn the_depth_limit_holds_across_the_window() {
    for depth in [127, 128, 129, 200] {
        let doc = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        same_in::<jtoo::Value>(doc.as_bytes(), &[Some(1), Some(64), None]);
        same_in::<IgnoredAny>(doc.as_bytes(), &[Some(1), Some(64), None]);
        same_in::<serde_json::Value>(doc.as_bytes(), &[Some(1), Some(64), None]);
    }
}

#[test]
fn io_errors_are_io_errors() {
    struct Broken;
    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::new(
                std::io::ErrorKind::ConnectionReset,
                "gone",
            ))
        }
    }
    let err = jtoo_serde::from_reader::<_, Vec<u8>>(Broken).unwrap_err();
    assert_eq!(err.classify(), Category::Io);
    assert_eq!(
        std::io::Error::from(err).kind(),
        std::io::ErrorKind::ConnectionReset
    );
}

#[test]
fn a_token_limit_bounds_what_one_string_may_take() {
    let doc = format!("[\"{}\"]", "a".repeat(100_000));
    let mut de = IoDeserializer::new(doc.as_bytes())
        .with_buffer_size(1 << 10)
        .with_max_token(1 << 12);
    let err = Vec::<String>::deserialize(&mut de).unwrap_err();
    assert_eq!(
        err.syntax_kind(),
        Some(jtoo::ErrorKind::TokenTooLong(1 << 12))
    );
    let v: Vec<String> = jtoo_serde::from_reader(doc.as_bytes()).unwrap();
    assert!(v[0].len() == 100_000);
}
