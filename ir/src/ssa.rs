//! Conversion of a core-IR function to SSA form (Cytron et al.): φs on the iterated dominance
//! frontier of each name's definitions where the name is live, then renaming along the dominator
//! tree.
//!
//! Tests use it to get SSA programs of every shape from the random generators. A name read before
//! any definition keeps its original spelling and stays undefined (a parameter keeps its value).

use std::collections::BTreeSet;

use absinthe::cfg::{DominanceFrontiers, Dominators};
use absinthe::program::{BlockId, Cfg, NameId, Operand, Phi, Stmt, Terminator};

use crate::function::{Block, Function, Module};

/// `module` with every function in SSA form ([`to_ssa`]).
pub fn module_to_ssa(module: &Module) -> Module {
    Module {
        functions: module.functions.iter().map(to_ssa).collect(),
        fields: module.fields.clone(),
        symbols: module.symbols.clone(),
    }
}

/// The SSA form of `function`: every name defined at most once, φs at block heads.
///
/// A function already in SSA form is returned unchanged. When the entry block has predecessors a
/// new entry block jumping to it is added first (the entry cannot hold φs).
pub fn to_ssa(function: &Function) -> Function {
    if function.ssa {
        return function.clone();
    }
    let function = with_fresh_entry(function);
    let n = function.blocks().len();
    let dominators = Dominators::new(&function);
    let frontiers = DominanceFrontiers::new(&function, &dominators);

    // φ placement: for each name, the iterated frontier of the blocks defining it.
    let names = function.names.len();
    let mut def_blocks: Vec<Vec<BlockId>> = vec![Vec::new(); names];
    for (b, block) in function.blocks().iter().enumerate() {
        for stmt in &block.stmts {
            if let Some(d) = stmt.def() {
                def_blocks[d.index()].push(BlockId::new(b));
            }
        }
    }
    let live = live_in(&function);
    let mut phi_names: Vec<Vec<NameId>> = vec![Vec::new(); n];
    for (name, blocks) in def_blocks.iter().enumerate() {
        if blocks.is_empty() {
            continue;
        }
        for b in frontiers.iterated(blocks.iter().copied()) {
            if dominators.is_reachable(b) && live[b.index()][name] {
                phi_names[b.index()].push(NameId::new(name));
            }
        }
    }

    let mut renamer = Renamer {
        taken: function.names.iter().cloned().collect(),
        names: function.names.clone(),
        stacks: (0..names).map(|i| vec![NameId::new(i)]).collect(),
        versions: vec![0; names],
    };
    let mut blocks: Vec<Block> = function.blocks().to_vec();
    for (b, block) in blocks.iter_mut().enumerate() {
        block.phis = phi_names[b]
            .iter()
            .map(|&name| Phi {
                dest: name,
                incoming: function
                    .predecessors(BlockId::new(b))
                    .iter()
                    .map(|&p| (p, Operand::Name(name)))
                    .collect(),
            })
            .collect();
    }

    // Renaming: a depth-first walk of the dominator tree with one stack of versions per name.
    // Each frame is a block and whether its children were pushed (then its versions are popped).
    let mut pushed: Vec<Vec<NameId>> = vec![Vec::new(); n];
    let mut walk = vec![(function.entry(), false)];
    while let Some((b, done)) = walk.pop() {
        if done {
            for name in pushed[b.index()].drain(..).rev() {
                renamer.stacks[name.index()].pop();
            }
            continue;
        }
        let block = &mut blocks[b.index()];
        for (phi, &original) in block.phis.iter_mut().zip(&phi_names[b.index()]) {
            phi.dest = renamer.define(original);
            pushed[b.index()].push(original);
        }
        for stmt in &mut block.stmts {
            rename_uses(stmt, &renamer);
            if let Stmt::Assign { dest, .. } = stmt {
                let original = *dest;
                *dest = renamer.define(original);
                pushed[b.index()].push(original);
            }
        }
        rename_terminator(&mut block.term, &renamer);
        for &s in function.successors(b) {
            for (phi, &original) in blocks[s.index()].phis.iter_mut().zip(&phi_names[s.index()]) {
                let current = renamer.current(original);
                for (pred, operand) in phi.incoming.iter_mut() {
                    if *pred == b {
                        *operand = Operand::Name(current);
                    }
                }
            }
        }
        walk.push((b, true));
        for &child in dominators.children(b).iter().rev() {
            walk.push((child, false));
        }
    }
    // Blocks the entry does not reach still need distinct definitions.
    for (b, block) in blocks.iter_mut().enumerate() {
        if dominators.is_reachable(BlockId::new(b)) {
            continue;
        }
        for stmt in &mut block.stmts {
            if let Stmt::Assign { dest, .. } = stmt {
                let original = *dest;
                *dest = renamer.define(original);
                renamer.stacks[original.index()].pop();
            }
        }
    }
    let mut converted = Function::new(
        function.name.clone(),
        true,
        function.params.clone(),
        renamer.names,
        blocks,
    );
    // Captures, like parameters, are defined on entry and keep their names as first versions.
    converted.captures = function.captures.clone();
    // Blocks and statements keep their places.
    converted.stack_allocations = function.stack_allocations.clone();
    converted
}

/// Per block, the names some path from its start reads before writing them (whether or not the
/// path ends).
fn live_in(function: &Function) -> Vec<Vec<bool>> {
    let names = function.names.len();
    let blocks = function.blocks();
    // Per block: names read before written, and names written.
    let mut reads = vec![vec![false; names]; blocks.len()];
    let mut writes = vec![vec![false; names]; blocks.len()];
    for (b, block) in blocks.iter().enumerate() {
        let read = |o: Operand, writes: &[bool], reads: &mut [bool]| {
            if let Operand::Name(x) = o {
                if !writes[x.index()] {
                    reads[x.index()] = true;
                }
            }
        };
        for stmt in &block.stmts {
            stmt.for_each_use(|o| read(o, &writes[b], &mut reads[b]));
            if let Some(d) = stmt.def() {
                writes[b][d.index()] = true;
            }
        }
        block
            .term
            .for_each_use(|o| read(o, &writes[b], &mut reads[b]));
    }
    let mut live = reads.clone();
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..blocks.len()).rev() {
            for &s in function.successors(BlockId::new(b)) {
                for x in 0..names {
                    if live[s.index()][x] && !writes[b][x] && !live[b][x] {
                        live[b][x] = true;
                        changed = true;
                    }
                }
            }
        }
    }
    live
}

/// Adds a new entry block jumping to the old one when the old one has predecessors.
fn with_fresh_entry(function: &Function) -> Function {
    if function.predecessors(function.entry()).is_empty() {
        return function.clone();
    }
    let old = function.blocks();
    let shift = |b: BlockId| BlockId::new(b.index() + 1);
    let mut blocks = Vec::with_capacity(old.len() + 1);
    blocks.push(Block {
        label: "entry".to_string(),
        phis: Vec::new(),
        stmts: Vec::new(),
        term: Terminator::Goto(BlockId(1)),
    });
    for block in old {
        let mut block = block.clone();
        block.term = crate::function::retarget(block.term, shift);
        blocks.push(block);
    }
    let mut shifted = Function::new(
        function.name.clone(),
        false,
        function.params.clone(),
        function.names.clone(),
        blocks,
    );
    shifted.captures = function.captures.clone();
    shifted.stack_allocations = function
        .stack_allocations
        .iter()
        .map(|&(b, i)| (shift(b), i))
        .collect();
    shifted
}

/// The versions of each name during renaming.
struct Renamer {
    names: Vec<String>,
    /// Every spelling in use, so that new versions get fresh ones.
    taken: BTreeSet<String>,
    /// Per original name, the versions visible along the current dominator-tree path.
    stacks: Vec<Vec<NameId>>,
    versions: Vec<u32>,
}

impl Renamer {
    /// A fresh version of `original`, now the visible one.
    fn define(&mut self, original: NameId) -> NameId {
        let id = NameId::new(self.names.len());
        let spelling = loop {
            self.versions[original.index()] += 1;
            let candidate = format!(
                "{}_{}",
                self.names[original.index()],
                self.versions[original.index()]
            );
            if !self.taken.contains(&candidate) {
                break candidate;
            }
        };
        self.taken.insert(spelling.clone());
        self.names.push(spelling);
        self.stacks[original.index()].push(id);
        id
    }

    /// The visible version of `original` (itself when none was defined on the path).
    fn current(&self, original: NameId) -> NameId {
        self.stacks[original.index()]
            .last()
            .copied()
            .unwrap_or(original)
    }

    fn operand(&self, o: &mut Operand) {
        if let Operand::Name(n) = o {
            *n = self.current(*n);
        }
    }
}

fn rename_uses(stmt: &mut Stmt, r: &Renamer) {
    stmt.for_each_use_mut(|a| r.operand(a));
}

fn rename_terminator(term: &mut Terminator, r: &Renamer) {
    match term {
        Terminator::Branch { cond, .. } => match cond {
            absinthe::program::Cond::NonZero(a) => r.operand(a),
            absinthe::program::Cond::Compare(_, a, b) => {
                r.operand(a);
                r.operand(b);
            }
        },
        Terminator::Switch { on, .. } => r.operand(on),
        Terminator::Return(Some(a)) | Terminator::Throw(Some(a)) => r.operand(a),
        Terminator::Goto(_)
        | Terminator::Return(None)
        | Terminator::Throw(None)
        | Terminator::Unreachable => {}
    }
}
