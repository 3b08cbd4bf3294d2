//! Finite disjunctions as a [`ValueDomain`]: every operation is the disjuncts' domain's on each
//! pair of disjuncts, and the results are kept as a disjunction again (merged down to `N`
//! disjuncts by the sum's join cost). A branch refinement refines each disjunct by every
//! disjunct of the other side, dropping the pairs it finds impossible.

use super::ValueDomain;
use crate::lattice::{FiniteSum, JoinCost};
use crate::program::{Op, SymbolId};

impl<D, const N: usize, C> ValueDomain for FiniteSum<D, N, C>
where
    D: ValueDomain + Ord,
    C: JoinCost<D> + 'static,
{
    fn constant(c: i64) -> Self {
        FiniteSum::single(D::constant(c))
    }

    fn address(symbol: SymbolId) -> Self {
        FiniteSum::single(D::address(symbol))
    }

    fn binary(op: Op, a: &Self, b: &Self) -> Self {
        let pairs = a
            .values()
            .iter()
            .flat_map(|x| b.values().iter().map(move |y| (x, y)));
        FiniteSum::from_values(pairs.map(|(x, y)| D::binary(op, x, y)))
    }

    fn assume(op: Op, a: &Self, b: &Self) -> (Self, Self) {
        // Each disjunct is refined by every disjunct of the other side, and what is left of it
        // is the join of those refinements (bottom when no pair can hold): each side stays one
        // disjunct below each of its own, so below what it was.
        let refine = |xs: &[D], ys: &[D], left: bool| -> Self {
            FiniteSum::from_values(xs.iter().map(|x| {
                ys.iter().fold(D::bottom(), |acc, y| {
                    // `x` is the left operand's disjunct when `left`, else the right one's.
                    let (mine, other) = if left {
                        D::assume(op, x, y)
                    } else {
                        let (ry, rx) = D::assume(op, y, x);
                        (rx, ry)
                    };
                    // A pair the comparison cannot hold for adds nothing.
                    if mine.is_bottom() || other.is_bottom() {
                        acc
                    } else {
                        acc.join(&mine)
                    }
                })
            }))
        };
        (
            refine(a.values(), b.values(), true),
            refine(b.values(), a.values(), false),
        )
    }

    fn rules_binary(op: Op) -> Vec<String> {
        D::rules_binary(op)
    }

    fn rules_constant() -> Vec<String> {
        D::rules_constant()
    }

    fn rules_assume(op: Op) -> Vec<String> {
        D::rules_assume(op)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lattice::Interval;

    #[test]
    fn operations_run_on_each_pair_of_disjuncts() {
        type Two = FiniteSum<Interval, 2>;
        let a = Two::from_values([Interval::constant(0), Interval::constant(10)]);
        let b = Two::constant(1);
        assert_eq!(
            Two::binary(Op::Add, &a, &b).values(),
            [Interval::constant(1), Interval::constant(11)]
        );
        // `x < 5` keeps the disjunct 0 only.
        let (x, five) = Two::assume(Op::Lt, &a, &Two::constant(5));
        assert_eq!(x.values(), [Interval::constant(0)]);
        assert_eq!(five.values(), [Interval::constant(5)]);
    }
}
