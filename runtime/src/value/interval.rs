//! Intervals as a [`ValueDomain`]: sound interval arithmetic over wrapping `i64`, and branch
//! refinement.

use super::ValueDomain;
use crate::lattice::{Interval, Lattice};
use crate::program::Op;

/// The interval `[lo, hi]` computed in `i128`, or top when it leaves the `i64` range (the
/// concrete operation wraps, so its result could then be anything).
fn fit(lo: i128, hi: i128) -> Interval {
    match (i64::try_from(lo), i64::try_from(hi)) {
        (Ok(lo), Ok(hi)) => Interval::new(lo, hi),
        _ => Interval::top(),
    }
}

/// The smallest interval holding every `i128` of `values`, or top when one leaves `i64`.
fn hull(values: impl IntoIterator<Item = i128>) -> Interval {
    let mut it = values.into_iter();
    let Some(first) = it.next() else {
        return Interval::empty();
    };
    let (lo, hi) = it.fold((first, first), |(lo, hi), v| (lo.min(v), hi.max(v)));
    fit(lo, hi)
}

/// `0 ..= 2^k - 1` covering every value up to `max` (for bitwise results of non-negatives).
fn bit_cover(max: i64) -> i64 {
    if max <= 0 {
        return 0;
    }
    let bits = 64 - max.leading_zeros();
    if bits >= 63 {
        i64::MAX
    } else {
        (1i64 << bits) - 1
    }
}

/// The smallest `[-2^n, 2^n - 1]` that holds both intervals: every `n + 1`-bit signed number.
/// Bitwise operations keep values there (their sign-extended bits stay sign-extended), which
/// is what an `iN` value's width gives a front end that keeps it sign-extended in 64 bits.
fn signed_cover(x: (i64, i64), y: (i64, i64)) -> Interval {
    let magnitude = |v: i64| 64 - (if v < 0 { !v } else { v }).leading_zeros();
    let n = [x.0, x.1, y.0, y.1]
        .into_iter()
        .map(magnitude)
        .max()
        .unwrap_or(63);
    if n >= 63 {
        Interval::top()
    } else {
        Interval::new(-(1i64 << n), (1i64 << n) - 1)
    }
}

fn div_range(a: (i64, i64), b: (i64, i64)) -> Interval {
    // Division is monotone in the dividend and, for a divisor of one sign, in the divisor:
    // the extremes are at the corners.
    let corners = [(a.0, b.0), (a.0, b.1), (a.1, b.0), (a.1, b.1)];
    hull(corners.iter().map(|&(x, y)| i128::from(x) / i128::from(y)))
}

fn divide(a: (i64, i64), b: (i64, i64)) -> Interval {
    let negative = (b.0 <= -1).then(|| div_range(a, (b.0, b.1.min(-1))));
    let positive = (b.1 >= 1).then(|| div_range(a, (b.0.max(1), b.1)));
    match (negative, positive) {
        (Some(n), Some(p)) => n.join(&p),
        (Some(x), None) | (None, Some(x)) => x,
        // The divisor is exactly zero: the operation always traps.
        (None, None) => Interval::empty(),
    }
}

fn remainder(a: (i64, i64), b: (i64, i64)) -> Interval {
    if b == (0, 0) {
        return Interval::empty();
    }
    // |a % b| < |b| and the result has the sign of the dividend (or is zero).
    let m = i128::from(b.0).abs().max(i128::from(b.1).abs()) - 1;
    let (lo, hi) = (i128::from(a.0), i128::from(a.1));
    let lo = if lo >= 0 { 0 } else { lo.max(-m) };
    let hi = if hi <= 0 { 0 } else { hi.min(m) };
    fit(lo, hi)
}

/// The unsigned reading of the bit patterns of `x`: exact when `x` lies on one side of zero,
/// every `u64` otherwise.
fn unsigned(x: (i64, i64)) -> (u64, u64) {
    if x.0 >= 0 || x.1 < 0 {
        (x.0 as u64, x.1 as u64)
    } else {
        (0, u64::MAX)
    }
}

/// The values of `x` whose bit patterns, read as unsigned, lie in `[ulo, uhi]`: the hull of the
/// non-negative part and the negative part (each is an interval in both readings).
fn within_unsigned(x: (i64, i64), ulo: u64, uhi: u64) -> Interval {
    const HALF: u64 = 1 << 63;
    if ulo > uhi {
        return Interval::empty();
    }
    let nonneg = if x.1 >= 0 && ulo < HALF {
        Interval::new(x.0.max(ulo as i64), x.1.min(uhi.min(HALF - 1) as i64))
    } else {
        Interval::empty()
    };
    let negative = if x.0 < 0 && uhi >= HALF {
        Interval::new(x.0.max(ulo.max(HALF) as i64), x.1.min(-1).min(uhi as i64))
    } else {
        Interval::empty()
    };
    nonneg.join(&negative)
}

/// Every `i64` whose bit pattern, read as unsigned, lies in `[ulo, uhi]` (as an interval).
fn from_unsigned(ulo: u64, uhi: u64) -> Interval {
    within_unsigned((i64::MIN, i64::MAX), ulo, uhi)
}

/// The comparison `op` of the unsigned readings of `a` and `b`.
fn compare_unsigned(op: Op, a: (i64, i64), b: (i64, i64)) -> Interval {
    let signed = match op {
        Op::ULt => Op::Lt,
        Op::ULe => Op::Le,
        Op::UGt => Op::Gt,
        _ => Op::Ge,
    };
    decide(signed, unsigned(a), unsigned(b))
}

fn compare(op: Op, a: (i64, i64), b: (i64, i64)) -> Interval {
    decide(op, a, b)
}

/// Decides the comparison `op` (a signed one) of every member of `a` with every member of `b`.
fn decide<T: Ord + Copy>(op: Op, a: (T, T), b: (T, T)) -> Interval {
    let (always, never) = match op {
        Op::Lt => (a.1 < b.0, a.0 >= b.1),
        Op::Le => (a.1 <= b.0, a.0 > b.1),
        Op::Gt => (a.0 > b.1, a.1 <= b.0),
        Op::Ge => (a.0 >= b.1, a.1 < b.0),
        Op::Eq => (
            a.0 == a.1 && b.0 == b.1 && a.0 == b.0,
            a.1 < b.0 || b.1 < a.0,
        ),
        Op::Ne => (
            a.1 < b.0 || b.1 < a.0,
            a.0 == a.1 && b.0 == b.1 && a.0 == b.0,
        ),
        _ => (false, false),
    };
    match (always, never) {
        (true, _) => Interval::new(1, 1),
        (_, true) => Interval::new(0, 0),
        _ => Interval::new(0, 1),
    }
}

/// Intervals refine compared names on branches (`x < 10` taken ⇒ `x ≤ 9`) and compute results
/// that wrap as top.
impl ValueDomain for Interval {
    // Each `rules_*` sits just above the function it names, so that its location leads there.
    fn rules_constant() -> Vec<String> {
        vec![format!(
            "the built-in literal rule of `Interval` at {}:{}",
            file!(),
            line!()
        )]
    }

    fn constant(c: i64) -> Interval {
        Interval::new(c, c)
    }

    fn rules_binary(op: Op) -> Vec<String> {
        vec![format!(
            "the built-in `{op}` of `Interval` at {}:{}",
            file!(),
            line!()
        )]
    }

    fn binary(op: Op, a: &Interval, b: &Interval) -> Interval {
        let (Some(x), Some(y)) = (a.bounds(), b.bounds()) else {
            return Interval::empty();
        };
        if let (Some(p), Some(q)) = (a.as_constant(), b.as_constant()) {
            return op
                .eval(p, q)
                .map_or_else(Interval::empty, |v| Interval::new(v, v));
        }
        let (x0, x1, y0, y1) = (
            i128::from(x.0),
            i128::from(x.1),
            i128::from(y.0),
            i128::from(y.1),
        );
        match op {
            Op::Add => fit(x0 + y0, x1 + y1),
            Op::Sub => fit(x0 - y1, x1 - y0),
            Op::Mul => hull([x0 * y0, x0 * y1, x1 * y0, x1 * y1]),
            Op::Div => divide(x, y),
            Op::Rem => remainder(x, y),
            Op::And => match (x.0 >= 0, y.0 >= 0) {
                (true, true) => Interval::new(0, x.1.min(y.1)),
                (true, false) => Interval::new(0, x.1),
                (false, true) => Interval::new(0, y.1),
                (false, false) => signed_cover(x, y),
            },
            Op::Or | Op::Xor if x.0 >= 0 && y.0 >= 0 => Interval::new(0, bit_cover(x.1.max(y.1))),
            Op::Shr => match b.as_constant() {
                Some(k) => {
                    let k = (k & 63) as u32;
                    Interval::new(x.0 >> k, x.1 >> k)
                }
                None if x.0 >= 0 => Interval::new(0, x.1),
                None => Interval::top(),
            },
            Op::Shl => match b.as_constant() {
                Some(k) => {
                    let factor = 1i128 << (k & 63);
                    fit(x0 * factor, x1 * factor)
                }
                None => Interval::top(),
            },
            Op::Or | Op::Xor => signed_cover(x, y),
            Op::Lt | Op::Le | Op::Gt | Op::Ge | Op::Eq | Op::Ne => compare(op, x, y),
            Op::ULt | Op::ULe | Op::UGt | Op::UGe => compare_unsigned(op, x, y),
            Op::UDiv | Op::URem => {
                let (ua, ub) = (unsigned(x), unsigned(y));
                if ub.1 == 0 {
                    // The divisor is exactly zero: the operation always traps.
                    return Interval::empty();
                }
                let ub = (ub.0.max(1), ub.1);
                if op == Op::UDiv {
                    from_unsigned(ua.0 / ub.1, ua.1 / ub.0)
                } else if ua.1 < ub.0 {
                    // Every dividend is below every divisor: the remainder is the dividend.
                    *a
                } else {
                    from_unsigned(0, ua.1.min(ub.1 - 1))
                }
            }
            Op::LShr => {
                let ua = unsigned(x);
                let (kmin, kmax) = if y.0 >= 0 && y.1 <= 63 {
                    (y.0 as u32, y.1 as u32)
                } else {
                    (0, 63)
                };
                from_unsigned(ua.0 >> kmax, ua.1 >> kmin)
            }
            Op::Trunc => match b.as_constant() {
                Some(n @ 1..=63) => {
                    let m = 1i64 << (n - 1);
                    if x.0 >= -m && x.1 < m {
                        *a
                    } else {
                        Interval::new(-m, m - 1)
                    }
                }
                Some(_) => *a,
                None => Interval::top(),
            },
            Op::FCmp => Interval::new(1, 8),
            // An `n`-bit integer in the 64-bit form, whatever the double was.
            Op::FPToSI | Op::FPToUI => match b.as_constant() {
                Some(1) => Interval::new(0, 1),
                Some(n @ 2..=63) => Interval::new(-(1i64 << (n - 1)), (1i64 << (n - 1)) - 1),
                _ => Interval::top(),
            },
            Op::FBits => match b.as_constant() {
                Some(32) => Interval::new(i64::from(i32::MIN), i64::from(i32::MAX)),
                Some(_) => *a,
                None => Interval::top(),
            },
            Op::FFromBits => match b.as_constant() {
                Some(n) if n != 32 => *a,
                _ => Interval::top(),
            },
            // The bits of a double are not ordered like the numbers they stand for.
            Op::FAdd
            | Op::FSub
            | Op::FMul
            | Op::FDiv
            | Op::FRem
            | Op::FPTrunc
            | Op::SIToFP
            | Op::UIToFP
            | Op::FSqrt
            | Op::FRound => Interval::top(),
        }
    }

    fn rules_assume(op: Op) -> Vec<String> {
        vec![format!(
            "the built-in branch refinement on `{op}` of `Interval` at {}:{}",
            file!(),
            line!()
        )]
    }

    fn assume(op: Op, a: &Interval, b: &Interval) -> (Interval, Interval) {
        let (Some(x), Some(y)) = (a.bounds(), b.bounds()) else {
            return (Interval::empty(), Interval::empty());
        };
        let below = |hi: i64| Interval::new(i64::MIN, hi);
        let above = |lo: i64| Interval::new(lo, i64::MAX);
        match op {
            // a < b: a ≤ b.hi - 1 and b ≥ a.lo + 1 (empty when no i64 fits).
            Op::Lt => (
                y.1.checked_sub(1)
                    .map_or_else(Interval::empty, |h| a.meet(&below(h))),
                x.0.checked_add(1)
                    .map_or_else(Interval::empty, |l| b.meet(&above(l))),
            ),
            Op::Le => (a.meet(&below(y.1)), b.meet(&above(x.0))),
            Op::Gt => {
                let (rb, ra) = Self::assume(Op::Lt, b, a);
                (ra, rb)
            }
            Op::Ge => {
                let (rb, ra) = Self::assume(Op::Le, b, a);
                (ra, rb)
            }
            Op::Eq => {
                let both = a.meet(b);
                (both, both)
            }
            Op::Ne => (exclude(a, b.as_constant()), exclude(b, a.as_constant())),
            // a <u b: the unsigned reading of a is at most b's largest minus one, and b's is at
            // least a's smallest plus one.
            Op::ULt => {
                let (ua, ub) = (unsigned(x), unsigned(y));
                match (ub.1.checked_sub(1), ua.0.checked_add(1)) {
                    (Some(h), Some(l)) => {
                        (within_unsigned(x, 0, h), within_unsigned(y, l, u64::MAX))
                    }
                    _ => (Interval::empty(), Interval::empty()),
                }
            }
            Op::ULe => {
                let (ua, ub) = (unsigned(x), unsigned(y));
                (
                    within_unsigned(x, 0, ub.1),
                    within_unsigned(y, ua.0, u64::MAX),
                )
            }
            Op::UGt => {
                let (rb, ra) = Self::assume(Op::ULt, b, a);
                (ra, rb)
            }
            Op::UGe => {
                let (rb, ra) = Self::assume(Op::ULe, b, a);
                (ra, rb)
            }
            _ => (*a, *b),
        }
    }
}

/// `a` without the value `c` where that shrinks the interval (only at its ends).
fn exclude(a: &Interval, c: Option<i64>) -> Interval {
    let (Some(c), Some((lo, hi))) = (c, a.bounds()) else {
        return *a;
    };
    if lo == c && hi == c {
        Interval::empty()
    } else if lo == c {
        Interval::new(lo + 1, hi)
    } else if hi == c {
        Interval::new(lo, hi - 1)
    } else {
        *a
    }
}
