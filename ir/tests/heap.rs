//! The alias heap with generation counting (`absinthe_heap`) on the Green Fairy's loop: the
//! heap after the loop head is exactly the seed's disjunction of maximal compatible subsets,
//! `αxyz ⊔ αyz,βx ⊔ αz,βx,βy ⊔ βz,βx,βy`, with the loop's site counted to `≤ 2`.

use std::collections::BTreeSet;

use absinthe::engine::solve;
use absinthe::lattice::{Generation, Lattice};
use absinthe::program::BlockId;
use absinthe_heap::{AliasAnalysis, AliasHeap, Site};
use absinthe_ir::air::parse_module;
use absinthe_ir::heap_check::describes;

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

/// A loop of `n` iterations whose body allocates into and copies between four variables, in an
/// order drawn from `seed`, with a branch inside.
fn allocating_loop(seed: u64) -> String {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let mut body = |lines: &mut Vec<String>, at_least: u64, more: u64| {
        let count = at_least + next(more);
        for _ in 0..count {
            let x = next(4);
            let line = match next(5) {
                0 | 1 => format!("    v{x} = new"),
                2 | 3 => format!("    v{x} = v{}", next(4)),
                _ => format!("    v{x} = select n, v{}, v{}", next(4), next(4)),
            };
            lines.push(line);
        }
    };
    let mut lines = vec!["fn main(n) {".to_owned(), "bb0:".to_owned()];
    for v in 0..4 {
        lines.push(format!("    v{v} = new"));
    }
    lines.push("    i = 0".to_owned());
    lines.push("    goto head".to_owned());
    lines.push("head:".to_owned());
    lines.push("    br i < n, body, exit".to_owned());
    lines.push("body:".to_owned());
    body(&mut lines, 2, 4);
    lines.push("    br i == 2, side, step".to_owned());
    lines.push("side:".to_owned());
    body(&mut lines, 1, 3);
    lines.push("    goto step".to_owned());
    lines.push("step:".to_owned());
    lines.push("    i = i + 1".to_owned());
    lines.push("    goto head".to_owned());
    lines.push("exit:".to_owned());
    lines.push("    ret".to_owned());
    lines.push("}".to_owned());
    lines.join("\n") + "\n"
}

/// On 1,000 random functions with allocations, copies, loads and stores, loops and branches,
/// every state a run reaches is described by some heap of the disjunction at its point: the
/// aliasing, the allocation sites and the generations.
#[test]
fn random_functions_agree_with_their_runs() {
    use absinthe::program::{FuncId, Program};
    use absinthe_heap::Heaps;
    use absinthe_ir::generate::{GenConfig, random_function};
    use absinthe_ir::interp::{Limits, Value, run};
    let (mut points, mut refs, mut counted) = (0u64, 0u64, 0u64);
    for seed in 0..1000u64 {
        // Half the seeds: the general generator (allocations are rare there); half: loops that
        // allocate and shuffle references, so that objects outlive younger ones of their site.
        let module = if seed % 2 == 0 {
            random_function(seed, &GenConfig::default())
        } else {
            let text = allocating_loop(seed);
            parse_module("loop.air", &text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"))
        };
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
        let args: Vec<i64> = (0..function.params.len() as i64)
            .map(|i| i - 1 + (seed % 10) as i64)
            .collect();
        let mut seen: Vec<(BlockId, usize, Vec<Option<Value>>)> = Vec::new();
        let mut observe = |b: BlockId, i: usize, env: &[Option<Value>]| {
            seen.push((b, i, env.to_vec()));
        };
        let limits = Limits {
            max_steps: 2_000,
            ..Limits::default()
        };
        let run = run(&module, FuncId(0), &args, &limits, &mut observe);
        for (b, i, env) in &seen {
            let heaps = before(*b, *i);
            points += 1;
            let held: Vec<u32> = env
                .iter()
                .filter_map(|v| match v {
                    Some(Value::Ref(r)) => Some(*r),
                    _ => None,
                })
                .collect();
            refs += held.len() as u64;
            counted += held
                .iter()
                .filter(|&&r| {
                    held.iter()
                        .any(|&s| s > r && run.sites[s as usize] == run.sites[r as usize])
                })
                .count() as u64;
            assert!(
                heaps.values().iter().any(|h| describes(h, env, &run.sites)),
                "seed {seed}: before statement {i} of bb{}: {env:?} is in none of {}\n{}",
                b.0,
                heaps
                    .values()
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ⊔ "),
                absinthe_ir::print_module(&module)
            );
        }
    }
    eprintln!(
        "1000 random functions: {points} points, {refs} references checked, \
         {counted} of them with a younger live object of their site"
    );
    assert!(refs > 10_000, "{refs} references");
    assert!(
        counted > 1_000,
        "{counted} references with younger siblings"
    );
}
