//! Rule bodies: type checking into typed trees.
//!
//! Every expression is checked against the types of [`super::types`] and becomes a
//! [`Node`] of [`super::tree`]; what it means to run one (checked arithmetic failing, a rule
//! falling back to its sound default) is said there and carried out by each back end. The
//! checker reports every error it finds and never stops at the first one: an expression that
//! fails to check becomes [`Node::Unreachable`] of type [`Ty::Error`], which silences errors
//! that would follow from it.

use super::ast::{BinaryOp, Expr, ExprKind, Name, Pattern, UnaryOp};
use super::tree::{Binding, FnSig, Node};
use super::types::{Numeric, Shape, Ty, TypeTable};
use crate::diagnostic::{Diagnostic, FileId, did_you_mean};
use crate::model::OPERATIONS;
use std::collections::BTreeMap;
use std::ops::Range;

mod calls;
mod patterns;
mod tuples;

/// The names in scope: each with its type and what binds it.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    names: Vec<(String, Ty, Binding)>,
}

impl Scope {
    /// Binds a parameter.
    pub fn bind(&mut self, name: &str, ty: Ty) {
        self.names.push((name.to_string(), ty, Binding::Param));
    }

    /// Binds a `let` or a pattern's binder.
    fn bind_local(&mut self, name: &str, ty: Ty) {
        self.names.push((name.to_string(), ty, Binding::Local));
    }

    fn get(&self, name: &str) -> Option<&(String, Ty, Binding)> {
        self.names.iter().rev().find(|(n, _, _)| n == name)
    }
}

/// A checked argument: its type, its tree and where it was written.
type Arg = (Ty, Node, Range<usize>);

/// The trees of checked arguments.
fn nodes(got: &[Arg]) -> Vec<Node> {
    got.iter().map(|(_, n, _)| n.clone()).collect()
}

/// Checks the bodies of one file.
#[derive(Debug)]
pub struct Checker<'a> {
    file: FileId,
    types: &'a TypeTable,
    functions: &'a BTreeMap<String, FnSig>,
    errors: Vec<Diagnostic>,
    /// The type of every expression checked, by its range (for an editor's hover).
    typed: Vec<(Range<usize>, Ty)>,
}

/// The built-in functions called by a single name, for suggestions.
pub(crate) const BUILTIN_FUNCTIONS: [&str; 13] = [
    "join",
    "meet",
    "widen",
    "narrow",
    "leq",
    "is_bottom",
    "is_top",
    "min",
    "max",
    "eval",
    "traps",
    "overflows",
    "is_comparison",
];

impl<'a> Checker<'a> {
    /// A checker for file `file`, whose bodies may call `functions`.
    pub fn new(
        file: FileId,
        types: &'a TypeTable,
        functions: &'a BTreeMap<String, FnSig>,
    ) -> Checker<'a> {
        Checker {
            file,
            types,
            functions,
            errors: Vec::new(),
            typed: Vec::new(),
        }
    }

    /// The errors found, and the type of every expression checked by its range.
    pub fn finish(self) -> (Vec<Diagnostic>, Vec<(Range<usize>, Ty)>) {
        (self.errors, self.typed)
    }

    fn error(&mut self, span: Range<usize>, message: String, label: &str) -> (Ty, Node) {
        self.errors
            .push(Diagnostic::new(self.file, span, message, label));
        (Ty::Error, Node::Unreachable)
    }

    fn error_help(
        &mut self,
        span: Range<usize>,
        message: String,
        label: &str,
        help: String,
    ) -> (Ty, Node) {
        self.errors
            .push(Diagnostic::new(self.file, span, message, label).with_help(help));
        (Ty::Error, Node::Unreachable)
    }

    /// `Thresholds::at_least(t, x, otherwise)`: the smallest threshold `>= x`, or `otherwise`
    /// when there is none; `Thresholds::at_most(t, x, otherwise)`: the largest `<= x`.
    fn thresholds_call(&mut self, item: &Name, got: &[Arg], span: Range<usize>) -> (Ty, Node) {
        if !matches!(item.text.as_str(), "at_least" | "at_most") {
            let other = item.text.as_str();
            let help = did_you_mean(other, ["at_least", "at_most"]).unwrap_or_else(|| {
                "`Thresholds` has `at_least(t, x, otherwise)` and `at_most(t, x, otherwise)`".into()
            });
            return self.error_help(
                item.span.clone(),
                format!("`Thresholds` has no function `{other}`"),
                "unknown function",
                help,
            );
        }
        let what = format!("Thresholds::{}", item.text);
        if !self.check_args(&what, got, &[Ty::Thresholds, Ty::Int, Ty::Int], span) {
            return (Ty::Error, Node::Unreachable);
        }
        (Ty::Int, Node::Builtin(what, nodes(got)))
    }

    /// `unknown type `T``, with a suggestion.
    fn unknown_type(&mut self, name: &Name) -> (Ty, Node) {
        let message = format!("unknown type `{}`", name.text);
        match self.types.did_you_mean(&name.text) {
            Some(help) => self.error_help(name.span.clone(), message, "not a type", help),
            None => self.error(name.span.clone(), message, "not a type"),
        }
    }

    /// A body of type `expected`, as a tree.
    pub fn body(&mut self, e: &Expr, scope: &Scope, expected: &Ty) -> Node {
        let (ty, node) = self.expr(e, scope);
        self.expect(e.span.clone(), &ty, expected, "the declared result");
        node
    }

    /// Both operands of the operator `sym` must be `want`.
    fn expect_operands(&mut self, a: &Expr, at: &Ty, b: &Expr, bt: &Ty, want: &Ty, sym: &str) {
        let what = format!("an operand of `{sym}`");
        self.expect(a.span.clone(), at, want, &what);
        self.expect(b.span.clone(), bt, want, &what);
    }

    fn expect(&mut self, span: Range<usize>, got: &Ty, want: &Ty, what: &str) {
        if got.is_error() || want.is_error() || got == want {
            return;
        }
        let (g, w) = (self.types.name(got), self.types.name(want));
        self.errors.push(Diagnostic::new(
            self.file,
            span,
            format!("expected `{w}` ({what}), found `{g}`"),
            format!("this is `{g}`"),
        ));
    }

    fn expr(&mut self, e: &Expr, scope: &Scope) -> (Ty, Node) {
        let (ty, node) = self.expr_kind(e, scope);
        self.typed.push((e.span.clone(), ty.clone()));
        (ty, node)
    }

    fn expr_kind(&mut self, e: &Expr, scope: &Scope) -> (Ty, Node) {
        let span = e.span.clone();
        match &e.kind {
            ExprKind::Int(v) => match i64::try_from(*v) {
                Ok(v) => (Ty::Int, Node::Int(v)),
                Err(_) => self.error_help(
                    span,
                    format!("the integer {v} does not fit in `int` (64 bits)"),
                    "too large",
                    "`int::MIN` and `int::MAX` name the extremes".into(),
                ),
            },
            ExprKind::Bits(bits) => match bits {
                // A hexadecimal or binary literal is a bit pattern: its top bit is the sign.
                Some(bits) => (Ty::Int, Node::Int(*bits as i64)),
                None => self.error_help(
                    span,
                    "the literal has more than 64 bits".into(),
                    "too large",
                    "a hexadecimal or binary literal is a 64-bit pattern".into(),
                ),
            },
            ExprKind::Bool(b) => (Ty::Bool, Node::Bool(*b)),
            ExprKind::Tuple(parts) => {
                let (tys, nodes): (Vec<Ty>, Vec<Node>) =
                    parts.iter().map(|p| self.expr(p, scope)).unzip();
                (Ty::Tuple(tys), Node::Tuple(nodes))
            }
            ExprKind::Unary(op, inner) => {
                // A negative literal is a literal (no checked negation that could fail).
                if let (UnaryOp::Neg, ExprKind::Int(v)) = (op, &inner.kind) {
                    return match i64::try_from(-i128::from(*v)) {
                        Ok(v) => (Ty::Int, Node::Int(v)),
                        Err(_) => self.error_help(
                            span,
                            format!("the integer -{v} does not fit in `int` (64 bits)"),
                            "too small",
                            "`int::MIN` and `int::MAX` name the extremes".into(),
                        ),
                    };
                }
                let (t, node) = self.expr(inner, scope);
                let node = Box::new(node);
                match op {
                    UnaryOp::Neg => {
                        self.expect(inner.span.clone(), &t, &Ty::Int, "the operand of `-`");
                        (Ty::Int, Node::Neg(node))
                    }
                    UnaryOp::Not => {
                        self.expect(inner.span.clone(), &t, &Ty::Bool, "the operand of `!`");
                        (Ty::Bool, Node::Not(node))
                    }
                    UnaryOp::BitNot => {
                        self.expect(inner.span.clone(), &t, &Ty::Int, "the operand of `~`");
                        (Ty::Int, Node::BitNot(node))
                    }
                }
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, scope, span),
            ExprKind::Let(name, value, body) => {
                let (t, value) = self.expr(value, scope);
                let mut inner = scope.clone();
                inner.bind_local(&name.text, t);
                let (bt, body) = self.expr(body, &inner);
                let node = Node::Let(name.text.clone(), Box::new(value), Box::new(body));
                (bt, node)
            }
            ExprKind::LetTuple(names, value, body) => self.let_tuple(names, value, body, scope),
            ExprKind::If(c, t, f) => {
                let (ct, c) = self.expr(c, scope);
                self.expect(span.clone(), &ct, &Ty::Bool, "a condition");
                let (tt, t_node) = self.expr(t, scope);
                let (ft, f_node) = self.expr(f, scope);
                self.expect(f.span.clone(), &ft, &tt, "the type of the other branch");
                let node = Node::If(Box::new(c), Box::new(t_node), Box::new(f_node));
                (tt, node)
            }
            ExprKind::Match(scrutinee, arms) => self.matching(scrutinee, arms, scope, span),
            ExprKind::Field(base, field) => self.field(base, field, scope),
            ExprKind::Path(path) => self.path(path, scope, span),
            ExprKind::Call(path, args) => self.call(path, args, scope, span),
            ExprKind::StructLit(ty, fields) => self.struct_literal(ty, fields, scope, span),
        }
    }

    fn binary(
        &mut self,
        op: BinaryOp,
        a: &Expr,
        b: &Expr,
        scope: &Scope,
        span: Range<usize>,
    ) -> (Ty, Node) {
        let (at, an) = self.expr(a, scope);
        let (bt, bn) = self.expr(b, scope);
        let (an, bn) = (Box::new(an), Box::new(bn));
        let sym = op.symbol();
        match op {
            BinaryOp::Or | BinaryOp::And => {
                self.expect_operands(a, &at, b, &bt, &Ty::Bool, sym);
                (Ty::Bool, Node::Binary(op, an, bn))
            }
            BinaryOp::Eq | BinaryOp::Ne => {
                self.expect(
                    b.span.clone(),
                    &bt,
                    &at,
                    &format!("the other side of `{sym}`"),
                );
                if matches!(at, Ty::Tuple(_)) {
                    return self.error(span, "tuples cannot be compared".into(), "a tuple");
                }
                let equal = Node::Equal(at, an, bn);
                if op == BinaryOp::Eq {
                    (Ty::Bool, equal)
                } else {
                    (Ty::Bool, Node::Not(Box::new(equal)))
                }
            }
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => {
                self.expect_operands(a, &at, b, &bt, &Ty::Int, sym);
                (Ty::Bool, Node::Binary(op, an, bn))
            }
            BinaryOp::Add
            | BinaryOp::Sub
            | BinaryOp::Mul
            | BinaryOp::Div
            | BinaryOp::Rem
            | BinaryOp::WrapAdd
            | BinaryOp::WrapSub
            | BinaryOp::WrapMul
            | BinaryOp::BitAnd
            | BinaryOp::BitOr
            | BinaryOp::BitXor
            | BinaryOp::Shl
            | BinaryOp::Shr
            | BinaryOp::LShr
            | BinaryOp::WrapShl
            | BinaryOp::WrapShr
            | BinaryOp::WrapLShr => {
                self.expect_operands(a, &at, b, &bt, &Ty::Int, sym);
                (Ty::Int, Node::Binary(op, an, bn))
            }
        }
    }

    /// A variable, `int::MIN`, `Op::Add`, `T::top`, or a unit variant such as `Sign::Neg`.
    fn path(&mut self, path: &[Name], scope: &Scope, span: Range<usize>) -> (Ty, Node) {
        match path {
            [single] => match scope.get(&single.text) {
                Some((name, ty, binding)) => {
                    (ty.clone(), Node::Var(name.clone(), ty.clone(), *binding))
                }
                None if self.functions.contains_key(&single.text) => self.error_help(
                    span,
                    format!("`{}` is a function; call it with arguments", single.text),
                    "a function",
                    format!("write `{}(…)`", single.text),
                ),
                None => {
                    let names: Vec<&str> = scope.names.iter().map(|(n, _, _)| n.as_str()).collect();
                    match did_you_mean(&single.text, names) {
                        Some(help) => self.error_help(
                            span,
                            format!("unknown name `{}`", single.text),
                            "not in scope",
                            help,
                        ),
                        None => self.error(
                            span,
                            format!("unknown name `{}`", single.text),
                            "not in scope",
                        ),
                    }
                }
            },
            [ty_name, item] => {
                let (tn, it) = (ty_name.text.as_str(), item.text.as_str());
                match tn {
                    "int" => match it {
                        "MIN" => (Ty::Int, Node::Int(i64::MIN)),
                        "MAX" => (Ty::Int, Node::Int(i64::MAX)),
                        _ => self.error(
                            span,
                            format!("`int` has no constant `{it}`; it has `MIN` and `MAX`"),
                            "unknown constant",
                        ),
                    },
                    "Op" => match OPERATIONS.iter().find(|(_, v)| *v == it) {
                        Some(_) => (Ty::Op, Node::Op(it.to_string())),
                        None => {
                            let help = did_you_mean(it, OPERATIONS.iter().map(|(_, v)| *v))
                                .unwrap_or_else(|| {
                                    format!(
                                        "the operations are {}",
                                        OPERATIONS
                                            .iter()
                                            .map(|(_, v)| format!("`Op::{v}`"))
                                            .collect::<Vec<_>>()
                                            .join(", ")
                                    )
                                });
                            self.error_help(
                                span,
                                format!("`Op` has no operation `{it}`"),
                                "unknown operation",
                                help,
                            )
                        }
                    },
                    _ => {
                        let Some(t @ Ty::Lat(id)) = self.types.lookup(tn) else {
                            return self.unknown_type(ty_name);
                        };
                        match it {
                            "top" => return (t.clone(), Node::Top(t)),
                            "bottom" => return (t.clone(), Node::Bottom(t)),
                            _ => {}
                        }
                        let shape = self.types.shape(id);
                        let unit = match shape {
                            Shape::Finite { variants, .. } => variants.iter().any(|v| v == it),
                            Shape::Flat { .. } | Shape::Constant => it == "Bottom" || it == "Top",
                            Shape::Numeric(n) => n.elements().contains(&it),
                            Shape::Sum { summands } => {
                                it == "Bottom"
                                    || it == "Top"
                                    || summands.iter().any(|(v, p)| v == it && p.is_none())
                            }
                            _ => false,
                        };
                        if unit {
                            let element = Node::Element(t.clone(), it.to_string(), None);
                            return (t, element);
                        }
                        let mut items = vec!["top", "bottom"];
                        match shape {
                            Shape::Finite { variants, .. } => {
                                items.extend(variants.iter().map(String::as_str));
                            }
                            Shape::Sum { summands } => {
                                items.extend(["Bottom", "Top"]);
                                items.extend(summands.iter().map(|(v, _)| v.as_str()));
                            }
                            Shape::Flat { .. } | Shape::Constant => {
                                items.extend(["Bottom", "Top", "Value"]);
                            }
                            Shape::Numeric(n) => items.extend(n.elements()),
                            _ => {}
                        }
                        let elements = match shape {
                            Shape::Numeric(n) if !n.elements().is_empty() => {
                                let all: Vec<String> = n
                                    .elements()
                                    .iter()
                                    .map(|e| format!("`{tn}::{e}`"))
                                    .collect();
                                format!("the elements of `{tn}` are {}", all.join(", "))
                            }
                            _ => format!("every lattice has `{tn}::top` and `{tn}::bottom`"),
                        };
                        let help = did_you_mean(it, items).unwrap_or(elements);
                        self.error_help(
                            item.span.clone(),
                            format!("`{tn}` has no element or constant `{it}`"),
                            "unknown item",
                            help,
                        )
                    }
                }
            }
            _ => self.error(
                span,
                "a path has at most two parts: `Type::item`".into(),
                "too long",
            ),
        }
    }

    /// `Name { field: value, … }`: `Name` is a struct lattice, every field is given once with
    /// a value of its type, in any order; the node lists them in declaration order.
    fn struct_literal(
        &mut self,
        ty: &Name,
        inits: &[(Name, Expr)],
        scope: &Scope,
        span: Range<usize>,
    ) -> (Ty, Node) {
        let structs: Vec<String> = (self.types.type_names().into_iter())
            .filter(|n| {
                matches!(self.types.lookup(n), Some(Ty::Lat(id))
                    if matches!(self.types.shape(id), Shape::Struct { .. }))
            })
            .map(String::from)
            .collect();
        let found = self.types.lookup(&ty.text);
        let fields = match &found {
            Some(Ty::Lat(id)) => match self.types.shape(*id) {
                Shape::Struct { fields, .. } => Some(fields.clone()),
                _ => None,
            },
            _ => None,
        };
        let quoted = |names: &[String]| -> String {
            let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            names.join(", ")
        };
        let (Some(t), Some(fields)) = (found, fields) else {
            let help =
                did_you_mean(&ty.text, structs.iter().map(String::as_str)).unwrap_or_else(|| {
                    match structs.is_empty() {
                        true => "this file declares no struct lattice".into(),
                        false => format!("the struct lattices are {}", quoted(&structs)),
                    }
                });
            return self.error_help(
                ty.span.clone(),
                format!("`{}` is not a struct lattice", ty.text),
                "not a struct",
                help,
            );
        };
        let mut given: Vec<Option<Node>> = vec![None; fields.len()];
        let mut failed = false;
        for (field, value) in inits {
            let (vt, node) = self.expr(value, scope);
            let Some(i) = fields.iter().position(|(n, _)| *n == field.text) else {
                let names = fields.iter().map(|(n, _)| n.as_str());
                let help = did_you_mean(&field.text, names).unwrap_or_else(|| {
                    let names: Vec<String> = fields.iter().map(|(n, _)| n.clone()).collect();
                    format!("its fields are {}", quoted(&names))
                });
                self.error_help(
                    field.span.clone(),
                    format!("`{}` has no field `{}`", ty.text, field.text),
                    "unknown field",
                    help,
                );
                failed = true;
                continue;
            };
            if given[i].is_some() {
                self.error(
                    field.span.clone(),
                    format!("the field `{}` is given twice", field.text),
                    "given again",
                );
                failed = true;
                continue;
            }
            let what = format!("the field `{}` of `{}`", field.text, ty.text);
            self.expect(value.span.clone(), &vt, &fields[i].1, &what);
            given[i] = Some(node);
        }
        let missing: Vec<String> = (fields.iter().zip(&given))
            .filter(|(_, g)| g.is_none())
            .map(|((n, _), _)| n.clone())
            .collect();
        if failed {
            return (Ty::Error, Node::Unreachable);
        }
        if !missing.is_empty() {
            return self.error_help(
                span,
                format!(
                    "`{}` needs {} {}",
                    ty.text,
                    if missing.len() == 1 {
                        "its field"
                    } else {
                        "its fields"
                    },
                    quoted(&missing)
                ),
                "fields missing",
                "a struct literal gives every field".into(),
            );
        }
        (
            t.clone(),
            Node::Struct(t, given.into_iter().flatten().collect()),
        )
    }

    /// `let (a, _, c) = value; body`: `value` is a tuple of as many parts as there are binders,
    /// and no name is bound twice.
    fn let_tuple(
        &mut self,
        names: &[Option<Name>],
        value: &Expr,
        body: &Expr,
        scope: &Scope,
    ) -> (Ty, Node) {
        let (t, value_node) = self.expr(value, scope);
        if let [one] = names {
            let span = one.as_ref().map_or(value.span.clone(), |n| n.span.clone());
            return self.error_help(
                span,
                "a tuple has two parts or more, and this `let` names one".into(),
                "one name in parentheses",
                "bind a value with `let name = …;`".into(),
            );
        }
        let parts = match t {
            Ty::Tuple(parts) if parts.len() == names.len() => parts,
            Ty::Tuple(parts) => {
                return self.error(
                    value.span.clone(),
                    format!(
                        "this tuple has {} parts, and the `let` names {}",
                        parts.len(),
                        names.len()
                    ),
                    "a tuple of another size",
                );
            }
            t if t.is_error() => return (Ty::Error, Node::Unreachable),
            t => {
                return self.error_help(
                    value.span.clone(),
                    format!(
                        "`let (…) =` takes a tuple apart, and this is `{}`",
                        self.types.name(&t)
                    ),
                    "not a tuple",
                    "bind it with `let name = …;`".into(),
                );
            }
        };
        let mut inner = scope.clone();
        let mut bound: Vec<&str> = Vec::new();
        for (name, ty) in names.iter().zip(parts) {
            let Some(name) = name else { continue };
            if bound.contains(&name.text.as_str()) {
                return self.error(
                    name.span.clone(),
                    format!("`{}` is bound twice in this `let`", name.text),
                    "bound again",
                );
            }
            bound.push(&name.text);
            inner.bind_local(&name.text, ty);
        }
        let (bt, body) = self.expr(body, &inner);
        let names = names.iter().map(|n| n.as_ref().map(|n| n.text.clone()));
        let node = Node::LetTuple(names.collect(), Box::new(value_node), Box::new(body));
        (bt, node)
    }

    /// `base.0`: the part at a position of a tuple.
    fn tuple_part(&mut self, parts: &[Ty], base: Node, bt: &Ty, field: &Name) -> (Ty, Node) {
        match field.text.parse::<usize>() {
            Ok(i) if i < parts.len() => {
                (parts[i].clone(), Node::Field(bt.clone(), Box::new(base), i))
            }
            Ok(i) => self.error_help(
                field.span.clone(),
                format!(
                    "this tuple has {} parts, and `.{i}` is past them",
                    parts.len()
                ),
                "no such part",
                format!("its parts are `.0` to `.{}`", parts.len() - 1),
            ),
            Err(_) => self.error_help(
                field.span.clone(),
                format!("a tuple has no field `{}`", field.text),
                "not a position",
                "a tuple's parts are `.0`, `.1`, …; or take it apart with `let (a, b) = …;`".into(),
            ),
        }
    }

    fn field(&mut self, base: &Expr, field: &Name, scope: &Scope) -> (Ty, Node) {
        let (bt, base_node) = self.expr(base, scope);
        if let Ty::Tuple(parts) = &bt {
            return self.tuple_part(parts, base_node, &bt, field);
        }
        let Ty::Lat(id) = bt else {
            if bt.is_error() {
                return (Ty::Error, Node::Unreachable);
            }
            return self.error(
                field.span.clone(),
                format!("`{}` has no fields", self.types.name(&bt)),
                "not a struct or product",
            );
        };
        let fields: Vec<(String, Ty)> = match self.types.shape(id) {
            Shape::Struct { fields, .. } => fields.clone(),
            Shape::Product { components } => components.clone(),
            _ => Vec::new(),
        };
        let Some(index) = fields.iter().position(|(n, _)| *n == field.text) else {
            let known: Vec<String> = fields.iter().map(|(n, _)| format!("`{n}`")).collect();
            let help = if known.is_empty() {
                format!("`{}` has no fields", self.types.name(&bt))
            } else if let Some(help) =
                did_you_mean(&field.text, fields.iter().map(|(n, _)| n.as_str()))
            {
                help
            } else {
                format!("its fields are {}", known.join(", "))
            };
            return self.error_help(
                field.span.clone(),
                format!("`{}` has no field `{}`", self.types.name(&bt), field.text),
                "unknown field",
                help,
            );
        };
        let node = Node::Field(bt, Box::new(base_node), index);
        (fields[index].1.clone(), node)
    }

    fn args(&mut self, args: &[Expr], scope: &Scope) -> Vec<Arg> {
        args.iter()
            .map(|a| {
                let (t, n) = self.expr(a, scope);
                (t, n, a.span.clone())
            })
            .collect()
    }

    fn check_args(&mut self, what: &str, got: &[Arg], want: &[Ty], span: Range<usize>) -> bool {
        if got.len() != want.len() {
            self.error(
                span,
                format!(
                    "`{what}` takes {} argument{}, {} given",
                    want.len(),
                    if want.len() == 1 { "" } else { "s" },
                    got.len()
                ),
                "wrong number of arguments",
            );
            return false;
        }
        for (i, ((t, _, s), w)) in got.iter().zip(want).enumerate() {
            self.expect(s.clone(), t, w, &format!("argument {} of `{what}`", i + 1));
        }
        true
    }
}
