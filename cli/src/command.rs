//! The `absinthe` command line: parses the arguments, runs the command with the built-in
//! analyses and prints. `main.rs` only calls [`main`].
//!
//! It lives in the library, not in the binary, so that the whole tree of analyses the commands
//! reach (every value domain, engine and renderer, instantiated for the built-in catalog
//! [`AnalysisName`]) is compiled once, here: with optimizations on, generic code is instantiated
//! again in each crate that names its type arguments, and a `main` in the binary compiled it all
//! a second time.

use crate::analyses::AnalysisName;
use crate::app::{self, AnalyzeArgs, TraceArgs, VerifyArgs};
use crate::{compiled, dom};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
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
    Analyze {
        #[command(flatten)]
        args: AnalyzeArgs,
        #[command(flatten)]
        dom: DomSource,
    },
    /// Check an analysis against concrete runs: every value a run computes must lie in what the
    /// analysis inferred. Reports the first disagreement of each run and the rule behind it.
    Verify {
        #[command(flatten)]
        args: VerifyArgs,
        #[command(flatten)]
        dom: DomSource,
    },
    /// Trace an analysis on one function: every event of the engine in order, as JSON
    /// (`--format json-trace`), or the final control-flow graph with its states as graphviz
    /// (`--format dot`).
    Trace {
        #[command(flatten)]
        args: TraceArgs,
        /// Trace an analysis of this `.dom` file (interpreted) instead of a built-in one.
        #[arg(long, value_name = "FILE.dom")]
        dom: Option<PathBuf>,
    },
    /// Rewrite a core-IR module with the facts of an analysis: constants folded, branches with
    /// one feasible target made jumps, dead assignments and unreachable blocks removed,
    /// allocations that never escape put on the stack (`new stack`). Prints the rewritten module
    /// after checking it against the original on concrete runs.
    Optimize {
        #[command(flatten)]
        args: crate::optimize::OptimizeArgs,
    },
    /// Check a `.dom` file, format it, or build it into a standalone crate.
    #[command(subcommand)]
    Dom(DomCommand),
    /// Serve an editor over standard input and output: a language server for `.dom` files
    /// (diagnostics, hover, go to definition, references, completion, symbols, semantic tokens,
    /// formatting). The book's "Editors" chapter shows each editor's setup.
    Lsp,
}

/// Where `analyze` and `verify` take their analyses from: the built-in ones, or a `.dom` file's.
#[derive(Debug, clap::Args)]
struct DomSource {
    /// Use the analyses of this `.dom` file instead of the built-in ones (interpreted at once,
    /// unless `--compiled`; `--analysis` names one of the file's analyses).
    #[arg(long, value_name = "FILE.dom")]
    dom: Option<PathBuf>,
    /// With `--dom`: compile the file's analyses (once, into a cache) and run the compiled code
    /// instead of interpreting them.
    #[arg(long, requires = "dom")]
    compiled: bool,
    /// With `--dom --compiled`: a checkout of absinthe for the compiled analyses to depend on
    /// [default: $ABSINTHE_PATH, else the checkout this executable sits in].
    #[arg(long, value_name = "DIR", requires = "compiled")]
    absinthe_path: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum DomCommand {
    /// Compile a `.dom` file (and its imports) and report every error, or a summary.
    Check {
        /// The `.dom` file.
        file: PathBuf,
    },
    /// Format `.dom` files in place: indentation by depth and continuation, no trailing white
    /// space, single blank lines; no token is changed, comments are kept.
    Fmt {
        /// The `.dom` files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Change nothing: list the files that are not formatted, and fail if there are any.
        #[arg(long)]
        check: bool,
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

/// The `absinthe` command: parses `std::env::args`, runs the command and gives its exit code.
pub fn main() -> ExitCode {
    let command = app::list_analyses::<AnalysisName>(Cli::command())
        .mut_subcommand("optimize", |c| {
            c.after_help(app::catalog_text::<AnalysisName>())
        });
    let cli = match Cli::from_arg_matches(&command.get_matches()) {
        Ok(cli) => cli,
        Err(error) => error.exit(),
    };
    match cli.command {
        Command::Analyze {
            dom:
                DomSource {
                    dom: Some(file),
                    compiled: true,
                    absinthe_path,
                },
            ..
        }
        | Command::Verify {
            dom:
                DomSource {
                    dom: Some(file),
                    compiled: true,
                    absinthe_path,
                },
            ..
        } => hosted(&file, absinthe_path.as_deref()),
        Command::Analyze {
            dom: DomSource {
                dom: Some(file), ..
            },
            args,
        } => app::interpret(&file, app::DomCommand::Analyze(&args)),
        Command::Verify {
            dom: DomSource {
                dom: Some(file), ..
            },
            args,
        } => app::interpret(&file, app::DomCommand::Verify(&args)),
        Command::Trace {
            dom: Some(file),
            args,
        } => app::interpret(&file, app::DomCommand::Trace(&args)),
        Command::Trace { args, dom: None } => app::trace(&args, AnalysisName::Interval),
        Command::Analyze { args, .. } => app::analyze(&args, AnalysisName::Const),
        Command::Verify { args, .. } => app::verify(&args, AnalysisName::Interval),
        Command::Optimize { args } => crate::optimize::run::<AnalysisName>(&args),
        Command::Dom(DomCommand::Check { file }) => dom_check(&file),
        Command::Dom(DomCommand::Fmt { files, check }) => dom_fmt(&files, check),
        Command::Lsp => match absinthe_lsp::serve_stdio() {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("absinthe lsp: {error}");
                ExitCode::FAILURE
            }
        },
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

fn dom_fmt(files: &[PathBuf], check: bool) -> ExitCode {
    let mut code = ExitCode::SUCCESS;
    for file in files {
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(error) => {
                eprintln!("error: cannot read `{}`: {error}", file.display());
                code = ExitCode::FAILURE;
                continue;
            }
        };
        let formatted = absinthe_domc::dom::ide::format::format(&text);
        if formatted == text {
            continue;
        }
        if check {
            println!("{}: not formatted", file.display());
            code = ExitCode::FAILURE;
        } else if let Err(error) = std::fs::write(file, formatted) {
            eprintln!("error: cannot write `{}`: {error}", file.display());
            code = ExitCode::FAILURE;
        } else {
            println!("formatted {}", file.display());
        }
    }
    code
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
                "run it with: cargo run --features cli --manifest-path {} -- analyze PROGRAM",
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

/// `analyze --dom FILE --compiled` and `verify --dom FILE --compiled`: builds (or finds in the
/// cache) the binary of the file's analyses and runs it with the same arguments, less `--dom`,
/// `--compiled` and `--absinthe-path`.
fn hosted(file: &Path, absinthe: Option<&Path>) -> ExitCode {
    let forwarded = compiled::forwarded_args(std::env::args_os().skip(1));
    match compiled::run(file, absinthe, &forwarded) {
        Ok(code) => code,
        Err(error) => {
            eprint!("{error}");
            ExitCode::FAILURE
        }
    }
}
