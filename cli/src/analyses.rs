//! The analyses `absinthe analyze --analysis NAME` knows, and how each is instantiated.

use absinthe::engine::Limits;
use absinthe::lattice::{Flat, Interval};
use absinthe::spec::{AnalysisSpec, Engine};
use absinthe::value::{DeclaredAnalysis, ValueDomain};
use absinthe_dsl_examples::dom;
use std::fmt;

/// An analysis the command line can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnalysisName {
    /// Constant propagation as the graph-free article defines it: flat constants, branch
    /// conditions are not evaluated and both edges always flow.
    Const,
    /// Conditional constant propagation (Wegman–Zadeck): a constant condition selects one edge, a
    /// condition with no information yet selects none.
    Sccp,
    /// Interval analysis with branch refinement, widening with thresholds and narrowing.
    Interval,
    /// The Green Fairy's Const × Interval reduced product, declared with `#[absinthe::domain]`
    /// (`absinthe_dsl_examples::seed`).
    Seed,
    /// Signs × parities × intervals × constants, reduced (`absinthe_dsl_examples::signs`).
    Signs,
    /// The same four components as `signs`, with no reductions (the direct product).
    SignsDirect,
    /// Up to three disjoint intervals (`FiniteSum`) next to a constant
    /// (`absinthe_dsl_examples::disjunctive`).
    Disjunctive,
    /// Intervals × congruences × an octagon over each function's names, in packs of at most
    /// eight related names (`absinthe_dsl_examples::relational`).
    Octagon,
    /// `const`, written in `.dom` (`dsl-examples/dom/const_prop.dom`).
    ConstDom,
    /// `sccp`, written in `.dom` (`dsl-examples/dom/const_prop.dom`).
    SccpDom,
    /// The seed's Const × Interval product with branch refinement, in `.dom`
    /// (`dsl-examples/dom/seed.dom`).
    SeedDom,
    /// `signs`, written in `.dom` (`dsl-examples/dom/signs.dom`).
    SignsDom,
    /// `disjunctive`, written in `.dom` (`dsl-examples/dom/disjunctive.dom`).
    DisjunctiveDom,
    /// `interval`, written in `.dom` (`dsl-examples/dom/interval.dom`).
    IntervalDom,
    /// `octagon`, written in `.dom` (`dsl-examples/dom/octagon.dom`): its octagon a relational
    /// component declared `relation(packs = 8)`.
    OctagonDom,
    /// Conditional constant propagation with signed and unsigned ranges, the way LLVM's SCCP
    /// reasons, in `.dom` (`dsl-examples/dom/sccp_ranges.dom`); what the comparison with LLVM
    /// measures.
    SccpRangesDom,
    /// The type-annotation task of the behavior-graph paper, in `.dom`
    /// (`dsl-examples/dom/types.dom`): integers and booleans.
    Types,
    /// Live names, a backward analysis declared in `.dom` (`dsl-examples/dom/liveness.dom`).
    Live,
    /// Needed values (names that are not faint), backward, in `.dom`
    /// (`dsl-examples/dom/needed.dom`).
    Needed,
    /// Control-flow analysis (0-CFA) of kernel terms: the behavior graph itself.
    Cfa,
    /// Basic induction parameters of kernel terms (`absinthe_dsl_examples::biv`).
    Biv,
    /// Useless parameters of kernel terms (`dsl-examples/dom/dependence.dom`).
    Useless,
    /// Strict parameters of kernel terms (`dsl-examples/dom/strictness.dom`).
    Strict,
    /// The Flambda 2 typing environment (`absinthe_typing_env`): approximations, must-alias
    /// classes and the meets branches add, over each function in SSA form.
    TypingEnv,
    /// The Green Fairy's alias heap with generation counting (`absinthe_heap`).
    AliasHeap,
    /// The escape and alias analysis of seed 004 (`absinthe_heap::escape`), its values
    /// declared in `dsl-examples/dom/escape.dom`.
    Escape,
    /// The Green Fairy's shape analysis with fields (`absinthe_heap::shape`), its values
    /// declared in `dsl-examples/dom/shape.dom`.
    Shape,
}

/// One analysis of the built-in catalog: its name on the command line, its line in `--help`
/// (and the book's table), its one description and what its kernel-terms report prints. Its
/// value domain is [`AnalysisName::dispatch`]'s, the one table that names types.
#[derive(Debug)]
struct Entry {
    analysis: AnalysisName,
    name: &'static str,
    description: &'static str,
    /// How it runs. The analyses declared in `.dom` files (compiled into
    /// `absinthe_dsl_examples::dom`) answer with their declarations; the others are declared
    /// here, each setting it names differing from a bare declaration's.
    spec: fn() -> &'static AnalysisSpec,
    report: KernelReport,
}

/// The spec of a built-in analysis declared with nothing but its domain.
static DECLARED_DEFAULT: AnalysisSpec = AnalysisSpec::declared_default();

/// The built-in catalog, in the order `--help` lists it.
const CATALOG: [Entry; 27] = [
    Entry {
        analysis: AnalysisName::Const,
        name: "const",
        description: "constant propagation; both branch edges always flow",
        spec: || {
            static CONST: AnalysisSpec = {
                let mut spec = AnalysisSpec::declared_default();
                spec.conditional = false;
                spec
            };
            &CONST
        },
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::Sccp,
        name: "sccp",
        description: "conditional constant propagation (Wegman-Zadeck)",
        spec: || &DECLARED_DEFAULT,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::Interval,
        name: "interval",
        description: "intervals with branch refinement, widening and narrowing",
        spec: || &DECLARED_DEFAULT,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::Seed,
        name: "seed",
        description: "the seed's Const x Interval reduced product (declared with macros)",
        spec: || &DECLARED_DEFAULT,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::Signs,
        name: "signs",
        description: "sign x parity x interval x constant, reduced (declared with macros)",
        spec: || &DECLARED_DEFAULT,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::SignsDirect,
        name: "signs-direct",
        description: "sign x parity x interval x constant, no reductions",
        spec: || &DECLARED_DEFAULT,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::Disjunctive,
        name: "disjunctive",
        description: "up to three intervals (FiniteSum) and a constant",
        spec: || &DECLARED_DEFAULT,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::Octagon,
        name: "octagon",
        description: "interval x congruence x a packed octagon relating names (declared with macros)",
        spec: || &DECLARED_DEFAULT,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::ConstDom,
        name: "const-dom",
        description: "const, compiled from dsl-examples/dom/const_prop.dom",
        spec: dom::const_prop::ConstPropAnalysis::spec,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::SccpDom,
        name: "sccp-dom",
        description: "sccp, compiled from dsl-examples/dom/const_prop.dom",
        spec: dom::const_prop::SccpPropAnalysis::spec,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::SeedDom,
        name: "seed-dom",
        description: "Const x Interval with branch refinement, from seed.dom",
        spec: dom::seed::SeedAnalysis::spec,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::SignsDom,
        name: "signs-dom",
        description: "signs, compiled from dsl-examples/dom/signs.dom",
        spec: dom::signs::SignsAnalysis::spec,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::DisjunctiveDom,
        name: "disjunctive-dom",
        description: "disjunctive, compiled from disjunctive.dom",
        spec: dom::disjunctive::DisjunctiveAnalysis::spec,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::IntervalDom,
        name: "interval-dom",
        description: "interval, compiled from dsl-examples/dom/interval.dom",
        spec: dom::interval::IntervalAnalysis::spec,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::OctagonDom,
        name: "octagon-dom",
        description: "octagon, compiled from dsl-examples/dom/octagon.dom",
        spec: dom::octagon::OctagonRangesAnalysis::spec,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::SccpRangesDom,
        name: "sccp-ranges-dom",
        description: "sccp with signed and unsigned ranges (as LLVM's SCCP), from sccp_ranges.dom",
        spec: dom::sccp_ranges::SccpRangesAnalysis::spec,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::Types,
        name: "types",
        description: "integer and boolean types, from dsl-examples/dom/types.dom",
        spec: dom::types::TypesAnalysis::spec,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::Live,
        name: "live",
        description: "live names, backward: read before written on some path (liveness.dom)",
        spec: dom::liveness::LiveAnalysis::spec,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::Needed,
        name: "needed",
        description: "needed values, backward: what later observations depend on (needed.dom)",
        spec: dom::needed::NeededAnalysis::spec,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::Cfa,
        name: "cfa",
        description: "control-flow analysis (0-CFA) of kernel terms (.kt files)",
        spec: || {
            static CFA: AnalysisSpec = {
                let mut spec = AnalysisSpec::declared_default();
                spec.engine = Engine::BehaviorGraph;
                spec
            };
            &CFA
        },
        report: KernelReport::Functions,
    },
    Entry {
        analysis: AnalysisName::Biv,
        name: "biv",
        description: "basic induction parameters of kernel terms, from induction.dom",
        spec: dom::induction::BivAnalysis::spec,
        report: KernelReport::Induction,
    },
    Entry {
        analysis: AnalysisName::Useless,
        name: "useless",
        description: "useless parameters of kernel terms, from dependence.dom",
        spec: dom::dependence::UselessAnalysis::spec,
        report: KernelReport::Useless,
    },
    Entry {
        analysis: AnalysisName::Strict,
        name: "strict",
        description: "strict parameters of kernel terms, from strictness.dom",
        spec: dom::strictness::StrictAnalysis::spec,
        report: KernelReport::Strict,
    },
    Entry {
        analysis: AnalysisName::TypingEnv,
        name: "typing-env",
        description: "the Flambda 2 typing environment (shapes, aliases, refinement), typing_env.dom",
        spec: dom::typing_env::TypingEnvAnalysis::spec,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::AliasHeap,
        name: "alias-heap",
        description: "which variables share an object, by allocation site, with generation counts",
        spec: || {
            static ALIAS_HEAP: AnalysisSpec = {
                let mut spec = AnalysisSpec::declared_default();
                spec.engine = Engine::AliasHeap;
                spec
            };
            &ALIAS_HEAP
        },
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::Escape,
        name: "escape",
        description: "escapes, points-to, load forwarding and summaries (seed 004), escape.dom",
        spec: dom::escape::EscapeAnalysis::spec,
        report: KernelReport::Values,
    },
    Entry {
        analysis: AnalysisName::Shape,
        name: "shape",
        description: "shape graphs with fields, summary and context nodes (seed 000), shape.dom",
        spec: dom::shape::ShapeAnalysis::spec,
        report: KernelReport::Values,
    },
];

impl AnalysisName {
    /// Every analysis, in the order `--help` lists them.
    pub fn all() -> impl Iterator<Item = AnalysisName> {
        CATALOG.iter().map(|e| e.analysis)
    }

    /// The analysis's entry in the catalog.
    fn entry(self) -> &'static Entry {
        CATALOG
            .iter()
            .find(|e| e.analysis == self)
            .unwrap_or_else(|| unreachable!("`{self:?}` has no entry in the catalog"))
    }

    /// The name used on the command line and in JSON output.
    pub fn as_str(self) -> &'static str {
        self.entry().name
    }

    /// The analysis called `name`, if any.
    pub fn parse(name: &str) -> Option<AnalysisName> {
        CATALOG.iter().find(|e| e.name == name).map(|e| e.analysis)
    }

    /// Whether the analysis runs on kernel terms only: `cfa` has no value domain, and the
    /// tasks about parameters (`biv`, `useless`, `strict`) report on the parameters of
    /// abstractions, which only kernel terms have.
    pub fn kernel_only(self) -> bool {
        Analysis::kernel_only(self)
    }

    /// How the analysis runs.
    pub fn spec(self) -> &'static AnalysisSpec {
        (self.entry().spec)()
    }

    /// One line describing the analysis.
    pub fn description(self) -> &'static str {
        self.entry().description
    }
}

/// What the kernel-terms report of an analysis prints for each flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelReport {
    /// The abstractions the flow may hold (`cfa`).
    Functions,
    /// The flow's value, traced over the behavior graph or read from the flow engine.
    Values,
    /// Basic induction parameters, from the `.steps` of `induction.dom`'s product.
    Induction,
    /// Useless parameters, from the `.names` of `dependence.dom`'s product.
    Useless,
    /// Strict parameters, from the `.demanded.names` of `strictness.dom`'s product.
    Strict,
}

/// An analysis the command line can run, whatever declares it: the built-in ones
/// ([`AnalysisName`]) or the analyses of a crate generated from a `.dom` file (whose binary runs
/// the command line with its own catalog, see [`crate::app`]). The drivers are generic over it,
/// so every analysis gets the same engines, renderers and checks.
pub trait Analysis: Copy + fmt::Display + 'static {
    /// Every analysis of the catalog, in the order `--help` lists them.
    fn all() -> Vec<Self>;
    /// The name used on the command line and in JSON output.
    fn as_str(self) -> &'static str;
    /// One line describing the analysis.
    fn description(self) -> &'static str;
    /// How the analysis runs: its one description, whichever way it was declared.
    fn spec(self) -> &'static AnalysisSpec;
    /// What its report on kernel terms prints.
    fn kernel_report(self) -> KernelReport {
        KernelReport::Values
    }
    /// Calls `f` with the analysis's value domain.
    fn dispatch<F: ForDomain>(self, f: F) -> F::Output;
    /// Whether branch conditions are evaluated.
    fn conditional(self) -> bool {
        self.spec().conditional
    }
    /// The engine the declaration names.
    fn engine(self) -> Engine {
        self.spec().engine
    }
    /// The engine limits the declaration asks for, with `max_visits` (the command line's
    /// budget).
    fn limits(self, max_visits: u64) -> Limits {
        let spec = self.spec();
        Limits {
            max_visits,
            widening_delay: spec.widening_delay,
            narrowing_passes: spec.narrowing,
        }
    }
    /// The widening thresholds the declaration adds to each loop's guard constants.
    fn thresholds(self) -> &'static [i64] {
        &self.spec().thresholds
    }
    /// For the engine `typing_env`: the most immediates a set of constants keeps.
    fn immediates(self) -> usize {
        self.spec().immediates as usize
    }
    /// For the engine `escape`: how many heaps a point keeps apart.
    fn heaps(self) -> usize {
        self.spec().heaps as usize
    }

    /// The relational component of the analysis's value domain, if it has one
    /// ([`ValueDomain::relation`]).
    fn relation(self) -> Option<absinthe::relational::Relation> {
        struct Ask;
        impl ForDomain for Ask {
            type Output = Option<absinthe::relational::Relation>;
            fn run<D: ValueDomain>(self) -> Self::Output {
                D::relation()
            }
        }
        // The alias heap runs no value domain.
        if self.engine() == Engine::AliasHeap {
            return None;
        }
        self.dispatch(Ask)
    }

    /// The analysis called `name`, if any.
    fn parse(name: &str) -> Option<Self> {
        Self::all().into_iter().find(|a| a.as_str() == name)
    }
    /// Whether the analysis runs on kernel terms only (its report is about the behavior graph's
    /// flows and parameters, not values).
    fn kernel_only(self) -> bool {
        self.kernel_report() != KernelReport::Values
    }
}

/// The analysis a user asked for by `name`, or an error listing the catalog, one per line.
pub fn parse_in<A: Analysis>(name: &str) -> Result<A, String> {
    A::parse(name).ok_or_else(|| {
        format!(
            "unknown analysis `{name}`; known analyses:\n{}",
            catalog_lines::<A>()
        )
    })
}

/// Catalog `A` as the rows of a Markdown table (`| name | what it is |`), each line starting
/// with `indent`: the book's table of analyses, which a test keeps equal to this.
pub fn catalog_markdown<A: Analysis>(indent: &str) -> String {
    let mut table = format!("{indent}| name | what it is |\n{indent}|---|---|\n");
    for a in A::all() {
        table.push_str(&format!(
            "{indent}| `{}` | {} |\n",
            a.as_str(),
            a.description()
        ));
    }
    table
}

/// Catalog `A`, one analysis a line, its description in a column after the longest name.
pub fn catalog_lines<A: Analysis>() -> String {
    let all = A::all();
    let width = all.iter().map(|a| a.as_str().len()).max().unwrap_or(0);
    let lines: Vec<String> = all
        .iter()
        .map(|a| format!("  {:<width$}  {}", a.as_str(), a.description()))
        .collect();
    lines.join("\n")
}

impl Analysis for AnalysisName {
    fn all() -> Vec<AnalysisName> {
        AnalysisName::all().collect()
    }
    fn as_str(self) -> &'static str {
        AnalysisName::as_str(self)
    }
    fn description(self) -> &'static str {
        AnalysisName::description(self)
    }
    fn spec(self) -> &'static AnalysisSpec {
        AnalysisName::spec(self)
    }
    fn kernel_report(self) -> KernelReport {
        self.entry().report
    }
    fn dispatch<F: ForDomain>(self, f: F) -> F::Output {
        AnalysisName::dispatch(self, f)
    }
}

/// `spec` for as long as the process runs: the one copy of each distinct spec (catalogs are
/// small, and an analysis asks for its spec a few times per run).
pub fn interned(spec: AnalysisSpec) -> &'static AnalysisSpec {
    static SPECS: std::sync::Mutex<Vec<&'static AnalysisSpec>> = std::sync::Mutex::new(Vec::new());
    let mut specs = SPECS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match specs.iter().find(|s| ***s == spec) {
        Some(s) => s,
        None => {
            let s: &'static AnalysisSpec = Box::leak(Box::new(spec));
            specs.push(s);
            s
        }
    }
}

/// Something to do with an analysis's value domain, whichever it is: [`AnalysisName::dispatch`]
/// calls [`ForDomain::run`] with the domain's type, so that the table of domains exists once.
pub trait ForDomain {
    /// What running it gives.
    type Output;

    /// Runs with value domain `D`.
    fn run<D: ValueDomain>(self) -> Self::Output;
}

impl AnalysisName {
    /// Calls `f` with the value domain of this analysis.
    pub fn dispatch<F: ForDomain>(self, f: F) -> F::Output {
        use absinthe_dsl_examples::{disjunctive, relational, seed, signs};
        match self {
            AnalysisName::Const | AnalysisName::Sccp => f.run::<Flat<i64>>(),
            AnalysisName::Interval => f.run::<Interval>(),
            AnalysisName::Seed => f.run::<seed::value::SeedValue>(),
            AnalysisName::Signs => f.run::<signs::value::Signals>(),
            AnalysisName::SignsDirect => f.run::<signs::value::DirectSignals>(),
            AnalysisName::Disjunctive => f.run::<disjunctive::value::Disjunctive>(),
            AnalysisName::Octagon => f.run::<relational::value::OctagonRanges>(),
            AnalysisName::ConstDom | AnalysisName::SccpDom => {
                f.run::<dom::const_prop::ConstValue>()
            }
            AnalysisName::SeedDom => f.run::<dom::seed::SeedValue>(),
            AnalysisName::SignsDom => f.run::<dom::signs::Signals>(),
            AnalysisName::DisjunctiveDom => f.run::<dom::disjunctive::Disjunctive>(),
            AnalysisName::IntervalDom => f.run::<dom::interval::Range>(),
            AnalysisName::OctagonDom => f.run::<dom::octagon::OctagonRanges>(),
            AnalysisName::SccpRangesDom => f.run::<dom::sccp_ranges::SccpRange>(),
            AnalysisName::Types => f.run::<dom::types::Types>(),
            AnalysisName::Live => f.run::<dom::liveness::Live>(),
            AnalysisName::Needed => f.run::<dom::needed::Demand>(),
            AnalysisName::Biv => f.run::<dom::induction::Induction>(),
            AnalysisName::Useless => f.run::<dom::dependence::Dependence>(),
            AnalysisName::Strict => f.run::<dom::strictness::Strictness>(),
            AnalysisName::TypingEnv => f.run::<dom::typing_env::TypingInts>(),
            AnalysisName::Escape => f.run::<dom::escape::HeapValue>(),
            AnalysisName::Shape => f.run::<dom::shape::HeapValue>(),
            // 0-CFA reports the functions reaching each flow, which need no values; `verify`
            // checks its behavior graph with constants, the values a concrete run compares best.
            AnalysisName::Cfa => f.run::<Flat<i64>>(),
            AnalysisName::AliasHeap => unreachable!(
                "`alias-heap` has no value domain: `analyze`, `verify` and `trace` run its engine \
                 (`Engine::AliasHeap`) through its own driver before any dispatch on a domain"
            ),
        }
    }
}

impl fmt::Display for AnalysisName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each analysis has one entry and one name.
    #[test]
    fn the_catalog_lists_each_analysis_once_under_one_name() {
        let analyses: std::collections::HashSet<AnalysisName> = AnalysisName::all().collect();
        let names: std::collections::HashSet<&str> = CATALOG.iter().map(|e| e.name).collect();
        assert_eq!(analyses.len(), CATALOG.len());
        assert_eq!(names.len(), CATALOG.len());
        for analysis in AnalysisName::all() {
            assert_eq!(AnalysisName::parse(analysis.as_str()), Some(analysis));
        }
    }
}
