//! The trace of an analysis whose states are shown as rows ([`StateRows`]): the engine's run
//! recorded as the format needs it (the JSON stream and the graph, or the viewer's recording),
//! and the output of that recording. The heap analyses (`heap.rs`) and the backward analyses
//! (`demands.rs`) are traced this way.

use super::common::{Extra, Subject, TraceFormat, WithReductions};
use super::rows::{RowRecorder, Rows, StateRows};
use absinthe::engine::{Event, Limits, Solution, solve_traced};
use absinthe::lattice::Lattice;
use absinthe::product::{Reduction as Reduced, record_reductions};
use absinthe_ir::Function;
use serde_json::{Value, json};

/// What tracing the chosen function recorded: the engine's events for the JSON stream and the
/// graph, or the viewer's recording.
pub(super) enum Recorded<S> {
    Stream(Vec<(Vec<Reduced>, Event<S>)>, Solution<S>),
    Page(super::rows::Recorded, Solution<S>),
}

/// How one function's run is traced: the function, the analysis's name and the format.
pub(super) struct RowTrace<'a> {
    /// The traced function and its module.
    pub subject: &'a Subject,
    /// The analysis's name.
    pub analysis: &'a str,
    /// What to print.
    pub format: TraceFormat,
    /// Which way the analysis runs (the viewer reads a backward block's steps from its end).
    pub direction: absinthe::spec::Direction,
}

impl RowTrace<'_> {
    /// Records the run of `analysis` on the traced function, as the format needs it.
    pub(super) fn record<S, A>(
        &self,
        analysis: &A,
        view: &dyn StateRows<S>,
        limits: &Limits,
    ) -> Recorded<S>
    where
        S: Lattice,
        A: absinthe::engine::Analysis<Function, State = S>,
    {
        let f = &self.subject.function;
        match self.format {
            TraceFormat::Html { .. } => {
                let mut recorder = RowRecorder::new(f, analysis, view);
                let solution = solve_traced(f, analysis, limits, &mut recorder);
                Recorded::Page(recorder.finish(), solution)
            }
            TraceFormat::JsonTrace | TraceFormat::Dot => {
                let mut recorder = WithReductions::default();
                record_reductions(true);
                let solution = solve_traced(f, analysis, limits, &mut recorder);
                record_reductions(false);
                Recorded::Stream(recorder.events, solution)
            }
        }
    }

    /// The output of a recorded run; `view` prints states, `facts` are the function's facts
    /// as titled lists of lines, `verify` checks concrete runs (given how many).
    pub(super) fn output<S: Lattice>(
        &self,
        recorded: Recorded<S>,
        rows: &dyn Fn(&S) -> Option<Rows>,
        facts: Vec<(String, Vec<String>)>,
        verify: &dyn Fn(usize) -> Value,
    ) -> String {
        let subject = self.subject;
        match (recorded, self.format) {
            (Recorded::Stream(events, solution), TraceFormat::Dot) => {
                let lines = |state: &S| match rows(state) {
                    None => vec!["unreachable".to_owned()],
                    Some(rows) => rows.iter().map(|(k, v)| format!("{k}: {v}")).collect(),
                };
                let _ = events;
                super::common::dot(subject, self.analysis, &solution, &lines)
            }
            (Recorded::Stream(events, solution), _) => {
                let state = |state: &S| rows_json(rows(state));
                let mut extra = Extra::default();
                extra.top.insert("states".to_owned(), json!("rows"));
                extra.result.insert("facts".to_owned(), facts_json(&facts));
                super::common::json_trace(
                    subject,
                    self.analysis,
                    &events,
                    &solution,
                    &state,
                    None,
                    extra,
                )
            }
            (Recorded::Page(recorded, solution), format) => {
                let runs = match format {
                    TraceFormat::Html { verify_runs } => verify_runs,
                    _ => 0,
                };
                super::page::rows_page(
                    subject,
                    (self.analysis, self.direction),
                    recorded,
                    &solution,
                    rows,
                    &facts,
                    verify(runs),
                )
            }
        }
    }
}

/// A state's rows as JSON: `null` when unreachable, else each row's value by its label.
fn rows_json(rows: Option<Rows>) -> Value {
    match rows {
        None => Value::Null,
        Some(rows) => Value::Object(
            rows.into_iter()
                .map(|(k, v)| (k, Value::String(v)))
                .collect(),
        ),
    }
}

fn facts_json(facts: &[(String, Vec<String>)]) -> Value {
    Value::Object(
        facts
            .iter()
            .map(|(title, lines)| (title.clone(), json!(lines)))
            .collect(),
    )
}
