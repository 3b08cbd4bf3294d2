//! Traces of a value analysis whose domain has a relational component
//! ([`ValueDomain::relation`]): the relational engine `analyze` runs
//! ([`relational_analysis`]), traced by the same engine, with the relation's constraints beside
//! the names' values in every format:
//!
//! - `json-trace`: each event's and the result's states, and under `relation` their
//!   constraints as text over the names (every one, as `analyze --format json` lists them);
//! - `dot`: a `relation:` row under each state, the relations `analyze` prints;
//! - `html`: the relation at every point, and why each constraint a step made new holds.
//!
//! A step's "why" is computed beside the engine (the analysis records nothing): the relation
//! before the step, its assigned names forgotten, gives the constraints that held before; the
//! new constraints of the relation after it that those do not give are the step's own (a
//! guard's, an assignment's, or the bounds its value told the relation), relations first; and
//! each new constraint is derived from the two and the 64-bit range by
//! [`absinthe::relational::explain`], the sums of the closure that combined them.

use super::common::{Run, TraceFormat, WithReductions, dot, json_trace, state_json, state_line};
use super::page::page;
use super::record::{Interner, Valued};
use crate::driver::{relation_text, relational_analysis};
use absinthe::engine::solve_traced;
use absinthe::lattice::Lattice;
use absinthe::product::record_reductions;
use absinthe::program::{NameId, Stmt};
use absinthe::relational::{
    Constraint, Derivation, DomainBounds, ForRelation, Packed, RelState, Relation, RelationKind,
    Relational, WithRelation, explain, linear,
};
use absinthe::value::{Env, ValueDomain};
use absinthe_ir::Function;
use serde_json::{Value, json};
use std::marker::PhantomData;

/// The trace of `run` for a domain `D` whose relational component is `relation`.
pub(super) fn trace<D: ValueDomain>(run: &Run<'_>, relation: Relation) -> String {
    let traced = Traced::<D> {
        run,
        domain: PhantomData,
    };
    relation.dispatch(traced)
}

struct Traced<'r, 'a, D> {
    run: &'r Run<'a>,
    domain: PhantomData<fn() -> D>,
}

impl<D: ValueDomain> ForRelation for Traced<'_, '_, D> {
    type Output = String;

    fn run<R: Relational + Clone>(self, relation: Relation) -> String {
        let run = self.run;
        let f = &run.subject.function;
        let analysis = Explained {
            engine: relational_analysis::<D, R>(run.conditional, run.thresholds, relation),
            kind: relation.kind,
        };
        let stream = match run.format {
            TraceFormat::Html { verify_runs } => {
                return page::<D, _>(run, &analysis, Some(relation), verify_runs);
            }
            TraceFormat::JsonTrace => true,
            TraceFormat::Dot => false,
        };
        let mut recorder = WithReductions::default();
        record_reductions(true);
        let solution = solve_traced(f, &analysis.engine, run.limits, &mut recorder);
        record_reductions(false);
        if stream {
            let state = |s: &RelState<D, R>| state_json(f, &s.env);
            let constraints = |s: &RelState<D, R>| constraints_json(f, s);
            json_trace(
                run.subject,
                run.analysis,
                &recorder.events,
                &solution,
                &state,
                Some(&constraints),
                Default::default(),
            )
        } else {
            let lines = |s: &RelState<D, R>| {
                let mut lines = vec![state_line(f, &s.env)];
                if s.is_reachable()
                    && let Some(text) = relation_text(&s.rel.constraints(), &f.names)
                {
                    lines.push(format!("relation: {text}"));
                }
                lines
            };
            dot(run.subject, run.analysis, &solution, &lines)
        }
    }
}

/// The constraints of a state as text over the function's names; `null` when unreachable.
fn constraints_json<D: ValueDomain, R: Relational + Clone>(
    f: &Function,
    state: &RelState<D, R>,
) -> Value {
    if !state.is_reachable() {
        return Value::Null;
    }
    let name = |x: usize| name_of(f, x);
    state
        .rel
        .constraints()
        .iter()
        .map(|c| Value::String(c.text(&name)))
        .collect()
}

fn name_of(f: &Function, x: usize) -> String {
    f.names.get(x).cloned().unwrap_or_else(|| {
        unreachable!("name {x} is one of the function's {} names", f.names.len())
    })
}

/// The relational engine, and the kind of its relation (which forms a derivation may use).
struct Explained<D, R> {
    engine: WithRelation<D, R, DomainBounds>,
    kind: RelationKind,
}

impl<D: ValueDomain, R: Relational + Clone> absinthe::engine::Analysis<Function>
    for Explained<D, R>
{
    type State = RelState<D, R>;
    const DIRECTION: absinthe::engine::Direction = absinthe::engine::Direction::Forward;

    fn boundary_state(&self, program: &Function) -> RelState<D, R> {
        self.engine.boundary_state(program)
    }

    fn transfer_block(
        &self,
        program: &Function,
        block: absinthe::program::BlockId,
        state: &mut RelState<D, R>,
    ) {
        self.engine.transfer_block(program, block, state);
    }

    fn transfer_edge(
        &self,
        program: &Function,
        from: absinthe::program::BlockId,
        succ_index: usize,
        state: &RelState<D, R>,
    ) -> RelState<D, R> {
        self.engine.transfer_edge(program, from, succ_index, state)
    }

    fn transfer_evaluations(&self, program: &Function, block: absinthe::program::BlockId) -> u64 {
        self.engine.transfer_evaluations(program, block)
    }

    fn loop_thresholds(
        &self,
        program: &Function,
        blocks: &[absinthe::program::BlockId],
    ) -> absinthe::lattice::Thresholds {
        self.engine.loop_thresholds(program, blocks)
    }
}

impl<D: ValueDomain, R: Relational + Clone> Valued<D> for Explained<D, R> {
    fn env(state: &RelState<D, R>) -> &Env<D> {
        &state.env
    }

    fn step(&self, stmt: &Stmt, state: &mut RelState<D, R>) {
        self.engine.transfer_stmt(stmt, state);
    }

    fn relation(state: &RelState<D, R>) -> Option<Vec<Constraint>> {
        Some(state.rel.constraints())
    }

    fn why(
        &self,
        function: &Function,
        (stmt, assigned): (Option<&Stmt>, &[NameId]),
        before: &RelState<D, R>,
        after: &RelState<D, R>,
        strings: &mut Interner,
    ) -> Value {
        let name = |x: usize| name_of(function, x);
        let mut text = |c: Constraint| strings.intern(&c.text(&name));
        // `x = x + c` and `x = c - x` move what held of `x` rather than forget it.
        let moved = match stmt {
            Some(Stmt::Assign { dest, rhs }) => linear(rhs).filter(|&(y, _, _)| y == dest.index()),
            _ => None,
        };
        let whys = why_step(self.kind, &before.rel, &after.rel, assigned, moved);
        whys.into_iter()
            .map(|(c, why)| {
                let tree = match &why {
                    Some((d, labels)) => tree_json(d, labels, &mut text),
                    None => Value::Null,
                };
                json!([text(c), tree])
            })
            .collect()
    }
}

/// Where a premise of a step's derivations comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Premise {
    /// The relation before the step held it (the step's assigned names forgotten).
    Before,
    /// The step made it: a guard's or an assignment's constraint, or a bound its value gave.
    Step,
    /// The range of 64-bit values, which every relation is met with.
    Range,
    /// The constraint held before of the name the step moved (`x = x + c`, `x = c - x`), and
    /// the step moved it to this one.
    Moved(Constraint),
}

/// A derivation as the viewer reads it: `[constraint, 0|1|2]` for a premise (held before, made
/// by the step, the 64-bit range), `[constraint, 3, left, right]` for a sum, and
/// `[constraint, 4, earlier]` for what held before of a name the step moved (`x = x + 1`).
fn tree_json(
    d: &Derivation,
    labels: &[Premise],
    text: &mut impl FnMut(Constraint) -> u32,
) -> Value {
    match d {
        Derivation::Premise { index, constraint } => match labels[*index] {
            Premise::Before => json!([text(*constraint), 0]),
            Premise::Step => json!([text(*constraint), 1]),
            Premise::Range => json!([text(*constraint), 2]),
            Premise::Moved(earlier) => json!([text(*constraint), 4, text(earlier)]),
        },
        Derivation::Sum { constraint, parts } => {
            let left = tree_json(&parts[0], labels, text);
            let right = tree_json(&parts[1], labels, text);
            json!([text(*constraint), 3, left, right])
        }
    }
}

/// Whether `a` bounds the form `b` bounds at least as tightly (so that `b` holds where `a`
/// does).
fn gives(a: Constraint, b: Constraint) -> bool {
    match (a, b) {
        (Constraint::Difference(x, y, c), Constraint::Difference(u, v, d)) => {
            (x, y) == (u, v) && c <= d
        }
        (Constraint::Sum(x, y, c), Constraint::Sum(u, v, d))
        | (Constraint::NegSum(x, y, c), Constraint::NegSum(u, v, d)) => {
            ((x, y) == (u, v) || (x, y) == (v, u)) && c <= d
        }
        (Constraint::Upper(x, c), Constraint::Upper(u, d)) => x == u && c <= d,
        (Constraint::Lower(x, c), Constraint::Lower(u, d)) => x == u && c >= d,
        _ => false,
    }
}

/// The bounds of 64-bit values of `names`.
fn range_of(names: &[usize]) -> Vec<Constraint> {
    names
        .iter()
        .flat_map(|&x| {
            [
                Constraint::Upper(x, i128::from(i64::MAX)),
                Constraint::Lower(x, i128::from(i64::MIN)),
            ]
        })
        .collect()
}

fn variables(c: Constraint) -> [usize; 2] {
    match c {
        Constraint::Difference(x, y, _)
        | Constraint::Sum(x, y, _)
        | Constraint::NegSum(x, y, _) => [x, y],
        Constraint::Upper(x, _) | Constraint::Lower(x, _) => [x, x],
    }
}

/// A derivation, and where each of its premises comes from.
pub(crate) type Why = (Derivation, Vec<Premise>);

/// What held of `x` before `x := ±x + c` (`moved`: `x`, whether negated, `c`) says of the new
/// `x`: `x - y ≤ b` becomes `x - y ≤ b + c` (`x := x + c`) or `-x - y ≤ b - c` (`x := c - x`).
/// The constraints that do not mention `x` are left out.
fn moved_constraint(c: Constraint, (x, negated, k): (usize, bool, i64)) -> Option<Constraint> {
    let k = i128::from(k);
    let other = |a: usize, b: usize| if a == x { b } else { a };
    Some(match (c, negated) {
        (Constraint::Difference(a, b, d), false) if a == x => Constraint::Difference(a, b, d + k),
        (Constraint::Difference(a, b, d), false) if b == x => Constraint::Difference(a, b, d - k),
        (Constraint::Sum(a, b, d), false) if a == x || b == x => Constraint::Sum(a, b, d + k),
        (Constraint::NegSum(a, b, d), false) if a == x || b == x => Constraint::NegSum(a, b, d - k),
        (Constraint::Upper(a, d), false) if a == x => Constraint::Upper(a, d + k),
        (Constraint::Lower(a, d), false) if a == x => Constraint::Lower(a, d + k),
        // The old `x` is `k - x`.
        (Constraint::Difference(a, b, d), true) if a == x => Constraint::NegSum(x, b, d - k),
        (Constraint::Difference(a, b, d), true) if b == x => Constraint::Sum(x, a, d + k),
        (Constraint::Sum(a, b, d), true) if a == x || b == x => {
            Constraint::Difference(other(a, b), x, d - k)
        }
        (Constraint::NegSum(a, b, d), true) if a == x || b == x => {
            Constraint::Difference(x, other(a, b), d + k)
        }
        (Constraint::Upper(a, d), true) if a == x => Constraint::Lower(x, k - d),
        (Constraint::Lower(a, d), true) if a == x => Constraint::Upper(x, k - d),
        _ => return None,
    })
}

/// Why each constraint of `after` that `before` (its `assigned` names forgotten) does not give
/// holds after the step between them: a derivation from what held before (what held of a name
/// the step `moved`, `x := ±x + c`, moved with it), what the step made and the 64-bit range,
/// or `None` when those do not give it.
pub(crate) fn why_step<R: Relational + Clone>(
    kind: RelationKind,
    before: &Packed<R>,
    after: &Packed<R>,
    assigned: &[NameId],
    moved: Option<(usize, bool, i64)>,
) -> Vec<(Constraint, Option<Why>)> {
    if before.is_bottom() || after.is_bottom() {
        return Vec::new();
    }
    let mut kept = before.clone();
    for x in assigned {
        kept.forget(x.index());
    }
    let held = kept.constraints();
    // New: what the relation before, the assigned names forgotten, does not give.
    let new: Vec<Constraint> = after
        .constraints()
        .into_iter()
        .filter(|&c| !held.iter().any(|&h| gives(h, c)))
        .collect();
    let mut held: Vec<(Constraint, Premise)> =
        held.into_iter().map(|c| (c, Premise::Before)).collect();
    if let Some(moved) = moved {
        // Only when the move did not wrap: the relation after gives every moved constraint.
        let shifted: Vec<(Constraint, Premise)> = before
            .constraints()
            .into_iter()
            .filter_map(|c| Some((moved_constraint(c, moved)?, Premise::Moved(c))))
            .collect();
        let now = after.constraints();
        let holds = |c: Constraint| {
            let mut given = now.clone();
            given.extend(range_of(&variables(c)));
            explain(kind, &given, c).is_some()
        };
        if shifted.iter().all(|&(c, _)| holds(c)) {
            held.extend(shifted);
        }
    }
    if new.is_empty() {
        return Vec::new();
    }
    // Only the packs of the new constraints' names can take part.
    let Some(partition) = after.partition() else {
        unreachable!("a relation that is not bottom is made over its partition")
    };
    let mut packs: Vec<usize> = new
        .iter()
        .flat_map(|&c| variables(c))
        .map(|x| partition.place(x).0)
        .collect();
    packs.sort_unstable();
    packs.dedup();
    let in_packs = |c: &Constraint| packs.contains(&partition.place(variables(*c)[0]).0);
    let mut premises: Vec<(Constraint, Premise)> =
        held.into_iter().filter(|(c, _)| in_packs(c)).collect();
    for &p in &packs {
        let range = range_of(&partition.packs()[p]);
        premises.extend(range.into_iter().map(|c| (c, Premise::Range)));
    }
    // The step's own constraints: the new ones, less each that the rest gives (bounds tried
    // first, so that a guard's or an assignment's relation stays its own). Each one left out
    // is given by what remains, so every new constraint is derived in the end.
    let is_bound = |c: &Constraint| matches!(c, Constraint::Upper(..) | Constraint::Lower(..));
    let mut own: Vec<Constraint> = new.clone();
    let tries: Vec<Constraint> = new
        .iter()
        .filter(|c| is_bound(c))
        .chain(new.iter().filter(|c| !is_bound(c)))
        .copied()
        .collect();
    for c in tries {
        let rest: Vec<Constraint> = premises
            .iter()
            .map(|(p, _)| *p)
            .chain(own.iter().copied().filter(|&o| o != c))
            .collect();
        if explain(kind, &rest, c).is_some() {
            own.retain(|&o| o != c);
        }
    }
    premises.extend(own.into_iter().map(|c| (c, Premise::Step)));
    let given: Vec<Constraint> = premises.iter().map(|(p, _)| *p).collect();
    let labels: Vec<Premise> = premises.iter().map(|(_, l)| *l).collect();
    new.into_iter()
        .map(|c| (c, explain(kind, &given, c).map(|d| (d, labels.clone()))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{Premise, why_step};
    use absinthe::program::NameId;
    use absinthe::relational::{
        Constraint, Derivation, Octagon, Packed, Partition, RelationKind, Relational, Zone, combine,
    };
    use std::sync::Arc;

    /// Every sum adds up, and the leaves, with where they come from.
    fn leaves(d: &Derivation, labels: &[Premise], out: &mut Vec<(Constraint, Premise)>) {
        match d {
            Derivation::Premise { index, constraint } => out.push((*constraint, labels[*index])),
            Derivation::Sum { constraint, parts } => {
                assert_eq!(
                    combine(parts[0].constraint(), parts[1].constraint()),
                    Some(*constraint),
                    "a sum is its parts added"
                );
                leaves(&parts[0], labels, out);
                leaves(&parts[1], labels, out);
            }
        }
    }

    /// `x - y ≤ 1` held, a guard adds `y ≤ 5`: `x ≤ 6` is their sum, for a zone and an octagon.
    fn a_guard_and_a_difference<R: Relational + Clone>(kind: RelationKind) {
        let partition = Arc::new(Partition::new(2, [(0, 1)], 8));
        let mut before = Packed::<R>::top_over(partition);
        before.add_constraint(Constraint::Difference(0, 1, 1));
        let mut after = before.clone();
        after.add_constraint(Constraint::Upper(1, 5));
        let whys = why_step(kind, &before, &after, &[], None);
        let made: Vec<Constraint> = whys.iter().map(|(c, _)| *c).collect();
        assert_eq!(
            made,
            vec![Constraint::Upper(0, 6), Constraint::Upper(1, 5)],
            "the new constraints"
        );
        let Some((d, labels)) = &whys[0].1 else {
            panic!("x ≤ 6 is derived");
        };
        let mut used = Vec::new();
        leaves(d, labels, &mut used);
        assert_eq!(
            used,
            vec![
                (Constraint::Difference(0, 1, 1), Premise::Before),
                (Constraint::Upper(1, 5), Premise::Step),
            ]
        );
    }

    #[test]
    fn a_zone_step_is_explained_by_the_constraints_it_sums() {
        a_guard_and_a_difference::<Zone>(RelationKind::Zone);
    }

    #[test]
    fn an_octagon_step_is_explained_by_the_constraints_it_sums() {
        a_guard_and_a_difference::<Octagon>(RelationKind::Octagon);
    }

    /// `x = x + 1` moves `x - y ≤ 1` to `x - y ≤ 2`; an assignment of another name forgets.
    #[test]
    fn a_move_keeps_what_held_of_the_name() {
        let partition = Arc::new(Partition::new(2, [(0, 1)], 8));
        let mut before = Packed::<Zone>::top_over(partition);
        before.add_constraint(Constraint::Difference(0, 1, 1));
        before.add_interval(1, &absinthe::lattice::Interval::new(0, 10));
        let mut after = before.clone();
        after.assign_var(0, false, 0, 1);
        let whys = why_step(
            RelationKind::Zone,
            &before,
            &after,
            &[NameId::new(0)],
            Some((0, false, 1)),
        );
        let (c, Some((d, labels))) = &whys
            .iter()
            .find(|(c, _)| matches!(c, Constraint::Difference(0, 1, _)))
            .expect("x - y is new")
        else {
            panic!("x - y ≤ 2 is derived");
        };
        assert_eq!(*c, Constraint::Difference(0, 1, 2));
        let mut used = Vec::new();
        leaves(d, labels, &mut used);
        assert_eq!(
            used,
            vec![(
                Constraint::Difference(0, 1, 2),
                Premise::Moved(Constraint::Difference(0, 1, 1))
            )]
        );
    }
}
