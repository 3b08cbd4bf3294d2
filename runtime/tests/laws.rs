//! Every standard lattice checked against the lattice laws by the generic checker, and the
//! checker itself checked against a deliberately broken lattice.

use std::panic::{AssertUnwindSafe, catch_unwind};

use absinthe::lattice::{
    DefaultCost, Dual, FiniteSum, Flat, Interval, Lattice, Lift, MapLattice, Parity, Powerset,
};
use absinthe::laws::strategies::{self, interval};
use absinthe::laws::{check_lattice, check_top, check_widening_terminates};
use proptest::prelude::*;

const CASES: u32 = 256;

#[test]
fn flat() {
    check_lattice(strategies::flat(), CASES);
    check_top(strategies::flat(), CASES);
}

#[test]
fn interval_laws() {
    check_lattice(interval(), CASES);
    check_top(interval(), CASES);
}

#[test]
fn sign() {
    check_lattice(strategies::sign(), CASES);
    check_top(strategies::sign(), CASES);
}

#[test]
fn address() {
    check_lattice(strategies::address(), CASES);
    check_top(strategies::address(), CASES);
}

#[test]
fn parity() {
    check_lattice(strategies::parity(), CASES);
    check_top(strategies::parity(), CASES);
}

#[test]
fn generation() {
    check_lattice(strategies::generation(), CASES);
    check_top(strategies::generation(), CASES);
    // An increasing chain of bounds, widened: it stops after one jump.
    check_widening_terminates(
        |i| absinthe::lattice::Generation::AtMost(u32::try_from(i).unwrap_or(u32::MAX)),
        2,
    );
}

#[test]
fn congruence() {
    check_lattice(strategies::congruence(), CASES);
    check_top(strategies::congruence(), CASES);
}

#[test]
fn powerset() {
    check_lattice::<Powerset<u8>>(strategies::powerset(), CASES);
}

#[test]
fn map_of_flat() {
    check_lattice::<MapLattice<u32, Flat<i64>>>(strategies::map(strategies::flat()), CASES);
}

#[test]
fn map_of_interval() {
    check_lattice::<MapLattice<u32, Interval>>(strategies::map(interval()), CASES);
}

#[test]
fn lift_of_interval() {
    check_lattice::<Lift<Interval>>(strategies::lift(interval()), CASES);
    check_top::<Lift<Interval>>(strategies::lift(interval()), CASES);
}

#[test]
fn dual_of_flat() {
    check_lattice::<Dual<Flat<i64>>>(strategies::dual(strategies::flat()), CASES);
    check_top::<Dual<Flat<i64>>>(strategies::dual(strategies::flat()), CASES);
}

// ANCHOR: check
#[test]
fn finite_sum_of_interval() {
    type Sum = FiniteSum<Interval, 3, DefaultCost>;
    check_lattice::<Sum>(strategies::finite_sum(interval()), CASES);
    check_top::<Sum>(strategies::finite_sum(interval()), CASES);
}
// ANCHOR_END: check

#[test]
fn widenings_terminate_on_infinite_chains() {
    let n = |i: u64| i as i64;
    check_widening_terminates(|i| Interval::new(0, n(i)), 2);
    check_widening_terminates(|i| Interval::new(-n(i), n(i)), 2);
    check_widening_terminates(|i| Lift::Lifted(Interval::new(-n(i), 0)), 2);
    check_widening_terminates(
        |i| -> MapLattice<u32, Interval> {
            (0..4u32)
                .map(|k| (k, Interval::new(0, n(i) * i64::from(k))))
                .collect()
        },
        8,
    );
    // Two disjuncts growing apart, then a third appearing: still finitely many changes.
    check_widening_terminates(
        |i| -> FiniteSum<Interval, 3> {
            let mut values = vec![Interval::new(0, n(i)), Interval::new(1000, 1000 + n(i))];
            if i > 10 {
                values.push(Interval::new(-n(i), -1));
            }
            FiniteSum::from_values(values)
        },
        6,
    );
}

/// A parity-like lattice whose join forgets its right operand: not an upper bound.
#[derive(Clone, PartialEq, Eq, Debug)]
struct BrokenJoin(Parity);

impl Lattice for BrokenJoin {
    const FINITE_HEIGHT: bool = true;
    fn bottom() -> Self {
        BrokenJoin(Parity::Bottom)
    }
    fn is_bottom(&self) -> bool {
        self.0.is_bottom()
    }
    fn leq(&self, other: &Self) -> bool {
        self.0.leq(&other.0)
    }
    fn join(&self, _other: &Self) -> Self {
        self.clone()
    }
    fn meet(&self, other: &Self) -> Self {
        BrokenJoin(self.0.meet(&other.0))
    }
}

/// Intervals whose "widening" returns the newer iterate: not an upper bound of the older one.
#[derive(Clone, PartialEq, Eq, Debug)]
struct ShrinkingWiden(Interval);

impl Lattice for ShrinkingWiden {
    const FINITE_HEIGHT: bool = false;
    fn bottom() -> Self {
        ShrinkingWiden(Interval::empty())
    }
    fn is_bottom(&self) -> bool {
        self.0.is_bottom()
    }
    fn leq(&self, other: &Self) -> bool {
        self.0.leq(&other.0)
    }
    fn join(&self, other: &Self) -> Self {
        ShrinkingWiden(self.0.join(&other.0))
    }
    fn meet(&self, other: &Self) -> Self {
        ShrinkingWiden(self.0.meet(&other.0))
    }
    fn widen(&self, newer: &Self) -> Self {
        newer.clone()
    }
}

/// Intervals whose widening is the join: an upper bound, but it climbs forever.
#[derive(Clone, PartialEq, Eq, Debug)]
struct JoinAsWidening(Interval);

impl Lattice for JoinAsWidening {
    const FINITE_HEIGHT: bool = false;
    fn bottom() -> Self {
        JoinAsWidening(Interval::empty())
    }
    fn is_bottom(&self) -> bool {
        self.0.is_bottom()
    }
    fn leq(&self, other: &Self) -> bool {
        self.0.leq(&other.0)
    }
    fn join(&self, other: &Self) -> Self {
        JoinAsWidening(self.0.join(&other.0))
    }
    fn meet(&self, other: &Self) -> Self {
        JoinAsWidening(self.0.meet(&other.0))
    }
}

fn failure_message(check: impl FnOnce()) -> String {
    let payload =
        catch_unwind(AssertUnwindSafe(check)).expect_err("the checker accepted a broken lattice");
    match payload.downcast::<String>() {
        Ok(message) => *message,
        Err(payload) => payload
            .downcast::<&str>()
            .map(|s| s.to_string())
            .unwrap_or_default(),
    }
}

#[test]
fn checker_catches_a_join_that_is_not_an_upper_bound() {
    let message = failure_message(|| {
        check_lattice(strategies::parity().prop_map(BrokenJoin), CASES);
    });
    assert!(message.contains("BrokenJoin"), "{message}");
    // Shrinking may end on either symptom of the broken join.
    assert!(message.contains("law `join` violated"), "{message}");
    assert!(
        message.contains("not an upper bound") || message.contains("not commutative"),
        "{message}"
    );
}

#[test]
fn checker_catches_a_widening_that_is_not_an_upper_bound() {
    let message = failure_message(|| {
        check_lattice(interval().prop_map(ShrinkingWiden), CASES);
    });
    assert!(message.contains("widening"), "{message}");
}

/// The numeric lattices' `contains` agrees with their operations: joins keep every member of
/// either operand, meets hold exactly the common members, and `⊑` implies inclusion.
mod concretization {
    use absinthe::lattice::{Address, Congruence, Interval, Lattice, Parity, Sign};
    use absinthe::laws::strategies::{address, congruence, int, interval, parity, sign};
    use proptest::prelude::*;

    macro_rules! check_members {
        ($name:ident, $ty:ty, $strategy:expr) => {
            proptest! {
                #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]
                #[test]
                fn $name(a in $strategy, b in $strategy, vs in proptest::collection::vec(int(), 1..8)) {
                    let members: Vec<i64> = a.bounds_hint().into_iter().chain(b.bounds_hint()).chain(vs).collect();
                    let (j, m): ($ty, $ty) = (a.join(&b), a.meet(&b));
                    for v in members {
                        let (in_a, in_b) = (a.contains(v), b.contains(v));
                        prop_assert!(!(in_a || in_b) || j.contains(v), "{v} lost by {a:?} ⊔ {b:?} = {j:?}");
                        prop_assert_eq!(m.contains(v), in_a && in_b, "{} in {:?} ⊓ {:?} = {:?}", v, a, b, m);
                        prop_assert!(!a.leq(&b) || !in_a || in_b, "{v} in {a:?} ⊑ {b:?}");
                    }
                }
            }
        };
    }

    /// Values worth probing for each element: its bounds or representatives.
    trait BoundsHint {
        fn bounds_hint(&self) -> Vec<i64>;
    }

    impl BoundsHint for Interval {
        fn bounds_hint(&self) -> Vec<i64> {
            self.bounds()
                .map(|(lo, hi)| vec![lo, hi, lo.saturating_sub(1), hi.saturating_add(1)])
                .unwrap_or_default()
        }
    }

    impl BoundsHint for Congruence {
        fn bounds_hint(&self) -> Vec<i64> {
            match self.class() {
                None => vec![],
                Some((a, b)) => {
                    let (a, b) = (i128::from(a), b);
                    [b, b + a, b - a, b + 2 * a, b + 1]
                        .into_iter()
                        .filter_map(|v| i64::try_from(v).ok())
                        .collect()
                }
            }
        }
    }

    impl BoundsHint for Sign {
        fn bounds_hint(&self) -> Vec<i64> {
            vec![-1, 0, 1]
        }
    }

    impl BoundsHint for Parity {
        fn bounds_hint(&self) -> Vec<i64> {
            vec![0, 1]
        }
    }

    check_members!(interval_members, Interval, interval());
    check_members!(congruence_members, Congruence, congruence());
    check_members!(sign_members, Sign, sign());
    check_members!(parity_members, Parity, parity());
    check_members!(address_members, Address, address());

    impl BoundsHint for Address {
        fn bounds_hint(&self) -> Vec<i64> {
            match self.known() {
                Some((s, o)) => {
                    let v = absinthe::program::symbol_address(s).wrapping_add(o);
                    vec![v, v.wrapping_add(1), v.wrapping_sub(1)]
                }
                None => vec![0],
            }
        }
    }
}

#[test]
fn checker_catches_a_widening_that_does_not_terminate() {
    let message = failure_message(|| {
        check_widening_terminates(|i| JoinAsWidening(Interval::new(0, i as i64)), 2);
    });
    assert!(
        message.contains("law `widening stabilises` violated"),
        "{message}"
    );
}

/// The dense environments the value analyses run on: unreachable, or one value per name.
fn env<D: Lattice + 'static>(
    value: impl Strategy<Value = D> + Clone + 'static,
) -> impl Strategy<Value = absinthe::value::Env<D>> {
    prop_oneof![
        1 => Just(absinthe::value::Env::Unreachable),
        4 => proptest::collection::vec(value, 3).prop_map(absinthe::value::Env::Reachable),
    ]
}

#[test]
fn environments_of_constants_and_intervals() {
    check_lattice(env(strategies::flat()), CASES);
    check_lattice(env(interval()), CASES);
    check_widening_terminates(
        |i| {
            let i = i as i64;
            absinthe::value::Env::Reachable(vec![Interval::new(-i, i), Interval::new(0, 2 * i)])
        },
        16,
    );
}
