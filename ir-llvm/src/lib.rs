//! absinthe's LLVM IR front end: LLVM 15 parses `.ll` and `.bc` files and every function is
//! lowered, straight from LLVM's in-memory module through its C API (module `ffi`, the only
//! unsafe code besides the allocator's options in `alloc`), to absinthe's core IR, so that the
//! generic analyses (`sccp`, `interval`) run on real programs.
//!
//! The pipeline is `load` (LLVM's parser) → `lower` (one core IR
//! function per LLVM function, plus the map from LLVM value names to core IR operands) →
//! `analyze` (the runtime's `NonRelational` analysis per function, or `WithRelation` for a
//! domain with a relational component, through `solved`, with the counts the CLI and the
//! comparison with LLVM's SCCP print). Everything here needs the `llvm` feature, which
//! links LLVM; without it the crate is empty, so the workspace builds on machines without LLVM.

#[cfg(feature = "llvm")]
pub mod alloc;
#[cfg(feature = "llvm")]
pub mod analyze;
#[cfg(feature = "llvm")]
pub mod ffi;
#[cfg(feature = "llvm")]
pub mod flags;
#[cfg(feature = "llvm")]
pub mod load;
#[cfg(feature = "llvm")]
pub mod lower;
#[cfg(feature = "llvm")]
pub mod pieces;
#[cfg(feature = "llvm")]
pub mod solved;
#[cfg(feature = "llvm")]
pub mod split;

#[cfg(feature = "llvm")]
pub use analyze::{FunctionCounts, ModuleCounts, analyze_module};
#[cfg(feature = "llvm")]
pub use load::{LoadError, load_module};
#[cfg(feature = "llvm")]
pub use lower::{
    LowerError, Lowered, LoweredFunction, Memory, Place, lower_module, pointer_constant,
};
#[cfg(feature = "llvm")]
pub use pieces::{Read, read_module, read_module_with};
