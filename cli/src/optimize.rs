//! `absinthe optimize`: facts from a value analysis and the escape analysis, handed as plain
//! data to the core IR's optimizer ([`absinthe_ir::optimize`]), the rewritten module printed in
//! the `.air` format and checked against the original on concrete runs.
//!
//! Each function is analyzed alone (its parameters and the results of calls unknown), with the
//! value domain of the analysis `--analysis` names; the escape analysis runs over the module
//! callees first, with the same domain, and every allocation it proves never escapes goes on
//! the stack.

use crate::analyses::{Analysis, ForDomain, parse_in};
use crate::driver::{FunctionAnalysis, Input, analyze_function_with};
use absinthe::engine::Limits;
use absinthe::lattice::Lattice;
use absinthe::program::{BlockId, Cond, NameId, Operand, Program, Terminator};
use absinthe::spec::Engine;
use absinthe::value::{NonRelational, StateRepr, Truth, ValueDomain};
use absinthe_ir::function::{Function, Module};
use absinthe_ir::interp::{self, NoObserver};
use absinthe_ir::optimize::{Counts, FunctionFacts, Verdict, compare_runs, optimize_module};
use std::path::PathBuf;
use std::process::ExitCode;

/// How many heaps the escape analysis keeps apart at a point (the built-in `escape`'s number).
pub const ESCAPE_HEAPS: usize = 8;

/// The arguments of `optimize`.
#[derive(Debug, clap::Args)]
pub struct OptimizeArgs {
    /// A core-IR module, or a toy program (`.toy`, optimized as the function it lowers to).
    pub file: PathBuf,
    /// The value analysis whose facts drive the rewriting (one of those listed below whose
    /// engine is the flow engine).
    #[arg(long, short, default_value = "sccp")]
    pub analysis: String,
    /// Concrete runs per function, on random arguments from -10 to 10, checking that the
    /// rewritten module ends each run as the original does (0: no check).
    #[arg(long, default_value_t = 100)]
    pub runs: usize,
    /// Seed of the random arguments.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Steps each concrete run may take.
    #[arg(long, default_value_t = 10_000)]
    pub max_steps: u64,
    /// Stop the value analysis after this many block visits per function (a function whose
    /// analysis stops before its fixpoint gets no constants and no decided branches; the escape
    /// analysis keeps its own limits).
    #[arg(long, default_value_t = Limits::default().max_visits)]
    pub max_visits: u64,
}

/// A module rewritten, what changed, and what the user should know.
#[derive(Clone, Debug)]
pub struct Optimized {
    /// The rewritten module.
    pub module: Module,
    /// What changed, over all functions.
    pub counts: Counts,
    /// Functions whose analysis did not reach a fixpoint (optimized without its facts).
    pub warnings: Vec<String>,
}

/// The facts the value analysis `analysis` found for `function`: reachable blocks (entry not
/// bottom), feasible edges (the branch condition's value may be true, resp. false; a switch
/// case's value may be the switched value's), and constants before every point.
pub fn function_facts<D: ValueDomain>(
    function: &Function,
    analysis: &FunctionAnalysis<D>,
) -> FunctionFacts {
    let point = |b: BlockId, i: usize| analysis.points.get(b.index()).and_then(|p| p.get(i));
    let reachable = |b: BlockId| {
        analysis
            .solution
            .entry
            .get(b.index())
            .is_some_and(|s| !s.is_bottom())
    };
    let feasible = |b: BlockId, k: usize| {
        let end = function.stmts(b).len();
        let Some(env) = point(b, end) else {
            // Only a block the analysis never reached has no state at its end.
            assert!(
                !reachable(b),
                "reachable block {b:?} has no state at its end"
            );
            return false;
        };
        let value = |o| NonRelational::<D>::operand(env, o);
        match function.terminator(b) {
            Terminator::Goto(_) => true,
            Terminator::Branch { cond, .. } => {
                let truth = match *cond {
                    Cond::NonZero(a) => Truth::of(&value(a)),
                    Cond::Compare(op, a, c) => Truth::of(&D::binary(op, &value(a), &value(c))),
                };
                truth.allows(k == 0)
            }
            Terminator::Switch { on, cases, .. } => {
                let on = value(*on);
                match cases.get(k) {
                    // The first case with a value wins.
                    Some(&(c, _)) => {
                        on.contains(c) && !cases[..k].iter().any(|&(earlier, _)| earlier == c)
                    }
                    None => {
                        !on.is_bottom()
                            && on
                                .as_constant()
                                .is_none_or(|v| !cases.iter().any(|&(c, _)| c == v))
                    }
                }
            }
            Terminator::Return(_) | Terminator::Throw(_) | Terminator::Unreachable => {
                unreachable!(
                    "a block ending in {:?} has no successor",
                    function.terminator(b)
                )
            }
        }
    };
    let constant = |b: BlockId, i: usize, n: NameId| {
        point(b, i).and_then(|env| NonRelational::<D>::operand(env, Operand::Name(n)).as_constant())
    };
    FunctionFacts::gather(function, reachable, feasible, constant)
}

/// `module` optimized with the facts of value domain `D` (branch conditions evaluated when
/// `conditional`, widening with `thresholds`, each analysis within `limits`) and of the escape
/// analysis over `D`.
pub fn optimize<D: ValueDomain>(
    module: &Module,
    conditional: bool,
    thresholds: &'static [i64],
    limits: &Limits,
) -> Optimized {
    let mut warnings = Vec::new();
    let escape = absinthe_heap::escape::solve_module::<D, _>(module, ESCAPE_HEAPS);
    let facts: Vec<FunctionFacts> = module
        .functions
        .iter()
        .enumerate()
        .map(|(f, function)| {
            let analysis = analyze_function_with::<D>(
                function,
                conditional,
                thresholds,
                StateRepr::Dense,
                limits,
            );
            let mut facts = if analysis.solution.stop.is_stable() {
                function_facts(function, &analysis)
            } else {
                warnings.push(format!(
                    "the analysis of function `{}` stopped before its fixpoint: no constant \
                     folded and no branch decided there (raise --max-visits)",
                    function.name
                ));
                FunctionFacts::unknown(function)
            };
            if let Some(escapes) = escape.get(f).filter(|e| e.solution.stop.is_stable()) {
                facts.stack = escapes
                    .allocations
                    .iter()
                    .filter(|a| a.escape.is_none() && is_new(function, a.site.block, a.site.index))
                    .map(|a| (a.site.block, a.site.index))
                    .collect();
            }
            facts
        })
        .collect();
    let (module, counts) = optimize_module(module, &facts);
    Optimized {
        module,
        counts,
        warnings,
    }
}

/// [`optimize`] with the value domain, the conditions, the widening and the limits of
/// `analysis` (each analysis stopping after `max_visits` block visits).
pub fn optimize_with<A: Analysis>(module: &Module, analysis: A, max_visits: u64) -> Optimized {
    struct Run<'a>(&'a Module, bool, &'static [i64], Limits);
    impl ForDomain for Run<'_> {
        type Output = Optimized;
        fn run<D: ValueDomain>(self) -> Optimized {
            optimize::<D>(self.0, self.1, self.2, &self.3)
        }
    }
    analysis.dispatch(Run(
        module,
        analysis.conditional(),
        analysis.thresholds(),
        analysis.limits(max_visits),
    ))
}

/// Whether statement `index` of `block` is a `new` (the escape analysis's allocations include
/// blocks and closures, which stay on the heap).
fn is_new(function: &Function, block: BlockId, index: u32) -> bool {
    matches!(
        function.stmts(block).get(index as usize),
        Some(absinthe::program::Stmt::Assign {
            rhs: absinthe::program::Rhs::New,
            ..
        })
    )
}

/// What running the original and the optimized module side by side found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Check {
    /// Runs compared.
    pub runs: usize,
    /// Runs of the original that said nothing (out of steps, or a read of an unassigned name).
    pub skipped: usize,
    /// The runs that ended differently: the function, its arguments and how.
    pub differences: Vec<String>,
}

/// Runs every function of `original` and of `optimized` `runs` times on the same random
/// arguments (drawn from `seed`, as `verify` draws them) and compares how each pair ends.
pub fn check(
    original: &Module,
    optimized: &Module,
    runs: usize,
    seed: u64,
    max_steps: u64,
) -> Check {
    let limits = interp::Limits {
        max_steps,
        ..interp::Limits::default()
    };
    let mut check = Check::default();
    for (f, args) in crate::runs::arguments(original, runs, seed) {
        let before = interp::run(original, f, &args, &limits, &mut NoObserver);
        let after = interp::run(optimized, f, &args, &limits, &mut NoObserver);
        check.runs += 1;
        match compare_runs(&before, &after) {
            Verdict::Same => {}
            Verdict::Skipped => check.skipped += 1,
            Verdict::Differ(how) => {
                let name = original.function(f).map_or("?", |function| &function.name);
                check.differences.push(format!("{name}{args:?}: {how}"));
            }
        }
    }
    check
}

/// `absinthe optimize` with the analyses of catalog `A`.
pub fn run<A: Analysis>(args: &OptimizeArgs) -> ExitCode {
    let analysis = match parse_in::<A>(&args.analysis) {
        Ok(analysis) => analysis,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::from(2);
        }
    };
    if analysis.engine() != Engine::Flow || analysis.kernel_only() {
        eprintln!(
            "error: `optimize` takes the facts of a value analysis of core IR (engine `flow`); \
             `{analysis}` is not one (the escape analysis runs anyway, for allocations)"
        );
        return ExitCode::from(2);
    }
    if analysis.spec().direction == absinthe::spec::Direction::Backward {
        eprintln!(
            "error: `optimize` takes the facts of a forward value analysis (constants, branches); \
             `{analysis}` is a backward analysis (its demands are not values)"
        );
        return ExitCode::from(2);
    }
    // What it rewrites is core IR; the other front ends' programs are named, not misread.
    let front_end = if crate::is_llvm_file(&args.file) {
        Some("an LLVM module")
    } else if crate::kernel::is_kernel_file(&args.file) {
        Some("a kernel-terms program")
    } else {
        None
    };
    if let Some(what) = front_end {
        eprintln!(
            "{}: error: `optimize` rewrites core IR (`.air`) and toy programs (`.toy`); this is \
             {what}, which `absinthe analyze` reads",
            args.file.display()
        );
        return ExitCode::from(2);
    }
    let input = match Input::load(&args.file) {
        Ok(input) => input,
        Err(message) => {
            eprint!("{message}");
            return ExitCode::FAILURE;
        }
    };
    let module = input.module();
    let optimized = optimize_with(&module, analysis, args.max_visits);
    for warning in &optimized.warnings {
        eprintln!("warning: {warning}");
    }
    println!("# optimized with {analysis}: {}", optimized.counts);
    if args.runs == 0 {
        print!("{}", absinthe_ir::print_module(&optimized.module));
        return ExitCode::SUCCESS;
    }
    let check = check(
        &module,
        &optimized.module,
        args.runs,
        args.seed,
        args.max_steps,
    );
    let skipped = match check.skipped {
        0 => String::new(),
        n => format!(" ({n} skipped: the original ran out of steps or read an unassigned name)"),
    };
    println!(
        "# checked: {} runs, {} ending differently{skipped}",
        check.runs,
        check.differences.len()
    );
    print!("{}", absinthe_ir::print_module(&optimized.module));
    for difference in &check.differences {
        eprintln!("error: the rewritten module ends differently: {difference}");
    }
    if check.differences.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
