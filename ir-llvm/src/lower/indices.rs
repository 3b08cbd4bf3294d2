//! The `getelementptr` indices that are not constants ([`GepIndex`]), each with the length it
//! steps through when one is known — an array type's `N`, or the element count of the
//! variable-length `alloca` a pointer index steps through. A pointer index into anything else (a
//! pointer from a parameter, a load or a call) is recorded with [`IndexBound::Unknown`]: nothing
//! says how far it may go.

#[allow(clippy::wildcard_imports)]
use super::*;

impl<'m> FnLower<'_, 'm> {
    /// Records the indices of the `getelementptr` `gep` that are not constants, at the current
    /// point of the block being lowered.
    pub(super) fn record_gep(&mut self, gep: Value<'m>) {
        let Some(mut ty) = gep.gep_source_type() else {
            return;
        };
        let variable = |i: usize| gep.operand(i).filter(|v| v.is_local());
        // The first index steps through the pointer: bounded when the pointer is a
        // variable-length allocation of this element type.
        if let Some(index) = variable(1) {
            let bound = self
                .allocation_count(gep.operand(0), ty)
                .unwrap_or(IndexBound::Unknown);
            self.push_index(index, bound);
        }
        for i in 2..gep.operand_count() {
            match ty.kind() {
                TyKind::Array(n) => {
                    if let Some(index) = variable(i) {
                        self.push_index(index, IndexBound::Length(n));
                    }
                    match ty.element(0) {
                        Some(element) => ty = element,
                        None => return,
                    }
                }
                TyKind::Struct(true) => {
                    let field = gep.operand(i).and_then(Value::const_int);
                    match field.and_then(|f| ty.element(f)) {
                        Some(element) => ty = element,
                        None => return,
                    }
                }
                // Vectors and anything else: no index recorded past them.
                _ => return,
            }
        }
    }

    fn push_index(&mut self, index: Value<'m>, bound: IndexBound) {
        let index = self.operand(index);
        self.indices.push(GepIndex {
            block: self.block,
            stmt: self.stmts.len(),
            index,
            bound,
        });
    }

    /// The element count of the allocation `base` points to, when `base` is (through no-op
    /// casts) an `alloca` of elements of type `element` whose count is not a constant: the
    /// count before a `zext` or `sext` (see [`IndexBound::Count`]).
    fn allocation_count(&mut self, base: Option<Value<'m>>, element: Ty<'m>) -> Option<IndexBound> {
        let mut base = base?;
        for _ in 0..64 {
            match base.opcode() {
                Some(Opcode::LLVMBitCast | Opcode::LLVMAddrSpaceCast) => base = base.operand(0)?,
                _ => break,
            }
        }
        if base.allocated_type()? != element {
            return None;
        }
        let mut count = base.operand(0)?;
        if !count.is_local() {
            // A constant count: `alloca T, i64 4` is `[4 x T]`.
            let n = count.const_int()?;
            return Some(IndexBound::Length(n));
        }
        if matches!(count.opcode(), Some(Opcode::LLVMZExt | Opcode::LLVMSExt))
            && count
                .operand(0)
                .is_some_and(|c| c.is_local() && matches!(kind_of(c), Kind::Int(b) if b > 1))
        {
            count = count.operand(0)?;
        }
        Some(IndexBound::Count(self.operand(count)))
    }
}
