//! Diagnostics latency for a 1 MB document, through the server: the time
//! from sending a `didChange` to receiving the `publishDiagnostics` of that
//! version.
//!
//! ```sh
//! cargo run --release -p jtoo-lsp --example latency                  # in-process (in-memory connection)
//! cargo run --release -p jtoo-lsp --example latency -- target/release/jtoo   # `jtoo lsp` over stdio
//! ```
//!
//! Prints the median, 90th percentile and worst of 40 rounds per kind of
//! change. A measurement, not a test: nothing here asserts a time.

use std::io::{BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use jtoo_lsp::lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value as Json, json};

const ROUNDS: usize = 40;

/// Something that carries messages to a server and back.
trait Link {
    fn send(&mut self, msg: Message);
    fn recv(&mut self) -> Message;
}

struct Memory(Connection);

impl Link for Memory {
    fn send(&mut self, msg: Message) {
        self.0.sender.send(msg).expect("server alive");
    }
    fn recv(&mut self) -> Message {
        self.0.receiver.recv().expect("server alive")
    }
}

struct Stdio2 {
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Link for Stdio2 {
    fn send(&mut self, msg: Message) {
        msg.write(&mut self.stdin).expect("write");
        self.stdin.flush().expect("flush");
    }
    fn recv(&mut self) -> Message {
        Message::read(&mut self.stdout)
            .expect("read")
            .expect("a message")
    }
}

/// A commented HTOO document of at least `size` bytes: records of every
/// kind of scalar, one per line.
fn document(size: usize) -> String {
    let mut s = String::from("// generated for the latency measurement\n[\n");
    let mut i = 0;
    while s.len() < size {
        s.push_str(&format!(
            "  [\"id\": {i}, \"name\": \"item {i}\", \"tags\": [\"a\", \"b\"], \"at\": D2024-03-04T10:20:30~08, \"ts\": S1_709_528_240.001, \"blob\": B4f4b, \"ratio\": 0.5, \"ok\": Y], // row {i}\n"
        ));
        i += 1;
    }
    s.push_str("]\n");
    s
}

fn notify(link: &mut dyn Link, method: &str, params: Json) {
    link.send(Notification::new(method.to_owned(), params).into());
}

/// Sends one change and waits for the diagnostics of its version.
fn change(link: &mut dyn Link, uri: &str, version: i32, change: Json) -> (Duration, usize) {
    let t = Instant::now();
    notify(
        link,
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [change] }),
    );
    loop {
        if let Message::Notification(n) = link.recv()
            && n.method == "textDocument/publishDiagnostics"
            && n.params["version"] == version
        {
            let count = n.params["diagnostics"].as_array().map_or(0, Vec::len);
            return (t.elapsed(), count);
        }
    }
}

fn report(what: &str, mut times: Vec<Duration>, diagnostics: usize) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "  {what:<44} median {:6.2} ms   p90 {:6.2} ms   max {:6.2} ms   ({diagnostics} diagnostic(s))",
        ms(times[times.len() / 2]),
        ms(times[times.len() * 9 / 10]),
        ms(times[times.len() - 1]),
    );
}

fn measure(link: &mut dyn Link) {
    link.send(
        Request::new(
            RequestId::from(1),
            "initialize".into(),
            json!({ "capabilities": {} }),
        )
        .into(),
    );
    let _ = link.recv();
    notify(link, "initialized", json!({}));
    let htoo = document(1 << 20);
    let value = htoo::from_str(&htoo).expect("valid");
    let jtoo_text = jtoo::to_string(&value).expect("encodes");
    for (uri, lang, text) in [
        ("file:///big.htoo", "htoo", htoo.clone()),
        ("file:///big.jtoo", "jtoo", jtoo_text),
    ] {
        println!(
            "{uri}: {} bytes, {} lines",
            text.len(),
            text.lines().count()
        );
        // The parse alone, for comparison: what the server runs per change.
        let parse: Vec<Duration> = (0..ROUNDS)
            .map(|_| {
                let t = Instant::now();
                if lang == "htoo" {
                    let _ = htoo::Document::parse(&text);
                } else {
                    let _ = jtoo::validate(text.as_bytes());
                }
                t.elapsed()
            })
            .collect();
        let what = if lang == "htoo" {
            "(htoo::Document::parse alone)"
        } else {
            "(jtoo::validate alone)"
        };
        report(what, parse, 0);
        notify(
            link,
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": lang, "version": 1, "text": text } }),
        );
        let _ = link.recv();
        let mut version = 1;
        // The middle line (HTOO) or the middle byte (JTOO, one line).
        let (line, col) = if lang == "htoo" {
            (text.lines().count() as u32 / 2, 9)
        } else {
            let mid = text.len() / 2;
            let at = text[mid..].find("\"id\":").map_or(mid, |i| mid + i + 5);
            (0, at as u32)
        };
        let pos = json!({ "line": line, "character": col });
        let mut valid = Vec::new();
        let mut broken = Vec::new();
        let mut diag_valid = 0;
        let mut diag_broken = 0;
        for _ in 0..ROUNDS {
            // Insert a digit (stays valid), then a stray `}` (an error),
            // then remove both.
            version += 1;
            let (t, n) = change(
                link,
                uri,
                version,
                json!({ "range": { "start": pos, "end": pos }, "text": "7" }),
            );
            valid.push(t);
            diag_valid = n;
            version += 1;
            let (t, n) = change(
                link,
                uri,
                version,
                json!({ "range": { "start": pos, "end": pos }, "text": "}" }),
            );
            broken.push(t);
            diag_broken = n;
            version += 1;
            let end = json!({ "line": line, "character": col + 2 });
            let _ = change(
                link,
                uri,
                version,
                json!({ "range": { "start": pos, "end": end }, "text": "" }),
            );
        }
        report("one-character edit, document valid", valid, diag_valid);
        report("one-character edit, document invalid", broken, diag_broken);
        // The other requests on the same document (its parse is cached).
        let mut id = 100;
        for (what, method, params) in [
            (
                "documentSymbol (whole outline)",
                "textDocument/documentSymbol",
                json!({ "textDocument": { "uri": uri } }),
            ),
            (
                "foldingRange",
                "textDocument/foldingRange",
                json!({ "textDocument": { "uri": uri } }),
            ),
            (
                "hover (middle of the document)",
                "textDocument/hover",
                json!({ "textDocument": { "uri": uri }, "position": pos }),
            ),
        ] {
            let mut times = Vec::new();
            let mut size = 0;
            for _ in 0..ROUNDS / 4 {
                // A fresh parse each time, as after an edit.
                version += 1;
                let _ = change(
                    link,
                    uri,
                    version,
                    json!({ "range": { "start": pos, "end": pos }, "text": "" }),
                );
                id += 1;
                let t = Instant::now();
                link.send(Request::new(RequestId::from(id), method.into(), params.clone()).into());
                loop {
                    if let Message::Response(r) = link.recv() {
                        times.push(t.elapsed());
                        size =
                            serde_json::to_string(&r.response_result.ok()).map_or(0, |s| s.len());
                        break;
                    }
                }
            }
            report(what, times, 0);
            println!("    (response {size} bytes of JSON)");
        }
        if lang == "htoo" {
            let mut full = Vec::new();
            let mut n = 0;
            for _ in 0..ROUNDS / 4 {
                version += 1;
                let (t, d) = change(link, uri, version, json!({ "text": htoo }));
                full.push(t);
                n = d;
            }
            report("whole text replaced (full sync of 1 MB)", full, n);
        }
    }
    link.send(Request::new(RequestId::from(2), "shutdown".into(), Json::Null).into());
    while !matches!(link.recv(), Message::Response(_)) {}
    notify(link, "exit", Json::Null);
}

fn main() {
    match std::env::args().nth(1) {
        None => {
            println!("in-process server (in-memory connection):");
            let (server, client) = Connection::memory();
            let thread = std::thread::spawn(move || jtoo_lsp::run(&server));
            measure(&mut Memory(client));
            thread.join().expect("server thread").expect("server ran");
        }
        Some(jtoo) => {
            println!("`{jtoo} lsp` over stdio:");
            let mut child = Command::new(&jtoo)
                .arg("lsp")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .expect("start jtoo lsp");
            let mut link = Stdio2 {
                stdin: child.stdin.take().expect("stdin"),
                stdout: BufReader::new(child.stdout.take().expect("stdout")),
            };
            measure(&mut link);
            println!("server exit: {}", child.wait().expect("wait"));
        }
    }
}
