//! `behavior`: phase I (building the behavior graph) on generated kernel programs of 10³ to 10⁶
//! terms, and phase II (each task traced over the built graph), with the time per term and its
//! growth per tenfold size.

use crate::clock::Clock;
use absinthe::lattice::{Flat, Interval};
use absinthe::terms::Terms;
use absinthe_behavior::{BehaviorGraph, DomainTask, Task, run_task};
use absinthe_dsl_examples::dom::types::Types;
use std::fmt::Write as _;
use std::time::Duration;

/// A letrec of `k` functions, each taking a fuel, an integer and a function: it either applies
/// the function (an α constraint) or calls the next function with a fresh abstraction, so that
/// every function's parameter receives abstractions from its caller.
fn program(k: usize) -> Terms {
    let mut text = String::from("(letrec (");
    for j in 0..k {
        let next = (j * 7 + 1) % k;
        let _ = writeln!(
            text,
            "(f{j} (lambda (fuel{j} a{j} g{j}) (cond (< fuel{j} 1) (g{j} a{j}) \
             (f{next} (- fuel{j} 1) (+ a{j} {}) (lambda (y{j}) (* y{j} 2))))))",
            j % 7
        );
    }
    text.push_str(") (f0 3 0 (lambda (z) z)))\n");
    match absinthe_ir::kernel::parse_terms("bench.kt", &text) {
        Ok(terms) => terms,
        Err(errors) => panic!("the benchmark program does not parse: {errors:?}"),
    }
}

fn time<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let clock = Clock::start();
    let out = f();
    (out, clock.elapsed())
}

fn task_time<T: Task>(terms: &Terms, graph: &BehaviorGraph, task: &T) -> Duration {
    time(|| run_task(terms, graph, task)).1
}

/// Prints the table.
pub fn run(max_exp: u32) {
    println!(
        "{:>9} {:>9} {:>9} {:>11} {:>9} {:>10} {:>10} {:>10} {:>10}",
        "terms", "arcs", "α", "build ms", "ns/term", "growth", "types ms", "const ms", "intvl ms"
    );
    let mut previous: Option<Duration> = None;
    for exp in 3..=max_exp.min(6) {
        let target = 10usize.pow(exp);
        // Each function is 25 terms.
        let terms = program((target / 25).max(1));
        let n = terms.terms.len();
        let (graph, build) = time(|| BehaviorGraph::build(&terms));
        let types = task_time(&terms, &graph, &DomainTask::<Types>::new());
        let constants = task_time(&terms, &graph, &DomainTask::<Flat<i64>>::new());
        let intervals = task_time(&terms, &graph, &DomainTask::<Interval>::new());
        let growth = previous.map_or_else(
            || "-".to_owned(),
            |p| format!("{:.1}x", build.as_secs_f64() / p.as_secs_f64().max(1e-9)),
        );
        previous = Some(build);
        println!(
            "{:>9} {:>9} {:>9} {:>11.2} {:>9.0} {:>10} {:>10.2} {:>10.2} {:>10.2}",
            n,
            graph.stats.arcs,
            graph.stats.alpha_constraints,
            build.as_secs_f64() * 1e3,
            build.as_secs_f64() * 1e9 / n as f64,
            growth,
            types.as_secs_f64() * 1e3,
            constants.as_secs_f64() * 1e3,
            intervals.as_secs_f64() * 1e3,
        );
    }
}
