//! The dual of a bounded lattice: the same elements with the order turned upside down.
//!
//! [`Dual`] turns a may-analysis into a must-analysis: the join of the dual is the meet of the
//! base, and the dual's bottom is the base's top.

use std::fmt::{self, Display};

use super::{Lattice, Top};

/// `L` ordered by `⊒`.
///
/// # Laws
///
/// `Dual(a) ⊑ Dual(b)` iff `b ⊑ a`; bottom is `Dual(L::top())`, top is `Dual(L::bottom())`, join
/// is `L`'s meet and meet is `L`'s join.
///
/// # Widening
///
/// An ascending chain of the dual is a descending chain of `L`, about which `L`'s
/// [`Lattice::FINITE_HEIGHT`] says nothing, and `L`'s widening and narrowing do not help (the
/// narrowing of `L` need not be an upper bound in the dual). So [`Lattice::FINITE_HEIGHT`] is
/// `false` for every dual, and the widening is the default one, the join (`L`'s meet), which
/// terminates exactly when `L` has no infinite descending chain: true for lattices of finite
/// height such as [`super::Flat`], [`super::Sign`], [`super::Parity`] or [`super::Congruence`],
/// false for [`super::Interval`], whose dual has no terminating widening here. The narrowing
/// keeps `self`.
///
/// # Examples
///
/// A must-analysis over [`super::Sign`]: the facts that hold on every path are the meet of the
/// base, which is the join of the dual.
///
/// ```rust
/// use absinthe::lattice::{Dual, Lattice, Sign, Top};
///
/// let pos = Dual(Sign::Pos);
/// let non_neg = Dual(Sign::NonNeg);
/// assert_eq!(pos.join(&non_neg), pos);
/// assert_eq!(pos.meet(&non_neg), non_neg);
/// // The order is reversed: the larger set of signs is the smaller element.
/// assert!(non_neg.leq(&pos) && !pos.leq(&non_neg));
/// assert_eq!(Dual::<Sign>::bottom(), Dual(Sign::Top));
/// assert_eq!(Dual::<Sign>::top(), Dual(Sign::Bottom));
/// assert!(Dual(Sign::Top).is_bottom());
/// // The widening is the join, so it is `Sign`'s meet.
/// assert_eq!(pos.widen(&Dual(Sign::Neg)), Dual(Sign::Bottom));
/// assert_eq!(Dual(Sign::Top).to_string(), "⊥");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Dual<L>(pub L);

impl<L: Top> Lattice for Dual<L> {
    const FINITE_HEIGHT: bool = false;
    const EXACT: bool = L::EXACT;

    fn bottom() -> Self {
        Dual(L::top())
    }

    fn is_bottom(&self) -> bool {
        self.0.is_top()
    }

    fn leq(&self, other: &Self) -> bool {
        other.0.leq(&self.0)
    }

    fn join(&self, other: &Self) -> Self {
        Dual(self.0.meet(&other.0))
    }

    fn meet(&self, other: &Self) -> Self {
        Dual(self.0.join(&other.0))
    }
}

impl<L: Top> Top for Dual<L> {
    fn top() -> Self {
        Dual(L::bottom())
    }

    fn is_top(&self) -> bool {
        self.0.is_bottom()
    }
}

impl<L: Display + Top> Display for Dual<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_top() {
            f.write_str("⊥")
        } else if self.0.is_bottom() {
            f.write_str("⊤")
        } else {
            Display::fmt(&self.0, f)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lattice::Flat;

    #[test]
    fn order_is_reversed() {
        let one = Dual(Flat::Value(1));
        let two = Dual(Flat::Value(2));
        assert_eq!(one.join(&two), Dual(Flat::Bottom));
        assert!(Dual::<Flat<i64>>::bottom().leq(&one));
        assert!(one.leq(&Dual::top()));
        assert_eq!(Dual::<Flat<i64>>::bottom().to_string(), "⊥");
        assert_eq!(Dual::<Flat<i64>>::top().to_string(), "⊤");
    }
}
