//! The toy program itself: its instructions, the printer, and the lowering to a core IR
//! [`Function`] with a [`PcMap`] from instruction numbers to places.

use std::fmt;

use absinthe::program::{BlockId, Cond, NameId, Op, Operand, Rhs, Stmt, Terminator};

use crate::function::{Block, Function};

/// The right-hand side of a toy assignment.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ToyExpr {
    /// A literal or a name.
    Use(Operand),
    /// `a OP b`; the text format admits `+ - *` and the comparisons.
    Binary(Op, Operand, Operand),
}

/// One toy instruction. Jump targets are instruction numbers; the instruction count means exit.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Instr {
    /// `dest = rhs`.
    Assign {
        /// The name assigned.
        dest: NameId,
        /// Its new value.
        rhs: ToyExpr,
    },
    /// `@goto N`.
    Goto(usize),
    /// `COND && @goto N`: jumps when the condition holds, else falls through.
    CondGoto {
        /// The condition.
        cond: Cond,
        /// The instruction jumped to.
        target: usize,
    },
}

impl Instr {
    /// The instruction it may jump to, if it is a jump.
    pub fn target(&self) -> Option<usize> {
        match self {
            Instr::Assign { .. } => None,
            Instr::Goto(t) | Instr::CondGoto { target: t, .. } => Some(*t),
        }
    }
}

/// A toy program: instructions numbered from 0 and the names they use.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ToyProgram {
    /// The instructions; the index is the instruction number (the pc).
    pub instrs: Vec<Instr>,
    /// Name spellings, in order of first appearance; [`NameId`] indexes this.
    pub names: Vec<String>,
}

impl ToyProgram {
    /// The spelling of `n` (`?` when out of range).
    pub fn name(&self, n: NameId) -> &str {
        self.names.get(n.index()).map_or("?", String::as_str)
    }

    /// The id of the name spelled `name`, if any.
    pub fn name_id(&self, name: &str) -> Option<NameId> {
        self.names.iter().position(|n| n == name).map(NameId::new)
    }

    /// Renumbers names in order of first appearance (a destination before its operands) and
    /// drops unused ones; parsing the printed text then gives back an equal program.
    pub fn canonicalize(&mut self) {
        let mut map: Vec<Option<NameId>> = vec![None; self.names.len()];
        let mut order: Vec<usize> = Vec::new();
        let mut see = |n: &mut NameId| {
            if let Some(slot) = map.get_mut(n.index()) {
                let new = *slot.get_or_insert_with(|| {
                    order.push(n.index());
                    NameId::new(order.len() - 1)
                });
                *n = new;
            }
        };
        let see_operand = |o: &mut Operand, see: &mut dyn FnMut(&mut NameId)| {
            if let Operand::Name(n) = o {
                see(n);
            }
        };
        for instr in &mut self.instrs {
            match instr {
                Instr::Assign { dest, rhs } => {
                    see(dest);
                    match rhs {
                        ToyExpr::Use(a) => see_operand(a, &mut see),
                        ToyExpr::Binary(_, a, b) => {
                            see_operand(a, &mut see);
                            see_operand(b, &mut see);
                        }
                    }
                }
                Instr::Goto(_) => {}
                Instr::CondGoto { cond, .. } => match cond {
                    Cond::NonZero(a) => see_operand(a, &mut see),
                    Cond::Compare(_, a, b) => {
                        see_operand(a, &mut see);
                        see_operand(b, &mut see);
                    }
                },
            }
        }
        self.names = order
            .iter()
            .map(|&i| self.names.get(i).cloned().unwrap_or_default())
            .collect();
    }

    /// Lowers the program to a non-SSA core IR function `main` without parameters.
    ///
    /// Blocks start at leaders (instruction 0, jump targets, instructions after a jump) and are
    /// labelled `bb0`, `bb1`, … in order; a last block `exit` (always present) returns. A jump
    /// becomes the block's terminator (`@goto` a `goto`, a conditional jump a `br` whose else
    /// edge is the fall-through); falling into a leader becomes a `goto`.
    pub fn lower(&self) -> (Function, PcMap) {
        let n = self.instrs.len();
        let mut is_leader = vec![false; n + 1];
        if n > 0 {
            is_leader[0] = true;
        }
        for (pc, instr) in self.instrs.iter().enumerate() {
            if let Some(t) = instr.target() {
                if t < n {
                    is_leader[t] = true;
                }
                if pc + 1 < n {
                    is_leader[pc + 1] = true;
                }
            }
        }
        // The block of every pc, and of `n` (the exit).
        let mut block_of = vec![BlockId(0); n + 1];
        let mut count = 0usize;
        for pc in 0..n {
            if is_leader[pc] {
                count += 1;
            }
            block_of[pc] = BlockId::new(count.saturating_sub(1));
        }
        let exit = BlockId::new(count);
        block_of[n] = exit;
        let target_block = |t: usize| block_of.get(t).copied().unwrap_or(exit);

        let mut blocks: Vec<Block> = Vec::with_capacity(count + 1);
        let mut locs = Vec::with_capacity(n);
        for (pc, instr) in self.instrs.iter().enumerate() {
            if is_leader[pc] {
                blocks.push(Block {
                    label: format!("bb{}", blocks.len()),
                    phis: Vec::new(),
                    stmts: Vec::new(),
                    term: Terminator::Goto(exit),
                });
            }
            let Some(block) = blocks.last_mut() else {
                continue;
            };
            locs.push((block_of[pc], block.stmts.len()));
            match instr {
                Instr::Assign { dest, rhs } => {
                    let rhs = match *rhs {
                        ToyExpr::Use(a) => Rhs::Use(a),
                        ToyExpr::Binary(op, a, b) => Rhs::Binary(op, a, b),
                    };
                    block.stmts.push(Stmt::Assign { dest: *dest, rhs });
                }
                Instr::Goto(t) => block.term = Terminator::Goto(target_block(*t)),
                Instr::CondGoto { cond, target } => {
                    block.term = Terminator::Branch {
                        cond: *cond,
                        then_to: target_block(*target),
                        else_to: target_block(pc + 1),
                    };
                }
            }
            // A block left by falling through goes to the next instruction's block.
            if instr.target().is_none() {
                block.term = Terminator::Goto(target_block(pc + 1));
            }
        }
        blocks.push(Block {
            label: "exit".to_string(),
            phis: Vec::new(),
            stmts: Vec::new(),
            term: Terminator::Return(None),
        });
        let func = Function::new(
            "main".to_string(),
            false,
            Vec::new(),
            self.names.clone(),
            blocks,
        );
        (func, PcMap { locs, exit })
    }
}

/// Where each toy instruction went in the lowered function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PcMap {
    locs: Vec<(BlockId, usize)>,
    exit: BlockId,
}

impl PcMap {
    /// The block and position of instruction `pc`: a statement index, or the block's statement
    /// count when the instruction became the terminator (a jump). `pc` equal to the instruction
    /// count gives `(exit, 0)`; larger ones give `None`.
    pub fn loc(&self, pc: usize) -> Option<(BlockId, usize)> {
        if pc == self.locs.len() {
            return Some((self.exit, 0));
        }
        self.locs.get(pc).copied()
    }

    /// The instruction at `(block, index)`, if one is there (a fall-through `goto` has none; the
    /// exit block's terminator is the instruction count).
    pub fn pc_at(&self, block: BlockId, index: usize) -> Option<usize> {
        if block == self.exit && index == 0 {
            return Some(self.locs.len());
        }
        self.locs.iter().position(|&l| l == (block, index))
    }

    /// The exit block, reached by jumping to the instruction count.
    pub fn exit(&self) -> BlockId {
        self.exit
    }

    /// The number of instructions mapped.
    pub fn len(&self) -> usize {
        self.locs.len()
    }

    /// Whether the program had no instructions.
    pub fn is_empty(&self) -> bool {
        self.locs.is_empty()
    }
}

impl fmt::Display for ToyProgram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let operand = |f: &mut fmt::Formatter<'_>, o: Operand| match o {
            Operand::Name(n) => f.write_str(self.name(n)),
            Operand::Int(v) => write!(f, "{v}"),
        };
        for instr in &self.instrs {
            match instr {
                Instr::Assign { dest, rhs } => {
                    write!(f, "{} = ", self.name(*dest))?;
                    match *rhs {
                        ToyExpr::Use(a) => operand(f, a)?,
                        ToyExpr::Binary(op, a, b) => {
                            operand(f, a)?;
                            write!(f, " {op} ")?;
                            operand(f, b)?;
                        }
                    }
                }
                Instr::Goto(t) => write!(f, "@goto {t}")?,
                Instr::CondGoto { cond, target } => {
                    match *cond {
                        Cond::NonZero(a) => operand(f, a)?,
                        Cond::Compare(op, a, b) => {
                            operand(f, a)?;
                            write!(f, " {op} ")?;
                            operand(f, b)?;
                        }
                    }
                    write!(f, " && @goto {target}")?;
                }
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}
