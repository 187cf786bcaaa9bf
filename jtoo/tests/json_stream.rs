//! `jtoo::json::stream` writes the bytes `jtoo::to_vec` writes for the
//! slice converter's value, with the same errors at the same positions,
//! whatever the buffer size and however the source splits its bytes; and
//! it holds a bounded window, not the input.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jtoo::json::stream::{Reader, write_jtoo};
use jtoo::json::{FromJsonOptions, NullPolicy, from_json_slice_with};
use jtoo::{Error, ErrorKind};
use proptest::prelude::*;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::common::{Trickle, arb_value};

fn stream(
    bytes: &[u8],
    options: &FromJsonOptions,
    buffer: usize,
    step: usize,
) -> (Vec<u8>, Result<u64, Error>) {
    let mut out = Vec::new();
    let r = Reader::new(Trickle { bytes, step, n: 0 })
        .with_options(options)
        .with_buffer_size(buffer)
        .write_jtoo(&mut out);
    (out, r)
}

/// Asserts that the stream converter agrees with the slice converter.
fn agree(name: &str, bytes: &[u8], options: &FromJsonOptions, sizes: &[(usize, usize)]) {
    let whole = from_json_slice_with(bytes, options).and_then(|v| jtoo::to_vec(&v));
    for &(buffer, step) in sizes {
        let (out, streamed) = stream(bytes, options, buffer, step);
        match (&whole, &streamed) {
            (Ok(a), Ok(n)) => {
                assert_eq!(a, &out, "{name}: buffer {buffer}");
                assert_eq!(*n, bytes.len() as u64);
            }
            (Err(a), Err(b)) => assert_eq!(
                (a.kind(), a.position()),
                (b.kind(), b.position()),
                "{name}: buffer {buffer}: {a} vs {b}"
            ),
            _ => panic!("{name}: buffer {buffer}: {whole:?} vs {streamed:?}"),
        }
    }
}

const SIZES: &[(usize, usize)] = &[(1, 1), (2, 3), (5, 7), (64, 1 << 20), (1 << 16, 1 << 20)];

fn both_policies() -> [FromJsonOptions; 2] {
    [
        FromJsonOptions::new(),
        FromJsonOptions::new().with_null_policy(NullPolicy::Error),
    ]
}

fn files_under(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_conformance_json_case_converts_as_the_slice_converter() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-tests/cases");
    let mut counted = 0;
    for path in files_under(&root) {
        let in_from_json = path.components().any(|c| c.as_os_str() == "from-json");
        if !in_from_json || path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        counted += 1;
        let bytes = std::fs::read(&path).unwrap();
        for options in both_policies() {
            agree(&path.display().to_string(), &bytes, &options, SIZES);
        }
    }
    assert!(counted > 30, "{counted}");
}

#[test]
fn the_corpus_converts_as_the_slice_converter() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/corpus");
    let mut counted = 0;
    for path in files_under(&root) {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        match path.extension().and_then(|e| e.to_str()) {
            Some("json") => {
                counted += 1;
                // One byte at a time through a 1-byte buffer, and the default.
                agree(
                    &name,
                    &bytes,
                    &FromJsonOptions::new(),
                    &[(1, 1), (7, 3), (1 << 16, 1 << 16)],
                );
            }
            Some("jsonl") => {
                for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                    counted += 1;
                    for options in both_policies() {
                        agree(&name, line, &options, SIZES);
                    }
                }
            }
            _ => {}
        }
    }
    assert!(counted > 10, "{counted}");
}

#[test]
fn handwritten_cases_agree() {
    let cases: &[&str] = &[
        "",
        " ",
        "null",
        " null ",
        "[null]",
        "{\"a\":null}",
        "{\"a\": null ,\"b\":1}",
        "{\"a\":nul}",
        "{\"a\":nulx}",
        "{\"a\":n",
        "{\"a\"",
        "{\"a\" 1}",
        "{\"a\":1,}",
        "{,}",
        "{1:2}",
        "{\"a\":1 \"b\":2}",
        "[1 2]",
        "[1,]",
        "[",
        "]",
        "{",
        "}",
        "[1] x",
        "[1]\n\n x",
        "\"abc",
        "\"a\\",
        "\"a\\\"",
        "\"\\u00e9\\ud83d\\ude00\"",
        "\"\\ud800\"",
        "\"\\x\"",
        "\"a\tb\"",
        "\"\u{e9}\n\"",
        "\"\\n\u{1}\"",
        "1.",
        "1.e5",
        "-",
        "01",
        "1e",
        "1e+",
        ".5",
        "+1",
        "1e999999999",
        "-0",
        "-0.0",
        "340282366920938463463374607431768211456",
        "tru",
        "true",
        "fals",
        "false",
        "truex",
        "[true,false,null]",
        "{\"k\":{}}",
        "[[],{}]",
        "{\"\u{e9}\":\"\u{1f600}\"}",
        "{\"a\":1,\"a\":2}",
        "\u{feff}1",
        "[1,\n2,\n  x]",
        "{\"a\":\n\n  [1,null]}",
    ];
    for case in cases {
        for options in both_policies() {
            agree(case, case.as_bytes(), &options, SIZES);
        }
    }
    // Invalid UTF-8.
    for bytes in [&b"[\"a\xffb\"]"[..], b"\"\xc3\"", b"\"\\n\xff\""] {
        agree("utf8", bytes, &FromJsonOptions::new(), SIZES);
    }
}

#[test]
fn numbers_longer_than_the_error_margin_are_judged_whole() {
    // 0.000…001e131000 (131 066 zeros) is 1e-67: in range only with all
    // its exponent digits. Read a byte at a time, the window doubles to
    // 131 072 bytes from the number's start and ends inside "131000":
    // judged there, "1e13" would be out of range, well before the
    // window's end.
    let n = format!("0.{}1e131000", "0".repeat(131_066));
    let doc = format!("[{n}]");
    let options = FromJsonOptions::new();
    agree(
        "long number",
        doc.as_bytes(),
        &options,
        &[(1, 1), (1 << 16, 1 << 16)],
    );
    let (out, r) = stream(doc.as_bytes(), &options, 1, 1);
    assert!(r.is_ok(), "{r:?}");
    let small = jtoo::to_vec(&jtoo::json::from_json_str("[1e-67]").unwrap()).unwrap();
    assert_eq!(out, small);
}

#[test]
fn depth_is_limited_as_the_slice_converter_limits_it() {
    for (open, close) in [("[", "]"), ("{\"k\":", "}")] {
        for (n, limit) in [(128, 128), (129, 128), (5, 4), (10_000, 100_000)] {
            let doc = format!("{}1{}", open.repeat(n), close.repeat(n));
            let options = FromJsonOptions::new().with_max_depth(limit);
            agree(
                "deep",
                doc.as_bytes(),
                &options,
                &[(3, 5), (1 << 16, 1 << 16)],
            );
        }
    }
}

#[test]
fn errors_far_into_a_large_input_keep_their_lines_and_columns() {
    let mut doc = b"[\n".to_vec();
    for i in 0..5000 {
        doc.extend_from_slice(format!("  {{\"\u{e9}{i}\": [1, 2, 3]}},\n").as_bytes());
    }
    doc.extend_from_slice(b"  {\"last\": 1x}\n]\n");
    agree("far", &doc, &FromJsonOptions::new(), &[(256, 1000), (1, 1)]);
    let (_, err) = stream(&doc, &FromJsonOptions::new(), 256, 1000);
    let err = err.unwrap_err();
    assert_eq!((err.line(), err.column()), (5002, 13));
}

#[test]
fn the_output_before_an_error_is_a_prefix_of_the_text() {
    let (out, err) = stream(b"[1,2,{\"a\":[3]},nul]", &FromJsonOptions::new(), 1, 1);
    assert_eq!(err.unwrap_err().kind(), ErrorKind::ExpectedValue);
    assert_eq!(out, br#"[1,2,["a":[3]]"#);
}

/// An endless JSON array `[{"k":1,"n":null},…` of `items` objects,
/// generated as it is read.
struct Records {
    left: usize,
    started: bool,
    pending: Vec<u8>,
}

impl Read for Records {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            if !self.started {
                self.started = true;
                self.pending.push(b'[');
            }
            while self.pending.len() < out.len().max(1) && self.left > 0 {
                self.left -= 1;
                self.pending
                    .extend_from_slice(br#"{"k":1,"n":null,"s":"abc"}"#);
                self.pending.push(if self.left == 0 { b']' } else { b',' });
            }
        }
        let k = out.len().min(self.pending.len());
        out[..k].copy_from_slice(&self.pending[..k]);
        self.pending.drain(..k);
        Ok(k)
    }
}

#[test]
fn memory_is_a_window_not_the_input() {
    // 27 bytes per record, 2.5 M records: about 70 MB in; the reader holds
    // its fixed buffer (16 reads of 64 KiB), as the JTOO reader does.
    let items = 2_500_000;
    let mut reader = Reader::new(Records {
        left: items,
        started: false,
        pending: Vec::new(),
    });
    let mut events = 0usize;
    let mut most = 0;
    while let Some(_event) = reader.next_event().unwrap() {
        events += 1;
        most = most.max(reader.buffer_capacity());
    }
    // Per record: open, key, 1, key, "abc", close; plus the array.
    assert_eq!(events, items * 6 + 2);
    assert!(reader.offset() > 60_000_000);
    assert!(most <= 1 << 20, "held {most} bytes");
}

#[test]
fn a_token_longer_than_the_limit_is_an_error_not_an_allocation() {
    let source = std::io::Cursor::new(b"[\"".to_vec()).chain(std::io::repeat(b'a'));
    let mut reader = Reader::new(source).with_max_token(1 << 20);
    let err = loop {
        match reader.next_event() {
            Ok(Some(_)) => {}
            Ok(None) => panic!("an endless string ended"),
            Err(e) => break e,
        }
    };
    assert_eq!(err.kind(), ErrorKind::TokenTooLong(1 << 20));
    assert_eq!(err.offset(), 1);
    assert!(reader.buffer_capacity() <= 4 << 20);
    // Endless numbers too.
    let source = std::io::Cursor::new(b"[1".to_vec()).chain(std::io::repeat(b'0'));
    let mut out = Vec::new();
    let err = Reader::new(source)
        .with_max_token(1 << 16)
        .write_jtoo(&mut out)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::TokenTooLong(1 << 16));
    // An invalid first byte of an endless input stops at once.
    let err = write_jtoo(std::io::repeat(b'x'), Vec::new(), &FromJsonOptions::new()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ExpectedValue);
}

#[test]
fn read_and_write_errors_are_io_errors() {
    struct Broken;
    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk on fire"))
        }
    }
    let err = write_jtoo(Broken, Vec::new(), &FromJsonOptions::new()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Io);
    assert!(err.to_string().contains("disk on fire"), "{err}");
    struct Full;
    impl std::io::Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let err = write_jtoo(&b"[1]"[..], Full, &FromJsonOptions::new()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Io);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// JTOO → JSON text → streamed JTOO gives what the slice converter
    /// gives (the round trip of the mapping).
    #[test]
    fn any_value_round_trips_through_json(
        v in arb_value(),
        buffer in 1usize..40,
        step in 1usize..40,
    ) {
        let json = jtoo::json::to_json_string(&v);
        for options in both_policies() {
            agree("round trip", json.as_bytes(), &options, &[(buffer, step)]);
        }
        let (out, r) = stream(json.as_bytes(), &FromJsonOptions::new(), buffer, step);
        prop_assert!(r.is_ok());
        let back = jtoo::from_slice(&out).unwrap();
        prop_assert_eq!(jtoo::json::to_json_string(&back), json);
    }

    #[test]
    fn any_damaged_json_fails_as_the_slice_converter_fails(
        v in arb_value(),
        at in any::<prop::sample::Index>(),
        byte in prop::sample::select(b"{}[]:,\" \\n0.eE-+tfnx\x00\xff".to_vec()),
        cut in any::<bool>(),
    ) {
        let mut json = jtoo::json::to_json_string(&v).into_bytes();
        let i = at.index(json.len());
        if cut {
            json.truncate(i);
        } else {
            json[i] = byte;
        }
        for options in both_policies() {
            agree("damaged", &json, &options, &[(1, 1), (3, 5), (1 << 16, 1 << 16)]);
        }
    }
}

/// Documents of every shape the JSON writers tell apart: records, mixed
/// lists, keys of every kind, lists as keys.
const SHAPES: &[&str] = &[
    "[]",
    "1",
    "\"a\"",
    "Y",
    "[1,\"k\":2]",
    "[\"k\":2,1]",
    "[\"a\":1,\"b\":[\"c\":2,\"d\":[3,\"e\":4]],5,\"f\":6]",
    "[\"a\":1,\"a\":2]",
    "[[1]:2,[]:[[3]:[4:5]]]",
    "[1:\"a\",D2023:5]",
    "[[\"a\":1],[2],[[3]:4],[]]",
    "[\"k\":[],\"j\":[\"x\":[]]]",
    "[[[1,2]:3],4,[5]]",
    "[\"x\":B4f4b,\"t\":T10:20:30Z,\"d\":-0.000_1]",
    "[Y:1,N:2,B:3,B4f:4,-1_000.5:5,0.0:6,12:7,\"s\":8,S1.500:9,9]",
    "[1,Y:1,N:2,B4f:4,-1_000.5:5,340_282_366_920_938_463_463_374_607_431_768_211_455:6]",
    "[[\"a\":1]:[\"b\":2],[\"c\":\"]\\22,{\"]:[3]]",
    "[\"a\":[\"b\":[\"c\":1]],[\"d\":2]]",
    "[\"a\":\"]\\22,{\\5c\",\"b\":[1,\"x\":\",\"],3,\"c\":[]]",
];

/// A file of the JSON corpus.
fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../testdata/corpus")
            .join(name),
    )
    .unwrap()
}

/// JTOO → JSON in two streamed passes.
fn two_passes(doc: &[u8], buffer: usize, step: usize) -> Result<Vec<u8>, Error> {
    use jtoo::json::stream::{Shapes, write_json};
    let reader =
        |bytes| jtoo::stream::Reader::new(Trickle { bytes, step, n: 0 }).with_buffer_size(buffer);
    let shapes = Shapes::read(&mut reader(doc))?;
    let mut out = Vec::new();
    write_json(&mut reader(doc), &shapes, &mut out)?;
    Ok(out)
}

#[test]
fn two_passes_write_what_to_json_string_writes() {
    for case in SHAPES {
        let whole = jtoo::json::to_json_string(&jtoo::from_str(case).unwrap());
        for (buffer, step) in SIZES {
            assert_eq!(
                String::from_utf8(two_passes(case.as_bytes(), *buffer, *step).unwrap()).unwrap(),
                whole,
                "{case}"
            );
        }
    }
    for path in ["twitter.json", "citm_catalog.json", "canada.json"] {
        let json = corpus(path);
        let v = jtoo::json::from_json_slice(&json).unwrap();
        let doc = jtoo::to_vec(&v).unwrap();
        assert_eq!(
            two_passes(&doc, 1 << 16, 1 << 16).unwrap(),
            jtoo::json::to_json_string(&v).into_bytes(),
            "{path}"
        );
    }
}

#[test]
fn every_conformance_document_writes_its_json_in_two_passes() {
    use jtoo::json::stream::{Shapes, write_json};
    let mut counted = [0usize; 2];
    for (path, syntax) in conformance_documents() {
        let doc = std::fs::read(&path).unwrap();
        let whole = jtoo::parse::document(&doc, syntax, jtoo::Options::DEFAULT_MAX_DEPTH);
        let reader = |step| {
            jtoo::stream::Reader::new(Trickle {
                bytes: &doc,
                step,
                n: 0,
            })
            .with_syntax(syntax)
            .with_buffer_size(step)
        };
        for step in [1, 7, 1 << 16] {
            let streamed = Shapes::read(&mut reader(step)).and_then(|shapes| {
                let mut out = Vec::new();
                write_json(&mut reader(step), &shapes, &mut out).map(|()| out)
            });
            match (&whole, streamed) {
                (Ok(v), Ok(out)) => {
                    assert_eq!(
                        String::from_utf8(out).unwrap(),
                        jtoo::json::to_json_string(v),
                        "{}",
                        path.display()
                    );
                }
                (Err(a), Err(b)) => assert_eq!(
                    (a.kind(), a.position()),
                    (b.kind(), b.position()),
                    "{}",
                    path.display()
                ),
                (a, b) => panic!("{}: {a:?} vs {b:?}", path.display()),
            }
        }
        counted[usize::from(syntax.is_lenient())] += 1;
    }
    assert!(counted[0] > 500 && counted[1] > 100, "{counted:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_value_writes_its_json_in_two_passes(
        v in arb_value(),
        buffer in 1usize..40,
        step in 1usize..40,
    ) {
        let doc = jtoo::to_vec(&v).unwrap();
        let out = two_passes(&doc, buffer, step).unwrap();
        prop_assert_eq!(String::from_utf8(out).unwrap(), jtoo::json::to_json_string(&v));
    }
}

/// The conformance suite's JTOO and HTOO documents, valid and invalid.
fn conformance_documents() -> Vec<(PathBuf, jtoo::parse::Syntax)> {
    use jtoo::parse::Syntax;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-tests/cases");
    files_under(&root)
        .into_iter()
        .filter_map(|path| {
            let syntax = match path.extension().and_then(|e| e.to_str()) {
                Some("jtoo") => Syntax::Strict,
                Some("htoo") => Syntax::Lenient,
                _ => return None,
            };
            Some((path, syntax))
        })
        .collect()
}

/// JTOO → JSON in one pass (`write_json_one_pass`), the two passes
/// writing what it leaves undecided (the bytes it wrote left out): the
/// JSON, and whether the two passes were needed.
fn one_pass(
    doc: &[u8],
    syntax: jtoo::parse::Syntax,
    buffer: usize,
    step: usize,
    max_pending: usize,
) -> (Result<Vec<u8>, Error>, bool) {
    use jtoo::json::stream::{OnePass, write_json_one_pass};
    let mut out = Vec::new();
    match write_json_one_pass(
        &mut trickled(doc, syntax, buffer, step),
        &mut out,
        max_pending,
    ) {
        Err(e) => (Err(e), false),
        Ok(OnePass::Written) => (Ok(out), false),
        Ok(OnePass::Undecided { written }) => {
            assert_eq!(out.len() as u64, written);
            let rest = two_passes_with(doc, syntax, buffer, step);
            if let Ok(all) = &rest {
                assert!(all.starts_with(&out), "the one pass wrote a prefix");
            }
            (rest, true)
        }
        Ok(_) => panic!("a new outcome"),
    }
}

/// The two passes on the same reader settings: the reference.
fn two_passes_with(
    doc: &[u8],
    syntax: jtoo::parse::Syntax,
    buffer: usize,
    step: usize,
) -> Result<Vec<u8>, Error> {
    use jtoo::json::stream::{Shapes, write_json};
    let shapes = Shapes::read(&mut trickled(doc, syntax, buffer, step))?;
    let mut out = Vec::new();
    write_json(&mut trickled(doc, syntax, buffer, step), &shapes, &mut out)?;
    Ok(out)
}

/// A reader of `doc` in `syntax`, `step` bytes a read.
fn trickled(
    doc: &[u8],
    syntax: jtoo::parse::Syntax,
    buffer: usize,
    step: usize,
) -> jtoo::stream::Reader<Trickle<'_>> {
    jtoo::stream::Reader::new(Trickle {
        bytes: doc,
        step,
        n: 0,
    })
    .with_syntax(syntax)
    .with_buffer_size(buffer)
}

/// Asserts that the one pass writes the two passes' bytes, or fails with
/// their error at the same line and column; returns whether it needed the
/// two passes to finish.
fn one_pass_agrees(
    name: &str,
    doc: &[u8],
    syntax: jtoo::parse::Syntax,
    buffer: usize,
    step: usize,
    max_pending: usize,
) -> bool {
    let reference = two_passes_with(doc, syntax, buffer, step);
    let (got, undecided) = one_pass(doc, syntax, buffer, step, max_pending);
    match (&reference, &got) {
        (Ok(a), Ok(b)) => assert!(
            a == b,
            "{name}: buffer {buffer}, pending {max_pending}:\n{}\n{}",
            String::from_utf8_lossy(a),
            String::from_utf8_lossy(b)
        ),
        (Err(a), Err(b)) => assert_eq!(
            (a.kind(), a.position()),
            (b.kind(), b.position()),
            "{name}: buffer {buffer}: {a} vs {b}"
        ),
        (a, b) => panic!("{name}: buffer {buffer}: {a:?} vs {b:?}"),
    }
    undecided
}

#[test]
fn one_pass_writes_the_two_passes_bytes_on_every_conformance_document() {
    let mut counted = [0usize; 2];
    let mut undecided = 0;
    for (path, syntax) in conformance_documents() {
        let doc = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        // Held in the window, every document is written in the one pass.
        assert!(
            !one_pass_agrees(&name, &doc, syntax, 1 << 16, 1 << 16, usize::MAX),
            "{name}"
        );
        for (buffer, pending) in [(7, 1 << 20), (1, 0), (1 << 16, 3)] {
            undecided += usize::from(one_pass_agrees(
                &name, &doc, syntax, buffer, buffer, pending,
            ));
        }
        counted[usize::from(syntax.is_lenient())] += 1;
    }
    assert!(counted[0] > 500 && counted[1] > 100, "{counted:?}");
    assert!(
        undecided > 100,
        "the two passes finished {undecided} documents"
    );
}

#[test]
fn one_pass_writes_the_two_passes_bytes_on_the_corpus_and_odd_shapes() {
    use jtoo::parse::Syntax;
    for case in SHAPES {
        let whole = jtoo::json::to_json_string(&jtoo::from_str(case).unwrap());
        for (buffer, pending) in [(1 << 16, usize::MAX), (1, 2), (3, 0)] {
            let (out, undecided) =
                one_pass(case.as_bytes(), Syntax::Strict, buffer, buffer, pending);
            assert_eq!(String::from_utf8(out.unwrap()).unwrap(), whole, "{case}");
            assert!(!undecided || pending < usize::MAX, "{case}");
        }
    }
    let mut big = b"[".to_vec();
    for path in ["twitter.json", "citm_catalog.json", "canada.json"] {
        let json = corpus(path);
        let doc = jtoo::to_vec(&jtoo::json::from_json_slice(&json).unwrap()).unwrap();
        assert!(!one_pass_agrees(
            path,
            &doc,
            Syntax::Strict,
            1 << 16,
            1 << 16,
            8 << 20
        ));
        // Held back whole, the two passes take over.
        assert!(one_pass_agrees(
            path,
            &doc,
            Syntax::Strict,
            1 << 16,
            1 << 16,
            1 << 16
        ));
        big.extend_from_slice(&doc);
        big.push(b',');
    }
    big.extend_from_slice(b"\"k\":1]");
    // The corpus in one list that turns out to hold a pair at its end.
    assert!(!one_pass_agrees(
        "all",
        &big,
        Syntax::Strict,
        1 << 16,
        1 << 16,
        usize::MAX
    ));
    // Damaged near its end: the same error, where the two passes find it.
    let n = big.len();
    big[n - 3] = b'x';
    one_pass_agrees(
        "damaged",
        &big,
        Syntax::Strict,
        1 << 16,
        1 << 16,
        usize::MAX,
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_value_writes_the_same_json_in_one_pass(
        v in arb_value(),
        buffer in 1usize..40,
        pending in prop_oneof![Just(usize::MAX), 0usize..64],
    ) {
        let doc = jtoo::to_vec(&v).unwrap();
        let (out, _) = one_pass(&doc, jtoo::parse::Syntax::Strict, buffer, buffer, pending);
        prop_assert_eq!(String::from_utf8(out.unwrap()).unwrap(), jtoo::json::to_json_string(&v));
    }

    #[test]
    fn any_damaged_document_fails_in_one_pass_as_in_two(
        v in arb_value(),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        buffer in 1usize..40,
    ) {
        let mut doc = jtoo::to_vec(&v).unwrap();
        let i = at.index(doc.len());
        doc[i] = byte;
        one_pass_agrees("damaged", &doc, jtoo::parse::Syntax::Strict, buffer, buffer, usize::MAX);
    }
}
