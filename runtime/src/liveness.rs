//! Live names: the classic backward may-analysis, shipped as the reference example of a backward
//! analysis on the engine.
//!
//! A name is live at a point when some path from that point reads it before writing it. The
//! state is the set of live names, lifted so that bottom ("no path from here reaches an exit")
//! differs from the empty set; it flows against control flow, from the blocks without successors
//! (where nothing is live) to the entry.

use crate::engine::{Analysis, Direction};
use crate::lattice::{Lift, Powerset};
use crate::program::{BlockId, NameId, Operand, Program};

/// The set of live names at a point.
pub type LiveSet = Powerset<NameId>;

/// The state of the analysis: bottom where no exit is reachable, else the live names.
pub type LiveState = Lift<LiveSet>;

/// The live-names analysis over any [`Program`].
///
/// φs are handled on edges: the operand a φ takes from a predecessor is live at the end of that
/// predecessor, and the φ's destination is not live above the φs. Only paths that reach an exit
/// count: a block from which no exit is reachable (an infinite loop) keeps bottom.
#[derive(Clone, Copy, Debug, Default)]
pub struct Liveness;

impl Liveness {
    /// The names live before the statement `index` of `block` (`index == stmts.len()` is the
    /// terminator), given the names live at the end of the block.
    pub fn live_before<P: Program + ?Sized>(
        program: &P,
        block: BlockId,
        index: usize,
        live_out: &LiveSet,
    ) -> LiveSet {
        let mut state = live_out.clone();
        let stmts = program.stmts(block);
        program.terminator(block).for_each_use(|o| {
            if let Operand::Name(n) = o {
                state.insert(n);
            }
        });
        for stmt in stmts[index.min(stmts.len())..].iter().rev() {
            if let Some(def) = stmt.def() {
                state.remove(&def);
            }
            stmt.for_each_use(|o| {
                if let Operand::Name(n) = o {
                    state.insert(n);
                }
            });
        }
        state
    }
}

impl<P: Program + ?Sized> Analysis<P> for Liveness {
    type State = LiveState;
    const DIRECTION: Direction = Direction::Backward;

    fn boundary_state(&self, _program: &P) -> LiveState {
        Lift::Lifted(LiveSet::new())
    }

    fn transfer_block(&self, program: &P, block: BlockId, state: &mut LiveState) {
        let Lift::Lifted(live) = state else { return };
        *live = Self::live_before(program, block, 0, live);
        for phi in program.phis(block) {
            live.remove(&phi.dest);
        }
    }

    fn transfer_edge(
        &self,
        program: &P,
        from: BlockId,
        succ_index: usize,
        state: &LiveState,
    ) -> LiveState {
        let mut state = state.clone();
        let (Lift::Lifted(out), Some(&to)) = (&mut state, program.successors(from).get(succ_index))
        else {
            return state;
        };
        for phi in program.phis(to) {
            if let Some(&(_, Operand::Name(n))) = phi.incoming.iter().find(|(p, _)| *p == from) {
                out.insert(n);
            }
        }
        state
    }
}
