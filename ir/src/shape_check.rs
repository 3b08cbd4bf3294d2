//! Checking the shape analysis against runs, in every frame: the checker replays each frame's
//! allocations and stores on a shadow heap and asks whether one disjunct of the state at the
//! frame's point describes its names and the objects they reach (who holds what, which node
//! each object may be, and every field edge among them) with its graph, and the integers the
//! names hold with its values.

use std::collections::{BTreeMap, BTreeSet};

use crate::Module;
use crate::interp::{self, Limits, NoObserver, ObjectKind, Outcome, Value};
use absinthe::lattice::Generation;
use absinthe::program::{BlockId, FieldId, FuncId, NameId, Operand, Rhs, Stmt};
use absinthe::value::{Env, ValueDomain};
use absinthe_heap::Site;
use absinthe_heap::shape::{Kind, Label, Path, ShapeDisjunct, ShapeFacts, ShapeGraph};

/// What checking found.
#[derive(Clone, Debug, Default)]
pub struct ShapeCheck {
    /// Runs made (runs that ran out of steps or depth are left out).
    pub runs: usize,
    /// Points of all frames compared with the graphs there.
    pub points: usize,
    /// Objects reachable from names at those points, counted over all points.
    pub objects: usize,
    /// Field edges between reachable objects, counted over all points.
    pub edges: usize,
    /// Integers held by names at those points, each checked against the name's value in the
    /// disjunct whose graph describes the frame.
    pub ints: usize,
    /// Disjuncts (graph with values) compared with frames, counted over all points.
    pub disjuncts: usize,
    /// Disagreements, described.
    pub violations: Vec<String>,
}

/// Where an object comes from, seen from one frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// Allocated by the frame at this site.
    Own(Site),
    /// Made by a callee during the frame's call at this site.
    Call(Site),
    /// Older than the frame: the caller's.
    Caller,
}

/// The inputs' values (parameters, then captures) and every object's fields, as a frame
/// was entered.
type Entry = (Vec<Option<Value>>, BTreeMap<u32, Vec<Option<Value>>>);

struct Frame {
    func: FuncId,
    instance: u64,
    /// The point last seen and the names then.
    last: Option<(BlockId, usize, Vec<Option<Value>>)>,
    /// The frame's calls: the first callee instance of each, with the call's site.
    calls: Vec<(u64, Site)>,
    /// The inputs' values (parameters, then captures) and the objects' fields on entry.
    entry: Option<Entry>,
}

/// The run's objects as the checker replays them.
#[derive(Default)]
struct Shadow {
    fields: BTreeMap<u32, Vec<Option<Value>>>,
    birth: BTreeMap<u32, (u64, Site)>,
}

/// Runs `entry` on `args` and checks `facts` (one per function) in every frame.
pub fn check_run<D: ValueDomain>(
    module: &Module,
    facts: &[ShapeFacts<D>],
    entry: FuncId,
    args: &[i64],
    limits: &Limits,
    check: &mut ShapeCheck,
) {
    let first = interp::run(module, entry, args, limits, &mut NoObserver);
    if matches!(first.outcome, Outcome::OutOfSteps | Outcome::TooDeep) {
        return;
    }
    let kinds = first.kinds;
    let mut frames: Vec<Frame> = Vec::new();
    let mut next_instance = 0u64;
    let mut shadow = Shadow::default();
    let mut found = ShapeCheck::default();
    let mut observe = |depth: usize,
                       func: FuncId,
                       block: BlockId,
                       index: usize,
                       env: &[Option<Value>]| {
        frames.truncate(depth);
        let same = frames.len() == depth && frames.last().is_some_and(|f| f.func == func);
        if !same {
            frames.truncate(depth.saturating_sub(1));
            next_instance += 1;
            if let Some(caller) = frames.last_mut() {
                if let Some((b, i, _)) = &caller.last {
                    let site = Site {
                        block: *b,
                        index: *i as u32,
                    };
                    caller.calls.push((next_instance, site));
                }
            }
            frames.push(Frame {
                func,
                instance: next_instance,
                last: None,
                calls: Vec::new(),
                entry: None,
            });
        }
        let Some(frame) = frames.last_mut() else {
            return;
        };
        let Some(function) = module.function(func) else {
            return;
        };
        if let Some((b, i, before)) = frame.last.take() {
            if let Some(stmt) = function.block(b).and_then(|blk| blk.stmts.get(i)) {
                replay(
                    stmt,
                    b,
                    i,
                    before.as_slice(),
                    env,
                    frame.instance,
                    &mut shadow,
                );
            }
        }
        if frame.entry.is_none() {
            let inputs = function
                .params
                .iter()
                .chain(&function.captures)
                .map(|x| env.get(x.index()).copied().flatten())
                .collect();
            frame.entry = Some((inputs, shadow.fields.clone()));
        }
        frame.last = Some((block, index, env.to_vec()));
        found.points += 1;
        let Some(state) = facts
            .get(func.index())
            .and_then(|f| f.before.get(block.index()))
            .and_then(|s| s.get(index))
        else {
            found.violations.push(format!(
                "`{}` at bb{}:{index}: reached, but the analysis has no state",
                function.name,
                block.index()
            ));
            return;
        };
        let view = View::new(env, frame, &shadow, &kinds);
        found.objects += view.reachable.len();
        found.edges += view.edges.len();
        found.ints += env
            .iter()
            .filter(|v| matches!(v, Some(Value::Int(_))))
            .count();
        found.disjuncts += state.disjuncts().len();
        let holds = |d: &ShapeDisjunct<D>| view.describes(&d.graph) && values_hold(&d.values, env);
        if !state.disjuncts().iter().any(holds) {
            let graphs: Vec<String> = state
                .disjuncts()
                .iter()
                .map(|d| format!("{} ‖ {:?}", d.graph, d.values))
                .collect();
            found.violations.push(format!(
                    "`{}` at bb{}:{index}: no graph with its values describes the frame {}\n  graphs: {}",
                    function.name,
                    block.index(),
                    view.text(),
                    if graphs.is_empty() {
                        "unreachable".to_owned()
                    } else {
                        graphs.join("\n          ")
                    }
                ));
        }
    };
    let run = interp::run_all_frames(module, entry, args, limits, &mut observe);
    if matches!(run.outcome, Outcome::OutOfSteps | Outcome::TooDeep) {
        return;
    }
    check.runs += 1;
    check.points += found.points;
    check.objects += found.objects;
    check.edges += found.edges;
    check.ints += found.ints;
    check.disjuncts += found.disjuncts;
    check.disjuncts += found.disjuncts;
    check.violations.extend(found.violations);
}

/// The effect of statement `i` of block `b` on the shadow heap, from the names before
/// (`before`) and after (`after`) it.
fn replay(
    stmt: &Stmt,
    b: BlockId,
    i: usize,
    before: &[Option<Value>],
    after: &[Option<Value>],
    instance: u64,
    shadow: &mut Shadow,
) {
    let read = |o: Operand| match o {
        Operand::Name(n) => before.get(n.index()).copied().flatten(),
        Operand::Int(c) => Some(Value::Int(c)),
    };
    match stmt {
        Stmt::Store {
            object,
            field,
            value,
        } => {
            if let (Some(Value::Ref(r)), Some(v)) = (read(*object), read(*value)) {
                let fields = shadow.fields.entry(r).or_default();
                if fields.len() <= field.index() {
                    fields.resize(field.index() + 1, None);
                }
                fields[field.index()] = Some(v);
            }
        }
        Stmt::Assign { dest, rhs } => {
            let Some(Value::Ref(r)) = after.get(dest.index()).copied().flatten() else {
                return;
            };
            let fields = match rhs {
                Rhs::New => Vec::new(),
                Rhs::Block(_, ops) | Rhs::Closure(_, ops) => ops.iter().map(|&o| read(o)).collect(),
                Rhs::Sibling(c, _) => match read(*c) {
                    Some(Value::Ref(c)) => shadow.fields.get(&c).cloned().unwrap_or_default(),
                    _ => Vec::new(),
                },
                _ => return,
            };
            let site = Site {
                block: b,
                index: i as u32,
            };
            shadow.fields.insert(r, fields);
            shadow.birth.insert(r, (instance, site));
        }
        Stmt::Call { .. } | Stmt::Apply { .. } => {}
    }
}

/// One frame's names and the objects they reach.
struct View {
    /// Names holding each object.
    holders: BTreeMap<u32, BTreeSet<NameId>>,
    /// Names holding no object (an integer, or unassigned).
    no_object: BTreeSet<NameId>,
    /// Every object reachable from the names, with its origin and birth order.
    reachable: BTreeMap<u32, Origin>,
    /// Field edges between reachable objects.
    edges: Vec<(u32, Label, u32)>,
    /// The inputs' values and the objects' fields when the frame was entered.
    entry: Entry,
}

impl View {
    fn new(env: &[Option<Value>], frame: &Frame, shadow: &Shadow, kinds: &[ObjectKind]) -> View {
        let mut holders: BTreeMap<u32, BTreeSet<NameId>> = BTreeMap::new();
        let mut no_object = BTreeSet::new();
        for (x, v) in env.iter().enumerate() {
            match v {
                Some(Value::Ref(r)) => {
                    holders.entry(*r).or_default().insert(NameId(x as u32));
                }
                _ => {
                    no_object.insert(NameId(x as u32));
                }
            }
        }
        let origin = |r: u32| match shadow.birth.get(&r) {
            Some(&(j, site)) if j == frame.instance => Origin::Own(site),
            Some(&(j, _)) if j > frame.instance => frame
                .calls
                .iter()
                .rev()
                .find(|(start, _)| *start <= j)
                .map_or(Origin::Caller, |&(_, site)| Origin::Call(site)),
            _ => Origin::Caller,
        };
        let mut reachable = BTreeMap::new();
        let mut edges = Vec::new();
        let mut stack: Vec<u32> = holders.keys().copied().collect();
        while let Some(r) = stack.pop() {
            if reachable.contains_key(&r) {
                continue;
            }
            reachable.insert(r, origin(r));
            let Some(fields) = shadow.fields.get(&r) else {
                continue;
            };
            let object = matches!(kinds.get(r as usize), Some(ObjectKind::Object));
            for (i, v) in fields.iter().enumerate() {
                if let Some(Value::Ref(d)) = v {
                    let label = if object {
                        Label::Field(FieldId(i as u32))
                    } else {
                        Label::Pos(i as u32)
                    };
                    edges.push((r, label, *d));
                    stack.push(*d);
                }
            }
        }
        View {
            holders,
            no_object,
            reachable,
            edges,
            entry: frame.entry.clone().unwrap_or_default(),
        }
    }

    /// What field `label` of `r` held when the frame was entered.
    fn entry_field(&self, r: u32, label: Label) -> Option<Value> {
        let i = match label {
            Label::Field(f) => f.index(),
            Label::Pos(i) => i as usize,
        };
        self.entry.1.get(&r)?.get(i).copied().flatten()
    }

    /// The caller object a context path led to on entry.
    fn resolve(&self, path: &Path) -> Option<u32> {
        let mut at = self.entry.0.get(path.input as usize).copied().flatten()?;
        for &label in &path.fields {
            let Value::Ref(r) = at else {
                return None;
            };
            at = self.entry_field(r, label)?;
        }
        match at {
            Value::Ref(r) => Some(r),
            Value::Int(_) => None,
        }
    }

    /// How many younger objects of the same frame and site are reachable.
    fn younger(&self, r: u32, site: Site) -> u32 {
        self.reachable
            .iter()
            .filter(|&(&s, &o)| s > r && o == Origin::Own(site))
            .count() as u32
    }

    /// The nodes of `g` that may stand for object `r`, and whether a context node not
    /// materialized in `g` may (an unheld object of the caller).
    fn candidates(&self, g: &ShapeGraph, r: u32) -> (Vec<usize>, bool) {
        let empty = BTreeSet::new();
        let holders = self.holders.get(&r).unwrap_or(&empty);
        let origin = self.reachable.get(&r).copied().unwrap_or(Origin::Caller);
        let only_holders = |vars: &BTreeSet<NameId>| {
            vars.iter()
                .all(|v| holders.contains(v) || self.no_object.contains(v))
        };
        let mut out = Vec::new();
        for (i, node) in g.nodes().iter().enumerate() {
            let ok = match (&node.kind, origin) {
                (Kind::Unknown, _) => holders.is_subset(&node.vars),
                (Kind::Normal, Origin::Own(s) | Origin::Call(s)) => {
                    node.sites.contains(&s)
                        && !holders.is_empty()
                        && holders.is_subset(&node.vars)
                        && only_holders(&node.vars)
                        && generation_ok(origin, node.generation, || self.younger(r, s))
                }
                (Kind::Summary, Origin::Own(s) | Origin::Call(s)) => {
                    node.sites.contains(&s)
                        && holders.is_empty()
                        && generation_ok(origin, node.generation, || self.younger(r, s))
                }
                (Kind::Context(path), Origin::Caller) => {
                    self.resolve(path) == Some(r) && only_holders(&node.vars)
                }
                _ => false,
            };
            if ok {
                out.push(i);
            }
        }
        (out, origin == Origin::Caller && holders.is_empty())
    }

    /// Whether `g` describes the frame.
    fn describes(&self, g: &ShapeGraph) -> bool {
        let mut cands: BTreeMap<u32, (Vec<usize>, bool)> = BTreeMap::new();
        for &r in self.reachable.keys() {
            let (c, virtual_context) = self.candidates(g, r);
            // Every name holding the object labels a node that may be it.
            if let Some(holders) = self.holders.get(&r) {
                let covered = holders
                    .iter()
                    .all(|x| c.iter().any(|&n| g.nodes()[n].vars.contains(x)));
                if !covered {
                    return false;
                }
            } else if c.is_empty() && !virtual_context {
                return false;
            }
            cands.insert(r, (c, virtual_context));
        }
        let unknown = g.unknown();
        let pending: BTreeSet<(Label, usize)> = g.pending().collect();
        for &(r, label, d) in &self.edges {
            let (Some((from, from_virtual)), Some((to, to_virtual))) =
                (cands.get(&r), cands.get(&d))
            else {
                return false;
            };
            if from.iter().any(|&n| Some(n) == unknown) || to.iter().any(|&n| Some(n) == unknown) {
                continue;
            }
            let explicit = from
                .iter()
                .any(|&n| to.iter().any(|&m| g.has_edge(n, label, m)));
            if explicit {
                continue;
            }
            let from_caller = self.reachable.get(&r) == Some(&Origin::Caller);
            let to_caller = self.reachable.get(&d) == Some(&Origin::Caller);
            // A caller object's field may still hold what the caller put there, unless a context
            // node for it says the field was certainly written.
            let original = from_caller && self.entry_field(r, label) == Some(Value::Ref(d));
            if original {
                let written: BTreeSet<(usize, Label)> = g.written().collect();
                if *from_virtual || from.iter().any(|&n| !written.contains(&(n, label))) {
                    continue;
                }
            }
            // An own object pointing to a caller object not materialized: an edge to some context
            // node stands for it.
            if to_caller && *to_virtual {
                let to_context = from.iter().any(|&n| {
                    g.edges()
                        .any(|((s, l, t), _)| s == n && l == label && g.nodes()[t].path().is_some())
                });
                if to_context {
                    continue;
                }
            }
            // A caller object not materialized, written through an alias.
            if from_caller && *from_virtual && to.iter().any(|&m| pending.contains(&(label, m))) {
                continue;
            }
            return false;
        }
        true
    }

    fn text(&self) -> String {
        let mut parts = Vec::new();
        for (r, origin) in &self.reachable {
            let holders: Vec<String> = self
                .holders
                .get(r)
                .map(|h| h.iter().map(|x| format!("%{}", x.index())).collect())
                .unwrap_or_default();
            parts.push(format!("#{r} {origin:?} held by [{}]", holders.join(",")));
        }
        for (r, l, d) in &self.edges {
            parts.push(format!("#{r} -{l:?}-> #{d}"));
        }
        parts.join("; ")
    }
}

fn generation_ok(origin: Origin, g: Generation, younger: impl Fn() -> u32) -> bool {
    match origin {
        Origin::Own(_) => Generation::AtMost(younger()) <= g,
        _ => true,
    }
}

/// Whether every integer the frame's names hold lies in the name's value.
fn values_hold<D: ValueDomain>(values: &Env<D>, env: &[Option<Value>]) -> bool {
    env.iter().enumerate().all(|(x, v)| match v {
        Some(Value::Int(c)) => values.get(NameId(x as u32)).contains(*c),
        _ => true,
    })
}
