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
///
/// # Examples
///
/// The lattice operations come from the [`Lattice`] and [`Top`] traits:
///
/// ```rust
/// use absinthe::lattice::{Interval, Lattice, Thresholds, Top};
///
/// let a = Interval::new(0, 3);
/// let b = Interval::new(5, 8);
/// // Join is the convex hull (it adds 4), meet the intersection.
/// assert_eq!(a.join(&b), Interval::new(0, 8));
/// assert_eq!(a.meet(&b), Interval::empty());
/// assert_eq!(Interval::new(0, 6).meet(&b), Interval::new(5, 6));
/// assert!(a.leq(&Interval::new(-1, 3)) && !a.leq(&b));
/// assert!(Interval::bottom().leq(&a) && a.leq(&<Interval as Top>::top()));
///
/// // Widening sends a bound that grew to infinity, or to the next threshold.
/// assert_eq!(a.widen(&Interval::new(0, 4)), Interval::new(0, i64::MAX));
/// let t = Thresholds::new([10, 100]);
/// assert_eq!(a.widen_with_thresholds(&Interval::new(0, 4), &t), Interval::new(0, 10));
/// // Narrowing refines infinite bounds only.
/// assert_eq!(Interval::new(0, i64::MAX).narrow(&Interval::new(0, 9)), Interval::new(0, 9));
/// assert_eq!(Interval::new(0, 20).narrow(&Interval::new(0, 9)), Interval::new(0, 20));
///
/// assert_eq!(Interval::new(i64::MIN, 5).to_string(), "[-∞, 5]");
/// assert_eq!(Interval::empty().to_string(), "⊥");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Interval {
    /// `None` is the empty interval; otherwise `lo <= hi`.
    bounds: Option<(i64, i64)>,
}

impl Interval {
    /// `[lo, hi]`, or the empty interval when `lo > hi`.
    ///
    /// Both bounds are included. `i64::MIN` as `lo` reads as `-∞` and `i64::MAX` as `hi` as `+∞`,
    /// so `Interval::new(i64::MIN, i64::MAX)` is the top.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Interval, Lattice, Top};
    ///
    /// let i = Interval::new(-2, 5);
    /// assert_eq!(i.bounds(), Some((-2, 5)));
    /// assert!(Interval::new(3, 1).is_bottom());
    /// assert_eq!(Interval::new(3, 1), Interval::empty());
    /// assert!(Interval::new(i64::MIN, i64::MAX).is_top());
    /// ```
    pub fn new(lo: i64, hi: i64) -> Interval {
        if lo > hi {
            Interval::empty()
        } else {
            Interval {
                bounds: Some((lo, hi)),
            }
        }
    }

    /// The single value `c`: `[c, c]`.
    ///
    /// `From<i64>` builds the same interval.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Interval;
    ///
    /// let seven = Interval::constant(7);
    /// assert_eq!(seven, Interval::new(7, 7));
    /// assert_eq!(seven, Interval::from(7));
    /// assert_eq!(seven.as_constant(), Some(7));
    /// assert!(seven.contains(7) && !seven.contains(8));
    /// ```
    pub fn constant(c: i64) -> Interval {
        Interval::new(c, c)
    }

    /// The empty interval (the bottom): it contains no value and has no bounds.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Interval, Lattice};
    ///
    /// let e = Interval::empty();
    /// assert_eq!(e, Interval::bottom());
    /// assert_eq!(e.bounds(), None);
    /// assert!(!e.contains(0));
    /// // It is neutral for the join.
    /// assert_eq!(e.join(&Interval::constant(3)), Interval::constant(3));
    /// ```
    pub fn empty() -> Interval {
        Interval { bounds: None }
    }

    /// `[-∞, +∞]`: every `i64` (the top), stored as `[i64::MIN, i64::MAX]`.
    ///
    /// The same value as [`Top::top`], callable without importing the trait.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Interval, Top};
    ///
    /// let t = Interval::top();
    /// assert!(t.is_top());
    /// assert_eq!(t.bounds(), Some((i64::MIN, i64::MAX)));
    /// assert!(t.contains(i64::MIN) && t.contains(i64::MAX));
    /// assert_eq!(t.to_string(), "⊤");
    /// ```
    pub fn top() -> Interval {
        Interval::new(i64::MIN, i64::MAX)
    }

    /// `(lo, hi)` with `lo <= hi`, or `None` for the empty interval.
    ///
    /// An infinite bound comes back as `i64::MIN` (for `-∞`) or `i64::MAX` (for `+∞`).
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Interval, Lattice};
    ///
    /// assert_eq!(Interval::new(1, 4).bounds(), Some((1, 4)));
    /// assert_eq!(Interval::new(4, 1).bounds(), None);
    /// let up = Interval::new(0, 1).widen(&Interval::new(0, 2));
    /// assert_eq!(up.bounds(), Some((0, i64::MAX)));
    /// ```
    pub fn bounds(&self) -> Option<(i64, i64)> {
        self.bounds
    }

    /// The lower bound (`i64::MIN` meaning `-∞`), or `None` when empty.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Interval;
    ///
    /// assert_eq!(Interval::new(-3, 8).lo(), Some(-3));
    /// assert_eq!(Interval::top().lo(), Some(i64::MIN));
    /// assert_eq!(Interval::empty().lo(), None);
    /// ```
    pub fn lo(&self) -> Option<i64> {
        self.bounds.map(|(lo, _)| lo)
    }

    /// The upper bound (`i64::MAX` meaning `+∞`), or `None` when empty.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Interval;
    ///
    /// assert_eq!(Interval::new(-3, 8).hi(), Some(8));
    /// assert_eq!(Interval::top().hi(), Some(i64::MAX));
    /// assert_eq!(Interval::empty().hi(), None);
    /// ```
    pub fn hi(&self) -> Option<i64> {
        self.bounds.map(|(_, hi)| hi)
    }

    /// Whether `v` lies in the interval, bounds included; always `false` for the empty
    /// interval. An infinite bound is the `i64` extreme, which it contains.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Interval;
    ///
    /// let i = Interval::new(1, 3);
    /// assert!(i.contains(1) && i.contains(3));
    /// assert!(!i.contains(0) && !i.contains(4));
    /// assert!(!Interval::empty().contains(0));
    /// assert!(Interval::new(0, i64::MAX).contains(i64::MAX));
    /// ```
    pub fn contains(&self, v: i64) -> bool {
        match self.bounds {
            Some((lo, hi)) => lo <= v && v <= hi,
            None => false,
        }
    }

    /// The value, when the interval holds exactly one (`lo == hi`); `None` for the empty
    /// interval and for any wider one.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Interval;
    ///
    /// assert_eq!(Interval::new(4, 4).as_constant(), Some(4));
    /// assert_eq!(Interval::new(4, 5).as_constant(), None);
    /// assert_eq!(Interval::empty().as_constant(), None);
    /// ```
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
