//! Escape and alias analysis in the way of the seed's Julia design notes: forward and
//! flow-sensitive, with may-alias as points-to sets over abstract locations, must-alias (one
//! run-time object) for the function's most recent objects and its parameters, per-field
//! memory contents with strong and weak updates, load forwarding, and interprocedural
//! summaries applied at call sites.
//!
//! - [`state`]: one heap ([`Heap`]): locations, objects, field contents, escapes, effects.
//! - [`transfer`]: statements and calls on a heap and the values of a declared
//!   [`ValueDomain`](absinthe::value::ValueDomain), which a forwarded load passes from the stored value to the loaded name.
//! - [`places`]: where objects escaped, in persistent sets of places that heaps share.
//! - [`replay`]: the states inside a block, run again from its entry state for the facts
//!   and on demand, rather than kept for every statement.
//! - [`facts`]: what the solution says about the program: forwarded loads, strong and weak
//!   stores, where each allocation escapes, which allocations can be replaced by scalars or
//!   sunk, and the function's [`Summary`].
//!
//! The state is a small disjunction of heaps, each with its own values ([`States`]): paths that
//! build different heaps stay apart up to [`MAX_HEAPS`] of them, so a branch decided by a
//! value (`br c` after both sides of an earlier `br c`) sees only the heaps that can reach it.

mod analysis;
pub mod facts;
mod place;
pub mod places;
pub mod replay;
pub mod state;
mod states;
mod summary;
pub mod transfer;

pub use super::inputs;
pub use analysis::EscapeAnalysis;
pub use facts::{
    Allocation, FunctionFacts, LoadFact, analyze, analyze_with, solve_declared, solve_module,
    solve_module_with,
};
pub use place::{Escape, Place};
pub use places::{EscapeKind, Escapes, Places};
pub use replay::Seen;
pub use state::{Content, Effects, Heap, Loc, Object, Slot};
pub use states::{Disjunct, MAX_EXPOSED, MAX_HEAPS, States};
pub use summary::{Callees, InputEffect, NoCallees, Summary};
pub use transfer::Step;
