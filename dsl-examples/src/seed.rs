//! The Green Fairy's own examples, declared with absinthe's attributes: the `Interval` domain
//! over bounds with a custom bottom, the `Const` flat lattice, the reduction of an interval by a
//! constant (`meet_ext`), the `+` transfer that reads its arguments through the whole product,
//! and a finite disjunction (`FiniteSum`) of intervals.

use absinthe::lattice;
use absinthe::lattice::{Changed, Lattice, Thresholds, Top, replace_if_changed};
use absinthe::value::Concrete;
use std::cmp::Ordering;
use std::fmt;

/// A bound of an interval: `-∞`, an integer, or `+∞`. `UPPER` says which way it is ordered: an
/// upper bound grows towards `+∞`, a lower bound towards `-∞`; each is a chain whose widening
/// jumps straight to its infinity.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound<const UPPER: bool> {
    /// `-∞`.
    NegInf,
    /// An integer.
    Finite(i64),
    /// `+∞`.
    PosInf,
}

impl<const UPPER: bool> Bound<UPPER> {
    fn rank(self) -> (i8, i64) {
        match self {
            Bound::NegInf => (0, 0),
            Bound::Finite(v) => (1, v),
            Bound::PosInf => (2, 0),
        }
    }

    /// The numeric order of bounds (`-∞ < n < +∞`), whatever the direction.
    pub fn numeric_cmp(self, other: Self) -> Ordering {
        self.rank().cmp(&other.rank())
    }

    /// The bound as an `i128`, with the infinities just outside the `i64` range.
    pub fn widened(self) -> i128 {
        match self {
            Bound::NegInf => i128::from(i64::MIN) - 1,
            Bound::Finite(v) => i128::from(v),
            Bound::PosInf => i128::from(i64::MAX) + 1,
        }
    }

    /// `v` as a bound: an infinity when it leaves the `i64` range.
    pub fn from_i128(v: i128) -> Self {
        match i64::try_from(v) {
            Ok(v) => Bound::Finite(v),
            Err(_) if v < 0 => Bound::NegInf,
            Err(_) => Bound::PosInf,
        }
    }

    fn up(self, other: Self) -> bool {
        // Whether `other` is at or above `self` in this bound's order.
        let ord = self.numeric_cmp(other);
        if UPPER {
            ord != Ordering::Greater
        } else {
            ord != Ordering::Less
        }
    }
}

impl<const UPPER: bool> Lattice for Bound<UPPER> {
    const FINITE_HEIGHT: bool = false;

    fn bottom() -> Self {
        if UPPER { Bound::NegInf } else { Bound::PosInf }
    }

    fn is_bottom(&self) -> bool {
        *self == Self::bottom()
    }

    fn leq(&self, other: &Self) -> bool {
        self.up(*other)
    }

    fn join(&self, other: &Self) -> Self {
        if self.up(*other) { *other } else { *self }
    }

    fn meet(&self, other: &Self) -> Self {
        if self.up(*other) { *self } else { *other }
    }

    fn widen(&self, newer: &Self) -> Self {
        if newer.leq(self) { *self } else { Self::top() }
    }

    fn widen_with_thresholds(&self, newer: &Self, thresholds: &Thresholds) -> Self {
        if newer.leq(self) {
            return *self;
        }
        let Bound::Finite(v) = newer else {
            return Self::top();
        };
        let stop = if UPPER {
            thresholds.at_least(*v)
        } else {
            thresholds.at_most(*v)
        };
        stop.map_or_else(Self::top, Bound::Finite)
    }

    fn narrow(&self, newer: &Self) -> Self {
        // Only an infinite bound is refined, so decreasing sequences are short.
        if self.is_top() { *newer } else { *self }
    }

    fn join_with(&mut self, other: &Self) -> Changed {
        let joined = self.join(other);
        replace_if_changed(self, joined)
    }
}

impl<const UPPER: bool> Top for Bound<UPPER> {
    fn top() -> Self {
        if UPPER { Bound::PosInf } else { Bound::NegInf }
    }

    fn is_top(&self) -> bool {
        *self == Self::top()
    }
}

impl<const UPPER: bool> fmt::Display for Bound<UPPER> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bound::NegInf => f.write_str("-∞"),
            Bound::Finite(v) => write!(f, "{v}"),
            Bound::PosInf => f.write_str("+∞"),
        }
    }
}

absinthe::if_laws! {
    impl<const UPPER: bool> absinthe::laws::Arbitrary for Bound<UPPER> {
        fn strategy() -> absinthe::laws::proptest::strategy::BoxedStrategy<Self> {
            use absinthe::laws::proptest::prelude::{Just, Strategy, prop_oneof};
            prop_oneof![
                1 => Just(Bound::NegInf),
                1 => Just(Bound::PosInf),
                6 => absinthe::laws::strategies::int().prop_map(Bound::Finite),
            ]
            .boxed()
        }
    }
}

// ANCHOR: interval
/// The seed's interval `[lo, hi]`: the pointwise product of a lower and an upper bound, where
/// every interval with `lo > hi` stands for bottom.
#[lattice(empty_if = Interval::is_empty, no_display)]
#[derive(Clone, Copy)]
pub struct Interval {
    /// The lower bound.
    pub lo: Bound<false>,
    /// The upper bound.
    pub hi: Bound<true>,
}
// ANCHOR_END: interval

impl Interval {
    /// `[lo, hi]`.
    pub fn new(lo: i64, hi: i64) -> Interval {
        Interval {
            lo: Bound::Finite(lo),
            hi: Bound::Finite(hi),
        }
    }

    /// `[c, c]`.
    pub fn constant(c: i64) -> Interval {
        Interval::new(c, c)
    }

    /// Whether no integer lies between the bounds (the seed's `isbot`).
    pub fn is_empty(&self) -> bool {
        self.lo.numeric_cmp_upper(self.hi) == Ordering::Greater
    }

    /// The single value, if the interval holds exactly one.
    pub fn as_constant(&self) -> Option<i64> {
        match (self.lo, self.hi) {
            (Bound::Finite(a), Bound::Finite(b)) if a == b => Some(a),
            _ => None,
        }
    }
}

impl Bound<false> {
    /// Compares a lower bound with an upper bound numerically.
    pub fn numeric_cmp_upper(self, hi: Bound<true>) -> Ordering {
        self.widened().cmp(&hi.widened())
    }
}

impl Concrete for Interval {
    fn contains(&self, v: i64) -> bool {
        let v = i128::from(v);
        !self.is_empty() && self.lo.widened() <= v && v <= self.hi.widened()
    }

    fn as_constant(&self) -> Option<i64> {
        Interval::as_constant(self)
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_bottom() {
            return f.write_str("⊥");
        }
        write!(f, "[{}, {}]", self.lo, self.hi)
    }
}

// ANCHOR: const
/// The seed's constant lattice: no information, one integer, or any integer.
#[lattice]
#[derive(Clone, Copy)]
pub enum Const {
    /// No value yet.
    Bottom,
    /// Exactly this integer.
    Value(i64),
    /// Any integer.
    Top,
}
// ANCHOR_END: const

// ANCHOR: concrete
impl Concrete for Const {
    fn contains(&self, v: i64) -> bool {
        match self {
            Const::Bottom => false,
            Const::Value(c) => *c == v,
            Const::Top => true,
        }
    }

    fn as_constant(&self) -> Option<i64> {
        match self {
            Const::Value(c) => Some(*c),
            Const::Bottom | Const::Top => None,
        }
    }
}
// ANCHOR_END: concrete

/// The seed's product of `Const` and `Interval`, with reductions both ways and transfer rules
/// for literals, every operation on constants, `+` on intervals (the seed's `eval_call`) and
/// branch refinement on intervals.
// ANCHOR: product
#[absinthe::domain]
pub mod value {
    use super::{Bound, Const, Interval};
    use absinthe::program::Op;

    /// A constant and an interval, each refined by the other.
    #[lattice(product, reduce = "fixpoint(4)")]
    #[derive(Clone, Copy)]
    pub struct SeedValue {
        /// Constant propagation's view.
        pub constant: Const,
        /// Interval analysis's view.
        pub interval: Interval,
    }

    /// The seed's `meet_ext(x::Interval, c::Const)`: a constant shrinks an interval to one point,
    /// or to bottom when it lies outside.
    #[meet_ext]
    pub fn interval_from_const(x: &Interval, c: &Const) -> Interval {
        match c {
            Const::Value(v) if x.contains_value(*v) => Interval::constant(*v),
            Const::Value(_) => Interval::empty(),
            Const::Bottom | Const::Top => *x,
        }
    }

    /// An interval of one point is a constant.
    #[meet_ext]
    pub fn const_from_interval(c: &Const, x: &Interval) -> Const {
        match x.as_constant() {
            Some(v) => Const::Value(v),
            None => *c,
        }
    }

    /// A literal is that constant.
    #[transfer(literal)]
    pub fn const_literal(c: i64) -> Const {
        Const::Value(c)
    }

    /// A literal is a one-point interval.
    #[transfer(literal)]
    pub fn interval_literal(c: i64) -> Interval {
        Interval::constant(c)
    }

    /// Constants fold through every operation; a trapping one gives bottom.
    #[transfer(binary)]
    pub fn const_fold(op: Op, a: &SeedValue, b: &SeedValue) -> Const {
        match (a.constant, b.constant) {
            (Const::Value(x), Const::Value(y)) => op.eval(x, y).map_or(Const::Bottom, Const::Value),
            _ => Const::Top,
        }
    }

    /// The seed's `eval_call` for `+`: the sum of the lower bounds and of the upper bounds, read
    /// through the whole product; a sum that may overflow (and so wrap) is any integer.
    #[transfer(op = "+")]
    pub fn interval_add(a: &SeedValue, b: &SeedValue) -> Interval {
        let (x, y) = (a.interval, b.interval);
        let lo = x.lo.widened() + y.lo.widened();
        let hi = x.hi.widened() + y.hi.widened();
        let fits = |v: i128| i64::try_from(v).is_ok();
        if fits(lo) && fits(hi) {
            Interval {
                lo: Bound::from_i128(lo),
                hi: Bound::from_i128(hi),
            }
        } else {
            Interval::full()
        }
    }

    /// Comparisons give 0 or 1.
    #[transfer(binary)]
    pub fn interval_other(op: Op, a: &SeedValue, b: &SeedValue) -> Interval {
        let _ = (a, b);
        if op.is_comparison() {
            Interval::new(0, 1)
        } else {
            Interval::full()
        }
    }

    /// Refines both operands of a comparison that holds.
    #[transfer(assume)]
    pub fn interval_assume(op: Op, a: &SeedValue, b: &SeedValue) -> (Interval, Interval) {
        super::refine(op, a.interval, b.interval)
    }
}
// ANCHOR_END: product

impl Interval {
    /// No integer.
    pub fn empty() -> Interval {
        <Interval as Lattice>::bottom()
    }

    /// Every integer.
    pub fn full() -> Interval {
        <Interval as Top>::top()
    }

    /// Whether `v` lies in the interval.
    pub fn contains_value(&self, v: i64) -> bool {
        Concrete::contains(self, v)
    }
}

/// `(a', b')`: `a` and `b` refined knowing that `a op b` holds.
fn refine(op: absinthe::program::Op, a: Interval, b: Interval) -> (Interval, Interval) {
    use absinthe::program::Op;
    let (alo, ahi, blo, bhi) = (
        a.lo.widened(),
        a.hi.widened(),
        b.lo.widened(),
        b.hi.widened(),
    );
    let clamp = |lo: i128, hi: i128| Interval {
        lo: Bound::from_i128(lo),
        hi: Bound::from_i128(hi),
    };
    let (na, nb) = match op {
        Op::Lt => (clamp(alo, ahi.min(bhi - 1)), clamp(blo.max(alo + 1), bhi)),
        Op::Le => (clamp(alo, ahi.min(bhi)), clamp(blo.max(alo), bhi)),
        Op::Gt => (clamp(alo.max(blo + 1), ahi), clamp(blo, bhi.min(ahi - 1))),
        Op::Ge => (clamp(alo.max(blo), ahi), clamp(blo, bhi.min(ahi))),
        Op::Eq => {
            let both = a.meet(&b);
            (both, both)
        }
        _ => (a, b),
    };
    (a.meet(&na), b.meet(&nb))
}
