//! absinthe's octagons and zones beside the Parma Polyhedra Library's (PPL) `Octagonal_Shape`
//! and `BD_Shape` over GMP integers: safe handles on PPL's C interface (`PplOctagon`,
//! `PplZone`), the forms both are asked about (`Form`), for the differential test
//! (`tests/differential.rs`) and the benchmark (`ppl-bench`). Everything sits behind the `ppl`
//! feature, which links PPL; without it the crate is empty.

#[cfg(feature = "ppl")]
mod ffi;
#[cfg(feature = "ppl")]
mod form;
#[cfg(feature = "ppl")]
mod library;
#[cfg(feature = "ppl")]
mod shape;

/// The workspace's seeded generator, so that the differential test and the benchmark draw the
/// same sequences and states on every run.
#[cfg(feature = "ppl")]
pub use absinthe_ir::generate::Rng;
#[cfg(feature = "ppl")]
pub use form::{Domain, Form};
#[cfg(feature = "ppl")]
pub use library::{Constraint, Linear, Ppl, Ratio};
#[cfg(feature = "ppl")]
pub use shape::{PplOctagon, PplZone, Shape};
