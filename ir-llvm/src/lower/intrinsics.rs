//! Lowering the integer intrinsics LLVM's SCCP folds, the `extractvalue`s of first-class
//! structs the lowering can see through, and `!range` metadata.
//!
//! Every intrinsic becomes core IR arithmetic on the 64-bit forms of its operands, exact for
//! every input, so any value domain folds it when its operands are known and bounds it as far as
//! its arithmetic allows:
//!
//! - `smax`/`smin`/`umax`/`umin` are a comparison and a `select`, `abs` a `select` of `a` and
//!   `0 - a`;
//! - the saturating `*add.sat`/`*sub.sat` compute the exact result and clamp it with `select`s
//!   (where it fits in 64 bits; otherwise the overflow test below picks the bound);
//! - `ctpop` is the bit-parallel population count (shifts, masks and one multiplication), `ctlz`
//!   the population count of the value with every bit below its highest set bit filled in,
//!   subtracted from the width, `cttz` the population count of the bits below the lowest set
//!   one, `bswap` the bytes shifted into place;
//! - the `*.with.overflow` family is a pair: `extractvalue 0` is the wrapped result, and
//!   `extractvalue 1` compares the exact result with the width's bounds (for widths where the
//!   exact result fits in 64 bits) or uses the sign-bit identities (64 bits).
//!
//! A `!range !{lo, hi, …}` on a load or call narrows its result: the value `u` the core IR
//! reads becomes `lo + ((u - lo) mod 2ᴺ) urem n`, where `n` is the number of values in the
//! ranges' hull. That is `u` itself whenever `u` is in the range (so concrete runs keep their
//! values), and always in the range, which is all LLVM promises (a value outside it is
//! undefined behaviour). Domains that bound `urem` by a constant see the range.

#[allow(clippy::wildcard_imports)]
use super::*;

/// What an `extractvalue` reads, as far as the lowering can see.
pub(super) enum Extracted<'m> {
    /// A value of the function or a constant (an inserted value, an element of a constant
    /// aggregate).
    Value(Value<'m>),
    /// Zero: an element of `zeroinitializer`.
    Zero,
    /// Field 0 (the wrapped result) or 1 (the overflow bit) of a `*.with.overflow` call.
    Overflow(Value<'m>, u32),
    /// Anything else: a struct from memory, a φ, a call, …
    Unknown,
}

/// The arithmetic of an overflow intrinsic: the operation, and whether it is signed.
fn overflow_op(name: &str) -> Option<(Op, bool)> {
    let kind = name.strip_prefix("llvm.")?.split('.').next()?;
    Some(match kind {
        "sadd" => (Op::Add, true),
        "uadd" => (Op::Add, false),
        "ssub" => (Op::Sub, true),
        "usub" => (Op::Sub, false),
        "smul" => (Op::Mul, true),
        "umul" => (Op::Mul, false),
        _ => return None,
    })
}

/// Whether `name` is one of the `*.with.overflow` intrinsics.
pub(super) fn is_overflow(name: &str) -> bool {
    name.contains(".with.overflow.") && overflow_op(name).is_some()
}

/// What `extractvalue` `inst` reads: through chains of `insertvalue`, into constant aggregates,
/// and out of overflow intrinsics.
pub(super) fn extracted(inst: Value<'_>) -> Extracted<'_> {
    let mut path = inst.indices();
    let Some(mut aggregate) = inst.operand(0) else {
        return Extracted::Unknown;
    };
    for _ in 0..64 {
        if path.is_empty() {
            return Extracted::Value(aggregate);
        }
        match aggregate.opcode() {
            Some(Opcode::LLVMInsertValue) => {
                let at = aggregate.indices();
                if path.starts_with(&at) {
                    // Reading the inserted value, or inside it.
                    path.drain(..at.len());
                    match aggregate.operand(1) {
                        Some(v) => aggregate = v,
                        None => return Extracted::Unknown,
                    }
                } else if at.starts_with(&path) {
                    // Reading an aggregate a part of which was replaced.
                    return Extracted::Unknown;
                } else {
                    match aggregate.operand(0) {
                        Some(v) => aggregate = v,
                        None => return Extracted::Unknown,
                    }
                }
            }
            Some(Opcode::LLVMCall) => {
                return match (intrinsic(aggregate), path.as_slice()) {
                    (Some(name), &[i @ (0 | 1)]) if is_overflow(&name) => {
                        Extracted::Overflow(aggregate, i)
                    }
                    _ => Extracted::Unknown,
                };
            }
            Some(_) => return Extracted::Unknown,
            None => match aggregate.kind() {
                ValueKind::LLVMConstantAggregateZeroValueKind => return Extracted::Zero,
                ValueKind::LLVMConstantStructValueKind
                | ValueKind::LLVMConstantArrayValueKind
                | ValueKind::LLVMConstantDataArrayValueKind => {
                    match aggregate.element(u64::from(path.remove(0))) {
                        Some(v) => aggregate = v,
                        None => return Extracted::Unknown,
                    }
                }
                _ => return Extracted::Unknown,
            },
        }
    }
    Extracted::Unknown
}

/// A `!range` in the form the lowering uses: the lowest value `lo` (as an `N`-bit pattern), how
/// many values follow it (`n`, with `0 < n < 2⁶³`), and whether they stay on one side of the
/// signed boundary (so `lo + k` needs no wrapping on the sign-extended form).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Range {
    lo: u64,
    n: u64,
    signed: bool,
}

/// The `!range` of a load or call with an `N`-bit integer result (`2 <= N <= 64`): the hull of
/// its pairs, when it is not every value.
pub(super) fn range_of(inst: Value<'_>, bits: u32) -> Option<Range> {
    if !(2..=64).contains(&bits) || !matches!(inst.ty().kind(), TyKind::Int(_)) {
        return None;
    }
    let items = inst.metadata("range")?;
    if items.len() < 2 || items.len() % 2 != 0 {
        return None;
    }
    let ints: Vec<u64> = items.iter().map(|v| v.const_int()).collect::<Option<_>>()?;
    let modulo = |x: u64| {
        if bits == 64 {
            x
        } else {
            x & ((1u64 << bits) - 1)
        }
    };
    let lo = modulo(ints[0]);
    let hi = modulo(ints[ints.len() - 1]);
    let n = modulo(hi.wrapping_sub(lo));
    // Every pair's ends must lie in the hull (they are sorted and disjoint in well-formed
    // metadata; anything else is not narrowed).
    let inside = |x: u64| modulo(x.wrapping_sub(lo)) < n;
    let pairs_inside = ints
        .chunks(2)
        .all(|p| inside(p[0]) && (p[1] == ints[ints.len() - 1] || inside(p[1])));
    if n == 0 || n >= 1 << 63 || !pairs_inside {
        return None;
    }
    let signed_lo = sign_extend(lo, bits);
    let signed = i128::from(signed_lo) + i128::from(n) - 1 <= i128::from(signed_max(bits));
    Some(Range { lo, n, signed })
}

/// The `bits`-bit pattern `x` read as signed.
pub(super) fn sign_extend(x: u64, bits: u32) -> i64 {
    if bits >= 64 {
        x as i64
    } else {
        let shift = 64 - bits;
        ((x << shift) as i64) >> shift
    }
}

fn signed_max(bits: u32) -> i64 {
    if bits >= 64 {
        i64::MAX
    } else {
        (1i64 << (bits - 1)) - 1
    }
}

fn signed_min(bits: u32) -> i64 {
    if bits >= 64 {
        i64::MIN
    } else {
        -(1i64 << (bits - 1))
    }
}

impl<'m> FnLower<'_, 'm> {
    /// `dest = rhs`, narrowed to `inst`'s `!range` when it has one, or to the pointers that are
    /// not null when it is a pointer with `!nonnull`.
    pub(super) fn ranged(&mut self, dest: NameId, inst: Value<'m>, bits: u32, rhs: Rhs) {
        // A non-null pointer is an unsigned number in `[1, 2^64)` (null is poison).
        let nonnull = inst.ty().kind() == TyKind::Ptr && inst.metadata("nonnull").is_some();
        let range = if nonnull {
            Some(Range {
                lo: 1,
                n: u64::MAX,
                signed: false,
            })
        } else {
            range_of(inst, bits)
        };
        let Some(range) = range else {
            self.emit(dest, rhs);
            return;
        };
        let u = self.temp(inst);
        self.emit(u, rhs);
        let zu = self.zext(inst, Operand::Name(u), bits);
        let zlo = Operand::Int(range.lo as i64);
        let k = self.temp_binary(inst, Op::Sub, zu, zlo);
        let k = if bits < 64 {
            self.temp_binary(inst, Op::And, k, Operand::Int(mask(bits)))
        } else {
            k
        };
        let k = self.temp_binary(inst, Op::URem, k, Operand::Int(range.n as i64));
        if range.signed {
            let lo = Operand::Int(sign_extend(range.lo, bits));
            self.emit(dest, Rhs::Binary(Op::Add, lo, k));
        } else if bits >= 64 {
            self.emit(dest, Rhs::Binary(Op::Add, zlo, k));
        } else {
            let t = self.temp_binary(inst, Op::Add, zlo, k);
            self.wrap_into(dest, t, bits);
        }
    }

    /// `dest =` the intrinsic call `d` with an `N`-bit result, if the lowering models it.
    pub(super) fn intrinsic_call(
        &mut self,
        dest: NameId,
        d: Value<'m>,
        name: &str,
        bits: u32,
    ) -> bool {
        let arguments = d.arguments();
        let (Some(&a0), b0) = (arguments.first(), arguments.get(1).copied()) else {
            return false;
        };
        let kind = name.split('.').nth(1).unwrap_or("");
        let a = self.operand(a0);
        let b = b0.map(|b| self.operand(b));
        match (kind, b) {
            ("smax" | "smin" | "umax" | "umin", Some(b)) => {
                let op = match kind {
                    "smax" => Op::Gt,
                    "smin" => Op::Lt,
                    "umax" => Op::UGt,
                    _ => Op::ULt,
                };
                let (sa, sb) = (self.signed(d, a, bits), self.signed(d, b, bits));
                let c = if matches!(op, Op::Gt | Op::Lt) {
                    self.temp_binary(d, op, sa, sb)
                } else {
                    self.temp_binary(d, op, a, b)
                };
                self.emit(dest, Rhs::Select(c, a, b));
            }
            // On the bits of a double: the sign bit cleared, or taken from `b`.
            ("fabs", _) if matches!(kind_of(d), Kind::Float(_)) => {
                self.emit(dest, Rhs::Binary(Op::And, a, Operand::Int(i64::MAX)));
            }
            ("copysign", Some(b)) if matches!(kind_of(d), Kind::Float(_)) => {
                let magnitude = self.temp_binary(d, Op::And, a, Operand::Int(i64::MAX));
                let sign = self.temp_binary(d, Op::And, b, Operand::Int(i64::MIN));
                self.emit(dest, Rhs::Binary(Op::Or, magnitude, sign));
            }
            // A square root rounded once more to single precision is the single-precision one.
            ("sqrt", _) if matches!(kind_of(d), Kind::Float(_)) => {
                if kind_of(d) == Kind::Float(32) {
                    let t = self.temp_binary(d, Op::FSqrt, a, Operand::Int(0));
                    self.emit(dest, Rhs::Binary(Op::FPTrunc, t, Operand::Int(32)));
                } else {
                    self.emit(dest, Rhs::Binary(Op::FSqrt, a, Operand::Int(0)));
                }
            }
            // Rounding to an integer value is exact in either precision.
            ("floor" | "ceil" | "trunc" | "round" | "rint" | "nearbyint" | "roundeven", _)
                if matches!(kind_of(d), Kind::Float(_)) =>
            {
                let mode = match kind {
                    "floor" => 0,
                    "ceil" => 1,
                    "trunc" => 2,
                    "round" => 3,
                    _ => 4,
                };
                self.emit(dest, Rhs::Binary(Op::FRound, a, Operand::Int(mode)));
            }
            ("abs", _) if bits > 1 => {
                let negative = self.temp_binary(d, Op::Lt, a, Operand::Int(0));
                let minus = self.temp_binary(d, Op::Sub, Operand::Int(0), a);
                let minus = if bits < 64 {
                    self.temp_binary(d, Op::Trunc, minus, Operand::Int(i64::from(bits)))
                } else {
                    minus
                };
                self.emit(dest, Rhs::Select(negative, minus, a));
            }
            ("uadd" | "usub" | "sadd" | "ssub", Some(b)) if name.contains(".sat.") && bits >= 2 => {
                self.saturating(dest, d, kind, bits, a, b);
            }
            ("ctpop", _) if bits <= 64 => {
                let z = self.zext(d, a, bits);
                let count = self.popcount(d, z);
                self.wrap_into(dest, count, bits);
            }
            ("ctlz", _) if bits <= 64 => {
                // Every bit below the highest set one filled in: N minus its population count.
                let mut v = self.zext(d, a, bits);
                let mut shift = 1;
                while shift < bits {
                    let s = self.temp_binary(d, Op::LShr, v, Operand::Int(i64::from(shift)));
                    v = self.temp_binary(d, Op::Or, v, s);
                    shift *= 2;
                }
                let filled = self.popcount(d, v);
                let t = self.temp_binary(d, Op::Sub, Operand::Int(i64::from(bits)), filled);
                self.wrap_into(dest, t, bits);
            }
            ("cttz", _) if bits <= 64 => {
                // The bits below the lowest set one: `(v & -v) - 1`, masked to N bits (all N
                // of them for zero).
                let z = self.zext(d, a, bits);
                let minus = self.temp_binary(d, Op::Sub, Operand::Int(0), z);
                let lowest = self.temp_binary(d, Op::And, z, minus);
                let below = self.temp_binary(d, Op::Sub, lowest, Operand::Int(1));
                let below = if bits < 64 {
                    self.temp_binary(d, Op::And, below, Operand::Int(mask(bits)))
                } else {
                    below
                };
                let count = self.popcount(d, below);
                self.wrap_into(dest, count, bits);
            }
            ("bswap", _) if bits % 16 == 0 && bits <= 64 => {
                let z = self.zext(d, a, bits);
                let bytes = bits / 8;
                let mut acc = Operand::Int(0);
                for i in 0..bytes {
                    let byte = self.temp_binary(d, Op::LShr, z, Operand::Int(i64::from(8 * i)));
                    let byte = self.temp_binary(d, Op::And, byte, Operand::Int(0xff));
                    let to = i64::from(8 * (bytes - 1 - i));
                    let placed = self.temp_binary(d, Op::Shl, byte, Operand::Int(to));
                    acc = self.temp_binary(d, Op::Or, acc, placed);
                }
                self.wrap_into(dest, acc, bits);
            }
            _ => return false,
        }
        true
    }

    /// The population count of `v`, a zero-extended value: the bit-parallel sums of pairs,
    /// nibbles and bytes, added up by one multiplication.
    fn popcount(&mut self, d: Value<'m>, v: Operand) -> Operand {
        const M1: i64 = 0x5555_5555_5555_5555;
        const M2: i64 = 0x3333_3333_3333_3333;
        const M4: i64 = 0x0f0f_0f0f_0f0f_0f0f;
        const H01: i64 = 0x0101_0101_0101_0101;
        let s = self.temp_binary(d, Op::LShr, v, Operand::Int(1));
        let s = self.temp_binary(d, Op::And, s, Operand::Int(M1));
        let v = self.temp_binary(d, Op::Sub, v, s);
        let low = self.temp_binary(d, Op::And, v, Operand::Int(M2));
        let s = self.temp_binary(d, Op::LShr, v, Operand::Int(2));
        let high = self.temp_binary(d, Op::And, s, Operand::Int(M2));
        let v = self.temp_binary(d, Op::Add, low, high);
        let s = self.temp_binary(d, Op::LShr, v, Operand::Int(4));
        let v = self.temp_binary(d, Op::Add, v, s);
        let v = self.temp_binary(d, Op::And, v, Operand::Int(M4));
        let v = self.temp_binary(d, Op::Mul, v, Operand::Int(H01));
        self.temp_binary(d, Op::LShr, v, Operand::Int(56))
    }

    /// `dest =` a saturating addition or subtraction of two `N`-bit values. Where the exact
    /// result fits in 64 bits it is computed and clamped to the width's bounds (so range domains
    /// bound it too); otherwise the wrapped result is kept unless the operation overflowed, and
    /// the bound is the one on the side the first operand lies (signed) or the one the operation
    /// moves towards (unsigned).
    fn saturating(
        &mut self,
        dest: NameId,
        d: Value<'m>,
        kind: &str,
        bits: u32,
        a: Operand,
        b: Operand,
    ) {
        if bits > 63 || (bits == 63 && kind == "uadd") {
            self.saturating_by_overflow(dest, d, kind, bits, a, b);
            return;
        }
        let op = if kind.ends_with("add") {
            Op::Add
        } else {
            Op::Sub
        };
        if kind.starts_with('u') {
            let (za, zb) = (self.zext(d, a, bits), self.zext(d, b, bits));
            let exact = self.temp_binary(d, op, za, zb);
            let (bound, out) = if op == Op::Add {
                // Above the largest value: all ones (-1 in the sign-extended form).
                let c = self.temp_binary(d, Op::Gt, exact, Operand::Int(mask(bits)));
                (c, Operand::Int(-1))
            } else {
                (
                    self.temp_binary(d, Op::Lt, exact, Operand::Int(0)),
                    Operand::Int(0),
                )
            };
            let wrapped = self.temp_binary(d, Op::Trunc, exact, Operand::Int(i64::from(bits)));
            self.emit(dest, Rhs::Select(bound, out, wrapped));
        } else {
            let exact = self.temp_binary(d, op, a, b);
            let (min, max) = (signed_min(bits), signed_max(bits));
            let above = self.temp_binary(d, Op::Gt, exact, Operand::Int(max));
            let below = self.temp_binary(d, Op::Lt, exact, Operand::Int(min));
            let t = self.temp(d);
            self.emit(t, Rhs::Select(below, Operand::Int(min), exact));
            self.emit(
                dest,
                Rhs::Select(above, Operand::Int(max), Operand::Name(t)),
            );
        }
    }

    /// [`FnLower::saturating`] where the exact result may not fit in 64 bits.
    fn saturating_by_overflow(
        &mut self,
        dest: NameId,
        d: Value<'m>,
        kind: &str,
        bits: u32,
        a: Operand,
        b: Operand,
    ) {
        let signed = kind.starts_with('s');
        let op = if kind.ends_with("add") {
            Op::Add
        } else {
            Op::Sub
        };
        let Some(rhs) = self.overflow_rhs(d, signed, op, bits, a, b) else {
            let u = self.unknown();
            self.emit(dest, Rhs::Use(u));
            return;
        };
        let overflows = self.temp(d);
        self.emit(overflows, rhs);
        let wrapped = self.temp_binary(d, op, a, b);
        let wrapped = if bits < 64 {
            self.temp_binary(d, Op::Trunc, wrapped, Operand::Int(i64::from(bits)))
        } else {
            wrapped
        };
        let bound = match (signed, op) {
            (false, Op::Add) => Operand::Int(-1),
            (false, _) => Operand::Int(0),
            (true, _) => {
                let negative = self.temp_binary(d, Op::Lt, a, Operand::Int(0));
                let t = self.temp(d);
                let (min, max) = (
                    Operand::Int(signed_min(bits)),
                    Operand::Int(signed_max(bits)),
                );
                self.emit(t, Rhs::Select(negative, min, max));
                Operand::Name(t)
            }
        };
        self.emit(dest, Rhs::Select(Operand::Name(overflows), bound, wrapped));
    }

    /// `dest =` field `field` of the overflow intrinsic call `call`: the wrapped result (0) or
    /// whether the operation overflowed (1).
    pub(super) fn overflow(&mut self, dest: NameId, call: Value<'m>, field: u32) {
        let name = intrinsic(call).unwrap_or_default();
        let arguments = call.arguments();
        let (Some((op, signed)), Some(&a0), Some(&a1)) =
            (overflow_op(&name), arguments.first(), arguments.get(1))
        else {
            let u = self.unknown();
            self.emit(dest, Rhs::Use(u));
            return;
        };
        let bits = bits_of(kind_of(a0));
        let (a, b) = (self.operand(a0), self.operand(a1));
        if field == 0 {
            self.arith(dest, call, bits, op, a, b, false);
            return;
        }
        match self.overflow_rhs(call, signed, op, bits, a, b) {
            Some(rhs) => self.emit(dest, rhs),
            None => {
                let u = self.unknown();
                self.emit(dest, Rhs::Use(u));
            }
        }
    }

    /// Whether `a op b` overflows `bits` bits (signed or unsigned), as 0 or 1; `None` where
    /// the lowering does not model it (`i1`).
    fn overflow_rhs(
        &mut self,
        call: Value<'m>,
        signed: bool,
        op: Op,
        bits: u32,
        a: Operand,
        b: Operand,
    ) -> Option<Rhs> {
        match (signed, op) {
            _ if bits < 2 => None,
            // The exact result fits in 64 bits: compare it with the width's bounds.
            (true, Op::Add | Op::Sub) if bits < 64 => {
                let exact = self.temp_binary(call, op, a, b);
                Some(self.outside(call, exact, signed_min(bits), signed_max(bits)))
            }
            (true, Op::Mul) if bits <= 32 => {
                let exact = self.temp_binary(call, op, a, b);
                Some(self.outside(call, exact, signed_min(bits), signed_max(bits)))
            }
            // Wider products: the wrapped product divided by one operand is the other exactly
            // when nothing was lost (the divisor replaced by 1 where it is 0, which never
            // overflows; `MIN * -1` is the one case the signed quotient misses).
            (_, Op::Mul) if bits > 32 => Some(self.product_overflows(call, signed, bits, a, b)),
            (false, Op::Add | Op::Mul) if bits <= 32 || (op == Op::Add && bits < 63) => {
                let (za, zb) = (self.zext(call, a, bits), self.zext(call, b, bits));
                let exact = self.temp_binary(call, op, za, zb);
                Some(Rhs::Binary(Op::UGt, exact, Operand::Int(mask(bits))))
            }
            // Borrowing: `a < b` unsigned; the sign-extended forms keep the unsigned order.
            (false, Op::Sub) => Some(Rhs::Binary(Op::ULt, a, b)),
            // Carrying at 63 or 64 bits: the wrapped sum is below an operand.
            (false, Op::Add) => {
                let (za, zb) = (self.zext(call, a, bits), self.zext(call, b, bits));
                let sum = self.temp_binary(call, Op::Add, za, zb);
                let wrapped = self.zext(call, sum, bits);
                Some(Rhs::Binary(Op::ULt, wrapped, za))
            }
            // 64-bit signed: the result's sign differs from both operands' (addition) or from
            // the first's where the operands' differ (subtraction).
            (true, Op::Add | Op::Sub) => {
                let r = self.temp_binary(call, op, a, b);
                let left = self.temp_binary(call, Op::Xor, a, r);
                let right = if op == Op::Add {
                    self.temp_binary(call, Op::Xor, b, r)
                } else {
                    self.temp_binary(call, Op::Xor, a, b)
                };
                let both = self.temp_binary(call, Op::And, left, right);
                Some(Rhs::Binary(Op::Lt, both, Operand::Int(0)))
            }
            _ => None,
        }
    }

    /// Whether the `N`-bit product of `a` and `b` overflows, for `32 < N <= 64`.
    fn product_overflows(
        &mut self,
        call: Value<'m>,
        signed: bool,
        bits: u32,
        a: Operand,
        b: Operand,
    ) -> Rhs {
        let (a, b) = if signed {
            (a, b)
        } else {
            (self.zext(call, a, bits), self.zext(call, b, bits))
        };
        let product = self.temp_binary(call, Op::Mul, a, b);
        let product = if signed {
            self.temp_binary(call, Op::Trunc, product, Operand::Int(i64::from(bits)))
        } else {
            self.zext(call, product, bits)
        };
        let zero = self.temp_binary(call, Op::Eq, a, Operand::Int(0));
        let t = self.temp(call);
        self.emit(t, Rhs::Select(zero, Operand::Int(1), a));
        let div = if signed { Op::Div } else { Op::UDiv };
        let quotient = self.temp_binary(call, div, product, Operand::Name(t));
        let lost = self.temp_binary(call, Op::Ne, quotient, b);
        let lost = if signed {
            let minus_one = self.temp_binary(call, Op::Eq, a, Operand::Int(-1));
            let min = self.temp_binary(call, Op::Eq, b, Operand::Int(signed_min(bits)));
            let both = self.temp_binary(call, Op::And, minus_one, min);
            self.temp_binary(call, Op::Or, lost, both)
        } else {
            lost
        };
        let nonzero = self.temp_binary(call, Op::Ne, a, Operand::Int(0));
        Rhs::Binary(Op::And, nonzero, lost)
    }

    /// `exact < min || exact > max`, as 0 or 1.
    fn outside(&mut self, base: Value<'m>, exact: Operand, min: i64, max: i64) -> Rhs {
        let below = self.temp_binary(base, Op::Lt, exact, Operand::Int(min));
        let above = self.temp_binary(base, Op::Gt, exact, Operand::Int(max));
        Rhs::Binary(Op::Or, below, above)
    }
}
