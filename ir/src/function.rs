//! The in-memory core IR: a [`Module`] of [`Function`]s made of labelled [`Block`]s.
//!
//! This is what the text parser produces, what the printer and the interpreter consume, and what
//! analyses see through the runtime's [`Cfg`] and [`Program`] traits.

use std::collections::BTreeSet;

use absinthe::program::{
    BlockId, Cfg, FieldId, FuncId, NameId, Operand, Phi, Program, Stmt, SymbolId, Terminator,
};

/// A basic block: φs, then statements, then one terminator.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Block {
    /// The label the block is written with (`bb0`).
    pub label: String,
    /// The φs at its head (only in SSA functions).
    pub phis: Vec<Phi>,
    /// Its statements, in execution order.
    pub stmts: Vec<Stmt>,
    /// How it ends.
    pub term: Terminator,
}

/// One function: parameters, a name table and blocks, with cached successor and predecessor lists.
///
/// Block 0 is the entry. Build one with [`Function::new`], which computes the caches; the
/// blocks are read-only afterwards so the caches cannot go stale.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// The function's name.
    pub name: String,
    /// Whether the function is in SSA form (`fn f() ssa {`): φs allowed, one definition per name.
    pub ssa: bool,
    /// The parameters, in order.
    pub params: Vec<NameId>,
    /// The names bound to a closure's captured values on entry, in order (`fn f(x) [k] {`);
    /// empty for a function that captures nothing. [`Function::new`] leaves it empty.
    pub captures: Vec<NameId>,
    /// The spelling of every name; [`NameId`] indexes this.
    pub names: Vec<String>,
    /// The `new` statements whose objects live in the frame that allocates them, by block and
    /// statement index (`x = new stack`): such an object dies when that frame returns, and a
    /// load or store into it afterwards traps. Only `new` statements are marked; the optimizer
    /// marks those the escape analysis proves never escape. [`Function::new`] leaves it empty.
    pub stack_allocations: BTreeSet<(BlockId, u32)>,
    blocks: Vec<Block>,
    succs: Vec<Vec<BlockId>>,
    preds: Vec<Vec<BlockId>>,
}

impl Function {
    /// A function from its parts, computing successor and predecessor lists.
    ///
    /// Jump targets outside `0..blocks.len()` are kept in the successor lists but have no
    /// predecessor entry; the parser never produces them.
    pub fn new(
        name: String,
        ssa: bool,
        params: Vec<NameId>,
        names: Vec<String>,
        blocks: Vec<Block>,
    ) -> Function {
        let succs: Vec<Vec<BlockId>> = blocks.iter().map(|b| b.term.successors()).collect();
        let preds = predecessors(&succs);
        Function {
            name,
            ssa,
            params,
            captures: Vec::new(),
            names,
            stack_allocations: BTreeSet::new(),
            blocks,
            succs,
            preds,
        }
    }

    /// The blocks, entry first.
    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    /// The block `b`, if it exists.
    pub fn block(&self, b: BlockId) -> Option<&Block> {
        self.blocks.get(b.index())
    }

    /// Gives the blocks back, for rebuilding a changed function with [`Function::new`].
    pub fn into_blocks(self) -> Vec<Block> {
        self.blocks
    }

    /// The id of the name spelled `name`, if any.
    pub fn name_id(&self, name: &str) -> Option<NameId> {
        self.names.iter().position(|n| n == name).map(NameId::new)
    }

    /// The id of the block labelled `label`, if any.
    pub fn block_id(&self, label: &str) -> Option<BlockId> {
        self.blocks
            .iter()
            .position(|b| b.label == label)
            .map(BlockId::new)
    }

    /// Whether statement `index` of `block` is a `new` whose object lives on the stack.
    pub fn is_stack_allocation(&self, block: BlockId, index: usize) -> bool {
        u32::try_from(index).is_ok_and(|i| self.stack_allocations.contains(&(block, i)))
    }

    /// The number of statements over all blocks (φs and terminators not counted).
    pub fn stmt_count(&self) -> usize {
        self.blocks.iter().map(|b| b.stmts.len()).sum()
    }

    /// Renumbers names in order of first appearance (parameters first, then captures, φs,
    /// statements and
    /// terminators block by block, a definition before the operands of its right-hand side) and
    /// drops names never mentioned. The parser produces functions already in this order.
    pub fn canonicalize_names(&mut self) {
        let mut r = Renamer::new(self.names.len());
        for p in &mut self.params {
            r.name(p);
        }
        for c in &mut self.captures {
            r.name(c);
        }
        for block in &mut self.blocks {
            for phi in &mut block.phis {
                r.name(&mut phi.dest);
                for (_, o) in phi.incoming.iter_mut() {
                    r.operand(o);
                }
            }
            for stmt in &mut block.stmts {
                for_each_operand_mut(stmt, |slot| match slot {
                    Slot::Def(n) => r.name(n),
                    Slot::Use(o) => r.operand(o),
                });
            }
            for_each_term_operand_mut(&mut block.term, |o| r.operand(o));
        }
        self.names = r.finish(std::mem::take(&mut self.names));
    }
}

/// Renumbers dense ids in order of first sight.
struct Renamer {
    map: Vec<Option<u32>>,
    order: Vec<usize>,
}

impl Renamer {
    fn new(len: usize) -> Renamer {
        Renamer {
            map: vec![None; len],
            order: Vec::new(),
        }
    }

    /// The new number of old id `i` (ids out of range are kept as they are).
    fn renumber(&mut self, i: usize) -> u32 {
        match self.map.get_mut(i) {
            Some(Some(m)) => *m,
            Some(slot) => {
                let m = self.order.len() as u32;
                *slot = Some(m);
                self.order.push(i);
                m
            }
            None => i as u32,
        }
    }

    fn name(&mut self, n: &mut NameId) {
        *n = NameId(self.renumber(n.index()));
    }

    fn operand(&mut self, o: &mut Operand) {
        if let Operand::Name(n) = o {
            self.name(n);
        }
    }

    /// The old table reordered and trimmed to the ids seen.
    fn finish(self, old: Vec<String>) -> Vec<String> {
        self.order
            .iter()
            .map(|&i| old.get(i).cloned().unwrap_or_default())
            .collect()
    }
}

/// A place in a statement that mentions a name: the definition or an operand.
pub(crate) enum Slot<'a> {
    /// The name a statement defines.
    Def(&'a mut NameId),
    /// An operand it reads.
    Use(&'a mut Operand),
}

/// Calls `f` on the definition and the operands of `stmt`, in text order.
pub(crate) fn for_each_operand_mut(stmt: &mut Stmt, mut f: impl FnMut(Slot<'_>)) {
    match stmt {
        Stmt::Assign { dest, rhs } => {
            f(Slot::Def(dest));
            rhs.for_each_use_mut(|a| f(Slot::Use(a)));
        }
        other => other.for_each_use_mut(|a| f(Slot::Use(a))),
    }
}

/// `term` with every target `b` replaced by `to(b)`.
pub(crate) fn retarget(term: Terminator, mut to: impl FnMut(BlockId) -> BlockId) -> Terminator {
    match term {
        Terminator::Goto(t) => Terminator::Goto(to(t)),
        Terminator::Branch {
            cond,
            then_to,
            else_to,
        } => Terminator::Branch {
            cond,
            then_to: to(then_to),
            else_to: to(else_to),
        },
        Terminator::Switch { on, cases, default } => Terminator::Switch {
            on,
            cases: cases.iter().map(|&(v, t)| (v, to(t))).collect(),
            default: to(default),
        },
        other @ (Terminator::Return(_) | Terminator::Throw(_) | Terminator::Unreachable) => other,
    }
}

/// Calls `f` on the operands of `term`, in text order.
pub(crate) fn for_each_term_operand_mut(term: &mut Terminator, mut f: impl FnMut(&mut Operand)) {
    use absinthe::program::Cond;
    match term {
        Terminator::Branch { cond, .. } => match cond {
            Cond::NonZero(a) => f(a),
            Cond::Compare(_, a, b) => {
                f(a);
                f(b);
            }
        },
        Terminator::Switch { on, .. } => f(on),
        Terminator::Return(Some(a)) | Terminator::Throw(Some(a)) => f(a),
        Terminator::Goto(_)
        | Terminator::Return(None)
        | Terminator::Throw(None)
        | Terminator::Unreachable => {}
    }
}

impl Cfg for Function {
    fn block_count(&self) -> usize {
        self.blocks.len()
    }

    fn entry(&self) -> BlockId {
        BlockId(0)
    }

    fn successors(&self, b: BlockId) -> &[BlockId] {
        self.succs.get(b.index()).map_or(&[], Vec::as_slice)
    }

    fn predecessors(&self, b: BlockId) -> &[BlockId] {
        self.preds.get(b.index()).map_or(&[], Vec::as_slice)
    }
}

impl Program for Function {
    fn name_count(&self) -> usize {
        self.names.len()
    }

    fn name(&self, n: NameId) -> &str {
        self.names.get(n.index()).map_or("?", String::as_str)
    }

    fn params(&self) -> &[NameId] {
        &self.params
    }

    fn captures(&self) -> &[NameId] {
        &self.captures
    }

    fn phis(&self, b: BlockId) -> &[Phi] {
        self.block(b).map_or(&[], |b| b.phis.as_slice())
    }

    fn stmts(&self, b: BlockId) -> &[Stmt] {
        self.block(b).map_or(&[], |b| b.stmts.as_slice())
    }

    fn terminator(&self, b: BlockId) -> &Terminator {
        const UNREACHABLE: Terminator = Terminator::Unreachable;
        self.block(b).map_or(&UNREACHABLE, |b| &b.term)
    }

    fn is_ssa(&self) -> bool {
        self.ssa
    }
}

/// A set of functions that may call each other, and the field names their memory operations use.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Module {
    /// The functions; [`FuncId`] indexes this.
    pub functions: Vec<Function>,
    /// The field names; [`FieldId`] indexes this.
    pub fields: Vec<String>,
    /// The symbols whose address the functions take (`addr @g`); [`SymbolId`] indexes this.
    pub symbols: Vec<String>,
}

impl Module {
    /// The function `f`, if it exists.
    pub fn function(&self, f: FuncId) -> Option<&Function> {
        self.functions.get(f.index())
    }

    /// The id of the function named `name`, if any.
    pub fn func_id(&self, name: &str) -> Option<FuncId> {
        self.functions
            .iter()
            .position(|f| f.name == name)
            .map(FuncId::new)
    }

    /// The function named `name`, if any.
    pub fn function_named(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// The id of the field named `name`, if any.
    pub fn field_id(&self, name: &str) -> Option<FieldId> {
        self.fields.iter().position(|f| f == name).map(FieldId::new)
    }

    /// The id of the symbol named `name`, if any.
    pub fn symbol_id(&self, name: &str) -> Option<SymbolId> {
        self.symbols
            .iter()
            .position(|s| s == name)
            .map(SymbolId::new)
    }

    /// The spelling of symbol `s` (`?` when out of range).
    pub fn symbol_name(&self, s: SymbolId) -> &str {
        self.symbols.get(s.index()).map_or("?", String::as_str)
    }

    /// The spelling of field `f` (`?` when out of range).
    pub fn field_name(&self, f: FieldId) -> &str {
        self.fields.get(f.index()).map_or("?", String::as_str)
    }

    /// Renames names of every function into first-appearance order (see
    /// [`Function::canonicalize_names`]) and fields and symbols into the order they first appear
    /// in the module's text, dropping unused ones. Printing then parsing gives back an equal module
    /// exactly when it is canonical.
    pub fn canonicalize(&mut self) {
        use absinthe::program::Rhs;
        let mut r = Renamer::new(self.fields.len());
        let mut symbols = Renamer::new(self.symbols.len());
        for func in &mut self.functions {
            func.canonicalize_names();
            for block in &mut func.blocks {
                for stmt in &mut block.stmts {
                    match stmt {
                        Stmt::Assign {
                            rhs: Rhs::Load(_, f),
                            ..
                        }
                        | Stmt::Store { field: f, .. } => *f = FieldId(r.renumber(f.index())),
                        Stmt::Assign {
                            rhs: Rhs::Address(s),
                            ..
                        } => *s = SymbolId(symbols.renumber(s.index())),
                        _ => {}
                    }
                }
            }
        }
        self.fields = r.finish(std::mem::take(&mut self.fields));
        self.symbols = symbols.finish(std::mem::take(&mut self.symbols));
    }
}

/// The predecessors of each block, given each block's successors (in block order, a block
/// listed once per edge). A target past the last block has no list to join: the parser and the
/// lowerings check targets, so none comes from a program.
pub(crate) fn predecessors(succs: &[Vec<BlockId>]) -> Vec<Vec<BlockId>> {
    let mut preds = vec![Vec::new(); succs.len()];
    for (from, targets) in succs.iter().enumerate() {
        for t in targets {
            if let Some(list) = preds.get_mut(t.index()) {
                list.push(BlockId::new(from));
            }
        }
    }
    preds
}
