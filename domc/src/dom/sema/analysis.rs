//! Checking `analysis` declarations: their settings (domain, conditions, state, context,
//! engine, widening and narrowing, program kind), each with its own error and help.

use super::{Place, Sema};
use crate::dom::ast;
use crate::dom::types::Ty;
use crate::model::AnalysisDecl;
use absinthe_spec::{
    AnalysisSpec, ContextPolicy, Direction, Engine, ProgramKind, StateRepr, one_of,
};
use std::ops::Range;

/// The analysis settings, for suggestions.
const SETTINGS: [&str; 13] = [
    "domain",
    "direction",
    "conditions",
    "state",
    "context",
    "engine",
    "widening_delay",
    "narrowing",
    "program",
    "thresholds",
    "immediates",
    "numbers",
    "heaps",
];

impl Sema {
    pub(super) fn analysis(&mut self, place: &Place, a: &ast::Analysis) {
        let file = place.file;
        let mut decl = AnalysisDecl {
            name: a.name.text.clone(),
            domain: String::new(),
            spec: AnalysisSpec::declared_default(),
            describe: format!(
                "`analysis {}` at {}",
                a.name.text,
                place.describe(a.span.start)
            ),
        };
        let mut seen: Vec<&str> = Vec::new();
        // Where each setting was written, for the checks across settings below.
        let mut written: Vec<(&str, Range<usize>)> = Vec::new();
        let mut unknown_setting = false;
        for (key, values) in &a.settings {
            if seen.contains(&key.text.as_str()) {
                self.error(
                    file,
                    key.span.clone(),
                    format!("`{}` is set twice", key.text),
                    "duplicate setting",
                );
                continue;
            }
            seen.push(&key.text);
            written.push((key.text.as_str(), key.span.clone()));
            let word = |values: &[ast::Setting]| match values {
                [ast::Setting::Word(w)] => Some(w.text.clone()),
                _ => None,
            };
            let int = |values: &[ast::Setting]| match values {
                [ast::Setting::Int(i, _)] => u32::try_from(*i).ok(),
                _ => None,
            };
            let span = values
                .iter()
                .map(setting_span)
                .reduce(|a, b| a.start..b.end)
                .unwrap_or(key.span.clone());
            match key.text.as_str() {
                "domain" => match word(values) {
                    Some(w) => match self.types.lookup(&w) {
                        Some(Ty::Lat(id)) if self.types.is_value_domain(id) => decl.domain = w,
                        Some(_) => self.error_help(file, span, format!("`{w}` is not a value domain"), "not a product", "the domain of an analysis is a `product` (which has transfer rules)".into()),
                        None => match self.types.did_you_mean(&w) {
                            Some(help) => self.error_help(file, span, format!("no lattice or product is called `{w}`"), "unknown domain", help),
                            None => self.error(file, span, format!("no lattice or product is called `{w}`"), "unknown domain"),
                        },
                    },
                    None => self.error(file, span, "expected the name of a product".into(), "expected a name"),
                },
                "direction" => match word(values).as_deref().and_then(Direction::from_word) {
                    Some(direction) => decl.spec.direction = direction,
                    None => self.error_help(file, span, format!("expected {}", one_of(&Direction::WORDS)), "unknown direction", "`direction backward;` runs the domain's `on backward` rules from the exits against control flow (live names, needed values)".into()),
                },
                "conditions" => match word(values).as_deref() {
                    Some("evaluated") => decl.spec.conditional = true,
                    Some("ignored") => decl.spec.conditional = false,
                    _ => self.error(file, span, "expected `evaluated` or `ignored`".into(), "unknown setting"),
                },
                "state" => match word(values).as_deref().and_then(StateRepr::from_word) {
                    Some(state) => decl.spec.state = state,
                    None => self.error(
                        file,
                        span,
                        format!("expected {}", one_of(&StateRepr::WORDS)),
                        "unknown state",
                    ),
                },
                "context" => match context_policy(values) {
                    Some(policy) => decl.spec.context = policy,
                    None => self.error_help(
                        file,
                        span,
                        "expected `insensitive`, `kcfa K` or `functional` (optionally `functional N`)".into(),
                        "unknown context policy",
                        "`kcfa 2` tells calls apart by their last two call sites; `functional 8` keeps up to 8 summaries per function, one per abstract input".into(),
                    ),
                },
                "engine" => match word(values).as_deref().and_then(Engine::from_word) {
                    Some(engine) => match engine.declarable() {
                        Ok(()) => decl.spec.engine = engine,
                        Err(why) => self.error_help(
                            file,
                            span,
                            format!("expected {}", one_of(&Engine::WORDS)),
                            "an engine a declaration cannot name",
                            why.into(),
                        ),
                    },
                    None => self.error_help(
                        file,
                        span,
                        format!("expected {}", one_of(&Engine::WORDS)),
                        "unknown engine",
                        "`flow` runs on control-flow graphs (and across functions); `behavior_graph` traces the analysis over the behavior graph of kernel terms; `typing_env` runs the Flambda 2 typing environment, the domain being its integers; `escape` runs the escape and alias analysis and `shape` the shape analysis, the domain being the values of names".into(),
                    ),
                },
                "widening_delay" => match int(values) {
                    Some(k) => decl.spec.widening_delay = k,
                    None => self.error(file, span, "expected a number of joins".into(), "expected an integer"),
                },
                "narrowing" => match int(values) {
                    Some(k) => decl.spec.narrowing = k,
                    None => self.error(file, span, "expected a number of passes".into(), "expected an integer"),
                },
                "thresholds" => {
                    for v in values {
                        let value = match v {
                            ast::Setting::Int(i, _) => i64::try_from(*i).ok(),
                            ast::Setting::Neg(i, _) => 0i64.checked_sub_unsigned(*i),
                            _ => None,
                        };
                        match value {
                            Some(t) => decl.spec.thresholds.to_mut().push(t),
                            None => self.error(file, setting_span(v), "expected an integer that fits in `int`".into(), "not a threshold"),
                        }
                    }
                    if values.is_empty() {
                        self.error(file, key.span.clone(), "expected one or more integers".into(), "no thresholds");
                    }
                    decl.spec.thresholds.to_mut().sort_unstable();
                    decl.spec.thresholds.to_mut().dedup();
                }
                "immediates" => match int(values) {
                    Some(k @ 1..=1024) => decl.spec.immediates = k,
                    _ => self.error_help(
                        file,
                        span,
                        "expected a number of immediates from 1 to 1024".into(),
                        "not a set size",
                        "`immediates 16;` keeps sets of up to 16 constants before the engine `typing_env` turns them into a value of the domain".into(),
                    ),
                },
                // `numbers float 4, int32 16;`: pairs of a kind and a bound.
                "numbers" => {
                    if values.is_empty() || values.len() % 2 != 0 {
                        self.error_help(
                            file,
                            span.clone(),
                            "expected pairs of a kind of naked number and a bound".into(),
                            "not pairs",
                            "`numbers float 4, int32 16;` keeps sets of up to 4 floats and 16 `int32`s before the engine `typing_env` lets them be any value of their kind".into(),
                        );
                    }
                    for pair in values.chunks_exact(2) {
                        let kind = match &pair[0] {
                            ast::Setting::Word(w) => w.text.clone(),
                            other => {
                                self.error(file, setting_span(other), "expected a kind: `float`, `int32`, `int64` or `nativeint`".into(), "not a kind");
                                continue;
                            }
                        };
                        let bound = match &pair[1] {
                            ast::Setting::Int(n, _) => i64::try_from(*n).unwrap_or(i64::MAX),
                            ast::Setting::Neg(n, _) => 0i64.saturating_sub_unsigned(*n),
                            other => {
                                self.error(file, setting_span(other), format!("expected the bound of `{kind}`, a number from 1 to 1024"), "not a bound");
                                continue;
                            }
                        };
                        if let Err(message) = decl.spec.set_numbers(&kind, bound) {
                            let place = setting_span(&pair[0]).start..setting_span(&pair[1]).end;
                            self.error(file, place, message, "not a kind and its bound");
                        }
                    }
                }
                "heaps" => match int(values) {
                    Some(k @ 1..=64) => decl.spec.heaps = k,
                    _ => self.error_help(
                        file,
                        span,
                        "expected a number of heaps from 1 to 64".into(),
                        "not a number of heaps",
                        "`heaps 4;` keeps up to four heaps apart at a point before the engine `escape` joins them into one".into(),
                    ),
                },
                "program" => match word(values).as_deref().and_then(ProgramKind::from_word) {
                    Some(kind) => decl.spec.program = kind,
                    None => {
                        let words = ProgramKind::ALL.map(ProgramKind::word);
                        self.error(file, span, format!("expected {}", one_of(&words)), "unknown program kind")
                    }
                },
                other => {
                    unknown_setting = true;
                    self.error_help(
                    file,
                    key.span.clone(),
                    format!("`{other}` is not an analysis setting"),
                    "unknown setting",
                    crate::diagnostic::did_you_mean(other, SETTINGS).unwrap_or_else(|| "the settings are `domain`, `direction`, `conditions`, `state`, `context`, `engine`, `widening_delay`, `narrowing`, `program`, `thresholds`, `immediates`, `numbers` and `heaps`".into()),
                    );
                }
            }
        }
        // Settings one engine reads and another would silently ignore.
        for (key, span) in &written {
            if let Err(help) = decl.spec.engine.reads(key) {
                self.error_help(
                    file,
                    span.clone(),
                    format!(
                        "`{key}` does not apply to the engine `{}`",
                        decl.spec.engine
                    ),
                    "not read by this engine",
                    help.into(),
                );
            }
        }
        // A backward analysis runs on one engine with one kind of state.
        if let Some((setting, why)) = decl.spec.backward_conflict() {
            let span = written
                .iter()
                .find(|(key, _)| *key == setting)
                .map_or(a.name.span.clone(), |(_, span)| span.clone());
            self.error_help(
                file,
                span,
                format!("`{setting}` does not apply to a backward analysis"),
                "not for a backward analysis",
                why.into(),
            );
        }
        // Settings only the forward engine reads.
        if decl.spec.direction == Direction::Backward {
            for (key, span) in &written {
                let why = match *key {
                    "conditions" => {
                        "a backward analysis evaluates no branch: it walks every edge against control flow"
                    }
                    "thresholds" => {
                        "a backward analysis takes no widening thresholds from loop guards"
                    }
                    _ => continue,
                };
                self.error_help(
                    file,
                    span.clone(),
                    format!("`{key}` does not apply to a backward analysis"),
                    "not for a backward analysis",
                    why.into(),
                );
            }
        }
        // A misspelt setting (reported) may have been the domain.
        if decl.domain.is_empty() && !seen.contains(&"domain") && !unknown_setting {
            self.error(
                file,
                a.name.span.clone(),
                format!("analysis `{}` names no domain", a.name.text),
                "add `domain P;`",
            );
        }
        self.out.analyses.push(decl);
    }
}

impl Sema {
    /// After every rule is known: a backward analysis's domain has backward rules (without any,
    /// every name would be demanded everywhere, which a declaration surely did not mean).
    pub(super) fn check_backward_domains(&mut self, files: &[(Place, Vec<ast::Item>)]) {
        for (place, items) in files {
            for item in items {
                let ast::Item::Analysis(a) = item else {
                    continue;
                };
                let Some(decl) = self.out.analyses.iter().find(|d| d.name == a.name.text) else {
                    continue;
                };
                if decl.spec.direction != Direction::Backward || decl.domain.is_empty() {
                    continue;
                }
                let domain = decl.domain.clone();
                let has_rules = self.out.program.products.iter().any(|(p, direct)| {
                    (p.name == domain.as_str() || direct.as_deref() == Some(domain.as_str()))
                        && p.rules.iter().any(|r| r.kind.is_backward())
                });
                if !has_rules {
                    self.error_help(
                        place.file,
                        a.name.span.clone(),
                        format!("`analysis {}` runs backward, but `{domain}` has no backward rule", a.name.text),
                        "no backward rules",
                        format!("say what an observation and an operation demand: `transfer seen on backward observe () -> C = …;` and `transfer use on backward any (op: Op, d: {domain}) -> C = …;`"),
                    );
                }
            }
        }
    }
}

fn setting_span(s: &ast::Setting) -> Range<usize> {
    match s {
        ast::Setting::Int(_, span) | ast::Setting::Neg(_, span) | ast::Setting::Str(_, span) => {
            span.clone()
        }
        ast::Setting::Word(w) => w.span.clone(),
    }
}

/// The policy a `context` setting names: `insensitive`, `kcfa K`, `functional` or
/// `functional N` (the words of [`ContextPolicy::from_words`]).
fn context_policy(values: &[ast::Setting]) -> Option<ContextPolicy> {
    match values {
        [ast::Setting::Word(w)] => ContextPolicy::from_words(&w.text, None),
        [ast::Setting::Word(w), ast::Setting::Int(n, _)] => {
            ContextPolicy::from_words(&w.text, Some(usize::try_from(*n).ok()?))
        }
        _ => None,
    }
}
