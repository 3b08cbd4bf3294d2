//! Why a relational value holds a constraint: a derivation of it from premises (the constraints
//! of an earlier value and those a step added), as the closure of octagons and zones combines
//! them. Asked on demand, for one constraint, by the tools that explain a result (the trace
//! viewer's "why" trees); the domains' own closures record nothing, so analyses pay nothing.
//!
//! Every step of a closure adds two constraints: `x - y ≤ 1` and `y ≤ 5` give `x ≤ 6`,
//! `x - y ≤ 1` and `x + y ≤ 4` give `2x ≤ 5`, which on integers is `x ≤ 2` (the tightening).
//! [`explain`] searches those sums over the forms the domain keeps (a zone no sums `x + y`) until
//! one bounds the target's form at least as tightly as the target.

use super::domain::Constraint;
use super::kind::RelationKind;
use std::collections::BTreeMap;

/// How a constraint follows from premises.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Derivation {
    /// The premise of that index, as given (a premise bounding `x + x` or `-x - x` is given as
    /// the bound of `x` it is, halved and rounded down).
    Premise {
        /// Its index among the premises.
        index: usize,
        /// The constraint.
        constraint: Constraint,
    },
    /// The sum of two derived constraints ([`combine`]).
    Sum {
        /// The sum.
        constraint: Constraint,
        /// What was added.
        parts: Box<[Derivation; 2]>,
    },
}

impl Derivation {
    /// The constraint derived.
    pub fn constraint(&self) -> Constraint {
        match self {
            Derivation::Premise { constraint, .. } | Derivation::Sum { constraint, .. } => {
                *constraint
            }
        }
    }

    /// The indices of the premises it uses, each once, in the order first used.
    pub fn premises(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(d) = stack.pop() {
            match d {
                Derivation::Premise { index, .. } => {
                    if !out.contains(index) {
                        out.push(*index);
                    }
                }
                Derivation::Sum { parts, .. } => {
                    stack.push(&parts[1]);
                    stack.push(&parts[0]);
                }
            }
        }
        out
    }
}

/// A constraint as its linear form (each variable with its coefficient, by variable) and its
/// bound; `None` for a form of no variable (`x - x ≤ c`).
fn linear(c: Constraint) -> Option<(Vec<(usize, i8)>, i128)> {
    let pair = |x: usize, a: i8, y: usize, b: i8| -> Vec<(usize, i8)> {
        match x.cmp(&y) {
            std::cmp::Ordering::Less => vec![(x, a), (y, b)],
            std::cmp::Ordering::Greater => vec![(y, b), (x, a)],
            std::cmp::Ordering::Equal if a + b == 0 => Vec::new(),
            std::cmp::Ordering::Equal => vec![(x, a + b)],
        }
    };
    let (form, bound) = match c {
        Constraint::Difference(x, y, c) => (pair(x, 1, y, -1), c),
        Constraint::Sum(x, y, c) => (pair(x, 1, y, 1), c),
        Constraint::NegSum(x, y, c) => (pair(x, -1, y, -1), c),
        Constraint::Upper(x, c) => (vec![(x, 1)], c),
        Constraint::Lower(x, c) => (vec![(x, -1)], c.saturating_neg()),
    };
    (!form.is_empty()).then_some((form, bound))
}

/// The constraint of a linear form and bound, when the form is one a relational domain
/// keeps: one variable (a coefficient of ±2 halved, rounding the bound down), or two with
/// coefficients ±1.
fn of_linear(form: &[(usize, i8)], bound: i128) -> Option<Constraint> {
    match *form {
        [(x, 1)] => Some(Constraint::Upper(x, bound)),
        [(x, -1)] => Some(Constraint::Lower(x, bound.saturating_neg())),
        [(x, 2)] => Some(Constraint::Upper(x, bound.div_euclid(2))),
        [(x, -2)] => Some(Constraint::Lower(x, bound.div_euclid(2).saturating_neg())),
        [(x, 1), (y, -1)] => Some(Constraint::Difference(x, y, bound)),
        [(x, -1), (y, 1)] => Some(Constraint::Difference(y, x, bound)),
        [(x, 1), (y, 1)] => Some(Constraint::Sum(x, y, bound)),
        [(x, -1), (y, -1)] => Some(Constraint::NegSum(x, y, bound)),
        _ => None,
    }
}

/// `c` normalized: a bound of `x + x` as the bound of `x` ([`of_linear`]); `None` for a form
/// of no variable.
fn normal(c: Constraint) -> Option<Constraint> {
    let (form, bound) = linear(c)?;
    of_linear(&form, bound)
}

/// The sum of `a` and `b` as a constraint, when it is one a relational domain keeps: at most
/// two variables with coefficients ±1, or one with ±2, whose bound is halved (rounded down:
/// the variables are integers). `x - y ≤ 1` and `y ≤ 5` give `x ≤ 6`.
pub fn combine(a: Constraint, b: Constraint) -> Option<Constraint> {
    let (fa, ca) = linear(a)?;
    let (fb, cb) = linear(b)?;
    let mut form: Vec<(usize, i8)> = Vec::with_capacity(4);
    for (x, k) in fa.into_iter().chain(fb) {
        match form.iter_mut().find(|(y, _)| *y == x) {
            Some((_, sum)) => *sum += k,
            None => form.push((x, k)),
        }
    }
    form.retain(|&(_, k)| k != 0);
    form.sort_unstable();
    of_linear(&form, ca.saturating_add(cb))
}

/// The form of a normalized constraint, without its bound, as a key: its kind and variables.
fn key(c: Constraint) -> (u8, usize, usize) {
    match c {
        Constraint::Difference(x, y, _) => (0, x, y),
        Constraint::Sum(x, y, _) => (1, x, y),
        Constraint::NegSum(x, y, _) => (2, x, y),
        Constraint::Upper(x, _) => (3, x, x),
        Constraint::Lower(x, _) => (4, x, x),
    }
}

/// Whether `a` bounds the same form as `b` at least as tightly.
fn at_least_as_tight(a: Constraint, b: Constraint) -> bool {
    match (a, b) {
        (Constraint::Lower(_, ca), Constraint::Lower(_, cb)) => key(a) == key(b) && ca >= cb,
        (
            Constraint::Difference(_, _, ca)
            | Constraint::Sum(_, _, ca)
            | Constraint::NegSum(_, _, ca)
            | Constraint::Upper(_, ca),
            Constraint::Difference(_, _, cb)
            | Constraint::Sum(_, _, cb)
            | Constraint::NegSum(_, _, cb)
            | Constraint::Upper(_, cb),
        ) => key(a) == key(b) && ca <= cb,
        _ => false,
    }
}

fn variables(c: Constraint) -> [usize; 2] {
    match c {
        Constraint::Difference(x, y, _)
        | Constraint::Sum(x, y, _)
        | Constraint::NegSum(x, y, _) => [x, y],
        Constraint::Upper(x, _) | Constraint::Lower(x, _) => [x, x],
    }
}

/// A node of the search: a constraint and how it was found.
struct Found {
    constraint: Constraint,
    /// The premise's index, or the two nodes summed.
    how: Result<usize, (usize, usize)>,
}

/// How many rounds of pairwise sums the search runs at most. Each round sums what the rounds
/// before found, so it doubles the length of the chains it can find; a chain through every
/// node of a pack of 64 names is 128 steps long.
const ROUNDS: usize = 12;

/// A derivation of `target` (or of a tighter bound of its form) from `premises`, through sums
/// of two constraints of the forms the domain `kind` keeps (a zone derives no sum), or `None` when none
/// exists. The derivation is found by rounds of sums of everything found so far, so the first
/// one found is among the shallowest. Only premises that share a variable with the target,
/// directly or through other premises, are used.
pub fn explain(
    kind: RelationKind,
    premises: &[Constraint],
    target: Constraint,
) -> Option<Derivation> {
    let sums = match kind {
        RelationKind::Octagon => true,
        RelationKind::Zone => false,
    };
    let target = normal(target)?;
    // The variables the premises connect to the target's.
    let mut reach: Vec<usize> = variables(target).to_vec();
    loop {
        let before = reach.len();
        for &p in premises {
            let [x, y] = variables(p);
            if reach.contains(&x) != reach.contains(&y) {
                reach.push(if reach.contains(&x) { y } else { x });
            }
        }
        if reach.len() == before {
            break;
        }
    }
    let mut search = Search::default();
    for (index, &p) in premises.iter().enumerate() {
        if let Some(c) = normal(p).filter(|c| reach.contains(&variables(*c)[0])) {
            search.offer(c, Ok(index));
        }
    }
    let mut rounds = 0;
    while search.answer(target).is_none() && rounds < ROUNDS {
        rounds += 1;
        let current: Vec<usize> = search.best.values().copied().collect();
        let mut changed = false;
        for (k, &a) in current.iter().enumerate() {
            for &b in &current[k + 1..] {
                let sum = combine(search.found[a].constraint, search.found[b].constraint);
                let Some(c) = sum.filter(|&c| sums || !is_sum(c)) else {
                    continue;
                };
                changed |= search.offer(c, Err((a, b)));
            }
        }
        if !changed {
            break;
        }
    }
    let root = search.answer(target)?;
    Some(search.build(root))
}

fn is_sum(c: Constraint) -> bool {
    matches!(c, Constraint::Sum(..) | Constraint::NegSum(..))
}

/// What the search found: every constraint in the order found, and for each form the
/// tightest.
#[derive(Default)]
struct Search {
    found: Vec<Found>,
    best: BTreeMap<(u8, usize, usize), usize>,
}

impl Search {
    /// Keeps `c` when it is tighter than what was found of its form; whether it was.
    fn offer(&mut self, c: Constraint, how: Result<usize, (usize, usize)>) -> bool {
        let k = key(c);
        if self
            .best
            .get(&k)
            .is_some_and(|&b| at_least_as_tight(self.found[b].constraint, c))
        {
            return false;
        }
        self.best.insert(k, self.found.len());
        self.found.push(Found { constraint: c, how });
        true
    }

    /// The node that gives `target`, if one does.
    fn answer(&self, target: Constraint) -> Option<usize> {
        self.best
            .get(&key(target))
            .copied()
            .filter(|&b| at_least_as_tight(self.found[b].constraint, target))
    }

    /// The derivation of node `at`.
    fn build(&self, at: usize) -> Derivation {
        let node = &self.found[at];
        match node.how {
            Ok(index) => Derivation::Premise {
                index,
                constraint: node.constraint,
            },
            Err((a, b)) => Derivation::Sum {
                constraint: node.constraint,
                parts: Box::new([self.build(a), self.build(b)]),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Derivation, combine, explain};
    use crate::relational::{Constraint, Octagon, RelationKind, Relational, Zone};
    use proptest::collection::vec;
    use proptest::prelude::*;

    /// Every sum of the derivation is its parts combined, and every premise is one of
    /// `premises` (normalized).
    fn check(d: &Derivation, premises: &[Constraint]) {
        match d {
            Derivation::Premise { index, constraint } => {
                let given = premises[*index];
                assert_eq!(
                    Some(*constraint),
                    super::normal(given),
                    "premise {index} is {given:?}"
                );
            }
            Derivation::Sum { constraint, parts } => {
                assert_eq!(
                    combine(parts[0].constraint(), parts[1].constraint()),
                    Some(*constraint),
                    "a sum is its parts added"
                );
                check(&parts[0], premises);
                check(&parts[1], premises);
            }
        }
    }

    #[test]
    fn a_difference_and_a_bound_give_a_bound() {
        let premises = [
            Constraint::Difference(0, 1, 1),
            Constraint::Upper(1, 5),
            Constraint::Lower(2, 0),
        ];
        let d =
            explain(RelationKind::Octagon, &premises, Constraint::Upper(0, 6)).expect("derived");
        assert_eq!(d.constraint(), Constraint::Upper(0, 6));
        assert_eq!(d.premises(), vec![0, 1]);
        check(&d, &premises);
        // The octagon's own closure agrees.
        let mut o = Octagon::top();
        for &c in &premises {
            o.add_constraint(c);
        }
        assert_eq!(o.bounds(0).bounds().map(|(_, hi)| hi), Some(6));
    }

    #[test]
    fn the_tightening_halves_twice_a_variable() {
        let premises = [Constraint::Difference(0, 1, 1), Constraint::Sum(0, 1, 4)];
        let d =
            explain(RelationKind::Octagon, &premises, Constraint::Upper(0, 2)).expect("derived");
        assert_eq!(d.constraint(), Constraint::Upper(0, 2));
        check(&d, &premises);
        // A zone keeps no sums, but a sum given as a premise is added as given.
        let d = explain(RelationKind::Zone, &premises, Constraint::Upper(0, 2)).expect("derived");
        check(&d, &premises);
    }

    #[test]
    fn chains_go_through_several_steps() {
        // x0 - x1 ≤ 1, x1 - x2 ≤ 1, x2 - x3 ≤ 1, x3 ≤ 0: x0 ≤ 3.
        let premises = [
            Constraint::Difference(0, 1, 1),
            Constraint::Difference(1, 2, 1),
            Constraint::Difference(2, 3, 1),
            Constraint::Upper(3, 0),
        ];
        for d in [
            explain(RelationKind::Zone, &premises, Constraint::Upper(0, 3)),
            explain(RelationKind::Octagon, &premises, Constraint::Upper(0, 3)),
        ] {
            let d = d.expect("derived");
            assert_eq!(d.premises().len(), 4);
            check(&d, &premises);
        }
        assert_eq!(
            explain(RelationKind::Zone, &premises, Constraint::Upper(0, 2)),
            None
        );
        // Unrelated premises are not searched, nor used.
        assert_eq!(
            explain(RelationKind::Zone, &premises, Constraint::Upper(7, 0)),
            None
        );
    }

    #[test]
    fn a_zone_derives_no_sum() {
        let premises = [Constraint::Upper(0, 1), Constraint::Upper(1, 1)];
        assert!(explain(RelationKind::Octagon, &premises, Constraint::Sum(0, 1, 2)).is_some());
        assert_eq!(
            explain(RelationKind::Zone, &premises, Constraint::Sum(0, 1, 2)),
            None
        );
    }

    fn constraint() -> impl Strategy<Value = Constraint> {
        let x = 0usize..4;
        let c = -6i128..12;
        prop_oneof![
            (x.clone(), x.clone(), c.clone()).prop_map(|(x, y, c)| Constraint::Difference(x, y, c)),
            (x.clone(), x.clone(), c.clone()).prop_map(|(x, y, c)| Constraint::Sum(x, y, c)),
            (x.clone(), x.clone(), c.clone()).prop_map(|(x, y, c)| Constraint::NegSum(x, y, c)),
            (x.clone(), c.clone()).prop_map(|(x, c)| Constraint::Upper(x, c)),
            (x, c).prop_map(|(x, c)| Constraint::Lower(x, c)),
        ]
    }

    /// Every constraint of the closed value made of `premises` has a derivation from them and
    /// the box of 64-bit values (which the domains meet every value with) whose sums add up
    /// and whose leaves are premises: the closure finds nothing the sums do not explain.
    fn derives_every_closed_constraint<R: Relational>(kind: RelationKind, given: &[Constraint]) {
        let mut value = R::top();
        for &c in given {
            value.add_constraint(c);
        }
        if value.is_bottom() {
            return;
        }
        let mut premises = given.to_vec();
        for x in 0..4 {
            premises.push(Constraint::Upper(x, i128::from(i64::MAX)));
            premises.push(Constraint::Lower(x, i128::from(i64::MIN)));
        }
        for target in value.constraints() {
            let Some(d) = explain(kind, &premises, target) else {
                panic!("{target:?} of {value:?} is not derived from {given:?}");
            };
            check(&d, &premises);
            let derived = d.constraint();
            assert!(
                super::at_least_as_tight(derived, target),
                "{derived:?} does not give {target:?}"
            );
        }
    }

    proptest! {
        #[test]
        fn octagon_closures_are_explained(premises in vec(constraint(), 0..8)) {
            derives_every_closed_constraint::<Octagon>(RelationKind::Octagon, &premises);
        }

        #[test]
        fn zone_closures_are_explained(premises in vec(constraint(), 0..8)) {
            derives_every_closed_constraint::<Zone>(RelationKind::Zone, &premises);
        }
    }
}
