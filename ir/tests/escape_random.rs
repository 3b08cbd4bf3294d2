//! The escape analysis is sound on random modules that allocate, store, load, loop, call and
//! apply closures: checked in every frame of runs of `main` (`absinthe_ir::escape_check`).

use absinthe::lattice::Interval;
use absinthe::program::FuncId;
use absinthe_heap::escape::{MAX_EXPOSED, MAX_HEAPS, solve_module, solve_module_with};
use absinthe_ir::escape_check::{EscapeCheck, check_run};
use absinthe_ir::generate::{HeapGenConfig, random_heap_module};
use absinthe_ir::interp::Limits;
use absinthe_ir::print_module;

fn check(seeds: std::ops::Range<u64>, heaps: usize) -> EscapeCheck {
    check_with(seeds, heaps, MAX_EXPOSED)
}

fn check_with(seeds: std::ops::Range<u64>, heaps: usize, exposed: usize) -> EscapeCheck {
    let config = HeapGenConfig::default();
    let limits = Limits {
        max_steps: 2_000,
        ..Limits::default()
    };
    let mut total = EscapeCheck::default();
    for seed in seeds {
        let module = random_heap_module(seed, &config);
        let facts = solve_module_with::<Interval, _>(&module, heaps, exposed);
        let mut check = EscapeCheck::default();
        for (p0, p1) in [(0, 0), (1, -1), (2, 3), (-2, 1), (3, 0)] {
            check_run(&module, &facts, FuncId(0), &[p0, p1], &limits, &mut check);
        }
        assert!(
            check.violations.is_empty(),
            "seed {seed} ({heaps} heaps, {exposed} exposed objects): {:#?}\n{}",
            check.violations,
            print_module(&module)
        );
        total.runs += check.runs;
        total.points += check.points;
        total.loads += check.loads;
        total.escapes += check.escapes;
    }
    total
}

#[test]
fn sound_on_a_thousand_random_modules() {
    let total = check(0..1000, MAX_HEAPS);
    println!(
        "1000 random modules: {} runs, {} points, {} forwarded loads and {} escaping objects \
         checked",
        total.runs, total.points, total.loads, total.escapes
    );
    assert!(
        total.runs > 2000 && total.loads > 100 && total.escapes > 100,
        "{total:?}"
    );
}

#[test]
fn sound_with_one_heap_per_point() {
    let total = check(1000..1300, 1);
    assert!(total.runs > 500, "{total:?}");
}

/// Exposed objects made unknown at every block's exit ([`absinthe_heap::escape::Heap::fold_exposed`]
/// with no room at all) are still sound.
#[test]
fn sound_with_every_exposed_object_made_unknown() {
    let total = check_with(2000..2300, MAX_HEAPS, 0);
    assert!(total.runs > 500, "{total:?}");
}

/// The check is not vacuous: facts that say no object ever escapes are caught.
#[test]
fn facts_that_forget_escapes_are_caught() {
    let config = HeapGenConfig::default();
    let limits = Limits {
        max_steps: 2_000,
        ..Limits::default()
    };
    let mut check = EscapeCheck::default();
    for seed in 0..100 {
        let module = random_heap_module(seed, &config);
        let mut facts = solve_module::<Interval, _>(&module, MAX_HEAPS);
        for f in &mut facts {
            for a in &mut f.allocations {
                a.escape = Default::default();
            }
        }
        for args in [[0, 0], [1, -1], [2, 3]] {
            check_run(&module, &facts, FuncId(0), &args, &limits, &mut check);
        }
    }
    assert!(check.violations.len() > 10, "{check:?}");
}
