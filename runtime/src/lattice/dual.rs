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
/// An ascending chain of the dual is a descending chain of `L`, which `L`'s widening knows
/// nothing about, and `L`'s narrowing is not a widening (it need not be an upper bound in the
/// dual). The dual therefore uses the default widening, the join, which terminates only when `L`
/// has no infinite descending chain. [`Lattice::FINITE_HEIGHT`] is that of `L` — sound for the
/// common case of finite lattices such as [`super::Flat`] or [`super::Sign`] (finite height in
/// both directions) — but a dual of a lattice with infinite descending chains (intervals, for
/// instance) has no terminating widening here and must not be iterated to a fixpoint without
/// one. The narrowing keeps `self`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Dual<L>(pub L);

impl<L: Top> Lattice for Dual<L> {
    const FINITE_HEIGHT: bool = L::FINITE_HEIGHT;
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
