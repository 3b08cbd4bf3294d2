//! A value analysis with a relational component: every name's value of a [`ValueDomain`], as
//! [`NonRelational`] computes it, beside a [`Packed`] relational value over the same names.
//! After each step the two tell each other what they know of the names it touched, through a
//! [`BoundsReduction`]: the value learns the bounds the relation gives its name, the relation
//! the interval the value lies in.
//!
//! The relation is updated exactly for assignments of `±y + c`, wraps to a width that the bounds
//! of the wrapped name show cannot wrap ([`copy_within`]), signed comparisons of two names or of
//! a name and a constant, unsigned ones where a bound makes the unsigned order the signed one,
//! and φs (parallel copies); any other assignment gives the relation only the bounds the value
//! domain computed.

use super::domain::{Constraint, Relational};
use super::pack::{Packed, Partition, copy_within, linear};
use crate::engine::{Analysis, Direction};
use crate::lattice::{Interval, Lattice, Thresholds};
use crate::program::{BlockId, Cond, NameId, Op, Operand, Program, Rhs, Stmt, Terminator};
use crate::value::{Env, NonRelational, ValueDomain};
use std::fmt;
use std::sync::Arc;

/// What a value of `D` and the relation's bounds of the same name tell each other.
pub trait BoundsReduction<D>: Send + Sync {
    /// Refines `value` by `bounds` and `bounds` by `value` (either may become empty).
    fn reduce(&self, value: &mut D, bounds: &mut Interval);
}

/// The reduction of the interval domain: each side met with the other.
#[derive(Clone, Copy, Debug, Default)]
pub struct IntervalBounds;

impl BoundsReduction<Interval> for IntervalBounds {
    fn reduce(&self, value: &mut Interval, bounds: &mut Interval) {
        *value = value.meet(bounds);
        *bounds = *value;
    }
}

/// The reduction of a domain with a relational component ([`ValueDomain::relation`]): the
/// value's component met with the relation's bounds and the product's reductions run, then the
/// relation told the component's bounds.
#[derive(Clone, Copy, Debug, Default)]
pub struct DomainBounds;

impl<D: ValueDomain> BoundsReduction<D> for DomainBounds {
    fn reduce(&self, value: &mut D, bounds: &mut Interval) {
        *value = value.with_relation_bounds(bounds);
        *bounds = bounds.meet(&value.relation_bounds());
    }
}

/// The names' values and the relation between them, or unreachable.
#[derive(Clone, Debug)]
pub struct RelState<D, R> {
    /// Every name's value (`Env::Unreachable` for the unreachable state).
    pub env: Env<D>,
    /// The relation between the names (bottom exactly when `env` is unreachable).
    pub rel: Packed<R>,
}

impl<D: Lattice, R: Relational + Clone> PartialEq for RelState<D, R> {
    fn eq(&self, other: &RelState<D, R>) -> bool {
        self.env == other.env && self.rel == other.rel
    }
}

impl<D: Lattice, R: Relational + Clone> Eq for RelState<D, R> {}

impl<D: Lattice, R: Relational + Clone> RelState<D, R> {
    /// The unreachable state when either part says so.
    fn normal(env: Env<D>, rel: Packed<R>) -> RelState<D, R> {
        if !env.is_reachable() || rel.is_bottom() {
            return RelState::bottom();
        }
        RelState { env, rel }
    }

    /// Whether some execution may reach this point.
    pub fn is_reachable(&self) -> bool {
        self.env.is_reachable()
    }
}

impl<D: Lattice, R: Relational + Clone> Lattice for RelState<D, R> {
    const FINITE_HEIGHT: bool = false;

    fn bottom() -> RelState<D, R> {
        RelState {
            env: Env::Unreachable,
            rel: Packed::bottom(),
        }
    }

    fn is_bottom(&self) -> bool {
        !self.env.is_reachable()
    }

    fn leq(&self, other: &RelState<D, R>) -> bool {
        self.is_bottom() || (self.env.leq(&other.env) && self.rel.leq(&other.rel))
    }

    fn join(&self, other: &RelState<D, R>) -> RelState<D, R> {
        if self.is_bottom() {
            return other.clone();
        }
        if other.is_bottom() {
            return self.clone();
        }
        RelState::normal(self.env.join(&other.env), self.rel.join(&other.rel))
    }

    fn meet(&self, other: &RelState<D, R>) -> RelState<D, R> {
        RelState::normal(self.env.meet(&other.env), self.rel.meet(&other.rel))
    }

    fn widen(&self, newer: &RelState<D, R>) -> RelState<D, R> {
        self.widen_with_thresholds(newer, &Thresholds::none())
    }

    fn widen_with_thresholds(
        &self,
        newer: &RelState<D, R>,
        thresholds: &Thresholds,
    ) -> RelState<D, R> {
        if self.is_bottom() {
            return newer.clone();
        }
        if newer.is_bottom() {
            return self.clone();
        }
        RelState::normal(
            self.env.widen_with_thresholds(&newer.env, thresholds),
            self.rel.widen_with_thresholds(&newer.rel, thresholds),
        )
    }

    fn narrow(&self, newer: &RelState<D, R>) -> RelState<D, R> {
        RelState::normal(self.env.narrow(&newer.env), self.rel.narrow(&newer.rel))
    }
}

impl<D: ValueDomain, R: Relational + Clone> RelState<D, R> {
    /// The state as text, each name of `names` with its value, then the relations:
    /// `i = [0, 9], n = ⊤ | i - n ≤ -1`.
    pub fn text_with(&self, names: &[String]) -> String {
        if !self.is_reachable() {
            return "unreachable".to_owned();
        }
        let values = self.env.text_with(names, |d| d.to_string());
        let name = |x: usize| {
            names.get(x).cloned().unwrap_or_else(|| {
                unreachable!("name {x} is one of the function's {} names", names.len())
            })
        };
        let relations: Vec<String> = self
            .rel
            .constraints()
            .iter()
            .filter(|c| !matches!(c, Constraint::Upper(..) | Constraint::Lower(..)))
            .map(|c| c.text(&name))
            .collect();
        if relations.is_empty() {
            values
        } else {
            format!("{values} | {}", relations.join(", "))
        }
    }
}

impl<D: ValueDomain + fmt::Display, R: Relational + Clone> fmt::Display for RelState<D, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self.env.values().len();
        let names: Vec<String> = (0..width).map(|x| format!("%{x}")).collect();
        f.write_str(&self.text_with(&names))
    }
}

/// The analysis: [`NonRelational`] over `D`, a [`Packed`] relation of `R` over the packs of
/// [`Partition::of_program`] (at most `max_pack` names each), reduced through `B`.
#[derive(Debug)]
pub struct WithRelation<D, R, B> {
    values: NonRelational<D>,
    max_pack: usize,
    /// Names the relation never relates to another ([`WithRelation::keeping_apart`]).
    apart: Vec<usize>,
    reduction: B,
    relation: std::marker::PhantomData<fn() -> R>,
}

impl<D: ValueDomain, R: Relational + Clone, B: BoundsReduction<D>> WithRelation<D, R, B> {
    /// The analysis: branch conditions refine both parts when `conditional`; packs hold at
    /// most `max_pack` names.
    pub fn new(conditional: bool, max_pack: usize, reduction: B) -> WithRelation<D, R, B> {
        WithRelation {
            values: NonRelational::new(conditional),
            max_pack,
            apart: Vec::new(),
            reduction,
            relation: std::marker::PhantomData,
        }
    }

    /// The analysis with `thresholds` added to the constants each loop's widening may stop at
    /// (the names' values and the relation alike).
    pub fn with_thresholds(self, thresholds: &'static [i64]) -> WithRelation<D, R, B> {
        WithRelation {
            values: self.values.with_thresholds(thresholds),
            ..self
        }
    }

    /// The analysis with each of `names` in a pack of its own: the relation keeps only its
    /// bounds, and another name assigned from it gets its bounds, not a relation to it. For a
    /// name that stands for many values (the LLVM front end's shared unknown value, which every
    /// load and call it cannot model reads): a relation to it would tie the values it stands
    /// for together.
    pub fn keeping_apart(self, names: impl IntoIterator<Item = NameId>) -> WithRelation<D, R, B> {
        WithRelation {
            apart: names.into_iter().map(NameId::index).collect(),
            ..self
        }
    }

    /// Replays `block` from its entry state: the state before each statement, then the one
    /// before the terminator.
    pub fn replay<P: Program + ?Sized>(
        &self,
        program: &P,
        block: BlockId,
        entry: &RelState<D, R>,
    ) -> Vec<RelState<D, R>> {
        let stmts = program.stmts(block);
        let mut states = Vec::with_capacity(stmts.len() + 1);
        let mut state = entry.clone();
        for stmt in stmts {
            states.push(state.clone());
            self.transfer_stmt(stmt, &mut state);
        }
        states.push(state);
        states
    }

    /// Applies one statement to `state`.
    pub fn transfer_stmt(&self, stmt: &Stmt, state: &mut RelState<D, R>) {
        if !state.is_reachable() {
            return;
        }
        self.values.transfer_stmt(stmt, &mut state.env);
        let Stmt::Assign { dest, rhs } = stmt else {
            return;
        };
        let x = dest.index();
        match (linear(rhs), rhs) {
            (Some((y, negated, c)), _) => state.rel.assign_var(x, negated, y, c),
            (None, Rhs::Use(Operand::Int(c))) => {
                state.rel.assign_interval(x, &Interval::constant(*c));
            }
            (None, _) => match copy_within(rhs) {
                // A wrap that cannot wrap: `y`'s bounds (its value's, told the relation first)
                // lie within the width.
                Some((y, within)) if y != x && self.within(state, NameId::new(y), &within) => {
                    state.rel.assign_var(x, false, y, 0);
                }
                // The relation learns the value's bounds through the reduction below.
                _ => state.rel.assign_interval(x, &Interval::top()),
            },
        }
        self.reduce(state, &[*dest]);
    }

    /// Each of `names` and the relation refined by each other; the state is unreachable when
    /// either becomes empty.
    fn reduce(&self, state: &mut RelState<D, R>, names: &[NameId]) {
        for &name in names {
            if !state.is_reachable() {
                return;
            }
            let mut value = state.env.get(name);
            if value.is_bottom() {
                // Never assigned on the paths here (or the result of a trap): nothing to tell.
                continue;
            }
            let mut bounds = state.rel.bounds(name.index());
            self.reduction.reduce(&mut value, &mut bounds);
            if value.is_bottom() || bounds.is_bottom() {
                *state = RelState::bottom();
                return;
            }
            state.env.set(name, value);
            state.rel.add_interval(name.index(), &bounds);
            if state.rel.is_bottom() {
                *state = RelState::bottom();
            }
        }
    }

    /// Whether `y` lies within `range` in `state`: its value's bounds, told the relation, and the
    /// relation's.
    fn within(&self, state: &mut RelState<D, R>, y: NameId, range: &Interval) -> bool {
        self.reduce(state, &[y]);
        state.is_reachable() && state.rel.bounds(y.index()).leq(range)
    }

    /// Every name sharing a pack with one of `names`.
    fn pack_mates(state: &RelState<D, R>, names: &[NameId]) -> Vec<NameId> {
        let Some(partition) = state.rel.partition() else {
            return names.to_vec();
        };
        let mut out: Vec<NameId> = Vec::new();
        for name in names {
            let (pack, _) = partition.place(name.index());
            for &m in &partition.packs()[pack] {
                if !out.iter().any(|n| n.index() == m) {
                    out.push(NameId::new(m));
                }
            }
        }
        out
    }

    /// Adds to the relation what `a op b` holding says (signed comparisons only); the names
    /// it compared.
    fn guard(rel: &mut Packed<R>, op: Op, a: Operand, b: Operand) -> Vec<NameId> {
        let (op, a, b) = match (a, b) {
            (Operand::Int(_), Operand::Name(_)) => match op.swapped() {
                Some(swapped) => (swapped, b, a),
                None => return Vec::new(),
            },
            _ => (op, a, b),
        };
        let constraints: Vec<Constraint> = match (a, b) {
            (Operand::Name(x), Operand::Name(y)) => {
                let (x, y) = (x.index(), y.index());
                match op {
                    Op::Lt => vec![Constraint::Difference(x, y, -1)],
                    Op::Le => vec![Constraint::Difference(x, y, 0)],
                    Op::Gt => vec![Constraint::Difference(y, x, -1)],
                    Op::Ge => vec![Constraint::Difference(y, x, 0)],
                    Op::Eq => vec![
                        Constraint::Difference(x, y, 0),
                        Constraint::Difference(y, x, 0),
                    ],
                    _ => Vec::new(),
                }
            }
            (Operand::Name(x), Operand::Int(c)) => {
                let (x, c) = (x.index(), i128::from(c));
                match op {
                    Op::Lt => vec![Constraint::Upper(x, c - 1)],
                    Op::Le => vec![Constraint::Upper(x, c)],
                    Op::Gt => vec![Constraint::Lower(x, c + 1)],
                    Op::Ge => vec![Constraint::Lower(x, c)],
                    Op::Eq => vec![Constraint::Upper(x, c), Constraint::Lower(x, c)],
                    _ => Vec::new(),
                }
            }
            _ => Vec::new(),
        };
        for c in &constraints {
            rel.add_constraint(*c);
        }
        [a, b]
            .into_iter()
            .filter_map(|o| match o {
                Operand::Name(n) if !constraints.is_empty() => Some(n),
                _ => None,
            })
            .collect()
    }

    /// An unsigned comparison as the signed ones it implies, when a bound makes the two orders
    /// agree: `a <u b` with `b ≥ 0` holds exactly when `0 ≤ a < b` (a negative `a` is at least
    /// 2⁶³ unsigned, past every non-negative `b`), and likewise `a ≤u b` with `b ≥ 0` is
    /// `0 ≤ a ≤ b`, `a >u b` with `a ≥ 0` is `0 ≤ b < a`, `a ≥u b` with `a ≥ 0` is
    /// `0 ≤ b ≤ a`. Nothing when the bound is not known (the signed order may then disagree).
    fn unsigned_as_signed(
        &self,
        state: &mut RelState<D, R>,
        op: Op,
        a: Operand,
        b: Operand,
    ) -> Vec<(Op, Operand, Operand)> {
        let (signed, small, large) = match op {
            Op::ULt => (Op::Lt, a, b),
            Op::ULe => (Op::Le, a, b),
            Op::UGt => (Op::Lt, b, a),
            Op::UGe => (Op::Le, b, a),
            _ => return Vec::new(),
        };
        let non_negative = match large {
            Operand::Int(c) => c >= 0,
            Operand::Name(y) => self.within(state, y, &Interval::new(0, i64::MAX)),
        };
        if !non_negative {
            return Vec::new();
        }
        vec![(Op::Ge, small, Operand::Int(0)), (signed, small, large)]
    }

    /// The relation after the edge's condition holds; the names it constrained.
    fn refine_relation<P: Program + ?Sized>(
        &self,
        program: &P,
        from: BlockId,
        succ_index: usize,
        state: &mut RelState<D, R>,
    ) -> Vec<NameId> {
        if !self.values.is_conditional() {
            return Vec::new();
        }
        match program.terminator(from) {
            Terminator::Branch { cond, .. } => {
                let holds = succ_index == 0;
                match *cond {
                    Cond::Compare(op, a, b) => {
                        let Some(op) = (if holds { Some(op) } else { op.negated() }) else {
                            return Vec::new();
                        };
                        let unsigned = self.unsigned_as_signed(state, op, a, b);
                        if !state.is_reachable() {
                            return Vec::new();
                        }
                        if unsigned.is_empty() {
                            return Self::guard(&mut state.rel, op, a, b);
                        }
                        let mut names = Vec::new();
                        for (op, a, b) in unsigned {
                            for n in Self::guard(&mut state.rel, op, a, b) {
                                if !names.contains(&n) {
                                    names.push(n);
                                }
                            }
                        }
                        names
                    }
                    Cond::NonZero(a) if !holds => {
                        Self::guard(&mut state.rel, Op::Eq, a, Operand::Int(0))
                    }
                    Cond::NonZero(_) => Vec::new(),
                }
            }
            Terminator::Switch { on, cases, .. } => match cases.get(succ_index) {
                Some(&(value, _)) => Self::guard(&mut state.rel, Op::Eq, *on, Operand::Int(value)),
                None => Vec::new(),
            },
            Terminator::Goto(_)
            | Terminator::Return(_)
            | Terminator::Throw(_)
            | Terminator::Unreachable => Vec::new(),
        }
    }

    /// The φs of the edge's target as a parallel copy on the relation: each φ whose
    /// destination no other pending φ reads is assigned in turn; a cycle of φs reading each
    /// other's destinations takes the bounds of its operands, read before any is written.
    fn phis_on_relation<P: Program + ?Sized>(
        program: &P,
        from: BlockId,
        succ_index: usize,
        rel: &mut Packed<R>,
    ) -> Vec<NameId> {
        let Some(&to) = program.successors(from).get(succ_index) else {
            return Vec::new();
        };
        let mut pending: Vec<(NameId, Operand)> = program
            .phis(to)
            .iter()
            .filter_map(|phi| {
                let incoming = phi.incoming.iter().find(|(pred, _)| *pred == from)?;
                Some((phi.dest, incoming.1))
            })
            .collect();
        let dests: Vec<NameId> = pending.iter().map(|(d, _)| *d).collect();
        while !pending.is_empty() {
            let free = pending.iter().position(|&(dest, _)| {
                !pending
                    .iter()
                    .any(|&(other, src)| other != dest && src == Operand::Name(dest))
            });
            match free {
                Some(k) => {
                    let (dest, src) = pending.remove(k);
                    Self::copy(rel, dest, src);
                }
                None => {
                    let read: Vec<(NameId, Interval)> = pending
                        .iter()
                        .map(|&(dest, src)| (dest, Self::operand_bounds(rel, src)))
                        .collect();
                    for (dest, bounds) in read {
                        rel.assign_interval(dest.index(), &bounds);
                    }
                    pending.clear();
                }
            }
        }
        dests
    }

    fn copy(rel: &mut Packed<R>, dest: NameId, src: Operand) {
        match src {
            Operand::Name(y) if y == dest => {}
            Operand::Name(y) => rel.assign_var(dest.index(), false, y.index(), 0),
            Operand::Int(c) => rel.assign_interval(dest.index(), &Interval::constant(c)),
        }
    }

    fn operand_bounds(rel: &Packed<R>, o: Operand) -> Interval {
        match o {
            Operand::Name(y) => rel.bounds(y.index()),
            Operand::Int(c) => Interval::constant(c),
        }
    }
}

impl<D, R, B, P> Analysis<P> for WithRelation<D, R, B>
where
    D: ValueDomain,
    R: Relational + Clone,
    B: BoundsReduction<D>,
    P: Program + ?Sized,
{
    type State = RelState<D, R>;
    const DIRECTION: Direction = Direction::Forward;

    fn boundary_state(&self, program: &P) -> RelState<D, R> {
        let partition = Arc::new(Partition::of_program_apart(
            program,
            self.max_pack,
            &self.apart,
        ));
        RelState {
            env: <NonRelational<D> as Analysis<P>>::boundary_state(&self.values, program),
            rel: Packed::top_over(partition),
        }
    }

    fn transfer_block(&self, program: &P, block: BlockId, state: &mut RelState<D, R>) {
        for stmt in program.stmts(block) {
            self.transfer_stmt(stmt, state);
        }
    }

    fn transfer_edge(
        &self,
        program: &P,
        from: BlockId,
        succ_index: usize,
        state: &RelState<D, R>,
    ) -> RelState<D, R> {
        if !state.is_reachable() {
            return RelState::bottom();
        }
        let mut out = state.clone();
        if !self
            .values
            .refine_edge_in(program, from, succ_index, &mut out.env)
        {
            return RelState::bottom();
        }
        let compared = self.refine_relation(program, from, succ_index, &mut out);
        if !out.is_reachable() || out.rel.is_bottom() {
            return RelState::bottom();
        }
        // A guard may tighten every name of the compared names' packs.
        let touched = Self::pack_mates(&out, &compared);
        self.reduce(&mut out, &touched);
        if !out.is_reachable() {
            return out;
        }
        NonRelational::<D>::phis_in(program, from, succ_index, &mut out.env);
        let dests = Self::phis_on_relation(program, from, succ_index, &mut out.rel);
        if out.rel.is_bottom() {
            return RelState::bottom();
        }
        self.reduce(&mut out, &dests);
        out
    }

    fn transfer_evaluations(&self, program: &P, block: BlockId) -> u64 {
        <NonRelational<D> as Analysis<P>>::transfer_evaluations(&self.values, program, block)
    }

    fn loop_thresholds(&self, program: &P, blocks: &[BlockId]) -> Thresholds {
        <NonRelational<D> as Analysis<P>>::loop_thresholds(&self.values, program, blocks)
    }
}
