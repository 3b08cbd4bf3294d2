//! The Green Fairy's shape graph with fields: abstract objects labelled by an allocation site,
//! the variables that point to them and a generation, joined by field edges; summary nodes for
//! objects only fields reach, context nodes for the caller's objects; and, as the analysis
//! state, a small disjunction of graphs each carrying the values of the names in a declared
//! [`ValueDomain`](absinthe::value::ValueDomain) (a reduced product: branches prune graphs, graphs decide `isblock`).
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

mod analysis;
pub mod call;
mod edit;
pub mod facts;
pub mod graph;
pub mod order;
pub mod reduce;
pub mod render;
pub mod states;
pub mod transfer;

#[cfg(test)]
mod tests;

pub use analysis::ShapeAnalysis;
pub use call::{Callees, MAX_EXITS, NoCallees, RESULT, ShapeSummary};
pub use facts::{ShapeFacts, analyze, solve_declared, solve_module};
pub use graph::{Kind, Label, MAX_CONTEXT_DEPTH, Node, Path, Strength};
pub use order::ShapeGraph;
pub use states::{MAX_GRAPHS, ShapeDisjunct, ShapeStates};

pub use super::inputs;
