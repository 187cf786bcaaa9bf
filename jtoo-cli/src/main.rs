//! The `jtoo` command: format, check, convert and frame JTOO documents.
#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod cmd;
mod io;

/// Format, check and convert JTOO and HTOO documents.
#[derive(Parser)]
#[command(name = "jtoo", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Read a document and write its canonical JTOO followed by a newline.
    Fmt(cmd::fmt::Args),
    /// Check that every input is a valid document.
    Check(cmd::check::Args),
    /// Write a document as pretty HTOO.
    Pretty(cmd::pretty::Args),
    /// Conformance-suite decoder: a document on stdin → tagged JSON on stdout.
    Decode(cmd::decode::Args),
    /// Conformance-suite encoder: tagged JSON on stdin → canonical JTOO on stdout.
    Encode(cmd::encode::Args),
    /// Convert a document to JSON.
    ToJson(cmd::to_json::Args),
    /// Convert JSON (or JSON Lines) to canonical JTOO.
    FromJson(cmd::from_json::Args),
    /// JTOO frames: decode, encode, serve, connect.
    #[command(subcommand)]
    Frame(cmd::frame::FrameCommand),
    /// JTE RPC (JSON Terminal Escapes over JTOO frames or JSON lines): call, serve.
    #[command(subcommand)]
    Jte(cmd::jte::JteCommand),
    /// Show a worked example on built-in data: HTOO in, canonical JTOO, pretty HTOO and JSON out.
    Demo(cmd::demo::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let code = match cli.command {
        Command::Fmt(a) => cmd::fmt::run(a),
        Command::Check(a) => cmd::check::run(a),
        Command::Pretty(a) => cmd::pretty::run(a),
        Command::Decode(a) => cmd::decode::run(a),
        Command::Encode(a) => cmd::encode::run(a),
        Command::ToJson(a) => cmd::to_json::run(a),
        Command::FromJson(a) => cmd::from_json::run(a),
        Command::Frame(c) => cmd::frame::run(c),
        Command::Jte(c) => cmd::jte::run(c),
        Command::Demo(a) => cmd::demo::run(a),
    };
    ExitCode::from(code)
}
