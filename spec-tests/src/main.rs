//! `spec-tests`: run the JTOO conformance cases against external programs.
#![forbid(unsafe_code)]

use clap::Parser;
use spec_tests::cases;
use spec_tests::runner::{self, Config, Status, Summary};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Run the JTOO/HTOO conformance suite against any decoder and encoder.
///
/// Exit status: 0 when nothing failed, 1 when a check failed, 2 on a usage
/// error.
#[derive(Parser)]
#[command(name = "spec-tests", version, about, long_about = None)]
struct Args {
    /// Decoder command (run through the shell): reads a document on stdin,
    /// writes tagged JSON and exits 0, or exits 1 for an invalid document.
    #[arg(long, value_name = "CMD")]
    decoder: Option<String>,
    /// The decoder reads HTOO: run the valid JTOO cases and the HTOO cases
    /// instead of the strict invalid ones.
    #[arg(long)]
    htoo: bool,
    /// Encoder command: reads tagged JSON on stdin, writes canonical JTOO.
    #[arg(long, value_name = "CMD")]
    encoder: Option<String>,
    /// Frame decoder command: reads a frame stream, writes one JSON line per frame.
    #[arg(long, value_name = "CMD")]
    frame_decoder: Option<String>,
    /// Greeting checker command: reads a greeting frame, answers as a responder.
    #[arg(long, value_name = "CMD")]
    greeting_checker: Option<String>,
    /// JSON-to-JTOO converter command: reads a JSON document, writes its
    /// canonical JTOO and exits 0, or exits 1 for JSON with no JTOO form.
    #[arg(long, value_name = "CMD")]
    from_json: Option<String>,
    /// JTE packet checker command: reads a packet (JSON or JTOO), writes it
    /// as canonical JTOO in the seed's field order and exits 0, or exits 1
    /// for a payload that is no valid packet.
    #[arg(long, value_name = "CMD")]
    jte_packet: Option<String>,
    /// File listing check ids (or `prefix*`) that are known to fail.
    #[arg(long, value_name = "FILE")]
    skip: Vec<PathBuf>,
    /// Only run checks whose id starts with PREFIX (repeatable).
    #[arg(long, value_name = "PREFIX")]
    only: Vec<String>,
    /// Folder holding the spec revisions.
    #[arg(long, value_name = "DIR")]
    cases: Option<PathBuf>,
    /// Spec revision to run (default: the newest).
    #[arg(long, value_name = "REV")]
    rev: Option<String>,
    /// Seconds before one run is killed and counted as a crash.
    #[arg(long, default_value_t = 10.0, value_name = "SECS")]
    timeout: f64,
    /// Parallel runs (default: the number of CPUs).
    #[arg(short, long)]
    jobs: Option<usize>,
    /// Print every check, not only failures.
    #[arg(short, long)]
    verbose: bool,
    /// Print the results as one JSON document instead of text.
    #[arg(long)]
    json: bool,
    /// Fail when a skipped check passes (a stale skip).
    #[arg(long)]
    fail_on_stale: bool,
    /// List the revisions and exit.
    #[arg(long)]
    list_revisions: bool,
}

fn main() -> ExitCode {
    kill_commands_when_interrupted();
    match real_main() {
        Ok(code) => ExitCode::from(code),
        Err(msg) => {
            eprintln!("spec-tests: {msg}");
            ExitCode::from(2)
        }
    }
}

/// On Ctrl-C (or SIGTERM on Unix) kills the commands running now and exits
/// with 130: they lead process groups of their own, so the terminal's
/// SIGINT does not reach them, and a hanging one would outlive the runner.
fn kill_commands_when_interrupted() {
    std::thread::spawn(|| {
        let Ok(rt) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        let interrupted = rt.block_on(async {
            #[cfg(unix)]
            {
                use tokio::signal::unix::{SignalKind, signal};
                let Ok(mut term) = signal(SignalKind::terminate()) else {
                    return tokio::signal::ctrl_c().await.is_ok();
                };
                tokio::select! {
                    r = tokio::signal::ctrl_c() => r.is_ok(),
                    _ = term.recv() => true,
                }
            }
            #[cfg(not(unix))]
            {
                tokio::signal::ctrl_c().await.is_ok()
            }
        });
        if interrupted {
            spec_tests::exec::kill_running();
            eprintln!("spec-tests: interrupted");
            std::process::exit(130);
        }
    });
}

fn real_main() -> Result<u8, String> {
    let args = Args::parse();
    let cases_dir = args.cases.clone().unwrap_or_else(cases::default_cases_dir);
    if args.list_revisions {
        let revs = cases::revisions(&cases_dir)
            .map_err(|e| format!("cannot read {}: {e}", cases_dir.display()))?;
        for r in revs {
            println!("{r}");
        }
        return Ok(0);
    }
    if args.decoder.is_none()
        && args.encoder.is_none()
        && args.frame_decoder.is_none()
        && args.greeting_checker.is_none()
        && args.from_json.is_none()
        && args.jte_packet.is_none()
    {
        return Err(
            "nothing to run: give --decoder, --encoder, --frame-decoder, \
             --greeting-checker, --from-json or --jte-packet"
                .into(),
        );
    }
    let rev = match args.rev.clone() {
        Some(r) => r,
        None => spec_tests::latest_revision(&cases_dir)
            .ok_or_else(|| format!("no revisions under {}", cases_dir.display()))?,
    };
    let rev_dir = cases_dir.join(&rev);
    let all =
        cases::load(&rev_dir).map_err(|e| format!("cannot read {}: {e}", rev_dir.display()))?;
    let mut skips = Vec::new();
    for path in &args.skip {
        skips.extend(
            runner::read_skips(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?,
        );
    }
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        return Err("--timeout must be a positive number of seconds".into());
    }
    let config = Config {
        rev_dir,
        decoder: args.decoder.clone(),
        htoo: args.htoo,
        encoder: args.encoder.clone(),
        frame_decoder: args.frame_decoder.clone(),
        greeting_checker: args.greeting_checker.clone(),
        from_json: args.from_json.clone(),
        jte_packet: args.jte_packet.clone(),
        skips,
        only: args.only.clone(),
        timeout: Duration::from_secs_f64(args.timeout),
        jobs: args
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get())),
    };
    let results = runner::run(&config, &all);
    let summary = Summary::of(&results);
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&runner::to_json(&results, &config))
                .map_err(|e| e.to_string())?
        );
    } else {
        print_text(&results, &config, &summary, &rev, args.verbose);
    }
    let stale_fails = args.fail_on_stale && summary.stale > 0;
    Ok(if summary.failed > 0 || stale_fails {
        1
    } else {
        0
    })
}

fn print_text(
    results: &[runner::CheckResult],
    config: &Config,
    summary: &Summary,
    rev: &str,
    verbose: bool,
) {
    println!("spec revision {rev}");
    let mut reported = Vec::new();
    for r in results {
        match &r.status {
            Status::Pass if verbose => println!("PASS  {}", r.id),
            Status::Pass => {}
            Status::Fail(why) => println!("FAIL  {}\n      {why}", r.id),
            Status::Skipped(why) if verbose => println!("SKIP  {}\n      {why}", r.id),
            Status::Skipped(_) => {}
            Status::Stale => println!(
                "STALE {}\n      in the skip list but passes: remove it",
                r.id
            ),
            Status::Reported(what) => reported.push(format!("      {}: {what}", r.id)),
        }
    }
    if !reported.is_empty() {
        println!("implementation-defined (not counted):");
        for line in reported {
            println!("{line}");
        }
    }
    for p in runner::unused_skips(config, results) {
        println!("note: skip entry {p:?} matches no check");
    }
    if summary.stale > 0 {
        println!("{} stale skips", summary.stale);
    }
    println!("{}", summary.line());
}
