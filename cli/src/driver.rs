//! Runs an analysis on a loaded program and renders the result: the one place where the front
//! ends (toy, core IR), the analyses and the engines meet.

use crate::analyses::{Analysis, ForDomain};
use crate::render::{annotated, env_json, env_text};
use absinthe::engine::{Limits, Solution, StopReason};
use absinthe::graph_free::{Flow, InstrProgram, solve_graph_free};
use absinthe::program::{Rhs, Stmt};
use absinthe::relational::{
    Constraint, DomainBounds, ForRelation, Relation, Relational, WithRelation,
};
use absinthe::value::{Env, NonRelational, StateRepr, ValueDomain};
use absinthe_ir::function::{Function, Module};
use absinthe_ir::toy::{Instr, ToyExpr, ToyProgram};
use serde_json::json;
use std::path::Path;

/// A program ready to analyze.
#[derive(Clone, Debug)]
pub enum Input {
    /// A toy program and the file it came from.
    Toy {
        /// The file name shown in output.
        file: String,
        /// The program.
        program: ToyProgram,
    },
    /// A core-IR module and the file it came from.
    Air {
        /// The file name shown in output.
        file: String,
        /// The module.
        module: Module,
    },
}

impl Input {
    /// The core-IR module the input stands for (a toy program is lowered to one function).
    pub fn module(&self) -> Module {
        match self {
            Input::Air { module, .. } => module.clone(),
            Input::Toy { program, .. } => Module {
                functions: vec![program.lower().0],
                fields: Vec::new(),
                symbols: Vec::new(),
            },
        }
    }

    /// The built-in sample: `prog0` of the graph-free data-flow article.
    pub fn builtin_prog0() -> Input {
        Input::Toy {
            file: "<prog0>".to_owned(),
            program: absinthe_ir::toy::prog0(),
        }
    }

    /// Reads and parses `path`: a toy program when it ends in `.toy`, core IR otherwise. The
    /// error is the rendered diagnostics, ready to print.
    pub fn load(path: &Path) -> Result<Input, String> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{file}: error: cannot read the file: {e}\n"))?;
        Input::parse(&file, &text, path.extension().is_some_and(|e| e == "toy"))
    }

    /// Parses `text` as a toy program (`toy`) or as core IR.
    pub fn parse(file: &str, text: &str, toy: bool) -> Result<Input, String> {
        let file = file.to_owned();
        if toy {
            match absinthe_ir::toy::parse_toy_all(&file, text) {
                Ok(program) => Ok(Input::Toy { file, program }),
                Err(errors) => Err(absinthe_ir::error::render_errors(&errors)),
            }
        } else {
            match absinthe_ir::air::parse_module_all(&file, text) {
                Ok(module) => Ok(Input::Air { file, module }),
                Err(errors) => Err(absinthe_ir::error::render_errors(&errors)),
            }
        }
    }
}

/// Which fixpoint algorithm runs the analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// The worklist solver over blocks in weak topological order.
    Worklist,
    /// Mohnen's graph-free algorithm over instructions (toy programs only).
    GraphFree,
}

/// How the result is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The program annotated with states.
    Text,
    /// A JSON document.
    Json,
}

/// What `run` produced.
#[derive(Clone, Debug)]
pub struct Report {
    /// The rendered result.
    pub output: String,
    /// Whether every analysis reached a fixpoint.
    pub stable: bool,
    /// Things the user should know (a budget that ran out).
    pub warnings: Vec<String>,
    /// The representation some function's states were kept in instead of the one asked for
    /// (sparse for `ssa` on a function not in strict SSA form), for the `# ran:` line.
    pub fell_back: Option<StateRepr>,
}

/// Runs `analysis` on `input` with states kept as `state` says, and renders it. The output does
/// not depend on `state`.
pub fn run<A: Analysis>(
    input: &Input,
    analysis: A,
    strategy: Strategy,
    state: StateRepr,
    limits: &Limits,
    format: Format,
) -> Result<Report, String> {
    if strategy == Strategy::GraphFree && state != StateRepr::Dense {
        return Err(format!(
            "the graph-free strategy keeps one dense state per instruction; `--state {state}` \
             needs `--strategy worklist`"
        ));
    }
    struct Run<'a, A: Analysis> {
        input: &'a Input,
        analysis: A,
        strategy: Strategy,
        state: StateRepr,
        limits: &'a Limits,
        format: Format,
    }
    impl<A: Analysis> ForDomain for Run<'_, A> {
        type Output = Result<Report, String>;
        fn run<D: ValueDomain>(self) -> Result<Report, String> {
            run_with::<D, A>(
                self.input,
                self.analysis,
                self.strategy,
                self.state,
                self.limits,
                self.format,
            )
        }
    }
    analysis.dispatch(Run {
        input,
        analysis,
        strategy,
        state,
        limits,
        format,
    })
}

fn run_with<D: ValueDomain, A: Analysis>(
    input: &Input,
    analysis: A,
    strategy: Strategy,
    state: StateRepr,
    limits: &Limits,
    format: Format,
) -> Result<Report, String> {
    let conditional = analysis.conditional();
    match input {
        // The relation is kept over core-IR functions: a toy program is analyzed as the
        // function it lowers to.
        Input::Toy { file, .. } if D::relation().is_some() => {
            let lowered = Input::Air {
                file: file.clone(),
                module: input.module(),
            };
            run_with::<D, A>(&lowered, analysis, strategy, state, limits, format)
        }
        Input::Toy { program, .. } => {
            let thresholds = analysis.thresholds();
            let result =
                analyze_toy_with::<D>(program, conditional, thresholds, strategy, state, limits);
            let mut warnings = stop_warning(&result.stop, "the program");
            warnings.extend(kept_warning(state, result.kept, "the program", strategy));
            let output = match format {
                Format::Text => toy_text(program, analysis, strategy, &result),
                Format::Json => toy_json(program, analysis, &result),
            };
            let fell_back =
                (strategy == Strategy::Worklist && result.kept != state).then_some(result.kept);
            Ok(Report {
                output,
                stable: result.stop.is_stable(),
                warnings,
                fell_back,
            })
        }
        Input::Air { module, .. } => {
            if strategy == Strategy::GraphFree {
                return Err(
                    "the graph-free strategy runs on toy programs only; use `--strategy worklist`"
                        .to_owned(),
                );
            }
            let results: Vec<FunctionAnalysis<D>> = module
                .functions
                .iter()
                .map(|f| {
                    analyze_function_with::<D>(f, conditional, analysis.thresholds(), state, limits)
                })
                .collect();
            let mut warnings = Vec::new();
            for (f, r) in module.functions.iter().zip(&results) {
                let what = format!("function `{}`", f.name);
                warnings.extend(stop_warning(&r.solution.stop, &what));
                warnings.extend(kept_warning(state, r.kept, &what, strategy));
            }
            let output = match format {
                Format::Text => module_text(module, analysis, &results),
                Format::Json => module_json(module, analysis, &results),
            };
            let fell_back = results.iter().map(|r| r.kept).find(|&kept| kept != state);
            Ok(Report {
                output,
                stable: results.iter().all(|r| r.solution.stop.is_stable()),
                warnings,
                fell_back,
            })
        }
    }
}

/// A warning when the states of `what` were kept in another representation than the `asked` one
/// (`ssa` on a program not in strict SSA form); the graph-free strategy refuses any but dense
/// before running.
fn kept_warning(
    asked: StateRepr,
    kept: StateRepr,
    what: &str,
    strategy: Strategy,
) -> Option<String> {
    (kept != asked && strategy == Strategy::Worklist).then(|| {
        format!(
            "{what} is not in strict SSA form: its states were kept {kept}, not {asked} (the \
             results are the same as dense)"
        )
    })
}

fn stop_warning(stop: &StopReason, what: &str) -> Vec<String> {
    match stop {
        StopReason::Stable => Vec::new(),
        StopReason::Budget { visits } => vec![format!(
            "the analysis of {what} ran out of budget after {visits} visits; its states are not a fixpoint (raise --max-visits)"
        )],
        StopReason::LawViolation { block, message } => vec![format!(
            "the analysis of {what} stopped at {block:?}: the domain broke a lattice law: {message}"
        )],
    }
}

/// The result of analyzing a toy program: the state before each instruction and at the exit.
#[derive(Clone, Debug)]
pub struct ToyAnalysis<D> {
    /// The state before each instruction, by program counter.
    pub points: Vec<Env<D>>,
    /// The state flowing off the end.
    pub exit: Env<D>,
    /// Why the solver stopped.
    pub stop: StopReason,
    /// Block visits (worklist) or instruction evaluations (graph-free).
    pub work: u64,
    /// The representation the states were kept in: the one asked for, but sparse for `ssa`
    /// when the lowered program is not in strict SSA form, and dense for the graph-free
    /// strategy.
    pub kept: StateRepr,
}

/// Analyzes a toy program with flat or interval values; `conditional` evaluates branch conditions.
pub fn analyze_toy<D: ValueDomain>(
    program: &ToyProgram,
    conditional: bool,
    strategy: Strategy,
    limits: &Limits,
) -> ToyAnalysis<D> {
    analyze_toy_with(
        program,
        conditional,
        &[],
        strategy,
        StateRepr::Dense,
        limits,
    )
}

/// [`analyze_toy`] with the declared widening `thresholds` and the worklist strategy's states
/// kept as `state` says (the graph-free strategy always keeps dense states).
pub fn analyze_toy_with<D: ValueDomain>(
    program: &ToyProgram,
    conditional: bool,
    thresholds: &'static [i64],
    strategy: Strategy,
    state: StateRepr,
    limits: &Limits,
) -> ToyAnalysis<D> {
    let analysis = NonRelational::<D>::new(conditional).with_thresholds(thresholds);
    match strategy {
        Strategy::Worklist => {
            let (function, pcs) = program.lower();
            let solved = analysis.solve(&function, state, limits);
            let kept = solved.repr();
            let solution = solved.into_dense();
            let block_points: Vec<Vec<Env<D>>> = (0..function.blocks().len())
                .map(|b| {
                    let b = absinthe::program::BlockId::new(b);
                    analysis.replay(&function, b, &solution.entry[b.index()])
                })
                .collect();
            let points = (0..program.instrs.len())
                .map(|pc| match pcs.loc(pc) {
                    Some((b, i)) => block_points[b.index()][i].clone(),
                    None => Env::Unreachable,
                })
                .collect();
            ToyAnalysis {
                points,
                exit: solution.entry[pcs.exit().index()].clone(),
                stop: solution.stop,
                work: solution.stats.visits,
                kept,
            }
        }
        Strategy::GraphFree => {
            let instrs = ToyInstrs {
                program,
                analysis,
                stmts: program.instrs.iter().map(toy_stmt).collect(),
            };
            let entry = Env::reachable(program.names.len());
            let solution = solve_graph_free(&instrs, entry, limits);
            ToyAnalysis {
                points: solution.states,
                exit: solution.exit,
                stop: solution.stop,
                work: solution.evaluations,
                kept: StateRepr::Dense,
            }
        }
    }
}

/// The statement a toy assignment performs.
fn toy_stmt(instr: &Instr) -> Option<Stmt> {
    match instr {
        Instr::Assign { dest, rhs } => Some(Stmt::Assign {
            dest: *dest,
            rhs: match rhs {
                ToyExpr::Use(a) => Rhs::Use(*a),
                ToyExpr::Binary(op, a, b) => Rhs::Binary(*op, *a, *b),
            },
        }),
        Instr::Goto(_) | Instr::CondGoto { .. } => None,
    }
}

/// A toy program seen as an instruction list by the graph-free solver.
struct ToyInstrs<'a, D> {
    program: &'a ToyProgram,
    analysis: NonRelational<D>,
    stmts: Vec<Option<Stmt>>,
}

impl<D: ValueDomain> InstrProgram for ToyInstrs<'_, D> {
    type State = Env<D>;

    fn len(&self) -> usize {
        self.program.instrs.len()
    }

    fn flow(&self, pc: usize) -> Flow {
        match self.program.instrs[pc] {
            Instr::Assign { .. } => Flow::Next,
            Instr::Goto(target) => Flow::Goto(target),
            Instr::CondGoto { target, .. } => Flow::CondGoto(target),
        }
    }

    fn transfer(&self, pc: usize, state: &mut Env<D>) {
        if let Some(stmt) = &self.stmts[pc] {
            self.analysis.transfer_stmt(stmt, state);
        }
    }

    fn branch(&self, pc: usize, taken: bool, state: &Env<D>) -> Env<D> {
        match self.program.instrs[pc] {
            Instr::CondGoto { cond, .. } if self.analysis.is_conditional() => {
                self.analysis.assume_cond(cond, taken, state)
            }
            _ => state.clone(),
        }
    }
}

/// The result of analyzing one core-IR function.
#[derive(Clone, Debug)]
pub struct FunctionAnalysis<D> {
    /// Per block, the state before each statement and before the terminator.
    pub points: Vec<Vec<Env<D>>>,
    /// The engine's solution (block entry and exit states, stop reason, statistics).
    pub solution: Solution<Env<D>>,
    /// The representation the states were kept in: the one asked for, but sparse for `ssa`
    /// when the function is not in strict SSA form.
    pub kept: StateRepr,
    /// Whether branch conditions refined the states (the analysis evaluated conditions).
    pub conditional: bool,
    /// For a domain with a relational component ([`ValueDomain::relation`]): per block, the
    /// relation's constraints before each statement and before the terminator, over the
    /// function's names; empty for other domains.
    pub relations: Vec<Vec<Vec<Constraint>>>,
}

/// Analyzes one core-IR function.
pub fn analyze_function<D: ValueDomain>(
    function: &Function,
    conditional: bool,
    limits: &Limits,
) -> FunctionAnalysis<D> {
    analyze_function_with(function, conditional, &[], StateRepr::Dense, limits)
}

/// [`analyze_function`] with the declared widening `thresholds` and states kept as `state` says
/// (the result is the same).
pub fn analyze_function_with<D: ValueDomain>(
    function: &Function,
    conditional: bool,
    thresholds: &'static [i64],
    state: StateRepr,
    limits: &Limits,
) -> FunctionAnalysis<D> {
    if let Some(relation) = D::relation() {
        struct Run<'a, D> {
            function: &'a Function,
            conditional: bool,
            thresholds: &'static [i64],
            limits: &'a Limits,
            domain: std::marker::PhantomData<fn() -> D>,
        }
        impl<D: ValueDomain> ForRelation for Run<'_, D> {
            type Output = FunctionAnalysis<D>;
            fn run<R: Relational + Clone>(self, relation: Relation) -> FunctionAnalysis<D> {
                analyze_relational::<D, R>(
                    self.function,
                    self.conditional,
                    self.thresholds,
                    relation,
                    self.limits,
                )
            }
        }
        return relation.dispatch(Run {
            function,
            conditional,
            thresholds,
            limits,
            domain: std::marker::PhantomData,
        });
    }
    let analysis = NonRelational::<D>::new(conditional).with_thresholds(thresholds);
    let solved = analysis.solve(function, state, limits);
    let kept = solved.repr();
    let solution = solved.into_dense();
    let points = (0..function.blocks().len())
        .map(|b| {
            let b = absinthe::program::BlockId::new(b);
            analysis.replay(function, b, &solution.entry[b.index()])
        })
        .collect();
    FunctionAnalysis {
        points,
        solution,
        kept,
        conditional,
        relations: Vec::new(),
    }
}

/// [`analyze_function_with`] for a domain with a relational component: the names' values and a
/// packed relation of `R` over them ([`WithRelation`]), kept dense (the relation is one value
/// per point, which the sparse representations do not split).
fn analyze_relational<D: ValueDomain, R: Relational + Clone>(
    function: &Function,
    conditional: bool,
    thresholds: &'static [i64],
    relation: Relation,
    limits: &Limits,
) -> FunctionAnalysis<D> {
    let analysis = relational_analysis::<D, R>(conditional, thresholds, relation);
    let solution = absinthe::engine::solve(function, &analysis, limits);
    let replayed: Vec<_> = (0..function.blocks().len())
        .map(|b| {
            let b = absinthe::program::BlockId::new(b);
            analysis.replay(function, b, &solution.entry[b.index()])
        })
        .collect();
    let points = replayed
        .iter()
        .map(|states| states.iter().map(|s| s.env.clone()).collect())
        .collect();
    let relations = replayed
        .iter()
        .map(|states| states.iter().map(|s| s.rel.constraints()).collect())
        .collect();
    let env = |states: &[absinthe::relational::RelState<D, R>]| -> Vec<Env<D>> {
        states.iter().map(|s| s.env.clone()).collect()
    };
    FunctionAnalysis {
        points,
        solution: Solution {
            entry: env(&solution.entry),
            exit: env(&solution.exit),
            stop: solution.stop,
            stats: solution.stats,
        },
        kept: StateRepr::Dense,
        conditional,
        relations,
    }
}

/// The relational engine `analyze` runs for a domain with a relational component of `R`
/// (`trace` runs the same one, traced): the names' values and a packed relation over them,
/// branch conditions refining both when `conditional`, `thresholds` added to the widenings'.
pub fn relational_analysis<D: ValueDomain, R: Relational + Clone>(
    conditional: bool,
    thresholds: &'static [i64],
    relation: Relation,
) -> WithRelation<D, R, DomainBounds> {
    WithRelation::new(conditional, relation.packs, DomainBounds).with_thresholds(thresholds)
}

/// The constraints between two names of `relation`, as text over `names` (`i - n ≤ -1`), or
/// nothing when there is none (each name's bounds are in its value). A relation whose bound is
/// past the 64-bit range (`-x - y ≤ 18446744073709551615`, which only excludes a corner of the
/// 64-bit box) is left out of the text; `verify` and the JSON output keep every one.
pub fn relation_text(relation: &[Constraint], names: &[String]) -> Option<String> {
    let name = |x: usize| {
        names.get(x).cloned().unwrap_or_else(|| {
            unreachable!("name {x} is one of the function's {} names", names.len())
        })
    };
    let within_64_bits = |c: &&Constraint| match **c {
        Constraint::Difference(_, _, b)
        | Constraint::Sum(_, _, b)
        | Constraint::NegSum(_, _, b) => i64::try_from(b).is_ok(),
        Constraint::Upper(..) | Constraint::Lower(..) => false,
    };
    let parts: Vec<String> = relation
        .iter()
        .filter(within_64_bits)
        .map(|c| c.text(&name))
        .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

fn stop_text(stop: &StopReason) -> String {
    match stop {
        StopReason::Stable => "stable".to_owned(),
        StopReason::Budget { visits } => format!("budget exhausted after {visits} visits"),
        StopReason::LawViolation { block, .. } => format!("lattice law broken at {block:?}"),
    }
}

fn toy_text<D: ValueDomain, A: Analysis>(
    program: &ToyProgram,
    analysis: A,
    strategy: Strategy,
    result: &ToyAnalysis<D>,
) -> String {
    let strategy = match strategy {
        Strategy::Worklist => "worklist",
        Strategy::GraphFree => "graph-free",
    };
    let mut out = format!(
        "# analysis: {analysis} ({strategy}); {}; {} steps\n",
        stop_text(&result.stop),
        result.work
    );
    // The program prints one instruction per line, in order.
    let text = program.to_string();
    let lines: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(pc, instr)| format!("{pc:>3}  {instr}"))
        .collect();
    let width = lines
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .max(9);
    for (line, state) in lines.iter().zip(&result.points) {
        out.push_str(&annotated(line, &env_text(state, &program.names), width));
        out.push('\n');
    }
    out.push_str(&annotated(
        "exit",
        &env_text(&result.exit, &program.names),
        width,
    ));
    out.push('\n');
    out
}

fn toy_json<D: ValueDomain, A: Analysis>(
    program: &ToyProgram,
    analysis: A,
    result: &ToyAnalysis<D>,
) -> String {
    let points: Vec<_> = result
        .points
        .iter()
        .enumerate()
        .map(|(pc, env)| json!({ "pc": pc, "state": env_json(env, &program.names) }))
        .collect();
    let doc = json!({
        "analysis": analysis.as_str(),
        "points": points,
        "exit": env_json(&result.exit, &program.names),
    });
    format!(
        "{}\n",
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    )
}

fn module_text<D: ValueDomain, A: Analysis>(
    module: &Module,
    analysis: A,
    results: &[FunctionAnalysis<D>],
) -> String {
    let mut out = format!("# analysis: {analysis}\n");
    for (function, result) in module.functions.iter().zip(results) {
        out.push_str(&format!(
            "# {}: {}; {} block visits\n",
            function.name,
            stop_text(&result.solution.stop),
            result.solution.stats.visits
        ));
        // The printed function has one line per item, in this order: the signature, then per
        // block its label, φs, statements and terminator, then the closing brace.
        let mut text = String::new();
        // Writing to a String cannot fail.
        let _ = absinthe_ir::air::print::write_function(&mut text, module, function);
        let mut states: Vec<Option<String>> = vec![None];
        for (b, (block, points)) in function.blocks().iter().zip(&result.points).enumerate() {
            states.push(None);
            states.extend(block.phis.iter().map(|_| None));
            states.extend(points.iter().enumerate().map(|(i, env)| {
                let values = env_text(env, &function.names);
                let relation = result
                    .relations
                    .get(b)
                    .and_then(|r| r.get(i))
                    .and_then(|r| relation_text(r, &function.names));
                Some(match relation {
                    Some(relation) if env.is_reachable() => format!("{values} | {relation}"),
                    _ => values,
                })
            }));
        }
        states.push(None);
        let lines: Vec<(String, Option<String>)> = text
            .lines()
            .map(str::to_owned)
            .zip(states.into_iter().chain(std::iter::repeat(None)))
            .collect();
        let width = lines
            .iter()
            .map(|(l, _)| l.chars().count())
            .max()
            .unwrap_or(0);
        for (line, state) in lines {
            match state {
                Some(state) => out.push_str(&annotated(&line, &state, width)),
                None => out.push_str(&line),
            }
            out.push('\n');
        }
    }
    out
}

fn module_json<D: ValueDomain, A: Analysis>(
    module: &Module,
    analysis: A,
    results: &[FunctionAnalysis<D>],
) -> String {
    let functions: Vec<_> = module
        .functions
        .iter()
        .zip(results)
        .map(|(function, result)| {
            let blocks: Vec<_> = function
                .blocks()
                .iter()
                .zip(&result.points)
                .enumerate()
                .map(|(b, (block, states))| {
                    let points: Vec<_> = states
                        .iter()
                        .enumerate()
                        .map(|(i, env)| {
                            let mut point =
                                json!({ "index": i, "state": env_json(env, &function.names) });
                            if let Some(relation) = result.relations.get(b).and_then(|r| r.get(i)) {
                                let name = |x: usize| {
                                    function.names.get(x).cloned().unwrap_or_else(|| {
                                        unreachable!("name {x} is one of the function's names")
                                    })
                                };
                                point["relation"] = json!(
                                    relation.iter().map(|c| c.text(&name)).collect::<Vec<_>>()
                                );
                            }
                            point
                        })
                        .collect();
                    json!({ "label": block.label, "points": points })
                })
                .collect();
            json!({
                "name": function.name,
                "stop": stop_text(&result.solution.stop),
                "blocks": blocks,
            })
        })
        .collect();
    let doc = json!({ "analysis": analysis.as_str(), "functions": functions });
    format!(
        "{}\n",
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    )
}
