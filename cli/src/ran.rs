//! The line under an output's header that says how the analysis ran: its engine, state
//! representation and context policy, each with where it came from (the declaration, a
//! command-line flag that overrides it, or what the program allows).

use crate::driver::Format;
use absinthe::spec::{AnalysisSpec, ContextPolicy, StateRepr};

/// How one `analyze` ran, for the line under its header.
#[derive(Debug)]
pub struct Ran {
    spec: &'static AnalysisSpec,
    state_flag: Option<StateRepr>,
    context_flag: Option<ContextPolicy>,
    across: Across,
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
            state_flag,
            context_flag,
            across: Across::Unknown,
        }
    }

    /// The analysis ran across functions with `policy` (and so with dense states).
    pub fn interprocedural(&mut self, policy: ContextPolicy) {
        self.across = Across::Functions(policy);
    }

    /// The analysis ran on each function alone; `why` says so in the output.
    pub fn intraprocedural(&mut self, why: &'static str) {
        self.across = Across::Alone(why);
    }

    /// The line: `# ran: engine E (…); state S (…); context C (…)`.
    fn line(&self) -> String {
        let declared = self.spec;
        let state = match (&self.across, self.state_flag) {
            (Across::Functions(_), _) if declared.state != StateRepr::Dense => format!(
                "dense (interprocedural analysis keeps dense states; the declaration says {})",
                declared.state
            ),
            (Across::Functions(_), _) => "dense (declared)".to_owned(),
            (_, Some(flag)) if flag != declared.state => {
                format!("{flag} (--state; the declaration says {})", declared.state)
            }
            (_, Some(flag)) => format!("{flag} (--state, as declared)"),
            (_, None) => format!("{} (declared)", declared.state),
        };
        let context = match &self.across {
            Across::Functions(policy) if Some(*policy) == self.context_flag => {
                if *policy == declared.context {
                    format!("{policy} (--context, as declared)")
                } else {
                    format!(
                        "{policy} (--context; the declaration says {})",
                        declared.context
                    )
                }
            }
            Across::Functions(policy) => format!("{policy} (declared)"),
            Across::Alone(why) => format!("{why} (the declaration says {})", declared.context),
            Across::Unknown => unreachable!(
                "`analyze` says whether the analysis ran across functions before printing"
            ),
        };
        format!(
            "# ran: engine {} (declared); state {state}; context {context}\n",
            declared.engine
        )
    }

    /// `output` with the line under its first (header) line; JSON output is left as it is.
    pub fn under_header(&self, output: &str, format: Format) -> String {
        if matches!(format, Format::Json) {
            return output.to_owned();
        }
        let line = self.line();
        match output.split_once('\n') {
            Some((header, rest)) if header.starts_with("# ") => format!("{header}\n{line}{rest}"),
            _ => format!("{line}{output}"),
        }
    }
}
