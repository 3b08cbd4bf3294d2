//! Membership of concrete integers in abstract values: the concretization γ of each numeric
//! lattice, used by the value analyses (to decide branches) and by the soundness checks.

use crate::lattice::{Congruence, Flat, Interval, Lattice, Lift, Parity, Sign};
use crate::lattice::{FiniteSum, JoinCost};

/// The concrete integers an abstract value stands for.
///
/// # Laws
///
/// `bottom` contains nothing; if `a.leq(b)` then everything `a` contains `b` contains; a top
/// element contains every `i64`; `as_constant() == Some(c)` implies `contains(c)` and nothing
/// else.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not say which integers it stands for (`Concrete`)",
    label = "`{Self}` does not implement `absinthe::value::Concrete`",
    note = "a component of a `#[lattice(product)]` and a value domain must implement `absinthe::value::Concrete` (`fn contains(&self, v: i64) -> bool`, the integers a value stands for; `#[lattice]` does not write it): implement it for `{Self}`, returning `true` when unsure is sound"
)]
pub trait Concrete {
    /// Whether the concrete value `v` is described by `self`.
    fn contains(&self, v: i64) -> bool;

    /// The single value `self` describes, if it is exactly one. The default knows none.
    fn as_constant(&self) -> Option<i64> {
        None
    }

    /// The one address (a symbol plus a byte offset, see
    /// [`Rhs::Address`](crate::program::Rhs::Address)) `self` describes, if it describes exactly
    /// one. The default knows none.
    fn as_address(&self) -> Option<(crate::program::SymbolId, i64)> {
        None
    }
}

impl Concrete for Flat<i64> {
    fn contains(&self, v: i64) -> bool {
        match self {
            Flat::Bottom => false,
            Flat::Value(c) => *c == v,
            Flat::Top => true,
        }
    }

    fn as_constant(&self) -> Option<i64> {
        match self {
            Flat::Value(c) => Some(*c),
            Flat::Bottom | Flat::Top => None,
        }
    }
}

impl Concrete for Interval {
    fn contains(&self, v: i64) -> bool {
        Interval::contains(self, v)
    }

    fn as_constant(&self) -> Option<i64> {
        Interval::as_constant(self)
    }
}

impl Concrete for Sign {
    fn contains(&self, v: i64) -> bool {
        Sign::contains(self, v)
    }

    fn as_constant(&self) -> Option<i64> {
        (*self == Sign::of(0)).then_some(0)
    }
}

impl Concrete for Parity {
    fn contains(&self, v: i64) -> bool {
        Parity::contains(self, v)
    }
}

impl Concrete for Congruence {
    fn contains(&self, v: i64) -> bool {
        Congruence::contains(self, v)
    }

    fn as_constant(&self) -> Option<i64> {
        Congruence::as_constant(self)
    }
}

impl<L: Lattice + Concrete> Concrete for Lift<L> {
    fn contains(&self, v: i64) -> bool {
        match self {
            Lift::Bottom => false,
            Lift::Lifted(l) => l.contains(v),
        }
    }

    fn as_constant(&self) -> Option<i64> {
        match self {
            Lift::Bottom => None,
            Lift::Lifted(l) => l.as_constant(),
        }
    }
}

impl<D, const N: usize, C> Concrete for FiniteSum<D, N, C>
where
    D: Lattice + Ord + Concrete,
    C: JoinCost<D>,
{
    fn contains(&self, v: i64) -> bool {
        self.values().iter().any(|d| d.contains(v))
    }

    fn as_constant(&self) -> Option<i64> {
        match self.values() {
            [only] => only.as_constant(),
            _ => None,
        }
    }
}
