//! The words of a `.dom` text as an editor colours them, read without parsing (so that a file
//! with a syntax error is still coloured): comments, strings, numbers, keywords, names and
//! punctuation, by byte range. The formatter reads the brackets from the same scan.

use std::ops::Range;

/// The keywords of the grammar (`keyword` in `grammar.pest`), and its contextual words
/// (`recursion`, `relation`, `packs`, `backward`: keywords only where the grammar expects them, names
/// elsewhere, coloured as keywords everywhere).
pub const KEYWORDS: [&str; 35] = [
    "import",
    "extern",
    "type",
    "fn",
    "lattice",
    "flat",
    "finite",
    "sum",
    "smash",
    "with",
    "product",
    "reduce",
    "direct",
    "uses",
    "meet_ext",
    "transfer",
    "on",
    "literal",
    "any",
    "assume",
    "analysis",
    "let",
    "if",
    "else",
    "match",
    "true",
    "false",
    "never",
    "once",
    "fixpoint",
    "builtin",
    "recursion",
    "relation",
    "packs",
    "backward",
];

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// `// …` to the end of the line.
    Comment,
    /// `"…"`.
    String,
    /// A decimal, hexadecimal or binary integer.
    Number,
    /// A keyword of [`KEYWORDS`].
    Keyword,
    /// A name.
    Ident,
    /// `{`, `(` or `[`.
    Open,
    /// `}`, `)` or `]`.
    Close,
    /// Any other character that is not white space.
    Punct,
}

/// One token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub class: Class,
    /// Its byte range.
    pub span: Range<usize>,
}

/// The tokens of `text`, in order; white space is left out.
pub fn tokens(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        let class = match c {
            b' ' | b'\t' | b'\r' | b'\n' => {
                i += 1;
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                Class::Comment
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += 1;
                }
                if bytes.get(i) == Some(&b'"') {
                    i += 1;
                }
                Class::String
            }
            b'0'..=b'9' => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                Class::Number
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                if KEYWORDS.contains(&&text[start..i]) {
                    Class::Keyword
                } else {
                    Class::Ident
                }
            }
            b'{' | b'(' | b'[' => {
                i += 1;
                Class::Open
            }
            b'}' | b')' | b']' => {
                i += 1;
                Class::Close
            }
            _ => {
                // One character, whole (a name or string of another script is still one token);
                // white space of any kind is skipped, as the formatter's trimming skips it.
                let Some(c) = text[i..].chars().next() else {
                    unreachable!("byte {i} is before the end of the text, on a character boundary")
                };
                i += c.len_utf8();
                if c.is_whitespace() {
                    continue;
                }
                Class::Punct
            }
        };
        out.push(Token {
            class,
            span: start..i,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_is_read_and_nothing_is_lost() {
        let text =
            "lattice Sign = finite { Neg } // done\ntransfer t on \"+\" (x: int) -> int = 0x1f;";
        let classes: Vec<(Class, &str)> = tokens(text)
            .into_iter()
            .map(|t| (t.class, &text[t.span]))
            .collect();
        assert_eq!(
            &classes[..6],
            &[
                (Class::Keyword, "lattice"),
                (Class::Ident, "Sign"),
                (Class::Punct, "="),
                (Class::Keyword, "finite"),
                (Class::Open, "{"),
                (Class::Ident, "Neg"),
            ]
        );
        assert!(classes.contains(&(Class::Comment, "// done")));
        assert!(classes.contains(&(Class::String, "\"+\"")));
        assert!(classes.contains(&(Class::Number, "0x1f")));
        let kept: String = classes.iter().map(|(_, s)| *s).collect();
        let all: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(kept.replace(' ', ""), all);
    }

    #[test]
    fn the_keywords_are_the_grammars() {
        let grammar = include_str!("../grammar.pest");
        let rule = grammar
            .split("keyword = @{")
            .nth(1)
            .and_then(|rest| rest.split('}').next())
            .expect("the grammar has a keyword rule");
        for word in rule.split('"').skip(1).step_by(2) {
            assert!(
                KEYWORDS.contains(&word),
                "`{word}` is a keyword of the grammar"
            );
        }
        let listed = rule.split('"').skip(1).step_by(2).count();
        // The contextual words: rules `NAME_kw = @{ "word" ~ !ident_char }`.
        let contextual: Vec<&str> = grammar
            .lines()
            .filter(|l| l.contains("_kw") && l.contains("!ident_char"))
            .filter_map(|l| l.split('"').nth(1))
            .collect();
        for word in &contextual {
            assert!(KEYWORDS.contains(word), "`{word}` is a contextual word");
        }
        assert_eq!(listed + contextual.len(), KEYWORDS.len(), "{contextual:?}");
    }
}
