//! Criterion benches of the documents: strict parse → `Value`, HTOO parse,
//! encode `Value`, typed serde deserialize/serialize, each beside its peers
//! (serde_json, simd-json, sonic-rs) on the same content.
//!
//! `cargo bench -p benches --bench parse [-- FILTER]`
#![forbid(unsafe_code)]
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use benches::{Doc, JsonDe, JtooDe, typed_from};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn documents(c: &mut Criterion) {
    let docs = Doc::load_all().expect("the corpus (testdata/corpus)");
    for d in &docs {
        let mut g = c.benchmark_group(format!("parse/{}", d.name));
        g.throughput(Throughput::Bytes(d.jtoo.len() as u64));
        g.bench_function("jtoo", |b| b.iter(|| jtoo::from_slice(black_box(&d.jtoo))));
        g.throughput(Throughput::Bytes(d.htoo.len() as u64));
        g.bench_function("htoo (pretty)", |b| {
            b.iter(|| htoo::from_str(black_box(&d.htoo)))
        });
        g.throughput(Throughput::Bytes(d.json.len() as u64));
        g.bench_function("serde_json::Value", |b| {
            b.iter(|| serde_json::from_slice::<serde_json::Value>(black_box(&d.json)))
        });
        g.bench_function("simd-json OwnedValue", |b| {
            b.iter_batched_ref(
                || d.json.clone(),
                |copy| simd_json::to_owned_value(copy).map(drop),
                criterion::BatchSize::LargeInput,
            )
        });
        g.bench_function("sonic-rs Value", |b| {
            b.iter(|| sonic_rs::from_slice::<sonic_rs::Value>(black_box(&d.json)))
        });
        g.finish();

        let mut g = c.benchmark_group(format!("encode/{}", d.name));
        g.throughput(Throughput::Bytes(d.jtoo.len() as u64));
        g.bench_function("jtoo", |b| b.iter(|| jtoo::to_vec(black_box(&d.value))));
        g.throughput(Throughput::Bytes(d.json.len() as u64));
        g.bench_function("serde_json::Value", |b| {
            b.iter(|| serde_json::to_vec(black_box(&d.json_value)))
        });
        g.finish();

        let mut g = c.benchmark_group(format!("typed/{}", d.name));
        g.throughput(Throughput::Bytes(d.jtoo.len() as u64));
        g.bench_function(BenchmarkId::new("deserialize", "jtoo-serde"), |b| {
            b.iter(|| typed_from(d.name, black_box(&d.jtoo), JtooDe).map(drop))
        });
        let model = typed_from(d.name, &d.json, JsonDe).expect("typed JSON");
        g.bench_function(BenchmarkId::new("serialize", "jtoo-serde"), |b| {
            b.iter(|| model.to_jtoo())
        });
        g.throughput(Throughput::Bytes(d.json.len() as u64));
        g.bench_function(BenchmarkId::new("deserialize", "serde_json"), |b| {
            b.iter(|| typed_from(d.name, black_box(&d.json), JsonDe).map(drop))
        });
        g.bench_function(BenchmarkId::new("serialize", "serde_json"), |b| {
            b.iter(|| model.to_json())
        });
        g.finish();
    }
}

criterion_group!(benches, documents);
criterion_main!(benches);
