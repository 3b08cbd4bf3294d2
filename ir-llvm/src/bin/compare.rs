//! `absinthe-llvm-compare`: absinthe's `sccp` head to head with LLVM's own SCCP pass.
//!
//! absinthe's `sccp` here is the analysis declared in `dsl-examples/dom/sccp_ranges.dom`
//! (constants, signed and unsigned ranges, branch refinement): generated code, run by
//! `NonRelational` with states chosen per function ([`States::Auto`]: SSA propagation for these
//! SSA modules; `--state` fixes one). For each module (an `.ll` file that went through `mem2reg` and `instnamer`, see
//! `scripts/corpus.sh`), it runs `opt-15 -passes=sccp -time-passes` and absinthe's `sccp` on the
//! same module and prints the named values LLVM replaces with constants, how many absinthe also
//! proves constant, those absinthe proves that LLVM does not, the unreachable blocks each finds,
//! and absinthe's analysis time divided by LLVM's SCCP pass time (best of `--runs` runs each).
//! Every value LLVM folds that absinthe does not is listed with its instruction (`--misses N`).
//! For reference it also runs the earlier measurement, the hand-written flat `sccp`
//! (`Flat<i64>`) with dense states, in the same run.
//!
//! It also runs the `.dom` SCCP with functions in parallel (`--threads N`, default 2) and
//! prints that run's wall time and whether its results equal the sequential run's, and reads
//! the module in pieces on those threads (as `absinthe analyze` does) and checks that the
//! lowering equals the whole module's.
//!
//! With `--check` it fails (exit status 1) when a value both prove constant gets different
//! constants from each (one of the two is unsound there), or when the parallel results (or the
//! lowering read in pieces) differ from the sequential ones.
//!
//! `--keep-memory` lowers memory operations instead of erasing them (slower; the facts must be
//! the same).
//!
//! `--absinthe PATH` also times the whole of `PATH analyze FILE --analysis sccp-ranges-dom`
//! against the whole of `opt -passes=sccp -disable-output FILE` (best wall time of `--runs`),
//! with each one's peak resident memory, measured by GNU time (`/usr/bin/time`).
//!
//! Usage: `absinthe-llvm-compare [--runs N] [--threads N] [--misses N] [--opt PATH] [--absinthe PATH]
//! [--check] [--keep-memory] FILE.ll...`

absinthe_llvm::global_allocator!();

use std::collections::{HashMap, HashSet};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

/// One thread, or one piece.
const ONE: Option<NonZeroUsize> = Some(NonZeroUsize::MIN);
/// The default number of threads, and the fewest pieces the parallel read is checked with.
const TWO: NonZeroUsize = NonZeroUsize::MIN.saturating_add(1);

use absinthe::engine::Limits;
use absinthe::lattice::Flat;
use absinthe::value::{DeclaredAnalysis, StateRepr, ValueDomain};
use absinthe_dsl_examples::dom::sccp_ranges::SccpRangesAnalysis;
use absinthe_llvm::analyze::{Fact, FunctionAnalysis, States, analyze_module};
use absinthe_llvm::ffi::{Block, Opcode, TyKind, Value, ValueKind};
use absinthe_llvm::flags::NswFlags;
use absinthe_llvm::lower::{Memory, canonical, numbering, spelling};
use absinthe_llvm::{load_module, lower_module, read_module};

struct Options {
    memory: Memory,
    states: States,
    runs: usize,
    /// Threads for the parallel run of the `.dom` SCCP.
    threads: NonZeroUsize,
    check: bool,
    misses: usize,
    opt: String,
    /// The `absinthe` binary to time end to end against `opt`, if any.
    absinthe: Option<PathBuf>,
    files: Vec<PathBuf>,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        memory: Memory::Erase,
        states: States::Auto,
        runs: 5,
        threads: TWO,
        check: false,
        misses: 20,
        opt: "opt-15".to_owned(),
        absinthe: None,
        files: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--runs" => {
                options.runs = value("--runs")?
                    .parse()
                    .map_err(|e| format!("--runs: {e}"))?;
            }
            "--threads" => {
                options.threads = value("--threads")?
                    .parse()
                    .map_err(|e| format!("--threads: {e}"))?;
            }
            "--misses" => {
                options.misses = value("--misses")?
                    .parse()
                    .map_err(|e| format!("--misses: {e}"))?;
            }
            "--opt" => options.opt = value("--opt")?,
            "--absinthe" => options.absinthe = Some(PathBuf::from(value("--absinthe")?)),
            "--state" => {
                let name = value("--state")?;
                options.states = if name == "auto" {
                    States::Auto
                } else {
                    States::Fixed(StateRepr::parse(&name).ok_or(format!(
                        "--state: expected auto, dense, sparse, sparse-temporal or ssa, not `{name}`"
                    ))?)
                };
            }
            "--check" => options.check = true,
            "--keep-memory" => options.memory = Memory::Keep,
            "-h" | "--help" => {
                return Err(
                    "usage: absinthe-llvm-compare [--runs N] [--threads N] [--misses N] [--opt PATH] [--absinthe PATH] [--state auto|dense|sparse|sparse-temporal|ssa] [--check] [--keep-memory] FILE.ll..."
                        .to_owned(),
                );
            }
            _ => options.files.push(PathBuf::from(arg)),
        }
    }
    if options.files.is_empty() {
        return Err("no module given; see --help".to_owned());
    }
    options.runs = options.runs.max(1);
    Ok(options)
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(o) => o,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    let mut failed = false;
    let mut rows = Vec::new();
    for file in &options.files {
        match compare(file, &options) {
            Ok(row) => {
                if options.check && !row.parallel_same {
                    eprintln!(
                        "{}: error: the parallel analysis differs from the sequential one",
                        file.display()
                    );
                    failed = true;
                }
                if options.check && row.disagreements > 0 {
                    eprintln!(
                        "{}: error: {} constants differ from LLVM's",
                        file.display(),
                        row.disagreements
                    );
                    failed = true;
                }
                rows.push(row);
            }
            Err(message) => {
                eprintln!("{}: error: {message}", file.display());
                failed = true;
            }
        }
    }
    if rows.len() > 1 {
        println!();
        println!("{}", Row::header());
        for row in &rows {
            println!("{}", row.line());
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// One module's figures.
struct Row {
    module: String,
    disagreements: usize,
    llvm_constants: usize,
    also: usize,
    absinthe_only: usize,
    llvm_unreachable: usize,
    absinthe_unreachable: usize,
    llvm_time: Duration,
    absinthe_time: Duration,
    /// The wall time of the parallel run (`--threads`).
    parallel_time: Duration,
    /// Whether the parallel run's results equal the sequential run's.
    parallel_same: bool,
    /// The hand-written flat `sccp` with dense states (the earlier measurement).
    flat_time: Duration,
    /// `absinthe analyze` against `opt -passes=sccp`, whole processes (with `--absinthe`).
    end_to_end: Option<EndToEnd>,
}

/// Two whole runs of the module: `absinthe analyze M --analysis sccp-ranges-dom` and
/// `opt -passes=sccp -disable-output M`, each its best wall time and its peak resident memory.
struct EndToEnd {
    absinthe: Duration,
    opt: Duration,
    absinthe_peak: u64,
    opt_peak: u64,
}

impl Row {
    fn header() -> String {
        format!(
            "{:<22} {:>9} {:>9} {:>9} {:>8} {:>8} {:>9} {:>9} {:>6} {:>8} {:>6} {:>4} {:>9} {:>6} {:>9} {:>9} {:>6} {:>7} {:>7} {:>6}",
            "module",
            "LLVM-fold",
            "also",
            "abs-only",
            "unr-LLVM",
            "unr-abs",
            "LLVM-ms",
            "abs-ms",
            "ratio",
            "par-ms",
            "ratio",
            "=seq",
            "flat-ms",
            "before",
            "e2e-abs-s",
            "e2e-opt-s",
            "ratio",
            "abs-MB",
            "opt-MB",
            "ratio"
        )
    }

    fn line(&self) -> String {
        let end_to_end = match &self.end_to_end {
            Some(e) => format!(
                " {:>9.3} {:>9.3} {:>6.2} {:>7.1} {:>7.1} {:>6.2}",
                e.absinthe.as_secs_f64(),
                e.opt.as_secs_f64(),
                ratio(e.absinthe, e.opt),
                e.absinthe_peak as f64 / 1e6,
                e.opt_peak as f64 / 1e6,
                e.absinthe_peak as f64 / e.opt_peak.max(1) as f64
            ),
            None => format!(
                " {:>9} {:>9} {:>6} {:>7} {:>7} {:>6}",
                "-", "-", "-", "-", "-", "-"
            ),
        };
        format!(
            "{:<22} {:>9} {:>9} {:>9} {:>8} {:>8} {:>9.2} {:>9.2} {:>6.2} {:>8.2} {:>6.2} {:>4} {:>9.2} {:>6.2}{end_to_end}",
            self.module,
            self.llvm_constants,
            self.also,
            self.absinthe_only,
            self.llvm_unreachable,
            self.absinthe_unreachable,
            ms(self.llvm_time),
            ms(self.absinthe_time),
            ratio(self.absinthe_time, self.llvm_time),
            ms(self.parallel_time),
            ratio(self.parallel_time, self.llvm_time),
            if self.parallel_same { "yes" } else { "NO" },
            ms(self.flat_time),
            ratio(self.flat_time, self.llvm_time)
        )
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn ratio(a: Duration, b: Duration) -> f64 {
    if b.is_zero() {
        f64::INFINITY
    } else {
        a.as_secs_f64() / b.as_secs_f64()
    }
}

/// What LLVM's SCCP did to one function.
#[derive(Default)]
struct LlvmFunction {
    /// Blocks the input's graph reaches that the output no longer reaches (or lost).
    dead: HashSet<String>,
    /// Named values of live blocks that are gone from the output: replaced by constants.
    folded: HashSet<String>,
    /// The constant a folded value became, where a surviving user shows it.
    values: HashMap<String, Known>,
}

/// A constant LLVM put in place of a value.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Known {
    /// An integer, in the core IR's 64-bit form (`null` is 0), or the bits of a float's double.
    Int(i64),
    /// A global's address plus a byte offset.
    Address(String, i64),
}

impl std::fmt::Display for Known {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Known::Int(v) => write!(f, "{v}"),
            Known::Address(g, 0) => write!(f, "@{g}"),
            Known::Address(g, o) => write!(f, "@{g}{o:+}"),
        }
    }
}

fn compare(file: &Path, options: &Options) -> Result<Row, String> {
    let output = std::env::temp_dir().join(format!(
        "absinthe-compare-{}-{}.ll",
        std::process::id(),
        file.file_stem()
            .map_or("module".into(), |s| s.to_string_lossy())
    ));
    let mut llvm_time = Duration::MAX;
    for _ in 0..options.runs {
        llvm_time = llvm_time.min(run_opt(&options.opt, file, &output)?);
    }
    let input = load_module(file).map_err(|e| e.message)?;
    let folded = load_module(&output).map_err(|e| e.message);
    let _ = std::fs::remove_file(&output);
    let folded = folded?;
    let after: HashMap<String, Value<'_>> = folded
        .functions()
        .filter(|f| f.is_definition())
        .map(|f| (f.name().into_owned(), f))
        .collect();
    let by_name: HashMap<String, Value<'_>> = input
        .functions()
        .filter(|f| f.is_definition())
        .map(|f| (f.name().into_owned(), f))
        .collect();
    let llvm: HashMap<String, LlvmFunction> = by_name
        .iter()
        .map(|(name, &f)| {
            let effect = llvm_effect(f, after.get(name).copied(), folded.layout());
            (name.clone(), effect)
        })
        .collect();

    let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let flags = NswFlags::scan(&text);
    let lowered = lower_module(&input, &flags, options.memory, |_, _| {});
    // `absinthe analyze` reads big modules in pieces on threads: the lowering must be the
    // same as the whole module's.
    let whole = read_module(file, options.memory, ONE, ONE, |_, _| {}).map_err(|e| e.message)?;
    let (threads, pieces) = (Some(options.threads), Some(options.threads.max(TWO)));
    let split =
        read_module(file, options.memory, threads, pieces, |_, _| {}).map_err(|e| e.message)?;
    let split_same = split.lowered.module == lowered.module
        && split.lowered.functions == lowered.functions
        && (split.lowered.skipped.iter().map(|s| &s.function))
            .eq(lowered.skipped.iter().map(|s| &s.function));
    type Ranges = <SccpRangesAnalysis as DeclaredAnalysis>::Domain;
    let (results, absinthe_time, sequential_wall) = run_absinthe::<Ranges>(
        &lowered,
        SccpRangesAnalysis::spec().conditional,
        options.states,
        &SccpRangesAnalysis::limits(),
        options.runs,
    );
    // The same analysis with functions in parallel: its wall time, and whether it says exactly
    // what the sequential run says.
    let mut parallel_time = Duration::MAX;
    let mut parallel_same = true;
    for _ in 0..options.runs {
        let start = Instant::now();
        let parallel = analyze_module::<Ranges>(
            &lowered,
            SccpRangesAnalysis::spec().conditional,
            options.states,
            &SccpRangesAnalysis::limits(),
            Some(options.threads),
            |_, _| {},
        );
        parallel_time = parallel_time.min(start.elapsed());
        parallel_same &= split_same
            && parallel.len() == results.len()
            && parallel.iter().zip(&results).all(|(p, s)| p.same_as(s));
    }
    // The earlier measurement: the hand-written flat sccp with dense states.
    let (flat, flat_time, _) = run_absinthe::<Flat<i64>>(
        &lowered,
        true,
        States::Fixed(StateRepr::Dense),
        &Limits::default(),
        options.runs,
    );

    let mut llvm_constants = 0;
    let mut also = 0;
    let mut also_dead = 0;
    let mut also_undefined = 0;
    let mut absinthe_only = 0;
    let mut llvm_unreachable = 0;
    let mut absinthe_unreachable = 0;
    let mut llvm_only_unreachable = 0;
    let mut misses: Vec<String> = Vec::new();
    let mut checked = 0;
    let mut unreachable_misses: Vec<String> = Vec::new();
    let mut disagreements: Vec<String> = Vec::new();
    let mut miss_kinds: HashMap<String, usize> = HashMap::new();
    let mut flat_also = 0;
    let mut flat_unreachable = 0;
    for ((info, result), baseline) in lowered.functions.iter().zip(&results).zip(&flat) {
        let Some(&f) = by_name.get(&info.name) else {
            continue;
        };
        let Some(effect) = llvm.get(&info.name) else {
            continue;
        };
        let numbers = numbering(f);
        let name_of = |v: Value<'_>| spelling(v, &numbers);
        let block_name = |b: Block<'_>| b.as_value().map_or_else(String::new, name_of);
        llvm_unreachable += effect.dead.len();
        absinthe_unreachable += result.counts.unreachable;
        flat_unreachable += baseline.counts.unreachable;
        for (bb, &dead) in f.blocks().into_iter().zip(&result.dead) {
            if effect.dead.contains(&block_name(bb)) && !dead {
                llvm_only_unreachable += 1;
                if unreachable_misses.len() < options.misses {
                    unreachable_misses.push(format!(
                        "  block {} in {}: {}",
                        block_name(bb),
                        info.name,
                        bb.terminator().map_or_else(String::new, Value::print)
                    ));
                }
            }
        }
        let instructions: HashMap<String, Value<'_>> = f
            .blocks()
            .into_iter()
            .flat_map(|bb| bb.instructions())
            .filter(|i| i.ty().kind() != TyKind::Void)
            .map(|i| (name_of(i), i))
            .collect();
        let block_names: Vec<String> = f.blocks().into_iter().map(block_name).collect();
        for ((value, fact), flat_fact) in info.values.iter().zip(&result.facts).zip(&baseline.facts)
        {
            let in_llvm_dead_block = block_names
                .get(value.block.index())
                .is_some_and(|b| effect.dead.contains(b));
            if in_llvm_dead_block {
                continue;
            }
            let llvm_folds = effect.folded.contains(&value.name);
            if llvm_folds {
                llvm_constants += 1;
                flat_also += usize::from(!matches!(flat_fact, Fact::Unknown));
                let proven = match *fact {
                    Fact::Constant(c) => Some(Known::Int(c)),
                    Fact::Address(s, offset) => Some(Known::Address(
                        lowered.module.symbol_name(s).to_owned(),
                        offset,
                    )),
                    _ => None,
                };
                match fact {
                    Fact::Constant(_) | Fact::Address(..) => {
                        also += 1;
                        if let (Some(l), Some(c)) = (effect.values.get(&value.name), proven) {
                            checked += 1;
                            if *l != c {
                                disagreements.push(format!(
                                    "  {} in {}: LLVM {l}, absinthe {c}",
                                    value.name, info.name
                                ));
                            }
                        }
                    }
                    Fact::Unreachable => also_dead += 1,
                    Fact::Undefined => also_undefined += 1,
                    Fact::Unknown => {
                        let inst = instructions.get(&value.name);
                        let kind = inst.map_or("?".to_owned(), |&i| opcode(i));
                        *miss_kinds.entry(kind).or_default() += 1;
                        if misses.len() < options.misses {
                            misses.push(format!(
                                "  {} in {}: {}",
                                value.name,
                                info.name,
                                inst.map_or(String::new(), |i| i.print()),
                            ));
                        }
                    }
                }
            } else if matches!(fact, Fact::Constant(_) | Fact::Address(..)) {
                absinthe_only += 1;
            }
        }
    }
    let row = Row {
        disagreements: disagreements.len(),
        module: file
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned()),
        llvm_constants,
        also: also + also_dead + also_undefined,
        absinthe_only,
        llvm_unreachable,
        absinthe_unreachable,
        llvm_time,
        absinthe_time,
        parallel_time,
        parallel_same,
        flat_time,
        end_to_end: match &options.absinthe {
            Some(absinthe) => Some(end_to_end(absinthe, &options.opt, file, options.runs)?),
            None => None,
        },
    };
    println!("{}", file.display());
    if !lowered.skipped.is_empty() {
        println!(
            "  skipped {} functions the lowering cannot handle (not compared):",
            lowered.skipped.len()
        );
        for skipped in &lowered.skipped {
            println!("    {skipped}");
        }
    }
    println!(
        "  constants: LLVM's SCCP folds {llvm_constants} named values; absinthe also proves {} of them ({also} constant, {also_dead} in blocks it proves unreachable, {also_undefined} undefined); absinthe proves {absinthe_only} more",
        row.also
    );
    println!(
        "  unreachable blocks: LLVM {llvm_unreachable}, absinthe {absinthe_unreachable} ({llvm_only_unreachable} found by LLVM only)"
    );
    println!(
        "  time (CPU): LLVM SCCP pass {:.2} ms, absinthe sccp (sccp_ranges.dom) {:.2} ms (fixpoint engine, best of {}), ratio {:.2}",
        ms(llvm_time),
        ms(absinthe_time),
        options.runs,
        ratio(absinthe_time, llvm_time)
    );
    println!(
        "  parallel ({} threads, wall, with reading the facts out): {:.2} ms against {:.2} ms on one thread, ratio to LLVM {:.2}; results {} the sequential run's",
        options.threads,
        ms(parallel_time),
        ms(sequential_wall),
        ratio(parallel_time, llvm_time),
        if parallel_same {
            "equal"
        } else {
            "DIFFER from"
        }
    );
    println!(
        "  reading (parse and lower, wall): {:.2} ms in {} pieces on {} threads against {:.2} ms whole; lowering {} the whole module's",
        ms(split.wall),
        split.pieces,
        options.threads,
        ms(whole.wall),
        if split_same {
            "equal to"
        } else {
            "DIFFERS from"
        }
    );
    for m in &unreachable_misses {
        println!("{m}");
    }
    println!(
        "  values: {checked} of the common constants checked against LLVM's, {} disagree",
        disagreements.len()
    );
    for d in &disagreements {
        println!("{d}");
    }
    if let Some(e) = &row.end_to_end {
        println!(
            "  end to end (wall, best of {}): absinthe analyze {:.3} s, opt -passes=sccp {:.3} s, ratio {:.2}; peak memory {:.1} MB against {:.1} MB, ratio {:.2}",
            options.runs,
            e.absinthe.as_secs_f64(),
            e.opt.as_secs_f64(),
            ratio(e.absinthe, e.opt),
            e.absinthe_peak as f64 / 1e6,
            e.opt_peak as f64 / 1e6,
            e.absinthe_peak as f64 / e.opt_peak.max(1) as f64
        );
    }
    let missed = llvm_constants - row.also;
    println!(
        "  before: the hand-written flat sccp (Flat<i64>, dense states) proves {flat_also} of the {llvm_constants} values and {flat_unreachable} blocks unreachable; its time {:.2} ms, ratio {:.2}",
        ms(flat_time),
        ratio(flat_time, llvm_time)
    );
    if missed > 0 {
        let mut kinds: Vec<_> = miss_kinds.into_iter().collect();
        kinds.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
        println!(
            "  missed {missed}: {} (first {} below)",
            kinds.join(", "),
            misses.len()
        );
        for m in &misses {
            println!("{m}");
        }
    }
    Ok(row)
}

/// Runs absinthe's `NonRelational<D>` on every function on one thread, `runs` times; returns
/// the last results, the best total fixpoint CPU time and the best wall time of the whole run
/// (with the bookkeeping that reads the facts out).
fn run_absinthe<D: ValueDomain>(
    lowered: &absinthe_llvm::Lowered,
    conditional: bool,
    states: States,
    limits: &Limits,
    runs: usize,
) -> (Vec<FunctionAnalysis>, Duration, Duration) {
    let mut best = Duration::MAX;
    let mut best_wall = Duration::MAX;
    let mut results = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        results = analyze_module::<D>(lowered, conditional, states, limits, ONE, |_, _| {});
        best_wall = best_wall.min(start.elapsed());
        let total: Duration = results.iter().map(|r| r.counts.cpu).sum();
        best = best.min(total);
    }
    (results, best, best_wall)
}

/// Runs `opt -passes=sccp -time-passes` on `file`, writing the result to `output`; returns the
/// SCCP pass's CPU time (user + system).
fn run_opt(opt: &str, file: &Path, output: &Path) -> Result<Duration, String> {
    let out = Command::new(opt)
        .args(["-passes=sccp", "-time-passes", "-S"])
        .arg(file)
        .arg("-o")
        .arg(output)
        .output()
        .map_err(|e| format!("cannot run {opt}: {e} (run scripts/install-llvm.sh)"))?;
    if !out.status.success() {
        return Err(format!(
            "{opt} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let report = String::from_utf8_lossy(&out.stderr);
    // "   0.0721 ( 21.9%)   0.0078 ( 96.7%)   0.0799 ( 23.7%)   0.0797 ( 23.7%)  SCCPPass":
    // user, system, user+system, wall. Both sides are compared in CPU time, which a busy
    // machine disturbs far less than wall-clock time.
    let line = report
        .lines()
        .find(|l| l.trim_end().ends_with("SCCPPass"))
        .ok_or("no SCCPPass line in the -time-passes report")?;
    let numbers: Vec<f64> = line
        .split_whitespace()
        .filter_map(|w| w.parse::<f64>().ok())
        .collect();
    // The system column is left out when it is zero: user+system is second to last either way.
    let cpu = match numbers[..] {
        [_, _, cpu, _] | [_, cpu, _] => cpu,
        _ => return Err(format!("cannot read the SCCPPass time in `{line}`")),
    };
    Ok(Duration::from_secs_f64(cpu))
}

/// Times `absinthe analyze FILE --analysis sccp-ranges-dom` and `opt -passes=sccp
/// -disable-output FILE` as whole processes, each `runs` times: the best wall time and the
/// largest peak resident memory of each (GNU time's `%M`).
fn end_to_end(absinthe: &Path, opt: &str, file: &Path, runs: usize) -> Result<EndToEnd, String> {
    let mut out = EndToEnd {
        absinthe: Duration::MAX,
        opt: Duration::MAX,
        absinthe_peak: 0,
        opt_peak: 0,
    };
    for _ in 0..runs {
        let (time, peak) = timed(
            absinthe.as_os_str(),
            &[
                "analyze".as_ref(),
                file.as_os_str(),
                "--analysis".as_ref(),
                "sccp-ranges-dom".as_ref(),
            ],
        )?;
        out.absinthe = out.absinthe.min(time);
        out.absinthe_peak = out.absinthe_peak.max(peak);
        let (time, peak) = timed(
            opt.as_ref(),
            &[
                "-passes=sccp".as_ref(),
                "-disable-output".as_ref(),
                file.as_os_str(),
            ],
        )?;
        out.opt = out.opt.min(time);
        out.opt_peak = out.opt_peak.max(peak);
    }
    Ok(out)
}

/// Runs `program args` under GNU time (`/usr/bin/time`, the Debian package `time`), its output
/// thrown away: the wall time this process saw and the peak resident memory in bytes.
fn timed(program: &std::ffi::OsStr, args: &[&std::ffi::OsStr]) -> Result<(Duration, u64), String> {
    let start = Instant::now();
    let out = Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(program)
        .args(args)
        .stdout(std::process::Stdio::null())
        .output()
        .map_err(|e| {
            format!("cannot run /usr/bin/time: {e} (install the Debian package `time`)")
        })?;
    let time = start.elapsed();
    let report = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(format!("{} failed: {report}", program.to_string_lossy()));
    }
    let kb: u64 = report
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .ok_or_else(|| format!("no peak memory in GNU time's report `{report}`"))?;
    Ok((time, kb * 1024))
}

/// What SCCP changed in `before`: blocks no longer reachable and named values replaced by
/// constants.
///
/// SCCP deletes exactly the instructions it replaces with constants (and the contents of dead
/// blocks), so a named non-φ instruction of a live block that is gone was folded. A φ can also
/// vanish because removing an infeasible edge left it a single incoming value; it was folded
/// only if every incoming value on an edge that survives is a constant (or was folded).
fn llvm_effect<'m>(
    before: Value<'m>,
    after: Option<Value<'m>>,
    layout: absinthe_llvm::ffi::Layout<'m>,
) -> LlvmFunction {
    let Some(after) = after else {
        return LlvmFunction::default();
    };
    let nb = numbering(before);
    let na = numbering(after);
    let name_b = |v: Value<'_>| spelling(v, &nb);
    let name_a = |v: Value<'_>| spelling(v, &na);
    let block_b = |b: Block<'_>| b.as_value().map_or_else(String::new, name_b);
    let block_a = |b: Block<'_>| b.as_value().map_or_else(String::new, name_a);
    let reach_before = reachable(before, &block_b);
    let reach_after = reachable(after, &block_a);
    let dead: HashSet<String> = reach_before.difference(&reach_after).cloned().collect();
    fn results(f: Value<'_>) -> Vec<Value<'_>> {
        f.blocks()
            .into_iter()
            .flat_map(|bb| bb.instructions())
            .filter(|i| i.ty().kind() != TyKind::Void)
            .collect()
    }
    let remaining: HashSet<String> = results(after).into_iter().map(name_a).collect();
    // The edges that survive in the output, by block labels.
    let edges: HashSet<(String, String)> = after
        .blocks()
        .into_iter()
        .flat_map(|bb| {
            let from = block_a(bb);
            bb.terminator()
                .map(Value::successors)
                .unwrap_or_default()
                .into_iter()
                .map(move |t| (from.clone(), block_a(t)))
        })
        .collect();
    let mut gone: HashMap<String, (Value<'_>, String)> = HashMap::new();
    for bb in before.blocks() {
        let label = block_b(bb);
        if !reach_before.contains(&label) || dead.contains(&label) {
            continue;
        }
        for inst in bb.instructions().filter(|i| i.ty().kind() != TyKind::Void) {
            let n = name_b(inst);
            if !remaining.contains(&n) {
                gone.insert(n, (inst, label.clone()));
            }
        }
    }
    let folded: HashSet<String> = gone
        .keys()
        .filter(|n| folded_value(n, &gone, &edges, &block_b, &name_b, 0))
        .cloned()
        .collect();
    // The constants: read where a user that survives now has a literal instead of the value.
    let users_after: HashMap<String, Value<'_>> =
        results(after).into_iter().map(|i| (name_a(i), i)).collect();
    let mut values = HashMap::new();
    // Values LLVM replaced by a constant expression it could not evaluate (`icmp eq (@a, @b)`
    // of two globals it may not tell apart): not folds.
    let mut undecided = HashSet::new();
    let mut record = |b: Value<'_>, a: Value<'_>| {
        if !b.is_local() || a.is_local() {
            return;
        }
        let name = name_b(b);
        if !folded.contains(&name) {
            return;
        }
        let constant = match (a.kind(), a.ty().kind()) {
            (ValueKind::LLVMConstantIntValueKind, TyKind::Int(bits)) => a
                .const_int()
                .and_then(|v| canonical(bits, v))
                .map(Known::Int),
            (ValueKind::LLVMConstantPointerNullValueKind, _) => Some(Known::Int(0)),
            // A float is kept as the bits of its double (a `float` is exactly one).
            (ValueKind::LLVMConstantFPValueKind, TyKind::Float | TyKind::Double) => {
                a.const_real().map(|x| Known::Int(x.to_bits() as i64))
            }
            (_, TyKind::Ptr) => absinthe_llvm::pointer_constant(a, layout)
                .map(|(global, offset)| Known::Address(global, offset)),
            _ => None,
        };
        match constant {
            Some(v) => {
                values.insert(name, v);
            }
            None if a.kind() == ValueKind::LLVMConstantExprValueKind => {
                undecided.insert(name);
            }
            None => {}
        }
    };
    let blocks_after: HashMap<String, Block<'_>> = after
        .blocks()
        .into_iter()
        .map(|bb| (block_a(bb), bb))
        .collect();
    for bb in before.blocks() {
        fn ret(b: Block<'_>) -> Option<Value<'_>> {
            b.terminator()
                .filter(|t| t.opcode() == Some(Opcode::LLVMRet))
        }
        if let (Some(r), Some(r_after)) = (
            ret(bb),
            blocks_after.get(&block_b(bb)).copied().and_then(ret),
        ) {
            if let (Some(b), Some(a)) = (r.operand(0), r_after.operand(0)) {
                record(b, a);
            }
        }
        for user in bb.instructions().filter(|i| i.ty().kind() != TyKind::Void) {
            let Some(&user_after) = users_after.get(&name_b(user)) else {
                continue;
            };
            let (ops_before, ops_after) = (operands(user), operands(user_after));
            if ops_before.len() != ops_after.len() {
                continue;
            }
            for (&b, &a) in ops_before.iter().zip(&ops_after) {
                record(b, a);
            }
        }
    }
    // A value computed from an undecided one is not a fold either.
    let folded = folded
        .into_iter()
        .filter(|n| {
            !undecided.contains(n)
                && gone.get(n).is_none_or(|(inst, _)| {
                    !operands(*inst)
                        .iter()
                        .any(|o| o.is_local() && undecided.contains(&name_b(*o)))
                })
        })
        .collect();
    LlvmFunction {
        dead,
        folded,
        values,
    }
}

/// The value operands of the instructions whose operands can be compared position by position.
fn operands(inst: Value<'_>) -> Vec<Value<'_>> {
    use Opcode as O;
    match inst.opcode() {
        Some(
            O::LLVMAdd
            | O::LLVMSub
            | O::LLVMMul
            | O::LLVMUDiv
            | O::LLVMSDiv
            | O::LLVMURem
            | O::LLVMSRem
            | O::LLVMAnd
            | O::LLVMOr
            | O::LLVMXor
            | O::LLVMShl
            | O::LLVMLShr
            | O::LLVMAShr
            | O::LLVMICmp
            | O::LLVMSelect
            | O::LLVMTrunc
            | O::LLVMZExt
            | O::LLVMSExt,
        ) => (0..inst.operand_count())
            .filter_map(|i| inst.operand(i))
            .collect(),
        Some(O::LLVMCall) => inst.arguments(),
        _ => Vec::new(),
    }
}

/// Whether the vanished value `name` was replaced by a constant (see [`llvm_effect`]).
fn folded_value(
    name: &str,
    gone: &HashMap<String, (Value<'_>, String)>,
    edges: &HashSet<(String, String)>,
    block_name: &dyn Fn(Block<'_>) -> String,
    value_name: &dyn Fn(Value<'_>) -> String,
    depth: u32,
) -> bool {
    let Some((inst, block)) = gone.get(name) else {
        return false;
    };
    if inst.opcode() != Some(Opcode::LLVMPHI) {
        return true;
    }
    if depth > 16 {
        return false;
    }
    inst.incoming()
        .into_iter()
        .filter(|&(_, from)| edges.contains(&(block_name(from), block.clone())))
        .all(|(value, _)| {
            if value.is_local() {
                folded_value(
                    &value_name(value),
                    gone,
                    edges,
                    block_name,
                    value_name,
                    depth + 1,
                )
            } else {
                value.kind() != ValueKind::LLVMMetadataAsValueValueKind
            }
        })
}

/// The labels of the blocks reachable from the entry.
fn reachable(f: Value<'_>, block_name: &dyn Fn(Block<'_>) -> String) -> HashSet<String> {
    let blocks = f.blocks();
    let index: HashMap<Block<'_>, usize> =
        blocks.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let mut seen = vec![false; blocks.len()];
    let mut stack = Vec::new();
    if !blocks.is_empty() {
        seen[0] = true;
        stack.push(0);
    }
    while let Some(b) = stack.pop() {
        let successors = blocks[b]
            .terminator()
            .map(Value::successors)
            .unwrap_or_default();
        for target in successors {
            if let Some(&t) = index.get(&target) {
                if !seen[t] {
                    seen[t] = true;
                    stack.push(t);
                }
            }
        }
    }
    blocks
        .iter()
        .zip(&seen)
        .filter(|(_, s)| **s)
        .map(|(&bb, _)| block_name(bb))
        .collect()
}

/// The opcode of an instruction, for grouping misses (with the callee for calls).
fn opcode(inst: Value<'_>) -> String {
    if inst.opcode() == Some(Opcode::LLVMCall) {
        if let Some(callee) = inst.callee().filter(|c| c.is_global()) {
            return format!("call {}", callee.name());
        }
    }
    let text = inst.print();
    let rhs = text.split_once(" = ").map_or(text.as_str(), |(_, r)| r);
    rhs.split_whitespace().next().unwrap_or("?").to_owned()
}
