//! The `jtoo` command: format, check, convert and frame JTOO documents.
#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod cmd;
mod edit;
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
    /// Reads strict JTOO (one final newline allowed) or, with --htoo or for
    /// a file named *.htoo, HTOO, and writes each document's canonical JTOO
    /// and a newline to stdout. With --check, lists the files that are not
    /// canonical (exit 1); with --in-place, rewrites them (never an HTOO
    /// file with comments: use pretty --in-place).
    Fmt(cmd::fmt::Args),
    /// Check that every input is a valid document
    ///
    /// Exit 0 when all are valid, 1 with a report per invalid input on
    /// stderr, 2 when an input cannot be read.
    Check(cmd::check::Args),
    /// Write documents as pretty HTOO, keeping every comment
    ///
    /// The pretty writer's layout (a list on one line when it fits, else one
    /// item per line with a trailing comma), every comment kept: a list
    /// holding one gets one item per line; end-of-line comments stay at the
    /// end of their item's line, the others get lines of their own.
    /// Idempotent. With --check, lists the files that are not pretty (exit
    /// 1); with --in-place, rewrites them.
    Pretty(cmd::pretty::Args),
    /// Print the value at a path (a JSON Pointer) as JTOO or JSON
    ///
    /// PATH is a JSON Pointer (RFC 6901): /limits/timeout_ms, /hosts/1, ~1
    /// for a / in a key, ~0 for ~; the leading / may be left out, the empty
    /// path is the whole document. A step that is the string key of a pair
    /// in its list names that pair's value, even when it is digits;
    /// otherwise digits (no leading zero) name the n-th item from 0.
    Get(cmd::get::Args),
    /// Set the value at a path, keeping every other byte
    ///
    /// VALUE is HTOO. A missing last key is created (appended to its list),
    /// the last step - appends a plain item. PATH as for get. Comments and
    /// layout stay byte for byte (a strict JTOO file stays canonical).
    /// Writes the document to stdout, or rewrites FILE with --in-place. A
    /// bad path or value exits 1 and leaves FILE untouched.
    Set(cmd::set::Args),
    /// Remove the item at a path with its comments
    ///
    /// The item's comment block just above it and its end-of-line comment go
    /// with it; every other byte stays. PATH as for get. Writes the document
    /// to stdout, or rewrites FILE with --in-place.
    Rm(cmd::rm::Args),
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
        Command::Get(a) => cmd::get::run(a),
        Command::Set(a) => cmd::set::run(a),
        Command::Rm(a) => cmd::rm::run(a),
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
