//! `relational`: the cost of the relational domains' operations at 8, 32 and 128 variables in
//! one pack — the closure from scratch (a meet), one added constraint closed incrementally, a
//! join — for octagons and zones, on states of about three random constraints per variable;
//! then whole analyses of functions of 10⁴ names, intervals with a packed octagon or zone
//! (packs of at most 8 names) against intervals alone.

use crate::clock::Clock;
use absinthe::engine::{Limits, StopReason, solve};
use absinthe::lattice::{Interval, Lattice};
use absinthe::relational::{IntervalBounds, Octagon, Partition, Relational, WithRelation, Zone};
use absinthe::value::NonRelational;
use absinthe_ir::function::Function;
use absinthe_ir::generate::{Rng, wide_diamonds, wide_nested_loops, wide_straight_line};
use std::time::Duration;

/// A bound between -50 and 149 (the program generator's seeded generator, so that every run
/// measures the same states).
fn bound(rng: &mut Rng) -> i64 {
    rng.below(200) as i64 - 50
}

/// A consistent octagon over `n` variables: bounds around a point, and relations loose enough
/// to keep it.
fn octagon(n: usize, rng: &mut Rng) -> Octagon {
    let mut o = Octagon::top();
    for x in 0..n {
        o.add_lower(x, -100 - bound(rng).abs());
        o.add_upper(x, 100 + bound(rng).abs());
    }
    for _ in 0..n {
        let (x, y) = (rng.below(n), rng.below(n));
        match rng.below(3) {
            0 => o.add_difference(x, y, 60 + bound(rng)),
            1 => o.add_sum(x, y, 150 + bound(rng)),
            _ => o.add_neg_sum(x, y, 150 + bound(rng)),
        }
    }
    o
}

fn zone(n: usize, rng: &mut Rng) -> Zone {
    let mut z = Zone::top();
    for x in 0..n {
        z.add_lower(x, -100 - bound(rng).abs());
        z.add_upper(x, 100 + bound(rng).abs());
    }
    for _ in 0..2 * n {
        let (x, y) = (rng.below(n), rng.below(n));
        z.add_difference(x, y, 60 + bound(rng));
    }
    z
}

/// The least time per call of `f` over a few rounds of `calls` calls.
fn per_call(calls: u32, mut f: impl FnMut()) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..5 {
        let start = Clock::start();
        for _ in 0..calls {
            f();
        }
        best = best.min(start.elapsed() / calls);
    }
    best
}

fn micros(d: Duration) -> String {
    format!("{:>10.2}", d.as_secs_f64() * 1e6)
}

/// Prints the table.
pub fn run() {
    println!(
        "relational domains, µs per operation ({}), one pack of n variables:",
        if Clock::is_cpu_time() {
            "thread CPU time"
        } else {
            "wall clock"
        }
    );
    println!(
        "{:>6} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "n", "oct meet", "oct add", "oct join", "zone meet", "zone add", "zone join"
    );
    for n in [8usize, 32, 128] {
        let mut rng = Rng::new(n as u64);
        let (a, b) = (octagon(n, &mut rng), octagon(n, &mut rng));
        let (za, zb) = (zone(n, &mut rng), zone(n, &mut rng));
        let calls = (200_000 / (n * n * n) as u32).max(3);
        let quick = (2_000_000 / (n * n) as u32).max(10);
        let (x, y) = (rng.below(n), rng.below(n));
        let oct_meet = per_call(calls, || {
            std::hint::black_box(a.meet(&b));
        });
        let oct_add = per_call(quick, || {
            let mut c = a.clone();
            c.add_difference(x, y, 1);
            std::hint::black_box(c);
        });
        let oct_join = per_call(quick, || {
            std::hint::black_box(a.join(&b));
        });
        let zone_meet = per_call(calls, || {
            std::hint::black_box(za.meet(&zb));
        });
        let zone_add = per_call(quick, || {
            let mut c = za.clone();
            c.add_difference(x, y, 1);
            std::hint::black_box(c);
        });
        let zone_join = per_call(quick, || {
            std::hint::black_box(za.join(&zb));
        });
        println!(
            "{n:>6} {} {} {} {} {} {}",
            micros(oct_meet),
            micros(oct_add),
            micros(oct_join),
            micros(zone_meet),
            micros(zone_add),
            micros(zone_join)
        );
    }
    functions();
}

/// The least time of a few runs of the analysis of `func`, which must reach a fixpoint.
fn analysis_time<A: absinthe::engine::Analysis<Function>>(
    func: &Function,
    analysis: &A,
) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let start = Clock::start();
        let solution = solve(func, analysis, &Limits::default());
        best = best.min(start.elapsed());
        assert_eq!(
            solution.stop,
            StopReason::Stable,
            "the analysis reaches a fixpoint"
        );
        std::hint::black_box(solution);
    }
    best
}

fn with_relation<R: Relational + Clone>(func: &Function) -> Duration {
    analysis_time(
        func,
        &WithRelation::<Interval, R, _>::new(true, PACK, IntervalBounds),
    )
}

/// The greatest pack.
const PACK: usize = 8;

/// Prints the whole-function table.
fn functions() {
    const NAMES: usize = 10_000;
    println!();
    println!(
        "functions of {NAMES} names and 2·{NAMES} statements, ms; intervals alone, then with a \
         packed octagon or zone (packs of at most {PACK} names):"
    );
    println!(
        "{:>14} {:>7} {:>9} {:>10} {:>10} {:>10} {:>8} {:>8}",
        "shape", "packs", "refused", "interval", "octagon", "zone", "oct ×", "zone ×"
    );
    let shapes: [(&str, Function); 3] = [
        (
            "straight-line",
            wide_straight_line(2 * NAMES, NAMES).functions.remove(0),
        ),
        (
            "nested-loops",
            wide_nested_loops(2 * NAMES, 3, NAMES).functions.remove(0),
        ),
        (
            "diamonds",
            wide_diamonds(2 * NAMES, NAMES).functions.remove(0),
        ),
    ];
    for (shape, func) in shapes {
        let partition = Partition::of_program(&func, PACK);
        let related = partition.packs().iter().filter(|p| p.len() > 1).count();
        let interval = analysis_time(&func, &NonRelational::<Interval>::new(true));
        let octagon = with_relation::<Octagon>(&func);
        let zone = with_relation::<Zone>(&func);
        let ms = |d: Duration| format!("{:>10.1}", d.as_secs_f64() * 1e3);
        let ratio = |d: Duration| d.as_secs_f64() / interval.as_secs_f64();
        println!(
            "{shape:>14} {related:>7} {:>9} {} {} {} {:>8.2} {:>8.2}",
            partition.refused(),
            ms(interval),
            ms(octagon),
            ms(zone),
            ratio(octagon),
            ratio(zone)
        );
    }
    println!("(packs: those of two names or more; refused: relations the size limit kept apart)");
}
