//! How the engine sees a program: small ids, the statement vocabulary, and the [`Cfg`] and
//! [`Program`] traits.
//!
//! The runtime knows nothing about any syntax. A front end (absinthe's own core IR, the toy
//! language, or a compiler's IR) lowers its code into blocks of [`Stmt`] ended by a
//! [`Terminator`] and implements [`Program`]; every analysis and engine works from that view.

use std::fmt;
use std::sync::Arc;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);

        impl $name {
            /// The id at position `index` of its table.
            ///
            /// # Panics
            ///
            /// If `index` does not fit in a `u32` (four billion entries).
            pub fn new(index: usize) -> $name {
                $name(u32::try_from(index).expect(concat!(stringify!($name), " overflow")))
            }

            /// The position of this id in its table.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

id_type!(
    /// A basic block of one function.
    BlockId,
    "bb"
);
id_type!(
    /// A program name (a variable) of one function.
    NameId,
    "n"
);
id_type!(
    /// A field name used by memory operations.
    FieldId,
    "f"
);
id_type!(
    /// A function of a module, as the target of a call.
    FuncId,
    "fn"
);
id_type!(
    /// A module-level symbol whose address a program can take: a global variable or a function
    /// of the compiled program, by name.
    SymbolId,
    "sym"
);

/// The address the concrete semantics gives symbol `s`: `(s + 1) * 2^32`. Distinct symbols lie
/// 4 GiB apart, none at 0 (`null`), so an address plus an offset inside its object never meets
/// another symbol's. Abstract domains must not depend on this layout: it is one of the layouts
/// a linker may choose, fixed so that concrete runs can be replayed and checked.
pub fn symbol_address(s: SymbolId) -> i64 {
    (i64::from(s.0) + 1) << 32
}

/// A binary operation on 64-bit integers.
///
/// Arithmetic wraps; comparisons give 1 or 0; division and remainder by zero trap. The unsigned
/// operations (`ult`, `udiv`, `lshr`, …) read the operands' 64-bit patterns as unsigned numbers,
/// and `trunc` keeps the low bits of a value, so that a front end can express the fixed-width
/// arithmetic of a real IR (LLVM's `i8` … `i64`) on 64-bit values.
///
/// The `f…` operations and the conversions read and write the bit patterns of IEEE doubles,
/// with the default rounding (to nearest, ties to even): a front end keeps a floating-point
/// value as its double's 64 bits, which flow through φs, selects and tables like any value.
/// `fneg`, `fabs` and `copysign` are the integer `^`, `&` and `|` on the sign bit. No operation
/// exposes a NaN's payload except as the bits of a value (front ends must not fold `bitcast`s
/// of NaNs: compilers choose payloads differently).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Op {
    /// `+`, wrapping.
    Add,
    /// `-`, wrapping.
    Sub,
    /// `*`, wrapping.
    Mul,
    /// `/`, truncating; traps on a zero divisor; `MIN / -1` wraps to `MIN`.
    Div,
    /// `%`, sign of the dividend; traps on a zero divisor.
    Rem,
    /// `&`, bitwise.
    And,
    /// `|`, bitwise.
    Or,
    /// `^`, bitwise.
    Xor,
    /// `<<`, by the amount modulo 64.
    Shl,
    /// `>>`, arithmetic, by the amount modulo 64.
    Shr,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `ult`: `<` on the operands read as unsigned 64-bit numbers.
    ULt,
    /// `ule`: `<=` on unsigned 64-bit numbers.
    ULe,
    /// `ugt`: `>` on unsigned 64-bit numbers.
    UGt,
    /// `uge`: `>=` on unsigned 64-bit numbers.
    UGe,
    /// `udiv`: division of unsigned 64-bit numbers; traps on a zero divisor.
    UDiv,
    /// `urem`: remainder of unsigned 64-bit numbers; traps on a zero divisor.
    URem,
    /// `lshr`: logical (zero-filling) shift right, by the amount modulo 64.
    LShr,
    /// `trunc`: `a trunc n` keeps the low `n` bits of `a` and sign-extends them back to 64 bits
    /// (for `1 <= n <= 63`; any other `n` leaves `a` unchanged). This is how a front end that
    /// keeps `iN` values sign-extended in 64 bits wraps a result to `N` bits.
    Trunc,
    /// `fadd`: the sum of the IEEE doubles whose bit patterns the operands are, as a bit
    /// pattern, rounded to nearest (ties to even). A front end keeps every floating-point value
    /// as a double: a `float` is exactly a double, and `fptrunc 32` rounds a result back to
    /// single precision (for `+ - * /`, rounding the double result to single precision gives the
    /// single-precision operation's result, since 53 ≥ 2 × 24 + 2 bits).
    FAdd,
    /// `fsub`: the difference of two doubles.
    FSub,
    /// `fmul`: the product of two doubles.
    FMul,
    /// `fdiv`: the quotient of two doubles (a zero divisor gives an infinity or NaN, no trap).
    FDiv,
    /// `frem`: C's `fmod` of two doubles (exact).
    FRem,
    /// `fcmp`: how two doubles compare, as one bit: 1 equal, 2 greater, 4 less, 8 unordered
    /// (either is NaN). An ordered or unordered comparison is this `&` a mask of those bits
    /// (LLVM's `fcmp` predicates are these masks), tested `!= 0`.
    FCmp,
    /// `fptrunc`: `a fptrunc 32` rounds the double `a` to the nearest single-precision value
    /// (as a double); any other `b` leaves `a` unchanged.
    FPTrunc,
    /// `sitofp`: `a sitofp 32` is the signed integer `a` rounded once to the nearest
    /// single-precision value (as a double); any other `b`, to the nearest double.
    SIToFP,
    /// `uitofp`: as `sitofp`, with `a` read as an unsigned 64-bit number.
    UIToFP,
    /// `fptosi`: `a fptosi n` is the double `a` truncated toward zero, as an `n`-bit signed
    /// integer in the 64-bit form (sign-extended; `n = 1` gives 0 or 1); traps when `a` is NaN,
    /// infinite or out of the `n`-bit range (LLVM's poison). `n` outside 1 to 64 means 64.
    FPToSI,
    /// `fptoui`: as `fptosi`, for an `n`-bit unsigned integer (kept sign-extended from `n` bits,
    /// the 64-bit form of an `iN` value).
    FPToUI,
    /// `fbits`: `a fbits 32` is the single-precision bit pattern of the double `a` (rounded to
    /// single precision), sign-extended (LLVM's `bitcast float to i32`); any other `b` leaves
    /// `a` unchanged (a double's bits are its own). A NaN's single-precision payload is the one
    /// this machine's conversion gives: front ends use it only on values that are not NaN.
    FBits,
    /// `ffrombits`: `a ffrombits 32` is the single-precision value whose bit pattern is the low
    /// 32 bits of `a`, as a double (LLVM's `bitcast i32 to float`); any other `b` leaves `a`
    /// unchanged.
    FFromBits,
    /// `fsqrt`: `a fsqrt b` is the square root of the double `a`, correctly rounded (`b` is not
    /// read). Rounded once more to single precision, it is the single-precision square root.
    FSqrt,
    /// `fround`: `a fround m` is the double `a` rounded to an integer value: `m` = 0 down
    /// (`floor`), 1 up (`ceil`), 2 toward zero (`trunc`), 3 to nearest with ties away from zero
    /// (`round`), 4 to nearest with ties to even (`rint`, `nearbyint`, `roundeven` in the default
    /// rounding mode); any other `m` leaves `a` unchanged. Exact, also in single precision.
    FRound,
}

impl Op {
    /// Every operation, in declaration order.
    pub const ALL: [Op; 39] = [
        Op::Add,
        Op::Sub,
        Op::Mul,
        Op::Div,
        Op::Rem,
        Op::And,
        Op::Or,
        Op::Xor,
        Op::Shl,
        Op::Shr,
        Op::Lt,
        Op::Le,
        Op::Gt,
        Op::Ge,
        Op::Eq,
        Op::Ne,
        Op::ULt,
        Op::ULe,
        Op::UGt,
        Op::UGe,
        Op::UDiv,
        Op::URem,
        Op::LShr,
        Op::Trunc,
        Op::FAdd,
        Op::FSub,
        Op::FMul,
        Op::FDiv,
        Op::FRem,
        Op::FCmp,
        Op::FPTrunc,
        Op::SIToFP,
        Op::UIToFP,
        Op::FPToSI,
        Op::FPToUI,
        Op::FBits,
        Op::FFromBits,
        Op::FSqrt,
        Op::FRound,
    ];

    /// The concrete semantics: `None` when the operation traps (division by zero).
    pub fn eval(self, a: i64, b: i64) -> Option<i64> {
        Some(match self {
            Op::Add => a.wrapping_add(b),
            Op::Sub => a.wrapping_sub(b),
            Op::Mul => a.wrapping_mul(b),
            Op::Div => {
                if b == 0 {
                    return None;
                }
                a.wrapping_div(b)
            }
            Op::Rem => {
                if b == 0 {
                    return None;
                }
                a.wrapping_rem(b)
            }
            Op::And => a & b,
            Op::Or => a | b,
            Op::Xor => a ^ b,
            Op::Shl => a.wrapping_shl((b & 63) as u32),
            Op::Shr => a.wrapping_shr((b & 63) as u32),
            Op::Lt => i64::from(a < b),
            Op::Le => i64::from(a <= b),
            Op::Gt => i64::from(a > b),
            Op::Ge => i64::from(a >= b),
            Op::Eq => i64::from(a == b),
            Op::Ne => i64::from(a != b),
            Op::ULt => i64::from((a as u64) < (b as u64)),
            Op::ULe => i64::from((a as u64) <= (b as u64)),
            Op::UGt => i64::from((a as u64) > (b as u64)),
            Op::UGe => i64::from((a as u64) >= (b as u64)),
            Op::UDiv => {
                if b == 0 {
                    return None;
                }
                ((a as u64) / (b as u64)) as i64
            }
            Op::URem => {
                if b == 0 {
                    return None;
                }
                ((a as u64) % (b as u64)) as i64
            }
            Op::LShr => ((a as u64) >> (b & 63)) as i64,
            Op::Trunc => match b {
                1..=63 => {
                    let shift = 64 - b as u32;
                    (a << shift) >> shift
                }
                _ => a,
            },
            Op::FAdd => bits(double(a) + double(b)),
            Op::FSub => bits(double(a) - double(b)),
            Op::FMul => bits(double(a) * double(b)),
            Op::FDiv => bits(double(a) / double(b)),
            Op::FRem => bits(double(a) % double(b)),
            Op::FCmp => {
                let (x, y) = (double(a), double(b));
                if x.is_nan() || y.is_nan() {
                    8
                } else if x < y {
                    4
                } else if x > y {
                    2
                } else {
                    1
                }
            }
            Op::FPTrunc if b == 32 => bits(f64::from(double(a) as f32)),
            Op::FPTrunc => a,
            // Rust's `as` rounds integers to floats to nearest, ties to even, in one step.
            Op::SIToFP if b == 32 => bits(f64::from(a as f32)),
            Op::SIToFP => bits(a as f64),
            Op::UIToFP if b == 32 => bits(f64::from(a as u64 as f32)),
            Op::UIToFP => bits(a as u64 as f64),
            Op::FPToSI | Op::FPToUI => return float_to_int(double(a), b, self == Op::FPToSI),
            Op::FBits if b == 32 => i64::from((double(a) as f32).to_bits() as i32),
            Op::FFromBits if b == 32 => bits(f64::from(f32::from_bits(a as u32))),
            Op::FBits | Op::FFromBits => a,
            Op::FSqrt => bits(double(a).sqrt()),
            Op::FRound => match b {
                0 => bits(double(a).floor()),
                1 => bits(double(a).ceil()),
                2 => bits(double(a).trunc()),
                3 => bits(double(a).round()),
                4 => bits(double(a).round_ties_even()),
                _ => a,
            },
        })
    }

    /// Whether [`Op::eval`] may trap on some operands: the divisions and remainders (by zero)
    /// and the conversions of floats to integers (NaN, out of range). Whether such an
    /// operation traps depends on its operands even where its result is never read.
    pub fn may_trap(self) -> bool {
        matches!(
            self,
            Op::Div | Op::Rem | Op::UDiv | Op::URem | Op::FPToSI | Op::FPToUI
        )
    }

    /// Whether this operation reads or writes floating-point values (the `f…` operations and
    /// the conversions).
    pub fn is_float(self) -> bool {
        matches!(
            self,
            Op::FAdd
                | Op::FSub
                | Op::FMul
                | Op::FDiv
                | Op::FRem
                | Op::FCmp
                | Op::FPTrunc
                | Op::SIToFP
                | Op::UIToFP
                | Op::FPToSI
                | Op::FPToUI
                | Op::FBits
                | Op::FFromBits
                | Op::FSqrt
                | Op::FRound
        )
    }

    /// Whether this is a comparison (its result is 0 or 1).
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            Op::Lt
                | Op::Le
                | Op::Gt
                | Op::Ge
                | Op::Eq
                | Op::Ne
                | Op::ULt
                | Op::ULe
                | Op::UGt
                | Op::UGe
        )
    }

    /// For a comparison, the comparison that holds exactly when this one does not
    /// (`<` becomes `>=`). `None` for arithmetic.
    pub fn negated(self) -> Option<Op> {
        Some(match self {
            Op::Lt => Op::Ge,
            Op::Le => Op::Gt,
            Op::Gt => Op::Le,
            Op::Ge => Op::Lt,
            Op::Eq => Op::Ne,
            Op::Ne => Op::Eq,
            Op::ULt => Op::UGe,
            Op::ULe => Op::UGt,
            Op::UGt => Op::ULe,
            Op::UGe => Op::ULt,
            _ => return None,
        })
    }

    /// For a comparison, the comparison with its operands swapped (`a < b` iff `b > a`).
    /// `None` for arithmetic.
    pub fn swapped(self) -> Option<Op> {
        Some(match self {
            Op::Lt => Op::Gt,
            Op::Le => Op::Ge,
            Op::Gt => Op::Lt,
            Op::Ge => Op::Le,
            Op::Eq => Op::Eq,
            Op::Ne => Op::Ne,
            Op::ULt => Op::UGt,
            Op::ULe => Op::UGe,
            Op::UGt => Op::ULt,
            Op::UGe => Op::ULe,
            _ => return None,
        })
    }

    /// The operator as written in absinthe's text formats.
    pub fn symbol(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Div => "/",
            Op::Rem => "%",
            Op::And => "&",
            Op::Or => "|",
            Op::Xor => "^",
            Op::Shl => "<<",
            Op::Shr => ">>",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::ULt => "ult",
            Op::ULe => "ule",
            Op::UGt => "ugt",
            Op::UGe => "uge",
            Op::UDiv => "udiv",
            Op::URem => "urem",
            Op::LShr => "lshr",
            Op::Trunc => "trunc",
            Op::FAdd => "fadd",
            Op::FSub => "fsub",
            Op::FMul => "fmul",
            Op::FDiv => "fdiv",
            Op::FRem => "frem",
            Op::FCmp => "fcmp",
            Op::FPTrunc => "fptrunc",
            Op::SIToFP => "sitofp",
            Op::UIToFP => "uitofp",
            Op::FPToSI => "fptosi",
            Op::FPToUI => "fptoui",
            Op::FBits => "fbits",
            Op::FFromBits => "ffrombits",
            Op::FSqrt => "fsqrt",
            Op::FRound => "fround",
        }
    }

    /// The operation written `symbol`, if any (`≤` and `≥` are accepted for `<=` and `>=`).
    pub fn from_symbol(symbol: &str) -> Option<Op> {
        let symbol = match symbol {
            "≤" => "<=",
            "≥" => ">=",
            "≠" => "!=",
            other => other,
        };
        Op::ALL.into_iter().find(|op| op.symbol() == symbol)
    }
}

/// The double whose bit pattern is `a`.
fn double(a: i64) -> f64 {
    f64::from_bits(a as u64)
}

/// The bit pattern of `x`.
fn bits(x: f64) -> i64 {
    x.to_bits() as i64
}

/// `x` truncated toward zero as an `n`-bit integer (`n` outside 1 to 64 is 64) in the 64-bit
/// form: sign-extended from `n` bits, or 0/1 for `n = 1`. `None` (poison) when `x` is NaN,
/// infinite or out of range.
fn float_to_int(x: f64, n: i64, signed: bool) -> Option<i64> {
    let n = if (1..=64).contains(&n) { n as i32 } else { 64 };
    let t = x.trunc();
    if !t.is_finite() {
        return None;
    }
    // Powers of two are exact doubles, so the bounds are exact.
    let (lo, hi) = if signed {
        (-(2f64.powi(n - 1)), 2f64.powi(n - 1))
    } else {
        (0.0, 2f64.powi(n))
    };
    if t < lo || t >= hi {
        return None;
    }
    let raw = if signed { t as i64 as u64 } else { t as u64 };
    Some(match n {
        1 => (raw & 1) as i64,
        64 => raw as i64,
        _ => {
            let shift = 64 - n as u32;
            ((raw << shift) as i64) >> shift
        }
    })
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

/// An argument of a statement: a name or an integer literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operand {
    /// The current value of a name.
    Name(NameId),
    /// An integer literal.
    Int(i64),
}

/// The right-hand side of an assignment.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rhs {
    /// A copy of an operand: `x = y`, `x = 1`.
    Use(Operand),
    /// A binary operation: `x = y + 1`.
    Binary(Op, Operand, Operand),
    /// A fresh heap object with no fields set: `x = new`.
    New,
    /// A field read: `x = o.f`. Reading a field that was never set traps.
    Load(Operand, FieldId),
    /// A call of a function of the same module: `x = call f(a, 1)`.
    Call(FuncId, Box<[Operand]>),
    /// A choice without a branch: `x = select c, a, b` is `a` when `c` is non-zero, else `b`.
    Select(Operand, Operand, Operand),
    /// A function value: `x = closure f [a, b]` pairs function `f` with the values it captures,
    /// one per name of `f`'s capture list ([`Program::captures`]), in order. A function that
    /// captures nothing is `closure f []`.
    Closure(FuncId, Box<[Operand]>),
    /// A function slot of a set of closures: `x = sibling c g` is the closure of function `g`
    /// with the value slots (captured values) of closure `c`, as the functions of one
    /// `let rec … and …` share one environment. Traps unless `c` is a closure whose function
    /// captures as many values as `g` does.
    Sibling(Operand, FuncId),
    /// The closure the running function was applied through (`x = myclosure`), from which its
    /// siblings are reached: only in functions that capture values, which run only by `apply`.
    MyClosure,
    /// A call through a function value: `x = apply c(a, 1)` calls the closure `c` holds, its
    /// captures bound to the captured values and its parameters to the arguments. Applying
    /// anything but a closure, or with the wrong number of arguments, traps.
    Apply(Operand, Box<[Operand]>),
    /// A fresh immutable block: `x = block 3 [a, b]` has constructor tag 3 and fields `a`, `b`.
    Block(u32, Box<[Operand]>),
    /// A block's field by position: `x = a[1]`. Traps unless `a` is a block with that field.
    Field(Operand, u32),
    /// A block's constructor tag: `x = tag a`. Traps unless `a` is a block.
    Tag(Operand),
    /// Whether a value is a block (1) or an immediate integer (0): `x = isblock a`. Heap
    /// objects and closures count as blocks.
    IsBlock(Operand),
    /// The address of a module-level symbol (a global variable or a function): `x = addr @g`.
    /// An integer, [`symbol_address`] in concrete runs; pointer arithmetic on it is integer
    /// arithmetic.
    Address(SymbolId),
    /// A read from a constant table: `x = table [3, 1, 4] i` is entry `i` (from 0) of the
    /// table; traps when `i` is outside it. A front end's lookup in a constant array whose index
    /// only an analysis may know.
    Table(Arc<[i64]>, Operand),
}

impl Rhs {
    /// Calls `f` on every operand this right-hand side reads, in order.
    pub fn for_each_use(&self, mut f: impl FnMut(Operand)) {
        match self {
            Rhs::Use(a)
            | Rhs::Load(a, _)
            | Rhs::Field(a, _)
            | Rhs::Tag(a)
            | Rhs::IsBlock(a)
            | Rhs::Table(_, a)
            | Rhs::Sibling(a, _) => f(*a),
            Rhs::Binary(_, a, b) => {
                f(*a);
                f(*b);
            }
            Rhs::New | Rhs::MyClosure | Rhs::Address(_) => {}
            Rhs::Call(_, args) | Rhs::Closure(_, args) | Rhs::Block(_, args) => {
                args.iter().copied().for_each(f)
            }
            Rhs::Apply(callee, args) => {
                f(*callee);
                args.iter().copied().for_each(f);
            }
            Rhs::Select(c, a, b) => {
                f(*c);
                f(*a);
                f(*b);
            }
        }
    }

    /// Calls `f` on every operand slot of this right-hand side, in the order of
    /// [`Rhs::for_each_use`].
    pub fn for_each_use_mut(&mut self, mut f: impl FnMut(&mut Operand)) {
        match self {
            Rhs::Use(a)
            | Rhs::Load(a, _)
            | Rhs::Field(a, _)
            | Rhs::Tag(a)
            | Rhs::IsBlock(a)
            | Rhs::Table(_, a)
            | Rhs::Sibling(a, _) => f(a),
            Rhs::Binary(_, a, b) => {
                f(a);
                f(b);
            }
            Rhs::New | Rhs::MyClosure | Rhs::Address(_) => {}
            Rhs::Call(_, args) | Rhs::Closure(_, args) | Rhs::Block(_, args) => {
                args.iter_mut().for_each(f)
            }
            Rhs::Apply(callee, args) => {
                f(callee);
                args.iter_mut().for_each(f);
            }
            Rhs::Select(c, a, b) => {
                f(c);
                f(a);
                f(b);
            }
        }
    }

    /// Whether evaluating this right-hand side calls another function.
    pub fn is_call(&self) -> bool {
        matches!(self, Rhs::Call(..) | Rhs::Apply(..))
    }
}

/// A statement: one step inside a block.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stmt {
    /// `dest = rhs`.
    Assign {
        /// The name being defined.
        dest: NameId,
        /// What it is defined as.
        rhs: Rhs,
    },
    /// A field write: `o.f = v`.
    Store {
        /// The object written to.
        object: Operand,
        /// The field.
        field: FieldId,
        /// The value stored.
        value: Operand,
    },
    /// A call whose result is dropped: `call f(a)`.
    Call {
        /// The function called.
        callee: FuncId,
        /// Its arguments.
        args: Box<[Operand]>,
    },
    /// A call through a function value whose result is dropped: `apply c(a)`.
    Apply {
        /// The closure called.
        callee: Operand,
        /// Its arguments.
        args: Box<[Operand]>,
    },
}

impl Stmt {
    /// The name this statement defines, if any.
    pub fn def(&self) -> Option<NameId> {
        match self {
            Stmt::Assign { dest, .. } => Some(*dest),
            Stmt::Store { .. } | Stmt::Call { .. } | Stmt::Apply { .. } => None,
        }
    }

    /// Calls `f` on every operand this statement reads, in order.
    pub fn for_each_use(&self, mut f: impl FnMut(Operand)) {
        match self {
            Stmt::Assign { rhs, .. } => rhs.for_each_use(f),
            Stmt::Store { object, value, .. } => {
                f(*object);
                f(*value);
            }
            Stmt::Call { args, .. } => args.iter().copied().for_each(f),
            Stmt::Apply { callee, args } => {
                f(*callee);
                args.iter().copied().for_each(f);
            }
        }
    }

    /// Calls `f` on every operand slot of this statement, in the order of
    /// [`Stmt::for_each_use`].
    pub fn for_each_use_mut(&mut self, mut f: impl FnMut(&mut Operand)) {
        match self {
            Stmt::Assign { rhs, .. } => rhs.for_each_use_mut(f),
            Stmt::Store { object, value, .. } => {
                f(object);
                f(value);
            }
            Stmt::Call { args, .. } => args.iter_mut().for_each(f),
            Stmt::Apply { callee, args } => {
                f(callee);
                args.iter_mut().for_each(f);
            }
        }
    }

    /// Whether this statement calls another function.
    pub fn is_call(&self) -> bool {
        match self {
            Stmt::Assign { rhs, .. } => rhs.is_call(),
            Stmt::Call { .. } | Stmt::Apply { .. } => true,
            Stmt::Store { .. } => false,
        }
    }
}

/// The condition of a two-way branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    /// Taken when the operand is non-zero.
    NonZero(Operand),
    /// Taken when the comparison holds (`op` is a comparison).
    Compare(Op, Operand, Operand),
}

/// How a block ends. Successor order is fixed and is what [`Cfg::successors`] returns:
/// `Goto` → `[target]`, `Branch` → `[then, else]`, `Switch` → `[case targets…, default]`,
/// the others → `[]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Terminator {
    /// Unconditional jump.
    Goto(BlockId),
    /// Two-way branch.
    Branch {
        /// The condition.
        cond: Cond,
        /// Where control goes when it holds.
        then_to: BlockId,
        /// Where control goes when it does not.
        else_to: BlockId,
    },
    /// Multi-way branch on an integer.
    Switch {
        /// The value switched on.
        on: Operand,
        /// `(value, target)` pairs; the first matching case wins.
        cases: Box<[(i64, BlockId)]>,
        /// Where control goes when no case matches.
        default: BlockId,
    },
    /// Leaves the function, with an optional result.
    Return(Option<Operand>),
    /// Leaves the function abnormally, with an optional payload.
    Throw(Option<Operand>),
    /// Control never reaches here.
    Unreachable,
}

impl Terminator {
    /// The successor blocks, in the documented order (duplicates kept).
    pub fn successors(&self) -> Vec<BlockId> {
        match self {
            Terminator::Goto(t) => vec![*t],
            Terminator::Branch {
                then_to, else_to, ..
            } => vec![*then_to, *else_to],
            Terminator::Switch { cases, default, .. } => cases
                .iter()
                .map(|&(_, t)| t)
                .chain(std::iter::once(*default))
                .collect(),
            Terminator::Return(_) | Terminator::Throw(_) | Terminator::Unreachable => Vec::new(),
        }
    }

    /// Calls `f` on every operand this terminator reads.
    pub fn for_each_use(&self, mut f: impl FnMut(Operand)) {
        match self {
            Terminator::Branch { cond, .. } => match *cond {
                Cond::NonZero(a) => f(a),
                Cond::Compare(_, a, b) => {
                    f(a);
                    f(b);
                }
            },
            Terminator::Switch { on, .. } => f(*on),
            Terminator::Return(Some(a)) | Terminator::Throw(Some(a)) => f(*a),
            Terminator::Goto(_)
            | Terminator::Return(None)
            | Terminator::Throw(None)
            | Terminator::Unreachable => {}
        }
    }
}

/// An SSA φ at the head of a block: `dest` takes the operand of the predecessor control came from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Phi {
    /// The name defined.
    pub dest: NameId,
    /// One `(predecessor, operand)` pair per incoming edge.
    pub incoming: Box<[(BlockId, Operand)]>,
}

/// A directed graph of blocks with one entry: all the fixpoint engines need.
///
/// Successor and predecessor lists may contain duplicates (a switch with two cases to one block);
/// an edge is identified by its source and its position in the source's successor list.
pub trait Cfg {
    /// Number of blocks; ids are `0..block_count()`.
    fn block_count(&self) -> usize;
    /// The block where execution starts.
    fn entry(&self) -> BlockId;
    /// The successors of `b`.
    fn successors(&self, b: BlockId) -> &[BlockId];
    /// The predecessors of `b` (one entry per incoming edge).
    fn predecessors(&self, b: BlockId) -> &[BlockId];
}

/// A function as the value analyses see it: a [`Cfg`] whose blocks hold φs, statements and a
/// terminator over dense [`NameId`]s.
pub trait Program: Cfg {
    /// Number of names; ids are `0..name_count()`.
    fn name_count(&self) -> usize;
    /// The source spelling of a name.
    fn name(&self, n: NameId) -> &str;
    /// The parameters, in order; they hold the caller's arguments on entry.
    fn params(&self) -> &[NameId];
    /// The names that hold a closure's captured values on entry, in order (see
    /// [`Rhs::Closure`]); empty for a function never made into a closure with captures.
    fn captures(&self) -> &[NameId] {
        &[]
    }
    /// The φs at the head of `b` (empty unless the function is in SSA form).
    fn phis(&self, b: BlockId) -> &[Phi];
    /// The statements of `b`, in execution order.
    fn stmts(&self, b: BlockId) -> &[Stmt];
    /// How `b` ends.
    fn terminator(&self, b: BlockId) -> &Terminator;
    /// Whether every name is defined at most once (SSA form).
    fn is_ssa(&self) -> bool;
}
