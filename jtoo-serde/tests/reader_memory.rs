//! `from_reader` streams: the heap's peak while reading a large document
//! from a reader that makes it up as it goes is bounded by the window and
//! the result, not by the document (measured by dhat's allocator in this
//! test binary, which needs a global allocator of its own).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde::Deserialize;
use serde::de::{IgnoredAny, SeqAccess, Visitor};
use std::io::Read;

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// `[["id":0,"x":0.5,"ok":Y,"tag":"t0"],…]`: `count` records, made up as
/// they are read (nothing of the document is held but the current record).
struct Records {
    next: usize,
    count: usize,
    record: Vec<u8>,
    at: usize,
}

impl Records {
    fn new(count: usize) -> Records {
        Records {
            next: 0,
            count,
            record: b"[".to_vec(),
            at: 0,
        }
    }

    /// The document's length in bytes.
    fn len(count: usize) -> usize {
        let mut r = Records::new(count);
        let mut n = 0;
        let mut buf = [0u8; 1 << 16];
        loop {
            match r.read(&mut buf).unwrap() {
                0 => return n,
                k => n += k,
            }
        }
    }
}

impl Read for Records {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut n = 0;
        while n < buf.len() {
            if self.at == self.record.len() {
                self.record.clear();
                self.at = 0;
                if self.next == self.count {
                    if self.count == usize::MAX {
                        break;
                    }
                    self.record.push(b']');
                    self.count = usize::MAX;
                    self.next = usize::MAX;
                } else {
                    let i = self.next;
                    if i > 0 {
                        self.record.push(b',');
                    }
                    // (Written without allocating: dhat records every
                    // allocation, slowly.)
                    self.record.extend_from_slice(b"[\"id\":");
                    push_integer(&mut self.record, i);
                    self.record.extend_from_slice(b",\"x\":");
                    push_integer(&mut self.record, i % 1000);
                    self.record.extend_from_slice(b".5,\"ok\":Y,\"tag\":\"t");
                    push_integer(&mut self.record, i % 7);
                    self.record.extend_from_slice(b"\"]");
                    self.next += 1;
                }
            }
            let take = (self.record.len() - self.at).min(buf.len() - n);
            buf[n..n + take].copy_from_slice(&self.record[self.at..self.at + take]);
            self.at += take;
            n += take;
        }
        Ok(n)
    }
}

/// `n` in JTOO: `_` every three digits.
fn push_integer(out: &mut Vec<u8>, n: usize) {
    let mut digits = [0u8; 20];
    let mut len = 0;
    let mut rest = n;
    loop {
        digits[len] = b'0' + (rest % 10) as u8;
        len += 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for i in (0..len).rev() {
        out.push(digits[i]);
        if i > 0 && i % 3 == 0 {
            out.push(b'_');
        }
    }
}

#[derive(Deserialize, Debug, PartialEq)]
struct Record {
    id: u64,
    x: f64,
    ok: bool,
    tag: String,
}

/// Counts the records and sums their ids, keeping none.
struct Count;

impl<'de> Visitor<'de> for Count {
    type Value = (usize, u64);

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a list of records")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(usize, u64), A::Error> {
        let (mut n, mut sum) = (0, 0);
        while let Some(r) = seq.next_element::<Record>()? {
            n += 1;
            sum += r.id;
        }
        Ok((n, sum))
    }
}

struct Counted((usize, u64));

impl<'de> Deserialize<'de> for Counted {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Counted, D::Error> {
        d.deserialize_seq(Count).map(Counted)
    }
}

const MIB: usize = 1 << 20;

/// The heap's peak in bytes while `f` runs.
fn peak<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let _profiler = dhat::Profiler::builder().testing().build();
    let v = f();
    (v, dhat::HeapStats::get().max_bytes)
}

#[test]
fn a_large_document_is_read_in_bounded_memory() {
    let count = 300_000;
    let len = Records::len(count);
    assert!(len > 12 * MIB, "{len}");

    // Nothing kept: the window only.
    let (v, ignored) = peak(|| jtoo_serde::from_reader::<_, IgnoredAny>(Records::new(count)));
    v.unwrap();
    assert!(ignored < 2 * MIB, "peak {ignored} bytes for {len}");

    // Typed records, counted and dropped.
    let (v, counted) = peak(|| jtoo_serde::from_reader::<_, Counted>(Records::new(count)));
    let Counted((n, sum)) = v.unwrap();
    assert_eq!((n, sum), (count, (count as u64 - 1) * count as u64 / 2));
    assert!(counted < 2 * MIB, "peak {counted} bytes for {len}");

    // A result of moderate size: the window and the result.
    let kept = 20_000;
    let (v, vec) = peak(|| jtoo_serde::from_reader::<_, Vec<Record>>(Records::new(kept)));
    let records = v.unwrap();
    assert_eq!(records.len(), kept);
    assert_eq!(records[kept - 1].tag, format!("t{}", (kept - 1) % 7));
    let result = records.capacity() * std::mem::size_of::<Record>();
    assert!(
        vec < 4 * MIB + 2 * result,
        "peak {vec} bytes, result {result}"
    );
    eprintln!(
        "document {len} bytes: heap peak {ignored} bytes into IgnoredAny, {counted} counting \
         records; {vec} bytes for {kept} records ({result} bytes of result)"
    );
}
