//! What the engines agree on: the [`Analysis`] contract, [`Limits`], [`Solution`] and
//! [`StopReason`], and tracing ([`Event`], [`Tracer`], [`Recorder`]).

use crate::lattice::{Lattice, Thresholds};
use crate::program::{BlockId, Cfg};

/// Which way facts flow: the word a declaration writes (`direction backward;`) is the engine's
/// own.
pub use absinthe_spec::Direction;

/// A dataflow problem over the graph `G`.
///
/// States are attached to both ends of every block. For a forward analysis the engine joins
/// [`Analysis::transfer_edge`] of every predecessor into the block's entry state and applies
/// [`Analysis::transfer_block`] to get its exit state; a backward analysis does the same from
/// successors into the exit state and back to the entry state.
///
/// # Laws
///
/// Transfers must be monotone and map bottom to bottom (bottom is "unreachable"); the engine
/// reaches the least fixpoint exactly when they are monotone and the lattice has finite height.
pub trait Analysis<G: Cfg + ?Sized> {
    /// The lattice of states attached to program points.
    type State: Lattice;

    /// Which way facts flow.
    const DIRECTION: Direction;

    /// The state at the boundary: the entry block's entry for a forward analysis, the exit state
    /// of every block without successors for a backward one.
    fn boundary_state(&self, graph: &G) -> Self::State;

    /// Applies the statements of `block` to `state`, in the direction of the analysis.
    fn transfer_block(&self, graph: &G, block: BlockId, state: &mut Self::State);

    /// The state carried along the edge `from → graph.successors(from)[succ_index]`.
    ///
    /// Forward: `state` is the exit state of `from`; the result flows into the target's entry.
    /// Backward: `state` is the entry state of the target; the result flows into `from`'s exit.
    /// Return bottom for an infeasible edge. The default passes `state` unchanged.
    fn transfer_edge(
        &self,
        graph: &G,
        from: BlockId,
        succ_index: usize,
        state: &Self::State,
    ) -> Self::State {
        let _ = (graph, from, succ_index);
        state.clone()
    }

    /// Constants a widening at the head of the loop made of `blocks` may stop at (for example the
    /// constants its guards compare with). The default is none.
    fn loop_thresholds(&self, graph: &G, blocks: &[BlockId]) -> Thresholds {
        let _ = (graph, blocks);
        Thresholds::none()
    }

    /// How many transfer evaluations one [`Analysis::transfer_block`] of `block` counts for in
    /// [`Stats::evaluations`] (for example one per statement). The default counts the block as one.
    fn transfer_evaluations(&self, graph: &G, block: BlockId) -> u64 {
        let _ = (graph, block);
        1
    }
}

/// Bounds on the work an engine may do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Maximum number of block visits before the engine stops with [`StopReason::Budget`].
    pub max_visits: u64,
    /// Number of plain joins at a loop head before widening starts.
    pub widening_delay: u32,
    /// Number of descending (narrowing) passes after the ascending phase stabilises.
    pub narrowing_passes: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_visits: 50_000_000,
            widening_delay: 2,
            narrowing_passes: 2,
        }
    }
}

/// Why an engine stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// A fixpoint was reached: the states are a sound solution.
    Stable,
    /// The visit budget ran out; the states are not a solution.
    Budget {
        /// Visits performed.
        visits: u64,
    },
    /// The domain broke a lattice law the engine relies on; the states are not a solution.
    LawViolation {
        /// The block where it was seen.
        block: BlockId,
        /// What went wrong, with the offending values.
        message: String,
    },
}

impl StopReason {
    /// Whether the states form a sound fixpoint.
    pub fn is_stable(&self) -> bool {
        matches!(self, StopReason::Stable)
    }
}

/// Counters an engine keeps while it runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Blocks visited (each visit applies one block transfer).
    pub visits: u64,
    /// Transfer evaluations: what the block transfers of the visits count for
    /// ([`Analysis::transfer_evaluations`], one per statement for the value analyses). A
    /// temporally sparse engine re-evaluates only the statements whose inputs changed, so its count
    /// can be far below the dense engine's for the same visits.
    pub evaluations: u64,
    /// Edge transfers computed.
    pub edge_transfers: u64,
    /// Joins into a block's incoming state.
    pub joins: u64,
    /// Widenings applied at component heads.
    pub widenings: u64,
    /// Narrowings applied during the descending phase.
    pub narrowings: u64,
}

/// The result of running an analysis.
#[derive(Clone, Debug)]
pub struct Solution<S> {
    /// The state at the start of each block, indexed by block id (program order, whatever the
    /// direction).
    pub entry: Vec<S>,
    /// The state at the end of each block (after its statements, before its terminator's edges).
    pub exit: Vec<S>,
    /// Why the engine stopped.
    pub stop: StopReason,
    /// What it did.
    pub stats: Stats,
}

/// One event the engine reports to a [`Tracer`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event<S> {
    /// The engine takes `block` from the worklist.
    Visit {
        /// The block.
        block: BlockId,
    },
    /// The block transfer of `block` turned `before` into `after`.
    Transfer {
        /// The block.
        block: BlockId,
        /// Its incoming state.
        before: S,
        /// Its outgoing state.
        after: S,
    },
    /// A state flowing into `block` was joined into its incoming state.
    Join {
        /// The block.
        block: BlockId,
        /// The incoming state after the join.
        result: S,
        /// Whether it grew.
        changed: bool,
    },
    /// The incoming state of the component head `block` was widened.
    Widen {
        /// The head.
        block: BlockId,
        /// The previous iterate.
        before: S,
        /// The widened state.
        after: S,
    },
    /// The incoming state of `block` was narrowed.
    Narrow {
        /// The block.
        block: BlockId,
        /// The previous iterate.
        before: S,
        /// The narrowed state.
        after: S,
    },
}

/// Receives the engine's events. The unit type ignores them at no cost.
pub trait Tracer<S> {
    /// Whether events should be built at all; when false the engine skips cloning states.
    fn enabled(&self) -> bool;
    /// Records one event.
    fn event(&mut self, event: Event<S>);
}

impl<S> Tracer<S> for () {
    fn enabled(&self) -> bool {
        false
    }
    fn event(&mut self, _event: Event<S>) {}
}

/// A tracer that keeps every event in order.
#[derive(Clone, Debug)]
pub struct Recorder<S> {
    /// The events, oldest first.
    pub events: Vec<Event<S>>,
}

impl<S> Recorder<S> {
    /// A recorder with no events yet.
    pub fn new() -> Recorder<S> {
        Recorder { events: Vec::new() }
    }
}

// Written by hand so that states need not implement `Default`.
impl<S> Default for Recorder<S> {
    fn default() -> Recorder<S> {
        Recorder::new()
    }
}

impl<S> Tracer<S> for Recorder<S> {
    fn enabled(&self) -> bool {
        true
    }
    fn event(&mut self, event: Event<S>) {
        self.events.push(event);
    }
}
