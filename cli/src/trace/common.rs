//! What the trace formats share: the traced function ([`Subject`]), the settings of a value
//! trace ([`Run`]), the recorder of engine events with the reductions behind them, and the
//! JSON event stream and graphviz writers (the value and heap traces both use them).

use absinthe::cfg::Dominators;
use absinthe::engine::{Event, Limits, Solution, StopReason, Tracer};
use absinthe::product::{Reduction as Reduced, take_reductions};
use absinthe::program::{BlockId, Cfg, NameId};
use absinthe::value::{Env, ValueDomain};
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
pub(super) struct Subject {
    pub(super) module: Module,
    pub(super) function: Function,
    /// Per block: its label and the printed lines of its φs, statements and terminator.
    pub(super) blocks: Vec<(String, Vec<String>)>,
}

impl Subject {
    pub(super) fn new(module: &Module, function: &Function) -> Subject {
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
    pub(super) fn back_edges(&self) -> Vec<(BlockId, BlockId)> {
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

pub(super) struct Run<'a> {
    pub(super) subject: &'a Subject,
    pub(super) analysis: &'a str,
    pub(super) conditional: bool,
    pub(super) thresholds: &'static [i64],
    pub(super) format: TraceFormat,
    pub(super) limits: &'a Limits,
}

/// What a trace adds to the documented fields: top-level fields, and fields of `result`.
#[derive(Default)]
pub(super) struct Extra {
    pub(super) top: serde_json::Map<String, Value>,
    pub(super) result: serde_json::Map<String, Value>,
}

/// The engine's events, each with the reductions of a product that changed a component while
/// the engine computed it.
pub(super) struct WithReductions<S> {
    pub(super) events: Vec<(Vec<Reduced>, Event<S>)>,
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
pub(super) fn state_json<D: ValueDomain>(f: &Function, env: &Env<D>) -> Value {
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

pub(super) fn stop_json(stop: &StopReason) -> Value {
    match stop {
        StopReason::Stable => json!({"kind": "stable"}),
        StopReason::Budget { visits } => json!({"kind": "budget", "visits": visits}),
        StopReason::LawViolation { block, .. } => {
            json!({"kind": "law-violation", "block": block.index()})
        }
    }
}

/// The trace as JSON: the function, the events (`state` prints a state) and the result. With
/// `relation` (an analysis with a relational component), every event and the result also
/// give, under `relation`, the constraints of each state they give (`relation` prints them).
pub(super) fn json_trace<S>(
    subject: &Subject,
    analysis: &str,
    events: &[(Vec<Reduced>, Event<S>)],
    solution: &Solution<S>,
    state: &dyn Fn(&S) -> Value,
    relation: Option<&dyn Fn(&S) -> Value>,
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
            Item::Engine(event) => {
                let mut json = event_json(step, event, state);
                if let Some(relation) = relation {
                    json["relation"] = event_relation(event, relation);
                }
                json
            }
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
    if let Some(relation) = relation {
        let states = |states: &[S]| states.iter().map(relation).collect::<Vec<_>>();
        result.insert(
            "relation".to_owned(),
            json!({"entry": states(&solution.entry), "exit": states(&solution.exit)}),
        );
    }
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
pub(super) enum Item<'e, S> {
    Reduce(&'e Reduced, usize),
    Engine(&'e Event<S>),
}

/// The relations of an event's states, under the names of the fields that give the states
/// (`{"before": …, "after": …}`, `{"result": …}`; `{}` for a visit).
fn event_relation<S>(event: &Event<S>, relation: &dyn Fn(&S) -> Value) -> Value {
    match event {
        Event::Visit { .. } => json!({}),
        Event::Join { result, .. } => json!({"result": relation(result)}),
        Event::Transfer { before, after, .. }
        | Event::Widen { before, after, .. }
        | Event::Narrow { before, after, .. } => {
            json!({"before": relation(before), "after": relation(after)})
        }
    }
}

/// One engine event as JSON.
pub(super) fn event_json<S>(step: usize, event: &Event<S>, state: &dyn Fn(&S) -> Value) -> Value {
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
pub(super) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A state as one line: the names that are not `⊤`, or `unreachable`.
pub(super) fn state_line<D: ValueDomain>(f: &Function, env: &Env<D>) -> String {
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
pub(super) fn dot<S>(
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
