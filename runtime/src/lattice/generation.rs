//! The generation counter of the Green Fairy's shape analysis: for an abstract heap object, how
//! many younger live objects of the same allocation site there may be. An object whose counter
//! is `0` is the only one of its site alive; `≤ n` allows up to `n` younger ones; `≤ ∞` any
//! number (a summary of a loop's allocations).

use std::fmt;

use super::{Lattice, Thresholds, Top};

/// `⊥ ⊑ 0 ⊑ ≤1 ⊑ ≤2 ⊑ … ⊑ ≤∞`.
///
/// # Laws
///
/// A chain: join is the larger bound, meet the smaller. Its height is unbounded, so the widening
/// jumps to `≤∞` as soon as a bound grows (or to the next threshold above it, when given).
/// Narrowing refines only `≤∞`. The derived `Ord` is the lattice order.
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{Generation, Lattice, Thresholds, Top};
///
/// let one = Generation::AtMost(1);
/// let three = Generation::AtMost(3);
/// assert_eq!(one.join(&three), three);
/// assert_eq!(one.meet(&three), one);
/// assert!(Generation::bottom().leq(&Generation::AtMost(0)) && three.leq(&Generation::top()));
/// assert!(!three.leq(&one));
/// assert_eq!(one.widen(&three), Generation::Unbounded);
/// assert_eq!(one.widen(&Generation::AtMost(0)), one);
/// let t = Thresholds::new([4]);
/// assert_eq!(one.widen_with_thresholds(&three, &t), Generation::AtMost(4));
/// assert_eq!(Generation::Unbounded.narrow(&three), three);
/// assert_eq!(format!("{} {three} {}", Generation::AtMost(0), Generation::Unbounded), "0 ≤3 ≤∞");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Generation {
    /// No object.
    Bottom,
    /// At most this many younger objects of the same site (`0`: the object is its site's only
    /// live one).
    AtMost(u32),
    /// Any number of them.
    Unbounded,
}

impl Generation {
    /// The counter after an alias edge crosses the object's own allocation site: one more
    /// younger object may exist. The same as `self.plus(1)`: `Bottom` and `Unbounded` stay,
    /// and `AtMost(u32::MAX)` becomes `Unbounded`.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Generation;
    ///
    /// assert_eq!(Generation::AtMost(0).bump(), Generation::AtMost(1));
    /// assert_eq!(Generation::AtMost(u32::MAX).bump(), Generation::Unbounded);
    /// assert_eq!(Generation::Bottom.bump(), Generation::Bottom);
    /// ```
    pub fn bump(self) -> Generation {
        self.plus(1)
    }

    /// The counter with `delta` more younger objects allowed (the generation delta between an
    /// extended basic block's head and its immediate dominator). `Bottom` and `Unbounded`
    /// stay; a bound that would pass `u32::MAX` becomes `Unbounded`.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Generation;
    ///
    /// assert_eq!(Generation::AtMost(2).plus(3), Generation::AtMost(5));
    /// assert_eq!(Generation::AtMost(2).plus(0), Generation::AtMost(2));
    /// assert_eq!(Generation::AtMost(u32::MAX - 1).plus(2), Generation::Unbounded);
    /// assert_eq!(Generation::Bottom.plus(3), Generation::Bottom);
    /// ```
    pub fn plus(self, delta: u32) -> Generation {
        match self {
            Generation::AtMost(n) => n
                .checked_add(delta)
                .map_or(Generation::Unbounded, Generation::AtMost),
            other => other,
        }
    }

    /// Whether the object is certainly its site's only live one: `true` for `AtMost(0)` only
    /// (not for `Bottom`).
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Generation;
    ///
    /// assert!(Generation::AtMost(0).is_unique());
    /// assert!(!Generation::AtMost(1).is_unique());
    /// assert!(!Generation::Bottom.is_unique());
    /// ```
    pub fn is_unique(self) -> bool {
        self == Generation::AtMost(0)
    }
}

impl Lattice for Generation {
    const FINITE_HEIGHT: bool = false;

    fn bottom() -> Self {
        Generation::Bottom
    }

    fn is_bottom(&self) -> bool {
        *self == Generation::Bottom
    }

    // The derived order (declaration order, then the bound) is the lattice's order.
    fn leq(&self, other: &Self) -> bool {
        self <= other
    }

    fn join(&self, other: &Self) -> Self {
        *self.max(other)
    }

    fn meet(&self, other: &Self) -> Self {
        *self.min(other)
    }

    fn widen(&self, newer: &Self) -> Self {
        if newer.leq(self) {
            *self
        } else if self.is_bottom() {
            *newer
        } else {
            Generation::Unbounded
        }
    }

    fn widen_with_thresholds(&self, newer: &Self, thresholds: &Thresholds) -> Self {
        match (self, newer.join(self)) {
            (Generation::AtMost(_), Generation::AtMost(n)) if !newer.leq(self) => thresholds
                .at_least(i64::from(n))
                .and_then(|t| u32::try_from(t).ok())
                .map_or(Generation::Unbounded, Generation::AtMost),
            _ => self.widen(newer),
        }
    }

    fn narrow(&self, newer: &Self) -> Self {
        if *self == Generation::Unbounded {
            *newer
        } else {
            *self
        }
    }
}

impl Top for Generation {
    fn top() -> Self {
        Generation::Unbounded
    }

    fn is_top(&self) -> bool {
        *self == Generation::Unbounded
    }
}

impl fmt::Display for Generation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Generation::Bottom => f.write_str("⊥"),
            Generation::AtMost(0) => f.write_str("0"),
            Generation::AtMost(n) => write!(f, "≤{n}"),
            Generation::Unbounded => f.write_str("≤∞"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossing_the_site_bumps_the_counter_and_widening_stops_it() {
        let g = Generation::AtMost(0);
        assert!(g.is_unique());
        assert_eq!(g.bump(), Generation::AtMost(1));
        assert_eq!(g.bump().bump().to_string(), "≤2");
        assert_eq!(Generation::Bottom.bump(), Generation::Bottom);
        assert_eq!(Generation::AtMost(u32::MAX).bump(), Generation::Unbounded);
        assert_eq!(g.widen(&g.bump()), Generation::Unbounded);
        assert_eq!(g.widen(&g), g);
        let t = Thresholds::new([2]);
        assert_eq!(
            g.widen_with_thresholds(&g.bump(), &t),
            Generation::AtMost(2)
        );
        assert_eq!(
            Generation::AtMost(2).widen_with_thresholds(&Generation::AtMost(3), &t),
            Generation::Unbounded
        );
        assert_eq!(
            Generation::Unbounded.narrow(&Generation::AtMost(2)),
            Generation::AtMost(2)
        );
    }
}
