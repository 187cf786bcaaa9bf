//! `jtoo demo`: a worked example on built-in data.

use crate::io::{Out, Status, say};
use jtoo::Value;

/// The built-in example: a hand-written HTOO configuration
/// (`jtoo-cli/examples/config.htoo`).
const SAMPLE: &str = include_str!("../../examples/config.htoo");

/// Arguments of `jtoo demo` (none).
#[derive(clap::Args)]
pub struct Args {}

fn section(out: &mut Out, title: &str, body: &str) -> Status {
    out.write(format!("== {title}\n{}\n\n", body.trim_end()).as_bytes())
}

/// Parses the built-in HTOO sample and shows its canonical JTOO, its pretty
/// HTOO, its JSON and its JTOO frame; checks that each form reads back to the
/// same value. Exit 0, or 1 if any check fails.
pub fn run(_args: Args) -> u8 {
    let mut out = Out::new();
    let status = show(&mut out).err().unwrap_or(0);
    out.finish(status)
}

fn show(out: &mut Out) -> Status {
    section(out, "HTOO input (examples/config.htoo)", SAMPLE)?;
    let value = htoo::from_str(SAMPLE).map_err(|e| {
        say!(
            "{}",
            htoo::render_diagnostic(&e, SAMPLE.as_bytes(), "examples/config.htoo").trim_end()
        );
        1
    })?;
    let canonical = jtoo::to_string(&value).map_err(|e| {
        say!("jtoo: {e}");
        1
    })?;
    section(
        out,
        &format!(
            "canonical JTOO ({} bytes; HTOO input {} bytes)",
            canonical.len(),
            SAMPLE.len()
        ),
        &canonical,
    )?;
    let pretty = htoo::to_string_pretty(&value);
    section(out, "pretty HTOO", &pretty)?;
    let json = crate::cmd::to_json::pretty_json(&jtoo::json::to_json_string(&value));
    section(
        out,
        "JSON (dates and timestamps become their JTOO text)",
        &json,
    )?;
    let bytes = jtoo_frame::Frame::from_value(&value)
        .and_then(|frame| frame.to_bytes())
        .map_err(|e| {
            say!("jtoo: {e}");
            1
        })?;
    section(
        out,
        "as a JTOO frame (6-hex lengths, two sections)",
        &String::from_utf8_lossy(&bytes),
    )?;

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
        let mark = if pass { "ok  " } else { "FAIL" };
        out.write(format!("{mark} {what}\n").as_bytes())?;
    }
    let stable = jtoo::from_str(&canonical)
        .ok()
        .and_then(|v| jtoo::to_string(&v).ok())
        .is_some_and(|again| again == canonical);
    ok &= stable;
    let mark = if stable { "ok  " } else { "FAIL" };
    out.write(format!("{mark} re-encoding the canonical text gives the same bytes\n").as_bytes())?;
    if ok { Ok(()) } else { Err(1) }
}
