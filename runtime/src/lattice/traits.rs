//! The lattice traits ([`Lattice`], [`Top`]), the [`Changed`] flag their in-place operations
//! return, and the [`Thresholds`] widenings may stop at.

use std::fmt::Debug;
use std::ops::{BitOr, BitOrAssign};

/// Whether an in-place lattice operation changed its receiver.
///
/// Flags compose with `|`, so a product can OR the flags of its parts:
/// `a.join_with(&x.a) | b.join_with(&x.b)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Changed {
    /// The receiver is exactly what it was.
    #[default]
    No,
    /// The receiver now holds a different value.
    Yes,
}

impl Changed {
    /// `Changed::Yes` when `b` holds.
    pub fn from_bool(b: bool) -> Changed {
        if b { Changed::Yes } else { Changed::No }
    }

    /// Whether this flag says something changed.
    pub fn changed(self) -> bool {
        self == Changed::Yes
    }
}

impl BitOr for Changed {
    type Output = Changed;
    fn bitor(self, rhs: Changed) -> Changed {
        Changed::from_bool(self.changed() || rhs.changed())
    }
}

impl BitOrAssign for Changed {
    fn bitor_assign(&mut self, rhs: Changed) {
        *self = *self | rhs;
    }
}

/// Constants harvested from the program (for example from loop guards) that a widening may stop
/// at before jumping to infinity.
///
/// Kept sorted and free of duplicates.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thresholds {
    values: Vec<i64>,
}

impl Thresholds {
    /// No thresholds: widening goes straight to infinity.
    pub fn none() -> Thresholds {
        Thresholds::default()
    }

    /// Thresholds from any collection of constants (sorted and deduplicated here).
    pub fn new(values: impl IntoIterator<Item = i64>) -> Thresholds {
        let mut values: Vec<i64> = values.into_iter().collect();
        values.sort_unstable();
        values.dedup();
        Thresholds { values }
    }

    /// The constants, sorted ascending.
    pub fn values(&self) -> &[i64] {
        &self.values
    }

    /// Whether there are no thresholds.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The smallest threshold `>= x`, if any.
    pub fn at_least(&self, x: i64) -> Option<i64> {
        let i = self.values.partition_point(|&t| t < x);
        self.values.get(i).copied()
    }

    /// The largest threshold `<= x`, if any.
    pub fn at_most(&self, x: i64) -> Option<i64> {
        let i = self.values.partition_point(|&t| t <= x);
        i.checked_sub(1).map(|i| self.values[i])
    }
}

/// A join-semilattice with a least element and a meet: the contract of every abstract domain.
///
/// # Laws
///
/// For all `a`, `b`, `c` (equality is `Eq`, which must coincide with `a.leq(b) && b.leq(a)`):
///
/// - **order**: `leq` is reflexive, antisymmetric and transitive.
/// - **bottom**: `bottom().leq(a)`; `a.is_bottom()` iff `a == bottom()`.
/// - **join**: `a.leq(a.join(b))`, `b.leq(a.join(b))`, and if `a.leq(c) && b.leq(c)` then
///   `a.join(b).leq(c)` (least upper bound). Hence idempotent, commutative, associative.
/// - **meet**: `a.meet(b).leq(a)`, `a.meet(b).leq(b)`, and if `c.leq(a) && c.leq(b)` then
///   `c.leq(a.meet(b))` (greatest lower bound).
/// - **absorption**: `a.join(a.meet(b)) == a` and `a.meet(a.join(b)) == a`.
/// - **in-place forms** agree with the pure ones and return [`Changed::Yes`] exactly when the
///   receiver changed.
/// - **widening**: `a.join(b).leq(a.widen(b))` (an upper bound), and for every increasing chain
///   `b0 ⊑ b1 ⊑ …` the sequence `w0 = b0`, `w(i+1) = wi.widen(b(i+1))` becomes stationary after
///   finitely many steps. The default widening is the join, which is correct only for lattices
///   of finite height ([`Lattice::FINITE_HEIGHT`]).
/// - **narrowing**: if `b.leq(a)` then `b.leq(a.narrow(b))` and `a.narrow(b).leq(a)`; every
///   decreasing sequence of narrowings is finite. The default keeps `a`, which is always sound.
///
/// Lattices whose join or meet must approximate (for example [`FiniteSum`](super::FiniteSum) when it runs out of
/// disjuncts) say so with [`Lattice::EXACT`] `= false`: their join is still an upper bound and
/// their meet still sound, but not least/greatest.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a lattice",
    label = "`{Self}` does not implement `absinthe::lattice::Lattice`",
    note = "the fields of a `#[lattice]` struct and the payloads of a `#[lattice(sum)]` enum must be lattices; mark a struct field `#[lattice(ignore)]` to keep it out of the order"
)]
pub trait Lattice: Clone + Eq + Debug {
    /// Whether every ascending chain is finite, so that join is a valid widening.
    const FINITE_HEIGHT: bool;

    /// Whether `join` and `meet` are the exact least upper and greatest lower bounds.
    const EXACT: bool = true;

    /// The least element: no information, or an unreachable program point.
    fn bottom() -> Self;

    /// Whether `self` is the least element.
    fn is_bottom(&self) -> bool;

    /// The partial order.
    fn leq(&self, other: &Self) -> bool;

    /// The least upper bound.
    fn join(&self, other: &Self) -> Self;

    /// The greatest lower bound.
    fn meet(&self, other: &Self) -> Self;

    /// `*self = self.join(other)`, reporting whether `self` changed.
    fn join_with(&mut self, other: &Self) -> Changed {
        let joined = self.join(other);
        replace_if_changed(self, joined)
    }

    /// `*self = self.meet(other)`, reporting whether `self` changed.
    fn meet_with(&mut self, other: &Self) -> Changed {
        let met = self.meet(other);
        replace_if_changed(self, met)
    }

    /// Widening of `self` (the previous iterate) by `newer`. Defaults to the join.
    fn widen(&self, newer: &Self) -> Self {
        self.join(newer)
    }

    /// Widening that may stop at one of `thresholds` before giving up a bound.
    /// Defaults to [`Lattice::widen`].
    fn widen_with_thresholds(&self, newer: &Self, thresholds: &Thresholds) -> Self {
        let _ = thresholds;
        self.widen(newer)
    }

    /// [`Lattice::FINITE_HEIGHT`], asked of the type at run time: the engines decide with it
    /// whether to widen at all. A lattice whose shape is known only when a program runs (the
    /// values of an interpreted `.dom` file) answers for the shape loaded.
    fn has_finite_height() -> bool {
        Self::FINITE_HEIGHT
    }

    /// Narrowing of `self` (a post-fixpoint) by `newer` (one more iterate). Defaults to `self`.
    fn narrow(&self, newer: &Self) -> Self {
        let _ = newer;
        self.clone()
    }
}

/// A lattice with a greatest element.
///
/// # Laws
///
/// `a.leq(&top())` for all `a`; `a.is_top()` iff `a == top()`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no top element",
    note = "a `#[lattice]` type has a top only when every part of it has one; add `#[lattice(no_top)]` to declare it without"
)]
pub trait Top: Lattice {
    /// The greatest element: nothing is known.
    fn top() -> Self;

    /// Whether `self` is the greatest element.
    fn is_top(&self) -> bool;
}

/// Replaces `*slot` with `new` and reports whether the value differed.
pub fn replace_if_changed<T: PartialEq>(slot: &mut T, new: T) -> Changed {
    if *slot == new {
        Changed::No
    } else {
        *slot = new;
        Changed::Yes
    }
}
