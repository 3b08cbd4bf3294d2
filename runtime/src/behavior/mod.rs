//! The behavior-graph analyzer of Cheatham, Gao and Stefanescu for kernel terms (λ-calculus with
//! constants and primitives): phase I builds a task-independent graph of flows once per
//! program, which is also its 0-CFA control-flow analysis ([`BehaviorGraph`]); phase II traces
//! any number of tasks over it ([`Task`], [`run_task`]), each a lattice with the meaning of
//! constants and primitives. Every value domain is a task ([`DomainTask`]), so analyses declared
//! with attributes or in `.dom` files run on the behavior graph as they run on control-flow
//! graphs.

mod graph;
mod induction;
mod names;
mod task;
mod terms;

pub use graph::{BehaviorGraph, GraphStats, NodeId, NodeKind};
pub use induction::{Step, Steps};
pub use names::Names;
pub use task::{Arg, ArgKind, DomainTask, Task, TaskSolution, WIDEN_AFTER, run_task};
pub use terms::{Binder, Param, ParamId, Prim, Term, TermId, Terms};

/// Which engine a declared analysis runs on (one word of the shared vocabulary).
pub use absinthe_spec::Engine;
