//! The optimizer: rewrites core IR with facts an analysis proved, given as plain data
//! ([`FunctionFacts`]), and [`compare_runs`], the check that the rewritten program computes
//! what the original does.
//!
//! Three rewrites, one after the other ([`optimize_function`]): constants folded and branches
//! with one feasible target made jumps (`fold`), assignments to dead names that cannot trap
//! removed from live names (`dead`), blocks no edge reaches removed (`prune`). The `new`
//! statements the facts say never escape are marked `new stack`. The optimizer runs no value
//! analysis itself: `absinthe optimize` computes the facts and prints the result.

mod compare;
mod dead;
mod facts;
mod fold;
mod ints;
mod prune;

pub use compare::{Verdict, compare_runs};
pub use facts::{Counts, FunctionFacts};

use crate::function::{Function, Module};
use absinthe::program::{Rhs, Stmt};

/// `function` rewritten with `facts` (which must be facts of this function), and what changed.
pub fn optimize_function(function: &Function, facts: &FunctionFacts) -> (Function, Counts) {
    let mut counts = Counts::default();
    if function.blocks().is_empty() {
        return (function.clone(), counts);
    }
    let mut work = fold::fold(function, facts, &mut counts);
    dead::remove_dead(function, &mut work, &mut counts);
    prune::prune(&mut work, &mut counts);
    let optimized = work.function(function);
    let before = stack_count(function);
    counts.stack = stack_count(&optimized).saturating_sub(before);
    (optimized, counts)
}

/// `module` with each function rewritten with its facts (`facts[i]` for function `i`; a
/// function without facts is left as it is), and what changed over all of them.
pub fn optimize_module(module: &Module, facts: &[FunctionFacts]) -> (Module, Counts) {
    let mut counts = Counts::default();
    let mut optimized = module.clone();
    for (function, facts) in optimized.functions.iter_mut().zip(facts) {
        let (rewritten, c) = optimize_function(function, facts);
        *function = rewritten;
        counts.add(c);
    }
    (optimized, counts)
}

/// The `new stack` statements of `function`.
fn stack_count(function: &Function) -> usize {
    function
        .stack_allocations
        .iter()
        .filter(|&&(b, i)| {
            matches!(
                function
                    .block(b)
                    .and_then(|block| block.stmts.get(i as usize)),
                Some(Stmt::Assign { rhs: Rhs::New, .. })
            )
        })
        .count()
}
