//! [`DeclaredAnalysis`]: an analysis as its declaration states it.

use super::{NonRelational, StateRepr, ValueDomain, ValueSolution};

/// A declared analysis: the `.dom` compiler implements this for a unit struct per `analysis`
/// declaration, and `#[absinthe::analysis]` for the unit struct it marks, so that tools (the CLI,
/// tests) can run it by type. The state representation is one word of the declaration
/// (`state dense|sparse|sparse-temporal`): [`DeclaredAnalysis::solve`] selects it, and the
/// author writes no sparse code.
pub trait DeclaredAnalysis {
    /// The value domain (a generated product).
    type Domain: ValueDomain;
    /// The name in the declaration.
    const NAME: &'static str;
    /// Whether branch conditions are evaluated.
    const CONDITIONAL: bool;
    /// How states are stored.
    const STATE: StateRepr = StateRepr::Dense;
    /// The engine the analysis runs on: control-flow graphs, the behavior graph of kernel terms,
    /// the typing environment, or the escape or shape engine (each in its own crate).
    const ENGINE: crate::spec::Engine = crate::spec::Engine::Flow;
    /// How calls are told apart when the analysis runs across the functions of a module.
    const CONTEXT: crate::spec::ContextPolicy = crate::spec::ContextPolicy::Insensitive;
    /// The programs it is declared for (`program toy;` in a `.dom` analysis).
    const PROGRAM: crate::spec::ProgramKind = crate::spec::ProgramKind::Any;
    /// Constants every widening may stop at, besides those the engine harvests from each loop's
    /// guards (`thresholds 0, 255;` in a `.dom` analysis).
    const THRESHOLDS: &'static [i64] = &[];
    /// For the engine `typing_env`: the most immediates a set of constants keeps before it
    /// becomes a value of the domain (`immediates 16;` in a `.dom` analysis).
    const IMMEDIATES: usize = crate::spec::AnalysisSpec::DEFAULT_IMMEDIATES as usize;
    /// For the engine `escape`: how many heaps a program point keeps apart before joining them
    /// (`heaps 4;` in a `.dom` analysis).
    const HEAPS: usize = crate::spec::AnalysisSpec::DEFAULT_HEAPS as usize;
    /// The engine limits the declaration asks for.
    fn limits() -> crate::engine::Limits;

    /// The declaration as the one description every tool runs analyses from.
    fn spec() -> crate::spec::AnalysisSpec {
        let limits = Self::limits();
        let bound = |n: usize| u32::try_from(n).expect("a declared bound fits in u32");
        crate::spec::AnalysisSpec {
            engine: Self::ENGINE,
            state: Self::STATE,
            context: Self::CONTEXT,
            program: Self::PROGRAM,
            conditional: Self::CONDITIONAL,
            widening_delay: limits.widening_delay,
            narrowing: limits.narrowing_passes,
            thresholds: Self::THRESHOLDS.to_vec(),
            immediates: bound(Self::IMMEDIATES),
            heaps: bound(Self::HEAPS),
        }
    }

    /// Runs the analysis on `program` with the declared state representation and limits.
    fn solve<P: crate::program::Program + ?Sized>(program: &P) -> ValueSolution<Self::Domain> {
        NonRelational::<Self::Domain>::new(Self::CONDITIONAL)
            .with_thresholds(Self::THRESHOLDS)
            .solve(program, Self::STATE, &Self::limits())
    }
}
