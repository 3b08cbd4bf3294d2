//! The Green Fairy's shape graph with fields: abstract objects labelled by an allocation site,
//! the variables that point to them and a generation, joined by field edges; summary nodes for
//! objects only fields reach, context nodes for the caller's objects, and a finite disjunction
//! of graphs as the analysis state.
//!
//! - [`graph`]: nodes, edges and the normalization that keeps graphs canonical.
//! - [`order`]: [`ShapeGraph`] and its lattice.
//! - [`transfer`]: statements (allocation, copies, stores, loads with materialization).
//! - [`call`]: callee summaries over context nodes and their contraction at the call.
//! - [`render`]: the text form and the Graphviz form of a graph.
//! - [`facts`]: the states before every statement, a function's summary, and a module solved
//!   callees first.
//!
//! A variable may label several nodes when graphs were joined: it points to one of them, and a
//! normal or context node it labels is its object whenever that node stands for an object. A
//! normal node's variables are exactly those pointing to its object, so two distinct normal
//! nodes sharing a variable never stand for objects at once, and a field read skips such pairs.

pub mod call;
pub mod facts;
pub mod graph;
pub mod order;
pub mod render;
pub mod transfer;

#[cfg(test)]
mod tests;

pub use call::{Callees, MAX_EXITS, NoCallees, RESULT, ShapeSummary};
pub use facts::{ShapeFacts, analyze, solve_module};
pub use graph::{Kind, Label, MAX_CONTEXT_DEPTH, Node, Path, Strength};
pub use order::ShapeGraph;

use std::fmt;

use crate::engine::{Analysis, Direction, Limits};
use crate::heap::Site;
use crate::lattice::{FiniteSum, Lattice};
use crate::program::{BlockId, Cfg, NameId, Operand, Program};

/// How many graphs a program point keeps apart.
pub const MAX_GRAPHS: usize = 8;

/// The state of [`ShapeAnalysis`]: a disjunction of up to [`MAX_GRAPHS`] shape graphs.
pub type Shapes = FiniteSum<ShapeGraph, MAX_GRAPHS>;

/// The forward shape analysis of one function, asking `callees` for summaries at calls.
pub struct ShapeAnalysis<'c> {
    callees: &'c dyn Callees,
}

impl fmt::Debug for ShapeAnalysis<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ShapeAnalysis").finish_non_exhaustive()
    }
}

impl<'c> ShapeAnalysis<'c> {
    /// The analysis, with the callees' summaries from `callees`.
    pub fn new(callees: &'c dyn Callees) -> ShapeAnalysis<'c> {
        ShapeAnalysis { callees }
    }

    /// The engine limits it is meant to run with: a few joins at a loop head before widening,
    /// so that the disjunction settles first.
    pub fn limits() -> Limits {
        Limits {
            widening_delay: 4,
            ..Limits::default()
        }
    }

    /// The graphs after statement `index` of `block`.
    pub fn statement(
        &self,
        graph: &ShapeGraph,
        block: BlockId,
        index: usize,
        stmt: &crate::program::Stmt,
    ) -> Vec<ShapeGraph> {
        let site = Site {
            block,
            index: index as u32,
        };
        transfer::statement(graph, site, stmt, self.callees)
    }
}

/// The parameters then the captures: the function's inputs, context path `i` for the `i`th.
pub fn inputs<P: Program + ?Sized>(program: &P) -> Vec<NameId> {
    program
        .params()
        .iter()
        .chain(program.captures())
        .copied()
        .collect()
}

impl<P: Program + Cfg + ?Sized> Analysis<P> for ShapeAnalysis<'_> {
    type State = Shapes;
    const DIRECTION: Direction = Direction::Forward;

    fn boundary_state(&self, program: &P) -> Shapes {
        Shapes::single(ShapeGraph::entry(&inputs(program)))
    }

    fn transfer_block(&self, program: &P, block: BlockId, state: &mut Shapes) {
        let mut graphs: Vec<ShapeGraph> = state.values().to_vec();
        for (index, stmt) in program.stmts(block).iter().enumerate() {
            graphs = graphs
                .iter()
                .flat_map(|g| self.statement(g, block, index, stmt))
                .collect();
            // Keep the work bounded inside long blocks.
            if graphs.len() > MAX_GRAPHS {
                graphs = Shapes::from_values(graphs).values().to_vec();
            }
        }
        *state = Shapes::from_values(graphs);
    }

    fn transfer_edge(
        &self,
        program: &P,
        from: BlockId,
        succ_index: usize,
        state: &Shapes,
    ) -> Shapes {
        let Some(&to) = program.successors(from).get(succ_index) else {
            return state.clone();
        };
        let phis = program.phis(to);
        if phis.is_empty() || state.is_bottom() {
            return state.clone();
        }
        let copies: Vec<(NameId, Option<NameId>)> = phis
            .iter()
            .map(|phi| {
                let source =
                    phi.incoming
                        .iter()
                        .find(|(b, _)| *b == from)
                        .and_then(|(_, o)| match o {
                            Operand::Name(n) => Some(*n),
                            Operand::Int(_) => None,
                        });
                (phi.dest, source)
            })
            .collect();
        Shapes::from_values(state.values().iter().map(|g| phi_copies(g, &copies)))
    }

    fn transfer_evaluations(&self, program: &P, block: BlockId) -> u64 {
        program.stmts(block).len() as u64
    }
}

/// The φ copies of one edge, in parallel: every source is read before any destination is set.
fn phi_copies(graph: &ShapeGraph, copies: &[(NameId, Option<NameId>)]) -> ShapeGraph {
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
