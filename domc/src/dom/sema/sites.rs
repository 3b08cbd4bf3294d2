//! Where a rule's or reduction's value is written: for a body of several branches, a function
//! with the rule's parameters that follows the same `if`s, `let`s and `match`es and gives, in
//! place of each branch's value, its index among the body's values. Blame (`verify`) calls it
//! on the arguments of the failing run and names the line of the value the rule gave.

use super::{Place, Sema};
use crate::dom::ast::{Expr, ExprKind};
use crate::dom::tree::{self, Decl, Fallback, Node, Role};
use crate::dom::types::Ty;
use crate::model::Site;
use quote::format_ident;

impl Sema {
    /// The site function of the function `name` (its body `body`, checked as `node`, with
    /// `params`), recorded in the program, when its body has values in two places or more.
    pub(super) fn site(
        &mut self,
        place: &Place,
        name: &str,
        body: &Expr,
        node: &Node,
        params: &[(String, Ty)],
    ) -> Option<Site> {
        let mut starts = Vec::new();
        let located = values(body, node, &mut starts);
        if starts.len() < 2 || !self.errors.is_empty() {
            return None;
        }
        let site_name = format!("__absinthe_site_{name}");
        let function = tree::Function {
            role: Role::Site(name.to_string()),
            params: params.to_vec(),
            result: Ty::Int,
            body: located,
            fallback: Fallback::Fail,
            place: place.describe(body.span.start),
            recursion: None,
        };
        self.out
            .program
            .functions
            .insert(site_name.clone(), function);
        self.out
            .program
            .decls
            .push(Decl::Function(site_name.clone()));
        Some(Site {
            function: syn::Path::from(format_ident!("{site_name}")),
            places: starts.iter().map(|&s| place.describe(s)).collect(),
        })
    }
}

/// `node` (the checked `e`) with each value it may give replaced by its index, the start of each
/// value's expression pushed to `starts` in that order.
fn values(e: &Expr, node: &Node, starts: &mut Vec<usize>) -> Node {
    match (&e.kind, node) {
        (ExprKind::If(_, t, f), Node::If(c, nt, nf)) => Node::If(
            c.clone(),
            Box::new(values(t, nt, starts)),
            Box::new(values(f, nf, starts)),
        ),
        (ExprKind::Let(_, _, body), Node::Let(x, value, nb)) => {
            Node::Let(x.clone(), value.clone(), Box::new(values(body, nb, starts)))
        }
        (ExprKind::LetTuple(_, _, body), Node::LetTuple(xs, value, nb)) => Node::LetTuple(
            xs.clone(),
            value.clone(),
            Box::new(values(body, nb, starts)),
        ),
        (ExprKind::Match(_, arms), Node::Match(t, scrutinee, checked))
            if arms.len() == checked.len() =>
        {
            let arms = arms
                .iter()
                .zip(checked)
                .map(|(arm, c)| tree::Arm {
                    patterns: c.patterns.clone(),
                    body: values(&arm.body, &c.body, starts),
                })
                .collect();
            Node::Match(t.clone(), scrutinee.clone(), arms)
        }
        _ => {
            starts.push(e.span.start);
            Node::Int((starts.len() - 1) as i64)
        }
    }
}
