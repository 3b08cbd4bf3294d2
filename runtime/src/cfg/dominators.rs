//! Dominators (Cooper, Harvey and Kennedy's iterative algorithm), the dominator tree, dominance
//! frontiers and iterated dominance frontiers.
//!
//! Block `a` dominates `b` when every path from the entry to `b` goes through `a`. Unreachable
//! blocks have no dominator and dominate nothing.

use super::order::{NONE, reverse_post_order};
use crate::program::{BlockId, Cfg};

/// The dominator tree of the blocks reachable from the entry.
#[derive(Clone, Debug)]
pub struct Dominators {
    entry: BlockId,
    /// Immediate dominator per block; the entry is its own, unreachable blocks have `NONE`.
    idom: Vec<u32>,
    /// Dominator-tree children, in reverse post-order, grouped by parent:
    /// `children[child_start[b]..child_start[b + 1]]` (one array, not a vector per block).
    children: Vec<BlockId>,
    child_start: Vec<u32>,
    /// Depth in the dominator tree (the entry has depth 0).
    depth: Vec<u32>,
    /// Pre-order and post-order numbers of a depth-first walk of the tree, for O(1) `dominates`.
    pre: Vec<u32>,
    post: Vec<u32>,
}

impl Dominators {
    /// Computes the dominators of `graph`.
    pub fn new<G: Cfg + ?Sized>(graph: &G) -> Dominators {
        let n = graph.block_count();
        let rpo = reverse_post_order(graph);
        let mut rpo_number = vec![NONE; n];
        for (i, b) in rpo.iter().enumerate() {
            rpo_number[b.index()] = i as u32;
        }
        let mut idom = vec![NONE; n];
        if let Some(entry) = rpo.first() {
            idom[entry.index()] = entry.0;
        }
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new_idom = NONE;
                for &p in graph.predecessors(b) {
                    if idom[p.index()] == NONE {
                        continue;
                    }
                    new_idom = if new_idom == NONE {
                        p.0
                    } else {
                        intersect(&idom, &rpo_number, p.0, new_idom)
                    };
                }
                if idom[b.index()] != new_idom {
                    idom[b.index()] = new_idom;
                    changed = true;
                }
            }
        }

        let mut depth = vec![0; n];
        let mut child_start = vec![0u32; n + 1];
        for &b in rpo.iter().skip(1) {
            let parent = idom[b.index()] as usize;
            child_start[parent + 1] += 1;
            depth[b.index()] = depth[parent] + 1;
        }
        for i in 0..n {
            child_start[i + 1] += child_start[i];
        }
        let mut fill = child_start.clone();
        let mut children = vec![BlockId(0); rpo.len().saturating_sub(1)];
        for &b in rpo.iter().skip(1) {
            let parent = idom[b.index()] as usize;
            children[fill[parent] as usize] = b;
            fill[parent] += 1;
        }
        let children_of = |b: BlockId| {
            &children[child_start[b.index()] as usize..child_start[b.index() + 1] as usize]
        };

        let mut pre = vec![NONE; n];
        let mut post = vec![NONE; n];
        let mut counter = 0;
        let mut stack: Vec<(BlockId, usize)> = rpo.first().map(|&e| (e, 0)).into_iter().collect();
        if let Some(&entry) = rpo.first() {
            pre[entry.index()] = counter;
            counter += 1;
        }
        while let Some((block, next)) = stack.last_mut() {
            match children_of(*block).get(*next) {
                Some(&child) => {
                    *next += 1;
                    pre[child.index()] = counter;
                    counter += 1;
                    stack.push((child, 0));
                }
                None => {
                    post[block.index()] = counter;
                    counter += 1;
                    stack.pop();
                }
            }
        }

        Dominators {
            entry: graph.entry(),
            idom,
            children,
            child_start,
            depth,
            pre,
            post,
        }
    }

    /// Whether `b` is reachable from the entry.
    pub fn is_reachable(&self, b: BlockId) -> bool {
        self.idom[b.index()] != NONE
    }

    /// The immediate dominator of `b`; `None` for the entry and for unreachable blocks.
    pub fn idom(&self, b: BlockId) -> Option<BlockId> {
        match self.idom[b.index()] {
            NONE => None,
            _ if b == self.entry => None,
            d => Some(BlockId(d)),
        }
    }

    /// Whether `a` dominates `b` (every block dominates itself). False when either is
    /// unreachable.
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        self.is_reachable(a)
            && self.is_reachable(b)
            && self.pre[a.index()] <= self.pre[b.index()]
            && self.post[b.index()] <= self.post[a.index()]
    }

    /// Whether `a` dominates `b` and differs from it.
    pub fn strictly_dominates(&self, a: BlockId, b: BlockId) -> bool {
        a != b && self.dominates(a, b)
    }

    /// The blocks `b` immediately dominates, in reverse post-order.
    pub fn children(&self, b: BlockId) -> &[BlockId] {
        &self.children
            [self.child_start[b.index()] as usize..self.child_start[b.index() + 1] as usize]
    }

    /// The depth of `b` in the dominator tree (the entry has depth 0); `None` if unreachable.
    pub fn depth(&self, b: BlockId) -> Option<u32> {
        self.is_reachable(b).then(|| self.depth[b.index()])
    }

    /// The dominators of `b` from `b` itself up to the entry; empty if `b` is unreachable.
    pub fn dominators_of(&self, b: BlockId) -> impl Iterator<Item = BlockId> + '_ {
        let start = self.is_reachable(b).then_some(b);
        std::iter::successors(start, |&d| self.idom(d))
    }
}

/// The nearest common dominator of `a` and `b`: walks the finger with the later reverse
/// post-order number up the (partial) tree until both meet.
fn intersect(idom: &[u32], rpo_number: &[u32], mut a: u32, mut b: u32) -> u32 {
    while a != b {
        while rpo_number[a as usize] > rpo_number[b as usize] {
            a = idom[a as usize];
        }
        while rpo_number[b as usize] > rpo_number[a as usize] {
            b = idom[b as usize];
        }
    }
    a
}

/// The dominance frontier of every block: `y` is in the frontier of `x` when `x` dominates a
/// predecessor of `y` but does not strictly dominate `y`.
#[derive(Clone, Debug)]
pub struct DominanceFrontiers {
    frontiers: Vec<Vec<BlockId>>,
}

impl DominanceFrontiers {
    /// Computes the frontiers of `graph` from its dominators.
    pub fn new<G: Cfg + ?Sized>(graph: &G, dominators: &Dominators) -> DominanceFrontiers {
        let n = graph.block_count();
        let mut frontiers: Vec<Vec<BlockId>> = vec![Vec::new(); n];
        for y in (0..n).map(BlockId::new) {
            if !dominators.is_reachable(y) {
                continue;
            }
            let stop = dominators.idom(y);
            for &p in graph.predecessors(y) {
                if !dominators.is_reachable(p) {
                    continue;
                }
                // Walk from the predecessor up to (excluding) y's immediate dominator: exactly the
                // blocks that dominate `p` without strictly dominating `y`.
                let mut runner = Some(p);
                while let Some(x) = runner {
                    if Some(x) == stop {
                        break;
                    }
                    frontiers[x.index()].push(y);
                    runner = dominators.idom(x);
                }
            }
        }
        for frontier in &mut frontiers {
            frontier.sort_unstable();
            frontier.dedup();
        }
        DominanceFrontiers { frontiers }
    }

    /// The dominance frontier of `b`, sorted by id.
    pub fn frontier(&self, b: BlockId) -> &[BlockId] {
        &self.frontiers[b.index()]
    }

    /// The iterated dominance frontier of `blocks` (where φs go for a name defined in `blocks`),
    /// sorted by id.
    pub fn iterated(&self, blocks: impl IntoIterator<Item = BlockId>) -> Vec<BlockId> {
        let mut in_result = vec![false; self.frontiers.len()];
        let mut queued = vec![false; self.frontiers.len()];
        let mut work: Vec<BlockId> = Vec::new();
        for b in blocks {
            if !queued[b.index()] {
                queued[b.index()] = true;
                work.push(b);
            }
        }
        let mut result = Vec::new();
        while let Some(b) = work.pop() {
            for &y in &self.frontiers[b.index()] {
                if !in_result[y.index()] {
                    in_result[y.index()] = true;
                    result.push(y);
                }
                if !queued[y.index()] {
                    queued[y.index()] = true;
                    work.push(y);
                }
            }
        }
        result.sort_unstable();
        result
    }
}
