//! Lifting: a fresh bottom added below an existing lattice.
//!
//! [`Lift`] separates "unreachable" from the base lattice's own least element, for example an
//! interval state that is `⊥` because no path reaches it versus one whose variables are all
//! empty, or a lattice whose natural order has no least element worth using as one.

use std::fmt::{self, Display};

use super::{Changed, Lattice, Thresholds, Top};

/// `Bottom`, below every lifted element of `L`.
///
/// # Laws
///
/// `Bottom ⊑ Lifted(x)`, and `Lifted(x) ⊑ Lifted(y)` iff `x ⊑ y`. Join, meet, widening and
/// narrowing act on the lifted values, so exactness, height and the widening laws are inherited
/// from `L` (one more step in every chain). The meet of two lifted values stays lifted even when
/// it is `L`'s bottom: the two bottoms are distinct elements.
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{Interval, Lattice, Lift, Top};
///
/// let a = Lift::Lifted(Interval::new(0, 1));
/// let b = Lift::Lifted(Interval::new(3, 4));
/// assert_eq!(a.join(&b), Lift::Lifted(Interval::new(0, 4)));
/// assert_eq!(a.join(&Lift::Bottom), a);
/// // The meet of disjoint intervals is the lifted empty interval, above the new bottom.
/// let empty = Lift::Lifted(Interval::empty());
/// assert_eq!(a.meet(&b), empty);
/// assert!(Lift::bottom().leq(&empty) && !empty.leq(&Lift::Bottom));
/// // Widening and narrowing are `L`'s.
/// assert_eq!(a.widen(&b), Lift::Lifted(Interval::new(0, i64::MAX)));
/// assert_eq!(Lift::<Interval>::top(), Lift::Lifted(Interval::top()));
/// assert_eq!(format!("{} {a}", Lift::<Interval>::Bottom), "⊥ [0, 1]");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Lift<L> {
    /// The new least element.
    Bottom,
    /// An element of the base lattice.
    Lifted(L),
}

impl<L> Lift<L> {
    /// The base value, unless this is the new bottom: `None` for [`Lift::Bottom`] only, so
    /// a lifted bottom of `L` gives `Some`.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Interval, Lift};
    ///
    /// assert_eq!(Lift::Lifted(Interval::constant(2)).lifted(), Some(&Interval::constant(2)));
    /// assert_eq!(Lift::Lifted(Interval::empty()).lifted(), Some(&Interval::empty()));
    /// assert_eq!(Lift::<Interval>::Bottom.lifted(), None);
    /// ```
    pub fn lifted(&self) -> Option<&L> {
        match self {
            Lift::Bottom => None,
            Lift::Lifted(x) => Some(x),
        }
    }
}

impl<L: Lattice> Lattice for Lift<L> {
    const FINITE_HEIGHT: bool = L::FINITE_HEIGHT;
    const EXACT: bool = L::EXACT;

    fn bottom() -> Self {
        Lift::Bottom
    }

    fn is_bottom(&self) -> bool {
        matches!(self, Lift::Bottom)
    }

    fn leq(&self, other: &Self) -> bool {
        match (self, other) {
            (Lift::Bottom, _) => true,
            (Lift::Lifted(_), Lift::Bottom) => false,
            (Lift::Lifted(a), Lift::Lifted(b)) => a.leq(b),
        }
    }

    fn join(&self, other: &Self) -> Self {
        match (self, other) {
            (Lift::Bottom, x) | (x, Lift::Bottom) => x.clone(),
            (Lift::Lifted(a), Lift::Lifted(b)) => Lift::Lifted(a.join(b)),
        }
    }

    fn meet(&self, other: &Self) -> Self {
        match (self, other) {
            (Lift::Lifted(a), Lift::Lifted(b)) => Lift::Lifted(a.meet(b)),
            _ => Lift::Bottom,
        }
    }

    fn join_with(&mut self, other: &Self) -> Changed {
        match (&mut *self, other) {
            (_, Lift::Bottom) => Changed::No,
            (Lift::Lifted(a), Lift::Lifted(b)) => a.join_with(b),
            (Lift::Bottom, x) => {
                *self = x.clone();
                Changed::Yes
            }
        }
    }

    fn widen(&self, newer: &Self) -> Self {
        match (self, newer) {
            (Lift::Bottom, x) | (x, Lift::Bottom) => x.clone(),
            (Lift::Lifted(a), Lift::Lifted(b)) => Lift::Lifted(a.widen(b)),
        }
    }

    fn widen_with_thresholds(&self, newer: &Self, thresholds: &Thresholds) -> Self {
        match (self, newer) {
            (Lift::Bottom, x) | (x, Lift::Bottom) => x.clone(),
            (Lift::Lifted(a), Lift::Lifted(b)) => {
                Lift::Lifted(a.widen_with_thresholds(b, thresholds))
            }
        }
    }

    fn narrow(&self, newer: &Self) -> Self {
        match (self, newer) {
            (Lift::Lifted(a), Lift::Lifted(b)) => Lift::Lifted(a.narrow(b)),
            // Narrowing towards the new bottom (`newer ⊑ self`) may keep `self`; that is sound.
            _ => self.clone(),
        }
    }
}

impl<L: Top> Top for Lift<L> {
    fn top() -> Self {
        Lift::Lifted(L::top())
    }

    fn is_top(&self) -> bool {
        matches!(self, Lift::Lifted(x) if x.is_top())
    }
}

impl<L: Display> Display for Lift<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Lift::Bottom => f.write_str("⊥"),
            Lift::Lifted(x) => Display::fmt(x, f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lattice::Interval;

    #[test]
    fn new_bottom_is_below_the_base_bottom() {
        let base_bottom = Lift::Lifted(Interval::empty());
        assert!(Lift::Bottom.leq(&base_bottom));
        assert!(!base_bottom.leq(&Lift::Bottom));
        let a = Lift::Lifted(Interval::new(0, 1));
        let b = Lift::Lifted(Interval::new(3, 4));
        assert_eq!(a.meet(&b), base_bottom);
        assert_eq!(a.join(&Lift::Bottom), a);
        assert_eq!(Lift::<Interval>::Bottom.to_string(), "⊥");
        assert_eq!(a.to_string(), "[0, 1]");
    }
}
