//! The last rewrite: blocks no edge reaches from the entry any more removed, the others
//! renumbered in their order, and φ entries of edges that went with them dropped.

use absinthe::program::BlockId;

use super::facts::{Counts, Work};
use crate::function::retarget;

/// Keeps the blocks of `work` reachable from the entry.
pub(crate) fn prune(work: &mut Work, counts: &mut Counts) {
    let count = work.blocks.len();
    let mut reached = vec![false; count];
    let mut stack = vec![0usize];
    while let Some(b) = stack.pop() {
        if b >= count || std::mem::replace(&mut reached[b], true) {
            continue;
        }
        stack.extend(work.blocks[b].term.successors().iter().map(|t| t.index()));
    }
    let mut renumbered = vec![None; count];
    let mut next = 0;
    for (b, &kept) in reached.iter().enumerate() {
        if kept {
            renumbered[b] = Some(BlockId::new(next));
            next += 1;
        }
    }
    counts.blocks += count - next;
    if next == count {
        return;
    }
    let new = |b: BlockId| {
        renumbered
            .get(b.index())
            .copied()
            .flatten()
            .unwrap_or_else(|| unreachable!("{b:?} is the target of a kept block, so kept"))
    };
    // The edges each kept block still has, by old numbers, for the φs.
    let edges: Vec<Vec<BlockId>> = work.blocks.iter().map(|b| b.term.successors()).collect();
    let mut blocks = Vec::with_capacity(next);
    let mut stack_marks = Vec::with_capacity(next);
    let old_blocks = std::mem::take(&mut work.blocks);
    let old_marks = std::mem::take(&mut work.stack);
    for (b, (mut block, marks)) in old_blocks.into_iter().zip(old_marks).enumerate() {
        if !reached[b] {
            continue;
        }
        let id = BlockId::new(b);
        for phi in &mut block.phis {
            phi.incoming = phi
                .incoming
                .iter()
                .filter(|(from, _)| {
                    reached.get(from.index()).copied().unwrap_or(false)
                        && edges.get(from.index()).is_some_and(|e| e.contains(&id))
                })
                .map(|&(from, o)| (new(from), o))
                .collect();
        }
        block.term = retarget(block.term, new);
        blocks.push(block);
        stack_marks.push(marks);
    }
    work.blocks = blocks;
    work.stack = stack_marks;
}
