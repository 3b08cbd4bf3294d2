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
//! Arithmetic and `select` trap on a reference (an object, a block, a closure) where the core IR
//! expects an integer, so an operand that may hold one is observed too: [`Demands::new`] finds,
//! once per program, the names that may (parameters, captures, and what allocations, loads,
//! calls and fields define, through copies, `select` and φs). The result of arithmetic, `tag`,
//! `isblock`, `addr` and a table read is always an integer.
//!
//! A run may end anywhere (a trap, a throw out of a callee, a loop that never ends), so the
//! analysis runs on the program seen with an exit every block may go to
//! ([`WithExit`](crate::cfg::WithExit)): every point is reachable and demands at least what the
//! statements after it observe before the run could end.

use super::{Env, ValueDomain};
use crate::cfg::WithExit;
use crate::engine::{self, Analysis, Direction, Limits, Solution};
use crate::program::{BlockId, NameId, Operand, Program, Rhs, Stmt, Terminator};
use std::marker::PhantomData;

/// The backward analysis of the value domain `D` over one program, with dense states (one
/// demand per name at both ends of every block).
pub struct Demands<D> {
    /// By name: whether it may hold a reference (see the module's documentation).
    refs: Vec<bool>,
    domain: PhantomData<fn() -> D>,
}

impl<D> Clone for Demands<D> {
    fn clone(&self) -> Self {
        Demands {
            refs: self.refs.clone(),
            domain: PhantomData,
        }
    }
}

impl<D> std::fmt::Debug for Demands<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Demands").field("refs", &self.refs).finish()
    }
}

/// The names of `program` that may hold a reference: parameters and captures (a caller may pass
/// anything), and what allocations, loads, fields and calls define, through copies, `select`
/// and φs; a flow-insensitive fixpoint.
fn may_hold_refs<P: Program + ?Sized>(program: &P) -> Vec<bool> {
    let mut refs = vec![false; program.name_count()];
    let mark = |refs: &mut Vec<bool>, n: NameId| {
        let fresh = !refs[n.index()];
        refs[n.index()] = true;
        fresh
    };
    for &n in program.params().iter().chain(program.captures()) {
        mark(&mut refs, n);
    }
    let is_ref = |refs: &[bool], o: Operand| matches!(o, Operand::Name(n) if refs[n.index()]);
    loop {
        let mut changed = false;
        for b in (0..program.block_count()).map(BlockId::new) {
            for phi in program.phis(b) {
                if phi.incoming.iter().any(|&(_, o)| is_ref(&refs, o)) {
                    changed |= mark(&mut refs, phi.dest);
                }
            }
            for stmt in program.stmts(b) {
                let Stmt::Assign { dest, rhs } = stmt else {
                    continue;
                };
                let may = match rhs {
                    Rhs::Use(a) => is_ref(&refs, *a),
                    Rhs::Select(_, a, b) => is_ref(&refs, *a) || is_ref(&refs, *b),
                    Rhs::New
                    | Rhs::Load(..)
                    | Rhs::Call(..)
                    | Rhs::Apply(..)
                    | Rhs::Closure(..)
                    | Rhs::Sibling(..)
                    | Rhs::MyClosure
                    | Rhs::Block(..)
                    | Rhs::Field(..) => true,
                    Rhs::Binary(..)
                    | Rhs::Tag(_)
                    | Rhs::IsBlock(_)
                    | Rhs::Address(_)
                    | Rhs::Table(..) => false,
                };
                if may {
                    changed |= mark(&mut refs, *dest);
                }
            }
        }
        if !changed {
            return refs;
        }
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
    /// The analysis of `program` (the names that may hold a reference are found here: run it
    /// on this program only).
    pub fn new<P: Program + ?Sized>(program: &P) -> Demands<D> {
        Demands {
            refs: may_hold_refs(program),
            domain: PhantomData,
        }
    }

    /// Runs it to a fixpoint over `program` (the one it was made for) with the worklist engine,
    /// on the program seen with an exit every block may go to; the solution has the program's
    /// blocks, the added exit left out.
    pub fn solve<P: Program + ?Sized>(&self, program: &P, limits: &Limits) -> Solution<Env<D>> {
        let view = WithExit::new(program);
        let mut solution = engine::solve(&view, self, limits);
        solution.entry.truncate(program.block_count());
        solution.exit.truncate(program.block_count());
        solution
    }

    /// Whether `operand` may hold a reference.
    fn may_be_ref(&self, operand: Operand) -> bool {
        match operand {
            Operand::Int(_) => false,
            Operand::Name(n) => match self.refs.get(n.index()) {
                Some(&may) => may,
                None => unreachable!(
                    "name {} of a statement is one of the {} names of the function `Demands::new` read",
                    n.index(),
                    self.refs.len()
                ),
            },
        }
    }

    /// The demands before `stmt`, given `env`, the demands after it.
    pub fn transfer_stmt(&self, stmt: &Stmt, env: &mut Env<D>) {
        if !env.is_reachable() {
            return;
        }
        match stmt {
            Stmt::Assign { dest, rhs } => {
                let after = env.get(*dest);
                env.set(*dest, D::bottom());
                self.transfer_rhs(rhs, &after, env);
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
    fn transfer_rhs(&self, rhs: &Rhs, after: &D, env: &mut Env<D>) {
        match rhs {
            Rhs::Binary(op, a, b) => {
                let each = D::demand_binary(*op, after);
                // Whether it traps depends on an operand that may be a reference, and on both
                // operands of an operation that may trap on integers.
                let seen = each.join(&D::observed());
                for o in [*a, *b] {
                    let observed = op.may_trap() || self.may_be_ref(o);
                    demand(env, o, if observed { &seen } else { &each });
                }
            }
            Rhs::Select(c, a, b) => {
                let each = D::demand_copy(after);
                // A condition that may be a reference may trap.
                let seen = each.join(&D::observed());
                demand(env, *c, if self.may_be_ref(*c) { &seen } else { &each });
                demand(env, *a, &each);
                demand(env, *b, &each);
            }
            Rhs::Use(_) | Rhs::Block(..) | Rhs::Closure(..) | Rhs::IsBlock(_) => {
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
    pub fn transfer_terminator(&self, terminator: &Terminator, env: &mut Env<D>) {
        if !env.is_reachable() {
            return;
        }
        let seen = D::observed();
        terminator.for_each_use(|o| demand(env, o, &seen));
    }

    /// The demands before each statement of `block` and, last, before its terminator, given
    /// `exit`, the demands at the end of the block (the solution's `exit` state).
    pub fn points<P: Program + ?Sized>(
        &self,
        program: &P,
        block: BlockId,
        exit: &Env<D>,
    ) -> Vec<Env<D>> {
        let stmts = program.stmts(block);
        let mut states = vec![Env::Unreachable; stmts.len() + 1];
        let mut env = exit.clone();
        self.transfer_terminator(program.terminator(block), &mut env);
        states[stmts.len()] = env.clone();
        for (i, stmt) in stmts.iter().enumerate().rev() {
            self.transfer_stmt(stmt, &mut env);
            states[i] = env.clone();
        }
        states
    }
}

impl<D: ValueDomain, P: Program + ?Sized> Analysis<P> for Demands<D> {
    type State = Env<D>;
    const DIRECTION: Direction = Direction::Backward;

    /// After an exit nothing is demanded (the returned value is observed by the terminator). On
    /// the view [`Demands::solve`] runs, the added exit is the one block without successors.
    fn boundary_state(&self, program: &P) -> Env<D> {
        Env::reachable(program.name_count())
    }

    fn transfer_block(&self, program: &P, block: BlockId, state: &mut Env<D>) {
        self.transfer_terminator(program.terminator(block), state);
        for stmt in program.stmts(block).iter().rev() {
            self.transfer_stmt(stmt, state);
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
