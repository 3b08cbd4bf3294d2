//! The behavior-graph analyzer of Cheatham, Gao and Stefanescu for kernel terms (λ-calculus with
//! constants and primitives): phase I builds a task-independent graph of flows once per
//! program, which is also its control-flow analysis ([`BehaviorGraph`]), with flows told apart
//! by abstract call contexts of up to `k` call sites ([`Contexts`]; `k = 0` is the seed's
//! 0-CFA); phase II traces any number of tasks over it ([`Task`], [`run_task`]), each a lattice
//! with the meaning of constants and primitives, per context. Every value domain is a task
//! ([`DomainTask`]), so analyses declared with attributes or in `.dom` files run on the behavior
//! graph as they run on control-flow graphs. Multiple values (`block`) and exit functions
//! (`λ f̂ x… . B`) are the implementation's extensions the paper describes ([`extend`]).

mod context;
pub mod extend;
mod graph;
mod task;

pub use context::{ContextId, ContextText, Contexts};
pub use extend::Counts;
pub use graph::{BehaviorGraph, Function, GraphStats, NodeId, NodeKind};
pub use task::{DomainTask, Task, TaskSolution, WIDEN_AFTER, run_task};

// The behavior graph's programs (kernel terms, in the runtime because value domains read their
// arguments), and the lattices of the seed's tasks over their parameters.
pub use absinthe::lattice::{Names, Step, Steps};
pub use absinthe::terms::{Arg, ArgKind, Binder, Param, ParamId, Prim, Term, TermId, Terms};
