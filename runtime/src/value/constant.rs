//! Flat integer constants as a [`ValueDomain`]: constant propagation.

use super::ValueDomain;
use crate::lattice::{Flat, Lattice};
use crate::program::Op;

/// Constant propagation's conventions: an operation with a bottom operand gives bottom ("no
/// information yet"), otherwise one with a top operand gives top ("not a constant"), otherwise it
/// folds; an operation that traps on its constants (division by zero) gives bottom, since no value
/// flows out of it.
impl ValueDomain for Flat<i64> {
    fn constant(c: i64) -> Flat<i64> {
        Flat::Value(c)
    }

    fn binary(op: Op, a: &Flat<i64>, b: &Flat<i64>) -> Flat<i64> {
        match (a, b) {
            (Flat::Bottom, _) | (_, Flat::Bottom) => Flat::Bottom,
            (Flat::Top, _) | (_, Flat::Top) => Flat::Top,
            (Flat::Value(x), Flat::Value(y)) => op.eval(*x, *y).map_or(Flat::Bottom, Flat::Value),
        }
    }

    fn assume(op: Op, a: &Flat<i64>, b: &Flat<i64>) -> (Flat<i64>, Flat<i64>) {
        match op {
            // Equal values: each side is at most what the other is.
            Op::Eq => {
                let both = a.meet(b);
                (both.clone(), both)
            }
            _ => (a.clone(), b.clone()),
        }
    }
}
