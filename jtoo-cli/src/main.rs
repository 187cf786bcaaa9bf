//! The `jtoo` command: format, check, convert and frame JTOO documents.
#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod cmd;
mod io;
mod replace;

/// Format, check and convert JTOO and HTOO documents.
#[derive(Parser)]
#[command(name = "jtoo", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write documents as canonical JTOO, or check or rewrite files
    ///
    /// Reads strict JTOO (one final newline allowed) or, with --htoo, HTOO,
    /// and writes each document's canonical JTOO and a newline to stdout.
    /// With --check, lists the files that are not canonical (exit 1);
    /// with --in-place, rewrites them.
    Fmt(cmd::fmt::Args),
    /// Check that every input is a valid document
    ///
    /// Exit 0 when all are valid, 1 with a report per invalid input on
    /// stderr, 2 when an input cannot be read.
    Check(cmd::check::Args),
    /// Write a document as pretty HTOO
    Pretty(cmd::pretty::Args),
    /// Conformance-suite decoder: a document to tagged JSON
    ///
    /// Reads the exact bytes of one document (no final newline allowed) and
    /// writes its value as tagged JSON.
    Decode(cmd::decode::Args),
    /// Conformance-suite encoder: tagged JSON to canonical JTOO
    ///
    /// Writes the exact canonical bytes, without a final newline.
    Encode(cmd::encode::Args),
    /// Convert a document (or one per line) to JSON
    ToJson(cmd::to_json::Args),
    /// Convert JSON (or JSON Lines) to canonical JTOO
    FromJson(cmd::from_json::Args),
    /// JTOO frames: decode, encode, serve, connect, check a greeting
    #[command(subcommand)]
    Frame(cmd::frame::FrameCommand),
    /// JTE RPC over JTOO frames or JSON lines: call, serve
    #[command(subcommand)]
    Jte(cmd::jte::JteCommand),
    /// Show a worked example on built-in data
    ///
    /// HTOO in; canonical JTOO, pretty HTOO, JSON and a frame out; each
    /// read back and compared.
    Demo(cmd::demo::Args),
    /// Language server for JTOO and HTOO over stdio (for editors)
    ///
    /// Diagnostics, formatting that keeps comments, outline, folding and
    /// hover; see editors/README.md.
    Lsp(cmd::lsp::Args),
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
        Command::Lsp(a) => cmd::lsp::run(a),
    };
    ExitCode::from(code)
}
