//! Evaluating checked bodies: the tree of every rule, reduction, helper and written-out lattice
//! operation (`absinthe_domc::dom::tree`), with the semantics of the Rust the generator emits for
//! it. A body fails (`None`) where that Rust's `?` leaves it: checked arithmetic that leaves
//! `int`, or a helper `fn` that failed; the function's fallback then gives its result.

use super::Interp;
use super::value::{BOTTOM, FLAT_TOP, FLAT_VALUE, Val, Widen, sum_top, summand_index};
use absinthe::__private::{
    checked_lshr, checked_shl, checked_shr, overflows, wrapping_lshr, wrapping_shl, wrapping_shr,
};
use absinthe::behavior::{ArgKind, Names, Steps};
use absinthe::lattice::{Address, Flat, Interval};
use absinthe::program::{Op, SymbolId};
use absinthe::value::ValueDomain;
use absinthe_domc::dom::tree::{BinaryOp, Fallback, Function, Node, Pat, Shape, Ty};
use std::rc::Rc;

/// The names in scope, innermost last.
type Env<'a> = Vec<(&'a str, Val)>;

impl Interp {
    /// Calls the function `name` (a rule, reduction, helper or written-out operation) on `args`:
    /// its body's value, or its fallback when the body fails.
    pub fn call_op(&self, name: &str, args: &[Val]) -> Val {
        let f = self.function(name);
        // The checker bounds nesting (`syntax::MAX_NESTING`); this bounds the stack it takes.
        if let Some(v) = stacker::maybe_grow(256 << 10, 16 << 20, || self.apply(name, args)) {
            return v;
        }
        // The body failed: the function's fallback is the generated function's result then.
        match &f.fallback {
            Fallback::Top(t) => self.top(t),
            Fallback::Param(i) => args[*i].clone(),
            Fallback::Operands(c) => {
                let n = args.len();
                let (a, b) = (&args[n - 2], &args[n - 1]);
                Val::Tuple(vec![a.part(*c).clone(), b.part(*c).clone()].into())
            }
            Fallback::Bool(b) => Val::Bool(*b),
            // `fn` helpers fail through to their callers, which are bodies (see `apply`), never
            // called from here; a written-out `bottom` or `top` cannot fail (the checker
            // rejects one that can, and the generated code has `unreachable!()` there).
            Fallback::Fail => unreachable!(
                "the checker lets no written-out `bottom` or `top` fail and calls `fn` helpers \
                 from bodies only, but `{name}` ({}) failed",
                f.place
            ),
        }
    }

    /// The function `name` of the program.
    fn function(&self, name: &str) -> &Function {
        match self.program.functions.get(name) {
            Some(f) => f,
            // `Interp::new` refuses `extern fn`s, the only functions without a body.
            None => unreachable!(
                "the checker names functions of the program only (rules, reductions, helpers, \
                 written-out operations), not `{name}`"
            ),
        }
    }

    /// The body of `name` on `args`, `None` when it fails.
    fn apply(&self, name: &str, args: &[Val]) -> Option<Val> {
        let f = self.function(name);
        let mut env: Env<'_> = f
            .params
            .iter()
            .zip(args)
            .map(|((n, _), v)| (n.as_str(), v.clone()))
            .collect();
        self.eval(&f.body, &mut env)
    }

    fn eval_all<'a>(&'a self, nodes: &'a [Node], env: &mut Env<'a>) -> Option<Vec<Val>> {
        nodes.iter().map(|n| self.eval(n, env)).collect()
    }

    /// Evaluates `node` in `env`.
    fn eval<'a>(&'a self, node: &'a Node, env: &mut Env<'a>) -> Option<Val> {
        Some(match node {
            Node::Int(v) => Val::Int(*v),
            Node::Bool(b) => Val::Bool(*b),
            Node::Var(x) => match env.iter().rev().find(|(n, _)| *n == x.as_str()) {
                Some((_, v)) => v.clone(),
                None => unreachable!("the checker resolves every name in scope, not `{x}`"),
            },
            Node::Tuple(parts) => Val::Tuple(self.eval_all(parts, env)?.into()),
            Node::Neg(x) => Val::Int(self.eval(x, env)?.int().checked_neg()?),
            Node::Not(x) => Val::Bool(!self.eval(x, env)?.bool()),
            Node::BitNot(x) => Val::Int(!self.eval(x, env)?.int()),
            Node::Binary(op, a, b) => return self.binary_op(*op, a, b, env),
            Node::Equal(t, a, b) => {
                let (a, b) = (self.eval(a, env)?, self.eval(b, env)?);
                Val::Bool(self.eq(t, &a, &b))
            }
            Node::Let(x, value, body) => {
                let v = self.eval(value, env)?;
                env.push((x.as_str(), v));
                let result = self.eval(body, env);
                env.pop();
                return result;
            }
            Node::If(c, t, f) => {
                return if self.eval(c, env)?.bool() {
                    self.eval(t, env)
                } else {
                    self.eval(f, env)
                };
            }
            Node::Match(t, scrutinee, arms) => {
                let v = self.eval(scrutinee, env)?;
                for arm in arms {
                    for pattern in &arm.patterns {
                        if let Some(bound) = self.matches(t, pattern, &v) {
                            let pushed = bound.is_some();
                            if let Some(b) = bound {
                                env.push(b);
                            }
                            let result = self.eval(&arm.body, env);
                            if pushed {
                                env.pop();
                            }
                            return result;
                        }
                    }
                }
                unreachable!(
                    "the checker makes every `match` exhaustive, but no arm matches {v:?} of `{}`",
                    self.type_name(t)
                )
            }
            Node::Field(base, i) => self.eval(base, env)?.part(*i).clone(),
            Node::Op(name) => Val::Op(self.op(name)),
            Node::Top(t) => self.top(t),
            Node::Bottom(t) => self.bottom(t),
            Node::Element(t, name, payload) => {
                let payload = match payload {
                    Some(p) => Some(self.eval(p, env)?),
                    None => None,
                };
                self.element(t, name, payload)
            }
            Node::Struct(_, fields) => Val::record(self.eval_all(fields, env)?),
            Node::Lattice(op, t, args) => {
                let args = self.eval_all(args, env)?;
                match op.as_str() {
                    "join" => self.join(t, &args[0], &args[1]),
                    "meet" => self.meet(t, &args[0], &args[1]),
                    "widen" => self.widen(t, &args[0], &args[1], Widen::Plain),
                    "narrow" => self.narrow(t, &args[0], &args[1]),
                    "leq" => Val::Bool(self.leq(t, &args[0], &args[1])),
                    "is_bottom" => Val::Bool(self.is_bottom(t, &args[0])),
                    "is_top" => Val::Bool(self.is_top(t, &args[0])),
                    other => unreachable!(
                        "the checker knows the lattice operations `join`, `meet`, `widen`, \
                         `narrow`, `leq`, `is_bottom` and `is_top`, not `{other}`"
                    ),
                }
            }
            Node::Builtin(name, args) => {
                let args = self.eval_all(args, env)?;
                self.builtin(name, &args)
            }
            Node::Call(name, args) => {
                let args = self.eval_all(args, env)?;
                self.apply(name, &args)?
            }
            Node::TypeFn(t, name, args) => {
                let args = self.eval_all(args, env)?;
                self.type_fn(t, name, &args)
            }
            Node::Unreachable => {
                unreachable!("the checker leaves `Node::Unreachable` only in programs it rejects")
            }
        })
    }

    fn binary_op<'a>(
        &'a self,
        op: BinaryOp,
        a: &'a Node,
        b: &'a Node,
        env: &mut Env<'a>,
    ) -> Option<Val> {
        match op {
            BinaryOp::And => {
                return Some(Val::Bool(
                    self.eval(a, env)?.bool() && self.eval(b, env)?.bool(),
                ));
            }
            BinaryOp::Or => {
                return Some(Val::Bool(
                    self.eval(a, env)?.bool() || self.eval(b, env)?.bool(),
                ));
            }
            _ => {}
        }
        let (x, y) = (self.eval(a, env)?.int(), self.eval(b, env)?.int());
        Some(match op {
            BinaryOp::Lt => Val::Bool(x < y),
            BinaryOp::Le => Val::Bool(x <= y),
            BinaryOp::Gt => Val::Bool(x > y),
            BinaryOp::Ge => Val::Bool(x >= y),
            BinaryOp::Eq => Val::Bool(x == y),
            BinaryOp::Ne => Val::Bool(x != y),
            BinaryOp::Add => Val::Int(x.checked_add(y)?),
            BinaryOp::Sub => Val::Int(x.checked_sub(y)?),
            BinaryOp::Mul => Val::Int(x.checked_mul(y)?),
            BinaryOp::Div => Val::Int(x.checked_div(y)?),
            BinaryOp::Rem => Val::Int(x.checked_rem(y)?),
            BinaryOp::WrapAdd => Val::Int(x.wrapping_add(y)),
            BinaryOp::WrapSub => Val::Int(x.wrapping_sub(y)),
            BinaryOp::WrapMul => Val::Int(x.wrapping_mul(y)),
            BinaryOp::BitAnd => Val::Int(x & y),
            BinaryOp::BitOr => Val::Int(x | y),
            BinaryOp::BitXor => Val::Int(x ^ y),
            BinaryOp::Shl => Val::Int(checked_shl(x, y)?),
            BinaryOp::Shr => Val::Int(checked_shr(x, y)?),
            BinaryOp::LShr => Val::Int(checked_lshr(x, y)?),
            BinaryOp::WrapShl => Val::Int(wrapping_shl(x, y)),
            BinaryOp::WrapShr => Val::Int(wrapping_shr(x, y)),
            BinaryOp::WrapLShr => Val::Int(wrapping_lshr(x, y)),
            BinaryOp::And | BinaryOp::Or => unreachable!("`&&` and `||` are evaluated above"),
        })
    }

    /// The operation whose `Op` variant is called `name`.
    pub fn op(&self, name: &str) -> Op {
        match self.ops.iter().find(|(_, n)| n == name) {
            Some((o, _)) => *o,
            None => unreachable!("the checker accepts the variants of `Op` only, not `{name}`"),
        }
    }

    /// What `pattern` binds when it matches `v` (`Some(None)`: matches, binds nothing).
    #[allow(clippy::option_option)]
    fn matches<'a>(&self, t: &Ty, pattern: &'a Pat, v: &Val) -> Option<Option<(&'a str, Val)>> {
        let bind = |name: &'a Option<String>, payload: Val| {
            Some(name.as_ref().map(|n| (n.as_str(), payload)))
        };
        match (pattern, v) {
            (Pat::Wildcard, _) => Some(None),
            (Pat::Int(x), Val::Int(y)) => (x == y).then_some(None),
            // `Op`'s variants carry nothing: the checker lets no pattern on them bind a name.
            (Pat::Variant(name, None), Val::Op(op)) => (self.op_name(*op) == name).then_some(None),
            (Pat::Variant(name, binder), Val::Kind(kind)) => match (name.as_str(), kind) {
                ("Param", ArgKind::Param(p)) => bind(binder, Val::Param(*p)),
                ("Const", ArgKind::Const(c)) => bind(binder, Val::Int(*c)),
                ("Other", ArgKind::Other) => Some(None),
                // Another variant.
                ("Param" | "Const" | "Other", _) => None,
                _ => unreachable!("the checker knows the variants of `ArgKind`, not `{name}`"),
            },
            (Pat::Variant(name, binder), Val::Constant(c)) => match (name.as_str(), c) {
                ("Bottom", Flat::Bottom) | ("Top", Flat::Top) => Some(None),
                ("Value", Flat::Value(x)) => bind(binder, Val::Int(*x)),
                // Another variant.
                ("Bottom" | "Top" | "Value", _) => None,
                _ => unreachable!("the checker knows the variants of `Constant`, not `{name}`"),
            },
            (Pat::Variant(name, binder), Val::Enum(i, payload)) => {
                (self.element_index(t, name) == *i).then(|| match payload {
                    Some(p) => bind(binder, (**p).clone()).flatten(),
                    None => None,
                })
            }
            _ => unreachable!(
                "the checker matches `{}` with its own patterns only, found {pattern:?} on {v:?}",
                self.type_name(t)
            ),
        }
    }

    /// The element `name` of lattice `t`, with `payload` when its variant carries one.
    fn element(&self, t: &Ty, name: &str, payload: Option<Val>) -> Val {
        match (self.shape(t), name, payload) {
            (Shape::Constant, "Value", Some(p)) => Val::Constant(Flat::Value(p.int())),
            (Shape::Constant, "Bottom", None) => Val::Constant(Flat::Bottom),
            (Shape::Constant, "Top", None) => Val::Constant(Flat::Top),
            (Shape::Flat { .. } | Shape::Finite { .. } | Shape::Sum { .. }, _, payload) => {
                Val::Enum(self.element_index(t, name), payload.map(Rc::new))
            }
            (_, _, payload) => unreachable!(
                "the checker names elements of `{}` it has, not `{name}` ({payload:?})",
                self.type_name(t)
            ),
        }
    }

    /// [`Val::Enum`]'s index of the element `name` of the flat, finite or sum lattice `t`.
    fn element_index(&self, t: &Ty, name: &str) -> usize {
        let index = match (self.shape(t), name) {
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
            Some(i) => i,
            None => unreachable!(
                "the checker names elements of `{}` it has, not `{name}`",
                self.type_name(t)
            ),
        }
    }

    fn builtin(&self, name: &str, args: &[Val]) -> Val {
        let int = |i: usize| args[i].int();
        let op = || args[0].op();
        match name {
            "min" => Val::Int(int(0).min(int(1))),
            "max" => Val::Int(int(0).max(int(1))),
            // The language defines `eval` of an operation that traps as 0, as the generated
            // `op.eval(a, b).unwrap_or(0)` does (`traps` tells the two apart).
            "eval" => Val::Int(op().eval(int(1), int(2)).unwrap_or(0)),
            "traps" => Val::Bool(op().eval(int(1), int(2)).is_none()),
            "overflows" => Val::Bool(overflows(op(), int(1), int(2))),
            "is_comparison" => Val::Bool(op().is_comparison()),
            "Thresholds::at_least" | "Thresholds::at_most" => {
                let Val::Thresholds(t) = &args[0] else {
                    unreachable!(
                        "the checker types the first argument of `{name}` `Thresholds`, found \
                         {:?}",
                        args[0]
                    )
                };
                let found = if name.ends_with("least") {
                    t.at_least(int(1))
                } else {
                    t.at_most(int(1))
                };
                // No such threshold: the call's third argument, `otherwise`, as the generated
                // `t.at_least(x).unwrap_or(otherwise)` gives.
                Val::Int(found.unwrap_or(int(2)))
            }
            _ => unreachable!("the checker knows the built-in functions, not `{name}`"),
        }
    }

    fn type_fn(&self, t: &Ty, name: &str, args: &[Val]) -> Val {
        let op = |i: usize| args[i].op();
        let interval = |i: usize| match &args[i] {
            Val::Interval(x) => *x,
            other => self.mismatch(name, t, other),
        };
        let param = |i: usize| args[i].param();
        let pair = |(a, b): (Val, Val)| Val::Tuple(vec![a, b].into());
        match (self.shape(t), name) {
            (Shape::Address, _) => self.address_fn(t, name, args),
            (Shape::Interval, "new") => Val::Interval(Interval::new(args[0].int(), args[1].int())),
            (Shape::Interval, "constant") => Val::Interval(Interval::constant(args[0].int())),
            // The bounds of the empty interval are the language's `i64::MAX` and `i64::MIN`, as
            // in the generated `a.lo().unwrap_or(i64::MAX)` and `a.hi().unwrap_or(i64::MIN)`.
            (Shape::Interval, "lo") => Val::Int(interval(0).lo().unwrap_or(i64::MAX)),
            (Shape::Interval, "hi") => Val::Int(interval(0).hi().unwrap_or(i64::MIN)),
            (Shape::Interval, "is_constant") => Val::Bool(interval(0).as_constant().is_some()),
            (Shape::Interval, "contains") => Val::Bool(interval(0).contains(args[1].int())),
            (Shape::Interval, "binary") => {
                Val::Interval(Interval::binary(op(0), &interval(1), &interval(2)))
            }
            (Shape::Interval, "assume") => {
                let (a, b) = Interval::assume(op(0), &interval(1), &interval(2));
                pair((Val::Interval(a), Val::Interval(b)))
            }
            (Shape::Constant, "binary") => match (&args[1], &args[2]) {
                (Val::Constant(a), Val::Constant(b)) => {
                    Val::Constant(<Flat<i64> as ValueDomain>::binary(op(0), a, b))
                }
                _ => self.mismatch(name, t, &(&args[1], &args[2])),
            },
            (Shape::Names, "none") => Val::Names(Rc::new(Names::none())),
            (Shape::Names, "all") => Val::Names(Rc::new(Names::all())),
            (Shape::Names, "one") => Val::Names(Rc::new(Names::one(param(0)))),
            (Shape::Names, "contains") => match &args[0] {
                Val::Names(n) => Val::Bool(n.contains(param(1))),
                other => self.mismatch(name, t, other),
            },
            (Shape::Steps, "constant") => Val::Steps(Rc::new(Steps::constant(args[0].int()))),
            (Shape::Steps, "offset") => Val::Steps(Rc::new(Steps::offset(param(0), args[1].int()))),
            (Shape::FiniteSum { inner, n }, _) => self.finite_sum_fn(t, inner, *n, name, args),
            _ => unreachable!(
                "the checker knows the functions of `{}`, not `{name}`",
                self.type_name(t)
            ),
        }
    }

    /// The functions of the `FiniteSum` `t` of at most `n` disjuncts of `inner`.
    fn finite_sum_fn(&self, t: &Ty, inner: &Ty, n: u64, name: &str, args: &[Val]) -> Val {
        let op = || args[0].op();
        match name {
            "single" => self.canonical(inner, n, vec![args[0].clone()]),
            "hull" => self
                .values_of(&args[0])
                .iter()
                .fold(self.bottom(inner), |acc, x| self.join(inner, &acc, x)),
            "meet_each" => {
                let met = self
                    .values_of(&args[0])
                    .iter()
                    .map(|v| self.meet(inner, v, &args[1]))
                    .collect();
                self.canonical(inner, n, met)
            }
            "binary" | "assume" => {
                let (mut left, mut right) = (Vec::new(), Vec::new());
                for x in self.values_of(&args[1]) {
                    for y in self.values_of(&args[2]) {
                        if name == "binary" {
                            left.push(self.runtime_binary(inner, op(), &x, &y));
                        } else {
                            let (rx, ry) = self.runtime_assume(inner, op(), &x, &y);
                            left.push(rx);
                            right.push(ry);
                        }
                    }
                }
                if name == "binary" {
                    self.canonical(inner, n, left)
                } else {
                    Val::Tuple(
                        vec![
                            self.canonical(inner, n, left),
                            self.canonical(inner, n, right),
                        ]
                        .into(),
                    )
                }
            }
            _ => unreachable!(
                "the checker knows the functions of `{}`, not `{name}`",
                self.type_name(t)
            ),
        }
    }
}

impl Interp {
    /// The built-in functions of `Address` (the lattice `t`), as the generated code computes
    /// them.
    fn address_fn(&self, t: &Ty, name: &str, args: &[Val]) -> Val {
        let address = |i: usize| match &args[i] {
            Val::Address(a) => *a,
            other => self.mismatch(name, t, other),
        };
        let int = |i: usize| args[i].int();
        match name {
            "at" => Val::Address(match u32::try_from(int(0)) {
                Ok(s) => Address::at(SymbolId(s), int(1)),
                // A symbol outside `u32` is no symbol: top, as the generated code says.
                Err(_) => Address::Top,
            }),
            "moved" => Val::Address(address(0).moved(int(1))),
            "is_known" => Val::Bool(address(0).known().is_some()),
            // An address not known has symbol -1 and offset 0 (the language's definition, the
            // generated `known().map_or(-1, …)` and `known().map_or(0, …)`).
            "symbol" => Val::Int(address(0).known().map_or(-1, |(s, _)| i64::from(s.0))),
            "offset" => Val::Int(address(0).known().map_or(0, |(_, o)| o)),
            "contains" => Val::Bool(address(0).contains(int(1))),
            _ => unreachable!(
                "the checker knows the functions of `{}`, not `{name}`",
                self.type_name(t)
            ),
        }
    }
}
