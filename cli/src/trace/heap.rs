//! `absinthe trace` of the heap analyses: analyses whose engine is `shape` or `escape`. Both run
//! on the worklist engine with states of their own (disjunctions of shape graphs or of heaps,
//! each with the values of the names), so their runs are traced as the value analyses' are,
//! their states shown as rows ([`StateRows`]):
//!
//! - shape: per graph, its nodes by allocation site (the alias forest of the site: which
//!   variables share an object, with its generation), the caller's objects (context nodes), the
//!   unknown object, the field edges, and the known values;
//! - escape: per heap, each abstract object with the names that may point to it, its fields'
//!   contents and where it has escaped so far, the effects on memory the function does not own,
//!   and the known values.
//!
//! The module is solved callees first as `analyze` solves it, and the traced function is run
//! again, traced, with the very callee summaries its solve was given. The facts of the whole
//! function go with the trace (escape: forwarded loads, stores, allocations, may-alias groups,
//! the summary; shape: the alias forest of each allocation site at every block entry and
//! return), and the viewer's verify checks every frame of concrete runs with
//! `absinthe_ir::escape_check` or `absinthe_ir::shape_check`.

use super::common::{Subject, TraceFormat};
use super::row_trace::RowTrace;
use super::rows::{Rows, StateRows};
use crate::analyses::{Analysis, ForDomain};
use absinthe::engine::Limits;
use absinthe::lattice::Lattice;
use absinthe::program::{BlockId, FieldId, FuncId, NameId, Program, Terminator};
use absinthe::spec;
use absinthe::value::{Env, ValueDomain};
use absinthe_heap::escape::{self, EscapeAnalysis, States};
use absinthe_heap::shape::render::Names;
use absinthe_heap::shape::{self, Kind, Label, ShapeAnalysis, ShapeStates, Strength};
use absinthe_interproc::callees_first;
use absinthe_ir::escape_text::{content_text, escape_text, facts_text, loc_text, slot_text};
use absinthe_ir::{Function, Module};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::collections::BTreeMap;

/// Traces the heap analysis `analysis` (engine `shape` or `escape`) on `subject`.
pub(super) fn trace<A: Analysis>(
    subject: &Subject,
    analysis: A,
    format: TraceFormat,
    limits: &Limits,
) -> String {
    let engine = match analysis.engine() {
        spec::Engine::Shape => Engine::Shape,
        spec::Engine::Escape => Engine::Escape {
            heaps: analysis.heaps(),
        },
        other @ (spec::Engine::Flow
        | spec::Engine::BehaviorGraph
        | spec::Engine::TypingEnv
        | spec::Engine::AliasHeap) => {
            unreachable!("the heap trace runs the engines `shape` and `escape`, not `{other}`")
        }
    };
    analysis.dispatch(HeapRun {
        subject,
        analysis: analysis.as_str(),
        engine,
        format,
        limits,
    })
}

#[derive(Clone, Copy)]
enum Engine {
    Shape,
    Escape { heaps: usize },
}

struct HeapRun<'a> {
    subject: &'a Subject,
    analysis: &'a str,
    engine: Engine,
    format: TraceFormat,
    limits: &'a Limits,
}

impl HeapRun<'_> {
    /// The index of the traced function in its module.
    fn chosen(&self) -> FuncId {
        let f = &self.subject.function;
        let index = self
            .subject
            .module
            .functions
            .iter()
            .position(|g| g.name == f.name)
            .unwrap_or(0);
        FuncId::new(index)
    }

    /// The row trace of the traced function.
    fn rows(&self) -> RowTrace<'_> {
        RowTrace {
            subject: self.subject,
            analysis: self.analysis,
            format: self.format,
            direction: spec::Direction::Forward,
        }
    }
}

impl ForDomain for HeapRun<'_> {
    type Output = String;

    fn run<D: ValueDomain>(self) -> String {
        match self.engine {
            Engine::Shape => self.shape::<D>(),
            Engine::Escape { heaps } => self.escape::<D>(heaps),
        }
    }
}

/// The known values of `values`: the names neither bottom nor top, `x = [0, 9], n = 3`.
fn known<D: ValueDomain>(function: &Function, values: &Env<D>) -> String {
    if !values.is_reachable() {
        return String::new();
    }
    let parts: Vec<String> = (0..function.names.len())
        .filter_map(|x| {
            let value = values.get(NameId::new(x));
            (!value.is_bottom() && !value.is_top())
                .then(|| format!("{} = {value}", function.names[x]))
        })
        .collect();
    parts.join(", ")
}

impl HeapRun<'_> {
    fn shape<D: ValueDomain>(&self) -> String {
        let module = &self.subject.module;
        let chosen = self.chosen();
        let limits = Limits {
            max_visits: self.limits.max_visits,
            ..ShapeAnalysis::<D>::limits()
        };
        let traced = RefCell::new(None);
        let solved = callees_first(module.functions.len(), &|f, callees| {
            let function = module.functions.get(f.index())?;
            let facts = shape::analyze::<D, _>(function, &callees);
            if f == chosen {
                let analysis = ShapeAnalysis::<D>::new(&callees);
                let view = ShapeView {
                    module,
                    function,
                    analysis: Some(&analysis),
                };
                *traced.borrow_mut() = Some(self.rows().record(&analysis, &view, &limits));
            }
            let summary = facts.summary.clone();
            Some((facts, summary))
        });
        let facts: Vec<shape::ShapeFacts<D>> = solved
            .into_iter()
            .zip(&module.functions)
            .map(|(facts, function)| {
                facts.unwrap_or_else(|| shape::analyze::<D, _>(function, &shape::NoCallees))
            })
            .collect();
        let Some(recorded) = traced.into_inner() else {
            return String::new();
        };
        let function = &self.subject.function;
        let view = ShapeView::<D> {
            module,
            function,
            analysis: None,
        };
        let forest = facts
            .get(chosen.index())
            .map(|facts| view.forest(facts))
            .unwrap_or_default();
        let verify = |runs: usize| {
            let check = RefCell::new(absinthe_ir::shape_check::ShapeCheck::default());
            heap_verify(module, chosen, runs, &|args, limits| {
                let mut check = check.borrow_mut();
                let before = (check.runs, check.violations.len());
                absinthe_ir::shape_check::check_run(
                    module, &facts, chosen, args, limits, &mut check,
                );
                let what = format!(
                    "{} points, {} objects and {} field edges",
                    check.points, check.objects, check.edges
                );
                (
                    check.runs - before.0,
                    check.violations[before.1..].to_vec(),
                    what,
                )
            })
        };
        self.rows()
            .output(recorded, &|s| view.rows(s), forest, &verify)
    }

    fn escape<D: ValueDomain>(&self, heaps: usize) -> String {
        let module = &self.subject.module;
        let chosen = self.chosen();
        let limits = Limits {
            max_visits: self.limits.max_visits,
            ..EscapeAnalysis::<D>::limits()
        };
        let traced = RefCell::new(None);
        let solved = callees_first(module.functions.len(), &|f, callees| {
            let function = module.functions.get(f.index())?;
            let facts = escape::analyze::<D, _>(function, &callees, heaps);
            if f == chosen {
                let analysis = EscapeAnalysis::<D>::new(&callees).with_heaps(heaps);
                let view = EscapeView {
                    module,
                    function,
                    analysis: Some(&analysis),
                };
                *traced.borrow_mut() = Some(self.rows().record(&analysis, &view, &limits));
            }
            let summary = facts.summary.clone();
            Some((facts, summary))
        });
        let facts: Vec<escape::FunctionFacts<D>> = solved
            .into_iter()
            .zip(&module.functions)
            .map(|(facts, function)| {
                facts
                    .unwrap_or_else(|| escape::analyze::<D, _>(function, &escape::NoCallees, heaps))
            })
            .collect();
        let Some(recorded) = traced.into_inner() else {
            return String::new();
        };
        let function = &self.subject.function;
        let view = EscapeView::<D> {
            module,
            function,
            analysis: None,
        };
        let lines: Vec<String> = facts
            .get(chosen.index())
            .map(|facts| facts_text(module, function, facts))
            .unwrap_or_default()
            .lines()
            .map(|l| l.trim().to_owned())
            .collect();
        let verify = |runs: usize| {
            let check = RefCell::new(absinthe_ir::escape_check::EscapeCheck::default());
            heap_verify(module, chosen, runs, &|args, limits| {
                let mut check = check.borrow_mut();
                let before = (check.runs, check.violations.len());
                absinthe_ir::escape_check::check_run(
                    module, &facts, chosen, args, limits, &mut check,
                );
                let what = format!(
                    "{} points and {} forwarded loads",
                    check.points, check.loads
                );
                (
                    check.runs - before.0,
                    check.violations[before.1..].to_vec(),
                    what,
                )
            })
        };
        self.rows().output(
            recorded,
            &|s| view.rows(s),
            vec![(format!("facts of {}", function.name), lines)],
            &verify,
        )
    }
}

/// What the heap checks found over the runs of the page's verify.
#[derive(Default)]
struct Checked {
    /// Runs checked (runs out of steps or depth are left out).
    runs: usize,
    violations: Vec<String>,
    /// What the runs checked, in words (`"12 points and 3 forwarded loads"`).
    what: String,
}

impl Checked {
    /// Adds what one run's check found; `what` counts everything checked so far.
    fn add(&mut self, check: (usize, Vec<String>, String)) {
        self.runs += check.0;
        self.violations.extend(check.1);
        self.what = check.2;
    }
}

/// One concrete run checked against a heap analysis's facts: the runs checked (0 when it ran
/// out of steps or depth), the violations in words, and what the runs checked so far, in words
/// (`"12 points and 3 forwarded loads"`).
type RunCheck<'a> =
    dyn Fn(&[i64], &absinthe_ir::interp::Limits) -> (usize, Vec<String>, String) + 'a;

/// The page's verify for a heap analysis: `runs` concrete runs of the traced function on random
/// arguments, every frame checked by `check`; the first violations in words (heap checks name
/// no rule and draw no path).
fn heap_verify(module: &Module, function: FuncId, runs: usize, check: &RunCheck<'_>) -> Value {
    if runs == 0 {
        return Value::Null;
    }
    let config = crate::verify::VerifyConfig::default();
    let limits = absinthe_ir::interp::Limits {
        max_steps: config.max_steps,
        ..absinthe_ir::interp::Limits::default()
    };
    let mut checked = Checked::default();
    let mut tried = 0;
    for (f, args) in crate::runs::arguments(module, runs, config.seed) {
        if f == function {
            tried += 1;
            checked.add(check(&args, &limits));
        }
    }
    let count = checked.violations.len();
    checked.violations.truncate(5);
    json!({
        "kind": "heap",
        "tried": tried,
        "runs": checked.runs,
        "checked": checked.what,
        "violations": checked.violations,
        "count": count,
    })
}

/// How a field label reads: `next`, or `[0]` for a position.
fn label_text(module: &Module, label: Label) -> String {
    match label {
        Label::Field(f) => module.field_name(f).to_owned(),
        Label::Pos(i) => format!("[{i}]"),
    }
}

/// The shape analysis's states as rows, and its statements one by one (with `analysis`).
struct ShapeView<'a, D> {
    module: &'a Module,
    function: &'a Function,
    analysis: Option<&'a ShapeAnalysis<'a, D>>,
}

impl<D: ValueDomain> ShapeView<'_, D> {
    fn with_names<R>(&self, render: impl FnOnce(&Names<'_>) -> R) -> R {
        let function = self.function;
        let module = self.module;
        let name = |n: NameId| {
            function
                .names
                .get(n.index())
                .cloned()
                .unwrap_or_else(|| format!("%{}", n.index()))
        };
        let field = |f: FieldId| module.field_name(f).to_owned();
        render(&Names {
            name: &name,
            field: &field,
        })
    }

    /// A graph's nodes grouped as rows: by allocation site (`at bb0:1`), the caller's objects
    /// (`context`) and the unknown object (`unknown`), each group's nodes in the graph's order.
    fn groups(graph: &shape::ShapeGraph, names: &Names<'_>) -> BTreeMap<String, Vec<String>> {
        let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for node in graph.nodes() {
            let group = match node.kind {
                Kind::Normal | Kind::Summary => {
                    let sites: Vec<String> = node
                        .sites
                        .iter()
                        .map(|s| format!("bb{}:{}", s.block.index(), s.index))
                        .collect();
                    format!("at {}", sites.join("+"))
                }
                Kind::Context(_) => "context".to_owned(),
                Kind::Unknown => "unknown".to_owned(),
            };
            groups.entry(group).or_default().push(names.node(node));
        }
        groups
    }

    /// The alias forest of each allocation site at every reachable block's entry and before
    /// every `ret`, one section per site: what `analyze --format dot` draws, as lines.
    fn forest(&self, facts: &shape::ShapeFacts<D>) -> Vec<(String, Vec<String>)> {
        let mut sections: BTreeMap<String, Vec<String>> = BTreeMap::new();
        self.with_names(|names| {
            for (b, block) in self.function.blocks().iter().enumerate() {
                let Some(states) = facts.before.get(b) else {
                    continue;
                };
                let mut points = vec![(0, format!("{} entry", block.label))];
                if matches!(block.term, Terminator::Return(_)) {
                    points.push((block.stmts.len(), format!("{} ret", block.label)));
                }
                for (index, at) in points {
                    let Some(state) = states.get(index) else {
                        continue;
                    };
                    for (k, graph) in state.graphs().enumerate() {
                        for (group, nodes) in Self::groups(graph, names) {
                            sections
                                .entry(format!("alias forest {group}"))
                                .or_default()
                                .push(format!("{at}, graph {}: {}", k + 1, nodes.join(", ")));
                        }
                    }
                }
            }
        });
        let mut out: Vec<(String, Vec<String>)> = sections.into_iter().collect();
        out.sort_by(|a, b| super::rows::natural(&a.0, &b.0));
        out
    }
}

impl<D: ValueDomain> StateRows<ShapeStates<D>> for ShapeView<'_, D> {
    fn rows(&self, state: &ShapeStates<D>) -> Option<Rows> {
        if state.is_bottom() {
            return None;
        }
        let mut rows = Vec::new();
        self.with_names(|names| {
            for (k, d) in state.disjuncts().iter().enumerate() {
                let prefix = format!("graph {}", k + 1);
                let graph = &d.graph;
                let groups = Self::groups(graph, names);
                if groups.is_empty() {
                    rows.push((format!("{prefix}: nodes"), "none".to_owned()));
                }
                for (group, nodes) in groups {
                    rows.push((format!("{prefix}: {group}"), nodes.join(", ")));
                }
                let text: Vec<String> = graph.nodes().iter().map(|n| names.node(n)).collect();
                let mut edges: Vec<String> = graph
                    .edges()
                    .map(|((s, l, t), strength)| {
                        let l = label_text(self.module, l);
                        let arrow = match strength {
                            Strength::Strong => format!("-{l}->"),
                            Strength::Weak => format!("~{l}~>"),
                        };
                        format!("{} {arrow} {}", text[s], text[t])
                    })
                    .collect();
                edges.extend(
                    graph
                        .written()
                        .map(|(n, l)| format!("!{}.{}", text[n], label_text(self.module, l))),
                );
                edges.extend(
                    graph
                        .pending()
                        .map(|(l, t)| format!("γ* ~{}~> {}", label_text(self.module, l), text[t])),
                );
                if !edges.is_empty() {
                    rows.push((format!("{prefix}: edges"), edges.join(", ")));
                }
                let values = known(self.function, &d.values);
                if !values.is_empty() {
                    rows.push((format!("{prefix}: values"), values));
                }
            }
        });
        Some(rows)
    }

    fn statements(
        &self,
        block: BlockId,
        entry: &ShapeStates<D>,
        after: &mut dyn FnMut(usize, &ShapeStates<D>),
    ) {
        let Some(analysis) = self.analysis else {
            return;
        };
        let mut state = entry.clone();
        for (index, stmt) in self.function.stmts(block).iter().enumerate() {
            state = analysis.statement(&state, block, index, stmt);
            after(index, &state);
        }
    }
}

/// The escape analysis's states as rows, and its statements one by one (with `analysis`).
struct EscapeView<'a, D> {
    module: &'a Module,
    function: &'a Function,
    analysis: Option<&'a EscapeAnalysis<'a, D>>,
}

impl<D: ValueDomain> StateRows<States<D>> for EscapeView<'_, D> {
    fn rows(&self, state: &States<D>) -> Option<Rows> {
        if state.is_bottom() {
            return None;
        }
        let f = self.function;
        let mut rows = Vec::new();
        for (k, d) in state.disjuncts().iter().enumerate() {
            let prefix = format!("heap {}", k + 1);
            let heap = &d.heap;
            // Each location with the names that may point to it, then its fields and escapes.
            let mut holders: BTreeMap<escape::Loc, Vec<&str>> = BTreeMap::new();
            for (name, locs) in &heap.points {
                for loc in locs {
                    holders
                        .entry(*loc)
                        .or_default()
                        .push(f.names.get(name.index()).map_or("?", String::as_str));
                }
            }
            for loc in heap.objects.keys() {
                holders.entry(*loc).or_default();
            }
            if holders.is_empty() {
                rows.push((format!("{prefix}: objects"), "none".to_owned()));
            }
            for (loc, names) in holders {
                let object = heap.objects.get(&loc);
                let said = object.is_some_and(|o| !o.fields.is_empty() || !o.escape.is_none());
                if loc == escape::Loc::Unknown && names.is_empty() && !said {
                    // Unknown objects nothing holds and nothing is known of: always there.
                    continue;
                }
                let mut parts = vec![if names.is_empty() {
                    "held by no name".to_owned()
                } else {
                    format!("held by {}", names.join(", "))
                }];
                if let Some(object) = object {
                    for (slot, content) in &object.fields {
                        parts.push(format!(
                            "{} = {}",
                            slot_text(self.module, slot),
                            content_text(f, content)
                        ));
                    }
                    if !object.escape.is_none() {
                        parts.push(escape_text(f, &object.escape));
                    }
                }
                rows.push((
                    format!("{prefix}: object {}", loc_text(f, &loc)),
                    parts.join("; "),
                ));
            }
            let effects = &heap.effects;
            let mut done = Vec::new();
            for (input, slots) in &effects.writes {
                let loc = loc_text(f, &escape::Loc::Param(*input));
                let slots: Vec<String> = slots.iter().map(|s| slot_text(self.module, s)).collect();
                done.push(format!("writes {loc}{}", slots.join(", ")));
            }
            if effects.writes_unknown {
                done.push("writes unknown memory".to_owned());
            }
            if effects.calls_unknown {
                done.push("calls unknown code".to_owned());
            }
            if !done.is_empty() {
                rows.push((format!("{prefix}: side effects"), done.join("; ")));
            }
            let values = known(f, &d.values);
            if !values.is_empty() {
                rows.push((format!("{prefix}: values"), values));
            }
        }
        Some(rows)
    }

    fn statements(
        &self,
        block: BlockId,
        entry: &States<D>,
        after: &mut dyn FnMut(usize, &States<D>),
    ) {
        let Some(analysis) = self.analysis else {
            return;
        };
        // As the engine's block transfer: every statement on every heap, made canonical at the
        // end only.
        let mut current = entry.disjuncts().to_vec();
        for (index, stmt) in self.function.stmts(block).iter().enumerate() {
            let place = escape::Place {
                block,
                index: index as u32,
            };
            for d in &mut current {
                escape::transfer::statement(analysis, place, stmt, d);
            }
            after(index, &States::of(current.clone(), analysis.heaps()));
        }
    }
}
