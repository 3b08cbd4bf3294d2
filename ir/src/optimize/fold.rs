//! The first rewrite: constants folded and branches decided, in place (no statement or block
//! moves, so the facts' places stay valid).
//!
//! An operand whose name holds a known constant becomes that literal; a right-hand side whose
//! result is known (or whose operands are now all literals) becomes the literal, when it cannot
//! trap; a branch or switch with one feasible target becomes a jump to it, when what it reads
//! certainly holds integers (a branch on a reference traps).

use absinthe::program::{BlockId, Cond, Operand, Rhs, Stmt, Terminator};

use super::facts::{Counts, FunctionFacts, Work};
use super::ints::{Ints, cannot_trap, step};
use crate::function::{Function, for_each_term_operand_mut};

/// `function`'s blocks with the facts applied, and the `new` statements the facts put on the
/// stack marked.
pub(crate) fn fold(function: &Function, facts: &FunctionFacts, counts: &mut Counts) -> Work {
    let ints = Ints::of(function);
    let mut work = Work {
        blocks: function.blocks().to_vec(),
        stack: function
            .blocks()
            .iter()
            .enumerate()
            .map(|(b, block)| {
                (0..block.stmts.len())
                    .map(|i| function.is_stack_allocation(BlockId::new(b), i))
                    .collect()
            })
            .collect(),
    };
    for &(b, i) in &facts.stack {
        if let Some(mark) = work
            .stack
            .get_mut(b.index())
            .and_then(|marks| marks.get_mut(i as usize))
        {
            *mark = true;
        }
    }
    for (b, block) in work.blocks.iter_mut().enumerate() {
        let id = BlockId::new(b);
        if !facts.reachable.get(b).copied().unwrap_or(false) {
            continue;
        }
        let mut known = ints.entry(id);
        for (i, stmt) in block.stmts.iter_mut().enumerate() {
            let before = stmt.clone();
            stmt.for_each_use_mut(|o| literal(facts, id, i, o, counts));
            if let Stmt::Assign { rhs, .. } = stmt {
                let result = facts
                    .results
                    .get(b)
                    .and_then(|r| r.get(i))
                    .copied()
                    .flatten();
                if let Some(folded) = fold_rhs(rhs, result, &known) {
                    *rhs = folded;
                    counts.folded += 1;
                }
            }
            step(&before, &mut known);
        }
        let end = block.stmts.len();
        let mut term = block.term.clone();
        for_each_term_operand_mut(&mut term, |o| literal(facts, id, end, o, counts));
        let feasible = facts
            .feasible
            .get(b)
            .unwrap_or_else(|| panic!("the facts have no feasibility row for block {b}"));
        // A branch on a reference traps: only a terminator that reads integers is decided.
        let mut ints_only = true;
        term.for_each_use(|o| ints_only &= known.int(o));
        block.term = if ints_only {
            decide(term, feasible, counts)
        } else {
            term
        };
    }
    // φ operands flowing from a block are read at its end: fold them with the end's facts.
    for b in 0..work.blocks.len() {
        let id = BlockId::new(b);
        let end = work.blocks[b].stmts.len();
        for to in work.blocks[b].term.successors() {
            let Some(target) = work.blocks.get_mut(to.index()) else {
                continue;
            };
            for phi in &mut target.phis {
                for (from, o) in phi.incoming.iter_mut() {
                    if *from == id {
                        literal(facts, id, end, o, counts);
                    }
                }
            }
        }
    }
    work
}

/// Replaces `o` by the constant its name holds at point `index` of `block`.
fn literal(
    facts: &FunctionFacts,
    block: BlockId,
    index: usize,
    o: &mut Operand,
    counts: &mut Counts,
) {
    let Operand::Name(n) = *o else { return };
    if let Some(c) = facts.constant(block, index, n) {
        *o = Operand::Int(c);
        counts.folded += 1;
    }
}

/// The right-hand side `rhs` becomes, if it changes: its `result` when known, or what its
/// literal operands compute, as long as evaluating it cannot trap with the names of `ints`
/// holding integers.
fn fold_rhs(rhs: &Rhs, result: Option<i64>, ints: &super::ints::NameSet) -> Option<Rhs> {
    if matches!(rhs, Rhs::Use(Operand::Int(_))) || !cannot_trap(rhs, ints) {
        return None;
    }
    let computed = match rhs {
        Rhs::Binary(op, Operand::Int(a), Operand::Int(b)) => op.eval(*a, *b).map(Operand::Int),
        Rhs::Select(Operand::Int(c), a, b) => Some(if *c != 0 { *a } else { *b }),
        Rhs::Table(entries, Operand::Int(i)) => usize::try_from(*i)
            .ok()
            .and_then(|i| entries.get(i))
            .map(|&v| Operand::Int(v)),
        _ => None,
    };
    // Only computations are replaced by their result: an allocation's or an address's value is
    // not a constant to write down.
    let computation = matches!(
        rhs,
        Rhs::Binary(..) | Rhs::Select(..) | Rhs::Table(..) | Rhs::Use(_)
    );
    match (result, computed) {
        (Some(c), _) if computation => Some(Rhs::Use(Operand::Int(c))),
        (_, Some(o)) if *rhs != Rhs::Use(o) => Some(Rhs::Use(o)),
        _ => None,
    }
}

/// `term` with only its `feasible` successors (and, when its operands are literals, the one it
/// takes): a jump when they are all one block, `unreachable` when there is none (no run
/// completes the terminator), else unchanged.
fn decide(term: Terminator, feasible: &[bool], counts: &mut Counts) -> Terminator {
    let successors = term.successors();
    if successors.is_empty() || matches!(term, Terminator::Goto(_)) {
        return term;
    }
    assert_eq!(
        feasible.len(),
        successors.len(),
        "the facts say whether each successor's edge is feasible"
    );
    let taken = taken(&term);
    let mut targets = successors
        .iter()
        .zip(feasible)
        .enumerate()
        .filter(|&(k, (_, &ok))| ok && taken.is_none_or(|t| t == k))
        .map(|(_, (&to, _))| to);
    let Some(first) = targets.next() else {
        counts.branches += 1;
        return Terminator::Unreachable;
    };
    if targets.all(|to| to == first) {
        counts.branches += 1;
        return Terminator::Goto(first);
    }
    term
}

/// The successor (by position) a terminator whose operands are literals takes.
fn taken(term: &Terminator) -> Option<usize> {
    match term {
        Terminator::Branch { cond, .. } => {
            let holds = match *cond {
                Cond::NonZero(Operand::Int(a)) => a != 0,
                Cond::Compare(op, Operand::Int(a), Operand::Int(b)) => op.eval(a, b)? != 0,
                Cond::NonZero(_) | Cond::Compare(..) => return None,
            };
            Some(if holds { 0 } else { 1 })
        }
        Terminator::Switch {
            on: Operand::Int(v),
            cases,
            ..
        } => Some(
            cases
                .iter()
                .position(|&(c, _)| c == *v)
                .unwrap_or(cases.len()),
        ),
        _ => None,
    }
}
