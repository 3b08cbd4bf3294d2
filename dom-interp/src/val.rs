//! The interpreter's values: [`Val`] (a value of a `.dom` program, which does not carry its
//! type), the payloads of sums, the indices a flat or sum value is stored at, and [`Lit`], a
//! value a loaded program may hold. The lattice operations on them are `value.rs`'s.

use crate::numeric::Num;
use absinthe::lattice::{Address, Flat, Interval, Thresholds};
use absinthe::lattice::{Names, Steps};
use absinthe::program::Op;
use absinthe::terms::{ArgKind, ParamId};
use absinthe_domc::dom::tree::Ty;

use std::fmt::Debug;
use std::rc::Rc;

/// A value of a `.dom` program. Lattice values do not carry their type: every operation is told
/// it (the checker typed every expression).
#[derive(Clone, Debug)]
pub enum Val {
    /// `int`.
    Int(i64),
    /// `bool`.
    Bool(bool),
    /// `Op`.
    Op(Op),
    /// `Param`.
    Param(ParamId),
    /// `ArgKind`.
    Kind(ArgKind),
    /// The third parameter of a written-out `widen(a, b, t)`.
    Thresholds(Rc<Thresholds>),
    /// `(a, b, …)`.
    Tuple(Rc<[Val]>),
    /// The runtime's `Interval`.
    Interval(Interval),
    /// The runtime's `Address`.
    Address(Address),
    /// The runtime's `Flat<i64>` (`Constant`).
    Constant(Flat<i64>),
    /// The runtime's `Congruence`, `Parity` or `Sign`.
    Num(Num),
    /// The runtime's `Names`.
    Names(Rc<Names>),
    /// The runtime's `Steps`.
    Steps(Rc<Steps>),
    /// A `FiniteSum<Interval, N>`: its canonical disjuncts.
    Intervals(Rc<[Interval]>),
    /// A `FiniteSum<Constant, N>`: its canonical disjuncts.
    Constants(Rc<[Flat<i64>]>),
    /// An element of a flat (`BOTTOM`, `FLAT_VALUE`, `FLAT_TOP`), finite (the element's
    /// index) or sum lattice (`BOTTOM`, `summand_index` of each summand, `sum_top`), with
    /// its payload.
    Enum(usize, Payload),
    /// A struct lattice's fields or a product's components, in declaration order.
    Record(Rc<[Val]>),
}

/// The payload of an element of a flat or sum lattice ([`Val::Enum`]). An `int` (the payload of
/// `flat(int)`, the commonest) is held in place: making one allocates nothing.
#[derive(Clone, Debug)]
pub enum Payload {
    /// The element carries none (bottom, top, a finite lattice's element, a summand without
    /// payload).
    None,
    /// An `int`.
    Int(i64),
    /// Any other value.
    Boxed(Rc<Val>),
}

impl Payload {
    /// `v` as a payload.
    pub fn of(v: Val) -> Payload {
        match v {
            Val::Int(i) => Payload::Int(i),
            v => Payload::Boxed(Rc::new(v)),
        }
    }

    /// The value carried, if any.
    pub fn get(&self) -> Option<Val> {
        match self {
            Payload::None => None,
            Payload::Int(i) => Some(Val::Int(*i)),
            Payload::Boxed(v) => Some((**v).clone()),
        }
    }
}

/// [`Val::Enum`]'s index of bottom (`Bottom`) in a flat or sum lattice.
pub(crate) const BOTTOM: usize = 0;

/// [`Val::Enum`]'s index of a flat lattice's `Value(x)` (with `x` its payload).
pub(crate) const FLAT_VALUE: usize = 1;

/// [`Val::Enum`]'s index of a flat lattice's top (`Top`).
pub(crate) const FLAT_TOP: usize = 2;

/// [`Val::Enum`]'s index of a sum lattice's summand at `k` (from 0, in declaration order):
/// after `BOTTOM`.
pub(crate) fn summand_index(k: usize) -> usize {
    k + 1
}

/// [`Val::Enum`]'s index of top (`Top`) in a sum lattice of `summands`: after every summand.
pub(crate) fn sum_top(summands: &[(String, Option<Ty>)]) -> usize {
    summands.len() + 1
}

/// The summand (its name and payload type) at [`Val::Enum`]'s index `i` of a sum lattice of
/// `summands`; `None` for bottom and top.
pub(crate) fn summand(
    summands: &[(String, Option<Ty>)],
    i: usize,
) -> Option<&(String, Option<Ty>)> {
    i.checked_sub(1).and_then(|k| summands.get(k))
}

impl Val {
    /// The integer (the checker types the expression `int`).
    pub fn int(&self) -> i64 {
        match self {
            Val::Int(v) => *v,
            other => unreachable!("the checker types this expression `int`, found {other:?}"),
        }
    }

    /// The boolean (the checker types the expression `bool`).
    pub fn bool(&self) -> bool {
        match self {
            Val::Bool(b) => *b,
            other => unreachable!("the checker types this expression `bool`, found {other:?}"),
        }
    }

    /// The part at `i` of a record or tuple.
    pub fn part(&self, i: usize) -> &Val {
        &self.parts()[i]
    }

    /// The operation (the checker types the expression `Op`).
    pub fn op(&self) -> Op {
        match self {
            Val::Op(o) => *o,
            other => unreachable!("the checker types this expression `Op`, found {other:?}"),
        }
    }

    /// The parameter (the checker types the expression `Param`).
    pub fn param(&self) -> ParamId {
        match self {
            Val::Param(p) => *p,
            other => unreachable!("the checker types this expression `Param`, found {other:?}"),
        }
    }

    /// The parts of a record or tuple (the checker reads fields of struct lattices and
    /// products, and components of tuples, only).
    pub fn parts(&self) -> &[Val] {
        match self {
            Val::Record(parts) | Val::Tuple(parts) => parts,
            other => unreachable!(
                "the checker reads parts of structs, products and tuples only, found {other:?}"
            ),
        }
    }

    /// A record of `parts`.
    pub fn record(parts: Vec<Val>) -> Val {
        Val::Record(parts.into())
    }

    /// A record of the parts `parts` gives, made in one allocation when it knows how many.
    pub fn record_of(parts: impl IntoIterator<Item = Val>) -> Val {
        Val::Record(parts.into_iter().collect())
    }
}

/// Which widening: the plain one, or the one with thresholds.
#[derive(Clone, Copy, Debug)]
pub enum Widen<'t> {
    /// `Lattice::widen`.
    Plain,
    /// `Lattice::widen_with_thresholds`.
    With(&'t Thresholds),
}

/// A value with nothing shared in it, which a loaded program may hold (a [`Val`] may share
/// parts through `Rc`, which threads may not): the value of an expression computed once, when
/// the file is loaded.
#[derive(Clone, Debug)]
pub(crate) enum Lit {
    Int(i64),
    Bool(bool),
    Op(Op),
    Interval(Interval),
    Address(Address),
    Constant(Flat<i64>),
    Num(Num),
    Enum(usize, Option<Box<Lit>>),
    Record(Box<[Lit]>),
    Tuple(Box<[Lit]>),
}

impl Lit {
    /// `v` as a literal, when it is one of those a literal holds.
    pub(crate) fn of(v: &Val) -> Option<Lit> {
        let all = |parts: &[Val]| parts.iter().map(Lit::of).collect::<Option<Box<[Lit]>>>();
        Some(match v {
            Val::Int(i) => Lit::Int(*i),
            Val::Bool(b) => Lit::Bool(*b),
            Val::Op(o) => Lit::Op(*o),
            Val::Interval(x) => Lit::Interval(*x),
            Val::Address(x) => Lit::Address(*x),
            Val::Constant(x) => Lit::Constant(x.clone()),
            Val::Num(x) => Lit::Num(*x),
            Val::Enum(i, Payload::None) => Lit::Enum(*i, None),
            Val::Enum(i, Payload::Int(x)) => Lit::Enum(*i, Some(Box::new(Lit::Int(*x)))),
            Val::Enum(i, Payload::Boxed(p)) => Lit::Enum(*i, Some(Box::new(Lit::of(p)?))),
            Val::Record(parts) => Lit::Record(all(parts)?),
            Val::Tuple(parts) => Lit::Tuple(all(parts)?),
            Val::Param(_)
            | Val::Kind(_)
            | Val::Thresholds(_)
            | Val::Names(_)
            | Val::Steps(_)
            | Val::Intervals(_)
            | Val::Constants(_) => return None,
        })
    }

    /// The value.
    pub(crate) fn val(&self) -> Val {
        match self {
            Lit::Int(i) => Val::Int(*i),
            Lit::Bool(b) => Val::Bool(*b),
            Lit::Op(o) => Val::Op(*o),
            Lit::Interval(x) => Val::Interval(*x),
            Lit::Address(x) => Val::Address(*x),
            Lit::Constant(x) => Val::Constant(x.clone()),
            Lit::Num(x) => Val::Num(*x),
            Lit::Enum(i, None) => Val::Enum(*i, Payload::None),
            Lit::Enum(i, Some(p)) => Val::Enum(*i, Payload::of(p.val())),
            Lit::Record(parts) => Val::Record(parts.iter().map(Lit::val).collect()),
            Lit::Tuple(parts) => Val::Tuple(parts.iter().map(Lit::val).collect()),
        }
    }
}
