//! `absinthe trace`: an analysis's run on one function, as the engine lived it, in three formats:
//!
//! - `json-trace`: the function (names, blocks with their statements, edges, back edges) and
//!   every event of the worklist engine in order — each visit, block transfer, join, widening
//!   and narrowing, with the states it read and wrote — then the final states. Documented in
//!   the book's "Tracing an analysis" chapter, for other tools to read.
//! - `dot`: the final control-flow graph with the state at each block's entry and exit, in the
//!   style of rustc's dataflow graphviz dumps: one table per block, back edges dashed.
//! - `html`: a self-contained page that replays the run on the graph and answers "why is this
//!   value what it is" (`page.rs`; the book's "Watching an analysis").
//!
//! Value analyses run as `NonRelational<D>` with one value per name in each state, or, for a
//! domain with a relational component, as the relational engine `analyze` runs, with the
//! relation's constraints shown beside the values and explained (`relation.rs`); the heap
//! analyses (engines `shape` and `escape`, `heap.rs`) have states of their own, printed as rows
//! by a `StateRows` view (`rows.rs`), in the same three formats.

mod common;
mod demands;
mod heap;
mod layout;
mod page;
mod record;
mod relation;
mod row_trace;
mod rows;

use crate::analyses::{Analysis, ForDomain};
use crate::driver::Input;
use absinthe::engine::{Limits, solve_traced};
use absinthe::product::record_reductions;
use absinthe::spec::{Direction, Engine};
use absinthe::value::{Env, NonRelational, ValueDomain};
use absinthe_ir::Module;
pub use common::TraceFormat;
use common::{Extra, Run, Subject, WithReductions, dot, json_trace, state_json, state_line};

/// Traces `analysis` on the function of `input` called `function` (default: `main`, else the
/// first): the trace in `format`.
pub fn trace<A: Analysis>(
    input: &Input,
    analysis: A,
    function: Option<&str>,
    format: TraceFormat,
    limits: &Limits,
) -> Result<String, String> {
    let (module, file) = match input {
        Input::Toy { file, program } => {
            let (f, _) = program.lower();
            let module = Module {
                functions: vec![f],
                fields: Vec::new(),
                symbols: Vec::new(),
            };
            (module, file.clone())
        }
        Input::Air { file, module } => (module.clone(), file.clone()),
    };
    let chosen = match function {
        Some(name) => module
            .functions
            .iter()
            .find(|f| f.name == name)
            .ok_or_else(|| {
                let names: Vec<&str> = module.functions.iter().map(|f| f.name.as_str()).collect();
                format!(
                    "{file}: error: no function `{name}`; the functions are {}",
                    names.join(", ")
                )
            })?,
        None => module
            .functions
            .iter()
            .find(|f| f.name == "main")
            .or_else(|| module.functions.first())
            .ok_or_else(|| format!("{file}: error: the module has no function"))?,
    };
    let subject = Subject::new(&module, chosen);
    if analysis.spec().direction == Direction::Backward {
        struct Backward<'a> {
            subject: &'a Subject,
            analysis: &'a str,
            format: TraceFormat,
            limits: &'a Limits,
        }
        impl ForDomain for Backward<'_> {
            type Output = String;
            fn run<D: ValueDomain>(self) -> String {
                demands::trace::<D>(self.subject, self.analysis, self.format, self.limits)
            }
        }
        return Ok(analysis.dispatch(Backward {
            subject: &subject,
            analysis: analysis.as_str(),
            format,
            limits,
        }));
    }
    match analysis.engine() {
        Engine::Shape | Engine::Escape => {
            return Ok(heap::trace(&subject, analysis, format, limits));
        }
        Engine::Flow | Engine::BehaviorGraph => {}
        Engine::TypingEnv | Engine::AliasHeap => unreachable!(
            "`absinthe trace` refuses the typing environment and the alias heap before it reads \
             the input"
        ),
    }
    Ok(analysis.dispatch(Run {
        subject: &subject,
        analysis: analysis.as_str(),
        conditional: analysis.conditional(),
        thresholds: analysis.thresholds(),
        format,
        limits,
    }))
}

impl ForDomain for Run<'_> {
    type Output = String;

    fn run<D: ValueDomain>(self) -> String {
        if let Some(relation) = D::relation() {
            return relation::trace::<D>(&self, relation);
        }
        let f = &self.subject.function;
        let domain = NonRelational::<D>::new(self.conditional).with_thresholds(self.thresholds);
        let mut recorder = WithReductions::default();
        let stream = match self.format {
            TraceFormat::Html { verify_runs } => {
                return page::page::<D, _>(&self, &domain, None, verify_runs);
            }
            TraceFormat::JsonTrace => true,
            TraceFormat::Dot => false,
        };
        record_reductions(true);
        let solution = solve_traced(f, &domain, self.limits, &mut recorder);
        record_reductions(false);
        if stream {
            let state = |env: &Env<D>| state_json(f, env);
            json_trace(
                self.subject,
                self.analysis,
                &recorder.events,
                &solution,
                &state,
                None,
                Extra::default(),
            )
        } else {
            let line = |env: &Env<D>| vec![state_line(f, env)];
            dot(self.subject, self.analysis, &solution, &line)
        }
    }
}
