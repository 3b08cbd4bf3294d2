//! Analyses declared `direction backward` (`.dom` or `#[absinthe::analysis(direction =
//! "backward")]`): [`absinthe::value::Demands`] over each function of a core-IR module (a toy
//! program as the function it lowers to), printed as what is demanded of each name before every
//! statement and terminator, and checked against concrete runs (`verify`).
//!
//! The check has two parts. Along each run's own path, the declared rules give what that path
//! demands (the same transfer functions, applied to the one path the run took); the solution,
//! which joins every path, must cover it at every point the run passed. And the run's dynamic
//! dependences give what it really needed: a value is needed where something the run observed
//! afterwards (a branch, a return, a store, a call, an operation that trapped or could have)
//! depends on it; the analysis must demand every such value (not bottom).

use crate::analyses::{Analysis, ForDomain};
use crate::args::{AnalyzeArgs, ContextArg, FormatArg, StateArg, VerifyArgs, format_of};
use crate::driver::{Format, Input, Report};
use crate::kernel;
use crate::ran::Ran;
use crate::runs;
use absinthe::engine::Limits;
use absinthe::program::{BlockId, Cfg, NameId, Operand, Program, Rhs, Stmt};
use absinthe::value::{Demands, Env, ValueDomain};
use absinthe_ir::function::{Function, Module};
use absinthe_ir::interp::Value as Concrete;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::ExitCode;

/// One function's solution: the demands before each statement and terminator of each block
/// (`Demands::points` of the block's exit state).
struct Solved<D> {
    analysis: Demands<D>,
    points: Vec<Vec<Env<D>>>,
    stable: bool,
    visits: u64,
}

fn solve<D: ValueDomain>(function: &Function, limits: &Limits) -> Solved<D> {
    let analysis = Demands::<D>::new(function);
    let solution = analysis.solve(function, limits);
    let points = (0..function.block_count())
        .map(|b| analysis.points(function, BlockId::new(b), &solution.exit[b]))
        .collect();
    Solved {
        analysis,
        points,
        stable: solution.stop.is_stable(),
        visits: solution.stats.visits,
    }
}

/// The demands a point states: the names demanded at all, `x = Live, n = Live`.
fn demands_text<D: ValueDomain>(env: &Env<D>, function: &Function) -> String {
    match env {
        Env::Unreachable => "no exit is reachable".to_owned(),
        Env::Reachable(values) => {
            let parts: Vec<String> = values
                .iter()
                .enumerate()
                .filter(|(_, v)| !v.is_bottom())
                .map(|(x, v)| format!("{} = {v}", function.names[x]))
                .collect();
            if parts.is_empty() {
                "nothing demanded".to_owned()
            } else {
                parts.join(", ")
            }
        }
    }
}

fn demands_json<D: ValueDomain>(env: &Env<D>, function: &Function) -> Value {
    match env {
        Env::Unreachable => Value::Null,
        Env::Reachable(values) => {
            let mut map = serde_json::Map::new();
            for (x, v) in values.iter().enumerate().filter(|(_, v)| !v.is_bottom()) {
                map.insert(function.names[x].clone(), json!(v.to_string()));
            }
            Value::Object(map)
        }
    }
}

/// Runs the backward analysis `name` (value domain `D`) over every function of `input` and
/// renders it.
pub fn run<D: ValueDomain>(input: &Input, name: &str, limits: &Limits, format: Format) -> Report {
    let module = input.module();
    let mut stable = true;
    let mut warnings = Vec::new();
    let mut text = format!(
        "# analysis: {name} (backward: what the rest of the run demands of each name, before \
         each point)\n"
    );
    let mut functions = Vec::new();
    for function in &module.functions {
        let solved = solve::<D>(function, limits);
        if !solved.stable {
            stable = false;
            warnings.push(format!(
                "the analysis of `{}` did not reach a fixpoint within the visit budget; its \
                 demands are not sound (raise --max-visits)",
                function.name
            ));
        }
        match format {
            Format::Text => {
                text.push_str(&format!(
                    "# {}: {} block visits\n",
                    function.name, solved.visits
                ));
                text.push_str(&crate::render::annotated_function(
                    &module,
                    function,
                    &mut |b, i| demands_text(&solved.points[b.index()][i], function),
                ));
            }
            Format::Json => {
                let blocks: Vec<Value> = function
                    .blocks()
                    .iter()
                    .enumerate()
                    .map(|(b, block)| {
                        let mut points: Vec<Value> = block
                            .stmts
                            .iter()
                            .enumerate()
                            .map(|(i, stmt)| {
                                json!({
                                    "at": module.stmt_text(function, stmt),
                                    "demands": demands_json(&solved.points[b][i], function),
                                })
                            })
                            .collect();
                        points.push(json!({
                            "at": module.term_text(function, BlockId::new(b)),
                            "demands": demands_json(&solved.points[b][block.stmts.len()], function),
                        }));
                        json!({ "label": block.label, "points": points })
                    })
                    .collect();
                functions.push(json!({
                    "name": function.name,
                    "visits": solved.visits,
                    "stable": solved.stable,
                    "blocks": blocks,
                }));
            }
        }
    }
    let output = match format {
        Format::Text => text,
        Format::Json => {
            let doc = json!({
                "analysis": name,
                "direction": "backward",
                "functions": functions,
            });
            let mut out = serde_json::to_string_pretty(&doc)
                .unwrap_or_else(|e| unreachable!("a JSON value always serializes: {e}"));
            out.push('\n');
            out
        }
    };
    Report {
        output,
        stable,
        warnings,
        fell_back: None,
    }
}

/// What `verify` found.
#[derive(Debug, Default)]
pub struct Checked {
    /// Runs checked.
    pub runs: usize,
    /// Points of those runs checked.
    pub points: usize,
    /// Demands checked (one per name per point).
    pub values: usize,
    /// What disagreed, one line each.
    pub violations: Vec<String>,
}

/// The names `operand` reads.
fn name_of(operand: Operand) -> Option<NameId> {
    match operand {
        Operand::Name(n) => Some(n),
        Operand::Int(_) => None,
    }
}

/// What the run's dependences need before a statement, given what they need after it: the
/// operands of what it observes (stores, calls, reads that may trap, the divisor of a division,
/// both operands of a float conversion), the operands of a definition whose value is needed, and,
/// where the run trapped, the operands that held a reference there (`values`, the names' values
/// before the statement; arithmetic and `select` trap on one).
fn needed_before(stmt: &Stmt, trapped: Option<&[Option<Concrete>]>, needed: &mut BTreeSet<NameId>) {
    let wanted = stmt.def().is_some_and(|dest| needed.remove(&dest));
    if let Some(values) = trapped {
        stmt.for_each_use(|o| {
            if let Some(n) = name_of(o)
                && matches!(values.get(n.index()), Some(Some(Concrete::Ref(_))))
            {
                needed.insert(n);
            }
        });
    }
    let mut add = |o: Operand| {
        if let Some(n) = name_of(o) {
            needed.insert(n);
        }
    };
    match stmt {
        Stmt::Assign { rhs, .. } => {
            match rhs {
                Rhs::Binary(op, a, b) => {
                    if wanted {
                        add(*a);
                        add(*b);
                    } else if op.may_trap() {
                        // Whether it traps depends on the divisor, or on the converted float
                        // and the width it is converted to.
                        if op.is_float() {
                            add(*a);
                        }
                        add(*b);
                    }
                }
                Rhs::Load(..)
                | Rhs::Field(..)
                | Rhs::Tag(_)
                | Rhs::Table(..)
                | Rhs::Sibling(..)
                | Rhs::Call(..)
                | Rhs::Apply(..) => rhs.for_each_use(add),
                _ if wanted => rhs.for_each_use(add),
                _ => {}
            }
        }
        Stmt::Store { .. } | Stmt::Call { .. } | Stmt::Apply { .. } => stmt.for_each_use(add),
    }
}

/// Runs every function of `input` `runs` times (arguments from `seed`) and checks the
/// backward analysis of `D` against each run, as the module's documentation says.
pub fn verify<D: ValueDomain>(
    input: &Input,
    limits: &Limits,
    runs: usize,
    seed: u64,
    max_steps: u64,
) -> Checked {
    let module = input.module();
    let solved: Vec<Solved<D>> = module
        .functions
        .iter()
        .map(|f| solve::<D>(f, limits))
        .collect();
    let mut checked = Checked::default();
    let mut violations = Vec::new();
    checked.runs = runs::each_run(&module, runs, seed, max_steps, &mut |observed| {
        let function = &module.functions[observed.function.index()];
        let solved = &solved[observed.function.index()];
        // The point of the top-level frame where the run trapped, if it did there.
        let trapped = match observed.run.outcome {
            absinthe_ir::interp::Outcome::Trap {
                func, block, index, ..
            } if func == observed.function => Some((block, index)),
            _ => None,
        };
        check_run::<D>(
            &module,
            function,
            solved,
            observed.points,
            trapped,
            observed.args,
            &mut checked.points,
            &mut checked.values,
            &mut violations,
        );
    });
    for (function, solved) in module.functions.iter().zip(&solved) {
        if !solved.stable {
            violations.insert(
                0,
                format!(
                    "`{}`: the analysis did not reach a fixpoint within the visit budget, so its \
                     demands are no solution (raise --max-visits); the lines below may follow \
                     from it",
                    function.name
                ),
            );
        }
    }
    checked.violations = violations;
    checked
}

/// Checks one run of `function` (the points it passed, in order) against `solved`.
#[allow(clippy::too_many_arguments)]
fn check_run<D: ValueDomain>(
    module: &Module,
    function: &Function,
    solved: &Solved<D>,
    points: &[(BlockId, usize, Vec<Option<absinthe_ir::interp::Value>>)],
    trapped: Option<(BlockId, usize)>,
    args: &[i64],
    points_checked: &mut usize,
    values_checked: &mut usize,
    violations: &mut Vec<String>,
) {
    let analysis = &solved.analysis;
    let width = function.name_count();
    // What the rules demand along this path, and what the run's dependences need, after the
    // point being looked at; nothing after the last one.
    let mut path: Env<D> = Env::reachable(width);
    let mut needed: BTreeSet<NameId> = BTreeSet::new();
    let run = || format!("`{}` on ({})", function.name, join(args));
    let at = |b: BlockId, i: usize| -> String {
        let block = &function.blocks()[b.index()];
        match block.stmts.get(i) {
            Some(stmt) => format!(
                "`{}` ({}:{i})",
                module.stmt_text(function, stmt),
                block.label
            ),
            None => format!(
                "`{}` ({}:{i})",
                module.term_text(function, b).unwrap_or_default(),
                block.label
            ),
        }
    };
    for (k, (b, i, values)) in points.iter().enumerate().rev() {
        let (b, i) = (*b, *i);
        // Crossing into the next block the run went to: its φs took their operands.
        if let Some(&(next, 0, _)) = points.get(k + 1) {
            let to = function.successors(b).iter().position(|&s| s == next);
            if let Some(succ) = to.filter(|_| i == function.stmts(b).len()) {
                path = <Demands<D> as absinthe::engine::Analysis<Function>>::transfer_edge(
                    analysis, function, b, succ, &path,
                );
                let phis = function.phis(next);
                let taken: Vec<NameId> = phis
                    .iter()
                    .filter(|phi| needed.contains(&phi.dest))
                    .filter_map(|phi| {
                        phi.incoming
                            .iter()
                            .find(|(p, _)| *p == b)
                            .and_then(|&(_, o)| name_of(o))
                    })
                    .collect();
                for phi in phis {
                    needed.remove(&phi.dest);
                }
                needed.extend(taken);
            }
        }
        match function.stmts(b).get(i) {
            Some(stmt) => {
                analysis.transfer_stmt(stmt, &mut path);
                let here = (trapped == Some((b, i))).then_some(values.as_slice());
                needed_before(stmt, here, &mut needed);
            }
            None => {
                let term = function.terminator(b);
                analysis.transfer_terminator(term, &mut path);
                term.for_each_use(|o| {
                    if let Some(n) = name_of(o) {
                        needed.insert(n);
                    }
                });
            }
        }
        let state = &solved.points[b.index()][i];
        if !state.is_reachable() {
            // Every block may end the run (`Demands::solve`), so every point is reachable.
            violations.push(format!(
                "{}: before {} the analysis says no run gets here, but this one did",
                run(),
                at(b, i)
            ));
            continue;
        }
        *points_checked += 1;
        for x in 0..width {
            let name = NameId::new(x);
            *values_checked += 1;
            let have = state.get(name);
            let want = path.get(name);
            if !want.leq(&have) {
                violations.push(format!(
                    "{}: before {} the rules demand {want} of `{}` along this run's path, but \
                     the solution demands only {have} (a rule that is not monotone, or the engine \
                     lost a demand)",
                    run(),
                    at(b, i),
                    function.names[x]
                ));
            } else if needed.contains(&name) && have.is_bottom() {
                violations.push(format!(
                    "{}: before {} the run needs `{}` (what it observes later depends on it), but \
                     the analysis demands nothing of it: a rule gives bottom where the value is \
                     used",
                    run(),
                    at(b, i),
                    function.names[x]
                ));
            }
        }
    }
}

fn join(args: &[i64]) -> String {
    args.iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why a backward analysis cannot run on `file` with these flags, if it cannot: it runs over
/// each function of a core-IR module (or the function a toy program lowers to), with the
/// worklist engine and dense states.
fn refusal_reason<A: Analysis>(
    analysis: A,
    file: Option<&Path>,
    (state, context, entry): (Option<StateArg>, Option<ContextArg>, &str),
    graph_free: bool,
) -> Option<String> {
    if let Some(state) = state.filter(|s| !matches!(s, StateArg::Dense)) {
        Some(format!(
            "`{analysis}` is a backward analysis: it keeps dense states; `--state {}` follows \
             definitions forward",
            state.repr()
        ))
    } else if entry != "auto" {
        Some(format!(
            "`{analysis}` is a backward analysis: it runs over every function alone; `--entry` \
             picks where an interprocedural analysis starts"
        ))
    } else if file.is_some_and(kernel::is_kernel_file) {
        Some(format!(
            "`{analysis}` is a backward analysis: it runs on core-IR modules and toy programs, \
             not on kernel terms"
        ))
    } else if matches!(context, Some(ContextArg::Inter(_))) {
        Some(format!(
            "`{analysis}` is a backward analysis: it runs over each function alone (what a \
             callee demands of its arguments counts as observed); `--context` does not apply"
        ))
    } else if graph_free {
        Some(format!(
            "`{analysis}` is a backward analysis: it runs on the worklist engine; \
             `--strategy graph-free` is forward only"
        ))
    } else {
        None
    }
}

/// The usage error (exit code 2) of a backward analysis asked to run where it cannot, after
/// printing why; `None` when it can run.
pub fn refusal<A: Analysis>(
    analysis: A,
    file: Option<&Path>,
    flags: (Option<StateArg>, Option<ContextArg>, &str),
    graph_free: bool,
) -> Option<ExitCode> {
    let why = refusal_reason(analysis, file, flags, graph_free)?;
    eprintln!("error: {why}");
    Some(ExitCode::from(2))
}

/// `absinthe analyze` of a backward analysis ([`crate::backward`]).
pub fn analyze_command<A: Analysis>(args: &AnalyzeArgs, analysis: A, input: &Input) -> ExitCode {
    if matches!(args.format, FormatArg::Dot) {
        eprintln!("error: `--format dot` draws shape graphs; `{analysis}` is a backward analysis");
        return ExitCode::from(2);
    }
    struct Run<'a> {
        input: &'a Input,
        name: &'a str,
        limits: Limits,
        format: Format,
    }
    impl ForDomain for Run<'_> {
        type Output = Report;
        fn run<D: ValueDomain>(self) -> Report {
            run::<D>(self.input, self.name, &self.limits, self.format)
        }
    }
    let name = analysis.to_string();
    let report = analysis.dispatch(Run {
        input,
        name: &name,
        limits: analysis.limits(args.max_visits),
        format: format_of(args),
    });
    let mut ran = Ran::new(analysis.spec(), args.state.map(StateArg::repr), None);
    ran.intraprocedural("each function alone: the analysis runs backward");
    print!("{}", ran.under_header(&report.output, format_of(args)));
    for warning in &report.warnings {
        eprintln!("warning: {warning}");
    }
    if report.stable {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    }
}

/// `absinthe verify` of a backward analysis ([`verify`]).
pub fn verify_command<A: Analysis>(args: &VerifyArgs, analysis: A, input: &Input) -> ExitCode {
    if args.random.is_some() {
        eprintln!(
            "error: `--random` draws programs for forward analyses; verify a backward analysis \
             on a file"
        );
        return ExitCode::from(2);
    }
    struct Check<'a> {
        input: &'a Input,
        limits: Limits,
        args: &'a VerifyArgs,
    }
    impl ForDomain for Check<'_> {
        type Output = Checked;
        fn run<D: ValueDomain>(self) -> Checked {
            verify::<D>(
                self.input,
                &self.limits,
                self.args.runs,
                self.args.seed,
                self.args.max_steps,
            )
        }
    }
    let checked = analysis.dispatch(Check {
        input,
        limits: analysis.limits(Limits::default().max_visits),
        args,
    });
    for violation in &checked.violations {
        println!("{violation}");
    }
    println!(
        "{} runs, {} points and {} demands checked: {} violation{}",
        checked.runs,
        checked.points,
        checked.values,
        checked.violations.len(),
        if checked.violations.len() == 1 {
            ""
        } else {
            "s"
        }
    );
    if checked.violations.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
