//! The state representation of the non-relational analysis: the one word that selects dense,
//! sparse or sparse-and-temporal states, and the solution either gives.

use super::nonrel::{Bindings, BindingsMut, PointStates};
use super::sparse::{self, SparseSolution};
use super::ssa::{self, SsaSolution};
use super::{Env, NonRelational, ValueDomain};
use crate::engine::{Limits, Solution, Stats, StopReason, solve};
use crate::program::{BlockId, NameId, Program};

/// How a non-relational analysis stores its states while it runs (one word of the shared
/// vocabulary); [`NonRelational::solve`] runs each.
pub use absinthe_spec::StateRepr;

/// The result of [`NonRelational::solve`] in either representation.
#[derive(Debug)]
pub struct ValueSolution<D> {
    inner: Inner<D>,
}

#[derive(Debug)]
enum Inner<D> {
    Dense(Solution<Env<D>>),
    Sparse(Box<SparseSolution<D>>),
    Ssa(Box<SsaSolution<D>>),
}

impl<D: ValueDomain> ValueSolution<D> {
    /// The representation the states were kept in.
    pub fn repr(&self) -> StateRepr {
        match &self.inner {
            Inner::Dense(_) => StateRepr::Dense,
            Inner::Sparse(s) if s.is_temporal() => StateRepr::SparseTemporal,
            Inner::Sparse(_) => StateRepr::Sparse,
            Inner::Ssa(_) => StateRepr::Ssa,
        }
    }

    /// Why the engine stopped.
    pub fn stop(&self) -> &StopReason {
        match &self.inner {
            Inner::Dense(s) => &s.stop,
            Inner::Sparse(s) => &s.stop,
            Inner::Ssa(s) => &s.stop,
        }
    }

    /// What the engine did.
    pub fn stats(&self) -> &Stats {
        match &self.inner {
            Inner::Dense(s) => &s.stats,
            Inner::Sparse(s) => &s.stats,
            Inner::Ssa(s) => &s.stats,
        }
    }

    /// The state at the start of `b`.
    pub fn entry(&self, b: BlockId) -> Env<D> {
        match &self.inner {
            Inner::Dense(s) => s.entry.get(b.index()).cloned().unwrap_or(Env::Unreachable),
            Inner::Sparse(s) => s.entry(b),
            Inner::Ssa(s) => s.exit(b),
        }
    }

    /// The state at the end of `b`, after its statements.
    pub fn exit(&self, b: BlockId) -> Env<D> {
        match &self.inner {
            Inner::Dense(s) => s.exit.get(b.index()).cloned().unwrap_or(Env::Unreachable),
            Inner::Sparse(s) => s.exit(b),
            Inner::Ssa(s) => s.exit(b),
        }
    }

    /// The value of `name` at the start of `b`.
    pub fn value_at_entry(&self, b: BlockId, name: NameId) -> D {
        match &self.inner {
            Inner::Dense(s) => s
                .entry
                .get(b.index())
                .map_or_else(D::bottom, |e| e.get(name)),
            Inner::Sparse(s) => s.value_at_entry(b, name),
            Inner::Ssa(s) => s.value_at_exit(b, name),
        }
    }

    /// Whether some execution may reach the start of `b`.
    pub fn is_reachable(&self, b: BlockId) -> bool {
        match &self.inner {
            Inner::Dense(s) => s.entry.get(b.index()).is_some_and(Env::is_reachable),
            Inner::Sparse(s) => s.is_reachable(b),
            Inner::Ssa(s) => s.is_reachable(b),
        }
    }

    /// The value of `name` at the end of `b`, after its statements (bottom where unreachable).
    pub fn value_at_exit(&self, b: BlockId, name: NameId) -> D {
        match &self.inner {
            Inner::Dense(s) => s
                .exit
                .get(b.index())
                .map_or_else(D::bottom, |e| e.get(name)),
            Inner::Sparse(s) => s.value_at_exit(b, name),
            Inner::Ssa(s) => s.value_at_exit(b, name),
        }
    }

    /// The state before each statement of `b` and before its terminator (`stmts.len() + 1`
    /// states), replayed from the state at the start of `b` by `analysis`, the analysis that
    /// found this solution, on `program`, the program it ran on. The per-statement view every
    /// representation gives alike; `absinthe analyze` prints these states beside each line.
    pub fn points<P: Program + ?Sized>(
        &self,
        analysis: &NonRelational<D>,
        program: &P,
        b: BlockId,
    ) -> PointStates<D> {
        analysis.replay(program, b, &self.entry(b))
    }

    /// The dense solution (materialized from a sparse one).
    pub fn into_dense(self) -> Solution<Env<D>> {
        match self.inner {
            Inner::Dense(s) => s,
            Inner::Sparse(s) => (*s).into_dense(),
            Inner::Ssa(s) => (*s).into_dense(),
        }
    }

    /// Whether `analysis` (the one that found this solution) may take the edge from `b` to its
    /// `index`-th successor: `b` may run and the edge's condition may hold. Reads only the
    /// values the condition needs, not a whole state.
    pub fn edge_feasible<P: Program + ?Sized>(
        &self,
        analysis: &NonRelational<D>,
        program: &P,
        b: BlockId,
        index: usize,
    ) -> bool {
        // SSA propagation kept which edges it took.
        if let Inner::Ssa(s) = &self.inner {
            return s.edge_feasible(b, index);
        }
        let mut values = AtExit {
            solution: self,
            block: b,
            writes: Vec::new(),
        };
        self.is_reachable(b) && analysis.refine_edge_in(program, b, index, &mut values)
    }

    /// The sparse solution, when the states were kept sparsely.
    pub fn as_sparse(&self) -> Option<&SparseSolution<D>> {
        match &self.inner {
            Inner::Dense(_) | Inner::Ssa(_) => None,
            Inner::Sparse(s) => Some(s.as_ref()),
        }
    }
}

/// The values at the end of one block, read from a solution on demand, with what an edge's
/// refinement writes on top.
struct AtExit<'a, D: ValueDomain> {
    solution: &'a ValueSolution<D>,
    block: BlockId,
    writes: Vec<(NameId, D)>,
}

impl<D: ValueDomain> Bindings<D> for AtExit<'_, D> {
    fn get(&self, name: NameId) -> D {
        match self.writes.iter().rev().find(|(n, _)| *n == name) {
            Some((_, v)) => v.clone(),
            None => self.solution.value_at_exit(self.block, name),
        }
    }
}

impl<D: ValueDomain> BindingsMut<D> for AtExit<'_, D> {
    fn set(&mut self, name: NameId, value: D) {
        self.writes.push((name, value));
    }
}

impl<D: ValueDomain> NonRelational<D> {
    /// Runs this analysis over `program` to a fixpoint within `limits`, keeping states as `repr`
    /// says. Every representation gives the same states and the same statistics, but for
    /// [`Stats::evaluations`] under [`StateRepr::SparseTemporal`].
    pub fn solve<P: Program + ?Sized>(
        &self,
        program: &P,
        repr: StateRepr,
        limits: &Limits,
    ) -> ValueSolution<D> {
        let inner = match repr {
            StateRepr::Dense => Inner::Dense(solve(program, self, limits)),
            StateRepr::Sparse => {
                Inner::Sparse(Box::new(sparse::solve(program, self, limits, false)))
            }
            StateRepr::SparseTemporal => {
                Inner::Sparse(Box::new(sparse::solve(program, self, limits, true)))
            }
            StateRepr::Ssa => match ssa::solve(self, program, limits) {
                Some(s) => Inner::Ssa(Box::new(s)),
                None => Inner::Sparse(Box::new(sparse::solve(program, self, limits, false))),
            },
        };
        ValueSolution { inner }
    }
}
