//! What the lowering reads from a function before lowering it: which values are tested by a
//! comparison and used again, how often each value is used, which comparisons only feed their
//! block's branch, and which intrinsics are modelled.

#[allow(clippy::wildcard_imports)]
use super::*;

/// A function's blocks: the instructions before the terminator, and the terminator.
pub(super) type Split<'m> = [(Vec<Value<'m>>, Option<Value<'m>>)];

/// Intrinsics the lowering turns into statements on values.
pub(super) fn modelled_intrinsic(name: &str) -> bool {
    [
        "llvm.smax.",
        "llvm.smin.",
        "llvm.umax.",
        "llvm.umin.",
        "llvm.abs.",
        "llvm.uadd.sat.",
        "llvm.usub.sat.",
        "llvm.sadd.sat.",
        "llvm.ssub.sat.",
        "llvm.ctpop.",
        "llvm.ctlz.",
        "llvm.cttz.",
        "llvm.bswap.",
        "llvm.fabs.",
        "llvm.copysign.",
        "llvm.sqrt.",
        "llvm.floor.",
        "llvm.ceil.",
        "llvm.trunc.",
        "llvm.round.",
        "llvm.rint.",
        "llvm.nearbyint.",
        "llvm.roundeven.",
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
        || intrinsics::is_overflow(name)
}

/// Whether `op` is a cast whose result the tests see through.
fn is_cast(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::LLVMSExt
            | O::LLVMZExt
            | O::LLVMTrunc
            | O::LLVMBitCast
            | O::LLVMAddrSpaceCast
            | O::LLVMPtrToInt
            | O::LLVMIntToPtr
            | O::LLVMFreeze
    )
}

/// The values of a function an `icmp` or a `switch` tests, directly or through casts that the
/// lowering turns into aliases (`sext`, `zext` of `i1`, same-width `bitcast`, 64-bit pointer
/// casts, …), and that have another use a refinement on a branch edge could reach: a value whose
/// only use is the test gains nothing from a name of its own.
pub(super) fn tested_values<'m>(
    split: &Split<'m>,
    uses: Option<&Map<Value<'m>, usize>>,
) -> Set<Value<'m>> {
    let mut tested: Set<Value<'m>> = Set::default();
    let mut casts: Vec<(Value<'m>, Value<'m>)> = Vec::new();
    let local = |v: Option<Value<'m>>| v.filter(|v| v.is_local());
    for (instrs, term) in split {
        for &inst in instrs {
            match inst.opcode() {
                Some(Opcode::LLVMICmp) => {
                    tested.extend(local(inst.operand(0)));
                    tested.extend(local(inst.operand(1)));
                }
                Some(op) if is_cast(op) => {
                    if let Some(o) = inst.operand(0) {
                        casts.push((inst, o));
                    }
                }
                _ => {}
            }
        }
        if let Some(t) = term.filter(|t| t.opcode() == Some(Opcode::LLVMSwitch)) {
            tested.extend(local(t.operand(0)));
        }
    }
    // A tested cast tests what it casts, and a cast used twice makes what it casts worth a name
    // (a superset of the no-op casts is harmless: it only gives a few more values names).
    let Some(uses) = uses else {
        return closure(tested, &casts);
    };
    let used_again: Set<Value<'m>> = uses
        .iter()
        .filter(|&(_, &n)| n >= 2)
        .map(|(&v, _)| v)
        .collect();
    let used_again = closure(used_again, &casts);
    closure(tested, &casts)
        .intersection(&used_again)
        .copied()
        .collect()
}

/// `set` with the operands of every cast whose result is in it, repeatedly.
pub(super) fn closure<'m>(
    mut set: Set<Value<'m>>,
    casts: &[(Value<'m>, Value<'m>)],
) -> Set<Value<'m>> {
    loop {
        let before = set.len();
        for &(dest, operand) in casts {
            if set.contains(&dest) && operand.is_local() {
                set.insert(operand);
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

/// How many times each value of a function is used (by its instructions' operands); `None` when
/// the function has exception-handling pads, whose uses the lowering does not follow.
pub(super) fn use_counts<'m>(split: &Split<'m>) -> Option<Map<Value<'m>, usize>> {
    use Opcode as O;
    let mut uses: Map<Value<'m>, usize> = Map::default();
    for (instrs, term) in split {
        for &inst in instrs.iter().chain(term) {
            let op = inst.opcode()?;
            if matches!(
                op,
                O::LLVMLandingPad
                    | O::LLVMCatchPad
                    | O::LLVMCleanupPad
                    | O::LLVMCleanupRet
                    | O::LLVMCatchRet
                    | O::LLVMCatchSwitch
            ) {
                return None;
            }
            for i in 0..inst.operand_count() {
                if let Some(v) = inst.operand(i).filter(|v| v.is_local()) {
                    *uses.entry(v).or_default() += 1;
                }
            }
        }
    }
    Some(uses)
}

/// The `icmp`s of a function used exactly once, by the conditional branch that ends their own
/// block (none when the uses are not known).
pub(super) fn virtual_compares<'m>(
    split: &Split<'m>,
    uses: Option<&Map<Value<'m>, usize>>,
) -> Set<Value<'m>> {
    let Some(uses) = uses else {
        return Set::default();
    };
    let mut out = Set::default();
    for (instrs, term) in split {
        let Some(condition) = term.and_then(Value::condition) else {
            continue;
        };
        let defined_here =
            condition.opcode() == Some(Opcode::LLVMICmp) && instrs.contains(&condition);
        if defined_here && uses.get(&condition) == Some(&1) {
            out.insert(condition);
        }
    }
    out
}

/// Whether a GEP index is the constant 0.
pub(super) fn is_zero(v: Value<'_>) -> bool {
    v.kind() == ValueKind::LLVMConstantIntValueKind && v.const_int() == Some(0)
}
