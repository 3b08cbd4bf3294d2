//! Completion: what may be written at the cursor, read from the text before it (which need not
//! parse: completion happens mid-word) and from the index of the last study.
//!
//! After `T::` come `T`'s elements or variants, `top` and `bottom` (`Op::` the operations,
//! `int::` its extremes, a runtime lattice its functions); after `x.` the fields or components
//! of `x`'s type; elsewhere the keywords, the declarations, the names in scope, the built-in
//! functions and types.

use super::index::{Index, Kind};
use super::tokens::{Class, KEYWORDS, tokens};
use crate::diagnostic::FileId;
use crate::dom::check::BUILTIN_FUNCTIONS;
use crate::dom::types::Numeric;
use crate::model::{COMPARISONS, OPERATIONS};

/// What a completion is, for the editor's icon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum What {
    /// A keyword.
    Keyword,
    /// A lattice, product or other type.
    Type,
    /// A function, rule or reduction.
    Function,
    /// An element, variant or operation.
    Variant,
    /// A field or component.
    Field,
    /// A parameter or local.
    Variable,
}

/// One completion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    /// What is inserted.
    pub label: String,
    /// What it is.
    pub what: What,
    /// A short description.
    pub detail: String,
}

/// The functions of the runtime's lattices a `.dom` body may call as `T::f(…)`, with their
/// parameters (the checker's `check/calls.rs` accepts exactly these; a test holds them equal).
pub const RUNTIME_FUNCTIONS: [(&str, &[&str]); 11] = [
    (
        "Interval",
        &[
            "new(lo, hi)",
            "constant(c)",
            "lo(i)",
            "hi(i)",
            "is_constant(i)",
            "contains(i, v)",
            "binary(op, a, b)",
            "assume(op, a, b)",
        ],
    ),
    (
        "Address",
        &[
            "at(s, o)",
            "moved(a, k)",
            "is_known(a)",
            "symbol(a)",
            "offset(a)",
            "contains(a, v)",
        ],
    ),
    ("Names", &["none()", "one(p)", "all()", "contains(x, p)"]),
    ("Steps", &["constant(c)", "offset(p, c)"]),
    (
        "FiniteSum",
        &[
            "single(x)",
            "hull(s)",
            "meet_each(s, x)",
            "binary(op, a, b)",
            "assume(op, a, b)",
        ],
    ),
    ("Constant", &["binary(op, a, b)"]),
    (
        "Congruence",
        &[
            "new(m, r)",
            "constant(c)",
            "modulus(x)",
            "residue(x)",
            "is_constant(x)",
            "contains(x, v)",
            "binary(op, a, b)",
            "assume(op, a, b)",
        ],
    ),
    (
        "Sign",
        &[
            "of(c)",
            "contains(x, v)",
            "binary(op, a, b)",
            "assume(op, a, b)",
        ],
    ),
    (
        "Parity",
        &[
            "of(c)",
            "contains(x, v)",
            "binary(op, a, b)",
            "assume(op, a, b)",
        ],
    ),
    ("Octagon", &["bounds(o)", "within(i)"]),
    ("Zone", &["bounds(o)", "within(i)"]),
];

/// The types every file may name.
const BUILTIN_TYPES: [&str; 16] = [
    "int",
    "bool",
    "Op",
    "Param",
    "ArgKind",
    "Thresholds",
    "Interval",
    "Address",
    "Constant",
    "Congruence",
    "Parity",
    "Sign",
    "Names",
    "Steps",
    "Octagon",
    "Zone",
];

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The completions at byte `offset` of `text`, the file `file` of the study `index` was built
/// from (which may be older than `text`).
pub fn complete(index: &Index, file: FileId, text: &str, offset: usize) -> Vec<Completion> {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    if let Some(symbols) = trigger_string(before) {
        return symbols;
    }
    let word_start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_ident(*c))
        .last()
        .map_or(offset, |(i, _)| i);
    let prefix = &before[word_start..];
    let head = &before[..word_start];
    let mut out = if let Some(owner) = head.strip_suffix("::") {
        path_items(index, last_word(owner))
    } else if let Some(receiver) = head.strip_suffix('.') {
        fields(index, file, head, last_word(receiver), offset)
    } else {
        everything(index, file, offset)
    };
    out.retain(|c| c.label.starts_with(prefix));
    out.sort_by(|a, b| a.label.cmp(&b.label));
    out.dedup_by(|a, b| a.label == b.label);
    out
}

/// Inside the string of a rule's trigger (`on "…"`, `on backward "…"`, `on assume "…"`): the operation symbols
/// (the comparisons after `assume`) that start with what is typed after the quote.
fn trigger_string(before: &str) -> Option<Vec<Completion>> {
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    if line.matches('"').count() % 2 == 0 {
        return None;
    }
    let quote = line.rfind('"')?;
    let typed = &line[quote + 1..];
    let head = line[..quote].trim_end();
    let symbols: Vec<&str> = if head.ends_with("assume") {
        COMPARISONS.to_vec()
    } else if head.ends_with("on") || head.ends_with("on backward") {
        OPERATIONS.iter().map(|(s, _)| *s).collect()
    } else {
        return Some(Vec::new());
    };
    Some(
        symbols
            .into_iter()
            .filter(|s| s.starts_with(typed))
            .map(|s| {
                let variant = crate::model::op_variant(s).unwrap_or(s);
                item(s, What::Variant, format!("the operation `Op::{variant}`"))
            })
            .collect(),
    )
}

fn last_word(text: &str) -> &str {
    let start = text
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_ident(*c))
        .last()
        .map_or(text.len(), |(i, _)| i);
    &text[start..]
}

fn item(label: &str, what: What, detail: impl Into<String>) -> Completion {
    Completion {
        label: label.to_string(),
        what,
        detail: detail.into(),
    }
}

/// What may follow `owner::`.
fn path_items(index: &Index, owner: &str) -> Vec<Completion> {
    match owner {
        "Op" => OPERATIONS
            .iter()
            .map(|(symbol, variant)| {
                item(variant, What::Variant, format!("the operation `{symbol}`"))
            })
            .collect(),
        "ArgKind" => ["Param", "Const", "Other"]
            .iter()
            .map(|v| item(v, What::Variant, "what an argument term is"))
            .collect(),
        "int" => vec![
            item("MIN", What::Variant, "the least `int`"),
            item("MAX", What::Variant, "the greatest `int`"),
        ],
        "Thresholds" => vec![
            item(
                "at_least",
                What::Function,
                "at_least(t, v): the least threshold ≥ v",
            ),
            item(
                "at_most",
                What::Function,
                "at_most(t, v): the greatest threshold ≤ v",
            ),
        ],
        _ => {
            let mut out = vec![
                item("top", What::Variant, format!("⊤ of `{owner}`")),
                item("bottom", What::Variant, format!("⊥ of `{owner}`")),
            ];
            // A file's own lattice of a runtime domain's name (`Sign`) stands in its place.
            let runtime = RUNTIME_FUNCTIONS.iter().find(|(l, _)| *l == owner);
            if let (Some((_, functions)), None) = (runtime, index.global(owner)) {
                for f in *functions {
                    let name = f.split('(').next().unwrap_or(f);
                    out.push(item(name, What::Function, format!("{owner}::{f}")));
                }
                let elements = Numeric::named(owner).map_or(&[][..], Numeric::elements);
                for e in elements {
                    out.push(item(e, What::Variant, format!("an element of `{owner}`")));
                }
            }
            if let Some(def) = index.global(owner) {
                for (_, child) in index.children(def) {
                    if child.kind == Kind::Variant {
                        let detail = match &child.ty {
                            Some(t) => format!("{owner}::{}({t})", child.name),
                            None => format!("an element of `{owner}`"),
                        };
                        out.push(item(&child.name, What::Variant, detail));
                    }
                }
            }
            out
        }
    }
}

/// What may follow `receiver.`: the fields or components of its type, or of every type when
/// its type is not known.
fn fields(
    index: &Index,
    file: FileId,
    before: &str,
    receiver: &str,
    offset: usize,
) -> Vec<Completion> {
    let ty = written_type(before, receiver).or_else(|| {
        index
            .locals_at(file, offset)
            .filter(|d| d.name == receiver)
            .last()
            .and_then(|d| {
                let id = index.defs.iter().position(|x| std::ptr::eq(x, d))?;
                d.ty.clone().or_else(|| {
                    index
                        .references(id)
                        .iter()
                        .find_map(|(f, span)| index.type_at(*f, span).map(str::to_string))
                })
            })
    });
    let owner = ty.as_deref().and_then(|t| index.global(t));
    index
        .defs
        .iter()
        .filter(|d| matches!(d.kind, Kind::Field | Kind::Component))
        .filter(|d| owner.is_none() || d.parent == owner)
        .map(|d| {
            let of = d.parent.map_or("", |p| index.defs[p].name.as_str());
            let ty = d.ty.as_deref().unwrap_or("?");
            item(
                &d.name,
                What::Field,
                format!("{}: {ty} (of `{of}`)", d.name),
            )
        })
        .collect()
}

/// The type written for `name` in the nearest `name: T` before the cursor (a parameter of the
/// declaration being typed, which the last study may not have seen).
fn written_type(before: &str, name: &str) -> Option<String> {
    let words: Vec<&str> = tokens(before)
        .into_iter()
        .filter(|t| t.class != Class::Comment)
        .map(|t| &before[t.span])
        .collect();
    words
        .windows(3)
        .rev()
        .find(|w| w[0] == name && w[1] == ":" && w[2].starts_with(|c: char| c.is_ascii_uppercase()))
        .map(|w| w[2].to_string())
}

/// Everything a name may be at `offset`.
fn everything(index: &Index, file: FileId, offset: usize) -> Vec<Completion> {
    let mut out: Vec<Completion> = KEYWORDS
        .iter()
        .map(|k| item(k, What::Keyword, "keyword"))
        .collect();
    out.extend(
        (BUILTIN_TYPES.iter())
            .filter(|t| index.global(t).is_none())
            .map(|t| item(t, What::Type, "built-in type")),
    );
    out.push(item(
        "FiniteSum",
        What::Type,
        "FiniteSum<T, N>: up to N values of T",
    ));
    out.extend(
        BUILTIN_FUNCTIONS
            .iter()
            .map(|f| item(f, What::Function, "built-in function")),
    );
    for d in index.defs.iter().filter(|d| d.parent.is_none()) {
        let what = match d.kind {
            k if k.is_type() => What::Type,
            Kind::Function | Kind::ExternFn | Kind::Reduction | Kind::Rule => What::Function,
            Kind::Local | Kind::Param => continue,
            _ => What::Keyword,
        };
        out.push(item(&d.name, what, d.kind.word()));
    }
    for d in index.locals_at(file, offset) {
        let detail = match &d.ty {
            Some(t) => format!("{}: {t}", d.name),
            None => d.kind.word().to_string(),
        };
        out.push(item(&d.name, What::Variable, detail));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::study_text;

    fn no_imports(_: &str) -> std::io::Result<(String, String)> {
        Err(std::io::Error::other("no imports here"))
    }

    #[test]
    fn the_runtime_functions_are_the_ones_the_checker_takes() {
        for (lattice, functions) in RUNTIME_FUNCTIONS {
            if lattice == "Constant" {
                // One function, and no list in its error.
                let text = "fn f(op: Op, x: Constant) -> Constant = Constant::binary(op, x, x);\n";
                let study = study_text("probe.dom", text, &mut no_imports);
                assert!(study.diagnostics.is_empty(), "{:?}", study.diagnostics);
                continue;
            }
            let (alias, name) = if lattice == "FiniteSum" {
                ("type Sum = FiniteSum<Interval, 2>;\n", "Sum")
            } else {
                ("", lattice)
            };
            let text = format!("{alias}fn f(x: {name}) -> int = {name}::no_such_function(x);\n");
            let study = study_text("probe.dom", &text, &mut no_imports);
            let help = study
                .diagnostics
                .iter()
                .find_map(|d| d.help.clone())
                .unwrap_or_else(|| panic!("{lattice}: an unknown function is refused with help"));
            for f in functions {
                let name = f.split('(').next().unwrap_or(f);
                assert!(
                    help.contains(&format!("`{name}")),
                    "{lattice}: the checker lists `{name}`: {help}"
                );
            }
            let listed = help.matches('`').count() / 2;
            // The help names the lattice's functions, `top` and `bottom`, and nothing else.
            assert_eq!(listed, functions.len() + 3, "{lattice}: {help}");
        }
    }

    #[test]
    fn completion_follows_the_context_before_the_cursor() {
        let text = "lattice Sign = finite { Bot < Neg < Top, Bot < Pos < Top }\nlattice B { lo: Interval, hi: Interval }\nfn f(b: B, s: Sign) -> Interval = b.lo;\n";
        let study = study_text("t.dom", text, &mut no_imports);
        assert!(study.diagnostics.is_empty(), "{:?}", study.diagnostics);
        let index = Index::build(&study);
        let labels = |edited: &str, at: usize| -> Vec<String> {
            complete(&index, 0, edited, at)
                .into_iter()
                .map(|c| c.label)
                .collect()
        };
        let edited = text.replace("b.lo;", "Op::Ad");
        let at = edited.find("Op::Ad").unwrap() + "Op::Ad".len();
        assert_eq!(labels(&edited, at), ["Add"]);
        let edited = text.replace("b.lo;", "Sign::");
        let at = edited.find("Sign::").unwrap() + "Sign::".len();
        assert_eq!(
            labels(&edited, at),
            ["Bot", "Neg", "Pos", "Top", "bottom", "top"]
        );
        let at = text.find("b.lo").unwrap() + 2;
        assert_eq!(labels(text, at), ["hi", "lo"]);
        let edited = text.replace("b.lo;", "b.lo;\ntransfer t on assume \"u");
        let at = edited.find("\"u").unwrap() + 2;
        assert_eq!(labels(&edited, at), ["ult", "ule", "ugt", "uge"]);
        let edited = text.replace("b.lo;", "b.lo;\ntransfer t on \"f");
        let at = edited.find("\"f").unwrap() + 2;
        assert!(labels(&edited, at).contains(&"fadd".to_string()));
        let edited = text.replace("b.lo;", "b.lo;\ntransfer t on backward \"u");
        let at = edited.find("\"u").unwrap() + 2;
        assert_eq!(
            labels(&edited, at),
            ["ult", "ule", "ugt", "uge", "udiv", "urem", "uitofp"]
        );
        let at = text.find("b.lo").unwrap();
        let names = labels(text, at);
        assert!(
            names.contains(&"b".to_string()) && names.contains(&"s".to_string()),
            "{names:?}"
        );
    }
}
