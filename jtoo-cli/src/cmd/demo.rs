//! `jtoo demo`: a worked example on built-in data.

use jtoo::Value;

/// The built-in example: a hand-written HTOO configuration
/// (`examples/config.htoo`).
const SAMPLE: &str = include_str!("../../../examples/config.htoo");

/// Arguments of `jtoo demo` (none).
#[derive(clap::Args)]
pub struct Args {}

fn section(title: &str, body: &str) {
    println!("== {title}\n{}\n", body.trim_end());
}

/// Parses the built-in HTOO sample and shows its canonical JTOO, its pretty
/// HTOO, its JSON and its JTOO frame; checks that each form reads back to the
/// same value. Exit 0, or 1 if any check fails.
pub fn run(_args: Args) -> u8 {
    section("HTOO input (examples/config.htoo)", SAMPLE);
    let value = match htoo::from_str(SAMPLE) {
        Ok(v) => v,
        Err(e) => {
            eprint!(
                "{}",
                htoo::render_diagnostic(&e, SAMPLE.as_bytes(), "examples/config.htoo")
            );
            return 1;
        }
    };
    let canonical = match jtoo::to_string(&value) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("jtoo: {e}");
            return 1;
        }
    };
    section(
        &format!(
            "canonical JTOO ({} bytes; HTOO input {} bytes)",
            canonical.len(),
            SAMPLE.len()
        ),
        &canonical,
    );
    let pretty = htoo::to_string_pretty(&value);
    section("pretty HTOO", &pretty);
    let json = serde_json::to_string_pretty(&jtoo::json::to_json(&value)).unwrap_or_default();
    section("JSON (dates and timestamps become their JTOO text)", &json);
    match jtoo_frame::Frame::from_value(&value).and_then(|frame| frame.to_bytes()) {
        Ok(bytes) => section(
            "as a JTOO frame (6-hex lengths, two sections)",
            &String::from_utf8_lossy(&bytes),
        ),
        Err(e) => {
            eprintln!("jtoo: {e}");
            return 1;
        }
    }

    let checks: [(&str, Result<Value, jtoo::Error>); 2] = [
        (
            "canonical JTOO parses strictly to the same value",
            jtoo::from_str(&canonical),
        ),
        (
            "pretty HTOO parses back to the same value",
            htoo::from_str(&pretty),
        ),
    ];
    let mut ok = true;
    for (what, back) in checks {
        let pass = back.as_ref().is_ok_and(|b| *b == value);
        ok &= pass;
        println!("{} {what}", if pass { "ok  " } else { "FAIL" });
    }
    let stable = jtoo::from_str(&canonical)
        .ok()
        .and_then(|v| jtoo::to_string(&v).ok())
        .is_some_and(|again| again == canonical);
    ok &= stable;
    println!(
        "{} re-encoding the canonical text gives the same bytes",
        if stable { "ok  " } else { "FAIL" }
    );
    if ok { 0 } else { 1 }
}
