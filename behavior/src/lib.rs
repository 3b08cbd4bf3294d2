//! The behavior-graph analyzer of Cheatham, Gao and Stefanescu for kernel terms (λ-calculus with
//! constants and primitives): phase I builds a task-independent graph of flows once per
//! program, which is also its 0-CFA control-flow analysis ([`BehaviorGraph`]); phase II traces
//! any number of tasks over it ([`Task`], [`run_task`]), each a lattice with the meaning of
//! constants and primitives. Every value domain is a task ([`DomainTask`]), so analyses declared
//! with attributes or in `.dom` files run on the behavior graph as they run on control-flow
//! graphs.

mod graph;
mod task;

pub use graph::{BehaviorGraph, GraphStats, NodeId, NodeKind};
pub use task::{DomainTask, Task, TaskSolution, WIDEN_AFTER, run_task};

// The behavior graph's programs (kernel terms, in the runtime because value domains read their
// arguments), and the lattices of the seed's tasks over their parameters.
pub use absinthe::lattice::{Names, Step, Steps};
pub use absinthe::terms::{Arg, ArgKind, Binder, Param, ParamId, Prim, Term, TermId, Terms};
