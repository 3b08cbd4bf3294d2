//! The lattice operations of every `.dom` type on the interpreter's values (`val.rs`), each the
//! same as the code the generator writes for that type (`absinthe_domc::codegen`): the same
//! order, the same treatment of bottoms, the same printing.

use super::Interp;
use crate::numeric::Num;
use crate::plan::FnId;
use crate::val::{BOTTOM, FLAT_TOP, Payload, Val, Widen, sum_top, summand};
use absinthe::lattice::{
    Address, DefaultCost, Flat, Interval, Lattice, Thresholds, Top, canonical_disjuncts,
    widen_disjuncts,
};
use absinthe::lattice::{Names, Steps};
use absinthe_domc::dom::tree::{Shape, Ty};
use std::borrow::Cow;

use std::fmt::Debug;
use std::rc::Rc;

/// The binary lattice operations, so that field-wise code is written once.
#[derive(Clone, Copy)]
enum Binary<'t> {
    Join,
    Meet,
    Widen(Widen<'t>),
    Narrow,
}

impl Interp {
    /// The shape of the lattice `t` (the checker gives lattice operations lattice types only).
    pub(super) fn shape(&self, t: &Ty) -> &Shape {
        match t {
            Ty::Lat(id) => self.program.types.shape(*id),
            _ => unreachable!(
                "the checker gives lattice operations lattices, not `{}`",
                self.type_name(t)
            ),
        }
    }

    /// `op` on values of `t` that are not of `t`'s shape (`found`): never in a checked program,
    /// whose every expression the checker typed, whose lattices it resolved, and whose `extern`
    /// types the interpreter refuses.
    pub(super) fn mismatch(&self, op: &str, t: &Ty, found: &dyn Debug) -> ! {
        unreachable!(
            "the checker types the operands of `{op}` as `{}`, found {found:?}",
            self.type_name(t)
        )
    }

    /// `op` of a lattice that has no shape to run (`Pending`, `Extern`, `Error`): never in a
    /// checked program, whose lattices the checker resolved and whose `extern` types the
    /// interpreter refuses.
    fn unresolved(&self, op: &str, t: &Ty) -> ! {
        unreachable!(
            "the checker resolves every lattice, the interpreter refuses `extern` types and its \
             plan gives relational types the interval's shape, but \
             `{op}` of `{}` finds {:?}",
            self.type_name(t),
            self.shape(t)
        )
    }

    /// Whether every ascending chain of `t` is finite (`Lattice::FINITE_HEIGHT` of the code the
    /// generator writes for it).
    pub fn finite_height(&self, t: &Ty) -> bool {
        match self.shape(t) {
            Shape::Interval => Interval::FINITE_HEIGHT,
            Shape::Address => Address::FINITE_HEIGHT,
            // Signs and parities are finite; a congruence's modulus divides at each strict step.
            Shape::Numeric(_) => true,
            Shape::Constant => <Flat<i64> as Lattice>::FINITE_HEIGHT,
            Shape::Names => Names::FINITE_HEIGHT,
            Shape::Steps => Steps::FINITE_HEIGHT,
            Shape::FiniteSum { inner, .. } => self.finite_height(inner),
            Shape::Flat { .. } | Shape::Finite { .. } => true,
            Shape::Sum { summands } => summands
                .iter()
                .filter_map(|(_, p)| p.as_ref())
                .all(|p| self.finite_height(p)),
            Shape::Struct { fields, .. } => {
                !self.pointwise(t).values
                    && fields
                        .iter()
                        .filter(|(_, f)| matches!(f, Ty::Lat(_)))
                        .all(|(_, f)| self.finite_height(f))
            }
            Shape::Product { .. } | Shape::Direct => {
                self.part_types(t).iter().all(|c| self.finite_height(c))
            }
            Shape::Pending | Shape::Extern | Shape::Error | Shape::Relation(_) => {
                self.unresolved("FINITE_HEIGHT", t)
            }
        }
    }

    /// The types of a struct's fields or a product's components (none for another lattice).
    pub fn part_types(&self, t: &Ty) -> &[Ty] {
        match t {
            // `Interp::new` lists every lattice's parts.
            Ty::Lat(id) => &self.parts[*id],
            _ => unreachable!(
                "the checker gives fields to struct lattices and products only, not to `{}`",
                self.type_name(t)
            ),
        }
    }

    /// The product a direct product is the companion of (itself otherwise).
    pub fn direct_product(&self, t: &Ty) -> Ty {
        match t {
            Ty::Lat(id) => match self.direct_of.get(id) {
                Some(&p) => Ty::Lat(p),
                None => t.clone(),
            },
            _ => t.clone(),
        }
    }

    fn fieldwise(&self, t: &Ty, a: &Val, b: &Val, op: Binary<'_>) -> Val {
        let parts = self.part_types(t);
        self.assemble(
            t,
            parts
                .iter()
                .enumerate()
                .map(|(i, pt)| self.binary(pt, self.part_at(t, a, i), self.part_at(t, b, i), op)),
        )
    }

    fn binary(&self, t: &Ty, a: &Val, b: &Val, op: Binary<'_>) -> Val {
        match op {
            Binary::Join => self.join(t, a, b),
            Binary::Meet => self.meet(t, a, b),
            Binary::Widen(w) => self.widen(t, a, b, w),
            Binary::Narrow => self.narrow(t, a, b),
        }
    }

    /// Every component at bottom (a product's `__absinthe_collapse`).
    pub fn collapse(&self, t: &Ty) -> Val {
        self.assemble(t, self.part_types(t).iter().map(|pt| self.bottom(pt)))
    }

    /// `Lattice::bottom`.
    pub fn bottom(&self, t: &Ty) -> Val {
        match self.shape(t) {
            Shape::Interval => Val::Interval(Interval::bottom()),
            Shape::Address => Val::Address(Address::Bottom),
            Shape::Numeric(n) => Val::Num(Num::bottom(*n)),
            Shape::Constant => Val::Constant(Flat::Bottom),
            Shape::Names => Val::Names(Rc::new(Names::bottom())),
            Shape::Steps => Val::Steps(Rc::new(Steps::bottom())),
            Shape::FiniteSum { inner, .. } => self.disjuncts(inner, Vec::new()),
            Shape::Flat { .. } | Shape::Sum { .. } => Val::Enum(BOTTOM, Payload::None),
            Shape::Finite { order, .. } => Val::Enum(order.bottom, Payload::None),
            Shape::Struct { .. } => match self.written(t, "bottom") {
                Some(f) => self.call(f, &[]),
                None => self.collapse(t),
            },
            Shape::Product { .. } | Shape::Direct => self.collapse(t),
            Shape::Pending | Shape::Extern | Shape::Error | Shape::Relation(_) => {
                self.unresolved("bottom", t)
            }
        }
    }

    /// `Top::top`.
    pub fn top(&self, t: &Ty) -> Val {
        match self.shape(t) {
            Shape::Interval => Val::Interval(Interval::top()),
            Shape::Address => Val::Address(Address::Top),
            Shape::Numeric(n) => Val::Num(Num::top(*n)),
            Shape::Constant => Val::Constant(Flat::Top),
            Shape::Names => Val::Names(Rc::new(Names::top())),
            Shape::Steps => Val::Steps(Rc::new(Steps::top())),
            Shape::FiniteSum { inner, n } => {
                let top = self.top(inner);
                self.canonical(inner, *n, vec![top])
            }
            Shape::Flat { .. } => Val::Enum(FLAT_TOP, Payload::None),
            Shape::Sum { summands } => Val::Enum(sum_top(summands), Payload::None),
            Shape::Finite { order, .. } => Val::Enum(order.top, Payload::None),
            Shape::Struct { .. } => match self.written(t, "top") {
                Some(f) => self.call(f, &[]),
                None => self.assemble(t, self.part_types(t).iter().map(|pt| self.top(pt))),
            },
            Shape::Product { .. } | Shape::Direct => {
                self.assemble(t, self.part_types(t).iter().map(|pt| self.top(pt)))
            }
            Shape::Pending | Shape::Extern | Shape::Error | Shape::Relation(_) => {
                self.unresolved("top", t)
            }
        }
    }

    /// `Lattice::is_bottom`.
    pub fn is_bottom(&self, t: &Ty, v: &Val) -> bool {
        match (self.shape(t), v) {
            (Shape::Interval, Val::Interval(x)) => x.is_bottom(),
            (Shape::Address, Val::Address(x)) => x.is_bottom(),
            (Shape::Numeric(_), Val::Num(x)) => x.is_bottom(),
            (Shape::Constant, Val::Constant(x)) => x.is_bottom(),
            (Shape::Names, Val::Names(x)) => x.is_bottom(),
            (Shape::Steps, Val::Steps(x)) => x.is_bottom(),
            (Shape::FiniteSum { .. }, Val::Intervals(xs)) => xs.is_empty(),
            (Shape::FiniteSum { .. }, Val::Constants(xs)) => xs.is_empty(),
            (Shape::Flat { .. }, Val::Enum(i, _)) => *i == BOTTOM,
            (Shape::Finite { order, .. }, Val::Enum(i, _)) => *i == order.bottom,
            (Shape::Sum { summands }, Val::Enum(i, payload)) => {
                // A summand whose payload is bottom is bottom too.
                *i == BOTTOM
                    || match (payload.get(), summand(summands, *i)) {
                        (Some(p), Some((_, Some(pt)))) => self.is_bottom(pt, &p),
                        // Top, or a summand without payload.
                        (None, _) => false,
                        (Some(_), _) => self.mismatch("is_bottom", t, v),
                    }
            }
            (Shape::Struct { .. }, _) => self.struct_is_bottom(t, v),
            (Shape::Product { .. } | Shape::Direct, _) => (self.part_types(t).iter())
                .zip(self.parts_in(t, v))
                .any(|(pt, p)| self.is_bottom(pt, p)),
            _ => self.mismatch("is_bottom", t, v),
        }
    }

    fn struct_is_bottom(&self, t: &Ty, v: &Val) -> bool {
        let info = self.pointwise(t);
        let fields = self.part_types(t);
        let lattice_bottoms = || {
            fields
                .iter()
                .enumerate()
                .filter(|(_, ft)| matches!(ft, Ty::Lat(_)))
                .map(|(i, ft)| self.is_bottom(ft, self.part_at(t, v, i)))
        };
        let mut is_bottom = if info.smash {
            lattice_bottoms().any(|b| b)
        } else if info.values {
            false
        } else {
            lattice_bottoms().all(|b| b)
        };
        let empty = || {
            info.empty
                .as_ref()
                .is_some_and(|f| self.call(*f, std::slice::from_ref(v)).bool())
        };
        if info.empty.is_some() {
            is_bottom = is_bottom || empty();
        }
        if let Some(f) = &info.bottom {
            let bottom = self.call(*f, &[]);
            let (v, bottom) = self.normal_forms(t, v, &bottom);
            let written = fields
                .iter()
                .enumerate()
                .all(|(i, ft)| self.eq(ft, self.part_at(t, &v, i), self.part_at(t, &bottom, i)));
            is_bottom = if info.values || info.smash {
                is_bottom || written
            } else if info.empty.is_some() {
                empty() || written
            } else {
                written
            };
        }
        is_bottom
    }

    /// `Top::is_top`.
    pub fn is_top(&self, t: &Ty, v: &Val) -> bool {
        match (self.shape(t), v) {
            (Shape::Interval, Val::Interval(x)) => x.is_top(),
            (Shape::Address, Val::Address(x)) => x.is_top(),
            (Shape::Numeric(_), Val::Num(x)) => x.is_top(),
            (Shape::Constant, Val::Constant(x)) => x.is_top(),
            (Shape::Names, Val::Names(x)) => x.is_top(),
            (Shape::Steps, Val::Steps(x)) => x.is_top(),
            (Shape::FiniteSum { inner, .. }, _) => {
                self.values_of(v).len() == 1 && self.is_top(inner, &self.values_of(v)[0])
            }
            (Shape::Flat { .. }, Val::Enum(i, _)) => *i == FLAT_TOP,
            (Shape::Sum { summands }, Val::Enum(i, _)) => *i == sum_top(summands),
            (Shape::Finite { order, .. }, Val::Enum(i, _)) => *i == order.top,
            (Shape::Struct { .. }, _) => {
                let fields = self.part_types(t);
                match self.written(t, "top") {
                    Some(f) => {
                        let top = self.call(f, &[]);
                        let (v, top) = self.normal_forms(t, v, &top);
                        fields.iter().enumerate().all(|(i, ft)| {
                            self.eq(ft, self.part_at(t, &v, i), self.part_at(t, &top, i))
                        })
                    }
                    None => fields
                        .iter()
                        .enumerate()
                        .filter(|(_, ft)| matches!(ft, Ty::Lat(_)))
                        .all(|(i, ft)| self.is_top(ft, self.part_at(t, v, i))),
                }
            }
            (Shape::Product { .. } | Shape::Direct, _) => self
                .part_types(t)
                .iter()
                .enumerate()
                .all(|(i, pt)| self.is_top(pt, self.part_at(t, v, i))),
            _ => self.mismatch("is_top", t, v),
        }
    }

    /// `a` and `b` of the struct lattice `t` in their normal forms, if it has one (else as they
    /// are, borrowed).
    fn normal_forms<'v>(&self, t: &Ty, a: &'v Val, b: &'v Val) -> (Cow<'v, Val>, Cow<'v, Val>) {
        match self.pointwise(t).normalize {
            Some(f) => (
                Cow::Owned(self.call(f, std::slice::from_ref(a))),
                Cow::Owned(self.call(f, std::slice::from_ref(b))),
            ),
            None => (Cow::Borrowed(a), Cow::Borrowed(b)),
        }
    }

    /// Equality as the generated `PartialEq` says (for `int`, `bool`, `Op`, … plain equality).
    pub fn eq(&self, t: &Ty, a: &Val, b: &Val) -> bool {
        match (a, b) {
            (Val::Int(x), Val::Int(y)) => return x == y,
            (Val::Bool(x), Val::Bool(y)) => return x == y,
            (Val::Op(x), Val::Op(y)) => return x == y,
            (Val::Param(x), Val::Param(y)) => return x == y,
            (Val::Kind(x), Val::Kind(y)) => return x == y,
            // A written-out `widen(a, b, t)` may compare its thresholds (`Thresholds: Eq`).
            (Val::Thresholds(x), Val::Thresholds(y)) => return x == y,
            _ => {}
        }
        match (self.shape(t), a, b) {
            (Shape::Interval, Val::Interval(x), Val::Interval(y)) => x == y,
            (Shape::Address, Val::Address(x), Val::Address(y)) => x == y,
            (Shape::Numeric(_), Val::Num(x), Val::Num(y)) => x == y,
            (Shape::Constant, Val::Constant(x), Val::Constant(y)) => x == y,
            (Shape::Names, Val::Names(x), Val::Names(y)) => x == y,
            (Shape::Steps, Val::Steps(x), Val::Steps(y)) => x == y,
            (Shape::FiniteSum { .. }, Val::Intervals(x), Val::Intervals(y)) => x == y,
            (Shape::FiniteSum { .. }, Val::Constants(x), Val::Constants(y)) => x == y,
            // An `int` payload (the commonest, `flat(int)`) is compared where it is.
            (Shape::Flat { .. }, Val::Enum(i, Payload::Int(x)), Val::Enum(j, Payload::Int(y))) => {
                i == j && x == y
            }
            (Shape::Flat { payload }, Val::Enum(i, x), Val::Enum(j, y)) => {
                i == j
                    && match (x.get(), y.get()) {
                        (Some(x), Some(y)) => self.eq(payload, &x, &y),
                        // `Bottom` or `Top`.
                        (None, None) => true,
                        _ => self.mismatch("==", t, &(a, b)),
                    }
            }
            (Shape::Finite { .. }, Val::Enum(i, _), Val::Enum(j, _)) => i == j,
            (Shape::Sum { summands }, Val::Enum(i, x), Val::Enum(j, y)) => {
                let (ab, bb) = (self.is_bottom(t, a), self.is_bottom(t, b));
                if ab || bb {
                    return ab == bb;
                }
                i == j
                    && match (x.get(), y.get(), summand(summands, *i)) {
                        (Some(x), Some(y), Some((_, Some(pt)))) => self.eq(pt, &x, &y),
                        // `Top`, or a summand without payload.
                        (None, None, _) => true,
                        _ => self.mismatch("==", t, &(a, b)),
                    }
            }
            (Shape::Struct { .. }, _, _) => {
                if self.pointwise(t).many_bottoms() {
                    let (ab, bb) = (self.is_bottom(t, a), self.is_bottom(t, b));
                    if ab || bb {
                        return ab == bb;
                    }
                }
                // With a normal form, the normal forms are compared, as the generated code does.
                match self.pointwise(t).normalize {
                    Some(_) => {
                        let (a, b) = self.normal_forms(t, a, b);
                        self.parts_eq(t, &a, &b)
                    }
                    None => self.parts_eq(t, a, b),
                }
            }
            (Shape::Product { .. } | Shape::Direct, _, _) => {
                if !self.single(t) {
                    let (ab, bb) = (self.is_bottom(t, a), self.is_bottom(t, b));
                    if ab || bb {
                        return ab == bb;
                    }
                }
                self.parts_eq(t, a, b)
            }
            _ => self.mismatch("==", t, &(a, b)),
        }
    }

    fn parts_eq(&self, t: &Ty, a: &Val, b: &Val) -> bool {
        self.part_types(t)
            .iter()
            .enumerate()
            .all(|(i, pt)| self.eq(pt, self.part_at(t, a, i), self.part_at(t, b, i)))
    }

    /// Whether `t` is a product of one component without reductions, whose operations need no
    /// guards for bottom (the generator leaves them out).
    pub fn single(&self, t: &Ty) -> bool {
        match t {
            Ty::Lat(id) => self.single_of[*id],
            _ => false,
        }
    }

    /// Whether a value of `t` is held as its one part rather than as a record of it: a product
    /// (or direct product) of one component and a struct lattice of one field that is a lattice
    /// are that part's value, so that making one allocates nothing (the generated code's one-field struct costs
    /// nothing either).
    pub(crate) fn unwrapped(&self, t: &Ty) -> bool {
        match t {
            Ty::Lat(id) => self.unwrapped_of[*id],
            _ => false,
        }
    }

    /// The fields or components of `v`, a value of the struct lattice or product `t`.
    pub(crate) fn parts_in<'v>(&self, t: &Ty, v: &'v Val) -> &'v [Val] {
        if self.unwrapped(t) {
            std::slice::from_ref(v)
        } else {
            v.parts()
        }
    }

    /// The field or component at `i` of `v`, a value of the struct lattice or product `t`.
    pub(crate) fn part_at<'v>(&self, t: &Ty, v: &'v Val, i: usize) -> &'v Val {
        &self.parts_in(t, v)[i]
    }

    /// The value of the struct lattice or product `t` whose fields or components `parts` gives,
    /// in order.
    pub(crate) fn assemble(&self, t: &Ty, parts: impl IntoIterator<Item = Val>) -> Val {
        if !self.unwrapped(t) {
            return Val::record_of(parts);
        }
        let mut parts = parts.into_iter();
        match (parts.next(), parts.next()) {
            (Some(only), None) => only,
            (first, second) => unreachable!(
                "`{}` has one component, but its value was made of {first:?}, {second:?}, …",
                self.type_name(t)
            ),
        }
    }

    /// [`Interp::unwrapped`] of every type, by id: made once, when the file is loaded, from
    /// `parts` and the shapes.
    pub(crate) fn unwrapped_by_type(&self) -> Vec<bool> {
        (0..self.program.types.len())
            .map(|id| {
                // A struct's one field only when it is a lattice: a plain `int` or `bool` held
                // as itself would be compared and matched as one, not as the struct.
                matches!(
                    (self.program.types.shape(id), self.parts[id].as_slice()),
                    (Shape::Product { .. } | Shape::Direct, [_])
                        | (Shape::Struct { .. }, [Ty::Lat(_)])
                )
            })
            .collect()
    }

    /// [`Interp::single`] of every type, by id: made once, when the file is loaded.
    pub(crate) fn singles_by_type(&self) -> Vec<bool> {
        (0..self.program.types.len())
            .map(|id| self.is_single(&Ty::Lat(id)))
            .collect()
    }

    fn is_single(&self, t: &Ty) -> bool {
        let p = self.direct_product(t);
        match self.product_index(&p) {
            Some(i) => {
                let decl = &self.program.products[i].0;
                decl.components.len() == 1 && decl.reductions.is_empty()
            }
            None => false,
        }
    }

    /// `Lattice::leq`.
    pub fn leq(&self, t: &Ty, a: &Val, b: &Val) -> bool {
        match (self.shape(t), a, b) {
            (Shape::Interval, Val::Interval(x), Val::Interval(y)) => x.leq(y),
            (Shape::Address, Val::Address(x), Val::Address(y)) => x.leq(y),
            (Shape::Numeric(_), Val::Num(x), Val::Num(y)) => match x.leq(y) {
                Some(leq) => leq,
                None => self.mismatch("leq", t, &(a, b)),
            },
            (Shape::Constant, Val::Constant(x), Val::Constant(y)) => x.leq(y),
            (Shape::Names, Val::Names(x), Val::Names(y)) => x.leq(y),
            (Shape::Steps, Val::Steps(x), Val::Steps(y)) => x.leq(y),
            (Shape::FiniteSum { inner, .. }, _, _) => {
                let ys = self.values_of(b);
                self.values_of(a)
                    .iter()
                    .all(|x| ys.iter().any(|y| self.leq(inner, x, y)))
            }
            (Shape::Flat { .. }, Val::Enum(i, _), Val::Enum(j, _)) => {
                *i == BOTTOM || *j == FLAT_TOP || self.eq(t, a, b)
            }
            (Shape::Finite { order, .. }, Val::Enum(i, _), Val::Enum(j, _)) => order.leq[*i][*j],
            (Shape::Sum { summands }, Val::Enum(i, x), Val::Enum(j, y)) => {
                if self.is_bottom(t, a) || *j == sum_top(summands) {
                    return true;
                }
                // Past bottom and top: the same summand, compared by payload.
                i == j
                    && match (x.get(), y.get(), summand(summands, *i)) {
                        (Some(x), Some(y), Some((_, Some(pt)))) => self.leq(pt, &x, &y),
                        (None, None, Some((_, None))) => true,
                        _ => self.mismatch("leq", t, &(a, b)),
                    }
            }
            (Shape::Struct { .. }, _, _) => {
                if self.pointwise(t).many_bottoms() {
                    if self.is_bottom(t, a) {
                        return true;
                    }
                    if self.is_bottom(t, b) {
                        return false;
                    }
                }
                match self.written(t, "leq") {
                    Some(f) => self.call(f, &[a.clone(), b.clone()]).bool(),
                    None => self
                        .part_types(t)
                        .iter()
                        .enumerate()
                        .filter(|(_, ft)| matches!(ft, Ty::Lat(_)))
                        .all(|(i, ft)| self.leq(ft, self.part_at(t, a, i), self.part_at(t, b, i))),
                }
            }
            (Shape::Product { .. } | Shape::Direct, _, _) => {
                if !self.single(t) {
                    if self.is_bottom(t, a) {
                        return true;
                    }
                    if self.is_bottom(t, b) {
                        return false;
                    }
                }
                self.part_types(t)
                    .iter()
                    .enumerate()
                    .all(|(i, pt)| self.leq(pt, self.part_at(t, a, i), self.part_at(t, b, i)))
            }
            _ => self.mismatch("leq", t, &(a, b)),
        }
    }

    /// `Lattice::join`.
    pub fn join(&self, t: &Ty, a: &Val, b: &Val) -> Val {
        match (self.shape(t), a, b) {
            (Shape::Interval, Val::Interval(x), Val::Interval(y)) => Val::Interval(x.join(y)),
            (Shape::Address, Val::Address(x), Val::Address(y)) => Val::Address(x.join(y)),
            (Shape::Numeric(_), Val::Num(x), Val::Num(y)) => match x.join(y) {
                Some(v) => Val::Num(v),
                None => self.mismatch("join", t, &(a, b)),
            },
            (Shape::Constant, Val::Constant(x), Val::Constant(y)) => Val::Constant(x.join(y)),
            (Shape::Names, Val::Names(x), Val::Names(y)) => Val::Names(Rc::new(x.join(y))),
            (Shape::Steps, Val::Steps(x), Val::Steps(y)) => Val::Steps(Rc::new(x.join(y))),
            (Shape::FiniteSum { inner, n }, _, _) => {
                let mut all = self.values_of(a);
                all.extend(self.values_of(b));
                self.canonical(inner, *n, all)
            }
            (Shape::Flat { .. }, Val::Enum(i, _), Val::Enum(j, _)) => {
                if *i == BOTTOM {
                    b.clone()
                } else if *j == BOTTOM || self.eq(t, a, b) {
                    a.clone()
                } else {
                    Val::Enum(FLAT_TOP, Payload::None)
                }
            }
            (Shape::Finite { order, .. }, Val::Enum(i, _), Val::Enum(j, _)) => {
                Val::Enum(order.join[*i][*j], Payload::None)
            }
            (Shape::Sum { .. }, _, _) => self.sum_binary(t, a, b, Binary::Join),
            (Shape::Struct { .. }, _, _) => {
                if let Some(settled) = self.settle(t, a, b) {
                    return settled;
                }
                match self.written(t, "join") {
                    Some(f) => self.call(f, &[a.clone(), b.clone()]),
                    None => self.fieldwise(t, a, b, Binary::Join),
                }
            }
            (Shape::Product { .. } | Shape::Direct, _, _) => {
                if let Some(settled) = self.product_guard(t, a, b) {
                    return settled;
                }
                self.fieldwise(t, a, b, Binary::Join)
            }
            _ => self.mismatch("join", t, &(a, b)),
        }
    }

    /// `Lattice::meet`.
    pub fn meet(&self, t: &Ty, a: &Val, b: &Val) -> Val {
        match (self.shape(t), a, b) {
            (Shape::Interval, Val::Interval(x), Val::Interval(y)) => Val::Interval(x.meet(y)),
            (Shape::Address, Val::Address(x), Val::Address(y)) => Val::Address(x.meet(y)),
            (Shape::Numeric(_), Val::Num(x), Val::Num(y)) => match x.meet(y) {
                Some(v) => Val::Num(v),
                None => self.mismatch("meet", t, &(a, b)),
            },
            (Shape::Constant, Val::Constant(x), Val::Constant(y)) => Val::Constant(x.meet(y)),
            (Shape::Names, Val::Names(x), Val::Names(y)) => Val::Names(Rc::new(x.meet(y))),
            (Shape::Steps, Val::Steps(x), Val::Steps(y)) => Val::Steps(Rc::new(x.meet(y))),
            (Shape::FiniteSum { inner, n }, _, _) => {
                let mut all = Vec::new();
                for x in self.values_of(a) {
                    for y in self.values_of(b) {
                        all.push(self.meet(inner, &x, &y));
                    }
                }
                self.canonical(inner, *n, all)
            }
            (Shape::Flat { .. }, Val::Enum(i, _), Val::Enum(j, _)) => {
                if *i == FLAT_TOP {
                    b.clone()
                } else if *j == FLAT_TOP || self.eq(t, a, b) {
                    a.clone()
                } else {
                    Val::Enum(BOTTOM, Payload::None)
                }
            }
            (Shape::Finite { order, .. }, Val::Enum(i, _), Val::Enum(j, _)) => {
                Val::Enum(order.meet[*i][*j], Payload::None)
            }
            (Shape::Sum { summands }, Val::Enum(i, x), Val::Enum(j, y)) => {
                if self.is_bottom(t, a) || self.is_bottom(t, b) {
                    return Val::Enum(BOTTOM, Payload::None);
                }
                let top = sum_top(summands);
                if *i == top {
                    return b.clone();
                }
                if *j == top {
                    return a.clone();
                }
                if i != j {
                    return Val::Enum(BOTTOM, Payload::None);
                }
                match (x.get(), y.get(), summand(summands, *i)) {
                    (Some(x), Some(y), Some((_, Some(pt)))) => {
                        let m = self.meet(pt, &x, &y);
                        if self.is_bottom(pt, &m) {
                            Val::Enum(BOTTOM, Payload::None)
                        } else {
                            Val::Enum(*i, Payload::of(m))
                        }
                    }
                    (None, None, Some((_, None))) => Val::Enum(*i, Payload::None),
                    _ => self.mismatch("meet", t, &(a, b)),
                }
            }
            (Shape::Struct { .. }, _, _) => {
                let result = match self.written(t, "meet") {
                    Some(f) => self.call(f, &[a.clone(), b.clone()]),
                    None => self.fieldwise(t, a, b, Binary::Meet),
                };
                self.canonical_bottom(t, result)
            }
            (Shape::Product { .. }, _, _) => {
                let met = self.fieldwise(t, a, b, Binary::Meet);
                let policy = self.policy(t);
                self.reduced(t, met, policy)
            }
            (Shape::Direct, _, _) => {
                let met = self.fieldwise(t, a, b, Binary::Meet);
                if self.is_bottom(t, &met) {
                    self.collapse(t)
                } else {
                    met
                }
            }
            _ => self.mismatch("meet", t, &(a, b)),
        }
    }

    /// `Lattice::widen` or `Lattice::widen_with_thresholds`.
    pub fn widen(&self, t: &Ty, a: &Val, b: &Val, w: Widen<'_>) -> Val {
        let inner = |x: &Interval, y: &Interval| match w {
            Widen::Plain => x.widen(y),
            Widen::With(th) => x.widen_with_thresholds(y, th),
        };
        match (self.shape(t), a, b) {
            (Shape::Interval, Val::Interval(x), Val::Interval(y)) => Val::Interval(inner(x, y)),
            (Shape::Address, Val::Address(x), Val::Address(y)) => Val::Address(match w {
                Widen::Plain => x.widen(y),
                Widen::With(th) => x.widen_with_thresholds(y, th),
            }),
            (Shape::Constant, Val::Constant(x), Val::Constant(y)) => Val::Constant(match w {
                Widen::Plain => x.widen(y),
                Widen::With(th) => x.widen_with_thresholds(y, th),
            }),
            (Shape::Numeric(_), Val::Num(x), Val::Num(y)) => {
                let thresholds = match w {
                    Widen::Plain => None,
                    Widen::With(th) => Some(th),
                };
                match x.widen(y, thresholds) {
                    Some(v) => Val::Num(v),
                    None => self.mismatch("widen", t, &(a, b)),
                }
            }
            (Shape::Names, Val::Names(x), Val::Names(y)) => Val::Names(Rc::new(match w {
                Widen::Plain => x.widen(y),
                Widen::With(th) => x.widen_with_thresholds(y, th),
            })),
            (Shape::Steps, Val::Steps(x), Val::Steps(y)) => Val::Steps(Rc::new(match w {
                Widen::Plain => x.widen(y),
                Widen::With(th) => x.widen_with_thresholds(y, th),
            })),
            (Shape::FiniteSum { n, .. }, Val::Intervals(x), Val::Intervals(y)) => Val::Intervals(
                widen_disjuncts::<Interval, DefaultCost>(x, y, *n as usize, inner).into(),
            ),
            (Shape::FiniteSum { n, .. }, Val::Constants(x), Val::Constants(y)) => {
                let flat = |p: &Flat<i64>, q: &Flat<i64>| match w {
                    Widen::Plain => p.widen(q),
                    Widen::With(th) => p.widen_with_thresholds(q, th),
                };
                Val::Constants(
                    widen_disjuncts::<Flat<i64>, DefaultCost>(x, y, *n as usize, flat).into(),
                )
            }
            // The trait's default: the join.
            (Shape::Flat { .. } | Shape::Finite { .. }, _, _) => self.join(t, a, b),
            (Shape::Sum { .. }, _, _) => self.sum_binary(t, a, b, Binary::Widen(w)),
            (Shape::Struct { .. }, _, _) => self.struct_widen(t, a, b, w),
            (Shape::Product { .. } | Shape::Direct, _, _) => {
                if let Some(settled) = self.product_guard(t, a, b) {
                    return settled;
                }
                self.fieldwise(t, a, b, Binary::Widen(w))
            }
            _ => self.mismatch("widen", t, &(a, b)),
        }
    }

    fn struct_widen(&self, t: &Ty, a: &Val, b: &Val, w: Widen<'_>) -> Val {
        if let Some(settled) = self.settle(t, a, b) {
            return settled;
        }
        let info = self.pointwise(t);
        let with_thresholds = self.written(t, "widen_with_thresholds");
        let plain = self.written(t, "widen");
        let call_with = |f: FnId, th: Thresholds| {
            self.call(f, &[a.clone(), b.clone(), Val::Thresholds(Rc::new(th))])
        };
        match (w, with_thresholds, plain) {
            (Widen::Plain, Some(f), _) => call_with(f, Thresholds::none()),
            (Widen::With(th), Some(f), _) => call_with(f, th.clone()),
            (_, None, Some(f)) => self.call(f, &[a.clone(), b.clone()]),
            (_, None, None) if info.values => self.join(t, a, b),
            (_, None, None) => self.fieldwise(t, a, b, Binary::Widen(w)),
        }
    }

    /// `Lattice::narrow`.
    pub fn narrow(&self, t: &Ty, a: &Val, b: &Val) -> Val {
        match (self.shape(t), a, b) {
            (Shape::Interval, Val::Interval(x), Val::Interval(y)) => Val::Interval(x.narrow(y)),
            (Shape::Address, Val::Address(x), Val::Address(y)) => Val::Address(x.narrow(y)),
            (Shape::Numeric(_), Val::Num(x), Val::Num(y)) => match x.narrow(y) {
                Some(v) => Val::Num(v),
                None => self.mismatch("narrow", t, &(a, b)),
            },
            (Shape::Constant, Val::Constant(x), Val::Constant(y)) => Val::Constant(x.narrow(y)),
            (Shape::Names, Val::Names(x), Val::Names(y)) => Val::Names(Rc::new(x.narrow(y))),
            (Shape::Steps, Val::Steps(x), Val::Steps(y)) => Val::Steps(Rc::new(x.narrow(y))),
            (Shape::Sum { summands }, Val::Enum(i, x), Val::Enum(j, y)) => {
                if self.is_bottom(t, b) {
                    return Val::Enum(BOTTOM, Payload::None);
                }
                if i != j || *i == BOTTOM || *i == sum_top(summands) {
                    return a.clone();
                }
                match (x.get(), y.get(), summand(summands, *i)) {
                    (Some(x), Some(y), Some((_, Some(pt)))) => {
                        Val::Enum(*i, Payload::of(self.narrow(pt, &x, &y)))
                    }
                    (None, None, Some((_, None))) => Val::Enum(*i, Payload::None),
                    _ => self.mismatch("narrow", t, &(a, b)),
                }
            }
            (Shape::Struct { .. }, _, _) => {
                let result = match self.written(t, "narrow") {
                    Some(f) => self.call(f, &[a.clone(), b.clone()]),
                    None if self.pointwise(t).values => self.meet(t, a, b),
                    None => self.fieldwise(t, a, b, Binary::Narrow),
                };
                self.canonical_bottom(t, result)
            }
            (Shape::Product { .. } | Shape::Direct, _, _) => {
                if self.is_bottom(t, a) || self.is_bottom(t, b) {
                    return self.bottom(t);
                }
                self.fieldwise(t, a, b, Binary::Narrow)
            }
            // The trait's default (`Lattice::narrow` keeps the older value), which the
            // generated flat and finite lattices and the runtime's `FiniteSum` keep.
            (Shape::Flat { .. } | Shape::Finite { .. } | Shape::FiniteSum { .. }, _, _) => {
                a.clone()
            }
            _ => self.mismatch("narrow", t, &(a, b)),
        }
    }

    /// A sum's join or widening: settled bottoms, the same summand combined, else top.
    fn sum_binary(&self, t: &Ty, a: &Val, b: &Val, op: Binary<'_>) -> Val {
        let Shape::Sum { summands } = self.shape(t) else {
            unreachable!(
                "`join` and `widen` of `{}` combine summands, but it is no sum",
                self.type_name(t)
            )
        };
        if self.is_bottom(t, a) {
            return b.clone();
        }
        if self.is_bottom(t, b) {
            return a.clone();
        }
        let (Val::Enum(i, x), Val::Enum(j, y)) = (a, b) else {
            self.mismatch("join", t, &(a, b))
        };
        if i != j {
            // Different summands, or either is top.
            return Val::Enum(sum_top(summands), Payload::None);
        }
        match (x.get(), y.get(), summand(summands, *i)) {
            (Some(x), Some(y), Some((_, Some(pt)))) => {
                Val::Enum(*i, Payload::of(self.binary(pt, &x, &y, op)))
            }
            (None, None, Some((_, None))) => Val::Enum(*i, Payload::None),
            // Both top (not bottom: settled above).
            (None, None, None) => Val::Enum(sum_top(summands), Payload::None),
            _ => self.mismatch("join", t, &(a, b)),
        }
    }

    /// A struct with several representations of bottom settles them before combining.
    fn settle(&self, t: &Ty, a: &Val, b: &Val) -> Option<Val> {
        if !self.pointwise(t).many_bottoms() {
            return None;
        }
        if self.is_bottom(t, a) {
            return Some(b.clone());
        }
        if self.is_bottom(t, b) {
            return Some(a.clone());
        }
        None
    }

    fn canonical_bottom(&self, t: &Ty, result: Val) -> Val {
        if self.pointwise(t).many_bottoms() && self.is_bottom(t, &result) {
            self.bottom(t)
        } else {
            result
        }
    }

    /// A product's join and widening start by settling bottoms (but for a single component).
    fn product_guard(&self, t: &Ty, a: &Val, b: &Val) -> Option<Val> {
        if self.single(t) {
            return None;
        }
        if self.is_bottom(t, a) {
            return Some(b.clone());
        }
        if self.is_bottom(t, b) {
            return Some(a.clone());
        }
        None
    }

    /// The disjuncts of a `FiniteSum` as values of its inner lattice.
    pub fn values_of(&self, v: &Val) -> Vec<Val> {
        match v {
            Val::Intervals(xs) => xs.iter().map(|x| Val::Interval(*x)).collect(),
            Val::Constants(xs) => xs.iter().map(|x| Val::Constant(x.clone())).collect(),
            other => unreachable!(
                "the checker gives a `FiniteSum`'s functions and operations `FiniteSum`s, found \
                 {other:?}"
            ),
        }
    }

    /// `FiniteSum::from_values` with the bound `n`.
    pub fn canonical(&self, inner: &Ty, n: u64, values: Vec<Val>) -> Val {
        let n = n as usize;
        match self.shape(inner) {
            Shape::Constant => {
                let xs: Vec<Flat<i64>> = values
                    .into_iter()
                    .map(|v| match v {
                        Val::Constant(x) => x,
                        other => self.mismatch("FiniteSum::from_values", inner, &other),
                    })
                    .collect();
                Val::Constants(canonical_disjuncts::<Flat<i64>, DefaultCost>(xs, n).into())
            }
            Shape::Interval => {
                let xs: Vec<Interval> = values
                    .into_iter()
                    .map(|v| match v {
                        Val::Interval(x) => x,
                        other => self.mismatch("FiniteSum::from_values", inner, &other),
                    })
                    .collect();
                Val::Intervals(canonical_disjuncts::<Interval, DefaultCost>(xs, n).into())
            }
            _ => unreachable!(
                "the checker gives a `FiniteSum` `Interval` or `Constant` disjuncts, not `{}`",
                self.type_name(inner)
            ),
        }
    }

    fn disjuncts(&self, inner: &Ty, values: Vec<Val>) -> Val {
        self.canonical(inner, 1, values)
    }
}
