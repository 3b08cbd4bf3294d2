//! The answers to an editor's requests, each from the document's latest study that parsed:
//! hover, go to definition, find references, completion, the outline, semantic tokens and
//! formatting; and the diagnostics of every open document.

use crate::text::Lines;
use crate::world::{Document, Known, ROOT, World, uri_of};
use absinthe_domc::diagnostic::FileId;
use absinthe_domc::dom::ide::complete::{What, complete};
use absinthe_domc::dom::ide::format::format;
use absinthe_domc::dom::ide::hover::hover;
use absinthe_domc::dom::ide::index::{DefId, Kind};
use absinthe_domc::dom::ide::tokens::{Class, tokens};
use lsp_types::{
    CompletionItem, CompletionItemKind, Diagnostic, DiagnosticSeverity, DocumentSymbol, Hover,
    HoverContents, Location, MarkupContent, MarkupKind, Position, SemanticToken, SemanticTokenType,
    SymbolKind, TextEdit, Url,
};
use std::collections::BTreeMap;

/// The semantic token types, in the order of the legend the server announces.
pub const TOKEN_TYPES: [SemanticTokenType; 11] = [
    SemanticTokenType::KEYWORD,
    SemanticTokenType::COMMENT,
    SemanticTokenType::STRING,
    SemanticTokenType::NUMBER,
    SemanticTokenType::TYPE,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::OPERATOR,
];

/// A document's latest parsed study, when it is of the current text or the request can live
/// with moved offsets.
fn known(document: &Document) -> Option<&Known> {
    document.known.as_ref()
}

/// The text of file `file` of a study (the root's is the document's own).
fn file_text(known: &Known, file: FileId) -> &str {
    &known.study.sources.get(file).text
}

/// The protocol's range of `span` in file `file` of a study.
fn range_in(known: &Known, file: FileId, span: std::ops::Range<usize>) -> lsp_types::Range {
    let text = file_text(known, file);
    Lines::new(text).range(text, span)
}

fn location(known: &Known, file: FileId, span: std::ops::Range<usize>) -> Option<Location> {
    let uri = uri_of(&known.study.sources.get(file).name)?;
    Some(Location::new(uri, range_in(known, file, span)))
}

/// The diagnostics of every open document's study, by the address of the file they are in.
pub fn diagnostics(world: &World) -> BTreeMap<Url, Vec<Diagnostic>> {
    let mut out: BTreeMap<Url, Vec<Diagnostic>> = BTreeMap::new();
    for (uri, document) in &world.documents {
        out.entry(uri.clone()).or_default();
        let study = &document.study;
        for d in &study.diagnostics {
            let file = study.sources.get(d.file);
            let Some(at) = uri_of(&file.name) else {
                continue;
            };
            let lines = Lines::new(&file.text);
            let mut message = d.message.clone();
            if !d.label.is_empty() && d.label != d.message {
                message.push_str(&format!("\n{}", d.label));
            }
            if let Some(help) = &d.help {
                message.push_str(&format!("\nhelp: {help}"));
            }
            let diagnostic = Diagnostic {
                range: lines.range(&file.text, d.span.clone()),
                severity: Some(DiagnosticSeverity::ERROR),
                source: Some("absinthe".into()),
                message,
                ..Diagnostic::default()
            };
            let list = out.entry(at).or_default();
            if !list.contains(&diagnostic) {
                list.push(diagnostic);
            }
        }
    }
    out
}

/// The hover text at `position`.
pub fn hover_at(document: &Document, position: Position) -> Option<Hover> {
    let known = known(document)?;
    let offset = document.lines.offset(&document.text, position);
    let value = hover(&known.study, &known.index, ROOT, offset)?;
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: None,
    })
}

fn def_at(document: &Document, position: Position) -> Option<(&Known, DefId)> {
    let known = known(document)?;
    let offset = document.lines.offset(&document.text, position);
    Some((known, known.index.at(ROOT, offset)?))
}

/// Where the name at `position` is declared.
pub fn definition(document: &Document, position: Position) -> Option<Location> {
    let (known, def) = def_at(document, position)?;
    let d = &known.index.defs[def];
    location(known, d.file, d.span.clone())
}

/// Every place the name at `position` is used, and its declaration if asked.
pub fn references(document: &Document, position: Position, declaration: bool) -> Vec<Location> {
    let Some((known, def)) = def_at(document, position) else {
        return Vec::new();
    };
    let d = &known.index.defs[def];
    let mut out: Vec<Location> = Vec::new();
    if declaration {
        out.extend(location(known, d.file, d.span.clone()));
    }
    for (file, span) in known.index.references(def) {
        out.extend(location(known, file, span));
    }
    out
}

/// What may be written at `position`.
pub fn completion(document: &Document, position: Position) -> Vec<CompletionItem> {
    let Some(known) = known(document) else {
        return Vec::new();
    };
    let offset = document.lines.offset(&document.text, position);
    complete(&known.index, ROOT, &document.text, offset)
        .into_iter()
        .map(|c| CompletionItem {
            label: c.label,
            kind: Some(match c.what {
                What::Keyword => CompletionItemKind::KEYWORD,
                What::Type => CompletionItemKind::CLASS,
                What::Function => CompletionItemKind::FUNCTION,
                What::Variant => CompletionItemKind::ENUM_MEMBER,
                What::Field => CompletionItemKind::FIELD,
                What::Variable => CompletionItemKind::VARIABLE,
            }),
            detail: Some(c.detail),
            ..CompletionItem::default()
        })
        .collect()
}

fn symbol_kind(kind: Kind) -> SymbolKind {
    match kind {
        Kind::Lattice | Kind::Alias | Kind::ExternType => SymbolKind::ENUM,
        Kind::Product => SymbolKind::STRUCT,
        Kind::Function | Kind::ExternFn => SymbolKind::FUNCTION,
        Kind::Reduction | Kind::Rule => SymbolKind::METHOD,
        Kind::Analysis => SymbolKind::MODULE,
        Kind::Variant => SymbolKind::ENUM_MEMBER,
        Kind::Field | Kind::Component => SymbolKind::FIELD,
        Kind::Param | Kind::Local => SymbolKind::VARIABLE,
    }
}

/// The outline of the document: its declarations, with their elements, fields and components.
#[allow(deprecated)] // `DocumentSymbol::deprecated` must be written to build one.
pub fn symbols(document: &Document) -> Vec<DocumentSymbol> {
    let Some(known) = known(document) else {
        return Vec::new();
    };
    let index = &known.index;
    let symbol = |id: DefId, children: Option<Vec<DocumentSymbol>>| {
        let d = &index.defs[id];
        DocumentSymbol {
            name: d.name.clone(),
            detail: d.ty.clone().or_else(|| Some(d.kind.word().to_string())),
            kind: symbol_kind(d.kind),
            tags: None,
            deprecated: None,
            range: range_in(known, d.file, d.whole.start.min(d.span.start)..d.whole.end),
            selection_range: range_in(known, d.file, d.span.clone()),
            children,
        }
    };
    index
        .defs
        .iter()
        .enumerate()
        .filter(|(_, d)| d.file == ROOT && d.parent.is_none() && d.kind != Kind::Local)
        .map(|(id, _)| {
            let children: Vec<DocumentSymbol> = index
                .children(id)
                .filter(|(_, c)| c.kind != Kind::Param)
                .map(|(child, _)| symbol(child, None))
                .collect();
            symbol(id, (!children.is_empty()).then_some(children))
        })
        .collect()
}

/// The semantic tokens of the document, encoded relative to each other as the protocol wants.
pub fn semantic_tokens(document: &Document) -> Vec<SemanticToken> {
    let text = &document.text;
    // Names are classed by the index only when it is of this very text.
    let index = known(document).filter(|k| k.current).map(|k| &k.index);
    let mut out = Vec::new();
    let (mut line, mut column) = (0, 0);
    for token in tokens(text) {
        let class = match token.class {
            Class::Keyword => 0,
            Class::Comment => 1,
            Class::String => 2,
            Class::Number => 3,
            Class::Ident => {
                match index.and_then(|i| i.at(ROOT, token.span.start).map(|d| &i.defs[d])) {
                    Some(d) if d.kind.is_type() => 4,
                    Some(d) => match d.kind {
                        Kind::Function | Kind::ExternFn | Kind::Reduction | Kind::Rule => 5,
                        Kind::Variant => 6,
                        Kind::Field | Kind::Component => 7,
                        Kind::Param => 8,
                        Kind::Local => 9,
                        _ => continue,
                    },
                    None => continue,
                }
            }
            Class::Punct if "+-*/%<>=!&|^~".contains(&text[token.span.clone()]) => 10,
            Class::Punct => continue,
            Class::Open | Class::Close => continue,
        };
        // A comment runs to the end of its line; every other token is on one line.
        let start = document.lines.position(text, token.span.start);
        let end = document.lines.position(text, token.span.end);
        let length = if end.line == start.line {
            end.character - start.character
        } else {
            continue;
        };
        let delta_line = start.line - line;
        let delta_start = if delta_line == 0 {
            start.character - column
        } else {
            start.character
        };
        out.push(SemanticToken {
            delta_line,
            delta_start,
            length,
            token_type: class,
            token_modifiers_bitset: 0,
        });
        (line, column) = (start.line, start.character);
    }
    out
}

/// The edits that format the document (none when it is formatted).
pub fn formatting(document: &Document) -> Vec<TextEdit> {
    let formatted = format(&document.text);
    if formatted == document.text {
        return Vec::new();
    }
    let end = document.lines.position(&document.text, document.text.len());
    vec![TextEdit::new(
        lsp_types::Range::new(Position::new(0, 0), end),
        formatted,
    )]
}
