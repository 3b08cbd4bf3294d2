//! What a solved shape analysis says about a function: the graphs before every statement and
//! terminator, and its [`ShapeSummary`] for callers; and a whole module solved callees first,
//! each function with its callees' summaries.

use super::{Callees, NoCallees, ShapeAnalysis, ShapeGraph, ShapeStates, ShapeSummary, inputs};
use absinthe::engine::{Solution, StopReason, solve};
use absinthe::lattice::Lattice;
use absinthe::program::{BlockId, Cfg, FuncId, Operand, Program, Terminator};
use absinthe::value::ValueDomain;
use absinthe_interproc::Module;

/// A function's solution and what is read off it.
#[derive(Clone, Debug)]
pub struct ShapeFacts<D> {
    /// The engine's solution (block entries and exits).
    pub solution: Solution<ShapeStates<D>>,
    /// Per block, the graphs with their values before each statement and, last, before the
    /// terminator (empty for a block no run reaches).
    pub before: Vec<Vec<ShapeStates<D>>>,
    /// The summary for callers.
    pub summary: ShapeSummary,
}

/// Solves `program` with callee summaries from `callees` and reads off the facts.
pub fn analyze<D: ValueDomain, P: Program + Cfg + ?Sized>(
    program: &P,
    callees: &dyn Callees,
) -> ShapeFacts<D> {
    let analysis = ShapeAnalysis::<D>::new(callees);
    let solution = solve(program, &analysis, &ShapeAnalysis::<D>::limits());
    let mut before = Vec::with_capacity(program.block_count());
    let mut exits: Vec<(ShapeGraph, Option<absinthe::program::NameId>)> = Vec::new();
    for b in 0..program.block_count() {
        let block = BlockId(b as u32);
        let entry = &solution.entry[b];
        if entry.is_bottom() {
            before.push(Vec::new());
            continue;
        }
        let mut states = Vec::with_capacity(program.stmts(block).len() + 1);
        let mut current = entry.clone();
        for (index, stmt) in program.stmts(block).iter().enumerate() {
            let next = analysis.statement(&current, block, index, stmt);
            states.push(std::mem::replace(&mut current, next));
        }
        let last = current;
        if let Terminator::Return(operand) = program.terminator(block) {
            let returned = match operand {
                Some(Operand::Name(n)) => Some(*n),
                _ => None,
            };
            exits.extend(last.graphs().map(|g| (g.clone(), returned)));
        }
        states.push(last);
        before.push(states);
    }
    let summary = ShapeSummary::of_exits(inputs(program).len(), exits);
    ShapeFacts {
        solution,
        before,
        summary,
    }
}

/// Every function of `module` solved callees first, each with its callees' summaries (a call
/// into a cycle of calls still being solved is unknown code).
pub fn solve_module<D: ValueDomain, M: Module>(module: &M) -> Vec<ShapeFacts<D>>
where
    M::Function: Cfg,
{
    let solved = absinthe_interproc::callees_first(module.function_count(), &|f, callees| {
        let function = module.function(f)?;
        let facts = analyze::<D, _>(function, &callees);
        let summary = facts.summary.clone();
        Some((facts, summary))
    });
    solved
        .into_iter()
        .enumerate()
        .map(|(f, facts)| {
            facts.unwrap_or_else(|| match module.function(FuncId(f as u32)) {
                Some(function) => analyze::<D, _>(function, &NoCallees),
                None => ShapeFacts {
                    solution: Solution {
                        entry: Vec::new(),
                        exit: Vec::new(),
                        stop: StopReason::Stable,
                        stats: Default::default(),
                    },
                    before: Vec::new(),
                    summary: ShapeSummary::default(),
                },
            })
        })
        .collect()
}

/// Runs the shape analysis (the engine `shape`) for declared analysis `A` over every function of
/// `module`, callees first, each shape graph with the values of `A`'s domain along the same paths.
pub fn solve_declared<A: absinthe::value::DeclaredAnalysis, M: Module>(
    module: &M,
) -> Vec<ShapeFacts<A::Domain>>
where
    M::Function: Cfg,
{
    solve_module(module)
}
