//! Sparse storage of per-block states (seed 000's sparse heap): each block keeps its entry state
//! only as a delta against the entry state of its immediate dominator, and a lookup rebuilds the
//! state by walking up the dominator tree to a block stored whole and applying the deltas on the
//! way back down. [`SparseStates`] does this for any [`DeltaState`]; [`SparseHeapSolution`] is
//! the alias analysis's dense [`Solution`] kept that way, giving back exactly the dense states.
//!
//! # Design
//!
//! Between a block and its immediate dominator, most of an alias heap stays put: the variables
//! the path in between assigns leave or join their objects, a few objects die or are born, and
//! every allocation the path runs ages all the objects of its site by the same amount. A
//! [`HeapDelta`] says exactly that: per allocation site one *generation shift* applied to every
//! object of the site (the seed's generation delta between an extended basic block's head and
//! its immediate dominator), the base's objects that disappear, the base's objects that gain or
//! lose variables (or whose generation is not the shifted one), and the objects made from
//! nothing. Objects of the base are named by their position in the base's sorted order, so an
//! edit stores no copy of the object it edits. A disjunction of heaps ([`FiniteSum`](absinthe::lattice::FiniteSum)) describes
//! each of its disjuncts against the base's disjunct it differs least from
//! ([`DisjunctsDelta`]), or is written out whole when the base is bottom or the description
//! would cost more than the state.
//!
//! The store keeps a block whole when it has no immediate dominator (the entry, blocks never
//! reached), when its delta would hold no fewer bytes than its state (unless it changes nothing),
//! and every
//! [`SparseStates::DEFAULT_CHECKPOINT`] levels of the dominator tree (so a lookup applies a
//! bounded number of deltas, even along a chain of thousands of blocks). A lookup
//! ([`SparseStates::get`]) also starts from any of the last few states it rebuilt that lie on
//! its way up (a small cache: asking for blocks in order costs about one delta each).
//! [`SparseStates::for_each`] rebuilds every state once, walking the dominator tree and keeping
//! only the states of blocks with children still to visit.
//!
//! Deltas are computed from the dense states here ([`SparseHeapSolution::from_dense`]); the
//! engine still iterates on dense states.

mod delta;

pub use delta::{DisjunctsDelta, FreshObject, HeapDelta, HeapEdit, ObjectEdit};

use std::fmt::Debug;
use std::sync::{Mutex, PoisonError};

use super::Heaps;
use absinthe::cfg::{Dominators, reverse_post_order};
use absinthe::engine::{Solution, Stats, StopReason};
use absinthe::lattice::Lattice;
use absinthe::program::{BlockId, Cfg};

/// A state that can be stored as a difference from another state of its kind.
///
/// # Contract
///
/// `apply(base, &delta(base, target)) == target` for every `base` and `target`: the store
/// relies on it to give back exactly the states it was built from. `delta_bytes` and
/// `state_bytes` estimate the heap bytes a delta and a state hold (they decide what the store
/// keeps whole, and need not be exact).
pub trait DeltaState: Clone + PartialEq + Debug + Sized {
    /// What turns one state into another.
    type Delta: Clone + PartialEq + Debug;

    /// The delta that turns `base` into `target`.
    fn delta(base: &Self, target: &Self) -> Self::Delta;

    /// `base` with `delta` applied.
    fn apply(base: &Self, delta: &Self::Delta) -> Self;

    /// The estimated bytes `delta` holds (its own size included).
    fn delta_bytes(delta: &Self::Delta) -> usize;

    /// The estimated bytes the state holds (its own size included).
    fn state_bytes(&self) -> usize;

    /// Whether `delta` changes nothing.
    fn is_identity(delta: &Self::Delta) -> bool;
}

/// How a block's state is kept.
#[derive(Clone, Debug)]
enum Node<S: DeltaState> {
    /// Whole.
    Full(S),
    /// As a delta against the state of block `parent` (its immediate dominator).
    Delta { parent: u32, delta: S::Delta },
}

/// How many rebuilt states [`SparseStates::get`] remembers.
const CACHE: usize = 8;

/// Per-block states, each kept as a delta against its immediate dominator's (see the module
/// documentation).
#[derive(Debug)]
pub struct SparseStates<S: DeltaState> {
    nodes: Vec<Node<S>>,
    /// The last states [`SparseStates::get`] rebuilt, most recent first.
    cache: Mutex<Vec<(u32, S)>>,
}

/// What a [`SparseStates`] holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SparseSummary {
    /// Blocks kept whole.
    pub full: usize,
    /// Blocks kept as a delta.
    pub deltas: usize,
    /// Of those, deltas that change nothing.
    pub identities: usize,
    /// Estimated bytes of the whole states ([`DeltaState::state_bytes`]).
    pub full_bytes: usize,
    /// Estimated bytes of the deltas ([`DeltaState::delta_bytes`]).
    pub delta_bytes: usize,
}

impl<S: DeltaState> SparseStates<S> {
    /// Blocks further than this from a block kept whole (in levels of the dominator tree) are
    /// kept whole too.
    pub const DEFAULT_CHECKPOINT: u32 = 32;

    /// The states `states` (indexed by block id) of `graph`, stored sparsely.
    pub fn build<G: Cfg + ?Sized>(graph: &G, states: &[S]) -> SparseStates<S> {
        Self::build_with(graph, states, Self::DEFAULT_CHECKPOINT)
    }

    /// [`SparseStates::build`] with a block kept whole every `checkpoint` levels of the
    /// dominator tree (0 or 1: every block whole).
    pub fn build_with<G: Cfg + ?Sized>(
        graph: &G,
        states: &[S],
        checkpoint: u32,
    ) -> SparseStates<S> {
        let dominators = Dominators::new(graph);
        let n = states.len();
        let mut nodes: Vec<Option<Node<S>>> = vec![None; n];
        // Levels below the nearest block kept whole.
        let mut distance = vec![0u32; n];
        for b in reverse_post_order(graph) {
            let Some(target) = states.get(b.index()) else {
                continue;
            };
            let parent = dominators
                .idom(b)
                .filter(|p| p.index() < n && nodes[p.index()].is_some());
            let node = parent.and_then(|p| {
                let level = distance[p.index()].saturating_add(1);
                if level >= checkpoint {
                    return None;
                }
                let delta = S::delta(&states[p.index()], target);
                // Either way the node holds the larger of a state and a delta inline: compare
                // what they hold beyond it.
                let beyond_delta = S::delta_bytes(&delta).saturating_sub(size_of::<S::Delta>());
                let beyond_state = target.state_bytes().saturating_sub(size_of::<S>());
                if beyond_delta >= beyond_state && !S::is_identity(&delta) {
                    return None;
                }
                distance[b.index()] = level;
                Some(Node::Delta { parent: p.0, delta })
            });
            nodes[b.index()] = Some(node.unwrap_or_else(|| Node::Full(target.clone())));
        }
        let nodes = nodes
            .into_iter()
            .zip(states)
            .map(|(node, state)| node.unwrap_or_else(|| Node::Full(state.clone())))
            .collect();
        SparseStates {
            nodes,
            cache: Mutex::new(Vec::new()),
        }
    }

    /// The number of blocks.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether there are no blocks.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The state of block `b`, rebuilt from its dominators (`None` when `b` is not a block).
    pub fn get(&self, b: BlockId) -> Option<S> {
        let n = self.nodes.len();
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        let mut path: Vec<&S::Delta> = Vec::new();
        let mut at = b.index();
        let mut state = loop {
            if let Some((_, s)) = cache.iter().find(|(c, _)| *c as usize == at) {
                break s.clone();
            }
            match self.nodes.get(at)? {
                Node::Full(s) => break s.clone(),
                Node::Delta { parent, delta } => {
                    path.push(delta);
                    at = *parent as usize;
                    if path.len() > n {
                        return None;
                    }
                }
            }
        };
        for delta in path.iter().rev() {
            state = S::apply(&state, delta);
        }
        if !path.is_empty() {
            cache.retain(|(c, _)| *c as usize != b.index());
            cache.insert(0, (b.0, state.clone()));
            cache.truncate(CACHE);
        }
        Some(state)
    }

    /// Calls `f` with every block and its state, each state rebuilt once: blocks kept whole in
    /// order of id, each followed by the blocks stored against it, depth first.
    pub fn for_each(&self, mut f: impl FnMut(BlockId, &S)) {
        let n = self.nodes.len();
        // The children of each block in the store's tree, as one array sliced by `start`.
        let mut start = vec![0u32; n + 1];
        for node in &self.nodes {
            if let Node::Delta { parent, .. } = node {
                if let Some(s) = start.get_mut(*parent as usize + 1) {
                    *s += 1;
                }
            }
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut children = vec![0u32; start[n] as usize];
        for (i, node) in self.nodes.iter().enumerate() {
            if let Node::Delta { parent, .. } = node {
                if let Some(slot) = fill.get_mut(*parent as usize) {
                    children[*slot as usize] = i as u32;
                    *slot += 1;
                }
            }
        }
        let kids = |b: u32| {
            let b = b as usize;
            start[b] as usize..start[b + 1] as usize
        };
        for (root, node) in self.nodes.iter().enumerate() {
            let Node::Full(state) = node else { continue };
            let root = root as u32;
            f(BlockId(root), state);
            // Blocks whose children are still to visit, with their state and the next child.
            let mut stack: Vec<(u32, S, usize)> = Vec::new();
            if !kids(root).is_empty() {
                stack.push((root, state.clone(), kids(root).start));
            }
            while let Some((block, state, next)) = stack.last_mut() {
                let range = kids(*block);
                let Some(&child) = children.get(*next).filter(|_| *next < range.end) else {
                    stack.pop();
                    continue;
                };
                *next += 1;
                let last = *next >= range.end;
                let Node::Delta { delta, .. } = &self.nodes[child as usize] else {
                    continue;
                };
                let child_state = S::apply(state, delta);
                if last {
                    stack.pop();
                }
                f(BlockId(child), &child_state);
                if !kids(child).is_empty() {
                    stack.push((child, child_state, kids(child).start));
                }
            }
        }
    }

    /// Every state, rebuilt, indexed by block id.
    pub fn to_dense(&self) -> Vec<S> {
        let mut out: Vec<Option<S>> = vec![None; self.nodes.len()];
        self.for_each(|b, s| out[b.index()] = Some(s.clone()));
        out.into_iter().flatten().collect()
    }

    /// How many blocks are kept whole and as deltas, and their estimated bytes.
    pub fn summary(&self) -> SparseSummary {
        let mut summary = SparseSummary::default();
        for node in &self.nodes {
            match node {
                Node::Full(s) => {
                    summary.full += 1;
                    summary.full_bytes += s.state_bytes();
                }
                Node::Delta { delta, .. } => {
                    summary.deltas += 1;
                    summary.identities += usize::from(S::is_identity(delta));
                    summary.delta_bytes += S::delta_bytes(delta);
                }
            }
        }
        summary
    }
}

/// The solution of [`AliasAnalysis`](super::AliasAnalysis) with its entry states kept sparsely:
/// [`SparseHeapSolution::entry`] gives back exactly the dense solution's entry state of every
/// block.
#[derive(Debug)]
pub struct SparseHeapSolution<const N: usize> {
    entry: SparseStates<Heaps<N>>,
    /// Why the engine stopped.
    pub stop: StopReason,
    /// What it did.
    pub stats: Stats,
}

impl<const N: usize> SparseHeapSolution<N> {
    /// The entry states of `solution`, a solution over `program`, stored sparsely.
    pub fn from_dense<P: Cfg + ?Sized>(
        program: &P,
        solution: &Solution<Heaps<N>>,
    ) -> SparseHeapSolution<N> {
        SparseHeapSolution {
            entry: SparseStates::build(program, &solution.entry),
            stop: solution.stop.clone(),
            stats: solution.stats.clone(),
        }
    }

    /// The heaps at the entry of `block` (bottom when it is not a block).
    pub fn entry(&self, block: BlockId) -> Heaps<N> {
        self.entry.get(block).unwrap_or_else(Heaps::bottom)
    }

    /// Calls `f` with every block and its entry heaps, rebuilding each once.
    pub fn for_each_entry(&self, f: impl FnMut(BlockId, &Heaps<N>)) {
        self.entry.for_each(f);
    }

    /// The sparse store of the entry states.
    pub fn store(&self) -> &SparseStates<Heaps<N>> {
        &self.entry
    }
}
