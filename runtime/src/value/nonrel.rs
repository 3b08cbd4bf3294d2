//! The generic non-relational analysis: any [`ValueDomain`] over any [`Program`].

use super::{Env, Truth, ValueDomain};
use crate::engine::{Analysis, Direction};
use crate::lattice::Thresholds;
use crate::program::{BlockId, Cond, NameId, Op, Operand, Program, Rhs, Stmt, Terminator};
use std::marker::PhantomData;

/// A forward analysis mapping every name to a value of `D`.
///
/// - Parameters start at top, every other name at bottom ("never assigned").
/// - Assignments evaluate their right-hand side with [`ValueDomain::binary`]; a `select` takes
///   the operand its condition picks, or the join of both when the condition may go either way;
///   `new`, field loads and call results are top (the domain knows nothing about the heap or other functions, and a
///   call cannot change the caller's names).
/// - With `conditional` set, branch conditions are evaluated: an edge whose condition cannot hold
///   carries the unreachable state, and the values of the compared names are refined with
///   [`ValueDomain::assume`] (Wegman–Zadeck conditional propagation). Without it, every edge
///   carries the block's exit state unchanged.
/// - φs are evaluated on each incoming edge with the operand of that edge.
#[derive(Debug)]
pub struct NonRelational<D> {
    conditional: bool,
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
            domain: PhantomData,
        }
    }

    /// Whether branch conditions are evaluated.
    pub fn is_conditional(&self) -> bool {
        self.conditional
    }

    /// The abstract value of `operand` in `env`.
    pub fn operand(env: &Env<D>, operand: Operand) -> D {
        match operand {
            Operand::Name(n) => env.get(n),
            Operand::Int(c) => D::constant(c),
        }
    }

    /// Applies one statement to `env`.
    pub fn transfer_stmt(&self, stmt: &Stmt, env: &mut Env<D>) {
        if !env.is_reachable() {
            return;
        }
        match stmt {
            Stmt::Assign { dest, rhs } => {
                let value = match rhs {
                    Rhs::Use(a) => Self::operand(env, *a),
                    Rhs::Binary(op, a, b) => {
                        D::binary(*op, &Self::operand(env, *a), &Self::operand(env, *b))
                    }
                    Rhs::New | Rhs::Load(..) | Rhs::Call(..) => D::top(),
                    Rhs::Select(c, a, b) => match Truth::of(&Self::operand(env, *c)) {
                        Truth::Neither => D::bottom(),
                        Truth::True => Self::operand(env, *a),
                        Truth::False => Self::operand(env, *b),
                        Truth::Unknown => Self::operand(env, *a).join(&Self::operand(env, *b)),
                    },
                };
                env.set(*dest, value);
            }
            Stmt::Store { .. } | Stmt::Call { .. } => {}
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
        let (op, a, b) = match cond {
            Cond::NonZero(a) => (if outcome { Op::Ne } else { Op::Eq }, a, Operand::Int(0)),
            Cond::Compare(op, a, b) => {
                let op = if outcome {
                    op
                } else {
                    // A non-comparison used as a condition is tested against zero.
                    match op.negated() {
                        Some(negated) => negated,
                        None => return env.clone(),
                    }
                };
                (op, a, b)
            }
        };
        self.assume(op, a, b, env)
    }

    fn assume(&self, op: Op, a: Operand, b: Operand, env: &Env<D>) -> Env<D> {
        if !env.is_reachable() {
            return Env::Unreachable;
        }
        let (va, vb) = (Self::operand(env, a), Self::operand(env, b));
        let truth = Truth::of(&D::binary(op, &va, &vb));
        if !truth.allows(true) {
            return Env::Unreachable;
        }
        let (ra, rb) = D::assume(op, &va, &vb);
        if ra.is_bottom() || rb.is_bottom() {
            return Env::Unreachable;
        }
        let mut out = env.clone();
        if let Operand::Name(n) = a {
            out.set(n, ra);
        }
        if let Operand::Name(n) = b {
            let refined = if a == b { out.get(n).meet(&rb) } else { rb };
            if refined.is_bottom() {
                return Env::Unreachable;
            }
            out.set(n, refined);
        }
        out
    }

    /// Refines `env` knowing that `on` matches none of the `cases` (the default edge of a
    /// switch), in one pass over the cases rather than one state per case.
    fn assume_none_of(&self, on: Operand, cases: &[(i64, BlockId)], env: &Env<D>) -> Env<D> {
        if !env.is_reachable() {
            return Env::Unreachable;
        }
        let mut value = Self::operand(env, on);
        let mut values: Vec<i64> = cases.iter().map(|&(c, _)| c).collect();
        values.sort_unstable();
        values.dedup();
        // Excluding a value only shrinks a domain element at its ends (intervals), so go up and
        // then down the sorted cases.
        for &c in values.iter().chain(values.iter().rev()) {
            let constant = D::constant(c);
            if !Truth::of(&D::binary(Op::Ne, &value, &constant)).allows(true) {
                return Env::Unreachable;
            }
            value = D::assume(Op::Ne, &value, &constant).0;
            if value.is_bottom() {
                return Env::Unreachable;
            }
        }
        let mut out = env.clone();
        if let Operand::Name(n) = on {
            out.set(n, value);
        }
        out
    }

    fn refine_edge<P: Program + ?Sized>(
        &self,
        program: &P,
        from: BlockId,
        succ_index: usize,
        env: &Env<D>,
    ) -> Env<D> {
        if !self.conditional {
            return env.clone();
        }
        match program.terminator(from) {
            Terminator::Branch { cond, .. } => self.assume_cond(*cond, succ_index == 0, env),
            Terminator::Switch { on, cases, .. } => match cases.get(succ_index) {
                Some(&(value, _)) => {
                    // The first matching case wins: an earlier case with the same value takes
                    // every execution. Otherwise `on == value` implies every earlier `!=`.
                    if cases[..succ_index]
                        .iter()
                        .any(|&(earlier, _)| earlier == value)
                    {
                        return Env::Unreachable;
                    }
                    self.assume(Op::Eq, *on, Operand::Int(value), env)
                }
                None => self.assume_none_of(*on, cases, env),
            },
            Terminator::Goto(_)
            | Terminator::Return(_)
            | Terminator::Throw(_)
            | Terminator::Unreachable => env.clone(),
        }
    }
}

impl<D: ValueDomain, P: Program + ?Sized> Analysis<P> for NonRelational<D> {
    type State = Env<D>;
    const DIRECTION: Direction = Direction::Forward;

    fn boundary_state(&self, program: &P) -> Env<D> {
        let mut env = Env::reachable(program.name_count());
        for &param in program.params() {
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
        let mut out = self.refine_edge(program, from, succ_index, state);
        let Some(&to) = program.successors(from).get(succ_index) else {
            return out;
        };
        let phis = program.phis(to);
        if phis.is_empty() || !out.is_reachable() {
            return out;
        }
        // φs are a parallel copy: read every incoming operand before writing any.
        let values: Vec<(NameId, D)> = phis
            .iter()
            .map(|phi| {
                let value = phi
                    .incoming
                    .iter()
                    .find(|(pred, _)| *pred == from)
                    .map_or_else(D::bottom, |&(_, operand)| Self::operand(&out, operand));
                (phi.dest, value)
            })
            .collect();
        for (dest, value) in values {
            out.set(dest, value);
        }
        out
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
        Thresholds::new(constants)
    }
}
