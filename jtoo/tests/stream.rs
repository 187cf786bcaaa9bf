//! `jtoo::stream::Reader` reads what the whole-input parser reads, with the
//! same errors at the same positions, whatever the buffer size and however
//! the source splits its bytes; and it holds a bounded window, not the
//! input.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use jtoo::parse::Syntax;
use jtoo::stream::Reader;
use jtoo::{Error, ErrorKind};
use proptest::prelude::*;

use crate::common::{Trickle, arb_value};
use std::io::Read;
use std::path::Path;

/// Canonical output by the stream reader.
fn stream(bytes: &[u8], syntax: Syntax, buffer: usize, step: usize) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    Reader::new(Trickle { bytes, step, n: 0 })
        .with_syntax(syntax)
        .with_buffer_size(buffer)
        .write_canonical(&mut out)?;
    Ok(out)
}

/// Asserts that the stream reader agrees with `parse::document` on `bytes`.
fn agree(name: &str, bytes: &[u8], syntax: Syntax) {
    agree_at(name, bytes, syntax, &[(1, 1), (5, 7), (1 << 16, 1 << 20)]);
}

/// [`agree`] with each (buffer size, bytes per read) of `sizes`; errors
/// also have the same message.
fn agree_at(name: &str, bytes: &[u8], syntax: Syntax, sizes: &[(usize, usize)]) {
    let whole = jtoo::parse::document(bytes, syntax, jtoo::Options::DEFAULT_MAX_DEPTH)
        .and_then(|v| jtoo::to_vec(&v));
    for &(buffer, step) in sizes {
        let checked = Reader::new(Trickle { bytes, step, n: 0 })
            .with_syntax(syntax)
            .with_buffer_size(buffer)
            .check_to_end();
        match (&whole, &checked) {
            (Ok(_), Ok(n)) => assert_eq!(*n, bytes.len(), "{name}: buffer {buffer}"),
            (Err(a), Err(b)) => assert_eq!(
                (a.kind(), a.position(), a.to_string()),
                (b.kind(), b.position(), b.to_string()),
                "{name}: check, buffer {buffer}"
            ),
            _ => panic!("{name}: check, buffer {buffer}: {whole:?} vs {checked:?}"),
        }
        let streamed = stream(bytes, syntax, buffer, step);
        match (&whole, &streamed) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{name}: buffer {buffer}"),
            (Err(a), Err(b)) => assert_eq!(
                (a.kind(), a.position(), a.to_string()),
                (b.kind(), b.position(), b.to_string()),
                "{name}: buffer {buffer}"
            ),
            _ => panic!("{name}: buffer {buffer}: {whole:?} vs {streamed:?}"),
        }
    }
}

#[test]
fn every_conformance_document_reads_as_the_whole_input_parser_reads_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec-tests/cases");
    let mut files = Vec::new();
    let mut dirs = vec![root];
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
    let mut counted = [0usize; 2];
    for path in files {
        let syntax = match path.extension().and_then(|e| e.to_str()) {
            Some("jtoo") => Syntax::Strict,
            Some("htoo") => Syntax::Lenient,
            _ => continue,
        };
        counted[usize::from(syntax.is_lenient())] += 1;
        agree(
            &path.display().to_string(),
            &std::fs::read(&path).unwrap(),
            syntax,
        );
    }
    // The suite has hundreds of each; a wrong path would find none.
    assert!(counted[0] > 500 && counted[1] > 100, "{counted:?}");
}

#[test]
fn errors_far_into_a_large_input_keep_their_lines_and_columns() {
    // Line 5001, after 5000 lines that left the window long ago.
    let mut doc = b"[\n".to_vec();
    for i in 0..5000 {
        doc.extend_from_slice(format!("  \"é{i}\": [1, 2, 3], // note\n").as_bytes());
    }
    doc.extend_from_slice(b"  \"last\": 1x\n]\n");
    let err = stream(&doc, Syntax::Lenient, 256, 1000).unwrap_err();
    let whole = jtoo::parse::document(&doc, Syntax::Lenient, 128).unwrap_err();
    assert_eq!(err.position(), whole.position());
    assert_eq!((err.line(), err.column()), (5002, 12));

    // "Unclosed list" points at a `[` that left the window.
    doc.truncate(doc.len() - 6);
    let err = stream(&doc, Syntax::Lenient, 256, 1000).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnclosedList);
    assert_eq!((err.offset(), err.line(), err.column()), (0, 1, 1));
}

#[test]
fn a_final_newline_is_accepted_only_when_asked_for() {
    let read = |bytes: &[u8], allowed: bool| {
        Reader::new(bytes)
            .with_final_newline(allowed)
            .write_canonical(&mut Vec::new())
            .map_err(|e| e.kind())
    };
    assert_eq!(read(b"[1]\n", true), Ok(4));
    assert_eq!(read(b"[1]\n", false), Err(ErrorKind::TrailingCharacters));
    assert_eq!(read(b"[1]\n\n", true), Err(ErrorKind::TrailingCharacters));
    assert_eq!(read(b"[1]", true), Ok(3));
}

/// An endless document `[1,1,1,…` of `items` items, generated as it is read.
struct Ones {
    left: usize,
    started: bool,
}

impl Read for Ones {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let mut n = 0;
        if !self.started && !out.is_empty() {
            out[0] = b'[';
            self.started = true;
            n = 1;
        }
        while n + 2 <= out.len() && self.left > 0 {
            self.left -= 1;
            out[n] = b'1';
            out[n + 1] = if self.left == 0 { b']' } else { b',' };
            n += 2;
        }
        Ok(n)
    }
}

#[test]
fn memory_is_a_window_not_the_input() {
    // 16 MB of `1,`: the reader holds its fixed buffer (1 MiB).
    let items = 8 << 20;
    let mut reader = Reader::new(Ones {
        left: items,
        started: false,
    });
    let mut events = 0usize;
    let mut most = 0;
    while let Some(_event) = reader.next_event().unwrap() {
        events += 1;
        most = most.max(reader.buffer_capacity());
    }
    assert_eq!(events, items + 2);
    assert_eq!(reader.offset(), 1 + 2 * items);
    assert!(most <= 2 << 20, "held {most} bytes");
}

#[test]
fn a_token_longer_than_the_limit_is_an_error_not_an_allocation() {
    // An endless string: refused once it passes the limit.
    let endless = std::io::repeat(b'a');
    let source = std::io::Cursor::new(b"[\"".to_vec()).chain(endless);
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

    // An invalid first byte of an endless input stops at once.
    let mut reader = Reader::new(std::io::repeat(0));
    assert_eq!(
        reader.next_event().unwrap_err().kind(),
        ErrorKind::ExpectedValue
    );
}

#[test]
fn depth_is_limited_as_the_parser_limits_it() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let read = |doc: &str, limit: usize| {
        Reader::new(doc.as_bytes())
            .with_max_depth(limit)
            .write_canonical(&mut Vec::new())
            .map_err(|e| (e.kind(), e.offset()))
    };
    assert!(read(&deep(128), 128).is_ok());
    assert_eq!(
        read(&deep(129), 128),
        Err((ErrorKind::DepthLimitExceeded, 128))
    );
    assert_eq!(
        read(&deep(10_000), usize::MAX),
        Err((ErrorKind::DepthLimitExceeded, jtoo::Options::DEPTH_CEILING))
    );
}

#[test]
fn read_errors_are_io_errors() {
    struct Broken;
    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk on fire"))
        }
    }
    let err = Reader::new(Broken).next_event().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Io);
    assert!(err.to_string().contains("disk on fire"), "{err}");
}

/// Documents whose lists and strings are longer than small windows: a
/// list nested 30 deep whose every level holds the next and then 40 items
/// (each level longer than the window, all opened within a few bytes);
/// strings around the window's sizes; pairs, lists as keys, every scalar
/// kind; each after a string of `shift` bytes, so that its items fall
/// elsewhere against the window.
fn long_items(shift: usize) -> Vec<Vec<u8>> {
    let filler: String = (0..40).map(|k| format!(",{}", k % 10)).collect();
    let mut spine = "[".repeat(30);
    spine.push('0');
    for _ in 0..30 {
        spine.push_str(&filler);
        spine.push(']');
    }
    let strings: Vec<String> = [1, 15, 16, 17, 63, 64, 65, 200, 1000]
        .iter()
        .map(|&n| format!("\"{}\"", "s".repeat(n)))
        .collect();
    let strings = format!("[{}]", strings.join(","));
    let mixed = format!(
        "[\"a\":{spine},[{strings}]:1,\"b\":[\"c\":B{},\"d\":D2024-05-06T07:08:09Z,\"e\":T10:20,\"f\":S1_709_528_240.001,\"g\":-12.5],7,Y]",
        "ab".repeat(300)
    );
    [spine, strings, mixed]
        .iter()
        .map(|doc| format!("[\"{}\",{doc}]", "x".repeat(shift)).into_bytes())
        .collect()
}

/// The events a reader of `bytes` gives, lists that `next_part` gives
/// whole read into their events, and the error it ends with.
fn events(
    bytes: &[u8],
    syntax: Syntax,
    (buffer, step): (usize, usize),
    parts: bool,
) -> (Vec<String>, Option<Error>) {
    use jtoo::stream::{Event, Part};
    fn text(e: Event<'_>) -> String {
        match e {
            Event::Open => "[".into(),
            Event::Close => "]".into(),
            Event::Colon => ":".into(),
            Event::Scalar(s) => String::from_utf8_lossy(s.text()).into_owned(),
        }
    }
    let mut r = Reader::new(Trickle { bytes, step, n: 0 })
        .with_syntax(syntax)
        .with_buffer_size(buffer);
    let mut seen = Vec::new();
    loop {
        let next = if parts {
            r.next_part()
        } else {
            r.next_event().map(|e| e.map(Part::Event))
        };
        match next {
            Ok(None) => return (seen, None),
            Err(e) => return (seen, Some(e)),
            Ok(Some(Part::Event(e))) => seen.push(text(e)),
            Ok(Some(Part::List(list))) => {
                let mut whole = Reader::new(list).with_syntax(syntax);
                while let Some(e) = whole.next_event().unwrap() {
                    seen.push(text(e));
                }
            }
        }
    }
}

/// Asserts that `next_part` gives the events `next_event` gives, then the
/// same error (kind, position, message), at each of `sizes`.
fn parts_agree(name: &str, bytes: &[u8], syntax: Syntax, sizes: &[(usize, usize)]) {
    for &size in sizes {
        let (a, ea) = events(bytes, syntax, size, false);
        let (b, eb) = events(bytes, syntax, size, true);
        assert!(a == b, "{name}: next_part's events, at {size:?}");
        let message = |e: Option<Error>| e.map(|e| (e.kind(), e.position(), e.to_string()));
        assert_eq!(message(ea), message(eb), "{name}: next_part, at {size:?}");
    }
}

#[test]
fn long_items_straddling_the_window_read_as_the_parser_reads_them() {
    let sizes = [
        (1, 1),
        (2, 3),
        (3, 1 << 20),
        (7, 5),
        (16, 16),
        (64, 1 << 20),
    ];
    for shift in [0, 1, 13, 64] {
        for (i, doc) in long_items(shift).into_iter().enumerate() {
            // Valid as they are (strict, and HTOO with whitespace and
            // comments around the commas).
            jtoo::from_slice(&doc).unwrap();
            let htoo: Vec<u8> = doc
                .iter()
                .flat_map(|b| match b {
                    b',' => &b" ,/* , */ "[..],
                    _ => std::slice::from_ref(b),
                })
                .copied()
                .collect();
            for (syntax, doc) in [(Syntax::Strict, &doc), (Syntax::Lenient, &htoo)] {
                let name = format!("doc {i} shifted {shift}");
                agree_at(&name, doc, syntax, &sizes);
                parts_agree(&name, doc, syntax, &sizes);
                // Cut, or one byte changed, at a few places.
                for k in 1..8 {
                    let at = doc.len() * k / 8 + shift;
                    let at = at.min(doc.len() - 1);
                    agree_at(&name, &doc[..at], syntax, &sizes);
                    parts_agree(&name, &doc[..at], syntax, &sizes);
                    for byte in [b'x', b']', b','] {
                        let mut bad = doc.clone();
                        bad[at] = byte;
                        agree_at(&name, &bad, syntax, &sizes);
                        if byte == b'x' {
                            parts_agree(&name, &bad, syntax, &sizes);
                        }
                    }
                }
            }
        }
    }
}

/// Reads `k` events of strict `doc` with `next_event` (which reads ahead),
/// checking that each leaves the reader just past its token; then hands
/// the reader to `rest`.
fn after_events<T>(
    doc: &[u8],
    (buffer, step): (usize, usize),
    k: usize,
    rest: impl FnOnce(&mut Reader<Trickle<'_>>) -> T,
) -> (usize, T) {
    use jtoo::stream::Event;
    let mut r = Reader::new(Trickle {
        bytes: doc,
        step,
        n: 0,
    })
    .with_buffer_size(buffer);
    for _ in 0..k {
        let Some(event) = r.next_event().unwrap() else {
            break;
        };
        let token = match event {
            Event::Open => b"[".to_vec(),
            Event::Close => b"]".to_vec(),
            Event::Colon => b":".to_vec(),
            Event::Scalar(s) => s.text().to_vec(),
        };
        let end = r.offset();
        assert_eq!(
            &doc[end - token.len()..end],
            &token[..],
            "event ending at {end}"
        );
    }
    let at = r.offset();
    (at, rest(&mut r))
}

#[test]
fn events_read_ahead_are_given_before_whatever_reads_next() {
    // `next_event` walks the window once for many events; each still moves
    // the reader just past its token, and `write_canonical`, `check_to_end`
    // and `next_part` go on from there: a strict document's rest as it is.
    for shift in [0, 13] {
        for doc in long_items(shift) {
            let events = events(&doc, Syntax::Strict, (1 << 16, 1 << 20), false).0;
            let every = (events.len() / 40).max(1);
            for size in [(1, 1), (16, 16), (1 << 16, 1 << 20)] {
                for k in (0..=events.len()).step_by(every) {
                    let (at, out) = after_events(&doc, size, k, |r| {
                        let mut out = Vec::new();
                        r.write_canonical(&mut out).unwrap();
                        out
                    });
                    assert_eq!(
                        out,
                        &doc[at..],
                        "write_canonical after {k} events, {size:?}"
                    );
                    let (_, n) = after_events(&doc, size, k, |r| r.check_to_end().unwrap());
                    assert_eq!(n, doc.len(), "check_to_end after {k} events, {size:?}");
                    let (_, parts) = after_events(&doc, size, k, |r| {
                        let mut n = 0;
                        while r.next_part().unwrap().is_some() {
                            n += 1;
                        }
                        n
                    });
                    assert!(parts <= events.len() - k.min(events.len()));
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_value_streams_to_its_own_bytes(
        v in arb_value(),
        buffer in 1usize..40,
        step in 1usize..40,
    ) {
        let doc = jtoo::to_vec(&v).unwrap();
        prop_assert_eq!(stream(&doc, Syntax::Strict, buffer, step).unwrap(), doc.clone());
        prop_assert_eq!(stream(&doc, Syntax::Lenient, buffer, step).unwrap(), doc);
    }

    #[test]
    fn any_damaged_document_fails_as_the_parser_fails(
        v in arb_value(),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        cut in any::<bool>(),
    ) {
        let mut doc = jtoo::to_vec(&v).unwrap();
        let i = at.index(doc.len());
        if cut {
            doc.truncate(i);
        } else {
            doc[i] = byte;
        }
        agree("damaged", &doc, Syntax::Strict);
        agree("damaged", &doc, Syntax::Lenient);
    }
}
