//! Escape and alias analysis in the way of the seed's Julia design notes: forward and
//! flow-sensitive, with may-alias as points-to sets over abstract locations, must-alias (one
//! run-time object) for the function's most recent objects and its parameters, per-field
//! memory contents with strong and weak updates, load forwarding, and interprocedural
//! summaries applied at call sites.
//!
//! - [`state`]: one heap ([`Heap`]): locations, objects, field contents, escapes, effects.
//! - [`transfer`]: statements and calls on a heap and the values of a declared
//!   [`ValueDomain`], which a forwarded load passes from the stored value to the loaded name.
//! - [`places`]: where objects escaped, in persistent sets of places that heaps share.
//! - [`replay`]: the states inside a block, run again from its entry state for the facts
//!   and on demand, rather than kept for every statement.
//! - [`facts`]: what the solution says about the program: forwarded loads, strong and weak
//!   stores, where each allocation escapes, which allocations can be replaced by scalars or
//!   sunk, and the function's [`Summary`].
//!
//! The state is a small disjunction of heaps, each with its own values ([`States`]): paths that
//! build different heaps stay apart up to [`MAX_HEAPS`] of them, so a branch decided by a
//! value (`br c` after both sides of an earlier `br c`) sees only the heaps that can reach it.

pub mod facts;
pub mod places;
pub mod replay;
pub mod state;
pub mod transfer;

use std::cmp::Ordering;
use std::fmt;

pub use facts::{
    Allocation, FunctionFacts, InputEffect, LoadFact, Summary, analyze, analyze_with,
    solve_declared, solve_module, solve_module_with,
};
pub use places::{EscapeKind, Escapes, Places};
pub use replay::Seen;
pub use state::{Content, Effects, Escape, Heap, Loc, Object, Place, Slot};
pub use transfer::Step;

use absinthe::engine::{Analysis, Direction, Limits};
use absinthe::lattice::{Lattice, Thresholds};
use absinthe::program::{BlockId, Cfg, FuncId, NameId, Operand, Program};
use absinthe::value::{Env, NonRelational, ValueDomain};

/// How many heaps a program point keeps apart before joining them into one.
pub const MAX_HEAPS: usize = absinthe::spec::AnalysisSpec::DEFAULT_HEAPS as usize;

/// How many exposed objects of its own (escaped to code or memory it does not see) a function's
/// heap keeps apart at a block's exit before making them all unknown objects
/// ([`Heap::fold_exposed`]).
pub const MAX_EXPOSED: usize = 16;

/// One disjunct: a heap and the values of the names along the same paths.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Disjunct<D> {
    /// The heap.
    pub heap: Heap,
    /// The values (never unreachable: an unreachable disjunct is dropped).
    pub values: Env<D>,
}

/// The state of the escape analysis: a disjunction of a few heaps with their
/// values, sorted by heap with no heap twice; empty at an unreachable point.
///
/// # Laws
///
/// `a ⊑ b` when every disjunct of `a` is below one of `b` (heap and values). Join keeps the
/// disjuncts of both, joining the values of equal heaps, and joins everything into one
/// disjunct past the bound; widening joins everything into one disjunct and widens the
/// values. Heaps have finite height for one function, so widening the values suffices.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct States<D> {
    disjuncts: Vec<Disjunct<D>>,
    /// How many disjuncts it keeps apart (the larger of two sides' when they are joined).
    max: usize,
}

impl<D: Lattice> States<D> {
    /// One disjunct, in a state that keeps `max` apart.
    pub fn single(heap: Heap, values: Env<D>, max: usize) -> States<D> {
        States::of(vec![Disjunct { heap, values }], max)
    }

    /// The disjunction of `disjuncts`, normalized to at most `max` (at least one).
    pub fn of(disjuncts: Vec<Disjunct<D>>, max: usize) -> States<D> {
        let max = max.max(1);
        let mut all: Vec<Disjunct<D>> = disjuncts
            .into_iter()
            .filter(|d| d.values.is_reachable())
            .collect();
        all.sort_by(|a, b| a.heap.cmp(&b.heap));
        let mut out: Vec<Disjunct<D>> = Vec::with_capacity(all.len());
        for d in all {
            match out.last_mut() {
                Some(last) if last.heap.cmp(&d.heap) == Ordering::Equal => {
                    last.values = last.values.join(&d.values);
                }
                _ => out.push(d),
            }
        }
        if out.len() > max {
            out = vec![Self::hull_of(&out)];
        }
        States {
            disjuncts: out,
            max,
        }
    }

    fn hull_of(disjuncts: &[Disjunct<D>]) -> Disjunct<D> {
        let mut heap = Heap::default();
        let mut values = Env::Unreachable;
        for d in disjuncts {
            heap.join_with(&d.heap);
            values = values.join(&d.values);
        }
        Disjunct { heap, values }
    }

    /// The disjuncts.
    pub fn disjuncts(&self) -> &[Disjunct<D>] {
        &self.disjuncts
    }

    /// All disjuncts joined into one; `None` when unreachable.
    pub fn hull(&self) -> Option<Disjunct<D>> {
        (!self.disjuncts.is_empty()).then(|| Self::hull_of(&self.disjuncts))
    }

    fn widen_by(&self, newer: &Self, widen: impl Fn(&Env<D>, &Env<D>) -> Env<D>) -> Self {
        let (Some(old), Some(new)) = (self.hull(), newer.hull()) else {
            return self.join(newer);
        };
        let mut heap = old.heap.clone();
        heap.join_with(&new.heap);
        let values = widen(&old.values, &old.values.join(&new.values));
        States::single(heap, values, self.max.max(newer.max))
    }
}

impl<D: Lattice> Lattice for States<D> {
    const FINITE_HEIGHT: bool = false;

    fn bottom() -> Self {
        States {
            disjuncts: Vec::new(),
            max: 0,
        }
    }

    fn is_bottom(&self) -> bool {
        self.disjuncts.is_empty()
    }

    fn leq(&self, other: &Self) -> bool {
        self.disjuncts.iter().all(|d| {
            other
                .disjuncts
                .iter()
                .any(|o| d.heap.leq(&o.heap) && d.values.leq(&o.values))
        })
    }

    fn join(&self, other: &Self) -> Self {
        States::of(
            self.disjuncts
                .iter()
                .chain(&other.disjuncts)
                .cloned()
                .collect(),
            self.max.max(other.max),
        )
    }

    fn meet(&self, other: &Self) -> Self {
        // Disjuncts of equal heaps, values met: below both sides.
        let mut out = Vec::new();
        for d in &self.disjuncts {
            for o in &other.disjuncts {
                if d.heap == o.heap {
                    out.push(Disjunct {
                        heap: d.heap.clone(),
                        values: d.values.meet(&o.values),
                    });
                }
            }
        }
        States::of(out, self.max.max(other.max))
    }

    fn widen(&self, newer: &Self) -> Self {
        self.widen_by(newer, |a, b| a.widen(b))
    }

    fn widen_with_thresholds(&self, newer: &Self, thresholds: &Thresholds) -> Self {
        self.widen_by(newer, |a, b| a.widen_with_thresholds(b, thresholds))
    }
}

impl<D: fmt::Display + Lattice> fmt::Display for States<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.disjuncts.is_empty() {
            return f.write_str("unreachable");
        }
        for (i, d) in self.disjuncts.iter().enumerate() {
            if i > 0 {
                f.write_str(" ⊔ ")?;
            }
            write!(f, "{:?}", d.heap.points)?;
        }
        Ok(())
    }
}

/// The summaries of callees, asked for at each call; `None` when the callee has none (it is
/// being analyzed, in a cycle of calls, or does not exist): the call is then unknown code.
pub trait Callees {
    /// The summary of `f`.
    fn summary(&self, f: FuncId) -> Option<Summary>;
}

impl<F: Fn(FuncId) -> Option<Summary>> Callees for F {
    fn summary(&self, f: FuncId) -> Option<Summary> {
        self(f)
    }
}

/// No callee has a summary: every call is unknown code.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoCallees;

impl Callees for NoCallees {
    fn summary(&self, _: FuncId) -> Option<Summary> {
        None
    }
}

/// The escape analysis of one function, with the values of `D` for the names.
pub struct EscapeAnalysis<'c, D> {
    values: NonRelational<D>,
    callees: &'c dyn Callees,
    heaps: usize,
    exposed: usize,
}

impl<D> fmt::Debug for EscapeAnalysis<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EscapeAnalysis").finish_non_exhaustive()
    }
}

impl<'c, D: ValueDomain> EscapeAnalysis<'c, D> {
    /// The analysis, asking `callees` for summaries at calls.
    pub fn new(callees: &'c dyn Callees) -> Self {
        EscapeAnalysis {
            values: NonRelational::new(true),
            callees,
            heaps: MAX_HEAPS,
            exposed: MAX_EXPOSED,
        }
    }

    /// The analysis keeping at most `heaps` heaps apart at a point (1: one heap per point, as
    /// the seed's per-block state).
    pub fn with_heaps(mut self, heaps: usize) -> Self {
        self.heaps = heaps.max(1);
        self
    }

    /// The analysis keeping at most `exposed` exposed objects of the function's own apart at a
    /// block's exit ([`MAX_EXPOSED`] by default; see [`Heap::fold_exposed`]).
    pub fn with_exposed(mut self, exposed: usize) -> Self {
        self.exposed = exposed;
        self
    }

    /// How many heaps it keeps apart at a point.
    pub fn heaps(&self) -> usize {
        self.heaps
    }

    /// The engine limits it is meant to run with.
    pub fn limits() -> Limits {
        Limits {
            widening_delay: 4,
            ..Limits::default()
        }
    }

    /// The value analysis it runs beside the heaps.
    pub fn values(&self) -> &NonRelational<D> {
        &self.values
    }

    /// The callees' summaries.
    pub fn callees(&self) -> &dyn Callees {
        self.callees
    }
}

pub use super::inputs;

impl<D: ValueDomain, P: Program + Cfg + ?Sized> Analysis<P> for EscapeAnalysis<'_, D> {
    type State = States<D>;
    const DIRECTION: Direction = Direction::Forward;

    fn boundary_state(&self, program: &P) -> States<D> {
        let heap = Heap::entry(&inputs(program));
        let values = Analysis::<P>::boundary_state(&self.values, program);
        States::single(heap, values, self.heaps)
    }

    fn transfer_block(&self, program: &P, block: BlockId, state: &mut States<D>) {
        // The state is the engine's own copy: its heaps change in place.
        let mut out = std::mem::take(&mut state.disjuncts);
        for d in &mut out {
            for (index, stmt) in program.stmts(block).iter().enumerate() {
                let place = Place {
                    block,
                    index: index as u32,
                };
                transfer::statement(self, place, stmt, d);
            }
        }
        *state = States::of(out, self.heaps);
    }

    fn transfer_edge(
        &self,
        program: &P,
        from: BlockId,
        succ_index: usize,
        state: &States<D>,
    ) -> States<D> {
        let to = program.successors(from).get(succ_index).copied();
        let mut out = Vec::with_capacity(state.disjuncts.len());
        for d in &state.disjuncts {
            let values =
                Analysis::<P>::transfer_edge(&self.values, program, from, succ_index, &d.values);
            if !values.is_reachable() {
                continue;
            }
            let mut heap = d.heap.clone();
            if let Some(to) = to {
                // φs copy in parallel: every source is read before any destination is set.
                let copies: Vec<(NameId, Operand)> = program
                    .phis(to)
                    .iter()
                    .filter_map(|phi| {
                        phi.incoming
                            .iter()
                            .find(|(b, _)| *b == from)
                            .map(|(_, o)| (phi.dest, *o))
                    })
                    .collect();
                let sources: Vec<_> = copies.iter().map(|(_, o)| heap.points_of(*o)).collect();
                for ((dest, _), points) in copies.iter().zip(sources) {
                    heap.define(*dest, points);
                }
            }
            heap.collect();
            heap.fold_exposed(self.exposed);
            out.push(Disjunct { heap, values });
        }
        States::of(out, self.heaps)
    }

    fn transfer_evaluations(&self, program: &P, block: BlockId) -> u64 {
        program.stmts(block).len() as u64
    }

    fn loop_thresholds(&self, program: &P, blocks: &[BlockId]) -> Thresholds {
        Analysis::<P>::loop_thresholds(&self.values, program, blocks)
    }
}
