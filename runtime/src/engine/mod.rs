//! The fixpoint engines: the [`Analysis`] contract, limits, solutions and tracing.
//!
//! An analysis is a lattice of states plus transfer functions over a
//! [`Cfg`](crate::program::Cfg). The engines compute
//! a post-fixpoint of those equations and return a [`Solution`] with a [`StopReason`]; they never
//! loop forever and never panic on a domain that breaks its laws.

mod contract;
mod naive;
pub(crate) mod schedule;
mod worklist;

pub use contract::{
    Analysis, Direction, Event, Limits, Recorder, Solution, Stats, StopReason, Tracer,
};
pub use naive::solve_naive;
pub use worklist::{MAX_WIDENINGS_PER_HEAD, solve, solve_traced};
