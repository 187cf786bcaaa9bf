//! Peak heap of a parsed document, by dhat's counting allocator: the
//! `Value` (and what parsing it allocates on the way) per byte of input.
//!
//! Usage: `cargo run --release -p benches --bin value_memory -- FILE…`, each
//! FILE strict JTOO (`.jtoo`) or JSON (`.json`, parsed to a
//! `serde_json::Value` for comparison). One process per file, so that one
//! file's peak does not hide the next one's: run it once per FILE.

use std::process::ExitCode;

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: value_memory FILE (.jtoo or .json)");
        return ExitCode::from(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("value_memory: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let _profiler = dhat::Profiler::builder().testing().build();
    let before = dhat::HeapStats::get();
    let parsed = if path.ends_with(".json") {
        serde_json::from_slice::<serde_json::Value>(&bytes)
            .map(drop)
            .map_err(|e| e.to_string())
    } else {
        jtoo::from_slice(&bytes)
            .map(|v| {
                let kept = dhat::HeapStats::get();
                drop(v);
                kept
            })
            .map(|kept| {
                let after = dhat::HeapStats::get();
                let peak = after.max_bytes.saturating_sub(before.curr_bytes);
                let held = kept.curr_bytes.saturating_sub(before.curr_bytes);
                print_row(
                    &path,
                    bytes.len(),
                    peak,
                    held,
                    after.total_blocks - before.total_blocks,
                );
            })
            .map_err(|e| e.to_string())
    };
    if let Err(e) = parsed {
        eprintln!("value_memory: {path}: {e}");
        return ExitCode::from(1);
    }
    if path.ends_with(".json") {
        let after = dhat::HeapStats::get();
        let peak = after.max_bytes.saturating_sub(before.curr_bytes);
        print_row(
            &path,
            bytes.len(),
            peak,
            0,
            after.total_blocks - before.total_blocks,
        );
    }
    ExitCode::SUCCESS
}

/// `file | input bytes | peak heap while parsing | heap the value holds |
/// (input + peak) / input | allocations`, as a Markdown table row.
fn print_row(path: &str, input: usize, peak: usize, held: usize, blocks: u64) {
    let name = std::path::Path::new(path)
        .file_name()
        .map_or(path.into(), |n| n.to_string_lossy());
    println!(
        "| {name} | {input} | {peak} | {held} | {:.2} | {blocks} |",
        (input + peak) as f64 / input.max(1) as f64
    );
}
