//! The message loop: documents in memory, requests answered in order.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Exit, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    DocumentSymbolRequest, FoldingRangeRequest, Formatting, HoverRequest, Request as _, Shutdown,
};
use lsp_types::{
    DocumentSymbolResponse, FoldingRangeProviderCapability, HoverProviderCapability, OneOf,
    PositionEncodingKind, PublishDiagnosticsParams, ServerCapabilities, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextDocumentSyncOptions, TextEdit, Uri,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value as Json;

use crate::Ended;
use crate::Error;
use crate::analysis::{Analysis, Syntax, format};
use crate::text::Text;

/// At most this many queued messages are handled before the changed
/// documents' diagnostics go out, so a client that never pauses still gets
/// them.
const BATCH: usize = 256;

/// An open document.
struct Doc {
    uri: Uri,
    version: i32,
    syntax: Syntax,
    text: Text,
    /// The parse of this version, made when first needed.
    analysis: Option<Analysis>,
    /// Diagnostics not yet published for this version.
    dirty: bool,
}

impl Doc {
    /// The parse of this version (made now if not yet) and the text.
    fn parts(&mut self) -> (&Analysis, &Text) {
        let (text, syntax) = (&self.text, self.syntax);
        let analysis = self
            .analysis
            .get_or_insert_with(|| Analysis::new(text.as_str(), syntax));
        (analysis, text)
    }
}

/// The server's state.
pub struct Server<'c> {
    connection: &'c Connection,
    docs: HashMap<String, Doc>,
    shutting_down: bool,
}

/// What a handled message means for the loop.
enum Flow {
    Continue,
    Exit,
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(PositionEncodingKind::UTF16),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                ..TextDocumentSyncOptions::default()
            },
        )),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    }
}

impl<'c> Server<'c> {
    pub fn new(connection: &'c Connection) -> Server<'c> {
        Server {
            connection,
            docs: HashMap::new(),
            shutting_down: false,
        }
    }

    pub fn run(mut self) -> Result<Ended, Error> {
        let (id, _params) = self.connection.initialize_start()?;
        let init = serde_json::json!({
            "capabilities": capabilities(),
            "serverInfo": { "name": "jtoo-lsp", "version": env!("CARGO_PKG_VERSION") },
        });
        self.connection.initialize_finish(id, init)?;
        // `recv` fails when the client's end is gone: stop then.
        while let Ok(msg) = self.connection.receiver.recv() {
            if let Flow::Exit = self.handle(msg)? {
                return Ok(self.ended());
            }
            for _ in 1..BATCH {
                let Ok(msg) = self.connection.receiver.try_recv() else {
                    break;
                };
                if let Flow::Exit = self.handle(msg)? {
                    return Ok(self.ended());
                }
            }
            self.publish()?;
        }
        Ok(self.ended())
    }

    /// How the server ends now: after `shutdown`, or without it.
    fn ended(&self) -> Ended {
        if self.shutting_down {
            Ended::AfterShutdown
        } else {
            Ended::WithoutShutdown
        }
    }

    fn send(&self, msg: impl Into<Message>) -> Result<(), Error> {
        self.connection
            .sender
            .send(msg.into())
            .map_err(|_| Error::from("the connection to the client is closed"))
    }

    fn handle(&mut self, msg: Message) -> Result<Flow, Error> {
        match msg {
            Message::Request(req) => {
                let id = req.id.clone();
                // Nothing here should panic; if something does, the client
                // gets an error for that request and the server lives on.
                let response =
                    catch_unwind(AssertUnwindSafe(|| self.request(req))).unwrap_or_else(|_| {
                        Response::new_err(
                            id,
                            ErrorCode::InternalError as i32,
                            "internal error (a bug in jtoo-lsp)".to_owned(),
                        )
                    });
                self.send(response)?;
                Ok(Flow::Continue)
            }
            Message::Notification(n) if n.method == Exit::METHOD => Ok(Flow::Exit),
            Message::Notification(n) => {
                let uri = n.params["textDocument"]["uri"].as_str().map(str::to_owned);
                if catch_unwind(AssertUnwindSafe(|| self.notification(n))).is_err()
                    && let Some(uri) = uri
                {
                    // A document we failed on is dropped, not kept half-changed.
                    self.docs.remove(&uri);
                }
                Ok(Flow::Continue)
            }
            // We send no requests: nothing to do with a response.
            Message::Response(_) => Ok(Flow::Continue),
        }
    }

    fn request(&mut self, req: Request) -> Response {
        if self.shutting_down {
            return Response::new_err(
                req.id,
                ErrorCode::InvalidRequest as i32,
                "the server is shutting down".to_owned(),
            );
        }
        let id = req.id.clone();
        let result = match req.method.as_str() {
            Shutdown::METHOD => {
                self.shutting_down = true;
                Ok(Json::Null)
            }
            Formatting::METHOD => self.answer(req, |s, p: lsp_types::DocumentFormattingParams| {
                s.formatting(&p.text_document.uri)
            }),
            DocumentSymbolRequest::METHOD => {
                self.answer(req, |s, p: lsp_types::DocumentSymbolParams| {
                    s.doc(&p.text_document.uri).map(|d| {
                        let (a, text) = d.parts();
                        let symbols = a.symbols(text);
                        DocumentSymbolResponse::Nested(symbols)
                    })
                })
            }
            FoldingRangeRequest::METHOD => {
                self.answer(req, |s, p: lsp_types::FoldingRangeParams| {
                    s.doc(&p.text_document.uri).map(|d| {
                        let (a, text) = d.parts();
                        a.folding(text)
                    })
                })
            }
            HoverRequest::METHOD => self.answer(req, |s, p: lsp_types::HoverParams| {
                let at = p.text_document_position_params;
                s.doc(&at.text_document.uri).and_then(|d| {
                    let offset = d.text.offset(at.position);
                    let (a, text) = d.parts();
                    a.hover(text, offset)
                })
            }),
            // The text the server holds, for checking a client's sync.
            "jtoo/documentText" => self.answer(req, |s, p: lsp_types::TextDocumentIdentifier| {
                s.doc(&p.uri).map(|d| d.text.as_str().to_owned())
            }),
            method => Err((
                ErrorCode::MethodNotFound,
                format!("jtoo-lsp does not handle {method}"),
            )),
        };
        match result {
            Ok(json) => Response::new_ok(id, json),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        }
    }

    /// Reads the params of `req` as `P` and answers with `f`'s result.
    fn answer<P: DeserializeOwned, R: Serialize>(
        &mut self,
        req: Request,
        f: impl FnOnce(&mut Self, P) -> R,
    ) -> Result<Json, (ErrorCode, String)> {
        let params: P = serde_json::from_value(req.params)
            .map_err(|e| (ErrorCode::InvalidParams, format!("{}: {e}", req.method)))?;
        serde_json::to_value(f(self, params)).map_err(|e| (ErrorCode::InternalError, e.to_string()))
    }

    fn doc(&mut self, uri: &Uri) -> Option<&mut Doc> {
        self.docs.get_mut(uri.as_str())
    }

    fn formatting(&mut self, uri: &Uri) -> Option<Vec<TextEdit>> {
        let doc = self.doc(uri)?;
        let formatted = format(doc.text.as_str(), doc.syntax)?;
        if formatted == doc.text.as_str() {
            return Some(Vec::new());
        }
        Some(vec![TextEdit {
            range: doc.text.full_range(),
            new_text: formatted,
        }])
    }

    fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params)
                {
                    let item = p.text_document;
                    let syntax = Syntax::of(&item.language_id, item.uri.as_str());
                    self.docs.insert(
                        item.uri.as_str().to_owned(),
                        Doc {
                            uri: item.uri,
                            version: item.version,
                            syntax,
                            text: Text::new(item.text),
                            analysis: None,
                            dirty: true,
                        },
                    );
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params)
                    && let Some(doc) = self.docs.get_mut(p.text_document.uri.as_str())
                {
                    for change in p.content_changes {
                        doc.text.apply(change);
                    }
                    doc.version = p.text_document.version;
                    doc.analysis = None;
                    doc.dirty = true;
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(n.params)
                    && let Some(doc) = self.docs.remove(p.text_document.uri.as_str())
                {
                    // Clear what was shown for it.
                    let params = PublishDiagnosticsParams::new(doc.uri, Vec::new(), None);
                    let _ = self.send(Notification::new(PublishDiagnostics::METHOD.into(), params));
                }
            }
            // `initialized`, `didSave`, `$/cancelRequest` (every request is
            // answered before the next is read), settings: nothing to do.
            _ => {}
        }
    }

    /// Publishes the diagnostics of every document changed since the last
    /// time.
    fn publish(&mut self) -> Result<(), Error> {
        let mut out = Vec::new();
        for doc in self.docs.values_mut().filter(|d| d.dirty) {
            doc.dirty = false;
            let diagnostics = catch_unwind(AssertUnwindSafe(|| {
                let syntax = doc.syntax;
                let (a, text) = doc.parts();
                a.diagnostics(text, syntax)
            }))
            .unwrap_or_default();
            out.push(PublishDiagnosticsParams::new(
                doc.uri.clone(),
                diagnostics,
                Some(doc.version),
            ));
        }
        for params in out {
            self.send(Notification::new(PublishDiagnostics::METHOD.into(), params))?;
        }
        Ok(())
    }
}
