//! The escape analysis of one function ([`EscapeAnalysis`]): the values analysis it runs
//! beside the heaps and the callees' summaries it asks for. Its transfer functions are in
//! [`super::transfer`].

use std::fmt;

use super::states::{MAX_EXPOSED, MAX_HEAPS};
use super::summary::Callees;
use absinthe::engine::Limits;
use absinthe::value::{NonRelational, ValueDomain};

/// The escape analysis of one function, with the values of `D` for the names.
pub struct EscapeAnalysis<'c, D> {
    pub(super) values: NonRelational<D>,
    callees: &'c dyn Callees,
    pub(super) heaps: usize,
    pub(super) exposed: usize,
}

impl<D> fmt::Debug for EscapeAnalysis<'_, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EscapeAnalysis").finish_non_exhaustive()
    }
}

impl<'c, D: ValueDomain> EscapeAnalysis<'c, D> {
    /// The analysis, asking `callees` for summaries at calls.
    pub fn new(callees: &'c dyn Callees) -> Self {
        EscapeAnalysis {
            values: NonRelational::new(true),
            callees,
            heaps: MAX_HEAPS,
            exposed: MAX_EXPOSED,
        }
    }

    /// The analysis keeping at most `heaps` heaps apart at a point (1: one heap per point, as
    /// the seed's per-block state).
    pub fn with_heaps(mut self, heaps: usize) -> Self {
        self.heaps = heaps.max(1);
        self
    }

    /// The analysis keeping at most `exposed` exposed objects of the function's own apart at a
    /// block's exit ([`MAX_EXPOSED`] by default; see
    /// [`Heap::fold_exposed`](super::Heap::fold_exposed)).
    pub fn with_exposed(mut self, exposed: usize) -> Self {
        self.exposed = exposed;
        self
    }

    /// How many heaps it keeps apart at a point.
    pub fn heaps(&self) -> usize {
        self.heaps
    }

    /// The engine limits it is meant to run with.
    pub fn limits() -> Limits {
        Limits {
            widening_delay: 4,
            ..Limits::default()
        }
    }

    /// The value analysis it runs beside the heaps.
    pub fn values(&self) -> &NonRelational<D> {
        &self.values
    }

    /// The callees' summaries.
    pub fn callees(&self) -> &dyn Callees {
        self.callees
    }
}
