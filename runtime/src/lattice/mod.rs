//! The lattice trait family and the standard lattices.
//!
//! Every abstract domain in absinthe implements [`Lattice`]; domains with a greatest element also
//! implement [`Top`]. The laws each operation must obey are written on the methods and checked for
//! every lattice in the repository by the generic checker in `crate::laws` (feature `laws`).
//!
//! # The standard lattices
//!
//! Numeric value domains over `i64`, each with a top and a membership test (their
//! [`Concrete`](crate::value::Concrete) impls; for [`Flat`], that of `Flat<i64>`):
//!
//! - [`Interval`]: `[lo, hi]` with infinite bounds; infinite height, widens to `±∞` or to a
//!   [`Thresholds`] constant.
//! - [`Flat`]: `⊥`, one value or `⊤` (constant propagation), over any `T`.
//! - [`Sign`]: the subsets of `{-, 0, +}`.
//! - [`Parity`]: even, odd, either.
//! - [`Congruence`]: `a·ℤ + b` (strides and alignments).
//! - [`Address`]: one symbol plus a constant offset.
//!
//! Sets and maps: [`Powerset`] (finite sets, no top), [`MapLattice`] (a persistent map from
//! [`MapKey`]s to values, ordered pointwise), [`Names`] and [`Steps`] (sets of parameters and of
//! linear steps, for the kernel-term tasks), [`Generation`] (the shape analysis's counter).
//!
//! Constructions over another lattice: [`Lift`] (a new bottom), [`Dual`] (the order reversed)
//! and [`FiniteSum`] (up to `N` disjuncts, merged by a [`JoinCost`]).
//!
//! ```rust
//! use absinthe::lattice::{Interval, Lattice, MapLattice, Top};
//!
//! // A variable environment of intervals, joined at a control-flow merge.
//! let then_branch: MapLattice<u32, Interval> = [(0, Interval::constant(1))].into_iter().collect();
//! let else_branch: MapLattice<u32, Interval> = [(0, Interval::constant(5))].into_iter().collect();
//! let merged = then_branch.join(&else_branch);
//! assert_eq!(merged.get(0), Some(&Interval::new(1, 5)));
//! assert!(!merged.get_or_bottom(0).is_top());
//! ```

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
