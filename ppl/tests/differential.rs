//! absinthe's octagons and zones against PPL's `Octagonal_Shape<mpz_class>` and
//! `BD_Shape<mpz_class>`: random sequences of guards, joins, meets, forgets and assignments on
//! three states, run on both, then every unary and binary form the domain keeps (`±x`, `±x ± y`
//! for octagons, `±x` and `x - y` for zones) bounded by each, and the bounds compared, with
//! emptiness.
//!
//! A bound agrees when it is PPL's or, where PPL's is a fraction, its floor (absinthe's
//! variables are integers, PPL's rationals); absinthe's bound counts as unbounded when only the
//! 64-bit box gives it (past 2⁶⁰: every finite bound here is far smaller). A bound of absinthe's
//! below that, or an absinthe state empty where PPL's is not, is a difference that is kept when
//! absinthe is sound: the sequence is run again on concrete integer points (every point of a box
//! around zero, at most about 10,000 of them) and none of the points must be lost. Anything else
//! (a bound of absinthe's above PPL's, one side unbounded, PPL empty alone) fails the test with
//! the seed and the sequence that reproduce it (`PPL_DIFFERENTIAL_SEED=seed` runs that sequence
//! alone).
//!
//! The differences are the octagons' integer tightening. From `-x0 - x1 ≤ -4` and
//! `x0 - x1 ≤ 1`, PPL's rational octagon keeps `2·x1 ≥ 3` and its `maximize` rounds the bound out
//! in its integer coefficients, `x1 ≥ 1`; absinthe's tight closure keeps `x1 ≥ 2`, the bound of
//! the integer points, and strengthens the relations through it (`x0 ≥ …`). Tighter bounds then
//! carry through joins and assignments. Zones have none: their closure is exact on integers.
//!
//! Constants stay small (guards within [-6, 20], assignments' within [-5, 5], at most 16
//! operations after some bounds within ±20), so no bound comes near 64 bits: absinthe's
//! arithmetic never wraps, and an assignment `x := ±y + c` that could (`y` unbounded on the side
//! it would wrap, which absinthe's 64-bit semantics turn into an interval) is generated as
//! `x := y`. Guards name two different variables: PPL rounds `x + x ≤ c` to `x ≤ ⌈c/2⌉` as it
//! adds it. Widening is left out: PPL's widenings (for octagons BHMZ05's, on the non-redundant
//! constraints; for zones H79's, the polyhedra's) and absinthe's (Miné's, entry by entry on the
//! matrices) are different operators by design, whose results differ without either being
//! wrong.
#![cfg(feature = "ppl")]

use absinthe::relational::{Constraint, Octagon, Relational, Zone};
use absinthe_ppl::{Domain, Form, Linear, Ppl, PplOctagon, PplZone, Rng, Shape};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

/// Sequences per domain.
const SEQUENCES: u64 = 10_000;
/// States each sequence works on (joins and meets combine two).
const REGISTERS: usize = 3;
/// A bound from here on comes from the 64-bit box only.
const UNBOUNDED: i128 = 1 << 60;

/// One operation on register `r`.
#[derive(Clone, Copy, Debug)]
enum Op {
    /// `form ≤ c`.
    Guard {
        r: usize,
        form: Form,
        c: i64,
    },
    /// `r := r ⊔ from`.
    Join {
        r: usize,
        from: usize,
    },
    /// `r := r ⊓ from`.
    Meet {
        r: usize,
        from: usize,
    },
    Forget {
        r: usize,
        x: usize,
    },
    /// `x := ±y + c`.
    Assign {
        r: usize,
        x: usize,
        negated: bool,
        y: usize,
        c: i64,
    },
    /// `x := c`.
    Constant {
        r: usize,
        x: usize,
        c: i64,
    },
}

/// How absinthe bounds a form: its public accessors, where it has them.
trait Bounded: Domain + std::fmt::Display {
    /// The upper bounds of `forms` (past [`UNBOUNDED`] when only 64 bits bound them), the
    /// state not bottom.
    fn uppers(&self, forms: &[Form]) -> Vec<i128>;

    /// Whether the domain has `x := -y + c`.
    const NEGATION: bool;
}

/// The upper and the negated lower bound of `x`.
fn unary<D: Domain>(d: &D, x: usize) -> (i128, i128) {
    let (lo, hi) = d
        .bounds(x)
        .bounds()
        .expect("a state that is not bottom bounds every variable");
    (i128::from(hi), -i128::from(lo))
}

impl Bounded for Octagon {
    const NEGATION: bool = true;

    fn uppers(&self, forms: &[Form]) -> Vec<i128> {
        // The octagon has accessors for bounds and differences but none for sums: those are
        // read from its canonical constraints, which leave out a sum no tighter than the
        // variables' bounds give.
        let mut sums: HashMap<(bool, usize, usize), i128> = HashMap::new();
        for c in Relational::constraints(self) {
            match c {
                Constraint::Sum(x, y, c) => sums.insert((false, x.min(y), x.max(y)), c),
                Constraint::NegSum(x, y, c) => sums.insert((true, x.min(y), x.max(y)), c),
                _ => None,
            };
        }
        forms
            .iter()
            .map(|&form| match form {
                Form::Var { neg, x } => {
                    let (hi, neg_lo) = unary(self, x);
                    if neg { neg_lo } else { hi }
                }
                Form::Pair { neg_x, x, neg_y, y } if neg_x != neg_y => {
                    let (x, y) = if neg_x { (y, x) } else { (x, y) };
                    self.difference(x, y).1.unwrap_or(i128::MAX)
                }
                Form::Pair { neg_x, x, y, .. } => {
                    let (hx, nlx) = unary(self, x);
                    let (hy, nly) = unary(self, y);
                    let from_bounds = if neg_x { nlx + nly } else { hx + hy };
                    let key = (neg_x, x.min(y), x.max(y));
                    sums.get(&key).map_or(from_bounds, |&c| c.min(from_bounds))
                }
            })
            .collect()
    }
}

impl Bounded for Zone {
    const NEGATION: bool = false;

    fn uppers(&self, forms: &[Form]) -> Vec<i128> {
        forms
            .iter()
            .map(|&form| match form {
                Form::Var { neg, x } => {
                    let (hi, neg_lo) = unary(self, x);
                    if neg { neg_lo } else { hi }
                }
                Form::Pair {
                    neg_x, x, neg_y, y, ..
                } => {
                    assert!(neg_x != neg_y, "a zone bounds only differences");
                    let (x, y) = if neg_x { (y, x) } else { (x, y) };
                    self.difference(x, y).1.unwrap_or(i128::MAX)
                }
            })
            .collect()
    }
}

/// A random guard form over `n` variables the domain keeps, of one variable or two different
/// ones (`x + x ≤ c` is left out: PPL's octagon rounds `2x ≤ c` up to `x ≤ ⌈c/2⌉` as it adds it).
fn guard_form<D: Bounded>(rng: &mut Rng, n: usize) -> Form {
    let x = rng.below(n);
    if n == 1 || rng.below(5) < 2 {
        return Form::Var { neg: rng.coin(), x };
    }
    let y = (x + 1 + rng.below(n - 1)) % n;
    let neg_x = rng.coin();
    let neg_y = if D::NEGATION { rng.coin() } else { !neg_x };
    Form::Pair { neg_x, x, neg_y, y }
}

/// The next operation, given absinthe's states (an assignment that could wrap becomes
/// `x := y`).
fn op<D: Bounded>(rng: &mut Rng, n: usize, states: &[D]) -> Op {
    let r = rng.below(REGISTERS);
    let other = (r + 1 + rng.below(REGISTERS - 1)) % REGISTERS;
    match rng.below(100) {
        0..45 => Op::Guard {
            r,
            form: guard_form::<D>(rng, n),
            c: rng.within(-6, 20),
        },
        45..57 => Op::Join { r, from: other },
        57..65 => Op::Meet { r, from: other },
        65..73 => Op::Forget { r, x: rng.below(n) },
        73..90 => {
            let (x, y) = (rng.below(n), rng.below(n));
            let negated = D::NEGATION && rng.coin();
            let c = rng.within(-5, 5);
            let wraps = states[r].bounds(y).bounds().is_some_and(|(lo, hi)| {
                let (lo, hi) = if negated {
                    (-i128::from(hi), -i128::from(lo))
                } else {
                    (i128::from(lo), i128::from(hi))
                };
                i64::try_from(lo + i128::from(c)).is_err()
                    || i64::try_from(hi + i128::from(c)).is_err()
            });
            if wraps {
                Op::Assign {
                    r,
                    x,
                    negated: false,
                    y,
                    c: 0,
                }
            } else {
                Op::Assign {
                    r,
                    x,
                    negated,
                    y,
                    c,
                }
            }
        }
        _ => Op::Constant {
            r,
            x: rng.below(n),
            c: rng.within(-20, 20),
        },
    }
}

/// Runs `op` on absinthe's states `a` and PPL's `p`.
fn apply<'p, D: Bounded, S: Shape<'p>>(ppl: &'p Ppl, n: usize, a: &mut [D], p: &mut [S], op: Op) {
    match op {
        Op::Guard { r, form, c } => {
            a[r].guard(form, c);
            p[r].add(&absinthe_ppl::Constraint::at_most(ppl, n, &form.terms(), c));
        }
        Op::Join { r, from } => {
            a[r] = a[r].join(&a[from]);
            let other = p[from].clone();
            p[r].join_assign(&other);
        }
        Op::Meet { r, from } => {
            a[r] = a[r].meet(&a[from]);
            let other = p[from].clone();
            p[r].meet_assign(&other);
        }
        Op::Forget { r, x } => {
            a[r].forget(x);
            p[r].unconstrain(x);
        }
        Op::Assign {
            r,
            x,
            negated,
            y,
            c,
        } => {
            a[r].assign_var(x, negated, y, c);
            let sign = if negated { -1 } else { 1 };
            p[r].affine_image(x, &Linear::new(ppl, n, &[(sign, y)], c));
        }
        Op::Constant { r, x, c } => {
            a[r].assign_constant(x, c);
            p[r].affine_image(x, &Linear::new(ppl, n, &[], c));
        }
    }
}

/// What the comparisons found.
#[derive(Debug, Default)]
struct Counts {
    sequences: u64,
    /// Register states compared at the ends of the sequences.
    states: u64,
    /// Empty on both sides.
    empty_both: u64,
    /// absinthe empty, PPL's shape not (absinthe tighter).
    empty_tighter: u64,
    /// Bounds compared (the forms of the states not empty on either side).
    bounds: u64,
    /// The same integer bound.
    equal: u64,
    /// PPL's bound is a fraction whose floor is absinthe's.
    floor_equal: u64,
    /// Unbounded on both sides.
    unbounded: u64,
    /// absinthe's bound below the floor of PPL's.
    tighter: u64,
    /// Of the tighter bounds and emptiness, those checked on the concrete points of their
    /// sequence, none lost (all of them).
    checked_on_points: u64,
    /// Everything else, with the reports.
    wrong: Vec<String>,
}

/// A bound of absinthe's tighter than PPL's: the register, the form (`None` for emptiness)
/// and absinthe's bound.
type Tighter = (usize, Option<Form>, i128);

/// Compares register `r`'s states, absinthe's `a` and PPL's `p`. What is looser in absinthe
/// goes to `counts.wrong` with `report`; what is tighter is returned.
fn compare<'p, D: Bounded, S: Shape<'p>>(
    ppl: &'p Ppl,
    (r, a, p): (usize, &D, &S),
    forms: &[Form],
    counts: &mut Counts,
    report: &dyn Fn(&str) -> String,
) -> Vec<Tighter> {
    counts.states += 1;
    match (a.is_bottom(), p.is_empty()) {
        (true, true) => {
            counts.empty_both += 1;
            return Vec::new();
        }
        (true, false) => {
            counts.empty_tighter += 1;
            return vec![(r, None, 0)];
        }
        (false, true) => {
            counts
                .wrong
                .push(report("PPL's shape is empty, absinthe's is not"));
            return Vec::new();
        }
        (false, false) => {}
    }
    let n = p.dim();
    let mut tighter = Vec::new();
    for (&form, &u) in forms.iter().zip(&a.uppers(forms)) {
        counts.bounds += 1;
        let sup = p.maximize(&Linear::new(ppl, n, &form.terms(), 0));
        match (u >= UNBOUNDED, sup) {
            (true, None) => counts.unbounded += 1,
            (false, Some(q)) if q.den == 1 && i128::from(q.num) == u => counts.equal += 1,
            (false, Some(q)) if i128::from(q.floor()) == u => counts.floor_equal += 1,
            (false, Some(q)) if u < i128::from(q.floor()) => {
                counts.tighter += 1;
                tighter.push((r, Some(form), u));
            }
            (_, q) => {
                let ours = if u >= UNBOUNDED {
                    "unbounded".to_owned()
                } else {
                    u.to_string()
                };
                let theirs = q.map_or("unbounded".to_owned(), |q| q.to_string());
                counts.wrong.push(report(&format!(
                    "{form} ≤ {ours} in absinthe, ≤ {theirs} in PPL"
                )));
            }
        }
    }
    tighter
}

/// A concrete state: the values of the variables (those past the dimension 0).
type Point = [i64; 8];

/// The value of `form` at `p`.
fn value(p: &Point, form: Form) -> i128 {
    form.terms()
        .iter()
        .map(|&(a, x)| i128::from(a) * i128::from(p[x]))
        .sum()
}

/// The half-width of the box of concrete points a sequence over `n` variables starts from:
/// at most 20, and at most about 10,000 points.
fn half_width(n: usize) -> i64 {
    (1..=20)
        .take_while(|b| (2 * b + 1u64).pow(n as u32) <= 10_000)
        .last()
        .unwrap_or(1) as i64
}

/// The concrete states of the registers after `ops`, starting from every integer point of the
/// box `[-b, b]ⁿ`, `b = half_width(n)` (a forgotten variable takes every value of the box):
/// points that are all concrete states of the sequence, so each state of absinthe must keep
/// them.
fn concrete(n: usize, ops: &[Op]) -> Vec<HashSet<Point>> {
    let b = half_width(n);
    let mut top = vec![[0; 8]];
    for x in 0..n {
        top = top
            .into_iter()
            .flat_map(|p| {
                (-b..=b).map(move |v| {
                    let mut q = p;
                    q[x] = v;
                    q
                })
            })
            .collect();
    }
    let top: HashSet<Point> = top.into_iter().collect();
    let mut regs = vec![top; REGISTERS];
    let map =
        |set: &HashSet<Point>, f: &dyn Fn(Point) -> Point| set.iter().map(|&p| f(p)).collect();
    for &op in ops {
        match op {
            Op::Guard { r, form, c } => regs[r].retain(|p| value(p, form) <= i128::from(c)),
            Op::Join { r, from } => {
                let other = regs[from].clone();
                regs[r].extend(other);
            }
            Op::Meet { r, from } => {
                let other = std::mem::take(&mut regs[from]);
                regs[r].retain(|p| other.contains(p));
                regs[from] = other;
            }
            Op::Forget { r, x } => {
                regs[r] = regs[r]
                    .iter()
                    .flat_map(|&p| {
                        (-b..=b).map(move |v| {
                            let mut q = p;
                            q[x] = v;
                            q
                        })
                    })
                    .collect();
            }
            Op::Assign {
                r,
                x,
                negated,
                y,
                c,
            } => {
                regs[r] = map(&regs[r], &|mut q| {
                    q[x] = if negated { -q[y] } else { q[y] } + c;
                    q
                });
            }
            Op::Constant { r, x, c } => {
                regs[r] = map(&regs[r], &|mut q| {
                    q[x] = c;
                    q
                });
            }
        }
    }
    regs
}

/// Runs the sequences on `D` and `S`.
fn differential<'p, D: Bounded, S: Shape<'p>>(ppl: &'p Ppl) -> Counts {
    let only: Option<u64> = std::env::var("PPL_DIFFERENTIAL_SEED")
        .ok()
        .map(|s| s.parse().expect("PPL_DIFFERENTIAL_SEED is a number"));
    let mut counts = Counts::default();
    let seeds: Vec<u64> = match only {
        Some(seed) => vec![seed],
        None => (0..SEQUENCES).map(|i| 0x0c7a_9e00 + i).collect(),
    };
    for seed in seeds {
        counts.sequences += 1;
        let mut rng = Rng::new(seed);
        let n = 1 + rng.below(8);
        let len = 1 + rng.below(16);
        let mut a: Vec<D> = (0..REGISTERS).map(|_| D::top()).collect();
        let mut p: Vec<S> = (0..REGISTERS).map(|_| S::universe(ppl, n)).collect();
        // Each register starts with some of its variables bounded on some side, so that not
        // every form is unbounded.
        let mut ops = Vec::new();
        for r in 0..REGISTERS {
            for x in 0..n {
                for neg in [false, true] {
                    if rng.coin() {
                        let op = Op::Guard {
                            r,
                            form: Form::Var { neg, x },
                            c: rng.within(0, 20),
                        };
                        ops.push(op);
                        apply(ppl, n, &mut a, &mut p, op);
                    }
                }
            }
        }
        for _ in 0..len {
            let op = op(&mut rng, n, &a);
            ops.push(op);
            apply(ppl, n, &mut a, &mut p, op);
        }
        let forms = D::forms(n);
        let mut tighter = Vec::new();
        for r in 0..REGISTERS {
            let report = |what: &str| {
                let mut text = format!(
                    "{} against {}, seed {seed} (PPL_DIFFERENTIAL_SEED={seed}), {n} variables, \
                     register {r}: {what}\n  absinthe: {}\n  operations:\n",
                    D::NAME,
                    S::NAME,
                    a[r]
                );
                for op in &ops {
                    let _ = writeln!(text, "    {op:?}");
                }
                text
            };
            tighter.extend(compare(
                ppl,
                (r, &a[r], &p[r]),
                &forms,
                &mut counts,
                &report,
            ));
        }
        if tighter.is_empty() {
            continue;
        }
        // Where absinthe is tighter than PPL, it still keeps every concrete point.
        let points = concrete(n, &ops);
        for (r, form, u) in tighter {
            counts.checked_on_points += 1;
            let lost = points[r]
                .iter()
                .find(|&q| form.is_none_or(|f| value(q, f) > u));
            if let Some(q) = lost {
                let what = form.map_or("empty".to_owned(), |f| format!("{f} ≤ {u}"));
                counts.wrong.push(format!(
                    "{} seed {seed}, register {r}: absinthe's {what} loses the concrete point {:?}",
                    D::NAME,
                    &q[..n]
                ));
            }
        }
    }
    counts
}

fn check(counts: &Counts, domain: &str) {
    println!("{domain}: {counts:#?}");
    assert!(
        counts.wrong.is_empty(),
        "{} differences on {domain}s; the first:\n{}",
        counts.wrong.len(),
        counts.wrong[0]
    );
    assert_eq!(
        counts.bounds,
        counts.equal + counts.floor_equal + counts.unbounded + counts.tighter
    );
    assert_eq!(
        counts.checked_on_points,
        counts.tighter + counts.empty_tighter
    );
    if std::env::var_os("PPL_DIFFERENTIAL_SEED").is_none() {
        assert_eq!(counts.sequences, SEQUENCES);
    }
}

#[test]
fn octagons_agree_with_ppl() {
    let ppl = Ppl::lock();
    let counts = differential::<Octagon, PplOctagon<'_>>(&ppl);
    check(&counts, "octagon");
}

#[test]
fn zones_agree_with_ppl() {
    let ppl = Ppl::lock();
    let counts = differential::<Zone, PplZone<'_>>(&ppl);
    check(&counts, "zone");
    // Zones have no fractions: PPL's bounds of differences are integers already.
    assert_eq!(
        counts.tighter + counts.floor_equal + counts.empty_tighter,
        0
    );
}
