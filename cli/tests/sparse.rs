//! Dense, sparse and sparse+temporal states agree: for `const`, `sccp` and `interval` (widening
//! and narrowing included), on random toy programs, random core-IR functions (non-SSA, where names
//! are assigned many times), the same functions in SSA form, and `prog0`, the three
//! representations give the same state at every program point, the same stop reason and the same
//! statistics (but for the evaluations temporal sparsity saves).

use absinthe::engine::{Limits, Stats};
use absinthe::lattice::{Flat, Interval};
use absinthe::program::{BlockId, Program};
use absinthe::value::{NonRelational, StateRepr, ValueDomain};
use absinthe_ir::function::{Function, Module};
use absinthe_ir::generate::{GenConfig, ToyGenConfig, random_function, random_toy};
use absinthe_ir::ssa::to_ssa;

const PROGRAMS: u64 = 1000;

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
    }
}

fn air_config(seed: u64) -> GenConfig {
    GenConfig {
        blocks: 2 + (seed % 11) as usize,
        max_stmts: 1 + (seed % 5) as usize,
        names: 2 + (seed % 6) as usize,
        init_names: seed % 4 != 0,
        ..GenConfig::default()
    }
}

fn toy_config(seed: u64) -> ToyGenConfig {
    ToyGenConfig {
        instrs: 4 + (seed % 29) as usize,
        names: 2 + (seed % 4) as usize,
        jump_percent: 15 + (seed % 4) as u32 * 10,
        init_names: seed % 3 != 0,
    }
}

fn report(what: &str, coverage: &Coverage) {
    eprintln!("{what}: {coverage:?}");
    assert!(coverage.widenings > 0 && coverage.narrowings > 0, "{what}");
    assert!(
        coverage.temporal_evaluations < coverage.dense_evaluations * 2,
        "{what}: temporal sparsity saved nothing"
    );
}

#[test]
fn representations_agree_on_random_toy_programs() {
    let mut coverage = Coverage::default();
    for seed in 0..PROGRAMS {
        let program = random_toy(seed, &toy_config(seed));
        let (function, _) = program.lower();
        let module = alone(function, Vec::new());
        compare_all(&module, &format!("toy seed {seed}"), &mut coverage);
    }
    report("toy", &coverage);
}

#[test]
fn representations_agree_on_random_core_ir() {
    let mut coverage = Coverage::default();
    for seed in 0..PROGRAMS {
        let module = random_function(seed, &air_config(seed));
        compare_all(&module, &format!("core IR seed {seed}"), &mut coverage);
    }
    report("core IR", &coverage);
}

#[test]
fn representations_agree_on_random_ssa() {
    let mut coverage = Coverage::default();
    for seed in 0..PROGRAMS {
        let module = random_function(seed, &air_config(seed));
        let ssa = alone(to_ssa(&module.functions[0]), module.fields.clone());
        assert!(ssa.functions[0].is_ssa());
        compare_all(&ssa, &format!("SSA seed {seed}"), &mut coverage);
    }
    report("SSA", &coverage);
}

#[test]
fn representations_agree_on_prog0() {
    let (function, _) = absinthe_ir::toy::prog0().lower();
    let mut coverage = Coverage::default();
    compare_all(&alone(function, Vec::new()), "prog0", &mut coverage);
    assert!(coverage.widenings > 0);
}
