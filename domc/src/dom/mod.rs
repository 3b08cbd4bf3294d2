//! The `.dom` front end: [`check_file`] reads and parses every file (following `import`s) and
//! checks them together into the typed tree, which the interpreter runs; [`compile_file`] and
//! [`compile_text`] also generate Rust from the tree and the model, and format it.

pub mod ast;
mod check;
mod emit;
pub mod ide;
mod parser;
mod rust;
pub mod sema;
pub mod syntax;
mod syntax_errors;
pub mod tree;
pub mod types;

use crate::diagnostic::{Diagnostic, Failure, Sources};
use std::path::{Path, PathBuf};

pub use rust::Inlining;
pub use sema::{AnalysisDecl, Place};

/// A `.dom` file and its imports, checked: what running it needs, and no Rust.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The name of the Rust module the file generates (the root file's stem).
    pub module: String,
    /// Every file read, the root first.
    pub sources: Sources,
    /// The analyses declared, in order.
    pub analyses: Vec<AnalysisDecl>,
    /// The checked program as data: the typed tree.
    pub program: tree::Program,
}

/// The result of compiling a `.dom` file.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The name of the generated Rust module (the root file's stem).
    pub module: String,
    /// The generated Rust: a header, then `pub mod <module> { … }`, formatted.
    pub rust: String,
    /// Every file read, the root first.
    pub sources: Sources,
    /// The analyses declared, in order.
    pub analyses: Vec<AnalysisDecl>,
    /// The Rust names of every lattice declared (for law tests).
    pub lattices: Vec<String>,
    /// The Rust names of every product declared, direct products included (for law tests).
    pub products: Vec<String>,
    /// The checked program as data: the tree `rust` was generated from.
    pub program: tree::Program,
}

/// Compiles the file at `path` and the files it imports (paths relative to the importing file).
pub fn compile_file(path: &Path) -> Result<Compiled, Failure> {
    compile_file_with(path, Inlining::Rules)
}

/// [`compile_file`], the functions marked or not by `inlining`.
pub fn compile_file_with(path: &Path, inlining: Inlining) -> Result<Compiled, Failure> {
    check_file(path).map(|checked| generate(checked, inlining))
}

/// Checks the file at `path` and the files it imports (paths relative to the importing file),
/// generating no Rust.
pub fn check_file(path: &Path) -> Result<Checked, Failure> {
    let name = path.display().to_string();
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut load = |relative: &str| -> std::io::Result<(String, String)> {
        let full: PathBuf = if relative == name {
            path.to_path_buf()
        } else {
            dir.join(relative)
        };
        let text = std::fs::read_to_string(&full)?;
        Ok((full.display().to_string(), text))
    };
    check_with(&name, &mut load)
}

/// Compiles `text` as the file `name`; `import "x.dom"` reads `x.dom` through `load`, which
/// returns the name to report the file under and its text.
pub fn compile_text(
    name: &str,
    text: &str,
    load: &mut dyn FnMut(&str) -> std::io::Result<(String, String)>,
) -> Result<Compiled, Failure> {
    check_text(name, text, load).map(|checked| generate(checked, Inlining::Rules))
}

/// Checks `text` as the file `name` (imports read as [`compile_text`] reads them), generating
/// no Rust.
pub fn check_text(
    name: &str,
    text: &str,
    load: &mut dyn FnMut(&str) -> std::io::Result<(String, String)>,
) -> Result<Checked, Failure> {
    with_root(name, text, load, |loader| check_with(name, loader))
}

/// Runs `f` with a loader that gives `text` for the first read of `name` (the root) and reads
/// every other file through `load`.
fn with_root<R>(
    name: &str,
    text: &str,
    load: &mut dyn FnMut(&str) -> std::io::Result<(String, String)>,
    f: impl FnOnce(&mut dyn FnMut(&str) -> std::io::Result<(String, String)>) -> R,
) -> R {
    let mut first = true;
    let mut loader = |path: &str| -> std::io::Result<(String, String)> {
        if first && path == name {
            first = false;
            return Ok((name.to_string(), text.to_string()));
        }
        load(path)
    };
    f(&mut loader)
}

/// The file and range of an `import` (for a file that cannot be read).
type ImportSite = (usize, std::ops::Range<usize>);

/// The stack every phase runs on, whatever the caller's (a test thread has 2 MiB): the syntax
/// phase rejects what nests more than [`syntax::MAX_NESTING`] levels, and at that depth the
/// later phases, which recurse over the tree, need about 16 MiB in a debug build.
const STACK: usize = 64 << 20;

fn check_with(
    root: &str,
    load: &mut dyn FnMut(&str) -> std::io::Result<(String, String)>,
) -> Result<Checked, Failure> {
    stacker::maybe_grow(STACK / 2, STACK, || check_on_stack(root, load))
}

/// The Rust of a checked file: the tree and the model, generated and formatted.
fn generate(checked: Checked, inlining: Inlining) -> Compiled {
    let (rust, lattices, products) = stacker::maybe_grow(STACK / 2, STACK, || {
        emit::emit(
            &checked.module,
            &checked.sources.get(0).name,
            &checked.program,
            &checked.analyses,
            inlining,
        )
    });
    Compiled {
        module: checked.module,
        rust,
        sources: checked.sources,
        analyses: checked.analyses,
        lattices,
        products,
        program: checked.program,
    }
}

fn check_on_stack(
    root: &str,
    load: &mut dyn FnMut(&str) -> std::io::Result<(String, String)>,
) -> Result<Checked, Failure> {
    let (sources, files, diagnostics) = read_all(root, load);
    // Report every syntax error before checking anything.
    if !diagnostics.is_empty() {
        return Err(Failure {
            diagnostics,
            sources,
        });
    }
    match sema::check(&files) {
        Ok(checked) => Ok(Checked {
            module: module_name(root),
            sources,
            analyses: checked.analyses,
            program: checked.program,
        }),
        Err(diagnostics) => Err(Failure {
            diagnostics,
            sources,
        }),
    }
}

/// A file that parsed: where it is, and its items.
pub type Parsed = (Place, Vec<ast::Item>);

/// A `.dom` file and its imports as an editor sees them: whatever parsed, every error, and the
/// type of every expression that was checked.
#[derive(Clone, Debug)]
pub struct Study {
    /// Every file read, the root first.
    pub sources: Sources,
    /// The files that parsed, with their items, imported files first.
    pub files: Vec<Parsed>,
    /// The syntax errors of every file, or else the errors of checking them together.
    pub diagnostics: Vec<Diagnostic>,
    /// The type of every expression checked (none when a file has a syntax error).
    pub typed: Vec<sema::Typed>,
}

/// Reads `text` as the file `name` (imports read through `load`, as [`check_text`] reads them)
/// and checks it as far as it goes, keeping what an editor needs even when there are errors.
pub fn study_text(
    name: &str,
    text: &str,
    load: &mut dyn FnMut(&str) -> std::io::Result<(String, String)>,
) -> Study {
    with_root(name, text, load, |loader| {
        stacker::maybe_grow(STACK / 2, STACK, || study_on_stack(name, loader))
    })
}

fn study_on_stack(
    name: &str,
    loader: &mut dyn FnMut(&str) -> std::io::Result<(String, String)>,
) -> Study {
    let (sources, files, mut diagnostics) = read_all(name, loader);
    let mut typed = Vec::new();
    if diagnostics.is_empty() {
        let (checked, types) = sema::check_typed(&files);
        typed = types;
        if let Err(errors) = checked {
            diagnostics = errors;
        }
    }
    Study {
        sources,
        files,
        diagnostics,
        typed,
    }
}

/// Reads and parses `root` and, breadth-first, every file it imports: the sources, the files
/// that parsed (imported files first, so that their declarations read in dependency order), and
/// every error of reading and parsing.
fn read_all(
    root: &str,
    load: &mut dyn FnMut(&str) -> std::io::Result<(String, String)>,
) -> (Sources, Vec<Parsed>, Vec<Diagnostic>) {
    let mut sources = Sources::default();
    let mut diagnostics = Vec::new();
    // Read and parse the root and, breadth-first, every file it imports.
    let mut files: Vec<(Place, Vec<ast::Item>)> = Vec::new();
    let mut queue: Vec<(String, Option<ImportSite>)> = vec![(root.to_string(), None)];
    let mut read: Vec<String> = Vec::new();
    while let Some((path, from)) = queue.pop() {
        if read.contains(&path) {
            continue;
        }
        read.push(path.clone());
        let (name, text) = match load(&path) {
            Ok(found) => found,
            Err(error) => {
                match from {
                    Some((file, span)) => diagnostics.push(
                        Diagnostic::new(
                            file,
                            span,
                            format!("cannot read `{path}`: {error}"),
                            "imported here",
                        )
                        .with_help("import paths are relative to the importing file"),
                    ),
                    None => {
                        let id = sources.add(path.clone(), String::new());
                        diagnostics.push(Diagnostic::new(
                            id,
                            0..0,
                            format!("cannot read `{path}`: {error}"),
                            "no such file",
                        ));
                    }
                }
                continue;
            }
        };
        let id = sources.add(name.clone(), text.clone());
        match syntax::parse(id, &text) {
            Ok(file) => {
                for item in &file.items {
                    if let ast::Item::Import {
                        path: imported,
                        span,
                    } = item
                    {
                        queue.push((imported.clone(), Some((id, span.clone()))));
                    }
                }
                let line_starts = std::iter::once(0)
                    .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                    .collect();
                files.push((
                    Place {
                        file: id,
                        file_name: name,
                        line_starts,
                    },
                    file.items,
                ));
            }
            Err(d) => diagnostics.push(d),
        }
    }
    files.reverse();
    (sources, files, diagnostics)
}

/// The Rust module name for a file: its stem, with anything but letters, digits and `_` made `_`.
pub fn module_name(path: &str) -> String {
    let stem = Path::new(path)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "dom".into());
    let mut name: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, '_');
    }
    name
}
