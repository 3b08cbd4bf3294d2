//! `relational`: the cost of the relational domains' operations at 8, 32 and 128 variables in
//! one pack — the closure from scratch (a meet), one added constraint closed incrementally, a
//! join — for octagons and zones, on states of about three random constraints per variable.

use crate::clock::Clock;
use absinthe::lattice::Lattice;
use absinthe::relational::{Octagon, Zone};
use absinthe_ir::generate::Rng;
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
}
