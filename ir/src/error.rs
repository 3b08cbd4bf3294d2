//! Parse errors of both text formats, as values with a place (`file:line:col`).
//!
//! Syntax errors from pest are translated here into readable text ("expected `=`"), so rule
//! names never reach the user.

use std::fmt;

/// An error in a source text, with the position (1-based line and column, in characters) it
/// was found at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The file name given to the parser.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub col: usize,
    /// What is wrong, as a sentence fragment.
    pub message: String,
    /// For syntax errors, what the parser would have accepted at that place.
    pub expected: Option<String>,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.line, self.col, self.message
        )
    }
}

impl std::error::Error for ParseError {}

/// Renders a list of errors one per line, for tests and tools.
pub fn render_errors(errors: &[ParseError]) -> String {
    let mut out = String::new();
    for e in errors {
        out.push_str(&e.to_string());
        out.push('\n');
    }
    out
}

/// The 1-based line and character column of byte offset `pos` in `text`.
pub(crate) fn line_col(text: &str, pos: usize) -> (usize, usize) {
    let mut pos = pos.min(text.len());
    while !text.is_char_boundary(pos) {
        pos -= 1;
    }
    let before = &text[..pos];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[line_start..].chars().count() + 1;
    (line, col)
}

/// Builds a [`ParseError`] at byte offset `pos`.
pub(crate) fn error_at(file: &str, text: &str, pos: usize, message: String) -> ParseError {
    let (line, col) = line_col(text, pos);
    ParseError {
        file: file.to_string(),
        line,
        col,
        message,
        expected: None,
    }
}

/// Describes what stands at byte offset `pos`: "end of file", "end of line" or the token.
fn found_at(text: &str, pos: usize) -> String {
    let rest = text.get(pos..).unwrap_or("");
    let Some(first) = rest.chars().next() else {
        return "end of file".to_string();
    };
    if first == '\n' || first == '\r' {
        return "end of line".to_string();
    }
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let token: String = if is_word(first) {
        rest.chars().take_while(|&c| is_word(c)).take(40).collect()
    } else if first == '-' && rest[1..].starts_with(|c: char| c.is_ascii_digit()) {
        let digits: String = rest[1..]
            .chars()
            .take_while(char::is_ascii_digit)
            .take(40)
            .collect();
        format!("-{digits}")
    } else {
        first.to_string()
    };
    format!("`{}`", token.escape_debug())
}

/// Joins descriptions as "a, b or c", sorted and without duplicates.
fn join_alternatives(mut items: Vec<&'static str>) -> String {
    items.sort_unstable();
    items.dedup();
    match items.split_last() {
        None => "something else".to_string(),
        Some((last, [])) => (*last).to_string(),
        Some((last, init)) => format!("{} or {}", init.join(", "), last),
    }
}

/// Translates a pest error, describing each expected rule with `describe`.
pub(crate) fn from_pest<R: pest::RuleType>(
    file: &str,
    text: &str,
    err: &pest::error::Error<R>,
    describe: impl Fn(R) -> &'static str,
) -> ParseError {
    use pest::error::{ErrorVariant, InputLocation};
    let pos = match err.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((p, _)) => p,
    };
    let expected = match &err.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            join_alternatives(positives.iter().map(|r| describe(*r)).collect())
        }
        ErrorVariant::CustomError { message } => message.clone(),
    };
    let found = found_at(text, pos);
    let mut e = error_at(
        file,
        text,
        pos,
        format!("expected {expected}, found {found}"),
    );
    e.expected = Some(expected);
    e
}
