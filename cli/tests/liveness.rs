//! The backward engine end to end: live names on 1,000 random core-IR functions equal a
//! brute-force search of the definition (some path to an exit reads the name before writing it),
//! and the worklist solver agrees with the naive one.

use absinthe::engine::{Limits, solve, solve_naive};
use absinthe::lattice::Lift;
use absinthe::liveness::{LiveSet, Liveness};
use absinthe::program::{BlockId, Cfg, NameId, Operand, Program};
use absinthe_ir::function::Function;
use absinthe_ir::generate::{GenConfig, random_function};

/// Blocks from which some exit (a block without successors) is reachable.
fn reaches_exit(f: &Function) -> Vec<bool> {
    let n = f.block_count();
    let mut good: Vec<bool> = (0..n)
        .map(|b| f.successors(BlockId::new(b)).is_empty())
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..n {
            if !good[b]
                && f.successors(BlockId::new(b))
                    .iter()
                    .any(|s| good[s.index()])
            {
                good[b] = true;
                changed = true;
            }
        }
    }
    good
}

fn uses(o: Operand, x: NameId) -> bool {
    o == Operand::Name(x)
}

/// Whether `x` is read before being written on some path from statement `index` of `block` to
/// an exit.
fn live_by_search(f: &Function, good: &[bool], block: BlockId, index: usize, x: NameId) -> bool {
    let mut seen = vec![false; f.block_count()];
    let mut stack = vec![(block, index)];
    while let Some((b, start)) = stack.pop() {
        let stmts = f.stmts(b);
        let mut killed = false;
        for stmt in &stmts[start..] {
            let mut read = false;
            stmt.for_each_use(|o| read |= uses(o, x));
            if read {
                return true;
            }
            if stmt.def() == Some(x) {
                killed = true;
                break;
            }
        }
        if killed {
            continue;
        }
        let mut read = false;
        f.terminator(b).for_each_use(|o| read |= uses(o, x));
        if read {
            return true;
        }
        for &s in f.successors(b) {
            if !good[s.index()] {
                continue;
            }
            let mut phi_kills = false;
            for phi in f.phis(s) {
                if phi.incoming.iter().any(|&(p, o)| p == b && uses(o, x)) {
                    return true;
                }
                phi_kills |= phi.dest == x;
            }
            if !phi_kills && !seen[s.index()] {
                seen[s.index()] = true;
                stack.push((s, 0));
            }
        }
    }
    false
}

#[test]
fn liveness_matches_its_definition_on_random_functions() {
    let mut compared = 0u64;
    for seed in 0..1000u64 {
        let config = GenConfig {
            blocks: 2 + (seed % 9) as usize,
            ..GenConfig::default()
        };
        let module = random_function(seed, &config);
        let f = &module.functions[0];
        let solution = solve(f, &Liveness, &Limits::default());
        assert!(solution.stop.is_stable());
        let naive = solve_naive(f, &Liveness, &Limits::default());
        assert_eq!(solution.entry, naive.entry, "seed {seed}\n{module}");
        assert_eq!(solution.exit, naive.exit, "seed {seed}\n{module}");
        let good = reaches_exit(f);
        for b in (0..f.block_count()).map(BlockId::new) {
            let Lift::Lifted(live_out) = &solution.exit[b.index()] else {
                assert!(
                    !good[b.index()],
                    "seed {seed}: {b:?} reaches an exit but is bottom"
                );
                continue;
            };
            assert!(
                good[b.index()],
                "seed {seed}: {b:?} reaches no exit but is not bottom"
            );
            for index in 0..=f.stmts(b).len() {
                let live: LiveSet = Liveness::live_before(f, b, index, live_out);
                for x in (0..f.name_count()).map(NameId::new) {
                    let expected = live_by_search(f, &good, b, index, x);
                    assert_eq!(
                        live.contains(&x),
                        expected,
                        "seed {seed}: liveness of {} before {b:?}[{index}]\n{module}",
                        f.names[x.index()]
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 10_000, "only {compared} comparisons");
}

/// The same definition holds the declared analysis — over every path, ended or not: a run may
/// end anywhere (a trap, a throw out of a callee, a loop that never ends), so
/// `absinthe::value::Demands` runs `dsl-examples/dom/liveness.dom` on the function with an exit
/// every block may go to, and demands exactly the names the search finds live when every block
/// counts as reaching an exit.
#[test]
fn the_declared_liveness_matches_the_definition_on_random_functions() {
    use absinthe::lattice::Lattice;
    use absinthe::value::{Demands, Env};
    use absinthe_dsl_examples::dom::liveness::Live;
    let mut compared = 0u64;
    for seed in 0..500u64 {
        let config = GenConfig {
            blocks: 2 + (seed % 9) as usize,
            ..GenConfig::default()
        };
        let module = random_function(seed, &config);
        let f = &module.functions[0];
        let analysis = Demands::<Live>::new(f);
        let solution = analysis.solve(f, &Limits::default());
        assert!(solution.stop.is_stable());
        let every = vec![true; f.block_count()];
        for b in (0..f.block_count()).map(BlockId::new) {
            let points = analysis.points(f, b, &solution.exit[b.index()]);
            for (index, point) in points.iter().enumerate() {
                let Env::Reachable(values) = point else {
                    panic!("seed {seed}: {b:?}[{index}] is unreachable\n{module}");
                };
                for x in (0..f.name_count()).map(NameId::new) {
                    let expected = live_by_search(f, &every, b, index, x);
                    assert_eq!(
                        !values[x.index()].is_bottom(),
                        expected,
                        "seed {seed}: declared liveness of {} before {b:?}[{index}]\n{module}",
                        f.names[x.index()]
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 5_000, "only {compared} comparisons");
}
