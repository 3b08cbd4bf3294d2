//! The sign lattice: which of negative, zero and positive a value may be.
//!
//! [`Sign`] is the powerset of `{-, 0, +}` ordered by inclusion, named by its eight elements. It
//! is the cheapest numeric domain that still proves divisions safe and loop counters positive.

use std::fmt;

use super::{Lattice, Top};

/// A set of signs: `⊥`, `-`, `0`, `+`, `≤0`, `≥0`, `≠0` or `⊤`.
///
/// # Laws
///
/// Ordered by inclusion of the sets of signs; join is union and meet intersection, both exact.
/// The height is four, so [`Lattice::FINITE_HEIGHT`] is `true`. `Ord` (declaration order) is only
/// for sorting, not the lattice order.
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{Lattice, Sign, Top};
///
/// assert_eq!(Sign::Neg.join(&Sign::Zero), Sign::NonPos);
/// assert_eq!(Sign::NonPos.join(&Sign::Pos), Sign::top());
/// assert_eq!(Sign::NonPos.meet(&Sign::NonNeg), Sign::Zero);
/// assert_eq!(Sign::Neg.meet(&Sign::Pos), Sign::bottom());
/// assert!(Sign::Pos.leq(&Sign::NonZero) && !Sign::Zero.leq(&Sign::NonZero));
/// // The height is finite, so the widening is the join.
/// assert_eq!(Sign::Pos.widen(&Sign::Zero), Sign::NonNeg);
/// assert_eq!(Sign::NonZero.to_string(), "≠0");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Sign {
    /// No value.
    Bottom,
    /// Strictly negative.
    Neg,
    /// Exactly zero.
    Zero,
    /// Strictly positive.
    Pos,
    /// Negative or zero.
    NonPos,
    /// Zero or positive.
    NonNeg,
    /// Negative or positive.
    NonZero,
    /// Any sign.
    Top,
}

const NEG: u8 = 1;
const ZERO: u8 = 2;
const POS: u8 = 4;

impl Sign {
    /// The sign of `v`: [`Sign::Neg`], [`Sign::Zero`] or [`Sign::Pos`], never a set of two
    /// or more signs.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Sign;
    ///
    /// assert_eq!(Sign::of(-7), Sign::Neg);
    /// assert_eq!(Sign::of(0), Sign::Zero);
    /// assert_eq!(Sign::of(i64::MAX), Sign::Pos);
    /// assert_eq!(Sign::of(i64::MIN), Sign::Neg);
    /// ```
    pub fn of(v: i64) -> Sign {
        match v {
            ..0 => Sign::Neg,
            0 => Sign::Zero,
            1.. => Sign::Pos,
        }
    }

    /// Whether `v` has one of the signs in `self`; always `false` for [`Sign::Bottom`] and
    /// always `true` for [`Sign::Top`].
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Sign;
    ///
    /// assert!(Sign::NonZero.contains(-3) && Sign::NonZero.contains(3));
    /// assert!(!Sign::NonZero.contains(0));
    /// assert!(Sign::NonNeg.contains(0) && !Sign::NonNeg.contains(-1));
    /// assert!(!Sign::Bottom.contains(0));
    /// ```
    pub fn contains(&self, v: i64) -> bool {
        self.bits() & Sign::of(v).bits() != 0
    }

    fn bits(self) -> u8 {
        match self {
            Sign::Bottom => 0,
            Sign::Neg => NEG,
            Sign::Zero => ZERO,
            Sign::Pos => POS,
            Sign::NonPos => NEG | ZERO,
            Sign::NonNeg => ZERO | POS,
            Sign::NonZero => NEG | POS,
            Sign::Top => NEG | ZERO | POS,
        }
    }

    fn from_bits(bits: u8) -> Sign {
        match bits & (NEG | ZERO | POS) {
            0 => Sign::Bottom,
            NEG => Sign::Neg,
            ZERO => Sign::Zero,
            POS => Sign::Pos,
            0b011 => Sign::NonPos,
            0b110 => Sign::NonNeg,
            0b101 => Sign::NonZero,
            _ => Sign::Top,
        }
    }
}

impl Lattice for Sign {
    const FINITE_HEIGHT: bool = true;

    fn bottom() -> Self {
        Sign::Bottom
    }

    fn is_bottom(&self) -> bool {
        *self == Sign::Bottom
    }

    fn leq(&self, other: &Self) -> bool {
        self.bits() & !other.bits() == 0
    }

    fn join(&self, other: &Self) -> Self {
        Sign::from_bits(self.bits() | other.bits())
    }

    fn meet(&self, other: &Self) -> Self {
        Sign::from_bits(self.bits() & other.bits())
    }
}

impl Top for Sign {
    fn top() -> Self {
        Sign::Top
    }

    fn is_top(&self) -> bool {
        *self == Sign::Top
    }
}

impl fmt::Display for Sign {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Sign::Bottom => "⊥",
            Sign::Neg => "-",
            Sign::Zero => "0",
            Sign::Pos => "+",
            Sign::NonPos => "≤0",
            Sign::NonNeg => "≥0",
            Sign::NonZero => "≠0",
            Sign::Top => "⊤",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unions_and_intersections() {
        assert_eq!(Sign::Neg.join(&Sign::Zero), Sign::NonPos);
        assert_eq!(Sign::NonPos.join(&Sign::Pos), Sign::Top);
        assert_eq!(Sign::NonPos.meet(&Sign::NonNeg), Sign::Zero);
        assert_eq!(Sign::Neg.meet(&Sign::Pos), Sign::Bottom);
        assert!(Sign::NonZero.contains(-3) && !Sign::NonZero.contains(0));
        assert_eq!(Sign::of(i64::MIN), Sign::Neg);
        assert_eq!(Sign::NonNeg.to_string(), "≥0");
    }
}
