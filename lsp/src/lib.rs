//! `absinthe lsp`: a language server for `.dom` files over standard input and output.
//!
//! Every change to an open document checks it again, with its imports (read from the editor's
//! buffers where they are open), and publishes the same diagnostics `absinthe dom check` prints,
//! at the same places, for every file they are in. The requests are answered from the
//! document's latest study that parsed (`world.rs`), by the language's editor services in
//! `absinthe_domc::dom::ide` (`answers.rs`): hover, go to definition, find references,
//! completion, document symbols, semantic tokens and formatting.

mod answers;
mod text;
mod world;

use lsp_server::{Connection, ExtractError, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest, References,
    Request as _, SemanticTokensFullRequest,
};
use lsp_types::{
    CompletionOptions, GotoDefinitionResponse, HoverProviderCapability, OneOf,
    PublishDiagnosticsParams, SemanticTokens, SemanticTokensFullOptions, SemanticTokensLegend,
    SemanticTokensOptions, SemanticTokensResult, SemanticTokensServerCapabilities,
    ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind, Url,
};
use std::collections::BTreeSet;
use std::error::Error;
use world::World;

/// What the server can do, as it tells the editor.
fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![":".into(), ".".into()]),
            ..CompletionOptions::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: SemanticTokensLegend {
                    token_types: answers::TOKEN_TYPES.to_vec(),
                    token_modifiers: Vec::new(),
                },
                full: Some(SemanticTokensFullOptions::Bool(true)),
                range: None,
                ..SemanticTokensOptions::default()
            },
        )),
        ..ServerCapabilities::default()
    }
}

/// Serves one editor over standard input and output until it says `exit`.
pub fn serve_stdio() -> Result<(), Box<dyn Error + Send + Sync>> {
    let (connection, io_threads) = Connection::stdio();
    serve(&connection)?;
    drop(connection);
    io_threads.join()?;
    Ok(())
}

/// Serves one editor on `connection`: the handshake, then every message until `shutdown`.
pub fn serve(connection: &Connection) -> Result<(), Box<dyn Error + Send + Sync>> {
    let capabilities = serde_json::to_value(capabilities())?;
    connection.initialize(capabilities)?;
    let mut server = Server {
        world: World::default(),
        published: BTreeSet::new(),
    };
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request)? {
                    return Ok(());
                }
                let response = server.answer(request);
                connection.sender.send(Message::Response(response))?;
            }
            Message::Notification(notification) => {
                if server.take(notification)? {
                    for diagnostics in server.publish() {
                        connection.sender.send(Message::Notification(diagnostics))?;
                    }
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(())
}

/// The error response to a request the server cannot answer.
type Refusal = Box<Response>;

struct Server {
    world: World,
    /// The files diagnostics were last published for (to clear the ones that have none now).
    published: BTreeSet<Url>,
}

/// A request's parameters, or the error response that says they are not the method's.
fn params<R: lsp_types::request::Request>(
    request: Request,
) -> Result<(RequestId, R::Params), Refusal> {
    // The id answers the request even when its parameters do not parse.
    let id = request.id.clone();
    request.extract::<R::Params>(R::METHOD).map_err(|error| {
        let message = match error {
            ExtractError::MethodMismatch(r) => {
                format!("`{}` is not a `{}` request", r.method, R::METHOD)
            }
            ExtractError::JsonError { method, error } => {
                format!("bad parameters of `{method}`: {error}")
            }
        };
        Box::new(Response::new_err(
            id,
            lsp_server::ErrorCode::InvalidParams as i32,
            message,
        ))
    })
}

impl Server {
    /// Takes a notification; whether the documents changed.
    fn take(&mut self, notification: Notification) -> Result<bool, Box<dyn Error + Send + Sync>> {
        match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let p: lsp_types::DidOpenTextDocumentParams =
                    serde_json::from_value(notification.params)?;
                self.world.set(p.text_document.uri, p.text_document.text);
                Ok(true)
            }
            DidChangeTextDocument::METHOD => {
                let p: lsp_types::DidChangeTextDocumentParams =
                    serde_json::from_value(notification.params)?;
                // Full synchronization: the last change is the whole text.
                if let Some(change) = p.content_changes.into_iter().last() {
                    self.world.set(p.text_document.uri, change.text);
                }
                Ok(true)
            }
            DidCloseTextDocument::METHOD => {
                let p: lsp_types::DidCloseTextDocumentParams =
                    serde_json::from_value(notification.params)?;
                self.world.close(&p.text_document.uri);
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// The diagnostics to publish: every file's, and an empty list for a file that had some.
    fn publish(&mut self) -> Vec<Notification> {
        let now = answers::diagnostics(&self.world);
        let mut out = Vec::new();
        for uri in self.published.iter().filter(|u| !now.contains_key(*u)) {
            out.push((uri.clone(), Vec::new()));
        }
        self.published = now
            .iter()
            .filter(|(_, list)| !list.is_empty())
            .map(|(u, _)| u.clone())
            .collect();
        out.extend(now);
        out.into_iter()
            .map(|(uri, diagnostics)| {
                Notification::new(
                    PublishDiagnostics::METHOD.to_string(),
                    PublishDiagnosticsParams::new(uri, diagnostics, None),
                )
            })
            .collect()
    }

    fn answer(&mut self, request: Request) -> Response {
        match self.try_answer(request) {
            Ok(response) => response,
            Err(refusal) => *refusal,
        }
    }

    fn document(&self, uri: &Url, id: &RequestId) -> Result<&world::Document, Refusal> {
        self.world.documents.get(uri).ok_or_else(|| {
            Box::new(Response::new_err(
                id.clone(),
                lsp_server::ErrorCode::InvalidParams as i32,
                format!("`{uri}` is not open"),
            ))
        })
    }

    fn try_answer(&mut self, request: Request) -> Result<Response, Refusal> {
        let ok = |id: RequestId, value: serde_json::Value| Ok(Response::new_ok(id, value));
        match request.method.as_str() {
            HoverRequest::METHOD => {
                let (id, p) = params::<HoverRequest>(request)?;
                let at = p.text_document_position_params;
                let document = self.document(&at.text_document.uri, &id)?;
                ok(id, json(&answers::hover_at(document, at.position)))
            }
            GotoDefinition::METHOD => {
                let (id, p) = params::<GotoDefinition>(request)?;
                let at = p.text_document_position_params;
                let document = self.document(&at.text_document.uri, &id)?;
                let found =
                    answers::definition(document, at.position).map(GotoDefinitionResponse::Scalar);
                ok(id, json(&found))
            }
            References::METHOD => {
                let (id, p) = params::<References>(request)?;
                let at = p.text_document_position;
                let document = self.document(&at.text_document.uri, &id)?;
                let found =
                    answers::references(document, at.position, p.context.include_declaration);
                ok(id, json(&found))
            }
            Completion::METHOD => {
                let (id, p) = params::<Completion>(request)?;
                let at = p.text_document_position;
                let document = self.document(&at.text_document.uri, &id)?;
                ok(id, json(&answers::completion(document, at.position)))
            }
            DocumentSymbolRequest::METHOD => {
                let (id, p) = params::<DocumentSymbolRequest>(request)?;
                let document = self.document(&p.text_document.uri, &id)?;
                ok(id, json(&answers::symbols(document)))
            }
            SemanticTokensFullRequest::METHOD => {
                let (id, p) = params::<SemanticTokensFullRequest>(request)?;
                let document = self.document(&p.text_document.uri, &id)?;
                let tokens = SemanticTokensResult::Tokens(SemanticTokens {
                    result_id: None,
                    data: answers::semantic_tokens(document),
                });
                ok(id, json(&tokens))
            }
            Formatting::METHOD => {
                let (id, p) = params::<Formatting>(request)?;
                let document = self.document(&p.text_document.uri, &id)?;
                ok(id, json(&answers::formatting(document)))
            }
            other => Err(Box::new(Response::new_err(
                request.id,
                lsp_server::ErrorCode::MethodNotFound as i32,
                format!("`{other}` is not supported"),
            ))),
        }
    }
}

/// An answer as JSON.
fn json<T: serde::Serialize>(value: &T) -> serde_json::Value {
    serde_json::to_value(value)
        .unwrap_or_else(|e| unreachable!("the protocol's types serialize: {e}"))
}
