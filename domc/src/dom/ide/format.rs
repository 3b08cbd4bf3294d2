//! `absinthe dom fmt`: the layout of a `.dom` file made regular without touching a token.
//!
//! The formatter changes white space at the start and end of lines only, so it keeps every
//! comment, keeps a file with syntax errors readable, and cannot change what a file means:
//! - a line inside brackets is indented four spaces more than the line that opened them, and a
//!   line that starts with closing brackets as much as the line that opened the first;
//! - a line that continues an unfinished statement (a declaration not yet ended by `;`, or by the
//!   `}` of a `lattice`, `product` or `analysis`; an entry not yet ended by `,`; a `let` counts
//!   as part of the body after it) is indented four spaces more, as a rule's body after its `=`
//!   is, and a line that starts with an infix operator (`&&`, `||`, `+`, …) four more again;
//! - trailing white space is removed, tabs become spaces, runs of blank lines become one, and
//!   the file ends with one newline.

use super::tokens::{Class, tokens};

/// Spaces per level.
const INDENT: usize = 4;

/// A bracket still open.
struct Frame {
    /// The indentation of the line that opened it.
    indent: usize,
    /// The first word of the statement it opened in (`lattice`, `transfer`, …).
    head: Option<String>,
}

/// Declarations whose body in braces ends them (a rule's `{ … }` is an expression that may go on:
/// `} else {`).
const BLOCK_DECLARATIONS: [&str; 3] = ["lattice", "product", "analysis"];

/// `text` formatted.
pub fn format(text: &str) -> String {
    let tokens = tokens(text);
    let mut out = String::with_capacity(text.len());
    let mut open: Vec<Frame> = Vec::new();
    // The first word of the statement in progress at the current depth, if one is.
    let mut statement: Option<String> = None;
    let mut blank_run = 0;
    let mut next = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let content = line.trim();
        if content.is_empty() {
            blank_run += 1;
            continue;
        }
        if blank_run > 0 && !out.is_empty() {
            out.push('\n');
        }
        blank_run = 0;
        // The tokens that start on this line.
        while next < tokens.len() && tokens[next].span.start < start {
            next += 1;
        }
        let mut end = next;
        while end < tokens.len() && tokens[end].span.start < offset {
            end += 1;
        }
        let line_tokens = &tokens[next..end];
        let leading_closers = line_tokens
            .iter()
            .take_while(|t| t.class == Class::Close)
            .count();
        // The indentation of the brackets the line opens: an infix line's block closes where the
        // statement's continuation does (`    if a` / `        || b {` / `    }`).
        let mut frame_indent = None;
        let indent = if leading_closers > 0 {
            let depth = open.len().saturating_sub(leading_closers);
            open.get(depth).map_or(0, |f| f.indent)
        } else {
            let base = open.last().map_or(0, |f| f.indent + INDENT);
            // A line that starts with an infix operator goes on the line before it, one level
            // further than the statement's own continuation.
            let infix = line_tokens.first().is_some_and(|t| {
                t.class == Class::Punct && "&|+*/%=<>^".contains(&text[t.span.clone()])
            });
            base + match (statement.is_some(), infix) {
                (false, _) => 0,
                (true, false) => INDENT,
                (true, true) => {
                    frame_indent = Some(base + INDENT);
                    2 * INDENT
                }
            }
        };
        for _ in 0..indent {
            out.push(' ');
        }
        out.push_str(&content.replace('\t', "    "));
        out.push('\n');
        let at_start = statement.clone();
        let code: Vec<&str> = line_tokens
            .iter()
            .filter(|t| t.class != Class::Comment)
            .map(|t| &text[t.span.clone()])
            .collect();
        for (token, word) in line_tokens
            .iter()
            .filter(|t| t.class != Class::Comment)
            .zip(&code)
        {
            match token.class {
                Class::Open => {
                    open.push(Frame {
                        indent: frame_indent.unwrap_or(indent),
                        head: statement.take().or_else(|| Some(word.to_string())),
                    });
                }
                Class::Close => {
                    statement = open.pop().and_then(|f| f.head);
                }
                _ if statement.is_none() => statement = Some(word.to_string()),
                _ => {}
            }
        }
        match code.last().copied() {
            // A `let` ends with `;` inside the body it starts, which goes on as the line began.
            Some(";") if code.first() == Some(&"let") => statement = at_start,
            Some(";" | ",") => statement = None,
            Some("}")
                if statement
                    .as_deref()
                    .is_some_and(|h| BLOCK_DECLARATIONS.contains(&h)) =>
            {
                statement = None;
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squeeze(s: &str) -> String {
        s.chars().filter(|c| !c.is_whitespace()).collect()
    }

    #[test]
    fn a_rule_and_its_match_are_indented_by_depth_and_continuation() {
        let messy = "// A rule.\n\n\n  meet_ext r(x: Interval, c: Const) -> Interval =   \nmatch c {\n\t\tConst::Value(v) => x,\n      _ => x,\n        };\nlattice L { a: Interval } with {\ncontains(u, v) = true;\n}\n\n";
        let want = "// A rule.\n\nmeet_ext r(x: Interval, c: Const) -> Interval =\n    match c {\n        Const::Value(v) => x,\n        _ => x,\n    };\nlattice L { a: Interval } with {\n    contains(u, v) = true;\n}\n";
        assert_eq!(format(messy), want);
        assert_eq!(format(want), want);
    }

    #[test]
    fn an_if_chain_closes_at_the_depth_that_opened_it() {
        let text = "fn f(x: int) -> int =\n    if x < 0 {\n        0\n    } else if x > 9 {\n        9\n    } else {\n        x\n    };\n";
        assert_eq!(format(text), text);
    }

    #[test]
    fn every_dom_file_of_the_repository_is_formatted() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
        let mut seen = 0;
        for dir in ["dsl-examples/dom", "domc/test_data/codegen/ok"] {
            let dir = std::path::Path::new(root).join(dir);
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.extension().is_none_or(|e| e != "dom") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).expect("readable");
                let once = format(&text);
                assert_eq!(
                    squeeze(&once),
                    squeeze(&text),
                    "{}: tokens kept",
                    path.display()
                );
                assert_eq!(
                    format(&once),
                    once,
                    "{}: formatting twice changes nothing",
                    path.display()
                );
                assert_eq!(
                    once,
                    text,
                    "{}: run `absinthe dom fmt` on it",
                    path.display()
                );
                seen += 1;
            }
        }
        assert!(seen > 10, "the repository's .dom files were found ({seen})");
    }
}
