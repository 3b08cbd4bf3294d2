//! The `.dom` compiler and the code generator it shares with absinthe's macros.
//!
//! - [`model`]: lattices, reduced products, reductions and transfer rules after checking; both
//!   front ends (the `#[lattice]` macros and the `.dom` compiler) build it.
//! - [`codegen`]: the one generator from the model to Rust tokens.
//! - [`dom`]: the `.dom` front end, one module per phase: `syntax` (pest) → `ast` → `sema` →
//!   model and rule bodies → `emit` (a formatted Rust file).
//! - [`diagnostic`]: diagnostics as values, rendered only at the edges.
//! - [`build`]: the build-script helper, [`Builder`].
//!
//! [`compile_file`] strings the phases together.

pub mod build;
pub mod codegen;
pub mod diagnostic;
pub mod dom;
pub mod model;

pub use build::{BuildError, Builder};
pub use diagnostic::{Diagnostic, Failure, Sources};
pub use dom::{
    Checked, Compiled, Inlining, check_file, check_text, compile_file, compile_file_with,
    compile_text,
};
