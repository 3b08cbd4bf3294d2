//! Hover text (Markdown): what a name declares — a lattice's order and operations, a product's
//! components and policy, a rule's operation and the component it gives, with where each is
//! declared — and the type of the expression under the cursor.

use super::index::{DefId, Index, Kind};
use crate::diagnostic::FileId;
use crate::dom::Study;
use crate::dom::ast::{Item, LatticeBody, PolicyAst, Trigger};

/// The hover text at `offset` of `file`, if there is anything to say.
pub fn hover(study: &Study, index: &Index, file: FileId, offset: usize) -> Option<String> {
    let text = &study.sources.get(file).text;
    if let Some(def) = index.at(file, offset) {
        let mut out = describe(study, index, def);
        // A name used as an expression, or a field read: its type there.
        if let Some((span, ty)) = index.expression_at(file, offset)
            && text
                .get(span.clone())
                .is_some_and(|t| t.ends_with(index.defs[def].name.as_str()))
            && !index.defs[def].kind.is_type()
        {
            out.push_str(&format!("\n\nHere: `{ty}`."));
        }
        return Some(out);
    }
    let (span, ty) = index.expression_at(file, offset)?;
    let written = text.get(span)?;
    let written = one_line(written, 60);
    Some(format!("```dom\n{written}\n```\nType: `{ty}`."))
}

/// The first line of `text`, cut at `most` characters.
fn one_line(text: &str, most: usize) -> String {
    let first = text.lines().next().unwrap_or("").trim_end();
    let many = text.lines().nth(1).is_some();
    let cut: String = first.chars().take(most).collect();
    if many || cut.len() < first.len() {
        format!("{cut} …")
    } else {
        cut
    }
}

/// `file:line:col` of a declaration.
fn place(study: &Study, file: FileId, offset: usize) -> String {
    let (line, col) = study.sources.line_col(file, offset);
    format!("{}:{line}:{col}", study.sources.get(file).name)
}

/// The item declared by the top-level declaration `def`.
fn item_of<'a>(study: &'a Study, index: &Index, def: DefId) -> Option<&'a Item> {
    let d = &index.defs[def];
    let (_, items) = study.files.iter().find(|(p, _)| p.file == d.file)?;
    items.iter().find(|item| {
        let name = match item {
            Item::Lattice(l) => &l.name,
            Item::Product(p) => &p.name,
            Item::Transfer(t) => &t.sig.name,
            Item::Function(sig, _) | Item::MeetExt(sig, _) | Item::ExternFn(sig) => &sig.name,
            Item::Analysis(a) => &a.name,
            Item::ExternType(name) | Item::TypeAlias(name, _) => name,
            Item::Import { .. } => return false,
        };
        name.span == d.span
    })
}

/// What the declaration `def` is, in Markdown.
pub fn describe(study: &Study, index: &Index, def: DefId) -> String {
    let d = &index.defs[def];
    let text = &study.sources.get(d.file).text;
    let at = place(study, d.file, d.span.start);
    let parent = d.parent.map(|p| &index.defs[p]);
    match d.kind {
        Kind::Param | Kind::Local | Kind::Field | Kind::Component | Kind::Variant => {
            let ty = d.ty.clone().or_else(|| {
                index
                    .references(def)
                    .iter()
                    .find_map(|(f, span)| index.type_at(*f, span).map(str::to_string))
            });
            let head = match ty {
                Some(ty) if d.kind == Kind::Variant => format!("{}({ty})", d.name),
                Some(ty) => format!("{}: {ty}", d.name),
                None => d.name.clone(),
            };
            let of = match parent {
                Some(p) => format!(" of `{}`", p.name),
                None => String::new(),
            };
            format!(
                "```dom\n{head}\n```\n{}{of}, declared at {at}.",
                d.kind.word()
            )
        }
        _ => {
            let written = text.get(d.whole.clone()).unwrap_or("");
            let mut out = format!("```dom\n{}\n```\n", one_line(written, 100));
            out.push_str(&match item_of(study, index, def) {
                Some(item) => what_it_is(study, index, item),
                None => d.kind.word().to_string(),
            });
            let at = place(study, d.file, d.whole.start);
            out.push_str(&format!("\n\nDeclared at {at}."));
            out
        }
    }
}

/// A sentence or two on what an item is.
fn what_it_is(study: &Study, index: &Index, item: &Item) -> String {
    match item {
        Item::Lattice(l) => lattice_text(&l.body),
        Item::Product(p) => {
            let components: Vec<String> = p
                .components
                .iter()
                .map(|c| {
                    let also = match (c.uses, &c.relation) {
                        (_, Some((k, _))) => {
                            format!(" (the relational component, in packs of at most {k} names)")
                        }
                        (true, None) => " (its own rules too)".to_string(),
                        (false, None) => String::new(),
                    };
                    format!(
                        "`{}: {}`{also}",
                        c.name.text,
                        super::index::type_text(&c.ty)
                    )
                })
                .collect();
            let policy = match p.policy.as_ref().map(|(p, _)| *p) {
                None => "the default reduction policy".to_string(),
                Some(PolicyAst::Never) => "reductions never run".to_string(),
                Some(PolicyAst::Once) => "reductions run once per state".to_string(),
                Some(PolicyAst::Fixpoint(None)) => "reductions run until nothing changes".into(),
                Some(PolicyAst::Fixpoint(Some(k))) => {
                    format!("reductions run until nothing changes, {k} rounds at most")
                }
            };
            format!(
                "A reduced product of {}; {policy}. Ordered component by component.",
                components.join(", ")
            )
        }
        Item::Transfer(t) => {
            let on = match &t.trigger {
                Trigger::Op(op) => format!("the operation `{op}`"),
                Trigger::AnyOp => "every operation no other rule takes".into(),
                Trigger::Literal => "a literal".into(),
                Trigger::Address => "an address".into(),
                Trigger::Assume(op) => format!("a branch on `{op}`"),
                Trigger::AnyAssume => "every branch no other rule takes".into(),
                Trigger::Cond => "a conditional (kernel terms)".into(),
                Trigger::Param => "a parameter (kernel terms)".into(),
                Trigger::Apply => "an application (kernel terms)".into(),
                Trigger::Function => "a function (kernel terms)".into(),
                Trigger::Demand(op) => {
                    format!("the operation `{op}`, backward: what it demands of its operands")
                }
                Trigger::DemandAny => {
                    "every operation no other backward rule takes: what it demands of its operands"
                        .into()
                }
                Trigger::DemandCopy => "a copy, backward: what it demands of its source".into(),
                Trigger::Observe => {
                    "an observation: what a branch, a return, a store or a call demands".into()
                }
            };
            let result = super::index::type_text(&t.sig.result);
            format!(
                "A transfer rule on {on}: it gives {}.",
                component_of(study, index, &result)
            )
        }
        Item::MeetExt(sig, _) => {
            let target = component_of(study, index, &super::index::type_text(&sig.result));
            // The study may be of a file the checker refused: say what is missing.
            match sig.params.get(1) {
                Some((_, source)) => format!(
                    "A reduction: it refines {target} from `{}`.",
                    super::index::type_text(source)
                ),
                None => format!("A reduction of {target}, without its source parameter."),
            }
        }
        Item::Function(sig, _) => {
            let recursion = match &sig.recursion {
                Some((Some(n), _)) => format!(" It may call itself {n} calls deep."),
                _ => String::new(),
            };
            format!(
                "A helper function; checked arithmetic that leaves `int` fails in it, and the failure reaches its caller.{recursion}"
            )
        }
        Item::ExternFn(_) => "A function written in Rust (compiled mode only).".into(),
        Item::ExternType(_) => "A lattice written in Rust (compiled mode only).".into(),
        Item::TypeAlias(_, ty) => format!("Another name for `{}`.", super::index::type_text(ty)),
        Item::Analysis(_) => "An analysis: a domain and the settings it runs with.".into(),
        Item::Import { .. } => String::new(),
    }
}

/// "the component `c` of `P` (file:line:col)" for each product with a component of type `ty`,
/// or the type itself.
fn component_of(study: &Study, index: &Index, ty: &str) -> String {
    let found: Vec<String> = index
        .defs
        .iter()
        .filter(|d| d.kind == Kind::Component && d.ty.as_deref() == Some(ty))
        .filter_map(|d| {
            let product = &index.defs[d.parent?];
            let at = place(study, d.file, d.span.start);
            Some(format!(
                "the component `{}` of `{}` (declared at {at})",
                d.name, product.name
            ))
        })
        .collect();
    if found.is_empty() {
        format!("a `{ty}`")
    } else {
        format!("a `{ty}`, {}", found.join(" and "))
    }
}

/// A lattice's order and operations.
fn lattice_text(body: &LatticeBody) -> String {
    let (order, written) = match body {
        LatticeBody::Flat(t) => (
            format!(
                "Flat: ⊥, then every `{}` value (unordered among themselves), then ⊤.",
                super::index::type_text(t)
            ),
            &[][..],
        ),
        LatticeBody::Finite(chains, overrides) => {
            let chains: Vec<String> = chains
                .iter()
                .map(|c| {
                    c.iter()
                        .map(|n| n.text.as_str())
                        .collect::<Vec<_>>()
                        .join(" < ")
                })
                .collect();
            (
                format!("Finite, ordered by {}.", chains.join(", ")),
                overrides.as_slice(),
            )
        }
        LatticeBody::Sum(variants, overrides) => {
            let names: Vec<&str> = variants.iter().map(|(n, _)| n.text.as_str()).collect();
            (
                format!(
                    "A sum of {}: values of different variants are unordered; one variant's values are ordered by its payload.",
                    names.join(", ")
                ),
                overrides.as_slice(),
            )
        }
        LatticeBody::Struct {
            smash, overrides, ..
        } => (
            if *smash {
                "A smashed struct: ordered field by field, and one ⊥ field makes the whole ⊥."
                    .to_string()
            } else {
                "A struct: ordered field by field.".to_string()
            },
            overrides.as_slice(),
        ),
    };
    let written: Vec<String> = written.iter().map(|o| format!("`{}`", o.op.text)).collect();
    let written = if written.is_empty() {
        "Every operation (join, meet, leq, widen, narrow, contains) is derived.".to_string()
    } else {
        format!(
            "Written out: {}; the other operations are derived.",
            written.join(", ")
        )
    };
    format!("{order} {written}")
}
