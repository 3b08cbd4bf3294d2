//! The sparse store of alias heaps (`absinthe_heap::sparse`) gives back exactly the dense
//! solution's entry state of every block: on the seed's loop and on random functions (the general
//! generator, bigger functions with many allocations, and every function of random heap
//! modules), looked up one by one in order and out of order, all at once, and with blocks kept
//! whole at every checkpoint distance.

use absinthe::engine::{Solution, solve};
use absinthe::lattice::{FiniteSum, Lattice};
use absinthe::program::BlockId;
use absinthe_heap::sparse::{DeltaState, HeapDelta, SparseStates};
use absinthe_heap::{AliasAnalysis, AliasHeap, Heaps, SparseHeapSolution};
use absinthe_ir::air::parse_module;
use absinthe_ir::function::Function;
use absinthe_ir::generate::{GenConfig, HeapGenConfig, random_function, random_heap_module};

/// What the checks of one function saw.
#[derive(Default)]
struct Seen {
    blocks: usize,
    dominated: usize,
    deltas: usize,
    shifted: usize,
    estimated_dense: usize,
    estimated_sparse: usize,
}

/// Checks every way of reading the sparse store of `function`'s solution against the dense one.
fn check(what: &str, function: &Function, seen: &mut Seen) {
    let solution: Solution<Heaps<8>> =
        solve(function, &AliasAnalysis::<8>, &AliasAnalysis::<8>::limits());
    assert!(solution.stop.is_stable(), "{what}: {:?}", solution.stop);
    let sparse = SparseHeapSolution::from_dense(function, &solution);
    let n = solution.entry.len();
    for b in (0..n).map(BlockId::new) {
        assert_eq!(
            sparse.entry(b),
            solution.entry[b.index()],
            "{what}: block {}",
            b.0
        );
    }
    // Backwards: the lookups cannot lean on the previous one.
    for b in (0..n).rev().map(BlockId::new) {
        assert_eq!(
            sparse.entry(b),
            solution.entry[b.index()],
            "{what}: bb{}",
            b.0
        );
    }
    assert_eq!(sparse.entry(BlockId::new(n)), Heaps::bottom());
    let mut visited = vec![0; n];
    sparse.for_each_entry(|b, heaps| {
        visited[b.index()] += 1;
        assert_eq!(heaps, &solution.entry[b.index()], "{what}: bb{} (all)", b.0);
    });
    assert!(visited.iter().all(|&v| v == 1), "{what}: {visited:?}");
    for checkpoint in [0, 1, 2, 3, 1000] {
        let store = SparseStates::build_with(function, &solution.entry, checkpoint);
        assert_eq!(
            store.to_dense(),
            solution.entry,
            "{what}: checkpoint {checkpoint}"
        );
        for b in (0..n).rev().map(BlockId::new) {
            assert_eq!(
                store.get(b).as_ref(),
                Some(&solution.entry[b.index()]),
                "{what}: checkpoint {checkpoint}, bb{}",
                b.0
            );
        }
    }
    // The heap of each block against its immediate dominator's, disjunct by disjunct.
    let dominators = absinthe::cfg::Dominators::new(function);
    for b in (0..n).map(BlockId::new) {
        let Some(d) = dominators.idom(b) else {
            continue;
        };
        let (base, target) = (&solution.entry[d.index()], &solution.entry[b.index()]);
        let delta = FiniteSum::delta(base, target);
        assert_eq!(&FiniteSum::apply(base, &delta), target, "{what}: bb{}", b.0);
        for x in base.values() {
            for y in target.values() {
                let delta = AliasHeap::delta(x, y);
                assert_eq!(&AliasHeap::apply(x, &delta), y, "{what}: bb{}", b.0);
                if let HeapDelta::Edit(e) = &delta {
                    seen.shifted += usize::from(!e.shifts().is_empty());
                }
            }
        }
    }
    let summary = sparse.store().summary();
    seen.blocks += n;
    seen.dominated += (0..n)
        .filter(|&b| dominators.idom(BlockId::new(b)).is_some())
        .count();
    seen.deltas += summary.deltas;
    seen.estimated_sparse += summary.full_bytes + summary.delta_bytes;
    seen.estimated_dense += solution
        .entry
        .iter()
        .map(DeltaState::state_bytes)
        .sum::<usize>();
}

#[test]
fn the_seed_loop_comes_back_exactly() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/test_data/seed_loop.air");
    let text = std::fs::read_to_string(path).expect("the sample exists");
    let module = parse_module("seed_loop.air", &text).expect("the sample parses");
    let mut seen = Seen::default();
    for function in &module.functions {
        check(&function.name, function, &mut seen);
    }
    // The loop's head, body and exit are all stored against their dominators.
    assert!(seen.deltas >= 3, "{} deltas", seen.deltas);
}

/// A loop whose body allocates into and copies between five variables over a few blocks (a
/// branch, a join), in an order drawn from `seed`: objects of one site outlive younger ones, so
/// the blocks the body dominates see the site's generations shifted.
fn shuffling_loop(seed: u64) -> String {
    let mut rng = absinthe_ir::generate::Rng::new(seed);
    let mut lines = vec!["fn main(n) {".to_owned(), "start:".to_owned()];
    for v in 0..5 {
        lines.push(format!("    v{v} = new"));
    }
    lines.push("    i = 0".to_owned());
    lines.push("    goto head".to_owned());
    let mut body = |lines: &mut Vec<String>, label: &str, count: usize| {
        lines.push(format!("{label}:"));
        for _ in 0..count {
            let x = rng.below(5);
            lines.push(match rng.below(6) {
                0..=2 => format!("    v{x} = new"),
                3 | 4 => format!("    v{x} = v{}", rng.below(5)),
                _ => format!("    v{x} = select n, v{}, v{}", rng.below(5), rng.below(5)),
            });
        }
    };
    lines.push("head:".to_owned());
    lines.push("    br i < n, body, exit".to_owned());
    body(&mut lines, "body", 3);
    lines.push("    br i == 1, side, step".to_owned());
    body(&mut lines, "side", 2);
    lines.push("    goto step".to_owned());
    body(&mut lines, "step", 2);
    lines.push("    i = i + 1".to_owned());
    lines.push("    goto head".to_owned());
    lines.push("exit:".to_owned());
    lines.push("    ret".to_owned());
    lines.push("}".to_owned());
    lines.join("\n") + "\n"
}

#[test]
fn random_functions_come_back_exactly() {
    let mut seen = Seen::default();
    let mut functions = 0;
    for seed in 0..800u64 {
        let module = match seed % 4 {
            3 => {
                let text = shuffling_loop(seed);
                parse_module("loop.air", &text).unwrap_or_else(|e| panic!("{e}\n{text}"))
            }
            0 => random_function(seed, &GenConfig::default()),
            // Bigger functions that allocate often, with more names.
            1 => random_function(
                seed,
                &GenConfig {
                    blocks: 24,
                    max_stmts: 8,
                    names: 10,
                    back_percent: 15,
                    ..GenConfig::default()
                },
            ),
            _ => random_heap_module(seed, &HeapGenConfig::default()),
        };
        for function in &module.functions {
            functions += 1;
            check(
                &format!("seed {seed}, {}", function.name),
                function,
                &mut seen,
            );
        }
    }
    eprintln!(
        "{functions} functions, {} blocks, {} with an immediate dominator, {} stored as deltas, \
         {} heap deltas with generation shifts; estimated bytes dense {} sparse {}",
        seen.blocks,
        seen.dominated,
        seen.deltas,
        seen.shifted,
        seen.estimated_dense,
        seen.estimated_sparse
    );
    assert!(functions >= 500);
    // Blocks without an immediate dominator (the entry, blocks never reached) are kept whole;
    // nearly all others as deltas.
    assert!(
        seen.deltas * 10 >= seen.dominated * 9,
        "{} deltas",
        seen.deltas
    );
    assert!(seen.shifted >= 20, "{} shifted", seen.shifted);
    assert!(seen.estimated_sparse < seen.estimated_dense);
}
