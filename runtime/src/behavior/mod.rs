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

/// Which engine a declared analysis runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The fixpoint engines over control-flow graphs (and across functions, `interproc`).
    Flow,
    /// The behavior graph of kernel terms.
    BehaviorGraph,
    /// The Flambda 2 typing environment ([`crate::typing_env`]): one pass over each function in
    /// SSA form, with the analysis's value domain as the integers past small sets of immediates.
    TypingEnv,
    /// The escape and alias analysis ([`crate::heap::escape`]): points-to sets, per-field
    /// memory, load forwarding and escapes over each function, callees first, with the
    /// analysis's value domain as the values of names (a forwarded load takes the stored
    /// value's).
    Escape,
    /// The Green Fairy's shape analysis ([`crate::heap::shape`]): shape graphs with fields,
    /// summary and context nodes over each function, callees first, each graph with the values
    /// of the analysis's value domain along the same paths.
    Shape,
}

impl Engine {
    /// The engine a declaration names by `word` (`flow`, `behavior_graph`, `typing_env`,
    /// `escape`, `shape`).
    pub fn from_word(word: &str) -> Option<Engine> {
        match word {
            "flow" => Some(Engine::Flow),
            "behavior_graph" => Some(Engine::BehaviorGraph),
            "typing_env" => Some(Engine::TypingEnv),
            "escape" => Some(Engine::Escape),
            "shape" => Some(Engine::Shape),
            _ => None,
        }
    }
}
