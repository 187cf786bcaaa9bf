//! An LSP client for the tests: the server runs in a thread on one end of
//! an in-memory connection.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::thread::JoinHandle;
use std::time::Duration;

use jtoo_lsp::lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use serde_json::{Value as Json, json};

/// How long a test waits for any one message before failing (generous: a
/// debug build on a busy machine).
const WAIT: Duration = Duration::from_secs(60);

pub struct Client {
    conn: Connection,
    server: Option<JoinHandle<Result<jtoo_lsp::Ended, jtoo_lsp::Error>>>,
    next_id: i32,
    /// Notifications that arrived while waiting for something else.
    notes: VecDeque<Notification>,
    pub init: Json,
}

impl Client {
    /// Starts a server and initializes it.
    pub fn start() -> Client {
        let (server, conn) = Connection::memory();
        let handle = std::thread::spawn(move || jtoo_lsp::run(&server));
        let mut c = Client {
            conn,
            server: Some(handle),
            next_id: 0,
            notes: VecDeque::new(),
            init: Json::Null,
        };
        let init = c.request("initialize", json!({ "capabilities": {} }));
        c.init = init.response_result.expect("initialize answered");
        c.notify("initialized", json!({}));
        c
    }

    fn recv(&mut self) -> Message {
        match self.conn.receiver.recv_timeout(WAIT) {
            Ok(m) => m,
            Err(e) => panic!("no message from the server within {WAIT:?}: {e}"),
        }
    }

    /// Sends a request without waiting; returns its id.
    pub fn send_request(&mut self, method: &str, params: Json) -> RequestId {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        let req = Request::new(id.clone(), method.to_owned(), params);
        self.conn.sender.send(req.into()).expect("server alive");
        id
    }

    /// Waits for the response to `id` (keeping notifications for later).
    pub fn response(&mut self, id: RequestId) -> Response {
        loop {
            match self.recv() {
                Message::Response(r) if r.id == id => return r,
                Message::Response(r) => panic!("response to {:?} while waiting for {id:?}", r.id),
                Message::Notification(n) => self.notes.push_back(n),
                Message::Request(r) => panic!("unexpected request from the server: {r:?}"),
            }
        }
    }

    /// Sends a request and waits for its response.
    pub fn request(&mut self, method: &str, params: Json) -> Response {
        let id = self.send_request(method, params);
        self.response(id)
    }

    /// The result of a request that must succeed.
    pub fn call(&mut self, method: &str, params: Json) -> Json {
        match self.request(method, params).response_result {
            Ok(v) => v,
            Err(e) => panic!("{method}: error {} {}", e.code, e.message),
        }
    }

    pub fn notify(&self, method: &str, params: Json) {
        let n = Notification::new(method.to_owned(), params);
        self.conn.sender.send(n.into()).expect("server alive");
    }

    /// The next `publishDiagnostics` for `uri`: (version, diagnostics).
    pub fn diagnostics(&mut self, uri: &str) -> (Json, Vec<Json>) {
        loop {
            let n = match self.notes.pop_front() {
                Some(n) => n,
                None => match self.recv() {
                    Message::Notification(n) => n,
                    other => panic!("expected diagnostics, got {other:?}"),
                },
            };
            if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri {
                let list = n.params["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                return (n.params["version"].clone(), list);
            }
        }
    }

    /// Opens a document; returns its first diagnostics.
    pub fn open(&mut self, uri: &str, language: &str, text: &str) -> Vec<Json> {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": language, "version": 1, "text": text } }),
        );
        self.diagnostics(uri).1
    }

    /// Sends one ranged change.
    pub fn change(&self, uri: &str, version: i32, range: [u32; 4], text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri, "version": version },
                "contentChanges": [{ "range": range_json(range), "text": text }],
            }),
        );
    }

    /// Sends `exit` without `shutdown` and returns how the server ended.
    pub fn exit_without_shutdown(mut self) -> jtoo_lsp::Ended {
        self.notify("exit", Json::Null);
        let handle = self.server.take().expect("running");
        handle.join().expect("server thread").expect("server ran")
    }

    /// Shuts the server down cleanly and checks that it ended without error.
    pub fn shutdown(mut self) {
        let r = self.request("shutdown", Json::Null);
        assert!(r.response_result.is_ok(), "{r:?}");
        self.notify("exit", Json::Null);
        let handle = self.server.take().expect("running");
        let ended = handle
            .join()
            .expect("server thread")
            .expect("server ended cleanly");
        assert_eq!(ended, jtoo_lsp::Ended::AfterShutdown);
    }
}

pub fn range_json([l1, c1, l2, c2]: [u32; 4]) -> Json {
    json!({ "start": { "line": l1, "character": c1 }, "end": { "line": l2, "character": c2 } })
}

pub fn doc(uri: &str) -> Json {
    json!({ "textDocument": { "uri": uri } })
}

pub fn at(uri: &str, line: u32, character: u32) -> Json {
    json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } })
}

impl Client {
    /// Waits for the diagnostics of `uri` at `version` (skipping older
    /// ones).
    pub fn diagnostics_at(&mut self, uri: &str, version: i32) -> Vec<Json> {
        loop {
            let (v, d) = self.diagnostics(uri);
            if v == version {
                return d;
            }
        }
    }

    /// Forgets the notifications received so far.
    pub fn clear_notes(&mut self) {
        self.notes.clear();
    }
}
