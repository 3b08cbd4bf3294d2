//! Which names certainly hold integers (never references), a must-analysis of the program alone,
//! and which right-hand sides therefore cannot trap: what lets the optimizer replace a
//! computation by its result or drop it when its result is dead, without losing a trap.
//!
//! A name is an integer after an assignment of arithmetic, a literal, `isblock`, `addr`, `tag` or
//! a table entry, and after any statement or branch that would have trapped had it held a
//! reference (its operand of an arithmetic operation, a comparison, a switch). A name never
//! assigned counts as an integer: a run that reads it stops there (reading an unassigned name is
//! a malformed program, which the optimizer need not preserve).

use absinthe::program::{BlockId, Cfg, Cond, Op, Operand, Phi, Program, Rhs, Stmt, Terminator};

use crate::function::Function;

/// A set of names, one bit each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NameSet(Vec<u64>);

impl NameSet {
    fn full(names: usize) -> NameSet {
        NameSet(vec![u64::MAX; names.div_ceil(64)])
    }

    /// Whether name `n` is in the set.
    pub(crate) fn has(&self, n: usize) -> bool {
        self.0.get(n / 64).is_some_and(|w| w & (1 << (n % 64)) != 0)
    }

    fn set(&mut self, n: usize, on: bool) {
        if let Some(w) = self.0.get_mut(n / 64) {
            if on {
                *w |= 1 << (n % 64);
            } else {
                *w &= !(1 << (n % 64));
            }
        }
    }

    /// Intersects with `other`; whether `self` changed.
    fn meet(&mut self, other: &NameSet) -> bool {
        let mut changed = false;
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            let m = *a & b;
            changed |= m != *a;
            *a = m;
        }
        changed
    }

    /// Whether `o` is certainly an integer: a literal, or a name of the set.
    pub(crate) fn int(&self, o: Operand) -> bool {
        match o {
            Operand::Int(_) => true,
            Operand::Name(n) => self.has(n.index()),
        }
    }

    fn mark(&mut self, o: Operand) {
        if let Operand::Name(n) = o {
            self.set(n.index(), true);
        }
    }
}

/// The names certainly holding integers at each block's entry.
pub(crate) struct Ints {
    entry: Vec<NameSet>,
}

impl Ints {
    /// Solves the must-analysis over `function` (intersections at joins, from the full set).
    pub(crate) fn of(function: &Function) -> Ints {
        let names = function.names.len();
        let count = function.blocks().len();
        let mut boundary = NameSet::full(names);
        for n in function.params.iter().chain(&function.captures) {
            boundary.set(n.index(), false);
        }
        let mut entry = vec![NameSet::full(names); count];
        if let Some(first) = entry.first_mut() {
            *first = boundary.clone();
        }
        let mut changed = true;
        while changed {
            changed = false;
            for b in 0..count {
                let id = BlockId::new(b);
                let mut out = entry[b].clone();
                for stmt in function.stmts(id) {
                    step(stmt, &mut out);
                }
                after_terminator(function.terminator(id), &mut out);
                for &to in function.successors(id) {
                    let Some(target) = entry.get_mut(to.index()) else {
                        continue;
                    };
                    let mut along = out.clone();
                    phis(function.phis(to), id, &out, &mut along);
                    changed |= target.meet(&along);
                }
            }
        }
        Ints { entry }
    }

    /// The names certainly holding integers at the entry of `block` (after its φs).
    pub(crate) fn entry(&self, block: BlockId) -> NameSet {
        self.entry.get(block.index()).cloned().unwrap_or_else(|| {
            unreachable!(
                "block {block:?} is one of the function's {} blocks",
                self.entry.len()
            )
        })
    }
}

/// The φs of an edge from `from`, read in `out`, written into `along` as one parallel copy.
fn phis(phis: &[Phi], from: BlockId, out: &NameSet, along: &mut NameSet) {
    for phi in phis {
        let int = phi
            .incoming
            .iter()
            .find(|(p, _)| *p == from)
            .is_none_or(|&(_, o)| out.int(o));
        along.set(phi.dest.index(), int);
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
    ints.set(dest.index(), int);
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
