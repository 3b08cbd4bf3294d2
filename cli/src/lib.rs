//! The library behind the `absinthe` command: the registry of analyses, the drivers that run
//! them on toy programs, core-IR modules and (with the `llvm` feature) LLVM modules, the text
//! and JSON renderers, and the `.dom` tools (`dom check`, and `dom build`'s standalone crate).
//!
//! The command line itself is `command` (`main.rs` only calls it); everything a test needs is
//! here, and `builtin` gives the generic entry points for the built-in analyses already
//! compiled. Both are the feature `builtin` (on by default), which crates generated from `.dom`
//! files leave out.

pub mod analyses;
pub mod app;
pub mod args;
pub mod backward;
#[cfg(feature = "builtin")]
pub mod builtin;
#[cfg(feature = "builtin")]
pub mod command;
pub mod compiled;
pub mod dom;
pub mod driver;
pub mod escape;
pub mod heap;
pub mod hosted;
pub mod interp;
pub mod interproc;
pub mod kernel;
#[cfg(feature = "llvm")]
pub mod llvm;
pub mod optimize;
pub mod progress;
pub mod ran;
pub mod render;
pub mod runs;
pub mod shape;
pub mod trace;
pub mod typing;
pub mod verify;

/// The paths [`hosted_analyses!`] names; not an API.
#[doc(hidden)]
pub mod __private {
    pub use absinthe::spec::AnalysisSpec;
    pub use absinthe::value::DeclaredAnalysis;
}

/// Whether `path` names an LLVM module (`.ll` text or `.bc` bitcode), which `analyze` hands to
/// the LLVM front end.
pub fn is_llvm_file(path: &std::path::Path) -> bool {
    path.extension().is_some_and(|e| e == "ll" || e == "bc")
}
