//! Spatially (and optionally temporally) sparse states for the non-relational analysis.
//!
//! A dense state keeps, at the entry and exit of every block, one value per name of the function:
//! `2 × blocks × names` values, most of them copies of their neighbours. The sparse state keeps a
//! value only where a name is defined (one per assignment), φ summaries at the heads of the
//! blocks where definitions merge, and a value for every name only at loop heads (where widening
//! and narrowing act on every name) and the blocks where their values merge. A lookup walks the
//! dominator tree up to the nearest definition. Definitions are discovered while the analysis
//! runs (a block defines its names when it is first reached, an edge its refined names when it is
//! first taken), and each new definition site asks the blocks of its iterated dominance frontier
//! for a head entry.
//!
//! [`StateRepr`](super::StateRepr) selects the representation; the results are the same.

mod engine;
mod store;

use crate::engine::{Limits, Solution, Stats, StopReason};
use crate::program::{BlockId, NameId, Program, Stmt};
use crate::value::{Env, NonRelational, ValueDomain};
use store::Store;

/// The result of a sparse run: the sparse map itself, queried by block and name.
///
/// Values are those the dense worklist solver computes: [`SparseSolution::entry`] of a block is
/// exactly the dense [`Solution::entry`] of that block (when the run is stable).
#[derive(Debug)]
pub struct SparseSolution<D> {
    store: Store<D>,
    blocks: usize,
    temporal: bool,
    /// Why the engine stopped. After [`StopReason::Budget`] the values are not a fixpoint, and
    /// may differ from the dense solver's partial states.
    pub stop: StopReason,
    /// What the engine did. Visits, edge transfers, joins, widenings and narrowings are the dense
    /// solver's; with temporal sparsity, evaluations count only the statements re-evaluated.
    pub stats: Stats,
}

/// Runs `analysis` over `program` with sparse states; `temporal` re-evaluates only the statements
/// that read a changed value.
pub(crate) fn solve<D: ValueDomain, P: Program + ?Sized>(
    program: &P,
    analysis: &NonRelational<D>,
    limits: &Limits,
    temporal: bool,
) -> SparseSolution<D> {
    let mut engine = engine::Engine::new(program, analysis, limits, temporal);
    let stop = match engine.run() {
        Ok(()) => StopReason::Stable,
        Err(stop) => stop,
    };
    SparseSolution {
        store: engine.store,
        blocks: program.block_count(),
        temporal,
        stop,
        stats: engine.stats,
    }
}

impl<D: ValueDomain> SparseSolution<D> {
    /// The number of blocks of the analyzed function.
    pub fn block_count(&self) -> usize {
        self.blocks
    }

    /// Whether the run re-evaluated only the statements whose inputs changed.
    pub fn is_temporal(&self) -> bool {
        self.temporal
    }

    /// Whether some execution may reach the start of `b`.
    pub fn is_reachable(&self, b: BlockId) -> bool {
        b.index() < self.blocks && self.store.is_reachable(b)
    }

    /// The value of `name` at the start of `b` (bottom where unreachable).
    pub fn value_at_entry(&self, b: BlockId, name: NameId) -> D {
        if self.is_reachable(b) && name.index() < self.store.names() {
            self.store.value_at_entry(b, name)
        } else {
            D::bottom()
        }
    }

    /// The value of `name` at the end of `b`, after its statements (bottom where unreachable).
    pub fn value_at_exit(&self, b: BlockId, name: NameId) -> D {
        if self.is_reachable(b) && name.index() < self.store.names() {
            self.store.value_at_exit(b, name)
        } else {
            D::bottom()
        }
    }

    /// The dense state at the start of `b` (one walk up the dominator tree).
    pub fn entry(&self, b: BlockId) -> Env<D> {
        if !self.is_reachable(b) {
            return Env::Unreachable;
        }
        let mut values = vec![D::bottom(); self.store.names()];
        let mut seen = vec![0; self.store.names()];
        self.store.materialize_entry(b, &mut values, &mut seen, 1);
        Env::Reachable(values)
    }

    /// The dense state at the end of `b` (one walk up the dominator tree).
    pub fn exit(&self, b: BlockId) -> Env<D> {
        if !self.is_reachable(b) {
            return Env::Unreachable;
        }
        let mut values = vec![D::bottom(); self.store.names()];
        let mut seen = vec![0; self.store.names()];
        self.store.materialize_exit(b, &mut values, &mut seen, 1);
        Env::Reachable(values)
    }

    /// The dense state before statement `index` of `b` (`index == stmts.len()`: before the
    /// terminator), read from the values stored at the block's definitions rather than replayed.
    pub fn point<P: Program + ?Sized>(&self, program: &P, b: BlockId, index: usize) -> Env<D> {
        let Env::Reachable(mut values) = self.entry(b) else {
            return Env::Unreachable;
        };
        let mut slot = self.store.slots(b).start;
        for stmt in program.stmts(b).iter().take(index) {
            if let Stmt::Assign { dest, .. } = stmt {
                if let Some(value) = values.get_mut(dest.index()) {
                    *value = self.store.slot(slot).clone();
                }
                slot += 1;
            }
        }
        Env::Reachable(values)
    }

    /// The dense solution with the same states (materializes every block's entry and exit).
    pub fn into_dense(self) -> Solution<Env<D>> {
        let blocks = (0..self.blocks).map(BlockId::new);
        Solution {
            entry: blocks.clone().map(|b| self.entry(b)).collect(),
            exit: blocks.map(|b| self.exit(b)).collect(),
            stop: self.stop,
            stats: self.stats,
        }
    }
}
