//! The resolved bodies ([`Expr`], `resolve.rs`) compiled, when a file is loaded, to closures
//! ([`Code`]) that `eval.rs` runs: one closure per node, typed by what the checker typed it —
//! `int`s, `bool`s and `Op`s are computed without making a [`Val`], names in scope and their
//! fields are read where they are (not copied), the operands of lattice operations and of the
//! runtime lattices' functions are held in locals (not pushed on the stack), and a `match` on an
//! enumerated type finds its arm by the value's index. Each closure does what the Rust the
//! generator emits for its node does (see `eval.rs` for failing bodies).

use super::Interp;
use crate::code::Code;
use crate::plan::FnId;
use crate::resolved::{Arm, Bound, Builtin, Constant, Element, Expr, LatticeOp, Pattern, TypeFn};
use crate::val::{Lit, Payload, Val, Widen};
use absinthe::__private::{
    checked_lshr, checked_shl, checked_shr, overflows, wrapping_lshr, wrapping_shl, wrapping_shr,
};
use absinthe::lattice::{Flat, Lattice};
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

/// A name in scope, or a field (of a field…) of one: read where it is.
#[derive(Clone, Debug)]
struct Place {
    slot: usize,
    fields: Box<[usize]>,
}

impl Place {
    /// The place `expr` names, if it is one.
    fn of(expr: &Expr) -> Option<Place> {
        match expr {
            Expr::Var(slot) => Some(Place {
                slot: *slot,
                fields: Box::new([]),
            }),
            Expr::Field(record, i) => {
                let mut place = Place::of(record)?;
                let mut fields = place.fields.into_vec();
                fields.push(*i);
                place.fields = fields.into();
                Some(place)
            }
            _ => None,
        }
    }

    #[inline]
    fn read<'s>(&self, stack: &'s [Val], base: usize) -> &'s Val {
        let mut v = &stack[base + self.slot];
        for &i in &self.fields {
            v = v.part(i);
        }
        v
    }
}

/// An operand: read in place, or computed.
enum Operand {
    Place(Place),
    Code(ValCode),
}

/// The operands of an operation, as many as it takes: one or two held in locals (the commonest),
/// more collected in a vector.
enum Operands {
    One(Operand),
    Two(Operand, Operand),
    Many(Vec<Operand>),
}

impl Operand {
    /// The operand's value, when it is computed (a place is read afterwards, when nothing
    /// computed can write the stack any more).
    #[inline]
    fn computed(&self, interp: &Interp, stack: &mut Vec<Val>, base: usize) -> Option<Option<Val>> {
        match self {
            Operand::Place(_) => Some(None),
            Operand::Code(c) => Some(Some(c.run(interp, stack, base)?)),
        }
    }

    /// The operand's value: `computed` if it was, else read in place.
    #[inline]
    fn value<'v>(&self, computed: &'v Option<Val>, stack: &'v [Val], base: usize) -> &'v Val {
        match (computed, self) {
            (Some(v), _) => v,
            (None, Operand::Place(p)) => p.read(stack, base),
            (None, Operand::Code(_)) => {
                unreachable!("a computed operand has its value before the places are read")
            }
        }
    }
}

impl Operands {
    /// Runs `f` on the operands' values; `None` when one fails.
    #[inline]
    fn with<R>(
        &self,
        interp: &Interp,
        stack: &mut Vec<Val>,
        base: usize,
        f: impl FnOnce(&[&Val]) -> R,
    ) -> Option<R> {
        match self {
            Operands::One(a) => {
                let x = a.computed(interp, stack, base)?;
                Some(f(&[a.value(&x, stack, base)]))
            }
            Operands::Two(a, b) => {
                let x = a.computed(interp, stack, base)?;
                let y = b.computed(interp, stack, base)?;
                Some(f(&[a.value(&x, stack, base), b.value(&y, stack, base)]))
            }
            Operands::Many(all) => {
                let mut computed = Vec::with_capacity(all.len());
                for o in all {
                    computed.push(o.computed(interp, stack, base)?);
                }
                let values: Vec<&Val> = (all.iter().zip(&computed))
                    .map(|(o, c)| o.value(c, stack, base))
                    .collect();
                Some(f(&values))
            }
        }
    }
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
                let args: Vec<ValCode> = args.iter().map(|a| self.compile(a)).collect();
                code(move |i, stack, base| {
                    let mark = stack.len();
                    for a in &args {
                        let Some(v) = a.run(i, stack, base) else {
                            stack.truncate(mark);
                            return None;
                        };
                        stack.push(v);
                    }
                    i.run(id, stack, mark)
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

    /// An `int` expression as code that makes its value.
    fn int_value(&self, expr: &Expr) -> ValCode {
        let c = self.compile_int(expr);
        code(move |i, stack, base| Some(Val::Int(c.run(i, stack, base)?)))
    }

    /// A `bool` expression as code that makes its value.
    fn bool_value(&self, expr: &Expr) -> ValCode {
        let c = self.compile_bool(expr);
        code(move |i, stack, base| Some(Val::Bool(c.run(i, stack, base)?)))
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
        if let Some(b) = self.folded(expr, || self.compile_bool_node(expr)) {
            return code(move |_, _, _| Some(b));
        }
        self.compile_bool_node(expr)
    }

    /// [`Interp::compile_bool`] of a node that is not folded.
    fn compile_bool_node(&self, expr: &Expr) -> BoolCode {
        match expr {
            Expr::Bool(b) => {
                let b = *b;
                code(move |_, _, _| Some(b))
            }
            Expr::Var(_) | Expr::Field(..) if Place::of(expr).is_some() => {
                let Some(place) = Place::of(expr) else {
                    unreachable!("the guard found a place")
                };
                code(move |_, stack, base| Some(place.read(stack, base).bool()))
            }
            Expr::Not(x) => {
                let x = self.compile_bool(x);
                code(move |i, stack, base| Some(!x.run(i, stack, base)?))
            }
            Expr::Binary(BinaryOp::And, a, b) => {
                let (a, b) = (self.compile_bool(a), self.compile_bool(b));
                code(move |i, stack, base| Some(a.run(i, stack, base)? && b.run(i, stack, base)?))
            }
            Expr::Binary(BinaryOp::Or, a, b) => {
                let (a, b) = (self.compile_bool(a), self.compile_bool(b));
                code(move |i, stack, base| Some(a.run(i, stack, base)? || b.run(i, stack, base)?))
            }
            Expr::Binary(op, a, b) => {
                let (a, b) = (self.compile_int(a), self.compile_int(b));
                let compare: fn(i64, i64) -> bool = match op {
                    BinaryOp::Lt => |x, y| x < y,
                    BinaryOp::Le => |x, y| x <= y,
                    BinaryOp::Gt => |x, y| x > y,
                    BinaryOp::Ge => |x, y| x >= y,
                    BinaryOp::Eq => |x, y| x == y,
                    BinaryOp::Ne => |x, y| x != y,
                    op => unreachable!("the checker types `{op:?}` of `int`s `int`, not `bool`"),
                };
                code(move |i, stack, base| {
                    let x = a.run(i, stack, base)?;
                    let y = b.run(i, stack, base)?;
                    Some(compare(x, y))
                })
            }
            Expr::Equal(t, a, b) => {
                let t = t.clone();
                let sides = Operands::Two(self.operand(a), self.operand(b));
                code(move |i, stack, base| sides.with(i, stack, base, |v| i.eq(&t, v[0], v[1])))
            }
            Expr::If(c, t, f) => {
                let (c, t, f) = (
                    self.compile_bool(c),
                    self.compile_bool(t),
                    self.compile_bool(f),
                );
                code(move |i, stack, base| {
                    if c.run(i, stack, base)? {
                        t.run(i, stack, base)
                    } else {
                        f.run(i, stack, base)
                    }
                })
            }
            Expr::Let(slot, value, body) => {
                let (slot, value, body) = (*slot, self.compile(value), self.compile_bool(body));
                code(move |i, stack, base| {
                    stack[base + slot] = value.run(i, stack, base)?;
                    body.run(i, stack, base)
                })
            }
            Expr::Match(t, scrutinee, arms) => {
                let (select, bodies) = self.arms(t, scrutinee, arms, |e| self.compile_bool(e));
                code(move |i, stack, base| {
                    let arm = Interp::select(i, &select, stack, base)?;
                    bodies[arm].run(i, stack, base)
                })
            }
            Expr::Builtin(Builtin::IsComparison, args) => {
                let op = self.compile_op(&args[0]);
                code(move |i, stack, base| Some(op.run(i, stack, base)?.is_comparison()))
            }
            Expr::Builtin(builtin @ (Builtin::Traps | Builtin::Overflows), args) => {
                let traps = *builtin == Builtin::Traps;
                let op = self.compile_op(&args[0]);
                let (a, b) = (self.compile_int(&args[1]), self.compile_int(&args[2]));
                code(move |i, stack, base| {
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
                code(move |i, stack, base| {
                    let computed = arg.computed(i, stack, base)?;
                    Some(match arg.value(&computed, stack, base) {
                        Val::Interval(x) if empty => x.is_bottom(),
                        Val::Interval(x) => x.as_constant().is_some(),
                        other => i.mismatch("is_bottom", &t, other),
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
                code(move |i, stack, base| {
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
                code(move |i, stack, base| Some(c.run(i, stack, base)?.bool()))
            }
        }
    }

    /// An `int` expression as code, computed without making a [`Val`] of it. Checked arithmetic
    /// fails (`None`) where the generated `checked_*(…)?` leaves the body.
    fn compile_int(&self, expr: &Expr) -> IntCode {
        if let Some(v) = self.folded(expr, || self.compile_int_node(expr)) {
            return code(move |_, _, _| Some(v));
        }
        self.compile_int_node(expr)
    }

    /// [`Interp::compile_int`] of a node that is not folded.
    fn compile_int_node(&self, expr: &Expr) -> IntCode {
        match expr {
            Expr::Int(v) => {
                let v = *v;
                code(move |_, _, _| Some(v))
            }
            Expr::Var(_) | Expr::Field(..) if Place::of(expr).is_some() => {
                let Some(place) = Place::of(expr) else {
                    unreachable!("the guard found a place")
                };
                code(move |_, stack, base| Some(place.read(stack, base).int()))
            }
            Expr::Neg(x) => {
                let x = self.compile_int(x);
                code(move |i, stack, base| x.run(i, stack, base)?.checked_neg())
            }
            Expr::BitNot(x) => {
                let x = self.compile_int(x);
                code(move |i, stack, base| Some(!x.run(i, stack, base)?))
            }
            Expr::Binary(op, a, b) => {
                let (a, b) = (self.compile_int(a), self.compile_int(b));
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
                code(move |i, stack, base| {
                    let x = a.run(i, stack, base)?;
                    let y = b.run(i, stack, base)?;
                    apply(x, y)
                })
            }
            Expr::If(c, t, f) => {
                let (c, t, f) = (
                    self.compile_bool(c),
                    self.compile_int(t),
                    self.compile_int(f),
                );
                code(move |i, stack, base| {
                    if c.run(i, stack, base)? {
                        t.run(i, stack, base)
                    } else {
                        f.run(i, stack, base)
                    }
                })
            }
            Expr::Let(slot, value, body) => {
                let (slot, value, body) = (*slot, self.compile(value), self.compile_int(body));
                code(move |i, stack, base| {
                    stack[base + slot] = value.run(i, stack, base)?;
                    body.run(i, stack, base)
                })
            }
            Expr::Match(t, scrutinee, arms) => {
                let (select, bodies) = self.arms(t, scrutinee, arms, |e| self.compile_int(e));
                code(move |i, stack, base| {
                    let arm = Interp::select(i, &select, stack, base)?;
                    bodies[arm].run(i, stack, base)
                })
            }
            Expr::Builtin(Builtin::Eval, args) => {
                let op = self.compile_op(&args[0]);
                let (a, b) = (self.compile_int(&args[1]), self.compile_int(&args[2]));
                code(move |i, stack, base| {
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
                code(move |i, stack, base| {
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
                code(move |i, stack, base| {
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
            Expr::TypeFn(t, name, args) => {
                let (t, name) = (t.clone(), *name);
                let args = self.operands(args);
                code(move |i, stack, base| {
                    args.with(i, stack, base, |args| i.type_fn(&t, name, args).int())
                })
            }
            expr => {
                let c = self.compile(expr);
                code(move |i, stack, base| Some(c.run(i, stack, base)?.int()))
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

impl Interp {
    /// Runs the function `id`'s body on the arguments at `base..` of `stack` (its frame's first
    /// slots), `None` when it fails; the stack ends at `base` afterwards.
    fn run(&self, id: FnId, stack: &mut Vec<Val>, base: usize) -> Option<Val> {
        let result = self.frame(id, stack, base);
        stack.truncate(base);
        result
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
