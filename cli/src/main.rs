//! The `absinthe` command: parses arguments, calls the library and prints. The only place that
//! writes to the terminal.

use absinthe::engine::Limits;
use absinthe_cli::analyses::AnalysisName;
use absinthe_cli::driver::{self, Format, Input, Strategy};
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
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
}

#[derive(Debug, clap::Args)]
struct AnalyzeArgs {
    /// A toy program (`.toy`) or a core-IR module (any other extension). Without it, the
    /// built-in sample `prog0` is analyzed.
    file: Option<PathBuf>,
    /// The analysis to run.
    #[arg(long, short, default_value = "const", value_parser = parse_analysis)]
    analysis: AnalysisName,
    /// The output format.
    #[arg(long, default_value = "text")]
    format: FormatArg,
    /// The fixpoint strategy (`graph-free` only applies to toy programs).
    #[arg(long, default_value = "worklist")]
    strategy: StrategyArg,
    /// Stop after this many block visits (or instruction evaluations).
    #[arg(long, default_value_t = Limits::default().max_visits)]
    max_visits: u64,
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

fn parse_analysis(name: &str) -> Result<AnalysisName, String> {
    AnalysisName::parse(name).ok_or_else(|| {
        let known: Vec<String> = AnalysisName::ALL
            .iter()
            .map(|a| format!("  {:<10}{}", a.as_str(), a.description()))
            .collect();
        format!(
            "unknown analysis `{name}`; known analyses:\n{}",
            known.join("\n")
        )
    })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Analyze(args) => analyze(args),
    }
}

fn analyze(args: AnalyzeArgs) -> ExitCode {
    let input = match &args.file {
        None => Input::builtin_prog0(),
        Some(path) => match Input::load(path) {
            Ok(input) => input,
            Err(message) => {
                eprint!("{message}");
                return ExitCode::FAILURE;
            }
        },
    };
    let limits = Limits {
        max_visits: args.max_visits,
        ..Limits::default()
    };
    let format = match args.format {
        FormatArg::Text => Format::Text,
        FormatArg::Json => Format::Json,
    };
    let strategy = match args.strategy {
        StrategyArg::Worklist => Strategy::Worklist,
        StrategyArg::GraphFree => Strategy::GraphFree,
    };
    match driver::run(&input, args.analysis, strategy, &limits, format) {
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
