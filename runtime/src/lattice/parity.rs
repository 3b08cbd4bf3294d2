//! The parity lattice: whether a value is even, odd, either or impossible.
//!
//! [`Parity`] is the smallest non-trivial congruence domain (modulo 2); use
//! [`super::Congruence`] when other moduli matter.

use std::fmt;

use super::{Lattice, Top};

/// `⊥`, `even`, `odd` or `⊤`.
///
/// # Laws
///
/// `Bottom ⊑ Even, Odd ⊑ Top` with `Even` and `Odd` incomparable; join and meet are exact and the
/// height is three ([`Lattice::FINITE_HEIGHT`] is `true`). `Ord` (declaration order) is only for
/// sorting, not the lattice order.
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{Lattice, Parity, Top};
///
/// assert_eq!(Parity::Even.join(&Parity::Odd), Parity::top());
/// assert_eq!(Parity::Even.meet(&Parity::Odd), Parity::bottom());
/// assert_eq!(Parity::Odd.meet(&Parity::Top), Parity::Odd);
/// assert!(Parity::Even.leq(&Parity::Top) && !Parity::Even.leq(&Parity::Odd));
/// // The height is finite, so the widening is the join.
/// assert_eq!(Parity::Odd.widen(&Parity::Odd), Parity::Odd);
/// assert_eq!(Parity::Odd.widen(&Parity::Even), Parity::Top);
/// assert_eq!(Parity::Even.to_string(), "even");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Parity {
    /// No value.
    Bottom,
    /// Divisible by two.
    Even,
    /// Not divisible by two.
    Odd,
    /// Either parity.
    Top,
}

impl Parity {
    /// The parity of `v`: [`Parity::Even`] or [`Parity::Odd`] (negative numbers included).
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Parity;
    ///
    /// assert_eq!(Parity::of(4), Parity::Even);
    /// assert_eq!(Parity::of(-3), Parity::Odd);
    /// assert_eq!(Parity::of(0), Parity::Even);
    /// assert_eq!(Parity::of(i64::MIN), Parity::Even);
    /// ```
    pub fn of(v: i64) -> Parity {
        if v % 2 == 0 {
            Parity::Even
        } else {
            Parity::Odd
        }
    }

    /// Whether `v` has a parity in `self`; always `false` for [`Parity::Bottom`] and always
    /// `true` for [`Parity::Top`].
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Parity;
    ///
    /// assert!(Parity::Odd.contains(-5) && !Parity::Odd.contains(6));
    /// assert!(Parity::Top.contains(6));
    /// assert!(!Parity::Bottom.contains(6));
    /// ```
    pub fn contains(&self, v: i64) -> bool {
        Parity::of(v).leq(self)
    }
}

impl Lattice for Parity {
    const FINITE_HEIGHT: bool = true;

    fn bottom() -> Self {
        Parity::Bottom
    }

    fn is_bottom(&self) -> bool {
        *self == Parity::Bottom
    }

    fn leq(&self, other: &Self) -> bool {
        self == other || *self == Parity::Bottom || *other == Parity::Top
    }

    fn join(&self, other: &Self) -> Self {
        match (self, other) {
            (Parity::Bottom, x) | (x, Parity::Bottom) => *x,
            (a, b) if a == b => *a,
            _ => Parity::Top,
        }
    }

    fn meet(&self, other: &Self) -> Self {
        match (self, other) {
            (Parity::Top, x) | (x, Parity::Top) => *x,
            (a, b) if a == b => *a,
            _ => Parity::Bottom,
        }
    }
}

impl Top for Parity {
    fn top() -> Self {
        Parity::Top
    }

    fn is_top(&self) -> bool {
        *self == Parity::Top
    }
}

impl fmt::Display for Parity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Parity::Bottom => "⊥",
            Parity::Even => "even",
            Parity::Odd => "odd",
            Parity::Top => "⊤",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parity_of_extremes() {
        assert_eq!(Parity::of(i64::MIN), Parity::Even);
        assert_eq!(Parity::of(i64::MAX), Parity::Odd);
        assert_eq!(Parity::of(-3), Parity::Odd);
        assert!(Parity::Top.contains(5) && !Parity::Even.contains(5));
        assert_eq!(Parity::Even.join(&Parity::Odd), Parity::Top);
        assert_eq!(Parity::Even.meet(&Parity::Odd), Parity::Bottom);
    }
}
