//! A function's summary for its callers ([`Summary`]), and where the analysis of a caller asks
//! for its callees' ([`Callees`]).

use std::collections::BTreeSet;

use super::state::Slot;
use absinthe::program::FuncId;

/// What a function does with one of its inputs (a parameter, or past them a capture).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct InputEffect {
    /// The input's object may be reachable from the returned value.
    pub returned: bool,
    /// It may be reachable from the returned value through a field (not only as the value).
    pub returned_inside: bool,
    /// It may be reachable from a thrown value.
    pub thrown: bool,
    /// It may be handed to code or memory the function does not see.
    pub global: bool,
    /// The fields of the input's own object the function may write.
    pub writes: BTreeSet<Slot>,
}

/// A function's summary for its callers: what it does with its inputs and what it returns.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Summary {
    /// Per input (parameters then captures).
    pub inputs: Vec<InputEffect>,
    /// The inputs the result may be (as itself, not through a field).
    pub returns_inputs: BTreeSet<u32>,
    /// Whether the result may be an object other than an input.
    pub returns_other: bool,
    /// What it does with objects it reaches through its inputs' fields (or gets from callees),
    /// all alike.
    pub others: InputEffect,
    /// Whether it may write memory reached through its inputs' fields.
    pub writes_unknown: bool,
    /// Whether it may run code the analysis does not see.
    pub calls_unknown: bool,
}

/// The summaries of callees, asked for at each call; `None` when the callee has none (it is
/// being analyzed, in a cycle of calls, or does not exist): the call is then unknown code.
pub trait Callees {
    /// The summary of `f`.
    fn summary(&self, f: FuncId) -> Option<Summary>;
}

impl<F: Fn(FuncId) -> Option<Summary>> Callees for F {
    fn summary(&self, f: FuncId) -> Option<Summary> {
        self(f)
    }
}

/// No callee has a summary: every call is unknown code.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoCallees;

impl Callees for NoCallees {
    fn summary(&self, _: FuncId) -> Option<Summary> {
        None
    }
}
