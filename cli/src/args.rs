//! The arguments of `analyze`, `verify` and `trace`, as clap parses them, and what they map to.

use crate::driver::Format;
use absinthe::engine::Limits;
use absinthe::spec::{ContextPolicy, StateRepr};
use clap::ValueEnum;
use std::num::NonZeroUsize;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// A toy program or a core-IR module; without it (and without `--random`), `prog0`.
    pub file: Option<PathBuf>,
    /// The analysis to check (one of those listed below) [default: `interval`, or the first
    /// analysis of the `.dom` file].
    #[arg(long, short)]
    pub analysis: Option<String>,
    /// Concrete runs per function, on random arguments.
    #[arg(long, default_value_t = 100)]
    pub runs: usize,
    /// Seed of the random arguments (and of the random programs).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Check this many generated programs instead of FILE.
    #[arg(long)]
    pub random: Option<u64>,
    /// Steps each concrete run may take.
    #[arg(long, default_value_t = 10_000)]
    pub max_steps: u64,
    /// How the analysis keeps its states, over the declared one (the verdict is the same).
    #[arg(long)]
    pub state: Option<StateArg>,
    /// For core-IR modules with calls: how the interprocedural analysis tells calls apart, or
    /// `intra` to check each function alone (as `analyze --context`). Interprocedural checks
    /// run the entry function and check every frame.
    #[arg(long, value_parser = parse_context)]
    pub context: Option<ContextArg>,
    /// The function the concrete runs start from (default `main`).
    #[arg(long, default_value = "auto")]
    pub entry: String,
}

#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// A toy program (`.toy`), an LLVM module (`.ll` or `.bc`, with the `llvm` feature) or a
    /// core-IR module (any other extension). Without it, the built-in sample `prog0` is analyzed.
    pub file: Option<PathBuf>,
    /// The analysis to run (one of those listed below) [default: `const`, or the first analysis
    /// of the `.dom` file].
    #[arg(long, short)]
    pub analysis: Option<String>,
    /// The output format.
    #[arg(long, default_value = "text")]
    pub format: FormatArg,
    /// The fixpoint strategy (`graph-free` only applies to toy programs).
    #[arg(long, default_value = "worklist")]
    pub strategy: StrategyArg,
    /// How the worklist strategy keeps its states: an environment per block (`dense`), values
    /// at definitions only (`sparse`), and re-evaluating only what a change reaches
    /// (`sparse-temporal`), all with the same output; or, for programs in SSA form, one value
    /// per name along def-use chains (`ssa`: sound, fastest, not step-for-step the same).
    /// Default: `dense`, and for LLVM modules chosen per function by its size.
    #[arg(long)]
    pub state: Option<StateArg>,
    /// Stop after this many block visits (or instruction evaluations).
    #[arg(long, default_value_t = Limits::default().max_visits)]
    pub max_visits: u64,
    /// For core-IR modules: how calls are told apart across functions. `insensitive` (0-CFA,
    /// one summary per function), `kcfa=K` (the last K call sites), `functional` or
    /// `functional=N` (one summary per abstract input, at most N per function), or `intra` to
    /// analyze each function alone with unknown arguments. Default: `insensitive` for modules
    /// with calls, `intra` otherwise or when `--state` is given.
    #[arg(long, value_parser = parse_context)]
    pub context: Option<ContextArg>,
    /// For interprocedural analysis: the function to start from (its parameters any integer),
    /// or `all` to analyze every function with unknown arguments. Default: `main` if the
    /// module has one, else `all`.
    #[arg(long, default_value = "auto")]
    pub entry: String,
    /// For kernel terms (`.kt`): trace the analysis over the behavior graph
    /// (`behavior-graph`), or closure-convert the program to the core IR and run it across
    /// functions (`flow`, with `--context`). Default: the engine the analysis's declaration
    /// names (`types`, `cfa`, `biv`, `useless` and `strict` the behavior graph, the others
    /// flow).
    #[arg(long)]
    pub engine: Option<EngineArg>,
    /// For LLVM modules: analyze functions on this many threads (default: one per core, or one
    /// for a small module). The results are the same for any number.
    #[arg(long, value_name = "N")]
    pub threads: Option<NonZeroUsize>,
    /// For textual LLVM modules: parse and lower the module in this many pieces, in parallel
    /// on the threads (default: four per thread for modules of 1 MiB or more, else whole). The
    /// results are the same for any number.
    #[arg(long, value_name = "N")]
    pub pieces: Option<NonZeroUsize>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum EngineArg {
    BehaviorGraph,
    Flow,
}

#[derive(Clone, Copy, Debug)]
pub enum ContextArg {
    Intra,
    Inter(ContextPolicy),
}

pub fn parse_context(text: &str) -> Result<ContextArg, String> {
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
pub enum FormatArg {
    Text,
    Json,
    /// Graphviz: the shape graphs of an analysis whose engine is `shape`.
    Dot,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum StrategyArg {
    Worklist,
    GraphFree,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum StateArg {
    Dense,
    Sparse,
    SparseTemporal,
    Ssa,
}

impl StateArg {
    pub fn repr(self) -> StateRepr {
        match self {
            StateArg::Dense => StateRepr::Dense,
            StateArg::Sparse => StateRepr::Sparse,
            StateArg::SparseTemporal => StateRepr::SparseTemporal,
            StateArg::Ssa => StateRepr::Ssa,
        }
    }
}

/// The renderer's format for `--format` (Graphviz is the shape analysis's, drawn before this).
pub(crate) fn format_of(args: &AnalyzeArgs) -> Format {
    match args.format {
        FormatArg::Text => Format::Text,
        FormatArg::Json => Format::Json,
        // Only the shape analysis draws graphs; the others refuse it before getting here.
        FormatArg::Dot => Format::Text,
    }
}

/// The arguments of `absinthe trace`.
#[derive(Debug, clap::Args)]
pub struct TraceArgs {
    /// A toy program or a core-IR module; without it, `prog0`.
    pub file: Option<PathBuf>,
    /// The analysis (default `interval`, or the first analysis of the `.dom` file).
    #[arg(long, short)]
    pub analysis: Option<String>,
    /// The function to trace (default `main`, else the first).
    #[arg(long)]
    pub function: Option<String>,
    /// `json-trace`: every event of the engine, in order; `dot`: the final control-flow graph
    /// with the state at each block's entry and exit; `html`: the viewer, a self-contained page
    /// that replays the run and explains every value.
    #[arg(long, default_value = "json-trace")]
    pub format: TraceFormatArg,
    /// Write the viewer page to this file (the same as `--format html` into a file).
    #[arg(long, value_name = "OUT.html", conflicts_with = "format")]
    pub html: Option<PathBuf>,
    /// For the viewer: concrete runs `verify` makes of the function; the first run the analysis
    /// misses is drawn on the graph. 0 runs none.
    #[arg(long, default_value_t = 100)]
    pub verify_runs: usize,
    /// Block visits allowed before the engine stops.
    #[arg(long, default_value_t = Limits::default().max_visits)]
    pub max_visits: u64,
}

/// `--format` of `trace`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum TraceFormatArg {
    /// The event stream as JSON.
    JsonTrace,
    /// Graphviz.
    Dot,
    /// The viewer page.
    Html,
}
