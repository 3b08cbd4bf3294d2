//! absinthe's LLVM IR front end: reads `.ll` and `.bc` files with the `llvm-ir` crate (LLVM 15)
//! and lowers every function to absinthe's core IR, so that the generic analyses (`sccp`,
//! `interval`) run on real programs.
//!
//! The pipeline is `load` (parse, with `llvm-ir`'s panics contained) → `lower` (one core IR
//! function per LLVM function, plus the map from LLVM value names to core IR operands) →
//! `analyze` (the runtime's `NonRelational` analysis per function, with the counts the CLI
//! and the comparison with LLVM's SCCP print). Everything here needs the `llvm` feature, which
//! links LLVM; without it the crate is empty, so the workspace builds on machines without LLVM.

#[cfg(feature = "llvm")]
pub mod analyze;
#[cfg(feature = "llvm")]
pub mod flags;
#[cfg(feature = "llvm")]
pub mod load;
#[cfg(feature = "llvm")]
pub mod lower;

#[cfg(feature = "llvm")]
pub use analyze::{FunctionCounts, ModuleCounts, analyze_module};
#[cfg(feature = "llvm")]
pub use load::{LoadError, load_module};
#[cfg(feature = "llvm")]
pub use lower::{LowerError, Lowered, LoweredFunction, Memory, Place, lower_module};
