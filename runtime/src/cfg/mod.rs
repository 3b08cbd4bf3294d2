//! Control-flow graph utilities: reverse post-order, dominators, dominance frontiers and the
//! weak topological order the worklist solver iterates by.
//!
//! Everything here works on any [`Cfg`](crate::program::Cfg), is iterative (no recursion, so deep
//! graphs cannot overflow the stack) and ignores blocks unreachable from the entry. Backward
//! analyses walk the [`Reversed`] graph, whose entry is a virtual exit.

mod dominators;
mod order;
mod reversed;
mod wto;

pub use dominators::{DominanceFrontiers, Dominators};
pub use order::{post_order, reverse_post_order};
pub use reversed::Reversed;
pub use wto::{Wto, WtoElement};
