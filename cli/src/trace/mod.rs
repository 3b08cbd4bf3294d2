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
//! Value analyses run as `NonRelational<D>` with one value per name in each state; the heap
//! analyses (engines `shape` and `escape`, `heap.rs`) have states of their own, printed as rows
//! by a `StateRows` view (`rows.rs`), in the same three formats.

mod heap;
mod layout;
mod page;
mod record;
mod rows;

use crate::analyses::{Analysis, ForDomain};
use crate::driver::Input;
use absinthe::cfg::Dominators;
use absinthe::engine::{Event, Limits, Solution, StopReason, Tracer, solve_traced};
use absinthe::product::{Reduction as Reduced, record_reductions, take_reductions};
use absinthe::program::{BlockId, Cfg, NameId};
use absinthe::value::{Env, NonRelational, ValueDomain};
use absinthe_ir::{Function, Module};
use serde_json::{Value, json};
use std::fmt::Write as _;

/// What `trace` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceFormat {
    /// The event stream as JSON.
    JsonTrace,
    /// The final CFG with states, as graphviz.
    Dot,
    /// The interactive viewer, with this many concrete runs checking the result (`verify`).
    Html {
        /// Concrete runs; 0 checks nothing.
        verify_runs: usize,
    },
}

/// One function of the input, its printed blocks, and the module it belongs to.
struct Subject {
    module: Module,
    function: Function,
    /// Per block: its label and the printed lines of its φs, statements and terminator.
    blocks: Vec<(String, Vec<String>)>,
}

impl Subject {
    fn new(module: &Module, function: &Function) -> Subject {
        let mut text = String::new();
        let _ = absinthe_ir::air::print::write_function(&mut text, module, function);
        let mut blocks: Vec<(String, Vec<String>)> = Vec::new();
        for line in text.lines().skip(1) {
            if line == "}" {
                break;
            }
            match line.strip_suffix(':').filter(|_| !line.starts_with(' ')) {
                Some(label) => blocks.push((label.to_owned(), Vec::new())),
                None => {
                    if let Some((_, lines)) = blocks.last_mut() {
                        lines.push(line.trim().to_owned());
                    }
                }
            }
        }
        Subject {
            module: module.clone(),
            function: function.clone(),
            blocks,
        }
    }

    /// Edges whose target dominates their source: the loops' back edges.
    fn back_edges(&self) -> Vec<(BlockId, BlockId)> {
        let f = &self.function;
        let dominators = Dominators::new(f);
        let mut back = Vec::new();
        for b in 0..f.block_count() {
            let b = BlockId::new(b);
            for &s in f.successors(b) {
                if dominators.is_reachable(b) && dominators.dominates(s, b) {
                    back.push((b, s));
                }
            }
        }
        back
    }
}

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
    if analysis.shape() || analysis.escape() {
        return Ok(heap::trace(&subject, analysis, format, limits));
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

struct Run<'a> {
    subject: &'a Subject,
    analysis: &'a str,
    conditional: bool,
    thresholds: &'static [i64],
    format: TraceFormat,
    limits: &'a Limits,
}

impl ForDomain for Run<'_> {
    type Output = String;

    fn run<D: ValueDomain>(self) -> String {
        let f = &self.subject.function;
        let domain = NonRelational::<D>::new(self.conditional).with_thresholds(self.thresholds);
        let mut recorder = WithReductions::default();
        let stream = match self.format {
            TraceFormat::Html { verify_runs } => return page::page::<D>(&self, verify_runs),
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
                Extra::default(),
            )
        } else {
            let line = |env: &Env<D>| vec![state_line(f, env)];
            dot(self.subject, self.analysis, &solution, &line)
        }
    }
}

/// What a trace adds to the documented fields: top-level fields, and fields of `result`.
#[derive(Default)]
struct Extra {
    top: serde_json::Map<String, Value>,
    result: serde_json::Map<String, Value>,
}

/// The engine's events, each with the reductions of a product that changed a component while
/// the engine computed it.
struct WithReductions<S> {
    events: Vec<(Vec<Reduced>, Event<S>)>,
}

impl<S> Default for WithReductions<S> {
    fn default() -> Self {
        WithReductions { events: Vec::new() }
    }
}

impl<S> Tracer<S> for WithReductions<S> {
    fn enabled(&self) -> bool {
        true
    }

    fn event(&mut self, event: Event<S>) {
        self.events.push((take_reductions(), event));
    }
}

/// A state as JSON: `null` when unreachable, else each name with its printed value.
fn state_json<D: ValueDomain>(f: &Function, env: &Env<D>) -> Value {
    if !env.is_reachable() {
        return Value::Null;
    }
    let values: serde_json::Map<String, Value> = (0..f.names.len())
        .map(|n| {
            let value = env.get(NameId::new(n)).to_string();
            (f.names[n].clone(), Value::String(value))
        })
        .collect();
    Value::Object(values)
}

fn stop_json(stop: &StopReason) -> Value {
    match stop {
        StopReason::Stable => json!({"kind": "stable"}),
        StopReason::Budget { visits } => json!({"kind": "budget", "visits": visits}),
        StopReason::LawViolation { block, .. } => {
            json!({"kind": "law-violation", "block": block.index()})
        }
    }
}

/// The trace as JSON: the function, the events (`state` prints a state) and the result.
fn json_trace<S>(
    subject: &Subject,
    analysis: &str,
    events: &[(Vec<Reduced>, Event<S>)],
    solution: &Solution<S>,
    state: &dyn Fn(&S) -> Value,
    extra: Extra,
) -> String {
    let f = &subject.function;
    let blocks: Vec<Value> = subject
        .blocks
        .iter()
        .enumerate()
        .map(|(i, (label, lines))| {
            let successors: Vec<usize> = f
                .successors(BlockId::new(i))
                .iter()
                .map(|s| s.index())
                .collect();
            json!({"id": i, "label": label, "lines": lines, "successors": successors})
        })
        .collect();
    let back_edges: Vec<Value> = subject
        .back_edges()
        .iter()
        .map(|(from, to)| json!([from.index(), to.index()]))
        .collect();
    let block_of = |event: &Event<S>| match event {
        Event::Visit { block }
        | Event::Transfer { block, .. }
        | Event::Join { block, .. }
        | Event::Widen { block, .. }
        | Event::Narrow { block, .. } => block.index(),
    };
    // Reductions go before the event whose computation made them.
    let flat: Vec<Item<'_, S>> = events
        .iter()
        .flat_map(|(reduced, event)| {
            let block = block_of(event);
            reduced
                .iter()
                .map(move |r| Item::Reduce(r, block))
                .chain(std::iter::once(Item::Engine(event)))
        })
        .collect();
    let events: Vec<Value> = flat
        .iter()
        .enumerate()
        .map(|(step, item)| match item {
            Item::Reduce(r, block) => json!({
                "step": step, "kind": "reduce", "block": block, "rule": r.rule,
                "component": r.component, "before": r.before, "after": r.after,
            }),
            Item::Engine(event) => event_json(step, event, state),
        })
        .collect();
    let mut result = serde_json::Map::new();
    result.insert("stop".to_owned(), stop_json(&solution.stop));
    result.insert(
        "entry".to_owned(),
        solution.entry.iter().map(state).collect::<Vec<_>>().into(),
    );
    result.insert(
        "exit".to_owned(),
        solution.exit.iter().map(state).collect::<Vec<_>>().into(),
    );
    result.extend(extra.result);
    let mut trace = json!({
        "format": "absinthe-trace",
        "version": 1,
        "analysis": analysis,
        "function": f.name,
        "names": f.names,
        "blocks": blocks,
        "back_edges": back_edges,
        "events": events,
        "result": result,
    });
    if let Value::Object(fields) = &mut trace {
        fields.extend(extra.top);
    }
    let mut out = serde_json::to_string_pretty(&trace).unwrap_or_default();
    out.push('\n');
    out
}

/// An entry of the stream: a reduction (with the block of the event it precedes) or an engine
/// event.
enum Item<'e, S> {
    Reduce(&'e Reduced, usize),
    Engine(&'e Event<S>),
}

/// One engine event as JSON.
fn event_json<S>(step: usize, event: &Event<S>, state: &dyn Fn(&S) -> Value) -> Value {
    match event {
        Event::Visit { block } => {
            json!({"step": step, "kind": "visit", "block": block.index()})
        }
        Event::Transfer {
            block,
            before,
            after,
        } => json!({
            "step": step, "kind": "transfer", "block": block.index(),
            "before": state(before), "after": state(after),
        }),
        Event::Join {
            block,
            result,
            changed,
        } => json!({
            "step": step, "kind": "join", "block": block.index(),
            "result": state(result), "changed": changed,
        }),
        Event::Widen {
            block,
            before,
            after,
        } => json!({
            "step": step, "kind": "widen", "block": block.index(),
            "before": state(before), "after": state(after),
        }),
        Event::Narrow {
            block,
            before,
            after,
        } => json!({
            "step": step, "kind": "narrow", "block": block.index(),
            "before": state(before), "after": state(after),
        }),
    }
}

/// Text for an HTML-like graphviz label.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A state as one line: the names that are not `⊤`, or `unreachable`.
fn state_line<D: ValueDomain>(f: &Function, env: &Env<D>) -> String {
    if !env.is_reachable() {
        return "unreachable".to_owned();
    }
    let parts: Vec<String> = (0..f.names.len())
        .filter_map(|n| {
            let v = env.get(NameId::new(n));
            (!v.is_top()).then(|| format!("{} = {v}", f.names[n]))
        })
        .collect();
    if parts.is_empty() {
        "⊤".to_owned()
    } else {
        parts.join(", ")
    }
}

/// The final graph for graphviz; `lines` prints a state as the lines of its cell.
fn dot<S>(
    subject: &Subject,
    analysis: &str,
    solution: &Solution<S>,
    lines: &dyn Fn(&S) -> Vec<String>,
) -> String {
    let f = &subject.function;
    let back = subject.back_edges();
    let mut out = String::new();
    let _ = writeln!(out, "digraph \"{}\" {{", escape(&f.name));
    let _ = writeln!(
        out,
        "    graph [fontname=\"monospace\", label=\"{} ({})\"];",
        escape(&f.name),
        escape(analysis)
    );
    let _ = writeln!(out, "    node [shape=\"none\", fontname=\"monospace\"];");
    let _ = writeln!(out, "    edge [fontname=\"monospace\"];");
    for (i, (label, text)) in subject.blocks.iter().enumerate() {
        let mut rows = format!(
            "<tr><td bgcolor=\"lightgray\" align=\"center\"><b>{}</b></td></tr>",
            escape(label)
        );
        let state_rows = |rows: &mut String, point: &str, state: &S| {
            for line in lines(state) {
                let _ = write!(
                    rows,
                    "<tr><td align=\"left\" bgcolor=\"#e8f0ff\">{point}: {}</td></tr>",
                    escape(&line)
                );
            }
        };
        state_rows(&mut rows, "entry", &solution.entry[i]);
        for line in text {
            let _ = write!(rows, "<tr><td align=\"left\">{}</td></tr>", escape(line));
        }
        state_rows(&mut rows, "exit", &solution.exit[i]);
        let _ = writeln!(
            out,
            "    bb{i} [label=<<table border=\"0\" cellborder=\"1\" cellspacing=\"0\">{rows}</table>>];"
        );
    }
    for b in 0..f.block_count() {
        let from = BlockId::new(b);
        for &to in f.successors(from) {
            let style = if back.contains(&(from, to)) {
                " [style=\"dashed\", label=\"back\"]"
            } else {
                ""
            };
            let _ = writeln!(out, "    bb{} -> bb{}{style};", from.index(), to.index());
        }
    }
    out.push_str("}\n");
    out
}
