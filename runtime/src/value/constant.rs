//! Flat integer constants as a [`ValueDomain`]: constant propagation.

use super::ValueDomain;
use crate::lattice::{Flat, Lattice};
use crate::program::Op;

/// Constant propagation's conventions: an operation with a bottom operand gives bottom ("no
/// information yet"), otherwise one with a top operand gives top ("not a constant") unless the
/// other operand decides the result alone (`x * 0`, `x & 0`, `x | -1`, `0 << x`, `x ult 0`, …),
/// otherwise it folds; an operation that traps on its constants (division by zero) gives bottom,
/// since no value flows out of it.
impl ValueDomain for Flat<i64> {
    // Each `rules_*` sits just above the function it names, so that its location leads there.
    fn rules_constant() -> Vec<String> {
        vec![format!(
            "the built-in literal rule of `Flat<i64>` at {}:{}",
            file!(),
            line!()
        )]
    }

    fn constant(c: i64) -> Flat<i64> {
        Flat::Value(c)
    }

    fn rules_binary(op: Op) -> Vec<String> {
        vec![format!(
            "the built-in `{op}` of `Flat<i64>` at {}:{}",
            file!(),
            line!()
        )]
    }

    fn binary(op: Op, a: &Flat<i64>, b: &Flat<i64>) -> Flat<i64> {
        match (a, b) {
            (Flat::Bottom, _) | (_, Flat::Bottom) => Flat::Bottom,
            (Flat::Top, Flat::Value(y)) => {
                absorbed(op, None, Some(*y)).map_or(Flat::Top, Flat::Value)
            }
            (Flat::Value(x), Flat::Top) => {
                absorbed(op, Some(*x), None).map_or(Flat::Top, Flat::Value)
            }
            (Flat::Top, Flat::Top) => Flat::Top,
            (Flat::Value(x), Flat::Value(y)) => op.eval(*x, *y).map_or(Flat::Bottom, Flat::Value),
        }
    }

    fn rules_assume(op: Op) -> Vec<String> {
        vec![format!(
            "the built-in branch refinement on `{op}` of `Flat<i64>` at {}:{}",
            file!(),
            line!()
        )]
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

/// The result of `a op b` when the one known operand decides it whatever the other is (for
/// operations that do not trap, or whose only non-trapping results are that value).
fn absorbed(op: Op, a: Option<i64>, b: Option<i64>) -> Option<i64> {
    match (op, a, b) {
        (Op::Mul | Op::And, Some(0), _) | (Op::Mul | Op::And, _, Some(0)) => Some(0),
        (Op::Or, Some(-1), _) | (Op::Or, _, Some(-1)) => Some(-1),
        // Shifting zero, or dividing it (a zero divisor traps and gives no value).
        (Op::Shl | Op::Shr | Op::LShr | Op::Div | Op::UDiv | Op::Rem | Op::URem, Some(0), _) => {
            Some(0)
        }
        (Op::Shr, Some(-1), _) => Some(-1),
        (Op::Rem | Op::URem, _, Some(1)) | (Op::Rem, _, Some(-1)) => Some(0),
        // Nothing is below zero, and everything is at most `u64::MAX`, when unsigned.
        (Op::ULt, _, Some(0)) | (Op::UGt, Some(0), _) => Some(0),
        (Op::UGe, _, Some(0)) | (Op::ULe, Some(0), _) => Some(1),
        (Op::ULe, _, Some(-1)) | (Op::UGe, Some(-1), _) => Some(1),
        (Op::UGt, _, Some(-1)) | (Op::ULt, Some(-1), _) => Some(0),
        _ => None,
    }
}
