//! The generic non-relational analysis: any [`ValueDomain`] over any [`Program`].

use super::{Env, Truth, ValueDomain};
use crate::engine::{Analysis, Direction};
use crate::lattice::{Lattice, Thresholds};
use crate::program::{BlockId, Cond, NameId, Op, Operand, Program, Rhs, Stmt, Terminator};
use std::marker::PhantomData;

/// A forward analysis mapping every name to a value of `D`.
///
/// - Parameters start at top, every other name at bottom ("never assigned").
/// - Assignments evaluate their right-hand side with [`ValueDomain::binary`]; a `select` takes
///   the operand its condition picks, or the join of both when the condition may go either way;
///   `new`, field loads
///   and call results are top (the domain knows nothing about the heap or other functions, and a
///   call cannot change the caller's names).
/// - With `conditional` set, branch conditions are evaluated: an edge whose condition cannot hold
///   carries the unreachable state, and the values of the compared names are refined with
///   [`ValueDomain::assume`] (Wegman–Zadeck conditional propagation). Without it, every edge
///   carries the block's exit state unchanged.
/// - φs are evaluated on each incoming edge with the operand of that edge.
#[derive(Debug)]
pub struct NonRelational<D> {
    conditional: bool,
    /// Constants every widening may stop at, besides those of each loop's guards.
    thresholds: &'static [i64],
    domain: PhantomData<fn() -> D>,
}

impl<D> Clone for NonRelational<D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D> Copy for NonRelational<D> {}

/// The state before each statement of a block and before its terminator.
pub type PointStates<D> = Vec<Env<D>>;

impl<D: ValueDomain> NonRelational<D> {
    /// The analysis; `conditional` selects whether branch conditions are evaluated.
    pub fn new(conditional: bool) -> NonRelational<D> {
        NonRelational {
            conditional,
            thresholds: &[],
            domain: PhantomData,
        }
    }

    /// The analysis with `thresholds` added to the constants each loop's widening may stop at
    /// (which are otherwise harvested from the loop's guards).
    pub fn with_thresholds(self, thresholds: &'static [i64]) -> NonRelational<D> {
        NonRelational { thresholds, ..self }
    }

    /// Whether branch conditions are evaluated.
    pub fn is_conditional(&self) -> bool {
        self.conditional
    }

    /// The abstract value of `operand` in `env`.
    pub fn operand(env: &Env<D>, operand: Operand) -> D {
        Self::operand_in(env, operand)
    }

    /// The abstract value of `operand` in `values`.
    pub fn operand_in(values: &impl Bindings<D>, operand: Operand) -> D {
        match operand {
            Operand::Name(n) => values.get(n),
            Operand::Int(c) => D::constant(c),
        }
    }

    /// The value an assignment of `rhs` gives its destination, reading names from `values`.
    pub fn eval_rhs(rhs: &Rhs, values: &impl Bindings<D>) -> D {
        match rhs {
            Rhs::Use(a) => Self::operand_in(values, *a),
            Rhs::Binary(op, a, b) => D::binary(
                *op,
                &Self::operand_in(values, *a),
                &Self::operand_in(values, *b),
            ),
            Rhs::New
            | Rhs::Load(..)
            | Rhs::Call(..)
            | Rhs::Closure(..)
            | Rhs::Sibling(..)
            | Rhs::MyClosure
            | Rhs::Apply(..)
            | Rhs::Block(..)
            | Rhs::Field(..)
            | Rhs::Tag(..) => D::top(),
            Rhs::IsBlock(_) => D::constant(0).join(&D::constant(1)),
            Rhs::Address(s) => D::address(*s),
            Rhs::Table(entries, i) => D::table(entries, &Self::operand_in(values, *i)),
            Rhs::Select(c, a, b) => match Truth::of(&Self::operand_in(values, *c)) {
                Truth::Neither => D::bottom(),
                Truth::True => Self::operand_in(values, *a),
                Truth::False => Self::operand_in(values, *b),
                Truth::Unknown => Self::operand_in(values, *a).join(&Self::operand_in(values, *b)),
            },
        }
    }

    /// Applies one statement to `env`.
    pub fn transfer_stmt(&self, stmt: &Stmt, env: &mut Env<D>) {
        if !env.is_reachable() {
            return;
        }
        match stmt {
            Stmt::Assign { dest, rhs } => {
                let value = Self::eval_rhs(rhs, env);
                env.set(*dest, value);
            }
            Stmt::Store { .. } | Stmt::Call { .. } | Stmt::Apply { .. } => {}
        }
    }

    /// Replays the block `block` from its entry state: the state before each statement, then the
    /// state before the terminator (`stmts.len() + 1` states).
    pub fn replay<P: Program + ?Sized>(
        &self,
        program: &P,
        block: BlockId,
        entry: &Env<D>,
    ) -> PointStates<D> {
        let stmts = program.stmts(block);
        let mut states = Vec::with_capacity(stmts.len() + 1);
        let mut env = entry.clone();
        for stmt in stmts {
            states.push(env.clone());
            self.transfer_stmt(stmt, &mut env);
        }
        states.push(env);
        states
    }

    /// Refines `env` with the knowledge that `cond` evaluated to `outcome`; returns the
    /// unreachable state when that cannot happen.
    pub fn assume_cond(&self, cond: Cond, outcome: bool, env: &Env<D>) -> Env<D> {
        if !env.is_reachable() {
            return Env::Unreachable;
        }
        let mut out = env.clone();
        if self.assume_cond_in(cond, outcome, &mut out) {
            out
        } else {
            Env::Unreachable
        }
    }

    /// [`NonRelational::assume_cond`] on `values` in place; false when the outcome is impossible
    /// (`values` is then left partly refined and must be dropped).
    pub(crate) fn assume_cond_in(
        &self,
        cond: Cond,
        outcome: bool,
        values: &mut impl BindingsMut<D>,
    ) -> bool {
        let (op, a, b) = match cond {
            Cond::NonZero(a) => (if outcome { Op::Ne } else { Op::Eq }, a, Operand::Int(0)),
            Cond::Compare(op, a, b) => {
                let op = if outcome {
                    op
                } else {
                    // A non-comparison used as a condition is tested against zero.
                    match op.negated() {
                        Some(negated) => negated,
                        None => return true,
                    }
                };
                (op, a, b)
            }
        };
        Self::assume_in(op, a, b, values)
    }

    /// Refines the values of `a` and `b` in `values` knowing that `a op b` holds; false when it
    /// cannot (`values` is then left partly refined and must be dropped).
    fn assume_in(op: Op, a: Operand, b: Operand, values: &mut impl BindingsMut<D>) -> bool {
        let (va, vb) = (Self::operand_in(values, a), Self::operand_in(values, b));
        let truth = Truth::of(&D::binary(op, &va, &vb));
        if !truth.allows(true) {
            return false;
        }
        let (ra, rb) = D::assume(op, &va, &vb);
        if ra.is_bottom() || rb.is_bottom() {
            return false;
        }
        if let Operand::Name(n) = a {
            values.set(n, ra);
        }
        if let Operand::Name(n) = b {
            let refined = if a == b { values.get(n).meet(&rb) } else { rb };
            if refined.is_bottom() {
                return false;
            }
            values.set(n, refined);
        }
        true
    }

    /// Refines `values` knowing that `on` matches none of the `cases` (the default edge of a
    /// switch), in one pass over the sorted cases rather than one refinement per case; false
    /// when no value is left.
    fn assume_none_of(
        on: Operand,
        cases: &[(i64, BlockId)],
        values: &mut impl BindingsMut<D>,
    ) -> bool {
        let mut value = Self::operand_in(values, on);
        let mut constants: Vec<i64> = cases.iter().map(|&(c, _)| c).collect();
        constants.sort_unstable();
        constants.dedup();
        // Excluding a value only shrinks a domain element at its ends (intervals), so go up and
        // then down the sorted cases.
        for &c in constants.iter().chain(constants.iter().rev()) {
            let constant = D::constant(c);
            if !Truth::of(&D::binary(Op::Ne, &value, &constant)).allows(true) {
                return false;
            }
            value = D::assume(Op::Ne, &value, &constant).0;
            if value.is_bottom() {
                return false;
            }
        }
        if let Operand::Name(n) = on {
            values.set(n, value);
        }
        true
    }

    /// Refines `values` along the edge `from → successors(from)[succ_index]` (identity unless
    /// conditions are evaluated); false when the edge cannot be taken.
    pub(crate) fn refine_edge_in<P: Program + ?Sized>(
        &self,
        program: &P,
        from: BlockId,
        succ_index: usize,
        values: &mut impl BindingsMut<D>,
    ) -> bool {
        if !self.conditional {
            return true;
        }
        match program.terminator(from) {
            Terminator::Branch { cond, .. } => self.assume_cond_in(*cond, succ_index == 0, values),
            Terminator::Switch { on, cases, .. } => match cases.get(succ_index) {
                Some(&(value, _)) => {
                    // The first matching case wins: an earlier case with the same value takes
                    // every execution. Otherwise `on == value` implies every earlier `!=`.
                    !cases[..succ_index]
                        .iter()
                        .any(|&(earlier, _)| earlier == value)
                        && Self::assume_in(Op::Eq, *on, Operand::Int(value), values)
                }
                None => Self::assume_none_of(*on, cases, values),
            },
            Terminator::Goto(_)
            | Terminator::Return(_)
            | Terminator::Throw(_)
            | Terminator::Unreachable => true,
        }
    }

    /// Evaluates the φs of the target of the edge `from → successors(from)[succ_index]` on
    /// `values` (already refined for the edge): a parallel copy of each φ's operand for `from`.
    pub(crate) fn phis_in<P: Program + ?Sized>(
        program: &P,
        from: BlockId,
        succ_index: usize,
        values: &mut impl BindingsMut<D>,
    ) {
        let Some(&to) = program.successors(from).get(succ_index) else {
            return;
        };
        let phis = program.phis(to);
        if phis.is_empty() {
            return;
        }
        // φs are a parallel copy: read every incoming operand before writing any.
        let read: Vec<(NameId, D)> = phis
            .iter()
            .map(|phi| {
                let value = phi
                    .incoming
                    .iter()
                    .find(|(pred, _)| *pred == from)
                    .map_or_else(D::bottom, |&(_, operand)| Self::operand_in(values, operand));
                (phi.dest, value)
            })
            .collect();
        for (dest, value) in read {
            values.set(dest, value);
        }
    }

    /// The names the edge `from → successors(from)[succ_index]` may write: the compared names of
    /// `from`'s condition when conditions are evaluated, and the φ destinations of the target.
    pub(crate) fn edge_defs<P: Program + ?Sized>(
        &self,
        program: &P,
        from: BlockId,
        succ_index: usize,
        out: &mut Vec<NameId>,
    ) {
        if self.conditional {
            let mut name = |o: Operand| {
                if let Operand::Name(n) = o {
                    out.push(n);
                }
            };
            match program.terminator(from) {
                Terminator::Branch { cond, .. } => match *cond {
                    Cond::NonZero(a) => name(a),
                    Cond::Compare(_, a, b) => {
                        name(a);
                        name(b);
                    }
                },
                Terminator::Switch { on, .. } => name(*on),
                Terminator::Goto(_)
                | Terminator::Return(_)
                | Terminator::Throw(_)
                | Terminator::Unreachable => {}
            }
        }
        if let Some(&to) = program.successors(from).get(succ_index) {
            out.extend(program.phis(to).iter().map(|phi| phi.dest));
        }
    }
}

/// Where transfer functions read the values of names: a dense [`Env`] (reachable), or a view of
/// the sparse state.
pub trait Bindings<D> {
    /// The value of `name`.
    fn get(&self, name: NameId) -> D;
}

/// [`Bindings`] that transfer functions may also write (edge refinements and φs).
pub trait BindingsMut<D>: Bindings<D> {
    /// Sets the value of `name`.
    fn set(&mut self, name: NameId, value: D);
}

impl<D: Lattice> Bindings<D> for Env<D> {
    fn get(&self, name: NameId) -> D {
        Env::get(self, name)
    }
}

impl<D: Lattice> BindingsMut<D> for Env<D> {
    fn set(&mut self, name: NameId, value: D) {
        Env::set(self, name, value);
    }
}

impl<D: ValueDomain, P: Program + ?Sized> Analysis<P> for NonRelational<D> {
    type State = Env<D>;
    const DIRECTION: Direction = Direction::Forward;

    fn boundary_state(&self, program: &P) -> Env<D> {
        let mut env = Env::reachable(program.name_count());
        for &param in program.params().iter().chain(program.captures()) {
            env.set(param, D::top());
        }
        env
    }

    fn transfer_block(&self, program: &P, block: BlockId, state: &mut Env<D>) {
        for stmt in program.stmts(block) {
            self.transfer_stmt(stmt, state);
        }
    }

    fn transfer_edge(
        &self,
        program: &P,
        from: BlockId,
        succ_index: usize,
        state: &Env<D>,
    ) -> Env<D> {
        if !state.is_reachable() {
            return Env::Unreachable;
        }
        let mut out = state.clone();
        if !self.refine_edge_in(program, from, succ_index, &mut out) {
            return Env::Unreachable;
        }
        Self::phis_in(program, from, succ_index, &mut out);
        out
    }

    fn transfer_evaluations(&self, program: &P, block: BlockId) -> u64 {
        program.stmts(block).len() as u64
    }

    fn loop_thresholds(&self, program: &P, blocks: &[BlockId]) -> Thresholds {
        let mut constants = Vec::new();
        let mut push = |op: Op, c: i64| {
            constants.push(c);
            match op {
                Op::Lt | Op::Ge => constants.push(c.saturating_sub(1)),
                Op::Gt | Op::Le => constants.push(c.saturating_add(1)),
                _ => {}
            }
        };
        for &block in blocks {
            if let Terminator::Branch {
                cond: Cond::Compare(op, a, b),
                ..
            } = program.terminator(block)
            {
                match (*a, *b) {
                    (Operand::Name(_), Operand::Int(c)) => push(*op, c),
                    (Operand::Int(c), Operand::Name(_)) => {
                        push(op.swapped().unwrap_or(*op), c);
                    }
                    _ => {}
                }
            }
        }
        constants.extend_from_slice(self.thresholds);
        Thresholds::new(constants)
    }
}
