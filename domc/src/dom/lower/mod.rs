//! Rule bodies: type checking and lowering to Rust in one walk.
//!
//! Every expression is checked against the types of [`super::types`] and turned into Rust that
//! evaluates to an owned value. Checked arithmetic (`+ - * / %` and unary `-`) lowers to
//! `checked_*(…)?` inside a body that returns `Option`, so an overflow or a division by zero
//! makes the whole rule fall back to its sound default (top for a transfer, no refinement for a
//! reduction); `+% -% *%` wrap.

use super::ast::{BinaryOp, Expr, ExprKind, Name, Pattern, UnaryOp};
use super::sema::FnSig;
use super::tree::{self, Node};
use super::types::{Shape, Ty, TypeTable};
use crate::diagnostic::{Diagnostic, FileId, did_you_mean};
use crate::model::OPERATIONS;
use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote};
use std::collections::BTreeMap;
use std::ops::Range;

mod calls;
mod patterns;

/// The names in scope: each with its type and whether Rust holds it by reference.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    names: Vec<(String, Ty, bool)>,
}

impl Scope {
    /// Binds a parameter (lattices by reference).
    pub fn bind(&mut self, name: &str, ty: Ty) {
        let by_ref = matches!(ty, Ty::Lat(_));
        self.names.push((name.to_string(), ty, by_ref));
    }

    fn bind_owned(&mut self, name: &str, ty: Ty) {
        self.names.push((name.to_string(), ty, false));
    }

    fn get(&self, name: &str) -> Option<&(String, Ty, bool)> {
        self.names.iter().rev().find(|(n, _, _)| n == name)
    }
}

/// A checked expression twice: the Rust the generator emits (what `quote!` interpolates) and the
/// tree an interpreter evaluates.
#[derive(Clone, Debug)]
pub struct Code {
    /// Rust evaluating to the owned value.
    pub rust: TokenStream,
    /// The same expression as a tree.
    pub node: Node,
}

impl Code {
    fn new(rust: TokenStream, node: Node) -> Code {
        Code { rust, node }
    }

    /// What an expression that failed to check becomes.
    fn unreachable() -> Code {
        Code::new(quote!(::core::unreachable!()), Node::Unreachable)
    }

    fn boxed(&self) -> Box<Node> {
        Box::new(self.node.clone())
    }
}

impl ToTokens for Code {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.rust.to_tokens(tokens);
    }
}

/// The trees of checked arguments.
fn nodes(got: &[(Ty, Code, Range<usize>)]) -> Vec<Node> {
    got.iter().map(|(_, c, _)| c.node.clone()).collect()
}

/// The key of an evaluated operation: its lowered operation and operands.
fn eval_key(o: &Code, a: &Code, b: &Code) -> String {
    format!("{}|{}|{}", o.rust, a.rust, b.rust)
}

/// Checks and lowers the bodies of one file.
pub struct Lowerer<'a> {
    file: FileId,
    types: &'a TypeTable,
    functions: &'a BTreeMap<String, FnSig>,
    errors: Vec<Diagnostic>,
    /// Operations already evaluated on the way to the expression being lowered: inside the
    /// `else` branch of `if traps(op, a, b)` the value of `eval(op, a, b)` is bound once (see
    /// [`Lowerer::if_traps`]). Keyed by the lowered arguments; emptied wherever a new name could
    /// shadow one they read.
    evals: Vec<(String, proc_macro2::Ident)>,
}

const RT: &str = "::absinthe::__private";

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

fn rt() -> TokenStream {
    quote!(::absinthe::__private)
}

impl<'a> Lowerer<'a> {
    /// A lowerer for file `file`.
    pub fn new(
        file: FileId,
        types: &'a TypeTable,
        functions: &'a BTreeMap<String, FnSig>,
    ) -> Lowerer<'a> {
        let _ = RT;
        Lowerer {
            file,
            types,
            functions,
            errors: Vec::new(),
            evals: Vec::new(),
        }
    }

    /// The errors found.
    pub fn into_errors(self) -> Vec<Diagnostic> {
        self.errors
    }

    fn error(&mut self, span: Range<usize>, message: String, label: &str) -> (Ty, Code) {
        self.errors
            .push(Diagnostic::new(self.file, span, message, label));
        (Ty::Error, Code::unreachable())
    }

    fn error_help(
        &mut self,
        span: Range<usize>,
        message: String,
        label: &str,
        help: String,
    ) -> (Ty, Code) {
        self.errors
            .push(Diagnostic::new(self.file, span, message, label).with_help(help));
        (Ty::Error, Code::unreachable())
    }

    /// `Thresholds::at_least(t, x, otherwise)`: the smallest threshold `>= x`, or `otherwise`
    /// when there is none; `Thresholds::at_most(t, x, otherwise)`: the largest `<= x`.
    fn thresholds_call(
        &mut self,
        item: &Name,
        got: &[(Ty, Code, Range<usize>)],
        span: Range<usize>,
    ) -> (Ty, Code) {
        let method = match item.text.as_str() {
            "at_least" => format_ident!("at_least"),
            "at_most" => format_ident!("at_most"),
            other => {
                let help = did_you_mean(other, ["at_least", "at_most"]).unwrap_or_else(|| {
                    "`Thresholds` has `at_least(t, x, otherwise)` and `at_most(t, x, otherwise)`"
                        .into()
                });
                return self.error_help(
                    item.span.clone(),
                    format!("`Thresholds` has no function `{other}`"),
                    "unknown function",
                    help,
                );
            }
        };
        let what = format!("Thresholds::{}", item.text);
        if !self.check_args(&what, got, &[Ty::Thresholds, Ty::Int, Ty::Int], span) {
            return (Ty::Error, Code::unreachable());
        }
        let (t, x, otherwise) = (&got[0].1, &got[1].1, &got[2].1);
        (
            Ty::Int,
            Code::new(
                quote!((#t).#method(#x).unwrap_or(#otherwise)),
                Node::Builtin(format!("Thresholds::{}", item.text), nodes(got)),
            ),
        )
    }

    /// `unknown type `T``, with a suggestion.
    fn unknown_type(&mut self, name: &Name) -> (Ty, Code) {
        let message = format!("unknown type `{}`", name.text);
        match self.types.did_you_mean(&name.text) {
            Some(help) => self.error_help(name.span.clone(), message, "not a type", help),
            None => self.error(name.span.clone(), message, "not a type"),
        }
    }

    /// A body of type `expected`: Rust evaluating to `Option<expected>`, and its tree.
    pub fn body(&mut self, e: &Expr, scope: &Scope, expected: &Ty) -> (TokenStream, Node) {
        let (ty, code) = self.expr(e, scope);
        self.expect(e.span.clone(), &ty, expected, "the declared result");
        (quote!(::core::option::Option::Some(#code)), code.node)
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

    fn expr(&mut self, e: &Expr, scope: &Scope) -> (Ty, Code) {
        let span = e.span.clone();
        match &e.kind {
            ExprKind::Int(v) => match i64::try_from(*v) {
                Ok(v) => (Ty::Int, Code::new(quote!(#v), Node::Int(v))),
                Err(_) => self.error_help(
                    span,
                    format!("the integer {v} does not fit in `int` (64 bits)"),
                    "too large",
                    "`int::MIN` and `int::MAX` name the extremes".into(),
                ),
            },
            ExprKind::Bits(bits) => match bits {
                Some(bits) => {
                    let v = *bits as i64;
                    (Ty::Int, Code::new(quote!(#v), Node::Int(v)))
                }
                None => self.error_help(
                    span,
                    "the literal has more than 64 bits".into(),
                    "too large",
                    "a hexadecimal or binary literal is a 64-bit pattern".into(),
                ),
            },
            ExprKind::Bool(b) => (Ty::Bool, Code::new(quote!(#b), Node::Bool(*b))),
            ExprKind::Tuple(parts) => {
                let (tys, codes): (Vec<Ty>, Vec<Code>) =
                    parts.iter().map(|p| self.expr(p, scope)).unzip();
                let node = Node::Tuple(codes.iter().map(|c| c.node.clone()).collect());
                (Ty::Tuple(tys), Code::new(quote!((#(#codes),*)), node))
            }
            ExprKind::Unary(op, inner) => {
                // A negative literal is a literal (no checked negation that could fail).
                if let (UnaryOp::Neg, ExprKind::Int(v)) = (op, &inner.kind) {
                    return match i64::try_from(-i128::from(*v)) {
                        Ok(v) => (Ty::Int, Code::new(quote!(#v), Node::Int(v))),
                        Err(_) => self.error_help(
                            span,
                            format!("the integer -{v} does not fit in `int` (64 bits)"),
                            "too small",
                            "`int::MIN` and `int::MAX` name the extremes".into(),
                        ),
                    };
                }
                let (t, code) = self.expr(inner, scope);
                match op {
                    UnaryOp::Neg => {
                        self.expect(inner.span.clone(), &t, &Ty::Int, "the operand of `-`");
                        let node = Node::Neg(code.boxed());
                        (Ty::Int, Code::new(quote!((#code).checked_neg()?), node))
                    }
                    UnaryOp::Not => {
                        self.expect(inner.span.clone(), &t, &Ty::Bool, "the operand of `!`");
                        (
                            Ty::Bool,
                            Code::new(quote!(!(#code)), Node::Not(code.boxed())),
                        )
                    }
                    UnaryOp::BitNot => {
                        self.expect(inner.span.clone(), &t, &Ty::Int, "the operand of `~`");
                        let node = Node::BitNot(code.boxed());
                        (Ty::Int, Code::new(quote!(!(#code)), node))
                    }
                }
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, scope, span),
            ExprKind::Let(name, value, body) => {
                let (t, v) = self.expr(value, scope);
                let mut inner = scope.clone();
                inner.bind_owned(&name.text, t);
                let x = format_ident!("{}", name.text);
                let (bt, body) = self.shadowing(|this| this.expr(body, &inner));
                let node = Node::Let(name.text.clone(), v.boxed(), body.boxed());
                (
                    bt,
                    Code::new(quote!({ let #x = #v; let _ = &#x; #body }), node),
                )
            }
            ExprKind::If(c, t, f) => {
                if let Some(lowered) = self.if_traps(c, t, f, scope) {
                    return lowered;
                }
                let (ct, c) = self.expr(c, scope);
                self.expect(span.clone(), &ct, &Ty::Bool, "a condition");
                let (tt, t_code) = self.expr(t, scope);
                let (ft, f_code) = self.expr(f, scope);
                self.expect(f.span.clone(), &ft, &tt, "the type of the other branch");
                let node = Node::If(c.boxed(), t_code.boxed(), f_code.boxed());
                (
                    tt,
                    Code::new(quote!(if #c { #t_code } else { #f_code }), node),
                )
            }
            ExprKind::Match(scrutinee, arms) => self.matching(scrutinee, arms, scope, span),
            ExprKind::Field(base, field) => self.field(base, field, scope),
            ExprKind::Path(path) => self.path(path, scope, span),
            ExprKind::Call(path, args) => self.call(path, args, scope, span),
        }
    }

    /// `if traps(op, a, b) { T } else { F }` (or `if !traps(…) { F } else { T }`) evaluates the
    /// operation once: it lowers to a `match` on its result, and `eval(op, a, b)` with the same
    /// arguments inside `F` names that result. `None` when the condition has another form.
    fn if_traps(&mut self, c: &Expr, t: &Expr, f: &Expr, scope: &Scope) -> Option<(Ty, Code)> {
        let (call, negated) = match &c.kind {
            ExprKind::Unary(UnaryOp::Not, inner) => (&**inner, true),
            _ => (c, false),
        };
        let ExprKind::Call(path, args) = &call.kind else {
            return None;
        };
        if !matches!(path.as_slice(), [p] if p.text == "traps") || args.len() != 3 {
            return None;
        }
        let got = self.args(args, scope);
        if !self.check_args(
            "traps",
            &got,
            &[Ty::Op, Ty::Int, Ty::Int],
            call.span.clone(),
        ) {
            return Some((Ty::Error, Code::unreachable()));
        }
        let (trapping, value) = if negated { (f, t) } else { (t, f) };
        let (o, a, b) = (&got[0].1, &got[1].1, &got[2].1);
        let result = format_ident!("__absinthe_eval{}", self.evals.len());
        let (tt, t_code) = self.expr(trapping, scope);
        self.evals.push((eval_key(o, a, b), result.clone()));
        let (vt, v_code) = self.expr(value, scope);
        self.evals.pop();
        self.expect(value.span.clone(), &vt, &tt, "the type of the other branch");
        let code = quote! {
            match (#o).eval(#a, #b) {
                ::core::option::Option::None => { #t_code }
                ::core::option::Option::Some(#result) => { let _ = #result; #v_code }
            }
        };
        // `eval` is pure: evaluating it again in the value branch gives the same result.
        let node = Node::If(
            Box::new(Node::Builtin("traps".into(), nodes(&got))),
            t_code.boxed(),
            v_code.boxed(),
        );
        Some((tt, Code::new(code, node)))
    }

    /// Lowers with no operation known to be evaluated: `lower` binds names that could shadow the
    /// arguments of one.
    fn shadowing<T>(&mut self, lower: impl FnOnce(&mut Self) -> T) -> T {
        let known = std::mem::take(&mut self.evals);
        let result = lower(self);
        self.evals = known;
        result
    }

    fn binary(
        &mut self,
        op: BinaryOp,
        a: &Expr,
        b: &Expr,
        scope: &Scope,
        span: Range<usize>,
    ) -> (Ty, Code) {
        let (at, ac) = self.expr(a, scope);
        let (bt, bc) = self.expr(b, scope);
        let node = Node::Binary(op, ac.boxed(), bc.boxed());
        let sym = op.symbol();
        match op {
            BinaryOp::Or | BinaryOp::And => {
                self.expect_operands(a, &at, b, &bt, &Ty::Bool, sym);
                let code = if op == BinaryOp::Or {
                    quote!((#ac) || (#bc))
                } else {
                    quote!((#ac) && (#bc))
                };
                (Ty::Bool, Code::new(code, node))
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
                let equal = Node::Equal(at.clone(), ac.boxed(), bc.boxed());
                let (code, node) = if op == BinaryOp::Eq {
                    (quote!((#ac) == (#bc)), equal)
                } else {
                    (quote!((#ac) != (#bc)), Node::Not(Box::new(equal)))
                };
                (Ty::Bool, Code::new(code, node))
            }
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => {
                self.expect_operands(a, &at, b, &bt, &Ty::Int, sym);
                let code = match op {
                    BinaryOp::Lt => quote!((#ac) < (#bc)),
                    BinaryOp::Le => quote!((#ac) <= (#bc)),
                    BinaryOp::Gt => quote!((#ac) > (#bc)),
                    _ => quote!((#ac) >= (#bc)),
                };
                (Ty::Bool, Code::new(code, node))
            }
            _ => {
                self.expect_operands(a, &at, b, &bt, &Ty::Int, sym);
                let code = match op {
                    BinaryOp::Add => quote!((#ac).checked_add(#bc)?),
                    BinaryOp::Sub => quote!((#ac).checked_sub(#bc)?),
                    BinaryOp::Mul => quote!((#ac).checked_mul(#bc)?),
                    BinaryOp::Div => quote!((#ac).checked_div(#bc)?),
                    BinaryOp::Rem => quote!((#ac).checked_rem(#bc)?),
                    BinaryOp::WrapAdd => quote!((#ac).wrapping_add(#bc)),
                    BinaryOp::WrapSub => quote!((#ac).wrapping_sub(#bc)),
                    BinaryOp::WrapMul => quote!((#ac).wrapping_mul(#bc)),
                    BinaryOp::BitAnd => quote!((#ac) & (#bc)),
                    BinaryOp::BitOr => quote!((#ac) | (#bc)),
                    BinaryOp::BitXor => quote!((#ac) ^ (#bc)),
                    _ => {
                        let rt = rt();
                        let f = match op {
                            BinaryOp::Shl => "checked_shl",
                            BinaryOp::Shr => "checked_shr",
                            BinaryOp::LShr => "checked_lshr",
                            BinaryOp::WrapShl => "wrapping_shl",
                            BinaryOp::WrapShr => "wrapping_shr",
                            _ => "wrapping_lshr",
                        };
                        let f = format_ident!("{f}");
                        if f.to_string().starts_with("checked") {
                            quote!(#rt::#f(#ac, #bc)?)
                        } else {
                            quote!(#rt::#f(#ac, #bc))
                        }
                    }
                };
                (Ty::Int, Code::new(code, node))
            }
        }
    }

    /// A variable, `int::MIN`, `Op::Add`, `T::top`, or a unit variant such as `Sign::Neg`.
    fn path(&mut self, path: &[Name], scope: &Scope, span: Range<usize>) -> (Ty, Code) {
        let rt = rt();
        match path {
            [single] => match scope.get(&single.text) {
                Some((_, ty, by_ref)) => {
                    let x = format_ident!("{}", single.text);
                    let code = match (ty, by_ref) {
                        (Ty::Lat(_), true) => quote!(::core::clone::Clone::clone(#x)),
                        (Ty::Lat(_) | Ty::Tuple(_), false) => {
                            quote!(::core::clone::Clone::clone(&#x))
                        }
                        _ => quote!(#x),
                    };
                    (ty.clone(), Code::new(code, Node::Var(single.text.clone())))
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
                        "MIN" => (Ty::Int, Code::new(quote!(i64::MIN), Node::Int(i64::MIN))),
                        "MAX" => (Ty::Int, Code::new(quote!(i64::MAX), Node::Int(i64::MAX))),
                        _ => self.error(
                            span,
                            format!("`int` has no constant `{it}`; it has `MIN` and `MAX`"),
                            "unknown constant",
                        ),
                    },
                    "Op" => match OPERATIONS.iter().find(|(_, v)| *v == it) {
                        Some(_) => {
                            let v = format_ident!("{}", it);
                            (
                                Ty::Op,
                                Code::new(quote!(#rt::Op::#v), Node::Op(it.to_string())),
                            )
                        }
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
                        let rust = self.types.rust(&t);
                        match it {
                            "top" => {
                                let node = Node::Top(t.clone());
                                return (t, Code::new(quote!(<#rust as #rt::Top>::top()), node));
                            }
                            "bottom" => {
                                let node = Node::Bottom(t.clone());
                                let rust = quote!(<#rust as #rt::Lattice>::bottom());
                                return (t, Code::new(rust, node));
                            }
                            _ => {}
                        }
                        let element = Node::Element(t.clone(), it.to_string(), None);
                        match self.types.shape(id) {
                            Shape::Finite { variants, .. } if variants.iter().any(|v| v == it) => {
                                let v = format_ident!("{}", it);
                                (t, Code::new(quote!(#rust::#v), element))
                            }
                            Shape::Flat { .. } | Shape::Sum { .. }
                                if it == "Bottom" || it == "Top" =>
                            {
                                let v = format_ident!("{}", it);
                                (t, Code::new(quote!(#rust::#v), element))
                            }
                            Shape::Constant if it == "Bottom" || it == "Top" => {
                                let v = format_ident!("{}", it);
                                (t, Code::new(quote!(#rt::Flat::<i64>::#v), element))
                            }
                            Shape::Sum { summands }
                                if summands.iter().any(|(v, p)| v == it && p.is_none()) =>
                            {
                                let v = format_ident!("{}", it);
                                (t, Code::new(quote!(#rust::#v), element))
                            }
                            shape => {
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
                                    _ => {}
                                }
                                let help = did_you_mean(it, items).unwrap_or_else(|| {
                                    format!("every lattice has `{tn}::top` and `{tn}::bottom`")
                                });
                                self.error_help(
                                    item.span.clone(),
                                    format!("`{tn}` has no element or constant `{it}`"),
                                    "unknown item",
                                    help,
                                )
                            }
                        }
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

    fn field(&mut self, base: &Expr, field: &Name, scope: &Scope) -> (Ty, Code) {
        let (bt, base_code) = self.expr(base, scope);
        let Ty::Lat(id) = bt else {
            if bt.is_error() {
                return (Ty::Error, Code::unreachable());
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
        let f = format_ident!("{}", field.text);
        let place = self.place(base, scope);
        let node = Node::Field(base_code.boxed(), index);
        (
            fields[index].1.clone(),
            Code::new(quote!(::core::clone::Clone::clone(&#place.#f)), node),
        )
    }

    /// Rust naming the value of `e` without copying it where possible (a variable or a field of
    /// one), else the owned value in parentheses.
    fn place(&mut self, e: &Expr, scope: &Scope) -> TokenStream {
        match &e.kind {
            ExprKind::Path(path) if path.len() == 1 && scope.get(&path[0].text).is_some() => {
                let x = format_ident!("{}", path[0].text);
                quote!(#x)
            }
            ExprKind::Field(base, field) => {
                let inner = self.place(base, scope);
                let f = format_ident!("{}", field.text);
                quote!(#inner.#f)
            }
            _ => {
                let (_, code) = self.expr(e, scope);
                quote!((#code))
            }
        }
    }

    fn args(&mut self, args: &[Expr], scope: &Scope) -> Vec<(Ty, Code, Range<usize>)> {
        args.iter()
            .map(|a| {
                let (t, c) = self.expr(a, scope);
                (t, c, a.span.clone())
            })
            .collect()
    }

    fn check_args(
        &mut self,
        what: &str,
        got: &[(Ty, Code, Range<usize>)],
        want: &[Ty],
        span: Range<usize>,
    ) -> bool {
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

    /// `&(owned)` for a lattice argument passed by reference, the value otherwise.
    fn pass(ty: &Ty, code: &Code) -> TokenStream {
        match ty {
            Ty::Lat(_) => quote!(&(#code)),
            _ => code.rust.clone(),
        }
    }
}
