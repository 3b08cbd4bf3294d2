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

mod common;
mod constants;
pub use constants::pointer_constant;
mod floats;
mod indices;
mod instructions;
mod intrinsics;
mod module;
mod unknowns;
mod uses;
pub use module::{join, lower_functions, lower_module};
use uses::{is_zero, modelled_intrinsic, tested_values, use_counts, virtual_compares};

use common::*;
pub use common::{
    GepIndex, Home, IndexBound, LlvmValue, LowerError, Lowered, LoweredFunction, Memory, Place,
    canonical, numbering, spelling,
};
pub(crate) use common::{Map, Set};

use absinthe::program::{BlockId, Cond, FuncId, NameId, Op, Operand, Phi, Rhs, Stmt, Terminator};
use absinthe_ir::{Block, Function};
use std::collections::{HashMap, HashSet};

use crate::ffi::{self, IntPredicate, Layout, Opcode, Ty, TyKind, Value, ValueKind};

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
            block: BlockId(0),
            indices: Vec::new(),
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
            self.block = here;
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
            // The entry block's indices were recorded before the prologue was complete.
            for index in self.indices.iter_mut().filter(|x| x.block == BlockId(0)) {
                index.stmt += stmts.len();
            }
            stmts.append(&mut entry.stmts);
            entry.stmts = stmts;
        }
        let function = Function::new(name.clone(), true, params, self.names, blocks);
        let info = LoweredFunction {
            name,
            func: FuncId::new(0),
            values,
            instructions,
            indices: std::mem::take(&mut self.indices),
            shared: self
                .unknown
                .into_iter()
                .chain(self.narrow_unknowns.iter().map(|&(_, id)| id))
                .chain(self.undef)
                .collect(),
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
