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
    proptest::sample::select(vec![Op::Lt, Op::Le, Op::Gt, Op::Ge, Op::Eq, Op::Ne])
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
