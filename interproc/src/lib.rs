//! Interprocedural value analysis: any [`ValueDomain`](absinthe::value::ValueDomain) across the functions of a module, with
//! calls, recursion and closures.
//!
//! - **Values.** Each name holds a [`ProcValue`]: the domain's value for the integers it may
//!   hold, the set of functions it may be a closure of ([`FuncSet`]), and whether it may be a
//!   block. A domain needs no code of its own to become interprocedural.
//! - **Call graph.** Discovered while the analysis runs: a direct `call` names its callee; an
//!   `apply` calls every function its operand may be a closure of, as the analysis itself has
//!   found so far (a value that may be any closure calls every function whose arity fits).
//! - **Summaries.** One *instance* per function and [`Context`]: the join of the arguments it
//!   was called with (its inputs) and the join of what it returns (its output). A function's
//!   captured values are the join of what every `closure` of it captured.
//! - **Contexts** ([`ContextPolicy`]): one per function (0-CFA, the default), the last `k` call
//!   sites (k-CFA), or the abstract inputs themselves (functional summaries), a bounded number
//!   of them per function before the rest share one widened instance.
//! - **Solver** ([`solve_module`]). Instances are analyzed with the dense worklist engine; a call
//!   reads the callee instance's current output (bottom, "does not return yet", for one not
//!   analyzed yet) and records its arguments. After each run the arguments are joined into the
//!   callees' inputs, the output into the summary, and whatever changed is queued again. The
//!   queue is ordered by the strongly connected components of the discovered instance graph,
//!   callers first, so a recursive cycle is iterated to its fixpoint as one unit; inputs,
//!   outputs and captures are widened after [`Limits::widening_delay`](absinthe::engine::Limits::widening_delay) growths, so recursion
//!   terminates. The result is deterministic: queues and tables are ordered by ids.

mod callees_first;
mod module;
mod scc;
mod solver;
mod value;

pub use callees_first::{SolveOne, callees_first};
pub use module::{CallSite, Context, ContextPolicy, Module};
pub use solver::{
    Instance, InterprocLimits, InterprocSolution, InterprocStats, solve_declared, solve_module,
};
pub use value::{FuncSet, ProcValue};
