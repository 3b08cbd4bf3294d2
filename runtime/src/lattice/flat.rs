//! The flat lattice: one unknown-or-impossible level around a set of incomparable values.
//!
//! [`Flat`] is the domain of constant propagation: a variable is unreachable (`⊥`), holds one
//! known value, or may hold several (`⊤`). Every ascending chain has at most three elements.

use std::fmt::{self, Debug, Display};

use super::{Lattice, Top};

/// `⊥`, one known value, or `⊤`; two distinct values are incomparable and join to `⊤`.
///
/// # Laws
///
/// `Bottom ⊑ Value(x) ⊑ Top` for every `x`, and `Value(x) ⊑ Value(y)` iff `x == y`. The height
/// is three, so the default join-widening terminates ([`Lattice::FINITE_HEIGHT`] is `true`).
/// `Ord` (declaration order, then `T`'s order) is only for sorting, not the lattice order.
///
/// # Examples
///
/// Any `T: Clone + Eq + Debug` can be flattened; the operations come from [`Lattice`] and
/// [`Top`]:
///
/// ```rust
/// use absinthe::lattice::{Flat, Lattice, Top};
///
/// let one = Flat::Value(1);
/// let two = Flat::from(2);
/// assert_eq!(one.join(&one), one);
/// assert_eq!(one.join(&two), Flat::Top);
/// assert_eq!(one.meet(&two), Flat::Bottom);
/// assert_eq!(one.meet(&Flat::top()), one);
/// assert!(Flat::bottom().leq(&one) && one.leq(&Flat::Top) && !one.leq(&two));
/// // The height is finite, so the widening is the join.
/// assert!(<Flat<i64> as Lattice>::FINITE_HEIGHT);
/// assert_eq!(one.widen(&two), Flat::Top);
/// assert_eq!(format!("{one} {}", Flat::<i64>::Top), "1 ⊤");
/// ```
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Flat<T> {
    /// No value: the program point is unreachable.
    Bottom,
    /// Exactly this value.
    Value(T),
    /// Any value.
    Top,
}

impl<T> Flat<T> {
    /// The known value, when there is exactly one: `Some` for [`Flat::Value`], `None` for
    /// [`Flat::Bottom`] and [`Flat::Top`].
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Flat;
    ///
    /// assert_eq!(Flat::Value("x").constant(), Some(&"x"));
    /// assert_eq!(Flat::<&str>::Top.constant(), None);
    /// assert_eq!(Flat::<&str>::Bottom.constant(), None);
    /// ```
    pub fn constant(&self) -> Option<&T> {
        match self {
            Flat::Value(v) => Some(v),
            Flat::Bottom | Flat::Top => None,
        }
    }
}

impl<T> From<T> for Flat<T> {
    fn from(value: T) -> Flat<T> {
        Flat::Value(value)
    }
}

impl<T: Clone + Eq + Debug> Lattice for Flat<T> {
    const FINITE_HEIGHT: bool = true;

    fn bottom() -> Self {
        Flat::Bottom
    }

    fn is_bottom(&self) -> bool {
        matches!(self, Flat::Bottom)
    }

    fn leq(&self, other: &Self) -> bool {
        match (self, other) {
            (Flat::Bottom, _) | (_, Flat::Top) => true,
            (Flat::Value(a), Flat::Value(b)) => a == b,
            _ => false,
        }
    }

    fn join(&self, other: &Self) -> Self {
        match (self, other) {
            (Flat::Bottom, x) | (x, Flat::Bottom) => x.clone(),
            (Flat::Value(a), Flat::Value(b)) if a == b => self.clone(),
            _ => Flat::Top,
        }
    }

    fn meet(&self, other: &Self) -> Self {
        match (self, other) {
            (Flat::Top, x) | (x, Flat::Top) => x.clone(),
            (Flat::Value(a), Flat::Value(b)) if a == b => self.clone(),
            _ => Flat::Bottom,
        }
    }
}

impl<T: Clone + Eq + Debug> Top for Flat<T> {
    fn top() -> Self {
        Flat::Top
    }

    fn is_top(&self) -> bool {
        matches!(self, Flat::Top)
    }
}

impl<T: Display> Display for Flat<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Flat::Bottom => f.write_str("⊥"),
            Flat::Value(v) => Display::fmt(v, f),
            Flat::Top => f.write_str("⊤"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_values_join_to_top_and_meet_to_bottom() {
        let a = Flat::Value(1);
        let b = Flat::Value(2);
        assert_eq!(a.join(&b), Flat::Top);
        assert_eq!(a.meet(&b), Flat::Bottom);
        assert_eq!(a.join(&a), a);
        assert_eq!(a.constant(), Some(&1));
        assert_eq!(Flat::<i64>::Top.constant(), None);
    }

    #[test]
    fn display() {
        assert_eq!(Flat::<i64>::Bottom.to_string(), "⊥");
        assert_eq!(Flat::Value(7).to_string(), "7");
        assert_eq!(Flat::<i64>::Top.to_string(), "⊤");
    }
}
