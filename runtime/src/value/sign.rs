//! Signs as a [`ValueDomain`]: each sign is the interval it stands for (`<0` is
//! `[int::MIN, -1]`, `=0` is `[0, 0]`, `>0` is `[1, int::MAX]`), so every operation is the
//! interval domain's on each pair of signs, and the result is the signs its intervals meet.
//! Sound wherever [`Interval`]'s transfer functions are (wrapping arithmetic included, which
//! is why `>0 + >0` is any sign), and as precise as they are on these three intervals.

use super::ValueDomain;
use crate::lattice::{Interval, Lattice, Sign};
use crate::program::Op;

/// The single signs, each with the interval it stands for.
fn atoms() -> [(Sign, Interval); 3] {
    [
        (Sign::Neg, Interval::new(i64::MIN, -1)),
        (Sign::Zero, Interval::constant(0)),
        (Sign::Pos, Interval::new(1, i64::MAX)),
    ]
}

/// The single signs in `s`, as intervals.
fn pieces(s: Sign) -> impl Iterator<Item = Interval> {
    atoms()
        .into_iter()
        .filter(move |(atom, _)| atom.leq(&s))
        .map(|(_, i)| i)
}

/// The signs of the members of `i`.
fn sign_of(i: &Interval) -> Sign {
    let mut out = Sign::Bottom;
    for (atom, piece) in atoms() {
        if !piece.meet(i).is_bottom() {
            out = out.join(&atom);
        }
    }
    out
}

impl ValueDomain for Sign {
    fn rules_constant() -> Vec<String> {
        vec![format!(
            "the built-in literal rule of `Sign` at {}:{}",
            file!(),
            line!()
        )]
    }

    fn constant(c: i64) -> Sign {
        Sign::of(c)
    }

    fn rules_binary(op: Op) -> Vec<String> {
        vec![format!(
            "the built-in `{op}` of `Sign` at {}:{}",
            file!(),
            line!()
        )]
    }

    fn binary(op: Op, a: &Sign, b: &Sign) -> Sign {
        let mut out = Sign::Bottom;
        for x in pieces(*a) {
            for y in pieces(*b) {
                out = out.join(&sign_of(&Interval::binary(op, &x, &y)));
            }
        }
        out
    }

    fn rules_assume(op: Op) -> Vec<String> {
        vec![format!(
            "the built-in branch refinement on `{op}` of `Sign` at {}:{}",
            file!(),
            line!()
        )]
    }

    fn assume(op: Op, a: &Sign, b: &Sign) -> (Sign, Sign) {
        let (mut left, mut right) = (Sign::Bottom, Sign::Bottom);
        for x in pieces(*a) {
            for y in pieces(*b) {
                let (x, y) = Interval::assume(op, &x, &y);
                // A pair of signs the comparison cannot hold for adds nothing to either side.
                if !x.is_bottom() && !y.is_bottom() {
                    left = left.join(&sign_of(&x));
                    right = right.join(&sign_of(&y));
                }
            }
        }
        (left, right)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_follow_the_intervals_they_stand_for() {
        assert_eq!(Sign::binary(Op::Mul, &Sign::Neg, &Sign::Neg), Sign::Top);
        assert_eq!(Sign::binary(Op::Mul, &Sign::Zero, &Sign::Top), Sign::Zero);
        assert_eq!(Sign::binary(Op::Lt, &Sign::Neg, &Sign::Pos), Sign::Pos);
        assert_eq!(
            Sign::binary(Op::Add, &Sign::Bottom, &Sign::Pos),
            Sign::Bottom
        );
        // `x < 0` on an unknown `x` leaves a negative `x`.
        assert_eq!(
            Sign::assume(Op::Lt, &Sign::Top, &Sign::Zero),
            (Sign::Neg, Sign::Zero)
        );
        // `x == 0` with `x` positive cannot hold.
        assert_eq!(
            Sign::assume(Op::Eq, &Sign::Pos, &Sign::Zero),
            (Sign::Bottom, Sign::Bottom)
        );
    }
}
