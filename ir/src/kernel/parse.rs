//! Parsing `.kt` text: pest, then name resolution and labelling into [`Terms`].

use absinthe::terms::{Binder, Param, ParamId, Prim, Term, TermId, Terms};
use pest::Parser as _;
use pest::iterators::Pair;
use std::collections::{BTreeMap, BTreeSet};

use super::extensions::{BLOCK, is_exit_name};
use crate::error::{ParseError, error_at, from_pest, line_col};

#[derive(pest_derive::Parser)]
#[grammar = "kernel/kernel.pest"]
struct KernelParser;

/// The deepest nesting of parentheses accepted (deeper input is refused before parsing, so that
/// no input can exhaust the stack).
pub const MAX_NESTING: usize = 256;

fn describe(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "end of file",
        Rule::file | Rule::WHITESPACE | Rule::COMMENT => "something else",
        Rule::labelled | Rule::form | Rule::app | Rule::term | Rule::atom => "a term",
        Rule::lambda | Rule::kw_lambda => "`lambda`",
        Rule::letrec | Rule::kw_letrec => "`letrec`",
        Rule::binding => "a binding `(name term)`",
        Rule::label => "a label",
        Rule::int => "an integer",
        Rule::prim => "a primitive",
        Rule::block => "`block`",
        Rule::ident | Rule::keyword | Rule::word_char => "a name",
        Rule::colon => "`:`",
        Rule::lparen => "`(`",
        Rule::rparen => "`)`",
    }
}

/// Parses kernel terms, or gives every error found (syntax errors stop at the first).
pub fn parse_terms(file: &str, text: &str) -> Result<Terms, Vec<ParseError>> {
    // Refuse deep nesting before pest recurses into it.
    let mut depth = 0usize;
    for (pos, c) in text.char_indices() {
        match c {
            '(' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(vec![error_at(
                        file,
                        text,
                        pos,
                        format!("terms nest deeper than {MAX_NESTING} parentheses"),
                    )]);
                }
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let mut pairs = KernelParser::parse(Rule::file, text)
        .map_err(|e| vec![from_pest(file, text, &e, describe)])?;
    let root = pairs
        .next()
        .and_then(|file| file.into_inner().find(|p| p.as_rule() != Rule::EOI));
    let Some(root) = root else {
        return Err(vec![error_at(file, text, 0, "expected a term".to_owned())]);
    };
    let mut r = Resolver {
        file,
        text,
        terms: Vec::new(),
        params: Vec::new(),
        bound: BTreeMap::new(),
        scope: Vec::new(),
        free: BTreeMap::new(),
        labels: Vec::new(),
        errors: Vec::new(),
    };
    let root = r.term(root);
    r.number_labels();
    if !r.errors.is_empty() {
        r.errors.sort_by_key(|e| (e.line, e.col));
        return Err(r.errors);
    }
    Ok(Terms {
        terms: r.terms,
        params: r.params,
        root,
    })
}

struct Resolver<'a> {
    file: &'a str,
    text: &'a str,
    terms: Vec<Term>,
    params: Vec<Param>,
    /// Where each bound name was bound (byte offset), for the one-binding rule.
    bound: BTreeMap<&'a str, usize>,
    /// Names in scope, innermost last.
    scope: Vec<(&'a str, ParamId)>,
    /// Names bound nowhere, as inputs.
    free: BTreeMap<&'a str, ParamId>,
    /// Applications with their explicit label (and its offset), in source order.
    labels: Vec<(TermId, Option<(u32, usize)>)>,
    errors: Vec<ParseError>,
}

impl<'a> Resolver<'a> {
    fn error(&mut self, pos: usize, message: String) {
        self.errors
            .push(error_at(self.file, self.text, pos, message));
    }

    /// Reserves the next term id, so that a term is numbered before its subterms.
    fn reserve(&mut self) -> TermId {
        self.terms.push(Term::Const(0));
        TermId((self.terms.len() - 1) as u32)
    }

    fn bind(&mut self, name: Pair<'a, Rule>, binder: Binder) -> ParamId {
        let text = name.as_str();
        let pos = name.as_span().start();
        if let Some(&first) = self.bound.get(text) {
            let (line, col) = line_col(self.text, first);
            self.error(
                pos,
                format!(
                    "`{text}` is already bound at {line}:{col}; kernel terms bind each name once"
                ),
            );
        } else {
            self.bound.insert(text, pos);
        }
        self.params.push(Param {
            name: text.to_owned(),
            binder,
        });
        ParamId((self.params.len() - 1) as u32)
    }

    fn term(&mut self, pair: Pair<'a, Rule>) -> TermId {
        let id = self.reserve();
        let term = match pair.as_rule() {
            Rule::int => match pair.as_str().parse::<i64>() {
                Ok(v) => Term::Const(v),
                Err(_) => {
                    let pos = pair.as_span().start();
                    self.error(
                        pos,
                        format!("integer `{}` does not fit in 64 bits", pair.as_str()),
                    );
                    Term::Const(0)
                }
            },
            Rule::prim => Term::Prim(Prim::from_symbol(pair.as_str()).unwrap_or_else(|| {
                unreachable!(
                    "the grammar's `prim` is a primitive's symbol: {}",
                    pair.as_str()
                )
            })),
            Rule::block => Term::Param(self.block()),
            Rule::ident => Term::Param(self.reference(&pair)),
            Rule::labelled => {
                let mut inner = pair.into_inner();
                let label = inner.next();
                let app = inner.find(|p| p.as_rule() == Rule::app);
                let explicit = label.map(|l| {
                    let pos = l.as_span().start();
                    match l.as_str().parse::<u32>() {
                        Ok(v) if v > 0 => (v, pos),
                        _ => {
                            self.error(
                                pos,
                                format!(
                                    "label `{}` is not a number from 1 to {}",
                                    l.as_str(),
                                    u32::MAX
                                ),
                            );
                            (0, pos)
                        }
                    }
                });
                match app {
                    Some(app) => self.app(id, app, explicit),
                    None => Term::Const(0),
                }
            }
            Rule::form => {
                let Some(inner) = pair
                    .into_inner()
                    .find(|p| !matches!(p.as_rule(), Rule::lparen | Rule::rparen))
                else {
                    return id;
                };
                match inner.as_rule() {
                    Rule::lambda => self.lambda(id, inner),
                    Rule::letrec => self.letrec(id, inner),
                    _ => self.app(id, inner, None),
                }
            }
            _ => Term::Const(0),
        };
        self.terms[id.index()] = term;
        id
    }

    /// The one name of the `block` primitive.
    fn block(&mut self) -> ParamId {
        if let Some(&p) = self.free.get(BLOCK) {
            return p;
        }
        self.params.push(Param {
            name: BLOCK.to_owned(),
            binder: Binder::Free,
        });
        let p = ParamId((self.params.len() - 1) as u32);
        self.free.insert(BLOCK, p);
        p
    }

    fn reference(&mut self, pair: &Pair<'a, Rule>) -> ParamId {
        let text = pair.as_str();
        if let Some(&(_, p)) = self.scope.iter().rev().find(|(n, _)| *n == text) {
            return p;
        }
        if is_exit_name(text) {
            self.error(
                pair.as_span().start(),
                format!(
                    "exit name `{text}` is bound by no enclosing abstraction; write \
                     `(lambda ({text} x …) body)` around its uses"
                ),
            );
        }
        if let Some(&p) = self.free.get(text) {
            return p;
        }
        self.params.push(Param {
            name: text.to_owned(),
            binder: Binder::Free,
        });
        let p = ParamId((self.params.len() - 1) as u32);
        self.free.insert(text, p);
        p
    }

    fn lambda(&mut self, id: TermId, pair: Pair<'a, Rule>) -> Term {
        let parts: Vec<Pair<'a, Rule>> = pair
            .into_inner()
            .filter(|p| !matches!(p.as_rule(), Rule::lparen | Rule::rparen | Rule::kw_lambda))
            .collect();
        let Some((body, names)) = parts.split_last() else {
            return Term::Const(0);
        };
        for n in names.iter().skip(1) {
            if is_exit_name(n.as_str()) {
                self.error(
                    n.as_span().start(),
                    format!(
                        "exit name `{}` must be the abstraction's first parameter",
                        n.as_str()
                    ),
                );
            }
        }
        let params: Vec<ParamId> = names
            .iter()
            .enumerate()
            .map(|(i, n)| self.bind(n.clone(), Binder::Lambda(id, i as u32)))
            .collect();
        let before = self.scope.len();
        for (n, &p) in names.iter().zip(&params) {
            self.scope.push((n.as_str(), p));
        }
        let body = self.term(body.clone());
        self.scope.truncate(before);
        Term::Lambda {
            params: params.into(),
            body,
        }
    }

    fn letrec(&mut self, id: TermId, pair: Pair<'a, Rule>) -> Term {
        let parts: Vec<Pair<'a, Rule>> = pair
            .into_inner()
            .filter(|p| !matches!(p.as_rule(), Rule::lparen | Rule::rparen | Rule::kw_letrec))
            .collect();
        let Some((body, bindings)) = parts.split_last() else {
            return Term::Const(0);
        };
        // Every binding is in scope in every bound term and in the body.
        let mut bound = Vec::new();
        for b in bindings {
            let mut inner = b
                .clone()
                .into_inner()
                .filter(|p| !matches!(p.as_rule(), Rule::lparen | Rule::rparen));
            let (Some(name), Some(term)) = (inner.next(), inner.next()) else {
                continue;
            };
            if is_exit_name(name.as_str()) {
                self.error(
                    name.as_span().start(),
                    format!(
                        "exit name `{}` cannot be bound by `letrec`; only an abstraction binds \
                         one, as its first parameter",
                        name.as_str()
                    ),
                );
            }
            let p = self.bind(name.clone(), Binder::Letrec(id));
            bound.push((name.as_str(), p, term));
        }
        let before = self.scope.len();
        for (n, p, _) in &bound {
            self.scope.push((n, *p));
        }
        let bindings: Vec<(ParamId, TermId)> = bound
            .into_iter()
            .map(|(_, p, term)| (p, self.term(term)))
            .collect();
        let body = self.term(body.clone());
        self.scope.truncate(before);
        Term::Letrec {
            bindings: bindings.into(),
            body,
        }
    }

    fn app(&mut self, id: TermId, pair: Pair<'a, Rule>, label: Option<(u32, usize)>) -> Term {
        self.labels.push((id, label));
        let mut parts = pair
            .into_inner()
            .filter(|p| !matches!(p.as_rule(), Rule::lparen | Rule::rparen));
        let Some(op) = parts.next() else {
            return Term::Const(0);
        };
        let op = self.term(op);
        let args: Vec<TermId> = parts.map(|a| self.term(a)).collect();
        Term::App {
            label: 0,
            op,
            args: args.into(),
        }
    }

    /// Gives every application its label: explicit ones checked unique, the others numbered in
    /// source order with the smallest numbers not taken.
    fn number_labels(&mut self) {
        let mut taken: BTreeMap<u32, usize> = BTreeMap::new();
        for &(_, label) in &self.labels.clone() {
            if let Some((v, pos)) = label
                && v > 0
            {
                if let Some(&first) = taken.get(&v) {
                    let (line, col) = line_col(self.text, first);
                    self.error(pos, format!("label {v} is already used at {line}:{col}"));
                } else {
                    taken.insert(v, pos);
                }
            }
        }
        let used: BTreeSet<u32> = taken.keys().copied().collect();
        let mut next = 1u32;
        for (id, label) in self.labels.clone() {
            let value = match label {
                Some((v, _)) => v,
                None => {
                    while used.contains(&next) {
                        next += 1;
                    }
                    next += 1;
                    next - 1
                }
            };
            if let Term::App { label, .. } = &mut self.terms[id.index()] {
                *label = value;
            }
        }
    }
}
