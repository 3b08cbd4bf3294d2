//! Traces of analyses whose state is not one value per name — the heap analyses' disjunctions
//! of shape graphs or heaps — shown as rows. A [`StateRows`] view says how a state reads as
//! `(label, value)` lines (and, if it can, how a block's statements change it one by one);
//! [`RowRecorder`] records the engine's run with that view for the viewer, in the encoding of
//! `record.rs` with the rows' labels in place of the names:
//!
//! - the keys are every label any state of the run had, sorted so that numbers inside labels
//!   compare as numbers (`graph 2` before `graph 10`);
//! - a diff is `[key, value, …]` where the value `-1` means the row is gone;
//! - a transfer is `[4, block, [[statement, diff], …], diff]`: each statement's diff against
//!   the state before it, then the exit's against the previous exit;
//! - joins, widenings and narrowings carry no incoming edges (`ins` is `[]`): the viewer's
//!   "why" trees follow names through statements, which rows do not have;
//! - reductions of a product made while a statement or an edge is replayed are events as for
//!   value analyses.
//!
//! Any analysis run by the worklist engine gets the viewer by implementing [`StateRows`] for its
//! state.

use absinthe::engine::{Analysis, Event, Tracer};
use absinthe::lattice::Lattice;
use absinthe::product::{Reduction, record_reductions, take_reductions};
use absinthe::program::{BlockId, Cfg};
use absinthe_ir::Function;
use serde_json::{Value, json};
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

use super::record::Interner;

/// A state as rows: `(label, printed value)`, in the order they read best.
pub(crate) type Rows = Vec<(String, String)>;

/// How the states of an analysis read as rows.
pub(crate) trait StateRows<S> {
    /// The rows of `state`; `None` when no run reaches it.
    fn rows(&self, state: &S) -> Option<Rows>;

    /// Runs the statements of `block` from `entry` as the engine's block transfer does, calling
    /// `after(index, state)` after each. The default says nothing: the viewer then shows a
    /// block's entry and exit only.
    fn statements(&self, block: BlockId, entry: &S, after: &mut dyn FnMut(usize, &S)) {
        let _ = (block, entry, after);
    }
}

/// `a` before `b` with runs of digits compared as numbers.
pub(crate) fn natural(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.chars().peekable(), b.chars().peekable());
    loop {
        match (x.peek().copied(), y.peek().copied()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let number = |it: &mut std::iter::Peekable<std::str::Chars<'_>>| {
                    let mut digits = String::new();
                    while let Some(c) = it.next_if(char::is_ascii_digit) {
                        digits.push(c);
                    }
                    let trimmed = digits.trim_start_matches('0').to_owned();
                    (trimmed.len(), trimmed)
                };
                let order = number(&mut x).cmp(&number(&mut y));
                if order != Ordering::Equal {
                    return order;
                }
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(&d);
                }
                x.next();
                y.next();
            }
        }
    }
}

/// A diff: `(key, value)` pairs, key `-1` for reachability (value 1 or 0), value `-1` for a
/// row that is gone.
type Diff = Vec<(i64, i64)>;

/// An event before the keys are sorted.
enum Ev {
    Visit(usize),
    /// A join (kind 1, `changed` given), widening (2) or narrowing (3).
    Entry {
        kind: u8,
        block: usize,
        changed: Option<bool>,
        diff: Diff,
    },
    Transfer {
        block: usize,
        steps: Vec<(usize, Diff)>,
        diff: Diff,
    },
    Reduce {
        block: usize,
        at: i64,
        texts: [u32; 4],
    },
}

/// What one point showed last: whether reachable, and its rows when it last was.
#[derive(Clone, Default)]
struct Shown {
    reachable: bool,
    rows: BTreeMap<u32, u32>,
}

/// Records a run of analysis `A` (states `S`, shown by a [`StateRows`] view) for the viewer.
pub(crate) struct RowRecorder<'a, S, A> {
    function: &'a Function,
    analysis: &'a A,
    view: &'a dyn StateRows<S>,
    /// The incoming edges of each block, `(source, successor index)`.
    in_edges: Vec<Vec<(BlockId, usize)>>,
    entry: Vec<Shown>,
    exit: Vec<Shown>,
    /// The exit states the engine last reported, for the edges' replays.
    exit_states: Vec<Option<S>>,
    /// Row labels, by key.
    keys: Vec<String>,
    key_index: HashMap<String, u32>,
    strings: Interner,
    events: Vec<Ev>,
}

/// What a [`RowRecorder`] recorded: the keys (sorted) and the events, encoded, and the
/// interned strings, to which more may be added.
pub(crate) struct Recorded {
    pub(crate) keys: Vec<String>,
    pub(crate) events: Vec<Value>,
    pub(crate) strings: Interner,
    /// Old key to new key.
    remap: Vec<i64>,
    key_index: HashMap<String, u32>,
}

impl Recorded {
    /// A state as the viewer stores it: `null` when unreachable, else `[key, value, …]` of its
    /// rows (a key no state of the run had is left out).
    pub(crate) fn state(&mut self, rows: Option<Rows>) -> Value {
        let Some(rows) = rows else {
            return Value::Null;
        };
        let mut out = Vec::new();
        for (label, value) in rows {
            if let Some(&k) = self.key_index.get(&label) {
                out.push(json!(self.remap[k as usize]));
                out.push(json!(self.strings.intern(&value)));
            }
        }
        Value::Array(out)
    }
}

impl<'a, S, A> RowRecorder<'a, S, A>
where
    S: Lattice,
    A: Analysis<Function, State = S>,
{
    pub(crate) fn new(function: &'a Function, analysis: &'a A, view: &'a dyn StateRows<S>) -> Self {
        let n = function.block_count();
        let mut in_edges = vec![Vec::new(); n];
        for b in 0..n {
            let from = BlockId::new(b);
            for (index, &to) in function.successors(from).iter().enumerate() {
                in_edges[to.index()].push((from, index));
            }
        }
        RowRecorder {
            function,
            analysis,
            view,
            in_edges,
            entry: vec![Shown::default(); n],
            exit: vec![Shown::default(); n],
            exit_states: vec![None; n],
            keys: Vec::new(),
            key_index: HashMap::new(),
            strings: Interner::default(),
            events: Vec::new(),
        }
    }

    fn key(&mut self, label: &str) -> u32 {
        if let Some(&k) = self.key_index.get(label) {
            return k;
        }
        let k = self.keys.len() as u32;
        self.keys.push(label.to_owned());
        self.key_index.insert(label.to_owned(), k);
        k
    }

    /// The diff from `old` to `rows`, updating `old`.
    fn diff(&mut self, old: &mut Shown, rows: Option<Rows>) -> Diff {
        let mut out = Vec::new();
        let Some(rows) = rows else {
            if old.reachable {
                out.push((-1, 0));
                old.reachable = false;
            }
            return out;
        };
        if !old.reachable {
            out.push((-1, 1));
            old.reachable = true;
        }
        let mut new = BTreeMap::new();
        for (label, value) in rows {
            let k = self.key(&label);
            let v = self.strings.intern(&value);
            new.insert(k, v);
        }
        for (&k, &v) in &new {
            if old.rows.get(&k) != Some(&v) {
                out.push((i64::from(k), i64::from(v)));
            }
        }
        for &k in old.rows.keys() {
            if !new.contains_key(&k) {
                out.push((i64::from(k), -1));
            }
        }
        old.rows = new;
        out
    }

    fn reductions(&mut self, block: BlockId, at: i64, reductions: Vec<Reduction>) {
        for r in reductions {
            let texts =
                [&r.rule, &r.component, &r.before, &r.after].map(|t| self.strings.intern(t));
            self.events.push(Ev::Reduce {
                block: block.index(),
                at,
                texts,
            });
        }
    }

    /// The reductions the edges into `block` make now, replayed from their sources' exits.
    fn visit(&mut self, block: BlockId) {
        self.events.push(Ev::Visit(block.index()));
        for (from, index) in self.in_edges[block.index()].clone() {
            let Some(source) = self.exit_states[from.index()].as_ref() else {
                continue;
            };
            if source.is_bottom() {
                continue;
            }
            record_reductions(true);
            let _ = self
                .analysis
                .transfer_edge(self.function, from, index, source);
            let made = take_reductions();
            record_reductions(false);
            self.reductions(block, -1 - from.index() as i64, made);
        }
    }

    fn entry_change(&mut self, kind: u8, block: BlockId, changed: Option<bool>, state: &S) {
        let rows = self.view.rows(state);
        let mut shown = std::mem::take(&mut self.entry[block.index()]);
        let diff = self.diff(&mut shown, rows);
        self.entry[block.index()] = shown;
        self.events.push(Ev::Entry {
            kind,
            block: block.index(),
            changed,
            diff,
        });
    }

    /// The transfer of `block`, its statements replayed one by one (with their reductions).
    fn transfer(&mut self, block: BlockId, before: &S, after: &S) {
        let view = self.view;
        let mut shown = Shown::default();
        let first = view.rows(before);
        let _ = self.diff(&mut shown, first);
        let mut steps = Vec::new();
        let mut made = Vec::new();
        record_reductions(true);
        view.statements(block, before, &mut |index, state| {
            made.push((index, take_reductions()));
            steps.push((index, self.diff(&mut shown, view.rows(state))));
        });
        record_reductions(false);
        let _ = take_reductions();
        for (index, reductions) in made {
            self.reductions(block, index as i64, reductions);
        }
        let mut old = std::mem::take(&mut self.exit[block.index()]);
        let diff = self.diff(&mut old, view.rows(after));
        self.exit[block.index()] = old;
        self.exit_states[block.index()] = Some(after.clone());
        self.events.push(Ev::Transfer {
            block: block.index(),
            steps,
            diff,
        });
    }

    /// The events with the keys sorted, and what is needed to encode more states.
    pub(crate) fn finish(self) -> Recorded {
        let mut order: Vec<u32> = (0..self.keys.len() as u32).collect();
        order.sort_by(|&a, &b| natural(&self.keys[a as usize], &self.keys[b as usize]));
        let mut remap = vec![0i64; self.keys.len()];
        for (new, &old) in order.iter().enumerate() {
            remap[old as usize] = new as i64;
        }
        let encode = |diff: &Diff| -> Value {
            let mut out = Vec::with_capacity(2 * diff.len());
            for &(k, v) in diff {
                out.push(json!(if k < 0 { k } else { remap[k as usize] }));
                out.push(json!(v));
            }
            Value::Array(out)
        };
        let events = self
            .events
            .iter()
            .map(|ev| match ev {
                Ev::Visit(b) => json!([0, b]),
                Ev::Entry {
                    kind,
                    block,
                    changed,
                    diff,
                } => match changed {
                    Some(changed) => json!([1, block, u8::from(*changed), encode(diff), []]),
                    None => json!([kind, block, encode(diff), []]),
                },
                Ev::Transfer { block, steps, diff } => {
                    let steps: Vec<Value> = steps
                        .iter()
                        .map(|(index, diff)| json!([index, encode(diff)]))
                        .collect();
                    json!([4, block, steps, encode(diff)])
                }
                Ev::Reduce { block, at, texts } => {
                    json!([5, block, at, texts[0], texts[1], texts[2], texts[3]])
                }
            })
            .collect();
        let keys = order
            .iter()
            .map(|&k| self.keys[k as usize].clone())
            .collect();
        Recorded {
            keys,
            events,
            strings: self.strings,
            remap,
            key_index: self.key_index,
        }
    }
}

impl<S, A> Tracer<S> for RowRecorder<'_, S, A>
where
    S: Lattice,
    A: Analysis<Function, State = S>,
{
    fn enabled(&self) -> bool {
        true
    }

    fn event(&mut self, event: Event<S>) {
        match event {
            Event::Visit { block } => self.visit(block),
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

#[cfg(test)]
mod tests {
    use super::natural;
    use std::cmp::Ordering;

    #[test]
    fn numbers_inside_labels_compare_as_numbers() {
        assert_eq!(
            natural("graph 2: at bb3:0", "graph 10: at bb1:0"),
            Ordering::Less
        );
        assert_eq!(
            natural("graph 1: at bb10:0", "graph 1: at bb9:0"),
            Ordering::Greater
        );
        assert_eq!(natural("graph 1: at", "graph 1: edges"), Ordering::Less);
        assert_eq!(natural("a07", "a7"), Ordering::Equal);
        assert_eq!(natural("a", "a1"), Ordering::Less);
    }
}
