//! Checking calls: the lattice operations every lattice has, the built-in functions (`min`,
//! `eval`, `overflows`, …), user `fn`s, struct constructors, and the functions of the runtime's
//! lattices (`Interval::…`, `Names::…`, `Steps::…`, a `FiniteSum`'s).

use super::*;

/// A function's parameter types and result type.
type Signature = (Vec<Ty>, Ty);

impl Checker<'_> {
    pub(super) fn call(
        &mut self,
        path: &[Name],
        args: &[Expr],
        scope: &Scope,
        span: Range<usize>,
    ) -> (Ty, Node) {
        let got = self.args(args, scope);
        match path {
            [single] => self.named_call(single, &got, span),
            [ty_name, item] => self.type_call(ty_name, item, &got, span),
            _ => self.error(
                span,
                "a path has at most two parts: `Type::function`".into(),
                "too long",
            ),
        }
    }

    /// A call by a single name: a lattice operation, a built-in function, a `fn` or an
    /// `extern fn`, or a struct lattice's constructor.
    fn named_call(&mut self, single: &Name, got: &[Arg], span: Range<usize>) -> (Ty, Node) {
        let name = single.text.as_str();
        // Lattice operations on any lattice.
        if let Some(result) = self.lattice_op(name, got, span.clone()) {
            return result;
        }
        let builtin: Option<Signature> = match name {
            "min" | "max" => Some((vec![Ty::Int, Ty::Int], Ty::Int)),
            "eval" => Some((vec![Ty::Op, Ty::Int, Ty::Int], Ty::Int)),
            "traps" | "overflows" => Some((vec![Ty::Op, Ty::Int, Ty::Int], Ty::Bool)),
            "is_comparison" => Some((vec![Ty::Op], Ty::Bool)),
            _ => None,
        };
        if let Some((want, result)) = builtin {
            if !self.check_args(name, got, &want, span) {
                return (Ty::Error, Node::Unreachable);
            }
            return (result, Node::Builtin(name.to_string(), nodes(got)));
        }
        if let Some(f) = self.functions.get(name) {
            if !self.check_args(name, got, &f.params, span) {
                return (Ty::Error, Node::Unreachable);
            }
            return (f.result.clone(), Node::Call(name.to_string(), nodes(got)));
        }
        // A struct lattice's constructor.
        if let Some(t @ Ty::Lat(id)) = self.types.lookup(name) {
            if let Shape::Struct { fields, .. } = self.types.shape(id) {
                let want: Vec<Ty> = fields.iter().map(|(_, t)| t.clone()).collect();
                if !self.check_args(name, got, &want, span) {
                    return (Ty::Error, Node::Unreachable);
                }
                return (t.clone(), Node::Struct(t, nodes(got)));
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

    /// A call of `Type::item`: an element with a payload, or a function of a runtime lattice.
    fn type_call(
        &mut self,
        ty_name: &Name,
        item: &Name,
        got: &[Arg],
        span: Range<usize>,
    ) -> (Ty, Node) {
        let (tn, it) = (ty_name.text.as_str(), item.text.as_str());
        if tn == "Thresholds" {
            return self.thresholds_call(item, got, span);
        }
        let Some(t @ Ty::Lat(id)) = self.types.lookup(tn) else {
            return self.unknown_type(ty_name);
        };
        let shape = self.types.shape(id).clone();
        // An element with a payload.
        let payload = match (&shape, it) {
            (Shape::Flat { payload }, "Value") => Some((format!("{tn}::Value"), payload.clone())),
            (Shape::Constant, "Value") => Some(("Constant::Value".to_string(), Ty::Int)),
            (Shape::Sum { summands }, _) => summands
                .iter()
                .find_map(|(v, p)| p.clone().filter(|_| v == it))
                .map(|p| (format!("{tn}::{it}"), p)),
            _ => None,
        };
        if let Some((what, payload)) = payload {
            if !self.check_args(&what, got, &[payload], span) {
                return (Ty::Error, Node::Unreachable);
            }
            let element = Node::Element(t, it.to_string(), Some(Box::new(got[0].1.clone())));
            return (Ty::Lat(id), element);
        }
        let (family, signature) = match &shape {
            Shape::Interval => ("Interval", self.interval_fn(it, &t, span.clone())),
            Shape::Address => ("Address", self.address_fn(it, &t, span.clone())),
            Shape::Numeric(n) => (n.name(), self.numeric_fn(*n, it, &t, span.clone())),
            Shape::Relation(r) => (r.name(), self.relation_fn(r.name(), it, &t, span.clone())),
            Shape::Names => ("Names", self.names_fn(it, &t, item.span.clone())),
            Shape::Steps => ("Steps", self.steps_fn(it, &t, item.span.clone())),
            Shape::Constant if it == "binary" => (
                "Constant",
                Some((vec![Ty::Op, t.clone(), t.clone()], t.clone())),
            ),
            Shape::FiniteSum { inner, .. } => {
                let inner = inner.clone();
                (
                    "FiniteSum",
                    self.finite_sum_fn(it, &t, &inner, span.clone()),
                )
            }
            _ => {
                return self.error(
                    item.span.clone(),
                    format!("`{tn}` has no function `{it}`"),
                    "unknown function",
                );
            }
        };
        let Some((want, result)) = signature else {
            return (Ty::Error, Node::Unreachable);
        };
        if !self.check_args(&format!("{family}::{it}"), got, &want, span) {
            return (Ty::Error, Node::Unreachable);
        }
        (result, Node::TypeFn(t, it.to_string(), nodes(got)))
    }

    pub(super) fn lattice_op(
        &mut self,
        name: &str,
        got: &[Arg],
        span: Range<usize>,
    ) -> Option<(Ty, Node)> {
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
                return Some((Ty::Error, Node::Unreachable));
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
        let result = match name {
            "leq" | "is_bottom" | "is_top" => Ty::Bool,
            _ => t.clone(),
        };
        Some((result, Node::Lattice(name.to_string(), t, nodes(got))))
    }

    /// The functions of a relational component's type `name` (`Octagon`, `Zone`): `bounds(o)`,
    /// the interval the relation gives the name, and `within(i)`, the component holding the
    /// interval `i`.
    fn relation_fn(
        &mut self,
        name: &str,
        it: &str,
        t: &Ty,
        span: Range<usize>,
    ) -> Option<Signature> {
        let Some(interval) = self.types.lookup("Interval") else {
            unreachable!("`Interval` is declared by every type table")
        };
        match it {
            "bounds" => Some((vec![t.clone()], interval)),
            "within" => Some((vec![interval], t.clone())),
            _ => {
                self.error_help(
                    span,
                    format!("`{name}` has no function `{it}`"),
                    "unknown function",
                    format!("`{name}` has `bounds(o)`, `within(i)`, `top` and `bottom`"),
                );
                None
            }
        }
    }

    /// The functions of `Names`: `none()`, `one(p)`, `all()`, `contains(x, p)`.
    fn names_fn(&mut self, it: &str, t: &Ty, item_span: Range<usize>) -> Option<Signature> {
        match it {
            "none" | "all" => Some((Vec::new(), t.clone())),
            "one" => Some((vec![Ty::Param], t.clone())),
            "contains" => Some((vec![t.clone(), Ty::Param], Ty::Bool)),
            _ => {
                self.error_help(
                    item_span,
                    format!("`Names` has no function `{it}`"),
                    "unknown function",
                    "`Names` has `none()`, `one(p)`, `all()`, `contains(x, p)`, `top` and `bottom`"
                        .into(),
                );
                None
            }
        }
    }

    /// The functions of `Steps`: `constant(c)`, `offset(p, c)`.
    fn steps_fn(&mut self, it: &str, t: &Ty, item_span: Range<usize>) -> Option<Signature> {
        match it {
            "constant" => Some((vec![Ty::Int], t.clone())),
            "offset" => Some((vec![Ty::Param, Ty::Int], t.clone())),
            _ => {
                self.error_help(
                    item_span,
                    format!("`Steps` has no function `{it}`"),
                    "unknown function",
                    "`Steps` has `constant(c)`, `offset(p, c)`, `top` and `bottom`".into(),
                );
                None
            }
        }
    }

    /// The functions of `Interval`: `new(lo, hi)`, `constant(c)`, `lo(i)` (`int::MAX` when
    /// empty), `hi(i)` (`int::MIN` when empty), `is_constant(i)`, `contains(i, v)`,
    /// `binary(op, a, b)` and `assume(op, a, b)`.
    fn interval_fn(&mut self, it: &str, t: &Ty, span: Range<usize>) -> Option<Signature> {
        let operands = vec![Ty::Op, t.clone(), t.clone()];
        match it {
            "new" => Some((vec![Ty::Int, Ty::Int], t.clone())),
            "constant" => Some((vec![Ty::Int], t.clone())),
            "lo" | "hi" => Some((vec![t.clone()], Ty::Int)),
            "is_constant" => Some((vec![t.clone()], Ty::Bool)),
            "contains" => Some((vec![t.clone(), Ty::Int], Ty::Bool)),
            "binary" => Some((operands, t.clone())),
            "assume" => Some((operands, Ty::Tuple(vec![t.clone(), t.clone()]))),
            _ => {
                self.error_help(
                    span,
                    format!("`Interval` has no function `{it}`"),
                    "unknown function",
                    "`Interval` has `new`, `constant`, `lo`, `hi`, `is_constant`, `contains`, `binary`, `assume`, `top` and `bottom`".into(),
                );
                None
            }
        }
    }

    /// The functions of `Sign` and `Parity` (`of(c)`, `contains(x, v)`, `binary(op, a, b)`,
    /// `assume(op, a, b)`) and of `Congruence` (`new(m, r)`, `constant(c)`, `modulus(x)`,
    /// `residue(x)`, `is_constant(x)`, `contains(x, v)`, `binary`, `assume`).
    fn numeric_fn(
        &mut self,
        n: Numeric,
        it: &str,
        t: &Ty,
        span: Range<usize>,
    ) -> Option<Signature> {
        let operands = vec![Ty::Op, t.clone(), t.clone()];
        match (n, it) {
            (_, "contains") => Some((vec![t.clone(), Ty::Int], Ty::Bool)),
            (_, "binary") => Some((operands, t.clone())),
            (_, "assume") => Some((operands, Ty::Tuple(vec![t.clone(), t.clone()]))),
            (Numeric::Sign | Numeric::Parity, "of") => Some((vec![Ty::Int], t.clone())),
            (Numeric::Congruence, "new") => Some((vec![Ty::Int, Ty::Int], t.clone())),
            (Numeric::Congruence, "constant") => Some((vec![Ty::Int], t.clone())),
            (Numeric::Congruence, "modulus" | "residue") => Some((vec![t.clone()], Ty::Int)),
            (Numeric::Congruence, "is_constant") => Some((vec![t.clone()], Ty::Bool)),
            _ => {
                let has = match n {
                    Numeric::Congruence => {
                        "`new`, `constant`, `modulus`, `residue`, `is_constant`, `contains`, \
                         `binary`, `assume`, `top` and `bottom`"
                    }
                    Numeric::Sign | Numeric::Parity => {
                        "`of`, `contains`, `binary`, `assume`, its elements, `top` and `bottom`"
                    }
                };
                let name = n.name();
                self.error_help(
                    span,
                    format!("`{name}` has no function `{it}`"),
                    "unknown function",
                    format!("`{name}` has {has}"),
                );
                None
            }
        }
    }

    /// The functions of `Address`: `at(s, o)`, `moved(a, k)`, `is_known(a)`, `symbol(a)` (-1
    /// when not known), `offset(a)` (0 when not known) and `contains(a, v)`.
    fn address_fn(&mut self, it: &str, t: &Ty, span: Range<usize>) -> Option<Signature> {
        match it {
            "at" => Some((vec![Ty::Int, Ty::Int], t.clone())),
            "moved" => Some((vec![t.clone(), Ty::Int], t.clone())),
            "is_known" => Some((vec![t.clone()], Ty::Bool)),
            "symbol" | "offset" => Some((vec![t.clone()], Ty::Int)),
            "contains" => Some((vec![t.clone(), Ty::Int], Ty::Bool)),
            _ => {
                self.error_help(
                    span,
                    format!("`Address` has no function `{it}`"),
                    "unknown function",
                    "`Address` has `at`, `moved`, `is_known`, `symbol`, `offset`, `contains`, `top` and `bottom`".into(),
                );
                None
            }
        }
    }

    /// The functions of a `FiniteSum` of `inner` values: `single(x)`, `hull(s)`,
    /// `meet_each(s, x)`, `binary(op, a, b)` and `assume(op, a, b)`.
    fn finite_sum_fn(
        &mut self,
        it: &str,
        t: &Ty,
        inner: &Ty,
        span: Range<usize>,
    ) -> Option<Signature> {
        let operands = vec![Ty::Op, t.clone(), t.clone()];
        match it {
            "single" => Some((vec![inner.clone()], t.clone())),
            "hull" => Some((vec![t.clone()], inner.clone())),
            "meet_each" => Some((vec![t.clone(), inner.clone()], t.clone())),
            "binary" => Some((operands, t.clone())),
            "assume" => Some((operands, Ty::Tuple(vec![t.clone(), t.clone()]))),
            _ => {
                self.error_help(
                    span,
                    format!("`FiniteSum` has no function `{it}`"),
                    "unknown function",
                    "`FiniteSum` has `single`, `hull`, `meet_each`, `binary`, `assume`, `top` and `bottom`".into(),
                );
                None
            }
        }
    }
}
