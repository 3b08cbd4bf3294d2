//! Abstract debugging catches planted bugs: three deliberately wrong domains declared with the
//! attributes — an interval `+` that forgets overflow, a reduction that refines too much, a
//! branch refinement off by one — each run by `verify` on a program that exposes it. The report
//! must name the wrong rule, with the file and line of its declaration.

use absinthe::engine::Limits;
use absinthe_cli::verify::{VerifyConfig, verify_module};
use absinthe_ir::function::Module;

/// `+` on intervals computed with wrapping bounds: `[0, MAX] + 1` becomes `[1, MIN]`, empty.
#[absinthe::domain]
mod overflow {
    use absinthe::lattice::Interval;

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        #[lattice(value_domain)]
        pub interval: Interval,
    }

    #[absinthe::transfer(op = "+")]
    pub fn add_ignoring_overflow(a: &Value, b: &Value) -> Interval {
        match (a.interval.bounds(), b.interval.bounds()) {
            (Some((al, ah)), Some((bl, bh))) => {
                Interval::new(al.wrapping_add(bl), ah.wrapping_add(bh))
            }
            _ => Interval::empty(),
        }
    }
}

/// A constant refines its interval to the next integer.
#[absinthe::domain]
mod overreach {
    use absinthe::lattice::{Flat, Interval, Lattice};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        #[lattice(value_domain)]
        pub constant: Flat<i64>,
        #[lattice(value_domain)]
        pub interval: Interval,
    }

    #[absinthe::meet_ext]
    pub fn interval_from_constant_off_by_one(i: &Interval, c: &Flat<i64>) -> Interval {
        match c {
            Flat::Value(v) => i.meet(&Interval::constant(v.wrapping_add(1))),
            Flat::Bottom | Flat::Top => *i,
        }
    }
}

/// Knowing `a < b`, the rule keeps `a ≤ b.hi - 2` instead of `b.hi - 1`.
#[absinthe::domain]
mod off_by_one {
    use absinthe::lattice::{Interval, Lattice};

    #[absinthe::lattice(product)]
    #[derive(Clone)]
    pub struct Value {
        #[lattice(value_domain)]
        pub interval: Interval,
    }

    #[absinthe::transfer(assume = "<")]
    pub fn less_off_by_one(a: &Value, b: &Value) -> (Interval, Interval) {
        match b.interval.hi() {
            Some(hi) => (
                a.interval
                    .meet(&Interval::new(i64::MIN, hi.saturating_sub(2))),
                b.interval,
            ),
            None => (a.interval, b.interval),
        }
    }
}

fn module(text: &str) -> Module {
    absinthe_ir::air::parse_module("planted.air", text).expect("parses")
}

/// The rule `verify` blames for the first violation.
fn blamed<D: absinthe::value::ValueDomain>(module: &Module) -> String {
    let config = VerifyConfig {
        runs: 200,
        ..VerifyConfig::default()
    };
    let report = verify_module::<D>(module, true, &Limits::default(), &config);
    let first = report
        .violations
        .first()
        .expect("verify finds the planted bug");
    let rule = first.rule().expect("a rule is named").to_string();
    eprintln!("blamed: {rule}");
    rule
}

#[test]
fn an_interval_addition_that_forgets_overflow_is_caught() {
    let m = module(
        "fn main(x) {
bb0:
    br x >= 0, nonneg, out
nonneg:
    y = x + 1
    ret y
out:
    ret 0
}",
    );
    let rule = blamed::<overflow::Value>(&m);
    assert!(rule.contains("component `interval`"), "{rule}");
    assert!(
        rule.contains("`#[transfer] fn add_ignoring_overflow`"),
        "{rule}"
    );
    assert!(
        rule.contains("planted_bugs.rs:"),
        "the rule's place: {rule}"
    );
}

#[test]
fn a_reduction_that_refines_too_much_is_caught() {
    let m = module(
        "fn main(x) {
bb0:
    y = 5
    ret y
}",
    );
    let rule = blamed::<overreach::Value>(&m);
    assert!(
        rule.contains("reduction into component `interval`"),
        "{rule}"
    );
    assert!(
        rule.contains("`#[meet_ext] fn interval_from_constant_off_by_one`"),
        "{rule}"
    );
}

#[test]
fn a_branch_refinement_off_by_one_is_caught() {
    // `y = 9` is the one value below 10 the rule loses.
    let m = module(
        "fn main(x) {
bb0:
    y = 9
    br y < 10, small, out
small:
    ret y
out:
    ret 0
}",
    );
    let rule = blamed::<off_by_one::Value>(&m);
    assert!(rule.contains("`#[transfer] fn less_off_by_one`"), "{rule}");
}

#[test]
fn a_literal_operand_lost_by_a_reduction_blames_the_reduction() {
    // `x + 5`: the literal's own abstract value is bottom (the reduction moved its interval to
    // 6), so the sum is bottom; the reduction is to blame, not `+`.
    let m = module(
        "fn main(x) {
bb0:
    y = x + 5
    ret y
}",
    );
    let config = VerifyConfig {
        runs: 50,
        ..VerifyConfig::default()
    };
    let report = verify_module::<overreach::Value>(&m, true, &Limits::default(), &config);
    let first = report
        .violations
        .first()
        .expect("verify finds the planted bug");
    let rule = first.rule().expect("a rule is named").to_string();
    assert!(rule.contains("literal operand 5"), "{rule}");
    assert!(
        rule.contains("reduction into component `interval`"),
        "{rule}"
    );
    assert!(
        rule.contains("`#[meet_ext] fn interval_from_constant_off_by_one`"),
        "{rule}"
    );
    assert!(rule.contains("planted_bugs.rs:"), "{rule}");
    let shown = format!("{first}");
    assert!(
        shown.contains(", 5 = "),
        "the literal is an abstract input: {shown}"
    );
}
