//! Constants: evaluating LLVM constant expressions to integers or to addresses (a global plus
//! a byte offset), and folding loads from constant globals and float-to-integer conversions of
//! constants at lowering time. Integers wider than 64 bits are never read: they are unknown.

#[allow(clippy::wildcard_imports)]
use super::*;
use std::sync::Arc;

/// An element of a constant aggregate: a constant, or a zero of its type (an element of a
/// `zeroinitializer`, which has no constants of its own).
#[derive(Clone, Copy)]
enum Element<'m> {
    Value(Value<'m>),
    Zero,
}

/// What a load from a constant global reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Folded {
    /// An integer (`null` is 0).
    Int(i64),
    /// The address of the named global plus a byte offset.
    Address(String, i64),
}

/// The address a pointer constant holds, as the name of a global and a byte offset: a global
/// variable or function (not an alias, an ifunc, or an `extern_weak` global, which may be
/// null), a constant `getelementptr` of one with constant indices, and bit casts of those.
pub fn pointer_constant<'m>(c: Value<'m>, layout: Layout<'m>) -> Option<(String, i64)> {
    pointer_constant_at(c, layout, 0)
}

fn pointer_constant_at<'m>(c: Value<'m>, layout: Layout<'m>, depth: u32) -> Option<(String, i64)> {
    if depth > 16 {
        return None;
    }
    match c.kind() {
        ValueKind::LLVMFunctionValueKind | ValueKind::LLVMGlobalVariableValueKind => {
            if c.linkage()? == ffi::Linkage::LLVMExternalWeakLinkage {
                return None;
            }
            let name = c.name();
            (!name.is_empty()).then(|| (name.into_owned(), 0))
        }
        ValueKind::LLVMConstantExprValueKind => match c.const_opcode()? {
            Opcode::LLVMGetElementPtr => {
                let (global, base) = pointer_constant_at(c.operand(0)?, layout, depth + 1)?;
                Some((global, base.wrapping_add(gep_offset(c, layout)?)))
            }
            Opcode::LLVMBitCast => pointer_constant_at(c.operand(0)?, layout, depth + 1),
            Opcode::LLVMPtrToInt | Opcode::LLVMIntToPtr
                if constant_bits(c) == Some(64)
                    && c.operand(0).and_then(constant_bits) == Some(64) =>
            {
                pointer_constant_at(c.operand(0)?, layout, depth + 1)
            }
            _ => None,
        },
        _ => None,
    }
}

/// For a `getelementptr` instruction on a pointer constant with constant indices: the global
/// and the byte offset of its result.
pub(super) fn pointer_gep<'m>(gep: Value<'m>, layout: Layout<'m>) -> Option<(String, i64)> {
    let (global, base) = pointer_constant(gep.operand(0)?, layout)?;
    Some((global, base.wrapping_add(gep_offset(gep, layout)?)))
}

/// The byte offset a `getelementptr` with constant indices adds to its base (wrapping, as the
/// address arithmetic does without `inbounds`).
fn gep_offset<'m>(gep: Value<'m>, layout: Layout<'m>) -> Option<i64> {
    match gep_terms(gep, layout)? {
        (offset, None) => Some(offset),
        (_, Some(_)) => None,
    }
}

/// For a `getelementptr` instruction on a pointer constant whose indices are constants but one
/// (into an array, or the first): the global, the constant byte offset, the variable index and
/// the bytes one step of it moves.
pub(super) fn variable_gep<'m>(
    gep: Value<'m>,
    layout: Layout<'m>,
) -> Option<(String, i64, Value<'m>, i64)> {
    let (global, base) = pointer_constant(gep.operand(0)?, layout)?;
    match gep_terms(gep, layout)? {
        (offset, Some((index, stride))) => Some((global, base.wrapping_add(offset), index, stride)),
        (_, None) => None,
    }
}

/// A `getelementptr`'s constant byte offset and, if one index is not a constant, that index
/// with its stride; `None` when more than one is not, or a struct index is not.
fn gep_terms<'m>(gep: Value<'m>, layout: Layout<'m>) -> Option<(i64, Option<(Value<'m>, i64)>)> {
    let mut ty = gep.gep_source_type()?;
    let index = |i: usize| -> Option<i64> {
        let v = gep.operand(i)?;
        let bits = constant_bits(v)?;
        let raw = eval_raw(v, 0)?;
        // Indices are signed, whatever their width.
        let shift = 64 - bits;
        Some(((raw << shift) as i64) >> shift)
    };
    let size = |t| layout.alloc_size(t).and_then(|s| i64::try_from(s).ok());
    let mut variable = None;
    let step = |i: usize, stride: i64, variable: &mut Option<(Value<'m>, i64)>| match index(i) {
        Some(k) => Some(k.wrapping_mul(stride)),
        None if variable.is_none() => {
            *variable = Some((gep.operand(i)?, stride));
            Some(0)
        }
        None => None,
    };
    let mut offset = step(1, size(ty)?, &mut variable)?;
    for i in 2..gep.operand_count() {
        match ty.kind() {
            TyKind::Struct(true) => {
                let field = u64::try_from(index(i)?).ok()?;
                offset = offset.wrapping_add(i64::try_from(layout.field_offset(ty, field)?).ok()?);
                ty = ty.element(field)?;
            }
            TyKind::Array(_) => {
                ty = ty.element(0)?;
                offset = offset.wrapping_add(step(i, size(ty)?, &mut variable)?);
            }
            // Vectors and anything else: not modelled.
            _ => return None,
        }
    }
    Some((offset, variable))
}

impl<'m> FnLower<'_, 'm> {
    pub(super) fn constant(&mut self, c: Value<'m>) -> Operand {
        if let Kind::Float(_) = kind_of(c) {
            if let Some(x) = floats::float_value(c, 0) {
                return Operand::Int(x.double_bits());
            }
        }
        if let Some(v) = self.eval_constant(c) {
            return Operand::Int(v);
        }
        if let Some((global, offset)) = pointer_constant(c, self.layout) {
            return self.address_at(&global, offset);
        }
        match c.kind() {
            ValueKind::LLVMUndefValueValueKind | ValueKind::LLVMPoisonValueKind => self.undef(),
            // Aliases, ifuncs and weak globals: an address, not a known one.
            _ if c.is_global() && self.memory == Memory::Keep => self.address(&c.name()),
            _ => self.unknown(),
        }
    }

    /// The canonical value of an integer constant expression, if it has one.
    pub(super) fn eval_constant(&self, c: Value<'m>) -> Option<i64> {
        let bits = constant_bits(c)?;
        let raw = eval_raw(c, 0)?;
        canonical(bits, raw)
    }

    // ---- planning: how each value is lowered ----

    /// `fptosi`/`fptoui` of `op` to a `k` result: its value when `op` is a known float (see
    /// [`floats`]), poison (`undef`) when that is NaN or out of range, else `None` (a statement
    /// of its own).
    pub(super) fn fold_fp_to_int(
        &mut self,
        op: Option<Value<'m>>,
        k: Kind,
        signed: bool,
    ) -> Option<Slot<'m>> {
        let x = op.and_then(|v| floats::float_value(v, 0))?;
        Some(Slot::Value(
            match floats::fp_to_int(x, bits_of(k), signed) {
                Some(v) => Operand::Int(v),
                None => self.undef(),
            },
        ))
    }

    /// For a load of an integer or float through a `getelementptr` of a constant table of those
    /// at an index that is not a constant (`gep [N x iK], @t, 0, %i` or `gep iK, @t, %i`): the table's
    /// entries (at most [`MAX_TABLE`]) and the index, for a `table` statement whose value the
    /// analysis finds when it knows the index.
    pub(super) fn table_load(
        &mut self,
        load: Value<'m>,
        k: Kind,
    ) -> Option<(Arc<[i64]>, Value<'m>)> {
        if !matches!(k, Kind::Int(_) | Kind::Float(_)) {
            return None;
        }
        let gep = load.operand(0)?;
        if gep.opcode() != Some(Opcode::LLVMGetElementPtr) {
            return None;
        }
        let source = gep.gep_source_type()?;
        let index = match gep.operand_count() {
            2 if kind(source) == k => gep.operand(1)?,
            3 if matches!(source.kind(), TyKind::Array(_))
                && source.element(0).map(kind) == Some(k)
                && gep.operand(1).and_then(|i| eval_raw(i, 0)) == Some(0) =>
            {
                gep.operand(2)?
            }
            _ => return None,
        };
        if eval_raw(index, 0).is_some() {
            return None;
        }
        let global = gep.operand(0)?;
        if let Some(known) = self.tables.get(&global) {
            return known.clone().map(|t| (t, index));
        }
        let entries = table_entries(global, k);
        self.tables.insert(global, entries.clone());
        entries.map(|t| (t, index))
    }

    /// The value a load of type `k` from the constant address `address` reads, when the address
    /// is a constant global with a definitive initializer and a constant offset into it: an
    /// integer, or a pointer constant.
    pub(super) fn fold_load(&self, address: Value<'m>, k: Kind) -> Option<Folded> {
        let bits = match k {
            Kind::Int(bits) => bits,
            Kind::Ptr | Kind::Float(_) => 64,
            Kind::Other => return None,
        };
        let (global, path): (Value<'m>, Vec<u64>) = if address.is_global() {
            (address, Vec::new())
        } else if address.const_opcode() == Some(Opcode::LLVMGetElementPtr) {
            let base = address.operand(0).filter(|b| b.is_global())?;
            let mut indices = Vec::with_capacity(address.operand_count());
            for i in 1..address.operand_count() {
                indices.push(eval_raw(address.operand(i)?, 0)?);
            }
            // The first index steps over whole globals: only 0 stays inside this one.
            if indices.first().is_some_and(|&first| first != 0) {
                return None;
            }
            (base, indices.into_iter().skip(1).collect())
        } else {
            return None;
        };
        let (initializer, constant, linkage) = global.global_variable()?;
        if !constant || !definitive(linkage) {
            return None;
        }
        let initializer = initializer?;
        // A global's own type is `ptr`; what it holds has the initializer's type.
        let mut value = Element::Value(initializer);
        let mut ty = initializer.ty();
        for &index in &path {
            (value, ty) = element(value, ty, index)?;
        }
        // A load of the first scalar of an aggregate reads offset 0.
        for _ in 0..16 {
            if matches!(
                ty.kind(),
                TyKind::Int(_) | TyKind::Ptr | TyKind::Float | TyKind::Double
            ) {
                break;
            }
            (value, ty) = element(value, ty, 0)?;
        }
        if let Kind::Float(_) = k {
            // A float read as the same type: zero, or the constant's value.
            if kind(ty) != k {
                return None;
            }
            return match value {
                Element::Zero => Some(Folded::Int(0)),
                Element::Value(v) => {
                    floats::float_value(v, 0).map(|x| Folded::Int(x.double_bits()))
                }
            };
        }
        if ty.kind() == TyKind::Ptr || k == Kind::Ptr {
            // A pointer read as a pointer: null, or an address.
            if ty.kind() != TyKind::Ptr || k != Kind::Ptr {
                return None;
            }
            return match value {
                Element::Zero => Some(Folded::Int(0)),
                Element::Value(v) if v.kind() == ValueKind::LLVMConstantPointerNullValueKind => {
                    Some(Folded::Int(0))
                }
                Element::Value(v) => pointer_constant(v, self.layout)
                    .map(|(global, offset)| Folded::Address(global, offset)),
            };
        }
        let raw = match (ty.kind(), value) {
            (TyKind::Int(b), Element::Value(v)) if b <= 64 => (b, v.const_int()?),
            (TyKind::Int(b), Element::Zero) => (b, 0),
            _ => return None,
        };
        match raw {
            (b, value) if b == bits => canonical(bits, value),
            // A narrower load at the start of a wider integer (a union read through another
            // member): on a little-endian target it reads the low bytes.
            (b, value) if b > bits && bits % 8 == 0 && self.little_endian => {
                canonical(bits, value & (mask(bits) as u64))
            }
            _ => None,
        }
        .map(Folded::Int)
    }
}

/// The bit width of a constant, when it is a modelled integer or pointer.
fn constant_bits(c: Value<'_>) -> Option<u32> {
    match kind_of(c) {
        Kind::Int(bits) => Some(bits),
        Kind::Ptr => Some(64),
        Kind::Float(_) | Kind::Other => None,
    }
}

/// The bit pattern (zero-extended to 64 bits) of an integer constant expression.
pub(super) fn eval_raw(c: Value<'_>, depth: u32) -> Option<u64> {
    if depth > 32 {
        return None;
    }
    let bits = constant_bits(c)?;
    let m = mask(bits) as u64;
    let v = match c.kind() {
        ValueKind::LLVMConstantIntValueKind => c.const_int()?,
        ValueKind::LLVMConstantPointerNullValueKind => 0,
        ValueKind::LLVMConstantExprValueKind => eval_expr(c, bits, depth)?,
        _ => return None,
    };
    Some(v & m)
}

fn eval_expr(c: Value<'_>, bits: u32, depth: u32) -> Option<u64> {
    use Opcode as O;
    let raw = |i: usize| eval_raw(c.operand(i)?, depth + 1);
    let signed = |i: usize| {
        let x = c.operand(i)?;
        let b = constant_bits(x)?;
        let r = eval_raw(x, depth + 1)?;
        // Signed reading, whatever the width (i1 true is -1 here).
        let shift = 64 - b;
        Some(((r << shift) as i64) >> shift)
    };
    let shift = || raw(1).filter(|&k| k < u64::from(bits));
    Some(match c.const_opcode()? {
        O::LLVMAdd => raw(0)?.wrapping_add(raw(1)?),
        O::LLVMSub => raw(0)?.wrapping_sub(raw(1)?),
        O::LLVMMul => raw(0)?.wrapping_mul(raw(1)?),
        O::LLVMAnd => raw(0)? & raw(1)?,
        O::LLVMOr => raw(0)? | raw(1)?,
        O::LLVMXor => raw(0)? ^ raw(1)?,
        O::LLVMShl => raw(0)? << shift()?,
        O::LLVMLShr => raw(0)? >> shift()?,
        O::LLVMAShr => (signed(0)? >> shift()?) as u64,
        O::LLVMTrunc | O::LLVMZExt => raw(0)?,
        O::LLVMSExt => signed(0)? as u64,
        O::LLVMICmp => {
            use IntPredicate as P;
            let holds = match c.icmp_predicate()? {
                P::LLVMIntEQ => raw(0)? == raw(1)?,
                P::LLVMIntNE => raw(0)? != raw(1)?,
                P::LLVMIntULT => raw(0)? < raw(1)?,
                P::LLVMIntULE => raw(0)? <= raw(1)?,
                P::LLVMIntUGT => raw(0)? > raw(1)?,
                P::LLVMIntUGE => raw(0)? >= raw(1)?,
                P::LLVMIntSLT => signed(0)? < signed(1)?,
                P::LLVMIntSLE => signed(0)? <= signed(1)?,
                P::LLVMIntSGT => signed(0)? > signed(1)?,
                P::LLVMIntSGE => signed(0)? >= signed(1)?,
            };
            u64::from(holds)
        }
        O::LLVMSelect => {
            if raw(0)? & 1 == 1 {
                raw(1)?
            } else {
                raw(2)?
            }
        }
        _ => return None,
    })
}

/// Whether a global's initializer is the one every execution sees (LLVM's
/// `hasDefinitiveInitializer`: not replaceable at link time).
fn definitive(linkage: ffi::Linkage) -> bool {
    use ffi::Linkage as L;
    matches!(
        linkage,
        L::LLVMPrivateLinkage
            | L::LLVMInternalLinkage
            | L::LLVMExternalLinkage
            | L::LLVMAvailableExternallyLinkage
    )
}

/// The `index`-th element of an aggregate constant and its type.
fn element<'m>(value: Element<'m>, ty: Ty<'m>, index: u64) -> Option<(Element<'m>, Ty<'m>)> {
    let element_ty = match ty.kind() {
        TyKind::Array(n) if index < n => ty.element(index)?,
        TyKind::Struct(true) => ty.element(index)?,
        _ => return None,
    };
    let v = match value {
        Element::Zero => zero_of(element_ty)?,
        Element::Value(v) if v.kind() == ValueKind::LLVMConstantAggregateZeroValueKind => {
            zero_of(element_ty)?
        }
        Element::Value(v) => Element::Value(v.element(index)?),
    };
    Some((v, element_ty))
}

fn zero_of(ty: Ty<'_>) -> Option<Element<'_>> {
    match ty.kind() {
        TyKind::Int(_)
        | TyKind::Ptr
        | TyKind::Float
        | TyKind::Double
        | TyKind::Array(_)
        | TyKind::Struct(_) => Some(Element::Zero),
        _ => None,
    }
}

/// The most entries a constant table read at a variable index is lowered with (its abstract
/// value is a join over the entries the index may select).
pub(super) const MAX_TABLE: u64 = 4096;

/// The entries of a constant global that is an array of values of kind `k` (integers or
/// floats) with a definitive initializer, in the core IR's form.
fn table_entries(global: Value<'_>, k: Kind) -> Option<Arc<[i64]>> {
    let (initializer, constant, linkage) = global.global_variable()?;
    if !constant || !definitive(linkage) {
        return None;
    }
    let initializer = initializer?;
    let ty = initializer.ty();
    let TyKind::Array(n) = ty.kind() else {
        return None;
    };
    if n > MAX_TABLE || ty.element(0).map(kind) != Some(k) {
        return None;
    }
    (0..n)
        .map(
            |i| match (element(Element::Value(initializer), ty, i)?, k) {
                // Zero is +0.0 too.
                ((Element::Zero, _), _) => Some(0),
                ((Element::Value(v), _), Kind::Float(_)) => {
                    floats::float_value(v, 0).map(floats::Float::double_bits)
                }
                ((Element::Value(v), _), _) => canonical(bits_of(k), v.const_int()?),
            },
        )
        .collect()
}
