//! `absinthe analyze FILE.ll|FILE.bc`: the LLVM front end (`absinthe-llvm`) lowers the module,
//! the generic value analysis runs on every function, and the result is a table of per-function
//! and total counts with the time of each phase. Compiled with the `llvm` feature only.

use std::num::NonZeroUsize;
use std::path::Path;
use std::time::Duration;

use absinthe::engine::Limits;
use absinthe::value::ValueDomain;
use absinthe_llvm::analyze::{
    FunctionAnalysis, FunctionCounts, ModuleCounts, States, analyze_module,
};
use absinthe_llvm::lower::Memory;
use absinthe_llvm::{LowerError, Lowered, read_module, read_module_with};
use serde_json::json;

use crate::analyses::Analysis;
use crate::driver::{Format, Report};
use crate::progress::Progress;

/// Modules with at least this many functions get progress bars.
const PROGRESS_FROM: usize = 200;

/// The time of each phase.
#[derive(Clone, Copy, Debug, Default)]
pub struct Phases {
    /// Reading the file with LLVM's parser (and scanning its text for wrap flags), summed over
    /// the pieces the module was read in.
    pub parse: Duration,
    /// Lowering to the core IR, summed over the pieces.
    pub lower: Duration,
    /// The fixpoint engine, summed over functions (the analysis alone).
    pub analysis: Duration,
    /// Wall-clock time of the three together (the pieces, and the functions, in parallel).
    pub wall: Duration,
    /// How many pieces the module was read in, in parallel (1: whole).
    pub pieces: usize,
    /// The process's peak resident memory so far, in bytes (`VmHWM`; `None` where the system
    /// does not say).
    pub peak_memory: Option<u64>,
}

/// The process's peak resident memory so far, in bytes: `VmHWM` in `/proc/self/status`.
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Loads, lowers and analyzes the LLVM module at `path`, keeping states as `states` says, read
/// in `pieces` pieces and with functions analyzed on `threads` threads (`(threads, pieces)`;
/// `None`: one thread per core, or one for a small module, and four pieces per thread for a big
/// module, else one); the error is a message for the user.
pub fn run<A: Analysis>(
    path: &Path,
    analysis: A,
    states: States,
    limits: &Limits,
    (threads, pieces): (Option<NonZeroUsize>, Option<NonZeroUsize>),
    format: Format,
) -> Result<Report, String> {
    struct Run<'a, A: Analysis> {
        path: &'a Path,
        analysis: A,
        states: States,
        limits: &'a Limits,
        threads: Option<NonZeroUsize>,
        pieces: Option<NonZeroUsize>,
        format: Format,
    }
    impl<A: Analysis> crate::analyses::ForDomain for Run<'_, A> {
        type Output = Result<Report, String>;
        fn run<D: ValueDomain>(self) -> Result<Report, String> {
            run_with::<D, A>(
                self.path,
                self.analysis,
                self.states,
                self.limits,
                (self.threads, self.pieces),
                self.format,
            )
        }
    }
    analysis.dispatch(Run {
        path,
        analysis,
        states,
        limits,
        threads,
        pieces,
        format,
    })
}

/// The LLVM module at `path` lowered to core IR (for `trace`, which shows one function).
pub fn lowered(path: &Path) -> Result<absinthe_ir::Module, String> {
    let read =
        read_module(path, Memory::Erase, None, None, |_, _| {}).map_err(|e| e.to_string())?;
    Ok(read.lowered.module)
}

fn run_with<D: ValueDomain, A: Analysis>(
    path: &Path,
    analysis: A,
    states: States,
    limits: &Limits,
    (threads, pieces): (Option<NonZeroUsize>, Option<NonZeroUsize>),
    format: Format,
) -> Result<Report, String> {
    // Each piece's functions are analyzed by the thread that read the piece, as soon as it is
    // lowered (a module read whole is analyzed on `threads` threads).
    let mut bar = Progress::new("reading", 0, PROGRESS_FROM);
    let conditional = analysis.conditional();
    let analyze = |lowered: &Lowered, threads: Option<NonZeroUsize>| {
        analyze_module::<D>(lowered, conditional, states, limits, threads, |_, _| {})
    };
    let (read, results) = read_module_with(
        path,
        Memory::Erase,
        threads,
        pieces,
        |done, total| bar.update(done, total),
        analyze,
    )
    .map_err(|e| e.to_string())?;
    bar.finish();
    let lowered = read.lowered;
    let results: Vec<FunctionAnalysis> = results.into_iter().flatten().collect();
    let mut totals = ModuleCounts::default();
    for r in &results {
        totals.add(&r.counts);
    }
    let phases = Phases {
        parse: read.parse,
        lower: read.lower,
        analysis: totals.time,
        wall: read.wall,
        pieces: read.pieces,
        peak_memory: peak_memory(),
    };
    let counts: Vec<&FunctionCounts> = results.iter().map(|r| &r.counts).collect();
    let file = path.display().to_string();
    let skipped = &lowered.skipped;
    let output = match format {
        Format::Text => text(&file, analysis, &counts, &totals, skipped, &phases),
        Format::Json => json_text(&file, analysis, &counts, &totals, skipped, &phases),
    };
    let warnings = counts
        .iter()
        .filter(|c| !c.stop.is_stable())
        .map(|c| {
            format!(
                "the analysis of function `{}` did not reach a fixpoint ({:?}); its counts are not sound",
                c.name, c.stop
            )
        })
        .collect();
    // Freeing the module's core IR and the facts takes a few percent of a whole run and nothing
    // needs it done now: a thread frees them while the report is printed (and the process may
    // exit before it is done).
    std::thread::spawn(move || drop((lowered, results)));
    Ok(Report {
        output,
        stable: totals.unstable == 0,
        warnings,
        fell_back: None,
    })
}

fn secs(d: Duration) -> String {
    format!("{:.3} s", d.as_secs_f64())
}

fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1000.0)
}

/// The text table: a header, one line per function, the totals and the phase times.
pub fn text<A: Analysis>(
    file: &str,
    analysis: A,
    counts: &[&FunctionCounts],
    totals: &ModuleCounts,
    skipped: &[LowerError],
    phases: &Phases,
) -> String {
    let mut out = format!("# {file}: analysis {analysis}\n");
    if let Some(relation) = analysis.relation() {
        out.push_str(&format!(
            "# relation: {relation}, beside the values, in dense states\n"
        ));
    }
    let width = counts
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(8, 40);
    out.push_str(&format!(
        "{:<width$} {:>7} {:>7} {:>8} {:>9} {:>8} {:>7} {:>7} {:>7} {:>9} {:>9}\n",
        "function",
        "blocks",
        "unreach",
        "values",
        "constants",
        "branches",
        "decided",
        "indices",
        "bounded",
        "in-bounds",
        "ms"
    ));
    for c in counts {
        let mut name: String = c.name.chars().take(width).collect();
        if !c.stop.is_stable() {
            name.push('!');
        }
        out.push_str(&format!(
            "{:<width$} {:>7} {:>7} {:>8} {:>9} {:>8} {:>7} {:>7} {:>7} {:>9} {:>9}\n",
            name,
            c.blocks,
            c.unreachable,
            c.values,
            c.constants,
            c.branches,
            c.decided,
            c.indices,
            c.bounded,
            c.in_bounds,
            ms(c.time)
        ));
    }
    out.push_str(&format!(
        "{:<width$} {:>7} {:>7} {:>8} {:>9} {:>8} {:>7} {:>7} {:>7} {:>9} {:>9}\n",
        "total",
        totals.blocks,
        totals.unreachable,
        totals.values,
        totals.constants,
        totals.branches,
        totals.decided,
        totals.indices,
        totals.bounded,
        totals.in_bounds,
        ms(totals.time)
    ));
    out.push_str(&format!(
        "# {} functions; values proven constant: {}; branches decided: {}; blocks proven unreachable: {}; getelementptr indices proven within [0, n): {} of {} with a known n ({} indices)\n",
        totals.functions,
        totals.constants,
        totals.decided,
        totals.unreachable,
        totals.in_bounds,
        totals.bounded,
        totals.indices
    ));
    out.push_str(&format!(
        "# time: parse {}, lower {}, analysis {} (fixpoint engine only); {} wall in {} {}{}\n",
        secs(phases.parse),
        secs(phases.lower),
        secs(phases.analysis),
        secs(phases.wall),
        phases.pieces,
        if phases.pieces == 1 {
            "piece"
        } else {
            "pieces"
        },
        phases.peak_memory.map_or(String::new(), |b| format!(
            "; peak memory {:.1} MB",
            b as f64 / 1e6
        ))
    ));
    if totals.unstable > 0 {
        out.push_str(&format!(
            "# {} functions did not reach a fixpoint (marked !)\n",
            totals.unstable
        ));
    }
    if !skipped.is_empty() {
        out.push_str(&format!(
            "# skipped: {} functions could not be lowered (not analyzed; calls to them are unknown)\n",
            skipped.len()
        ));
        for s in skipped {
            out.push_str(&format!("# {s}\n"));
        }
    }
    out
}

fn json_text<A: Analysis>(
    file: &str,
    analysis: A,
    counts: &[&FunctionCounts],
    totals: &ModuleCounts,
    skipped: &[LowerError],
    phases: &Phases,
) -> String {
    let functions: Vec<_> = counts
        .iter()
        .map(|c| {
            json!({
                "name": c.name,
                "blocks": c.blocks,
                "unreachable": c.unreachable,
                "values": c.values,
                "constants": c.constants,
                "branches": c.branches,
                "decided": c.decided,
                "indices": c.indices,
                "bounded": c.bounded,
                "in_bounds": c.in_bounds,
                "stable": c.stop.is_stable(),
                "analysis_ms": c.time.as_secs_f64() * 1000.0,
            })
        })
        .collect();
    let doc = json!({
        "file": file,
        "analysis": analysis.as_str(),
        "relation": analysis.relation().map(|r| r.to_string()),
        "functions": functions,
        "total": {
            "functions": totals.functions,
            "blocks": totals.blocks,
            "unreachable": totals.unreachable,
            "values": totals.values,
            "constants": totals.constants,
            "branches": totals.branches,
            "decided": totals.decided,
            "indices": totals.indices,
            "bounded": totals.bounded,
            "in_bounds": totals.in_bounds,
            "unstable": totals.unstable,
        },
        "skipped": skipped.iter().map(|s| json!({
            "function": s.function,
            "reason": s.message,
            "block": s.at.as_ref().map(|a| a.block.clone()),
            "instruction_index": s.at.as_ref().map(|a| a.index),
            "instruction": s.at.as_ref().and_then(|a| a.text.clone()),
        })).collect::<Vec<_>>(),
        "time_s": {
            "parse": phases.parse.as_secs_f64(),
            "lower": phases.lower.as_secs_f64(),
            "analysis": phases.analysis.as_secs_f64(),
            "wall": phases.wall.as_secs_f64(),
        },
        "pieces": phases.pieces,
        "peak_memory_bytes": phases.peak_memory,
    });
    format!(
        "{}\n",
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    )
}
