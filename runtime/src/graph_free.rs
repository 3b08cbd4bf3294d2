//! The graph-free data-flow algorithm (Mohnen, 2002) over an instruction list, with the two
//! corrections of the article that implemented it for constant propagation.
//!
//! No control-flow graph is built: the solver walks instructions by program counter, keeps one
//! state per instruction and a working set of instructions to revisit. The corrections: a state is
//! updated with the lattice operation (`s[l] ⊔ new`, in absinthe's orientation where bottom is "no
//! information") instead of being overwritten, and a change is detected by inequality instead of
//! the strict order. absinthe tests inequality on the updated state, which also keeps the walk from
//! re-running an unchanged path when the incoming state is already below the stored one.

use crate::engine::{Limits, StopReason};
use crate::lattice::Lattice;
use std::collections::BTreeSet;

/// How control leaves an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// To the next instruction.
    Next,
    /// Only to the instruction at the given index (the instruction count is the program's exit).
    Goto(usize),
    /// To the given index or to the next instruction.
    CondGoto(usize),
}

/// An instruction list the graph-free algorithm can run.
pub trait InstrProgram {
    /// The analysis state attached to each instruction.
    type State: Lattice;
    /// Number of instructions; index `len()` is the exit.
    fn len(&self) -> usize;
    /// Whether there are no instructions.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// How control leaves instruction `pc`.
    fn flow(&self, pc: usize) -> Flow;
    /// Applies instruction `pc` to `state`.
    fn transfer(&self, pc: usize, state: &mut Self::State);
    /// The state leaving the conditional jump `pc` when its condition is `taken` (true: to the
    /// target; false: to the next instruction). Bottom marks the way as infeasible. The default
    /// ignores the condition.
    fn branch(&self, pc: usize, taken: bool, state: &Self::State) -> Self::State {
        let _ = (pc, taken);
        state.clone()
    }
}

/// The result of the graph-free solver.
#[derive(Clone, Debug)]
pub struct GraphFreeSolution<S> {
    /// The state before each instruction.
    pub states: Vec<S>,
    /// The state flowing off the end of the program.
    pub exit: S,
    /// Why the solver stopped.
    pub stop: StopReason,
    /// Number of instructions evaluated.
    pub evaluations: u64,
}

/// Runs the graph-free algorithm from `entry` (the state before instruction 0). Jump targets past
/// the exit are treated as the exit. `limits.max_visits` bounds the number of instruction
/// evaluations; widening is not applied, so the lattice should have finite height.
pub fn solve_graph_free<P: InstrProgram>(
    program: &P,
    entry: P::State,
    limits: &Limits,
) -> GraphFreeSolution<P::State> {
    let n = program.len();
    let mut states: Vec<P::State> = vec![P::State::bottom(); n];
    let mut exit = P::State::bottom();
    if let Some(first) = states.first_mut() {
        *first = entry;
    } else {
        exit = entry;
    }
    let mut work: BTreeSet<usize> = (0..n).collect();
    let mut evaluations = 0u64;
    // Joins `new` into the state of `target`; true when that state changed.
    let update =
        |states: &mut Vec<P::State>, exit: &mut P::State, target: usize, new: &P::State| {
            let slot = if target < n {
                &mut states[target]
            } else {
                exit
            };
            slot.join_with(new).changed()
        };
    while let Some(&start) = work.first() {
        let mut pc = start;
        while pc < n {
            work.remove(&pc);
            if evaluations >= limits.max_visits {
                return GraphFreeSolution {
                    states,
                    exit,
                    stop: StopReason::Budget {
                        visits: evaluations,
                    },
                    evaluations,
                };
            }
            evaluations += 1;
            let mut new = states[pc].clone();
            program.transfer(pc, &mut new);
            let next = match program.flow(pc) {
                Flow::Goto(target) => target,
                Flow::Next => pc + 1,
                Flow::CondGoto(target) => {
                    let taken = program.branch(pc, true, &new);
                    if update(&mut states, &mut exit, target, &taken) && target < n {
                        work.insert(target);
                    }
                    new = program.branch(pc, false, &new);
                    pc + 1
                }
            };
            pc = if update(&mut states, &mut exit, next, &new) {
                next
            } else {
                n
            };
        }
    }
    GraphFreeSolution {
        states,
        exit,
        stop: StopReason::Stable,
        evaluations,
    }
}
