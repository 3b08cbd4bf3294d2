//! Tests of the CFG utilities and the fixpoint engines: orders, dominators and the weak
//! topological order against brute-force definitions, and the worklist solver against the naive
//! round-robin solver on random graphs, plus widening, law-violation, budget and tracing cases.
//!
//! The lattices used here are defined in this file so that the engine is tested on its own.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use absinthe::cfg::{
    DominanceFrontiers, Dominators, Reversed, Wto, WtoElement, post_order, reverse_post_order,
};
use absinthe::engine::{
    Analysis, Direction, Event, Limits, MAX_WIDENINGS_PER_HEAD, Recorder, Solution, StopReason,
    solve, solve_naive, solve_traced,
};
use absinthe::lattice::{Lattice, Thresholds};
use absinthe::program::{BlockId, Cfg};
use expect_test::{Expect, expect};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------------
// Graphs
// ---------------------------------------------------------------------------------------------

/// A control-flow graph given by successor lists; block 0 is the entry.
#[derive(Clone, Debug)]
struct Graph {
    succs: Vec<Vec<BlockId>>,
    preds: Vec<Vec<BlockId>>,
}

impl Graph {
    fn new(succs: Vec<Vec<u32>>) -> Graph {
        let succs: Vec<Vec<BlockId>> = succs
            .into_iter()
            .map(|s| s.into_iter().map(BlockId).collect())
            .collect();
        let mut preds = vec![Vec::new(); succs.len()];
        for (b, ss) in succs.iter().enumerate() {
            for s in ss {
                preds[s.index()].push(BlockId::new(b));
            }
        }
        Graph { succs, preds }
    }

    /// The distinct predecessors of `b`, each once.
    fn edges_into(&self, b: BlockId) -> impl Iterator<Item = (BlockId, BlockId)> {
        let preds: BTreeSet<BlockId> = self.preds[b.index()].iter().copied().collect();
        preds.into_iter().map(move |p| (p, b))
    }

    fn blocks(&self) -> impl Iterator<Item = BlockId> {
        (0..self.succs.len()).map(BlockId::new)
    }
}

impl Cfg for Graph {
    fn block_count(&self) -> usize {
        self.succs.len()
    }
    fn entry(&self) -> BlockId {
        BlockId(0)
    }
    fn successors(&self, b: BlockId) -> &[BlockId] {
        &self.succs[b.index()]
    }
    fn predecessors(&self, b: BlockId) -> &[BlockId] {
        &self.preds[b.index()]
    }
}

fn graph(succs: &[&[u32]]) -> Graph {
    Graph::new(succs.iter().map(|s| s.to_vec()).collect())
}

/// Random graphs of 1 to 30 blocks with up to three successors each (duplicates and self loops
/// included, so some blocks are unreachable).
fn arb_graph() -> impl Strategy<Value = Graph> {
    (1usize..=30).prop_flat_map(|n| {
        prop::collection::vec(prop::collection::vec(0..n as u32, 0..=3), n).prop_map(Graph::new)
    })
}

/// The blocks reachable from the entry when `removed` is deleted from the graph.
fn reachable_without<G: Cfg>(g: &G, removed: Option<BlockId>) -> Vec<bool> {
    let mut seen = vec![false; g.block_count()];
    if removed == Some(g.entry()) {
        return seen;
    }
    let mut stack = vec![g.entry()];
    seen[g.entry().index()] = true;
    while let Some(b) = stack.pop() {
        for &s in g.successors(b) {
            if Some(s) != removed && !seen[s.index()] {
                seen[s.index()] = true;
                stack.push(s);
            }
        }
    }
    seen
}

fn ids(blocks: &[BlockId]) -> Vec<u32> {
    blocks.iter().map(|b| b.0).collect()
}

// ---------------------------------------------------------------------------------------------
// CFG utilities on random graphs
// ---------------------------------------------------------------------------------------------

proptest! {
    #[test]
    fn orders_cover_reachable_blocks_once(g in arb_graph()) {
        let reachable = reachable_without(&g, None);
        let rpo = reverse_post_order(&g);
        let mut po = post_order(&g);
        po.reverse();
        prop_assert_eq!(&rpo, &po);
        prop_assert_eq!(rpo[0], g.entry());
        let mut seen = vec![false; g.block_count()];
        for &b in &rpo {
            prop_assert!(reachable[b.index()]);
            prop_assert!(!seen[b.index()], "{b:?} twice");
            seen[b.index()] = true;
        }
        prop_assert_eq!(seen, reachable);
        // Every reachable block but the entry has a predecessor earlier in the order (its parent
        // in the depth-first tree).
        let pos = |b: BlockId| rpo.iter().position(|&x| x == b);
        for &b in &rpo[1..] {
            prop_assert!(g.predecessors(b).iter().any(|&p| pos(p) < pos(b)));
        }
    }

    #[test]
    fn dominators_match_brute_force(g in arb_graph()) {
        check_dominators(&g)?;
    }

    /// Dominators of the reversed graph are post-dominators; the virtual exit must not confuse
    /// them.
    #[test]
    fn post_dominators_match_brute_force(g in arb_graph()) {
        check_dominators(&Reversed::new(&g))?;
    }

    #[test]
    fn reversed_graph_is_consistent(g in arb_graph()) {
        let r = Reversed::new(&g);
        prop_assert_eq!(r.block_count(), g.block_count() + 1);
        prop_assert_eq!(r.entry(), r.virtual_exit());
        let blocks = (0..r.block_count()).map(BlockId::new);
        for b in blocks.clone() {
            for &s in r.successors(b) {
                let forward = r.successors(b).iter().filter(|&&x| x == s).count();
                let backward = r.predecessors(s).iter().filter(|&&x| x == b).count();
                prop_assert_eq!(forward, backward, "edge {:?} -> {:?}", b, s);
            }
        }
        for b in g.blocks() {
            for &s in g.successors(b) {
                prop_assert!(r.successors(s).contains(&b));
            }
        }
        for &e in r.exits() {
            prop_assert!(g.successors(e).is_empty());
        }
    }

    #[test]
    fn frontiers_match_definition(g in arb_graph(), picks in prop::collection::vec(0u32..30, 0..4)) {
        let doms = Dominators::new(&g);
        let df = DominanceFrontiers::new(&g, &doms);
        let definition = |x: BlockId| -> Vec<BlockId> {
            g.blocks()
                .filter(|&y| {
                    g.predecessors(y).iter().any(|&p| doms.dominates(x, p))
                        && !doms.strictly_dominates(x, y)
                })
                .collect()
        };
        for x in g.blocks() {
            prop_assert_eq!(df.frontier(x), &definition(x)[..], "DF({:?})", x);
        }
        // The iterated frontier is the least X with X = DF(S ∪ X).
        let set: Vec<BlockId> = picks
            .iter()
            .filter(|&&b| (b as usize) < g.block_count())
            .map(|&b| BlockId(b))
            .collect();
        let mut expected: BTreeSet<BlockId> = BTreeSet::new();
        loop {
            let next: BTreeSet<BlockId> = set
                .iter()
                .chain(expected.iter())
                .flat_map(|&b| df.frontier(b).iter().copied())
                .collect();
            if next == expected {
                break;
            }
            expected = next;
        }
        prop_assert_eq!(df.iterated(set), expected.into_iter().collect::<Vec<_>>());
    }

    #[test]
    fn wto_is_a_weak_topological_order(g in arb_graph()) {
        check_wto(&g)?;
        check_wto(&Reversed::new(&g))?;
    }
}

fn check_dominators<G: Cfg>(g: &G) -> Result<(), TestCaseError> {
    let doms = Dominators::new(g);
    let reachable = reachable_without(g, None);
    let blocks = || (0..g.block_count()).map(BlockId::new);
    for a in blocks() {
        let without_a = reachable_without(g, Some(a));
        for b in blocks() {
            let expected =
                reachable[a.index()] && reachable[b.index()] && (a == b || !without_a[b.index()]);
            prop_assert_eq!(doms.dominates(a, b), expected, "{:?} dom {:?}", a, b);
        }
    }
    for b in blocks() {
        prop_assert_eq!(doms.is_reachable(b), reachable[b.index()]);
        match doms.idom(b) {
            None => prop_assert!(b == g.entry() || !reachable[b.index()]),
            Some(d) => {
                // The immediate dominator is the strict dominator every other one dominates.
                prop_assert!(doms.strictly_dominates(d, b));
                for c in blocks() {
                    if doms.strictly_dominates(c, b) {
                        prop_assert!(doms.dominates(c, d));
                    }
                }
                prop_assert!(doms.children(d).contains(&b));
                prop_assert_eq!(doms.depth(b), doms.depth(d).map(|x| x + 1));
            }
        }
        let chain: Vec<BlockId> = doms.dominators_of(b).collect();
        let all: Vec<BlockId> = blocks().filter(|&a| doms.dominates(a, b)).collect();
        prop_assert_eq!(chain.len(), all.len());
    }
    Ok(())
}

fn check_wto<G: Cfg>(g: &G) -> Result<(), TestCaseError> {
    let wto = Wto::new(g);
    let n = g.block_count();
    let rpo = reverse_post_order(g);
    let mut reachable = vec![false; n];
    for b in &rpo {
        reachable[b.index()] = true;
    }
    let mut seen = vec![false; n];
    for (pos, &b) in wto.order().iter().enumerate() {
        prop_assert!(!seen[b.index()], "{b:?} twice");
        seen[b.index()] = true;
        prop_assert_eq!(wto.position(b), Some(pos));
    }
    prop_assert_eq!(&seen, &reachable);
    for b in (0..n).map(BlockId::new) {
        if !reachable[b.index()] {
            prop_assert_eq!(wto.position(b), None);
            continue;
        }
        for &s in g.successors(b) {
            let forward = wto.position(b) < wto.position(s);
            let back = wto.component(s).is_some_and(|c| c.contains(&b));
            prop_assert!(forward || back, "edge {b:?} -> {s:?} in {wto}");
        }
        // The heads containing b are nested components that all contain b.
        let heads: Vec<BlockId> = wto.heads_containing(b).collect();
        for pair in heads.windows(2) {
            let outer = wto.component(pair[1]).expect("a head");
            prop_assert!(outer.contains(&pair[0]));
        }
        for &h in &heads {
            prop_assert!(wto.component(h).expect("a head").contains(&b));
        }
        let enclosing = wto
            .heads()
            .filter(|&h| wto.component(h).expect("a head").contains(&b))
            .count();
        prop_assert_eq!(heads.len(), enclosing);
    }
    // The nested elements flatten back to the order.
    let mut flat = Vec::new();
    let mut stack: Vec<&[WtoElement]> = vec![];
    let elements = wto.elements();
    stack.push(&elements);
    while let Some(level) = stack.pop() {
        let Some((first, rest)) = level.split_first() else {
            continue;
        };
        stack.push(rest);
        match first {
            WtoElement::Vertex(b) => flat.push(*b),
            WtoElement::Component { head, body } => {
                flat.push(*head);
                stack.push(body);
            }
        }
    }
    prop_assert_eq!(&flat[..], wto.order());
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// CFG utilities on fixed graphs
// ---------------------------------------------------------------------------------------------

/// Prints the WTO, immediate dominators, frontiers and the WTO of the reverse graph.
fn check_cfg(g: &Graph, expect: Expect) {
    let doms = Dominators::new(g);
    let df = DominanceFrontiers::new(g, &doms);
    let mut out = String::new();
    writeln!(out, "wto: {}", Wto::new(g)).unwrap();
    writeln!(out, "rpo: {:?}", ids(&reverse_post_order(g))).unwrap();
    for b in g.blocks() {
        writeln!(
            out,
            "{b:?}: idom {:?} depth {:?} df {:?}",
            doms.idom(b),
            doms.depth(b),
            ids(df.frontier(b))
        )
        .unwrap();
    }
    let reversed = Reversed::new(g);
    writeln!(
        out,
        "reversed wto (virtual exit {}): {}",
        reversed.virtual_exit().0,
        Wto::new(&reversed)
    )
    .unwrap();
    expect.assert_eq(&out);
}

#[test]
fn nested_loops() {
    check_cfg(
        &graph(&[&[1], &[2], &[3], &[2, 4], &[1, 5], &[]]),
        expect![[r#"
            wto: 0 (1 (2 3) 4) 5
            rpo: [0, 1, 2, 3, 4, 5]
            bb0: idom None depth Some(0) df []
            bb1: idom Some(bb0) depth Some(1) df [1]
            bb2: idom Some(bb1) depth Some(2) df [1, 2]
            bb3: idom Some(bb2) depth Some(3) df [1, 2]
            bb4: idom Some(bb3) depth Some(4) df [1]
            bb5: idom Some(bb4) depth Some(5) df []
            reversed wto (virtual exit 6): 6 5 (4 (3 2) 1) 0
        "#]],
    );
}

#[test]
fn irreducible_loop() {
    check_cfg(
        &graph(&[&[1, 2], &[2], &[1, 3], &[]]),
        expect![[r#"
            wto: 0 (1 2) 3
            rpo: [0, 1, 2, 3]
            bb0: idom None depth Some(0) df []
            bb1: idom Some(bb0) depth Some(1) df [2]
            bb2: idom Some(bb0) depth Some(1) df [1]
            bb3: idom Some(bb2) depth Some(2) df []
            reversed wto (virtual exit 4): 4 3 (2 1) 0
        "#]],
    );
}

#[test]
fn self_loop_and_unreachable_block() {
    check_cfg(
        &graph(&[&[1], &[1, 2], &[], &[2]]),
        expect![[r#"
            wto: 0 (1) 2
            rpo: [0, 1, 2]
            bb0: idom None depth Some(0) df []
            bb1: idom Some(bb0) depth Some(1) df [1]
            bb2: idom Some(bb1) depth Some(2) df []
            bb3: idom None depth None df []
            reversed wto (virtual exit 4): 4 2 3 (1) 0
        "#]],
    );
}

#[test]
fn loop_through_the_entry() {
    check_cfg(
        &graph(&[&[1], &[0, 2], &[]]),
        expect![[r#"
            wto: (0 1) 2
            rpo: [0, 1, 2]
            bb0: idom None depth Some(0) df [0]
            bb1: idom Some(bb0) depth Some(1) df [0]
            bb2: idom Some(bb1) depth Some(2) df []
            reversed wto (virtual exit 3): 3 2 (1 0)
        "#]],
    );
}

/// Deep graphs must not overflow the stack: everything is iterative.
#[test]
fn deep_graphs_need_no_recursion() {
    // A chain of 200 000 blocks closed by one back edge: the depth-first walk is 200 000 deep.
    let n = 200_000u32;
    let succs: Vec<Vec<u32>> = (0..n)
        .map(|b| if b + 1 < n { vec![b + 1] } else { vec![0] })
        .collect();
    let g = Graph::new(succs);
    let wto = Wto::new(&g);
    assert_eq!(wto.order().len(), n as usize);
    assert_eq!(wto.heads().collect::<Vec<_>>(), [BlockId(0)]);
    let doms = Dominators::new(&g);
    assert_eq!(doms.depth(BlockId(n - 1)), Some(n - 1));
    let df = DominanceFrontiers::new(&g, &doms);
    assert_eq!(df.frontier(BlockId(5)), &[BlockId(0)]);
    assert_eq!(reverse_post_order(&g).len(), n as usize);
    assert_eq!(Wto::new(&Reversed::new(&g)).order().len(), 1);

    // 2 000 loops nested in one another: head i, latch 3999 - i, exit 4000.
    let k = 2_000u32;
    let succs: Vec<Vec<u32>> = (0..=2 * k)
        .map(|b| match b {
            b if b < k => vec![b + 1],
            b if b < 2 * k => vec![b + 1, 2 * k - 1 - b],
            _ => vec![],
        })
        .collect();
    let g = Graph::new(succs);
    let wto = Wto::new(&g);
    assert_eq!(wto.heads().count(), k as usize);
    assert_eq!(wto.heads_containing(BlockId(k)).count(), k as usize);
}

// ---------------------------------------------------------------------------------------------
// A finite lattice: sets of small numbers, with an explicit bottom for "unreachable"
// ---------------------------------------------------------------------------------------------

/// `None` is bottom (unreachable); otherwise a set ordered by inclusion.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Facts(Option<BTreeSet<u32>>);

impl Facts {
    fn of(items: impl IntoIterator<Item = u32>) -> Facts {
        Facts(Some(items.into_iter().collect()))
    }
}

impl Lattice for Facts {
    const FINITE_HEIGHT: bool = true;

    fn bottom() -> Facts {
        Facts(None)
    }
    fn is_bottom(&self) -> bool {
        self.0.is_none()
    }
    fn leq(&self, other: &Facts) -> bool {
        match (&self.0, &other.0) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some(a), Some(b)) => a.is_subset(b),
        }
    }
    fn join(&self, other: &Facts) -> Facts {
        match (&self.0, &other.0) {
            (None, _) => other.clone(),
            (_, None) => self.clone(),
            (Some(a), Some(b)) => Facts(Some(a.union(b).copied().collect())),
        }
    }
    fn meet(&self, other: &Facts) -> Facts {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Facts(Some(a.intersection(b).copied().collect())),
            _ => Facts(None),
        }
    }
}

/// What one edge does to the facts flowing along it.
#[derive(Clone, Copy, Debug)]
enum EdgeEffect {
    Keep,
    Kill(u32),
    Infeasible,
}

fn arb_effect() -> impl Strategy<Value = EdgeEffect> {
    prop_oneof![
        4 => Just(EdgeEffect::Keep),
        2 => (0u32..30).prop_map(EdgeEffect::Kill),
        1 => Just(EdgeEffect::Infeasible),
    ]
}

fn apply_effect(effect: EdgeEffect, state: &Facts) -> Facts {
    match (effect, &state.0) {
        (EdgeEffect::Infeasible, _) | (_, None) => Facts(None),
        (EdgeEffect::Keep, _) => state.clone(),
        (EdgeEffect::Kill(x), Some(s)) => {
            let mut s = s.clone();
            s.remove(&x);
            Facts(Some(s))
        }
    }
}

/// Forward: the blocks visited on some path, where edges may forget a block or be infeasible.
#[derive(Debug)]
struct Visited {
    effects: Vec<Vec<EdgeEffect>>,
}

impl Analysis<Graph> for Visited {
    type State = Facts;
    const DIRECTION: Direction = Direction::Forward;

    fn boundary_state(&self, _: &Graph) -> Facts {
        Facts::of([100])
    }
    fn transfer_block(&self, _: &Graph, block: BlockId, state: &mut Facts) {
        if let Some(s) = &mut state.0 {
            s.insert(block.0);
        }
    }
    fn transfer_edge(&self, _: &Graph, from: BlockId, succ_index: usize, state: &Facts) -> Facts {
        apply_effect(self.effects[from.index()][succ_index], state)
    }
}

/// Backward: liveness-like, each block uses `gen` and defines `kill`; edges may forget a fact.
#[derive(Debug)]
struct Live {
    gen_: Vec<BTreeSet<u32>>,
    kill: Vec<BTreeSet<u32>>,
    effects: Vec<Vec<EdgeEffect>>,
}

impl Analysis<Graph> for Live {
    type State = Facts;
    const DIRECTION: Direction = Direction::Backward;

    fn boundary_state(&self, _: &Graph) -> Facts {
        Facts::of([99])
    }
    fn transfer_block(&self, _: &Graph, block: BlockId, state: &mut Facts) {
        if let Some(s) = &mut state.0 {
            s.retain(|x| !self.kill[block.index()].contains(x));
            s.extend(&self.gen_[block.index()]);
        }
    }
    fn transfer_edge(&self, _: &Graph, from: BlockId, succ_index: usize, state: &Facts) -> Facts {
        apply_effect(self.effects[from.index()][succ_index], state)
    }
}

fn arb_effects(g: &Graph) -> impl Strategy<Value = Vec<Vec<EdgeEffect>>> + use<> {
    let lens: Vec<usize> = g.succs.iter().map(Vec::len).collect();
    lens.into_iter()
        .map(|len| prop::collection::vec(arb_effect(), len))
        .collect::<Vec<_>>()
}

fn arb_visited() -> impl Strategy<Value = (Graph, Visited)> {
    arb_graph().prop_flat_map(|g| {
        let effects = arb_effects(&g);
        (Just(g), effects.prop_map(|effects| Visited { effects }))
    })
}

fn arb_live() -> impl Strategy<Value = (Graph, Live)> {
    arb_graph().prop_flat_map(|g| {
        let n = g.block_count();
        let sets = prop::collection::vec(prop::collection::btree_set(0u32..10, 0..4), n);
        (Just(g.clone()), sets.clone(), sets, arb_effects(&g)).prop_map(
            |(g, gen_, kill, effects)| {
                (
                    g,
                    Live {
                        gen_,
                        kill,
                        effects,
                    },
                )
            },
        )
    })
}

fn arb_limits() -> impl Strategy<Value = Limits> {
    (0u32..4, 0u32..3).prop_map(|(widening_delay, narrowing_passes)| Limits {
        widening_delay,
        narrowing_passes,
        ..Limits::default()
    })
}

fn assert_same<S: Lattice>(fast: &Solution<S>, naive: &Solution<S>) -> Result<(), TestCaseError> {
    prop_assert_eq!(&fast.stop, &StopReason::Stable);
    prop_assert_eq!(&naive.stop, &StopReason::Stable);
    prop_assert_eq!(&fast.entry, &naive.entry);
    prop_assert_eq!(&fast.exit, &naive.exit);
    Ok(())
}

proptest! {
    #[test]
    fn forward_worklist_matches_naive((g, analysis) in arb_visited(), limits in arb_limits()) {
        let fast = solve(&g, &analysis, &limits);
        let naive = solve_naive(&g, &analysis, &limits);
        assert_same(&fast, &naive)?;
        // Unreachable blocks keep bottom; the entry sees the boundary.
        let reachable = reachable_without(&g, None);
        for b in g.blocks() {
            if !reachable[b.index()] {
                prop_assert!(fast.entry[b.index()].is_bottom() && fast.exit[b.index()].is_bottom());
            }
        }
        prop_assert!(Facts::of([100]).leq(&fast.entry[0]));
    }

    #[test]
    fn backward_worklist_matches_naive((g, analysis) in arb_live(), limits in arb_limits()) {
        let fast = solve(&g, &analysis, &limits);
        let naive = solve_naive(&g, &analysis, &limits);
        assert_same(&fast, &naive)?;
        for b in g.blocks().filter(|&b| g.successors(b).is_empty()) {
            prop_assert!(Facts::of([99]).leq(&fast.exit[b.index()]));
        }
    }
}

/// The worklist visits a block only when something new flows into it: once per block on a chain,
/// and a loop body only as often as its head changes.
#[test]
fn worklist_visits_are_proportionate() {
    let n = 1000u32;
    let chain = Graph::new(
        (0..n)
            .map(|b| if b + 1 < n { vec![b + 1] } else { vec![] })
            .collect(),
    );
    let analysis = Visited {
        effects: chain
            .succs
            .iter()
            .map(|s| vec![EdgeEffect::Keep; s.len()])
            .collect(),
    };
    let solution = solve(&chain, &analysis, &Limits::default());
    assert_eq!(solution.stop, StopReason::Stable);
    assert_eq!(solution.stats.visits, u64::from(n));
    assert_eq!(
        solve_naive(&chain, &analysis, &Limits::default())
            .stats
            .visits,
        2 * u64::from(n)
    );

    // 0 -> (1 2 3) -> 4: the loop runs twice (the head learns about 1, 2, 3 once).
    let g = graph(&[&[1], &[2], &[3], &[1, 4], &[]]);
    let analysis = Visited {
        effects: g
            .succs
            .iter()
            .map(|s| vec![EdgeEffect::Keep; s.len()])
            .collect(),
    };
    let solution = solve(&g, &analysis, &Limits::default());
    assert_eq!(solution.stop, StopReason::Stable);
    assert_eq!(solution.stats.visits, 8);
    assert_eq!(solution.exit[4], Facts::of([0, 1, 2, 3, 4, 100]));
}

#[test]
fn backward_without_exits_stays_bottom() {
    let g = graph(&[&[1], &[0]]);
    let analysis = Live {
        gen_: vec![BTreeSet::from([1]); 2],
        kill: vec![BTreeSet::new(); 2],
        effects: vec![vec![EdgeEffect::Keep]; 2],
    };
    let solution = solve(&g, &analysis, &Limits::default());
    assert_eq!(solution.stop, StopReason::Stable);
    assert!(
        solution
            .entry
            .iter()
            .chain(&solution.exit)
            .all(Facts::is_bottom)
    );
    assert_eq!(solution.stats.visits, 0);
}

// ---------------------------------------------------------------------------------------------
// An infinite lattice: an upper bound on a counter
// ---------------------------------------------------------------------------------------------

/// `Bot` (unreachable) ⊑ `AtMost(n)` ⊑ `AtMost(n + 1)` ⊑ … ⊑ `Any`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Bot,
    AtMost(i64),
    Any,
}

impl Bound {
    fn rank(self) -> (u8, i64) {
        match self {
            Bound::Bot => (0, 0),
            Bound::AtMost(n) => (1, n),
            Bound::Any => (2, 0),
        }
    }
}

impl Lattice for Bound {
    const FINITE_HEIGHT: bool = false;

    fn bottom() -> Bound {
        Bound::Bot
    }
    fn is_bottom(&self) -> bool {
        *self == Bound::Bot
    }
    fn leq(&self, other: &Bound) -> bool {
        self.rank() <= other.rank()
    }
    fn join(&self, other: &Bound) -> Bound {
        if self.leq(other) { *other } else { *self }
    }
    fn meet(&self, other: &Bound) -> Bound {
        if self.leq(other) { *self } else { *other }
    }
    fn widen_with_thresholds(&self, newer: &Bound, thresholds: &Thresholds) -> Bound {
        match (*self, *newer) {
            (Bound::AtMost(a), Bound::AtMost(b)) if b > a => {
                thresholds.at_least(b).map_or(Bound::Any, Bound::AtMost)
            }
            _ => self.join(newer),
        }
    }
    fn widen(&self, newer: &Bound) -> Bound {
        self.widen_with_thresholds(newer, &Thresholds::none())
    }
    fn narrow(&self, newer: &Bound) -> Bound {
        match self {
            Bound::Any => *newer,
            _ => *self,
        }
    }
}

// ANCHOR: counting_loop
/// `i = 0; while i < 10 { i += 1 }` over the blocks `0: i = 0`, `1: head`, `2: i += 1`,
/// `3: exit`, tracking an upper bound of `i`.
const COUNTING_LOOP: &[&[u32]] = &[&[1], &[2, 3], &[1], &[]];

#[derive(Debug)]
struct Counter {
    thresholds: bool,
}

impl Analysis<Graph> for Counter {
    type State = Bound;
    const DIRECTION: Direction = Direction::Forward;

    fn boundary_state(&self, _: &Graph) -> Bound {
        Bound::Any
    }
    fn transfer_block(&self, _: &Graph, block: BlockId, state: &mut Bound) {
        *state = match (block.0, *state) {
            (_, Bound::Bot) => Bound::Bot,
            (0, _) => Bound::AtMost(0),
            (2, Bound::AtMost(n)) => Bound::AtMost(n + 1),
            (_, s) => s,
        };
    }
    fn transfer_edge(&self, _: &Graph, from: BlockId, succ_index: usize, state: &Bound) -> Bound {
        match (from.0, succ_index, *state) {
            // `i < 10` holds: i ≤ 9.
            (1, 0, Bound::AtMost(n)) => Bound::AtMost(n.min(9)),
            (1, 0, Bound::Any) => Bound::AtMost(9),
            // `i < 10` fails: i ≥ 10, impossible when i ≤ 9.
            (1, 1, Bound::AtMost(n)) if n < 10 => Bound::Bot,
            _ => *state,
        }
    }
    fn loop_thresholds(&self, _: &Graph, blocks: &[BlockId]) -> Thresholds {
        assert_eq!(ids(blocks), [1, 2], "the loop's blocks");
        if self.thresholds {
            Thresholds::new([10])
        } else {
            Thresholds::none()
        }
    }
}
// ANCHOR_END: counting_loop

#[test]
fn widening_terminates_and_narrowing_recovers_the_bound() {
    let g = graph(COUNTING_LOOP);
    let solution = solve(&g, &Counter { thresholds: false }, &Limits::default());
    assert_eq!(solution.stop, StopReason::Stable);
    assert_eq!(solution.stats.widenings, 1);
    assert!(solution.stats.narrowings >= 1);
    assert_eq!(solution.entry[1], Bound::AtMost(10));
    assert_eq!(solution.entry[3], Bound::AtMost(10));

    let no_narrowing = Limits {
        narrowing_passes: 0,
        ..Limits::default()
    };
    let solution = solve(&g, &Counter { thresholds: false }, &no_narrowing);
    assert_eq!(solution.stop, StopReason::Stable);
    assert_eq!(solution.entry[1], Bound::Any);
    assert_eq!(solution.stats.narrowings, 0);

    // With the guard's constant as a threshold, widening alone finds the bound.
    let solution = solve(&g, &Counter { thresholds: true }, &no_narrowing);
    assert_eq!(solution.stop, StopReason::Stable);
    assert_eq!(solution.entry[1], Bound::AtMost(10));
    assert_eq!(solution.exit[2], Bound::AtMost(10));
}

#[test]
fn widening_delay_postpones_widening() {
    let g = graph(COUNTING_LOOP);
    let limits = Limits {
        widening_delay: 5,
        narrowing_passes: 0,
        ..Limits::default()
    };
    let mut recorder = Recorder::default();
    let solution = solve_traced(&g, &Counter { thresholds: false }, &limits, &mut recorder);
    assert_eq!(solution.stop, StopReason::Stable);
    // Five joins at the head (0, 1, 2, 3, 4), then one widening.
    let head_joins = recorder
        .events
        .iter()
        .filter(|e| {
            matches!(
                e,
                Event::Join {
                    block: BlockId(1),
                    changed: true,
                    ..
                }
            )
        })
        .count();
    assert_eq!(head_joins, 5);
    assert_eq!(solution.stats.widenings, 1);
}

/// A guard on an edge for [`Steps`].
#[derive(Clone, Copy, Debug)]
enum Guard {
    None,
    /// `i <= c` holds along the edge.
    AtMost(i64),
    /// `i >= c` holds along the edge.
    AtLeast(i64),
}

/// Random counters: block `b` adds `add[b]` to `i`, edges filter by guards. `BACKWARD` runs the
/// same equations against the edges. When `wobble[b]` is `Some(m)`, block `b` subtracts 3 from
/// bounds above `m` and turns `Any` into `m`: a transfer that is not monotone.
#[derive(Debug)]
struct Steps<const BACKWARD: bool> {
    add: Vec<i64>,
    guards: Vec<Vec<Guard>>,
    wobble: Vec<Option<i64>>,
}

impl<const BACKWARD: bool> Analysis<Graph> for Steps<BACKWARD> {
    type State = Bound;
    const DIRECTION: Direction = if BACKWARD {
        Direction::Backward
    } else {
        Direction::Forward
    };

    fn boundary_state(&self, _: &Graph) -> Bound {
        Bound::AtMost(0)
    }
    fn transfer_block(&self, _: &Graph, block: BlockId, state: &mut Bound) {
        *state = match (*state, self.wobble[block.index()]) {
            (Bound::Bot, _) => Bound::Bot,
            (Bound::Any, None) => Bound::Any,
            (Bound::Any, Some(m)) => Bound::AtMost(m),
            (Bound::AtMost(n), Some(m)) if n > m => Bound::AtMost(n.saturating_sub(3)),
            (Bound::AtMost(n), _) => Bound::AtMost(n.saturating_add(self.add[block.index()])),
        };
    }
    fn transfer_edge(&self, _: &Graph, from: BlockId, succ_index: usize, state: &Bound) -> Bound {
        match (self.guards[from.index()][succ_index], *state) {
            (_, Bound::Bot) | (Guard::None, _) => *state,
            (Guard::AtMost(c), Bound::AtMost(n)) => Bound::AtMost(n.min(c)),
            (Guard::AtMost(c), Bound::Any) => Bound::AtMost(c),
            (Guard::AtLeast(c), Bound::AtMost(n)) if n < c => Bound::Bot,
            (Guard::AtLeast(_), s) => s,
        }
    }
    fn loop_thresholds(&self, _: &Graph, blocks: &[BlockId]) -> Thresholds {
        Thresholds::new(blocks.iter().flat_map(|b| {
            self.guards[b.index()].iter().filter_map(|g| match g {
                Guard::AtMost(c) | Guard::AtLeast(c) => Some(*c),
                Guard::None => None,
            })
        }))
    }
}

fn arb_steps<const BACKWARD: bool>(
    monotone: bool,
) -> impl Strategy<Value = (Graph, Steps<BACKWARD>)> {
    let guard = prop_oneof![
        2 => Just(Guard::None),
        1 => (-5i64..20).prop_map(Guard::AtMost),
        1 => (-5i64..20).prop_map(Guard::AtLeast),
    ];
    arb_graph().prop_flat_map(move |g| {
        let add = prop::collection::vec(-1i64..3, g.block_count());
        let wobble = prop::collection::vec(
            if monotone {
                Just(None).boxed()
            } else {
                prop::option::weighted(0.3, 0i64..15).boxed()
            },
            g.block_count(),
        );
        let guards = g
            .succs
            .iter()
            .map(|s| prop::collection::vec(guard.clone(), s.len()))
            .collect::<Vec<_>>();
        (Just(g), add, guards, wobble).prop_map(|(g, add, guards, wobble)| {
            (
                g,
                Steps {
                    add,
                    guards,
                    wobble,
                },
            )
        })
    })
}

/// Checks that `solution` satisfies every equation of `analysis` as an inequality: what flows
/// into a block is below its incoming state, and the transfer of that state below its outgoing.
fn assert_post_fixpoint<A: Analysis<Graph>>(
    g: &Graph,
    analysis: &A,
    solution: &Solution<A::State>,
) -> Result<(), TestCaseError> {
    let forward = A::DIRECTION == Direction::Forward;
    let (incoming, outgoing) = if forward {
        (&solution.entry, &solution.exit)
    } else {
        (&solution.exit, &solution.entry)
    };
    for b in g.blocks() {
        let mut flow = A::State::bottom();
        let on_boundary = if forward {
            b == g.entry()
        } else {
            g.successors(b).is_empty()
        };
        if on_boundary {
            flow = analysis.boundary_state(g);
        }
        if forward {
            for (p, _) in g.edges_into(b) {
                for (i, _) in g.successors(p).iter().enumerate().filter(|e| *e.1 == b) {
                    flow = flow.join(&analysis.transfer_edge(g, p, i, &outgoing[p.index()]));
                }
            }
        } else {
            for (i, s) in g.successors(b).iter().enumerate() {
                flow = flow.join(&analysis.transfer_edge(g, b, i, &outgoing[s.index()]));
            }
        }
        prop_assert!(
            flow.leq(&incoming[b.index()]),
            "{b:?}: {flow:?} flows into {:?}",
            incoming[b.index()]
        );
        let mut after = incoming[b.index()].clone();
        analysis.transfer_block(g, b, &mut after);
        prop_assert!(
            after.leq(&outgoing[b.index()]),
            "{b:?}: transfer gives {after:?}, kept {:?}",
            outgoing[b.index()]
        );
    }
    Ok(())
}

proptest! {
    #[test]
    fn non_monotone_transfers_still_give_post_fixpoints(
        (g, analysis) in arb_steps::<false>(false),
        limits in arb_limits(),
    ) {
        let solution = solve(&g, &analysis, &limits);
        prop_assert_eq!(&solution.stop, &StopReason::Stable);
        assert_post_fixpoint(&g, &analysis, &solution)?;
    }

    #[test]
    fn widening_and_narrowing_give_post_fixpoints_forward(
        (g, analysis) in arb_steps::<false>(true),
        limits in arb_limits(),
    ) {
        let solution = solve(&g, &analysis, &limits);
        prop_assert_eq!(&solution.stop, &StopReason::Stable);
        assert_post_fixpoint(&g, &analysis, &solution)?;
    }

    #[test]
    fn widening_and_narrowing_give_post_fixpoints_backward(
        (g, analysis) in arb_steps::<true>(true),
        limits in arb_limits(),
    ) {
        let solution = solve(&g, &analysis, &limits);
        prop_assert_eq!(&solution.stop, &StopReason::Stable);
        assert_post_fixpoint(&g, &analysis, &solution)?;
    }
}

/// A counter lattice whose widening is broken in the way `MODE` says.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Broken<const MODE: u8>(Bound);

/// Widening returns the previous iterate: not an upper bound of the new one.
const NOT_UPPER: u8 = 0;
/// Widening is the join on an infinite lattice: it never stabilises.
const NEVER_STABLE: u8 = 1;

impl<const MODE: u8> Lattice for Broken<MODE> {
    const FINITE_HEIGHT: bool = false;

    fn bottom() -> Self {
        Broken(Bound::Bot)
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
        match MODE {
            NOT_UPPER => self.clone(),
            _ => self.join(newer),
        }
    }
}

/// `i = 0; loop { i += 1 }`: blocks `0: i = 0`, `1: head`, `2: i += 1`.
#[derive(Debug)]
struct Unbounded<const MODE: u8>;

impl<const MODE: u8> Analysis<Graph> for Unbounded<MODE> {
    type State = Broken<MODE>;
    const DIRECTION: Direction = Direction::Forward;

    fn boundary_state(&self, _: &Graph) -> Broken<MODE> {
        Broken(Bound::Any)
    }
    fn transfer_block(&self, _: &Graph, block: BlockId, state: &mut Broken<MODE>) {
        state.0 = match (block.0, state.0) {
            (_, Bound::Bot) => Bound::Bot,
            (0, _) => Bound::AtMost(0),
            (2, Bound::AtMost(n)) => Bound::AtMost(n.saturating_add(1)),
            (_, s) => s,
        };
    }
}

const ENDLESS_LOOP: &[&[u32]] = &[&[1], &[2], &[1]];

#[test]
fn widening_that_is_not_an_upper_bound_is_reported() {
    let g = graph(ENDLESS_LOOP);
    let solution = solve(&g, &Unbounded::<NOT_UPPER>, &Limits::default());
    let StopReason::LawViolation { block, message } = solution.stop else {
        panic!("expected a law violation, got {:?}", solution.stop);
    };
    assert_eq!(block, BlockId(1));
    expect!["widening is not an upper bound of its arguments: previous Broken(AtMost(1)), new Broken(AtMost(2)), widened Broken(AtMost(1))"]
        .assert_eq(&message);
}

#[test]
fn widening_that_never_stabilises_is_reported() {
    let g = graph(ENDLESS_LOOP);
    let solution = solve(&g, &Unbounded::<NEVER_STABLE>, &Limits::default());
    let StopReason::LawViolation { block, message } = solution.stop else {
        panic!("expected a law violation, got {:?}", solution.stop);
    };
    assert_eq!(block, BlockId(1));
    assert!(
        message.starts_with("widening did not stabilise"),
        "{message}"
    );
    assert_eq!(
        solution.stats.widenings,
        u64::from(MAX_WIDENINGS_PER_HEAD) + 1
    );

    // A smaller budget stops it first.
    let limits = Limits {
        max_visits: 1000,
        ..Limits::default()
    };
    let solution = solve(&g, &Unbounded::<NEVER_STABLE>, &limits);
    assert_eq!(solution.stop, StopReason::Budget { visits: 1000 });
}

#[test]
fn budget_stops_both_solvers() {
    let g = graph(COUNTING_LOOP);
    let limits = Limits {
        max_visits: 3,
        ..Limits::default()
    };
    let solution = solve(&g, &Counter { thresholds: false }, &limits);
    assert_eq!(solution.stop, StopReason::Budget { visits: 3 });
    assert_eq!(solution.stats.visits, 3);
    let analysis = Visited {
        effects: vec![
            vec![EdgeEffect::Keep],
            vec![EdgeEffect::Keep; 2],
            vec![EdgeEffect::Keep],
            vec![],
        ],
    };
    let solution = solve_naive(&g, &analysis, &limits);
    assert_eq!(solution.stop, StopReason::Budget { visits: 3 });
    assert!(!solution.stop.is_stable());
}

// ---------------------------------------------------------------------------------------------
// Tracing
// ---------------------------------------------------------------------------------------------

fn render<S: std::fmt::Debug>(events: &[Event<S>]) -> String {
    let mut out = String::new();
    for event in events {
        match event {
            Event::Visit { block } => writeln!(out, "visit {block:?}"),
            Event::Transfer {
                block,
                before,
                after,
            } => writeln!(out, "  transfer {block:?}: {before:?} -> {after:?}"),
            Event::Join {
                block,
                result,
                changed,
            } => writeln!(out, "  join {block:?}: {result:?} changed={changed}"),
            Event::Widen {
                block,
                before,
                after,
            } => writeln!(out, "  widen {block:?}: {before:?} -> {after:?}"),
            Event::Narrow {
                block,
                before,
                after,
            } => writeln!(out, "  narrow {block:?}: {before:?} -> {after:?}"),
        }
        .unwrap();
    }
    out
}

// ANCHOR: trace
#[test]
fn trace_of_a_counting_loop() {
    let g = graph(COUNTING_LOOP);
    let limits = Limits {
        widening_delay: 1,
        narrowing_passes: 1,
        ..Limits::default()
    };
    let mut recorder = Recorder::default();
    let solution = solve_traced(&g, &Counter { thresholds: false }, &limits, &mut recorder);
    assert_eq!(solution.stop, StopReason::Stable);
    expect![[r#"
        visit bb0
          join bb0: Any changed=true
          transfer bb0: Any -> AtMost(0)
        visit bb1
          join bb1: AtMost(0) changed=true
          transfer bb1: AtMost(0) -> AtMost(0)
        visit bb2
          join bb2: AtMost(0) changed=true
          transfer bb2: AtMost(0) -> AtMost(1)
        visit bb1
          widen bb1: AtMost(0) -> Any
          transfer bb1: Any -> Any
        visit bb2
          join bb2: AtMost(9) changed=true
          transfer bb2: AtMost(9) -> AtMost(10)
        visit bb1
          join bb1: Any changed=false
        visit bb3
          join bb3: Any changed=true
          transfer bb3: Any -> Any
        visit bb1
          narrow bb1: Any -> AtMost(10)
          transfer bb1: AtMost(10) -> AtMost(10)
        visit bb2
          join bb2: AtMost(9) changed=false
        visit bb3
          join bb3: AtMost(10) changed=true
          transfer bb3: AtMost(10) -> AtMost(10)
    "#]]
    .assert_eq(&render(&recorder.events));
    // Tracing does not change the result.
    let untraced = solve(&g, &Counter { thresholds: false }, &limits);
    assert_eq!(untraced.entry, solution.entry);
    assert_eq!(untraced.stats, solution.stats);
}
// ANCHOR_END: trace
