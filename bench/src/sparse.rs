//! The `sparse` benchmark: constant propagation and intervals with dense, sparse and
//! sparse+temporal states on generated programs of 10³ to 10⁶ statements in three shapes with many
//! names. For each run it prints the time (CPU time of the thread where the platform reports it,
//! so that a busy machine disturbs the figures less), the peak bytes the analysis held (counted by
//! the global allocator, from the start of the run to its end, result included) and the transfer
//! evaluations; then, per shape, the dense/sparse ratios at the largest size.

use crate::alloc::Counting;
use crate::clock::Clock;
use absinthe::engine::Limits;
use absinthe::lattice::{Flat, Interval};
use absinthe::program::BlockId;
use absinthe::value::{NonRelational, StateRepr, ValueDomain};
use absinthe_ir::function::Module;
use absinthe_ir::generate::{wide_diamonds, wide_nested_loops, wide_straight_line};
use std::time::Duration;

/// Names of the generated programs unless `--names` says otherwise.
const DEFAULT_NAMES: usize = 256;

type Generator = fn(usize, usize) -> Module;

fn shapes() -> [(&'static str, Generator); 3] {
    [
        ("straight-line", wide_straight_line),
        ("nested-loops", |n, names| wide_nested_loops(n, 3, names)),
        ("diamonds", wide_diamonds),
    ]
}

/// What one run of one representation gave.
#[derive(Clone, Debug)]
struct Measure {
    time: Duration,
    bytes: usize,
    evaluations: u64,
    visits: u64,
    /// The state at the entry of the last block, to check the representations agree.
    last: String,
}

fn measure<D: ValueDomain>(
    module: &Module,
    conditional: bool,
    repr: StateRepr,
    counter: &Counting,
) -> Measure {
    let function = &module.functions[0];
    let analysis = NonRelational::<D>::new(conditional);
    let limits = Limits::default();
    let base = counter.reset_peak();
    let start = Clock::start();
    let solution = analysis.solve(function, repr, &limits);
    let time = start.elapsed();
    let bytes = counter.peak().saturating_sub(base);
    assert!(
        solution.stop().is_stable(),
        "benchmark analysis did not stabilise"
    );
    let stats = solution.stats().clone();
    let last_block = BlockId::new(function.blocks().len().saturating_sub(1));
    let last = format!("{:?}", solution.entry(last_block));
    Measure {
        time,
        bytes,
        evaluations: stats.evaluations,
        visits: stats.visits,
        last,
    }
}

/// The time of one more run (the solution is dropped outside the measurement).
fn time_once<D: ValueDomain>(module: &Module, conditional: bool, repr: StateRepr) -> Duration {
    let analysis = NonRelational::<D>::new(conditional);
    let start = Clock::start();
    let solution = analysis.solve(&module.functions[0], repr, &Limits::default());
    let time = start.elapsed();
    drop(solution);
    time
}

/// Measures every representation in `reprs` on `module`, then times them a few more times in
/// turn (so that a busy machine slows them alike) and keeps each one's fastest run.
fn measure_all<D: ValueDomain>(
    module: &Module,
    reprs: &[StateRepr],
    counter: &Counting,
) -> Vec<Measure> {
    let mut results: Vec<Measure> = reprs
        .iter()
        .map(|&repr| measure::<D>(module, true, repr, counter))
        .collect();
    let runs = (1_000_000 / module.functions[0].stmt_count().max(1)).clamp(3, 10);
    for _ in 1..runs {
        for (m, &repr) in results.iter_mut().zip(reprs) {
            m.time = m.time.min(time_once::<D>(module, true, repr));
        }
    }
    results
}

fn human(bytes: usize) -> String {
    let b = bytes as f64;
    if b >= 1e9 {
        format!("{:.2} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.2} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.1} kB", b / 1e3)
    } else {
        format!("{bytes} B")
    }
}

/// Runs the benchmark for sizes 10³ to 10^`max_exp` over `names` names, on every shape or
/// `only` one, in every representation or in `state` only.
pub fn run(
    max_exp: u32,
    names: Option<usize>,
    only: Option<&str>,
    state: Option<StateRepr>,
    counter: &Counting,
) {
    let names = names.unwrap_or(DEFAULT_NAMES);
    println!("sparse states: {names} names, peak bytes held by the analysis from start to result");
    println!(
        "time: {}, fastest of several runs",
        if Clock::is_cpu_time() {
            "CPU time of the thread (other processes excluded)"
        } else {
            "wall clock"
        }
    );
    println!(
        "{:<14} {:<9} {:>8} {:>7} {:<16} {:>11} {:>11} {:>12} {:>9} {:>7}",
        "shape",
        "analysis",
        "stmts",
        "blocks",
        "state",
        "time (ms)",
        "peak",
        "evaluations",
        "visits",
        "growth"
    );
    let mut summary = Vec::new();
    for (shape, generate) in shapes() {
        if only.is_some_and(|only| only != shape) {
            continue;
        }
        let mut last_ratios = Vec::new();
        for (analysis, interval) in [("sccp", false), ("interval", true)] {
            let mut previous: [Option<Duration>; 3] = [None; 3];
            let mut largest: Vec<Measure> = Vec::new();
            for exp in 3..=max_exp {
                let module = generate(10usize.pow(exp), names);
                let function = &module.functions[0];
                let stmts = function.stmt_count();
                let blocks = function.blocks().len();
                let reprs: Vec<StateRepr> = StateRepr::ALL
                    .into_iter()
                    .filter(|&r| state.is_none_or(|s| s == r))
                    .collect();
                let results = if interval {
                    measure_all::<Interval>(&module, &reprs, counter)
                } else {
                    measure_all::<Flat<i64>>(&module, &reprs, counter)
                };
                for (m, &repr) in results.iter().zip(&reprs) {
                    let i = repr as usize;
                    let growth = previous[i].map_or_else(
                        || "-".to_owned(),
                        |p| format!("{:.1}x", m.time.as_secs_f64() / p.as_secs_f64()),
                    );
                    previous[i] = Some(m.time);
                    println!(
                        "{shape:<14} {analysis:<9} {stmts:>8} {blocks:>7} {:<16} {:>11.3} {:>11} \
                         {:>12} {:>9} {growth:>7}",
                        repr.as_str(),
                        m.time.as_secs_f64() * 1e3,
                        human(m.bytes),
                        m.evaluations,
                        m.visits,
                    );
                }
                assert!(
                    results.iter().all(|m| m.last == results[0].last),
                    "{shape} {analysis}: the representations disagree"
                );
                largest = results;
            }
            if let [dense, sparse, temporal] = &largest[..] {
                let ratio = |a: f64, b: f64| a / b.max(f64::MIN_POSITIVE);
                last_ratios.push(format!(
                    "{analysis}: bytes {:.1}x, time {:.1}x (temporal {:.1}x), evaluations {:.1}x \
                     (temporal)",
                    ratio(dense.bytes as f64, sparse.bytes as f64),
                    ratio(dense.time.as_secs_f64(), sparse.time.as_secs_f64()),
                    ratio(dense.time.as_secs_f64(), temporal.time.as_secs_f64()),
                    ratio(dense.evaluations as f64, temporal.evaluations as f64),
                ));
            }
        }
        summary.push(format!("{shape:<14} {}", last_ratios.join("; ")));
    }
    println!("growth: time at this size divided by time at the previous (10x smaller) size");
    println!("dense/sparse ratios at 10^{max_exp} statements:");
    for line in summary {
        println!("{line}");
    }
}
