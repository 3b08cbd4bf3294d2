//! [`DeclaredAnalysis`]: an analysis as its declaration states it.

use super::{NonRelational, ValueDomain, ValueSolution};
use crate::engine::Limits;
use crate::spec::AnalysisSpec;

/// A declared analysis: the `.dom` compiler implements this for a unit struct per `analysis`
/// declaration, and `#[absinthe::analysis]` for the unit struct it marks, so that tools (the CLI,
/// tests) can run it by type. Everything the declaration says about how the analysis runs is
/// its one [`AnalysisSpec`]; the methods after [`DeclaredAnalysis::spec`] only read it. The
/// state representation, for one, is one word of the declaration (`state
/// dense|sparse|sparse-temporal|ssa`): [`DeclaredAnalysis::solve`] selects it, and the author
/// writes no sparse code.
pub trait DeclaredAnalysis {
    /// The value domain (a generated product).
    type Domain: ValueDomain;
    /// The name in the declaration.
    const NAME: &'static str;

    /// The declaration: engine, state representation, context policy, limits, thresholds and
    /// bounds. Generated code returns a `static`.
    fn spec() -> &'static AnalysisSpec;

    /// The engine limits the declaration asks for (the default visit budget, the declared
    /// widening delay and narrowing).
    fn limits() -> Limits {
        let spec = Self::spec();
        Limits {
            widening_delay: spec.widening_delay,
            narrowing_passes: spec.narrowing,
            ..Limits::default()
        }
    }

    /// The non-relational analysis of the domain, with the declared conditions and thresholds,
    /// ready for `absinthe::engine::solve`. A backward declaration runs
    /// [`Demands`](super::Demands) instead: asking it for a forward analysis is a bug.
    fn analysis() -> NonRelational<Self::Domain> {
        let spec = Self::spec();
        assert!(
            spec.direction == crate::spec::Direction::Forward,
            "`{}` is declared `direction backward`: run it with `absinthe::value::Demands`, not \
             the forward analysis",
            Self::NAME
        );
        NonRelational::new(spec.conditional).with_thresholds(&spec.thresholds)
    }

    /// Runs the analysis on `program` with the declared state representation and limits (a
    /// forward one: see [`DeclaredAnalysis::analysis`]).
    fn solve<P: crate::program::Program + ?Sized>(program: &P) -> ValueSolution<Self::Domain> {
        Self::analysis().solve(program, Self::spec().state, &Self::limits())
    }
}
