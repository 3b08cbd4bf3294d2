//! Expressions: a checked [`Node`] → Rust evaluating to its owned value.
//!
//! Checked arithmetic (`+ - * / %`, the checked shifts, unary `-`) becomes `checked_*(…)?`
//! inside a function that returns `Option`, so an overflow or a division by zero makes the
//! whole body give `None` (and its function fall back to its sound default); `+% -% *%` wrap.
//! `if traps(op, a, b) { T } else { F }` (or `if !traps(op, a, b) { F } else { T }`) evaluates
//! the operation once (see [`Exprs::if_traps`]).

use super::calls;
use super::names::{field_ident, ident, rt};
use crate::dom::tree::{Arm, Binding, Node, Pat, Program, Shape, Ty};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// Generates the expressions of one body.
#[derive(Debug)]
pub(super) struct Exprs<'a> {
    program: &'a Program,
    /// Operations already evaluated on the way to the expression being generated: inside the
    /// value branch of `if traps(op, a, b)`, the value of `eval(op, a, b)` is bound once (see
    /// [`Exprs::if_traps`]). Keyed by the Rust of the operation and operands; emptied wherever a
    /// new name could shadow one they read.
    evals: Vec<(String, Ident)>,
    /// The `fn` whose body this is, when it is declared `recursion N`: its calls to itself
    /// pass on one call fewer (see [`calls::self_call`]).
    recursive: Option<&'a str>,
}

/// The key of an evaluated operation: the Rust of its operation and operands.
fn eval_key(o: &TokenStream, a: &TokenStream, b: &TokenStream) -> String {
    format!("{o}|{a}|{b}")
}

impl<'a> Exprs<'a> {
    /// A body: Rust evaluating to `Option` of its value (`None` when it fails); `recursive`
    /// names the `fn` it is the body of when that is declared `recursion N`.
    pub(super) fn body_of(
        program: &'a Program,
        node: &Node,
        recursive: Option<&'a str>,
    ) -> TokenStream {
        let mut exprs = Exprs {
            program,
            evals: Vec::new(),
            recursive,
        };
        let code = exprs.expr(node);
        quote!(::core::option::Option::Some(#code))
    }

    /// The Rust spelling of a type.
    fn rust(&self, t: &Ty) -> TokenStream {
        self.program.types.rust(t)
    }

    fn all(&mut self, nodes: &[Node]) -> Vec<TokenStream> {
        nodes.iter().map(|n| self.expr(n)).collect()
    }

    fn expr(&mut self, node: &Node) -> TokenStream {
        let rt = rt();
        match node {
            Node::Int(v) => int(*v),
            Node::Bool(b) => quote!(#b),
            Node::Var(x, ty, binding) => {
                let x = ident(x);
                match (ty, binding) {
                    // A lattice parameter is a reference.
                    (Ty::Lat(_), Binding::Param) => quote!(::core::clone::Clone::clone(#x)),
                    (Ty::Lat(_) | Ty::Tuple(_), _) => quote!(::core::clone::Clone::clone(&#x)),
                    _ => quote!(#x),
                }
            }
            Node::Tuple(parts) => {
                let parts = self.all(parts);
                quote!((#(#parts),*))
            }
            Node::Neg(x) => {
                let x = self.expr(x);
                quote!((#x).checked_neg()?)
            }
            Node::Not(x) => match &**x {
                Node::Equal(_, a, b) => {
                    let (a, b) = (self.expr(a), self.expr(b));
                    quote!((#a) != (#b))
                }
                _ => {
                    let x = self.expr(x);
                    quote!(!(#x))
                }
            },
            Node::BitNot(x) => {
                let x = self.expr(x);
                quote!(!(#x))
            }
            Node::Binary(op, a, b) => {
                let (a, b) = (self.expr(a), self.expr(b));
                calls::binary(*op, &a, &b)
            }
            Node::Equal(_, a, b) => {
                let (a, b) = (self.expr(a), self.expr(b));
                quote!((#a) == (#b))
            }
            Node::Let(x, value, body) => {
                let value = self.expr(value);
                let body = self.shadowing(|this| this.expr(body));
                let x = ident(x);
                quote!({ let #x = #value; let _ = &#x; #body })
            }
            Node::LetTuple(names, value, body) => {
                let value = self.expr(value);
                let body = self.shadowing(|this| this.expr(body));
                let binders = names.iter().map(|n| match n {
                    Some(n) => {
                        let x = ident(n);
                        quote!(#x)
                    }
                    None => quote!(_),
                });
                let named = names.iter().flatten().map(|n| ident(n));
                quote!({ let (#(#binders),*) = #value; let _ = (#(&#named,)*); #body })
            }
            Node::If(c, t, f) => match traps_condition(c) {
                Some((args, false)) => self.if_traps(args, t, f),
                Some((args, true)) => self.if_traps(args, f, t),
                None => {
                    let (c, t, f) = (self.expr(c), self.expr(t), self.expr(f));
                    quote!(if #c { #t } else { #f })
                }
            },
            Node::Match(ty, scrutinee, arms) => self.matching(ty, scrutinee, arms),
            Node::Field(ty, base, index) => {
                let place = self.place(base);
                let f = field_ident(&self.program.types, ty, *index);
                quote!(::core::clone::Clone::clone(&#place.#f))
            }
            Node::Op(v) => {
                let v = ident(v);
                quote!(#rt::Op::#v)
            }
            Node::Top(t) => {
                let rust = self.rust(t);
                quote!(<#rust as #rt::Top>::top())
            }
            Node::Bottom(t) => {
                let rust = self.rust(t);
                quote!(<#rust as #rt::Lattice>::bottom())
            }
            Node::Element(t, v, payload) => {
                let v = ident(v);
                match (self.shape(t), payload) {
                    // The argument gives the type of `Flat`'s payload.
                    (Shape::Constant, Some(x)) => {
                        let x = self.expr(x);
                        quote!(#rt::Flat::Value(#x))
                    }
                    (Shape::Constant, None) => quote!(#rt::Flat::<i64>::#v),
                    (_, Some(x)) => {
                        let (rust, x) = (self.rust(t), self.expr(x));
                        quote!(#rust::#v(#x))
                    }
                    (_, None) => {
                        let rust = self.rust(t);
                        quote!(#rust::#v)
                    }
                }
            }
            Node::Struct(t, values) => {
                let Shape::Struct { fields, .. } = self.shape(t) else {
                    unreachable!("the checker constructs struct lattices only")
                };
                let names: Vec<Ident> = fields.iter().map(|(f, _)| ident(f)).collect();
                let values = self.all(values);
                let rust = self.rust(t);
                quote!(#rust { #(#names: #values),* })
            }
            Node::Lattice(op, t, args) => {
                let args = self.all(args);
                calls::lattice_op(&self.rust(t), op, &args)
            }
            Node::Builtin(name, args) => {
                let args = self.all(args);
                let known = match (name.as_str(), args.as_slice()) {
                    ("eval", [o, a, b]) => self.evaluated(&eval_key(o, a, b)),
                    _ => None,
                };
                match known {
                    Some(known) => quote!(#known),
                    None => calls::builtin(name, &args),
                }
            }
            Node::Call(name, args) => {
                let args = self.all(args);
                if self.recursive == Some(name.as_str()) {
                    calls::self_call(self.program, name, args)
                } else {
                    calls::call(self.program, name, args)
                }
            }
            Node::TypeFn(t, name, args) => {
                let args = self.all(args);
                calls::type_fn(self.program, t, name, &args)
            }
            Node::Unreachable => {
                unreachable!("only a program that checked without errors is generated")
            }
        }
    }

    /// The shape of the lattice `t`.
    fn shape(&self, t: &Ty) -> &'a Shape {
        match t {
            Ty::Lat(id) => self.program.types.shape(*id),
            other => unreachable!(
                "the checker gives lattice nodes lattice types, not `{}`",
                self.program.types.name(other)
            ),
        }
    }

    /// Rust naming the value of `node` without copying it where possible (a variable or a
    /// field of one), else the owned value in parentheses.
    fn place(&mut self, node: &Node) -> TokenStream {
        match node {
            Node::Var(x, ..) => {
                let x = ident(x);
                quote!(#x)
            }
            Node::Field(ty, base, index) => {
                let inner = self.place(base);
                let f = field_ident(&self.program.types, ty, *index);
                quote!(#inner.#f)
            }
            _ => {
                let code = self.expr(node);
                quote!((#code))
            }
        }
    }

    /// `if traps(op, a, b) { T } else { F }` evaluates the operation once: it becomes a `match`
    /// on its result, and `eval(op, a, b)` with the same arguments inside `F` names that result
    /// (`eval` is pure, so this is what evaluating it again would give).
    fn if_traps(&mut self, args: &[Node], trapping: &Node, value: &Node) -> TokenStream {
        let [o, a, b] = args else {
            unreachable!("the checker gives `traps` three arguments")
        };
        let (o, a, b) = (self.expr(o), self.expr(a), self.expr(b));
        let result = format_ident!("__absinthe_eval{}", self.evals.len());
        let trapping = self.expr(trapping);
        self.evals.push((eval_key(&o, &a, &b), result.clone()));
        let value = self.expr(value);
        self.evals.pop();
        quote! {
            match (#o).eval(#a, #b) {
                ::core::option::Option::None => { #trapping }
                ::core::option::Option::Some(#result) => { let _ = #result; #value }
            }
        }
    }

    /// The name bound to the value of the evaluated operation with this key, if any.
    fn evaluated(&self, key: &str) -> Option<&Ident> {
        self.evals
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, x)| x)
    }

    /// Generates with no operation known to be evaluated: `generate` is under a binder that
    /// could shadow the arguments of one.
    fn shadowing<T>(&mut self, generate: impl FnOnce(&mut Self) -> T) -> T {
        let known = std::mem::take(&mut self.evals);
        let result = generate(self);
        self.evals = known;
        result
    }

    fn matching(&mut self, ty: &Ty, scrutinee: &Node, arms: &[Arm]) -> TokenStream {
        let scrutinee = self.expr(scrutinee);
        let arms: Vec<TokenStream> = arms
            .iter()
            .map(|arm| {
                let patterns: Vec<TokenStream> =
                    arm.patterns.iter().map(|p| self.pattern(ty, p)).collect();
                let mut binds = Vec::new();
                for p in &arm.patterns {
                    binders(p, &mut binds);
                }
                let binds = binds.iter().map(|b| ident(b));
                let body = self.shadowing(|this| this.expr(&arm.body));
                quote!(#(#patterns)|* => { #(let _ = &#binds;)* #body })
            })
            .collect();
        quote!(match #scrutinee { #(#arms,)* })
    }

    fn pattern(&self, ty: &Ty, pattern: &Pat) -> TokenStream {
        let rt = rt();
        let (name, binder) = match pattern {
            Pat::Wildcard => return quote!(_),
            Pat::Int(v) => return quote!(#v),
            Pat::Bind(b) => {
                let b = ident(b);
                return quote!(#b);
            }
            Pat::Tuple(parts) => {
                let Ty::Tuple(types) = ty else {
                    unreachable!("the checker takes tuple patterns on tuples only")
                };
                let parts = types.iter().zip(parts).map(|(t, p)| self.pattern(t, p));
                return quote!((#(#parts),*));
            }
            Pat::Variant(name, binder) => (name, binder),
        };
        let v = ident(name);
        let head = match ty {
            Ty::Op => quote!(#rt::Op::#v),
            Ty::ArgKind => quote!(#rt::ArgKind::#v),
            Ty::Lat(id) if matches!(self.program.types.shape(*id), Shape::Constant) => {
                quote!(#rt::Flat::#v)
            }
            _ => {
                let rust = self.rust(ty);
                quote!(#rust::#v)
            }
        };
        let carries = self
            .program
            .types
            .variants(ty)
            .and_then(|all| all.into_iter().find(|(n, _)| n == name))
            .map(|(_, payload)| payload.is_some());
        match (carries, binder) {
            (Some(true), Some(b)) => {
                let b = ident(b);
                quote!(#head(#b))
            }
            (Some(true), None) => quote!(#head(_)),
            (Some(false), _) => quote!(#head),
            (None, _) => unreachable!(
                "the checker matches `{}` on its variants only, not `{name}`",
                self.program.types.name(ty)
            ),
        }
    }
}

/// The names `pattern` binds, in order, onto `out`.
fn binders<'p>(pattern: &'p Pat, out: &mut Vec<&'p str>) {
    match pattern {
        Pat::Variant(_, Some(b)) | Pat::Bind(b) => out.push(b),
        Pat::Tuple(parts) => parts.iter().for_each(|p| binders(p, out)),
        Pat::Wildcard | Pat::Int(_) | Pat::Variant(_, None) => {}
    }
}

/// The arguments of `traps(op, a, b)` if `c` is that call (`false`) or its negation (`true`).
fn traps_condition(c: &Node) -> Option<(&[Node], bool)> {
    match c {
        Node::Builtin(name, args) if name == "traps" => Some((args, false)),
        Node::Not(inner) => match &**inner {
            Node::Builtin(name, args) if name == "traps" => Some((args, true)),
            _ => None,
        },
        _ => None,
    }
}

/// An `int` literal: the extremes by name, as `int::MIN` and `int::MAX` are written.
fn int(v: i64) -> TokenStream {
    match v {
        i64::MIN => quote!(i64::MIN),
        i64::MAX => quote!(i64::MAX),
        _ => quote!(#v),
    }
}
