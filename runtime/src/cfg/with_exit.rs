//! A program seen with one block more: an exit after its last block, that every block may also
//! go to. A run may end anywhere — a trap, a throw out of a callee, a loop that never ends — so a
//! backward analysis that should speak of every run, not only of the runs that reach a return,
//! runs on this view: every block then reaches an exit, and none keeps bottom.

use crate::program::{BlockId, Cfg, NameId, Phi, Program, Stmt, Terminator};

/// `P` with an exit block numbered `block_count()`, the last successor of every block; the exit
/// has no statement, φ or successor, and ends in `unreachable`.
#[derive(Debug)]
pub struct WithExit<'a, P: ?Sized> {
    program: &'a P,
    succs: Vec<Vec<BlockId>>,
    preds: Vec<Vec<BlockId>>,
}

/// The added exit's terminator.
static EXIT: Terminator = Terminator::Unreachable;

impl<'a, P: Program + ?Sized> WithExit<'a, P> {
    /// The view of `program`.
    pub fn new(program: &'a P) -> WithExit<'a, P> {
        let count = program.block_count();
        let exit = BlockId::new(count);
        let mut succs: Vec<Vec<BlockId>> = (0..count)
            .map(|b| {
                let mut s = program.successors(BlockId::new(b)).to_vec();
                s.push(exit);
                s
            })
            .collect();
        succs.push(Vec::new());
        let mut preds = vec![Vec::new(); succs.len()];
        for (b, out) in succs.iter().enumerate() {
            for s in out {
                preds[s.index()].push(BlockId::new(b));
            }
        }
        WithExit {
            program,
            succs,
            preds,
        }
    }

    /// The added exit.
    pub fn exit(&self) -> BlockId {
        BlockId::new(self.succs.len() - 1)
    }

    /// Whether `b` is one of the program's own blocks (not the added exit).
    fn own(&self, b: BlockId) -> bool {
        b.index() + 1 < self.succs.len()
    }
}

impl<P: Program + ?Sized> Cfg for WithExit<'_, P> {
    fn block_count(&self) -> usize {
        self.succs.len()
    }

    fn entry(&self) -> BlockId {
        self.program.entry()
    }

    fn successors(&self, b: BlockId) -> &[BlockId] {
        self.succs.get(b.index()).map_or(&[], Vec::as_slice)
    }

    fn predecessors(&self, b: BlockId) -> &[BlockId] {
        self.preds.get(b.index()).map_or(&[], Vec::as_slice)
    }
}

/// The program's own blocks as they are; the exit, past them, is empty and `unreachable`.
impl<P: Program + ?Sized> Program for WithExit<'_, P> {
    fn name_count(&self) -> usize {
        self.program.name_count()
    }

    fn name(&self, n: NameId) -> &str {
        self.program.name(n)
    }

    fn params(&self) -> &[NameId] {
        self.program.params()
    }

    fn captures(&self) -> &[NameId] {
        self.program.captures()
    }

    fn phis(&self, b: BlockId) -> &[Phi] {
        if self.own(b) {
            self.program.phis(b)
        } else {
            &[]
        }
    }

    fn stmts(&self, b: BlockId) -> &[Stmt] {
        if self.own(b) {
            self.program.stmts(b)
        } else {
            &[]
        }
    }

    fn terminator(&self, b: BlockId) -> &Terminator {
        if self.own(b) {
            self.program.terminator(b)
        } else {
            &EXIT
        }
    }

    fn is_ssa(&self) -> bool {
        self.program.is_ssa()
    }
}
