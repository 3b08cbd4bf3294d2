//! Lowering LLVM functions to absinthe's core IR.
//!
//! **Values.** Integers of up to 64 bits and pointers are modelled; an `iN` value is kept
//! sign-extended in 64 bits (so `sext` is free and signed comparisons are the core IR's), except
//! `i1`, which is 0 or 1. Results that may leave `N` bits are wrapped with `trunc N` (`& 1` for
//! `i1`) unless the instruction has `nsw`; unsigned operations use the core IR's `ult`, `udiv`,
//! `lshr` (after masking to `N` bits where the sign-extended pattern would differ). A pointer is
//! its address; `null` is 0. Floats, vectors, aggregates and wider integers are not modelled:
//! an integer or pointer computed from them is unknown (the function's `unknown` name, ⊤).
//!
//! **Memory and calls.** With [`Memory::Keep`], `alloca` is `new`; `load` and `store` read and
//! write the field `mem` of the pointer (one cell per pointer value); calls are calls (direct
//! ones to the module's function, indirect ones through the pseudo function `indirect`). A pseudo
//! or external function has no body, so domains treat its calls as unknown: the result is ⊤ and,
//! for domains that track memory, whatever escapes to it is clobbered. With [`Memory::Erase`]
//! (what value analyses use) loaded values and call results are the unknown value, unless a
//! comparison tests them and they are used again. `getelementptr` gives an unknown pointer (the
//! base itself when every index is 0). A load from a constant global at a constant offset is
//! folded at lowering time, as LLVM's SCCP does.
//!
//! **Undefined values.** `undef` and `poison` are a name that is never assigned, that is ⊥: the
//! analysis may pick any value for them, as LLVM's SCCP does (a `phi [1, undef]` is 1). `freeze`
//! is unknown.
//!
//! **Control.** Blocks keep LLVM's order (the entry first). A `br` on an `icmp` branches on the
//! comparison itself, so that domains refine its operands on each edge, when an operand is used
//! again; otherwise on the comparison's result. An `icmp` used only by its block's branch gets no
//! name ([`Home::Compare`]). `switch` is a switch; `indirectbr`, `invoke` and `callbr` branch on
//! an unknown value. Branches never refine the shared unknown name (they test a private copy),
//! since it stands for many different values.
//!
//! **Names.** Every name is carried through every block state of the dense engine, so the
//! lowering names only what can hold a fact: no-op casts alias their operand, φs whose inputs are
//! all unknown are unknown, values that are only tested need no name of their own.

use std::collections::{HashMap, HashSet};

use absinthe::program::{
    BlockId, Cond, FieldId, FuncId, NameId, Op, Operand, Phi, Rhs, Stmt, Terminator,
};
use absinthe_ir::{Block, Function, Module};
use llvm_ir::{
    Constant, ConstantRef, Instruction, IntPredicate, Name, Terminator as LTerm, Type, TypeRef,
};

use crate::flags::NswFlags;
use crate::load::contain_panics;

mod constants;
mod instructions;
mod uses;

use constants::is_zero;
use uses::{intrinsic, modelled_intrinsic, tested_values, use_counts, virtual_compares};

/// A lowered module: the core IR and, per LLVM function, where its values went.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// The core IR: the defined LLVM functions in the module's order (a skipped one without
    /// blocks), then declarations and pseudo functions (no blocks).
    pub module: Module,
    /// One entry per lowered LLVM function, in the module's order.
    pub functions: Vec<LoweredFunction>,
    /// The functions that could not be lowered, in the module's order.
    pub skipped: Vec<LowerError>,
}

/// What the lowering knows about one LLVM function.
#[derive(Clone, Debug)]
pub struct LoweredFunction {
    /// The LLVM name (without `@`).
    pub name: String,
    /// Its core IR function in [`Lowered::module`].
    pub func: FuncId,
    /// Every named integer or pointer value the function defines (arguments excluded), in
    /// program order.
    pub values: Vec<LlvmValue>,
    /// Instructions, terminators included.
    pub instructions: usize,
}

/// An LLVM value and where it lives in the core IR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LlvmValue {
    /// The LLVM name, without `%`.
    pub name: String,
    /// Where its value is in the core IR.
    pub home: Home,
    /// The block that defines it.
    pub block: BlockId,
    /// Whether it is an integer (otherwise a pointer).
    pub integer: bool,
}

/// Where an LLVM value's value is in the core IR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Home {
    /// In this operand: the value's own name, another value's name (a no-op cast), or a literal
    /// the lowering folded.
    Operand(Operand),
    /// An `icmp` whose only use is the branch that ends its block: it has no name, the branch
    /// tests the comparison itself, and its value is the comparison of these operands (at the
    /// end of the block).
    Compare(Op, Operand, Operand),
}

/// How a value's type is modelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// An integer of this many bits (1 to 64).
    Int(u32),
    /// A pointer (an address, 64 bits).
    Ptr,
    /// Anything else: not modelled.
    Other,
}

fn kind(ty: &Type) -> Kind {
    match ty {
        Type::IntegerType { bits } if (1..=64).contains(bits) => Kind::Int(*bits),
        Type::PointerType { .. } => Kind::Ptr,
        _ => Kind::Other,
    }
}

fn bits_of(k: Kind) -> u32 {
    match k {
        Kind::Int(bits) => bits,
        Kind::Ptr | Kind::Other => 64,
    }
}

/// `2^bits - 1` for `bits < 64`, all ones otherwise.
fn mask(bits: u32) -> i64 {
    if bits >= 64 {
        -1
    } else {
        ((1u64 << bits) - 1) as i64
    }
}

/// The canonical 64-bit form of the `bits`-bit pattern `raw`: sign-extended, or 0/1 for `i1`.
/// `None` for integers wider than 64 bits.
pub fn canonical(bits: u32, raw: u64) -> Option<i64> {
    match bits {
        0 | 65.. => None,
        1 => Some((raw & 1) as i64),
        64 => Some(raw as i64),
        _ => {
            let shift = 64 - bits;
            Some(((raw << shift) as i64) >> shift)
        }
    }
}

/// The spelling of an LLVM name (without sigil).
pub fn name_text(name: &Name) -> String {
    match name {
        Name::Name(s) => s.as_ref().clone(),
        Name::Number(n) => n.to_string(),
    }
}

/// The pseudo functions the lowering calls; they have no body.
const ADDRESS: &str = "absinthe.address";
const UNKNOWN: &str = "absinthe.unknown";
const INDIRECT: &str = "absinthe.indirect";
const ASM: &str = "absinthe.asm";
const FREEZE: &str = "absinthe.freeze";
const VA_ARG: &str = "absinthe.va_arg";
const ATOMIC: &str = "absinthe.atomic";

/// What the lowering keeps of memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// Every memory operation and call result: `alloca` is `new`, loads and stores use the
    /// field `mem`, call results are names.
    Keep,
    /// Only what a value analysis can see, which knows nothing about memory: loaded values and
    /// call results are the unknown value (⊤) without a name of their own, and `alloca`s and
    /// stores disappear; calls stay (as statements). A domain that tracks no memory computes the
    /// same facts either way, with far fewer names to carry through the fixpoint.
    Erase,
}

/// A function the lowering could not handle: it is skipped (a bodyless function in the core IR,
/// so its callers treat its calls as unknown) and the rest of the module is analyzed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowerError {
    /// The function.
    pub function: String,
    /// What went wrong.
    pub message: String,
    /// Where: the block and the position of the instruction in it (0 for its first), and the
    /// instruction's text when it could be printed.
    pub at: Option<Place>,
}

/// The instruction a [`LowerError`] happened at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The block's label.
    pub block: String,
    /// The instruction's position in its block (0 for the first; the terminator is last).
    pub index: usize,
    /// The instruction as LLVM prints it, when known.
    pub text: Option<String>,
}

impl std::fmt::Display for LowerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "function `{}` skipped: {}", self.function, self.message)?;
        if let Some(at) = &self.at {
            write!(f, " (block {}, instruction {}", at.block, at.index)?;
            if let Some(text) = &at.text {
                write!(f, ": {text}")?;
            }
            write!(f, ")")?;
        }
        Ok(())
    }
}

/// Lowers every defined function of `module`. `flags` gives the `nsw` flags (see
/// [`NswFlags`]); `progress(done, total)` is called after each function. A function whose
/// lowering fails (`llvm-ir` panics while answering a question about it, such as the type of an
/// `extractvalue` from a named struct) is skipped: it becomes a bodyless function, and the
/// error, with the instruction it happened at, is in [`Lowered::skipped`].
pub fn lower_module(
    module: &llvm_ir::Module,
    flags: &NswFlags,
    memory: Memory,
    mut progress: impl FnMut(usize, usize),
) -> Lowered {
    let globals: HashMap<String, &llvm_ir::module::GlobalVariable> = module
        .global_vars
        .iter()
        .map(|g| (name_text(&g.name), g))
        .collect();
    let mut callees = Callees::default();
    for f in &module.functions {
        callees.id(&f.name);
    }
    let mut functions = Vec::with_capacity(module.functions.len());
    let mut infos = Vec::with_capacity(module.functions.len());
    let mut skipped = Vec::new();
    let total = module.functions.len();
    for (i, f) in module.functions.iter().enumerate() {
        let position = std::cell::Cell::new((0, 0));
        let lowered = contain_panics(|| {
            let mut lowering =
                FnLower::new(module, &globals, &mut callees, flags.function(&f.name));
            lowering.memory = memory;
            lowering.position = Some(&position);
            lowering.lower(f)
        });
        match lowered {
            Ok((function, mut info)) => {
                info.func = FuncId::new(i);
                functions.push(function);
                infos.push(info);
            }
            Err(message) => {
                let (b, index) = position.get();
                let at = f.basic_blocks.get(b).map(|bb| Place {
                    block: name_text(&bb.name),
                    index,
                    text: contain_panics(|| match bb.instrs.get(index) {
                        Some(inst) => inst.to_string(),
                        None => bb.term.to_string(),
                    })
                    .ok(),
                });
                skipped.push(LowerError {
                    function: f.name.clone(),
                    message,
                    at,
                });
                functions.push(Function::new(
                    f.name.clone(),
                    true,
                    Vec::new(),
                    Vec::new(),
                    Vec::new(),
                ));
            }
        }
        progress(i + 1, total);
    }
    for name in callees.names.iter().skip(functions.len()) {
        functions.push(Function::new(
            name.clone(),
            true,
            Vec::new(),
            Vec::new(),
            Vec::new(),
        ));
    }
    Lowered {
        module: Module {
            functions,
            fields: vec!["mem".to_owned()],
        },
        functions: infos,
        skipped,
    }
}

/// The module's function table: defined functions first, then the others as they are called.
#[derive(Default)]
struct Callees {
    ids: HashMap<String, FuncId>,
    names: Vec<String>,
}

impl Callees {
    fn id(&mut self, name: &str) -> FuncId {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = FuncId::new(self.names.len());
        self.ids.insert(name.to_owned(), id);
        self.names.push(name.to_owned());
        id
    }
}

/// How an LLVM value is lowered.
#[derive(Clone, Debug)]
enum Slot {
    /// Defined by statements into its own name.
    Name(NameId),
    /// The same value as this LLVM operand (a no-op cast).
    Alias(llvm_ir::Operand),
    /// A known operand (a folded constant, or the unknown name).
    Value(Operand),
    /// An `icmp` only its block's branch uses: no statement, the branch tests the comparison.
    Virtual,
}

/// The state of lowering one function.
struct FnLower<'a> {
    module: &'a llvm_ir::Module,
    globals: &'a HashMap<String, &'a llvm_ir::module::GlobalVariable>,
    callees: &'a mut Callees,
    nsw: Option<&'a HashSet<String>>,
    names: Vec<String>,
    slots: HashMap<Name, Slot>,
    blocks: HashMap<Name, BlockId>,
    /// `icmp` results: the comparison in core IR terms, for branches on them.
    compares: HashMap<Name, (Op, Operand, Operand)>,
    /// Statements that open the entry block: addresses of globals, the unknown name.
    prologue: Vec<Stmt>,
    unknown: Option<NameId>,
    undef: Option<NameId>,
    addresses: HashMap<String, NameId>,
    /// The statements of the block being lowered.
    stmts: Vec<Stmt>,
    temps: usize,
    memory: Memory,
    /// The `icmp`s whose only use is their block's branch.
    virtual_compares: HashSet<Name>,
    /// The values a comparison or a switch tests (through no-op casts) and that are used again.
    tested: HashSet<Name>,
    /// The named `icmp`s a branch should test as comparisons (refining their operands) rather
    /// than as values (refining their result).
    refines_operands: HashSet<Name>,
    /// Where to record the block and instruction being lowered (for errors).
    position: Option<&'a std::cell::Cell<(usize, usize)>>,
}

const MEM: FieldId = FieldId(0);

impl<'a> FnLower<'a> {
    fn new(
        module: &'a llvm_ir::Module,
        globals: &'a HashMap<String, &'a llvm_ir::module::GlobalVariable>,
        callees: &'a mut Callees,
        nsw: Option<&'a HashSet<String>>,
    ) -> FnLower<'a> {
        FnLower {
            module,
            globals,
            callees,
            nsw,
            names: Vec::new(),
            slots: HashMap::new(),
            blocks: HashMap::new(),
            compares: HashMap::new(),
            prologue: Vec::new(),
            unknown: None,
            undef: None,
            addresses: HashMap::new(),
            stmts: Vec::new(),
            temps: 0,
            memory: Memory::Keep,
            virtual_compares: HashSet::new(),
            tested: HashSet::new(),
            refines_operands: HashSet::new(),
            position: None,
        }
    }

    /// Records that the lowering is at instruction `index` of block `block`.
    fn at(&self, block: usize, index: usize) {
        if let Some(p) = self.position {
            p.set((block, index));
        }
    }

    fn lower(mut self, f: &llvm_ir::Function) -> (Function, LoweredFunction) {
        let mut params = Vec::new();
        for p in &f.parameters {
            if kind(&p.ty) != Kind::Other {
                let id = self.fresh(format!("%{}", name_text(&p.name)));
                self.slots.insert(p.name.clone(), Slot::Name(id));
                params.push(id);
            }
        }
        for (i, bb) in f.basic_blocks.iter().enumerate() {
            self.blocks.insert(bb.name.clone(), BlockId::new(i));
        }
        let uses = use_counts(f);
        self.virtual_compares = virtual_compares(f, uses.as_ref());
        self.tested = tested_values(f, uses.as_ref());
        // Decide every value's slot first: φs and branches may name values defined later. φs go
        // last, once it is known which of their inputs are unknown.
        for (b, bb) in f.basic_blocks.iter().enumerate() {
            for (i, inst) in bb.instrs.iter().enumerate() {
                if !matches!(inst, Instruction::Phi(_)) {
                    self.at(b, i);
                    self.plan(inst);
                }
            }
            self.at(b, bb.instrs.len());
            if let LTerm::Invoke(invoke) = &bb.term {
                let ty = self.module.type_of(&bb.term);
                if kind(&ty) != Kind::Other {
                    let id = self.fresh(format!("%{}", name_text(&invoke.result)));
                    self.slots.insert(invoke.result.clone(), Slot::Name(id));
                }
            }
        }
        let unknown_phis = self.unknown_phis(f);
        for (b, bb) in f.basic_blocks.iter().enumerate() {
            for (i, inst) in bb.instrs.iter().enumerate() {
                let Instruction::Phi(phi) = inst else {
                    continue;
                };
                self.at(b, i);
                if unknown_phis.contains(&phi.dest) {
                    let u = self.unknown();
                    self.slots.insert(phi.dest.clone(), Slot::Value(u));
                } else {
                    self.plan(inst);
                }
            }
        }
        let mut blocks = Vec::with_capacity(f.basic_blocks.len());
        let mut values = Vec::new();
        let mut instructions = 0;
        for (i, bb) in f.basic_blocks.iter().enumerate() {
            let here = BlockId::new(i);
            let mut phis = Vec::new();
            for (j, inst) in bb.instrs.iter().enumerate() {
                self.at(i, j);
                instructions += 1;
                match inst {
                    Instruction::Phi(phi) => {
                        if let Some(p) = self.phi(phi) {
                            phis.push(p);
                        }
                    }
                    _ => self.instruction(inst),
                }
                if let Some(dest) = inst.try_get_result() {
                    let ty = self.module.type_of(inst);
                    let k = kind(&ty);
                    if k != Kind::Other {
                        let home = match self.slots.get(dest) {
                            Some(Slot::Virtual) => match self.compares.get(dest) {
                                Some(&(op, a, b)) => Home::Compare(op, a, b),
                                None => Home::Operand(self.unknown()),
                            },
                            _ => Home::Operand(self.local(dest, 0)),
                        };
                        values.push(LlvmValue {
                            name: name_text(dest),
                            home,
                            block: here,
                            integer: matches!(k, Kind::Int(_)),
                        });
                    }
                }
            }
            instructions += 1;
            self.at(i, bb.instrs.len());
            let term = self.terminator(&bb.term);
            blocks.push(Block {
                label: name_text(&bb.name),
                phis,
                stmts: std::mem::take(&mut self.stmts),
                term,
            });
        }
        if let Some(entry) = blocks.first_mut() {
            let mut stmts = std::mem::take(&mut self.prologue);
            stmts.append(&mut entry.stmts);
            entry.stmts = stmts;
        }
        let function = Function::new(f.name.clone(), true, params, self.names, blocks);
        let info = LoweredFunction {
            name: f.name.clone(),
            func: FuncId::new(0),
            values,
            instructions,
        };
        (function, info)
    }

    // ---- names and operands ----

    fn fresh(&mut self, spelling: String) -> NameId {
        let id = NameId::new(self.names.len());
        self.names.push(spelling);
        id
    }

    fn temp(&mut self, base: &Name) -> NameId {
        self.temps += 1;
        let spelling = format!("%{}#{}", name_text(base), self.temps);
        self.fresh(spelling)
    }

    fn pseudo(&mut self, name: &str) -> FuncId {
        self.callees.id(name)
    }

    /// The name that holds an unknown value (⊤) everywhere in the function.
    fn unknown(&mut self) -> Operand {
        let id = match self.unknown {
            Some(id) => id,
            None => {
                let id = self.fresh("unknown".to_owned());
                let callee = self.pseudo(UNKNOWN);
                self.prologue.push(Stmt::Assign {
                    dest: id,
                    rhs: Rhs::Call(callee, Box::new([])),
                });
                self.unknown = Some(id);
                id
            }
        };
        Operand::Name(id)
    }

    /// `o`, or a fresh copy of it when it is the shared unknown name. Branches refine the names
    /// they test on each edge; refining the name that stands for every unknown value at once
    /// would be unsound, so a terminator tests a private copy instead.
    fn private(&mut self, o: Operand) -> Operand {
        match (o, self.unknown) {
            (Operand::Name(n), Some(u)) if n == u => {
                self.temps += 1;
                let t = self.fresh(format!("unknown#{}", self.temps));
                self.emit(t, Rhs::Use(o));
                Operand::Name(t)
            }
            _ => o,
        }
    }

    /// The name that stands for `undef` and `poison`: never assigned, so ⊥.
    fn undef(&mut self) -> Operand {
        let id = match self.undef {
            Some(id) => id,
            None => {
                let id = self.fresh("undef".to_owned());
                self.undef = Some(id);
                id
            }
        };
        Operand::Name(id)
    }

    /// The name holding the address of the global `name`, defined in the entry block.
    fn address(&mut self, name: &str) -> Operand {
        if let Some(&id) = self.addresses.get(name) {
            return Operand::Name(id);
        }
        let id = self.fresh(format!("@{name}"));
        let callee = self.pseudo(ADDRESS);
        self.prologue.push(Stmt::Assign {
            dest: id,
            rhs: Rhs::Call(callee, Box::new([])),
        });
        self.addresses.insert(name.to_owned(), id);
        Operand::Name(id)
    }

    fn operand(&mut self, op: &llvm_ir::Operand) -> Operand {
        self.operand_at(op, 0)
    }

    fn operand_at(&mut self, op: &llvm_ir::Operand, depth: u32) -> Operand {
        match op {
            llvm_ir::Operand::LocalOperand { name, .. } => self.local(name, depth),
            llvm_ir::Operand::ConstantOperand(c) => self.constant(c),
            llvm_ir::Operand::MetadataOperand => self.unknown(),
        }
    }

    fn local(&mut self, name: &Name, depth: u32) -> Operand {
        match self.slots.get(name) {
            Some(Slot::Name(id)) => Operand::Name(*id),
            Some(Slot::Value(o)) => *o,
            Some(Slot::Alias(target)) if depth < 64 => {
                let target = target.clone();
                self.operand_at(&target, depth + 1)
            }
            // Values of types the lowering does not model (or alias chains that never end,
            // which SSA rules out).
            Some(Slot::Alias(_) | Slot::Virtual) | None => self.unknown(),
        }
    }

    fn plan(&mut self, inst: &Instruction) {
        let Some(dest) = inst.try_get_result() else {
            return;
        };
        let ty = self.module.type_of(inst);
        let k = kind(&ty);
        if k == Kind::Other {
            return;
        }
        if self.virtual_compares.contains(dest) {
            self.slots.insert(dest.clone(), Slot::Virtual);
            return;
        }
        let slot = match self.plan_slot(inst, k) {
            Some(slot) => slot,
            None => Slot::Name(self.fresh(format!("%{}", name_text(dest)))),
        };
        self.slots.insert(dest.clone(), slot);
    }

    /// The φs (of modelled types, untested) whose every input is unknown, an address, `undef`,
    /// or such a φ: they are ⊤ in every domain, so they need no name of their own. The greatest
    /// such set, found by discarding φs with another input until none is left to discard.
    fn unknown_phis(&self, f: &llvm_ir::Function) -> HashSet<Name> {
        let mut phis: HashMap<&Name, &llvm_ir::instruction::Phi> = HashMap::new();
        let mut modelled: HashSet<&Name> = HashSet::new();
        for bb in &f.basic_blocks {
            for inst in &bb.instrs {
                if let Instruction::Phi(phi) = inst {
                    if kind(&phi.to_type) == Kind::Other {
                        continue;
                    }
                    modelled.insert(&phi.dest);
                    if !self.tested.contains(&phi.dest) {
                        phis.insert(&phi.dest, phi);
                    }
                }
            }
        }
        let mut set: HashSet<Name> = phis.keys().map(|&n| n.clone()).collect();
        loop {
            let discard: Vec<Name> = set
                .iter()
                .filter(|n| {
                    phis[n]
                        .incoming_values
                        .iter()
                        .any(|(v, _)| !self.unknown_like(v, &set, &modelled, 0))
                })
                .cloned()
                .collect();
            if discard.is_empty() {
                return set;
            }
            for n in discard {
                set.remove(&n);
            }
        }
    }

    /// Whether `op` is ⊤ in every domain (or `undef`, which joins to anything), given that the
    /// φs in `phis` are.
    fn unknown_like(
        &self,
        op: &llvm_ir::Operand,
        phis: &HashSet<Name>,
        modelled_phis: &HashSet<&Name>,
        depth: u32,
    ) -> bool {
        match op {
            llvm_ir::Operand::ConstantOperand(c) => self.eval_constant(c).is_none(),
            llvm_ir::Operand::MetadataOperand => true,
            llvm_ir::Operand::LocalOperand { name, .. } => {
                if phis.contains(name) {
                    return true;
                }
                match self.slots.get(name) {
                    Some(Slot::Value(Operand::Name(n))) => Some(*n) == self.unknown,
                    Some(Slot::Alias(target)) if depth < 64 => {
                        self.unknown_like(target, phis, modelled_phis, depth + 1)
                    }
                    Some(Slot::Name(_) | Slot::Virtual | Slot::Value(Operand::Int(_))) => false,
                    Some(Slot::Alias(_)) => false,
                    // A φ not in the set (φs are planned last), or a value of a type the
                    // lowering does not model, which is unknown.
                    None => !modelled_phis.contains(name),
                }
            }
        }
    }

    /// The slot of a value that needs no statement, if it is one.
    fn plan_slot(&mut self, inst: &Instruction, k: Kind) -> Option<Slot> {
        let from = |op: &llvm_ir::Operand| kind(&self.module.type_of(op));
        match inst {
            Instruction::SExt(i) if from(&i.operand) != Kind::Int(1) => {
                Some(Slot::Alias(i.operand.clone()))
            }
            Instruction::ZExt(i) if from(&i.operand) == Kind::Int(1) => {
                Some(Slot::Alias(i.operand.clone()))
            }
            Instruction::BitCast(i) if from(&i.operand) == k => {
                Some(Slot::Alias(i.operand.clone()))
            }
            Instruction::AddrSpaceCast(i) => Some(Slot::Alias(i.operand.clone())),
            Instruction::PtrToInt(i) if k == Kind::Int(64) => Some(Slot::Alias(i.operand.clone())),
            Instruction::IntToPtr(i) if from(&i.operand) == Kind::Int(64) => {
                Some(Slot::Alias(i.operand.clone()))
            }
            Instruction::GetElementPtr(g) if g.indices.iter().all(is_zero) => {
                Some(Slot::Alias(g.address.clone()))
            }
            // Address arithmetic: an unknown pointer (its memory is whatever escaped).
            Instruction::GetElementPtr(_) => Some(Slot::Value(self.unknown())),
            Instruction::Call(call) => match intrinsic(call) {
                Some(name) if name.starts_with("llvm.expect.") => {
                    call.arguments.first().map(|(a, _)| Slot::Alias(a.clone()))
                }
                Some(name) if modelled_intrinsic(name) => None,
                _ if self.erased(inst) => Some(Slot::Value(self.unknown())),
                _ => None,
            },
            // A volatile load may see memory change behind the program's back: never folded.
            Instruction::Load(load) if load.volatile && self.erased(inst) => {
                Some(Slot::Value(self.unknown()))
            }
            Instruction::Load(load) if load.volatile => None,
            Instruction::Load(load) => match self.fold_load(&load.address, k) {
                Some(v) => Some(Slot::Value(Operand::Int(v))),
                None if self.erased(inst) => Some(Slot::Value(self.unknown())),
                None => None,
            },
            Instruction::Alloca(_) | Instruction::AtomicRMW(_) | Instruction::VAArg(_)
                if self.erased(inst) =>
            {
                Some(Slot::Value(self.unknown()))
            }
            Instruction::FPToSI(i) => self.fold_fp_to_int(&i.operand, k, true),
            Instruction::FPToUI(i) => self.fold_fp_to_int(&i.operand, k, false),
            // Results the lowering cannot compute are unknown; they need no name of their own.
            Instruction::BitCast(_)
            | Instruction::ExtractValue(_)
            | Instruction::ExtractElement(_)
            | Instruction::FCmp(_)
            | Instruction::LandingPad(_)
            | Instruction::CatchPad(_)
            | Instruction::CleanupPad(_) => Some(Slot::Value(self.unknown())),
            _ => None,
        }
    }

    /// Whether refining `op` on a branch edge can reach another use of it: it is tested and used
    /// again (see [`tested_values`]), itself or through no-op casts.
    fn worth_refining(&self, op: &llvm_ir::Operand, depth: u32) -> bool {
        let llvm_ir::Operand::LocalOperand { name, .. } = op else {
            return false;
        };
        if self.tested.contains(name) {
            return true;
        }
        match self.slots.get(name) {
            Some(Slot::Alias(target)) if depth < 64 => self.worth_refining(target, depth + 1),
            _ => false,
        }
    }

    /// Whether the result of the memory operation or call `inst` is erased to the unknown value:
    /// with [`Memory::Erase`], unless a comparison or a switch tests it. Branches refine the
    /// values they test, and a value refined on an edge must have a name of its own for its
    /// other uses to see it; untested values gain nothing from one.
    fn erased(&self, inst: &Instruction) -> bool {
        self.memory == Memory::Erase
            && inst
                .try_get_result()
                .is_none_or(|dest| !self.tested.contains(dest))
    }
}
