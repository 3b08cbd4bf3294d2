//! The `absinthe` command: parses arguments, calls the library and prints. The only place that
//! writes to the terminal.

use absinthe::engine::Limits;
use absinthe::interproc::ContextPolicy;
use absinthe::value::StateRepr;
use absinthe_cli::analyses::AnalysisName;
use absinthe_cli::dom;
use absinthe_cli::driver::{self, Format, Input, Strategy};
use absinthe_cli::verify::{self, VerifyConfig};
use absinthe_cli::{interproc, kernel};
use clap::{Parser, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// absinthe: declarative abstract interpreters.
#[derive(Debug, Parser)]
#[command(name = "absinthe", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Analyze a program and print it annotated with the inferred facts.
    Analyze(AnalyzeArgs),
    /// Check an analysis against concrete runs: every value a run computes must lie in what the
    /// analysis inferred. Reports the first disagreement of each run and the rule behind it.
    Verify(VerifyArgs),
    /// Check a `.dom` file, or build it into a standalone crate.
    #[command(subcommand)]
    Dom(DomCommand),
}

#[derive(Debug, Subcommand)]
enum DomCommand {
    /// Compile a `.dom` file (and its imports) and report every error, or a summary.
    Check {
        /// The `.dom` file.
        file: PathBuf,
    },
    /// Write a standalone crate for a `.dom` file: the generated module as a library, with
    /// tests of the lattice laws and of every analysis on sample programs.
    Build {
        /// The `.dom` file.
        file: PathBuf,
        /// The directory of the crate (created if needed).
        #[arg(long)]
        out: PathBuf,
        /// A checkout of absinthe for the crate to depend on [default: $ABSINTHE_PATH, else the
        /// checkout this executable sits in].
        #[arg(long, value_name = "DIR")]
        absinthe_path: Option<PathBuf>,
    },
}

#[derive(Debug, clap::Args)]
struct VerifyArgs {
    /// A toy program or a core-IR module; without it (and without `--random`), `prog0`.
    file: Option<PathBuf>,
    /// The analysis to check.
    #[arg(long, short, default_value = "interval", value_parser = AnalysisParser)]
    analysis: AnalysisName,
    /// Concrete runs per function, on random arguments.
    #[arg(long, default_value_t = 100)]
    runs: usize,
    /// Seed of the random arguments (and of the random programs).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Check this many generated programs instead of FILE.
    #[arg(long)]
    random: Option<u64>,
    /// Steps each concrete run may take.
    #[arg(long, default_value_t = 10_000)]
    max_steps: u64,
    /// How the analysis keeps its states (the verdict is the same).
    #[arg(long, default_value = "dense")]
    state: StateArg,
    /// For core-IR modules with calls: how the interprocedural analysis tells calls apart, or
    /// `intra` to check each function alone (as `analyze --context`). Interprocedural checks
    /// run the entry function and check every frame.
    #[arg(long, value_parser = parse_context)]
    context: Option<ContextArg>,
    /// The function the concrete runs start from (default `main`).
    #[arg(long, default_value = "auto")]
    entry: String,
}

#[derive(Debug, clap::Args)]
struct AnalyzeArgs {
    /// A toy program (`.toy`), an LLVM module (`.ll` or `.bc`, with the `llvm` feature) or a
    /// core-IR module (any other extension). Without it, the built-in sample `prog0` is analyzed.
    file: Option<PathBuf>,
    /// The analysis to run.
    #[arg(long, short, default_value = "const", value_parser = AnalysisParser)]
    analysis: AnalysisName,
    /// The output format.
    #[arg(long, default_value = "text")]
    format: FormatArg,
    /// The fixpoint strategy (`graph-free` only applies to toy programs).
    #[arg(long, default_value = "worklist")]
    strategy: StrategyArg,
    /// How the worklist strategy keeps its states: an environment per block (`dense`), values
    /// at definitions only (`sparse`), and re-evaluating only what a change reaches
    /// (`sparse-temporal`), all with the same output; or, for programs in SSA form, one value
    /// per name along def-use chains (`ssa`: sound, fastest, not step-for-step the same).
    /// Default: `dense`, and for LLVM modules chosen per function by its size.
    #[arg(long)]
    state: Option<StateArg>,
    /// Stop after this many block visits (or instruction evaluations).
    #[arg(long, default_value_t = Limits::default().max_visits)]
    max_visits: u64,
    /// For core-IR modules: how calls are told apart across functions. `insensitive` (0-CFA,
    /// one summary per function), `kcfa=K` (the last K call sites), `functional` or
    /// `functional=N` (one summary per abstract input, at most N per function), or `intra` to
    /// analyze each function alone with unknown arguments. Default: `insensitive` for modules
    /// with calls, `intra` otherwise or when `--state` is given.
    #[arg(long, value_parser = parse_context)]
    context: Option<ContextArg>,
    /// For interprocedural analysis: the function to start from (its parameters any integer),
    /// or `all` to analyze every function with unknown arguments. Default: `main` if the
    /// module has one, else `all`.
    #[arg(long, default_value = "auto")]
    entry: String,
    /// For kernel terms (`.kt`): trace the analysis over the behavior graph
    /// (`behavior-graph`), or closure-convert the program to the core IR and run it across
    /// functions (`flow`, with `--context`). Default: the engine the analysis's declaration
    /// names (`types`, `cfa`, `biv`, `useless` and `strict` the behavior graph, the others
    /// flow).
    #[arg(long)]
    engine: Option<EngineArg>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum EngineArg {
    BehaviorGraph,
    Flow,
}

#[derive(Clone, Copy, Debug)]
enum ContextArg {
    Intra,
    Inter(ContextPolicy),
}

fn parse_context(text: &str) -> Result<ContextArg, String> {
    if text == "intra" {
        return Ok(ContextArg::Intra);
    }
    ContextPolicy::parse(text)
        .map(ContextArg::Inter)
        .ok_or_else(|| {
            format!(
                "unknown context policy `{text}`; use insensitive, kcfa=K, functional, \
             functional=N or intra"
            )
        })
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum FormatArg {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum StrategyArg {
    Worklist,
    GraphFree,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum StateArg {
    Dense,
    Sparse,
    SparseTemporal,
    Ssa,
}

impl StateArg {
    fn repr(self) -> StateRepr {
        match self {
            StateArg::Dense => StateRepr::Dense,
            StateArg::Sparse => StateRepr::Sparse,
            StateArg::SparseTemporal => StateRepr::SparseTemporal,
            StateArg::Ssa => StateRepr::Ssa,
        }
    }
}

/// `--analysis`: one of [`AnalysisName::ALL`]. Its possible values (each with its description)
/// are what `--help` lists; an unknown name is answered with the same list.
#[derive(Clone, Copy, Debug)]
struct AnalysisParser;

impl clap::builder::TypedValueParser for AnalysisParser {
    type Value = AnalysisName;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<AnalysisName, clap::Error> {
        let name = value.to_string_lossy();
        AnalysisName::parse(&name).ok_or_else(|| {
            let message = format!("{}\n", unknown_analysis(&name));
            clap::Error::raw(clap::error::ErrorKind::InvalidValue, message).with_cmd(cmd)
        })
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(AnalysisName::ALL.into_iter().map(|a| {
            clap::builder::PossibleValue::new(a.as_str()).help(a.description())
        })))
    }
}

/// The message for an unknown analysis: the name, then every analysis, one a line, its
/// description in a column after the longest name.
fn unknown_analysis(name: &str) -> String {
    let width = AnalysisName::ALL
        .iter()
        .map(|a| a.as_str().len())
        .max()
        .unwrap_or(0);
    let known: Vec<String> = AnalysisName::ALL
        .iter()
        .map(|a| format!("  {:<width$}  {}", a.as_str(), a.description()))
        .collect();
    format!(
        "unknown analysis `{name}`; known analyses:\n{}",
        known.join("\n")
    )
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Analyze(args) => analyze(args),
        Command::Verify(args) => verify(args),
        Command::Dom(DomCommand::Check { file }) => dom_check(&file),
        Command::Dom(DomCommand::Build {
            file,
            out,
            absinthe_path,
        }) => dom_build(&file, &out, absinthe_path.as_deref()),
    }
}

fn dom_check(file: &Path) -> ExitCode {
    match dom::check(file) {
        Ok(compiled) => {
            println!("{}", dom::summary(file, &compiled));
            ExitCode::SUCCESS
        }
        Err(failure) => {
            eprint!("{failure}");
            ExitCode::FAILURE
        }
    }
}

fn dom_build(file: &Path, out: &Path, absinthe: Option<&Path>) -> ExitCode {
    match dom::build_with(file, out, absinthe) {
        Ok(written) => {
            for path in written {
                println!("wrote {}", path.display());
            }
            let manifest = out.join("Cargo.toml");
            println!(
                "test it with: cargo test --manifest-path {}",
                manifest.display()
            );
            println!(
                "run it with: cargo run --manifest-path {} -- PROGRAM",
                manifest.display()
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprint!("{error}");
            ExitCode::FAILURE
        }
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

fn verify(args: VerifyArgs) -> ExitCode {
    if let Some(path) = args.file.as_ref().filter(|p| kernel::is_kernel_file(p)) {
        return verify_kernel(path, &args);
    }
    let input = match load(args.file.as_ref()) {
        Ok(input) => input,
        Err(code) => return code,
    };
    let config = VerifyConfig {
        runs: args.runs,
        seed: args.seed,
        max_steps: args.max_steps,
        state: args.state.repr(),
    };
    let interprocedural = match (&input, args.context, args.random) {
        (Input::Air { module, .. }, context, None) => {
            let policy = context_policy(module, context, true);
            match (policy, interproc::Entry::parse(&args.entry).resolve(module)) {
                (Some(policy), Ok(Some(entry))) => Some(Ok((module, policy, entry))),
                (Some(_), Err(message)) => Some(Err(message)),
                _ => None,
            }
        }
        _ => None,
    };
    let report = match interprocedural {
        Some(Ok((module, policy, entry))) => interproc::verify(
            module,
            args.analysis,
            policy,
            entry,
            &Limits::default(),
            &config,
        ),
        Some(Err(message)) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
        None => verify::run(
            &input,
            args.analysis,
            &Limits::default(),
            &config,
            args.random,
        ),
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

fn analyze(args: AnalyzeArgs) -> ExitCode {
    if let Some(path) = args.file.as_ref().filter(|p| absinthe_cli::is_llvm_file(p)) {
        return analyze_llvm(path, &args);
    }
    if let Some(path) = args.file.as_ref().filter(|p| kernel::is_kernel_file(p)) {
        return analyze_kernel(path, &args);
    }
    if args.analysis.kernel_only() {
        eprintln!(
            "error: `{}` runs on kernel terms (`.kt` files) only",
            args.analysis
        );
        return ExitCode::FAILURE;
    }
    let input = match load(args.file.as_ref()) {
        Ok(input) => input,
        Err(code) => return code,
    };
    let limits = limits_of(&args);
    let format = format_of(&args);
    let strategy = match args.strategy {
        StrategyArg::Worklist => Strategy::Worklist,
        StrategyArg::GraphFree => Strategy::GraphFree,
    };
    let intra = || {
        driver::run(
            &input,
            args.analysis,
            strategy,
            args.state.map_or(StateRepr::Dense, StateArg::repr),
            &limits,
            format,
        )
    };
    let result = match (&input, args.context) {
        (Input::Air { module, .. }, context) => {
            // `--state` picks an intraprocedural engine's representation.
            match context_policy(module, context, args.state.is_none()) {
                Some(_) if args.state.is_some_and(|s| !matches!(s, StateArg::Dense)) => Err(
                    "interprocedural analysis keeps dense states; use `--context intra` for \
                     `--state`"
                        .to_owned(),
                ),
                Some(policy) => interproc::run(
                    module,
                    args.analysis,
                    policy,
                    &interproc::Entry::parse(&args.entry),
                    &limits,
                    format,
                ),
                None => intra(),
            }
        }
        (_, Some(ContextArg::Inter(_))) => {
            Err("`--context` applies to core-IR modules; toy programs have no calls".to_owned())
        }
        _ => intra(),
    };
    match result {
        Ok(report) => {
            print!("{}", report.output);
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

/// The context policy `--context` asks for, or by default (when `by_default` allows one)
/// context-insensitive for modules with calls; `None` to analyze each function alone.
fn context_policy(
    module: &absinthe_ir::Module,
    context: Option<ContextArg>,
    by_default: bool,
) -> Option<ContextPolicy> {
    match context {
        Some(ContextArg::Inter(policy)) => Some(policy),
        Some(ContextArg::Intra) => None,
        None if by_default && interproc::has_calls(module) => Some(ContextPolicy::Insensitive),
        None => None,
    }
}

fn verify_kernel(path: &Path, args: &VerifyArgs) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{}:1:1: error: cannot read the file: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };
    match kernel::verify(
        &path.display().to_string(),
        &text,
        args.analysis,
        args.runs,
        args.seed,
    ) {
        Ok(check) => {
            for miss in &check.misses {
                println!("violation: {miss}");
            }
            println!(
                "{} runs and {} values checked: {} violation{}",
                check.runs,
                check.values,
                check.misses.len(),
                if check.misses.len() == 1 { "" } else { "s" }
            );
            if check.misses.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(message) => {
            eprint!("{message}");
            ExitCode::FAILURE
        }
    }
}

fn analyze_kernel(path: &Path, args: &AnalyzeArgs) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{}:1:1: error: cannot read the file: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let engine = args.engine.unwrap_or(match args.analysis.engine() {
        absinthe::behavior::Engine::BehaviorGraph => EngineArg::BehaviorGraph,
        absinthe::behavior::Engine::Flow => EngineArg::Flow,
    });
    let engine = match engine {
        EngineArg::BehaviorGraph => kernel::KernelEngine::BehaviorGraph,
        EngineArg::Flow => kernel::KernelEngine::Flow(match args.context {
            Some(ContextArg::Inter(policy)) => policy,
            _ => ContextPolicy::Insensitive,
        }),
    };
    match kernel::run(
        &path.display().to_string(),
        &text,
        args.analysis,
        engine,
        format_of(args),
    ) {
        Ok(report) => {
            print!("{}", report.output);
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprint!("{message}");
            ExitCode::FAILURE
        }
    }
}

fn limits_of(args: &AnalyzeArgs) -> Limits {
    Limits {
        max_visits: args.max_visits,
        ..Limits::default()
    }
}

fn format_of(args: &AnalyzeArgs) -> Format {
    match args.format {
        FormatArg::Text => Format::Text,
        FormatArg::Json => Format::Json,
    }
}

#[cfg(feature = "llvm")]
fn analyze_llvm(path: &Path, args: &AnalyzeArgs) -> ExitCode {
    let limits = limits_of(args);
    let states = args
        .state
        .map_or(absinthe_llvm::analyze::States::Auto, |s| {
            absinthe_llvm::analyze::States::Fixed(s.repr())
        });
    match absinthe_cli::llvm::run(path, args.analysis, states, &limits, format_of(args)) {
        Ok(report) => {
            print!("{}", report.output);
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

#[cfg(not(feature = "llvm"))]
fn analyze_llvm(path: &Path, args: &AnalyzeArgs) -> ExitCode {
    let _ = (limits_of(args), format_of(args));
    eprintln!(
        "{}: error: this absinthe was built without the LLVM front end; install LLVM 15 with \
         scripts/install-llvm.sh and build with `cargo build --release -p absinthe-cli --features llvm`",
        path.display()
    );
    ExitCode::FAILURE
}
