//! The `.dom` compiler and the code generator it shares with absinthe's macros.
//!
//! - [`model`]: lattices, reduced products, reductions and transfer rules after checking; both
//!   front ends (the `#[lattice]` macros and, with the `.dom` issue, the `.dom` parser) build it.
//! - [`codegen`]: the one generator from the model to Rust tokens.

pub mod codegen;
pub mod model;
