//! Checking `analysis` declarations: their settings (domain, conditions, state, context,
//! engine, widening and narrowing, program kind), each with its own error and help.

use super::{Place, Sema};
use crate::dom::ast;
use crate::dom::types::Ty;
use std::ops::Range;

/// A checked `analysis` declaration.
#[derive(Clone, Debug)]
pub struct AnalysisDecl {
    /// Its name.
    pub name: String,
    /// The Rust name of its value domain.
    pub domain: String,
    /// Whether branch conditions are evaluated.
    pub conditional: bool,
    /// How states are stored: `dense`, `sparse`, `sparse-temporal` or `ssa`.
    pub state: String,
    /// How calls are told apart across functions: `insensitive`, `kcfa=K`, `functional` or
    /// `functional=N`.
    pub context: String,
    /// The engine: `flow` (control-flow graphs), `behavior_graph` (kernel terms), `typing_env`
    /// (the Flambda 2 typing environment over functions in SSA form) or `escape` (the escape and
    /// alias analysis over functions with objects and fields) or `shape` (the Green Fairy's
    /// shape analysis).
    pub engine: String,
    /// Joins at a loop head before widening.
    pub widening_delay: u32,
    /// Descending passes after the ascending phase.
    pub narrowing: u32,
    /// The programs it runs on: `toy`, `air` or `any`.
    pub program: String,
    /// Constants every widening may stop at, besides those of the loop's own guards.
    pub thresholds: Vec<i64>,
    /// For the engine `typing_env`: the most immediates a set of constants keeps (`None`: the
    /// engine's default).
    pub immediates: Option<u32>,
    /// For the engine `escape`: how many heaps a point keeps apart (`None`: the engine's
    /// default).
    pub heaps: Option<u32>,
    /// Where it was declared.
    pub describe: String,
}

impl AnalysisDecl {
    /// The name of the unit struct generated for it: `const_prop` → `ConstPropAnalysis`.
    pub fn type_name(&self) -> String {
        let camel: String = self
            .name
            .split('_')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let mut c = p.chars();
                match c.next() {
                    Some(first) => first.to_uppercase().collect::<String>() + c.as_str(),
                    None => String::new(),
                }
            })
            .collect();
        format!("{camel}Analysis")
    }
}

/// The analysis settings, for suggestions.
const SETTINGS: [&str; 12] = [
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
    "heaps",
];

impl Sema {
    pub(super) fn analysis(&mut self, place: &Place, a: &ast::Analysis) {
        let file = place.file;
        let mut decl = AnalysisDecl {
            name: a.name.text.clone(),
            domain: String::new(),
            conditional: true,
            state: "dense".into(),
            context: "insensitive".into(),
            engine: "flow".into(),
            widening_delay: 2,
            narrowing: 2,
            program: "any".into(),
            thresholds: Vec::new(),
            immediates: None,
            heaps: None,
            describe: format!(
                "`analysis {}` at {}",
                a.name.text,
                place.describe(a.span.start)
            ),
        };
        let mut seen: Vec<&str> = Vec::new();
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
                "direction" => match word(values).as_deref() {
                    Some("forward") => {}
                    Some("backward") => self.error_help(file, span, "a value analysis runs forward".into(), "unsupported direction", "backward analyses are written in Rust against `absinthe::engine::Analysis` for now".into()),
                    _ => self.error(file, span, "expected `forward` or `backward`".into(), "unknown direction"),
                },
                "conditions" => match word(values).as_deref() {
                    Some("evaluated") => decl.conditional = true,
                    Some("ignored") => decl.conditional = false,
                    _ => self.error(file, span, "expected `evaluated` or `ignored`".into(), "unknown setting"),
                },
                "state" => match word(values).as_deref() {
                    Some(state @ ("dense" | "sparse" | "ssa")) => decl.state = state.into(),
                    Some("sparse_temporal") => decl.state = "sparse-temporal".into(),
                    _ => self.error(
                        file,
                        span,
                        "expected `dense`, `sparse`, `sparse_temporal` or `ssa`".into(),
                        "unknown state",
                    ),
                },
                "context" => match values.as_slice() {
                    [ast::Setting::Word(w)] if w.text == "insensitive" => decl.context = "insensitive".into(),
                    [ast::Setting::Word(w)] if w.text == "functional" => decl.context = "functional".into(),
                    [ast::Setting::Word(w), ast::Setting::Int(n, _)]
                        if (w.text == "kcfa" || (w.text == "functional" && *n > 0)) && *n <= 64 =>
                    {
                        decl.context = format!("{}={n}", w.text)
                    }
                    _ => self.error_help(
                        file,
                        span,
                        "expected `insensitive`, `kcfa K` or `functional` (optionally `functional N`)".into(),
                        "unknown context policy",
                        "`kcfa 2` tells calls apart by their last two call sites; `functional 8` keeps up to 8 summaries per function, one per abstract input".into(),
                    ),
                },
                "engine" => match word(values).as_deref() {
                    Some(e @ ("flow" | "behavior_graph" | "typing_env" | "escape" | "shape")) => decl.engine = e.into(),
                    _ => self.error_help(
                        file,
                        span,
                        "expected `flow`, `behavior_graph`, `typing_env`, `escape` or `shape`".into(),
                        "unknown engine",
                        "`flow` runs on control-flow graphs (and across functions); `behavior_graph` traces the analysis over the behavior graph of kernel terms; `typing_env` runs the Flambda 2 typing environment, the domain being its integers; `escape` runs the escape and alias analysis and `shape` the shape analysis, the domain being the values of names".into(),
                    ),
                },
                "widening_delay" => match int(values) {
                    Some(k) => decl.widening_delay = k,
                    None => self.error(file, span, "expected a number of joins".into(), "expected an integer"),
                },
                "narrowing" => match int(values) {
                    Some(k) => decl.narrowing = k,
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
                            Some(t) => decl.thresholds.push(t),
                            None => self.error(file, setting_span(v), "expected an integer that fits in `int`".into(), "not a threshold"),
                        }
                    }
                    if values.is_empty() {
                        self.error(file, key.span.clone(), "expected one or more integers".into(), "no thresholds");
                    }
                    decl.thresholds.sort_unstable();
                    decl.thresholds.dedup();
                }
                "immediates" => match int(values) {
                    Some(k @ 1..=1024) => decl.immediates = Some(k),
                    _ => self.error_help(
                        file,
                        span,
                        "expected a number of immediates from 1 to 1024".into(),
                        "not a set size",
                        "`immediates 16;` keeps sets of up to 16 constants before the engine `typing_env` turns them into a value of the domain".into(),
                    ),
                },
                "heaps" => match int(values) {
                    Some(k @ 1..=64) => decl.heaps = Some(k),
                    _ => self.error_help(
                        file,
                        span,
                        "expected a number of heaps from 1 to 64".into(),
                        "not a number of heaps",
                        "`heaps 4;` keeps up to four heaps apart at a point before the engine `escape` joins them into one".into(),
                    ),
                },
                "program" => match word(values).as_deref() {
                    Some(p @ ("toy" | "air" | "any")) => decl.program = p.to_string(),
                    _ => self.error(file, span, "expected `toy`, `air` or `any`".into(), "unknown program kind"),
                },
                other => {
                    unknown_setting = true;
                    self.error_help(
                    file,
                    key.span.clone(),
                    format!("`{other}` is not an analysis setting"),
                    "unknown setting",
                    crate::diagnostic::did_you_mean(other, SETTINGS).unwrap_or_else(|| "the settings are `domain`, `direction`, `conditions`, `state`, `context`, `engine`, `widening_delay`, `narrowing`, `program`, `thresholds`, `immediates` and `heaps`".into()),
                    );
                }
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

fn setting_span(s: &ast::Setting) -> Range<usize> {
    match s {
        ast::Setting::Int(_, span) | ast::Setting::Neg(_, span) | ast::Setting::Str(_, span) => {
            span.clone()
        }
        ast::Setting::Word(w) => w.span.clone(),
    }
}
