//! The resolved bodies ([`Expr`], `resolve.rs`) compiled, when a file is loaded, to closures
//! ([`Code`]) that `eval.rs` runs: one closure per node, typed by what the checker typed it —
//! `int`s, `bool`s and `Op`s are computed without making a [`Val`], names in scope and their
//! fields are read where they are (not copied), the operands of lattice operations and of the
//! runtime lattices' functions are held in locals (not pushed on the stack), and a `match` on an
//! enumerated type finds its arm by the value's index. Each closure does what the Rust the
//! generator emits for its node does (see `eval.rs` for failing bodies).

use super::Interp;
use crate::code::Code;
use crate::operand::{AsVal, Give, IntArg, Operand, Operands, Place, Plain, given};
use crate::resolved::{Arm, Bound, Builtin, Constant, Element, Expr, LatticeOp, Pattern, TypeFn};
use crate::val::{Lit, Payload, Val, Widen};
use absinthe::__private::{
    checked_lshr, checked_shl, checked_shr, overflows, wrapping_lshr, wrapping_shl, wrapping_shr,
};
use absinthe::lattice::{Flat, Interval, Lattice};
use absinthe::program::Op;
use absinthe_domc::dom::tree::{BinaryOp, Shape, Ty};
use std::rc::Rc;

type ValCode = Code<Interp>;
type IntCode = Code<Interp, i64>;
type BoolCode = Code<Interp, bool>;
type OpCode = Code<Interp, Op>;

/// The code that runs `f`.
fn code<T>(
    f: impl Fn(&Interp, &mut Vec<Val>, usize) -> Option<T> + Send + Sync + 'static,
) -> Code<Interp, T> {
    Code::new(f)
}

/// An arm's patterns and the names it binds.
type Alternatives = (Box<[Pattern]>, Box<[Bound]>);

/// The arms of a `match` as it runs.
struct Arms {
    t: Ty,
    scrutinee: Operand,
    arms: Vec<Alternatives>,
    /// By the scrutinee's index (see [`index`]), its arm, when every pattern is a variant or
    /// `_` of a type whose values have an index.
    table: Option<Box<[usize]>>,
}

/// The index of an enumerated value: a flat, finite or sum lattice's element, a `Constant`'s
/// variant, an `Op`.
fn index(v: &Val) -> Option<usize> {
    match v {
        Val::Enum(i, _) => Some(*i),
        Val::Constant(Flat::Bottom) => Some(0),
        Val::Constant(Flat::Value(_)) => Some(1),
        Val::Constant(Flat::Top) => Some(2),
        Val::Op(o) => Some(*o as usize),
        _ => None,
    }
}

impl Interp {
    /// Every function's body compiled, by id. Called twice: the second time, with the first
    /// pass's bodies in place, the expressions that read no name are computed once (see
    /// [`Interp::folded`]).
    pub(crate) fn compile_functions(&self) -> Vec<ValCode> {
        (self.functions.table.iter())
            .map(|f| self.compile(&f.body))
            .collect()
    }

    /// The operands `exprs`.
    fn operands(&self, exprs: &[Expr]) -> Operands {
        match exprs {
            [a] => Operands::One(self.operand(a)),
            [a, b] => Operands::Two(self.operand(a), self.operand(b)),
            all => Operands::Many(all.iter().map(|e| self.operand(e)).collect()),
        }
    }

    /// The operand `expr`.
    fn operand(&self, expr: &Expr) -> Operand {
        match Place::of(expr) {
            Some(place) => Operand::Place(place),
            None => Operand::Code(self.compile(expr)),
        }
    }

    /// The `int` operand `expr`: a literal (also when it is computed once, see
    /// [`Interp::folded`]), a name, a field, or code.
    fn int_arg(&self, expr: &Expr) -> IntArg {
        match expr {
            Expr::Int(v) => IntArg::Lit(*v),
            Expr::Var(slot) => IntArg::Slot(*slot),
            _ => match Place::of(expr) {
                Some(place) => IntArg::Place(place),
                None => match self.folded(expr, || self.compile_int_node::<Plain>(expr)) {
                    Some(v) => IntArg::Lit(v),
                    None => IntArg::Code(self.compile_int_node::<Plain>(expr)),
                },
            },
        }
    }

    /// `expr` as code that makes its value.
    fn compile(&self, expr: &Expr) -> ValCode {
        if let Some(lit) = self
            .folded(expr, || self.compile_node(expr))
            .and_then(|v| Lit::of(&v))
        {
            return code(move |_, _, _| Some(lit.val()));
        }
        self.compile_node(expr)
    }

    /// The value of `expr` computed now by the code `once` makes, when it reads no name
    /// (nothing but literals, calls and operations on them): a body compiled again once every
    /// body is (the second pass of [`Interp::compile_functions`]) runs the first pass's code for
    /// such an expression, and its code gives that value (a [`Lit`], which a loaded program may
    /// hold). An expression that fails is left to fail where it runs.
    fn folded<T>(&self, expr: &Expr, once: impl FnOnce() -> Code<Interp, T>) -> Option<T> {
        let trivial = matches!(expr, Expr::Int(_) | Expr::Bool(_) | Expr::Op(_));
        if trivial || self.bodies.len() != self.functions.table.len() || !closed(expr) {
            return None;
        }
        let once = once();
        let mut stack = Vec::new();
        stacker::maybe_grow(256 << 10, 16 << 20, || once.run(self, &mut stack, 0))
    }

    /// [`Interp::compile`] of a node that is not folded.
    fn compile_node(&self, expr: &Expr) -> ValCode {
        match expr {
            Expr::Int(v) => {
                let v = *v;
                code(move |_, _, _| Some(Val::Int(v)))
            }
            Expr::Bool(b) => {
                let b = *b;
                code(move |_, _, _| Some(Val::Bool(b)))
            }
            Expr::Var(slot) => {
                let slot = *slot;
                code(move |_, stack, base| Some(stack[base + slot].clone()))
            }
            Expr::DepthLeft(slot) => {
                let slot = *slot;
                code(move |_, stack, base| match stack[base + slot].int() {
                    0 => None,
                    left => Some(Val::Int(left - 1)),
                })
            }
            Expr::Tuple(parts) => {
                let parts: Vec<ValCode> = parts.iter().map(|p| self.compile(p)).collect();
                code(move |i, stack, base| {
                    let mark = stack.len();
                    for p in &parts {
                        let Some(v) = p.run(i, stack, base) else {
                            stack.truncate(mark);
                            return None;
                        };
                        stack.push(v);
                    }
                    let tuple: Rc<[Val]> = stack.drain(mark..).collect();
                    Some(Val::Tuple(tuple))
                })
            }
            Expr::Neg(_) | Expr::BitNot(_) => self.int_value(expr),
            Expr::Not(_) | Expr::Equal(..) => self.bool_value(expr),
            Expr::Binary(op, ..) if op.gives_bool() => self.bool_value(expr),
            Expr::Binary(..) => self.int_value(expr),
            Expr::Let(slot, value, body) => {
                let (slot, value, body) = (*slot, self.compile(value), self.compile(body));
                code(move |i, stack, base| {
                    stack[base + slot] = value.run(i, stack, base)?;
                    body.run(i, stack, base)
                })
            }
            Expr::If(c, t, f) => {
                let (c, t, f) = (self.compile_bool(c), self.compile(t), self.compile(f));
                code(move |i, stack, base| {
                    if c.run(i, stack, base)? {
                        t.run(i, stack, base)
                    } else {
                        f.run(i, stack, base)
                    }
                })
            }
            Expr::Match(t, scrutinee, arms) => {
                let (select, bodies) = self.arms(t, scrutinee, arms, |e| self.compile(e));
                code(move |i, stack, base| {
                    let arm = Interp::select(i, &select, stack, base)?;
                    bodies[arm].run(i, stack, base)
                })
            }
            Expr::Field(record, field) => match Place::of(expr) {
                Some(place) => code(move |_, stack, base| Some(place.read(stack, base).clone())),
                None => {
                    let (record, field) = (self.compile(record), *field);
                    code(move |i, stack, base| {
                        Some(record.run(i, stack, base)?.part(field).clone())
                    })
                }
            },
            Expr::Op(op) => {
                let op = *op;
                code(move |_, _, _| Some(Val::Op(op)))
            }
            Expr::Top(t) => {
                let t = t.clone();
                code(move |i, _, _| Some(i.top(&t)))
            }
            Expr::Bottom(t) => {
                let t = t.clone();
                code(move |i, _, _| Some(i.bottom(&t)))
            }
            Expr::Element(element, payload) => self.element(*element, payload.as_deref()),
            // A struct or product held as its one part is that part's value (see
            // `Interp::assemble`).
            Expr::Struct(t, fields) if fields.len() == 1 && self.unwrapped(t) => {
                self.compile(&fields[0])
            }
            Expr::Struct(t, fields) => {
                let t = t.clone();
                let fields: Vec<ValCode> = fields.iter().map(|f| self.compile(f)).collect();
                code(move |i, stack, base| {
                    let mark = stack.len();
                    for f in &fields {
                        let Some(v) = f.run(i, stack, base) else {
                            stack.truncate(mark);
                            return None;
                        };
                        stack.push(v);
                    }
                    let value = i.assemble(&t, stack.drain(mark..));
                    Some(value)
                })
            }
            // What `compile_bool` and `compile_int` compute without the dispatch on the type.
            // (The guards are those of the typed paths, which would otherwise come back here.)
            Expr::Lattice(LatticeOp::IsBottom, t, args)
            | Expr::TypeFn(t, TypeFn::IsConstant, args)
                if args.len() == 1 && matches!(self.shape(t), Shape::Interval) =>
            {
                self.bool_value(expr)
            }
            Expr::TypeFn(t, TypeFn::Contains, args)
                if args.len() == 2 && matches!(self.shape(t), Shape::Interval) =>
            {
                self.bool_value(expr)
            }
            Expr::TypeFn(t, TypeFn::IsKnown, args)
                if args.len() == 1 && matches!(self.shape(t), Shape::Address) =>
            {
                self.bool_value(expr)
            }
            Expr::TypeFn(t, TypeFn::Lo | TypeFn::Hi, args)
                if args.len() == 1 && matches!(self.shape(t), Shape::Interval) =>
            {
                self.int_value(expr)
            }
            Expr::TypeFn(t, TypeFn::Symbol | TypeFn::Offset, args)
                if args.len() == 1 && matches!(self.shape(t), Shape::Address) =>
            {
                self.int_value(expr)
            }
            // An interval made of its bounds, computed without making values of them.
            Expr::TypeFn(t, TypeFn::New, args)
                if args.len() == 2 && matches!(self.shape(t), Shape::Interval) =>
            {
                let (lo, hi) = (self.int_arg(&args[0]), self.int_arg(&args[1]));
                code(move |i, stack, base| {
                    let lo = lo.get(i, stack, base)?;
                    let hi = hi.get(i, stack, base)?;
                    Some(Val::Interval(Interval::new(lo, hi)))
                })
            }
            Expr::TypeFn(t, TypeFn::Constant, args)
                if args.len() == 1 && matches!(self.shape(t), Shape::Interval) =>
            {
                let c = self.int_arg(&args[0]);
                code(move |i, stack, base| {
                    Some(Val::Interval(Interval::constant(c.get(i, stack, base)?)))
                })
            }
            Expr::Lattice(
                LatticeOp::Leq | LatticeOp::IsBottom | LatticeOp::IsTop | LatticeOp::Contains,
                ..,
            ) => self.bool_value(expr),
            Expr::Lattice(op @ (LatticeOp::Join | LatticeOp::Meet), t, args) if args.len() == 2 => {
                self.join_or_meet(*op, t, args)
            }
            Expr::Lattice(op, t, args) => {
                let (op, t) = (*op, t.clone());
                let args = self.operands(args);
                code(move |i, stack, base| {
                    args.with(i, stack, base, |args| i.lattice(op, &t, args))
                })
            }
            Expr::Builtin(Builtin::Traps | Builtin::Overflows | Builtin::IsComparison, _) => {
                self.bool_value(expr)
            }
            Expr::Builtin(Builtin::Eval | Builtin::Min | Builtin::Max, _) => self.int_value(expr),
            Expr::Builtin(builtin, args) => {
                let builtin = *builtin;
                let args = self.operands(args);
                code(move |i, stack, base| {
                    args.with(i, stack, base, |args| i.builtin(builtin, args))
                })
            }
            Expr::Call(id, args) => {
                let id = *id;
                let f = &self.functions.table[id.0];
                // The slots of `let`s and binders past the arguments (see `Interp::frame`).
                let locals = f.frame - f.arity;
                let args: Vec<Operand> = args.iter().map(|a| self.operand(a)).collect();
                code(move |i, stack, base| {
                    let mark = stack.len();
                    for a in &args {
                        let v = match a {
                            Operand::Place(p) => p.read(stack, base).clone(),
                            Operand::Code(c) => {
                                let Some(v) = c.run(i, stack, base) else {
                                    stack.truncate(mark);
                                    return None;
                                };
                                v
                            }
                        };
                        stack.push(v);
                    }
                    if locals > 0 {
                        stack.resize_with(stack.len() + locals, || Val::Bool(false));
                    }
                    let result = i.bodies[id.0].run(i, stack, mark);
                    stack.truncate(mark);
                    result
                })
            }
            Expr::TypeFn(t, name, args) => {
                let (t, name) = (t.clone(), *name);
                let args = self.operands(args);
                code(move |i, stack, base| {
                    args.with(i, stack, base, |args| i.type_fn(&t, name, args))
                })
            }
        }
    }

    /// `join(a, b)` or `meet(a, b)` of `t`: of intervals and of a finite lattice's elements
    /// computed where they are, of other types by [`Interp::lattice`].
    fn join_or_meet(&self, op: LatticeOp, t: &Ty, args: &[Expr]) -> ValCode {
        let join = op == LatticeOp::Join;
        let sides = Operands::Two(self.operand(&args[0]), self.operand(&args[1]));
        let t = t.clone();
        match self.shape(&t) {
            Shape::Interval => code(move |i, stack, base| {
                sides.with(i, stack, base, |v| match (v[0], v[1]) {
                    (Val::Interval(x), Val::Interval(y)) if join => Val::Interval(x.join(y)),
                    (Val::Interval(x), Val::Interval(y)) => Val::Interval(x.meet(y)),
                    _ => i.mismatch(if join { "join" } else { "meet" }, &t, &(v[0], v[1])),
                })
            }),
            Shape::Finite { order, .. } => {
                let table = if join {
                    order.join.clone()
                } else {
                    order.meet.clone()
                };
                code(move |i, stack, base| {
                    sides.with(i, stack, base, |v| match (v[0], v[1]) {
                        (Val::Enum(x, _), Val::Enum(y, _)) => {
                            Val::Enum(table[*x][*y], Payload::None)
                        }
                        _ => i.mismatch(if join { "join" } else { "meet" }, &t, &(v[0], v[1])),
                    })
                })
            }
            _ => code(move |i, stack, base| {
                sides.with(i, stack, base, |args| i.lattice(op, &t, args))
            }),
        }
    }

    /// An `int` expression as code that makes its value (the code [`Interp::compile_int`] makes,
    /// giving a [`Val`]).
    fn int_value(&self, expr: &Expr) -> ValCode {
        self.compile_int_node::<AsVal>(expr)
    }

    /// A `bool` expression as code that makes its value.
    fn bool_value(&self, expr: &Expr) -> ValCode {
        self.compile_bool_node::<AsVal>(expr)
    }

    /// An element, with its payload when it carries one.
    fn element(&self, element: Element, payload: Option<&Expr>) -> ValCode {
        match (element, payload) {
            (Element::Constant(Constant::Value), Some(p)) => {
                let p = self.compile_int(p);
                code(move |i, stack, base| Some(Val::Constant(Flat::Value(p.run(i, stack, base)?))))
            }
            (Element::Constant(Constant::Bottom), None) => {
                code(|_, _, _| Some(Val::Constant(Flat::Bottom)))
            }
            (Element::Constant(Constant::Top), None) => {
                code(|_, _, _| Some(Val::Constant(Flat::Top)))
            }
            (Element::Enum(e), Some(p)) => {
                let p = self.compile(p);
                code(move |i, stack, base| Some(Val::Enum(e, Payload::of(p.run(i, stack, base)?))))
            }
            (Element::Enum(e), None) => code(move |_, _, _| Some(Val::Enum(e, Payload::None))),
            (Element::Num(n), None) => code(move |_, _, _| Some(Val::Num(n))),
            (element, payload) => unreachable!(
                "the checker gives a payload to the variants that carry one: {element:?} with \
                 {payload:?}"
            ),
        }
    }

    /// A `bool` expression as code, computed without making a [`Val`] of it or of the `int`s it
    /// compares.
    fn compile_bool(&self, expr: &Expr) -> BoolCode {
        if let Some(b) = self.folded(expr, || self.compile_bool_node::<Plain>(expr)) {
            return code(move |_, _, _| Some(b));
        }
        self.compile_bool_node::<Plain>(expr)
    }

    /// [`Interp::compile_bool`] of a node that is not folded.
    fn compile_bool_node<G: Give<bool>>(&self, expr: &Expr) -> Code<Interp, G::Out> {
        match expr {
            Expr::Bool(b) => {
                let b = *b;
                given::<bool, G>(move |_, _, _| Some(b))
            }
            Expr::Var(_) | Expr::Field(..) if Place::of(expr).is_some() => {
                let Some(place) = Place::of(expr) else {
                    unreachable!("the guard found a place")
                };
                given::<bool, G>(move |_, stack, base| Some(place.read(stack, base).bool()))
            }
            Expr::Not(x) => {
                let x = self.compile_bool(x);
                given::<bool, G>(move |i, stack, base| Some(!x.run(i, stack, base)?))
            }
            Expr::Binary(BinaryOp::And, a, b) => {
                let (a, b) = (self.compile_bool(a), self.compile_bool(b));
                given::<bool, G>(move |i, stack, base| {
                    Some(a.run(i, stack, base)? && b.run(i, stack, base)?)
                })
            }
            Expr::Binary(BinaryOp::Or, a, b) => {
                let (a, b) = (self.compile_bool(a), self.compile_bool(b));
                given::<bool, G>(move |i, stack, base| {
                    Some(a.run(i, stack, base)? || b.run(i, stack, base)?)
                })
            }
            Expr::Binary(op, a, b) => {
                let (a, b) = (self.int_arg(a), self.int_arg(b));
                let compare: fn(i64, i64) -> bool = match op {
                    BinaryOp::Lt => |x, y| x < y,
                    BinaryOp::Le => |x, y| x <= y,
                    BinaryOp::Gt => |x, y| x > y,
                    BinaryOp::Ge => |x, y| x >= y,
                    BinaryOp::Eq => |x, y| x == y,
                    BinaryOp::Ne => |x, y| x != y,
                    op => unreachable!("the checker types `{op:?}` of `int`s `int`, not `bool`"),
                };
                given::<bool, G>(move |i, stack, base| {
                    let x = a.get(i, stack, base)?;
                    let y = b.get(i, stack, base)?;
                    Some(compare(x, y))
                })
            }
            // `int`s, `bool`s and `Op`s compared without making values of them.
            Expr::Equal(Ty::Int, a, b) => {
                let (a, b) = (self.int_arg(a), self.int_arg(b));
                given::<bool, G>(move |i, stack, base| {
                    let x = a.get(i, stack, base)?;
                    let y = b.get(i, stack, base)?;
                    Some(x == y)
                })
            }
            Expr::Equal(Ty::Bool, a, b) => {
                let (a, b) = (self.compile_bool(a), self.compile_bool(b));
                given::<bool, G>(move |i, stack, base| {
                    let x = a.run(i, stack, base)?;
                    let y = b.run(i, stack, base)?;
                    Some(x == y)
                })
            }
            Expr::Equal(Ty::Op, a, b) => {
                let (a, b) = (self.compile_op(a), self.compile_op(b));
                given::<bool, G>(move |i, stack, base| {
                    let x = a.run(i, stack, base)?;
                    let y = b.run(i, stack, base)?;
                    Some(x == y)
                })
            }
            // Elements of a finite lattice are equal when their indices are.
            Expr::Equal(t @ Ty::Lat(_), a, b) if matches!(self.shape(t), Shape::Finite { .. }) => {
                let t = t.clone();
                let sides = Operands::Two(self.operand(a), self.operand(b));
                given::<bool, G>(move |i, stack, base| {
                    sides.with(i, stack, base, |v| match (v[0], v[1]) {
                        (Val::Enum(x, _), Val::Enum(y, _)) => x == y,
                        _ => i.mismatch("==", &t, &(v[0], v[1])),
                    })
                })
            }
            Expr::Equal(t, a, b) => {
                let t = t.clone();
                let sides = Operands::Two(self.operand(a), self.operand(b));
                given::<bool, G>(move |i, stack, base| {
                    sides.with(i, stack, base, |v| i.eq(&t, v[0], v[1]))
                })
            }
            Expr::If(c, t, f) => {
                let (c, t, f) = (
                    self.compile_bool(c),
                    self.compile_bool(t),
                    self.compile_bool(f),
                );
                given::<bool, G>(move |i, stack, base| {
                    if c.run(i, stack, base)? {
                        t.run(i, stack, base)
                    } else {
                        f.run(i, stack, base)
                    }
                })
            }
            Expr::Let(slot, value, body) => {
                let (slot, value, body) = (*slot, self.compile(value), self.compile_bool(body));
                given::<bool, G>(move |i, stack, base| {
                    stack[base + slot] = value.run(i, stack, base)?;
                    body.run(i, stack, base)
                })
            }
            Expr::Match(t, scrutinee, arms) => {
                let (select, bodies) = self.arms(t, scrutinee, arms, |e| self.compile_bool(e));
                given::<bool, G>(move |i, stack, base| {
                    let arm = Interp::select(i, &select, stack, base)?;
                    bodies[arm].run(i, stack, base)
                })
            }
            Expr::Builtin(Builtin::IsComparison, args) => {
                let op = self.compile_op(&args[0]);
                given::<bool, G>(move |i, stack, base| {
                    Some(op.run(i, stack, base)?.is_comparison())
                })
            }
            Expr::Builtin(builtin @ (Builtin::Traps | Builtin::Overflows), args) => {
                let traps = *builtin == Builtin::Traps;
                let op = self.compile_op(&args[0]);
                let (a, b) = (self.compile_int(&args[1]), self.compile_int(&args[2]));
                given::<bool, G>(move |i, stack, base| {
                    let op = op.run(i, stack, base)?;
                    let x = a.run(i, stack, base)?;
                    let y = b.run(i, stack, base)?;
                    Some(if traps {
                        op.eval(x, y).is_none()
                    } else {
                        overflows(op, x, y)
                    })
                })
            }
            // Whether an interval is empty or one value, without the dispatch on the type.
            Expr::Lattice(LatticeOp::IsBottom, t, args)
            | Expr::TypeFn(t, TypeFn::IsConstant, args)
                if args.len() == 1 && matches!(self.shape(t), Shape::Interval) =>
            {
                let (t, arg) = (t.clone(), self.operand(&args[0]));
                let empty = matches!(expr, Expr::Lattice(..));
                given::<bool, G>(move |i, stack, base| {
                    let computed = arg.computed(i, stack, base)?;
                    Some(match arg.value(&computed, stack, base) {
                        Val::Interval(x) if empty => x.is_bottom(),
                        Val::Interval(x) => x.as_constant().is_some(),
                        other => i.mismatch("is_bottom", &t, other),
                    })
                })
            }
            // Whether an interval holds a value, whether an address is known.
            Expr::TypeFn(t, TypeFn::Contains, args)
                if args.len() == 2 && matches!(self.shape(t), Shape::Interval) =>
            {
                let (t, x, v) = (t.clone(), self.operand(&args[0]), self.int_arg(&args[1]));
                given::<bool, G>(move |i, stack, base| {
                    let computed = x.computed(i, stack, base)?;
                    let v = v.get(i, stack, base)?;
                    Some(match x.value(&computed, stack, base) {
                        Val::Interval(x) => x.contains(v),
                        other => i.mismatch("contains", &t, other),
                    })
                })
            }
            Expr::TypeFn(t, TypeFn::IsKnown, args)
                if args.len() == 1 && matches!(self.shape(t), Shape::Address) =>
            {
                let (t, arg) = (t.clone(), self.operand(&args[0]));
                given::<bool, G>(move |i, stack, base| {
                    let computed = arg.computed(i, stack, base)?;
                    Some(match arg.value(&computed, stack, base) {
                        Val::Address(a) => a.known().is_some(),
                        other => i.mismatch("is_known", &t, other),
                    })
                })
            }
            Expr::Lattice(
                op
                @ (LatticeOp::Leq | LatticeOp::IsBottom | LatticeOp::IsTop | LatticeOp::Contains),
                t,
                args,
            ) => {
                let (op, t) = (*op, t.clone());
                let args = self.operands(args);
                given::<bool, G>(move |i, stack, base| {
                    args.with(i, stack, base, |args| match op {
                        LatticeOp::Leq => i.leq(&t, args[0], args[1]),
                        LatticeOp::IsBottom => i.is_bottom(&t, args[0]),
                        LatticeOp::IsTop => i.is_top(&t, args[0]),
                        LatticeOp::Contains => i.contains(&t, args[0], args[1].int()),
                        op => unreachable!("`{op:?}` gives a lattice value, not a `bool`"),
                    })
                })
            }
            expr => {
                let c = self.compile(expr);
                given::<bool, G>(move |i, stack, base| Some(c.run(i, stack, base)?.bool()))
            }
        }
    }

    /// An `int` expression as code, computed without making a [`Val`] of it. Checked arithmetic
    /// fails (`None`) where the generated `checked_*(…)?` leaves the body.
    fn compile_int(&self, expr: &Expr) -> IntCode {
        if let Some(v) = self.folded(expr, || self.compile_int_node::<Plain>(expr)) {
            return code(move |_, _, _| Some(v));
        }
        self.compile_int_node::<Plain>(expr)
    }

    /// [`Interp::compile_int`] of a node that is not folded.
    fn compile_int_node<G: Give<i64>>(&self, expr: &Expr) -> Code<Interp, G::Out> {
        match expr {
            Expr::Int(v) => {
                let v = *v;
                given::<i64, G>(move |_, _, _| Some(v))
            }
            Expr::Var(_) | Expr::Field(..) if Place::of(expr).is_some() => {
                let Some(place) = Place::of(expr) else {
                    unreachable!("the guard found a place")
                };
                given::<i64, G>(move |_, stack, base| Some(place.read(stack, base).int()))
            }
            Expr::Neg(x) => {
                let x = self.compile_int(x);
                given::<i64, G>(move |i, stack, base| x.run(i, stack, base)?.checked_neg())
            }
            Expr::BitNot(x) => {
                let x = self.compile_int(x);
                given::<i64, G>(move |i, stack, base| Some(!x.run(i, stack, base)?))
            }
            Expr::Binary(op, a, b) => {
                let (a, b) = (self.int_arg(a), self.int_arg(b));
                let apply: fn(i64, i64) -> Option<i64> = match op {
                    BinaryOp::Add => i64::checked_add,
                    BinaryOp::Sub => i64::checked_sub,
                    BinaryOp::Mul => i64::checked_mul,
                    BinaryOp::Div => i64::checked_div,
                    BinaryOp::Rem => i64::checked_rem,
                    BinaryOp::WrapAdd => |x, y| Some(x.wrapping_add(y)),
                    BinaryOp::WrapSub => |x, y| Some(x.wrapping_sub(y)),
                    BinaryOp::WrapMul => |x, y| Some(x.wrapping_mul(y)),
                    BinaryOp::BitAnd => |x, y| Some(x & y),
                    BinaryOp::BitOr => |x, y| Some(x | y),
                    BinaryOp::BitXor => |x, y| Some(x ^ y),
                    BinaryOp::Shl => checked_shl,
                    BinaryOp::Shr => checked_shr,
                    BinaryOp::LShr => checked_lshr,
                    BinaryOp::WrapShl => |x, y| Some(wrapping_shl(x, y)),
                    BinaryOp::WrapShr => |x, y| Some(wrapping_shr(x, y)),
                    BinaryOp::WrapLShr => |x, y| Some(wrapping_lshr(x, y)),
                    op => unreachable!("the checker types `{op:?}` `bool`, not `int`"),
                };
                given::<i64, G>(move |i, stack, base| {
                    let x = a.get(i, stack, base)?;
                    let y = b.get(i, stack, base)?;
                    apply(x, y)
                })
            }
            Expr::If(c, t, f) => {
                let (c, t, f) = (
                    self.compile_bool(c),
                    self.compile_int(t),
                    self.compile_int(f),
                );
                given::<i64, G>(move |i, stack, base| {
                    if c.run(i, stack, base)? {
                        t.run(i, stack, base)
                    } else {
                        f.run(i, stack, base)
                    }
                })
            }
            Expr::Let(slot, value, body) => {
                let (slot, value, body) = (*slot, self.compile(value), self.compile_int(body));
                given::<i64, G>(move |i, stack, base| {
                    stack[base + slot] = value.run(i, stack, base)?;
                    body.run(i, stack, base)
                })
            }
            Expr::Match(t, scrutinee, arms) => {
                let (select, bodies) = self.arms(t, scrutinee, arms, |e| self.compile_int(e));
                given::<i64, G>(move |i, stack, base| {
                    let arm = Interp::select(i, &select, stack, base)?;
                    bodies[arm].run(i, stack, base)
                })
            }
            Expr::Builtin(Builtin::Eval, args) => {
                let op = self.compile_op(&args[0]);
                let (a, b) = (self.compile_int(&args[1]), self.compile_int(&args[2]));
                given::<i64, G>(move |i, stack, base| {
                    let op = op.run(i, stack, base)?;
                    let x = a.run(i, stack, base)?;
                    let y = b.run(i, stack, base)?;
                    // As `Builtin::Eval` in `builtin`: an operation that traps gives 0.
                    Some(op.eval(x, y).unwrap_or(0))
                })
            }
            Expr::Builtin(builtin @ (Builtin::Min | Builtin::Max), args) => {
                let min = *builtin == Builtin::Min;
                let (a, b) = (self.compile_int(&args[0]), self.compile_int(&args[1]));
                given::<i64, G>(move |i, stack, base| {
                    let x = a.run(i, stack, base)?;
                    let y = b.run(i, stack, base)?;
                    Some(if min { x.min(y) } else { x.max(y) })
                })
            }
            // An interval's bounds, read without the dispatch on the type's functions.
            Expr::TypeFn(t, name @ (TypeFn::Lo | TypeFn::Hi), args)
                if args.len() == 1 && matches!(self.shape(t), Shape::Interval) =>
            {
                let (t, name, arg) = (t.clone(), *name, self.operand(&args[0]));
                given::<i64, G>(move |i, stack, base| {
                    let computed = arg.computed(i, stack, base)?;
                    // As `type_fn`: the bounds of the empty interval are `i64::MAX` and
                    // `i64::MIN`.
                    Some(match (arg.value(&computed, stack, base), name) {
                        (Val::Interval(x), TypeFn::Lo) => x.lo().unwrap_or(i64::MAX),
                        (Val::Interval(x), _) => x.hi().unwrap_or(i64::MIN),
                        (other, _) => i.mismatch(name.name(), &t, other),
                    })
                })
            }
            // An address's symbol and offset, as `address_fn` reads them (-1 and 0 when it is not
            // known).
            Expr::TypeFn(t, name @ (TypeFn::Symbol | TypeFn::Offset), args)
                if args.len() == 1 && matches!(self.shape(t), Shape::Address) =>
            {
                let (t, name, arg) = (t.clone(), *name, self.operand(&args[0]));
                given::<i64, G>(move |i, stack, base| {
                    let computed = arg.computed(i, stack, base)?;
                    Some(match (arg.value(&computed, stack, base), name) {
                        (Val::Address(a), TypeFn::Symbol) => {
                            a.known().map_or(-1, |(s, _)| i64::from(s.0))
                        }
                        (Val::Address(a), _) => a.known().map_or(0, |(_, o)| o),
                        (other, _) => i.mismatch(name.name(), &t, other),
                    })
                })
            }
            Expr::TypeFn(t, name, args) => {
                let (t, name) = (t.clone(), *name);
                let args = self.operands(args);
                given::<i64, G>(move |i, stack, base| {
                    args.with(i, stack, base, |args| i.type_fn(&t, name, args).int())
                })
            }
            expr => {
                let c = self.compile(expr);
                given::<i64, G>(move |i, stack, base| Some(c.run(i, stack, base)?.int()))
            }
        }
    }

    /// An `Op` expression as code, computed without making a [`Val`] of it.
    fn compile_op(&self, expr: &Expr) -> OpCode {
        match expr {
            Expr::Op(op) => {
                let op = *op;
                code(move |_, _, _| Some(op))
            }
            Expr::Var(slot) => {
                let slot = *slot;
                code(move |_, stack, base| Some(stack[base + slot].op()))
            }
            expr => {
                let c = self.compile(expr);
                code(move |i, stack, base| Some(c.run(i, stack, base)?.op()))
            }
        }
    }

    /// A `match`'s arms as [`Arms`], and their bodies compiled by `body`.
    fn arms<T>(
        &self,
        t: &Ty,
        scrutinee: &Expr,
        arms: &[Arm],
        body: impl Fn(&Expr) -> Code<Interp, T>,
    ) -> (Arms, Vec<Code<Interp, T>>) {
        let bodies = arms.iter().map(|arm| body(&arm.body)).collect();
        let select = Arms {
            t: t.clone(),
            scrutinee: self.operand(scrutinee),
            arms: (arms.iter())
                .map(|arm| (arm.patterns.clone().into(), arm.binds.clone().into()))
                .collect(),
            table: self.arm_table(t, arms),
        };
        (select, bodies)
    }

    /// [`Arms::table`] of the arms `arms` of a `match` on `t`, when its patterns allow one.
    fn arm_table(&self, t: &Ty, arms: &[Arm]) -> Option<Box<[usize]>> {
        let size = match t {
            Ty::Op => Op::ALL.iter().map(|&op| op as usize + 1).max()?,
            Ty::Lat(_) => match self.shape(t) {
                Shape::Constant | Shape::Flat { .. } => 3,
                Shape::Finite { variants, .. } => variants.len(),
                Shape::Sum { summands } => summands.len() + 2,
                _ => return None,
            },
            _ => return None,
        };
        // Whether `pattern` matches the value of index `k`; `None` for a pattern no index decides.
        let hits = |pattern: &Pattern, k: usize| match pattern {
            Pattern::Wildcard => Some(true),
            Pattern::Enum(i) => Some(*i == k),
            Pattern::Op(o) => Some(*o as usize == k),
            Pattern::Constant(c) => Some(
                k == match c {
                    Constant::Bottom => 0,
                    Constant::Value => 1,
                    Constant::Top => 2,
                },
            ),
            _ => None,
        };
        let mut table = Vec::with_capacity(size);
        for k in 0..size {
            let mut found = None;
            'arms: for (a, arm) in arms.iter().enumerate() {
                for p in &arm.patterns {
                    if hits(p, k)? {
                        found = Some(a);
                        break 'arms;
                    }
                }
            }
            // An index no value has (an `Op` number between variants) takes the first arm:
            // it is never looked up.
            table.push(found.unwrap_or(0));
        }
        Some(table.into())
    }

    /// The arm of `arms` the scrutinee's value takes, its binders' slots written.
    fn select(interp: &Interp, arms: &Arms, stack: &mut Vec<Val>, base: usize) -> Option<usize> {
        let owned = match &arms.scrutinee {
            Operand::Code(c) => Some(c.run(interp, stack, base)?),
            Operand::Place(_) => None,
        };
        let v = match (&owned, &arms.scrutinee) {
            (Some(v), _) => v,
            (None, Operand::Place(p)) => p.read(stack, base),
            (None, Operand::Code(_)) => unreachable!("a computed scrutinee has its value"),
        };
        let found = match (&arms.table, index(v)) {
            (Some(table), Some(k)) if k < table.len() => Some(table[k]),
            _ => (arms.arms.iter())
                .position(|(patterns, _)| patterns.iter().any(|p| interp.matches(&arms.t, p, v))),
        };
        let Some(arm) = found else {
            unreachable!(
                "the checker makes every `match` exhaustive, but no arm matches {v:?} of `{}`",
                interp.type_name(&arms.t)
            )
        };
        let binds = &arms.arms[arm].1;
        // Each value before it is stored: the scrutinee may be read in place, from the stack.
        let value_of = |bound: &Bound| {
            let part = bound.at.iter().fold(v, |v, &i| v.part(i));
            if bound.whole {
                part.clone()
            } else {
                interp.payload(&bound.ty, part)
            }
        };
        match &binds[..] {
            [] => {}
            // The common case (a variant's payload) allocates nothing.
            [bound] => {
                let value = value_of(bound);
                stack[base + bound.slot] = value;
            }
            binds => {
                let values: Vec<Val> = binds.iter().map(value_of).collect();
                for (bound, value) in binds.iter().zip(values) {
                    stack[base + bound.slot] = value;
                }
            }
        }
        Some(arm)
    }

    /// The lattice operation `op` of `t` on `args`.
    fn lattice(&self, op: LatticeOp, t: &Ty, args: &[&Val]) -> Val {
        match op {
            LatticeOp::Join => self.join(t, args[0], args[1]),
            LatticeOp::Meet => self.meet(t, args[0], args[1]),
            LatticeOp::Widen => self.widen(t, args[0], args[1], Widen::Plain),
            LatticeOp::Narrow => self.narrow(t, args[0], args[1]),
            LatticeOp::Leq => Val::Bool(self.leq(t, args[0], args[1])),
            LatticeOp::IsBottom => Val::Bool(self.is_bottom(t, args[0])),
            LatticeOp::IsTop => Val::Bool(self.is_top(t, args[0])),
            LatticeOp::Contains => Val::Bool(self.contains(t, args[0], args[1].int())),
        }
    }
}

/// Whether `expr` reads no name and writes no slot: its value is the same wherever it runs.
fn closed(expr: &Expr) -> bool {
    match expr {
        Expr::Var(_) | Expr::DepthLeft(_) | Expr::Let(..) => false,
        Expr::Int(_) | Expr::Bool(_) | Expr::Op(_) | Expr::Top(_) | Expr::Bottom(_) => true,
        Expr::Neg(x) | Expr::Not(x) | Expr::BitNot(x) | Expr::Field(x, _) => closed(x),
        Expr::Binary(_, a, b) | Expr::Equal(_, a, b) => closed(a) && closed(b),
        Expr::If(c, t, f) => closed(c) && closed(t) && closed(f),
        Expr::Match(_, scrutinee, arms) => {
            closed(scrutinee) && (arms.iter()).all(|arm| arm.binds.is_empty() && closed(&arm.body))
        }
        Expr::Element(_, payload) => payload.as_deref().is_none_or(closed),
        Expr::Tuple(all)
        | Expr::Struct(_, all)
        | Expr::Lattice(_, _, all)
        | Expr::Builtin(_, all)
        | Expr::Call(_, all)
        | Expr::TypeFn(_, _, all) => all.iter().all(closed),
    }
}

#[cfg(test)]
mod tests {
    use super::index;
    use crate::val::{Payload, Val};
    use absinthe::lattice::Flat;

    #[test]
    fn constants_are_indexed_in_the_order_of_their_variants() {
        assert_eq!(index(&Val::Constant(Flat::Bottom)), Some(0));
        assert_eq!(index(&Val::Constant(Flat::Value(7))), Some(1));
        assert_eq!(index(&Val::Constant(Flat::Top)), Some(2));
        assert_eq!(index(&Val::Enum(5, Payload::None)), Some(5));
        assert_eq!(index(&Val::Int(3)), None);
    }
}
