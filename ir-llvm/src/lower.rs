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

/// A lowered module: the core IR and, per LLVM function, where its values went.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// The core IR. `functions[i]` for `i < functions.len()` of [`Lowered::functions`] is the
    /// `i`-th defined LLVM function; declarations and pseudo functions (no blocks) follow.
    pub module: Module,
    /// One entry per defined LLVM function, in the module's order.
    pub functions: Vec<LoweredFunction>,
}

/// What the lowering knows about one LLVM function.
#[derive(Clone, Debug)]
pub struct LoweredFunction {
    /// The LLVM name (without `@`).
    pub name: String,
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

/// A function the lowering could not handle (`llvm-ir` panicked while answering a question
/// about it, such as the type of a malformed constant expression).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowerError {
    /// The function.
    pub function: String,
    /// What went wrong.
    pub message: String,
}

impl std::fmt::Display for LowerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot lower function `{}`: {}",
            self.function, self.message
        )
    }
}

/// Lowers every defined function of `module`. `flags` gives the `nsw` flags (see
/// [`NswFlags`]); `progress(done, total)` is called after each function. Panics inside
/// `llvm-ir` are contained and reported as a [`LowerError`].
pub fn lower_module(
    module: &llvm_ir::Module,
    flags: &NswFlags,
    memory: Memory,
    mut progress: impl FnMut(usize, usize),
) -> Result<Lowered, LowerError> {
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
    let total = module.functions.len();
    for (i, f) in module.functions.iter().enumerate() {
        let lowered = contain_panics(|| {
            let mut lowering =
                FnLower::new(module, &globals, &mut callees, flags.function(&f.name));
            lowering.memory = memory;
            lowering.lower(f)
        });
        let (function, info) = lowered.map_err(|message| LowerError {
            function: f.name.clone(),
            message,
        })?;
        functions.push(function);
        infos.push(info);
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
    Ok(Lowered {
        module: Module {
            functions,
            fields: vec!["mem".to_owned()],
        },
        functions: infos,
    })
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
        for bb in &f.basic_blocks {
            for inst in bb
                .instrs
                .iter()
                .filter(|i| !matches!(i, Instruction::Phi(_)))
            {
                self.plan(inst);
            }
            if let LTerm::Invoke(invoke) = &bb.term {
                let ty = self.module.type_of(&bb.term);
                if kind(&ty) != Kind::Other {
                    let id = self.fresh(format!("%{}", name_text(&invoke.result)));
                    self.slots.insert(invoke.result.clone(), Slot::Name(id));
                }
            }
        }
        let unknown_phis = self.unknown_phis(f);
        for bb in &f.basic_blocks {
            for inst in &bb.instrs {
                let Instruction::Phi(phi) = inst else {
                    continue;
                };
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
            for inst in &bb.instrs {
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

    fn constant(&mut self, c: &ConstantRef) -> Operand {
        if let Some(v) = self.eval_constant(c) {
            return Operand::Int(v);
        }
        match c.as_ref() {
            Constant::Undef(_) | Constant::Poison(_) => self.undef(),
            Constant::GlobalReference { name, .. } => self.address(&name_text(name)),
            _ => self.unknown(),
        }
    }

    /// The bit width of a constant, when it is a modelled integer or pointer.
    fn constant_bits(&self, c: &ConstantRef) -> Option<u32> {
        match kind(&self.module.type_of(c)) {
            Kind::Int(bits) => Some(bits),
            Kind::Ptr => Some(64),
            Kind::Other => None,
        }
    }

    /// The canonical value of an integer constant expression, if it has one.
    fn eval_constant(&self, c: &ConstantRef) -> Option<i64> {
        let bits = self.constant_bits(c)?;
        let raw = self.eval_raw(c, 0)?;
        canonical(bits, raw)
    }

    /// The bit pattern (zero-extended to 64 bits) of an integer constant expression.
    fn eval_raw(&self, c: &ConstantRef, depth: u32) -> Option<u64> {
        if depth > 32 {
            return None;
        }
        let bits = self.constant_bits(c)?;
        let m = mask(bits) as u64;
        let raw = |x: &ConstantRef| self.eval_raw(x, depth + 1);
        let signed = |x: &ConstantRef| {
            let b = self.constant_bits(x)?;
            let r = self.eval_raw(x, depth + 1)?;
            // Signed reading, whatever the width (i1 true is -1 here).
            let shift = 64 - b;
            Some(((r << shift) as i64) >> shift)
        };
        let v = match c.as_ref() {
            Constant::Int { bits: b, value } if *b <= 64 => *value,
            Constant::Null(_) => 0,
            Constant::Add(e) => raw(&e.operand0)?.wrapping_add(raw(&e.operand1)?),
            Constant::Sub(e) => raw(&e.operand0)?.wrapping_sub(raw(&e.operand1)?),
            Constant::Mul(e) => raw(&e.operand0)?.wrapping_mul(raw(&e.operand1)?),
            Constant::And(e) => raw(&e.operand0)? & raw(&e.operand1)?,
            Constant::Or(e) => raw(&e.operand0)? | raw(&e.operand1)?,
            Constant::Xor(e) => raw(&e.operand0)? ^ raw(&e.operand1)?,
            Constant::Shl(e) => {
                let k = raw(&e.operand1)?;
                if k >= u64::from(bits) {
                    return None;
                }
                raw(&e.operand0)? << k
            }
            Constant::LShr(e) => {
                let k = raw(&e.operand1)?;
                if k >= u64::from(bits) {
                    return None;
                }
                raw(&e.operand0)? >> k
            }
            Constant::AShr(e) => {
                let k = raw(&e.operand1)?;
                if k >= u64::from(bits) {
                    return None;
                }
                (signed(&e.operand0)? >> k) as u64
            }
            Constant::Trunc(e) => raw(&e.operand)?,
            Constant::ZExt(e) => raw(&e.operand)?,
            Constant::SExt(e) => signed(&e.operand)? as u64,
            Constant::ICmp(e) => {
                let holds = match e.predicate {
                    IntPredicate::EQ => raw(&e.operand0)? == raw(&e.operand1)?,
                    IntPredicate::NE => raw(&e.operand0)? != raw(&e.operand1)?,
                    IntPredicate::ULT => raw(&e.operand0)? < raw(&e.operand1)?,
                    IntPredicate::ULE => raw(&e.operand0)? <= raw(&e.operand1)?,
                    IntPredicate::UGT => raw(&e.operand0)? > raw(&e.operand1)?,
                    IntPredicate::UGE => raw(&e.operand0)? >= raw(&e.operand1)?,
                    IntPredicate::SLT => signed(&e.operand0)? < signed(&e.operand1)?,
                    IntPredicate::SLE => signed(&e.operand0)? <= signed(&e.operand1)?,
                    IntPredicate::SGT => signed(&e.operand0)? > signed(&e.operand1)?,
                    IntPredicate::SGE => signed(&e.operand0)? >= signed(&e.operand1)?,
                };
                u64::from(holds)
            }
            Constant::Select(e) => {
                if raw(&e.condition)? & 1 == 1 {
                    raw(&e.true_value)?
                } else {
                    raw(&e.false_value)?
                }
            }
            _ => return None,
        };
        Some(v & m)
    }

    // ---- planning: how each value is lowered ----

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

    fn fold_fp_to_int(&mut self, op: &llvm_ir::Operand, k: Kind, signed: bool) -> Option<Slot> {
        let bits = bits_of(k);
        let value = match op {
            llvm_ir::Operand::ConstantOperand(c) => match c.as_ref() {
                Constant::Float(llvm_ir::constant::Float::Double(d)) => Some(*d),
                Constant::Float(llvm_ir::constant::Float::Single(s)) => Some(f64::from(*s)),
                _ => None,
            },
            _ => None,
        };
        let folded = value.and_then(|d| {
            let t = d.trunc();
            if !t.is_finite() {
                return None;
            }
            let (lo, hi) = if signed {
                (-(2f64.powi(bits as i32 - 1)), 2f64.powi(bits as i32 - 1))
            } else {
                (0.0, 2f64.powi(bits as i32))
            };
            // Out of range is poison: leave it unknown.
            if t < lo || t >= hi {
                return None;
            }
            let raw = if signed { t as i64 as u64 } else { t as u64 };
            canonical(bits, raw)
        });
        Some(Slot::Value(match folded {
            Some(v) => Operand::Int(v),
            None => self.unknown(),
        }))
    }

    /// The value a load of type `k` from the constant address `address` reads, when the address
    /// is a constant global with a definitive initializer and a constant offset into it.
    fn fold_load(&self, address: &llvm_ir::Operand, k: Kind) -> Option<i64> {
        let Kind::Int(bits) = k else {
            return None;
        };
        let llvm_ir::Operand::ConstantOperand(c) = address else {
            return None;
        };
        let (global, path): (&Name, Vec<u64>) = match c.as_ref() {
            Constant::GlobalReference { name, .. } => (name, Vec::new()),
            Constant::GetElementPtr(g) => {
                let Constant::GlobalReference { name, .. } = g.address.as_ref() else {
                    return None;
                };
                let mut indices = Vec::with_capacity(g.indices.len());
                for i in &g.indices {
                    let raw = self.eval_raw(i, 0)?;
                    indices.push(raw);
                }
                // The first index steps over whole globals: only 0 stays inside this one.
                if indices.first().is_some_and(|&first| first != 0) {
                    return None;
                }
                (name, indices.into_iter().skip(1).collect())
            }
            _ => return None,
        };
        let g = self.globals.get(&name_text(global))?;
        if !g.is_constant || !definitive(g.linkage) {
            return None;
        }
        let mut value = g.initializer.clone()?;
        // A global's own type is `ptr`; what it holds has the initializer's type.
        let mut ty = self.module.type_of(&value);
        for &index in &path {
            let (next_value, next_ty) = element(&self.module.types, &value, &ty, index)?;
            value = next_value;
            ty = next_ty;
        }
        // A load of the first scalar of an aggregate reads offset 0.
        for _ in 0..16 {
            if matches!(ty.as_ref(), Type::IntegerType { .. }) {
                break;
            }
            let (next_value, next_ty) = element(&self.module.types, &value, &ty, 0)?;
            value = next_value;
            ty = next_ty;
        }
        let raw = match (ty.as_ref(), value.as_ref()) {
            (Type::IntegerType { bits: b }, Constant::Int { value, .. }) if *b <= 64 => {
                (*b, *value)
            }
            (Type::IntegerType { bits: b }, Constant::AggregateZero(_)) => (*b, 0),
            _ => return None,
        };
        match raw {
            (b, value) if b == bits => canonical(bits, value),
            // A narrower load at the start of a wider integer (a union read through another
            // member): on a little-endian target it reads the low bytes.
            (b, value) if b > bits && bits % 8 == 0 && self.little_endian() => {
                canonical(bits, value & (mask(bits) as u64))
            }
            _ => None,
        }
    }

    fn little_endian(&self) -> bool {
        matches!(
            self.module.data_layout.endianness,
            llvm_ir::module::Endianness::LittleEndian
        )
    }

    // ---- lowering instructions ----

    fn emit(&mut self, dest: NameId, rhs: Rhs) {
        self.stmts.push(Stmt::Assign { dest, rhs });
    }

    /// `a op b` into a new temporary (folded when both are literals).
    fn temp_binary(&mut self, base: &Name, op: Op, a: Operand, b: Operand) -> Operand {
        if let (Operand::Int(x), Operand::Int(y)) = (a, b) {
            if let Some(v) = op.eval(x, y) {
                return Operand::Int(v);
            }
        }
        let t = self.temp(base);
        self.emit(t, Rhs::Binary(op, a, b));
        Operand::Name(t)
    }

    /// `dest = t` wrapped to `bits` bits.
    fn wrap_into(&mut self, dest: NameId, t: Operand, bits: u32) {
        match bits {
            64.. => self.emit(dest, Rhs::Use(t)),
            1 => self.emit(dest, Rhs::Binary(Op::And, t, Operand::Int(1))),
            _ => self.emit(
                dest,
                Rhs::Binary(Op::Trunc, t, Operand::Int(i64::from(bits))),
            ),
        }
    }

    /// `dest = a op b` for an `iN` result, wrapped to `bits` unless `exact` says the result
    /// cannot leave them.
    #[expect(clippy::too_many_arguments, reason = "one call per arithmetic opcode")]
    fn arith(
        &mut self,
        dest: NameId,
        base: &Name,
        bits: u32,
        op: Op,
        a: Operand,
        b: Operand,
        exact: bool,
    ) {
        if bits >= 64 || exact {
            self.emit(dest, Rhs::Binary(op, a, b));
        } else {
            let t = self.temp_binary(base, op, a, b);
            self.wrap_into(dest, t, bits);
        }
    }

    /// `a` masked to its low `bits` bits: the unsigned reading of an `iN` value.
    fn zext(&mut self, base: &Name, a: Operand, bits: u32) -> Operand {
        if bits >= 64 || bits == 1 {
            return a;
        }
        self.temp_binary(base, Op::And, a, Operand::Int(mask(bits)))
    }

    /// `a` read as a signed `iN` value: the identity except for `i1` (0 or -1).
    fn signed(&mut self, base: &Name, a: Operand, bits: u32) -> Operand {
        if bits == 1 {
            self.temp_binary(base, Op::Sub, Operand::Int(0), a)
        } else {
            a
        }
    }

    fn operand_bits(&self, op: &llvm_ir::Operand) -> u32 {
        bits_of(kind(&self.module.type_of(op)))
    }

    fn args(
        &mut self,
        args: &[(llvm_ir::Operand, Vec<llvm_ir::function::ParameterAttribute>)],
    ) -> Box<[Operand]> {
        args.iter().map(|(a, _)| self.operand(a)).collect()
    }

    /// The callee of a call: the module's function for a direct call, else a pseudo function;
    /// indirect calls pass the function pointer first.
    fn callee(
        &mut self,
        function: &either::Either<llvm_ir::instruction::InlineAssembly, llvm_ir::Operand>,
        args: Box<[Operand]>,
    ) -> (FuncId, Box<[Operand]>) {
        match function {
            either::Either::Left(_) => (self.pseudo(ASM), args),
            either::Either::Right(llvm_ir::Operand::ConstantOperand(c))
                if matches!(c.as_ref(), Constant::GlobalReference { .. }) =>
            {
                let Constant::GlobalReference { name, .. } = c.as_ref() else {
                    return (self.pseudo(INDIRECT), args);
                };
                (self.callees.id(&name_text(name)), args)
            }
            either::Either::Right(target) => {
                let target = self.operand(target);
                let mut all = Vec::with_capacity(args.len() + 1);
                all.push(target);
                all.extend(args.iter().copied());
                (self.pseudo(INDIRECT), all.into_boxed_slice())
            }
        }
    }

    /// Statements for an instruction whose result (if any) is not modelled.
    fn effect(&mut self, inst: &Instruction) {
        use Instruction as I;
        match inst {
            I::Store(_) if self.memory == Memory::Erase => {}
            I::Store(store) => {
                let object = self.operand(&store.address);
                let value = self.operand(&store.value);
                self.stmts.push(Stmt::Store {
                    object,
                    field: MEM,
                    value,
                });
            }
            I::Call(call) => {
                if let Some(name) = intrinsic(call) {
                    if ignored_intrinsic(name) {
                        return;
                    }
                }
                let args = self.args(&call.arguments);
                let (callee, args) = self.callee(&call.function, args);
                self.stmts.push(Stmt::Call { callee, args });
            }
            I::AtomicRMW(a) => {
                let args = Box::new([self.operand(&a.address), self.operand(&a.value)]);
                let callee = self.pseudo(ATOMIC);
                self.stmts.push(Stmt::Call { callee, args });
            }
            I::CmpXchg(c) => {
                let args = Box::new([
                    self.operand(&c.address),
                    self.operand(&c.expected),
                    self.operand(&c.replacement),
                ]);
                let callee = self.pseudo(ATOMIC);
                self.stmts.push(Stmt::Call { callee, args });
            }
            I::VAArg(v) => {
                let args = Box::new([self.operand(&v.arg_list)]);
                let callee = self.pseudo(VA_ARG);
                self.stmts.push(Stmt::Call { callee, args });
            }
            // Arithmetic on unmodelled types, fences, aggregates and vectors: no effect the
            // domains see.
            _ => {}
        }
    }

    fn instruction(&mut self, inst: &Instruction) {
        let Some(dest_name) = inst.try_get_result() else {
            self.effect(inst);
            return;
        };
        let dest = match self.slots.get(dest_name) {
            Some(Slot::Name(id)) => *id,
            Some(Slot::Virtual) => {
                if let Instruction::ICmp(i) = inst {
                    let width = self.operand_bits(&i.operand0);
                    let (a, b) = (self.operand(&i.operand0), self.operand(&i.operand1));
                    let compare = self.comparison(dest_name, i.predicate, width, a, b);
                    self.compares.insert(dest_name.clone(), compare);
                }
                return;
            }
            // Folded, aliased or unknown values need no statement of their own, but a call
            // whose result is unknown still happens.
            Some(_) => {
                self.effect(inst);
                return;
            }
            // Unmodelled results may still have effects.
            None => {
                self.effect(inst);
                return;
            }
        };
        let bits = bits_of(kind(&self.module.type_of(inst)));
        let nsw = self
            .nsw
            .is_some_and(|set| set.contains(&name_text(dest_name)));
        let d = dest_name;
        use Instruction as I;
        match inst {
            I::Add(i) => {
                let (a, b) = (self.operand(&i.operand0), self.operand(&i.operand1));
                self.arith(dest, d, bits, Op::Add, a, b, nsw);
            }
            I::Sub(i) => {
                let (a, b) = (self.operand(&i.operand0), self.operand(&i.operand1));
                self.arith(dest, d, bits, Op::Sub, a, b, nsw);
            }
            I::Mul(i) => {
                let (a, b) = (self.operand(&i.operand0), self.operand(&i.operand1));
                self.arith(dest, d, bits, Op::Mul, a, b, nsw);
            }
            I::Shl(i) => {
                let (a, b) = (self.operand(&i.operand0), self.operand(&i.operand1));
                self.arith(dest, d, bits, Op::Shl, a, b, nsw);
            }
            I::And(i) => {
                let (a, b) = (self.operand(&i.operand0), self.operand(&i.operand1));
                self.emit(dest, Rhs::Binary(Op::And, a, b));
            }
            I::Or(i) => {
                let (a, b) = (self.operand(&i.operand0), self.operand(&i.operand1));
                self.emit(dest, Rhs::Binary(Op::Or, a, b));
            }
            I::Xor(i) => {
                let (a, b) = (self.operand(&i.operand0), self.operand(&i.operand1));
                self.emit(dest, Rhs::Binary(Op::Xor, a, b));
            }
            // Signed division and arithmetic shifts of `i1` (where true is -1) are not worth
            // modelling.
            I::SDiv(_) | I::SRem(_) | I::AShr(_) if bits == 1 => {
                let u = self.unknown();
                self.emit(dest, Rhs::Use(u));
            }
            I::SDiv(i) => {
                let (a, b) = (self.operand(&i.operand0), self.operand(&i.operand1));
                self.emit(dest, Rhs::Binary(Op::Div, a, b));
            }
            I::SRem(i) => {
                let (a, b) = (self.operand(&i.operand0), self.operand(&i.operand1));
                self.emit(dest, Rhs::Binary(Op::Rem, a, b));
            }
            I::AShr(i) => {
                let (a, b) = (self.operand(&i.operand0), self.operand(&i.operand1));
                self.emit(dest, Rhs::Binary(Op::Shr, a, b));
            }
            I::UDiv(i) => {
                let (a, b) = (self.operand(&i.operand0), self.operand(&i.operand1));
                self.unsigned_div(dest, d, bits, Op::UDiv, a, b);
            }
            I::URem(i) => {
                let (a, b) = (self.operand(&i.operand0), self.operand(&i.operand1));
                self.unsigned_div(dest, d, bits, Op::URem, a, b);
            }
            I::LShr(i) => {
                let (a, b) = (self.operand(&i.operand0), self.operand(&i.operand1));
                if bits >= 64 {
                    self.emit(dest, Rhs::Binary(Op::LShr, a, b));
                } else {
                    // The masked value is non-negative, so `>>` shifts in zeros; a shift by at
                    // least one leaves fewer than N - 1 bits, which needs no wrapping.
                    let za = self.zext(d, a, bits);
                    let by_one_or_more = matches!(b, Operand::Int(k) if k >= 1);
                    if bits == 1 || by_one_or_more {
                        self.emit(dest, Rhs::Binary(Op::Shr, za, b));
                    } else {
                        let t = self.temp_binary(d, Op::Shr, za, b);
                        self.wrap_into(dest, t, bits);
                    }
                }
            }
            I::ICmp(i) => {
                let width = self.operand_bits(&i.operand0);
                let (a, b) = (self.operand(&i.operand0), self.operand(&i.operand1));
                let (op, a, b) = self.comparison(d, i.predicate, width, a, b);
                self.compares.insert(d.clone(), (op, a, b));
                if self.worth_refining(&i.operand0, 0) || self.worth_refining(&i.operand1, 0) {
                    self.refines_operands.insert(d.clone());
                }
                self.emit(dest, Rhs::Binary(op, a, b));
            }
            I::Select(i) => {
                let c = self.operand(&i.condition);
                let (a, b) = (self.operand(&i.true_value), self.operand(&i.false_value));
                self.emit(dest, Rhs::Select(c, a, b));
            }
            I::Trunc(i) => {
                let a = self.operand(&i.operand);
                self.wrap_into(dest, a, bits);
            }
            I::ZExt(i) => {
                let from = self.operand_bits(&i.operand);
                let a = self.operand(&i.operand);
                self.emit(dest, Rhs::Binary(Op::And, a, Operand::Int(mask(from))));
            }
            I::SExt(i) => {
                // Only `i1` gets here: true becomes -1.
                let a = self.operand(&i.operand);
                self.emit(dest, Rhs::Binary(Op::Sub, Operand::Int(0), a));
            }
            I::PtrToInt(i) => {
                let a = self.operand(&i.operand);
                self.wrap_into(dest, a, bits);
            }
            I::IntToPtr(i) => {
                let from = self.operand_bits(&i.operand);
                let a = self.operand(&i.operand);
                self.emit(dest, Rhs::Binary(Op::And, a, Operand::Int(mask(from))));
            }
            I::Alloca(_) => self.emit(dest, Rhs::New),
            I::Load(load) => {
                let p = self.operand(&load.address);
                self.emit(dest, Rhs::Load(p, MEM));
            }
            I::Call(call) => self.call(dest, d, bits, call),
            I::Freeze(f) => {
                let a = self.operand(&f.operand);
                let callee = self.pseudo(FREEZE);
                self.emit(dest, Rhs::Call(callee, Box::new([a])));
            }
            I::VAArg(v) => {
                let list = self.operand(&v.arg_list);
                let callee = self.pseudo(VA_ARG);
                self.emit(dest, Rhs::Call(callee, Box::new([list])));
            }
            I::AtomicRMW(a) => {
                let args = Box::new([self.operand(&a.address), self.operand(&a.value)]);
                let callee = self.pseudo(ATOMIC);
                self.emit(dest, Rhs::Call(callee, args));
            }
            // Anything else that yields an integer or a pointer (a float conversion, a vector
            // extraction, …) is unknown.
            _ => {
                let u = self.unknown();
                self.emit(dest, Rhs::Use(u));
            }
        }
    }

    /// `udiv` and `urem` on `iN`: on the zero-extended values, then wrapped back.
    fn unsigned_div(&mut self, dest: NameId, d: &Name, bits: u32, op: Op, a: Operand, b: Operand) {
        if bits >= 64 {
            self.emit(dest, Rhs::Binary(op, a, b));
            return;
        }
        let za = self.zext(d, a, bits);
        let zb = self.zext(d, b, bits);
        let t = self.temp_binary(d, op, za, zb);
        self.wrap_into(dest, t, bits);
    }

    /// The core IR comparison for an `icmp` on `width`-bit operands.
    fn comparison(
        &mut self,
        d: &Name,
        predicate: IntPredicate,
        width: u32,
        a: Operand,
        b: Operand,
    ) -> (Op, Operand, Operand) {
        use IntPredicate as P;
        let unsigned = |op| (op, a, b);
        match predicate {
            P::EQ => (Op::Eq, a, b),
            P::NE => (Op::Ne, a, b),
            // Sign-extension preserves the unsigned order of bit patterns, so the unsigned
            // comparisons work on the 64-bit forms directly.
            P::ULT => unsigned(Op::ULt),
            P::ULE => unsigned(Op::ULe),
            P::UGT => unsigned(Op::UGt),
            P::UGE => unsigned(Op::UGe),
            P::SLT | P::SLE | P::SGT | P::SGE => {
                let op = match predicate {
                    P::SLT => Op::Lt,
                    P::SLE => Op::Le,
                    P::SGT => Op::Gt,
                    _ => Op::Ge,
                };
                let sa = self.signed(d, a, width);
                let sb = self.signed(d, b, width);
                (op, sa, sb)
            }
        }
    }

    fn call(&mut self, dest: NameId, d: &Name, bits: u32, call: &llvm_ir::instruction::Call) {
        let arg = |i: usize| call.arguments.get(i).map(|(a, _)| a);
        if let (Some(name), Some(a0), Some(a1)) = (intrinsic(call), arg(0), arg(1)) {
            let select = match name.split('.').nth(1) {
                Some("smax") => Some(Op::Gt),
                Some("smin") => Some(Op::Lt),
                Some("umax") => Some(Op::UGt),
                Some("umin") => Some(Op::ULt),
                _ => None,
            };
            if let Some(op) = select {
                let (a, b) = (self.operand(a0), self.operand(a1));
                let c = self.temp_binary(d, op, a, b);
                self.emit(dest, Rhs::Select(c, a, b));
                return;
            }
            if name.starts_with("llvm.abs.") {
                let a = self.operand(a0);
                let negative = self.temp_binary(d, Op::Lt, a, Operand::Int(0));
                let minus = self.temp_binary(d, Op::Sub, Operand::Int(0), a);
                let minus = if bits < 64 {
                    self.temp_binary(d, Op::Trunc, minus, Operand::Int(i64::from(bits)))
                } else {
                    minus
                };
                self.emit(dest, Rhs::Select(negative, minus, a));
                return;
            }
        }
        let args = self.args(&call.arguments);
        let (callee, args) = self.callee(&call.function, args);
        self.emit(dest, Rhs::Call(callee, args));
    }

    fn phi(&mut self, phi: &llvm_ir::instruction::Phi) -> Option<Phi> {
        let Some(Slot::Name(dest)) = self.slots.get(&phi.dest).cloned() else {
            return None;
        };
        let mut incoming = Vec::with_capacity(phi.incoming_values.len());
        for (value, from) in &phi.incoming_values {
            let Some(&block) = self.blocks.get(from) else {
                continue;
            };
            let operand = self.operand(value);
            incoming.push((block, operand));
        }
        Some(Phi {
            dest,
            incoming: incoming.into_boxed_slice(),
        })
    }

    fn block(&mut self, name: &Name) -> BlockId {
        // LLVM's verifier guarantees targets exist; a missing one would be a malformed module,
        // so it goes to the entry block rather than panicking.
        self.blocks.get(name).copied().unwrap_or(BlockId(0))
    }

    fn terminator(&mut self, term: &LTerm) -> Terminator {
        match term {
            LTerm::Ret(r) => Terminator::Return(r.return_operand.as_ref().map(|o| self.operand(o))),
            LTerm::Br(b) => Terminator::Goto(self.block(&b.dest)),
            LTerm::CondBr(b) => {
                let cond = match &b.condition {
                    llvm_ir::Operand::LocalOperand { name, .. } => match self.compares.get(name) {
                        // A comparison used elsewhere whose operands have no other use to
                        // refine: the branch refines the comparison's result instead.
                        Some(_)
                            if !self.refines_operands.contains(name)
                                && matches!(self.slots.get(name), Some(Slot::Name(_))) =>
                        {
                            Cond::NonZero(self.local(name, 0))
                        }
                        Some(&(op, a, c)) => {
                            let (a, c) = (self.private(a), self.private(c));
                            Cond::Compare(op, a, c)
                        }
                        None => {
                            let c = self.local(name, 0);
                            Cond::NonZero(self.private(c))
                        }
                    },
                    other => {
                        let c = self.operand(other);
                        Cond::NonZero(self.private(c))
                    }
                };
                Terminator::Branch {
                    cond,
                    then_to: self.block(&b.true_dest),
                    else_to: self.block(&b.false_dest),
                }
            }
            LTerm::Switch(s) => {
                let on = self.operand(&s.operand);
                let on = self.private(on);
                let mut cases = Vec::with_capacity(s.dests.len());
                for (value, target) in &s.dests {
                    let target = self.block(target);
                    match self.eval_constant(value) {
                        Some(v) => cases.push((v, target)),
                        // A case on a value the lowering cannot read (wider than 64 bits):
                        // control may go there whatever `on` is.
                        None => {
                            return self.unknown_branch(
                                s.dests.iter().map(|(_, t)| t).chain([&s.default_dest]),
                            );
                        }
                    }
                }
                Terminator::Switch {
                    on,
                    cases: cases.into_boxed_slice(),
                    default: self.block(&s.default_dest),
                }
            }
            LTerm::IndirectBr(b) => self.unknown_branch(b.possible_dests.iter()),
            LTerm::Invoke(invoke) => {
                let args = self.args(&invoke.arguments);
                let (callee, args) = self.callee(&invoke.function, args);
                match self.slots.get(&invoke.result) {
                    Some(Slot::Name(dest)) => {
                        let dest = *dest;
                        self.emit(dest, Rhs::Call(callee, args));
                    }
                    _ => self.stmts.push(Stmt::Call { callee, args }),
                }
                self.unknown_branch([&invoke.return_label, &invoke.exception_label].into_iter())
            }
            LTerm::CallBr(c) => {
                let args = self.args(&c.arguments);
                let (callee, args) = self.callee(&c.function, args);
                self.stmts.push(Stmt::Call { callee, args });
                Terminator::Goto(self.block(&c.return_label))
            }
            LTerm::Unreachable(_) => Terminator::Unreachable,
            LTerm::Resume(_)
            | LTerm::CleanupRet(_)
            | LTerm::CatchRet(_)
            | LTerm::CatchSwitch(_) => Terminator::Throw(None),
        }
    }

    /// A branch to any of `targets`, on a value nobody knows.
    fn unknown_branch<'n>(&mut self, targets: impl Iterator<Item = &'n Name>) -> Terminator {
        let targets: Vec<BlockId> = targets.map(|t| self.block(t)).collect();
        let on = self.unknown();
        let on = self.private(on);
        match targets.split_last() {
            Some((&last, rest)) => Terminator::Switch {
                on,
                cases: rest
                    .iter()
                    .enumerate()
                    .map(|(i, &t)| (i as i64, t))
                    .collect(),
                default: last,
            },
            None => Terminator::Unreachable,
        }
    }
}

/// Intrinsics the lowering turns into statements on values.
fn modelled_intrinsic(name: &str) -> bool {
    [
        "llvm.smax.",
        "llvm.smin.",
        "llvm.umax.",
        "llvm.umin.",
        "llvm.abs.",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

/// Intrinsics with no effect on values or on memory the domains track.
fn ignored_intrinsic(name: &str) -> bool {
    name.starts_with("llvm.expect.")
        || name.starts_with("llvm.dbg.")
        || name.starts_with("llvm.lifetime.")
        || name.starts_with("llvm.assume")
        || name.starts_with("llvm.experimental.noalias.scope.decl")
        || name.starts_with("llvm.var.annotation")
        || name.starts_with("llvm.prefetch")
}

/// The values of `f` an `icmp` or a `switch` tests, directly or through casts that the lowering
/// turns into aliases (`sext`, `zext` of `i1`, same-width `bitcast`, 64-bit pointer casts, …),
/// and that have another use a refinement on a branch edge could reach: a value whose only use
/// is the test gains nothing from a name of its own.
fn tested_values(f: &llvm_ir::Function, uses: Option<&HashMap<&Name, usize>>) -> HashSet<Name> {
    let local = |op: &llvm_ir::Operand| match op {
        llvm_ir::Operand::LocalOperand { name, .. } => Some(name.clone()),
        _ => None,
    };
    let mut tested: HashSet<Name> = HashSet::new();
    let mut casts: Vec<(&Name, &llvm_ir::Operand)> = Vec::new();
    for bb in &f.basic_blocks {
        for inst in &bb.instrs {
            match inst {
                Instruction::ICmp(c) => {
                    tested.extend(local(&c.operand0));
                    tested.extend(local(&c.operand1));
                }
                Instruction::SExt(c) => casts.push((&c.dest, &c.operand)),
                Instruction::ZExt(c) => casts.push((&c.dest, &c.operand)),
                Instruction::Trunc(c) => casts.push((&c.dest, &c.operand)),
                Instruction::BitCast(c) => casts.push((&c.dest, &c.operand)),
                Instruction::AddrSpaceCast(c) => casts.push((&c.dest, &c.operand)),
                Instruction::PtrToInt(c) => casts.push((&c.dest, &c.operand)),
                Instruction::IntToPtr(c) => casts.push((&c.dest, &c.operand)),
                Instruction::Freeze(c) => casts.push((&c.dest, &c.operand)),
                _ => {}
            }
        }
        if let LTerm::Switch(s) = &bb.term {
            tested.extend(local(&s.operand));
        }
    }
    // A tested cast tests what it casts, and a cast used twice makes what it casts worth a name
    // (a superset of the no-op casts is harmless: it only gives a few more values names).
    let Some(uses) = uses else {
        return closure(tested, &casts);
    };
    let used_again: HashSet<Name> = uses
        .iter()
        .filter(|&(_, &n)| n >= 2)
        .map(|(&name, _)| name.clone())
        .collect();
    let used_again = closure(used_again, &casts);
    closure(tested, &casts)
        .intersection(&used_again)
        .cloned()
        .collect()
}

/// `set` with the operands of every cast whose result is in it, repeatedly.
fn closure(mut set: HashSet<Name>, casts: &[(&Name, &llvm_ir::Operand)]) -> HashSet<Name> {
    loop {
        let before = set.len();
        for (dest, operand) in casts {
            if set.contains(*dest) {
                if let llvm_ir::Operand::LocalOperand { name, .. } = operand {
                    set.insert(name.clone());
                }
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

/// How many times each value of `f` is used; `None` when `f` has an instruction whose operands
/// [`operands_of`] does not know.
fn use_counts(f: &llvm_ir::Function) -> Option<HashMap<&Name, usize>> {
    let mut uses: HashMap<&Name, usize> = HashMap::new();
    let mut operands: Vec<&llvm_ir::Operand> = Vec::new();
    for bb in &f.basic_blocks {
        for inst in &bb.instrs {
            operands.extend(operands_of(inst)?);
        }
        match &bb.term {
            LTerm::Ret(r) => operands.extend(&r.return_operand),
            LTerm::CondBr(b) => operands.push(&b.condition),
            LTerm::Switch(s) => operands.push(&s.operand),
            LTerm::IndirectBr(b) => operands.push(&b.operand),
            LTerm::Invoke(i) => {
                operands.extend(i.function.as_ref().right());
                operands.extend(i.arguments.iter().map(|(a, _)| a));
            }
            LTerm::CallBr(c) => {
                operands.extend(c.function.as_ref().right());
                operands.extend(c.arguments.iter().map(|(a, _)| a));
            }
            LTerm::Resume(r) => operands.push(&r.operand),
            LTerm::Br(_) | LTerm::Unreachable(_) => {}
            LTerm::CleanupRet(_) | LTerm::CatchRet(_) | LTerm::CatchSwitch(_) => return None,
        }
    }
    for op in operands {
        if let llvm_ir::Operand::LocalOperand { name, .. } = op {
            *uses.entry(name).or_default() += 1;
        }
    }
    Some(uses)
}

/// The `icmp`s of `f` used exactly once, by the conditional branch that ends their own block
/// (none when the uses are not known).
fn virtual_compares(f: &llvm_ir::Function, uses: Option<&HashMap<&Name, usize>>) -> HashSet<Name> {
    let Some(uses) = uses else {
        return HashSet::new();
    };
    let mut out = HashSet::new();
    for bb in &f.basic_blocks {
        let LTerm::CondBr(b) = &bb.term else {
            continue;
        };
        let llvm_ir::Operand::LocalOperand { name, .. } = &b.condition else {
            continue;
        };
        let defined_here = bb.instrs.iter().any(|i| match i {
            Instruction::ICmp(c) => c.dest == *name,
            _ => false,
        });
        if defined_here && uses.get(name) == Some(&1) {
            out.insert(name.clone());
        }
    }
    out
}

/// The operands of `inst`, or `None` when the instruction kind is not known here.
fn operands_of(inst: &Instruction) -> Option<Vec<&llvm_ir::Operand>> {
    use Instruction as I;
    Some(match inst {
        I::Add(i) => vec![&i.operand0, &i.operand1],
        I::Sub(i) => vec![&i.operand0, &i.operand1],
        I::Mul(i) => vec![&i.operand0, &i.operand1],
        I::UDiv(i) => vec![&i.operand0, &i.operand1],
        I::SDiv(i) => vec![&i.operand0, &i.operand1],
        I::URem(i) => vec![&i.operand0, &i.operand1],
        I::SRem(i) => vec![&i.operand0, &i.operand1],
        I::And(i) => vec![&i.operand0, &i.operand1],
        I::Or(i) => vec![&i.operand0, &i.operand1],
        I::Xor(i) => vec![&i.operand0, &i.operand1],
        I::Shl(i) => vec![&i.operand0, &i.operand1],
        I::LShr(i) => vec![&i.operand0, &i.operand1],
        I::AShr(i) => vec![&i.operand0, &i.operand1],
        I::FAdd(i) => vec![&i.operand0, &i.operand1],
        I::FSub(i) => vec![&i.operand0, &i.operand1],
        I::FMul(i) => vec![&i.operand0, &i.operand1],
        I::FDiv(i) => vec![&i.operand0, &i.operand1],
        I::FRem(i) => vec![&i.operand0, &i.operand1],
        I::ICmp(i) => vec![&i.operand0, &i.operand1],
        I::FCmp(i) => vec![&i.operand0, &i.operand1],
        I::FNeg(i) => vec![&i.operand],
        I::Trunc(i) => vec![&i.operand],
        I::ZExt(i) => vec![&i.operand],
        I::SExt(i) => vec![&i.operand],
        I::FPTrunc(i) => vec![&i.operand],
        I::FPExt(i) => vec![&i.operand],
        I::FPToUI(i) => vec![&i.operand],
        I::FPToSI(i) => vec![&i.operand],
        I::UIToFP(i) => vec![&i.operand],
        I::SIToFP(i) => vec![&i.operand],
        I::PtrToInt(i) => vec![&i.operand],
        I::IntToPtr(i) => vec![&i.operand],
        I::BitCast(i) => vec![&i.operand],
        I::AddrSpaceCast(i) => vec![&i.operand],
        I::Freeze(i) => vec![&i.operand],
        I::Select(i) => vec![&i.condition, &i.true_value, &i.false_value],
        I::Phi(p) => p.incoming_values.iter().map(|(v, _)| v).collect(),
        I::Alloca(a) => vec![&a.num_elements],
        I::Load(l) => vec![&l.address],
        I::Store(s) => vec![&s.address, &s.value],
        I::GetElementPtr(g) => std::iter::once(&g.address).chain(&g.indices).collect(),
        I::Call(c) => c
            .function
            .as_ref()
            .right()
            .into_iter()
            .chain(c.arguments.iter().map(|(a, _)| a))
            .collect(),
        I::ExtractValue(e) => vec![&e.aggregate],
        I::InsertValue(e) => vec![&e.aggregate, &e.element],
        I::ExtractElement(e) => vec![&e.vector, &e.index],
        I::InsertElement(e) => vec![&e.vector, &e.element, &e.index],
        I::ShuffleVector(s) => vec![&s.operand0, &s.operand1],
        I::AtomicRMW(a) => vec![&a.address, &a.value],
        I::CmpXchg(c) => vec![&c.address, &c.expected, &c.replacement],
        I::VAArg(v) => vec![&v.arg_list],
        I::Fence(_) => Vec::new(),
        _ => return None,
    })
}

/// Whether a GEP index is the constant 0.
fn is_zero(op: &llvm_ir::Operand) -> bool {
    match op {
        llvm_ir::Operand::ConstantOperand(c) => {
            matches!(c.as_ref(), Constant::Int { value: 0, .. })
        }
        _ => false,
    }
}

/// Whether a global's initializer is the one every execution sees (LLVM's
/// `hasDefinitiveInitializer`: not replaceable at link time).
fn definitive(linkage: llvm_ir::module::Linkage) -> bool {
    use llvm_ir::module::Linkage as L;
    matches!(
        linkage,
        L::Private | L::Internal | L::External | L::AvailableExternally
    )
}

/// The `index`-th element of an aggregate constant and its type.
fn element(
    types: &llvm_ir::types::Types,
    value: &ConstantRef,
    ty: &TypeRef,
    index: u64,
) -> Option<(ConstantRef, TypeRef)> {
    let i = usize::try_from(index).ok()?;
    if let Type::NamedStructType { name } = ty.as_ref() {
        return match types.named_struct_def(name)? {
            llvm_ir::types::NamedStructDef::Defined(def) => {
                let def = def.clone();
                element(types, value, &def, index)
            }
            llvm_ir::types::NamedStructDef::Opaque => None,
        };
    }
    match (ty.as_ref(), value.as_ref()) {
        (
            Type::ArrayType {
                element_type,
                num_elements,
            },
            _,
        ) if i < *num_elements => {
            let v = match value.as_ref() {
                Constant::Array { elements, .. } => elements.get(i)?.clone(),
                Constant::AggregateZero(_) => zero_of(element_type)?,
                _ => return None,
            };
            Some((v, element_type.clone()))
        }
        (Type::StructType { element_types, .. }, _) => {
            let field_ty = element_types.get(i)?.clone();
            let v = match value.as_ref() {
                Constant::Struct { values, .. } => values.get(i)?.clone(),
                Constant::AggregateZero(_) => zero_of(&field_ty)?,
                _ => return None,
            };
            Some((v, field_ty))
        }
        _ => None,
    }
}

fn zero_of(ty: &TypeRef) -> Option<ConstantRef> {
    match ty.as_ref() {
        Type::IntegerType { bits } => Some(ConstantRef::new(Constant::Int {
            bits: *bits,
            value: 0,
        })),
        Type::ArrayType { .. } | Type::StructType { .. } => {
            Some(ConstantRef::new(Constant::AggregateZero(ty.clone())))
        }
        _ => None,
    }
}

/// The name of the intrinsic or function a call calls directly, if any.
fn intrinsic(call: &llvm_ir::instruction::Call) -> Option<&str> {
    match call.function.as_ref().right()? {
        llvm_ir::Operand::ConstantOperand(c) => match c.as_ref() {
            Constant::GlobalReference {
                name: Name::Name(n),
                ..
            } => Some(n.as_str()),
            _ => None,
        },
        _ => None,
    }
}
