//! Control-flow graph utilities: reverse post-order, dominators, dominance frontiers and the
//! weak topological order the worklist solver iterates by.
//!
//! Everything here works on any [`Cfg`](crate::program::Cfg), is iterative (no recursion, so deep
//! graphs cannot overflow the stack) and ignores blocks unreachable from the entry. Backward
//! analyses walk the [`Reversed`] graph, whose entry is a virtual exit; [`WithExit`] is a program
//! every block of which may also end, for backward analyses that speak of every run.

mod dominators;
mod order;
mod reversed;
mod with_exit;
mod wto;

pub use dominators::{DominanceFrontiers, Dominators};
pub use order::{post_order, reverse_post_order};
pub use reversed::Reversed;
pub use with_exit::WithExit;
pub use wto::{Wto, WtoElement};
