//! Where a rule's or reduction's value is written: a function with the rule's parameters that
//! follows the same `if`s, `let`s and `match`es and gives, in place of each value the body may
//! give, its index among the places of the body. Blame (`verify`) calls it on the arguments of
//! the failing run and names the place of the value the rule gave.
//!
//! A rule whose value is a lattice value also takes the concrete value it lost, and the site
//! goes inside the value's expression: at `meet(a, b)` (or `join`, `widen`, `narrow`) it names
//! the first operand that loses the concrete value too, and through a name `let` bound to a
//! lattice value, the expression it was bound to; the innermost such expression is the place.

use super::{Place, Sema};
use crate::dom::ast::{Expr, ExprKind};
use crate::dom::tree::{self, Binding, Decl, Fallback, Node, Pat, Role};
use crate::dom::types::{Shape, Ty, TypeTable};
use crate::model::Site;
use quote::format_ident;
use std::collections::BTreeSet;

/// The site function's parameter holding the concrete value the rule's value lost.
const CONCRETE: &str = "__absinthe_v";

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
        result: &Ty,
    ) -> Option<Site> {
        let mut starts = Vec::new();
        let concrete = has_concrete(&self.types, result);
        let mut descent = Descent {
            types: &self.types,
            concrete,
            tests: false,
            lets: Vec::new(),
        };
        let located = descent.values(body, node, &mut starts);
        if starts.len() < 2 || !self.errors.is_empty() {
            return None;
        }
        // Only a site that tests a sub-expression against the concrete value takes it.
        let concrete = descent.tests;
        let mut params = params.to_vec();
        if concrete {
            params.push((CONCRETE.to_string(), Ty::Int));
        }
        let site_name = format!("__absinthe_site_{name}");
        let function = tree::Function {
            role: Role::Site(name.to_string()),
            params,
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
            concrete,
        })
    }
}

/// Whether values of `t` say which integers they stand for (`Concrete`), so that a site can
/// test its sub-expressions against the concrete value: every lattice but an `extern type`.
fn has_concrete(types: &TypeTable, t: &Ty) -> bool {
    match t {
        Ty::Lat(id) => !matches!(
            types.shape(*id),
            Shape::Extern | Shape::Error | Shape::Pending
        ),
        _ => false,
    }
}

/// The walk of a body: whether the site takes the concrete value, and the names `let` bound to
/// lattice values (their expressions, checked) that no later binding has shadowed, nor any name
/// their expressions read.
struct Descent<'a> {
    types: &'a TypeTable,
    concrete: bool,
    /// Whether a test against the concrete value was written.
    tests: bool,
    lets: Vec<(String, &'a Expr, &'a Node)>,
}

impl<'a> Descent<'a> {
    /// `node` (the checked `e`) with each value it may give replaced by its index, the start of
    /// each place pushed to `starts` in that order.
    fn values(&mut self, e: &'a Expr, node: &'a Node, starts: &mut Vec<usize>) -> Node {
        match (&e.kind, node) {
            (ExprKind::If(_, t, f), Node::If(c, nt, nf)) => {
                let t = self.values(t, nt, starts);
                let f = self.values(f, nf, starts);
                Node::If(c.clone(), Box::new(t), Box::new(f))
            }
            (ExprKind::Let(_, value_e, body), Node::Let(x, value, nb)) => {
                let saved = self.lets.clone();
                self.bind(x);
                // `let x = meet(x, y)` reads the `x` it shadows: its expression means something
                // else once `x` is bound.
                let mut read = BTreeSet::new();
                reads(value, &mut read);
                if self.concrete && !read.contains(x) {
                    self.lets.push((x.clone(), value_e, value));
                }
                let body = self.values(body, nb, starts);
                self.lets = saved;
                Node::Let(x.clone(), value.clone(), Box::new(body))
            }
            (ExprKind::LetTuple(_, _, body), Node::LetTuple(xs, value, nb)) => {
                let saved = self.lets.clone();
                for x in xs.iter().flatten() {
                    self.bind(x);
                }
                let body = self.values(body, nb, starts);
                self.lets = saved;
                Node::LetTuple(xs.clone(), value.clone(), Box::new(body))
            }
            (ExprKind::Match(_, arms), Node::Match(t, scrutinee, checked))
                if arms.len() == checked.len() =>
            {
                let arms = arms
                    .iter()
                    .zip(checked)
                    .map(|(arm, c)| {
                        let saved = self.lets.clone();
                        let mut binders = Vec::new();
                        for p in &c.patterns {
                            pattern_binders(p, &mut binders);
                        }
                        for b in &binders {
                            self.bind(b);
                        }
                        let body = self.values(&arm.body, &c.body, starts);
                        self.lets = saved;
                        tree::Arm {
                            patterns: c.patterns.clone(),
                            body,
                        }
                    })
                    .collect();
                Node::Match(t.clone(), scrutinee.clone(), arms)
            }
            _ => self.leaf(e, node, starts),
        }
    }

    /// A value the body gives: its place, or, for a lattice value, the innermost of its
    /// sub-expressions that loses the concrete value too.
    fn leaf(&mut self, e: &'a Expr, node: &'a Node, starts: &mut Vec<usize>) -> Node {
        if self.concrete {
            match (&e.kind, node) {
                (ExprKind::Call(_, args), Node::Lattice(op, t, parts))
                    if matches!(op.as_str(), "meet" | "join" | "widen" | "narrow")
                        && args.len() == 2
                        && parts.len() == 2
                        && has_concrete(self.types, t) =>
                {
                    let here = place(starts, e.span.start);
                    self.tests = true;
                    let inner: Vec<Node> = (args.iter().zip(parts))
                        .map(|(a, p)| self.values(a, p, starts))
                        .collect();
                    // The first operand that loses the value too, else the operation itself.
                    return (parts.iter().zip(inner))
                        .rev()
                        .fold(here, |rest, (p, inner)| {
                            Node::If(Box::new(excludes(t, p)), Box::new(inner), Box::new(rest))
                        });
                }
                (ExprKind::Path(_), Node::Var(x, Ty::Lat(_), Binding::Local)) => {
                    // A name bound to a parameter computed nothing: the branch that gives it
                    // is the better place.
                    let found = self.lets.iter().rposition(|(n, _, value)| {
                        n == x && !matches!(value, Node::Var(_, _, Binding::Param))
                    });
                    if let Some(at) = found {
                        let (_, value_e, value) = self.lets[at];
                        // The expression is evaluated where the name was bound: with the lets
                        // before it.
                        let before = self.lets[..at].to_vec();
                        let saved = std::mem::replace(&mut self.lets, before);
                        let inner = self.values(value_e, value, starts);
                        self.lets = saved;
                        return inner;
                    }
                }
                _ => {}
            }
        }
        place(starts, e.span.start)
    }

    /// A binding of `name` from here on: the `let`s it shadows, or whose expressions read it,
    /// can no longer be evaluated here.
    fn bind(&mut self, name: &str) {
        self.lets.retain(|(x, _, value)| {
            let mut read = BTreeSet::new();
            reads(value, &mut read);
            x != name && !read.contains(name)
        });
    }
}

/// Index `start` as the next place.
fn place(starts: &mut Vec<usize>, start: usize) -> Node {
    starts.push(start);
    Node::Int((starts.len() - 1) as i64)
}

/// `!contains(value, v)` on the lattice `t`: the value of `node` loses the concrete one.
fn excludes(t: &Ty, node: &Node) -> Node {
    let v = Node::Var(CONCRETE.to_string(), Ty::Int, Binding::Param);
    Node::Not(Box::new(Node::Lattice(
        "contains".into(),
        t.clone(),
        vec![node.clone(), v],
    )))
}

/// The names a pattern binds.
fn pattern_binders(p: &Pat, out: &mut Vec<String>) {
    match p {
        Pat::Bind(b) | Pat::Variant(_, Some(b)) => out.push(b.clone()),
        Pat::Tuple(parts) => parts.iter().for_each(|p| pattern_binders(p, out)),
        Pat::Wildcard | Pat::Int(_) | Pat::Variant(_, None) => {}
    }
}

/// Every name `node` reads (names it binds itself included, which only makes the shadowing
/// test stricter).
fn reads(node: &Node, out: &mut BTreeSet<String>) {
    let all = |nodes: &[Node], out: &mut BTreeSet<String>| nodes.iter().for_each(|n| reads(n, out));
    match node {
        Node::Var(x, _, _) => {
            out.insert(x.clone());
        }
        Node::Int(_)
        | Node::Bool(_)
        | Node::Op(_)
        | Node::Top(_)
        | Node::Bottom(_)
        | Node::Unreachable => {}
        Node::Neg(x) | Node::Not(x) | Node::BitNot(x) | Node::Field(_, x, _) => reads(x, out),
        Node::Binary(_, a, b)
        | Node::Equal(_, a, b)
        | Node::Let(_, a, b)
        | Node::LetTuple(_, a, b) => {
            reads(a, out);
            reads(b, out);
        }
        Node::If(c, t, f) => {
            reads(c, out);
            reads(t, out);
            reads(f, out);
        }
        Node::Match(_, scrutinee, arms) => {
            reads(scrutinee, out);
            arms.iter().for_each(|a| reads(&a.body, out));
        }
        Node::Element(_, _, payload) => {
            if let Some(p) = payload {
                reads(p, out);
            }
        }
        Node::Tuple(parts)
        | Node::Struct(_, parts)
        | Node::Lattice(_, _, parts)
        | Node::Builtin(_, parts)
        | Node::TypeFn(_, _, parts)
        | Node::Call(_, parts) => all(parts, out),
    }
}
