//! Non-relational value analysis: abstract values of single program names, environments mapping
//! every name to one, and the generic analysis that runs any [`ValueDomain`] over a
//! [`Program`](crate::program::Program).
//!
//! This is the Green Fairy's "variable state over any value domain": instantiate it with flat
//! constants and it is constant propagation; turn on conditions and it is Wegman–Zadeck
//! conditional constant propagation; instantiate it with intervals and it is interval analysis.
//!
//! States are kept densely or sparsely as [`StateRepr`] says ([`NonRelational::solve`]); see
//! [`sparse`] for how the sparse representation works. [`Demands`] runs a domain backward:
//! what the rest of a run demands of each name (live names, needed values).

mod backward;
mod concrete;
mod congruence;
mod constant;
mod declared;
mod domain;
mod env;
mod finite_sum;
mod interval;
mod nonrel;
mod repr;
mod sign;
pub mod sparse;
pub mod ssa;

pub use backward::Demands;
pub use concrete::Concrete;
pub use declared::DeclaredAnalysis;
pub use domain::{Truth, ValueDomain};
pub use env::Env;
pub use nonrel::{Bindings, BindingsMut, NonRelational, PointStates};
pub use repr::{StateRepr, ValueSolution};
pub use sparse::SparseSolution;
pub use ssa::SsaSolution;
