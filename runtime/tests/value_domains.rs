//! Soundness of the value domains against the concrete semantics of every operation: `binary`
//! and `assume` must contain every concrete outcome of values drawn from their arguments.

use absinthe::lattice::{Flat, Interval, Lattice};
use absinthe::program::Op;
use absinthe::value::{Concrete, ValueDomain};
use proptest::prelude::*;

/// Integers mixing small values with the extremes, where overflow happens.
fn int() -> impl Strategy<Value = i64> {
    prop_oneof![
        4 => -20i64..20,
        1 => Just(i64::MIN),
        1 => Just(i64::MAX),
        1 => i64::MIN..i64::MIN + 4,
        1 => i64::MAX - 4..=i64::MAX,
        1 => any::<i64>(),
    ]
}

/// Where a member is picked inside its interval: often at an end, where mistakes hide.
fn position() -> impl Strategy<Value = u8> {
    prop_oneof![Just(0u8), Just(255u8), Just(1u8), Just(254u8), any::<u8>()]
}

/// An interval with two concrete members.
fn interval_with_members() -> impl Strategy<Value = (Interval, i64, i64)> {
    (int(), int(), position(), position()).prop_map(|(a, b, p, q)| {
        let (lo, hi) = (a.min(b), a.max(b));
        let width = (i128::from(hi) - i128::from(lo)) as u128;
        let pick = |r: u8| -> i64 {
            let offset = width * u128::from(r) / 255;
            (i128::from(lo) + offset as i128) as i64
        };
        (Interval::new(lo, hi), pick(p), pick(q))
    })
}

fn op() -> impl Strategy<Value = Op> {
    proptest::sample::select(Op::ALL.to_vec())
}

fn comparison() -> impl Strategy<Value = Op> {
    proptest::sample::select(
        Op::ALL
            .into_iter()
            .filter(|op| op.is_comparison())
            .collect::<Vec<_>>(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn interval_binary_is_sound(
        (a, x, _) in interval_with_members(),
        (b, y, _) in interval_with_members(),
        op in op(),
    ) {
        if let Some(z) = op.eval(x, y) {
            let r = Interval::binary(op, &a, &b);
            prop_assert!(r.contains(z), "{a} {op} {b} = {r} misses {x} {op} {y} = {z}");
        }
    }

    #[test]
    fn interval_assume_is_sound(
        (a, x, _) in interval_with_members(),
        (b, y, _) in interval_with_members(),
        op in comparison(),
    ) {
        let (ra, rb) = Interval::assume(op, &a, &b);
        prop_assert!(ra.leq(&a) && rb.leq(&b));
        if op.eval(x, y) == Some(1) {
            prop_assert!(ra.contains(x) && rb.contains(y),
                "assume {a} {op} {b} gave ({ra}, {rb}) which loses {x} {op} {y}");
        }
    }

    #[test]
    fn flat_binary_and_assume_are_sound(x in int(), y in int(), op in op(), cmp in comparison(),
                                         top_a in any::<bool>(), top_b in any::<bool>()) {
        let a = if top_a { Flat::Top } else { Flat::Value(x) };
        let b = if top_b { Flat::Top } else { Flat::Value(y) };
        if let Some(z) = op.eval(x, y) {
            prop_assert!(Flat::binary(op, &a, &b).contains(z));
        }
        let (ra, rb) = Flat::assume(cmp, &a, &b);
        if cmp.eval(x, y) == Some(1) {
            prop_assert!(ra.contains(x) && rb.contains(y));
        }
    }
}

#[test]
fn interval_refines_branches() {
    let x = Interval::new(0, 100);
    let ten = Interval::constant(10);
    let (taken, _) = Interval::assume(Op::Lt, &x, &ten);
    assert_eq!(taken, Interval::new(0, 9));
    let (not_taken, _) = Interval::assume(Op::Ge, &x, &ten);
    assert_eq!(not_taken, Interval::new(10, 100));
    let (ne, _) = Interval::assume(Op::Ne, &Interval::new(10, 20), &ten);
    assert_eq!(ne, Interval::new(11, 20));
    // Nothing is below i64::MIN.
    let (empty, _) = Interval::assume(Op::Lt, &x, &Interval::constant(i64::MIN));
    assert!(empty.is_bottom());
}

#[test]
fn interval_arithmetic_that_may_wrap_is_top() {
    let big = Interval::new(i64::MAX - 1, i64::MAX);
    assert_eq!(
        Interval::binary(Op::Add, &big, &Interval::constant(1)),
        Interval::top()
    );
    assert_eq!(
        Interval::binary(Op::Add, &Interval::new(1, 2), &Interval::new(3, 4)),
        Interval::new(4, 6)
    );
    // Division by an interval straddling zero skips zero.
    assert_eq!(
        Interval::binary(Op::Div, &Interval::new(10, 20), &Interval::new(-2, 2)),
        Interval::new(-20, 20)
    );
    // Division by exactly zero always traps: nothing flows out.
    assert!(Interval::binary(Op::Div, &Interval::new(1, 2), &Interval::constant(0)).is_bottom());
}

#[test]
fn unsigned_and_fixed_width_ops_evaluate_like_llvm() {
    assert_eq!(Op::ULt.eval(-1, 1), Some(0));
    assert_eq!(Op::UGt.eval(-1, 1), Some(1));
    assert_eq!(Op::UDiv.eval(-2, 2), Some(i64::MAX));
    assert_eq!(Op::URem.eval(-1, 10), Some(5)); // 2^64 - 1 = 18446744073709551615
    assert_eq!(Op::UDiv.eval(1, 0), None);
    assert_eq!(Op::LShr.eval(-1, 60), Some(15));
    assert_eq!(Op::Trunc.eval(255, 8), Some(-1));
    assert_eq!(Op::Trunc.eval(128, 8), Some(-128));
    assert_eq!(Op::Trunc.eval(0x1_0000_0005, 32), Some(5));
    assert_eq!(Op::Trunc.eval(7, 64), Some(7));
    assert_eq!(Op::Trunc.eval(3, 1), Some(-1));
    for op in Op::ALL {
        assert_eq!(Op::from_symbol(op.symbol()), Some(op));
        if let Some(negated) = op.negated() {
            assert_eq!(negated.eval(-3, 5), op.eval(-3, 5).map(|v| 1 - v), "{op}");
        }
        if let Some(swapped) = op.swapped() {
            assert_eq!(swapped.eval(5, -3), op.eval(-3, 5), "{op}");
        }
    }
}

#[test]
fn interval_reasons_about_unsigned_comparisons_and_widths() {
    let i8_range = Interval::new(-128, 127);
    // Any value truncated to 8 bits lies in the i8 range; one already there is kept.
    assert_eq!(
        Interval::binary(Op::Trunc, &Interval::top(), &Interval::constant(8)),
        i8_range
    );
    assert_eq!(
        Interval::binary(Op::Trunc, &Interval::new(-3, 9), &Interval::constant(8)),
        Interval::new(-3, 9)
    );
    // A bounds check `i ult n` taken gives 0 <= i < n, even when i may be negative.
    let (i, _) = Interval::assume(Op::ULt, &Interval::top(), &Interval::new(0, 10));
    assert_eq!(i, Interval::new(0, 9));
    // Negative numbers are huge when unsigned.
    assert_eq!(
        Interval::binary(Op::UGt, &Interval::new(-5, -1), &Interval::new(0, 1000)),
        Interval::constant(1)
    );
    assert_eq!(
        Interval::binary(Op::LShr, &Interval::new(-8, -1), &Interval::constant(62)),
        Interval::constant(3)
    );
    assert_eq!(
        Interval::binary(Op::URem, &Interval::top(), &Interval::new(1, 16)),
        Interval::new(0, 15)
    );
    assert_eq!(
        Interval::binary(Op::Shl, &Interval::new(0, 10), &Interval::constant(2)),
        Interval::new(0, 40)
    );
}

#[test]
fn flat_folds_operations_one_operand_decides() {
    let top = Flat::<i64>::Top;
    assert_eq!(Flat::binary(Op::Mul, &top, &Flat::Value(0)), Flat::Value(0));
    assert_eq!(Flat::binary(Op::And, &Flat::Value(0), &top), Flat::Value(0));
    assert_eq!(
        Flat::binary(Op::Or, &top, &Flat::Value(-1)),
        Flat::Value(-1)
    );
    assert_eq!(Flat::binary(Op::ULt, &top, &Flat::Value(0)), Flat::Value(0));
    assert_eq!(Flat::binary(Op::Add, &top, &Flat::Value(0)), top);
    assert_eq!(
        Flat::binary(Op::Mul, &Flat::Bottom, &Flat::Value(0)),
        Flat::Bottom
    );
}
