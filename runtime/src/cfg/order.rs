//! Depth-first orders of the blocks reachable from the entry: post-order and reverse post-order.
//!
//! Both are computed with an explicit stack; successors are explored in their listed order.

use crate::program::{BlockId, Cfg};

/// Marks "no block" (and "not numbered yet") in the dense `u32` tables of this module and of the
/// dominator and weak-topological-order computations built on its orders.
pub(super) const NONE: u32 = u32::MAX;

/// The blocks reachable from the entry in depth-first post-order (the entry comes last).
pub fn post_order<G: Cfg + ?Sized>(graph: &G) -> Vec<BlockId> {
    let n = graph.block_count();
    let mut order = Vec::with_capacity(n);
    if n == 0 {
        return order;
    }
    let mut seen = vec![false; n];
    // Each frame is a block and the index of the next successor to explore.
    let mut stack: Vec<(BlockId, usize)> = Vec::new();
    let entry = graph.entry();
    seen[entry.index()] = true;
    stack.push((entry, 0));
    while let Some((block, next)) = stack.last_mut() {
        let succs = graph.successors(*block);
        match succs.get(*next) {
            Some(&succ) => {
                *next += 1;
                if !seen[succ.index()] {
                    seen[succ.index()] = true;
                    stack.push((succ, 0));
                }
            }
            None => {
                order.push(*block);
                stack.pop();
            }
        }
    }
    order
}

/// The blocks reachable from the entry in reverse post-order (the entry comes first). Every
/// edge that is not a back edge goes forward in this order.
pub fn reverse_post_order<G: Cfg + ?Sized>(graph: &G) -> Vec<BlockId> {
    let mut order = post_order(graph);
    order.reverse();
    order
}
