//! The second rewrite: assignments whose name is dead after them removed, from live names
//! computed on the function as folding left it, again until nothing more is removed (removing a
//! use may kill another assignment).
//!
//! Live names here count every path, not only those that reach an exit: the runtime's
//! [`Liveness`] alone leaves blocks that never return at bottom, so that a name read only on the
//! way into an endless loop is dead there, but a run that loops forever may still trap inside
//! the loop, and what it read matters. So the analysis runs on the function seen with one more
//! exit that every block may go to ([`WithExit`]).
//!
//! Only assignments that cannot trap go ([`super::ints::cannot_trap`]): a division by a name
//! that may be zero, a load or a call stays even when its result is never read.

use absinthe::cfg::WithExit;
use absinthe::engine::{Limits, solve};
use absinthe::lattice::Lift;
use absinthe::liveness::{LiveSet, Liveness};
use absinthe::program::{BlockId, Cfg, Operand, Stmt};

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
    let Some(live_out) = live_out(&function) else {
        return 0;
    };
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

/// The names live at the end of each block, over every path: the runtime's [`Liveness`] on the
/// worklist engine, run on `function` with an exit block every block may also go to, so that
/// every block reaches an exit and none stays at bottom. `None` when the engine stops early.
fn live_out(function: &Function) -> Option<Vec<LiveSet>> {
    let view = WithExit::new(function);
    let solution = solve(&view, &Liveness, &Limits::default());
    if !solution.stop.is_stable() {
        return None;
    }
    let mut out: Vec<LiveSet> = Vec::with_capacity(function.block_count());
    for state in solution.exit.into_iter().take(function.block_count()) {
        match state {
            Lift::Lifted(live) => out.push(live),
            Lift::Bottom => unreachable!("every block goes to the added exit, so reaches an exit"),
        }
    }
    Some(out)
}
