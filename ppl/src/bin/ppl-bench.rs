//! `ppl-bench`: absinthe's octagons and zones timed beside PPL's `Octagonal_Shape<mpz_class>`
//! and `BD_Shape<mpz_class>` on the same states, at 8, 32 and 128 variables in one pack: the
//! closure of a state built from its constraints (absinthe's added one at a time, then at
//! once), a meet (a closure from scratch), one added constraint and its closure, a join, and the
//! copy PPL's in-place operations start from. Run it in a release build: `cargo run --release
//! -p absinthe-ppl --features ppl --bin ppl-bench`.

use absinthe::relational::{Constraint as Bound, Octagon, Zone};
use absinthe_ppl::{Constraint, Domain, Form, Ppl, PplOctagon, PplZone, Rng, Shape};
use std::hint::black_box;
use std::time::Duration;

/// The thread's CPU time, so that other processes on a shared machine do not count.
mod clock {
    #![expect(
        unsafe_code,
        reason = "reading the thread's CPU clock is a call to `clock_gettime` through libc"
    )]

    use std::time::Duration;

    /// The CPU time this thread has used.
    pub fn now() -> Duration {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `clock_gettime` writes one `timespec` through a pointer to a valid local.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        assert_eq!(rc, 0, "the thread's CPU clock is readable");
        Duration::new(ts.tv_sec.unsigned_abs(), ts.tv_nsec.unsigned_abs() as u32)
    }
}

/// The constraints of a state over `n` variables, as the workspace's relational benchmark draws
/// them: each variable within about ±100 to ±250, then relations loose enough to keep a point
/// (`n` of `x - y`, `x + y`, `-x - y` for an octagon, `2n` differences for a zone).
fn constraints(n: usize, octagon: bool, rng: &mut Rng) -> Vec<(Form, i64)> {
    let mut bound = || rng.within(-50, 149);
    let mut cs = Vec::new();
    for x in 0..n {
        cs.push((Form::Var { neg: true, x }, 100 + bound().abs()));
        cs.push((Form::Var { neg: false, x }, 100 + bound().abs()));
    }
    let relations = if octagon { n } else { 2 * n };
    for _ in 0..relations {
        let (x, y) = (rng.below(n), rng.below(n));
        let (x, y) = if x == y { (x, (x + 1) % n) } else { (x, y) };
        let kind = if octagon { rng.below(3) } else { 0 };
        let c = rng.within(-50, 149);
        let (neg_x, neg_y, c) = match kind {
            0 => (false, true, 60 + c),
            1 => (false, false, 150 + c),
            _ => (true, true, 150 + c),
        };
        cs.push((Form::Pair { neg_x, x, neg_y, y }, c));
    }
    cs
}

/// A domain that adds many constraints and closes once.
trait AtOnce: Domain {
    fn add_constraints(&mut self, cs: &[Bound]);
}

impl AtOnce for Octagon {
    fn add_constraints(&mut self, cs: &[Bound]) {
        Octagon::add_constraints(self, cs);
    }
}

impl AtOnce for Zone {
    fn add_constraints(&mut self, cs: &[Bound]) {
        Zone::add_constraints(self, cs);
    }
}

/// `form ≤ c` as absinthe's constraint.
fn bound(form: Form, c: i64) -> Bound {
    let c128 = i128::from(c);
    match form {
        Form::Var { neg: false, x } => Bound::Upper(x, c128),
        Form::Var { neg: true, x } => Bound::Lower(x, -c128),
        Form::Pair { neg_x, x, neg_y, y } => match (neg_x, neg_y) {
            (false, true) => Bound::Difference(x, y, c128),
            (true, false) => Bound::Difference(y, x, c128),
            (false, false) => Bound::Sum(x, y, c128),
            (true, true) => Bound::NegSum(x, y, c128),
        },
    }
}

/// The least CPU time per call of `f` over 5 rounds of calls that take about 20 ms each.
fn per_call(mut f: impl FnMut()) -> Duration {
    let start = clock::now();
    f();
    let once = (clock::now() - start).max(Duration::from_nanos(50));
    let calls = (Duration::from_millis(20).as_nanos() / once.as_nanos()).clamp(1, 1_000_000) as u32;
    let mut best = Duration::MAX;
    for _ in 0..5 {
        let start = clock::now();
        for _ in 0..calls {
            f();
        }
        best = best.min((clock::now() - start) / calls);
    }
    best
}

/// One line of the table.
fn row(domain: &str, n: usize, operation: &str, ours: Duration, theirs: Duration) {
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!(
        "| {domain:<7} | {n:>3} | {operation:<22} | {:>12.2} | {:>12.2} | {:>8.1} |",
        us(ours),
        us(theirs),
        theirs.as_secs_f64() / ours.as_secs_f64()
    );
}

/// Times one domain at `n` variables on the states drawn from `seed`.
fn measure<'p, D: AtOnce, S: Shape<'p>>(ppl: &'p Ppl, n: usize, seed: u64) {
    let octagon = D::NAME == "octagon";
    let mut rng = Rng::new(seed);
    let (ca, cb) = (
        constraints(n, octagon, &mut rng),
        constraints(n, octagon, &mut rng),
    );
    let ppl_constraints = |cs: &[(Form, i64)]| -> Vec<Constraint<'p>> {
        cs.iter()
            .map(|&(form, c)| Constraint::at_most(ppl, n, &form.terms(), c))
            .collect()
    };
    let (pa_cs, pb_cs) = (ppl_constraints(&ca), ppl_constraints(&cb));
    let build = |cs: &[(Form, i64)]| {
        let mut d = D::top();
        for &(form, c) in cs {
            d.guard(form, c);
        }
        d
    };
    let build_ppl = |cs: &[Constraint<'p>]| {
        let mut s = S::universe(ppl, n);
        for c in cs {
            s.add(c);
        }
        // A query closes the shape: strong closure for an octagon, shortest paths for a zone.
        assert!(!s.is_empty(), "the benchmark's states are not empty");
        s
    };
    let (a, b) = (build(&ca), build(&cb));
    let bounds: Vec<Bound> = ca.iter().map(|&(form, c)| bound(form, c)).collect();
    let at_once = || {
        let mut d = D::top();
        d.add_constraints(&bounds);
        d
    };
    assert!(
        at_once() == a,
        "adding the constraints at once gives the same state"
    );
    let (pa, pb) = (build_ppl(&pa_cs), build_ppl(&pb_cs));
    assert!(!a.is_bottom() && !b.is_bottom() && !a.meet(&b).is_bottom());
    // The added constraint: `x - y ≤ 1` for two different variables.
    let (x, y) = (rng.below(n), rng.below(n));
    let (x, y) = if x == y { (x, (x + 1) % n) } else { (x, y) };
    let added = Form::difference(x, y);
    let added_ppl = Constraint::at_most(ppl, n, &added.terms(), 1);

    let name = D::NAME;
    row(
        name,
        n,
        "closure of a new state",
        per_call(|| {
            black_box(build(&ca));
        }),
        per_call(|| {
            black_box(build_ppl(&pa_cs));
        }),
    );
    row(
        name,
        n,
        "new state, closed once",
        per_call(|| {
            black_box(at_once());
        }),
        per_call(|| {
            black_box(build_ppl(&pa_cs));
        }),
    );
    row(
        name,
        n,
        "meet (full closure)",
        per_call(|| {
            black_box(a.meet(&b));
        }),
        per_call(|| {
            let mut s = pa.clone();
            s.meet_assign(&pb);
            black_box(s.is_empty());
        }),
    );
    row(
        name,
        n,
        "add x - y ≤ 1, closed",
        per_call(|| {
            let mut c = a.clone();
            c.guard(added, 1);
            black_box(c);
        }),
        per_call(|| {
            let mut s = pa.clone();
            s.add(&added_ppl);
            black_box(s.is_empty());
        }),
    );
    row(
        name,
        n,
        "join",
        per_call(|| {
            black_box(a.join(&b));
        }),
        per_call(|| {
            let mut s = pa.clone();
            s.join_assign(&pb);
            black_box(s);
        }),
    );
    row(
        name,
        n,
        "copy",
        per_call(|| {
            black_box(a.clone());
        }),
        per_call(|| {
            black_box(pa.clone());
        }),
    );
}

fn main() {
    let ppl = Ppl::lock();
    println!(
        "absinthe against PPL ({} and {}), µs of thread CPU time per operation, the best of 5 \
         rounds; PPL's meet, add and join include the copy its in-place operations start from \
         (the last row):",
        PplOctagon::NAME,
        PplZone::NAME
    );
    println!();
    println!(
        "| domain  |   n | operation              | absinthe µs  |       PPL µs | PPL/absinthe |"
    );
    println!("|---------|----:|------------------------|-------------:|-------------:|---------:|");
    for n in [8usize, 32, 128] {
        measure::<Octagon, PplOctagon<'_>>(&ppl, n, n as u64);
        measure::<Zone, PplZone<'_>>(&ppl, n, n as u64 + 1);
    }
}
