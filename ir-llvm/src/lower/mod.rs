//! Lowering LLVM functions to absinthe's core IR.
//!
//! **Values.** Integers of up to 64 bits and pointers are modelled; an `iN` value is kept
//! sign-extended in 64 bits (so `sext` is free and signed comparisons are the core IR's), except
//! `i1`, which is 0 or 1. Results that may leave `N` bits are wrapped with `trunc N` (`& 1` for
//! `i1`) unless the instruction has `nsw`; unsigned operations use the core IR's `ult`, `udiv`,
//! `lshr` (after masking to `N` bits where the sign-extended pattern would differ). A pointer is
//! its address; `null` is 0. The address of a global variable or function is `addr @g` (with
//! [`Memory::Erase`]; aliases, ifuncs and `extern_weak` globals, which may be null, are
//! unknown), a `getelementptr` with constant indices of one is that address plus the byte offset
//! the data layout gives, and so are such constant expressions and the pointers loaded from
//! constant tables; with one variable index it is that address arithmetic. A load of an integer
//! from a constant integer table at a variable index is a `table` read. A `float` or `double`
//! is the bit pattern of its double (a `float` is exactly one), computed by the core IR's
//! floating-point operations (`fadd` … `fptoui`, `fptrunc 32` after single-precision
//! arithmetic; `fneg` flips the sign bit), so known floats flow through φs, selects and loads
//! of constant globals like integers (see `floats.rs`). Vectors, aggregates, other
//! floating-point types and wider integers are not modelled: an integer or pointer computed
//! from them is unknown (the function's `unknown` name, ⊤).
//!
//! **Memory and calls.** With [`Memory::Keep`], `alloca` is `new`; `load` and `store` read and
//! write the field `mem` of the pointer (one cell per pointer value); calls are calls (direct
//! ones to the module's function, indirect ones through the pseudo function `indirect`). A pseudo
//! or external function has no body, so domains treat its calls as unknown: the result is ⊤ and,
//! for domains that track memory, whatever escapes to it is clobbered. With [`Memory::Erase`]
//! (what value analyses use) loaded values and call results are the unknown value, unless a
//! comparison tests them and they are used again. `getelementptr` gives an unknown pointer (the
//! base itself when every index is 0, an address when the base is a global and the indices
//! are constants). A load from a constant global at a constant offset is
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

/// The lowering's hash maps and sets: keyed by LLVM value pointers and names, hashed with a
/// fast hasher (nothing depends on their order).
pub(crate) type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;
/// See [`Map`].
pub(crate) type Set<K> = HashSet<K, foldhash::fast::RandomState>;

use absinthe::program::{
    BlockId, Cond, FieldId, FuncId, NameId, Op, Operand, Phi, Rhs, Stmt, Terminator,
};
use absinthe_ir::{Block, Function, Module};

use crate::ffi::{self, IntPredicate, Layout, Opcode, Ty, TyKind, Value, ValueKind};

mod constants;

pub use constants::pointer_constant;
mod floats;
mod instructions;
mod intrinsics;
mod module;
mod unknowns;
mod uses;

use module::{Callees, Symbols};
pub use module::{join, lower_functions, lower_module};
use uses::{intrinsic, is_zero, modelled_intrinsic, tested_values, use_counts, virtual_compares};

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
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// Whether it is an integer (otherwise a pointer or a float).
    pub integer: bool,
    /// Whether it is a `float` or `double`: its facts are the bits of its double.
    pub float: bool,
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
    /// A `float` (32) or `double` (64), kept as its double's bit pattern (see [`floats`]).
    Float(u32),
    /// Anything else: not modelled.
    Other,
}

fn kind(ty: Ty<'_>) -> Kind {
    match ty.kind() {
        TyKind::Int(bits) if (1..=64).contains(&bits) => Kind::Int(bits),
        TyKind::Ptr => Kind::Ptr,
        TyKind::Float => Kind::Float(32),
        TyKind::Double => Kind::Float(64),
        _ => Kind::Other,
    }
}

/// The kind of a value's type.
fn kind_of(v: Value<'_>) -> Kind {
    kind(v.ty())
}

fn bits_of(k: Kind) -> u32 {
    match k {
        Kind::Int(bits) => bits,
        Kind::Ptr | Kind::Float(_) | Kind::Other => 64,
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

/// The numbers LLVM gives a function's unnamed values when it prints them (`%0`, `%1`, …):
/// unnamed parameters, then per block the block (when unnamed) and its unnamed instructions
/// that have a result, in order.
pub fn numbering<'m>(f: Value<'m>) -> HashMap<Value<'m>, u32> {
    let mut numbers = HashMap::new();
    let mut next = 0;
    let mut number = |v: Value<'m>, numbers: &mut HashMap<Value<'m>, u32>| {
        if v.name().is_empty() {
            numbers.insert(v, next);
            next += 1;
        }
    };
    for p in f.params() {
        number(p, &mut numbers);
    }
    for b in f.blocks() {
        if let Some(v) = b.as_value() {
            number(v, &mut numbers);
        }
        for i in b.instructions() {
            if i.ty().kind() != TyKind::Void {
                number(i, &mut numbers);
            }
        }
    }
    numbers
}

/// The spelling of a value's name (without sigil): its name, or its number when unnamed.
pub fn spelling(v: Value<'_>, numbers: &HashMap<Value<'_>, u32>) -> String {
    let name = v.name();
    if name.is_empty() {
        numbers.get(&v).map_or_else(String::new, u32::to_string)
    } else {
        name.into_owned()
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

/// How an LLVM value is lowered.
#[derive(Clone, Copy, Debug)]
enum Slot<'m> {
    /// Defined by statements into its own name.
    Name(NameId),
    /// The same value as this LLVM value (a no-op cast).
    Alias(Value<'m>),
    /// A known operand (a folded constant, or the unknown name).
    Value(Operand),
    /// An `icmp` only its block's branch uses: no statement, the branch tests the comparison.
    Virtual,
}

/// The state of lowering one function.
struct FnLower<'a, 'm> {
    callees: &'a mut Callees,
    symbols: &'a mut Symbols,
    nsw: Option<&'a HashSet<String>>,
    little_endian: bool,
    layout: Layout<'m>,
    /// The numbers of unnamed values.
    /// The numbers of unnamed values, computed when the first one is spelled (modules that
    /// went through `instnamer` have none).
    numbers: std::cell::OnceCell<HashMap<Value<'m>, u32>>,
    function: Option<Value<'m>>,
    names: Vec<String>,
    slots: Map<Value<'m>, Slot<'m>>,
    blocks: Map<ffi::Block<'m>, BlockId>,
    /// `icmp` results: the comparison in core IR terms, for branches on them.
    compares: Map<Value<'m>, (Op, Operand, Operand)>,
    /// Statements that open the entry block: addresses of globals, the unknown name.
    prologue: Vec<Stmt>,
    unknown: Option<NameId>,
    /// The unknown values of narrow widths: `(N, name)`, see [`FnLower::unknown_of`].
    narrow_unknowns: Vec<(u32, NameId)>,
    undef: Option<NameId>,
    /// The names holding a symbol's address plus an offset.
    addresses: Map<(String, i64), NameId>,
    /// The entries of the constant tables read at variable indices (`None`: not a table).
    tables: Map<Value<'m>, Option<std::sync::Arc<[i64]>>>,
    /// The statements of the block being lowered.
    stmts: Vec<Stmt>,
    temps: usize,
    memory: Memory,
    /// The `icmp`s whose only use is their block's branch.
    virtual_compares: Set<Value<'m>>,
    /// The values a comparison or a switch tests (through no-op casts) and that are used again.
    tested: Set<Value<'m>>,
    /// The named `icmp`s a branch should test as comparisons (refining their operands) rather
    /// than as values (refining their result).
    refines_operands: Set<Value<'m>>,
    /// Where to record the block and instruction being lowered (for errors).
    position: Option<&'a std::cell::Cell<(usize, usize)>>,
}

const MEM: FieldId = FieldId(0);

/// A block's instructions before its terminator, and the terminator.
fn split_block(bb: ffi::Block<'_>) -> (Vec<Value<'_>>, Option<Value<'_>>) {
    let mut instrs: Vec<Value<'_>> = bb.instructions().collect();
    let term = bb.terminator();
    if term.is_some() && instrs.last().copied() == term {
        instrs.pop();
    }
    (instrs, term)
}

impl<'a, 'm> FnLower<'a, 'm> {
    fn new(
        callees: &'a mut Callees,
        symbols: &'a mut Symbols,
        nsw: Option<&'a HashSet<String>>,
        little_endian: bool,
        layout: Layout<'m>,
    ) -> FnLower<'a, 'm> {
        FnLower {
            callees,
            symbols,
            nsw,
            little_endian,
            layout,
            numbers: std::cell::OnceCell::new(),
            function: None,
            names: Vec::new(),
            slots: Map::default(),
            blocks: Map::default(),
            compares: Map::default(),
            prologue: Vec::new(),
            unknown: None,
            narrow_unknowns: Vec::new(),
            undef: None,
            addresses: Map::default(),
            tables: Map::default(),
            stmts: Vec::new(),
            temps: 0,
            memory: Memory::Keep,
            virtual_compares: Set::default(),
            tested: Set::default(),
            refines_operands: Set::default(),
            position: None,
        }
    }

    /// Records that the lowering is at instruction `index` of block `block`.
    fn at(&self, block: usize, index: usize) {
        if let Some(p) = self.position {
            p.set((block, index));
        }
    }

    /// The spelling of a value's name.
    fn spell(&self, v: Value<'m>) -> String {
        let name = v.name();
        if !name.is_empty() {
            return name.into_owned();
        }
        let numbers =
            (self.numbers).get_or_init(|| self.function.map_or_else(HashMap::new, numbering));
        spelling(v, numbers)
    }

    fn lower(mut self, f: Value<'m>) -> (Function, LoweredFunction) {
        let name = f.name().into_owned();
        self.function = Some(f);
        let mut params = Vec::new();
        for p in f.params() {
            let k = kind_of(p);
            if k == Kind::Other {
                continue;
            }
            let id = self.fresh(format!("%{}", self.spell(p)));
            self.slots.insert(p, Slot::Name(id));
            match k {
                // A narrow parameter is wrapped to its width on entry, so that domains know the
                // bounds of its type (the caller passes it sign-extended: nothing changes).
                Kind::Int(bits) if bits < 64 => {
                    let raw = self.fresh(format!("%{}.in", self.spell(p)));
                    let rhs = if bits == 1 {
                        Rhs::Binary(Op::And, Operand::Name(raw), Operand::Int(1))
                    } else {
                        Rhs::Binary(Op::Trunc, Operand::Name(raw), Operand::Int(i64::from(bits)))
                    };
                    self.prologue.push(Stmt::Assign { dest: id, rhs });
                    params.push(raw);
                }
                _ => params.push(id),
            }
        }
        let bbs: Vec<ffi::Block<'m>> = f.blocks();
        let split: Vec<(Vec<Value<'m>>, Option<Value<'m>>)> =
            bbs.iter().map(|&bb| split_block(bb)).collect();
        for (i, &bb) in bbs.iter().enumerate() {
            self.blocks.insert(bb, BlockId::new(i));
        }
        let uses = use_counts(&split);
        self.virtual_compares = virtual_compares(&split, uses.as_ref());
        self.tested = tested_values(&split, uses.as_ref());
        // Decide every value's slot first: φs and branches may name values defined later. φs go
        // last, once it is known which of their inputs are unknown.
        for (b, (instrs, term)) in split.iter().enumerate() {
            for (i, &inst) in instrs.iter().enumerate() {
                if inst.opcode() != Some(Opcode::LLVMPHI) {
                    self.at(b, i);
                    self.plan(inst);
                }
            }
            self.at(b, instrs.len());
            if let Some(term) = term.filter(|t| t.opcode() == Some(Opcode::LLVMInvoke)) {
                if kind_of(term) != Kind::Other {
                    let id = self.fresh(format!("%{}", self.spell(term)));
                    self.slots.insert(term, Slot::Name(id));
                }
            }
        }
        let unknown_phis = self.unknown_phis(&split);
        for (b, (instrs, _)) in split.iter().enumerate() {
            for (i, &inst) in instrs.iter().enumerate() {
                if inst.opcode() != Some(Opcode::LLVMPHI) {
                    continue;
                }
                self.at(b, i);
                if unknown_phis.contains(&inst) {
                    let u = self.unknown_of(kind_of(inst));
                    self.slots.insert(inst, Slot::Value(u));
                } else {
                    self.plan(inst);
                }
            }
        }
        let mut blocks = Vec::with_capacity(bbs.len());
        let mut values = Vec::new();
        let mut instructions = 0;
        for (i, (&bb, (instrs, term))) in bbs.iter().zip(&split).enumerate() {
            let here = BlockId::new(i);
            let mut phis = Vec::new();
            for (j, &inst) in instrs.iter().enumerate() {
                self.at(i, j);
                instructions += 1;
                if inst.opcode() == Some(Opcode::LLVMPHI) {
                    if let Some(p) = self.phi(inst) {
                        phis.push(p);
                    }
                } else {
                    self.instruction(inst);
                }
                let k = kind_of(inst);
                if k != Kind::Other {
                    let home = match self.slots.get(&inst) {
                        Some(Slot::Virtual) => match self.compares.get(&inst) {
                            Some(&(op, a, b)) => Home::Compare(op, a, b),
                            None => Home::Operand(self.unknown()),
                        },
                        _ => Home::Operand(self.local(inst, 0)),
                    };
                    values.push(LlvmValue {
                        name: self.spell(inst),
                        home,
                        block: here,
                        integer: matches!(k, Kind::Int(_)),
                        float: matches!(k, Kind::Float(_)),
                    });
                }
            }
            instructions += 1;
            self.at(i, instrs.len());
            let term = match term {
                Some(t) => self.terminator(*t),
                None => Terminator::Unreachable,
            };
            let label = match bb.as_value() {
                Some(v) => self.spell(v),
                None => String::new(),
            };
            blocks.push(Block {
                label,
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
        let function = Function::new(name.clone(), true, params, self.names, blocks);
        let info = LoweredFunction {
            name,
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

    fn temp(&mut self, base: Value<'m>) -> NameId {
        self.temps += 1;
        let spelling = format!("%{}#{}", self.spell(base), self.temps);
        self.fresh(spelling)
    }

    fn pseudo(&mut self, name: &str) -> FuncId {
        self.callees.id(name)
    }

    /// The name holding the address of the global `name`, defined in the entry block.
    ///
    /// With [`Memory::Erase`] the name is `addr @name` (value domains that track addresses know
    /// it); with [`Memory::Keep`] it is the result of the pseudo function `address`, an object
    /// the heap analyses can load from and store to.
    fn address(&mut self, name: &str) -> Operand {
        self.address_at(name, 0)
    }

    /// The name holding the address of the global `name` plus `offset` bytes (with
    /// [`Memory::Keep`], unknown unless `offset` is 0).
    fn address_at(&mut self, name: &str, offset: i64) -> Operand {
        let key = (name.to_owned(), offset);
        if let Some(&id) = self.addresses.get(&key) {
            return Operand::Name(id);
        }
        let rhs = match (self.memory, offset) {
            (Memory::Keep, 0) => Rhs::Call(self.pseudo(ADDRESS), Box::new([])),
            (Memory::Keep, _) => return self.unknown(),
            (Memory::Erase, 0) => Rhs::Address(self.symbols.id(name)),
            (Memory::Erase, _) => {
                Rhs::Binary(Op::Add, self.address_at(name, 0), Operand::Int(offset))
            }
        };
        let spelling = match offset {
            0 => format!("@{name}"),
            _ => format!("@{name}{offset:+}"),
        };
        let id = self.fresh(spelling);
        self.prologue.push(Stmt::Assign { dest: id, rhs });
        self.addresses.insert(key, id);
        Operand::Name(id)
    }

    /// The operand for `v` (an instruction, argument, constant or metadata).
    fn operand(&mut self, v: Value<'m>) -> Operand {
        self.operand_at(v, 0)
    }

    /// Operand `i` of `inst`, or the unknown value when it has none (a malformed instruction).
    fn op(&mut self, inst: Value<'m>, i: usize) -> Operand {
        match inst.operand(i) {
            Some(v) => self.operand(v),
            None => self.unknown(),
        }
    }

    fn operand_at(&mut self, v: Value<'m>, depth: u32) -> Operand {
        if v.is_local() {
            self.local(v, depth)
        } else if v.kind() == ValueKind::LLVMMetadataAsValueValueKind {
            self.unknown()
        } else {
            self.constant(v)
        }
    }

    fn local(&mut self, v: Value<'m>, depth: u32) -> Operand {
        match self.slots.get(&v) {
            Some(Slot::Name(id)) => Operand::Name(*id),
            Some(Slot::Value(o)) => *o,
            Some(Slot::Alias(target)) if depth < 64 => {
                let target = *target;
                self.operand_at(target, depth + 1)
            }
            // Values of types the lowering does not model (or alias chains that never end,
            // which SSA rules out).
            Some(Slot::Alias(_) | Slot::Virtual) | None => self.unknown(),
        }
    }

    fn plan(&mut self, inst: Value<'m>) {
        let k = kind_of(inst);
        if k == Kind::Other {
            return;
        }
        if self.virtual_compares.contains(&inst) {
            self.slots.insert(inst, Slot::Virtual);
            return;
        }
        let slot = match self.plan_slot(inst, k) {
            Some(slot) => slot,
            None => Slot::Name(self.fresh(format!("%{}", self.spell(inst)))),
        };
        self.slots.insert(inst, slot);
    }

    /// The φs (of modelled types, untested) whose every input is unknown, an address, `undef`,
    /// or such a φ: they are ⊤ in every domain, so they need no name of their own. The greatest
    /// such set, found by discarding φs with another input until none is left to discard.
    fn unknown_phis(&self, split: &[(Vec<Value<'m>>, Option<Value<'m>>)]) -> Set<Value<'m>> {
        let mut phis: Map<Value<'m>, Vec<Value<'m>>> = Map::default();
        let mut modelled: Set<Value<'m>> = Set::default();
        for (instrs, _) in split {
            for &inst in instrs {
                if inst.opcode() != Some(Opcode::LLVMPHI) || kind_of(inst) == Kind::Other {
                    continue;
                }
                modelled.insert(inst);
                if !self.tested.contains(&inst) {
                    let inputs = inst.incoming().into_iter().map(|(v, _)| v).collect();
                    phis.insert(inst, inputs);
                }
            }
        }
        let mut set: Set<Value<'m>> = phis.keys().copied().collect();
        loop {
            let discard: Vec<Value<'m>> = set
                .iter()
                .filter(|n| {
                    phis[*n]
                        .iter()
                        .any(|&v| !self.unknown_like(v, &set, &modelled, 0))
                })
                .copied()
                .collect();
            if discard.is_empty() {
                return set;
            }
            for n in discard {
                set.remove(&n);
            }
        }
    }

    /// Whether `v` is ⊤ in every domain (or `undef`, which joins to anything), given that the
    /// φs in `phis` are.
    fn unknown_like(
        &self,
        v: Value<'m>,
        phis: &Set<Value<'m>>,
        modelled_phis: &Set<Value<'m>>,
        depth: u32,
    ) -> bool {
        if v.kind() == ValueKind::LLVMMetadataAsValueValueKind {
            return true;
        }
        if !v.is_local() {
            if let Kind::Float(_) = kind_of(v) {
                return floats::float_value(v, 0).is_none();
            }
            return self.eval_constant(v).is_none()
                && (self.memory == Memory::Keep || pointer_constant(v, self.layout).is_none());
        }
        if phis.contains(&v) {
            return true;
        }
        match self.slots.get(&v) {
            Some(Slot::Value(Operand::Name(n))) => self.is_unknown_name(*n),
            Some(Slot::Alias(target)) if depth < 64 => {
                self.unknown_like(*target, phis, modelled_phis, depth + 1)
            }
            Some(Slot::Name(_) | Slot::Virtual | Slot::Value(Operand::Int(_))) => false,
            Some(Slot::Alias(_)) => false,
            // A φ not in the set (φs are planned last), or a value of a type the lowering does
            // not model, which is unknown.
            None => !modelled_phis.contains(&v),
        }
    }

    /// The slot of a value that needs no statement, if it is one.
    fn plan_slot(&mut self, inst: Value<'m>, k: Kind) -> Option<Slot<'m>> {
        use Opcode as O;
        let op0 = inst.operand(0);
        let from = op0.map_or(Kind::Other, kind_of);
        let alias = op0.map(Slot::Alias);
        match inst.opcode()? {
            O::LLVMSExt if from != Kind::Int(1) => alias,
            O::LLVMZExt if from == Kind::Int(1) => alias,
            O::LLVMBitCast if from == k => alias,
            // An `i64` read as a double is its bits, which is how a double is kept.
            O::LLVMBitCast if from == Kind::Int(64) && k == Kind::Float(64) => alias,
            // An `i32` read as a float, and a float's bits: statements (see `bitcast`), unless
            // the float is a known constant that is not NaN.
            O::LLVMBitCast
                if matches!(
                    (from, k),
                    (Kind::Int(32), Kind::Float(32))
                        | (Kind::Float(32), Kind::Int(32))
                        | (Kind::Float(64), Kind::Int(64))
                ) =>
            {
                op0.and_then(|v| floats::float_value(v, 0))
                    .and_then(floats::float_bits)
                    .map(|bits| Slot::Value(Operand::Int(bits)))
            }
            // Other reinterpretations (vectors, other floating-point types): unknown.
            O::LLVMBitCast => Some(Slot::Value(self.unknown_of(k))),
            O::LLVMFCmp => floats::fold_fcmp(inst).map(|truth| Slot::Value(Operand::Int(truth))),
            // A `float` is exactly a double.
            O::LLVMFPExt => alias,
            O::LLVMAddrSpaceCast => alias,
            O::LLVMPtrToInt if k == Kind::Int(64) => alias,
            O::LLVMIntToPtr if from == Kind::Int(64) => alias,
            O::LLVMGetElementPtr
                if (1..inst.operand_count()).all(|i| inst.operand(i).is_some_and(is_zero)) =>
            {
                alias
            }
            // A constant offset from a global's address is an address.
            O::LLVMGetElementPtr => Some(Slot::Value(
                match constants::pointer_gep(inst, self.layout) {
                    Some((global, offset)) => self.address_at(&global, offset),
                    // A variable index into a global: the address arithmetic is lowered (a
                    // statement of its own).
                    None if self.memory == Memory::Erase
                        && constants::variable_gep(inst, self.layout).is_some() =>
                    {
                        return None;
                    }
                    // Other address arithmetic: an unknown pointer (its memory is whatever
                    // escaped).
                    None => self.unknown_of(k),
                },
            )),
            O::LLVMCall => match intrinsic(inst) {
                Some(name) if name.starts_with("llvm.expect.") => {
                    inst.arguments().first().map(|&a| Slot::Alias(a))
                }
                Some(name) if modelled_intrinsic(&name) => None,
                // A result with a `!range` is narrowed: a statement of its own.
                _ if self.erased(inst) && intrinsics::range_of(inst, bits_of(k)).is_none() => {
                    Some(Slot::Value(self.unknown_of(k)))
                }
                _ => None,
            },
            O::LLVMExtractValue => match intrinsics::extracted(inst) {
                intrinsics::Extracted::Value(v) => Some(Slot::Alias(v)),
                intrinsics::Extracted::Zero => Some(Slot::Value(Operand::Int(0))),
                intrinsics::Extracted::Overflow(..) => None,
                intrinsics::Extracted::Unknown => Some(Slot::Value(self.unknown_of(k))),
            },
            // A volatile load may see memory change behind the program's back: never folded.
            O::LLVMLoad if inst.volatile() && self.erased(inst) => {
                Some(Slot::Value(self.unknown_of(k)))
            }
            O::LLVMLoad if inst.volatile() => None,
            O::LLVMLoad => match op0.and_then(|a| self.fold_load(a, k)) {
                Some(constants::Folded::Int(v)) => Some(Slot::Value(Operand::Int(v))),
                Some(constants::Folded::Address(global, offset)) => {
                    Some(Slot::Value(self.address_at(&global, offset)))
                }
                // A table read at an index the analysis may know: a statement of its own.
                None if self.memory == Memory::Erase && self.table_load(inst, k).is_some() => None,
                None if self.erased(inst) && intrinsics::range_of(inst, bits_of(k)).is_none() => {
                    Some(Slot::Value(self.unknown_of(k)))
                }
                None => None,
            },
            O::LLVMAlloca | O::LLVMAtomicRMW | O::LLVMVAArg if self.erased(inst) => {
                Some(Slot::Value(self.unknown_of(k)))
            }
            O::LLVMFPToSI => self.fold_fp_to_int(op0, k, true),
            O::LLVMFPToUI => self.fold_fp_to_int(op0, k, false),
            // Results the lowering cannot compute are unknown; they need no name of their own.
            O::LLVMExtractElement | O::LLVMLandingPad | O::LLVMCatchPad | O::LLVMCleanupPad => {
                Some(Slot::Value(self.unknown_of(k)))
            }
            _ => None,
        }
    }

    /// Whether refining `v` on a branch edge can reach another use of it: it is tested and used
    /// again (see [`tested_values`]), itself or through no-op casts.
    fn worth_refining(&self, v: Option<Value<'m>>, depth: u32) -> bool {
        let Some(v) = v.filter(|v| v.is_local()) else {
            return false;
        };
        if self.tested.contains(&v) {
            return true;
        }
        match self.slots.get(&v) {
            Some(Slot::Alias(target)) if depth < 64 => {
                self.worth_refining(Some(*target), depth + 1)
            }
            _ => false,
        }
    }

    /// Whether the result of the memory operation or call `inst` is erased to the unknown value:
    /// with [`Memory::Erase`], unless a comparison or a switch tests it. Branches refine the
    /// values they test, and a value refined on an edge must have a name of its own for its
    /// other uses to see it; untested values gain nothing from one.
    fn erased(&self, inst: Value<'m>) -> bool {
        self.memory == Memory::Erase
            && (inst.ty().kind() == TyKind::Void || !self.tested.contains(&inst))
    }
}
