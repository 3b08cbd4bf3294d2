//! Dense, sparse and sparse+temporal states agree: for `const`, `sccp` and `interval` (widening
//! and narrowing included), on random toy programs, random core-IR functions (non-SSA, where names
//! are assigned many times), the same functions in SSA form, and `prog0`, the three
//! representations give the same state at every program point, the same stop reason and the same
//! statistics (but for the evaluations temporal sparsity saves).

use absinthe::engine::{Limits, Stats, StopReason};
use absinthe::lattice::{Flat, Interval, Lattice, Top};
use absinthe::program::{BlockId, Op, Program};
use absinthe::value::{Concrete, NonRelational, StateRepr, ValueDomain};
use absinthe_ir::function::{Function, Module};
use absinthe_ir::generate::{GenConfig, ToyGenConfig, random_function, random_toy};
use absinthe_ir::ssa::to_ssa;
use proptest::prelude::*;

/// What a comparison covered, to check the tests exercise what they claim.
#[derive(Default, Debug)]
struct Coverage {
    functions: u64,
    points: u64,
    widenings: u64,
    narrowings: u64,
    dense_evaluations: u64,
    temporal_evaluations: u64,
}

/// Statistics without the evaluations (which temporal sparsity changes).
fn steps(stats: &Stats) -> Stats {
    Stats {
        evaluations: 0,
        ..stats.clone()
    }
}

/// Runs `D` over `function` in the three representations and compares them at every point.
fn compare<D: ValueDomain>(
    module: &Module,
    conditional: bool,
    what: &str,
    coverage: &mut Coverage,
) {
    let function = &module.functions[0];
    let analysis = NonRelational::<D>::new(conditional);
    let limits = Limits::default();
    let dense = analysis.solve(function, StateRepr::Dense, &limits);
    assert!(dense.stop().is_stable(), "{what}: {:?}", dense.stop());
    let blocks = function.blocks().len();
    for repr in [StateRepr::Sparse, StateRepr::SparseTemporal] {
        let sparse = analysis.solve(function, repr, &limits);
        let context = || format!("{what}, {repr}, function:\n{module}");
        assert_eq!(sparse.stop(), dense.stop(), "{}", context());
        assert_eq!(steps(sparse.stats()), steps(dense.stats()), "{}", context());
        let Some(solution) = sparse.as_sparse() else {
            panic!("{repr} gave a dense solution");
        };
        for b in (0..blocks).map(BlockId::new) {
            let entry = dense.entry(b);
            assert_eq!(solution.entry(b), entry, "{} entry of {b:?}", context());
            assert_eq!(
                solution.exit(b),
                dense.exit(b),
                "{} exit of {b:?}",
                context()
            );
            let points = analysis.replay(function, b, &entry);
            for (i, state) in points.iter().enumerate() {
                assert_eq!(
                    &solution.point(function, b, i),
                    state,
                    "{} before statement {i} of {b:?}",
                    context()
                );
            }
            coverage.points += points.len() as u64;
        }
        match repr {
            StateRepr::Sparse => {
                assert_eq!(sparse.stats(), dense.stats(), "{}", context());
            }
            _ => {
                assert!(
                    sparse.stats().evaluations <= dense.stats().evaluations,
                    "{}",
                    context()
                );
                coverage.temporal_evaluations += sparse.stats().evaluations;
            }
        }
    }
    coverage.functions += 1;
    coverage.widenings += dense.stats().widenings;
    coverage.narrowings += dense.stats().narrowings;
    coverage.dense_evaluations += dense.stats().evaluations;
}

/// Every non-relational analysis of the repository: `const`, `sccp`, `interval`.
fn compare_all(module: &Module, what: &str, coverage: &mut Coverage) {
    compare::<Flat<i64>>(module, false, &format!("{what}, const"), coverage);
    compare::<Flat<i64>>(module, true, &format!("{what}, sccp"), coverage);
    compare::<Interval>(module, true, &format!("{what}, interval"), coverage);
}

/// A module holding just `function`, for printing.
fn alone(function: Function, fields: Vec<String>) -> Module {
    Module {
        functions: vec![function],
        fields,
        symbols: Vec::new(),
    }
}

/// Core-IR generator settings: 2 to 40 blocks, from mostly forward jumps to loop nests and
/// irreducible cycles.
fn air_config() -> impl Strategy<Value = GenConfig> {
    (2usize..40, 1usize..6, 2usize..8, 0u32..=70, any::<bool>()).prop_map(
        |(blocks, max_stmts, names, back_percent, init_names)| GenConfig {
            blocks,
            max_stmts,
            names,
            back_percent,
            init_names,
            ..GenConfig::default()
        },
    )
}

/// Toy generator settings: 4 to 40 instructions, 15% to 55% jumps.
fn toy_config() -> impl Strategy<Value = ToyGenConfig> {
    (4usize..40, 2usize..6, 15u32..55, any::<bool>()).prop_map(
        |(instrs, names, jump_percent, init_names)| ToyGenConfig {
            instrs,
            names,
            jump_percent,
            init_names,
        },
    )
}

fn report(what: &str, coverage: &Coverage) {
    eprintln!("{what}: {coverage:?}");
    assert!(coverage.widenings > 0 && coverage.narrowings > 0, "{what}");
    assert!(
        coverage.temporal_evaluations < coverage.dense_evaluations * 2,
        "{what}: temporal sparsity saved nothing"
    );
}

/// Programs per generator; each runs three analyses in three representations.
const CASES: u32 = 1000;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn representations_agree_on_random_toy_programs(seed in any::<u64>(), config in toy_config()) {
        let (function, _) = random_toy(seed, &config).lower();
        let module = alone(function, Vec::new());
        compare_all(&module, &format!("toy seed {seed}, {config:?}"), &mut Coverage::default());
    }

    #[test]
    fn representations_agree_on_random_core_ir(seed in any::<u64>(), config in air_config()) {
        let module = random_function(seed, &config);
        compare_all(&module, &format!("core IR seed {seed}, {config:?}"), &mut Coverage::default());
    }

    #[test]
    fn representations_agree_on_random_ssa(seed in any::<u64>(), config in air_config()) {
        let module = random_function(seed, &config);
        let ssa = alone(to_ssa(&module.functions[0]), module.fields.clone());
        prop_assert!(ssa.functions[0].is_ssa());
        compare_all(&ssa, &format!("SSA seed {seed}, {config:?}"), &mut Coverage::default());
    }
}

/// The generators exercise what the comparison claims to cover: widening, narrowing, and
/// statements temporal sparsity does not re-evaluate.
#[test]
fn the_comparison_covers_widening_narrowing_and_savings() {
    let mut coverage = Coverage::default();
    for seed in 0..300 {
        let config = GenConfig {
            blocks: 4 + (seed % 13) as usize,
            back_percent: 10 + (seed % 7) as u32 * 10,
            ..GenConfig::default()
        };
        let module = random_function(seed, &config);
        compare_all(&module, &format!("core IR seed {seed}"), &mut coverage);
        let ssa = alone(to_ssa(&module.functions[0]), module.fields.clone());
        compare_all(&ssa, &format!("SSA seed {seed}"), &mut coverage);
        let (function, _) = random_toy(seed, &ToyGenConfig::default()).lower();
        compare_all(
            &alone(function, Vec::new()),
            &format!("toy seed {seed}"),
            &mut coverage,
        );
    }
    report("coverage", &coverage);
    assert!(coverage.points > 10_000, "{coverage:?}");
}

/// The representation is one word; the result does not depend on it.
#[test]
fn one_word_selects_the_representation() {
    let text = include_str!("../../ir/test_data/count.air");
    let module = absinthe_ir::parse_module("count.air", text).expect("valid sample");
    let function = &module.functions[0];
    let head = function.block_id("head").expect("a loop head");
    // ANCHOR: select
    let analysis = NonRelational::<Interval>::new(true);
    let limits = Limits::default();
    let dense = analysis.solve(function, StateRepr::Dense, &limits);
    let sparse = analysis.solve(function, StateRepr::SparseTemporal, &limits);
    assert_eq!(sparse.entry(head), dense.entry(head));
    assert_eq!(sparse.stats().visits, dense.stats().visits);
    // The value of `i` at the head, looked up in the sparse map.
    let i = function.name_id("i").expect("a counter");
    assert_eq!(sparse.value_at_entry(head, i), Interval::new(0, 10));
    // ANCHOR_END: select
}

#[test]
fn representations_agree_on_prog0() {
    let (function, _) = absinthe_ir::toy::prog0().lower();
    let mut coverage = Coverage::default();
    compare_all(&alone(function, Vec::new()), "prog0", &mut coverage);
    assert!(coverage.widenings > 0);
}

/// With a visit budget too small, every representation stops after the same visit.
#[test]
fn representations_run_out_of_budget_alike() {
    for seed in 0..200 {
        let module = random_function(seed, &GenConfig::default());
        let function = &module.functions[0];
        let analysis = NonRelational::<Interval>::new(true);
        let limits = Limits {
            max_visits: 1 + seed % 7,
            ..Limits::default()
        };
        let dense = analysis.solve(function, StateRepr::Dense, &limits);
        for repr in [StateRepr::Sparse, StateRepr::SparseTemporal] {
            let sparse = analysis.solve(function, repr, &limits);
            assert_eq!(sparse.stop(), dense.stop(), "seed {seed} {repr}");
            assert_eq!(
                sparse.stats().visits,
                dense.stats().visits,
                "seed {seed} {repr}"
            );
        }
    }
}

/// Intervals whose widening is broken: `LYING` returns the previous iterate (not an upper
/// bound), otherwise it is the join (which never stabilises on a counting loop).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Broken<const LYING: bool>(Interval);

impl<const LYING: bool> std::fmt::Display for Broken<LYING> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl<const LYING: bool> Lattice for Broken<LYING> {
    const FINITE_HEIGHT: bool = false;
    fn bottom() -> Self {
        Broken(Interval::bottom())
    }
    fn is_bottom(&self) -> bool {
        self.0.is_bottom()
    }
    fn leq(&self, other: &Self) -> bool {
        self.0.leq(&other.0)
    }
    fn join(&self, other: &Self) -> Self {
        Broken(self.0.join(&other.0))
    }
    fn meet(&self, other: &Self) -> Self {
        Broken(self.0.meet(&other.0))
    }
    fn widen(&self, newer: &Self) -> Self {
        if LYING { *self } else { self.join(newer) }
    }
}

impl<const LYING: bool> Top for Broken<LYING> {
    fn top() -> Self {
        Broken(Interval::top())
    }
    fn is_top(&self) -> bool {
        self.0.is_top()
    }
}

impl<const LYING: bool> Concrete for Broken<LYING> {
    fn contains(&self, v: i64) -> bool {
        self.0.contains(v)
    }
    fn as_constant(&self) -> Option<i64> {
        self.0.as_constant()
    }
}

impl<const LYING: bool> ValueDomain for Broken<LYING> {
    fn constant(c: i64) -> Self {
        Broken(Interval::constant(c))
    }
    fn binary(op: Op, a: &Self, b: &Self) -> Self {
        Broken(Interval::binary(op, &a.0, &b.0))
    }
}

/// A domain that breaks the widening laws stops every representation with the same report, and
/// none loops forever.
#[test]
fn a_broken_widening_stops_every_representation_alike() {
    let text =
        "fn main() {\nbb0:\n    i = 0\n    goto head\nhead:\n    i = i + 1\n    goto head\n}\n";
    let module = absinthe_ir::parse_module("loop.air", text).expect("valid program");
    let function = &module.functions[0];
    fn check<D: ValueDomain>(function: &Function, law: &str) {
        let analysis = NonRelational::<D>::new(true);
        let dense = analysis.solve(function, StateRepr::Dense, &Limits::default());
        let StopReason::LawViolation { message, .. } = dense.stop() else {
            panic!(
                "the dense solver did not report the broken law: {:?}",
                dense.stop()
            );
        };
        assert!(message.contains(law), "{message}");
        for repr in [StateRepr::Sparse, StateRepr::SparseTemporal] {
            let sparse = analysis.solve(function, repr, &Limits::default());
            assert_eq!(sparse.stop(), dense.stop(), "{repr}");
        }
    }
    check::<Broken<true>>(function, "not an upper bound");
    check::<Broken<false>>(function, "did not stabilise");
}

/// A loop around a long chain of blocks that read a parameter and a name assigned far above:
/// lookups walk long enough to leave forward pointers, and a definition found in a late iteration
/// (the arm taken once `i` reaches 2) must invalidate them.
fn long_chain(blocks: usize) -> Module {
    let mut text = String::from(
        "fn main(p) {\nbb0:\n    t = 1\n    i = 0\n    goto head\nhead:\n    br i < 4, c0, done\n",
    );
    for k in 0..blocks {
        let next = if k + 1 == blocks {
            "latch".to_string()
        } else {
            format!("c{}", k + 1)
        };
        text.push_str(&format!("c{k}:\n    a = p + t\n    b = a * {k}\n"));
        if k == blocks / 2 {
            text.push_str(&format!(
                "    br i == 2, late, {next}\nlate:\n    t = t + b\n"
            ));
        }
        text.push_str(&format!("    goto {next}\n"));
    }
    text.push_str("latch:\n    i = i + 1\n    goto head\ndone:\n    ret t\n}\n");
    absinthe_ir::parse_module("chain.air", &text).expect("valid chain")
}

#[test]
fn long_walks_leave_forward_pointers_that_stay_correct() {
    let mut coverage = Coverage::default();
    for blocks in [10, 40, 120] {
        compare_all(
            &long_chain(blocks),
            &format!("chain of {blocks}"),
            &mut coverage,
        );
    }
    assert!(coverage.widenings > 0, "{coverage:?}");
}
