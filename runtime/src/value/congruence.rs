//! Congruences and parities as [`ValueDomain`]s.
//!
//! The program's arithmetic wraps modulo 2⁶⁴, so a class modulo `m` survives `+`, `-`, `*` and
//! `<<` only through the power of two dividing `m`: every operation is computed on the *low
//! bits* a value is known to have (`x ≡ r (mod 2ᵏ)`), which wrapping keeps exactly. Constants
//! fold exactly; a class with an odd factor in its modulus keeps it through joins and meets (and
//! a product's reductions) but not through wrapping arithmetic. A parity is the class modulo 2.

use super::ValueDomain;
use crate::lattice::{Congruence, Lattice, Parity};
use crate::program::Op;

/// What every member of a congruence is known to have in its low bits: `(k, r)` with every
/// member `≡ r (mod 2ᵏ)`, `k ≤ 64` (64 for a constant, which wrapping arithmetic computes
/// exactly). `None` for bottom.
fn low_bits(c: &Congruence) -> Option<(u32, u64)> {
    let (m, r) = c.class()?;
    if m == 0 {
        return Some((64, r as i64 as u64));
    }
    let k = m.trailing_zeros();
    // `r` is in `[0, m)`; its class modulo `2ᵏ` (which divides `m`) is its low `k` bits.
    Some((k, r as u64 & mask(k)))
}

/// The low `k` bits set (`k ≤ 64`).
fn mask(k: u32) -> u64 {
    if k >= 64 { u64::MAX } else { (1u64 << k) - 1 }
}

/// The values `≡ r (mod 2ᵏ)`.
fn from_low_bits(k: u32, r: u64) -> Congruence {
    match k {
        64.. => Congruence::constant(r as i64),
        0 => Congruence::top(),
        _ => Congruence::new(1u64 << k, (r & mask(k)) as i64),
    }
}

/// How many low bits of every member are known to be zero: the 2-adic valuation of the
/// members of `(k, r)`.
fn zeros((k, r): (u32, u64)) -> u32 {
    (r & mask(k)).trailing_zeros().min(k)
}

/// The shift amount of a constant second operand (shifts take it modulo 64).
fn shift_amount(b: &Congruence) -> Option<u32> {
    b.as_constant().map(|s| (s & 63) as u32)
}

impl ValueDomain for Congruence {
    fn rules_constant() -> Vec<String> {
        vec![format!(
            "the built-in literal rule of `Congruence` at {}:{}",
            file!(),
            line!()
        )]
    }

    fn constant(c: i64) -> Congruence {
        Congruence::constant(c)
    }

    fn rules_binary(op: Op) -> Vec<String> {
        vec![format!(
            "the built-in `{op}` of `Congruence` at {}:{}",
            file!(),
            line!()
        )]
    }

    fn binary(op: Op, a: &Congruence, b: &Congruence) -> Congruence {
        let (Some(x), Some(y)) = (low_bits(a), low_bits(b)) else {
            return Congruence::empty();
        };
        if let (Some(p), Some(q)) = (a.as_constant(), b.as_constant()) {
            // An operation that traps on its constants gives no value.
            return op
                .eval(p, q)
                .map_or_else(Congruence::empty, Congruence::constant);
        }
        let ((k1, r1), (k2, r2)) = (x, y);
        match op {
            Op::Add => from_low_bits(k1.min(k2), r1.wrapping_add(r2)),
            Op::Sub => from_low_bits(k1.min(k2), r1.wrapping_sub(r2)),
            // (2ᵏ¹q₁ + r₁)(2ᵏ²q₂ + r₂) ≡ r₁r₂ modulo every power of two dividing the other terms.
            Op::Mul => {
                let k = (k1 + k2).min(k1 + zeros(y)).min(k2 + zeros(x)).min(64);
                from_low_bits(k, r1.wrapping_mul(r2))
            }
            Op::And => from_low_bits(k1.min(k2), r1 & r2),
            Op::Or => from_low_bits(k1.min(k2), r1 | r2),
            Op::Xor => from_low_bits(k1.min(k2), r1 ^ r2),
            Op::Shl => match shift_amount(b) {
                Some(s) => from_low_bits((k1 + s).min(64), r1 << s),
                // Shifting left keeps the low zeros and adds more.
                None => from_low_bits(zeros(x), 0),
            },
            // ⌊(2ᵏq + r) / 2ˢ⌋ = 2ᵏ⁻ˢq + ⌊r / 2ˢ⌋, for the signed and the unsigned reading.
            Op::Shr | Op::LShr => match shift_amount(b) {
                Some(s) if k1 > s => from_low_bits(k1 - s, r1 >> s),
                _ => Congruence::top(),
            },
            // `x - d·q`: what `x` and `d` share in their low bits.
            Op::Rem | Op::URem => from_low_bits(k1.min(zeros(y)), r1),
            Op::Trunc => match b.as_constant() {
                Some(w @ 1..=63) if k1 >= w as u32 => op
                    .eval(r1 as i64, w)
                    .map_or_else(Congruence::empty, Congruence::constant),
                // The low bits below the width are kept.
                Some(1..=63) => from_low_bits(k1, r1),
                Some(_) => *a,
                None => Congruence::top(),
            },
            // Equal values share their class: disjoint classes decide `==` and `!=`.
            Op::Eq | Op::Ne if a.meet(b).is_bottom() => {
                Congruence::constant(i64::from(op == Op::Ne))
            }
            _ => Congruence::top(),
        }
    }

    fn rules_assume(op: Op) -> Vec<String> {
        vec![format!(
            "the built-in branch refinement on `{op}` of `Congruence` at {}:{}",
            file!(),
            line!()
        )]
    }

    fn assume(op: Op, a: &Congruence, b: &Congruence) -> (Congruence, Congruence) {
        match op {
            Op::Eq => {
                let both = a.meet(b);
                (both, both)
            }
            Op::Ne if a.as_constant().is_some() && a.as_constant() == b.as_constant() => {
                (Congruence::empty(), Congruence::empty())
            }
            _ => (*a, *b),
        }
    }
}

/// The class modulo 2 a parity stands for.
fn class(p: Parity) -> Congruence {
    match p {
        Parity::Bottom => Congruence::empty(),
        Parity::Even => Congruence::new(2, 0),
        Parity::Odd => Congruence::new(2, 1),
        Parity::Top => Congruence::top(),
    }
}

/// The parity of every member of `c`.
fn parity(c: &Congruence) -> Parity {
    match c.class() {
        None => Parity::Bottom,
        Some((0, v)) => Parity::of(v as i64),
        Some((m, r)) if m % 2 == 0 => Parity::of((r % 2) as i64),
        Some(_) => Parity::Top,
    }
}

impl ValueDomain for Parity {
    fn rules_constant() -> Vec<String> {
        vec![format!(
            "the built-in literal rule of `Parity` at {}:{}",
            file!(),
            line!()
        )]
    }

    fn constant(c: i64) -> Parity {
        Parity::of(c)
    }

    fn rules_binary(op: Op) -> Vec<String> {
        vec![format!(
            "the built-in `{op}` of `Parity` (its class modulo 2 as a `Congruence`) at {}:{}",
            file!(),
            line!()
        )]
    }

    fn binary(op: Op, a: &Parity, b: &Parity) -> Parity {
        parity(&Congruence::binary(op, &class(*a), &class(*b)))
    }

    fn rules_assume(op: Op) -> Vec<String> {
        vec![format!(
            "the built-in branch refinement on `{op}` of `Parity` at {}:{}",
            file!(),
            line!()
        )]
    }

    fn assume(op: Op, a: &Parity, b: &Parity) -> (Parity, Parity) {
        let (p, q) = Congruence::assume(op, &class(*a), &class(*b));
        (parity(&p), parity(&q))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn low_bits_survive_wrapping_arithmetic() {
        let four = Congruence::new(4, 0);
        let step = Congruence::binary(Op::Add, &four, &Congruence::constant(4));
        assert_eq!(step, four);
        // An odd factor does not survive wrapping.
        let three = Congruence::new(12, 3);
        assert_eq!(
            Congruence::binary(Op::Add, &three, &Congruence::constant(1)),
            Congruence::new(4, 0)
        );
        assert_eq!(
            Congruence::binary(Op::Mul, &Congruence::new(2, 1), &Congruence::constant(8)),
            Congruence::new(16, 8)
        );
        assert_eq!(
            Congruence::binary(Op::Eq, &Congruence::new(2, 0), &Congruence::new(2, 1)),
            Congruence::constant(0)
        );
        assert_eq!(
            Parity::binary(Op::Mul, &Parity::Odd, &Parity::Top),
            Parity::Top
        );
        assert_eq!(
            Parity::binary(Op::Mul, &Parity::Even, &Parity::Top),
            Parity::Even
        );
        assert_eq!(
            Parity::binary(Op::Add, &Parity::Odd, &Parity::Odd),
            Parity::Even
        );
        assert_eq!(
            Parity::binary(Op::Div, &Parity::Odd, &Parity::Bottom),
            Parity::Bottom
        );
    }
}
