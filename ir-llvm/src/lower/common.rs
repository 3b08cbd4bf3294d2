//! What the lowering's files share: the lowered module and its values, the kinds of LLVM
//! values, the names of the pseudo functions, the module's function and symbol tables, and the
//! state of lowering one function ([`FnLower`], whose methods are in `mod.rs` and the other
//! files).

use std::collections::{HashMap, HashSet};

/// The lowering's hash maps and sets: keyed by LLVM value pointers and names, hashed with a
/// fast hasher (nothing depends on their order).
pub(crate) type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;
/// See [`Map`].
pub(crate) type Set<K> = HashSet<K, foldhash::fast::RandomState>;

use absinthe::program::{BlockId, FieldId, FuncId, NameId, Op, Operand, Stmt, SymbolId};
use absinthe_ir::Module;

use crate::ffi::{self, Layout, Ty, TyKind, Value};

/// A lowered module: the core IR and, per LLVM function, where its values went.
#[derive(Clone, Debug)]
pub struct Lowered {
    /// The core IR: the defined LLVM functions in the module's order (a skipped one without
    /// blocks), then declarations and pseudo functions (no blocks).
    pub module: Module,
    /// One entry per lowered LLVM function, in the module's order.
    pub functions: Vec<LoweredFunction>,
    /// The functions that could not be lowered, in the module's order.
    pub skipped: Vec<LowerError>,
}

/// What the lowering knows about one LLVM function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoweredFunction {
    /// The LLVM name (without `@`).
    pub name: String,
    /// Its core IR function in [`Lowered::module`].
    pub func: FuncId,
    /// Every named integer or pointer value the function defines (arguments excluded), in
    /// program order.
    pub values: Vec<LlvmValue>,
    /// Instructions, terminators included.
    pub instructions: usize,
    /// The `getelementptr` indices that are not constants, in program order.
    pub indices: Vec<GepIndex>,
    /// The names that stand for many LLVM values: the shared unknown value (⊤) and its wraps to
    /// narrow widths, which every value the lowering cannot compute reads, and the never-assigned
    /// name of `undef` and `poison`. A relational analysis must not relate them to other names
    /// (`absinthe::relational::WithRelation::keeping_apart`): in the core IR one run reads one
    /// value from each, but they stand for different LLVM values at each use.
    pub shared: Vec<NameId>,
}

/// A `getelementptr` index that is not a constant, and the length `n` it steps through when it
/// is known: whether `0 ≤ index < n` holds where the `getelementptr` is computed is what
/// `crate::analyze` counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GepIndex {
    /// The block of the `getelementptr`.
    pub block: BlockId,
    /// Where in the block: before its lowered statement of this index (its statements so far,
    /// the entry block's prologue included).
    pub stmt: usize,
    /// The index (sign-extended to 64 bits, as `getelementptr` reads it).
    pub index: Operand,
    /// The length it indexes into.
    pub bound: IndexBound,
}

/// What a [`GepIndex`] must stay below.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexBound {
    /// The length of an array type `[N x T]` the index steps through (the second index of
    /// `getelementptr [N x T], ptr %a, i64 0, i64 %i`, or any later one into a nested array or
    /// an array field of a struct).
    Length(u64),
    /// The element count of the `alloca T, iK %count` that the `getelementptr T, ptr %a, iK %i`
    /// indexes (`%a` that allocation, through no-op casts; the same element type `T`): a C
    /// variable-length array. The operand is the count as the program computed it, before a
    /// `zext` or `sext` to the `alloca`'s width (`0 ≤ i < count` then implies that the count is
    /// positive, so that both extensions leave it unchanged).
    Count(Operand),
    /// No length is known (a pointer index into memory from a parameter, a load, a call, a
    /// global or a fixed-size `alloca` of another type): never proven.
    Unknown,
}

/// An LLVM value and where it lives in the core IR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LlvmValue {
    /// The LLVM name, without `%`.
    pub name: String,
    /// Where its value is in the core IR.
    pub home: Home,
    /// The block that defines it.
    pub block: BlockId,
    /// Whether it is an integer (otherwise a pointer or a float).
    pub integer: bool,
    /// Whether it is a `float` or `double`: its facts are the bits of its double.
    pub float: bool,
}

/// Where an LLVM value's value is in the core IR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Home {
    /// In this operand: the value's own name, another value's name (a no-op cast), or a literal
    /// the lowering folded.
    Operand(Operand),
    /// An `icmp` whose only use is the branch that ends its block: it has no name, the branch
    /// tests the comparison itself, and its value is the comparison of these operands (at the
    /// end of the block).
    Compare(Op, Operand, Operand),
}

/// How a value's type is modelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// An integer of this many bits (1 to 64).
    Int(u32),
    /// A pointer (an address, 64 bits).
    Ptr,
    /// A `float` (32) or `double` (64), kept as its double's bit pattern (see [`floats`]).
    Float(u32),
    /// Anything else: not modelled.
    Other,
}

pub(super) fn kind(ty: Ty<'_>) -> Kind {
    match ty.kind() {
        TyKind::Int(bits) if (1..=64).contains(&bits) => Kind::Int(bits),
        TyKind::Ptr => Kind::Ptr,
        TyKind::Float => Kind::Float(32),
        TyKind::Double => Kind::Float(64),
        _ => Kind::Other,
    }
}

/// The kind of a value's type.
pub(super) fn kind_of(v: Value<'_>) -> Kind {
    kind(v.ty())
}

pub(super) fn bits_of(k: Kind) -> u32 {
    match k {
        Kind::Int(bits) => bits,
        Kind::Ptr | Kind::Float(_) | Kind::Other => 64,
    }
}

/// `2^bits - 1` for `bits < 64`, all ones otherwise.
pub(super) fn mask(bits: u32) -> i64 {
    if bits >= 64 {
        -1
    } else {
        ((1u64 << bits) - 1) as i64
    }
}

/// The canonical 64-bit form of the `bits`-bit pattern `raw`: sign-extended, or 0/1 for `i1`.
/// `None` for integers wider than 64 bits.
pub fn canonical(bits: u32, raw: u64) -> Option<i64> {
    match bits {
        0 | 65.. => None,
        1 => Some((raw & 1) as i64),
        64 => Some(raw as i64),
        _ => {
            let shift = 64 - bits;
            Some(((raw << shift) as i64) >> shift)
        }
    }
}

/// The numbers LLVM gives a function's unnamed values when it prints them (`%0`, `%1`, …):
/// unnamed parameters, then per block the block (when unnamed) and its unnamed instructions
/// that have a result, in order.
pub fn numbering<'m>(f: Value<'m>) -> HashMap<Value<'m>, u32> {
    let mut numbers = HashMap::new();
    let mut next = 0;
    let mut number = |v: Value<'m>, numbers: &mut HashMap<Value<'m>, u32>| {
        if v.name().is_empty() {
            numbers.insert(v, next);
            next += 1;
        }
    };
    for p in f.params() {
        number(p, &mut numbers);
    }
    for b in f.blocks() {
        if let Some(v) = b.as_value() {
            number(v, &mut numbers);
        }
        for i in b.instructions() {
            if i.ty().kind() != TyKind::Void {
                number(i, &mut numbers);
            }
        }
    }
    numbers
}

/// The spelling of a value's name (without sigil): its name, or its number when unnamed.
pub fn spelling(v: Value<'_>, numbers: &HashMap<Value<'_>, u32>) -> String {
    let name = v.name();
    if name.is_empty() {
        numbers.get(&v).map_or_else(String::new, u32::to_string)
    } else {
        name.into_owned()
    }
}

/// The pseudo functions the lowering calls; they have no body.
pub(super) const ADDRESS: &str = "absinthe.address";
pub(super) const UNKNOWN: &str = "absinthe.unknown";
pub(super) const INDIRECT: &str = "absinthe.indirect";
pub(super) const ASM: &str = "absinthe.asm";
pub(super) const FREEZE: &str = "absinthe.freeze";
pub(super) const VA_ARG: &str = "absinthe.va_arg";
pub(super) const ATOMIC: &str = "absinthe.atomic";

/// What the lowering keeps of memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Memory {
    /// Every memory operation and call result: `alloca` is `new`, loads and stores use the
    /// field `mem`, call results are names.
    Keep,
    /// Only what a value analysis can see, which knows nothing about memory: loaded values and
    /// call results are the unknown value (⊤) without a name of their own, and `alloca`s and
    /// stores disappear; calls stay (as statements). A domain that tracks no memory computes the
    /// same facts either way, with far fewer names to carry through the fixpoint.
    Erase,
}

/// A function the lowering could not handle: it is skipped (a bodyless function in the core IR,
/// so its callers treat its calls as unknown) and the rest of the module is analyzed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowerError {
    /// The function.
    pub function: String,
    /// What went wrong.
    pub message: String,
    /// Where: the block and the position of the instruction in it (0 for its first), and the
    /// instruction's text when it could be printed.
    pub at: Option<Place>,
}

/// The instruction a [`LowerError`] happened at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The block's label.
    pub block: String,
    /// The instruction's position in its block (0 for the first; the terminator is last).
    pub index: usize,
    /// The instruction as LLVM prints it, when known.
    pub text: Option<String>,
}

impl std::fmt::Display for LowerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "function `{}` skipped: {}", self.function, self.message)?;
        if let Some(at) = &self.at {
            write!(f, " (block {}, instruction {}", at.block, at.index)?;
            if let Some(text) = &at.text {
                write!(f, ": {text}")?;
            }
            write!(f, ")")?;
        }
        Ok(())
    }
}

/// How an LLVM value is lowered.
#[derive(Clone, Copy, Debug)]
pub(super) enum Slot<'m> {
    /// Defined by statements into its own name.
    Name(NameId),
    /// The same value as this LLVM value (a no-op cast).
    Alias(Value<'m>),
    /// A known operand (a folded constant, or the unknown name).
    Value(Operand),
    /// An `icmp` only its block's branch uses: no statement, the branch tests the comparison.
    Virtual,
}

/// The state of lowering one function.
pub(super) struct FnLower<'a, 'm> {
    pub(super) callees: &'a mut Callees,
    pub(super) symbols: &'a mut Symbols,
    pub(super) nsw: Option<&'a HashSet<String>>,
    pub(super) little_endian: bool,
    pub(super) layout: Layout<'m>,
    /// The numbers of unnamed values.
    /// The numbers of unnamed values, computed when the first one is spelled (modules that
    /// went through `instnamer` have none).
    pub(super) numbers: std::cell::OnceCell<HashMap<Value<'m>, u32>>,
    pub(super) function: Option<Value<'m>>,
    pub(super) names: Vec<String>,
    pub(super) slots: Map<Value<'m>, Slot<'m>>,
    pub(super) blocks: Map<ffi::Block<'m>, BlockId>,
    /// `icmp` results: the comparison in core IR terms, for branches on them.
    pub(super) compares: Map<Value<'m>, (Op, Operand, Operand)>,
    /// Statements that open the entry block: addresses of globals, the unknown name.
    pub(super) prologue: Vec<Stmt>,
    pub(super) unknown: Option<NameId>,
    /// The unknown values of narrow widths: `(N, name)`, see [`FnLower::unknown_of`].
    pub(super) narrow_unknowns: Vec<(u32, NameId)>,
    pub(super) undef: Option<NameId>,
    /// The names holding a symbol's address plus an offset.
    pub(super) addresses: Map<(String, i64), NameId>,
    /// The entries of the constant tables read at variable indices (`None`: not a table).
    pub(super) tables: Map<Value<'m>, Option<std::sync::Arc<[i64]>>>,
    /// The statements of the block being lowered.
    pub(super) stmts: Vec<Stmt>,
    pub(super) temps: usize,
    pub(super) memory: Memory,
    /// The `icmp`s whose only use is their block's branch.
    pub(super) virtual_compares: Set<Value<'m>>,
    /// The values a comparison or a switch tests (through no-op casts) and that are used again.
    pub(super) tested: Set<Value<'m>>,
    /// The named `icmp`s a branch should test as comparisons (refining their operands) rather
    /// than as values (refining their result).
    pub(super) refines_operands: Set<Value<'m>>,
    /// Where to record the block and instruction being lowered (for errors).
    pub(super) position: Option<&'a std::cell::Cell<(usize, usize)>>,
    /// The block being lowered.
    pub(super) block: BlockId,
    /// The `getelementptr` indices recorded so far (see [`GepIndex`]).
    pub(super) indices: Vec<GepIndex>,
}

pub(super) const MEM: FieldId = FieldId(0);

/// A block's instructions before its terminator, and the terminator.
pub(super) fn split_block(bb: ffi::Block<'_>) -> (Vec<Value<'_>>, Option<Value<'_>>) {
    let mut instrs: Vec<Value<'_>> = bb.instructions().collect();
    let term = bb.terminator();
    if term.is_some() && instrs.last().copied() == term {
        instrs.pop();
    }
    (instrs, term)
}

/// A table of names and their ids, in the order they were added: the module's function table
/// ([`Callees`]; a callee it does not list up front, a call through an alias, is added when
/// first called) and its symbol table ([`Symbols`]: the globals and functions whose addresses
/// functions may take).
pub(super) struct Table<I> {
    ids: Map<String, I>,
    pub(super) names: Vec<String>,
    make: fn(usize) -> I,
}

/// The module's function table.
pub(super) type Callees = Table<FuncId>;
/// The module's symbol table.
pub(super) type Symbols = Table<SymbolId>;

impl<I: Copy> Table<I> {
    pub(super) fn new(make: fn(usize) -> I) -> Table<I> {
        Table {
            ids: Map::default(),
            names: Vec::new(),
            make,
        }
    }

    /// The id of `name`, added at the end if new.
    pub(super) fn id(&mut self, name: &str) -> I {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = (self.make)(self.names.len());
        self.ids.insert(name.to_owned(), id);
        self.names.push(name.to_owned());
        id
    }
}

/// The name of the function a call calls directly, if any (intrinsics included).
pub(super) fn intrinsic(call: Value<'_>) -> Option<String> {
    let callee = call.callee()?;
    if !callee.is_global() {
        return None;
    }
    let name = callee.name();
    (!name.is_empty()).then(|| name.into_owned())
}
