//! Splitting the text of a `.ll` module into pieces that LLVM can parse on separate threads.
//!
//! LLVM's parser is single-threaded and, on large modules, takes most of an end-to-end run. A
//! piece is the whole module except that the bodies of the functions other pieces own are
//! replaced by `unreachable`: every global, declaration, attribute group and metadata node is
//! kept, and so is every `define` line, so each piece has the same globals and the same
//! functions in the same order as the whole module, and the functions a piece owns are exactly
//! the module's. The pieces' bodies are disjoint, so parsing them in parallel does the
//! module's work once, plus the (small) rest of the module once per piece.
//!
//! The split reads the layout LLVM prints: each `define` on one line that ends with `{`, its body
//! closed by a line holding only `}`. [`split`] declines (`None`) text it cannot split that way,
//! text where a string constant may span lines, and modules whose constants name other
//! functions' blocks (`blockaddress`, `uselistorder_bb`), which a stub body would break.
//! Within those checks, a line that is only `}` but does not close its function (a hand-written
//! constant spread over lines) leaves instructions outside any function, which LLVM rejects; the
//! reader ([`crate::pieces`]) then reads the module whole, as it does when the pieces disagree.

use std::ops::Range;

/// A module's text cut into pieces (each piece's text is made by [`Pieces::text`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pieces<'t> {
    parts: Vec<Part<'t>>,
    /// For each piece, the functions it owns, as positions among the module's definitions
    /// (consecutive, in the module's order).
    pub owned: Vec<Range<usize>>,
    /// The number of function definitions in the module.
    pub definitions: usize,
    /// The length of the module's text.
    len: usize,
}

impl Pieces<'_> {
    /// The text of piece `k`: the module with the bodies of the functions other pieces own
    /// replaced by `unreachable`.
    pub fn text(&self, k: usize) -> String {
        let owned = self.owned.get(k).cloned().unwrap_or_default();
        let mut text = String::with_capacity(self.len / self.owned.len().max(1));
        let mut definition = 0;
        for part in &self.parts {
            match part {
                Part::Shared(shared) => text.push_str(shared),
                Part::Define { head, body } => {
                    text.push_str(head);
                    if owned.contains(&definition) {
                        text.push_str(body);
                    } else {
                        text.push_str("  unreachable\n}\n");
                    }
                    definition += 1;
                }
            }
        }
        text
    }
}

/// One top-level part of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Part<'t> {
    /// Anything but a function definition, kept in every piece.
    Shared(&'t str),
    /// A definition: its `define … {` line (with its line break) and the rest, up to and
    /// including its closing `}`.
    Define { head: &'t str, body: &'t str },
}

/// Splits `text` into at most `pieces` pieces of about equal body size; `None` when the text is
/// not laid out as [`split`](self) expects, or has fewer than two definitions to share out.
pub fn split(text: &str, pieces: usize) -> Option<Pieces<'_>> {
    if pieces < 2 || text.contains("blockaddress(") || text.contains("uselistorder") {
        return None;
    }
    let parts = parts(text)?;
    let sizes: Vec<usize> = parts
        .iter()
        .filter_map(|p| match p {
            Part::Define { body, .. } => Some(body.len()),
            Part::Shared(_) => None,
        })
        .collect();
    let definitions = sizes.len();
    let owned = share(&sizes, pieces.min(definitions));
    if owned.len() < 2 {
        return None;
    }
    Some(Pieces {
        parts,
        owned,
        definitions,
        len: text.len(),
    })
}

/// The top-level parts of `text`, in order.
fn parts(text: &str) -> Option<Vec<Part<'_>>> {
    let mut parts = Vec::new();
    let mut shared_from = 0;
    let mut at = 0;
    let mut define: Option<(usize, usize)> = None; // (start of the define, end of its line)
    while at < text.len() {
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
        let line = &text[at..end];
        // A string constant may hold a line break (LLVM prints it as `\0A`, but a hand-written
        // module need not): a line with an odd number of quotes could leave a `define` or a `}`
        // inside a string, so such text is not split (a quote in a comment is read as one too,
        // which only costs the split).
        if line.bytes().filter(|&b| b == b'"').count() % 2 == 1 {
            return None;
        }
        match define {
            None if line.starts_with("define ") => {
                if !line.trim_end().ends_with('{') {
                    return None;
                }
                if shared_from < at {
                    parts.push(Part::Shared(&text[shared_from..at]));
                }
                define = Some((at, end));
            }
            Some((start, head_end)) if line.trim_end() == "}" => {
                parts.push(Part::Define {
                    head: &text[start..head_end],
                    body: &text[head_end..end],
                });
                define = None;
                shared_from = end;
            }
            _ => {}
        }
        at = end;
    }
    if define.is_some() {
        return None;
    }
    if shared_from < text.len() {
        parts.push(Part::Shared(&text[shared_from..]));
    }
    Some(parts)
}

/// Consecutive ranges of definitions, at most `pieces` of them, of about equal total size.
fn share(sizes: &[usize], pieces: usize) -> Vec<Range<usize>> {
    let total: usize = sizes.iter().sum();
    let mut owned = Vec::with_capacity(pieces);
    let mut start = 0;
    let mut sum = 0;
    for (i, size) in sizes.iter().enumerate() {
        sum += size;
        let k = owned.len() + 1;
        // Close the piece once it holds its share (the last piece takes the rest).
        if k < pieces && sum * pieces >= total * k {
            owned.push(start..i + 1);
            start = i + 1;
        }
    }
    if start < sizes.len() {
        owned.push(start..sizes.len());
    }
    owned
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODULE: &str = "@g = global i32 1\n\ndefine i32 @a(i32 %x) {\nentry:\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n\ndeclare void @d()\n\ndefine internal { i32, i32 } @b() {\n  ret { i32, i32 } { i32 1, i32 2 }\n}\n\ndefine void @c() {\n  call void @d()\n  ret void\n}\n!0 = !{}\n";

    #[test]
    fn every_piece_keeps_the_rest_and_owns_its_bodies() {
        let pieces = split(MODULE, 2).expect("splits");
        assert_eq!(pieces.definitions, 3);
        assert_eq!(pieces.owned, vec![0..2, 2..3]);
        assert_eq!(
            pieces.text(1),
            "@g = global i32 1\n\ndefine i32 @a(i32 %x) {\n  unreachable\n}\n\ndeclare void @d()\n\ndefine internal { i32, i32 } @b() {\n  unreachable\n}\n\ndefine void @c() {\n  call void @d()\n  ret void\n}\n!0 = !{}\n"
        );
        assert!(pieces.text(0).contains("  %y = add i32 %x, 1\n"));
        assert!(pieces.text(0).contains("ret { i32, i32 } { i32 1, i32 2 }"));
        assert!(
            pieces
                .text(0)
                .contains("define void @c() {\n  unreachable\n}\n")
        );
    }

    #[test]
    fn shares_are_consecutive_and_cover_every_definition() {
        for sizes in [
            vec![5, 1, 1, 1, 1, 1],
            vec![1; 7],
            vec![1, 1, 100],
            vec![3, 9],
        ] {
            for pieces in 1..6 {
                let owned = share(&sizes, pieces);
                assert!(owned.len() <= pieces && !owned.is_empty());
                let mut next = 0;
                for range in &owned {
                    assert_eq!(range.start, next);
                    assert!(range.end > range.start);
                    next = range.end;
                }
                assert_eq!(next, sizes.len());
            }
        }
    }

    #[test]
    fn declines_what_it_cannot_split() {
        assert_eq!(split(MODULE, 1), None);
        assert_eq!(split("define void @f() { ret void }\n", 2), None);
        assert_eq!(split("define void @f() {\n  ret void\n", 2), None);
        assert_eq!(split("define void @f() {\n  ret void\n}\n", 2), None);
        let address = MODULE.replace("!0 = !{}", "@p = global ptr blockaddress(@a, %entry)");
        assert_eq!(split(&address, 2), None);
        let string = MODULE.replace("!0 = !{}", "@s = constant [9 x i8] c\"x\n}\ndefine\"");
        assert_eq!(split(&string, 2), None);
    }
}
