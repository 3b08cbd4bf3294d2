//! The `analyze` and `verify` commands, generic over the catalog of analyses they offer: the
//! `absinthe` binary runs them with the built-in analyses ([`AnalysisName`](crate::analyses::AnalysisName)), and the binary of a
//! crate generated from a `.dom` file with that file's analyses (see [`hosted_main`]), so both
//! print the same way and check the same way.

use crate::analyses::{Analysis, parse_in};
use crate::args::format_of;
pub use crate::args::{
    AnalyzeArgs, ContextArg, EngineArg, FormatArg, StateArg, StrategyArg, TraceArgs,
    TraceFormatArg, VerifyArgs, parse_context,
};
use crate::driver::{self, Format, Input, Report, Strategy};
use crate::ran::Ran;
use crate::verify::{self, VerifyConfig};
use crate::{backward, interproc, kernel};
use absinthe::engine::Limits;
use absinthe::spec::{Direction, Engine};
use absinthe_interproc::ContextPolicy;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The analysis `--analysis` names in catalog `A`, or `default`; an unknown name is a usage
/// error (exit code 2, as clap's), reported with the catalog.
fn resolve<A: Analysis>(name: Option<&str>, default: A) -> Result<A, ExitCode> {
    match name {
        None => Ok(default),
        Some(name) => parse_in::<A>(name).map_err(|message| {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }),
    }
}

fn load(file: Option<&PathBuf>) -> Result<Input, ExitCode> {
    match file {
        None => Ok(Input::builtin_prog0()),
        Some(path) => Input::load(path).map_err(|message| {
            eprint!("{message}");
            ExitCode::FAILURE
        }),
    }
}

/// [`load`], with an LLVM module (`.ll`, `.bc`) read whole and lowered to core IR as the value
/// analyses see it (memory erased: loads and call results unknown).
fn load_program(file: Option<&PathBuf>) -> Result<Input, ExitCode> {
    match file.filter(|p| crate::is_llvm_file(p)) {
        Some(path) => llvm_input(path),
        None => load(file),
    }
}

/// `absinthe verify` with the analyses of catalog `A`; `default` when `--analysis` is not given.
pub fn verify<A: Analysis>(args: &VerifyArgs, default: A) -> ExitCode {
    let analysis = match resolve(args.analysis.as_deref(), default) {
        Ok(analysis) => analysis,
        Err(code) => return code,
    };
    if let Err(code) = refuse_flow_flags(analysis, args.state, args.context) {
        return code;
    }
    if analysis.spec().direction == Direction::Backward {
        return match backward::refusal(
            analysis,
            args.file.as_deref(),
            (args.state, args.context, &args.entry),
            false,
        ) {
            Some(code) => code,
            None => match load_program(args.file.as_ref()) {
                Ok(input) => backward::verify_command(args, analysis, &input),
                Err(code) => code,
            },
        };
    }
    // LLVM modules are lowered whole to core IR here, which keeps the relation.
    let kernel = args.file.as_deref().filter(|p| kernel::is_kernel_file(p));
    warn_relation_unkept(analysis, kernel, None);
    // The engines with drivers of their own; the others run below.
    match analysis.engine() {
        Engine::AliasHeap => return verify_heap(args),
        Engine::TypingEnv => return verify_typing(args, analysis),
        Engine::Escape => return verify_escape(args, analysis),
        Engine::Shape => return verify_shape(args, analysis),
        Engine::Flow | Engine::BehaviorGraph => {}
    }
    if let Some(path) = args.file.as_ref().filter(|p| kernel::is_kernel_file(p)) {
        return kernel::verify_command(path, args, analysis);
    }
    let input = match load_program(args.file.as_ref()) {
        Ok(input) => input,
        Err(code) => return code,
    };
    let config = VerifyConfig {
        runs: args.runs,
        seed: args.seed,
        max_steps: args.max_steps,
        state: args.state.map_or(analysis.spec().state, StateArg::repr),
        thresholds: analysis.thresholds(),
    };
    // The declared widening and narrowing; the runs bound themselves (`--max-steps`).
    let limits = analysis.limits(Limits::default().max_visits);
    let interprocedural = match (&input, args.context, args.random) {
        (Input::Air { module, .. }, context, None) => {
            let policy = context_policy(module, context, analysis.spec().context);
            match (policy, interproc::Entry::parse(&args.entry).resolve(module)) {
                (Some(policy), Ok(Some(entry))) => Some(Ok((module, policy, entry))),
                (Some(_), Err(message)) => Some(Err(message)),
                _ => None,
            }
        }
        _ => None,
    };
    let report = match interprocedural {
        Some(Ok((module, policy, entry))) => {
            warn_relation_unkept(analysis, None, Some(ContextArg::Inter(policy)));
            interproc::verify(module, analysis, policy, entry, &limits, &config)
        }
        Some(Err(message)) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
        None => verify::run(&input, analysis, &limits, &config, args.random),
    };
    for violation in &report.violations {
        println!("{violation}");
    }
    println!(
        "{} runs, {} points and {} values checked: {} violation{}",
        report.runs,
        report.points_checked,
        report.values_checked,
        report.violations.len(),
        if report.violations.len() == 1 {
            ""
        } else {
            "s"
        }
    );
    if report.violations.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `--state` and `--context` choose how the flow engine keeps its states and tells calls apart.
/// The alias heap and the engines that keep states of their own (`Engine::reads`, the table the
/// declarations are checked against too) refuse the two flags rather than ignore them.
fn refuse_flow_flags<A: Analysis>(
    analysis: A,
    state: Option<StateArg>,
    context: Option<ContextArg>,
) -> Result<(), ExitCode> {
    let (flag, setting) = match (state, context) {
        (Some(_), _) => ("--state", "state"),
        (None, Some(_)) => ("--context", "context"),
        (None, None) => return Ok(()),
    };
    analysis.engine().reads(setting).map_err(|why| {
        eprintln!("error: `{flag}` does not apply to `{analysis}`: {why}");
        ExitCode::from(2)
    })
}

/// `absinthe analyze` with the analyses of catalog `A`; `default` when `--analysis` is not given.
pub fn analyze<A: Analysis>(args: &AnalyzeArgs, default: A) -> ExitCode {
    let analysis = match resolve(args.analysis.as_deref(), default) {
        Ok(analysis) => analysis,
        Err(code) => return code,
    };
    if let Err(code) = refuse_flow_flags(analysis, args.state, args.context) {
        return code;
    }
    if analysis.spec().direction == Direction::Backward {
        let graph_free = matches!(args.strategy, StrategyArg::GraphFree);
        return match backward::refusal(
            analysis,
            args.file.as_deref(),
            (args.state, args.context, &args.entry),
            graph_free,
        ) {
            Some(code) => code,
            None => match load_program(args.file.as_ref()) {
                Ok(input) => backward::analyze_command(args, analysis, &input),
                Err(code) => code,
            },
        };
    }
    warn_relation_unkept(analysis, args.file.as_deref(), None);
    // The engines with drivers of their own; the others run below.
    match analysis.engine() {
        Engine::AliasHeap => return analyze_heap(args, analysis),
        Engine::TypingEnv => return analyze_typing(args, analysis),
        Engine::Escape => return analyze_escape(args, analysis),
        Engine::Shape => return analyze_shape(args, analysis),
        Engine::Flow | Engine::BehaviorGraph => {}
    }
    if matches!(args.format, FormatArg::Dot) {
        eprintln!(
            "error: `--format dot` draws shape graphs: it is for analyses whose engine is \
             `shape` (`--analysis shape`), not `{analysis}`"
        );
        return ExitCode::from(2);
    }
    if let Some(path) = args.file.as_ref().filter(|p| crate::is_llvm_file(p)) {
        return analyze_llvm(path, args, analysis);
    }
    if let Some(path) = args.file.as_ref().filter(|p| kernel::is_kernel_file(p)) {
        return analyze_kernel(path, args, analysis);
    }
    if analysis.kernel_only() {
        eprintln!(
            "error: `{}` runs on kernel terms (`.kt` files) only",
            analysis
        );
        return ExitCode::FAILURE;
    }
    let input = match load(args.file.as_ref()) {
        Ok(input) => input,
        Err(code) => return code,
    };
    let limits = analysis.limits(args.max_visits);
    let format = format_of(args);
    let strategy = match args.strategy {
        StrategyArg::Worklist => Strategy::Worklist,
        StrategyArg::GraphFree => Strategy::GraphFree,
    };
    let spec = analysis.spec();
    let state = if analysis.relation().is_some() {
        note_relation_state(analysis, args.state);
        absinthe::value::StateRepr::Dense
    } else {
        args.state.map_or(spec.state, StateArg::repr)
    };
    let intra = || driver::run(&input, analysis, strategy, state, &limits, format);
    let context_flag = match args.context {
        Some(ContextArg::Inter(policy)) => Some(policy),
        _ => None,
    };
    let mut ran = Ran::new(spec, args.state.map(StateArg::repr), context_flag);
    if analysis.relation().is_some() {
        ran.relation_dense();
    }
    let result = match (&input, args.context) {
        (Input::Air { module, .. }, context) => {
            // `--state` picks an intraprocedural engine's representation.
            let context = context.or(Some(ContextArg::Inter(spec.context))
                .filter(|_| args.state.is_none() && interproc::has_calls(module)));
            match context {
                Some(ContextArg::Inter(_))
                    if args.state.is_some_and(|s| !matches!(s, StateArg::Dense)) =>
                {
                    Err(
                        "interprocedural analysis keeps dense states; use `--context intra` for \
                     `--state`"
                            .to_owned(),
                    )
                }
                Some(ContextArg::Inter(policy)) => {
                    ran.interprocedural(policy);
                    warn_relation_unkept(analysis, None, Some(ContextArg::Inter(policy)));
                    interproc::run(
                        module,
                        analysis,
                        policy,
                        &interproc::Entry::parse(&args.entry),
                        &limits,
                        format,
                    )
                }
                Some(ContextArg::Intra) | None => {
                    ran.intraprocedural(if interproc::has_calls(module) {
                        "each function alone"
                    } else {
                        "none: the module has no calls"
                    });
                    intra()
                }
            }
        }
        (_, Some(ContextArg::Inter(_))) => {
            Err("`--context` applies to core-IR modules; toy programs have no calls".to_owned())
        }
        _ => {
            ran.intraprocedural("none: toy programs have no calls");
            intra()
        }
    };
    match result {
        Ok(report) => {
            ran.fell_back(report.fell_back);
            print!("{}", ran.under_header(&report.output, format));
            for warning in &report.warnings {
                eprintln!("warning: {warning}");
            }
            if report.stable {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(3)
            }
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Says that `--state` is overridden when the analysis's domain has a relational component,
/// which the engines keep in dense states, and the flag asks for another representation.
fn note_relation_state<A: Analysis>(analysis: A, flag: Option<StateArg>) {
    if let Some(flag) = flag.filter(|s| s.repr() != absinthe::value::StateRepr::Dense) {
        eprintln!(
            "note: `--state {}` is overridden: the relational component of `{analysis}` is kept \
             in dense states",
            flag.repr()
        );
    }
}

/// Warns when the analysis's domain has a relational component that this run does not keep:
/// only the flow engine keeps one, on core-IR, toy and LLVM functions analyzed one at a time;
/// the other engines, kernel terms and interprocedural analysis run the component as an
/// interval.
fn warn_relation_unkept<A: Analysis>(
    analysis: A,
    file: Option<&Path>,
    context: Option<ContextArg>,
) {
    let Some(relation) = analysis.relation() else {
        return;
    };
    let elsewhere = if analysis.engine() != Engine::Flow {
        Some(format!("runs of the engine `{}`", analysis.engine()))
    } else if file.is_some_and(kernel::is_kernel_file) {
        Some("kernel terms".to_owned())
    } else if matches!(context, Some(ContextArg::Inter(_))) {
        Some("interprocedural analysis".to_owned())
    } else {
        None
    };
    if let Some(elsewhere) = elsewhere {
        eprintln!(
            "warning: the relational component of `{analysis}`, {relation}, is not kept in \
             {elsewhere}: it computes as an interval here (the flow engine keeps it on core-IR, \
             toy and LLVM functions analyzed one at a time, `--context intra` for modules with \
             calls)"
        );
    }
}

/// The context policy `--context` asks for, else `declared` for modules with calls; `None` to
/// analyze each function alone.
fn context_policy(
    module: &absinthe_ir::Module,
    context: Option<ContextArg>,
    declared: ContextPolicy,
) -> Option<ContextPolicy> {
    match context {
        Some(ContextArg::Inter(policy)) => Some(policy),
        Some(ContextArg::Intra) => None,
        None if interproc::has_calls(module) => Some(declared),
        None => None,
    }
}

fn analyze_kernel<A: Analysis>(path: &Path, args: &AnalyzeArgs, analysis: A) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{}:1:1: error: cannot read the file: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let engine = args.engine.unwrap_or(match analysis.engine() {
        Engine::BehaviorGraph => EngineArg::BehaviorGraph,
        Engine::Flow | Engine::TypingEnv | Engine::Escape | Engine::Shape => EngineArg::Flow,
        Engine::AliasHeap => {
            unreachable!("`analyze` runs the alias heap before reading kernel terms")
        }
    });
    let context_flag = match args.context {
        Some(ContextArg::Inter(policy)) => Some(policy),
        _ => None,
    };
    let mut ran = Ran::new(analysis.spec(), None, context_flag);
    if let Some(flag) = args.engine {
        ran = ran.with_engine_flag(match flag {
            EngineArg::BehaviorGraph => Engine::BehaviorGraph,
            EngineArg::Flow => Engine::Flow,
        });
    }
    // Kernel terms are analyzed across their functions, with dense states on the flow engine;
    // the behavior graph has neither.
    let refused = match (engine, args.state, args.context) {
        (_, Some(state), _) if !matches!(state, StateArg::Dense) => Some(
            "`--state` does not apply to kernel terms: the flow engine analyzes them across \
             their functions with dense states",
        ),
        (EngineArg::BehaviorGraph, Some(_), _) => Some(
            "`--state` does not apply to the behavior graph, which keeps a value at each of its \
             nodes",
        ),
        (EngineArg::BehaviorGraph, _, Some(ContextArg::Intra)) => Some(
            "`--context intra` does not apply to kernel terms, whose flows cross their functions",
        ),
        (EngineArg::Flow, _, Some(ContextArg::Intra)) => Some(
            "`--context intra` does not apply to kernel terms, which are analyzed across their \
             functions",
        ),
        _ => None,
    };
    if let Some(why) = refused {
        eprintln!("error: {why}");
        return ExitCode::from(2);
    }
    let engine = match engine {
        EngineArg::BehaviorGraph => {
            let declared = analysis.spec().context;
            let context = context_flag.unwrap_or(declared);
            let text = match context {
                ContextPolicy::CallStrings(k) if k > 0 => {
                    format!("kcfa={k}: flows per string of the last {k} call sites")
                }
                _ => "0-CFA: the flows of the behavior graph".to_owned(),
            };
            let from = match context_flag {
                Some(flag) if flag != declared => {
                    format!("--context; the declaration says {declared}")
                }
                Some(_) => "--context, as declared".to_owned(),
                None => "declared".to_owned(),
            };
            ran.chosen(
                (
                    "a value at each node of the behavior graph".to_owned(),
                    "what the behavior graph keeps".to_owned(),
                ),
                (text, from),
            );
            kernel::KernelEngine::BehaviorGraph
        }
        EngineArg::Flow => {
            let policy = context_flag.unwrap_or(analysis.spec().context);
            ran.interprocedural(policy);
            kernel::KernelEngine::Flow(policy)
        }
    };
    let format = format_of(args);
    let overriding = context_flag.filter(|_| matches!(engine, kernel::KernelEngine::BehaviorGraph));
    match kernel::run_in_context(
        &path.display().to_string(),
        &text,
        analysis,
        engine,
        overriding,
        format,
    ) {
        Ok(report) => {
            print!("{}", ran.under_header(&report.output, format));
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprint!("{message}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(feature = "llvm")]
fn analyze_llvm<A: Analysis>(path: &Path, args: &AnalyzeArgs, analysis: A) -> ExitCode {
    let limits = analysis.limits(args.max_visits);
    let states = args
        .state
        .map_or(absinthe_llvm::analyze::States::Auto, |s| {
            absinthe_llvm::analyze::States::Fixed(s.repr())
        });
    let declared = analysis.spec();
    let mut ran = Ran::new(declared, None, None);
    let state = match args.state {
        // The relation is one value per point: its states are dense.
        _ if analysis.relation().is_some() => {
            note_relation_state(analysis, args.state);
            (
                "dense".to_owned(),
                format!(
                    "the relational component keeps dense states; the declaration says {}",
                    declared.state
                ),
            )
        }
        Some(flag) if flag.repr() == declared.state => {
            (flag.repr().to_string(), "--state, as declared".to_owned())
        }
        Some(flag) => (
            flag.repr().to_string(),
            format!("--state; the declaration says {}", declared.state),
        ),
        None => (
            format!(
                "chosen per function: ssa in SSA form, else dense below {} blocks × names, else \
                 sparse",
                absinthe_llvm::analyze::DENSE_BELOW
            ),
            format!(
                "the LLVM front end's choice without --state; the declaration says {}",
                declared.state
            ),
        ),
    };
    let context = (
        "each function alone".to_owned(),
        format!(
            "the LLVM front end analyzes functions alone; the declaration says {}",
            declared.context
        ),
    );
    ran.chosen(state, context);
    let format = format_of(args);
    match crate::llvm::run(
        path,
        analysis,
        states,
        &limits,
        (args.threads, args.pieces),
        format,
    ) {
        Ok(report) => {
            print!("{}", ran.under_header(&report.output, format));
            for warning in &report.warnings {
                eprintln!("warning: {warning}");
            }
            if report.stable {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(3)
            }
        }
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

/// An LLVM module lowered to core IR, for `trace` and `verify`.
#[cfg(feature = "llvm")]
fn llvm_input(path: &Path) -> Result<Input, ExitCode> {
    crate::llvm::lowered(path)
        .map(|module| Input::Air {
            file: path.display().to_string(),
            module,
        })
        .map_err(|message| {
            eprintln!("{message}");
            ExitCode::FAILURE
        })
}

#[cfg(not(feature = "llvm"))]
fn llvm_input(path: &Path) -> Result<Input, ExitCode> {
    eprintln!("{}: error: {NO_LLVM}", path.display());
    Err(ExitCode::FAILURE)
}

/// Why an LLVM module cannot be read by this build.
#[cfg(not(feature = "llvm"))]
const NO_LLVM: &str = "this absinthe was built without the LLVM front end; install LLVM 15 with \
     scripts/install-llvm.sh and build with `cargo build --release -p absinthe-cli --features llvm`";

#[cfg(not(feature = "llvm"))]
fn analyze_llvm<A: Analysis>(path: &Path, args: &AnalyzeArgs, analysis: A) -> ExitCode {
    let _ = (analysis.limits(args.max_visits), format_of(args));
    eprintln!("{}: error: {NO_LLVM}", path.display());
    ExitCode::FAILURE
}

/// The catalog of `A`, one analysis per line with its description, for `--help`.
pub fn catalog_text<A: Analysis>() -> String {
    format!("Analyses:\n{}\n", crate::analyses::catalog_lines::<A>())
}

/// `command` with catalog `A` listed at the end of the `analyze` and `verify` help.
pub fn list_analyses<A: Analysis>(command: clap::Command) -> clap::Command {
    let text = catalog_text::<A>();
    command
        .mut_subcommand("analyze", |c| c.after_help(text.clone()))
        .mut_subcommand("verify", |c| c.after_help(text.clone()))
}

/// The command line of a crate generated from a `.dom` file: `analyze` and `verify` with its
/// analyses.
#[derive(Debug, clap::Parser)]
#[command(version, about = "The analyses of a .dom file, compiled.")]
struct Hosted {
    #[command(subcommand)]
    command: HostedCommand,
}

#[derive(Debug, clap::Subcommand)]
enum HostedCommand {
    /// Analyze a program and print it annotated with the inferred facts.
    Analyze(AnalyzeArgs),
    /// Check an analysis against concrete runs: every value a run computes must lie in what the
    /// analysis inferred. Reports the first disagreement of each run and the rule behind it.
    Verify(VerifyArgs),
    /// Record every step of the fixpoint engine on one function, as JSON, graphviz or the
    /// viewer's HTML page.
    Trace(TraceArgs),
}

/// The `main` of a binary that hosts analyses declared in Rust (a crate generated from a `.dom`
/// file, or one of the user's with [`crate::hosted_analyses!`]): `analyze`, `verify` and
/// `trace` exactly as the `absinthe` command, with catalog `A` (the first is the default).
pub fn hosted_main<A: Analysis>() -> ExitCode {
    use clap::{CommandFactory, FromArgMatches};
    let Some(&first) = A::all().first() else {
        eprintln!("error: the catalog has no analysis");
        return ExitCode::FAILURE;
    };
    let command = list_analyses::<A>(Hosted::command());
    let hosted = match Hosted::from_arg_matches(&command.get_matches()) {
        Ok(hosted) => hosted,
        Err(error) => error.exit(),
    };
    match hosted.command {
        HostedCommand::Analyze(args) => analyze(&args, first),
        HostedCommand::Verify(args) => verify(&args, first),
        HostedCommand::Trace(args) => trace(&args, first),
    }
}

/// `absinthe trace` with the analyses of catalog `A`; `default` when `--analysis` is not given.
pub fn trace<A: Analysis>(args: &TraceArgs, default: A) -> ExitCode {
    let analysis = match resolve(args.analysis.as_deref(), default) {
        Ok(analysis) => analysis,
        Err(code) => return code,
    };
    let heap = match analysis.engine() {
        Engine::Escape | Engine::Shape => true,
        Engine::Flow | Engine::BehaviorGraph => false,
        Engine::TypingEnv | Engine::AliasHeap => {
            eprintln!(
                "error: `trace` runs value analyses and the heap analyses of the engines `shape` \
                 and `escape`; `{analysis}` is neither"
            );
            return ExitCode::from(2);
        }
    };
    if analysis.kernel_only() {
        eprintln!(
            "error: `trace` runs value analyses and the heap analyses of the engines `shape` \
             and `escape`; `{analysis}` is neither"
        );
        return ExitCode::from(2);
    }
    if let Some(path) = args
        .file
        .as_ref()
        .filter(|p| heap && (crate::is_llvm_file(p) || kernel::is_kernel_file(p)))
    {
        eprintln!(
            "{}: error: `{analysis}` runs on toy programs and core-IR modules",
            path.display()
        );
        return ExitCode::FAILURE;
    }
    // The flow engine's trace keeps a relation (`trace/relation.rs`); the heap engines' do not.
    if heap {
        warn_relation_unkept(analysis, None, None);
    }
    let input = match load_program(args.file.as_ref()) {
        Ok(input) => input,
        Err(code) => return code,
    };
    let html = crate::trace::TraceFormat::Html {
        verify_runs: args.verify_runs,
    };
    let format = match args.format {
        _ if args.html.is_some() => html,
        TraceFormatArg::JsonTrace => crate::trace::TraceFormat::JsonTrace,
        TraceFormatArg::Dot => crate::trace::TraceFormat::Dot,
        TraceFormatArg::Html => html,
    };
    let limits = analysis.limits(args.max_visits);
    match crate::trace::trace(&input, analysis, args.function.as_deref(), format, &limits) {
        Ok(text) => match &args.html {
            Some(path) => match std::fs::write(path, text) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("{}: error: cannot write: {error}", path.display());
                    ExitCode::FAILURE
                }
            },
            None => {
                print!("{text}");
                ExitCode::SUCCESS
            }
        },
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

/// Which command of a `.dom` file's analyses to run.
#[derive(Debug)]
pub enum DomCommand<'a> {
    /// `analyze --dom FILE`.
    Analyze(&'a AnalyzeArgs),
    /// `verify --dom FILE`.
    Verify(&'a VerifyArgs),
    /// `trace --dom FILE`.
    Trace(&'a TraceArgs),
}

/// `analyze --dom FILE` and `verify --dom FILE` in the default mode: the file is checked and its
/// analyses are interpreted ([`crate::interp`]), with no Rust compiler involved.
pub fn interpret(file: &Path, command: DomCommand<'_>) -> ExitCode {
    use crate::interp::Interpreted;
    use absinthe_dom_interp::{Interp, Running};
    // The interpreter runs the checked tree: no Rust is generated.
    let checked = match absinthe_domc::check_file(file) {
        Ok(checked) => checked,
        Err(failure) => {
            eprint!("{failure}");
            return ExitCode::FAILURE;
        }
    };
    let interp = match Interp::new(&checked) {
        Ok(interp) => interp,
        Err(failure) => {
            eprint!("{failure}");
            return ExitCode::FAILURE;
        }
    };
    if interp.analyses().is_empty() {
        eprintln!(
            "{}: error: the file declares no analysis\n  = help: add one: `analysis name {{ domain P; }}`",
            file.display()
        );
        return ExitCode::FAILURE;
    }
    // The file runs until the command ends: every thread of its analyses reads it.
    let _running = Running::enter(std::sync::Arc::new(interp), 0);
    match command {
        DomCommand::Analyze(args) => analyze(args, Interpreted(0)),
        DomCommand::Verify(args) => verify(args, Interpreted(0)),
        DomCommand::Trace(args) => trace(args, Interpreted(0)),
    }
}

/// `analyze` with an analysis that has a driver of its own (the alias heap, the typing
/// environment), which `render` runs: toy programs and core-IR modules only.
fn analyze_own<A: Analysis>(
    args: &AnalyzeArgs,
    analysis: A,
    (state, context): (String, &str),
    render: impl FnOnce(&Input, Format) -> Report,
) -> ExitCode {
    if let Some(path) = args
        .file
        .as_ref()
        .filter(|p| crate::is_llvm_file(p) || kernel::is_kernel_file(p))
    {
        eprintln!(
            "{}: error: `{analysis}` runs on toy programs and core-IR modules",
            path.display()
        );
        return ExitCode::FAILURE;
    }
    let input = match load(args.file.as_ref()) {
        Ok(input) => input,
        Err(code) => return code,
    };
    let format = format_of(args);
    let output = render(&input, format).output;
    if matches!(args.format, FormatArg::Dot) {
        // Graphviz: no line is added to the graphs.
        print!("{output}");
    } else {
        let mut ran = Ran::new(analysis.spec(), None, None);
        ran.own(state, context);
        print!("{}", ran.under_header(&output, format));
    }
    ExitCode::SUCCESS
}

/// How the engines with module schedules of their own (the typing environment, the escape and
/// shape engines) treat calls, for the `# ran:` line.
const CALLEES_FIRST: &str =
    "callees first, one summary per function; a call into a cycle of calls is unknown code";

/// `verify` with an analysis that has a driver of its own: `check` runs every function on
/// random arguments and gives the violations it found and what it checked (`"1462 runs and
/// 21109 values"`).
fn verify_own(args: &VerifyArgs, check: impl FnOnce(&Input) -> (Vec<String>, String)) -> ExitCode {
    if let Some(path) = args.file.as_ref().filter(|p| crate::is_llvm_file(p)) {
        eprintln!(
            "{}: error: this analysis is verified on toy programs and core-IR modules; an LLVM \
             module is verified with an analysis of the engine `flow`",
            path.display()
        );
        return ExitCode::FAILURE;
    }
    let input = match load(args.file.as_ref()) {
        Ok(input) => input,
        Err(code) => return code,
    };
    let (violations, checked) = check(&input);
    for violation in &violations {
        println!("violation: {violation}");
    }
    println!(
        "{checked} checked: {} violation{}",
        violations.len(),
        if violations.len() == 1 { "" } else { "s" }
    );
    if violations.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `analyze --analysis alias-heap`.
fn analyze_heap<A: Analysis>(args: &AnalyzeArgs, analysis: A) -> ExitCode {
    let state = "a disjunction of alias heaps at each block entry".to_owned();
    analyze_own(
        args,
        analysis,
        (state, "each function alone"),
        crate::heap::run,
    )
}

/// `verify --analysis alias-heap`: every point's variables checked against the heaps there.
fn verify_heap(args: &VerifyArgs) -> ExitCode {
    verify_own(args, |input| {
        let check = crate::heap::verify(input, args.runs, args.seed, args.max_steps);
        let checked = format!("{} runs and {} points", check.runs, check.points);
        (check.violations, checked)
    })
}

/// The typing environment with analysis `analysis`'s value domain as its integers.
fn typing_declared<A: Analysis>(analysis: A) -> crate::typing::Declared {
    struct Of(&'static str, usize, [usize; 4]);
    impl crate::analyses::ForDomain for Of {
        type Output = crate::typing::Declared;
        fn run<D: absinthe::value::ValueDomain>(self) -> crate::typing::Declared {
            crate::typing::Declared {
                max_imms: self.1,
                numbers: self.2,
                ..crate::typing::Declared::of::<D>(self.0)
            }
        }
    }
    let numbers = analysis.spec().numbers.map(|n| n as usize);
    analysis.dispatch(Of(analysis.as_str(), analysis.immediates(), numbers))
}

/// `analyze` with an analysis whose engine is the typing environment (`typing-env`).
fn analyze_typing<A: Analysis>(args: &AnalyzeArgs, analysis: A) -> ExitCode {
    let declared = typing_declared(analysis);
    let state = format!(
        "a typing environment at each point, each function in SSA form, up to {} immediates in a set",
        analysis.immediates()
    );
    analyze_own(args, analysis, (state, CALLEES_FIRST), |input, format| {
        crate::typing::run(input, format, &declared)
    })
}

/// `verify` with an analysis whose engine is the typing environment: every value checked
/// against the environment at its point.
fn verify_typing<A: Analysis>(args: &VerifyArgs, analysis: A) -> ExitCode {
    let declared = typing_declared(analysis);
    verify_own(args, |input| {
        let check = crate::typing::verify(input, &declared, args.runs, args.seed, args.max_steps);
        let checked = format!("{} runs and {} values", check.runs, check.values);
        (check.violations, checked)
    })
}

/// `analyze` with an analysis whose engine is the escape and alias analysis (`escape`).
fn analyze_escape<A: Analysis>(args: &AnalyzeArgs, analysis: A) -> ExitCode {
    struct Run<'a>(&'a Input, Format, &'static str, usize);
    impl crate::analyses::ForDomain for Run<'_> {
        type Output = Report;
        fn run<D: absinthe::value::ValueDomain>(self) -> Report {
            crate::escape::run::<D>(self.0, self.1, self.2, self.3)
        }
    }
    let state = format!(
        "up to {} heaps, each with values, at each block entry",
        analysis.heaps()
    );
    analyze_own(args, analysis, (state, CALLEES_FIRST), |input, format| {
        analysis.dispatch(Run(input, format, analysis.as_str(), analysis.heaps()))
    })
}

/// `verify` with an analysis whose engine is the escape and alias analysis: points-to sets,
/// forwarded loads, values and escapes checked in every frame of every run.
fn verify_escape<A: Analysis>(args: &VerifyArgs, analysis: A) -> ExitCode {
    struct Check<'a>(&'a Input, &'a VerifyArgs, usize);
    impl crate::analyses::ForDomain for Check<'_> {
        type Output = absinthe_ir::escape_check::EscapeCheck;
        fn run<D: absinthe::value::ValueDomain>(self) -> Self::Output {
            let args = self.1;
            crate::escape::verify::<D>(self.0, self.2, args.runs, args.seed, args.max_steps)
        }
    }
    verify_own(args, |input| {
        let check = analysis.dispatch(Check(input, args, analysis.heaps()));
        let checked = format!(
            "{} runs, {} points and {} forwarded loads",
            check.runs, check.points, check.loads
        );
        (check.violations, checked)
    })
}

/// `analyze` with an analysis whose engine is the shape analysis (`shape`); `--format dot`
/// draws the graphs at every block's entry and every return.
fn analyze_shape<A: Analysis>(args: &AnalyzeArgs, analysis: A) -> ExitCode {
    struct Run<'a>(&'a Input, Option<Format>, &'static str);
    impl crate::analyses::ForDomain for Run<'_> {
        type Output = Report;
        fn run<D: absinthe::value::ValueDomain>(self) -> Report {
            match self.1 {
                Some(format) => crate::shape::run::<D>(self.0, format, self.2),
                None => crate::shape::dot::<D>(self.0),
            }
        }
    }
    let dot = matches!(args.format, FormatArg::Dot);
    let state = format!(
        "up to {} shape graphs, each with values, at each block entry",
        absinthe_heap::shape::MAX_GRAPHS
    );
    analyze_own(args, analysis, (state, CALLEES_FIRST), |input, format| {
        analysis.dispatch(Run(input, (!dot).then_some(format), analysis.as_str()))
    })
}

/// `verify` with an analysis whose engine is the shape analysis: names, reachable objects,
/// field edges, generations and values checked in every frame of every run.
fn verify_shape<A: Analysis>(args: &VerifyArgs, analysis: A) -> ExitCode {
    struct Check<'a>(&'a Input, &'a VerifyArgs);
    impl crate::analyses::ForDomain for Check<'_> {
        type Output = absinthe_ir::shape_check::ShapeCheck;
        fn run<D: absinthe::value::ValueDomain>(self) -> Self::Output {
            let args = self.1;
            crate::shape::verify::<D>(self.0, args.runs, args.seed, args.max_steps)
        }
    }
    verify_own(args, |input| {
        let check = analysis.dispatch(Check(input, args));
        let checked = format!(
            "{} runs, {} points, {} objects and {} field edges",
            check.runs, check.points, check.objects, check.edges
        );
        (check.violations, checked)
    })
}
