//! Every standard lattice checked against the lattice laws by the generic checker, and the
//! checker itself checked against a deliberately broken lattice.

use std::panic::{AssertUnwindSafe, catch_unwind};

use absinthe::lattice::{
    DefaultCost, Dual, FiniteSum, Flat, Interval, Lattice, Lift, MapLattice, Parity, Powerset,
};
use absinthe::laws::strategies::{self, interval};
use absinthe::laws::{check_lattice, check_top};
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
fn parity() {
    check_lattice(strategies::parity(), CASES);
    check_top(strategies::parity(), CASES);
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

#[test]
fn finite_sum_of_interval() {
    type Sum = FiniteSum<Interval, 3, DefaultCost>;
    check_lattice::<Sum>(strategies::finite_sum(interval()), CASES);
    check_top::<Sum>(strategies::finite_sum(interval()), CASES);
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
