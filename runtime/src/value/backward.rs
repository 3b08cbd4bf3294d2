//! Backward value analyses: what the rest of a run demands of the value each name holds, per
//! name, in any [`ValueDomain`] whose values describe demands (`direction backward` in a
//! declaration).
//!
//! Facts flow from the exits against control flow. Before `dest = a op b` the demand on `dest`
//! is dropped (its old value is dead there) and each operand receives
//! [`ValueDomain::demand_binary`] of it; copies, φs, `select` and the values put into blocks
//! and closures pass [`ValueDomain::demand_copy`]; everything the run *observes* — a branch's
//! condition, a returned or thrown value, a store, a call's callee and arguments, the operands
//! of an operation or read that may trap — receives [`ValueDomain::observed`]. Greater means
//! more demanded; bottom means "nothing after this point depends on the value".
//!
//! With a two-point domain whose every rule answers "demanded" this is live names; with
//! `demand_copy(d) = d` and `demand_binary(op, d) = d` it is needed (non-faint) values.
//!
//! Blocks from which no exit is reachable keep the unreachable state: the analysis speaks of
//! runs that end.

use super::{Env, ValueDomain};
use crate::engine::{self, Analysis, Direction, Limits, Solution};
use crate::program::{BlockId, Operand, Program, Rhs, Stmt, Terminator};
use std::marker::PhantomData;

/// The backward analysis of the value domain `D` over any [`Program`], with dense states (one
/// demand per name at both ends of every block).
pub struct Demands<D> {
    domain: PhantomData<fn() -> D>,
}

impl<D> Clone for Demands<D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D> Copy for Demands<D> {}

impl<D> Default for Demands<D> {
    fn default() -> Self {
        Demands {
            domain: PhantomData,
        }
    }
}

impl<D> std::fmt::Debug for Demands<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Demands")
    }
}

/// Joins `demand` into what `env` demands of `operand` (a literal is demanded of no name).
fn demand<D: ValueDomain>(env: &mut Env<D>, operand: Operand, demand: &D) {
    if let Operand::Name(n) = operand {
        if demand.is_bottom() {
            return;
        }
        let joined = env.get(n).join(demand);
        env.set(n, joined);
    }
}

impl<D: ValueDomain> Demands<D> {
    /// The analysis.
    pub fn new() -> Demands<D> {
        Demands::default()
    }

    /// Runs it to a fixpoint over `program` with the worklist engine.
    pub fn solve<P: Program + ?Sized>(&self, program: &P, limits: &Limits) -> Solution<Env<D>> {
        engine::solve(program, self, limits)
    }

    /// The demands before `stmt`, given `env`, the demands after it.
    pub fn transfer_stmt(stmt: &Stmt, env: &mut Env<D>) {
        if !env.is_reachable() {
            return;
        }
        match stmt {
            Stmt::Assign { dest, rhs } => {
                let after = env.get(*dest);
                env.set(*dest, D::bottom());
                Self::transfer_rhs(rhs, &after, env);
            }
            Stmt::Store { object, value, .. } => {
                let seen = D::observed();
                demand(env, *object, &seen);
                demand(env, *value, &seen);
            }
            Stmt::Call { .. } | Stmt::Apply { .. } => {
                let seen = D::observed();
                stmt.for_each_use(|o| demand(env, o, &seen));
            }
        }
    }

    /// What `dest = rhs` demands of the operands of `rhs`, `after` being the demand on `dest`,
    /// joined into `env`.
    fn transfer_rhs(rhs: &Rhs, after: &D, env: &mut Env<D>) {
        match rhs {
            Rhs::Binary(op, a, b) => {
                let mut each = D::demand_binary(*op, after);
                if op.may_trap() {
                    each = each.join(&D::observed());
                }
                demand(env, *a, &each);
                demand(env, *b, &each);
            }
            Rhs::Use(_) | Rhs::Select(..) | Rhs::Block(..) | Rhs::Closure(..) | Rhs::IsBlock(_) => {
                let each = D::demand_copy(after);
                rhs.for_each_use(|o| demand(env, o, &each));
            }
            // Reads that trap on some operands: the operand is observed whatever `dest` is.
            Rhs::Load(..) | Rhs::Field(..) | Rhs::Tag(_) | Rhs::Table(..) | Rhs::Sibling(..) => {
                let each = D::demand_copy(after).join(&D::observed());
                rhs.for_each_use(|o| demand(env, o, &each));
            }
            // A callee may do anything with its arguments.
            Rhs::Call(..) | Rhs::Apply(..) => {
                let seen = D::observed();
                rhs.for_each_use(|o| demand(env, o, &seen));
            }
            Rhs::New | Rhs::MyClosure | Rhs::Address(_) => {}
        }
    }

    /// The demands before `terminator`, given `env`, the demands at the end of its block.
    pub fn transfer_terminator(terminator: &Terminator, env: &mut Env<D>) {
        if !env.is_reachable() {
            return;
        }
        let seen = D::observed();
        terminator.for_each_use(|o| demand(env, o, &seen));
    }

    /// The demands before each statement of `block` and, last, before its terminator, given
    /// `exit`, the demands at the end of the block (the solution's `exit` state).
    pub fn points<P: Program + ?Sized>(program: &P, block: BlockId, exit: &Env<D>) -> Vec<Env<D>> {
        let stmts = program.stmts(block);
        let mut states = vec![Env::Unreachable; stmts.len() + 1];
        let mut env = exit.clone();
        Self::transfer_terminator(program.terminator(block), &mut env);
        states[stmts.len()] = env.clone();
        for (i, stmt) in stmts.iter().enumerate().rev() {
            Self::transfer_stmt(stmt, &mut env);
            states[i] = env.clone();
        }
        states
    }
}

impl<D: ValueDomain, P: Program + ?Sized> Analysis<P> for Demands<D> {
    type State = Env<D>;
    const DIRECTION: Direction = Direction::Backward;

    /// After an exit nothing is demanded (the returned value is observed by the terminator).
    fn boundary_state(&self, program: &P) -> Env<D> {
        Env::reachable(program.name_count())
    }

    fn transfer_block(&self, program: &P, block: BlockId, state: &mut Env<D>) {
        Self::transfer_terminator(program.terminator(block), state);
        for stmt in program.stmts(block).iter().rev() {
            Self::transfer_stmt(stmt, state);
        }
    }

    /// The φs of the target take their operands in parallel: their destinations' demands go to
    /// the operands this edge brings (through [`ValueDomain::demand_copy`]) after every
    /// destination is dropped.
    fn transfer_edge(
        &self,
        program: &P,
        from: BlockId,
        succ_index: usize,
        state: &Env<D>,
    ) -> Env<D> {
        let Some(&to) = program.successors(from).get(succ_index) else {
            unreachable!("edge {succ_index} of block {from:?} is not an edge of the program");
        };
        let phis = program.phis(to);
        if phis.is_empty() || !state.is_reachable() {
            return state.clone();
        }
        let mut out = state.clone();
        let taken: Vec<(Operand, D)> = phis
            .iter()
            .filter_map(|phi| {
                let &(_, operand) = phi.incoming.iter().find(|(p, _)| *p == from)?;
                Some((operand, D::demand_copy(&state.get(phi.dest))))
            })
            .collect();
        for phi in phis {
            out.set(phi.dest, D::bottom());
        }
        for (operand, each) in &taken {
            demand(&mut out, *operand, each);
        }
        out
    }

    fn transfer_evaluations(&self, program: &P, block: BlockId) -> u64 {
        program.stmts(block).len() as u64 + 1
    }
}
