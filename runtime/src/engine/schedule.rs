//! The one fixpoint schedule of the block engines: chaotic iteration in weak topological order
//! (the lowest queued position first) until nothing is queued, then descending passes in order
//! that visit only what a change reaches, each followed by a check of the heads a back edge
//! reached after their visit. The engines differ in how a visit is carried out (a dense state per
//! block, or the sparse store), which they say through [`Visits`]; the order of visits, the
//! queue and the passes are written here once, so that the dense and sparse engines take the
//! same steps by construction.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::StopReason;
use crate::cfg::Wto;
use crate::program::{BlockId, Cfg};

/// Marks a block the flow never reaches (no position) and a block that is no head (no slot).
pub(crate) const NONE: u32 = u32::MAX;

/// The weak topological order of the flow graph, each block's position in it, which blocks are
/// heads, and the queue of blocks to visit.
#[derive(Debug)]
pub(crate) struct Schedule {
    /// The weak topological order (of the reversed graph for a backward analysis).
    pub(crate) wto: Wto,
    /// Position per block in the order (`NONE` when the flow never reaches it).
    pub(crate) position: Vec<u32>,
    /// The blocks by position.
    pub(crate) order: Vec<BlockId>,
    /// Per position: the head's index among the heads, or `NONE`.
    pub(crate) head_slot: Vec<u32>,
    heads: usize,
    worklist: BinaryHeap<Reverse<u32>>,
    queued: Vec<bool>,
}

impl Schedule {
    /// The schedule of `wto` for a graph of `blocks` blocks, leaving out the first `skip` blocks
    /// of the order (the virtual exit a reversed graph starts with).
    pub(crate) fn new(wto: Wto, skip: usize, blocks: usize) -> Schedule {
        let order: Vec<BlockId> = wto.order().iter().skip(skip).copied().collect();
        let mut position = vec![NONE; blocks];
        let mut head_slot = vec![NONE; order.len()];
        let mut heads = 0;
        for (pos, &b) in order.iter().enumerate() {
            position[b.index()] = pos as u32;
            if wto.is_head(b) {
                head_slot[pos] = heads;
                heads += 1;
            }
        }
        Schedule {
            wto,
            queued: vec![false; order.len()],
            position,
            order,
            head_slot,
            heads: heads as usize,
            worklist: BinaryHeap::new(),
        }
    }

    /// How many heads the order has (their slots are `0..heads()`).
    pub(crate) fn heads(&self) -> usize {
        self.heads
    }

    /// Queues `b`, unless it is queued already or the flow never reaches it.
    #[inline]
    pub(crate) fn push(&mut self, b: BlockId) {
        let pos = self.position.get(b.index()).copied().unwrap_or(NONE);
        if pos != NONE && !self.queued[pos as usize] {
            self.queued[pos as usize] = true;
            self.worklist.push(Reverse(pos));
        }
    }

    /// The block at `pos` and its head slot.
    fn at(&self, pos: usize) -> (BlockId, Option<usize>) {
        let slot = self.head_slot[pos];
        (self.order[pos], (slot != NONE).then_some(slot as usize))
    }

    /// The queued block of lowest position, taken off the queue.
    #[inline]
    fn pop(&mut self) -> Option<(BlockId, Option<usize>)> {
        let Reverse(pos) = self.worklist.pop()?;
        self.queued[pos as usize] = false;
        Some(self.at(pos as usize))
    }

    /// Marks the successors `succs` of a block dirty for the current descending pass.
    fn mark(&self, succs: &[BlockId], dirty: &mut [bool]) {
        for &s in succs {
            if let Some(&p) = self.position.get(s.index()).filter(|&&p| p != NONE) {
                dirty[p as usize] = true;
            }
        }
    }
}

/// How an engine carries out the visits [`run`] schedules. `'g` is the graph's lifetime.
pub(crate) trait Visits<'g> {
    /// The engine's schedule.
    fn schedule(&mut self) -> &mut Schedule;

    /// The blocks the flow goes to from `b`.
    fn successors(&self, b: BlockId) -> &'g [BlockId];

    /// An ascending visit of `b` (`head`: its slot when it is a head): what flows in, joined or
    /// widened into its state, then its transfer when that changed. Whether its successors must
    /// be visited.
    fn ascend_visit(&mut self, b: BlockId, head: Option<usize>) -> Result<bool, StopReason>;

    /// A descending visit of `b`: what flows in, narrowed into a head's state or replacing
    /// another's, then its transfer when that changed. Whether its state changed, and whether
    /// its successors must be visited.
    fn descend_visit(
        &mut self,
        b: BlockId,
        head: Option<usize>,
    ) -> Result<(bool, bool), StopReason>;

    /// After a descending pass, for a block a back edge reached after its visit: whether what
    /// flows into it now is not below its state (it must be visited again, ascending).
    fn below_inflow(&mut self, b: BlockId, head: Option<usize>) -> bool;
}

/// Runs the schedule from the blocks queued already: the ascending phase, then up to
/// `narrowing_passes` descending passes, climbing back to a post-fixpoint (and stopping) when a
/// pass leaves a head below what flows into it.
pub(crate) fn run<'g, V: Visits<'g>>(
    visits: &mut V,
    narrowing_passes: u32,
) -> Result<(), StopReason> {
    ascend(visits)?;
    for _ in 0..narrowing_passes {
        let changed = descend(visits)?;
        if !visits.schedule().worklist.is_empty() {
            // The pass left a head below what flows into it (a non-monotone transfer or an
            // inexact join): climb back to a post-fixpoint and stop narrowing.
            ascend(visits)?;
            break;
        }
        if !changed {
            break;
        }
    }
    Ok(())
}

/// The ascending phase: visits queued blocks, lowest position first, until none is queued.
#[inline]
fn ascend<'g, V: Visits<'g>>(visits: &mut V) -> Result<(), StopReason> {
    while let Some((b, head)) = visits.schedule().pop() {
        if visits.ascend_visit(b, head)? {
            let succs = visits.successors(b);
            let schedule = visits.schedule();
            for &s in succs {
                schedule.push(s);
            }
        }
    }
    Ok(())
}

/// One descending pass in order. Only blocks something new flows into are visited: after a
/// stable ascending phase, and after every pass, each non-head holds exactly what flows into
/// it, so the heads seed the pass. Queues the blocks [`Visits::below_inflow`] reports. Whether
/// any state changed.
fn descend<'g, V: Visits<'g>>(visits: &mut V) -> Result<bool, StopReason> {
    let mut dirty: Vec<bool> = visits
        .schedule()
        .head_slot
        .iter()
        .map(|&slot| slot != NONE)
        .collect();
    let mut any_changed = false;
    for pos in 0..dirty.len() {
        if !dirty[pos] {
            continue;
        }
        dirty[pos] = false;
        let (b, head) = visits.schedule().at(pos);
        let (changed, onward) = visits.descend_visit(b, head)?;
        any_changed |= changed;
        if onward {
            let succs = visits.successors(b);
            visits.schedule().mark(succs, &mut dirty);
        }
    }
    // Blocks still dirty were reached by a back edge after their visit: they are heads, and
    // narrowing is sound only if they are still above what flows into them.
    for pos in (0..dirty.len()).filter(|&pos| dirty[pos]) {
        let (b, head) = visits.schedule().at(pos);
        if visits.below_inflow(b, head) {
            visits.schedule().push(b);
        }
    }
    Ok(any_changed)
}

/// The incoming edges of every block as `(source, successor index)`, grouped by target:
/// block `b`'s edges are `edges[offsets[b]..offsets[b + 1]]`. Successors outside the graph are
/// left out.
pub(crate) fn incoming_edges<G: Cfg + ?Sized>(graph: &G) -> (Vec<u32>, Vec<(BlockId, u32)>) {
    let n = graph.block_count();
    let mut offsets = vec![0u32; n + 1];
    for b in (0..n).map(BlockId::new) {
        for &s in graph.successors(b) {
            if s.index() < n {
                offsets[s.index() + 1] += 1;
            }
        }
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let mut fill = offsets.clone();
    let mut edges = vec![(BlockId(0), 0u32); offsets[n] as usize];
    for b in (0..n).map(BlockId::new) {
        for (index, &s) in graph.successors(b).iter().enumerate() {
            if s.index() < n {
                let slot = &mut fill[s.index()];
                edges[*slot as usize] = (b, index as u32);
                *slot += 1;
            }
        }
    }
    (offsets, edges)
}
