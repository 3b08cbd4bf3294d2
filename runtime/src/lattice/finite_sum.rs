//! Finite disjunctions: up to `N` elements of a base domain, read as their union.
//!
//! [`FiniteSum`] adds path-sensitivity-like precision to any domain without knowing anything
//! about it: `x ∈ [0, 0] ∨ x ∈ [10, 10]` instead of `x ∈ [0, 10]`. When a join would produce more
//! than `N` disjuncts, the two cheapest to merge (by a pluggable [`JoinCost`]) are joined in the
//! base domain, so the join stays an upper bound but is no longer always the least one.

use std::fmt::{self, Debug, Display};
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

use super::{Lattice, Top};

/// How costly, in lost precision, it is to replace two disjuncts by their join.
///
/// # Contract
///
/// Any deterministic function is sound (merging always yields an upper bound); lower costs are
/// merged first, ties going to the pair that comes first in the disjuncts' `Ord` order. Domains
/// override it to keep the disjuncts they care about apart.
///
/// # Examples
///
/// A cost that merges the two intervals closest to each other first:
///
/// ```rust
/// use absinthe::lattice::{FiniteSum, Interval, JoinCost};
///
/// struct Gap;
///
/// impl JoinCost<Interval> for Gap {
///     fn join_cost(a: &Interval, b: &Interval) -> u64 {
///         match (a.bounds(), b.bounds()) {
///             (Some((alo, ahi)), Some((blo, bhi))) => {
///                 let gap = i128::from(alo.max(blo)) - i128::from(ahi.min(bhi));
///                 gap.clamp(0, i128::from(u64::MAX)) as u64
///             }
///             _ => 0,
///         }
///     }
/// }
///
/// let points = [Interval::constant(0), Interval::constant(50), Interval::constant(52)];
/// let by_gap = FiniteSum::<Interval, 2, Gap>::from_values(points);
/// assert_eq!(by_gap.values(), [Interval::constant(0), Interval::new(50, 52)]);
/// // The default cost is 1 for every incomparable pair, so the first pair is merged.
/// let by_default = FiniteSum::<Interval, 2>::from_values(points);
/// assert_eq!(by_default.values(), [Interval::new(0, 50), Interval::constant(52)]);
/// ```
pub trait JoinCost<D> {
    /// The cost of merging `a` and `b`.
    fn join_cost(a: &D, b: &D) -> u64;
}

/// The default [`JoinCost`]: 0 when one disjunct is below the other (merging loses nothing),
/// 1 otherwise.
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{DefaultCost, Interval, JoinCost};
///
/// let cost = <DefaultCost as JoinCost<Interval>>::join_cost;
/// assert_eq!(cost(&Interval::new(0, 9), &Interval::new(2, 3)), 0);
/// assert_eq!(cost(&Interval::new(0, 1), &Interval::new(2, 3)), 1);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct DefaultCost;

impl<D: Lattice> JoinCost<D> for DefaultCost {
    fn join_cost(a: &D, b: &D) -> u64 {
        if a.leq(b) || b.leq(a) { 0 } else { 1 }
    }
}

/// A disjunction of at most `N` elements of `D` (`N >= 1`), merged by cost `C`.
///
/// # Representation
///
/// The disjuncts form a canonical antichain: no bottom element, none below another, sorted by
/// `D`'s `Ord` (any deterministic total order), at most `N` of them. The empty disjunction is
/// the bottom. Canonical form makes `Eq` the lattice equality.
///
/// # Laws
///
/// The order is Hoare's: `a ⊑ b` iff every disjunct of `a` is below some disjunct of `b`. The
/// join is the union, made canonical, with the cheapest pairs merged while there are more than
/// `N`; it is an upper bound, commutative and idempotent, and least whenever no merge happens.
/// The meet takes the pairwise meets and canonicalises them the same way: it over-approximates
/// the intersection of the represented sets but, once merged, need not be below both operands.
/// Hence [`Lattice::EXACT`] is `false`. Both are exact when the operands are comparable.
///
/// # Widening
///
/// `a.widen(b)` is `a` when `b ⊑ a`. Otherwise let `j = a ⊔ b`. When `j` has as many disjuncts
/// as `a` and each disjunct of `a` is below the disjunct of `j` in the same (sorted) position,
/// the disjuncts are widened pairwise, `aᵢ ∇ jᵢ`; else everything collapses into the single
/// disjunct `hull(a) ∇ hull(j)` (`hull` joining the disjuncts in `D`). Both results are upper
/// bounds of `a` and `b`. Termination: along a widening sequence the number of disjuncts never
/// grows, so it is eventually constant; from then on each disjunct follows a widening sequence
/// of `D` over an increasing chain (each `jᵢ` is below the next step's `jᵢ`), or, with a single
/// disjunct, over the increasing chain of hulls; so it stabilises whenever `D`'s widening does.
/// Narrowing keeps `self`.
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{FiniteSum, Interval, Lattice, Top};
///
/// type Sum2 = FiniteSum<Interval, 2>;
///
/// let zero = Sum2::single(Interval::constant(0));
/// let ten = Sum2::single(Interval::constant(10));
/// let both = zero.join(&ten);
/// assert_eq!(both.values(), [Interval::constant(0), Interval::constant(10)]);
/// assert_eq!(both.hull(), Interval::new(0, 10));
/// assert!(zero.leq(&both) && !both.leq(&zero));
/// assert_eq!(both.to_string(), "[0, 0] ∨ [10, 10]");
///
/// // A third disjunct does not fit: the first pair of the cheapest ones is merged.
/// let three = both.join(&Sum2::single(Interval::constant(20)));
/// assert_eq!(three.values(), [Interval::new(0, 10), Interval::constant(20)]);
/// assert!(!<Sum2 as Lattice>::EXACT);
///
/// // The meet is pairwise; empty meets are dropped.
/// let small = Sum2::single(Interval::new(-5, 5));
/// assert_eq!(both.meet(&small), zero);
///
/// // Disjuncts that grow in place are widened one by one.
/// let grown = Sum2::from_values([Interval::new(-1, 0), Interval::new(10, 11)]);
/// let w = both.widen(&grown);
/// assert_eq!(w.values(), [Interval::new(i64::MIN, 0), Interval::new(10, i64::MAX)]);
/// assert_eq!(Sum2::top().values(), [Interval::top()]);
/// ```
pub struct FiniteSum<D, const N: usize, C = DefaultCost> {
    values: Vec<D>,
    cost: PhantomData<fn() -> C>,
}

impl<D: Clone, const N: usize, C> Clone for FiniteSum<D, N, C> {
    fn clone(&self) -> Self {
        FiniteSum {
            values: self.values.clone(),
            cost: PhantomData,
        }
    }
}

impl<D: PartialEq, const N: usize, C> PartialEq for FiniteSum<D, N, C> {
    fn eq(&self, other: &Self) -> bool {
        self.values == other.values
    }
}

impl<D: Eq, const N: usize, C> Eq for FiniteSum<D, N, C> {}

impl<D: Hash, const N: usize, C> Hash for FiniteSum<D, N, C> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.values.hash(state);
    }
}

impl<D: Debug, const N: usize, C> Debug for FiniteSum<D, N, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("FiniteSum").field(&self.values).finish()
    }
}

impl<D: Lattice + Ord, const N: usize, C: JoinCost<D>> FiniteSum<D, N, C> {
    /// The disjunction of `values`, made canonical (and merged down to `N` disjuncts).
    ///
    /// Bottom elements, duplicates and elements below another are dropped (see
    /// [`canonical_disjuncts`]); no values, or only bottoms, give the bottom. A `FiniteSum`
    /// with `N = 0` fails to compile here.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{FiniteSum, Interval, Lattice};
    ///
    /// let s = FiniteSum::<Interval, 3>::from_values([
    ///     Interval::new(5, 6),
    ///     Interval::empty(),
    ///     Interval::new(0, 1),
    ///     Interval::constant(0),
    /// ]);
    /// assert_eq!(s.values(), [Interval::new(0, 1), Interval::new(5, 6)]);
    /// assert!(FiniteSum::<Interval, 3>::from_values([]).is_bottom());
    /// // Over `N` disjuncts, pairs are merged until `N` are left.
    /// let one =
    ///     FiniteSum::<Interval, 1>::from_values([Interval::constant(9), Interval::constant(2)]);
    /// assert_eq!(one.values(), [Interval::new(2, 9)]);
    /// ```
    pub fn from_values(values: impl IntoIterator<Item = D>) -> Self {
        const { assert!(N > 0, "a FiniteSum needs room for at least one disjunct") };
        FiniteSum {
            values: canonical_disjuncts::<D, C>(values.into_iter().collect(), N),
            cost: PhantomData,
        }
    }

    /// The single disjunct `x` (or bottom when `x` is bottom).
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{FiniteSum, Lattice, Sign};
    ///
    /// let s = FiniteSum::<Sign, 2>::single(Sign::Pos);
    /// assert_eq!(s.values(), [Sign::Pos]);
    /// assert!(FiniteSum::<Sign, 2>::single(Sign::Bottom).is_bottom());
    /// ```
    pub fn single(x: D) -> Self {
        FiniteSum::from_values([x])
    }

    /// The disjuncts: a sorted antichain of at most `N` non-bottom elements; empty for the
    /// bottom.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{FiniteSum, Lattice, Sign};
    ///
    /// let s = FiniteSum::<Sign, 3>::from_values([Sign::Pos, Sign::Neg, Sign::Pos]);
    /// assert_eq!(s.values(), [Sign::Neg, Sign::Pos]);
    /// assert!(FiniteSum::<Sign, 3>::bottom().values().is_empty());
    /// ```
    pub fn values(&self) -> &[D] {
        &self.values
    }

    /// The join of all disjuncts in `D`: what the disjunction weighs in `D` alone. `D`'s bottom
    /// for the empty disjunction.
    ///
    /// # Examples
    ///
    /// ```rust
    /// use absinthe::lattice::{FiniteSum, Interval, Lattice};
    ///
    /// let s =
    ///     FiniteSum::<Interval, 2>::from_values([Interval::constant(3), Interval::constant(8)]);
    /// assert_eq!(s.hull(), Interval::new(3, 8));
    /// assert_eq!(FiniteSum::<Interval, 2>::bottom().hull(), Interval::empty());
    /// ```
    pub fn hull(&self) -> D {
        self.values.iter().fold(D::bottom(), |acc, x| acc.join(x))
    }
}

/// The canonical form of a disjunction of at most `bound` disjuncts (the work of
/// [`FiniteSum::from_values`], for a bound known only at run time, as an interpreter of `.dom`
/// files has it): sorts, drops bottoms, duplicates and subsumed elements, then merges the
/// cheapest pairs by `C` down to `bound` disjuncts. A `bound` of 0 is read as 1.
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{DefaultCost, Interval, canonical_disjuncts};
///
/// let v = vec![
///     Interval::constant(7),
///     Interval::empty(),
///     Interval::new(0, 2),
///     Interval::constant(1),
///     Interval::constant(7),
/// ];
/// let canon = canonical_disjuncts::<Interval, DefaultCost>(v.clone(), 3);
/// assert_eq!(canon, [Interval::new(0, 2), Interval::constant(7)]);
/// let merged = canonical_disjuncts::<Interval, DefaultCost>(v.clone(), 1);
/// assert_eq!(merged, [Interval::new(0, 7)]);
/// assert_eq!(canonical_disjuncts::<Interval, DefaultCost>(v, 0), merged);
/// ```
pub fn canonical_disjuncts<D: Lattice + Ord, C: JoinCost<D>>(
    mut values: Vec<D>,
    bound: usize,
) -> Vec<D> {
    loop {
        values.retain(|x| !x.is_bottom());
        values.sort();
        values.dedup();
        let maximal: Vec<bool> = values
            .iter()
            .map(|x| !values.iter().any(|y| x != y && x.leq(y)))
            .collect();
        let mut keep = maximal.iter();
        values.retain(|_| *keep.next().expect("one flag per value"));
        if values.len() <= bound.max(1) {
            return values;
        }
        let mut best: Option<(u64, usize, usize)> = None;
        for i in 0..values.len() {
            for j in i + 1..values.len() {
                let cost = C::join_cost(&values[i], &values[j]);
                if best.is_none_or(|(c, _, _)| cost < c) {
                    best = Some((cost, i, j));
                }
            }
        }
        let (_, i, j) = best.expect("at least two values");
        let merged = values[i].join(&values[j]);
        values.remove(j);
        values[i] = merged;
    }
}

impl<D: Lattice + Ord, const N: usize, C: JoinCost<D>> Lattice for FiniteSum<D, N, C> {
    const FINITE_HEIGHT: bool = D::FINITE_HEIGHT;
    const EXACT: bool = false;

    fn bottom() -> Self {
        FiniteSum {
            values: Vec::new(),
            cost: PhantomData,
        }
    }

    fn is_bottom(&self) -> bool {
        self.values.is_empty()
    }

    fn leq(&self, other: &Self) -> bool {
        self.values
            .iter()
            .all(|x| other.values.iter().any(|y| x.leq(y)))
    }

    fn join(&self, other: &Self) -> Self {
        FiniteSum::from_values(self.values.iter().chain(&other.values).cloned())
    }

    fn meet(&self, other: &Self) -> Self {
        FiniteSum::from_values(
            self.values
                .iter()
                .flat_map(|x| other.values.iter().map(move |y| x.meet(y))),
        )
    }

    fn widen(&self, newer: &Self) -> Self {
        self.widen_by(newer, |a, b| a.widen(b))
    }

    fn widen_with_thresholds(&self, newer: &Self, thresholds: &super::Thresholds) -> Self {
        self.widen_by(newer, |a, b| a.widen_with_thresholds(b, thresholds))
    }
}

impl<D: Lattice + Ord, const N: usize, C: JoinCost<D>> FiniteSum<D, N, C> {
    /// The widening described on [`FiniteSum`], with `widen` as `D`'s widening.
    fn widen_by(&self, newer: &Self, widen: impl Fn(&D, &D) -> D) -> Self {
        FiniteSum {
            values: widen_disjuncts::<D, C>(&self.values, &newer.values, N, widen),
            cost: PhantomData,
        }
    }
}

/// [`FiniteSum`]'s widening on canonical disjuncts of at most `bound` elements (see
/// [`canonical_disjuncts`]), with `widen` as `D`'s widening: pointwise when the join keeps the
/// older disjuncts apart, else one disjunct, the widened hulls. When every disjunct of `newer`
/// is below one of `older`, the result is `older` itself.
///
/// # Examples
///
/// ```rust
/// use absinthe::lattice::{DefaultCost, Interval, Lattice, widen_disjuncts};
///
/// let widen = |a: &Interval, b: &Interval| a.widen(b);
/// let older = [Interval::constant(0), Interval::constant(10)];
/// // Each disjunct grew in place: they are widened one by one.
/// let newer = [Interval::new(-1, 0), Interval::new(10, 11)];
/// assert_eq!(
///     widen_disjuncts::<Interval, DefaultCost>(&older, &newer, 3, widen),
///     [Interval::new(i64::MIN, 0), Interval::new(10, i64::MAX)]
/// );
/// // A new disjunct appeared: one disjunct is left, the widened hulls.
/// let newer = [Interval::constant(20)];
/// assert_eq!(
///     widen_disjuncts::<Interval, DefaultCost>(&older, &newer, 3, widen),
///     [Interval::new(0, i64::MAX)]
/// );
/// // Nothing new: `older` comes back.
/// let newer = [Interval::constant(10)];
/// assert_eq!(widen_disjuncts::<Interval, DefaultCost>(&older, &newer, 3, widen), older);
/// ```
pub fn widen_disjuncts<D: Lattice + Ord, C: JoinCost<D>>(
    older: &[D],
    newer: &[D],
    bound: usize,
    widen: impl Fn(&D, &D) -> D,
) -> Vec<D> {
    if newer.iter().all(|x| older.iter().any(|y| x.leq(y))) {
        return older.to_vec();
    }
    let joined = canonical_disjuncts::<D, C>(older.iter().chain(newer).cloned().collect(), bound);
    let matched = joined.len() == older.len() && older.iter().zip(&joined).all(|(a, j)| a.leq(j));
    if matched {
        let widened = older
            .iter()
            .zip(&joined)
            .map(|(a, j)| widen(a, j))
            .collect();
        canonical_disjuncts::<D, C>(widened, bound)
    } else {
        let hull = |xs: &[D]| xs.iter().fold(D::bottom(), |acc, x| acc.join(x));
        canonical_disjuncts::<D, C>(vec![widen(&hull(older), &hull(&joined))], bound)
    }
}

impl<D: Top + Ord, const N: usize, C: JoinCost<D>> Top for FiniteSum<D, N, C> {
    fn top() -> Self {
        FiniteSum::single(D::top())
    }

    fn is_top(&self) -> bool {
        matches!(self.values.as_slice(), [x] if x.is_top())
    }
}

impl<D: Display, const N: usize, C> Display for FiniteSum<D, N, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.values.is_empty() {
            return f.write_str("⊥");
        }
        for (i, x) in self.values.iter().enumerate() {
            if i > 0 {
                f.write_str(" ∨ ")?;
            }
            Display::fmt(x, f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lattice::Interval;

    type Sum3 = FiniteSum<Interval, 3>;

    fn iv(lo: i64, hi: i64) -> Interval {
        Interval::new(lo, hi)
    }

    #[test]
    fn canonical_form_drops_bottom_and_subsumed_disjuncts() {
        let s = Sum3::from_values([iv(5, 6), Interval::empty(), iv(0, 1), iv(0, 0), iv(5, 6)]);
        assert_eq!(s.values(), [iv(0, 1), iv(5, 6)]);
        assert_eq!(s.to_string(), "[0, 1] ∨ [5, 6]");
        assert_eq!(Sum3::from_values([Interval::empty()]), Sum3::bottom());
    }

    #[test]
    fn join_merges_when_more_than_n_disjuncts() {
        let a = Sum3::from_values([iv(0, 0), iv(10, 10)]);
        let b = Sum3::from_values([iv(20, 20), iv(30, 30)]);
        let j = a.join(&b);
        // Four incomparable disjuncts cost 1 each; the first pair in order is merged.
        assert_eq!(j.values(), [iv(0, 10), iv(20, 20), iv(30, 30)]);
        assert!(a.leq(&j) && b.leq(&j));
        // Merging repeats until at most N disjuncts are left.
        let k = FiniteSum::<Interval, 1>::from_values([iv(0, 0), iv(10, 10), iv(5, 5)]);
        assert_eq!(k.values(), [iv(0, 10)]);
    }

    /// Merges the pair of intervals with the smallest gap between them first.
    struct Gap;

    impl JoinCost<Interval> for Gap {
        fn join_cost(a: &Interval, b: &Interval) -> u64 {
            let (Some((alo, ahi)), Some((blo, bhi))) = (a.bounds(), b.bounds()) else {
                return 0;
            };
            let gap = i128::from(blo.max(alo)) - i128::from(ahi.min(bhi));
            gap.clamp(0, i128::from(u64::MAX)) as u64
        }
    }

    #[test]
    fn a_custom_cost_chooses_the_merge() {
        let s = FiniteSum::<Interval, 2, Gap>::from_values([iv(0, 0), iv(50, 50), iv(52, 52)]);
        assert_eq!(s.values(), [iv(0, 0), iv(50, 52)]);
    }

    #[test]
    fn meet_is_pairwise() {
        let a = Sum3::from_values([iv(0, 5), iv(10, 15)]);
        let b = Sum3::from_values([iv(4, 11)]);
        assert_eq!(a.meet(&b).values(), [iv(4, 5), iv(10, 11)]);
    }

    #[test]
    fn widening_is_pointwise_when_disjuncts_match_and_collapses_otherwise() {
        let a = Sum3::from_values([iv(0, 0), iv(10, 10)]);
        assert_eq!(a.widen(&Sum3::single(iv(0, 0))), a);
        // Each disjunct grows in place: widen them one by one.
        let w = a.widen(&Sum3::from_values([iv(-1, 0), iv(10, 11)]));
        assert_eq!(w.values(), [iv(i64::MIN, 0), iv(10, i64::MAX)]);
        // A new disjunct appears: collapse to the widened hull.
        let w = a.widen(&Sum3::from_values([iv(20, 20)]));
        assert_eq!(w.values(), [iv(0, i64::MAX)]);
        assert!(Sum3::top().is_top());
    }
}
