//! The line under an output's header that says how the analysis ran: its engine, state
//! representation and context policy, each with where it came from (the declaration, a
//! command-line flag that overrides it, or what the program allows).

use crate::driver::Format;
use absinthe::spec::{AnalysisSpec, ContextPolicy, Engine, StateRepr};
use serde_json::{Map, Value, json};

/// How one `analyze` ran, for the line under its header.
#[derive(Debug)]
pub struct Ran {
    spec: &'static AnalysisSpec,
    /// `--engine`, on kernel terms.
    engine_flag: Option<Engine>,
    state_flag: Option<StateRepr>,
    context_flag: Option<ContextPolicy>,
    across: Across,
    /// The representation some states were kept in instead of the one that ran.
    fell_back: Option<StateRepr>,
    /// The domain's relational component kept the states dense, whatever was asked.
    relation_dense: bool,
}

/// Whether the analysis ran across the functions of a module.
#[derive(Debug)]
enum Across {
    /// Not known yet: [`Ran::interprocedural`] or [`Ran::intraprocedural`] says.
    Unknown,
    /// Across functions, with this policy.
    Functions(ContextPolicy),
    /// Each function alone, for this reason.
    Alone(&'static str),
    /// On an engine that keeps states of its own and has its own schedule (the typing
    /// environment, the escape and shape engines, the alias heap, the behavior graph): what it
    /// keeps at each point and how it treats calls.
    Own {
        state: String,
        state_from: Option<String>,
        context: String,
        context_from: Option<String>,
    },
}

impl Ran {
    /// What `spec` declares, with the command line's `--state` and `--context` (a policy across
    /// functions) that override it.
    pub fn new(
        spec: &'static AnalysisSpec,
        state_flag: Option<StateRepr>,
        context_flag: Option<ContextPolicy>,
    ) -> Ran {
        Ran {
            spec,
            engine_flag: None,
            state_flag,
            context_flag,
            across: Across::Unknown,
            fell_back: None,
            relation_dense: false,
        }
    }

    /// The domain has a relational component, which the engine keeps in dense states whatever
    /// the declaration or `--state` says.
    pub fn relation_dense(&mut self) {
        self.relation_dense = true;
    }

    /// Some states were kept in `kept` instead (sparse for `ssa` where the program is not in
    /// strict SSA form).
    pub fn fell_back(&mut self, kept: Option<StateRepr>) {
        self.fell_back = kept;
    }

    /// `--engine`, which on kernel terms picks the engine the declaration does not say.
    pub fn with_engine_flag(mut self, engine: Engine) -> Ran {
        self.engine_flag = Some(engine);
        self
    }

    /// The analysis ran on an engine with states and a schedule of its own: `state` says what
    /// it keeps at each point, `context` how it treats calls.
    pub fn own(&mut self, state: impl Into<String>, context: impl Into<String>) {
        self.across = Across::Own {
            state: state.into(),
            state_from: None,
            context: context.into(),
            context_from: None,
        };
    }

    /// The front end chose the states (`state`, for the reason `state_from`) and how calls are
    /// treated (`context`, for `context_from`), whatever the declaration says.
    pub fn chosen(
        &mut self,
        (state, state_from): (String, String),
        (context, context_from): (String, String),
    ) {
        self.across = Across::Own {
            state,
            state_from: Some(state_from),
            context,
            context_from: Some(context_from),
        };
    }

    /// The analysis ran across functions with `policy` (and so with dense states).
    pub fn interprocedural(&mut self, policy: ContextPolicy) {
        self.across = Across::Functions(policy);
    }

    /// The analysis ran on each function alone; `why` says so in the output.
    pub fn intraprocedural(&mut self, why: &'static str) {
        self.across = Across::Alone(why);
    }

    /// What ran, each part with where it came from: the engine, the state representation and
    /// the context policy (or why there was none).
    fn parts(&self) -> [(&'static str, String, String); 3] {
        let declared = self.spec;
        let engine = match self.engine_flag {
            Some(flag) if flag != declared.engine => (
                flag.to_string(),
                format!("--engine; the declaration says {}", declared.engine),
            ),
            Some(flag) => (flag.to_string(), "--engine, as declared".to_owned()),
            None => (declared.engine.to_string(), "declared".to_owned()),
        };
        if let Across::Own {
            state,
            state_from,
            context,
            context_from,
        } = &self.across
        {
            let engine_keeps = state_from
                .clone()
                .unwrap_or_else(|| format!("what the {} engine keeps", engine.0));
            let schedule = context_from
                .clone()
                .unwrap_or_else(|| format!("the {} engine's schedule", engine.0));
            return [
                ("engine", engine.0, engine.1),
                ("state", state.clone(), engine_keeps),
                ("context", context.clone(), schedule),
            ];
        }
        let (state, state_from) = match (&self.across, self.state_flag) {
            (Across::Functions(_), _) if declared.state != StateRepr::Dense => (
                StateRepr::Dense,
                format!(
                    "interprocedural analysis keeps dense states; the declaration says {}",
                    declared.state
                ),
            ),
            (Across::Functions(_), _) => (StateRepr::Dense, "declared".to_owned()),
            (_, flag) if self.relation_dense => {
                let asked = flag.unwrap_or(declared.state);
                let from = if asked == StateRepr::Dense {
                    "declared".to_owned()
                } else {
                    format!(
                        "the relational component keeps dense states; {} says {asked}",
                        if flag.is_some() {
                            "--state"
                        } else {
                            "the declaration"
                        }
                    )
                };
                (StateRepr::Dense, from)
            }
            (_, Some(flag)) if flag != declared.state => (
                flag,
                format!("--state; the declaration says {}", declared.state),
            ),
            (_, Some(flag)) => (flag, "--state, as declared".to_owned()),
            (_, None) => (declared.state, "declared".to_owned()),
        };
        let (context, context_from) = match &self.across {
            Across::Functions(policy) if Some(*policy) == self.context_flag => {
                let from = if *policy == declared.context {
                    "--context, as declared".to_owned()
                } else {
                    format!("--context; the declaration says {}", declared.context)
                };
                (policy.to_string(), from)
            }
            Across::Functions(policy) => (policy.to_string(), "declared".to_owned()),
            Across::Alone(why) => (
                (*why).to_owned(),
                format!("the declaration says {}", declared.context),
            ),
            Across::Own { .. } => unreachable!("handled above"),
            Across::Unknown => unreachable!(
                "`analyze` says whether the analysis ran across functions before printing"
            ),
        };
        let state = match self.fell_back.filter(|_| !self.relation_dense) {
            Some(kept) => format!("{state}, {kept} where the program is not in strict SSA form"),
            None => state.to_string(),
        };
        [
            ("engine", engine.0, engine.1),
            ("state", state, state_from),
            ("context", context, context_from),
        ]
    }

    /// The line: `# ran: engine E (…); state S (…); context C (…)`.
    fn line(&self) -> String {
        let parts: Vec<String> = self
            .parts()
            .iter()
            .map(|(what, value, from)| format!("{what} {value} ({from})"))
            .collect();
        format!("# ran: {}\n", parts.join("; "))
    }

    /// The same as a JSON object: `{"engine": {"value": …, "from": …}, "state": …, "context": …}`.
    fn json(&self) -> Value {
        let mut ran = Map::new();
        for (what, value, from) in self.parts() {
            ran.insert(what.to_owned(), json!({ "value": value, "from": from }));
        }
        Value::Object(ran)
    }

    /// `output` with the line under its first (header) line, or, for JSON, with a `ran` member
    /// at the end of the document.
    pub fn under_header(&self, output: &str, format: Format) -> String {
        if matches!(format, Format::Json) {
            let mut doc: Value = serde_json::from_str(output)
                .unwrap_or_else(|e| unreachable!("a JSON report is one JSON document: {e}"));
            let Value::Object(members) = &mut doc else {
                unreachable!("a JSON report is an object")
            };
            members.insert("ran".to_owned(), self.json());
            let mut text = serde_json::to_string_pretty(&doc)
                .unwrap_or_else(|e| unreachable!("a JSON value always serializes: {e}"));
            if output.ends_with('\n') {
                text.push('\n');
            }
            return text;
        }
        let line = self.line();
        match output.split_once('\n') {
            Some((header, rest)) if header.starts_with("# ") => format!("{header}\n{line}{rest}"),
            _ => format!("{line}{output}"),
        }
    }
}
