//! Criterion benches of `htoo::Document` (issue 28's goals):
//!
//! - lossless parse of the pretty HTOO corpus files against
//!   `htoo::from_str` → `Value` on the same text (goal: ≤ 2.0× its time);
//! - one `set` in a document of about 1 MB, printing included (goal:
//!   ≤ 1 ms), and the other edits beside it.
//!
//! `cargo bench -p benches --bench document -- --warm-up-time 1 --measurement-time 2`
#![forbid(unsafe_code)]
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use benches::Doc;
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use htoo::Document;
use jtoo::{Value, path};
use std::hint::black_box;

fn parse(c: &mut Criterion) {
    let docs = Doc::load_all().expect("the corpus (testdata/corpus)");
    for d in &docs {
        let mut g = c.benchmark_group(format!("document/{}", d.name));
        g.throughput(Throughput::Bytes(d.htoo.len() as u64));
        g.bench_function("htoo::from_str (Value)", |b| {
            b.iter(|| htoo::from_str(black_box(&d.htoo)).unwrap())
        });
        g.bench_function("Document::parse", |b| {
            b.iter(|| Document::parse(black_box(&d.htoo)).unwrap())
        });
        g.finish();
    }
}

/// About 1 MB of pretty HTOO: the twitter statuses, repeated, with a
/// comment above every tenth line.
fn megabyte() -> String {
    let twitter = Doc::load("twitter").expect("twitter");
    let statuses = twitter.value.get("statuses").unwrap().clone();
    let mut all = Vec::new();
    let Value::List(items) = statuses else {
        panic!("statuses is a list")
    };
    while all.len() < 140 {
        for item in items.iter() {
            all.push(item.value().clone());
        }
    }
    let value = Value::List(jtoo::List::from_pairs([jtoo::Pair::with_str_key(
        "statuses",
        Value::from(all),
    )]));
    let pretty = htoo::to_string_pretty(&value);
    pretty
        .split('\n')
        .enumerate()
        .map(|(i, line)| {
            if i % 10 == 5 {
                format!("// line {i}\n{line}\n")
            } else {
                format!("{line}\n")
            }
        })
        .collect()
}

fn edits(c: &mut Criterion) {
    let text = megabyte();
    let doc = Document::parse(&text).unwrap();
    let mut g = c.benchmark_group("document/edit 1 MB");
    eprintln!("document/edit: {} bytes", text.len());
    let name = path!["statuses", 70, "user", "screen_name"];
    g.bench_function("set + to_string", |b| {
        b.iter_batched_ref(
            || doc.clone(),
            |d| {
                d.set(&name, &Value::from("someone_else")).unwrap();
                d.to_string()
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function("set", |b| {
        b.iter_batched_ref(
            || doc.clone(),
            |d| d.set(&name, &Value::from("someone_else")).unwrap(),
            BatchSize::LargeInput,
        )
    });
    g.bench_function("remove + to_string", |b| {
        b.iter_batched_ref(
            || doc.clone(),
            |d| {
                d.remove(&path!["statuses", 70, "user"]).unwrap();
                d.to_string()
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function("push_pair + to_string", |b| {
        b.iter_batched_ref(
            || doc.clone(),
            |d| {
                d.push_pair(&path!["statuses", 70], &"new".into(), &Value::from(1))
                    .unwrap();
                d.to_string()
            },
            BatchSize::LargeInput,
        )
    });
    let mut changed = doc.value();
    let status = changed
        .get_mut("statuses")
        .and_then(|s| s.as_list_mut())
        .and_then(|s| s.get_mut(70));
    let Some(jtoo::ItemMut::Value(status)) = status else {
        panic!("statuses are plain items")
    };
    *status.get_mut("id").unwrap() = Value::from(1);
    g.bench_function("update (one change)", |b| {
        b.iter_batched_ref(
            || doc.clone(),
            |d| d.update(&changed).unwrap(),
            BatchSize::LargeInput,
        )
    });
    g.bench_function("Document::parse", |b| {
        b.iter(|| Document::parse(black_box(&text)).unwrap())
    });
    g.finish();
}

criterion_group!(benches, parse, edits);
criterion_main!(benches);
