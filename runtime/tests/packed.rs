//! Packed relational values: the lattice laws; the same constraints as one value over all the
//! names when the partition comes from the relations the operations create; every concrete
//! point kept when a size limit splits related names; the partition a program gives.

use absinthe::lattice::{Interval, Lattice, Thresholds, Top};
use absinthe::laws::check_laws_with_top;
use absinthe::relational::{Constraint, Octagon, Packed, Partition, Relational, Zone};
use proptest::collection::vec;
use proptest::prelude::*;
use std::sync::Arc;

const NAMES: usize = 6;

#[test]
fn packed_octagons_obey_the_lattice_laws() {
    check_laws_with_top::<Packed<Octagon>>();
}

#[test]
fn packed_zones_obey_the_lattice_laws() {
    check_laws_with_top::<Packed<Zone>>();
}

/// An operation on a relational value and on the concrete points it stands for.
#[derive(Clone, Debug)]
enum Step {
    Guard(Constraint),
    /// `x := ±y + c`.
    Assign(usize, bool, usize, i64),
    /// `x :=` any value of `[lo, hi]`.
    Havoc(usize, i64, i64),
}

impl Step {
    /// The two names the step relates, if it relates two.
    fn related(&self) -> Option<(usize, usize)> {
        match *self {
            Step::Guard(
                Constraint::Difference(x, y, _)
                | Constraint::Sum(x, y, _)
                | Constraint::NegSum(x, y, _),
            ) => Some((x, y)),
            Step::Assign(x, _, y, _) => Some((x, y)),
            _ => None,
        }
    }
}

fn step() -> impl Strategy<Value = Step> {
    let c = -6i128..6;
    let constraint = (0u8..5, 0..NAMES, 0..NAMES, c).prop_map(|(kind, x, y, c)| match kind {
        0 => Constraint::Difference(x, y, c),
        1 => Constraint::Sum(x, y, c),
        2 => Constraint::NegSum(x, y, c),
        3 => Constraint::Upper(x, c),
        _ => Constraint::Lower(x, c),
    });
    prop_oneof![
        3 => constraint.prop_map(Step::Guard),
        3 => (0..NAMES, any::<bool>(), 0..NAMES, prop_oneof![-5i64..5, Just(i64::MAX)])
            .prop_map(|(x, n, y, c)| Step::Assign(x, n, y, c)),
        1 => (0..NAMES, -5i64..5, 0i64..6).prop_map(|(x, lo, w)| Step::Havoc(x, lo, lo + w)),
    ]
}

fn run<R: Relational>(r: &mut R, steps: &[Step]) {
    for s in steps {
        match *s {
            Step::Guard(c) => r.add_constraint(c),
            Step::Assign(x, negated, y, c) => r.assign_var(x, negated, y, c),
            Step::Havoc(x, lo, hi) => r.assign_interval(x, &Interval::new(lo, hi)),
        }
    }
}

/// Runs `steps` on the concrete points: dropping those a guard excludes, moving a havocked
/// name to each end of its range.
fn run_points(points: &mut Vec<Vec<i64>>, steps: &[Step]) {
    for s in steps {
        match *s {
            Step::Guard(c) => points.retain(|p| c.holds(&|x| p.get(x).copied())),
            Step::Assign(x, negated, y, c) => {
                for p in points.iter_mut() {
                    let v = if negated { p[y].wrapping_neg() } else { p[y] };
                    p[x] = v.wrapping_add(c);
                }
            }
            Step::Havoc(x, lo, hi) => {
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

fn sorted(mut cs: Vec<Constraint>) -> Vec<String> {
    cs.sort_by_key(|c| format!("{c:?}"));
    cs.iter().map(|c| format!("{c:?}")).collect()
}

/// The partition of the names the steps relate, with no size limit.
fn partition_of(steps: &[&[Step]]) -> Arc<Partition> {
    let pairs: Vec<(usize, usize)> = steps
        .iter()
        .flat_map(|s| s.iter())
        .filter_map(Step::related)
        .collect();
    Arc::new(Partition::new(NAMES, pairs, usize::MAX))
}

/// The packed value and the single one agree on every constraint and every bound.
fn same<R: Relational + Clone>(packed: &Packed<R>, single: &R) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        packed.is_bottom(),
        single.is_bottom(),
        "{:?} against {:?}",
        packed,
        single
    );
    if single.is_bottom() {
        return Ok(());
    }
    for x in 0..NAMES {
        prop_assert_eq!(packed.bounds(x), single.bounds(x), "bounds of x{}", x);
    }
    prop_assert_eq!(
        sorted(packed.constraints()),
        sorted(single.constraints()),
        "packed {} against {}",
        packed.text_with(&|x| format!("x{x}")),
        single.text_with(&|x| format!("x{x}"))
    );
    Ok(())
}

/// The packed value holds the single one: the same bounds, and every constraint of the packed
/// value holds in the single one (adding them changes nothing). A join is where packs lose: the
/// hull of `{x = 0, y = 0}` and `{x = 1, y = 1}` has `x = y`, born of bounds alone, which a
/// single value over both keeps and packs apart cannot.
fn contains<R: Relational + Clone>(packed: &Packed<R>, single: &R) -> Result<(), TestCaseError> {
    prop_assert_eq!(packed.is_bottom(), single.is_bottom());
    for x in 0..NAMES {
        prop_assert_eq!(packed.bounds(x), single.bounds(x), "bounds of x{}", x);
    }
    let mut constrained = single.clone();
    for c in packed.constraints() {
        constrained.add_constraint(c);
    }
    prop_assert!(
        &constrained == single,
        "{} is not within {:?}",
        packed,
        single
    );
    Ok(())
}

fn packs_lose_nothing<R: Relational + Clone>(
    left: &[Step],
    right: &[Step],
    thresholds: Vec<i64>,
) -> Result<(), TestCaseError> {
    let partition = partition_of(&[left, right]);
    let (mut pa, mut sa) = (Packed::<R>::top_over(partition.clone()), R::top());
    run(&mut pa, left);
    run(&mut sa, left);
    same(&pa, &sa)?;
    let (mut pb, mut sb) = (Packed::<R>::top_over(partition), R::top());
    run(&mut pb, right);
    run(&mut sb, right);
    same(&pb, &sb)?;
    contains(&pa.join(&pb), &sa.join(&sb))?;
    same(&pa.meet(&pb), &sa.meet(&sb))?;
    let thresholds = Thresholds::new(thresholds);
    let (pw, sw) = (
        pa.widen_with_thresholds(&pa.join(&pb), &thresholds),
        sa.widen_with_thresholds(&sa.join(&sb), &thresholds),
    );
    // A widening's result is not closed, and one value over every name keeps relations
    // between packs that the bounds gave (which packs drop with the bounds): the packed result
    // is at least the single one's, through the bounds its closure gives.
    for x in 0..NAMES {
        prop_assert!(sw.bounds(x).leq(&pw.bounds(x)), "x{}: {:?} ⋢ {}", x, sw, pw);
    }
    prop_assert_eq!(pa.leq(&pb), sa.leq(&sb));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// Packs made from the relations the operations create keep exactly what one octagon over
    /// every name keeps, through guards, assignments and meets; a join keeps the same bounds
    /// and holds the single join.
    #[test]
    fn packed_octagons_keep_what_one_octagon_keeps(
        left in vec(step(), 0..10),
        right in vec(step(), 0..10),
        thresholds in vec(-10i64..10, 0..3),
    ) {
        packs_lose_nothing::<Octagon>(&left, &right, thresholds)?;
    }

    /// The same for zones.
    #[test]
    fn packed_zones_keep_what_one_zone_keeps(
        left in vec(step(), 0..10),
        right in vec(step(), 0..10),
        thresholds in vec(-10i64..10, 0..3),
    ) {
        packs_lose_nothing::<Zone>(&left, &right, thresholds)?;
    }

    /// With packs of at most two names, relations between packs are lost but every concrete
    /// point the operations keep is still in the value.
    #[test]
    fn small_packs_keep_every_concrete_point(
        points in vec(vec(prop_oneof![6 => -6i64..6, 1 => Just(i64::MAX)], NAMES), 1..5),
        steps in vec(step(), 0..12),
    ) {
        let pairs: Vec<(usize, usize)> = steps.iter().filter_map(Step::related).collect();
        let partition = Arc::new(Partition::new(NAMES, pairs, 2));
        prop_assert!(partition.packs().iter().all(|p| p.len() <= 2));
        let mut packed = Packed::<Octagon>::top_over(partition);
        run(&mut packed, &steps);
        let mut kept = points;
        run_points(&mut kept, &steps);
        for p in &kept {
            let value = |x: usize| p.get(x).copied();
            prop_assert!(!packed.is_bottom(), "{packed} loses {p:?} after {steps:?}");
            prop_assert_eq!(packed.violated(&value), None, "{} loses {:?}", packed, p);
        }
    }
}

/// The partition keeps the pairs in order and refuses those past the size limit, counting them.
#[test]
fn the_size_limit_refuses_and_counts() {
    let partition = Partition::new(6, [(0, 1), (1, 2), (2, 3), (4, 5), (3, 4)], 3);
    assert_eq!(partition.packs(), &[vec![0, 1, 2], vec![3, 4, 5]]);
    assert_eq!(partition.refused(), 1);
    assert_eq!(partition.place(5), (1, 2));
}

/// `i < n` survives in the pack of `i` and `n`, while an unrelated name costs a pack of one.
#[test]
fn a_relation_lives_in_its_pack() {
    let (i, n, z) = (0, 1, 2);
    let partition = Arc::new(Partition::new(3, [(i, n)], 8));
    let mut p = Packed::<Octagon>::top_over(partition);
    p.add_interval(n, &Interval::new(0, 100));
    p.add_interval(z, &Interval::new(7, 7));
    p.assign_interval(i, &Interval::new(0, 200));
    p.add_constraint(Constraint::Difference(i, n, -1));
    assert_eq!(p.bounds(i), Interval::new(0, 99));
    assert_eq!(p.bounds(n), Interval::new(1, 100));
    assert_eq!(
        p.text_with(&|x| ["i", "n", "z"][x].to_owned()),
        "i ∈ [0, 99], n ∈ [1, 100], z ∈ [7, 7], i - n ≤ -1"
    );
    assert!(p.pack(1).is_some_and(|r| r.dim() <= 1));
    // A relation between packs keeps what it says on the bounds.
    p.add_constraint(Constraint::Difference(z, i, -100));
    assert!(p.is_bottom());
    assert!(!Packed::<Octagon>::top().is_bottom());
}

/// Over hundreds of packs (several chunks of shared packs), operations on two values that
/// share most packs agree with the packs' own operations: a value refined in two places joins
/// back to the original, meets to the refinement, and every name's bounds are the join of the
/// two values' bounds.
#[test]
fn many_packs_agree_with_each_pack() {
    const N: usize = 600;
    let pairs: Vec<(usize, usize)> = (0..N / 2).map(|k| (2 * k, 2 * k + 1)).collect();
    let partition = Arc::new(Partition::new(N, pairs, 8));
    assert_eq!(partition.packs().len(), N / 2);
    let mut a = Packed::<Octagon>::top_over(partition);
    for x in (0..N).step_by(3) {
        a.add_interval(x, &Interval::new(x as i64, x as i64 + 10));
    }
    let mut b = a.clone();
    b.add_interval(301, &Interval::new(0, 3));
    b.add_constraint(Constraint::Difference(500, 501, -2));
    assert!(b.leq(&a) && !a.leq(&b));
    assert_eq!(a.join(&b), a);
    assert_eq!(a.meet(&b), b);
    let mut c = a.clone();
    c.assign_interval(6, &Interval::new(-5, -1));
    let joined = b.join(&c);
    for x in 0..N {
        assert_eq!(
            joined.bounds(x),
            b.bounds(x).join(&c.bounds(x)),
            "bounds of x{x}"
        );
    }
    assert!(b.leq(&joined) && c.leq(&joined));
    // A widening keeps what both sides share and drops the bound that grew.
    let widened = b.widen(&joined);
    assert!(joined.leq(&widened));
    assert_eq!(joined.bounds(6), Interval::new(-5, 16));
    assert_eq!(widened.bounds(6), Interval::new(i64::MIN, 16));
    assert_eq!(widened.bounds(300), b.bounds(300));
}

/// A constraint between packs bounds each name through the other's bounds, computed without
/// clamping a negated 64-bit bound: `-x - y ≤ 1` with `y` unbounded leaves `x` at `i64::MIN`
/// possible (`-(i64::MIN) - i64::MAX = 1`). The case the proptest above found.
#[test]
fn a_constraint_between_packs_keeps_the_64_bit_extremes() {
    let partition = Arc::new(Partition::new(2, [], 1));
    let mut p = Packed::<Octagon>::top_over(partition);
    p.assign_interval(0, &Interval::constant(i64::MIN));
    p.add_constraint(Constraint::NegSum(0, 1, 1));
    assert!(!p.is_bottom());
    assert_eq!(p.bounds(0), Interval::constant(i64::MIN));
    assert_eq!(p.bounds(1), Interval::constant(i64::MAX));
}

/// Bounds at the ends of `i128` in a constraint between packs neither overflow nor lose a
/// state: `x - y ≤ i128::MIN` leaves nothing, `x + y ≤ i128::MAX` anything.
#[test]
fn constraints_at_the_ends_of_i128_between_packs() {
    let partition = Arc::new(Partition::new(2, [], 1));
    let top = Packed::<Zone>::top_over(partition);
    for c in [
        Constraint::Sum(0, 1, i128::MIN),
        Constraint::Difference(0, 1, i128::MIN),
        Constraint::NegSum(0, 1, i128::MIN),
    ] {
        let mut p = top.clone();
        p.add_constraint(c);
        assert!(p.is_bottom(), "{c:?}");
    }
    for c in [
        Constraint::Sum(0, 1, i128::MAX),
        Constraint::Difference(0, 1, i128::MAX),
        Constraint::NegSum(0, 1, i128::MAX),
    ] {
        let mut p = top.clone();
        p.add_constraint(c);
        assert!(p.is_top(), "{c:?}");
    }
}
