//! The viewer's recording of a run. The JSON trace gives whole states at every event; the viewer
//! gets changes instead, so that a million events stay small, and gets what the engine's events
//! do not say, which "why is this value what it is" needs:
//!
//! - at each visit, what each incoming edge contributes (its source, and the names the edge
//!   itself changes: φs and branch refinements), with the reductions the edge transfer made;
//! - at each transfer, the value each statement gave its destination, with the reductions made
//!   while computing it.
//!
//! Both are recomputed beside the engine from the states it reports, with the same transfer
//! functions, so they are exactly what the engine computed.
//!
//! Events are arrays, the first element their kind:
//!
//! | kind | array |
//! |---|---|
//! | visit | `[0, block]` |
//! | join | `[1, block, changed, diff, ins]` |
//! | widen | `[2, block, diff, ins]` |
//! | narrow | `[3, block, diff, ins]` |
//! | transfer | `[4, block, [[statement, value], …], diff]` |
//! | reduce | `[5, block, at, rule, component, before, after]` |
//!
//! A `diff` is `[name, value, name, value, …]` against the block's previous entry (join, widen,
//! narrow) or exit (transfer) state, where the name `-1` is reachability (value 1 reachable, 0
//! not) and every other value indexes the interned strings. `ins` lists the incoming edges at
//! the last visit: `[source, successor index, diff against the source's exit]`, source `-1`
//! for the function's entry. A reduction's `at` is the statement index for a transfer, or
//! `-1 - source` for an edge.

use absinthe::engine::{Analysis, Event, Tracer};
use absinthe::product::{Reduction, record_reductions, take_reductions};
use absinthe::program::{BlockId, Cfg, NameId, Program, Stmt};
use absinthe::value::{Env, NonRelational, ValueDomain};
use absinthe_ir::Function;
use serde_json::{Value, json};
use std::collections::HashMap;

/// Strings stored once and referred to by index.
#[derive(Default)]
pub(super) struct Interner {
    strings: Vec<String>,
    index: HashMap<String, u32>,
}

impl Interner {
    /// The index of `text`, storing it the first time.
    pub(super) fn intern(&mut self, text: &str) -> u32 {
        if let Some(&i) = self.index.get(text) {
            return i;
        }
        let i = self.strings.len() as u32;
        self.strings.push(text.to_owned());
        self.index.insert(text.to_owned(), i);
        i
    }

    /// The strings, in index order.
    pub(super) fn into_strings(self) -> Vec<String> {
        self.strings
    }
}

/// `f`'s result, with the reductions it made.
fn reducing<T>(f: impl FnOnce() -> T) -> (T, Vec<Reduction>) {
    record_reductions(true);
    let out = f();
    let reductions = take_reductions();
    record_reductions(false);
    (out, reductions)
}

/// Records a run of `NonRelational<D>` on one function for the viewer.
pub(super) struct Recorder<'a, D: ValueDomain> {
    function: &'a Function,
    domain: &'a NonRelational<D>,
    /// The incoming edges of each block, `(source, successor index)`, in the engine's order.
    in_edges: Vec<Vec<(BlockId, usize)>>,
    /// The function's entry state.
    boundary: Env<D>,
    /// Each block's incoming and outgoing states as the engine last reported them.
    entry: Vec<Env<D>>,
    exit: Vec<Env<D>>,
    /// The incoming edges computed at the last visit, for the join, widening or narrowing that
    /// follows it.
    pending_ins: Option<(BlockId, Value)>,
    /// Interned values and rule texts.
    pub(super) strings: Interner,
    /// The events, encoded.
    pub(super) events: Vec<Value>,
}

impl<'a, D: ValueDomain> Recorder<'a, D> {
    pub(super) fn new(function: &'a Function, domain: &'a NonRelational<D>) -> Self {
        let n = function.block_count();
        let mut in_edges = vec![Vec::new(); n];
        for b in 0..n {
            let from = BlockId::new(b);
            for (index, &to) in function.successors(from).iter().enumerate() {
                in_edges[to.index()].push((from, index));
            }
        }
        Recorder {
            function,
            domain,
            in_edges,
            boundary: domain.boundary_state(function),
            entry: vec![Env::Unreachable; n],
            exit: vec![Env::Unreachable; n],
            pending_ins: None,
            strings: Interner::default(),
            events: Vec::new(),
        }
    }

    /// `[name, value, …]` for the names whose value differs between `old` and `new`.
    fn diff(&mut self, old: &Env<D>, new: &Env<D>) -> Value {
        let mut out = Vec::new();
        if old.is_reachable() != new.is_reachable() {
            out.push(json!(-1));
            out.push(json!(u8::from(new.is_reachable())));
        }
        if new.is_reachable() {
            for n in 0..self.function.names.len() {
                let (a, b) = (old.get(NameId::new(n)), new.get(NameId::new(n)));
                // A state that becomes reachable is given whole: the viewer forgets nothing.
                if a != b || !old.is_reachable() {
                    out.push(json!(n));
                    out.push(json!(self.strings.intern(&b.to_string())));
                }
            }
        }
        Value::Array(out)
    }

    fn reduce_event(&mut self, block: BlockId, at: i64, r: &Reduction) -> Value {
        let rule = self.strings.intern(&r.rule);
        let component = self.strings.intern(&r.component);
        let before = self.strings.intern(&r.before);
        let after = self.strings.intern(&r.after);
        json!([5, block.index(), at, rule, component, before, after])
    }

    /// What flows into `block` along each edge now, as the engine's `flow_into` computes it,
    /// with the edges' reductions as events.
    fn visit(&mut self, block: BlockId) {
        let mut ins = Vec::new();
        if block == self.function.entry() {
            let empty = Env::reachable(self.function.names.len());
            let boundary = self.boundary.clone();
            ins.push(json!([-1, 0, self.diff(&empty, &boundary)]));
        }
        let edges = self.in_edges[block.index()].clone();
        for (from, index) in edges {
            let source = self.exit[from.index()].clone();
            if !source.is_reachable() {
                continue;
            }
            let (along, reductions) = reducing(|| {
                self.domain
                    .transfer_edge(self.function, from, index, &source)
            });
            for r in reductions {
                let event = self.reduce_event(block, -1 - from.index() as i64, &r);
                self.events.push(event);
            }
            ins.push(json!([from.index(), index, self.diff(&source, &along)]));
        }
        self.pending_ins = Some((block, Value::Array(ins)));
    }

    /// The incoming edges recorded at the visit of `block`, if it was the last visit.
    fn ins_of(&mut self, block: BlockId) -> Value {
        match self.pending_ins.take() {
            Some((b, ins)) if b == block => ins,
            _ => json!([]),
        }
    }

    /// Replays the transfer of `block` statement by statement: each destination's value, with
    /// the reductions of its computation as events.
    fn transfer(&mut self, block: BlockId, before: &Env<D>, after: &Env<D>) {
        let mut env = before.clone();
        let mut computed = Vec::new();
        for (s, stmt) in self.function.stmts(block).iter().enumerate() {
            let ((), reductions) = reducing(|| self.domain.transfer_stmt(stmt, &mut env));
            for r in reductions {
                let event = self.reduce_event(block, s as i64, &r);
                self.events.push(event);
            }
            if let (Stmt::Assign { dest, .. }, true) = (stmt, env.is_reachable()) {
                let value = self.strings.intern(&env.get(*dest).to_string());
                computed.push(json!([s, value]));
            }
        }
        let old = std::mem::replace(&mut self.exit[block.index()], after.clone());
        let diff = self.diff(&old, after);
        self.events.push(json!([4, block.index(), computed, diff]));
    }

    /// Records a new incoming state of `block`: a join (`Some(changed)`), else a widening or
    /// narrowing (`kind` 2 or 3).
    fn entry_change(&mut self, kind: u8, block: BlockId, changed: Option<bool>, state: &Env<D>) {
        let old = std::mem::replace(&mut self.entry[block.index()], state.clone());
        let diff = self.diff(&old, state);
        let ins = self.ins_of(block);
        self.events.push(match changed {
            Some(changed) => json!([1, block.index(), u8::from(changed), diff, ins]),
            None => json!([kind, block.index(), diff, ins]),
        });
    }
}

impl<D: ValueDomain> Tracer<Env<D>> for Recorder<'_, D> {
    fn enabled(&self) -> bool {
        true
    }

    fn event(&mut self, event: Event<Env<D>>) {
        match event {
            Event::Visit { block } => {
                self.events.push(json!([0, block.index()]));
                self.visit(block);
            }
            Event::Join {
                block,
                result,
                changed,
            } => self.entry_change(1, block, Some(changed), &result),
            Event::Widen { block, after, .. } => self.entry_change(2, block, None, &after),
            Event::Narrow { block, after, .. } => self.entry_change(3, block, None, &after),
            Event::Transfer {
                block,
                before,
                after,
            } => self.transfer(block, &before, &after),
        }
    }
}
