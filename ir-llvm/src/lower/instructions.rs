//! Lowering instructions and terminators: arithmetic at a width, comparisons, calls, φs, and
//! the control-flow terminators.

use super::uses::ignored_intrinsic;
#[allow(clippy::wildcard_imports)]
use super::*;

impl<'m> FnLower<'_, 'm> {
    pub(super) fn emit(&mut self, dest: NameId, rhs: Rhs) {
        self.stmts.push(Stmt::Assign { dest, rhs });
    }

    /// `a op b` into a new temporary (folded when both are literals).
    pub(super) fn temp_binary(
        &mut self,
        base: Value<'m>,
        op: Op,
        a: Operand,
        b: Operand,
    ) -> Operand {
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
    pub(super) fn wrap_into(&mut self, dest: NameId, t: Operand, bits: u32) {
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
    pub(super) fn arith(
        &mut self,
        dest: NameId,
        base: Value<'m>,
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
    pub(super) fn zext(&mut self, base: Value<'m>, a: Operand, bits: u32) -> Operand {
        if bits >= 64 || bits == 1 {
            return a;
        }
        self.temp_binary(base, Op::And, a, Operand::Int(mask(bits)))
    }

    /// `a` read as a signed `iN` value: the identity except for `i1` (0 or -1).
    pub(super) fn signed(&mut self, base: Value<'m>, a: Operand, bits: u32) -> Operand {
        if bits == 1 {
            self.temp_binary(base, Op::Sub, Operand::Int(0), a)
        } else {
            a
        }
    }

    /// The width of operand `i` of `inst` (64 for pointers and unmodelled types).
    pub(super) fn operand_bits(&self, inst: Value<'m>, i: usize) -> u32 {
        bits_of(inst.operand(i).map_or(Kind::Other, kind_of))
    }

    pub(super) fn args(&mut self, call: Value<'m>) -> Box<[Operand]> {
        call.arguments()
            .into_iter()
            .map(|a| self.operand(a))
            .collect()
    }

    /// The callee of a call: the module's function for a direct call, else a pseudo function;
    /// indirect calls pass the function pointer first.
    pub(super) fn callee(
        &mut self,
        call: Value<'m>,
        args: Box<[Operand]>,
    ) -> (FuncId, Box<[Operand]>) {
        match call.callee() {
            Some(c) if c.kind() == ValueKind::LLVMInlineAsmValueKind => (self.pseudo(ASM), args),
            Some(c) if c.is_global() => (self.callees.id(&c.name()), args),
            target => {
                let target = match target {
                    Some(t) => self.operand(t),
                    None => self.unknown(),
                };
                let mut all = Vec::with_capacity(args.len() + 1);
                all.push(target);
                all.extend(args.iter().copied());
                (self.pseudo(INDIRECT), all.into_boxed_slice())
            }
        }
    }

    /// Statements for an instruction whose result (if any) is not modelled.
    pub(super) fn effect(&mut self, inst: Value<'m>) {
        use Opcode as O;
        match inst.opcode() {
            Some(O::LLVMStore) if self.memory == Memory::Erase => {}
            Some(O::LLVMStore) => {
                // Operands: the value, then the address.
                let object = self.op(inst, 1);
                let value = self.op(inst, 0);
                self.stmts.push(Stmt::Store {
                    object,
                    field: MEM,
                    value,
                });
            }
            Some(O::LLVMCall) => {
                if intrinsic(inst).is_some_and(|name| ignored_intrinsic(&name)) {
                    return;
                }
                let args = self.args(inst);
                let (callee, args) = self.callee(inst, args);
                self.stmts.push(Stmt::Call { callee, args });
            }
            Some(O::LLVMAtomicRMW) => {
                let args = Box::new([self.op(inst, 0), self.op(inst, 1)]);
                let callee = self.pseudo(ATOMIC);
                self.stmts.push(Stmt::Call { callee, args });
            }
            Some(O::LLVMAtomicCmpXchg) => {
                let args = Box::new([self.op(inst, 0), self.op(inst, 1), self.op(inst, 2)]);
                let callee = self.pseudo(ATOMIC);
                self.stmts.push(Stmt::Call { callee, args });
            }
            Some(O::LLVMVAArg) => {
                let args = Box::new([self.op(inst, 0)]);
                let callee = self.pseudo(VA_ARG);
                self.stmts.push(Stmt::Call { callee, args });
            }
            // Arithmetic on unmodelled types, fences, aggregates and vectors: no effect the
            // domains see.
            _ => {}
        }
    }

    pub(super) fn instruction(&mut self, inst: Value<'m>) {
        if inst.opcode() == Some(Opcode::LLVMGetElementPtr) {
            self.record_gep(inst);
        }
        let dest = match self.slots.get(&inst) {
            Some(Slot::Name(id)) => *id,
            Some(Slot::Virtual) => {
                if inst.opcode() == Some(Opcode::LLVMICmp) {
                    let width = self.operand_bits(inst, 0);
                    let (a, b) = (self.op(inst, 0), self.op(inst, 1));
                    let compare = self.comparison(inst, width, a, b);
                    self.compares.insert(inst, compare);
                }
                return;
            }
            // Folded, aliased or unknown values need no statement of their own, but a call
            // whose result is unknown still happens; unmodelled results may have effects.
            Some(_) | None => {
                self.effect(inst);
                return;
            }
        };
        let bits = bits_of(kind_of(inst));
        use Opcode as O;
        let Some(opcode) = inst.opcode() else {
            let u = self.unknown();
            self.emit(dest, Rhs::Use(u));
            return;
        };
        if matches!(opcode, O::LLVMShl | O::LLVMLShr | O::LLVMAShr)
            && self.oversized_shift(inst, bits)
        {
            let u = self.undef();
            self.emit(dest, Rhs::Use(u));
            return;
        }
        // Only these can carry `nsw`; spelling a name to look it up costs an allocation.
        let nsw = matches!(opcode, O::LLVMAdd | O::LLVMSub | O::LLVMMul | O::LLVMShl)
            && self.nsw.is_some_and(|set| set.contains(&self.spell(inst)));
        let variable_shift = matches!(opcode, O::LLVMShl | O::LLVMLShr | O::LLVMAShr)
            && inst.operand(1).is_some_and(Value::is_local);
        let (dest, shifted) = if variable_shift {
            (self.temp(inst), Some(dest))
        } else {
            (dest, None)
        };
        self.operation(dest, inst, opcode, bits, nsw);
        // A shift by the width or more is poison: the result only where the amount is below.
        if let Some(shifted) = shifted {
            let amount = self.op(inst, 1);
            let below = self.temp_binary(inst, Op::ULt, amount, Operand::Int(i64::from(bits)));
            let poison = self.undef();
            self.emit(shifted, Rhs::Select(below, Operand::Name(dest), poison));
        }
    }

    /// Whether `inst` shifts by a constant of at least its width: poison.
    fn oversized_shift(&self, inst: Value<'m>, bits: u32) -> bool {
        inst.operand(1)
            .and_then(Value::const_int)
            .is_some_and(|amount| amount >= u64::from(bits))
    }

    /// `dest =` the integer operation `inst` (an `opcode` of a `bits`-bit result).
    fn operation(&mut self, dest: NameId, inst: Value<'m>, opcode: Opcode, bits: u32, nsw: bool) {
        use Opcode as O;
        let d = inst;
        match opcode {
            O::LLVMAdd | O::LLVMSub | O::LLVMMul | O::LLVMShl => {
                let op = match opcode {
                    O::LLVMAdd => Op::Add,
                    O::LLVMSub => Op::Sub,
                    O::LLVMMul => Op::Mul,
                    _ => Op::Shl,
                };
                let (a, b) = (self.op(inst, 0), self.op(inst, 1));
                self.arith(dest, d, bits, op, a, b, nsw);
            }
            O::LLVMAnd | O::LLVMOr | O::LLVMXor => {
                let op = match opcode {
                    O::LLVMAnd => Op::And,
                    O::LLVMOr => Op::Or,
                    _ => Op::Xor,
                };
                let (a, b) = (self.op(inst, 0), self.op(inst, 1));
                self.emit(dest, Rhs::Binary(op, a, b));
            }
            // Signed division and arithmetic shifts of `i1` (where true is -1) are not worth
            // modelling.
            O::LLVMSDiv | O::LLVMSRem | O::LLVMAShr if bits == 1 => {
                let u = self.unknown();
                self.emit(dest, Rhs::Use(u));
            }
            O::LLVMSDiv | O::LLVMSRem | O::LLVMAShr => {
                let op = match opcode {
                    O::LLVMSDiv => Op::Div,
                    O::LLVMSRem => Op::Rem,
                    _ => Op::Shr,
                };
                let (a, b) = (self.op(inst, 0), self.op(inst, 1));
                self.emit(dest, Rhs::Binary(op, a, b));
            }
            O::LLVMUDiv | O::LLVMURem => {
                let op = if opcode == O::LLVMUDiv {
                    Op::UDiv
                } else {
                    Op::URem
                };
                let (a, b) = (self.op(inst, 0), self.op(inst, 1));
                self.unsigned_div(dest, d, bits, op, a, b);
            }
            O::LLVMLShr => {
                let (a, b) = (self.op(inst, 0), self.op(inst, 1));
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
            O::LLVMICmp => {
                let width = self.operand_bits(inst, 0);
                let (a, b) = (self.op(inst, 0), self.op(inst, 1));
                let (op, a, b) = self.comparison(d, width, a, b);
                self.compares.insert(d, (op, a, b));
                if self.worth_refining(inst.operand(0), 0)
                    || self.worth_refining(inst.operand(1), 0)
                {
                    self.refines_operands.insert(d);
                }
                self.emit(dest, Rhs::Binary(op, a, b));
            }
            O::LLVMSelect => {
                let c = self.op(inst, 0);
                let (a, b) = (self.op(inst, 1), self.op(inst, 2));
                self.emit(dest, Rhs::Select(c, a, b));
            }
            O::LLVMTrunc | O::LLVMPtrToInt => {
                let a = self.op(inst, 0);
                self.wrap_into(dest, a, bits);
            }
            O::LLVMZExt | O::LLVMIntToPtr => {
                let from = self.operand_bits(inst, 0);
                let a = self.op(inst, 0);
                self.emit(dest, Rhs::Binary(Op::And, a, Operand::Int(mask(from))));
            }
            O::LLVMSExt => {
                // Only `i1` gets here: true becomes -1.
                let a = self.op(inst, 0);
                self.emit(dest, Rhs::Binary(Op::Sub, Operand::Int(0), a));
            }
            O::LLVMAlloca => self.emit(dest, Rhs::New),
            // A variable index into a global (see `plan_slot`): `@g + offset + index * stride`.
            O::LLVMGetElementPtr => match constants::variable_gep(inst, self.layout) {
                Some((global, offset, index, stride)) => {
                    let base = self.address_at(&global, offset);
                    let i = self.operand(index);
                    let step = if stride == 1 {
                        i
                    } else {
                        let t = self.temp(inst);
                        self.emit(t, Rhs::Binary(Op::Mul, i, Operand::Int(stride)));
                        Operand::Name(t)
                    };
                    self.emit(dest, Rhs::Binary(Op::Add, base, step));
                }
                None => {
                    let u = self.unknown();
                    self.emit(dest, Rhs::Use(u));
                }
            },
            O::LLVMLoad => {
                let table = match self.memory {
                    Memory::Erase => self.table_load(inst, kind_of(inst)),
                    Memory::Keep => None,
                };
                if let Some((entries, index)) = table {
                    let i = self.operand(index);
                    self.emit(dest, Rhs::Table(entries, i));
                } else {
                    let p = self.op(inst, 0);
                    self.ranged(dest, inst, bits, Rhs::Load(p, MEM));
                }
            }
            O::LLVMCall => self.call(dest, d, bits),
            O::LLVMExtractValue => match intrinsics::extracted(inst) {
                intrinsics::Extracted::Overflow(call, field) => self.overflow(dest, call, field),
                _ => {
                    let u = self.unknown();
                    self.emit(dest, Rhs::Use(u));
                }
            },
            O::LLVMFAdd | O::LLVMFSub | O::LLVMFMul | O::LLVMFDiv | O::LLVMFRem => {
                let op = match opcode {
                    O::LLVMFAdd => Op::FAdd,
                    O::LLVMFSub => Op::FSub,
                    O::LLVMFMul => Op::FMul,
                    O::LLVMFDiv => Op::FDiv,
                    _ => Op::FRem,
                };
                let (a, b) = (self.op(inst, 0), self.op(inst, 1));
                if kind_of(inst) == Kind::Float(32) {
                    // In double precision, then rounded once to single precision: the same
                    // result (see `Op::FAdd`).
                    let t = self.temp_binary(d, op, a, b);
                    self.emit(dest, Rhs::Binary(Op::FPTrunc, t, Operand::Int(32)));
                } else {
                    self.emit(dest, Rhs::Binary(op, a, b));
                }
            }
            // The sign bit flipped (also for NaN: `fneg` is a bit operation).
            O::LLVMFNeg => {
                let a = self.op(inst, 0);
                self.emit(dest, Rhs::Binary(Op::Xor, a, Operand::Int(i64::MIN)));
            }
            O::LLVMFCmp => {
                let (a, b) = (self.op(inst, 0), self.op(inst, 1));
                self.fcmp(dest, d, a, b);
            }
            O::LLVMFPTrunc => {
                let a = self.op(inst, 0);
                let to = if kind_of(inst) == Kind::Float(32) {
                    32
                } else {
                    64
                };
                self.emit(dest, Rhs::Binary(Op::FPTrunc, a, Operand::Int(to)));
            }
            O::LLVMSIToFP | O::LLVMUIToFP => {
                let from = self.operand_bits(inst, 0);
                let a = self.op(inst, 0);
                let (op, a) = if opcode == O::LLVMSIToFP {
                    (Op::SIToFP, self.signed(d, a, from))
                } else {
                    (Op::UIToFP, self.zext(d, a, from))
                };
                let to = if kind_of(inst) == Kind::Float(32) {
                    32
                } else {
                    64
                };
                self.emit(dest, Rhs::Binary(op, a, Operand::Int(to)));
            }
            O::LLVMBitCast => {
                let a = self.op(inst, 0);
                self.bitcast(dest, d, a);
            }
            O::LLVMFPToSI | O::LLVMFPToUI => {
                let op = if opcode == O::LLVMFPToSI {
                    Op::FPToSI
                } else {
                    Op::FPToUI
                };
                let a = self.op(inst, 0);
                self.emit(dest, Rhs::Binary(op, a, Operand::Int(i64::from(bits))));
            }
            O::LLVMFreeze => {
                let a = self.op(inst, 0);
                let callee = self.pseudo(FREEZE);
                self.emit(dest, Rhs::Call(callee, Box::new([a])));
            }
            O::LLVMVAArg => {
                let list = self.op(inst, 0);
                let callee = self.pseudo(VA_ARG);
                self.emit(dest, Rhs::Call(callee, Box::new([list])));
            }
            O::LLVMAtomicRMW => {
                let args = Box::new([self.op(inst, 0), self.op(inst, 1)]);
                let callee = self.pseudo(ATOMIC);
                self.emit(dest, Rhs::Call(callee, args));
            }
            // Anything else that yields a modelled value (a vector extraction, a float
            // intrinsic not modelled, …) is unknown.
            _ => {
                let u = self.unknown();
                self.emit(dest, Rhs::Use(u));
            }
        }
    }

    /// `dest =` the `fcmp` `d` of `a` and `b`: its predicate is a mask of the outcomes
    /// (1 equal, 2 greater, 4 less, 8 unordered) that make it true, which is what the core IR's
    /// `fcmp` gives.
    fn fcmp(&mut self, dest: NameId, d: Value<'m>, a: Operand, b: Operand) {
        match d.fcmp_predicate().map(|p| i64::from(p & 15)) {
            Some(0) => self.emit(dest, Rhs::Use(Operand::Int(0))),
            Some(15) => self.emit(dest, Rhs::Use(Operand::Int(1))),
            Some(mask) => {
                let outcome = self.temp_binary(d, Op::FCmp, a, b);
                let hit = self.temp_binary(d, Op::And, outcome, Operand::Int(mask));
                self.emit(dest, Rhs::Binary(Op::Ne, hit, Operand::Int(0)));
            }
            None => {
                let u = self.unknown_of(Kind::Int(1));
                self.emit(dest, Rhs::Use(u));
            }
        }
    }

    /// `dest =` the `bitcast` `d` of `a` between a float and an integer of its width (the
    /// others have no statement, see `plan_slot`). A float's bits are unknown when it is NaN,
    /// whose payload compilers choose differently when they compute one.
    fn bitcast(&mut self, dest: NameId, d: Value<'m>, a: Operand) {
        let to = kind_of(d);
        if to == Kind::Float(32) {
            self.emit(dest, Rhs::Binary(Op::FFromBits, a, Operand::Int(32)));
            return;
        }
        let outcome = self.temp_binary(d, Op::FCmp, a, a);
        let nan = self.temp_binary(d, Op::Eq, outcome, Operand::Int(8));
        let bits = if to == Kind::Int(32) {
            self.temp_binary(d, Op::FBits, a, Operand::Int(32))
        } else {
            a
        };
        let unknown = self.unknown_of(to);
        self.emit(dest, Rhs::Select(nan, unknown, bits));
    }

    /// `udiv` and `urem` on `iN`: on the zero-extended values, then wrapped back.
    pub(super) fn unsigned_div(
        &mut self,
        dest: NameId,
        d: Value<'m>,
        bits: u32,
        op: Op,
        a: Operand,
        b: Operand,
    ) {
        if bits >= 64 {
            self.emit(dest, Rhs::Binary(op, a, b));
            return;
        }
        let za = self.zext(d, a, bits);
        let zb = self.zext(d, b, bits);
        let t = self.temp_binary(d, op, za, zb);
        self.wrap_into(dest, t, bits);
    }

    /// The core IR comparison for the `icmp` `d` on `width`-bit operands.
    pub(super) fn comparison(
        &mut self,
        d: Value<'m>,
        width: u32,
        a: Operand,
        b: Operand,
    ) -> (Op, Operand, Operand) {
        use IntPredicate as P;
        let Some(predicate) = d.icmp_predicate() else {
            return (Op::Eq, a, b);
        };
        match predicate {
            P::LLVMIntEQ => (Op::Eq, a, b),
            P::LLVMIntNE => (Op::Ne, a, b),
            // Sign-extension preserves the unsigned order of bit patterns, so the unsigned
            // comparisons work on the 64-bit forms directly.
            P::LLVMIntULT => (Op::ULt, a, b),
            P::LLVMIntULE => (Op::ULe, a, b),
            P::LLVMIntUGT => (Op::UGt, a, b),
            P::LLVMIntUGE => (Op::UGe, a, b),
            P::LLVMIntSLT | P::LLVMIntSLE | P::LLVMIntSGT | P::LLVMIntSGE => {
                let op = match predicate {
                    P::LLVMIntSLT => Op::Lt,
                    P::LLVMIntSLE => Op::Le,
                    P::LLVMIntSGT => Op::Gt,
                    _ => Op::Ge,
                };
                let sa = self.signed(d, a, width);
                let sb = self.signed(d, b, width);
                (op, sa, sb)
            }
        }
    }

    pub(super) fn call(&mut self, dest: NameId, d: Value<'m>, bits: u32) {
        if let Some(name) = intrinsic(d) {
            if self.intrinsic_call(dest, d, &name, bits) {
                return;
            }
        }
        let args = self.args(d);
        let (callee, args) = self.callee(d, args);
        self.ranged(dest, d, bits, Rhs::Call(callee, args));
    }

    pub(super) fn phi(&mut self, phi: Value<'m>) -> Option<Phi> {
        let Some(Slot::Name(dest)) = self.slots.get(&phi).copied() else {
            return None;
        };
        let inputs = phi.incoming();
        let mut incoming = Vec::with_capacity(inputs.len());
        for (value, from) in inputs {
            let Some(&block) = self.blocks.get(&from) else {
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

    pub(super) fn block(&mut self, b: ffi::Block<'m>) -> BlockId {
        // LLVM's verifier guarantees targets are in the function; a missing one would be a
        // malformed module, so it goes to the entry block rather than panicking.
        self.blocks.get(&b).copied().unwrap_or(BlockId(0))
    }

    pub(super) fn terminator(&mut self, term: Value<'m>) -> Terminator {
        use Opcode as O;
        let successors = term.successors();
        let target = |i: usize| successors.get(i).copied();
        match term.opcode() {
            Some(O::LLVMRet) => Terminator::Return(term.operand(0).map(|o| self.operand(o))),
            Some(O::LLVMBr) => match (term.condition(), target(0), target(1)) {
                (None, Some(to), _) => Terminator::Goto(self.block(to)),
                (Some(condition), Some(then_to), Some(else_to)) => {
                    let cond = self.branch_condition(condition);
                    Terminator::Branch {
                        cond,
                        then_to: self.block(then_to),
                        else_to: self.block(else_to),
                    }
                }
                _ => Terminator::Unreachable,
            },
            Some(O::LLVMSwitch) => {
                let on = self.op(term, 0);
                let on = self.private(on);
                let values = term.switch_cases();
                let mut cases = Vec::with_capacity(values.len());
                for (i, &value) in values.iter().enumerate() {
                    let Some(t) = target(i + 1) else {
                        return Terminator::Unreachable;
                    };
                    let target = self.block(t);
                    match self.eval_constant(value) {
                        Some(v) => cases.push((v, target)),
                        // A case on a value the lowering cannot read (wider than 64 bits):
                        // control may go there whatever `on` is.
                        None => {
                            let mut all: Vec<ffi::Block<'m>> =
                                successors.iter().skip(1).copied().collect();
                            all.extend(successors.first().copied());
                            return self.unknown_branch(&all);
                        }
                    }
                }
                match target(0) {
                    Some(default) => Terminator::Switch {
                        on,
                        cases: cases.into_boxed_slice(),
                        default: self.block(default),
                    },
                    None => Terminator::Unreachable,
                }
            }
            Some(O::LLVMIndirectBr) => self.unknown_branch(&successors),
            Some(O::LLVMInvoke) => {
                let args = self.args(term);
                let (callee, args) = self.callee(term, args);
                match self.slots.get(&term) {
                    Some(Slot::Name(dest)) => {
                        let dest = *dest;
                        self.emit(dest, Rhs::Call(callee, args));
                    }
                    _ => self.stmts.push(Stmt::Call { callee, args }),
                }
                self.unknown_branch(&successors)
            }
            Some(O::LLVMCallBr) => {
                let args = self.args(term);
                let (callee, args) = self.callee(term, args);
                self.stmts.push(Stmt::Call { callee, args });
                match target(0) {
                    Some(to) => Terminator::Goto(self.block(to)),
                    None => Terminator::Unreachable,
                }
            }
            Some(O::LLVMResume | O::LLVMCleanupRet | O::LLVMCatchRet | O::LLVMCatchSwitch) => {
                Terminator::Throw(None)
            }
            _ => Terminator::Unreachable,
        }
    }

    /// The condition of a conditional branch on `condition`.
    fn branch_condition(&mut self, condition: Value<'m>) -> Cond {
        if !condition.is_local() {
            let c = self.operand(condition);
            return Cond::NonZero(self.private(c));
        }
        match self.compares.get(&condition) {
            // A comparison used elsewhere whose operands have no other use to refine: the
            // branch refines the comparison's result instead.
            Some(_)
                if !self.refines_operands.contains(&condition)
                    && matches!(self.slots.get(&condition), Some(Slot::Name(_))) =>
            {
                Cond::NonZero(self.local(condition, 0))
            }
            Some(&(op, a, c)) => {
                let (a, c) = (self.private(a), self.private(c));
                Cond::Compare(op, a, c)
            }
            None => {
                let c = self.local(condition, 0);
                Cond::NonZero(self.private(c))
            }
        }
    }

    /// A branch to any of `targets`, on a value nobody knows.
    pub(super) fn unknown_branch(&mut self, targets: &[ffi::Block<'m>]) -> Terminator {
        let targets: Vec<BlockId> = targets.iter().map(|&t| self.block(t)).collect();
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
