//! Running checked bodies: calls of every rule, reduction, helper and written-out lattice
//! operation (their bodies compiled by `compile.rs`), their frames and fallbacks, and the
//! built-in functions of the runtime's lattices, with the semantics of the Rust the generator
//! emits for them. A body fails (`None`) where that Rust's `?` leaves it: checked
//! arithmetic that leaves `int`, or a helper `fn` that failed; the function's fallback then
//! gives its result.

use super::Interp;
use super::numeric::Num;
use super::plan::FnId;
use super::resolved::{Builtin, Constant, Kind, Pattern, Resolved, TypeFn};
use super::val::{Payload, Val};
use absinthe::lattice::{Address, Flat, Interval};
use absinthe::lattice::{Names, Steps};
use absinthe::program::{Op, SymbolId};
use absinthe::terms::ArgKind;
use absinthe::value::ValueDomain;
use absinthe_domc::dom::tree::{Fallback, Shape, Ty};
use absinthe_domc::dom::types::Numeric;
use std::rc::Rc;

thread_local! {
    /// The stack the last [`Scratch`] of this thread gave back: empty, with the capacity it
    /// grew to. It holds no value of any run between uses and no program: only reusable
    /// memory. It is thread state rather than a value passed along because the engines call
    /// a value domain's operations with nothing to carry it (`DynValue::bottom()`, `binary(…)`
    /// are static), and the loaded program they share across threads cannot hold a mutable
    /// stack without a lock on every operation.
    static SCRATCH: std::cell::Cell<Vec<Val>> = const { std::cell::Cell::new(Vec::new()) };
}

/// A stack for the frames of calls, taken from this thread's last one so that an operation of
/// the engine allocates none (an operation inside another, rare, starts an empty one). Given
/// back empty when dropped.
pub(crate) struct Scratch(Vec<Val>);

impl Scratch {
    pub(crate) fn take() -> Scratch {
        Scratch(SCRATCH.take())
    }
}

impl std::ops::Deref for Scratch {
    type Target = Vec<Val>;

    fn deref(&self) -> &Vec<Val> {
        &self.0
    }
}

impl std::ops::DerefMut for Scratch {
    fn deref_mut(&mut self) -> &mut Vec<Val> {
        &mut self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let mut stack = std::mem::take(&mut self.0);
        stack.clear();
        SCRATCH.set(stack);
    }
}

/// Runs `f` with at least the stack the deepest body the checker accepts takes (its nesting is
/// bounded by `syntax::MAX_NESTING`), on a stack of its own when the caller's is short.
pub(crate) fn grown<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(256 << 10, 16 << 20, f)
}

impl Interp {
    /// Calls the function `name` (a rule, reduction, helper or written-out operation) on `args`:
    /// its body's value, or its fallback when the body fails.
    pub fn call_op(&self, name: &str, args: &[Val]) -> Val {
        self.call(self.functions.id(name), args)
    }

    /// Calls the function `id` on `args`: its body's value, or its fallback when the body
    /// fails.
    pub(crate) fn call(&self, id: FnId, args: &[Val]) -> Val {
        let mut stack = Scratch::take();
        stack.extend_from_slice(args);
        self.call_on(id, &mut stack, 0)
    }

    /// Where the value of a rule or reduction called on `args` is written: its site function's
    /// index into `site.places` (none where the body fails, as the rule's fallback then gives
    /// the value). `lost` is the concrete value the rule's value lost, which the site functions
    /// of rules whose value is a lattice value take to find the sub-expression that lost it.
    pub(crate) fn site_of<'s>(
        &self,
        site: &'s crate::plan::Site,
        args: &[Val],
        lost: Option<i64>,
    ) -> Option<&'s str> {
        let mut stack = Scratch::take();
        stack.extend_from_slice(args);
        match (site.concrete, lost) {
            (true, Some(v)) => stack.push(Val::Int(v)),
            (false, _) => {}
            (true, None) => {
                unreachable!("a site function that takes the concrete value is called without one")
            }
        }
        let value = stacker::maybe_grow(256 << 10, 16 << 20, || {
            self.frame(site.function, &mut stack, 0)
        });
        let places: Vec<&str> = site.places.iter().map(String::as_str).collect();
        absinthe::__private::site_place(value.map(|v| v.int()), &places)
    }

    /// Calls the function `id` on the arguments at `base..` of `stack` (as many as it takes):
    /// its body's value, or its fallback when the body fails. The arguments are gone
    /// afterwards. Callers that make many calls (the rules of an operation, a product's
    /// reductions) share one stack among them.
    pub(crate) fn call_on(&self, id: FnId, stack: &mut Vec<Val>, base: usize) -> Val {
        // The checker bounds nesting (`syntax::MAX_NESTING`); this bounds the stack it takes.
        grown(|| self.call_grown(id, stack, base))
    }

    /// [`Interp::call_on`] where the caller made sure of the stack a body may take (see
    /// [`grown`]): a product's reductions, run many times in one operation, check it once.
    pub(crate) fn call_grown(&self, id: FnId, stack: &mut Vec<Val>, base: usize) -> Val {
        let f = &self.functions.table[id.0];
        debug_assert_eq!(
            stack.len() - base,
            f.arity,
            "`{}` takes {} arguments",
            f.name,
            f.arity
        );
        let result = self.frame(id, stack, base);
        let value = match result {
            Some(v) => v,
            // The body failed: the function's fallback is the generated function's result then.
            None => self.fallback(f, &stack[base..base + f.arity]),
        };
        stack.truncate(base);
        value
    }

    /// The result of `f` on `args` when its body failed.
    fn fallback(&self, f: &Resolved, args: &[Val]) -> Val {
        match &f.fallback {
            Fallback::Top(t) => self.top(t),
            Fallback::Param(i) => args[*i].clone(),
            Fallback::Operands(c) => {
                let n = f.params.len();
                let (a, b) = (&args[n - 2], &args[n - 1]);
                let (ta, tb) = (&f.params[n - 2], &f.params[n - 1]);
                Val::Tuple(
                    vec![
                        self.part_at(ta, a, *c).clone(),
                        self.part_at(tb, b, *c).clone(),
                    ]
                    .into(),
                )
            }
            Fallback::Bool(b) => Val::Bool(*b),
            // `fn` helpers fail through to their callers, which are bodies (see `run`), never
            // called from here; a written-out `bottom` or `top` cannot fail (the checker
            // rejects one that can, and the generated code has `unreachable!()` there).
            Fallback::Fail => unreachable!(
                "the checker lets no written-out `bottom` or `top` fail and calls `fn` helpers \
                 from bodies only, but `{}` ({}) failed",
                f.name, f.place
            ),
        }
    }

    /// The body of the function `id` on the arguments at `base..` of `stack` (its frame's first
    /// slots), which stay there; the frame's other slots are gone afterwards.
    pub(crate) fn frame(&self, id: FnId, stack: &mut Vec<Val>, base: usize) -> Option<Val> {
        let f = &self.functions.table[id.0];
        // The slots of `let`s and binders are written before they are read (the resolver
        // numbers them in scope order); until then they hold this.
        if f.frame > f.arity {
            stack.resize_with(base + f.frame, || Val::Bool(false));
        }
        let result = self.bodies[id.0].run(self, stack, base);
        stack.truncate(base + f.arity);
        result
    }

    /// The operation whose `Op` variant is called `name`.
    pub fn op(&self, name: &str) -> Op {
        match self.ops.iter().find(|(_, n)| n == name) {
            Some((o, _)) => *o,
            None => unreachable!("the checker accepts the variants of `Op` only, not `{name}`"),
        }
    }

    /// Whether `pattern` matches `v`, a value of `t`.
    pub(crate) fn matches(&self, t: &Ty, pattern: &Pattern, v: &Val) -> bool {
        match (pattern, v) {
            (Pattern::Wildcard, _) => true,
            (Pattern::Int(x), Val::Int(y)) => x == y,
            (Pattern::Op(x), Val::Op(y)) => x == y,
            (Pattern::Kind(k), Val::Kind(kind)) => matches!(
                (k, kind),
                (Kind::Param, ArgKind::Param(_))
                    | (Kind::Const, ArgKind::Const(_))
                    | (Kind::Other, ArgKind::Other)
            ),
            (Pattern::Constant(c), Val::Constant(x)) => matches!(
                (c, x),
                (Constant::Bottom, Flat::Bottom)
                    | (Constant::Value, Flat::Value(_))
                    | (Constant::Top, Flat::Top)
            ),
            (Pattern::Enum(i), Val::Enum(j, _)) => i == j,
            (Pattern::Num(n), Val::Num(m)) => n == m,
            (Pattern::Tuple(parts), Val::Tuple(values)) => {
                let Ty::Tuple(types) = t else {
                    unreachable!("the checker takes tuple patterns on tuples only")
                };
                (types.iter().zip(parts).zip(values.iter()))
                    .all(|((t, p), v)| self.matches(t, p, v))
            }
            _ => unreachable!(
                "the checker matches `{}` with its own patterns only, found {pattern:?} on {v:?}",
                self.type_name(t)
            ),
        }
    }

    /// The payload of `v`, a value of `t` an arm that binds has matched.
    pub(crate) fn payload(&self, t: &Ty, v: &Val) -> Val {
        match v {
            Val::Kind(ArgKind::Param(p)) => Val::Param(*p),
            Val::Kind(ArgKind::Const(c)) | Val::Constant(Flat::Value(c)) => Val::Int(*c),
            Val::Enum(_, Payload::Int(i)) => Val::Int(*i),
            Val::Enum(_, Payload::Boxed(payload)) => (**payload).clone(),
            v => unreachable!(
                "the checker lets only a variant that carries a value bind a name, but {v:?} of \
                 `{}` matched",
                self.type_name(t)
            ),
        }
    }

    /// The built-in functions of `Thresholds` (the others are `eval_int`'s and `eval_bool`'s).
    pub(crate) fn builtin(&self, builtin: Builtin, args: &[&Val]) -> Val {
        let int = |i: usize| args[i].int();
        match builtin {
            Builtin::Min
            | Builtin::Max
            | Builtin::Eval
            | Builtin::Traps
            | Builtin::Overflows
            | Builtin::IsComparison => unreachable!(
                "`eval` computes `{builtin:?}` by `eval_int` or `eval_bool`, from its arguments"
            ),
            Builtin::AtLeast | Builtin::AtMost => {
                let Val::Thresholds(t) = &args[0] else {
                    unreachable!(
                        "the checker types the first argument of `{builtin:?}` `Thresholds`, \
                         found {:?}",
                        args[0]
                    )
                };
                let found = if builtin == Builtin::AtLeast {
                    t.at_least(int(1))
                } else {
                    t.at_most(int(1))
                };
                // No such threshold: the call's third argument, `otherwise`, as the generated
                // `t.at_least(x).unwrap_or(otherwise)` gives.
                Val::Int(found.unwrap_or(int(2)))
            }
        }
    }

    pub(crate) fn type_fn(&self, t: &Ty, name: TypeFn, args: &[&Val]) -> Val {
        let op = |i: usize| args[i].op();
        let interval = |i: usize| match &args[i] {
            Val::Interval(x) => *x,
            other => self.mismatch(name.name(), t, other),
        };
        let param = |i: usize| args[i].param();
        let pair = |(a, b): (Val, Val)| Val::Tuple(vec![a, b].into());
        match (self.shape(t), name) {
            (Shape::Address, _) => self.address_fn(t, name, args),
            (Shape::Numeric(n), _) => self.numeric_fn(t, *n, name, args),
            (Shape::Interval, TypeFn::New) => {
                Val::Interval(Interval::new(args[0].int(), args[1].int()))
            }
            (Shape::Interval, TypeFn::Constant) => Val::Interval(Interval::constant(args[0].int())),
            // The bounds of the empty interval are the language's `i64::MAX` and `i64::MIN`, as
            // in the generated `a.lo().unwrap_or(i64::MAX)` and `a.hi().unwrap_or(i64::MIN)`.
            (Shape::Interval, TypeFn::Lo) => Val::Int(interval(0).lo().unwrap_or(i64::MAX)),
            (Shape::Interval, TypeFn::Hi) => Val::Int(interval(0).hi().unwrap_or(i64::MIN)),
            (Shape::Interval, TypeFn::IsConstant) => Val::Bool(interval(0).as_constant().is_some()),
            (Shape::Interval, TypeFn::Contains) => Val::Bool(interval(0).contains(args[1].int())),
            (Shape::Interval, TypeFn::Binary) => {
                Val::Interval(Interval::binary(op(0), &interval(1), &interval(2)))
            }
            (Shape::Interval, TypeFn::Assume) => {
                let (a, b) = Interval::assume(op(0), &interval(1), &interval(2));
                pair((Val::Interval(a), Val::Interval(b)))
            }
            // A relational component's value is its bounds, an interval (the plan gives its type
            // the interval's shape): `Octagon::bounds(o)` and `Octagon::within(i)` are that
            // interval, as `Bounds::bounds` and `Bounds::within` are in the generated code.
            (Shape::Interval, TypeFn::Bounds | TypeFn::Within) => Val::Interval(interval(0)),
            (Shape::Constant, TypeFn::Binary) => match (&args[1], &args[2]) {
                (Val::Constant(a), Val::Constant(b)) => {
                    Val::Constant(<Flat<i64> as ValueDomain>::binary(op(0), a, b))
                }
                _ => self.mismatch(name.name(), t, &(&args[1], &args[2])),
            },
            (Shape::Names, TypeFn::None) => Val::Names(Rc::new(Names::none())),
            (Shape::Names, TypeFn::All) => Val::Names(Rc::new(Names::all())),
            (Shape::Names, TypeFn::One) => Val::Names(Rc::new(Names::one(param(0)))),
            (Shape::Names, TypeFn::Contains) => match &args[0] {
                Val::Names(n) => Val::Bool(n.contains(param(1))),
                other => self.mismatch(name.name(), t, other),
            },
            (Shape::Steps, TypeFn::Constant) => Val::Steps(Rc::new(Steps::constant(args[0].int()))),
            (Shape::Steps, TypeFn::Offset) => {
                Val::Steps(Rc::new(Steps::offset(param(0), args[1].int())))
            }
            (Shape::FiniteSum { inner, n }, _) => self.finite_sum_fn(t, inner, *n, name, args),
            _ => unreachable!(
                "the checker knows the functions of `{}`, not `{}`",
                self.type_name(t),
                name.name()
            ),
        }
    }

    /// The functions of the `FiniteSum` `t` of at most `n` disjuncts of `inner`.
    fn finite_sum_fn(&self, t: &Ty, inner: &Ty, n: u64, name: TypeFn, args: &[&Val]) -> Val {
        let op = || args[0].op();
        match name {
            TypeFn::Single => self.canonical(inner, n, vec![args[0].clone()]),
            TypeFn::Hull => self
                .values_of(args[0])
                .iter()
                .fold(self.bottom(inner), |acc, x| self.join(inner, &acc, x)),
            TypeFn::MeetEach => {
                let met = self
                    .values_of(args[0])
                    .iter()
                    .map(|v| self.meet(inner, v, args[1]))
                    .collect();
                self.canonical(inner, n, met)
            }
            // The runtime's `FiniteSum` value domain, as `uses builtin` runs it.
            TypeFn::Binary => self.runtime_binary(t, op(), args[1], args[2]),
            TypeFn::Assume => {
                let (a, b) = self.runtime_assume(t, op(), args[1], args[2]);
                Val::Tuple(vec![a, b].into())
            }
            _ => unreachable!(
                "the checker knows the functions of `{}`, not `{}`",
                self.type_name(t),
                name.name()
            ),
        }
    }
}

impl Interp {
    /// The built-in functions of `Congruence`, `Parity` and `Sign` (the lattice `t`), as the
    /// generated code computes them.
    fn numeric_fn(&self, t: &Ty, n: Numeric, name: TypeFn, args: &[&Val]) -> Val {
        let num = |i: usize| match &args[i] {
            Val::Num(x) => *x,
            other => self.mismatch(name.name(), t, other),
        };
        let int = |i: usize| args[i].int();
        let class = |i: usize| match num(i).class() {
            Some(class) => class,
            None => unreachable!("the checker gives `{}` to congruences only", name.name()),
        };
        let computed = match name {
            TypeFn::Of => Num::of(n, int(0)).map(Val::Num),
            TypeFn::New => Some(Val::Num(Num::congruence(int(0), int(1)))),
            TypeFn::Constant => Some(Val::Num(Num::constant(n, int(0)))),
            TypeFn::Modulus => Some(Val::Int(class(0).0)),
            TypeFn::Residue => Some(Val::Int(class(0).1)),
            TypeFn::IsConstant => Some(Val::Bool(num(0).as_constant().is_some())),
            TypeFn::Contains => Some(Val::Bool(num(0).contains(int(1)))),
            TypeFn::Binary => Num::binary(args[0].op(), &num(1), &num(2)).map(Val::Num),
            TypeFn::Assume => Num::assume(args[0].op(), &num(1), &num(2))
                .map(|(a, b)| Val::Tuple(vec![Val::Num(a), Val::Num(b)].into())),
            _ => None,
        };
        match computed {
            Some(v) => v,
            None => unreachable!(
                "the checker knows the functions of `{}` and their operands, not `{}` of {args:?}",
                self.type_name(t),
                name.name()
            ),
        }
    }

    /// The built-in functions of `Address` (the lattice `t`), as the generated code computes
    /// them.
    fn address_fn(&self, t: &Ty, name: TypeFn, args: &[&Val]) -> Val {
        let address = |i: usize| match &args[i] {
            Val::Address(a) => *a,
            other => self.mismatch(name.name(), t, other),
        };
        let int = |i: usize| args[i].int();
        match name {
            TypeFn::At => Val::Address(match u32::try_from(int(0)) {
                Ok(s) => Address::at(SymbolId(s), int(1)),
                // A symbol outside `u32` is no symbol: top, as the generated code says.
                Err(_) => Address::Top,
            }),
            TypeFn::Moved => Val::Address(address(0).moved(int(1))),
            TypeFn::IsKnown => Val::Bool(address(0).known().is_some()),
            // An address not known has symbol -1 and offset 0 (the language's definition, the
            // generated `known().map_or(-1, …)` and `known().map_or(0, …)`).
            TypeFn::Symbol => Val::Int(address(0).known().map_or(-1, |(s, _)| i64::from(s.0))),
            TypeFn::Offset => Val::Int(address(0).known().map_or(0, |(_, o)| o)),
            TypeFn::Contains => Val::Bool(address(0).contains(int(1))),
            _ => unreachable!(
                "the checker knows the functions of `{}`, not `{}`",
                self.type_name(t),
                name.name()
            ),
        }
    }
}
