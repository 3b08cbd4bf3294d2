//! Lowering calls: the lattice operations every lattice has, the built-in functions (`min`,
//! `eval`, `overflows`, …), user `fn`s, struct constructors, and the functions of the runtime's
//! lattices (`Interval::…`, `Names::…`, `Steps::…`, a `FiniteSum`'s).

use super::*;

/// The Rust of a checked expression whose tree the caller builds.
fn tokens((ty, code): (Ty, Code)) -> (Ty, TokenStream) {
    (ty, code.rust)
}

impl Lowerer<'_> {
    pub(super) fn call(
        &mut self,
        path: &[Name],
        args: &[Expr],
        scope: &Scope,
        span: Range<usize>,
    ) -> (Ty, Code) {
        let rt = rt();
        let got = self.args(args, scope);
        let builtin = |name: &str| Node::Builtin(name.to_string(), nodes(&got));
        match path {
            [single] => {
                let name = single.text.as_str();
                // Lattice operations on any lattice.
                if let Some(result) = self.lattice_op(name, &got, span.clone()) {
                    return result;
                }
                match name {
                    "min" | "max" => {
                        if !self.check_args(name, &got, &[Ty::Int, Ty::Int], span) {
                            return (Ty::Error, Code::unreachable());
                        }
                        let (a, b) = (&got[0].1, &got[1].1);
                        let f = format_ident!("{}", name);
                        let rust = quote!(::core::cmp::Ord::#f(#a, #b));
                        return (Ty::Int, Code::new(rust, builtin(name)));
                    }
                    "eval" | "traps" => {
                        if !self.check_args(name, &got, &[Ty::Op, Ty::Int, Ty::Int], span) {
                            return (Ty::Error, Code::unreachable());
                        }
                        let (o, a, b) = (&got[0].1, &got[1].1, &got[2].1);
                        let node = builtin(name);
                        return if name == "eval" {
                            let key = eval_key(o, a, b);
                            let rust = match self.evals.iter().rev().find(|(k, _)| *k == key) {
                                Some((_, known)) => quote!(#known),
                                None => quote!((#o).eval(#a, #b).unwrap_or(0)),
                            };
                            (Ty::Int, Code::new(rust, node))
                        } else {
                            let rust = quote!((#o).eval(#a, #b).is_none());
                            (Ty::Bool, Code::new(rust, node))
                        };
                    }
                    "overflows" => {
                        if !self.check_args(name, &got, &[Ty::Op, Ty::Int, Ty::Int], span) {
                            return (Ty::Error, Code::unreachable());
                        }
                        let (o, a, b) = (&got[0].1, &got[1].1, &got[2].1);
                        let rust = quote!(#rt::overflows(#o, #a, #b));
                        return (Ty::Bool, Code::new(rust, builtin(name)));
                    }
                    "is_comparison" => {
                        if !self.check_args(name, &got, &[Ty::Op], span) {
                            return (Ty::Error, Code::unreachable());
                        }
                        let o = &got[0].1;
                        let rust = quote!((#o).is_comparison());
                        return (Ty::Bool, Code::new(rust, builtin(name)));
                    }
                    _ => {}
                }
                if let Some(f) = self.functions.get(name).cloned() {
                    if !self.check_args(name, &got, &f.params, span) {
                        return (Ty::Error, Code::unreachable());
                    }
                    let callee = &f.rust;
                    let passed = got.iter().map(|(t, c, _)| Self::pass(t, c));
                    let call = quote!(#callee(#(#passed),*));
                    let call = if f.fallible { quote!(#call?) } else { call };
                    let node = Node::Call(name.to_string(), nodes(&got));
                    return (f.result.clone(), Code::new(call, node));
                }
                // A struct lattice's constructor.
                if let Some(t @ Ty::Lat(id)) = self.types.lookup(name) {
                    if let Shape::Struct { fields, .. } = self.types.shape(id).clone() {
                        let want: Vec<Ty> = fields.iter().map(|(_, t)| t.clone()).collect();
                        if !self.check_args(name, &got, &want, span) {
                            return (Ty::Error, Code::unreachable());
                        }
                        let rust = self.types.rust(&t);
                        let inits = fields.iter().zip(&got).map(|((f, _), (_, c, _))| {
                            let f = format_ident!("{}", f);
                            quote!(#f: #c)
                        });
                        let node = Node::Struct(t.clone(), nodes(&got));
                        return (t, Code::new(quote!(#rust { #(#inits),* }), node));
                    }
                }
                let mut known: Vec<&str> = BUILTIN_FUNCTIONS.to_vec();
                known.extend(self.functions.keys().map(String::as_str));
                let structs: Vec<String> = self
                    .types
                    .type_names()
                    .into_iter()
                    .filter(|n| {
                        matches!(self.types.lookup(n), Some(Ty::Lat(id))
                            if matches!(self.types.shape(id), Shape::Struct { .. }))
                    })
                    .map(String::from)
                    .collect();
                known.extend(structs.iter().map(String::as_str));
                let help = did_you_mean(name, known).unwrap_or_else(|| {
                    "the built-in functions are `join`, `meet`, `widen`, `narrow`, `leq`, `is_bottom`, `is_top`, `min`, `max`, `eval`, `traps`, `overflows` and `is_comparison`".into()
                });
                self.error_help(
                    single.span.clone(),
                    format!("unknown function `{name}`"),
                    "not a function",
                    help,
                )
            }
            [ty_name, item] => {
                let (tn, it) = (ty_name.text.as_str(), item.text.as_str());
                if tn == "Thresholds" {
                    return self.thresholds_call(item, &got, span);
                }
                let Some(t @ Ty::Lat(id)) = self.types.lookup(tn) else {
                    return self.unknown_type(ty_name);
                };
                let rust = self.types.rust(&t);
                let shape = self.types.shape(id).clone();
                let element =
                    Node::Element(t.clone(), it.to_string(), got.first().map(|g| g.1.boxed()));
                let type_fn = Node::TypeFn(t.clone(), it.to_string(), nodes(&got));
                match (&shape, it) {
                    (Shape::Flat { payload }, "Value") => {
                        if !self.check_args(
                            &format!("{tn}::Value"),
                            &got,
                            std::slice::from_ref(payload),
                            span,
                        ) {
                            return (Ty::Error, Code::unreachable());
                        }
                        let v = &got[0].1;
                        (t, Code::new(quote!(#rust::Value(#v)), element))
                    }
                    (Shape::Constant, "Value") => {
                        if !self.check_args("Constant::Value", &got, &[Ty::Int], span) {
                            return (Ty::Error, Code::unreachable());
                        }
                        let v = &got[0].1;
                        (t, Code::new(quote!(#rt::Flat::Value(#v)), element))
                    }
                    (Shape::Sum { summands }, _)
                        if summands.iter().any(|(v, p)| v == it && p.is_some()) =>
                    {
                        let payload = summands
                            .iter()
                            .find(|(v, _)| v == it)
                            .and_then(|(_, p)| p.clone())
                            .unwrap_or(Ty::Error);
                        if !self.check_args(&format!("{tn}::{it}"), &got, &[payload], span) {
                            return (Ty::Error, Code::unreachable());
                        }
                        let (v, x) = (format_ident!("{}", it), &got[0].1);
                        (t, Code::new(quote!(#rust::#v(#x)), element))
                    }
                    (Shape::Interval, _) => {
                        let (ty, rust) = self.interval_fn(it, &got, span, &t);
                        (ty, Code::new(rust, type_fn))
                    }
                    (Shape::Address, _) => {
                        let (ty, rust) = self.address_fn(it, &got, span, &t);
                        (ty, Code::new(rust, type_fn))
                    }
                    (Shape::Names | Shape::Steps, _) => {
                        let steps = matches!(shape, Shape::Steps);
                        let (ty, rust) =
                            self.kernel_set_fn(steps, it, &got, span, item.span.clone(), &t);
                        (ty, Code::new(rust, type_fn))
                    }
                    (Shape::Constant, "binary") => {
                        if !self.check_args(
                            "Constant::binary",
                            &got,
                            &[Ty::Op, t.clone(), t.clone()],
                            span,
                        ) {
                            return (Ty::Error, Code::unreachable());
                        }
                        let (o, a, b) = (&got[0].1, &got[1].1, &got[2].1);
                        let rust = quote!(<#rust as #rt::ValueDomain>::binary(#o, &(#a), &(#b)));
                        (t.clone(), Code::new(rust, type_fn))
                    }
                    (Shape::FiniteSum { inner, .. }, _) => {
                        let inner = inner.clone();
                        let (ty, rust) = self.finite_sum_fn(it, &got, span, &t, &inner);
                        (ty, Code::new(rust, type_fn))
                    }
                    _ => self.error(
                        item.span.clone(),
                        format!("`{tn}` has no function `{it}`"),
                        "unknown function",
                    ),
                }
            }
            _ => self.error(
                span,
                "a path has at most two parts: `Type::function`".into(),
                "too long",
            ),
        }
    }

    pub(super) fn lattice_op(
        &mut self,
        name: &str,
        got: &[(Ty, Code, Range<usize>)],
        span: Range<usize>,
    ) -> Option<(Ty, Code)> {
        let rt = rt();
        let arity = match name {
            "join" | "meet" | "widen" | "narrow" | "leq" => 2,
            "is_bottom" | "is_top" => 1,
            _ => return None,
        };
        if got.len() != arity {
            return Some(self.error(
                span,
                format!(
                    "`{name}` takes {arity} argument{}",
                    if arity == 1 { "" } else { "s" }
                ),
                "wrong number of arguments",
            ));
        }
        let t = got[0].0.clone();
        if !matches!(t, Ty::Lat(_)) {
            if t.is_error() {
                return Some((Ty::Error, Code::unreachable()));
            }
            return Some(self.error(
                got[0].2.clone(),
                format!("`{name}` works on lattices, not `{}`", self.types.name(&t)),
                "not a lattice",
            ));
        }
        if arity == 2 {
            self.expect(
                got[1].2.clone(),
                &got[1].0,
                &t,
                &format!("the second argument of `{name}`"),
            );
        }
        let rust = self.types.rust(&t);
        let a = &got[0].1;
        let f = format_ident!("{}", name);
        let node = Node::Lattice(name.to_string(), t.clone(), nodes(got));
        let (ty, rust) = match name {
            "leq" => {
                let b = &got[1].1;
                (Ty::Bool, quote!(<#rust as #rt::Lattice>::leq(&(#a), &(#b))))
            }
            "is_bottom" => (Ty::Bool, quote!(<#rust as #rt::Lattice>::is_bottom(&(#a)))),
            "is_top" => (Ty::Bool, quote!(<#rust as #rt::Top>::is_top(&(#a)))),
            _ => {
                let b = &got[1].1;
                (t.clone(), quote!(<#rust as #rt::Lattice>::#f(&(#a), &(#b))))
            }
        };
        Some((ty, Code::new(rust, node)))
    }

    /// The functions of the kernel-term lattices: `Names::none()`, `Names::one(p)`,
    /// `Names::all()`, `Names::contains(x, p)`, `Steps::constant(c)`, `Steps::offset(p, c)`.
    pub(super) fn kernel_set_fn(
        &mut self,
        steps: bool,
        it: &str,
        got: &[(Ty, Code, Range<usize>)],
        span: Range<usize>,
        item_span: Range<usize>,
        t: &Ty,
    ) -> (Ty, TokenStream) {
        let rust = self.types.rust(t);
        let (tn, known) = if steps {
            ("Steps", "`constant(c)`, `offset(p, c)`, `top` and `bottom`")
        } else {
            (
                "Names",
                "`none()`, `one(p)`, `all()`, `contains(x, p)`, `top` and `bottom`",
            )
        };
        let (want, result, f): (Vec<Ty>, Ty, &str) = match (steps, it) {
            (false, "none") => (Vec::new(), t.clone(), "none"),
            (false, "all") => (Vec::new(), t.clone(), "all"),
            (false, "one") => (vec![Ty::Param], t.clone(), "one"),
            (false, "contains") => (vec![t.clone(), Ty::Param], Ty::Bool, "contains"),
            (true, "constant") => (vec![Ty::Int], t.clone(), "constant"),
            (true, "offset") => (vec![Ty::Param, Ty::Int], t.clone(), "offset"),
            _ => {
                return tokens(self.error_help(
                    item_span,
                    format!("`{tn}` has no function `{it}`"),
                    "unknown function",
                    format!("`{tn}` has {known}"),
                ));
            }
        };
        if !self.check_args(&format!("{tn}::{it}"), got, &want, span) {
            return (Ty::Error, quote!(::core::unreachable!()));
        }
        let f = format_ident!("{}", f);
        let args = got.iter().map(|(ty, code, _)| match ty {
            Ty::Lat(_) => quote!(&(#code)),
            _ => code.rust.clone(),
        });
        (result, quote!(#rust::#f(#(#args),*)))
    }

    pub(super) fn interval_fn(
        &mut self,
        it: &str,
        got: &[(Ty, Code, Range<usize>)],
        span: Range<usize>,
        t: &Ty,
    ) -> (Ty, TokenStream) {
        let rt = rt();
        let unreachable = (Ty::Error, quote!(::core::unreachable!()));
        let c = |i: usize| got.get(i).map(|g| g.1.rust.clone()).unwrap_or_default();
        match it {
            "new" => {
                if !self.check_args("Interval::new", got, &[Ty::Int, Ty::Int], span) {
                    return unreachable;
                }
                let (a, b) = (c(0), c(1));
                (t.clone(), quote!(#rt::Interval::new(#a, #b)))
            }
            "constant" => {
                if !self.check_args("Interval::constant", got, &[Ty::Int], span) {
                    return unreachable;
                }
                let a = c(0);
                (t.clone(), quote!(#rt::Interval::constant(#a)))
            }
            "lo" | "hi" => {
                if !self.check_args(&format!("Interval::{it}"), got, std::slice::from_ref(t), span) {
                    return unreachable;
                }
                let a = c(0);
                let (f, empty) = if it == "lo" { (quote!(lo), quote!(i64::MAX)) } else { (quote!(hi), quote!(i64::MIN)) };
                (Ty::Int, quote!((#a).#f().unwrap_or(#empty)))
            }
            "is_constant" => {
                if !self.check_args("Interval::is_constant", got, std::slice::from_ref(t), span) {
                    return unreachable;
                }
                let a = c(0);
                (Ty::Bool, quote!((#a).as_constant().is_some()))
            }
            "contains" => {
                if !self.check_args("Interval::contains", got, &[t.clone(), Ty::Int], span) {
                    return unreachable;
                }
                let (a, v) = (c(0), c(1));
                (Ty::Bool, quote!((#a).contains(#v)))
            }
            "binary" => {
                if !self.check_args("Interval::binary", got, &[Ty::Op, t.clone(), t.clone()], span) {
                    return unreachable;
                }
                let (o, a, b) = (c(0), c(1), c(2));
                (t.clone(), quote!(<#rt::Interval as #rt::ValueDomain>::binary(#o, &(#a), &(#b))))
            }
            "assume" => {
                if !self.check_args("Interval::assume", got, &[Ty::Op, t.clone(), t.clone()], span) {
                    return unreachable;
                }
                let (o, a, b) = (c(0), c(1), c(2));
                (
                    Ty::Tuple(vec![t.clone(), t.clone()]),
                    quote!(<#rt::Interval as #rt::ValueDomain>::assume(#o, &(#a), &(#b))),
                )
            }
            _ => tokens(self.error_help(
                span,
                format!("`Interval` has no function `{it}`"),
                "unknown function",
                "`Interval` has `new`, `constant`, `lo`, `hi`, `is_constant`, `contains`, `binary`, `assume`, `top` and `bottom`".into(),
            )),
        }
    }

    /// `Address::at(s, o)`, `moved(a, k)`, `is_known(a)`, `symbol(a)` (-1 when not known),
    /// `offset(a)` (0 when not known) and `contains(a, v)`.
    pub(super) fn address_fn(
        &mut self,
        it: &str,
        got: &[(Ty, Code, Range<usize>)],
        span: Range<usize>,
        t: &Ty,
    ) -> (Ty, TokenStream) {
        let rt = rt();
        let unreachable = (Ty::Error, quote!(::core::unreachable!()));
        let c = |i: usize| got.get(i).map(|g| g.1.rust.clone()).unwrap_or_default();
        let (want, result, rust): (Vec<Ty>, Ty, TokenStream) = match it {
            "at" => {
                let (s, o) = (c(0), c(1));
                (
                    vec![Ty::Int, Ty::Int],
                    t.clone(),
                    // A symbol outside `u32` is no symbol: top.
                    quote!(match <u32 as ::core::convert::TryFrom<i64>>::try_from(#s) {
                        ::core::result::Result::Ok(s) => #rt::Address::at(#rt::SymbolId(s), #o),
                        ::core::result::Result::Err(_) => <#rt::Address as #rt::Top>::top(),
                    }),
                )
            }
            "moved" => {
                let (a, k) = (c(0), c(1));
                (vec![t.clone(), Ty::Int], t.clone(), quote!((#a).moved(#k)))
            }
            "is_known" => {
                let a = c(0);
                (vec![t.clone()], Ty::Bool, quote!((#a).known().is_some()))
            }
            "symbol" => {
                let a = c(0);
                (
                    vec![t.clone()],
                    Ty::Int,
                    quote!((#a).known().map_or(-1, |(s, _)| i64::from(s.0))),
                )
            }
            "offset" => {
                let a = c(0);
                (
                    vec![t.clone()],
                    Ty::Int,
                    quote!((#a).known().map_or(0, |(_, o)| o)),
                )
            }
            "contains" => {
                let (a, v) = (c(0), c(1));
                (
                    vec![t.clone(), Ty::Int],
                    Ty::Bool,
                    quote!((#a).contains(#v)),
                )
            }
            _ => {
                return tokens(self.error_help(
                    span,
                    format!("`Address` has no function `{it}`"),
                    "unknown function",
                    "`Address` has `at`, `moved`, `is_known`, `symbol`, `offset`, `contains`, `top` and `bottom`".into(),
                ));
            }
        };
        if !self.check_args(&format!("Address::{it}"), got, &want, span) {
            return unreachable;
        }
        (result, rust)
    }

    pub(super) fn finite_sum_fn(
        &mut self,
        it: &str,
        got: &[(Ty, Code, Range<usize>)],
        span: Range<usize>,
        t: &Ty,
        inner: &Ty,
    ) -> (Ty, TokenStream) {
        let rt = rt();
        let unreachable = (Ty::Error, quote!(::core::unreachable!()));
        let rust = self.types.rust(t);
        let inner_rust = self.types.rust(inner);
        let c = |i: usize| got.get(i).map(|g| g.1.rust.clone()).unwrap_or_default();
        match it {
            "single" => {
                if !self.check_args("FiniteSum::single", got, std::slice::from_ref(inner), span) {
                    return unreachable;
                }
                let a = c(0);
                (t.clone(), quote!(<#rust>::single(#a)))
            }
            "hull" => {
                if !self.check_args("FiniteSum::hull", got, std::slice::from_ref(t), span) {
                    return unreachable;
                }
                let a = c(0);
                (inner.clone(), quote!((#a).hull()))
            }
            "meet_each" => {
                if !self.check_args("FiniteSum::meet_each", got, &[t.clone(), inner.clone()], span) {
                    return unreachable;
                }
                let (a, x) = (c(0), c(1));
                (
                    t.clone(),
                    quote!({
                        let x: #inner_rust = #x;
                        <#rust>::from_values((#a).values().iter().map(|v| <#inner_rust as #rt::Lattice>::meet(v, &x)))
                    }),
                )
            }
            "binary" => {
                if !self.check_args("FiniteSum::binary", got, &[Ty::Op, t.clone(), t.clone()], span) {
                    return unreachable;
                }
                let (o, a, b) = (c(0), c(1), c(2));
                (
                    t.clone(),
                    quote!({
                        let (a, b): (#rust, #rust) = (#a, #b);
                        let mut out = ::std::vec::Vec::new();
                        for x in a.values() {
                            for y in b.values() {
                                out.push(<#inner_rust as #rt::ValueDomain>::binary(#o, x, y));
                            }
                        }
                        <#rust>::from_values(out)
                    }),
                )
            }
            "assume" => {
                if !self.check_args("FiniteSum::assume", got, &[Ty::Op, t.clone(), t.clone()], span) {
                    return unreachable;
                }
                let (o, a, b) = (c(0), c(1), c(2));
                (
                    Ty::Tuple(vec![t.clone(), t.clone()]),
                    quote!({
                        let (a, b): (#rust, #rust) = (#a, #b);
                        let (mut left, mut right) = (::std::vec::Vec::new(), ::std::vec::Vec::new());
                        for x in a.values() {
                            for y in b.values() {
                                let (rx, ry) = <#inner_rust as #rt::ValueDomain>::assume(#o, x, y);
                                left.push(rx);
                                right.push(ry);
                            }
                        }
                        (<#rust>::from_values(left), <#rust>::from_values(right))
                    }),
                )
            }
            _ => tokens(self.error_help(
                span,
                format!("`FiniteSum` has no function `{it}`"),
                "unknown function",
                "`FiniteSum` has `single`, `hull`, `meet_each`, `binary`, `assume`, `top` and `bottom`".into(),
            )),
        }
    }
}
