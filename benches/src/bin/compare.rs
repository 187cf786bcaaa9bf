//! Side-by-side comparison of JTOO with the fastest peers, in one process
//! and one build: prints a table of time ratios (JTOO time ÷ peer time for
//! the same logical content; lower is better), each with its goal, writes it
//! to `BENCHMARKS.md` (keeping the hand-written sections after its report),
//! and ends with `goals met: K of N`.
//!
//! ```text
//! cargo run --release -p benches --bin compare              # full run (a few minutes)
//! cargo run --release -p benches --bin compare -- --quick   # under a minute
//! ```
//! `--no-write` leaves `BENCHMARKS.md` alone; `--only WORD` runs the rows
//! whose name contains WORD (and does not write).
#![forbid(unsafe_code)]

use benches::messages::{self, JsonLines, Message, MessageStreams};
use benches::{
    BoxError, Doc, JsonDe, JsonStrDe, JteStream, JtooDe, Shape, Typed, decode_stream,
    encode_frames, encode_length_delimited, frame_codec, frames_of, length_delimited, typed_from,
};
use bytes::{Bytes, BytesMut};

/// Where this binary's report ends in `BENCHMARKS.md`: everything from this
/// line on is written by hand, and a new report keeps it.
const HAND_WRITTEN: &str =
    "<!-- Written by hand from here on: `compare` rewrites only what is above. -->";
use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};
use tokio_util::codec::{Encoder, LinesCodec};

/// How long to measure.
#[derive(Clone, Copy)]
struct Plan {
    quick: bool,
    samples: usize,
    sample_time: Duration,
    /// Divides the message counts of the frame and JTE shapes.
    scale: usize,
}

/// One row of the table.
struct Row {
    name: String,
    peer: &'static str,
    goal: Option<f64>,
    /// Bytes of JTOO and of the peer's input or output, for throughput.
    bytes: (u64, u64),
    /// Median seconds per run: JTOO, peer; or why it could not run.
    result: Result<(f64, f64), String>,
}

impl Row {
    fn ratio(&self) -> Option<f64> {
        self.result.as_ref().ok().map(|(a, b)| a / b)
    }

    fn met(&self) -> Option<bool> {
        let goal = self.goal?;
        Some(self.ratio().is_some_and(|r| r <= goal))
    }
}

/// A workload: one run, returning the time of its measured part.
type Run<'a> = Box<dyn FnMut() -> Duration + 'a>;

fn timed<T>(f: impl FnOnce() -> T) -> Duration {
    let t = Instant::now();
    black_box(f());
    t.elapsed()
}

/// Median seconds per run of `a` and `b`, sampled alternately.
fn measure(plan: Plan, mut a: Run<'_>, mut b: Run<'_>) -> (f64, f64) {
    // Warm up both, and learn how many runs fill a sample: by wall time,
    // which includes a run's untimed setup (copying a frame stream).
    let per_run = |f: &mut Run<'_>| {
        f();
        let t = Instant::now();
        f();
        t.elapsed().as_secs_f64().max(1e-9)
    };
    let na = ((plan.sample_time.as_secs_f64() / per_run(&mut a)) as usize).max(1);
    let nb = ((plan.sample_time.as_secs_f64() / per_run(&mut b)) as usize).max(1);
    let mut sa = Vec::with_capacity(plan.samples);
    let mut sb = Vec::with_capacity(plan.samples);
    for _ in 0..plan.samples {
        let t: Duration = (0..na).map(|_| a()).sum();
        sa.push(t.as_secs_f64() / na as f64);
        let t: Duration = (0..nb).map(|_| b()).sum();
        sb.push(t.as_secs_f64() / nb as f64);
    }
    (median(&mut sa), median(&mut sb))
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

struct Table<'p> {
    plan: Plan,
    only: Option<&'p str>,
    rows: Vec<Row>,
}

impl Table<'_> {
    /// Measures a row (unless filtered out) and prints it at once.
    fn row(
        &mut self,
        name: String,
        peer: &'static str,
        goal: Option<f64>,
        bytes: (usize, usize),
        runs: Result<(Run<'_>, Run<'_>), String>,
    ) {
        let label = format!("{name} vs {peer}");
        if self.only.is_some_and(|w| !label.contains(w)) {
            return;
        }
        let result = runs.map(|(a, b)| measure(self.plan, a, b));
        let row = Row {
            name,
            peer,
            goal,
            bytes: (bytes.0 as u64, bytes.1 as u64),
            result,
        };
        eprintln!("{}", line(&row));
        self.rows.push(row);
    }
}

fn mbps(bytes: u64, secs: f64) -> f64 {
    bytes as f64 / secs / 1e6
}

fn line(r: &Row) -> String {
    let goal = r.goal.map_or("—".to_string(), |g| format!("≤ {g:.2}"));
    let status = match r.met() {
        Some(true) => "met",
        Some(false) => "**missed**",
        None => "",
    };
    match &r.result {
        Ok((a, b)) => format!(
            "| {} | {} | {:.2} | {} | {} | {:.1} ms · {:.0} MB/s | {:.1} ms · {:.0} MB/s |",
            r.name,
            r.peer,
            a / b,
            goal,
            status,
            a * 1e3,
            mbps(r.bytes.0, *a),
            b * 1e3,
            mbps(r.bytes.1, *b),
        ),
        Err(e) => format!(
            "| {} | {} | — | {goal} | {status} | {e} | |",
            r.name, r.peer
        ),
    }
}

/// glibc malloc settings for the measurement: large blocks come from the
/// heap and freed memory stays there. With the defaults the heap's state
/// depends on what ran before (the dynamic mmap threshold moves, the top
/// of the heap is trimmed and faulted in again), and one workload's frees
/// changed another's allocation cost: JTOO's canada parse read 7.3, 4.8
/// and 4.7 ms in three rows of one run; with these settings 4.5, 4.4, 4.5.
const MALLOC_TUNABLES: &str =
    "glibc.malloc.mmap_threshold=268435456:glibc.malloc.trim_threshold=1073741824";

fn main() -> Result<(), BoxError> {
    // The settings are read when a process starts: run again with them
    // (other C libraries ignore the variable).
    if std::env::var_os("GLIBC_TUNABLES").is_none() {
        let status = std::process::Command::new(std::env::current_exe()?)
            .args(std::env::args_os().skip(1))
            .env("GLIBC_TUNABLES", MALLOC_TUNABLES)
            .status()?;
        std::process::exit(status.code().unwrap_or(1));
    }
    if let Some(why) = benches::serde_json_handicap() {
        eprintln!(
            "compare: {why}, which makes it slower than the serde_json applications use; \
             the comparison would flatter JTOO. Build the benches alone: \
             `cargo run --release -p benches --bin compare` (not after a `cargo build --workspace` \
             in the same target directory with other features)."
        );
        std::process::exit(2);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map(String::as_str);
    let write = !args.iter().any(|a| a == "--no-write") && only.is_none();
    let plan = if quick {
        Plan {
            quick,
            samples: 5,
            sample_time: Duration::from_millis(25),
            scale: 10,
        }
    } else {
        Plan {
            quick,
            samples: 15,
            sample_time: Duration::from_millis(150),
            scale: 1,
        }
    };
    let started = Instant::now();
    let docs = Doc::load_all()?;
    let mut t = Table {
        plan,
        only,
        rows: Vec::new(),
    };

    let no_nulls = docs
        .iter()
        .map(Doc::json_no_nulls)
        .collect::<Result<Vec<_>, _>>()?;
    for (d, no_nulls) in docs.iter().zip(&no_nulls) {
        value_rows(&mut t, d, no_nulls);
    }
    for (d, no_nulls) in docs.iter().zip(&no_nulls) {
        typed_rows(&mut t, d, no_nulls);
    }
    frame_rows(&mut t)?;
    jte_rows(&mut t)?;
    message_rows(&mut t)?;
    loopback_rows(&mut t)?;

    let report = render(&t, &docs, started.elapsed());
    print!("{report}");
    if write {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../BENCHMARKS.md");
        // The hand-written sections after the report stay as they are.
        let kept = std::fs::read_to_string(&path)
            .ok()
            .and_then(|old| old.find(HAND_WRITTEN).map(|at| old[at..].to_owned()))
            .unwrap_or_else(|| format!("{HAND_WRITTEN}\n"));
        std::fs::write(&path, format!("{report}\n{kept}"))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

/// Parse to a value, HTOO parse, encode a value.
/// (`no_nulls`: [`Doc::json_no_nulls`].)
fn value_rows<'a>(t: &mut Table<'a>, d: &'a Doc, no_nulls: &'a [u8]) {
    let (jt, js) = (d.jtoo.len(), d.json.len());
    let parse_jtoo = || -> Run<'_> { Box::new(move || timed(|| jtoo::from_slice(&d.jtoo))) };
    let name = format!("parse → Value: {}", d.name);
    t.row(
        name.clone(),
        "serde_json::Value",
        Some(0.70),
        (jt, js),
        Ok((
            parse_jtoo(),
            Box::new(|| timed(|| serde_json::from_slice::<serde_json::Value>(&d.json))),
        )),
    );
    t.row(
        name.clone(),
        "simd-json OwnedValue",
        Some(1.00),
        (jt, js),
        Ok((
            parse_jtoo(),
            Box::new(|| {
                // simd-json parses in place: the copy is part of its cost.
                let mut copy = d.json.clone();
                timed(move || simd_json::to_owned_value(&mut copy).map(drop))
            }),
        )),
    );
    let text = std::str::from_utf8(&d.json).unwrap_or_default();
    t.row(
        name.clone(),
        "serde_json::Value, from_str",
        None,
        (jt, js),
        Ok((
            parse_jtoo(),
            Box::new(move || timed(|| serde_json::from_str::<serde_json::Value>(text))),
        )),
    );
    t.row(
        name.clone(),
        "serde_json::Value, no null members",
        None,
        (jt, no_nulls.len()),
        Ok((
            parse_jtoo(),
            Box::new(|| timed(|| serde_json::from_slice::<serde_json::Value>(no_nulls))),
        )),
    );
    t.row(
        name,
        "sonic-rs Value",
        None,
        (jt, js),
        Ok((
            parse_jtoo(),
            Box::new(|| timed(|| sonic_rs::from_slice::<sonic_rs::Value>(&d.json))),
        )),
    );
    t.row(
        format!("HTOO parse (pretty) → Value: {}", d.name),
        "serde_json::Value",
        None,
        (d.htoo.len(), js),
        Ok((
            Box::new(|| timed(|| htoo::from_str(&d.htoo))),
            Box::new(|| timed(|| serde_json::from_slice::<serde_json::Value>(&d.json))),
        )),
    );
    t.row(
        format!("encode Value: {}", d.name),
        "serde_json::Value",
        Some(1.00),
        (jt, js),
        Ok((
            Box::new(|| timed(|| jtoo::to_vec(&d.value))),
            Box::new(|| timed(|| serde_json::to_vec(&d.json_value))),
        )),
    );
}

/// Typed deserialize and serialize with the models.
/// (`no_nulls`: [`Doc::json_no_nulls`].)
fn typed_rows<'a>(t: &mut Table<'a>, d: &'a Doc, no_nulls: &'a [u8]) {
    let (jt, js) = (d.jtoo.len(), d.json.len());
    let from_json = typed_from(d.name, &d.json, JsonDe);
    let from_jtoo = typed_from(d.name, &d.jtoo, JtooDe);
    let same = match (&from_jtoo, &from_json) {
        (Ok(a), Ok(b)) if a.same_as(b) => Ok(()),
        (Ok(_), Ok(_)) => Err("JTOO and JSON give different data".to_string()),
        (Err(e), _) | (_, Err(e)) => Err(e.clone()),
    };
    let runs = same.clone().map(|()| -> (Run<'_>, Run<'_>) {
        (
            Box::new(|| timed(|| typed_from(d.name, &d.jtoo, JtooDe).map(drop))),
            Box::new(|| timed(|| typed_from(d.name, &d.json, JsonDe).map(drop))),
        )
    });
    t.row(
        format!("typed deserialize: {}", d.name),
        "serde_json typed",
        Some(0.80),
        (jt, js),
        runs,
    );
    // The same model from the JSON peer at its most favourable: `from_str`
    // on text already known to be UTF-8, and the JSON without the null
    // members JTOO leaves out.
    let text = std::str::from_utf8(&d.json).unwrap_or_default();
    let runs = same.clone().map(|()| -> (Run<'_>, Run<'_>) {
        (
            Box::new(|| timed(|| typed_from(d.name, &d.jtoo, JtooDe).map(drop))),
            Box::new(move || timed(|| typed_from(d.name, &d.json, JsonStrDe(text)).map(drop))),
        )
    });
    t.row(
        format!("typed deserialize: {}", d.name),
        "serde_json typed, from_str",
        None,
        (jt, js),
        runs,
    );
    let runs = same.clone().map(|()| -> (Run<'_>, Run<'_>) {
        (
            Box::new(|| timed(|| typed_from(d.name, &d.jtoo, JtooDe).map(drop))),
            Box::new(|| timed(|| typed_from(d.name, no_nulls, JsonDe).map(drop))),
        )
    });
    t.row(
        format!("typed deserialize: {}", d.name),
        "serde_json typed, no null members",
        None,
        (jt, no_nulls.len()),
        runs,
    );
    let runs = match (same, from_json) {
        (Ok(()), Ok(model)) => {
            let model: &'static Typed = Box::leak(Box::new(model));
            let sizes = (model.to_jtoo().len(), model.to_json().len());
            Ok((
                sizes,
                (
                    Box::new(move || timed(|| model.to_jtoo())) as Run<'_>,
                    Box::new(move || timed(|| model.to_json())) as Run<'_>,
                ),
            ))
        }
        (Err(e), _) | (_, Err(e)) => Err(e),
    };
    let (sizes, runs) = match runs {
        Ok((s, r)) => (s, Ok(r)),
        Err(e) => ((jt, js), Err(e)),
    };
    t.row(
        format!("typed serialize: {}", d.name),
        "serde_json typed",
        Some(1.00),
        sizes,
        runs,
    );
}

/// Frame decode and encode of both shapes, against LengthDelimitedCodec;
/// JTOO-section frames against LinesCodec. Decoding reads the encoded
/// stream as from a socket ([`decode_stream`]: 64 KiB reads appended to a
/// read buffer, every complete item split off as an owned value after each
/// read), the same for both codecs.
fn frame_rows(t: &mut Table<'_>) -> Result<(), BoxError> {
    for (label, shape) in [
        ("1,000,000 × 100 B", Shape::SMALL),
        ("2,000 × 64 KiB", Shape::LARGE),
    ] {
        let shape = shape.scaled(t.plan.scale);
        let label = if t.plan.quick {
            format!("{label} (÷{})", t.plan.scale)
        } else {
            label.to_string()
        };
        let messages = shape.messages();
        let frames = frames_of(&messages);
        let encoded = encode_frames(&mut frame_codec(shape), &frames)?;
        let delimited = encode_length_delimited(&mut length_delimited(shape), &messages)?;
        let (ef, ed) = (&encoded, &delimited);
        let bytes = (shape.bytes() as usize, shape.bytes() as usize);
        t.row(
            format!("frame decode {label}"),
            "LengthDelimitedCodec",
            Some(1.25),
            bytes,
            Ok((
                Box::new(move || timed(|| decode_stream(&mut frame_codec(shape), ef).map(drop))),
                Box::new(move || {
                    timed(|| decode_stream(&mut length_delimited(shape), ed).map(drop))
                }),
            )),
        );
        let (fr, ms) = (&frames, &messages);
        t.row(
            format!("frame encode {label}"),
            "LengthDelimitedCodec",
            None,
            bytes,
            Ok((
                Box::new(move || timed(|| encode_frames(&mut frame_codec(shape), fr).map(drop))),
                Box::new(move || {
                    timed(|| encode_length_delimited(&mut length_delimited(shape), ms).map(drop))
                }),
            )),
        );
    }
    // A 100-byte JTOO document per frame (validated by the codec) against
    // a 100-byte line per message (UTF-8 checked by LinesCodec).
    let shape = Shape::SMALL.scaled(t.plan.scale * 10);
    let doc = |i: usize| -> Bytes {
        let mut s = format!("[\"seq\":{},\"text\":\"", i % 1000);
        while s.len() < shape.size - 2 {
            s.push((b'a' + (s.len() % 26) as u8) as char);
        }
        s.push_str("\"]");
        Bytes::from(s)
    };
    let mut frames = Vec::with_capacity(shape.count);
    let mut lines = BytesMut::new();
    let mut lc = LinesCodec::new();
    for i in 0..shape.count {
        let d = doc(i);
        frames.push(jtoo_frame::Frame::from_jtoo(d.clone())?);
        lc.encode(String::from_utf8_lossy(&d).into_owned(), &mut lines)?;
    }
    let encoded = encode_frames(&mut frame_codec(shape), &frames)?;
    let (ef, el) = (&encoded, &lines);
    t.row(
        format!("frame decode, JTOO section: {} × 100 B", shape.count),
        "LinesCodec",
        None,
        (shape.bytes() as usize, shape.bytes() as usize),
        Ok((
            Box::new(move || timed(|| decode_stream(&mut frame_codec(shape), ef).map(drop))),
            Box::new(move || timed(|| decode_stream(&mut LinesCodec::new(), el).map(drop))),
        )),
    );
    Ok(())
}

/// JTE packets over frames (typed `Packet`s, `PacketCodec`) against JSON
/// lines with serde_json (typed packets, each line read in place:
/// [`JteStream::decode_lines`]). Both decode one buffer holding the whole
/// stream, so the row measures decoding alone.
fn jte_rows(t: &mut Table<'_>) -> Result<(), BoxError> {
    let count = 200_000 / t.plan.scale;
    let s = JteStream::build(count)?;
    let (sf, sl) = (&s.frames, &s.lines);
    t.row(
        format!("JTE packets over frames, typed decode: {count}"),
        "JSON lines + serde_json",
        Some(0.67),
        (sf.len(), sl.len()),
        Ok((
            Box::new(move || {
                let mut b = sf.clone();
                timed(|| JteStream::decode_frames(&mut b).map(drop))
            }),
            Box::new(move || {
                let mut b = sl.clone();
                timed(|| JteStream::decode_lines(&mut b).map(drop))
            }),
        )),
    );
    Ok(())
}

/// Typed messages (`benches::messages::Message`, about 100 bytes) in
/// memory: `TypedCodec` against JSON lines and `LengthDelimitedCodec` with
/// serde_json. Encoding appends every message to one buffer reserved for
/// the whole stream; decoding reads one buffer holding the whole stream
/// (a copy made outside the timing), so the rows measure the codecs alone.
fn message_rows(t: &mut Table<'_>) -> Result<(), BoxError> {
    let count = 200_000 / t.plan.scale;
    let s = MessageStreams::build(count)?;
    let (ms, sf, sl, sd) = (&s.messages, &s.frames, &s.lines, &s.delimited);
    let label = |what: &str| format!("typed messages {what}: {count} × ~130 B");
    let encode_typed = || -> Run<'_> {
        Box::new(move || {
            let mut dst = BytesMut::with_capacity(sf.len());
            let mut codec = jtoo_frame::TypedCodec::new();
            timed(|| messages::encode_typed(&mut codec, ms, &mut dst).map(drop))
        })
    };
    t.row(
        label("encode"),
        "JSON lines + serde_json",
        Some(1.00),
        (sf.len(), sl.len()),
        Ok((
            encode_typed(),
            Box::new(move || {
                let mut dst = BytesMut::with_capacity(sl.len());
                timed(|| messages::encode_json_lines(ms, &mut dst).map(drop))
            }),
        )),
    );
    t.row(
        label("encode"),
        "LengthDelimitedCodec + serde_json",
        None,
        (sf.len(), sd.len()),
        Ok((
            encode_typed(),
            Box::new(move || {
                let mut dst = BytesMut::with_capacity(sd.len());
                let mut codec = messages::length_delimited();
                timed(|| messages::encode_length_delimited_json(&mut codec, ms, &mut dst).map(drop))
            }),
        )),
    );
    let decode_typed = || -> Run<'_> {
        Box::new(move || {
            let mut b = sf.clone();
            timed(|| messages::decode_typed(&mut b).map(drop))
        })
    };
    type Decode = fn(&mut BytesMut) -> Result<usize, BoxError>;
    let peers: [(&'static str, Option<f64>, &BytesMut, Decode); 3] = [
        (
            "JSON lines + serde_json from_str",
            Some(1.00),
            sl,
            messages::decode_json_lines,
        ),
        (
            "JSON lines + serde_json from_slice",
            None,
            sl,
            messages::decode_json_lines_from_slice,
        ),
        (
            "LengthDelimitedCodec + serde_json from_slice",
            None,
            sd,
            messages::decode_length_delimited_json,
        ),
    ];
    for (peer, goal, stream, decode) in peers {
        t.row(
            label("decode"),
            peer,
            goal,
            (sf.len(), stream.len()),
            Ok((
                decode_typed(),
                Box::new(move || {
                    let mut b = stream.clone();
                    timed(|| decode(&mut b).map(drop))
                }),
            )),
        );
    }
    Ok(())
}

/// The typed messages over a real loopback TCP connection (tokio, two
/// worker threads): a client task feeds every message to a `FramedWrite`,
/// a server task reads them from a `FramedRead`, deserialized. Timed from
/// the connection to the last message read.
fn loopback_rows(t: &mut Table<'_>) -> Result<(), BoxError> {
    let count = 200_000 / t.plan.scale;
    let msgs = std::sync::Arc::new(Message::samples(count));
    let rt = messages::runtime()?;
    let s = MessageStreams::build(1000)?;
    let per = |b: &BytesMut| b.len() * count / 1000;
    // One run of each first: an error stops the row instead of timing it.
    let check = rt
        .block_on(messages::loopback(
            msgs.clone(),
            jtoo_frame::TypedCodec::<Message>::new(),
            jtoo_frame::TypedCodec::<Message>::new(),
        ))
        .and_then(|_| {
            rt.block_on(messages::loopback(
                msgs.clone(),
                JsonLines::default(),
                JsonLines::default(),
            ))
        })
        .map_err(|e| e.to_string());
    let (rt, m1, m2) = (&rt, msgs.clone(), msgs);
    let runs = check.map(|_| -> (Run<'_>, Run<'_>) {
        (
            Box::new(move || {
                rt.block_on(messages::loopback(
                    m1.clone(),
                    jtoo_frame::TypedCodec::<Message>::new(),
                    jtoo_frame::TypedCodec::<Message>::new(),
                ))
                .unwrap_or(Duration::MAX / 4)
            }),
            Box::new(move || {
                rt.block_on(messages::loopback(
                    m2.clone(),
                    JsonLines::default(),
                    JsonLines::default(),
                ))
                .unwrap_or(Duration::MAX / 4)
            }),
        )
    });
    t.row(
        format!("typed messages over loopback TCP: {count} × ~130 B"),
        "JSON lines + serde_json",
        Some(1.00),
        (per(&s.frames), per(&s.lines)),
        runs,
    );
    Ok(())
}

fn command_output(cmd: &str, args: &[&str]) -> String {
    std::process::Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

fn render(t: &Table<'_>, docs: &[Doc], elapsed: Duration) -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mut o = String::new();
    let cmd = if t.plan.quick {
        "cargo run --release -p benches --bin compare -- --quick"
    } else {
        "cargo run --release -p benches --bin compare"
    };
    let _ = writeln!(o, "# Benchmarks\n");
    let _ = writeln!(
        o,
        "Written by `{cmd}` (the `compare` binary in `benches/`); do not edit by hand.\n"
    );
    let _ = writeln!(
        o,
        "- date: {}",
        command_output("date", &["-u", "+%Y-%m-%d %H:%M UTC"])
    );
    let _ = writeln!(
        o,
        "- machine: {cpu}, {cores} CPUs (`nproc` {}), shared with other jobs",
        command_output("nproc", &[])
    );
    let _ = writeln!(
        o,
        "- {}; release profile (`codegen-units = 1`), one process, one build for JTOO and every peer",
        command_output("rustc", &["--version"])
    );
    let _ = writeln!(
        o,
        "- glibc malloc with `GLIBC_TUNABLES={}` (set by `compare` itself): large blocks from the heap, no trimming, so one workload's frees do not change the next one's allocation cost",
        std::env::var("GLIBC_TUNABLES").unwrap_or_default()
    );
    let _ = writeln!(
        o,
        "- each figure: median of {} samples of ≥ {} ms, JTOO and peer sampled alternately; took {:.0} s in all\n",
        t.plan.samples,
        t.plan.sample_time.as_millis(),
        elapsed.as_secs_f64()
    );
    let _ = writeln!(o, "## Inputs\n");
    let _ = writeln!(
        o,
        "`../shared/corpus/{{twitter,citm_catalog,canada}}.json`, converted once at start to canonical JTOO \
         with the project's converter (`jtoo::json::from_json_slice`): **JSON `null` members are left out**, as \
         the decisions say (the typed models read a missing field as `None`). The JSON peers parse the same \
         file without whitespace (nulls kept). HTOO rows parse `htoo::to_string_pretty` of the value. \
         simd-json parses a fresh copy each run (it works in place; the copy is counted).\n"
    );
    let _ = writeln!(
        o,
        "| file | JSON as shipped | JSON compact | JTOO | JTOO ÷ JSON compact | HTOO pretty |"
    );
    let _ = writeln!(o, "|---|---:|---:|---:|---:|---:|");
    for d in docs {
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {:.3} | {} |",
            d.name,
            d.json_original.len(),
            d.json.len(),
            d.jtoo.len(),
            d.jtoo.len() as f64 / d.json.len() as f64,
            d.htoo.len()
        );
    }
    let _ = writeln!(
        o,
        "\nserde_json is built with its default features, as applications use it (no \
         `preserve_order`, no `arbitrary_precision`: the project's converter reads JSON text exactly \
         without them).\n"
    );
    let _ = writeln!(o, "## Time ratios (JTOO ÷ peer; lower is better)\n");
    let _ = writeln!(o, "| benchmark | peer | ratio | goal | | JTOO | peer |");
    let _ = writeln!(o, "|---|---|---:|---|---|---|---|");
    for r in &t.rows {
        let _ = writeln!(o, "{}", line(r));
    }
    let goals = t.rows.iter().filter(|r| r.goal.is_some()).count();
    let met = t.rows.iter().filter(|r| r.met() == Some(true)).count();
    let _ = writeln!(o, "\ngoals met: {met} of {goals}");
    // The deterministic figures of the typed-message rows, from
    // `benches/callgrind-messages.sh` (a separate, slower run).
    let counts = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("callgrind-messages.md");
    if let Ok(table) = std::fs::read_to_string(counts) {
        let _ = writeln!(o, "\n## Typed messages: instructions per message\n");
        let _ = writeln!(
            o,
            "Goals (issue 15): receive and encode each ≤ 1.00 of JSON lines (stretch ≤ 0.80).\n"
        );
        o.push_str(&table);
    }
    o
}
