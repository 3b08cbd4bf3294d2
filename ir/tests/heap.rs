//! The alias heap with generation counting (`absinthe::heap`) on the Green Fairy's loop: the
//! heap after the loop head is exactly the seed's disjunction of maximal compatible subsets,
//! `αxyz ⊔ αyz,βx ⊔ αz,βx,βy ⊔ βz,βx,βy`, with the loop's site counted to `≤ 2`.

use std::collections::BTreeSet;

use absinthe::engine::solve;
use absinthe::heap::{AliasAnalysis, AliasHeap, Site};
use absinthe::lattice::{Generation, Lattice};
use absinthe::program::BlockId;
use absinthe_ir::air::parse_module;

#[test]
fn the_seed_loop_counts_three_generations_and_keeps_four_heaps() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/test_data/seed_loop.air");
    let text = std::fs::read_to_string(path).expect("the sample exists");
    let module = parse_module("seed_loop.air", &text).expect("the sample parses");
    let function = &module.functions[0];
    let block = |label: &str| {
        BlockId(
            function
                .blocks()
                .iter()
                .position(|b| b.label == label)
                .expect("the block exists") as u32,
        )
    };
    let name = |n: &str| function.name_id(n).expect("the name exists");
    let (x, y, z) = (name("x"), name("y"), name("z"));
    let alpha = Site {
        block: block("bb0"),
        index: 0,
    };
    let beta = Site {
        block: block("body"),
        index: 3,
    };
    let solution = solve(function, &AliasAnalysis::<8>, &AliasAnalysis::<8>::limits());
    assert!(solution.stop.is_stable(), "{:?}", solution.stop);
    let head = &solution.entry[block("head").index()];
    let object = |site: Site, vars: &[absinthe::program::NameId], g: u32| {
        (
            (site, vars.iter().copied().collect::<BTreeSet<_>>()),
            Generation::AtMost(g),
        )
    };
    let expected = [
        AliasHeap::of([object(alpha, &[x, y, z], 0)]),
        AliasHeap::of([object(alpha, &[y, z], 0), object(beta, &[x], 0)]),
        AliasHeap::of([
            object(alpha, &[z], 0),
            object(beta, &[y], 1),
            object(beta, &[x], 0),
        ]),
        AliasHeap::of([
            object(beta, &[z], 2),
            object(beta, &[y], 1),
            object(beta, &[x], 0),
        ]),
    ];
    // The parameter `c` may be a reference from the caller: an object of the unknown site,
    // the same in every heap, left out of the comparison.
    let mut got: Vec<AliasHeap> = head
        .values()
        .iter()
        .map(|h| {
            assert_eq!(h.points_to(name("c")).len(), 1);
            AliasHeap::of(
                h.objects()
                    .filter(|((site, _), _)| *site != Site::UNKNOWN)
                    .map(|(o, g)| (o.clone(), *g)),
            )
        })
        .collect();
    got.sort();
    let mut want = expected.to_vec();
    want.sort();
    assert_eq!(
        got,
        want,
        "{}",
        got.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ⊔ ")
    );
    // Three cells of the loop's site suffice: at most two younger live objects.
    let generation = head
        .values()
        .iter()
        .fold(Generation::Bottom, |g, h| g.join(&h.generation(beta)));
    assert_eq!(generation, Generation::AtMost(2));
}

/// Whether the concrete variables `env` may be described by `heap`: every variable holding a
/// reference is in an object; two holding the same reference are in one object unless one of
/// them is in an object of the unknown site (which may alias anything); two holding different
/// references are never in one object.
fn describes(heap: &AliasHeap, env: &[Option<absinthe_ir::interp::Value>]) -> bool {
    use absinthe_ir::interp::Value;
    let object_of = |x: usize| -> Option<&absinthe::heap::Object> {
        heap.points_to(absinthe::program::NameId(x as u32))
            .into_iter()
            .next()
    };
    let refs: Vec<(usize, u32)> = env
        .iter()
        .enumerate()
        .filter_map(|(i, v)| match v {
            Some(Value::Ref(r)) => Some((i, *r)),
            _ => None,
        })
        .collect();
    for &(x, r) in &refs {
        let Some(ox) = object_of(x) else {
            return false;
        };
        for &(y, s) in &refs {
            let Some(oy) = object_of(y) else {
                return false;
            };
            let unknown = ox.0 == Site::UNKNOWN || oy.0 == Site::UNKNOWN;
            if r == s && ox != oy && !unknown {
                return false;
            }
            if r != s && ox == oy {
                return false;
            }
        }
    }
    true
}

/// On 1,000 random functions with allocations, copies, loads and stores, loops and branches,
/// every state a run reaches is described by some heap of the disjunction at its point.
#[test]
fn random_functions_agree_with_their_runs() {
    use absinthe::heap::Heaps;
    use absinthe::program::{FuncId, Program};
    use absinthe_ir::generate::{GenConfig, random_function};
    use absinthe_ir::interp::{Limits, run};
    let (mut points, mut refs) = (0u64, 0u64);
    for seed in 0..1000u64 {
        let module = random_function(seed, &GenConfig::default());
        let function = &module.functions[0];
        let solution = solve(function, &AliasAnalysis::<8>, &AliasAnalysis::<8>::limits());
        let before = |b: BlockId, i: usize| -> Heaps<8> {
            let mut heaps: Vec<AliasHeap> = solution.entry[b.index()].values().to_vec();
            for (index, stmt) in function.stmts(b).iter().take(i).enumerate() {
                heaps = heaps
                    .iter()
                    .flat_map(|h| AliasAnalysis::<8>::statement(h, b, index, stmt))
                    .collect();
            }
            Heaps::from_values(heaps)
        };
        let args: Vec<i64> = (0..function.params.len() as i64).map(|i| i - 1).collect();
        let mut failure = None;
        let mut observe = |b: BlockId, i: usize, env: &[Option<absinthe_ir::interp::Value>]| {
            if failure.is_some() {
                return;
            }
            let heaps = before(b, i);
            points += 1;
            refs += env
                .iter()
                .filter(|v| matches!(v, Some(absinthe_ir::interp::Value::Ref(_))))
                .count() as u64;
            if !heaps.values().iter().any(|h| describes(h, env)) {
                failure = Some(format!(
                    "seed {seed}: before statement {i} of bb{}: {env:?} is in none of {}",
                    b.0,
                    heaps
                        .values()
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(" ⊔ ")
                ));
            }
        };
        let limits = Limits {
            max_steps: 2_000,
            ..Limits::default()
        };
        run(&module, FuncId(0), &args, &limits, &mut observe);
        if let Some(failure) = failure {
            panic!("{failure}\n{}", absinthe_ir::print_module(&module));
        }
    }
    eprintln!("1000 random functions: {points} points, {refs} references checked");
    assert!(refs > 10_000, "{refs} references");
}
