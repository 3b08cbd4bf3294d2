//! The one place that calls LLVM's C API (through `llvm-sys`): safe wrappers over an LLVM
//! module that LLVM itself parsed, read in place — no copy of the module is built on the Rust
//! side.
//!
//! **Soundness.** Every handle ([`Value`], [`Block`], [`Ty`]) borrows the [`LlvmModule`] that
//! owns the context and the module, so no handle outlives them, and `LlvmModule` is neither
//! `Send` nor `Sync` (it holds raw pointers), so LLVM's context is only ever used from one thread.
//! LLVM's C API is a thin layer over `cast<>`s that are unchecked in release builds of LLVM: a
//! getter called on the wrong kind of value is undefined behavior. So every getter below first
//! checks the value's kind (`LLVMGetValueKind`, or the instruction's opcode) and only then
//! calls the kind-specific function, and every index is checked against the count LLVM reports.
//! Null pointers LLVM returns for "none" become `None`. The walker only reads; nothing here
//! mutates the module, except that [`Value::element`] may create a uniqued constant in the
//! context (LLVM's `getAggregateElement`), which is what that call is for.
//!
//! This is the workspace's one module allowed `unsafe` code (the workspace denies it elsewhere).

#![allow(unsafe_code)]

use std::borrow::Cow;
use std::ffi::{CStr, CString};
use std::marker::PhantomData;
use std::path::Path;

use llvm_sys::LLVMValueKind as K;
use llvm_sys::core as c;
use llvm_sys::prelude::{
    LLVMBasicBlockRef, LLVMContextRef, LLVMMemoryBufferRef, LLVMModuleRef, LLVMTypeRef,
    LLVMValueRef,
};
pub use llvm_sys::{
    LLVMIntPredicate as IntPredicate, LLVMLinkage as Linkage, LLVMOpcode as Opcode,
};

/// A parsed LLVM module with its own context; both are disposed of when it is dropped.
#[derive(Debug)]
pub struct LlvmModule {
    context: LLVMContextRef,
    module: LLVMModuleRef,
}

impl Drop for LlvmModule {
    fn drop(&mut self) {
        // SAFETY: both were created by `parse` and are disposed of exactly once, the module
        // first (it belongs to the context). No handle outlives `self` (they borrow it).
        unsafe {
            c::LLVMDisposeModule(self.module);
            c::LLVMContextDispose(self.context);
        }
    }
}

/// Takes an LLVM-allocated message, copies it and frees it.
///
/// # Safety
/// `message` is null or a string LLVM allocated for the caller to dispose of.
unsafe fn take_message(message: *mut std::ffi::c_char) -> String {
    if message.is_null() {
        return String::new();
    }
    // SAFETY: non-null and NUL-terminated by LLVM; disposed of once, after the copy.
    unsafe {
        let text = CStr::from_ptr(message).to_string_lossy().into_owned();
        c::LLVMDisposeMessage(message);
        text
    }
}

impl LlvmModule {
    /// Parses `path`: bitcode when `bitcode`, textual IR otherwise. The error is LLVM's message
    /// (`file:line:col: error: …` for text).
    pub fn parse(path: &Path, bitcode: bool) -> Result<LlvmModule, String> {
        let cpath = CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(|_| "the path contains a NUL byte".to_owned())?;
        // SAFETY: plain C calls with valid arguments; every out-pointer is a local; the buffer
        // is owned by `LLVMParseIRInContext` (which takes it) or disposed of here (bitcode);
        // on failure the context is disposed of before returning.
        unsafe {
            let mut buffer: LLVMMemoryBufferRef = std::ptr::null_mut();
            let mut message = std::ptr::null_mut();
            if c::LLVMCreateMemoryBufferWithContentsOfFile(
                cpath.as_ptr(),
                &mut buffer,
                &mut message,
            ) != 0
            {
                return Err(take_message(message));
            }
            let context = c::LLVMContextCreate();
            let mut module: LLVMModuleRef = std::ptr::null_mut();
            let failed = if bitcode {
                let failed =
                    llvm_sys::bit_reader::LLVMParseBitcodeInContext2(context, buffer, &mut module);
                c::LLVMDisposeMemoryBuffer(buffer);
                message = std::ptr::null_mut();
                failed != 0
            } else {
                llvm_sys::ir_reader::LLVMParseIRInContext(
                    context,
                    buffer,
                    &mut module,
                    &mut message,
                ) != 0
            };
            if failed || module.is_null() {
                let text = take_message(message);
                if !module.is_null() {
                    c::LLVMDisposeModule(module);
                }
                c::LLVMContextDispose(context);
                return Err(if text.is_empty() {
                    "LLVM cannot read this bitcode".to_owned()
                } else {
                    text
                });
            }
            Ok(LlvmModule { context, module })
        }
    }

    /// Parses the textual IR `text`, named `name` in LLVM's messages (one piece of a module
    /// split by [`crate::split`]). The error is LLVM's message.
    pub fn parse_text(name: &str, text: &str) -> Result<LlvmModule, String> {
        let cname = CString::new(name).map_err(|_| "the name contains a NUL byte".to_owned())?;
        // SAFETY: LLVM copies `text` into a buffer of its own (adding the NUL its parser needs),
        // which `LLVMParseIRInContext` takes; on failure the context is disposed of before
        // returning.
        unsafe {
            let buffer = c::LLVMCreateMemoryBufferWithMemoryRangeCopy(
                text.as_ptr().cast(),
                text.len(),
                cname.as_ptr(),
            );
            let context = c::LLVMContextCreate();
            let mut module: LLVMModuleRef = std::ptr::null_mut();
            let mut message = std::ptr::null_mut();
            let failed = llvm_sys::ir_reader::LLVMParseIRInContext(
                context,
                buffer,
                &mut module,
                &mut message,
            ) != 0;
            if failed || module.is_null() {
                let text = take_message(message);
                if !module.is_null() {
                    c::LLVMDisposeModule(module);
                }
                c::LLVMContextDispose(context);
                return Err(text);
            }
            Ok(LlvmModule { context, module })
        }
    }

    /// The module's global variables, in order.
    pub fn globals(&self) -> impl Iterator<Item = Value<'_>> + '_ {
        // SAFETY: the module is alive for `'_`; the iteration follows LLVM's own list.
        let first = unsafe { c::LLVMGetFirstGlobal(self.module) };
        std::iter::successors(Value::new(first), |g| {
            // SAFETY: `g` is a global variable of this module.
            Value::new(unsafe { c::LLVMGetNextGlobal(g.raw) })
        })
    }

    /// The module's functions (definitions and declarations), in order.
    pub fn functions(&self) -> impl Iterator<Item = Value<'_>> + '_ {
        // SAFETY: the module is alive for `'_`; the iteration follows LLVM's own list.
        let first = unsafe { c::LLVMGetFirstFunction(self.module) };
        std::iter::successors(Value::new(first), |f| {
            // SAFETY: `f` is a function of this module.
            Value::new(unsafe { c::LLVMGetNextFunction(f.raw) })
        })
    }

    /// Whether the data layout is little-endian.
    pub fn little_endian(&self) -> bool {
        // SAFETY: the layout belongs to the module (not disposed of here).
        unsafe {
            let layout = llvm_sys::target::LLVMGetModuleDataLayout(self.module);
            llvm_sys::target::LLVMByteOrder(layout)
                == llvm_sys::target::LLVMByteOrdering::LLVMLittleEndian
        }
    }

    /// The module's data layout, for type sizes and field offsets.
    pub fn layout(&self) -> Layout<'_> {
        // SAFETY: the layout belongs to the module and lives as long as it (not disposed of).
        let raw = unsafe { llvm_sys::target::LLVMGetModuleDataLayout(self.module) };
        Layout {
            raw,
            module: PhantomData,
        }
    }

    /// Whether `function` passes LLVM's verifier (it may not, since the parser does not run it:
    /// a use its definition does not dominate, a φ that disagrees with the predecessors, …).
    pub fn verify(&self, function: Value<'_>) -> bool {
        if function.kind() != K::LLVMFunctionValueKind {
            return false;
        }
        // SAFETY: a function of this module; the return-status action only reports.
        unsafe {
            llvm_sys::analysis::LLVMVerifyFunction(
                function.raw,
                llvm_sys::analysis::LLVMVerifierFailureAction::LLVMReturnStatusAction,
            ) == 0
        }
    }

    /// The verifier's message for the whole module (empty when it passes).
    pub fn verifier_message(&self) -> String {
        let mut message = std::ptr::null_mut();
        // SAFETY: the module is alive; the message is LLVM's to hand over and ours to free.
        unsafe {
            llvm_sys::analysis::LLVMVerifyModule(
                self.module,
                llvm_sys::analysis::LLVMVerifierFailureAction::LLVMReturnStatusAction,
                &mut message,
            );
            take_message(message)
        }
    }
}

/// An LLVM value of a module (instruction, argument, constant, global, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Value<'m> {
    raw: LLVMValueRef,
    module: PhantomData<&'m LlvmModule>,
}

/// A basic block of a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Block<'m> {
    raw: LLVMBasicBlockRef,
    module: PhantomData<&'m LlvmModule>,
}

/// An LLVM type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ty<'m> {
    raw: LLVMTypeRef,
    module: PhantomData<&'m LlvmModule>,
}

/// The shape of a type, as far as the lowering cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TyKind {
    /// An integer of this many bits.
    Int(u32),
    /// A pointer.
    Ptr,
    /// An array of this many elements.
    Array(u64),
    /// A struct with a body (`false` for an opaque one).
    Struct(bool),
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `void`.
    Void,
    /// Anything else (vectors, other floats, labels, tokens, metadata, …).
    Other,
}

/// The LLVM value kinds, re-exported for matching.
pub use llvm_sys::LLVMValueKind as ValueKind;

impl<'m> Value<'m> {
    fn new(raw: LLVMValueRef) -> Option<Value<'m>> {
        (!raw.is_null()).then_some(Value {
            raw,
            module: PhantomData,
        })
    }

    /// The kind of value.
    pub fn kind(self) -> ValueKind {
        // SAFETY: any value has a kind.
        unsafe { c::LLVMGetValueKind(self.raw) }
    }

    /// Whether it is an instruction.
    pub fn is_instruction(self) -> bool {
        self.kind() == K::LLVMInstructionValueKind
    }

    /// Whether it is an instruction or an argument: a value local to a function.
    pub fn is_local(self) -> bool {
        matches!(
            self.kind(),
            K::LLVMInstructionValueKind | K::LLVMArgumentValueKind
        )
    }

    /// Whether it is a global (function, variable, alias, ifunc).
    pub fn is_global(self) -> bool {
        matches!(
            self.kind(),
            K::LLVMFunctionValueKind
                | K::LLVMGlobalVariableValueKind
                | K::LLVMGlobalAliasValueKind
                | K::LLVMGlobalIFuncValueKind
        )
    }

    /// Its name (empty for an unnamed value).
    pub fn name(self) -> Cow<'m, str> {
        let mut len = 0usize;
        // SAFETY: the name lives as long as the value (no renaming happens here); `len` bytes.
        unsafe {
            let ptr = c::LLVMGetValueName2(self.raw, &mut len);
            if ptr.is_null() || len == 0 {
                return Cow::Borrowed("");
            }
            let bytes = std::slice::from_raw_parts(ptr.cast::<u8>(), len);
            String::from_utf8_lossy(bytes)
        }
    }

    /// Its type.
    pub fn ty(self) -> Ty<'m> {
        Ty {
            // SAFETY: any value has a type.
            raw: unsafe { c::LLVMTypeOf(self.raw) },
            module: PhantomData,
        }
    }

    /// How many operands it has (0 for values that are not users).
    pub fn operand_count(self) -> usize {
        // SAFETY: `LLVMGetNumOperands` needs a `User` (or metadata): check the kind first.
        match self.kind() {
            K::LLVMArgumentValueKind
            | K::LLVMBasicBlockValueKind
            | K::LLVMMetadataAsValueValueKind
            | K::LLVMInlineAsmValueKind => 0,
            _ => usize::try_from(unsafe { c::LLVMGetNumOperands(self.raw) }).unwrap_or(0),
        }
    }

    /// Operand `i`, if there is one.
    pub fn operand(self, i: usize) -> Option<Value<'m>> {
        if i >= self.operand_count() {
            return None;
        }
        let i = u32::try_from(i).ok()?;
        // SAFETY: a user, and `i` is below its operand count.
        Value::new(unsafe { c::LLVMGetOperand(self.raw, i) })
    }

    /// The opcode of an instruction.
    pub fn opcode(self) -> Option<Opcode> {
        // SAFETY: only on instructions.
        self.is_instruction()
            .then(|| unsafe { c::LLVMGetInstructionOpcode(self.raw) })
    }

    /// The opcode of a constant expression.
    pub fn const_opcode(self) -> Option<Opcode> {
        // SAFETY: only on constant expressions.
        (self.kind() == K::LLVMConstantExprValueKind)
            .then(|| unsafe { c::LLVMGetConstOpcode(self.raw) })
    }

    /// The value of an integer constant of at most 64 bits, zero-extended.
    pub fn const_int(self) -> Option<u64> {
        if self.kind() != K::LLVMConstantIntValueKind {
            return None;
        }
        match self.ty().kind() {
            // SAFETY: a `ConstantInt` that fits in 64 bits.
            TyKind::Int(bits) if bits <= 64 => {
                Some(unsafe { c::LLVMConstIntGetZExtValue(self.raw) })
            }
            _ => None,
        }
    }

    /// The value of a `float` or `double` constant.
    pub fn const_real(self) -> Option<f64> {
        if self.kind() != K::LLVMConstantFPValueKind
            || !matches!(self.ty().kind(), TyKind::Float | TyKind::Double)
        {
            return None;
        }
        let mut loses = 0;
        // SAFETY: a `ConstantFP` of type float or double (converting either to double is exact).
        Some(unsafe { c::LLVMConstRealGetDouble(self.raw, &mut loses) })
    }

    /// The predicate of an `icmp` instruction or constant expression.
    pub fn icmp_predicate(self) -> Option<IntPredicate> {
        let icmp = self.opcode() == Some(Opcode::LLVMICmp)
            || self.const_opcode() == Some(Opcode::LLVMICmp);
        // SAFETY: an `ICmpInst` or an icmp `ConstantExpr`, the two LLVMGetICmpPredicate reads.
        icmp.then(|| unsafe { c::LLVMGetICmpPredicate(self.raw) })
    }

    /// The predicate of an `fcmp` instruction or constant expression, as its 4-bit code: one
    /// bit per outcome it holds for (1 equal, 2 greater, 4 less, 8 unordered), so `oge` is 3
    /// and `une` is 14.
    pub fn fcmp_predicate(self) -> Option<u32> {
        let fcmp = self.opcode() == Some(Opcode::LLVMFCmp)
            || self.const_opcode() == Some(Opcode::LLVMFCmp);
        // SAFETY: an `FCmpInst` or an fcmp `ConstantExpr`, the two LLVMGetFCmpPredicate reads.
        fcmp.then(|| unsafe { c::LLVMGetFCmpPredicate(self.raw) } as u32)
    }

    /// The incoming values and blocks of a φ.
    pub fn incoming(self) -> Vec<(Value<'m>, Block<'m>)> {
        if self.opcode() != Some(Opcode::LLVMPHI) {
            return Vec::new();
        }
        // SAFETY: a `PHINode`; indices below its incoming count.
        unsafe {
            let n = c::LLVMCountIncoming(self.raw);
            (0..n)
                .filter_map(|i| {
                    let v = Value::new(c::LLVMGetIncomingValue(self.raw, i))?;
                    let b = Block::new(c::LLVMGetIncomingBlock(self.raw, i))?;
                    Some((v, b))
                })
                .collect()
        }
    }

    fn is_call_like(self) -> bool {
        matches!(
            self.opcode(),
            Some(Opcode::LLVMCall | Opcode::LLVMInvoke | Opcode::LLVMCallBr)
        )
    }

    /// The called operand of a `call`, `invoke` or `callbr`.
    pub fn callee(self) -> Option<Value<'m>> {
        // SAFETY: a `CallBase`.
        self.is_call_like()
            .then(|| Value::new(unsafe { c::LLVMGetCalledValue(self.raw) }))
            .flatten()
    }

    /// The arguments of a `call`, `invoke` or `callbr` (not its bundle operands).
    pub fn arguments(self) -> Vec<Value<'m>> {
        if !self.is_call_like() {
            return Vec::new();
        }
        // SAFETY: a `CallBase`; arguments are its first operands.
        let n = unsafe { c::LLVMGetNumArgOperands(self.raw) } as usize;
        (0..n).filter_map(|i| self.operand(i)).collect()
    }

    /// Whether a `load` is volatile (false for other values).
    pub fn volatile(self) -> bool {
        // SAFETY: only on loads, which LLVMGetVolatile reads.
        self.opcode() == Some(Opcode::LLVMLoad) && unsafe { c::LLVMGetVolatile(self.raw) != 0 }
    }

    /// The successors of a terminator, in LLVM's order (for `br i1`, the true target first; for
    /// `switch`, the default first; for `callbr`, the default first).
    pub fn successors(self) -> Vec<Block<'m>> {
        let terminator = self.is_instruction()
            // SAFETY: an instruction.
            && unsafe { !c::LLVMIsATerminatorInst(self.raw).is_null() };
        if !terminator {
            return Vec::new();
        }
        // SAFETY: a terminator; indices below its successor count.
        unsafe {
            let n = c::LLVMGetNumSuccessors(self.raw);
            (0..n)
                .filter_map(|i| Block::new(c::LLVMGetSuccessor(self.raw, i)))
                .collect()
        }
    }

    /// The condition of a conditional `br`.
    pub fn condition(self) -> Option<Value<'m>> {
        if self.opcode() != Some(Opcode::LLVMBr) {
            return None;
        }
        // SAFETY: a `BranchInst`; the condition exists only when it is conditional.
        unsafe {
            (c::LLVMIsConditional(self.raw) != 0)
                .then(|| Value::new(c::LLVMGetCondition(self.raw)))
                .flatten()
        }
    }

    /// The case values of a `switch`, in order (its successors after the default are their
    /// targets).
    pub fn switch_cases(self) -> Vec<Value<'m>> {
        if self.opcode() != Some(Opcode::LLVMSwitch) {
            return Vec::new();
        }
        // Operands: the condition, the default, then (value, target) pairs.
        let n = self.operand_count();
        (2..n).step_by(2).filter_map(|i| self.operand(i)).collect()
    }

    /// The basic blocks of a function, in order.
    pub fn blocks(self) -> Vec<Block<'m>> {
        if self.kind() != K::LLVMFunctionValueKind {
            return Vec::new();
        }
        // SAFETY: a function; the iteration follows its own list.
        let first = unsafe { c::LLVMGetFirstBasicBlock(self.raw) };
        std::iter::successors(Block::new(first), |b| {
            // SAFETY: a block of this function.
            Block::new(unsafe { c::LLVMGetNextBasicBlock(b.raw) })
        })
        .collect()
    }

    /// Whether a function has a body.
    pub fn is_definition(self) -> bool {
        // SAFETY: a function.
        self.kind() == K::LLVMFunctionValueKind && unsafe { c::LLVMIsDeclaration(self.raw) == 0 }
    }

    /// The parameters of a function.
    pub fn params(self) -> Vec<Value<'m>> {
        if self.kind() != K::LLVMFunctionValueKind {
            return Vec::new();
        }
        // SAFETY: a function; indices below its parameter count.
        unsafe {
            let n = c::LLVMCountParams(self.raw);
            (0..n)
                .filter_map(|i| Value::new(c::LLVMGetParam(self.raw, i)))
                .collect()
        }
    }

    /// The linkage of a global (function, variable, alias or ifunc).
    pub fn linkage(self) -> Option<Linkage> {
        // SAFETY: a `GlobalValue`.
        self.is_global()
            .then(|| unsafe { c::LLVMGetLinkage(self.raw) })
    }

    /// The type a `getelementptr` (instruction or constant expression) indexes into.
    pub fn gep_source_type(self) -> Option<Ty<'m>> {
        let is_gep = self.opcode() == Some(Opcode::LLVMGetElementPtr)
            || self.const_opcode() == Some(Opcode::LLVMGetElementPtr);
        if !is_gep {
            return None;
        }
        // SAFETY: a `GEPOperator` (instruction or constant expression).
        let raw = unsafe { c::LLVMGetGEPSourceElementType(self.raw) };
        (!raw.is_null()).then_some(Ty {
            raw,
            module: PhantomData,
        })
    }

    /// The type an `alloca` allocates (its element count is operand 0).
    pub fn allocated_type(self) -> Option<Ty<'m>> {
        if self.opcode() != Some(Opcode::LLVMAlloca) {
            return None;
        }
        // SAFETY: an `alloca` instruction.
        let raw = unsafe { c::LLVMGetAllocatedType(self.raw) };
        (!raw.is_null()).then_some(Ty {
            raw,
            module: PhantomData,
        })
    }

    /// The initializer, constancy and linkage of a global variable.
    pub fn global_variable(self) -> Option<(Option<Value<'m>>, bool, Linkage)> {
        if self.kind() != K::LLVMGlobalVariableValueKind {
            return None;
        }
        // SAFETY: a global variable (a `GlobalValue` for the linkage).
        unsafe {
            Some((
                Value::new(c::LLVMGetInitializer(self.raw)),
                c::LLVMIsGlobalConstant(self.raw) != 0,
                c::LLVMGetLinkage(self.raw),
            ))
        }
    }

    /// Element `i` of an array or struct constant (`None` for a zero aggregate, which has no
    /// elements of its own, and for anything else).
    pub fn element(self, i: u64) -> Option<Value<'m>> {
        match self.kind() {
            K::LLVMConstantArrayValueKind | K::LLVMConstantStructValueKind => {
                self.operand(usize::try_from(i).ok()?)
            }
            K::LLVMConstantDataArrayValueKind => {
                let TyKind::Array(n) = self.ty().kind() else {
                    return None;
                };
                if i >= n {
                    return None;
                }
                let i = u32::try_from(i).ok()?;
                // SAFETY: a `ConstantDataSequential` and an index below its length.
                Value::new(unsafe { c::LLVMGetAggregateElement(self.raw, i) })
            }
            _ => None,
        }
    }

    /// The indices of an `extractvalue` or `insertvalue` instruction (empty for anything
    /// else).
    pub fn indices(self) -> Vec<u32> {
        if !matches!(
            self.opcode(),
            Some(Opcode::LLVMExtractValue | Opcode::LLVMInsertValue)
        ) {
            return Vec::new();
        }
        // SAFETY: an `extractvalue` or `insertvalue` instruction, whose index list is
        // `LLVMGetNumIndices` long and lives as long as the instruction.
        unsafe {
            let n = c::LLVMGetNumIndices(self.raw) as usize;
            let ptr = c::LLVMGetIndices(self.raw);
            if ptr.is_null() || n == 0 {
                return Vec::new();
            }
            std::slice::from_raw_parts(ptr, n).to_vec()
        }
    }

    /// The operands of the instruction's `!name` metadata node (`!range`, …): the constants
    /// it lists, in order; `None` when the instruction has no such node or an operand is not
    /// a value.
    pub fn metadata(self, name: &str) -> Option<Vec<Value<'m>>> {
        if !self.is_instruction() {
            return None;
        }
        let kind = metadata_kind(name)?;
        // SAFETY: an instruction; the node's operand array is as long as
        // `LLVMGetMDNodeNumOperands` says.
        unsafe {
            let node = c::LLVMGetMetadata(self.raw, kind);
            if node.is_null() {
                return None;
            }
            let n = c::LLVMGetMDNodeNumOperands(node) as usize;
            let mut operands = vec![std::ptr::null_mut(); n];
            c::LLVMGetMDNodeOperands(node, operands.as_mut_ptr());
            operands.into_iter().map(Value::new).collect()
        }
    }

    /// The value as LLVM prints it.
    pub fn print(self) -> String {
        // SAFETY: any value prints; the string is ours to free.
        let text = unsafe { take_message(c::LLVMPrintValueToString(self.raw)) };
        text.trim().to_owned()
    }
}

/// The number of the metadata kind `name`. The fixed kinds (`range`, `nonnull`, …) have the
/// same number in every context, so the ones most asked for are looked up once.
fn metadata_kind(name: &str) -> Option<u32> {
    static RANGE: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    static NONNULL: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    let look_up = || {
        let len = u32::try_from(name.len()).ok()?;
        // SAFETY: a name of `len` bytes; the global context interns it.
        Some(unsafe { c::LLVMGetMDKindID(name.as_ptr().cast(), len) })
    };
    let cached = match name {
        "range" => &RANGE,
        "nonnull" => &NONNULL,
        _ => return look_up(),
    };
    Some(*cached.get_or_init(|| look_up().unwrap_or(u32::MAX)))
}

impl<'m> Block<'m> {
    fn new(raw: LLVMBasicBlockRef) -> Option<Block<'m>> {
        (!raw.is_null()).then_some(Block {
            raw,
            module: PhantomData,
        })
    }

    /// The block's label (empty when unnamed).
    pub fn name(self) -> Cow<'m, str> {
        // SAFETY: a block is a value.
        Value::new(unsafe { c::LLVMBasicBlockAsValue(self.raw) })
            .map_or(Cow::Borrowed(""), Value::name)
    }

    /// The block as a value (for maps keyed by values).
    pub fn as_value(self) -> Option<Value<'m>> {
        // SAFETY: a block is a value.
        Value::new(unsafe { c::LLVMBasicBlockAsValue(self.raw) })
    }

    /// Its instructions, the terminator last.
    pub fn instructions(self) -> impl Iterator<Item = Value<'m>> {
        // SAFETY: a block; the iteration follows its own list.
        let first = unsafe { c::LLVMGetFirstInstruction(self.raw) };
        std::iter::successors(Value::new(first), |i| {
            // SAFETY: an instruction of this block.
            Value::new(unsafe { c::LLVMGetNextInstruction(i.raw) })
        })
    }

    /// Its terminator (`None` for a malformed block).
    pub fn terminator(self) -> Option<Value<'m>> {
        // SAFETY: a block.
        Value::new(unsafe { c::LLVMGetBasicBlockTerminator(self.raw) })
    }
}

impl<'m> Ty<'m> {
    /// The shape of the type.
    pub fn kind(self) -> TyKind {
        use llvm_sys::LLVMTypeKind as T;
        // SAFETY: each getter is called only on the kind of type it reads.
        unsafe {
            match c::LLVMGetTypeKind(self.raw) {
                T::LLVMIntegerTypeKind => TyKind::Int(c::LLVMGetIntTypeWidth(self.raw)),
                T::LLVMPointerTypeKind => TyKind::Ptr,
                T::LLVMArrayTypeKind => TyKind::Array(u64::from(c::LLVMGetArrayLength(self.raw))),
                T::LLVMStructTypeKind => TyKind::Struct(c::LLVMIsOpaqueStruct(self.raw) == 0),
                T::LLVMFloatTypeKind => TyKind::Float,
                T::LLVMDoubleTypeKind => TyKind::Double,
                T::LLVMVoidTypeKind => TyKind::Void,
                _ => TyKind::Other,
            }
        }
    }

    /// The element type of an array, or field `i` of a struct with a body.
    pub fn element(self, i: u64) -> Option<Ty<'m>> {
        let raw = match self.kind() {
            // SAFETY: an array type.
            TyKind::Array(_) => unsafe { c::LLVMGetElementType(self.raw) },
            TyKind::Struct(true) => {
                // SAFETY: a struct with a body; `i` below its field count.
                let n = unsafe { c::LLVMCountStructElementTypes(self.raw) };
                let i = u32::try_from(i).ok().filter(|&i| i < n)?;
                unsafe { c::LLVMStructGetTypeAtIndex(self.raw, i) }
            }
            _ => return None,
        };
        (!raw.is_null()).then_some(Ty {
            raw,
            module: PhantomData,
        })
    }
}

/// A module's data layout: the sizes and field offsets `getelementptr` steps by.
#[derive(Clone, Copy, Debug)]
pub struct Layout<'m> {
    raw: llvm_sys::target::LLVMTargetDataRef,
    module: PhantomData<&'m LlvmModule>,
}

impl<'m> Layout<'m> {
    /// The bytes one element of `ty` occupies in an array (LLVM's alloc size); `None` for an
    /// unsized type.
    pub fn alloc_size(self, ty: Ty<'m>) -> Option<u64> {
        // SAFETY: a type of this module's context, and a layout of this module; sizes are only
        // asked of sized types.
        unsafe {
            if c::LLVMTypeIsSized(ty.raw) == 0 {
                return None;
            }
            Some(llvm_sys::target::LLVMABISizeOfType(self.raw, ty.raw))
        }
    }

    /// The byte offset of field `i` of a struct type with a body.
    pub fn field_offset(self, ty: Ty<'m>, i: u64) -> Option<u64> {
        if ty.kind() != TyKind::Struct(true) {
            return None;
        }
        // SAFETY: a struct with a body and an index below its field count.
        unsafe {
            let n = c::LLVMCountStructElementTypes(ty.raw);
            let i = u32::try_from(i).ok().filter(|&i| i < n)?;
            Some(llvm_sys::target::LLVMOffsetOfElement(self.raw, ty.raw, i))
        }
    }
}
