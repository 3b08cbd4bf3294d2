//! Soundness of the value domains against the concrete semantics of every operation: `binary`
//! and `assume` must contain every concrete outcome of values drawn from their arguments.

use absinthe::lattice::{Congruence, FiniteSum, Flat, Interval, Lattice, Parity, Sign};
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

/// A congruence class with a member: constants, small moduli, powers of two and multiples of
/// them, so that wrapping arithmetic meets odd factors and exact classes alike.
fn congruence_with_member() -> impl Strategy<Value = (Congruence, i64)> {
    let modulus = prop_oneof![
        1 => Just(0u64),
        2 => 1u64..17,
        2 => (0u32..64).prop_map(|k| 1u64 << k),
        1 => (0u32..62, 1u64..4).prop_map(|(k, f)| (2 * f + 1) << k),
        1 => any::<u64>(),
    ];
    (modulus, int(), -3i64..4).prop_map(|(m, x, t)| {
        // Another member than the one the class is built from, where one fits.
        let other = i64::try_from(i128::from(x) + i128::from(m) * i128::from(t)).unwrap_or(x);
        (Congruence::new(m, x), other)
    })
}

/// A set of signs holding `x`, often just its sign.
fn sign_with_member() -> impl Strategy<Value = (Sign, i64)> {
    let signs = [Sign::Neg, Sign::Zero, Sign::Pos, Sign::Bottom];
    (int(), proptest::sample::select(signs.to_vec()))
        .prop_map(|(x, more)| (Sign::of(x).join(&more), x))
}

/// A parity holding `x`, sometimes top.
fn parity_with_member() -> impl Strategy<Value = (Parity, i64)> {
    (int(), any::<bool>()).prop_map(|(x, top)| (if top { Parity::Top } else { Parity::of(x) }, x))
}

/// `binary` and `assume` of domain `D` contain every concrete outcome of `x` and `y`.
fn sound<D: ValueDomain>(a: &D, x: i64, b: &D, y: i64, op: Op) -> Result<(), TestCaseError> {
    prop_assert!(a.contains(x) && b.contains(y), "the strategy gives members");
    if let Some(z) = op.eval(x, y) {
        let r = D::binary(op, a, b);
        prop_assert!(
            r.contains(z),
            "{a} {op} {b} = {r} misses {x} {op} {y} = {z}"
        );
    }
    if op.is_comparison() {
        let (ra, rb) = D::assume(op, a, b);
        prop_assert!(
            ra.leq(a) && rb.leq(b),
            "assume {a} {op} {b} gave ({ra}, {rb}), not below"
        );
        if op.eval(x, y) == Some(1) {
            prop_assert!(
                ra.contains(x) && rb.contains(y),
                "assume {a} {op} {b} gave ({ra}, {rb}) which loses {x} {op} {y}"
            );
        }
    }
    Ok(())
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
    #[test]
    fn congruence_binary_and_assume_are_sound(
        (a, x) in congruence_with_member(), (b, y) in congruence_with_member(), op in op(),
    ) {
        sound(&a, x, &b, y, op)?;
    }

    #[test]
    fn sign_binary_and_assume_are_sound(
        (a, x) in sign_with_member(), (b, y) in sign_with_member(), op in op(),
    ) {
        sound(&a, x, &b, y, op)?;
    }

    #[test]
    fn finite_sum_binary_and_assume_are_sound(
        (a1, x, _) in interval_with_members(), (a2, _, _) in interval_with_members(),
        (b1, y, _) in interval_with_members(), (b2, _, _) in interval_with_members(),
        op in op(),
    ) {
        let a = FiniteSum::<Interval, 2>::from_values([a1, a2]);
        let b = FiniteSum::<Interval, 2>::from_values([b2, b1]);
        sound(&a, x, &b, y, op)?;
    }

    #[test]
    fn parity_binary_and_assume_are_sound(
        (a, x) in parity_with_member(), (b, y) in parity_with_member(), op in op(),
    ) {
        sound(&a, x, &b, y, op)?;
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

/// `&`, `|` and `^` of values that fit in `n + 1` signed bits fit there too, and the interval
/// says so: every pair of intervals within `[-8, 7]`, every pair of their members.
#[test]
fn interval_bitwise_operations_keep_a_signed_width() {
    let intervals: Vec<(i64, i64)> = (-8..=7)
        .flat_map(|lo| (lo..=7).map(move |hi| (lo, hi)))
        .collect();
    for op in [Op::And, Op::Or, Op::Xor] {
        for &(a0, a1) in &intervals {
            for &(b0, b1) in &intervals {
                let abs = Interval::binary(op, &Interval::new(a0, a1), &Interval::new(b0, b1));
                // Nothing wider than the operands' width: within `[-8, 7]`.
                assert!(
                    Interval::new(-8, 7).join(&abs) == Interval::new(-8, 7),
                    "{op} [{a0}, {a1}] [{b0}, {b1}]: {abs}"
                );
                for x in a0..=a1 {
                    for y in b0..=b1 {
                        let v = op.eval(x, y).expect("bitwise operations never trap");
                        assert!(abs.contains(v), "{op} {x} {y} = {v} not in {abs}");
                    }
                }
            }
        }
    }
    // The floating-point operations' integer results: a comparison's outcome bit, a
    // conversion's width.
    let any = Interval::top();
    assert_eq!(Interval::binary(Op::FCmp, &any, &any), Interval::new(1, 8));
    assert_eq!(
        Interval::binary(Op::FPToSI, &any, &Interval::constant(8)),
        Interval::new(-128, 127)
    );
    assert_eq!(
        Interval::binary(Op::FBits, &any, &Interval::constant(32)),
        Interval::new(i64::from(i32::MIN), i64::from(i32::MAX))
    );
}

/// The floating-point operations on doubles' bits, against Rust's own arithmetic.
#[test]
fn float_ops_evaluate_on_the_bits_of_doubles() {
    let d = |x: f64| x.to_bits() as i64;
    assert_eq!(Op::FAdd.eval(d(0.1), d(0.2)), Some(d(0.1 + 0.2)));
    assert_eq!(Op::FDiv.eval(d(1.0), d(0.0)), Some(d(f64::INFINITY)));
    assert_eq!(Op::FRem.eval(d(-3.0), d(2.0)), Some(d(-1.0)));
    // Outcomes: 1 equal, 2 greater, 4 less, 8 unordered; -0.0 equals 0.0.
    assert_eq!(Op::FCmp.eval(d(-0.0), d(0.0)), Some(1));
    assert_eq!(Op::FCmp.eval(d(2.0), d(1.0)), Some(2));
    assert_eq!(Op::FCmp.eval(d(1.0), d(2.0)), Some(4));
    assert_eq!(Op::FCmp.eval(d(f64::NAN), d(1.0)), Some(8));
    // 0.1 rounded to single precision, and single-precision conversions in one rounding.
    assert_eq!(Op::FPTrunc.eval(d(0.1), 32), Some(d(f64::from(0.1f32))));
    assert_eq!(Op::FPTrunc.eval(d(0.1), 64), Some(d(0.1)));
    assert_eq!(Op::SIToFP.eval(-5, 64), Some(d(-5.0)));
    assert_eq!(Op::UIToFP.eval(-1, 64), Some(d(18446744073709551615.0)));
    assert_eq!(
        Op::SIToFP.eval(i64::MAX, 32),
        Some(d(f64::from(9223372036854775807i64 as f32)))
    );
    // Truncation toward zero, in the N-bit form; out of range or NaN is poison (a trap).
    assert_eq!(Op::FPToSI.eval(d(-2.5), 32), Some(-2));
    assert_eq!(Op::FPToSI.eval(d(-1.0), 1), Some(1));
    assert_eq!(Op::FPToUI.eval(d(255.9), 8), Some(-1));
    assert_eq!(Op::FPToUI.eval(d(256.0), 8), None);
    assert_eq!(Op::FPToSI.eval(d(f64::NAN), 32), None);
    assert_eq!(Op::FPToSI.eval(d(1e10), 32), None);
    // Single-precision bits both ways.
    assert_eq!(Op::FBits.eval(d(1.0), 32), Some(0x3F80_0000));
    assert_eq!(Op::FFromBits.eval(0x3F80_0000, 32), Some(d(1.0)));
    assert_eq!(
        Op::FBits.eval(d(-1.0), 32),
        Some(i64::from(0xBF80_0000u32 as i32))
    );
    // Square root and the five roundings of -2.5.
    assert_eq!(Op::FSqrt.eval(d(6.25), 0), Some(d(2.5)));
    let rounded: Vec<f64> = (0..5)
        .map(|m| f64::from_bits(Op::FRound.eval(d(-2.5), m).unwrap() as u64))
        .collect();
    assert_eq!(rounded, [-3.0, -2.0, -2.0, -3.0, -2.0]);
    assert_eq!(Op::FRound.eval(d(-2.5), 9), Some(d(-2.5)));
}
