//! What the lowering reads from a function before lowering it: which values are tested by a
//! comparison and used again, how often each value is used, which comparisons only feed their
//! block's branch, and which intrinsics are modelled.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Intrinsics the lowering turns into statements on values.
pub(super) fn modelled_intrinsic(name: &str) -> bool {
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
pub(super) fn ignored_intrinsic(name: &str) -> bool {
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
pub(super) fn tested_values(
    f: &llvm_ir::Function,
    uses: Option<&HashMap<&Name, usize>>,
) -> HashSet<Name> {
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
pub(super) fn closure(
    mut set: HashSet<Name>,
    casts: &[(&Name, &llvm_ir::Operand)],
) -> HashSet<Name> {
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
pub(super) fn use_counts(f: &llvm_ir::Function) -> Option<HashMap<&Name, usize>> {
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
pub(super) fn virtual_compares(
    f: &llvm_ir::Function,
    uses: Option<&HashMap<&Name, usize>>,
) -> HashSet<Name> {
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
pub(super) fn operands_of(inst: &Instruction) -> Option<Vec<&llvm_ir::Operand>> {
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

/// The name of the intrinsic or function a call calls directly, if any.
pub(super) fn intrinsic(call: &llvm_ir::instruction::Call) -> Option<&str> {
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
