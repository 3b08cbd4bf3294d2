//! absinthe's bench binary. `throughput` prints how many statements per second the worklist
//! solver analyzes on generated programs of 10³ to 10⁶ statements in three shapes, for constant
//! propagation and intervals, and how the time grows from one size to the next. `sparse` compares
//! the dense, sparse and sparse+temporal states on the same sizes and three shapes with many
//! names: time, peak bytes held by the analysis (a counting allocator), transfer evaluations.
//! `dom` compares constant propagation and intervals declared in `.dom` files with the
//! hand-written ones on the same programs. `interp` compares the interpreter of `.dom` files
//! (`absinthe analyze --dom`'s default mode) with the code generated from the same files.
//! `behavior` times building the behavior graph of kernel programs of 10³ to 10⁶ terms and
//! tracing tasks over it. `typing-join` shows that joining typing environments costs what the
//! branches changed, not the environment's size. `viewer` records a trace viewer page for a
//! function of 10⁴ blocks and prints its size. `escape` runs the escape and alias analysis on
//! programs of 10³ to 10⁶ statements with many objects (many functions, or one growing
//! function) and prints time, peak bytes and forwarded loads. `relational` times the closure,
//! one incrementally closed constraint and the join of octagons and zones of 8 to 128 variables.

mod alloc;
mod behavior;
mod clock;
mod escape;
mod relational;
mod sparse;
mod typing;
mod viewer;

use clock::Clock;

use absinthe::engine::{Limits, solve};
use absinthe::lattice::{Flat, Interval};
use absinthe::value::{DeclaredAnalysis, NonRelational, ValueDomain};
use absinthe_dsl_examples::dom::const_prop::{ConstPropAnalysis, ConstValue};
use absinthe_dsl_examples::dom::interval::{IntervalAnalysis, Range};
use absinthe_ir::function::Module;
use std::time::{Duration, Instant};

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting::new();

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = args.first().map_or("throughput", String::as_str);
    let max_exp = args
        .iter()
        .position(|a| a == "--max-exp")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse::<u32>().ok())
        .unwrap_or(6);
    let names = args
        .iter()
        .position(|a| a == "--names")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse::<usize>().ok());
    let shape = args
        .iter()
        .position(|a| a == "--shape")
        .and_then(|i| args.get(i + 1))
        .map(String::as_str);
    let state = args
        .iter()
        .position(|a| a == "--state")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| absinthe::value::StateRepr::parse(v));
    match command {
        "throughput" => throughput(max_exp),
        "sparse" => sparse::run(max_exp, names, shape, state, &ALLOCATOR),
        "dom" => dom(),
        "interp" => interp(args.get(1).map(String::as_str)),
        "behavior" => behavior::run(max_exp),
        "typing-join" => typing::run(max_exp),
        "escape" => escape::run(max_exp, shape),
        "escape-size" => escape::one_size(
            args.get(1).map_or("", String::as_str),
            args.get(2).and_then(|n| n.parse().ok()).unwrap_or(1_000),
            &ALLOCATOR,
        ),
        "viewer" => viewer::run(args.get(1).map(String::as_str)),
        "relational" => relational::run(),
        other => {
            eprintln!(
                "unknown benchmark `{other}`; known: throughput [--max-exp N], \
                 sparse [--max-exp N] [--names N] [--shape NAME] [--state NAME], dom, \
                 interp [const|interval|signs|sccp], behavior [--max-exp N], typing-join [--max-exp N], \
                 escape [--max-exp N] [--shape NAME], viewer [DIR], relational"
            );
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

/// One run of `analysis` over every function of `module`: the time (this thread's CPU time where
/// the platform has it, see [`Clock`]) and the block visits.
fn run_once<D: ValueDomain>(module: &Module, analysis: &NonRelational<D>) -> (Duration, u64) {
    let limits = Limits::default();
    let start = Clock::start();
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

/// Analyses declared in `.dom` files against the same analyses written by hand, both run by
/// `NonRelational` with the `.dom` analysis's condition setting, on the throughput shapes at 10⁴
/// and 10⁵ statements: constant propagation (`dsl-examples/dom/const_prop.dom`, its product
/// `ConstValue`, against `Flat<i64>`) and intervals (`dsl-examples/dom/interval.dom`, its product
/// `Range`, against `Interval`). Runs alternate between the two so that both see the same
/// machine; each time is the median of its runs.
fn dom() {
    println!(
        "{:<9} {:<14} {:>9} {:>9} {:>5} {:>12} {:>12} {:>7}",
        "analysis", "shape", "stmts", "visits", "runs", ".dom (ms)", "hand (ms)", "ratio"
    );
    compare_dom::<ConstValue, Flat<i64>>(
        "const",
        <ConstPropAnalysis as DeclaredAnalysis>::spec().conditional,
        &[4, 5],
        &no_run,
    );
    compare_dom::<Range, Interval>(
        "interval",
        <IntervalAnalysis as DeclaredAnalysis>::spec().conditional,
        &[4, 5],
        &no_run,
    );
    println!(
        "times: median of the runs ({}); ratio: median over the runs of .dom time divided by the \
         hand-written time of the run next to it (the two alternate)",
        clock_name()
    );
}

fn clock_name() -> &'static str {
    if Clock::is_cpu_time() {
        "thread CPU time"
    } else {
        "wall clock"
    }
}

/// The interpreter of `.dom` files against the code generated from the same file, on the
/// throughput shapes at 10³ and 10⁴ statements: the products of `const_prop.dom`,
/// `interval.dom`, `signs.dom` (four components, reduced to a fixpoint) and `sccp_ranges.dom`;
/// `only` names one of them (to profile it alone).
fn interp(only: Option<&str>) {
    use absinthe_dom_interp::{DynValue, Interp, Running};
    use absinthe_dsl_examples::dom::{sccp_ranges::SccpRange, signs::Signals};
    type Compare = fn(&str, bool, &[u32], &dyn Fn() -> Option<Running>);
    let rows: [(&str, &str, &str, bool, Compare); 4] = [
        (
            "const",
            "const_prop.dom",
            "ConstValue",
            false,
            compare_dom::<DynValue, ConstValue>,
        ),
        (
            "interval",
            "interval.dom",
            "Range",
            true,
            compare_dom::<DynValue, Range>,
        ),
        (
            "signs",
            "signs.dom",
            "Signals",
            true,
            compare_dom::<DynValue, Signals>,
        ),
        (
            "sccp",
            "sccp_ranges.dom",
            "SccpRange",
            true,
            compare_dom::<DynValue, SccpRange>,
        ),
    ];
    if let Some(name) = only.filter(|n| !rows.iter().any(|r| r.0 == *n)) {
        eprintln!("unknown analysis `{name}`; known: const, interval, signs, sccp");
        std::process::exit(2);
    }
    println!(
        "{:<9} {:<14} {:>9} {:>9} {:>5} {:>12} {:>12} {:>7}",
        "analysis", "shape", "stmts", "visits", "runs", "interp (ms)", "compiled (ms)", "ratio"
    );
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../dsl-examples/dom/");
    for (name, file, product, conditional, compare) in rows {
        if only.is_some_and(|o| o != name) {
            continue;
        }
        let compiled =
            absinthe_domc::check_file(std::path::Path::new(&format!("{examples}{file}")))
                .unwrap_or_else(|f| panic!("{f}"));
        let interp = std::sync::Arc::new(Interp::new(&compiled).unwrap_or_else(|f| panic!("{f}")));
        // Each run of the interpreted analysis is a run of its own, as each `absinthe analyze`
        // is: what the interpreter remembers within a run (literals, reduced values) starts
        // afresh every time.
        let run = || {
            let running = Running::enter_domain(interp.clone(), product)
                .unwrap_or_else(|| panic!("{file} has no `{product}`"));
            Some(running)
        };
        compare(name, conditional, &[3, 4], &run);
    }
    println!(
        "times: median of the runs ({}); ratio: median over the runs of the interpreted time \
         divided by the compiled time of the run next to it (the two alternate)",
        clock_name()
    );
}

/// Starts nothing: the domains `dom` compares are compiled, they need no running file.
fn no_run() -> Option<absinthe_dom_interp::Running> {
    None
}

/// One line per shape and size: the `.dom` domain `G` against the hand-written `H`. `run`
/// starts what each run of `G` runs in (the interpreted file's run, ended after it), if
/// anything.
fn compare_dom<G: ValueDomain, H: ValueDomain>(
    name: &str,
    conditional: bool,
    exps: &[u32],
    run: &dyn Fn() -> Option<absinthe_dom_interp::Running>,
) {
    let generated = NonRelational::<G>::new(conditional);
    let hand_written = NonRelational::<H>::new(conditional);
    for (shape, generate) in shapes() {
        for &exp in exps {
            let module = generate(10usize.pow(exp));
            let stmts: usize = module.functions.iter().map(|f| f.stmt_count()).sum();
            // An odd number of runs, more for small programs.
            let runs = (2_000_000 / stmts.max(1)).clamp(5, 41) | 1;
            // One warm-up run of each, which also checks that they do the same work.
            let running = run();
            let (_, dom_visits) = run_once(&module, &generated);
            drop(running);
            let (_, hand_visits) = run_once(&module, &hand_written);
            assert_eq!(dom_visits, hand_visits, "{shape}: different block visits");
            let mut dom_times = Vec::with_capacity(runs);
            let mut hand_times = Vec::with_capacity(runs);
            let mut ratios = Vec::with_capacity(runs);
            for i in 0..runs {
                // Alternate which goes first, so that neither always runs on a warmer machine.
                let running = run();
                let (dom, hand) = if i % 2 == 0 {
                    let dom = run_once(&module, &generated).0;
                    (dom, run_once(&module, &hand_written).0)
                } else {
                    let hand = run_once(&module, &hand_written).0;
                    (run_once(&module, &generated).0, hand)
                };
                drop(running);
                dom_times.push(dom);
                hand_times.push(hand);
                ratios.push(dom.as_secs_f64() / hand.as_secs_f64().max(1e-12));
            }
            let dom_time = median(&mut dom_times);
            let hand_time = median(&mut hand_times);
            ratios.sort_by(f64::total_cmp);
            println!(
                "{name:<9} {shape:<14} {stmts:>9} {dom_visits:>9} {runs:>5} {:>12.3} {:>12.3} {:>6.2}x",
                dom_time.as_secs_f64() * 1e3,
                hand_time.as_secs_f64() * 1e3,
                ratios[ratios.len() / 2]
            );
        }
    }
}
