//! The resolution pass: every body of the checked tree ([`Node`]) becomes an [`Expr`] in which
//! nothing is looked up by name while it runs. Names in scope are slots of the frame (their
//! depth, known from the tree's shape), functions are indices into [`Interp`]'s table, operations
//! are `Op` values, lattice operations and built-in functions are enums, and elements and
//! patterns carry their variant's index.

use super::Interp;
use super::numeric::Num;
use super::val::{BOTTOM, FLAT_TOP, FLAT_VALUE, sum_top, summand_index};
use crate::plan::FnId;
use crate::resolved::{
    Arm, Bound, Builtin, Constant, Element, Expr, Functions, Kind, LatticeOp, Pattern, Resolved,
    TypeFn, ids,
};
use absinthe_domc::dom::tree::{Function, Node, Pat, Shape, Ty};
use std::collections::BTreeMap;

impl Interp {
    /// Resolves every function of `functions`, numbered by [`ids`].
    pub(crate) fn resolve_functions(&self, functions: &BTreeMap<String, Function>) -> Functions {
        let by_name = ids(functions);
        let limits: BTreeMap<&str, u32> = (functions.iter())
            .filter_map(|(name, f)| f.recursion.map(|n| (name.as_str(), n)))
            .collect();
        let mut resolver = Resolver {
            interp: self,
            by_name: &by_name,
            limits: &limits,
            current: None,
            scope: Vec::new(),
            frame: 0,
        };
        let table = functions
            .iter()
            .map(|(name, f)| {
                resolver.scope = f.params.iter().map(|(n, _)| n.as_str()).collect();
                // A `fn` with a recursion limit takes the calls it may still make to itself as
                // a hidden last argument, in a slot no name reads.
                resolver.current = f.recursion.map(|_| {
                    resolver.scope.push("");
                    (name.as_str(), f.params.len())
                });
                resolver.frame = resolver.scope.len();
                let arity = resolver.scope.len();
                let body = resolver.expr(&f.body);
                Resolved {
                    name: name.clone(),
                    params: f.params.iter().map(|(_, t)| t.clone()).collect(),
                    arity,
                    frame: resolver.frame,
                    body,
                    fallback: f.fallback.clone(),
                    place: f.place.clone(),
                }
            })
            .collect();
        Functions { table, by_name }
    }
}

struct Resolver<'a> {
    interp: &'a Interp,
    by_name: &'a BTreeMap<String, FnId>,
    /// The `fn`s declared `recursion N`, with `N`.
    limits: &'a BTreeMap<&'a str, u32>,
    /// The function being resolved, when it has a recursion limit, and its depth slot.
    current: Option<(&'a str, usize)>,
    /// The names in scope, innermost last: a name's slot is its position.
    scope: Vec<&'a str>,
    /// The most names in scope at once so far: the frame's size.
    frame: usize,
}

impl<'a> Resolver<'a> {
    fn all(&mut self, nodes: &'a [Node]) -> Box<[Expr]> {
        nodes.iter().map(|n| self.expr(n)).collect()
    }

    fn boxed(&mut self, node: &'a Node) -> Box<Expr> {
        Box::new(self.expr(node))
    }

    /// Brings `name` into scope: its slot.
    fn bind(&mut self, name: &'a str) -> usize {
        self.scope.push(name);
        self.frame = self.frame.max(self.scope.len());
        self.scope.len() - 1
    }

    fn expr(&mut self, node: &'a Node) -> Expr {
        match node {
            Node::Int(v) => Expr::Int(*v),
            Node::Bool(b) => Expr::Bool(*b),
            Node::Var(x, ..) => match self.scope.iter().rposition(|n| *n == x.as_str()) {
                Some(slot) => Expr::Var(slot),
                None => unreachable!("the checker resolves every name in scope, not `{x}`"),
            },
            Node::Tuple(parts) => Expr::Tuple(self.all(parts)),
            Node::Neg(x) => Expr::Neg(self.boxed(x)),
            Node::Not(x) => Expr::Not(self.boxed(x)),
            Node::BitNot(x) => Expr::BitNot(self.boxed(x)),
            Node::Binary(op, a, b) => Expr::Binary(*op, self.boxed(a), self.boxed(b)),
            Node::Equal(t, a, b) => Expr::Equal(t.clone(), self.boxed(a), self.boxed(b)),
            Node::Let(x, value, body) => {
                let value = self.boxed(value);
                let slot = self.bind(x);
                let body = self.boxed(body);
                self.scope.pop();
                Expr::Let(slot, value, body)
            }
            Node::LetTuple(names, value, body) => {
                let value = self.boxed(value);
                // The tuple's slot, under a name no program can write.
                let tuple = self.bind("");
                let parts: Vec<(usize, usize)> = (names.iter().enumerate())
                    .filter_map(|(i, n)| n.as_deref().map(|n| (self.bind(n), i)))
                    .collect();
                let mut body = self.expr(body);
                for &(slot, i) in parts.iter().rev() {
                    let part = Expr::Field(Box::new(Expr::Var(tuple)), i);
                    body = Expr::Let(slot, Box::new(part), Box::new(body));
                    self.scope.pop();
                }
                self.scope.pop();
                Expr::Let(tuple, value, Box::new(body))
            }
            Node::If(c, t, f) => Expr::If(self.boxed(c), self.boxed(t), self.boxed(f)),
            Node::Match(t, scrutinee, arms) => {
                let scrutinee = self.boxed(scrutinee);
                let arms = arms
                    .iter()
                    .map(|arm| {
                        let mut names = Vec::new();
                        for p in &arm.patterns {
                            binders(t, p, &mut Vec::new(), &mut names);
                        }
                        let patterns = arm.patterns.iter().map(|p| self.pattern(t, p)).collect();
                        let binds: Vec<Bound> = (names.into_iter())
                            .map(|(name, at, ty, whole)| Bound {
                                slot: self.bind(name),
                                at,
                                ty,
                                whole,
                            })
                            .collect();
                        let body = self.expr(&arm.body);
                        for _ in &binds {
                            self.scope.pop();
                        }
                        Arm {
                            patterns,
                            binds,
                            body,
                        }
                    })
                    .collect();
                Expr::Match(t.clone(), scrutinee, arms)
            }
            // A product of one component is held as its component.
            Node::Field(t, base, _) if self.interp.unwrapped(t) => self.expr(base),
            Node::Field(_, base, i) => Expr::Field(self.boxed(base), *i),
            Node::Op(name) => Expr::Op(self.interp.op(name)),
            Node::Top(t) => Expr::Top(t.clone()),
            Node::Bottom(t) => Expr::Bottom(t.clone()),
            Node::Element(t, name, payload) => Expr::Element(
                self.element(t, name),
                payload.as_ref().map(|p| self.boxed(p)),
            ),
            Node::Struct(t, fields) => Expr::Struct(t.clone(), self.all(fields)),
            Node::Lattice(op, t, args) => {
                let op = match op.as_str() {
                    "join" => LatticeOp::Join,
                    "meet" => LatticeOp::Meet,
                    "widen" => LatticeOp::Widen,
                    "narrow" => LatticeOp::Narrow,
                    "leq" => LatticeOp::Leq,
                    "is_bottom" => LatticeOp::IsBottom,
                    "is_top" => LatticeOp::IsTop,
                    "contains" => LatticeOp::Contains,
                    other => unreachable!(
                        "the checker knows the lattice operations `join`, `meet`, `widen`, \
                         `narrow`, `leq`, `is_bottom` and `is_top` (and site functions \
                         `contains`), not `{other}`"
                    ),
                };
                Expr::Lattice(op, t.clone(), self.all(args))
            }
            Node::Builtin(name, args) => {
                let builtin = match name.as_str() {
                    "min" => Builtin::Min,
                    "max" => Builtin::Max,
                    "eval" => Builtin::Eval,
                    "traps" => Builtin::Traps,
                    "overflows" => Builtin::Overflows,
                    "is_comparison" => Builtin::IsComparison,
                    "Thresholds::at_least" => Builtin::AtLeast,
                    "Thresholds::at_most" => Builtin::AtMost,
                    other => {
                        unreachable!("the checker knows the built-in functions, not `{other}`")
                    }
                };
                Expr::Builtin(builtin, self.all(args))
            }
            Node::Call(name, args) => match self.by_name.get(name) {
                Some(id) => {
                    let mut args = self.all(args).into_vec();
                    if let Some(&limit) = self.limits.get(name.as_str()) {
                        args.push(match self.current {
                            Some((me, slot)) if me == name => Expr::DepthLeft(slot),
                            _ => Expr::Int(i64::from(limit)),
                        });
                    }
                    Expr::Call(*id, args.into())
                }
                None => unreachable!(
                    "the checker calls functions of the program only, not `{name}` (`extern fn`s \
                     are refused before running)"
                ),
            },
            Node::TypeFn(t, name, args) => match TypeFn::named(name) {
                Some(f) => Expr::TypeFn(t.clone(), f, self.all(args)),
                None => unreachable!(
                    "the checker knows the functions of `{}`, not `{name}`",
                    self.interp.type_name(t)
                ),
            },
            Node::Unreachable => {
                unreachable!("the checker leaves `Node::Unreachable` only in programs it rejects")
            }
        }
    }

    fn pattern(&self, t: &Ty, pattern: &Pat) -> Pattern {
        let name = match pattern {
            Pat::Wildcard | Pat::Bind(_) => return Pattern::Wildcard,
            Pat::Int(x) => return Pattern::Int(*x),
            Pat::Tuple(parts) => {
                let Ty::Tuple(types) = t else {
                    unreachable!("the checker takes tuple patterns on tuples only")
                };
                let parts = types.iter().zip(parts).map(|(t, p)| self.pattern(t, p));
                return Pattern::Tuple(parts.collect());
            }
            Pat::Variant(name, _) => name.as_str(),
        };
        match t {
            Ty::Op => Pattern::Op(self.interp.op(name)),
            Ty::ArgKind => Pattern::Kind(match name {
                "Param" => Kind::Param,
                "Const" => Kind::Const,
                "Other" => Kind::Other,
                _ => unreachable!("the checker knows the variants of `ArgKind`, not `{name}`"),
            }),
            _ => match self.element(t, name) {
                Element::Constant(c) => Pattern::Constant(c),
                Element::Enum(i) => Pattern::Enum(i),
                Element::Num(n) => Pattern::Num(n),
            },
        }
    }

    /// The element `name` of the lattice `t`.
    fn element(&self, t: &Ty, name: &str) -> Element {
        let shape = self.interp.shape(t);
        let index = match (shape, name) {
            (Shape::Constant, "Bottom") => return Element::Constant(Constant::Bottom),
            (Shape::Constant, "Value") => return Element::Constant(Constant::Value),
            (Shape::Constant, "Top") => return Element::Constant(Constant::Top),
            (Shape::Numeric(n), _) => match Num::element(*n, name) {
                Some(element) => return Element::Num(element),
                None => None,
            },
            (Shape::Flat { .. } | Shape::Sum { .. }, "Bottom") => Some(BOTTOM),
            (Shape::Flat { .. }, "Value") => Some(FLAT_VALUE),
            (Shape::Flat { .. }, "Top") => Some(FLAT_TOP),
            (Shape::Finite { variants, .. }, _) => variants.iter().position(|v| v == name),
            (Shape::Sum { summands }, "Top") => Some(sum_top(summands)),
            (Shape::Sum { summands }, _) => summands
                .iter()
                .position(|(v, _)| v == name)
                .map(summand_index),
            _ => None,
        };
        match index {
            Some(i) => Element::Enum(i),
            None => unreachable!(
                "the checker names elements of `{}` it has, not `{name}`",
                self.interp.type_name(t)
            ),
        }
    }
}

/// The names `pattern` (on a value of `t`, at `at` in the scrutinee) binds, in order: each
/// with where its value is, its type, and whether it takes the value itself.
fn binders<'p>(
    t: &Ty,
    pattern: &'p Pat,
    at: &mut Vec<usize>,
    out: &mut Vec<(&'p str, Vec<usize>, Ty, bool)>,
) {
    match pattern {
        Pat::Variant(_, Some(b)) => out.push((b, at.clone(), t.clone(), false)),
        Pat::Bind(b) => out.push((b, at.clone(), t.clone(), true)),
        Pat::Tuple(parts) => {
            let Ty::Tuple(types) = t else {
                unreachable!("the checker takes tuple patterns on tuples only")
            };
            for (i, (t, p)) in types.iter().zip(parts).enumerate() {
                at.push(i);
                binders(t, p, at, out);
                at.pop();
            }
        }
        Pat::Wildcard | Pat::Int(_) | Pat::Variant(_, None) => {}
    }
}
