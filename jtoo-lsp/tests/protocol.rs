//! Each capability of the server, over JSON-RPC on an in-memory connection.

use crate::common::{Client, at, doc, range_json};
use serde_json::{Value as Json, json};

#[test]
fn initialize_announces_every_capability() {
    let c = Client::start();
    let caps = &c.init["capabilities"];
    assert_eq!(caps["positionEncoding"], "utf-16");
    assert_eq!(caps["textDocumentSync"]["change"], 2, "incremental");
    assert_eq!(caps["textDocumentSync"]["openClose"], true);
    assert_eq!(caps["documentFormattingProvider"], true);
    assert_eq!(caps["documentSymbolProvider"], true);
    assert_eq!(caps["foldingRangeProvider"], true);
    assert_eq!(caps["hoverProvider"], true);
    assert_eq!(c.init["serverInfo"]["name"], "jtoo-lsp");
    c.shutdown();
}

#[test]
fn diagnostics_have_exact_ranges_and_hints() {
    let mut c = Client::start();
    // HTOO: the parser's message over the offending token, with its hint.
    let d = c.open(
        "file:///a.htoo",
        "htoo",
        "[\n  \"on\": true,\n  \"n\": 1,\n]\n",
    );
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["range"], range_json([1, 8, 1, 12]));
    assert_eq!(d[0]["severity"], 1);
    assert_eq!(d[0]["source"], "htoo");
    assert_eq!(d[0]["code"], "ExpectedValue");
    assert_eq!(
        d[0]["message"],
        "expected a value\nhelp: booleans are `Y` / `N`"
    );
    // A valid HTOO file has none.
    assert_eq!(
        c.open("file:///b.htoo", "htoo", "[1, 2, // c\n]\n"),
        Vec::<Json>::new()
    );
    // A .jtoo file is strict: the space is an error; one final newline is
    // allowed, as `jtoo check` allows it.
    let d = c.open("file:///c.jtoo", "jtoo", "[1, 2]\n");
    assert_eq!(d[0]["range"], range_json([0, 3, 0, 4]), "{d:?}");
    assert_eq!(d[0]["source"], "jtoo");
    assert_eq!(
        c.open("file:///d.jtoo", "jtoo", "[1,2]\n"),
        Vec::<Json>::new()
    );
    // The language comes from languageId, else from the extension.
    assert_eq!(c.open("file:///e.jtoo", "plaintext", "[1, 2]").len(), 1);
    assert_eq!(c.open("file:///e.htoo", "plaintext", "[1, 2]").len(), 0);
    // Errors with a range that spans more than one character.
    let d = c.open("file:///f.htoo", "htoo", "[D2024-13-01]");
    assert_eq!(d[0]["range"], range_json([0, 7, 0, 12]), "{d:?}");
    assert!(d[0]["message"].as_str().unwrap().contains("month"), "{d:?}");
    c.shutdown();
}

#[test]
fn positions_are_utf16_code_units() {
    let mut c = Client::start();
    // "😀" is two UTF-16 units (four bytes), "é" one (two bytes).
    let d = c.open("file:///u.htoo", "htoo", "[\"😀é\": 1 2]");
    assert_eq!(d[0]["range"], range_json([0, 10, 0, 11]), "{d:?}");
    // A change given in UTF-16 units lands after the emoji.
    c.change("file:///u.htoo", 2, [0, 10, 0, 11], "");
    let (version, d) = c.diagnostics("file:///u.htoo");
    assert_eq!(version, 2);
    assert_eq!(d, Vec::<Json>::new());
    c.shutdown();
}

#[test]
fn incremental_changes_update_the_diagnostics() {
    let mut c = Client::start();
    let uri = "file:///inc.htoo";
    assert!(
        c.open(uri, "htoo", "[\n  \"a\": 1,\n  \"b\": 2,\n]\n")
            .is_empty()
    );
    // Replace `2` by `2 3`: an error at line 2, column 9.
    c.change(uri, 2, [2, 7, 2, 8], "2 3");
    let (version, d) = c.diagnostics(uri);
    assert_eq!(version, 2);
    assert_eq!(d[0]["range"], range_json([2, 9, 2, 10]), "{d:?}");
    // Several changes in one notification apply in order.
    c.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": uri, "version": 3 },
            "contentChanges": [
                { "range": range_json([2, 8, 2, 10]), "text": "" },
                { "range": range_json([1, 0, 1, 0]), "text": "  \"new\": [\n  ],\n" },
            ],
        }),
    );
    let (version, d) = c.diagnostics(uri);
    assert_eq!(version, 3);
    assert_eq!(d, Vec::<Json>::new());
    let symbols = c.call("textDocument/documentSymbol", doc(uri));
    let names: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["new", "a", "b"]);
    // A change without a range replaces the text.
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 4 }, "contentChanges": [{ "text": "[" }] }),
    );
    let (_, d) = c.diagnostics(uri);
    assert_eq!(
        d[0]["message"],
        "unclosed list: expected `]` before end of input"
    );
    assert_eq!(d[0]["range"], range_json([0, 0, 0, 1]));
    // Closing clears the diagnostics.
    c.notify("textDocument/didClose", doc(uri));
    assert_eq!(c.diagnostics(uri).1, Vec::<Json>::new());
    c.shutdown();
}

/// Applies LSP text edits (non-overlapping, as a server sends them) to `text`.
fn apply(text: &str, edits: &Json) -> String {
    let lines: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let offset = |p: &Json| {
        let start = lines[p["line"].as_u64().unwrap() as usize];
        let mut units = 0;
        for (i, ch) in text[start..].char_indices() {
            if units >= p["character"].as_u64().unwrap() as usize || ch == '\n' {
                return start + i;
            }
            units += ch.len_utf16();
        }
        text.len()
    };
    let mut edits: Vec<&Json> = edits.as_array().unwrap().iter().collect();
    edits.sort_by_key(|e| std::cmp::Reverse(offset(&e["range"]["start"])));
    let mut out = text.to_owned();
    for e in edits {
        let (s, t) = (offset(&e["range"]["start"]), offset(&e["range"]["end"]));
        out.replace_range(s..t, e["newText"].as_str().unwrap());
    }
    out
}

#[test]
fn formatting_keeps_comments_as_jtoo_pretty_does() {
    let mut c = Client::start();
    let uri = "file:///cfg.htoo";
    let text = "// service config\n[\"name\":\"billing\", // the name\n\"port\":8080,\n/* hosts */ \"hosts\":[\"a\",\"b\",],]";
    assert!(c.open(uri, "htoo", text).is_empty());
    let opts = json!({ "tabSize": 2, "insertSpaces": true });
    let edits = c.call(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": uri }, "options": opts }),
    );
    let formatted = apply(text, &edits);
    // The formatter of `jtoo pretty`, and a final newline.
    let want = htoo::format(text, &htoo::PrettyConfig::new()).unwrap() + "\n";
    assert_eq!(formatted, want);
    for comment in ["// service config", "// the name", "/* hosts */"] {
        assert!(formatted.contains(comment), "{comment} lost:\n{formatted}");
    }
    assert!(formatted.contains("8_080"), "{formatted}");
    // Formatted text needs no edits.
    c.change(uri, 2, [0, 0, 99, 0], &formatted);
    let _ = c.diagnostics(uri);
    let edits = c.call(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": uri }, "options": opts }),
    );
    assert_eq!(edits, json!([]));
    // Strict JTOO formats to canonical JTOO (the file stays JTOO).
    let j = "file:///x.jtoo";
    c.open(j, "jtoo", "[1000, \"a\" : 0.50]");
    let edits = c.call(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": j }, "options": opts }),
    );
    assert_eq!(apply("[1000, \"a\" : 0.50]", &edits), "[1_000,\"a\":0.5]\n");
    // ... but not when that would drop a comment.
    c.open("file:///y.jtoo", "jtoo", "[1, // one\n2]");
    let r = c.call(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": "file:///y.jtoo" }, "options": opts }),
    );
    assert_eq!(r, Json::Null);
    // An invalid document is left alone.
    c.open("file:///bad.htoo", "htoo", "[1 2]");
    let r = c.call(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": "file:///bad.htoo" }, "options": opts }),
    );
    assert_eq!(r, Json::Null);
    c.shutdown();
}

#[test]
fn document_symbols_outline_the_keys() {
    let mut c = Client::start();
    let uri = "file:///s.htoo";
    let text = "[\n  \"name\": \"x\",\n  \"db\": [\"host\": \"h\", \"port\": 5432],\n  \"list\": [1, 2],\n  [\"deep\": Y],\n  7,\n]";
    c.open(uri, "htoo", text);
    let s = c.call("textDocument/documentSymbol", doc(uri));
    let top: Vec<(&str, u64)> = s
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["kind"].as_u64().unwrap()))
        .collect();
    // String 15, Object 19, Array 18; a plain list item is "[index]"; a
    // plain scalar item is not a symbol.
    assert_eq!(top, [("name", 15), ("db", 19), ("list", 18), ("[3]", 19)]);
    let db = &s[1];
    assert_eq!(db["range"], range_json([2, 2, 2, 35]));
    assert_eq!(db["selectionRange"], range_json([2, 2, 2, 6]));
    assert_eq!(db["detail"], "2 items");
    let inner: Vec<&str> = db["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(inner, ["host", "port"]);
    assert_eq!(db["children"][1]["detail"], "5432");
    assert_eq!(s[3]["children"][0]["name"], "deep");
    // An HTOO document that does not parse has no outline; an unknown one
    // neither.
    c.open("file:///t.htoo", "htoo", "[\"a\": ");
    assert_eq!(
        c.call("textDocument/documentSymbol", doc("file:///t.htoo")),
        json!([])
    );
    assert_eq!(
        c.call("textDocument/documentSymbol", doc("file:///none.htoo")),
        Json::Null
    );
    c.shutdown();
}

#[test]
fn folding_ranges_cover_multi_line_lists() {
    let mut c = Client::start();
    let uri = "file:///f.htoo";
    c.open(
        uri,
        "htoo",
        "[\n  \"a\": [\n    1,\n    2,\n  ],\n  \"b\": [3, 4],\n  \"c\": [5,\n    6],\n]\n",
    );
    let r = c.call("textDocument/foldingRange", doc(uri));
    let got: Vec<(u64, u64)> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["startLine"].as_u64().unwrap(),
                f["endLine"].as_u64().unwrap(),
            )
        })
        .collect();
    // The whole document to the line before its `]`, "a" likewise, "c"
    // (its `]` after an item) through its last line but one.
    assert_eq!(got, [(0, 7), (1, 3), (6, 6)]);
    c.shutdown();
}

fn hover_text(c: &mut Client, uri: &str, line: u32, character: u32) -> Option<String> {
    let h = c.call("textDocument/hover", at(uri, line, character));
    h["contents"]["value"].as_str().map(str::to_owned)
}

#[test]
fn hover_explains_scalars() {
    let mut c = Client::start();
    let uri = "file:///h.htoo";
    let text = "[\n  \"at\": S1_709_528_240.001,\n  \"day\": D2024-03-04,\n  \"key\": B4f4b,\n  \"when\": D2024-03-04T10:20:30~08,\n  \"n\": 1000,\n]";
    c.open(uri, "htoo", text);
    let t = hover_text(&mut c, uri, 1, 10).unwrap();
    assert!(t.contains("**timestamp**"), "{t}");
    assert!(t.contains("2024-03-04T04:57:20.001Z UTC"), "{t}");
    let t = hover_text(&mut c, uri, 2, 12).unwrap();
    assert!(t.contains("Monday, 2024-03-04 (ISO week 2024-W10)"), "{t}");
    let t = hover_text(&mut c, uri, 3, 9).unwrap();
    assert!(t.contains("2 bytes: ASCII `OK`"), "{t}");
    let t = hover_text(&mut c, uri, 4, 10).unwrap();
    assert!(t.contains("**date-time**"), "{t}");
    assert!(t.contains("Monday"), "{t}");
    assert!(t.contains("2024-03-04T18:20:30Z UTC"), "{t}");
    let t = hover_text(&mut c, uri, 5, 8).unwrap();
    assert_eq!(t, "**integer** `1_000`");
    // On a key: the key.
    let t = hover_text(&mut c, uri, 5, 3).unwrap();
    assert!(t.starts_with("**string** `\"n\"`"), "{t}");
    // The hover's range is the scalar's.
    let h = c.call("textDocument/hover", at(uri, 3, 9));
    assert_eq!(h["range"], range_json([3, 9, 3, 14]));
    // Between values, and past the end: nothing.
    assert_eq!(hover_text(&mut c, uri, 0, 0), None);
    assert_eq!(hover_text(&mut c, uri, 1, 0), None);
    assert_eq!(hover_text(&mut c, uri, 99, 0), None);
    c.shutdown();
}

#[test]
fn every_request_is_answered() {
    let mut c = Client::start();
    // Unknown method: MethodNotFound.
    let r = c.request("textDocument/completion", at("file:///x.htoo", 0, 0));
    assert_eq!(r.response_result.unwrap_err().code, -32601);
    let r = c.request("workspace/whatever", json!({}));
    assert_eq!(r.response_result.unwrap_err().code, -32601);
    // Bad params: InvalidParams.
    let r = c.request("textDocument/hover", json!({ "nonsense": 1 }));
    assert_eq!(r.response_result.unwrap_err().code, -32602);
    // A document that is not open: no answer to give, but an answer.
    assert_eq!(
        c.call("textDocument/hover", at("file:///nope.htoo", 0, 0)),
        Json::Null
    );
    assert_eq!(
        c.call("textDocument/foldingRange", doc("file:///nope.htoo")),
        Json::Null
    );
    // Unknown notifications are ignored; the server still answers.
    c.notify("$/unknown", json!({}));
    c.notify("textDocument/didChange", json!({ "garbage": true }));
    assert_eq!(
        c.call("textDocument/foldingRange", doc("file:///nope.htoo")),
        Json::Null
    );
    // After shutdown: InvalidRequest, until exit.
    let r = c.request("shutdown", Json::Null);
    assert!(r.response_result.is_ok());
    let r = c.request("textDocument/hover", at("file:///nope.htoo", 0, 0));
    assert_eq!(r.response_result.unwrap_err().code, -32600);
    c.notify("exit", Json::Null);
}

#[test]
fn exit_without_shutdown_ends_with_status_1() {
    // The protocol: exit status 0 only when `shutdown` came before `exit`.
    let c = Client::start();
    let ended = c.exit_without_shutdown();
    assert_eq!(ended, jtoo_lsp::Ended::WithoutShutdown);
    assert_eq!(ended.exit_code(), 1);
}

#[test]
fn requests_before_initialize_are_refused() {
    use jtoo_lsp::lsp_server::{Connection, Message, Request, RequestId};
    let (server, client) = Connection::memory();
    let thread = std::thread::spawn(move || jtoo_lsp::run(&server));
    client
        .sender
        .send(Request::new(RequestId::from(1), "textDocument/hover".into(), json!({})).into())
        .unwrap();
    let Message::Response(r) = client.receiver.recv().unwrap() else {
        panic!()
    };
    assert_eq!(r.response_result.unwrap_err().code, -32002);
    // Dropping the client's end ends the server.
    drop(client);
    assert!(thread.join().unwrap().is_err());
}

#[test]
fn a_document_over_the_limit_is_not_parsed() {
    let mut c = Client::start();
    let big = format!("[{}]", "1,".repeat((64 << 20) / 2 + 8));
    let d = c.open("file:///big.htoo", "htoo", &big);
    assert_eq!(d.len(), 1);
    assert!(
        d[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("not checked: the document is"),
        "{d:?}"
    );
    assert_eq!(d[0]["severity"], 2);
    assert_eq!(
        c.call("textDocument/documentSymbol", doc("file:///big.htoo")),
        json!([])
    );
    let r = c.call("textDocument/formatting", json!({ "textDocument": { "uri": "file:///big.htoo" }, "options": { "tabSize": 2, "insertSpaces": true } }));
    assert_eq!(r, Json::Null);
    c.shutdown();
}

#[test]
fn deep_and_pathological_documents_are_answered() {
    let mut c = Client::start();
    // 100 nested pairs, one per line: an outline 100 deep.
    let mut text = String::new();
    for i in 0..100 {
        text.push_str(&format!("{}[\"k{i}\":\n", " ".repeat(i)));
    }
    text.push('1');
    text.push_str(&"]".repeat(100));
    assert!(c.open("file:///deep.htoo", "htoo", &text).is_empty());
    let s = c.call("textDocument/documentSymbol", doc("file:///deep.htoo"));
    let mut depth = 0;
    let mut node = &s[0];
    while node.is_object() {
        depth += 1;
        node = &node["children"][0];
    }
    assert_eq!(depth, 100);
    assert_eq!(
        c.call("textDocument/foldingRange", doc("file:///deep.htoo"))
            .as_array()
            .unwrap()
            .len(),
        100
    );
    // 100,000 unclosed lists: too deep, said once, and nothing else breaks.
    let uri = "file:///worst.htoo";
    let d = c.open(uri, "htoo", &"[".repeat(100_000));
    assert_eq!(d.len(), 1);
    assert_eq!(d[0]["code"], "DepthLimitExceeded", "{d:?}");
    assert_eq!(c.call("textDocument/documentSymbol", doc(uri)), json!([]));
    assert_eq!(c.call("textDocument/hover", at(uri, 0, 50_000)), Json::Null);
    let fmt = json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 2, "insertSpaces": true } });
    assert_eq!(c.call("textDocument/formatting", fmt), Json::Null);
    // Not UTF-8 cannot arrive (JSON strings are Unicode), but every control
    // character can.
    let controls: String = (0u8..32).map(char::from).collect();
    assert_eq!(c.open("file:///ctl.htoo", "htoo", &controls).len(), 1);
    c.shutdown();
}

#[test]
fn the_outline_is_bounded() {
    let mut c = Client::start();
    // 100 records of 200 pairs: 20,100 symbols in all, too many; the top
    // level alone (100) fits, so that is the outline.
    let record = format!(
        "[{}]",
        (0..200)
            .map(|i| format!("\"f{i}\": {i}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let text = format!("[\n{}\n]", vec![record; 100].join(",\n"));
    c.open("file:///records.htoo", "htoo", &text);
    let s = c.call("textDocument/documentSymbol", doc("file:///records.htoo"));
    let s = s.as_array().unwrap();
    assert_eq!(s.len(), 100);
    assert_eq!(s[0]["name"], "[0]");
    assert_eq!(s[0]["detail"], "200 items");
    assert!(s.iter().all(|s| s["children"].is_null()));
    // 12,000 pairs at the top: the first 10,000.
    let text = format!(
        "[{}]",
        (0..12_000)
            .map(|i| format!("\"k{i}\":{i}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    c.open("file:///wide.htoo", "htoo", &text);
    let s = c.call("textDocument/documentSymbol", doc("file:///wide.htoo"));
    let s = s.as_array().unwrap();
    assert_eq!(s.len(), 10_000);
    assert_eq!(s[9_999]["name"], "k9999");
    c.shutdown();
}
