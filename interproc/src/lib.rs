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
mod scc;
mod solver;
mod value;

pub use callees_first::{SolveOne, callees_first};
pub use solver::{
    Instance, InterprocLimits, InterprocSolution, InterprocStats, solve_declared, solve_module,
};
pub use value::{FuncSet, ProcValue};

use absinthe::program::{BlockId, FuncId, Program};
use std::fmt;

/// A module of functions, as the interprocedural engine sees it.
pub trait Module {
    /// The functions' type.
    type Function: Program;
    /// Number of functions; ids are `0..function_count()`.
    fn function_count(&self) -> usize;
    /// The function `f`, if it exists.
    fn function(&self, f: FuncId) -> Option<&Self::Function>;
    /// The function's name, for output.
    fn function_name(&self, f: FuncId) -> &str;
}

/// A call site: statement `index` of `block` of `func`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CallSite {
    /// The calling function.
    pub func: FuncId,
    /// The block of the call.
    pub block: BlockId,
    /// The statement's position in the block.
    pub index: u32,
}

/// How calls of one function are told apart (one word of the shared vocabulary).
pub use absinthe::spec::ContextPolicy;

/// Which calls an instance stands for.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Context {
    /// Every call (0-CFA), or the analysis's entry.
    All,
    /// Calls whose last call sites, innermost last, are these.
    Sites(Box<[CallSite]>),
    /// Calls with the `n`-th distinct input of the function (functional policy).
    Input(u32),
    /// Calls beyond the functional policy's bound.
    Merged,
}

impl fmt::Display for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Context::All => f.write_str("*"),
            Context::Sites(sites) => {
                f.write_str("[")?;
                for (i, s) in sites.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{:?}:{:?}:{}", s.func, s.block, s.index)?;
                }
                f.write_str("]")
            }
            Context::Input(n) => write!(f, "input#{n}"),
            Context::Merged => f.write_str("merged"),
        }
    }
}
