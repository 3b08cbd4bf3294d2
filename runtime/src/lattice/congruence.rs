//! Congruences `a·ℤ + b` restricted to `i64`: the domain of strides and alignments.
//!
//! A [`Congruence`] denotes the set of `i64` values `v` with `v ≡ b (mod a)`. Working on the
//! `i64` set rather than on ℤ keeps every element representable: a class with at most one `i64`
//! member is stored as that constant (or `⊥`), so `Eq` is set equality and the arithmetic, done in
//! `u128`, can never overflow.

use std::fmt;

use super::{Lattice, Top};

/// `⊥`, a constant, or the values of `a·ℤ + b` that fit in an `i64`.
///
/// # Representation
///
/// `a = 0` is the constant `b`; for `a > 0` the residue is normalised to `0 <= b < a`. Every class
/// with two or more `i64` members has `a <= 2^64 - 1`, and one with fewer members is stored as the
/// constant or `⊥`, so each set of values has exactly one representation.
///
/// # Laws
///
/// Ordered by inclusion. Join is exact (the gcd of the moduli and of the difference of the
/// residues), meet is exact (the Chinese remainder theorem, `⊥` when the classes are disjoint).
/// Every strictly ascending chain divides the modulus by at least two at each step, so it has at
/// most about 66 elements: [`Lattice::FINITE_HEIGHT`] is `true` and the join is a valid
/// (if slow) widening. `Ord` is an arbitrary total order for sorting, not the lattice order.
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{Congruence, Lattice, Top};
///
/// // 3 and 7 are both 3 modulo 4; adding 5 leaves only "odd".
/// let j = Congruence::constant(3).join(&Congruence::constant(7));
/// assert_eq!(j, Congruence::new(4, 3));
/// assert_eq!(j.join(&Congruence::constant(5)), Congruence::new(2, 1));
/// // Meet by the Chinese remainder theorem: x ≡ 2 (mod 3) and x ≡ 3 (mod 5).
/// assert_eq!(Congruence::new(3, 2).meet(&Congruence::new(5, 3)), Congruence::new(15, 8));
/// assert_eq!(Congruence::new(2, 0).meet(&Congruence::new(2, 1)), Congruence::bottom());
/// assert!(Congruence::new(6, 2).leq(&Congruence::new(2, 0)));
/// assert!(!Congruence::new(2, 0).leq(&Congruence::new(6, 2)));
/// assert!(Congruence::new(4, 1).leq(&Congruence::top()));
/// // The height is finite, so the widening is the join.
/// assert_eq!(Congruence::constant(0).widen(&Congruence::constant(6)), Congruence::new(6, 0));
/// assert_eq!(j.to_string(), "4ℤ+3");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Congruence {
    /// `None` is `⊥`. Otherwise `(modulus, first)`: `modulus == 0` is the constant `first`, and for
    /// `modulus > 0`, `first` is the least member and `first + modulus` is a member too.
    repr: Option<(u64, i64)>,
}

/// Shifts `i64` to `u128` preserving order, so that `i64::MIN` maps to 0.
fn shift(v: i64) -> u128 {
    (i128::from(v) - i128::from(i64::MIN)) as u128
}

/// The inverse of [`shift`] for values in `0..2^64`.
fn unshift(u: u128) -> i64 {
    (u as i128 + i128::from(i64::MIN)) as i64
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The inverse of `a` modulo `m` for coprime `a` and `m` (both below `2^64`), or 0 when `m == 1`.
fn inverse(a: u128, m: u128) -> u128 {
    let (mut r0, mut r1) = (a as i128 % m as i128, m as i128);
    let (mut s0, mut s1) = (1i128, 0i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (s0, s1) = (s1, s0 - q * s1);
    }
    s0.rem_euclid(m as i128) as u128
}

const U64_SPAN: u128 = 1 << 64;

impl Congruence {
    /// The class `a·ℤ + b` (all of its `i64` members); `a = 0` is the constant `b`.
    ///
    /// `b` may be any `i64`, negative included: it is reduced modulo `a`. `a = 1` gives the
    /// top. A class with only one `i64` member (possible when `a` is close to `u64::MAX`) is
    /// the constant of that member. Every class has at least one `i64` member, so the result
    /// is never the bottom.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Congruence, Top};
    ///
    /// let c = Congruence::new(4, -1);
    /// assert_eq!(c, Congruence::new(4, 3));
    /// assert!(c.contains(-1) && c.contains(7) && !c.contains(5));
    /// assert_eq!(Congruence::new(0, 9), Congruence::constant(9));
    /// assert!(Congruence::new(1, 42).is_top());
    /// assert_eq!(Congruence::new(u64::MAX, 5), Congruence::constant(5));
    /// ```
    pub fn new(a: u64, b: i64) -> Congruence {
        Congruence::from_shifted(u128::from(a), shift(b))
    }

    /// The single value `c` (the class `0·ℤ + c`).
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Congruence;
    ///
    /// let c = Congruence::constant(-2);
    /// assert_eq!(c.as_constant(), Some(-2));
    /// assert_eq!(c.class(), Some((0, -2)));
    /// assert!(c.contains(-2) && !c.contains(0));
    /// ```
    pub fn constant(c: i64) -> Congruence {
        Congruence::new(0, c)
    }

    /// No value (the bottom).
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Congruence, Lattice};
    ///
    /// let e = Congruence::empty();
    /// assert!(e.is_bottom());
    /// assert_eq!(e.class(), None);
    /// assert!(!e.contains(0));
    /// assert_eq!(e.to_string(), "⊥");
    /// ```
    pub fn empty() -> Congruence {
        Congruence { repr: None }
    }

    /// Every `i64` (`1·ℤ + 0`, the top).
    ///
    /// The same value as [`Top::top`], callable without importing the trait.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{Congruence, Top};
    ///
    /// let t = Congruence::top();
    /// assert!(t.is_top());
    /// assert_eq!(t.class(), Some((1, 0)));
    /// assert!(t.contains(i64::MIN) && t.contains(i64::MAX));
    /// ```
    pub fn top() -> Congruence {
        Congruence::new(1, 0)
    }

    /// The canonical class of shifted values `{u < 2^64 | u ≡ member (mod modulus)}`.
    fn from_shifted(modulus: u128, member: u128) -> Congruence {
        if modulus == 0 {
            return Congruence {
                repr: Some((0, unshift(member))),
            };
        }
        let first = member % modulus;
        if first >= U64_SPAN {
            Congruence::empty()
        } else if first + modulus >= U64_SPAN {
            Congruence {
                repr: Some((0, unshift(first))),
            }
        } else {
            Congruence {
                repr: Some((modulus as u64, unshift(first))),
            }
        }
    }

    /// `(a, b)` with `a = 0` for the constant `b`, and `0 <= b < a` otherwise; `None` for `⊥`.
    ///
    /// `b` is an `i128` because a residue below a modulus near `u64::MAX` need not fit in an
    /// `i64`. The top is `(1, 0)`.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Congruence;
    ///
    /// assert_eq!(Congruence::new(4, -1).class(), Some((4, 3)));
    /// assert_eq!(Congruence::constant(-5).class(), Some((0, -5)));
    /// assert_eq!(Congruence::empty().class(), None);
    /// ```
    pub fn class(&self) -> Option<(u64, i128)> {
        self.repr.map(|(a, first)| {
            if a == 0 {
                (0, i128::from(first))
            } else {
                (a, i128::from(first).rem_euclid(i128::from(a)))
            }
        })
    }

    /// The value, when the set holds exactly one; `None` for `⊥` and for classes with two or
    /// more members.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Congruence;
    ///
    /// assert_eq!(Congruence::constant(8).as_constant(), Some(8));
    /// assert_eq!(Congruence::new(2, 0).as_constant(), None);
    /// assert_eq!(Congruence::empty().as_constant(), None);
    /// ```
    pub fn as_constant(&self) -> Option<i64> {
        match self.repr {
            Some((0, c)) => Some(c),
            _ => None,
        }
    }

    /// Whether `v` belongs to the set; always `false` for `⊥`.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::Congruence;
    ///
    /// let odd = Congruence::new(2, 1);
    /// assert!(odd.contains(-3) && odd.contains(i64::MAX));
    /// assert!(!odd.contains(0) && !odd.contains(i64::MIN));
    /// assert!(!Congruence::empty().contains(0));
    /// ```
    pub fn contains(&self, v: i64) -> bool {
        match self.repr {
            None => false,
            Some((0, c)) => v == c,
            Some((a, first)) => v >= first && (shift(v) - shift(first)) % u128::from(a) == 0,
        }
    }
}

impl Lattice for Congruence {
    const FINITE_HEIGHT: bool = true;

    fn bottom() -> Self {
        Congruence::empty()
    }

    fn is_bottom(&self) -> bool {
        self.repr.is_none()
    }

    fn leq(&self, other: &Self) -> bool {
        match (self.repr, other.repr) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some((0, c)), Some(_)) => other.contains(c),
            (Some(_), Some((0, _))) => false,
            (Some((a1, f1)), Some((a2, _))) => a1 % a2 == 0 && other.contains(f1),
        }
    }

    fn join(&self, other: &Self) -> Self {
        match (self.repr, other.repr) {
            (None, _) => *other,
            (_, None) => *self,
            (Some((a1, f1)), Some((a2, f2))) => {
                let (u1, u2) = (shift(f1), shift(f2));
                let diff = u1.abs_diff(u2);
                let modulus = gcd(gcd(u128::from(a1), u128::from(a2)), diff);
                Congruence::from_shifted(modulus, u1)
            }
        }
    }

    fn meet(&self, other: &Self) -> Self {
        match (self.repr, other.repr) {
            (None, _) | (_, None) => Congruence::empty(),
            (Some((0, c)), _) => {
                if other.contains(c) {
                    *self
                } else {
                    Congruence::empty()
                }
            }
            (_, Some((0, c))) => {
                if self.contains(c) {
                    *other
                } else {
                    Congruence::empty()
                }
            }
            (Some((a1, f1)), Some((a2, f2))) => {
                // Solve u ≡ u1 (mod a1), u ≡ u2 (mod a2) over shifted values, all below 2^128.
                let (a1, a2) = (u128::from(a1), u128::from(a2));
                let (u1, u2) = (shift(f1) % a1, shift(f2) % a2);
                let g = gcd(a1, a2);
                if u1 % g != u2 % g {
                    return Congruence::empty();
                }
                let (m1, m2) = (a1 / g, a2 / g);
                // (u2 - u1) / g modulo m2, computed without leaving unsigned arithmetic.
                let d = if u2 >= u1 {
                    ((u2 - u1) / g) % m2
                } else {
                    (m2 - ((u1 - u2) / g) % m2) % m2
                };
                let t = (d * inverse(m1, m2)) % m2;
                Congruence::from_shifted(m1 * a2, u1 + a1 * t)
            }
        }
    }
}

impl Top for Congruence {
    fn top() -> Self {
        Congruence::top()
    }

    fn is_top(&self) -> bool {
        matches!(self.repr, Some((1, _)))
    }
}

impl fmt::Display for Congruence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.class() {
            None => f.write_str("⊥"),
            Some((0, c)) => write!(f, "{c}"),
            Some((1, _)) => f.write_str("⊤"),
            Some((a, b)) => write!(f, "{a}ℤ+{b}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_uses_the_gcd() {
        let a = Congruence::constant(3);
        let b = Congruence::constant(7);
        assert_eq!(a.join(&b), Congruence::new(4, 3));
        assert_eq!(
            a.join(&b).join(&Congruence::constant(5)),
            Congruence::new(2, 1)
        );
        assert_eq!(
            Congruence::new(6, 0).join(&Congruence::new(4, 2)),
            Congruence::new(2, 0)
        );
        assert_eq!(Congruence::new(4, 3).class(), Some((4, 3)));
        assert_eq!(Congruence::new(4, -1), Congruence::new(4, 3));
    }

    #[test]
    fn meet_uses_the_chinese_remainder_theorem() {
        // x ≡ 2 (mod 3) and x ≡ 3 (mod 5) gives x ≡ 8 (mod 15).
        let m = Congruence::new(3, 2).meet(&Congruence::new(5, 3));
        assert_eq!(m, Congruence::new(15, 8));
        // Non-coprime moduli: x ≡ 1 (mod 4) and x ≡ 3 (mod 6) gives x ≡ 9 (mod 12).
        assert_eq!(
            Congruence::new(4, 1).meet(&Congruence::new(6, 3)),
            Congruence::new(12, 9)
        );
        // Incompatible residues are disjoint.
        assert_eq!(
            Congruence::new(4, 1).meet(&Congruence::new(6, 2)),
            Congruence::empty()
        );
        assert_eq!(
            Congruence::new(4, 1).meet(&Congruence::constant(9)),
            Congruence::constant(9)
        );
    }

    #[test]
    fn extremes_do_not_overflow() {
        let ends = Congruence::constant(i64::MIN).join(&Congruence::constant(i64::MAX));
        assert!(ends.contains(i64::MIN) && ends.contains(i64::MAX) && !ends.contains(0));
        assert_eq!(
            ends.class(),
            Some((u64::MAX, i128::from(i64::MAX) % i128::from(u64::MAX)))
        );
        // Two huge coprime moduli: their lcm exceeds the i64 range, so at most one value is left.
        let big = Congruence::new(u64::MAX, 0).meet(&Congruence::new(u64::MAX - 1, 0));
        assert_eq!(big, Congruence::constant(0));
        // A class with a single i64 member is that constant.
        assert_eq!(Congruence::new(u64::MAX, 5), Congruence::constant(5));
        assert!(Congruence::top().is_top());
        assert!(Congruence::top().contains(i64::MIN));
    }

    #[test]
    fn display() {
        assert_eq!(Congruence::empty().to_string(), "⊥");
        assert_eq!(Congruence::constant(-2).to_string(), "-2");
        assert_eq!(Congruence::new(4, 3).to_string(), "4ℤ+3");
        assert_eq!(Congruence::top().to_string(), "⊤");
    }
}
