//! What the optimizer is told about a function, as plain data ([`FunctionFacts`]), what it
//! reports having done ([`Counts`]), and the blocks it rewrites ([`Work`]).
//!
//! The facts come from an analysis the caller ran (the command line runs a value analysis and
//! the escape analysis); the optimizer knows no analysis, only these tables.

use std::fmt;

use absinthe::program::{BlockId, NameId, Operand, Program, Stmt};

use crate::function::{Block, Function};

/// What an analysis proved of one function, by place. Every table is indexed like the function:
/// by block, then by point (statement index, the statement count standing for the terminator).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionFacts {
    /// Per block: whether some run may reach it.
    pub reachable: Vec<bool>,
    /// Per block, per successor (in the order of [`absinthe::program::Cfg::successors`]):
    /// whether some run may take that edge.
    pub feasible: Vec<Vec<bool>>,
    /// Per block, per point: the names the point reads that hold one known integer in every run
    /// reaching it (at the terminator, also the operands the successors' φs take from this block).
    pub constants: Vec<Vec<Vec<(NameId, i64)>>>,
    /// Per block, per statement: the one integer the name the statement defines holds after it,
    /// when the analysis knows it.
    pub results: Vec<Vec<Option<i64>>>,
    /// The `new` statements (block, index) whose objects never escape the frame that allocates
    /// them: they may live on its stack.
    pub stack: Vec<(BlockId, u32)>,
}

impl FunctionFacts {
    /// Nothing known: every block reachable, every edge feasible, no constant, no allocation on
    /// the stack. The optimizer then only removes dead assignments and what no edge reaches.
    pub fn unknown(function: &Function) -> FunctionFacts {
        FunctionFacts::gather(function, |_| true, |_, _| true, |_, _, _| None)
    }

    /// The facts of `function` from three questions: whether a block is `reachable`, whether
    /// the edge to a block's successor `k` is `feasible`, and the `constant` a name holds before
    /// a point. An edge into an unreachable block is infeasible whatever `feasible` says.
    pub fn gather(
        function: &Function,
        reachable: impl Fn(BlockId) -> bool,
        feasible: impl Fn(BlockId, usize) -> bool,
        constant: impl Fn(BlockId, usize, NameId) -> Option<i64>,
    ) -> FunctionFacts {
        let count = function.blocks().len();
        let reached: Vec<bool> = (0..count).map(|b| reachable(BlockId::new(b))).collect();
        let mut facts = FunctionFacts {
            reachable: reached.clone(),
            ..FunctionFacts::default()
        };
        for (b, block) in function.blocks().iter().enumerate() {
            let id = BlockId::new(b);
            let edges = block.term.successors();
            facts.feasible.push(
                edges
                    .iter()
                    .enumerate()
                    .map(|(k, to)| {
                        reached.get(to.index()).copied().unwrap_or(false) && feasible(id, k)
                    })
                    .collect(),
            );
            let mut points = Vec::with_capacity(block.stmts.len() + 1);
            let mut results = Vec::with_capacity(block.stmts.len());
            for (i, stmt) in block.stmts.iter().enumerate() {
                let mut read = Vec::new();
                stmt.for_each_use(|o| read.push(o));
                points.push(known(&read, |n| constant(id, i, n)));
                results.push(stmt.def().and_then(|d| constant(id, i + 1, d)));
            }
            let end = block.stmts.len();
            let mut read = Vec::new();
            block.term.for_each_use(|o| read.push(o));
            for to in &edges {
                for phi in function.phis(*to) {
                    read.extend(
                        phi.incoming
                            .iter()
                            .filter(|(p, _)| *p == id)
                            .map(|&(_, o)| o),
                    );
                }
            }
            points.push(known(&read, |n| constant(id, end, n)));
            facts.constants.push(points);
            facts.results.push(results);
        }
        facts
    }

    /// The constant `name` holds at point `index` of `block`, if the facts know one.
    pub fn constant(&self, block: BlockId, index: usize, name: NameId) -> Option<i64> {
        let point = self.constants.get(block.index())?.get(index)?;
        point.iter().find(|(n, _)| *n == name).map(|&(_, c)| c)
    }
}

/// The names among `read` with a constant, each once, in order.
fn known(read: &[Operand], constant: impl Fn(NameId) -> Option<i64>) -> Vec<(NameId, i64)> {
    let mut out: Vec<(NameId, i64)> = Vec::new();
    for o in read {
        let Operand::Name(n) = *o else { continue };
        if out.iter().any(|(m, _)| *m == n) {
            continue;
        }
        if let Some(c) = constant(n) {
            out.push((n, c));
        }
    }
    out
}

/// What the optimizer did to a function or a module.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Operands replaced by the constant they hold, and right-hand sides replaced by their
    /// constant result.
    pub folded: usize,
    /// Branches and switches replaced by a jump to their one feasible target (or by
    /// `unreachable` when none is).
    pub branches: usize,
    /// Blocks removed: no feasible edge reaches them.
    pub blocks: usize,
    /// Assignments removed: the name they define is dead after them, and they cannot trap.
    pub dead: usize,
    /// Allocations marked `new stack`.
    pub stack: usize,
}

impl Counts {
    /// The sum of two counts.
    pub fn add(&mut self, other: Counts) {
        self.folded += other.folded;
        self.branches += other.branches;
        self.blocks += other.blocks;
        self.dead += other.dead;
        self.stack += other.stack;
    }
}

impl fmt::Display for Counts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        write!(
            f,
            "{} folded, {} decided, {} removed, {} removed, {} on the stack",
            plural(self.folded, "constant", "constants"),
            plural(self.branches, "branch", "branches"),
            plural(self.blocks, "block", "blocks"),
            plural(self.dead, "dead assignment", "dead assignments"),
            plural(self.stack, "allocation", "allocations"),
        )
    }
}

/// The blocks being rewritten, with, per statement, whether it allocates on the stack.
#[derive(Clone, Debug)]
pub(crate) struct Work {
    /// The blocks, in the function's order.
    pub(crate) blocks: Vec<Block>,
    /// Per block, per statement: a `new stack`.
    pub(crate) stack: Vec<Vec<bool>>,
}

impl Work {
    /// The function `original` with the rewritten blocks.
    pub(crate) fn function(&self, original: &Function) -> Function {
        let mut f = Function::new(
            original.name.clone(),
            original.ssa,
            original.params.clone(),
            original.names.clone(),
            self.blocks.clone(),
        );
        f.captures = original.captures.clone();
        for (b, marks) in self.stack.iter().enumerate() {
            for (i, &on_stack) in marks.iter().enumerate() {
                let new = matches!(
                    self.blocks.get(b).and_then(|block| block.stmts.get(i)),
                    Some(Stmt::Assign {
                        rhs: absinthe::program::Rhs::New,
                        ..
                    })
                );
                if on_stack && new {
                    f.stack_allocations.insert((BlockId::new(b), i as u32));
                }
            }
        }
        f
    }
}
