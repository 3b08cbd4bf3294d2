//! The Green Fairy's shape graph with fields: abstract objects labelled by an allocation site,
//! the variables that point to them and a generation, joined by field edges; summary nodes for
//! objects only fields reach, context nodes for the caller's objects; and, as the analysis
//! state, a small disjunction of graphs each carrying the values of the names in a declared
//! [`ValueDomain`] (a reduced product: branches prune graphs, graphs decide `isblock`).
//!
//! - [`graph`]: nodes, edges and the normalization that keeps graphs canonical.
//! - [`order`]: [`ShapeGraph`] and its lattice.
//! - [`states`]: [`ShapeStates`], the disjunction of graphs with their values, and its lattice.
//! - [`transfer`]: statements on one graph (allocation, copies, stores, loads with
//!   materialization).
//! - [`reduce`]: statements and edges on a graph with its values, and the reductions between
//!   the two.
//! - [`call`]: callee summaries over context nodes and their contraction at the call.
//! - [`render`]: the text form and the Graphviz form of a graph, and the text of a whole point.
//! - [`facts`]: the states before every statement, a function's summary, and a module solved
//!   callees first.
//!
//! A variable may label several nodes when graphs were joined: it points to one of them, and a
//! normal or context node it labels is its object whenever that node stands for an object. A
//! normal node's variables are exactly those pointing to its object, so two distinct normal
//! nodes sharing a variable never stand for objects at once, and a field read skips such pairs.
//! A variable labelling no node holds no object.

pub mod call;
pub mod facts;
pub mod graph;
pub mod order;
pub mod reduce;
pub mod render;
pub mod states;
pub mod transfer;

#[cfg(test)]
mod tests;

pub use call::{Callees, MAX_EXITS, NoCallees, RESULT, ShapeSummary};
pub use facts::{ShapeFacts, analyze, solve_declared, solve_module};
pub use graph::{Kind, Label, MAX_CONTEXT_DEPTH, Node, Path, Strength};
pub use order::ShapeGraph;
pub use states::{ShapeDisjunct, ShapeStates};

use std::fmt;

use absinthe::engine::{Analysis, Direction, Limits};
use absinthe::lattice::Thresholds;
use absinthe::program::{BlockId, Cfg, NameId, Program, Stmt};
use absinthe::value::{NonRelational, ValueDomain};

/// How many disjuncts (graphs with their values) a program point keeps apart.
pub const MAX_GRAPHS: usize = 8;

/// The forward shape analysis of one function with the values of `D` for the names, asking
/// `callees` for summaries at calls.
pub struct ShapeAnalysis<'c, D> {
    values: NonRelational<D>,
    callees: &'c dyn Callees,
}

impl<D> fmt::Debug for ShapeAnalysis<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ShapeAnalysis").finish_non_exhaustive()
    }
}

impl<'c, D: ValueDomain> ShapeAnalysis<'c, D> {
    /// The analysis, with the callees' summaries from `callees` and branch conditions evaluated
    /// on the values.
    pub fn new(callees: &'c dyn Callees) -> ShapeAnalysis<'c, D> {
        ShapeAnalysis {
            values: NonRelational::new(true),
            callees,
        }
    }

    /// The engine limits it is meant to run with: a few joins at a loop head before widening,
    /// so that the disjunction settles first.
    pub fn limits() -> Limits {
        Limits {
            widening_delay: 4,
            ..Limits::default()
        }
    }

    /// The value analysis it runs beside the graphs.
    pub fn values(&self) -> &NonRelational<D> {
        &self.values
    }

    /// The callees' summaries.
    pub fn callees(&self) -> &dyn Callees {
        self.callees
    }

    /// The state after statement `index` of `block` from `state`.
    pub fn statement(
        &self,
        state: &ShapeStates<D>,
        block: BlockId,
        index: usize,
        stmt: &Stmt,
    ) -> ShapeStates<D> {
        ShapeStates::of(
            state
                .disjuncts()
                .iter()
                .flat_map(|d| reduce::statement(self, d, block, index, stmt))
                .collect(),
        )
    }
}

pub use super::inputs;

impl<D: ValueDomain, P: Program + Cfg + ?Sized> Analysis<P> for ShapeAnalysis<'_, D> {
    type State = ShapeStates<D>;
    const DIRECTION: Direction = Direction::Forward;

    fn boundary_state(&self, program: &P) -> ShapeStates<D> {
        let values = Analysis::<P>::boundary_state(&self.values, program);
        ShapeStates::single(ShapeGraph::entry(&inputs(program)), values)
    }

    fn transfer_block(&self, program: &P, block: BlockId, state: &mut ShapeStates<D>) {
        for (index, stmt) in program.stmts(block).iter().enumerate() {
            *state = self.statement(state, block, index, stmt);
        }
    }

    fn transfer_edge(
        &self,
        program: &P,
        from: BlockId,
        succ_index: usize,
        state: &ShapeStates<D>,
    ) -> ShapeStates<D> {
        ShapeStates::of(
            state
                .disjuncts()
                .iter()
                .filter_map(|d| reduce::edge(self, program, from, succ_index, d))
                .collect(),
        )
    }

    fn transfer_evaluations(&self, program: &P, block: BlockId) -> u64 {
        program.stmts(block).len() as u64
    }

    fn loop_thresholds(&self, program: &P, blocks: &[BlockId]) -> Thresholds {
        Analysis::<P>::loop_thresholds(&self.values, program, blocks)
    }
}

/// The φ copies of one edge, in parallel: every source is read before any destination is set.
pub(super) fn phi_copies(graph: &ShapeGraph, copies: &[(NameId, Option<NameId>)]) -> ShapeGraph {
    let Some(g) = &graph.graph else {
        return graph.clone();
    };
    let mut g = g.clone();
    let sources: Vec<Vec<usize>> = copies
        .iter()
        .map(|(_, s)| s.map(|s| g.labelled(s)).unwrap_or_default())
        .collect();
    for (dest, _) in copies {
        g.unbind(*dest);
    }
    for ((dest, _), nodes) in copies.iter().zip(sources) {
        for n in nodes {
            g.nodes[n].vars.insert(*dest);
        }
    }
    ShapeGraph::of(g)
}
