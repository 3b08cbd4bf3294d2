//! Constants: evaluating LLVM constant expressions to integers, and folding loads from
//! constant globals and float-to-integer conversions of constants at lowering time.

#[allow(clippy::wildcard_imports)]
use super::*;

impl FnLower<'_> {
    pub(super) fn constant(&mut self, c: &ConstantRef) -> Operand {
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
    pub(super) fn constant_bits(&self, c: &ConstantRef) -> Option<u32> {
        match kind(&self.module.type_of(c)) {
            Kind::Int(bits) => Some(bits),
            Kind::Ptr => Some(64),
            Kind::Other => None,
        }
    }

    /// The canonical value of an integer constant expression, if it has one.
    pub(super) fn eval_constant(&self, c: &ConstantRef) -> Option<i64> {
        let bits = self.constant_bits(c)?;
        let raw = self.eval_raw(c, 0)?;
        canonical(bits, raw)
    }

    /// The bit pattern (zero-extended to 64 bits) of an integer constant expression.
    pub(super) fn eval_raw(&self, c: &ConstantRef, depth: u32) -> Option<u64> {
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

    pub(super) fn fold_fp_to_int(
        &mut self,
        op: &llvm_ir::Operand,
        k: Kind,
        signed: bool,
    ) -> Option<Slot> {
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
    pub(super) fn fold_load(&self, address: &llvm_ir::Operand, k: Kind) -> Option<i64> {
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

    pub(super) fn little_endian(&self) -> bool {
        matches!(
            self.module.data_layout.endianness,
            llvm_ir::module::Endianness::LittleEndian
        )
    }

    // ---- lowering instructions ----
}

/// Whether a GEP index is the constant 0.
pub(super) fn is_zero(op: &llvm_ir::Operand) -> bool {
    match op {
        llvm_ir::Operand::ConstantOperand(c) => {
            matches!(c.as_ref(), Constant::Int { value: 0, .. })
        }
        _ => false,
    }
}

/// Whether a global's initializer is the one every execution sees (LLVM's
/// `hasDefinitiveInitializer`: not replaceable at link time).
pub(super) fn definitive(linkage: llvm_ir::module::Linkage) -> bool {
    use llvm_ir::module::Linkage as L;
    matches!(
        linkage,
        L::Private | L::Internal | L::External | L::AvailableExternally
    )
}

/// The `index`-th element of an aggregate constant and its type.
pub(super) fn element(
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

pub(super) fn zero_of(ty: &TypeRef) -> Option<ConstantRef> {
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
