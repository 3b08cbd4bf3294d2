//! The shape analysis of one function ([`ShapeAnalysis`]): the values analysis it runs beside
//! the graphs and the callees' summaries it asks for. Its transfer functions are in
//! [`super::reduce`] (statements with the reductions between graphs and values) and
//! [`super::transfer`].

use std::fmt;

use super::call::Callees;
use absinthe::engine::Limits;
use absinthe::value::{NonRelational, ValueDomain};

/// The forward shape analysis of one function with the values of `D` for the names, asking
/// `callees` for summaries at calls.
pub struct ShapeAnalysis<'c, D> {
    pub(super) values: NonRelational<D>,
    callees: &'c dyn Callees,
}

impl<D> fmt::Debug for ShapeAnalysis<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ShapeAnalysis").finish_non_exhaustive()
    }
}

impl<'c, D: ValueDomain> ShapeAnalysis<'c, D> {
    /// The analysis, with the callees' summaries from `callees` and branch conditions evaluated
    /// on the values.
    pub fn new(callees: &'c dyn Callees) -> ShapeAnalysis<'c, D> {
        ShapeAnalysis {
            values: NonRelational::new(true),
            callees,
        }
    }

    /// The engine limits it is meant to run with: a few joins at a loop head before widening,
    /// so that the disjunction settles first.
    pub fn limits() -> Limits {
        Limits {
            widening_delay: 4,
            ..Limits::default()
        }
    }

    /// The value analysis it runs beside the graphs.
    pub fn values(&self) -> &NonRelational<D> {
        &self.values
    }

    /// The callees' summaries.
    pub fn callees(&self) -> &dyn Callees {
        self.callees
    }
}
