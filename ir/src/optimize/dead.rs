//! The second rewrite: assignments whose name is dead after them removed, from live names
//! computed on the function as folding left it, again until nothing more is removed (removing a
//! use may kill another assignment).
//!
//! Live names here count every path, not only those that reach an exit as the runtime's
//! [`Liveness`] analysis does (it leaves blocks that never return at bottom, so that a name read
//! only on the way into an endless loop is dead there): a run that loops forever may still trap
//! or be cut short by a budget, and what it read matters. The solving is this least fixpoint
//! over blocks; the transfer within a block is [`Liveness::live_before`].
//!
//! Only assignments that cannot trap go ([`super::ints::cannot_trap`]): a division by a name
//! that may be zero, a load or a call stays even when its result is never read.

use absinthe::liveness::{LiveSet, Liveness};
use absinthe::program::{BlockId, Cfg, Operand, Program, Stmt};

use super::facts::{Counts, Work};
use super::ints::{Ints, cannot_trap, step};
use crate::function::Function;

/// Removes dead assignments from `work` (the blocks of `original`) until none is left.
pub(crate) fn remove_dead(original: &Function, work: &mut Work, counts: &mut Counts) {
    loop {
        let removed = one_pass(original, work);
        counts.dead += removed;
        if removed == 0 {
            return;
        }
    }
}

/// One round of the live-names analysis and the removals it allows; how many were removed.
fn one_pass(original: &Function, work: &mut Work) -> usize {
    let function = work.function(original);
    let live_out = live_out(&function);
    let ints = Ints::of(&function);
    let mut removed = 0;
    for (b, block) in work.blocks.iter_mut().enumerate() {
        let Some(out) = live_out.get(b) else {
            unreachable!("block {b} is one of the {} blocks", live_out.len());
        };
        // What holds integers before each statement, forward; then the removals, backward.
        let mut known = ints.entry(BlockId::new(b));
        let mut before = Vec::with_capacity(block.stmts.len());
        for stmt in &block.stmts {
            before.push(known.clone());
            step(stmt, &mut known);
        }
        let mut live = out.clone();
        block.term.for_each_use(|o| {
            if let Operand::Name(n) = o {
                live.insert(n);
            }
        });
        let mut keep = vec![true; block.stmts.len()];
        for (i, stmt) in block.stmts.iter().enumerate().rev() {
            let dead = match stmt {
                Stmt::Assign { dest, rhs } => !live.contains(dest) && cannot_trap(rhs, &before[i]),
                Stmt::Store { .. } | Stmt::Call { .. } | Stmt::Apply { .. } => false,
            };
            if dead {
                keep[i] = false;
                removed += 1;
                continue;
            }
            if let Some(def) = stmt.def() {
                live.remove(&def);
            }
            stmt.for_each_use(|o| {
                if let Operand::Name(n) = o {
                    live.insert(n);
                }
            });
        }
        let mut flags = keep.iter();
        block
            .stmts
            .retain(|_| flags.next().copied().unwrap_or(true));
        if let Some(marks) = work.stack.get_mut(b) {
            let mut flags = keep.iter();
            marks.retain(|_| flags.next().copied().unwrap_or(true));
        }
    }
    removed
}

/// The names live at the end of each block, over every path (the least fixpoint, from no name
/// live anywhere): a successor's live names, and the operands its φs take from the block.
fn live_out(function: &Function) -> Vec<LiveSet> {
    let count = function.block_count();
    let mut live_in = vec![LiveSet::new(); count];
    let mut live_out = vec![LiveSet::new(); count];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..count).rev() {
            let id = BlockId::new(b);
            let mut out = LiveSet::new();
            for &to in function.successors(id) {
                for n in live_in.get(to.index()).into_iter().flat_map(LiveSet::iter) {
                    out.insert(*n);
                }
                for phi in function.phis(to) {
                    if let Some(&(_, Operand::Name(n))) =
                        phi.incoming.iter().find(|(p, _)| *p == id)
                    {
                        out.insert(n);
                    }
                }
            }
            let mut entry = Liveness::live_before(function, id, 0, &out);
            for phi in function.phis(id) {
                entry.remove(&phi.dest);
            }
            if entry != live_in[b] {
                live_in[b] = entry;
                changed = true;
            }
            live_out[b] = out;
        }
    }
    live_out
}
