//! Random core-IR functions (loops, branches, switches, overflowing arithmetic, division, heap
//! objects): `const`, `sccp` and `interval` are sound against the concrete interpreter on random
//! inputs, and `sccp` is at least as precise as `const`.

use absinthe::engine::Limits;
use absinthe::lattice::{Flat, Interval, Lattice};
use absinthe::program::{BlockId, FuncId, NameId};
use absinthe::value::ValueDomain;
use absinthe_cli::driver::{FunctionAnalysis, analyze_function};
use absinthe_ir::function::Module;
use absinthe_ir::generate::{GenConfig, Rng, random_function};
use absinthe_ir::interp::{self, Value};

const PROGRAMS: u64 = 1000;
const RUNS_PER_PROGRAM: usize = 4;

/// The random functions' shape for `seed` (the optimizer's tests draw the same).
pub(crate) fn config(seed: u64) -> GenConfig {
    GenConfig {
        blocks: 2 + (seed % 9) as usize,
        max_stmts: 1 + (seed % 5) as usize,
        names: 2 + (seed % 5) as usize,
        init_names: seed % 4 != 0,
        // Addresses of zero to two symbols, so that pointer rules meet integers.
        symbols: (seed % 3) as usize,
        ..GenConfig::default()
    }
}

/// Runs `main` of `module` on random arguments and checks every observed integer against
/// `result`; returns how many values were checked.
fn check_sound<D: ValueDomain>(
    module: &Module,
    result: &FunctionAnalysis<D>,
    rng: &mut Rng,
    what: &str,
) -> u64 {
    let main = &module.functions[0];
    let mut checked = 0;
    for _ in 0..RUNS_PER_PROGRAM {
        let args: Vec<i64> = main.params.iter().map(|_| rng.literal()).collect();
        let mut observer = |block: BlockId, index: usize, env: &[Option<Value>]| {
            let state = &result.points[block.index()][index];
            assert!(
                state.is_reachable(),
                "{what}: {block:?}[{index}] is reached with {args:?} but inferred unreachable\n{module}"
            );
            for (i, v) in env.iter().enumerate() {
                if let Some(Value::Int(v)) = v {
                    let a = state.get(NameId::new(i));
                    assert!(
                        a.contains(*v),
                        "{what}: at {block:?}[{index}] with arguments {args:?}, {} = {v} is not in {a}\n{module}",
                        main.names[i]
                    );
                    checked += 1;
                }
            }
        };
        let limits = interp::Limits {
            max_steps: 5_000,
            max_depth: 16,
            ..interp::Limits::default()
        };
        interp::run(module, FuncId(0), &args, &limits, &mut observer);
    }
    checked
}

#[test]
fn analyses_are_sound_on_random_functions() {
    let mut checked = 0;
    let mut rng = Rng::new(7);
    for seed in 0..PROGRAMS {
        let module = random_function(seed, &config(seed));
        let main = &module.functions[0];
        let limits = Limits::default();
        let plain = analyze_function::<Flat<i64>>(main, false, &limits);
        let sccp = analyze_function::<Flat<i64>>(main, true, &limits);
        let intervals = analyze_function::<Interval>(main, true, &limits);
        for result in [
            &plain.solution.stop,
            &sccp.solution.stop,
            &intervals.solution.stop,
        ] {
            assert!(result.is_stable(), "seed {seed}: {result:?}\n{module}");
        }
        for (s, c) in sccp
            .points
            .iter()
            .flatten()
            .zip(plain.points.iter().flatten())
        {
            assert!(s.leq(c), "seed {seed}: sccp above const\n{module}");
        }
        checked += check_sound(&module, &plain, &mut rng, &format!("seed {seed} const"));
        checked += check_sound(&module, &sccp, &mut rng, &format!("seed {seed} sccp"));
        checked += check_sound(
            &module,
            &intervals,
            &mut rng,
            &format!("seed {seed} interval"),
        );
    }
    eprintln!("checked {checked} concrete values against abstract ones");
    assert!(checked > PROGRAMS * 20);
}

/// Products declared with `#[absinthe::domain]` on random functions.
const PRODUCT_PROGRAMS: u64 = 500;

fn check_product<D: ValueDomain>(module: &Module, rng: &mut Rng, what: &str) -> u64 {
    let result = analyze_function::<D>(&module.functions[0], true, &Limits::default());
    assert!(
        result.solution.stop.is_stable(),
        "{what}: {:?}\n{module}",
        result.solution.stop
    );
    check_sound(module, &result, rng, what)
}

#[test]
fn declared_products_are_sound_on_random_functions() {
    use absinthe_dsl_examples::disjunctive::value::Disjunctive;
    use absinthe_dsl_examples::seed::value::SeedValue;
    use absinthe_dsl_examples::signs::value::{DirectSignals, Signals};
    let mut checked = 0;
    let mut rng = Rng::new(11);
    for seed in 0..PRODUCT_PROGRAMS {
        let module = random_function(seed, &config(seed));
        checked += check_product::<SeedValue>(&module, &mut rng, &format!("seed {seed} seed"));
        checked += check_product::<Signals>(&module, &mut rng, &format!("seed {seed} signs"));
        checked +=
            check_product::<DirectSignals>(&module, &mut rng, &format!("seed {seed} direct"));
        checked +=
            check_product::<Disjunctive>(&module, &mut rng, &format!("seed {seed} disjunctive"));
    }
    eprintln!("checked {checked} concrete values against declared products");
    assert!(checked > PRODUCT_PROGRAMS * 20);
}
