//! Floating-point values. A `float` or `double` is kept as the bit pattern of its double (a
//! `float` is exactly a double), and the core IR's `fadd` … `fptoui` compute on those bits
//! with IEEE semantics in the default rounding mode (round to nearest, ties to even), which is
//! what LLVM's own constant folder does outside constrained intrinsics. Single-precision
//! arithmetic and `sqrt` are done in double precision and rounded once (`fptrunc 32`), which
//! gives the single-precision result.
//!
//! The lowering also folds constant expression trees itself (a literal, or an instruction or
//! constant expression whose operands are all known): the operands of constants, `fcmp` and
//! conversions it can decide without the analysis. `fptosi`/`fptoui` are poison when the value
//! is NaN or out of range. A float's bits (`bitcast` to an integer) are known only when the
//! float is not NaN, whose payload compilers may choose differently; an integer's bits read as
//! a float are exact (`ffrombits 32` for `float`, nothing for `double`).

#[allow(clippy::wildcard_imports)]
use super::*;

/// A known floating-point value, at its type's precision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Float {
    /// A `float`.
    F32(f32),
    /// A `double`.
    F64(f64),
}

impl Float {
    fn wide(self) -> f64 {
        match self {
            Float::F32(x) => f64::from(x),
            Float::F64(x) => x,
        }
    }

    /// The bit pattern of the double this value is (exactly): how the core IR keeps it.
    pub(super) fn double_bits(self) -> i64 {
        self.wide().to_bits() as i64
    }

    fn is_nan(self) -> bool {
        self.wide().is_nan()
    }

    /// `f` applied at the precision of `self` (both operands have one type in LLVM IR).
    fn binary(
        self,
        other: Float,
        f32op: fn(f32, f32) -> f32,
        f64op: fn(f64, f64) -> f64,
    ) -> Option<Float> {
        match (self, other) {
            (Float::F32(a), Float::F32(b)) => Some(Float::F32(f32op(a, b))),
            (Float::F64(a), Float::F64(b)) => Some(Float::F64(f64op(a, b))),
            _ => None,
        }
    }
}

/// The value of `v` when it is a known `float` or `double` (see the module documentation).
pub(super) fn float_value(v: Value<'_>, depth: u32) -> Option<Float> {
    if depth > 32 {
        return None;
    }
    if let Some(x) = v.const_real() {
        return match v.ty().kind() {
            // The double came from a float exactly, so the conversion back is exact too.
            TyKind::Float => Some(Float::F32(x as f32)),
            TyKind::Double => Some(Float::F64(x)),
            _ => None,
        };
    }
    let opcode = v.opcode().or_else(|| v.const_opcode())?;
    let operand = |i: usize| v.operand(i).and_then(|o| float_value(o, depth + 1));
    use Opcode as O;
    match opcode {
        O::LLVMFAdd => operand(0)?.binary(operand(1)?, |a, b| a + b, |a, b| a + b),
        O::LLVMFSub => operand(0)?.binary(operand(1)?, |a, b| a - b, |a, b| a - b),
        O::LLVMFMul => operand(0)?.binary(operand(1)?, |a, b| a * b, |a, b| a * b),
        O::LLVMFDiv => operand(0)?.binary(operand(1)?, |a, b| a / b, |a, b| a / b),
        // `frem` is C's `fmod`, which Rust's `%` on floats is.
        O::LLVMFRem => operand(0)?.binary(operand(1)?, |a, b| a % b, |a, b| a % b),
        O::LLVMFNeg => match operand(0)? {
            Float::F32(x) => Some(Float::F32(-x)),
            Float::F64(x) => Some(Float::F64(-x)),
        },
        O::LLVMFPExt => match (operand(0)?, v.ty().kind()) {
            (Float::F32(x), TyKind::Double) => Some(Float::F64(f64::from(x))),
            _ => None,
        },
        O::LLVMFPTrunc => match (operand(0)?, v.ty().kind()) {
            (Float::F64(x), TyKind::Float) => Some(Float::F32(x as f32)),
            _ => None,
        },
        // An integer constant's bits read as a float, exactly.
        O::LLVMBitCast => {
            let raw = v.operand(0)?.const_int()?;
            match (v.operand(0)?.ty().kind(), v.ty().kind()) {
                (TyKind::Int(32), TyKind::Float) => Some(Float::F32(f32::from_bits(raw as u32))),
                (TyKind::Int(64), TyKind::Double) => Some(Float::F64(f64::from_bits(raw))),
                _ => None,
            }
        }
        O::LLVMSIToFP | O::LLVMUIToFP => {
            let source = v.operand(0)?;
            let TyKind::Int(bits) = source.ty().kind() else {
                return None;
            };
            let raw = source.const_int()?;
            let signed = opcode == O::LLVMSIToFP;
            // The exact integer, then one rounding to the target type.
            let exact: i128 = if signed {
                i128::from(intrinsics::sign_extend(raw, bits))
            } else {
                i128::from(raw)
            };
            match v.ty().kind() {
                TyKind::Float => Some(Float::F32(exact as f32)),
                TyKind::Double => Some(Float::F64(exact as f64)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `fcmp` `v` when both operands are known: 0 or 1.
pub(super) fn fold_fcmp(v: Value<'_>) -> Option<i64> {
    let predicate = v.fcmp_predicate()?;
    let (a, b) = (
        float_value(v.operand(0)?, 0)?,
        float_value(v.operand(1)?, 0)?,
    );
    // The core IR's `fcmp` gives the outcome; the predicate is the mask of outcomes it accepts.
    let outcome = Op::FCmp.eval(a.double_bits(), b.double_bits())?;
    Some(i64::from(i64::from(predicate) & outcome != 0))
}

/// What `fptosi`/`fptoui` of a known value gives at `bits` bits: the integer (in the 64-bit
/// form), or `None` for poison (NaN, or out of range after truncation toward zero): the core
/// IR's own `fptosi`/`fptoui`.
pub(super) fn fp_to_int(x: Float, bits: u32, signed: bool) -> Option<i64> {
    if bits > 64 {
        return None;
    }
    let op = if signed { Op::FPToSI } else { Op::FPToUI };
    op.eval(x.double_bits(), i64::from(bits))
}

/// The bits of a known value that is not NaN, as the integer `bitcast` gives (in the 64-bit
/// form of its width).
pub(super) fn float_bits(x: Float) -> Option<i64> {
    if x.is_nan() {
        return None;
    }
    Some(match x {
        Float::F32(f) => i64::from(f.to_bits() as i32),
        Float::F64(f) => f.to_bits() as i64,
    })
}
