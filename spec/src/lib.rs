//! The vocabulary of an analysis declaration, in one place.
//!
//! An analysis is declared three ways (a `.dom` `analysis` item, the `#[absinthe::analysis]`
//! attribute, an interpreted `.dom` file) and run by the runtime and the command line. Each of
//! its settings is one of the closed sets of words below: the `.dom` checker and the attribute
//! accept exactly these words, the generator writes these variants, and the runtime and the
//! command line run them. This crate depends on nothing, so that the runtime (which generated
//! code depends on) and the `.dom` compiler (which the macros depend on) can both use it without
//! either depending on the other.
//!
//! Every enum here has the word a declaration writes (`from_word`, `word`) and nothing falls
//! back to a default: an unknown word is `None`, and the caller says what it expected
//! ([`Engine::WORDS`], …).

use std::borrow::Cow;
use std::fmt;

/// Which engine a declared analysis runs on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The fixpoint engines over control-flow graphs (and across functions, `interproc`).
    #[default]
    Flow,
    /// The behavior graph of kernel terms.
    BehaviorGraph,
    /// The Flambda 2 typing environment: one pass over each function in SSA form, with the
    /// analysis's value domain as the integers past small sets of immediates.
    TypingEnv,
    /// The escape and alias analysis: points-to sets, per-field memory, load forwarding and
    /// escapes over each function, callees first, with the analysis's value domain as the
    /// values of names.
    Escape,
    /// The Green Fairy's shape analysis: shape graphs with fields, summary and context nodes
    /// over each function, callees first, each graph with the values of the analysis's value
    /// domain along the same paths.
    Shape,
    /// The alias heap of the Green Fairy's shape analysis without fields: which variables point
    /// to one object, by allocation site, with generation counts. It has a domain of its own and
    /// runs no value domain, so a declaration cannot name it ([`Engine::declarable`]); the
    /// built-in analysis `alias-heap` is its one analysis.
    AliasHeap,
}

impl Engine {
    /// Every engine, in the order messages list them.
    pub const ALL: [Engine; 6] = [
        Engine::Flow,
        Engine::BehaviorGraph,
        Engine::TypingEnv,
        Engine::Escape,
        Engine::Shape,
        Engine::AliasHeap,
    ];

    /// The engines a declaration can name: each runs the declared value domain.
    pub const DECLARABLE: [Engine; 5] = [
        Engine::Flow,
        Engine::BehaviorGraph,
        Engine::TypingEnv,
        Engine::Escape,
        Engine::Shape,
    ];

    /// The words of [`Engine::DECLARABLE`], for messages: `flow`, `behavior_graph`, ….
    pub const WORDS: [&'static str; 5] = [
        Engine::Flow.word(),
        Engine::BehaviorGraph.word(),
        Engine::TypingEnv.word(),
        Engine::Escape.word(),
        Engine::Shape.word(),
    ];

    /// The word a declaration writes for it.
    pub const fn word(self) -> &'static str {
        match self {
            Engine::Flow => "flow",
            Engine::BehaviorGraph => "behavior_graph",
            Engine::TypingEnv => "typing_env",
            Engine::Escape => "escape",
            Engine::Shape => "shape",
            Engine::AliasHeap => "alias_heap",
        }
    }

    /// Whether a declaration can name this engine, or why not: every engine but the alias
    /// heap runs the declared value domain.
    pub fn declarable(self) -> Result<(), &'static str> {
        match self {
            Engine::AliasHeap => Err(
                "the engine `alias_heap` runs a domain of its own (objects by allocation site, \
                 with generations) and no declared one; run it as the built-in analysis \
                 `alias-heap`, or declare `engine escape` or `engine shape` for a heap analysis \
                 with the declared domain as the values of names",
            ),
            _ => Ok(()),
        }
    }

    /// The engine a declaration names by `word`.
    pub fn from_word(word: &str) -> Option<Engine> {
        Engine::ALL.into_iter().find(|e| e.word() == word)
    }

    /// Whether this engine reads the analysis setting `setting` (as a declaration writes it),
    /// or why not: `state` and `context` are the flow engines', `immediates` the typing
    /// environment's, `heaps` the escape engine's; every other setting is read by all. A
    /// declaration that writes a setting its engine does not read is an error, not a setting
    /// silently dropped.
    pub fn reads(self, setting: &str) -> Result<(), &'static str> {
        let reads = match setting {
            "state" | "context" => matches!(self, Engine::Flow | Engine::BehaviorGraph),
            _ if self == Engine::AliasHeap => false,
            "immediates" | "numbers" => self == Engine::TypingEnv,
            "heaps" => self == Engine::Escape,
            _ => true,
        };
        match (reads, setting) {
            (true, _) => Ok(()),
            (false, _) if self == Engine::AliasHeap => Err(
                "the alias heap keeps heap states of its own, reads no declared setting and \
                 tells calls apart by no context",
            ),
            (false, "state" | "context") => Err(
                "`state` and `context` choose how the `flow` engine keeps its states and tells \
                 calls apart; the engines `escape`, `shape` and `typing_env` keep states and \
                 summaries of their own",
            ),
            (false, "immediates") => {
                Err("`immediates` is the engine `typing_env`'s bound on sets of constants")
            }
            (false, "numbers") => {
                Err("`numbers` is the engine `typing_env`'s bound on sets of naked numbers")
            }
            (false, _) => {
                Err("`heaps` is the engine `escape`'s bound on the heaps kept apart at a point")
            }
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// Which way an analysis's facts flow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Direction {
    /// From the entry along control-flow edges: what may hold at a point, given how it was
    /// reached.
    #[default]
    Forward,
    /// From the exits against control-flow edges: what the rest of the run may demand of the
    /// values a point holds (live names, needed values).
    Backward,
}

impl Direction {
    /// Both directions, in the order messages list them.
    pub const ALL: [Direction; 2] = [Direction::Forward, Direction::Backward];

    /// The words a declaration writes, in [`Direction::ALL`]'s order.
    pub const WORDS: [&'static str; 2] = [Direction::Forward.word(), Direction::Backward.word()];

    /// The word a declaration writes for it.
    pub const fn word(self) -> &'static str {
        match self {
            Direction::Forward => "forward",
            Direction::Backward => "backward",
        }
    }

    /// The direction a declaration names by `word`.
    pub fn from_word(word: &str) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.word() == word)
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// How a non-relational analysis stores its states while it runs.
///
/// Running any value domain with either representation is
/// `NonRelational::<D>::new(conditional).solve(&program, StateRepr::Sparse, &limits)` in the
/// runtime. [`StateRepr::ALL`] give the same value for every name at every program point (they
/// take the same steps); they differ in memory and time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StateRepr {
    /// An environment of every name at the entry and exit of every block (the worklist
    /// solver). Best for small functions and few names.
    #[default]
    Dense,
    /// Values stored only where names are defined, found by walking the dominator tree; φ
    /// summaries at the heads of blocks where definitions merge. Best when functions are large
    /// and have many names.
    Sparse,
    /// [`StateRepr::Sparse`], and a statement is re-evaluated only when a value it reads changed
    /// (transfer evaluations then track value changes, not blocks × iterations).
    SparseTemporal,
    /// For programs in strict SSA form: one value per name for the whole function, propagated
    /// along def-use chains (Wegman–Zadeck), with branch refinements held by versions in the
    /// blocks their edge dominates. Sound, and the fastest on large SSA functions, but not
    /// step-for-step equal to the other three (it can be less precise where a refined edge
    /// enters a block with other predecessors). A program not in strict SSA form is solved
    /// with [`StateRepr::Sparse`] instead, and the runtime says so.
    Ssa,
}

impl StateRepr {
    /// The representations that give the same states step for step, in the order `--help` lists
    /// them.
    pub const ALL: [StateRepr; 3] = [
        StateRepr::Dense,
        StateRepr::Sparse,
        StateRepr::SparseTemporal,
    ];

    /// Every representation: [`StateRepr::ALL`] and [`StateRepr::Ssa`].
    pub const EVERY: [StateRepr; 4] = [
        StateRepr::Dense,
        StateRepr::Sparse,
        StateRepr::SparseTemporal,
        StateRepr::Ssa,
    ];

    /// The words a `.dom` declaration writes, in [`StateRepr::EVERY`]'s order.
    pub const WORDS: [&'static str; 4] = [
        StateRepr::Dense.word(),
        StateRepr::Sparse.word(),
        StateRepr::SparseTemporal.word(),
        StateRepr::Ssa.word(),
    ];

    /// The name used on the command line, in attributes and in output: `dense`, `sparse`,
    /// `sparse-temporal`, `ssa`.
    pub const fn as_str(self) -> &'static str {
        match self {
            StateRepr::Dense => "dense",
            StateRepr::Sparse => "sparse",
            StateRepr::SparseTemporal => "sparse-temporal",
            StateRepr::Ssa => "ssa",
        }
    }

    /// The word a `.dom` declaration writes (an identifier: `sparse_temporal`).
    pub const fn word(self) -> &'static str {
        match self {
            StateRepr::SparseTemporal => "sparse_temporal",
            other => other.as_str(),
        }
    }

    /// The representation called `name` on the command line or in an attribute.
    pub fn parse(name: &str) -> Option<StateRepr> {
        StateRepr::EVERY.into_iter().find(|r| r.as_str() == name)
    }

    /// The representation a `.dom` declaration names by `word`.
    pub fn from_word(word: &str) -> Option<StateRepr> {
        StateRepr::EVERY.into_iter().find(|r| r.word() == word)
    }

    /// Whether values are stored sparsely.
    pub fn is_sparse(self) -> bool {
        !matches!(self, StateRepr::Dense)
    }
}

impl fmt::Display for StateRepr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How calls of one function are told apart when an analysis runs across the functions of a
/// module.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ContextPolicy {
    /// One summary per function (0-CFA).
    #[default]
    Insensitive,
    /// One summary per string of the last `k` call sites (k-CFA); `CallStrings(0)` is 0-CFA.
    CallStrings(usize),
    /// One summary per distinct abstract input (functional approach), at most `max_per_function`
    /// of them per function; further inputs share one widened summary.
    Functional {
        /// The bound on summaries per function.
        max_per_function: usize,
    },
}

impl ContextPolicy {
    /// The bound on summaries per function of `functional` written without one.
    pub const FUNCTIONAL_BOUND: usize = 16;

    /// The longest call strings and the most summaries per function a declaration may ask for.
    pub const MAX_BOUND: usize = 64;

    /// The forms a policy is written in, for messages.
    pub const FORMS: &'static str = "`insensitive`, `kcfa=K`, `functional` or `functional=N`";

    /// Parses `insensitive` (or `0cfa`), `kcfa=K` (or `call-strings=K`) and `functional` (or
    /// `functional=N` for the bound, [`ContextPolicy::FUNCTIONAL_BOUND`] by default): the
    /// command line's and the attribute's spelling.
    pub fn parse(text: &str) -> Option<ContextPolicy> {
        let (word, number) = match text.split_once('=') {
            Some((w, n)) => (w, Some(n.parse::<usize>().ok()?)),
            None => (text, None),
        };
        ContextPolicy::from_words(word, number)
    }

    /// The policy a `.dom` declaration names by `word` and an optional `number` (`kcfa 2`,
    /// `functional`, `functional 8`); also what [`ContextPolicy::parse`] reads.
    pub fn from_words(word: &str, number: Option<usize>) -> Option<ContextPolicy> {
        match (word, number) {
            ("insensitive" | "0cfa", None) => Some(ContextPolicy::Insensitive),
            ("kcfa" | "call-strings", Some(k)) if k <= Self::MAX_BOUND => {
                Some(ContextPolicy::CallStrings(k))
            }
            ("functional", None) => Some(ContextPolicy::Functional {
                max_per_function: Self::FUNCTIONAL_BOUND,
            }),
            ("functional", Some(n)) if n > 0 && n <= Self::MAX_BOUND => {
                Some(ContextPolicy::Functional {
                    max_per_function: n,
                })
            }
            _ => None,
        }
    }
}

impl fmt::Display for ContextPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContextPolicy::Insensitive => f.write_str("insensitive"),
            ContextPolicy::CallStrings(k) => write!(f, "kcfa={k}"),
            ContextPolicy::Functional { max_per_function } => {
                write!(f, "functional={max_per_function}")
            }
        }
    }
}

/// The programs an analysis is declared for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ProgramKind {
    /// Toy programs (`.toy`) only.
    Toy,
    /// Core-IR modules (`.air`, and LLVM IR through its front end) only.
    Air,
    /// Both.
    #[default]
    Any,
}

impl ProgramKind {
    /// Every kind, in the order messages list them.
    pub const ALL: [ProgramKind; 3] = [ProgramKind::Toy, ProgramKind::Air, ProgramKind::Any];

    /// The word a declaration writes for it.
    pub const fn word(self) -> &'static str {
        match self {
            ProgramKind::Toy => "toy",
            ProgramKind::Air => "air",
            ProgramKind::Any => "any",
        }
    }

    /// The kind a declaration names by `word`.
    pub fn from_word(word: &str) -> Option<ProgramKind> {
        ProgramKind::ALL.into_iter().find(|k| k.word() == word)
    }
}

impl fmt::Display for ProgramKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// One description of an analysis: everything a declaration says about how it runs, whichever
/// way it was declared (a `.dom` `analysis` item, compiled or interpreted, or the
/// `#[absinthe::analysis]` attribute). The command line runs every analysis from this and
/// nothing else; the value domain itself is the one thing a spec does not hold (it is a type,
/// or the interpreter's loaded product).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisSpec {
    /// The engine it runs on.
    pub engine: Engine,
    /// Which way its facts flow.
    pub direction: Direction,
    /// How states are stored.
    pub state: StateRepr,
    /// How calls are told apart across the functions of a module.
    pub context: ContextPolicy,
    /// The programs it is declared for.
    pub program: ProgramKind,
    /// Whether branch conditions are evaluated (conditional propagation).
    pub conditional: bool,
    /// Joins at a loop head before widening.
    pub widening_delay: u32,
    /// Descending passes after the ascending phase.
    pub narrowing: u32,
    /// Constants every widening may stop at, besides those of each loop's own guards; sorted,
    /// without repeats. Borrowed in a compiled declaration (whose spec is a `static`), owned in
    /// one read at run time.
    pub thresholds: Cow<'static, [i64]>,
    /// For the engine `typing_env`: the most immediates a set of constants keeps.
    pub immediates: u32,
    /// For the engine `typing_env`: the most values a set of naked numbers keeps, per kind,
    /// in the order of [`AnalysisSpec::NUMBER_KINDS`].
    pub numbers: [u32; 4],
    /// For the engine `escape`: how many heaps a point keeps apart.
    pub heaps: u32,
}

impl AnalysisSpec {
    /// The joins before widening and the descending passes of a declaration that names
    /// neither.
    pub const DEFAULT_WIDENING_DELAY: u32 = 2;
    /// See [`AnalysisSpec::DEFAULT_WIDENING_DELAY`].
    pub const DEFAULT_NARROWING: u32 = 2;
    /// The most immediates a set of constants of the engine `typing_env` keeps when the
    /// declaration does not say (`immediates N;`).
    pub const DEFAULT_IMMEDIATES: u32 = 8;
    /// The most values a set of naked numbers of one kind keeps when the declaration does not
    /// say (`numbers float 4;`).
    pub const DEFAULT_NUMBERS: u32 = 8;
    /// The kinds of naked numbers the engine `typing_env` keeps sets of, as `numbers` names
    /// them: unboxed floats, 32-bit and 64-bit integers, machine-width integers.
    pub const NUMBER_KINDS: [&'static str; 4] = ["float", "int32", "int64", "nativeint"];
    /// The heaps a point of the engine `escape` keeps apart when the declaration does not say
    /// (`heaps N;`).
    pub const DEFAULT_HEAPS: u32 = 8;

    /// What a declaration that names only its domain says: the flow engine, forward, dense states,
    /// insensitive contexts, any program, conditions evaluated, the default widening delay and
    /// narrowing, no thresholds, the default bounds of the typing environment and the escape
    /// analysis.
    pub const fn declared_default() -> AnalysisSpec {
        AnalysisSpec {
            engine: Engine::Flow,
            direction: Direction::Forward,
            state: StateRepr::Dense,
            context: ContextPolicy::Insensitive,
            program: ProgramKind::Any,
            conditional: true,
            widening_delay: Self::DEFAULT_WIDENING_DELAY,
            narrowing: Self::DEFAULT_NARROWING,
            thresholds: Cow::Borrowed(&[]),
            immediates: Self::DEFAULT_IMMEDIATES,
            numbers: [Self::DEFAULT_NUMBERS; 4],
            heaps: Self::DEFAULT_HEAPS,
        }
    }

    /// Sets the bound of the naked numbers of kind `kind` (a word of
    /// [`AnalysisSpec::NUMBER_KINDS`]) to `n`, or says why not: what `numbers float 4, int32
    /// 16;` (and the attribute's `numbers = "float 4, int32 16"`) do for each pair.
    pub fn set_numbers(&mut self, kind: &str, n: i64) -> Result<(), String> {
        let Some(k) = Self::NUMBER_KINDS.iter().position(|&w| w == kind) else {
            return Err(format!(
                "`{kind}` is not a kind of naked number: the kinds are `float`, `int32`, \
                 `int64` and `nativeint`"
            ));
        };
        match u32::try_from(n) {
            Ok(n @ 1..=1024) => {
                self.numbers[k] = n;
                Ok(())
            }
            _ => Err(format!(
                "a set of naked numbers keeps from 1 to 1024 values, not {n}: `numbers {kind} 8`"
            )),
        }
    }

    /// Reads the attribute form of `numbers`, `"float 4, int32 16"`: pairs of a kind and a
    /// bound, separated by commas or spaces.
    pub fn parse_numbers(&mut self, text: &str) -> Result<(), String> {
        let words: Vec<&str> = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .collect();
        if words.is_empty() || words.len() % 2 != 0 {
            return Err(format!(
                "expected pairs of a kind and a bound, such as `\"float 4, int32 16\"`, not `{text}`"
            ));
        }
        for pair in words.chunks(2) {
            let n: i64 = pair[1]
                .parse()
                .map_err(|_| format!("expected a bound after `{}`, not `{}`", pair[0], pair[1]))?;
            self.set_numbers(pair[0], n)?;
        }
        Ok(())
    }
}

impl AnalysisSpec {
    /// A setting a backward analysis cannot have, and why: the backward engine runs the flow
    /// engine's worklist over one function at a time with dense states. `None` for a forward
    /// analysis and for a backward one whose settings all apply.
    pub fn backward_conflict(&self) -> Option<(&'static str, &'static str)> {
        if self.direction == Direction::Forward {
            return None;
        }
        if self.engine != Engine::Flow {
            Some((
                "engine",
                "a backward analysis runs on the `flow` engine (against control-flow edges)",
            ))
        } else if self.state != StateRepr::Dense {
            Some((
                "state",
                "a backward analysis keeps dense states: the sparse representations follow \
                 definitions forward, along the dominator tree",
            ))
        } else if self.context != ContextPolicy::Insensitive {
            Some((
                "context",
                "a backward analysis runs over one function at a time: what a callee demands of \
                 its arguments counts as observed",
            ))
        } else {
            None
        }
    }
}

/// `a`, `b` or `c`: `words` quoted and joined for a message.
pub fn one_of(words: &[&str]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_reads_back_as_its_variant() {
        for e in Engine::ALL {
            assert_eq!(Engine::from_word(e.word()), Some(e));
        }
        for r in StateRepr::EVERY {
            assert_eq!(StateRepr::from_word(r.word()), Some(r));
            assert_eq!(StateRepr::parse(r.as_str()), Some(r));
        }
        for k in ProgramKind::ALL {
            assert_eq!(ProgramKind::from_word(k.word()), Some(k));
        }
        for p in [
            ContextPolicy::Insensitive,
            ContextPolicy::CallStrings(2),
            ContextPolicy::Functional {
                max_per_function: 8,
            },
        ] {
            assert_eq!(ContextPolicy::parse(&p.to_string()), Some(p));
        }
    }

    #[test]
    fn a_declaration_that_names_nothing_gets_each_words_default() {
        let spec = AnalysisSpec::declared_default();
        assert_eq!(spec.engine, Engine::default());
        assert_eq!(spec.state, StateRepr::default());
        assert_eq!(spec.context, ContextPolicy::default());
        assert_eq!(spec.program, ProgramKind::default());
    }

    #[test]
    fn unknown_words_and_out_of_range_bounds_are_refused() {
        assert_eq!(Engine::from_word("Flow"), None);
        assert_eq!(StateRepr::from_word("sparse-temporal"), None);
        assert_eq!(StateRepr::parse("sparse_temporal"), None);
        assert_eq!(ContextPolicy::parse("kcfa"), None);
        assert_eq!(ContextPolicy::parse("kcfa=65"), None);
        assert_eq!(ContextPolicy::parse("functional=0"), None);
        assert_eq!(ContextPolicy::parse("insensitive=1"), None);
        assert_eq!(ProgramKind::from_word("llvm"), None);
    }

    #[test]
    fn word_lists_read_as_prose() {
        assert_eq!(one_of(&["a"]), "`a`");
        assert_eq!(one_of(&["a", "b", "c"]), "`a`, `b` or `c`");
        assert_eq!(
            one_of(&Engine::WORDS),
            "`flow`, `behavior_graph`, `typing_env`, `escape` or `shape`"
        );
    }

    #[test]
    fn every_engine_but_the_alias_heap_can_be_declared() {
        for e in Engine::ALL {
            assert_eq!(
                e.declarable().is_ok(),
                Engine::DECLARABLE.contains(&e),
                "{e}"
            );
        }
        assert!(Engine::AliasHeap.declarable().is_err());
        assert!(Engine::AliasHeap.reads("state").is_err());
        assert!(Engine::AliasHeap.reads("widening_delay").is_err());
    }

    #[test]
    fn each_engine_reads_the_settings_it_uses_and_every_common_one() {
        let reading = |setting: &str| -> Vec<&str> {
            Engine::DECLARABLE
                .into_iter()
                .filter(|e| e.reads(setting).is_ok())
                .map(Engine::word)
                .collect()
        };
        assert_eq!(reading("state"), ["flow", "behavior_graph"]);
        assert_eq!(reading("context"), ["flow", "behavior_graph"]);
        assert_eq!(reading("immediates"), ["typing_env"]);
        assert_eq!(reading("numbers"), ["typing_env"]);
        assert_eq!(reading("heaps"), ["escape"]);
        for common in [
            "domain",
            "conditions",
            "widening_delay",
            "narrowing",
            "program",
        ] {
            assert_eq!(reading(common).len(), Engine::DECLARABLE.len(), "{common}");
        }
    }
}
