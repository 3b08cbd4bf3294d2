//! The states inside a block, recomputed from the block's entry state rather than kept.
//!
//! The engine's solution holds one state per block entry; the facts need the state before every
//! statement. Keeping those (a disjunction of heaps per statement) was most of the analysis's
//! memory and a good part of its time, so the facts are read in one pass that runs each block's
//! statements again (`replay`), and the states before the statements of one block are rebuilt
//! on demand ([`super::FunctionFacts::states_before`]). A replay asks the callees for the same
//! summaries the solve was given: `Recording` keeps every answer, and [`Seen`] gives them back.

use std::cell::RefCell;
use std::collections::BTreeMap;

use super::place::Place;
use super::transfer::{self, Step};
use super::{Callees, Disjunct, EscapeAnalysis, States, Summary};
use absinthe::program::{BlockId, FuncId, Program, Stmt};
use absinthe::value::ValueDomain;

/// What a pass over a block sees.
pub(super) trait Visit<D> {
    /// The disjuncts before the statement at `place` (`stmt`), or before the terminator
    /// (`None`). Unreachable disjuncts are included; they are what the engine would drop.
    fn before(&mut self, place: Place, stmt: Option<&Stmt>, disjuncts: &[Disjunct<D>]);

    /// What the statement at `place` did to one disjunct.
    fn step(&mut self, place: Place, step: Step);
}

/// Runs the statements of `block` from `entry`, telling `visit` the disjuncts before each of
/// them and before the terminator, and each statement's steps. Nothing for an unreachable block.
pub(super) fn replay<D: ValueDomain, P: Program + ?Sized>(
    analysis: &EscapeAnalysis<'_, D>,
    program: &P,
    entry: &States<D>,
    block: BlockId,
    visit: &mut impl Visit<D>,
) {
    if entry.disjuncts().is_empty() {
        return;
    }
    let mut current: Vec<Disjunct<D>> = entry.disjuncts().to_vec();
    let stmts = program.stmts(block);
    for (index, stmt) in stmts.iter().enumerate() {
        let place = Place {
            block,
            index: index as u32,
        };
        visit.before(place, Some(stmt), &current);
        for d in &mut current {
            let step = transfer::statement(analysis, place, stmt, d);
            visit.step(place, step);
        }
    }
    let place = Place {
        block,
        index: stmts.len() as u32,
    };
    visit.before(place, None, &current);
}

/// The states before each statement, then before the terminator, as [`States`] (unreachable
/// disjuncts dropped, equal heaps merged).
pub(super) struct Collect<D> {
    pub(super) heaps: usize,
    pub(super) states: Vec<States<D>>,
}

impl<D: ValueDomain> Visit<D> for Collect<D> {
    fn before(&mut self, _: Place, _: Option<&Stmt>, disjuncts: &[Disjunct<D>]) {
        self.states.push(States::of(disjuncts.to_vec(), self.heaps));
    }

    fn step(&mut self, _: Place, _: Step) {}
}

/// Asks `inner` and keeps every answer, so that a replay gets the same ones.
pub(super) struct Recording<'c> {
    inner: &'c dyn Callees,
    seen: RefCell<BTreeMap<FuncId, Option<Summary>>>,
}

impl<'c> Recording<'c> {
    pub(super) fn new(inner: &'c dyn Callees) -> Self {
        Recording {
            inner,
            seen: RefCell::new(BTreeMap::new()),
        }
    }

    pub(super) fn into_seen(self) -> Seen {
        Seen(self.seen.into_inner())
    }
}

impl Callees for Recording<'_> {
    fn summary(&self, f: FuncId) -> Option<Summary> {
        if let Some(answer) = self.seen.borrow().get(&f) {
            return answer.clone();
        }
        let answer = self.inner.summary(f);
        self.seen.borrow_mut().insert(f, answer.clone());
        answer
    }
}

/// The callee summaries one function's analysis was given (`None`: the call was unknown code).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seen(BTreeMap<FuncId, Option<Summary>>);

impl Callees for Seen {
    fn summary(&self, f: FuncId) -> Option<Summary> {
        self.0.get(&f).cloned().flatten()
    }
}
