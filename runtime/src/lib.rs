//! absinthe's runtime: what analyses and the code absinthe generates depend on.
//!
//! - [`lattice`]: the lattice trait family and the standard lattices.
//! - [`program`]: the statement vocabulary and the traits through which engines see a program.
//! - [`cfg`](mod@cfg): reverse post-order, dominators, dominance frontiers, weak topological order.
//! - [`engine`]: the worklist solver, the naive reference solver and tracing.
//! - [`graph_free`]: the graph-free instruction-level solver for instruction lists.
//! - [`liveness`]: live names, the reference backward analysis.
//! - [`value`]: non-relational value analysis over any value domain (constants, intervals), with
//!   dense or sparse states ([`value::StateRepr`]).
//! - `laws` (feature `laws`): the generic lattice-law checker and proptest strategies.
//!
//! The runtime knows nothing about syntax: no parser, no proc-macro machinery.

pub mod cfg;
pub mod engine;
pub mod graph_free;
pub mod lattice;
#[cfg(feature = "laws")]
pub mod laws;
pub mod liveness;
pub mod program;
pub mod value;
