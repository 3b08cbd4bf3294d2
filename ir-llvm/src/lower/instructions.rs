//! Lowering instructions and terminators: arithmetic at a width, comparisons, calls, φs, and
//! the control-flow terminators.

use super::uses::ignored_intrinsic;
#[allow(clippy::wildcard_imports)]
use super::*;

impl FnLower<'_> {
    pub(super) fn emit(&mut self, dest: NameId, rhs: Rhs) {
        self.stmts.push(Stmt::Assign { dest, rhs });
    }

    /// `a op b` into a new temporary (folded when both are literals).
    pub(super) fn temp_binary(&mut self, base: &Name, op: Op, a: Operand, b: Operand) -> Operand {
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
    pub(super) fn zext(&mut self, base: &Name, a: Operand, bits: u32) -> Operand {
        if bits >= 64 || bits == 1 {
            return a;
        }
        self.temp_binary(base, Op::And, a, Operand::Int(mask(bits)))
    }

    /// `a` read as a signed `iN` value: the identity except for `i1` (0 or -1).
    pub(super) fn signed(&mut self, base: &Name, a: Operand, bits: u32) -> Operand {
        if bits == 1 {
            self.temp_binary(base, Op::Sub, Operand::Int(0), a)
        } else {
            a
        }
    }

    pub(super) fn operand_bits(&self, op: &llvm_ir::Operand) -> u32 {
        bits_of(kind(&self.module.type_of(op)))
    }

    pub(super) fn args(
        &mut self,
        args: &[(llvm_ir::Operand, Vec<llvm_ir::function::ParameterAttribute>)],
    ) -> Box<[Operand]> {
        args.iter().map(|(a, _)| self.operand(a)).collect()
    }

    /// The callee of a call: the module's function for a direct call, else a pseudo function;
    /// indirect calls pass the function pointer first.
    pub(super) fn callee(
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
    pub(super) fn effect(&mut self, inst: &Instruction) {
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

    pub(super) fn instruction(&mut self, inst: &Instruction) {
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
    pub(super) fn unsigned_div(
        &mut self,
        dest: NameId,
        d: &Name,
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

    /// The core IR comparison for an `icmp` on `width`-bit operands.
    pub(super) fn comparison(
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

    pub(super) fn call(
        &mut self,
        dest: NameId,
        d: &Name,
        bits: u32,
        call: &llvm_ir::instruction::Call,
    ) {
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

    pub(super) fn phi(&mut self, phi: &llvm_ir::instruction::Phi) -> Option<Phi> {
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

    pub(super) fn block(&mut self, name: &Name) -> BlockId {
        // LLVM's verifier guarantees targets exist; a missing one would be a malformed module,
        // so it goes to the entry block rather than panicking.
        self.blocks.get(name).copied().unwrap_or(BlockId(0))
    }

    pub(super) fn terminator(&mut self, term: &LTerm) -> Terminator {
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
    pub(super) fn unknown_branch<'n>(
        &mut self,
        targets: impl Iterator<Item = &'n Name>,
    ) -> Terminator {
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
