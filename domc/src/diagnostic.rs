//! Diagnostics as values: a message at a byte range of a source file, with a label and an
//! optional help line. Only the edges (the CLI, the build helper, `include_dom!`) render them,
//! with codespan-reporting, as `file:line:col` plus the source line.

use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, Config};
use std::ops::Range;

/// The `.dom` files one compilation read, in the order it read them.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
}

/// One source file: the name it is reported under, and its text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path as given (relative paths stay relative, so messages do not depend on the machine).
    pub name: String,
    /// The file's text.
    pub text: String,
}

/// Index of a file in [`Sources`].
pub type FileId = usize;

impl Sources {
    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile {
            name: name.into(),
            text: text.into(),
        });
        self.files.len() - 1
    }

    /// The file `id`.
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id]
    }

    /// Every file, in the order they were read.
    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }

    /// The 1-based line and column of byte `offset` in file `id`.
    pub fn line_col(&self, id: FileId, offset: usize) -> (usize, usize) {
        let text = &self.files[id].text;
        let offset = offset.min(text.len());
        let before = &text[..floor_char_boundary(text, offset)];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// One problem found in a `.dom` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file.
    pub file: FileId,
    /// The byte range the problem is about.
    pub span: Range<usize>,
    /// What is wrong, as a sentence without a final period.
    pub message: String,
    /// A short label under the range.
    pub label: String,
    /// How to fix it, if there is a likely fix.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic at `span` of `file`.
    pub fn new(
        file: FileId,
        span: Range<usize>,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            file,
            span,
            message: message.into(),
            label: label.into(),
            help: None,
        }
    }

    /// The same diagnostic with a help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }
}

/// Renders diagnostics as plain text (no colours): for each, `error: message`, the place as
/// `file:line:col`, the source line with the range underlined and labelled, and the help line.
pub fn render(diagnostics: &[Diagnostic], sources: &Sources) -> String {
    let mut files = SimpleFiles::new();
    for file in sources.files() {
        files.add(file.name.clone(), file.text.clone());
    }
    let config = Config::default();
    let mut out = term::termcolor::NoColor::new(Vec::new());
    for d in diagnostics {
        let mut report = Report::error().with_message(&d.message).with_labels(vec![
            Label::primary(d.file, d.span.clone()).with_message(&d.label),
        ]);
        if let Some(help) = &d.help {
            report = report.with_notes(vec![format!("help: {help}")]);
        }
        // Rendering into memory cannot fail for spans inside the file; a span past its end is
        // clamped by the caller, so an error here only loses the pretty form.
        if term::emit(&mut out, &config, &files, &report).is_err() {
            let (line, col) = sources.line_col(d.file, d.span.start);
            let name = &sources.get(d.file).name;
            let text = format!("error: {}\n  --> {name}:{line}:{col}\n", d.message);
            out.get_mut().extend_from_slice(text.as_bytes());
        }
    }
    String::from_utf8_lossy(&out.into_inner()).into_owned()
}

/// A failed compilation: every diagnostic found, and the files they point into.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The diagnostics, in the order they were found (by phase, then by position).
    pub diagnostics: Vec<Diagnostic>,
    /// The files read.
    pub sources: Sources,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&render(&self.diagnostics, &self.sources))
    }
}

impl std::error::Error for Failure {}

/// The candidate closest to `name` by edit distance (insertions, deletions, substitutions and
/// swaps of neighbors, ignoring case), if it is close enough to be a likely typo: at most one
/// edit for names up to 5 characters, a third of the length beyond. Names of one or two
/// characters get no suggestion (every short name is close to every other). Ties go to the candidate
/// that comes first in sorted order, so the suggestion never depends on declaration order.
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    if name.chars().count() < 3 {
        return None;
    }
    let limit = (name.chars().count() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if c == name || c.is_empty() {
            continue;
        }
        let d = edit_distance(&name.to_lowercase(), &c.to_lowercase());
        if d <= limit && best.is_none_or(|(bd, bc)| (d, c) < (bd, bc)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// `did you mean `x`?` for [`suggest`]'s answer.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    suggest(name, candidates).map(|c| format!("did you mean `{c}`?"))
}

/// Optimal string alignment distance.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_are_close_names() {
        let names = ["Sign", "Parity", "Interval", "int", "bool"];
        assert_eq!(suggest("Sgin", names), Some("Sign"));
        assert_eq!(suggest("Sgn", names), Some("Sign"));
        assert_eq!(suggest("Intreval", names), Some("Interval"));
        assert_eq!(suggest("itn", names), Some("int"));
        assert_eq!(suggest("Bool", names), Some("bool"));
        assert_eq!(suggest("Zebra", names), None);
        assert_eq!(suggest("x", names), None);
        // Ties go to the first in sorted order.
        assert_eq!(suggest("abc", ["abd", "abb"]), Some("abb"));
        assert_eq!(suggest("Q", ["P"]), None);
    }
}
