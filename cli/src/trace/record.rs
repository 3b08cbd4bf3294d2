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
//!
//! An analysis with a relation ([`Valued::relation`]) adds to that: the name `-2` of a diff is
//! the relation, its value an index into the page's `relations` (each a list of interned
//! constraints); a transfer's `[statement, value]` is `[statement, value, relation, why]` and
//! an incoming edge `[source, successor index, diff, why]`, where `why` explains the
//! constraints the step made new (`relation.rs`).

use absinthe::engine::{Analysis, Event, Tracer};
use absinthe::lattice::Lattice;
use absinthe::product::{Reduction, record_reductions, take_reductions};
use absinthe::program::{BlockId, Cfg, NameId, Program, Stmt};
use absinthe::relational::Constraint;
use absinthe::value::{Env, NonRelational, ValueDomain};
use absinthe_ir::Function;
use serde_json::{Value, json};
use std::collections::HashMap;

/// An analysis whose states give each name a value of `D` (and maybe a relation between the
/// names): what the viewer's recorder needs of it.
pub(super) trait Valued<D: ValueDomain>: Analysis<Function> {
    /// The names' values of `state`.
    fn env(state: &Self::State) -> &Env<D>;

    /// Applies one statement to `state`, as the block transfer does.
    fn step(&self, stmt: &Stmt, state: &mut Self::State);

    /// The relation's constraints in `state`, over the function's names; `None` for an
    /// analysis that keeps no relation.
    fn relation(state: &Self::State) -> Option<Vec<Constraint>>;

    /// Why the constraints a step made new hold after it, as JSON (`relation.rs`), the step
    /// being the statement `stmt` or an edge assigning `assigned` (forgotten first);
    /// `Value::Null` for an analysis that keeps no relation.
    fn why(
        &self,
        function: &Function,
        step: (Option<&Stmt>, &[NameId]),
        before: &Self::State,
        after: &Self::State,
        strings: &mut Interner,
    ) -> Value;
}

impl<D: ValueDomain> Valued<D> for NonRelational<D> {
    fn env(state: &Env<D>) -> &Env<D> {
        state
    }

    fn step(&self, stmt: &Stmt, state: &mut Env<D>) {
        self.transfer_stmt(stmt, state);
    }

    fn relation(_: &Env<D>) -> Option<Vec<Constraint>> {
        None
    }

    fn why(
        &self,
        _: &Function,
        _: (Option<&Stmt>, &[NameId]),
        _: &Env<D>,
        _: &Env<D>,
        _: &mut Interner,
    ) -> Value {
        Value::Null
    }
}

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

/// Values stored once and referred to by index.
pub(super) struct Interned<T> {
    values: Vec<T>,
    index: HashMap<T, u32>,
}

impl<T> Default for Interned<T> {
    fn default() -> Self {
        Interned {
            values: Vec::new(),
            index: HashMap::new(),
        }
    }
}

impl<T: Clone + Eq + std::hash::Hash> Interned<T> {
    /// The index of `value`, storing it the first time.
    pub(super) fn intern(&mut self, value: T) -> u32 {
        if let Some(&i) = self.index.get(&value) {
            return i;
        }
        let i = self.values.len() as u32;
        self.values.push(value.clone());
        self.index.insert(value, i);
        i
    }

    /// The values, in index order.
    pub(super) fn into_values(self) -> Vec<T> {
        self.values
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

/// Records a run of a [`Valued`] analysis `A` on one function for the viewer.
pub(super) struct Recorder<'a, D: ValueDomain, A: Valued<D>> {
    function: &'a Function,
    domain: &'a A,
    /// The incoming edges of each block, `(source, successor index)`, in the engine's order.
    in_edges: Vec<Vec<(BlockId, usize)>>,
    /// The function's entry state.
    boundary: A::State,
    /// Each block's incoming and outgoing states as the engine last reported them.
    entry: Vec<A::State>,
    exit: Vec<A::State>,
    /// The incoming edges computed at the last visit, for the join, widening or narrowing that
    /// follows it.
    pending_ins: Option<(BlockId, Value)>,
    /// Interned values and rule texts.
    pub(super) strings: Interner,
    /// The events, encoded.
    pub(super) events: Vec<Value>,
    /// The relations shown, each a list of interned constraints, by index.
    pub(super) relations: Interned<Vec<u32>>,
    values: std::marker::PhantomData<fn() -> D>,
}

impl<'a, D: ValueDomain, A: Valued<D>> Recorder<'a, D, A> {
    pub(super) fn new(function: &'a Function, domain: &'a A) -> Self {
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
            entry: vec![A::State::bottom(); n],
            exit: vec![A::State::bottom(); n],
            pending_ins: None,
            strings: Interner::default(),
            events: Vec::new(),
            relations: Interned::default(),
            values: std::marker::PhantomData,
        }
    }

    /// The index of the relation of `state` among the relations shown; `None` without one.
    pub(super) fn relation_index(&mut self, state: &A::State) -> Option<u32> {
        let constraints = A::relation(state)?;
        let names = &self.function.names;
        let name = |x: usize| {
            names.get(x).cloned().unwrap_or_else(|| {
                unreachable!("name {x} is one of the function's {} names", names.len())
            })
        };
        let list: Vec<u32> = constraints
            .iter()
            .map(|c| self.strings.intern(&c.text(&name)))
            .collect();
        Some(self.relations.intern(list))
    }

    /// `[name, value, …]` for the names whose value differs between `old` and `new`, then
    /// (name `-2`) the relation when it differs.
    fn diff(&mut self, old: &A::State, new: &A::State) -> Value {
        let mut out = self.env_diff(A::env(old), A::env(new));
        if A::env(new).is_reachable()
            && let Some(relation) = self.relation_index(new)
            && (!A::env(old).is_reachable() || self.relation_index(old) != Some(relation))
        {
            out.push(json!(-2));
            out.push(json!(relation));
        }
        Value::Array(out)
    }

    /// The names' part of [`Recorder::diff`].
    fn env_diff(&mut self, old: &Env<D>, new: &Env<D>) -> Vec<Value> {
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
        out
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
            let boundary = self.boundary.clone();
            let mut diff = self.env_diff(
                &Env::reachable(self.function.names.len()),
                A::env(&boundary),
            );
            if let Some(relation) = self.relation_index(&boundary) {
                diff.extend([json!(-2), json!(relation)]);
            }
            ins.push(json!([-1, 0, diff]));
        }
        let edges = self.in_edges[block.index()].clone();
        for (from, index) in edges {
            let source = self.exit[from.index()].clone();
            if source.is_bottom() {
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
            let diff = self.diff(&source, &along);
            // The φs of the edge assign their destinations.
            let assigned: Vec<NameId> = self
                .function
                .phis(block)
                .iter()
                .filter(|phi| phi.incoming.iter().any(|(pred, _)| *pred == from))
                .map(|phi| phi.dest)
                .collect();
            let why = self.domain.why(
                self.function,
                (None, &assigned),
                &source,
                &along,
                &mut self.strings,
            );
            ins.push(match why {
                Value::Null => json!([from.index(), index, diff]),
                why => json!([from.index(), index, diff, why]),
            });
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
    fn transfer(&mut self, block: BlockId, before: &A::State, after: &A::State) {
        let mut state = before.clone();
        let mut computed = Vec::new();
        for (s, stmt) in self.function.stmts(block).iter().enumerate() {
            let earlier = state.clone();
            let ((), reductions) = reducing(|| self.domain.step(stmt, &mut state));
            for r in reductions {
                let event = self.reduce_event(block, s as i64, &r);
                self.events.push(event);
            }
            let Stmt::Assign { dest, .. } = stmt else {
                continue;
            };
            if !A::env(&state).is_reachable() {
                continue;
            }
            let value = self.strings.intern(&A::env(&state).get(*dest).to_string());
            match self.relation_index(&state) {
                Some(relation) => {
                    let why = self.domain.why(
                        self.function,
                        (Some(stmt), &[*dest]),
                        &earlier,
                        &state,
                        &mut self.strings,
                    );
                    computed.push(json!([s, value, relation, why]));
                }
                None => computed.push(json!([s, value])),
            }
        }
        let old = std::mem::replace(&mut self.exit[block.index()], after.clone());
        let diff = self.diff(&old, after);
        self.events.push(json!([4, block.index(), computed, diff]));
    }

    /// Records a new incoming state of `block`: a join (`Some(changed)`), else a widening or
    /// narrowing (`kind` 2 or 3).
    fn entry_change(&mut self, kind: u8, block: BlockId, changed: Option<bool>, state: &A::State) {
        let old = std::mem::replace(&mut self.entry[block.index()], state.clone());
        let diff = self.diff(&old, state);
        let ins = self.ins_of(block);
        self.events.push(match changed {
            Some(changed) => json!([1, block.index(), u8::from(changed), diff, ins]),
            None => json!([kind, block.index(), diff, ins]),
        });
    }
}

impl<D: ValueDomain, A: Valued<D>> Tracer<A::State> for Recorder<'_, D, A> {
    fn enabled(&self) -> bool {
        true
    }

    fn event(&mut self, event: Event<A::State>) {
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
