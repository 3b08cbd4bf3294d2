//! The open documents and what the server knows of each: its text, and its study as the root of
//! a check (its imports read from the editor's buffers where they are open, else from disk).

use crate::text::Lines;
use absinthe_domc::diagnostic::FileId;
use absinthe_domc::dom::ide::index::Index;
use absinthe_domc::dom::{Study, study_text};
use lsp_types::Url;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// An open document.
#[derive(Debug)]
pub struct Document {
    /// Its text as the editor last sent it.
    pub text: String,
    /// Its line starts.
    pub lines: Lines,
    /// Its study with itself as the root: the latest, for its diagnostics.
    pub study: Study,
    /// The latest study without syntax errors and its index, for everything else (a file being
    /// typed rarely parses), and whether it is of the current text.
    pub known: Option<Known>,
}

/// A study that parsed, and its index.
#[derive(Debug)]
pub struct Known {
    /// The study.
    pub study: Study,
    /// Its index.
    pub index: Index,
    /// Whether it is of the document's current text (else byte offsets may have moved).
    pub current: bool,
}

/// Every open document, by its address.
#[derive(Debug, Default)]
pub struct World {
    /// The documents.
    pub documents: BTreeMap<Url, Document>,
}

/// The path a document is checked under: its file path, or its address as written when it is not
/// a file (an unsaved buffer).
pub fn path_of(uri: &Url) -> PathBuf {
    uri.to_file_path()
        .unwrap_or_else(|()| PathBuf::from(uri.as_str()))
}

/// The address of a file a study read.
pub fn uri_of(name: &str) -> Option<Url> {
    let path = Path::new(name);
    if path.is_absolute() {
        Url::from_file_path(path).ok()
    } else {
        Url::parse(name).ok()
    }
}

impl World {
    /// Opens or replaces the document at `uri`, and studies every open document again (one of
    /// them may import it).
    pub fn set(&mut self, uri: Url, text: String) {
        let lines = Lines::new(&text);
        let placeholder = Study {
            sources: Default::default(),
            files: Vec::new(),
            diagnostics: Vec::new(),
            typed: Vec::new(),
        };
        let known = self.documents.remove(&uri).and_then(|d| d.known);
        self.documents.insert(
            uri,
            Document {
                text,
                lines,
                study: placeholder,
                known,
            },
        );
        self.study_all();
    }

    /// Closes the document at `uri`.
    pub fn close(&mut self, uri: &Url) {
        self.documents.remove(uri);
        self.study_all();
    }

    fn study_all(&mut self) {
        let buffers: BTreeMap<PathBuf, String> = self
            .documents
            .iter()
            .map(|(uri, d)| (path_of(uri), d.text.clone()))
            .collect();
        for (uri, document) in &mut self.documents {
            let path = path_of(uri);
            let study = study_path(&path, &document.text, &buffers);
            if study.files.len() == study.sources.files().len() {
                let index = Index::build(&study);
                document.known = Some(Known {
                    study: study.clone(),
                    index,
                    current: true,
                });
            } else if let Some(known) = &mut document.known {
                known.current = false;
            }
            document.study = study;
        }
    }
}

/// Studies `text` as the file at `path`, its imports read from `buffers` first, then from disk
/// (relative to `path`'s directory, as `absinthe dom check` reads them).
fn study_path(path: &Path, text: &str, buffers: &BTreeMap<PathBuf, String>) -> Study {
    let name = path.display().to_string();
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut load = |relative: &str| -> std::io::Result<(String, String)> {
        let full = dir.join(relative);
        let text = match buffers.get(&full) {
            Some(text) => text.clone(),
            None => std::fs::read_to_string(&full)?,
        };
        Ok((full.display().to_string(), text))
    };
    study_text(&name, text, &mut load)
}

/// The root file of a document's study.
pub const ROOT: FileId = 0;
