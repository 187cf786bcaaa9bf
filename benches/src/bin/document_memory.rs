//! Peak heap of `htoo::Document::parse` against `htoo::from_str` → `Value`
//! on a file of HTOO text, by dhat's counting allocator.
//!
//! Usage, one process per file (dhat's peak is a high-water mark):
//!
//! ```sh
//! cargo run --release -p benches --bin document_memory -- --write DIR   # DIR/NAME.htoo: the pretty corpus
//! cargo run --release -p benches --bin document_memory -- DIR/twitter.htoo
//! ```
//!
//! Prints a Markdown row: `file | input bytes | Document::parse peak |
//! Document held | from_str peak | Document peak / input`. Peaks count what
//! is allocated after the text was read: for the `Document` its own copy of
//! the text and its nodes.

use std::process::ExitCode;

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, dir] = args.as_slice()
        && flag == "--write"
    {
        for name in ["twitter", "citm_catalog", "canada"] {
            let written = benches::Doc::load(name)
                .map_err(|e| e.to_string())
                .and_then(|d| {
                    std::fs::write(format!("{dir}/{name}.htoo"), d.htoo).map_err(|e| e.to_string())
                });
            if let Err(e) = written {
                eprintln!("document_memory: {name}: {e}");
                return ExitCode::from(1);
            }
        }
        return ExitCode::SUCCESS;
    }
    let [path] = args.as_slice() else {
        eprintln!("usage: document_memory FILE.htoo | --write DIR");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("document_memory: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let _profiler = dhat::Profiler::builder().testing().build();
    // The smaller peak first: the `Document`'s.
    let before = dhat::HeapStats::get();
    let held = match htoo::Document::parse(&text) {
        Ok(doc) => {
            let held = dhat::HeapStats::get().curr_bytes - before.curr_bytes;
            drop(doc);
            held
        }
        Err(e) => {
            eprintln!("document_memory: {path}: {e}");
            return ExitCode::from(1);
        }
    };
    let doc_peak = dhat::HeapStats::get().max_bytes - before.curr_bytes;
    let before = dhat::HeapStats::get();
    drop(htoo::from_str(&text));
    let value_peak = dhat::HeapStats::get().max_bytes - before.curr_bytes;
    let name = std::path::Path::new(path)
        .file_name()
        .map_or(path.into(), |n| n.to_string_lossy());
    println!(
        "| {name} | {} | {doc_peak} | {held} | {value_peak} | {:.2} |",
        text.len(),
        doc_peak as f64 / text.len().max(1) as f64
    );
    ExitCode::SUCCESS
}
