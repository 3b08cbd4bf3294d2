//! The lattice trait family and the standard lattices.
//!
//! Every abstract domain in absinthe implements [`Lattice`]; domains with a greatest element also
//! implement [`Top`]. The laws each operation must obey are written on the methods and checked for
//! every lattice in the repository by the generic checker in `crate::laws` (feature `laws`).

mod address;
mod congruence;
mod dual;
mod finite_sum;
mod flat;
mod generation;
mod interval;
mod lift;
mod map;
mod names;
mod parity;
mod powerset;
mod sign;
mod steps;
mod traits;

pub use address::Address;
pub use congruence::Congruence;
pub use dual::Dual;
pub use finite_sum::{DefaultCost, FiniteSum, JoinCost, canonical_disjuncts, widen_disjuncts};
pub use flat::Flat;
pub use generation::Generation;
pub use interval::Interval;
pub use lift::Lift;
pub use map::{Iter as MapIter, MapKey, MapLattice};
pub use names::Names;
pub use parity::Parity;
pub use powerset::Powerset;
pub use sign::Sign;
pub use steps::{Step, Steps};
pub use traits::{Changed, Lattice, Thresholds, Top, replace_if_changed};
