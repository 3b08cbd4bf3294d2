//! Abstract debugging catches planted bugs: domains with a deliberate mistake (an interval `+`
//! that forgets overflow, a branch refinement off by one) are run against the concrete
//! interpreter, and `verify` reports the first disagreement and names the rule that caused it;
//! the correct domains report none on the same programs and on 500 random ones.

use absinthe::engine::Limits;
use absinthe::lattice::{Interval, Lattice, Thresholds, Top};
use absinthe::program::{FuncId, Op};
use absinthe::value::{Concrete, ValueDomain};
use absinthe_cli::driver::analyze_function;
use absinthe_cli::verify::{Culprit, VerifyConfig, VerifyReport, verify_function};
use absinthe_ir::function::Module;
use absinthe_ir::generate::{GenConfig, random_function};
use std::fmt;

/// Which mistake a [`Planted`] interval makes.
const OVERFLOW_BLIND_ADD: u8 = 1;
const OFF_BY_ONE_LT: u8 = 2;

// ANCHOR: planted
/// Intervals with the mistake `BUG` planted in one rule.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Planted<const BUG: u8>(Interval);

impl<const BUG: u8> Lattice for Planted<BUG> {
    const FINITE_HEIGHT: bool = false;
    fn bottom() -> Self {
        Planted(Interval::bottom())
    }
    fn is_bottom(&self) -> bool {
        self.0.is_bottom()
    }
    fn leq(&self, other: &Self) -> bool {
        self.0.leq(&other.0)
    }
    fn join(&self, other: &Self) -> Self {
        Planted(self.0.join(&other.0))
    }
    fn meet(&self, other: &Self) -> Self {
        Planted(self.0.meet(&other.0))
    }
    fn widen_with_thresholds(&self, newer: &Self, thresholds: &Thresholds) -> Self {
        Planted(self.0.widen_with_thresholds(&newer.0, thresholds))
    }
    fn widen(&self, newer: &Self) -> Self {
        Planted(self.0.widen(&newer.0))
    }
    fn narrow(&self, newer: &Self) -> Self {
        Planted(self.0.narrow(&newer.0))
    }
}

impl<const BUG: u8> Top for Planted<BUG> {
    fn top() -> Self {
        Planted(Interval::top())
    }
    fn is_top(&self) -> bool {
        self.0.is_top()
    }
}

impl<const BUG: u8> Concrete for Planted<BUG> {
    fn contains(&self, v: i64) -> bool {
        self.0.contains(v)
    }
    fn as_constant(&self) -> Option<i64> {
        self.0.as_constant()
    }
}

impl<const BUG: u8> fmt::Display for Planted<BUG> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<const BUG: u8> ValueDomain for Planted<BUG> {
    fn constant(c: i64) -> Self {
        Planted(Interval::constant(c))
    }

    fn binary(op: Op, a: &Self, b: &Self) -> Self {
        if BUG == OVERFLOW_BLIND_ADD && op == Op::Add {
            if let (Some((a0, a1)), Some((b0, b1))) = (a.0.bounds(), b.0.bounds()) {
                // The mistake: saturating bounds, as if `+` could not wrap.
                return Planted(Interval::new(a0.saturating_add(b0), a1.saturating_add(b1)));
            }
        }
        Planted(Interval::binary(op, &a.0, &b.0))
    }

    fn assume(op: Op, a: &Self, b: &Self) -> (Self, Self) {
        if BUG == OFF_BY_ONE_LT && op == Op::Lt {
            if let Some(hi) = b.0.hi() {
                // The mistake: `a < b` taken as `a <= b.hi - 2`.
                let below = Interval::new(i64::MIN, hi.saturating_sub(2));
                return (Planted(a.0.meet(&below)), b.clone());
            }
        }
        let (x, y) = Interval::assume(op, &a.0, &b.0);
        (Planted(x), Planted(y))
    }
}
// ANCHOR_END: planted

fn module(text: &str) -> Module {
    absinthe_ir::parse_module("test.air", text).expect("valid test program")
}

fn verify<D: ValueDomain>(module: &Module, runs: usize) -> VerifyReport {
    let analysis = analyze_function::<D>(&module.functions[0], true, &Limits::default());
    assert!(analysis.solution.stop.is_stable());
    let config = VerifyConfig {
        runs,
        seed: 1,
        max_steps: 10_000,
        ..VerifyConfig::default()
    };
    verify_function(module, FuncId(0), &analysis, &config)
}

const INCREMENT: &str = "\
fn main(a) {
bb0:
    b = a + 1
    c = b * 2
    ret c
}
";

const GUARD: &str = "\
fn main(a) {
bb0:
    br a < 10, small, large
small:
    r = a + 100
    ret r
large:
    ret 0
}
";

#[test]
fn an_interval_add_that_forgets_overflow_is_caught() {
    let report = verify::<Planted<OVERFLOW_BLIND_ADD>>(&module(INCREMENT), 300);
    let first = report.violations.first().expect("the bug is found");
    assert_eq!(first.name.as_deref(), Some("b"));
    assert_eq!(first.rule(), Some("Planted<1>::binary(+)"));
    let Some(Culprit::Statement {
        text,
        concrete_inputs,
        ..
    }) = &first.culprit
    else {
        panic!("blamed {:?}", first.culprit);
    };
    assert_eq!(text, "b = a + 1");
    assert_eq!(concrete_inputs, &[("a".to_owned(), i64::MAX)]);
    // ANCHOR: overflow_report
    expect_test::expect![[r#"
        violation in `main` with arguments [9223372036854775807], at bb0[1] (before `c = b * 2`): b = -9223372036854775808 is not in [-9223372036854775807, +∞]
          produced by `b = a + 1` at bb0[0], rule Planted<1>::binary(+)
            abstract inputs: a = ⊤, 1 = [1, 1]
            concrete inputs: a = 9223372036854775807
            abstract result: [-9223372036854775807, +∞]
    "#]]
    // ANCHOR_END: overflow_report
    .assert_eq(&first.to_string());
    // The correct domain is sound on the same runs.
    assert_eq!(verify::<Interval>(&module(INCREMENT), 300).violations, []);
}

#[test]
fn an_off_by_one_branch_refinement_is_caught() {
    let report = verify::<Planted<OFF_BY_ONE_LT>>(&module(GUARD), 300);
    let first = report.violations.first().expect("the bug is found");
    assert_eq!(first.name.as_deref(), Some("a"));
    assert_eq!(first.concrete, Some(9));
    assert_eq!(first.rule(), Some("Planted<2>::assume(<)"));
    let Some(Culprit::Edge {
        from,
        to,
        terminator,
        ..
    }) = &first.culprit
    else {
        panic!("blamed {:?}", first.culprit);
    };
    assert_eq!((from.as_str(), to.as_str()), ("bb0", "small"));
    assert_eq!(terminator, "br a < 10, small, large");
    expect_test::expect![[r#"
        violation in `main` with arguments [9], at small[0] (before `r = a + 100`): a = 9 is not in [-∞, 8]
          produced on the edge bb0 -> small of `br a < 10, small, large`, rule Planted<2>::assume(<)
            abstract inputs: a = ⊤, 10 = [10, 10]
            concrete inputs: a = 9
    "#]].assert_eq(&first.to_string());
    assert_eq!(verify::<Interval>(&module(GUARD), 300).violations, []);
}

#[test]
fn the_shipped_domains_pass_verification_on_random_programs() {
    let mut total = VerifyReport::default();
    for seed in 0..500u64 {
        let module = random_function(seed, &GenConfig::default());
        total.absorb(verify::<Interval>(&module, 8));
        total.absorb(verify::<absinthe::lattice::Flat<i64>>(&module, 8));
    }
    assert!(total.violations.is_empty(), "{}", total.violations[0]);
    eprintln!(
        "verified {} runs, {} points, {} values: no violation",
        total.runs, total.points_checked, total.values_checked
    );
    assert!(total.values_checked > 100_000);
}
