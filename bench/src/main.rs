//! absinthe's bench binary. `throughput` prints how many statements per second the worklist
//! solver analyzes on generated programs of 10³ to 10⁶ statements in three shapes, for constant
//! propagation and intervals, and how the time grows from one size to the next. `dom` compares
//! constant propagation declared in a `.dom` file with the hand-written one on the same programs.

use absinthe::engine::{Limits, solve};
use absinthe::lattice::{Flat, Interval};
use absinthe::value::{DeclaredAnalysis, NonRelational, ValueDomain};
use absinthe_dsl_examples::dom::const_prop::{ConstProp, ConstValue};
use absinthe_ir::function::Module;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = args.first().map_or("throughput", String::as_str);
    let max_exp = args
        .iter()
        .position(|a| a == "--max-exp")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse::<u32>().ok())
        .unwrap_or(6);
    match command {
        "throughput" => throughput(max_exp),
        "dom" => dom(),
        other => {
            eprintln!("unknown benchmark `{other}`; known: throughput [--max-exp N], dom");
            std::process::exit(2);
        }
    }
}

type Generator = fn(usize) -> Module;

fn shapes() -> [(&'static str, Generator); 3] {
    [
        ("straight-line", |n| {
            absinthe_ir::generate::straight_line(n, 64)
        }),
        ("nested-loops", |n| {
            absinthe_ir::generate::nested_loops(n, 3)
        }),
        ("diamonds", absinthe_ir::generate::diamonds),
    ]
}

/// Runs `analysis` on every function of `module` and returns the fastest of a few runs (more
/// runs for small programs, so that timer noise stays small) and the block visits.
fn time_solve<D: ValueDomain>(module: &Module, conditional: bool) -> (Duration, u64) {
    let analysis = NonRelational::<D>::new(conditional);
    let limits = Limits::default();
    let stmts: usize = module.functions.iter().map(|f| f.stmt_count()).sum();
    let runs = (1_000_000 / stmts.max(1)).clamp(1, 20);
    let mut best = Duration::MAX;
    let mut visits = 0;
    for _ in 0..runs {
        let start = Instant::now();
        visits = 0;
        for function in &module.functions {
            let solution = solve(function, &analysis, &limits);
            assert!(
                solution.stop.is_stable(),
                "benchmark analysis did not stabilise"
            );
            visits += solution.stats.visits;
        }
        best = best.min(start.elapsed());
    }
    (best, visits)
}

fn throughput(max_exp: u32) {
    println!(
        "{:<14} {:<9} {:>9} {:>9} {:>12} {:>14} {:>8}",
        "shape", "analysis", "stmts", "visits", "time (ms)", "stmts/s", "growth"
    );
    for (shape, generate) in shapes() {
        for (analysis, conditional, interval) in [("sccp", true, false), ("interval", true, true)] {
            let mut previous: Option<Duration> = None;
            for exp in 3..=max_exp {
                let module = generate(10usize.pow(exp));
                let stmts: usize = module.functions.iter().map(|f| f.stmt_count()).sum();
                let (time, visits) = if interval {
                    time_solve::<Interval>(&module, conditional)
                } else {
                    time_solve::<Flat<i64>>(&module, conditional)
                };
                let rate = stmts as f64 / time.as_secs_f64();
                let growth = previous.map_or_else(
                    || "-".to_owned(),
                    |p| format!("{:.1}x", time.as_secs_f64() / p.as_secs_f64()),
                );
                println!(
                    "{shape:<14} {analysis:<9} {stmts:>9} {visits:>9} {:>12.3} {:>14.0} {growth:>8}",
                    time.as_secs_f64() * 1e3,
                    rate
                );
                previous = Some(time);
            }
        }
    }
    println!("growth: time at this size divided by time at the previous (10x smaller) size");
}

/// One run of `analysis` over every function of `module`: the time and the block visits.
fn run_once<D: ValueDomain>(module: &Module, analysis: &NonRelational<D>) -> (Duration, u64) {
    let limits = Limits::default();
    let start = Instant::now();
    let mut visits = 0;
    for function in &module.functions {
        let solution = solve(function, analysis, &limits);
        assert!(
            solution.stop.is_stable(),
            "benchmark analysis did not stabilise"
        );
        visits += solution.stats.visits;
    }
    (start.elapsed(), visits)
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// Constant propagation declared in `dsl-examples/dom/const_prop.dom` (its product `ConstValue`)
/// against the hand-written `Flat<i64>`, both run by `NonRelational` with the `.dom` analysis's
/// condition setting, on the throughput shapes at 10⁴ and 10⁵ statements. Runs alternate between
/// the two so that both see the same machine; each time is the median of its runs.
fn dom() {
    let conditional = <ConstProp as DeclaredAnalysis>::CONDITIONAL;
    let generated = NonRelational::<ConstValue>::new(conditional);
    let hand_written = NonRelational::<Flat<i64>>::new(conditional);
    println!(
        "{:<14} {:>9} {:>9} {:>5} {:>12} {:>12} {:>7}",
        "shape", "stmts", "visits", "runs", ".dom (ms)", "hand (ms)", "ratio"
    );
    for (shape, generate) in shapes() {
        for exp in [4, 5] {
            let module = generate(10usize.pow(exp));
            let stmts: usize = module.functions.iter().map(|f| f.stmt_count()).sum();
            // An odd number of runs, more for small programs.
            let runs = (2_000_000 / stmts.max(1)).clamp(5, 41) | 1;
            // One warm-up run of each, which also checks that they do the same work.
            let (_, dom_visits) = run_once(&module, &generated);
            let (_, hand_visits) = run_once(&module, &hand_written);
            assert_eq!(dom_visits, hand_visits, "{shape}: different block visits");
            let mut dom_times = Vec::with_capacity(runs);
            let mut hand_times = Vec::with_capacity(runs);
            for _ in 0..runs {
                dom_times.push(run_once(&module, &generated).0);
                hand_times.push(run_once(&module, &hand_written).0);
            }
            let dom_time = median(&mut dom_times);
            let hand_time = median(&mut hand_times);
            println!(
                "{shape:<14} {stmts:>9} {dom_visits:>9} {runs:>5} {:>12.3} {:>12.3} {:>6.2}x",
                dom_time.as_secs_f64() * 1e3,
                hand_time.as_secs_f64() * 1e3,
                dom_time.as_secs_f64() / hand_time.as_secs_f64()
            );
        }
    }
    println!("ratio: .dom time divided by hand-written time (median of the runs, interleaved)");
}
