//! The lattice traits ([`Lattice`], [`Top`]), the [`Changed`] flag their in-place operations
//! return, and the [`Thresholds`] widenings may stop at.

use std::fmt::Debug;
use std::ops::{BitOr, BitOrAssign};

/// Whether an in-place lattice operation changed its receiver.
///
/// Flags compose with `|`, so a product can OR the flags of its parts:
/// `a.join_with(&x.a) | b.join_with(&x.b)`.
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{Changed, Interval, Lattice, Sign};
///
/// let (mut i, mut s) = (Interval::constant(0), Sign::Zero);
/// let changed = i.join_with(&Interval::constant(0)) | s.join_with(&Sign::Pos);
/// assert_eq!(changed, Changed::Yes);
/// assert_eq!(s, Sign::NonNeg);
/// let mut again = i.join_with(&Interval::constant(0));
/// again |= s.join_with(&Sign::Pos);
/// assert_eq!(again, Changed::No);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Changed {
    /// The receiver is exactly what it was.
    #[default]
    No,
    /// The receiver now holds a different value.
    Yes,
}

impl Changed {
    /// `Changed::Yes` when `b` holds, `Changed::No` otherwise.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Changed;
    ///
    /// assert_eq!(Changed::from_bool(true), Changed::Yes);
    /// assert_eq!(Changed::from_bool(false), Changed::No);
    /// ```
    pub fn from_bool(b: bool) -> Changed {
        if b { Changed::Yes } else { Changed::No }
    }

    /// Whether this flag says something changed: `true` for `Changed::Yes` only.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Changed;
    ///
    /// assert!(Changed::Yes.changed());
    /// assert!(!Changed::No.changed());
    /// assert!(!Changed::default().changed());
    /// ```
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
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{Interval, Lattice, Thresholds};
///
/// let t = Thresholds::new([100, 0, 10, 10]);
/// assert_eq!(t.values(), [0, 10, 100]);
/// let grown = Interval::new(0, 1).widen_with_thresholds(&Interval::new(0, 2), &t);
/// assert_eq!(grown, Interval::new(0, 10));
/// let past = Interval::new(0, 100).widen_with_thresholds(&Interval::new(0, 101), &t);
/// assert_eq!(past, Interval::new(0, i64::MAX));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thresholds {
    values: Vec<i64>,
}

impl Thresholds {
    /// No thresholds: widening goes straight to infinity. The same as `Thresholds::default()`.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Interval, Lattice, Thresholds};
    ///
    /// let none = Thresholds::none();
    /// assert!(none.is_empty());
    /// let w = Interval::new(0, 1).widen_with_thresholds(&Interval::new(0, 2), &none);
    /// assert_eq!(w, Interval::new(0, i64::MAX));
    /// ```
    pub fn none() -> Thresholds {
        Thresholds::default()
    }

    /// Thresholds from any collection of constants (sorted and deduplicated here).
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Thresholds;
    ///
    /// assert_eq!(Thresholds::new(vec![3, -1, 3]).values(), [-1, 3]);
    /// assert_eq!(Thresholds::new([]), Thresholds::none());
    /// ```
    pub fn new(values: impl IntoIterator<Item = i64>) -> Thresholds {
        let mut values: Vec<i64> = values.into_iter().collect();
        values.sort_unstable();
        values.dedup();
        Thresholds { values }
    }

    /// The constants, sorted ascending, each once.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Thresholds;
    ///
    /// assert_eq!(Thresholds::new([5, 1, 5, 3]).values(), [1, 3, 5]);
    /// ```
    pub fn values(&self) -> &[i64] {
        &self.values
    }

    /// Whether there are no thresholds.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Thresholds;
    ///
    /// assert!(Thresholds::none().is_empty());
    /// assert!(!Thresholds::new([0]).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The smallest threshold `>= x`, if any (`x` itself when it is a threshold).
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Thresholds;
    ///
    /// let t = Thresholds::new([-10, 0, 10]);
    /// assert_eq!(t.at_least(1), Some(10));
    /// assert_eq!(t.at_least(0), Some(0));
    /// assert_eq!(t.at_least(11), None);
    /// ```
    pub fn at_least(&self, x: i64) -> Option<i64> {
        let i = self.values.partition_point(|&t| t < x);
        self.values.get(i).copied()
    }

    /// The largest threshold `<= x`, if any (`x` itself when it is a threshold).
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Thresholds;
    ///
    /// let t = Thresholds::new([-10, 0, 10]);
    /// assert_eq!(t.at_most(-1), Some(-10));
    /// assert_eq!(t.at_most(10), Some(10));
    /// assert_eq!(t.at_most(-11), None);
    /// ```
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
///
/// # Examples
///
/// A two-point lattice, whether a program point may be reached, written by hand. Only the five
/// required items are given; the in-place forms, the widening (the join, valid here because the
/// height is finite) and the narrowing (keep `self`) are the defaults.
///
/// ```rust
/// use absinthe::lattice::{Changed, Lattice, Top};
///
/// #[derive(Clone, Copy, PartialEq, Eq, Debug)]
/// struct Reach(bool);
///
/// impl Lattice for Reach {
///     const FINITE_HEIGHT: bool = true;
///     fn bottom() -> Self {
///         Reach(false)
///     }
///     fn is_bottom(&self) -> bool {
///         !self.0
///     }
///     fn leq(&self, other: &Self) -> bool {
///         !self.0 || other.0
///     }
///     fn join(&self, other: &Self) -> Self {
///         Reach(self.0 || other.0)
///     }
///     fn meet(&self, other: &Self) -> Self {
///         Reach(self.0 && other.0)
///     }
/// }
///
/// impl Top for Reach {
///     fn top() -> Self {
///         Reach(true)
///     }
///     fn is_top(&self) -> bool {
///         self.0
///     }
/// }
///
/// let mut r = Reach::bottom();
/// assert_eq!(r.join_with(&Reach(true)), Changed::Yes);
/// assert_eq!(r.join_with(&Reach(true)), Changed::No);
/// assert!(r.is_top());
/// assert_eq!(r.meet_with(&Reach(false)), Changed::Yes);
/// assert!(r.is_bottom());
/// assert_eq!(Reach(false).widen(&Reach(true)), Reach(true));
/// assert_eq!(Reach(true).narrow(&Reach(false)), Reach(true));
/// assert!(Reach::has_finite_height());
/// ```
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
///
/// # Examples
///
/// Code generic over lattices with a top can start from "nothing known":
///
/// ```rust
/// use absinthe::lattice::{Flat, Interval, Lattice, Sign, Top};
///
/// fn unknown<L: Top>() -> L {
///     L::top()
/// }
///
/// assert!(unknown::<Interval>().contains(i64::MIN));
/// assert_eq!(unknown::<Sign>(), Sign::Top);
/// assert!(unknown::<Flat<String>>().is_top());
/// assert!(Sign::Pos.join(&Sign::Neg).leq(&Sign::top()));
/// ```
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

/// Replaces `*slot` with `new` and reports whether the value differed. When they are equal,
/// `*slot` is left untouched (and `new` dropped).
///
/// This is how the default [`Lattice::join_with`] and [`Lattice::meet_with`] report changes.
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{Changed, Sign, replace_if_changed};
///
/// let mut s = Sign::Pos;
/// assert_eq!(replace_if_changed(&mut s, Sign::Pos), Changed::No);
/// assert_eq!(replace_if_changed(&mut s, Sign::NonNeg), Changed::Yes);
/// assert_eq!(s, Sign::NonNeg);
/// ```
pub fn replace_if_changed<T: PartialEq>(slot: &mut T, new: T) -> Changed {
    if *slot == new {
        Changed::No
    } else {
        *slot = new;
        Changed::Yes
    }
}
