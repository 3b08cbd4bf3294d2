//! Zones: the lattice laws, the incremental closure against the closure from scratch, every
//! operation against concrete points it must keep, and the differences intervals cannot express.

use absinthe::lattice::{Interval, Lattice, Thresholds, Top};
use absinthe::laws::{Arbitrary, check_laws_with_top};
use absinthe::relational::Zone;
use proptest::collection::vec;
use proptest::prelude::*;

const VARS: usize = 3;

#[test]
fn zones_obey_the_lattice_laws() {
    check_laws_with_top::<Zone>();
}

/// A constraint: its kind (`x - y ≤ c`, `x ≤ c`, `x ≥ c`), its variables and its bound.
type Constraint = (u8, usize, usize, i64);

fn constraint() -> impl Strategy<Value = Constraint> {
    (0u8..3, 0..VARS, 0..VARS, -8i64..8)
}

fn add(z: &mut Zone, (kind, x, y, c): Constraint) {
    match kind {
        0 => z.add_difference(x, y, c),
        1 => z.add_upper(x, c),
        _ => z.add_lower(x, c),
    }
}

fn holds(p: &[i64], (kind, x, y, c): Constraint) -> bool {
    let (x, y, c) = (i128::from(p[x]), i128::from(p[y]), i128::from(c));
    match kind {
        0 => x - y <= c,
        1 => x <= c,
        _ => x >= c,
    }
}

#[derive(Clone, Debug)]
enum Step {
    Guard(Constraint),
    /// `x := y + c`.
    Assign(usize, usize, i64),
    /// `x :=` any value of `[lo, hi]`.
    Havoc(usize, i64, i64),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => constraint().prop_map(Step::Guard),
        3 => (0..VARS, 0..VARS, prop_oneof![-5i64..5, Just(i64::MAX), Just(i64::MIN)])
            .prop_map(|(x, y, c)| Step::Assign(x, y, c)),
        1 => (0..VARS, -5i64..5, 0i64..6).prop_map(|(x, lo, w)| Step::Havoc(x, lo, lo + w)),
    ]
}

fn run(z: &mut Zone, points: &mut Vec<Vec<i64>>, steps: &[Step]) {
    for s in steps {
        match *s {
            Step::Guard(c) => {
                add(z, c);
                points.retain(|p| holds(p, c));
            }
            Step::Assign(x, y, c) => {
                z.assign_var(x, y, c);
                for p in points.iter_mut() {
                    p[x] = p[y].wrapping_add(c);
                }
            }
            Step::Havoc(x, lo, hi) => {
                z.assign_interval(x, &Interval::new(lo, hi));
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

    #[test]
    fn incremental_closure_is_the_full_closure(cs in vec(constraint(), 1..8)) {
        let mut incremental = Zone::top();
        let mut full = Zone::top();
        for &c in &cs {
            add(&mut incremental, c);
            let mut one = Zone::top();
            add(&mut one, c);
            full = full.meet(&one);
        }
        prop_assert_eq!(&incremental, &full, "{} against {}", incremental, full);
        prop_assert_eq!(incremental.to_string(), full.to_string());
    }

    #[test]
    fn operations_keep_every_concrete_point(
        points in vec(point(), 1..5),
        left in vec(step(), 0..8),
        right in vec(step(), 0..8),
        thresholds in vec(-10i64..10, 0..3),
    ) {
        let (mut a, mut pa) = (Zone::top(), points.clone());
        run(&mut a, &mut pa, &left);
        for p in &pa {
            prop_assert!(a.contains_point(p), "{a} loses {p:?} after {left:?}");
        }
        let (mut b, mut pb) = (Zone::top(), points);
        run(&mut b, &mut pb, &right);
        let joined = a.join(&b);
        for p in pa.iter().chain(&pb) {
            prop_assert!(joined.contains_point(p), "{a} ⊔ {b} = {joined} loses {p:?}");
        }
        let widened = a.widen_with_thresholds(&joined, &Thresholds::new(thresholds));
        prop_assert!(joined.leq(&widened), "{a} ∇ {joined} = {widened}");
        let narrowed = widened.narrow(&joined);
        for p in pa.iter().chain(&pb) {
            prop_assert!(narrowed.contains_point(p), "{widened} Δ {joined} = {narrowed} loses {p:?}");
        }
    }

    #[test]
    fn bounds_hold_the_points(z in Zone::strategy(), p in point()) {
        if z.contains_point(&p) {
            for (x, &v) in p.iter().enumerate() {
                prop_assert!(z.bounds(x).contains(v), "{z}: x{x} = {v} outside {}", z.bounds(x));
            }
        }
    }
}

/// `x = y; x = x + 1` proves `x > y`, which intervals cannot.
#[test]
fn a_copy_and_an_increment_are_related() {
    let mut z = Zone::top();
    z.add_interval(1, &Interval::new(0, 100));
    z.assign_var(0, 1, 0);
    z.assign_var(0, 0, 1);
    assert_eq!(z.difference(0, 1), (Some(1), Some(1)));
    assert_eq!(
        z.to_string(),
        "x0 ∈ [1, 101], x1 ∈ [0, 100], x1 - x0 ≤ -1, x0 - x1 ≤ 1"
    );
    let mut refuted = z.clone();
    refuted.add_difference(0, 1, 0);
    assert!(refuted.is_bottom());
    assert!(Zone::top().is_top() && !Zone::bottom().is_top());
}

/// `i = 0; while i < n { i = i + 1 }`: the widening drops `i`'s upper bound but keeps `i <= n`.
#[test]
fn a_loop_bound_by_a_parameter_keeps_i_below_n() {
    let (i, n) = (0, 1);
    let mut entry = Zone::top();
    entry.assign_interval(i, &Interval::constant(0));
    entry.add_lower(n, 0);
    let mut head = entry.clone();
    for _ in 0..10 {
        let mut body = head.clone();
        body.add_difference(i, n, -1);
        body.assign_var(i, i, 1);
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
