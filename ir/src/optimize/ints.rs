//! Which names certainly hold integers (never references), from a may-analysis of the program
//! alone on the worklist engine (the names that may hold references, [`MayRefs`]), and which
//! right-hand sides therefore cannot trap: what lets the optimizer replace a computation by its
//! result or drop it when its result is dead, without losing a trap.
//!
//! A name is an integer after an assignment of arithmetic, a literal, `isblock`, `addr`, `tag` or
//! a table entry, and after any statement or branch that would have trapped had it held a
//! reference (its operand of an arithmetic operation, a comparison, a switch). A name never
//! assigned counts as an integer: a run that reads it stops there (reading an unassigned name is
//! a malformed program, which the optimizer need not preserve).

use absinthe::engine::{Analysis, Direction, Limits, solve};
use absinthe::lattice::{Lift, Powerset};
use absinthe::program::{BlockId, Cfg, Cond, NameId, Op, Operand, Program, Rhs, Stmt, Terminator};

use crate::function::Function;

/// The names that may hold a reference at a point: every other name certainly holds an integer
/// (or is unassigned).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct NameSet(Powerset<NameId>);

impl NameSet {
    /// Whether `o` is certainly an integer: a literal, or a name that cannot hold a reference.
    pub(crate) fn int(&self, o: Operand) -> bool {
        match o {
            Operand::Int(_) => true,
            Operand::Name(n) => !self.0.contains(&n),
        }
    }

    /// `o` holds an integer from here on (a step that would have trapped on a reference read it).
    fn mark(&mut self, o: Operand) {
        if let Operand::Name(n) = o {
            self.0.remove(&n);
        }
    }

    fn set(&mut self, n: NameId, int: bool) {
        if int {
            self.0.remove(&n);
        } else {
            self.0.insert(n);
        }
    }
}

/// The names that may hold references at each block's entry, from the worklist engine.
pub(crate) struct Ints {
    entry: Vec<Lift<Powerset<NameId>>>,
}

impl Ints {
    /// Solves the may-analysis of references over `function`. A solution the engine stopped
    /// before its fixpoint is not used: every name may then hold a reference.
    pub(crate) fn of(function: &Function) -> Ints {
        let solution = solve(function, &MayRefs, &Limits::default());
        if !solution.stop.is_stable() {
            let all: Powerset<NameId> = (0..function.names.len()).map(NameId::new).collect();
            return Ints {
                entry: vec![Lift::Lifted(all); function.block_count()],
            };
        }
        Ints {
            entry: solution.entry,
        }
    }

    /// The names that may hold references at the entry of `block` (after its φs); none at a
    /// block no run reaches.
    pub(crate) fn entry(&self, block: BlockId) -> NameSet {
        match self.entry.get(block.index()) {
            Some(Lift::Lifted(refs)) => NameSet(refs.clone()),
            Some(Lift::Bottom) => NameSet::default(),
            None => unreachable!(
                "block {block:?} is one of the function's {} blocks",
                self.entry.len()
            ),
        }
    }
}

/// The forward may-analysis of names holding references: parameters and captures may, on
/// entry; so may the results of loads, calls and allocations.
struct MayRefs;

impl Analysis<Function> for MayRefs {
    type State = Lift<Powerset<NameId>>;
    const DIRECTION: Direction = Direction::Forward;

    fn boundary_state(&self, function: &Function) -> Self::State {
        Lift::Lifted(
            function
                .params
                .iter()
                .chain(&function.captures)
                .copied()
                .collect(),
        )
    }

    fn transfer_block(&self, function: &Function, block: BlockId, state: &mut Self::State) {
        let Lift::Lifted(refs) = state else { return };
        let mut set = NameSet(std::mem::take(refs));
        for stmt in function.stmts(block) {
            step(stmt, &mut set);
        }
        *refs = set.0;
    }

    fn transfer_edge(
        &self,
        function: &Function,
        from: BlockId,
        succ_index: usize,
        state: &Self::State,
    ) -> Self::State {
        let Lift::Lifted(refs) = state else {
            return Lift::Bottom;
        };
        let mut out = NameSet(refs.clone());
        after_terminator(function.terminator(from), &mut out);
        let Some(&to) = function.successors(from).get(succ_index) else {
            return Lift::Lifted(out.0);
        };
        // The φs copy in parallel: each reads the state before any is written.
        let mut along = out.clone();
        for phi in function.phis(to) {
            let int = phi
                .incoming
                .iter()
                .find(|(p, _)| *p == from)
                // A φ without an operand for this edge reads nothing known: not an integer
                // (the side on which nothing that may trap is folded or removed).
                .is_some_and(|&(_, o)| out.int(o));
            along.set(phi.dest, int);
        }
        Lift::Lifted(along.0)
    }
}

/// `ints` after `stmt` completes.
pub(crate) fn step(stmt: &Stmt, ints: &mut NameSet) {
    let Stmt::Assign { dest, rhs } = stmt else {
        return;
    };
    let int = match rhs {
        Rhs::Binary(_, a, b) => {
            ints.mark(*a);
            ints.mark(*b);
            true
        }
        Rhs::Table(_, i) => {
            ints.mark(*i);
            true
        }
        Rhs::Select(c, a, b) => {
            ints.mark(*c);
            ints.int(*a) && ints.int(*b)
        }
        Rhs::Use(a) => ints.int(*a),
        Rhs::IsBlock(_) | Rhs::Address(_) | Rhs::Tag(_) => true,
        Rhs::New
        | Rhs::Load(..)
        | Rhs::Call(..)
        | Rhs::Closure(..)
        | Rhs::Sibling(..)
        | Rhs::MyClosure
        | Rhs::Apply(..)
        | Rhs::Block(..)
        | Rhs::Field(..) => false,
    };
    ints.set(*dest, int);
}

/// `ints` after `term` goes on to a successor: what it compared or switched on is an integer.
fn after_terminator(term: &Terminator, ints: &mut NameSet) {
    match term {
        Terminator::Branch { cond, .. } => match *cond {
            Cond::NonZero(a) => ints.mark(a),
            Cond::Compare(_, a, b) => {
                ints.mark(a);
                ints.mark(b);
            }
        },
        Terminator::Switch { on, .. } => ints.mark(*on),
        Terminator::Goto(_)
        | Terminator::Return(_)
        | Terminator::Throw(_)
        | Terminator::Unreachable => {}
    }
}

/// Whether evaluating `rhs` cannot trap when the names of `ints` hold integers (a read of an
/// unassigned name aside) and has no effect but its result, so that it may be replaced by its
/// result or dropped.
pub(crate) fn cannot_trap(rhs: &Rhs, ints: &NameSet) -> bool {
    match rhs {
        Rhs::Use(_) | Rhs::New | Rhs::Address(_) | Rhs::IsBlock(_) | Rhs::Block(..) => true,
        Rhs::Binary(op, a, b) => {
            if !(ints.int(*a) && ints.int(*b)) {
                return false;
            }
            match (op, a, b) {
                (_, Operand::Int(x), Operand::Int(y)) => op.eval(*x, *y).is_some(),
                (Op::Div | Op::Rem | Op::UDiv | Op::URem, _, Operand::Int(y)) => *y != 0,
                (Op::Div | Op::Rem | Op::UDiv | Op::URem | Op::FPToSI | Op::FPToUI, _, _) => false,
                _ => true,
            }
        }
        Rhs::Select(c, _, _) => ints.int(*c),
        Rhs::Table(entries, Operand::Int(i)) => {
            usize::try_from(*i).is_ok_and(|i| i < entries.len())
        }
        Rhs::Table(..)
        | Rhs::Load(..)
        | Rhs::Call(..)
        | Rhs::Closure(..)
        | Rhs::Sibling(..)
        | Rhs::MyClosure
        | Rhs::Apply(..)
        | Rhs::Field(..)
        | Rhs::Tag(..) => false,
    }
}
