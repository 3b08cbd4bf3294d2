//! Intervals of `i64`: the classic numeric domain for bounds analysis.
//!
//! An [`Interval`] is a set `{v | lo <= v <= hi}` of machine integers. `i64::MIN` as a lower
//! bound is printed and widened to as `-∞`, `i64::MAX` as an upper bound as `+∞`; since the
//! interval speaks about `i64` values only, `[-∞, +∞]` is exactly every `i64` and is the top.

use std::fmt;

use super::{Lattice, Thresholds, Top};

/// A (possibly empty) interval of `i64` values with inclusive bounds.
///
/// # Laws
///
/// The order is inclusion of the represented sets, join is the convex hull and meet the
/// intersection, both exact. The empty interval is the bottom and has one representation, so
/// `Eq` is set equality. Ascending chains can be infinite (`[0,0] ⊑ [0,1] ⊑ …`), so
/// [`Lattice::FINITE_HEIGHT`] is `false` and [`Lattice::widen`] sends any bound that grew to
/// infinity; [`Lattice::widen_with_thresholds`] first tries the nearest threshold;
/// [`Lattice::narrow`] refines only infinite bounds, so decreasing narrowing sequences have at
/// most two strict steps.
///
/// `Ord` is an arbitrary total order (by bounds, empty first) for sorting, e.g. in
/// [`super::FiniteSum`]; it is not the lattice order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Interval {
    /// `None` is the empty interval; otherwise `lo <= hi`.
    bounds: Option<(i64, i64)>,
}

impl Interval {
    /// `[lo, hi]`, or the empty interval when `lo > hi`.
    pub fn new(lo: i64, hi: i64) -> Interval {
        if lo > hi {
            Interval::empty()
        } else {
            Interval {
                bounds: Some((lo, hi)),
            }
        }
    }

    /// The single value `c`.
    pub fn constant(c: i64) -> Interval {
        Interval::new(c, c)
    }

    /// The empty interval (the bottom).
    pub fn empty() -> Interval {
        Interval { bounds: None }
    }

    /// `[-∞, +∞]`: every `i64` (the top).
    pub fn top() -> Interval {
        Interval::new(i64::MIN, i64::MAX)
    }

    /// `(lo, hi)` with `lo <= hi`, or `None` for the empty interval.
    pub fn bounds(&self) -> Option<(i64, i64)> {
        self.bounds
    }

    /// The lower bound (`i64::MIN` meaning `-∞`), or `None` when empty.
    pub fn lo(&self) -> Option<i64> {
        self.bounds.map(|(lo, _)| lo)
    }

    /// The upper bound (`i64::MAX` meaning `+∞`), or `None` when empty.
    pub fn hi(&self) -> Option<i64> {
        self.bounds.map(|(_, hi)| hi)
    }

    /// Whether `v` lies in the interval.
    pub fn contains(&self, v: i64) -> bool {
        match self.bounds {
            Some((lo, hi)) => lo <= v && v <= hi,
            None => false,
        }
    }

    /// The value, when the interval holds exactly one.
    pub fn as_constant(&self) -> Option<i64> {
        match self.bounds {
            Some((lo, hi)) if lo == hi => Some(lo),
            _ => None,
        }
    }
}

impl From<i64> for Interval {
    fn from(c: i64) -> Interval {
        Interval::constant(c)
    }
}

impl Lattice for Interval {
    const FINITE_HEIGHT: bool = false;

    fn bottom() -> Self {
        Interval::empty()
    }

    fn is_bottom(&self) -> bool {
        self.bounds.is_none()
    }

    fn leq(&self, other: &Self) -> bool {
        match (self.bounds, other.bounds) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some((a, b)), Some((c, d))) => c <= a && b <= d,
        }
    }

    fn join(&self, other: &Self) -> Self {
        match (self.bounds, other.bounds) {
            (None, _) => *other,
            (_, None) => *self,
            (Some((a, b)), Some((c, d))) => Interval::new(a.min(c), b.max(d)),
        }
    }

    fn meet(&self, other: &Self) -> Self {
        match (self.bounds, other.bounds) {
            (Some((a, b)), Some((c, d))) => Interval::new(a.max(c), b.min(d)),
            _ => Interval::empty(),
        }
    }

    fn widen(&self, newer: &Self) -> Self {
        self.widen_with_thresholds(newer, &Thresholds::none())
    }

    fn widen_with_thresholds(&self, newer: &Self, thresholds: &Thresholds) -> Self {
        match (self.bounds, newer.bounds) {
            (None, _) => *newer,
            (_, None) => *self,
            (Some((lo, hi)), Some((new_lo, new_hi))) => {
                let lo = if new_lo < lo {
                    thresholds.at_most(new_lo).unwrap_or(i64::MIN)
                } else {
                    lo
                };
                let hi = if new_hi > hi {
                    thresholds.at_least(new_hi).unwrap_or(i64::MAX)
                } else {
                    hi
                };
                Interval::new(lo, hi)
            }
        }
    }

    fn narrow(&self, newer: &Self) -> Self {
        match (self.bounds, newer.bounds) {
            (Some((lo, hi)), Some((new_lo, new_hi))) => {
                let lo = if lo == i64::MIN { new_lo } else { lo };
                let hi = if hi == i64::MAX { new_hi } else { hi };
                Interval::new(lo, hi)
            }
            _ => Interval::empty(),
        }
    }
}

impl Top for Interval {
    fn top() -> Self {
        Interval::top()
    }

    fn is_top(&self) -> bool {
        self.bounds == Some((i64::MIN, i64::MAX))
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.bounds {
            None => f.write_str("⊥"),
            Some((i64::MIN, i64::MAX)) => f.write_str("⊤"),
            Some((lo, hi)) => {
                f.write_str("[")?;
                if lo == i64::MIN {
                    f.write_str("-∞")?;
                } else {
                    write!(f, "{lo}")?;
                }
                f.write_str(", ")?;
                if hi == i64::MAX {
                    f.write_str("+∞")?;
                } else {
                    write!(f, "{hi}")?;
                }
                f.write_str("]")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_is_canonical() {
        assert_eq!(Interval::new(3, 1), Interval::empty());
        assert_eq!(
            Interval::new(3, 4).meet(&Interval::new(6, 9)),
            Interval::empty()
        );
        assert_eq!(Interval::empty().bounds(), None);
    }

    #[test]
    fn join_is_hull_and_meet_is_intersection() {
        let a = Interval::new(1, 3);
        let b = Interval::new(5, 8);
        assert_eq!(a.join(&b), Interval::new(1, 8));
        assert_eq!(Interval::new(1, 6).meet(&b), Interval::new(5, 6));
        assert!(a.leq(&a.join(&b)));
        assert!(Interval::constant(2).leq(&a));
        assert_eq!(Interval::constant(4).as_constant(), Some(4));
        assert!(a.contains(3) && !a.contains(4));
    }

    #[test]
    fn widening_jumps_to_infinity() {
        let a = Interval::new(0, 1);
        assert_eq!(a.widen(&Interval::new(0, 2)), Interval::new(0, i64::MAX));
        assert_eq!(a.widen(&Interval::new(-1, 1)), Interval::new(i64::MIN, 1));
        assert_eq!(a.widen(&Interval::new(0, 1)), a);
        assert_eq!(Interval::empty().widen(&a), a);
    }

    #[test]
    fn widening_with_thresholds_stops_at_the_nearest_threshold() {
        let t = Thresholds::new([-10, 0, 10, 100]);
        let a = Interval::new(0, 1);
        assert_eq!(
            a.widen_with_thresholds(&Interval::new(0, 2), &t),
            Interval::new(0, 10)
        );
        assert_eq!(
            a.widen_with_thresholds(&Interval::new(0, 10), &t),
            Interval::new(0, 10)
        );
        assert_eq!(
            Interval::new(0, 10).widen_with_thresholds(&Interval::new(0, 11), &t),
            Interval::new(0, 100)
        );
        assert_eq!(
            Interval::new(0, 100).widen_with_thresholds(&Interval::new(0, 101), &t),
            Interval::new(0, i64::MAX)
        );
        assert_eq!(
            a.widen_with_thresholds(&Interval::new(-3, 1), &t),
            Interval::new(-10, 1)
        );
        assert_eq!(
            a.widen_with_thresholds(&Interval::new(-11, 1), &t),
            Interval::new(i64::MIN, 1)
        );
    }

    #[test]
    fn narrowing_refines_only_infinite_bounds() {
        let a = Interval::new(0, i64::MAX);
        assert_eq!(a.narrow(&Interval::new(0, 9)), Interval::new(0, 9));
        assert_eq!(
            Interval::new(0, 20).narrow(&Interval::new(3, 9)),
            Interval::new(0, 20)
        );
        assert_eq!(
            Interval::top().narrow(&Interval::new(-4, 4)),
            Interval::new(-4, 4)
        );
        assert_eq!(a.narrow(&Interval::empty()), Interval::empty());
    }

    #[test]
    fn display() {
        assert_eq!(Interval::empty().to_string(), "⊥");
        assert_eq!(Interval::new(1, 5).to_string(), "[1, 5]");
        assert_eq!(Interval::new(i64::MIN, 5).to_string(), "[-∞, 5]");
        assert_eq!(Interval::new(0, i64::MAX).to_string(), "[0, +∞]");
        assert_eq!(Interval::top().to_string(), "⊤");
    }
}
