//! A module's functions solved together: callees first, each call through its callee's
//! summary, then each closure body again under the lock (`super::lock`).

use super::approx::{Approx, Name};
use super::env::TypingEnv;
use super::flow::{ConcreteValue, EnvSolution, admits, analyze_with, operand};
use super::join::Branch;
use super::lock::under_the_lock;
use super::summary::{Exporter, Summary, instantiate};
use absinthe::cfg::Dominators;
use absinthe::program::{BlockId, Cfg, FuncId, Program, Terminator};

/// The summary of a function from its solution: the join of what its reachable `ret`s return,
/// over its entry; `None` when it never returns a value.
pub fn summarize<P: Program + Cfg + ?Sized>(
    program: &P,
    solution: &EnvSolution,
) -> Option<Summary> {
    let entry = solution.blocks[program.entry().index()].as_ref()?;
    let mut envs: Vec<TypingEnv> = Vec::new();
    let mut args: Vec<Vec<Approx>> = Vec::new();
    let mut returning: Vec<BlockId> = Vec::new();
    for (b, envs_b) in solution.blocks.iter().enumerate() {
        let Some(envs_b) = envs_b else { continue };
        let Terminator::Return(Some(o)) = program.terminator(BlockId(b as u32)) else {
            continue;
        };
        let mut exit = envs_b.after.last().unwrap_or(&envs_b.entry).clone();
        if exit.is_bottom() {
            continue;
        }
        args.push(vec![operand(&mut exit, &envs_b.names, *o)]);
        envs.push(exit);
        returning.push(BlockId(b as u32));
    }
    if envs.is_empty() {
        return None;
    }
    // One `ret`: its environment as it is, where every name the function defined is still in
    // scope (a join would expand them away). Several: their join over the end of the block
    // that dominates them all, whose environment every one of theirs extends: the names
    // defined there and above stay names (and become the summary's existentials), the names
    // the branches define alike are the join's existentials.
    let (joined, result) = if let ([exit], [arg]) = (envs.as_mut_slice(), args.as_slice()) {
        let result = exit.define("result", arg[0].clone());
        (exit.clone(), result)
    } else {
        let dominators = Dominators::new(program);
        let Some(top) = returning
            .iter()
            .copied()
            .reduce(|a, b| common_dominator(&dominators, a, b))
        else {
            unreachable!("several returns were joined, so there is one")
        };
        let root = match &solution.blocks[top.index()] {
            Some(envs_top) => envs_top.after.last().unwrap_or(&envs_top.entry),
            None => unreachable!(
                "block {} dominates reached blocks, so it is reached",
                top.index()
            ),
        };
        let branches: Vec<Branch<'_>> = envs
            .iter()
            .zip(&args)
            .map(|(env, args)| Branch { env, args })
            .collect();
        let (joined, result) = root.join(&branches, &["result"]);
        (joined, result[0])
    };
    let inputs: Vec<Name> = program
        .params()
        .iter()
        .chain(program.captures())
        .map(|p| entry.names[p])
        .collect();
    Some(Exporter::new(&joined, &inputs).summary(result))
}

/// Whether a return of a function agrees with its `summary`: the function's inputs held
/// `inputs` (`None` for one the run left unset, such as the captures of a direct call) and it
/// returned `result`. The summary is applied as a call would apply it, to names holding the
/// inputs; the inputs and the result must be admitted by what it then says. `base` says how
/// closures print and which declared domain integers are.
pub fn summary_holds(
    summary: &Summary,
    base: &TypingEnv,
    inputs: &[Option<ConcreteValue>],
    result: &ConcreteValue,
) -> bool {
    let mut env = base.emptied();
    let names: Vec<Option<Name>> = inputs
        .iter()
        .enumerate()
        .map(|(i, value)| {
            value.as_ref()?;
            let Some(label) = summary.labels.get(i) else {
                unreachable!("a summary labels each of its {} inputs", summary.inputs)
            };
            Some(env.define(label, Approx::Top))
        })
        .collect();
    let Some(approx) = instantiate(&mut env, summary, &names) else {
        // The summary says no run returns with these inputs: this one did.
        return false;
    };
    let inputs_hold = inputs
        .iter()
        .zip(&names)
        .all(|(value, name)| match (value, name) {
            (Some(value), Some(name)) => admits(&env, &Approx::Alias(*name), value, 4),
            _ => true,
        });
    inputs_hold && admits(&env, &approx, result, 4)
}

/// The nearest block that dominates both `a` and `b`.
fn common_dominator(dominators: &Dominators, a: BlockId, b: BlockId) -> BlockId {
    let mut up = a;
    loop {
        if dominators.dominates(up, b) {
            return up;
        }
        match dominators.idom(up) {
            Some(parent) => up = parent,
            None => unreachable!("the entry block dominates every reached block"),
        }
    }
}

/// `start`, printing closures by `module`'s names: their code by its function's name
/// ([`TypingEnv::with_code_names`]), their value slots by its capture names
/// ([`TypingEnv::with_slot_names`]).
pub fn with_module_names<M: absinthe_interproc::Module>(start: &TypingEnv, module: &M) -> TypingEnv
where
    M::Function: Cfg,
{
    let functions = (0..module.function_count()).map(|f| FuncId(f as u32));
    let code_names: Vec<String> = functions
        .clone()
        .map(|f| module.function_name(f).to_owned())
        .collect();
    let slot_names: Vec<Vec<String>> = functions
        .map(|f| match module.function(f) {
            Some(function) => function
                .captures()
                .iter()
                .map(|&c| function.name(c).to_owned())
                .collect(),
            None => Vec::new(),
        })
        .collect();
    start
        .clone()
        .with_code_names(code_names)
        .with_slot_names(slot_names)
}

/// Every function of `module` (each in SSA form) solved from `start` with its callees'
/// summaries, callees first (a call in a cycle of calls gives `⊤`); per function, its solution
/// and summary. `start` says which declared domain integers fall back to
/// ([`TypingEnv::with_ints`]); closures' code prints by the module's function names.
pub fn solve_module<M: absinthe_interproc::Module>(
    module: &M,
    start: &TypingEnv,
) -> Vec<(EnvSolution, Option<Summary>)>
where
    M::Function: Cfg,
{
    let n = module.function_count();
    let start = with_module_names(start, module);
    // A function without a summary (one that never returns) and one still being solved (in a
    // cycle of calls) both give callers no summary.
    let solved = absinthe_interproc::callees_first(n, &|f, callees| {
        let function = module.function(f)?;
        let solution = analyze_with(function, &start, Some(f), &mut |g| callees(g).flatten());
        let summary = summarize(function, &solution);
        Some(((solution, summary.clone()), summary))
    });
    let mut solved: Vec<(EnvSolution, Option<Summary>)> = solved
        .into_iter()
        .enumerate()
        .map(|(f, solved)| {
            solved.unwrap_or_else(|| {
                unreachable!("function {f} of {n} is a function of the module, as Module promises")
            })
        })
        .collect();
    under_the_lock(module, &start, &mut solved);
    solved
}

/// Runs the typing environment (the engine `typing_env`) for declared analysis `A` over every
/// function of `module`, each in SSA form, callees first, with `A`'s domain as the integers past
/// small sets of immediates and at most `A`'s declared number of immediates in a set.
pub fn solve_declared<A: absinthe::value::DeclaredAnalysis, M: absinthe_interproc::Module>(
    module: &M,
) -> Vec<(EnvSolution, Option<Summary>)>
where
    M::Function: Cfg,
{
    let start = TypingEnv::new()
        .with_ints(super::Ints::top_of::<A::Domain>())
        .with_max_imms(A::spec().immediates as usize)
        .with_max_numbers(A::spec().numbers.map(|n| n as usize));
    solve_module(module, &start)
}
