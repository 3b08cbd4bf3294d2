//! Values of the runtime's numeric domains a file may name without declaring them
//! (`Congruence`, `Parity`, `Sign`): one [`Num`] for the three, with the lattice operations,
//! membership, printing and value-domain operations of the runtime type it holds. The
//! interpreter calls the runtime's own implementations, as generated code does.

use absinthe::lattice::{Congruence, Lattice, Parity, Sign, Thresholds, Top};
use absinthe::program::{Op, SymbolId};
use absinthe::value::{Concrete, ValueDomain};
use absinthe_domc::dom::types::Numeric;
use std::fmt;

/// A value of `Congruence`, `Parity` or `Sign`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Num {
    /// The runtime's `Congruence`.
    Congruence(Congruence),
    /// The runtime's `Parity`.
    Parity(Parity),
    /// The runtime's `Sign`.
    Sign(Sign),
}

/// Runs `$body` with `$x` bound to the runtime value `$v` holds.
macro_rules! each {
    ($v:expr, |$x:ident| $body:expr) => {
        match $v {
            Num::Congruence($x) => $body,
            Num::Parity($x) => $body,
            Num::Sign($x) => $body,
        }
    };
}

/// Runs `$body` on two values of one domain, rewrapping its result; `None` for two domains.
macro_rules! both {
    ($a:expr, $b:expr, |$x:ident, $y:ident| $body:expr) => {
        match ($a, $b) {
            (Num::Congruence($x), Num::Congruence($y)) => Some(Num::Congruence($body)),
            (Num::Parity($x), Num::Parity($y)) => Some(Num::Parity($body)),
            (Num::Sign($x), Num::Sign($y)) => Some(Num::Sign($body)),
            _ => None,
        }
    };
}

/// Runs `$body` (an expression of the domain type `$T`) for the domain `$n`, wrapping it.
macro_rules! of {
    ($n:expr, |$T:ident| $body:expr) => {
        match $n {
            Numeric::Congruence => {
                type $T = Congruence;
                Num::Congruence($body)
            }
            Numeric::Parity => {
                type $T = Parity;
                Num::Parity($body)
            }
            Numeric::Sign => {
                type $T = Sign;
                Num::Sign($body)
            }
        }
    };
}

impl Num {
    /// Bottom of `n`.
    pub fn bottom(n: Numeric) -> Num {
        of!(n, |T| <T as Lattice>::bottom())
    }

    /// Top of `n`.
    pub fn top(n: Numeric) -> Num {
        of!(n, |T| <T as Top>::top())
    }

    /// The abstraction of the literal `c` in `n`.
    pub fn constant(n: Numeric, c: i64) -> Num {
        of!(n, |T| <T as ValueDomain>::constant(c))
    }

    /// The abstraction of `addr @symbol` in `n`.
    pub fn address(n: Numeric, symbol: SymbolId) -> Num {
        of!(n, |T| <T as ValueDomain>::address(symbol))
    }

    /// `Sign::of(c)` or `Parity::of(c)`; `None` for `Congruence`, which has no `of`.
    pub fn of(n: Numeric, c: i64) -> Option<Num> {
        match n {
            Numeric::Sign => Some(Num::Sign(Sign::of(c))),
            Numeric::Parity => Some(Num::Parity(Parity::of(c))),
            Numeric::Congruence => None,
        }
    }

    /// The element called `name` of `n` (one of [`Numeric::elements`]).
    pub fn element(n: Numeric, name: &str) -> Option<Num> {
        let signs = [
            Sign::Bottom,
            Sign::Neg,
            Sign::Zero,
            Sign::Pos,
            Sign::NonPos,
            Sign::NonNeg,
            Sign::NonZero,
            Sign::Top,
        ];
        let parities = [Parity::Bottom, Parity::Even, Parity::Odd, Parity::Top];
        let at = n.elements().iter().position(|e| *e == name)?;
        match n {
            Numeric::Sign => signs.get(at).copied().map(Num::Sign),
            Numeric::Parity => parities.get(at).copied().map(Num::Parity),
            Numeric::Congruence => None,
        }
    }

    /// `Lattice::is_bottom`.
    pub fn is_bottom(&self) -> bool {
        each!(self, |x| x.is_bottom())
    }

    /// `Top::is_top`.
    pub fn is_top(&self) -> bool {
        each!(self, |x| x.is_top())
    }

    /// `Concrete::contains`.
    pub fn contains(&self, v: i64) -> bool {
        each!(self, |x| Concrete::contains(x, v))
    }

    /// `Concrete::as_constant`.
    pub fn as_constant(&self) -> Option<i64> {
        each!(self, |x| Concrete::as_constant(x))
    }

    /// `Lattice::leq`; `None` for values of two domains, as for every operation of two
    /// values here.
    pub fn leq(&self, other: &Num) -> Option<bool> {
        match (self, other) {
            (Num::Congruence(x), Num::Congruence(y)) => Some(x.leq(y)),
            (Num::Parity(x), Num::Parity(y)) => Some(x.leq(y)),
            (Num::Sign(x), Num::Sign(y)) => Some(x.leq(y)),
            _ => None,
        }
    }

    /// `Lattice::join`.
    pub fn join(&self, other: &Num) -> Option<Num> {
        both!(self, other, |x, y| x.join(y))
    }

    /// `Lattice::meet`.
    pub fn meet(&self, other: &Num) -> Option<Num> {
        both!(self, other, |x, y| x.meet(y))
    }

    /// `Lattice::narrow`.
    pub fn narrow(&self, other: &Num) -> Option<Num> {
        both!(self, other, |x, y| x.narrow(y))
    }

    /// `widen`, or `widen_with_thresholds` when `thresholds` are given.
    pub fn widen(&self, other: &Num, thresholds: Option<&Thresholds>) -> Option<Num> {
        both!(self, other, |x, y| match thresholds {
            Some(t) => x.widen_with_thresholds(y, t),
            None => x.widen(y),
        })
    }

    /// The runtime's transfer function of `op`.
    pub fn binary(op: Op, a: &Num, b: &Num) -> Option<Num> {
        both!(a, b, |x, y| ValueDomain::binary(op, x, y))
    }

    /// The runtime's branch refinement on `op`.
    pub fn assume(op: Op, a: &Num, b: &Num) -> Option<(Num, Num)> {
        match (a, b) {
            (Num::Congruence(x), Num::Congruence(y)) => {
                let (p, q) = ValueDomain::assume(op, x, y);
                Some((Num::Congruence(p), Num::Congruence(q)))
            }
            (Num::Parity(x), Num::Parity(y)) => {
                let (p, q) = ValueDomain::assume(op, x, y);
                Some((Num::Parity(p), Num::Parity(q)))
            }
            (Num::Sign(x), Num::Sign(y)) => {
                let (p, q) = ValueDomain::assume(op, x, y);
                Some((Num::Sign(p), Num::Sign(q)))
            }
            _ => None,
        }
    }

    /// The runtime's `(cond p a b)` on kernel terms.
    pub fn term_cond(p: &Num, a: &Num, b: &Num) -> Option<Num> {
        match (p, a, b) {
            (Num::Congruence(p), Num::Congruence(x), Num::Congruence(y)) => Some(Num::Congruence(
                <Congruence as ValueDomain>::term_cond(p, x, y),
            )),
            (Num::Parity(p), Num::Parity(x), Num::Parity(y)) => {
                Some(Num::Parity(<Parity as ValueDomain>::term_cond(p, x, y)))
            }
            (Num::Sign(p), Num::Sign(x), Num::Sign(y)) => {
                Some(Num::Sign(<Sign as ValueDomain>::term_cond(p, x, y)))
            }
            _ => None,
        }
    }

    /// `Congruence::new(m, r)`: the class of `m`'s magnitude.
    pub fn congruence(m: i64, r: i64) -> Num {
        Num::Congruence(Congruence::new(m.unsigned_abs(), r))
    }

    /// A congruence's modulus and residue as `int`s (0 and 0 for bottom; a constant's modulus
    /// is 0 and its residue the constant; from 2⁶³ on they read as their two's complement).
    pub fn class(&self) -> Option<(i64, i64)> {
        match self {
            Num::Congruence(c) => Some(c.class().map_or((0, 0), |(m, r)| (m as i64, r as i64))),
            Num::Parity(_) | Num::Sign(_) => None,
        }
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        each!(self, |x| fmt::Display::fmt(x, f))
    }
}
