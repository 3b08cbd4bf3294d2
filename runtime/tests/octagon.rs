//! Octagons: the lattice laws, the incremental closure against the closure from scratch, every
//! operation against concrete points it must keep, and the relations intervals cannot express.

use absinthe::lattice::{Interval, Lattice, Thresholds, Top};
use absinthe::laws::{Arbitrary, check_laws_with_top};
use absinthe::relational::Octagon;
use proptest::collection::vec;
use proptest::prelude::*;

const VARS: usize = 3;

#[test]
fn octagons_obey_the_lattice_laws() {
    check_laws_with_top::<Octagon>();
}

/// A constraint: its kind, its variables and its bound.
type Constraint = (u8, usize, usize, i64);

fn constraint() -> impl Strategy<Value = Constraint> {
    (0u8..5, 0..VARS, 0..VARS, -8i64..8)
}

fn add(o: &mut Octagon, (kind, x, y, c): Constraint) {
    match kind {
        0 => o.add_difference(x, y, c),
        1 => o.add_sum(x, y, c),
        2 => o.add_neg_sum(x, y, c),
        3 => o.add_upper(x, c),
        _ => o.add_lower(x, c),
    }
}

/// Whether the concrete point satisfies the constraint.
fn holds(p: &[i64], (kind, x, y, c): Constraint) -> bool {
    let (x, y) = (i128::from(p[x]), i128::from(p[y]));
    let c = i128::from(c);
    match kind {
        0 => x - y <= c,
        1 => x + y <= c,
        2 => -x - y <= c,
        3 => x <= c,
        _ => x >= c,
    }
}

/// An operation on a state and on the concrete points it stands for.
#[derive(Clone, Debug)]
enum Step {
    Guard(Constraint),
    /// `x := ±y + c`.
    Assign(usize, bool, usize, i64),
    /// `x :=` any value of `[lo, hi]`.
    Havoc(usize, i64, i64),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => constraint().prop_map(Step::Guard),
        3 => (0..VARS, any::<bool>(), 0..VARS, prop_oneof![-5i64..5, Just(i64::MAX), Just(i64::MIN)])
            .prop_map(|(x, n, y, c)| Step::Assign(x, n, y, c)),
        1 => (0..VARS, -5i64..5, 0i64..6).prop_map(|(x, lo, w)| Step::Havoc(x, lo, lo + w)),
    ]
}

/// Runs `steps` on `o` and on `points` (the concrete states), dropping the points a guard
/// excludes and moving a havocked variable to each end of its range.
fn run(o: &mut Octagon, points: &mut Vec<Vec<i64>>, steps: &[Step]) {
    for s in steps {
        match *s {
            Step::Guard(c) => {
                add(o, c);
                points.retain(|p| holds(p, c));
            }
            Step::Assign(x, negated, y, c) => {
                o.assign_var(x, negated, y, c);
                for p in points.iter_mut() {
                    let v = if negated { p[y].wrapping_neg() } else { p[y] };
                    p[x] = v.wrapping_add(c);
                }
            }
            Step::Havoc(x, lo, hi) => {
                o.assign_interval(x, &Interval::new(lo, hi));
                let mut more = Vec::new();
                for p in points.iter_mut() {
                    let mut q = p.clone();
                    q[x] = hi;
                    p[x] = lo;
                    more.push(q);
                }
                points.extend(more);
            }
        }
    }
}

fn point() -> impl Strategy<Value = Vec<i64>> {
    vec(
        prop_oneof![6 => -6i64..6, 1 => Just(i64::MAX), 1 => Just(i64::MIN)],
        VARS,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Adding constraints one at a time, each closed incrementally, gives the closure from
    /// scratch of all of them (`meet` closes the entry-wise minimum in full).
    #[test]
    fn incremental_closure_is_the_full_closure(cs in vec(constraint(), 1..8)) {
        let mut incremental = Octagon::top();
        let mut full = Octagon::top();
        for &c in &cs {
            add(&mut incremental, c);
            let mut one = Octagon::top();
            add(&mut one, c);
            full = full.meet(&one);
        }
        prop_assert_eq!(&incremental, &full, "{} against {}", incremental, full);
        prop_assert_eq!(incremental.to_string(), full.to_string());
    }

    /// Every concrete point the operations keep is in the abstract result; joins keep the points
    /// of both sides and widenings those of the newer one.
    #[test]
    fn operations_keep_every_concrete_point(
        points in vec(point(), 1..5),
        left in vec(step(), 0..8),
        right in vec(step(), 0..8),
        thresholds in vec(-10i64..10, 0..3),
    ) {
        let (mut a, mut pa) = (Octagon::top(), points.clone());
        run(&mut a, &mut pa, &left);
        for p in &pa {
            prop_assert!(a.contains_point(p), "{a} loses {p:?} after {left:?}");
        }
        let (mut b, mut pb) = (Octagon::top(), points);
        run(&mut b, &mut pb, &right);
        let joined = a.join(&b);
        for p in pa.iter().chain(&pb) {
            prop_assert!(joined.contains_point(p), "{a} ⊔ {b} = {joined} loses {p:?}");
        }
        let widened = a.widen_with_thresholds(&joined, &Thresholds::new(thresholds));
        for p in &pb {
            prop_assert!(widened.contains_point(p), "{a} ∇ {joined} = {widened} loses {p:?}");
        }
        prop_assert!(joined.leq(&widened));
        let narrowed = widened.narrow(&joined);
        for p in pa.iter().chain(&pb) {
            prop_assert!(narrowed.contains_point(p), "{widened} Δ {joined} = {narrowed} loses {p:?}");
        }
    }

    /// The bounds an octagon gives a variable hold every point it contains.
    #[test]
    fn bounds_hold_the_points(o in Octagon::strategy(), p in point()) {
        if o.contains_point(&p) {
            for (x, &v) in p.iter().enumerate() {
                prop_assert!(o.bounds(x).contains(v), "{o}: x{x} = {v} outside {}", o.bounds(x));
            }
        }
    }
}

/// `x = y; x = x + 1` proves `x > y`, which intervals cannot: `x <= y` is then impossible.
#[test]
fn a_copy_and_an_increment_are_related() {
    // ANCHOR: copy
    // y ∈ [0, 100]; x = y; x = x + 1: x - y is exactly 1, and `x <= y` cannot hold.
    let mut o = Octagon::top();
    o.add_interval(1, &Interval::new(0, 100));
    o.assign_var(0, false, 1, 0);
    o.assign_var(0, false, 0, 1);
    assert_eq!(o.difference(0, 1), (Some(1), Some(1)));
    assert_eq!(o.bounds(0), Interval::new(1, 101));
    assert_eq!(
        o.to_string(),
        "x0 ∈ [1, 101], x1 ∈ [0, 100], x0 - x1 ≤ 1, x1 - x0 ≤ -1"
    );
    let mut refuted = o.clone();
    refuted.add_difference(0, 1, 0);
    assert!(refuted.is_bottom());
    // ANCHOR_END: copy
}

/// A loop `i = 0; while i < n { i = i + 1 }` with `n` unknown: the widening drops `i`'s upper
/// bound but keeps `i <= n`, so at the exit `i == n`.
#[test]
fn a_loop_bound_by_a_parameter_keeps_i_below_n() {
    let (i, n) = (0, 1);
    let mut entry = Octagon::top();
    entry.assign_interval(i, &Interval::constant(0));
    entry.add_lower(n, 0);
    let mut head = entry.clone();
    for _ in 0..10 {
        let mut body = head.clone();
        body.add_difference(i, n, -1);
        body.assign_var(i, false, i, 1);
        let next = head.widen(&entry.join(&body));
        if next.leq(&head) {
            break;
        }
        head = next;
    }
    assert_eq!(
        head.difference(i, n).1,
        Some(0),
        "i <= n at the head: {head}"
    );
    let mut exit = head.clone();
    exit.add_difference(n, i, 0);
    assert_eq!(
        exit.difference(i, n),
        (Some(0), Some(0)),
        "i == n at the exit: {exit}"
    );
}

/// Arithmetic that may wrap keeps only the wrapped result's interval.
#[test]
fn assignments_that_may_wrap_forget_the_relation() {
    let mut o = Octagon::top();
    o.add_lower(1, i64::MAX - 1);
    o.assign_var(0, false, 1, 5);
    // Not `x0 - x1 == 5`: only what 64-bit bounds give (`x0 ≤ int::MAX`, `x1 ≥ int::MAX - 1`).
    assert_eq!(o.difference(0, 1), (None, Some(1)), "{o}");
    assert!(o.contains_point(&[i64::MAX.wrapping_add(5), i64::MAX]));
    assert!(Octagon::top().is_top() && !Octagon::bottom().is_top());
}
