//! Reads a list of records from standard input with `from_reader`, for
//! measuring memory on a large document (`/usr/bin/time -v`):
//!
//! ```text
//! cargo run --release -p jtoo-serde --example from_reader -- ignore < big.jtoo
//! cargo run --release -p jtoo-serde --example from_reader -- records < big.jtoo
//! ```
//!
//! `ignore` reads into `serde::de::IgnoredAny` (nothing kept); `records`
//! into a `Vec` of `["id":…,"x":…,"ok":…,"tag":…]` records, and prints
//! the result's size. `once slice|reader value|json|ignore FILE` reads
//! FILE once with `from_slice` or `from_reader` (for callgrind), and
//! `compare FILE RUNS` times both, side by side.

use serde::Deserialize;

#[derive(Deserialize)]
#[allow(dead_code)]
struct Record {
    id: u64,
    x: f64,
    ok: bool,
    tag: String,
}

/// Reads `bytes` as `T` with `from_reader` (`reader`) or `from_slice`.
fn read<T: serde::de::DeserializeOwned>(bytes: &[u8], reader: bool) -> T {
    let v = if reader {
        jtoo_serde::from_reader(bytes)
    } else {
        jtoo_serde::from_slice(bytes)
    };
    v.unwrap_or_else(|e| panic!("{e}"))
}

/// Reads `bytes` as the type named `kind`, `runs` times.
fn run(kind: &str, bytes: &[u8], reader: bool, runs: usize) {
    for _ in 0..runs {
        match kind {
            "value" => drop(std::hint::black_box(read::<jtoo::Value>(bytes, reader))),
            "json" => drop(std::hint::black_box(read::<serde_json::Value>(
                bytes, reader,
            ))),
            _ => drop(std::hint::black_box(read::<serde::de::IgnoredAny>(
                bytes, reader,
            ))),
        }
    }
}

fn main() -> Result<(), jtoo_serde::Error> {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize| args.get(i).map_or("", String::as_str);
    if arg(1) == "once" {
        let bytes = std::fs::read(arg(4))?;
        run(arg(3), &bytes, arg(2) == "reader", 1);
        return Ok(());
    }
    if arg(1) == "compare" {
        let bytes = std::fs::read(arg(2))?;
        let runs = arg(3).parse().unwrap_or(10);
        for kind in ["value", "json", "ignore"] {
            let mut time = [0.0; 2];
            for (i, reader) in [false, true].into_iter().enumerate() {
                let start = std::time::Instant::now();
                run(kind, &bytes, reader, runs);
                time[i] = start.elapsed().as_secs_f64() / runs as f64;
            }
            println!(
                "{kind:6} from_slice {:8.3} ms  from_reader {:8.3} ms  ratio {:.2}",
                time[0] * 1e3,
                time[1] * 1e3,
                time[1] / time[0]
            );
        }
        return Ok(());
    }
    let input = std::io::stdin().lock();
    match arg(1) {
        "records" => {
            let records: Vec<Record> = jtoo_serde::from_reader(input)?;
            let heap: usize = records.iter().map(|r| r.tag.capacity()).sum();
            let size = records.capacity() * std::mem::size_of::<Record>() + heap;
            println!("{} records, {} bytes of result", records.len(), size);
        }
        _ => {
            jtoo_serde::from_reader::<_, serde::de::IgnoredAny>(input)?;
            println!("read");
        }
    }
    Ok(())
}
