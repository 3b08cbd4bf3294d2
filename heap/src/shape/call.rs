//! Calls: a callee's summary is its shape at exit over its context nodes; the caller maps each
//! context node to the caller nodes its path reaches from the arguments (contracting the
//! callee's context nodes onto its own heap), drops the weak edges, applies the strong field
//! edges to its own nodes and imports what the callee made. A call without a summary hands
//! everything reachable from its arguments to the unknown node.

use std::collections::{BTreeMap, BTreeSet};

use super::edit::{imported, point_to, weak_everywhere};
use super::graph::{Graph, Kind, Path, Strength};
use super::order::ShapeGraph;
use crate::Site;
use absinthe::lattice::{DefaultCost, canonical_disjuncts};
use absinthe::program::{FuncId, NameId, Operand};

/// The name a summary gives the returned object.
pub const RESULT: NameId = NameId(u32::MAX);

/// How many exit graphs a summary keeps apart.
pub const MAX_EXITS: usize = 8;

/// A function's effect on the heap for its callers: its shape graphs where it returns, with no
/// variable but [`RESULT`] (on what it returns), over context nodes for what its inputs
/// reached at entry, the nodes it made that are still reachable from them or from the result
/// as summaries or a normal result node.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ShapeSummary {
    /// How many inputs (parameters, then captures) the function has.
    pub inputs: usize,
    /// One graph per way it may return (none: it never returns).
    pub exits: Vec<ShapeGraph>,
}

impl ShapeSummary {
    /// The summary of a function with `inputs` inputs returning `returned` (`None` for no value
    /// or an integer) from each of `exits`.
    pub fn of_exits(
        inputs: usize,
        exits: impl IntoIterator<Item = (ShapeGraph, Option<NameId>)>,
    ) -> ShapeSummary {
        let mut graphs = Vec::new();
        for (graph, returned) in exits {
            let Some(g) = &graph.graph else {
                continue;
            };
            let mut g = g.clone();
            let result = returned.map(|r| g.labelled(r)).unwrap_or_default();
            for node in &mut g.nodes {
                if node.kind != Kind::Unknown {
                    node.vars.clear();
                }
            }
            if let Some(u) = g.unknown() {
                g.nodes[u].vars.clear();
            }
            for n in result {
                g.nodes[n].vars.insert(RESULT);
            }
            g.pending.clear();
            graphs.push(ShapeGraph::of(g));
        }
        ShapeSummary {
            inputs,
            exits: canonical_disjuncts::<ShapeGraph, DefaultCost>(graphs, MAX_EXITS),
        }
    }
}

/// The summaries of callees, asked for at each call; `None` when the callee has none (being
/// analyzed, in a cycle of calls, or missing): the call is then unknown code.
pub trait Callees {
    /// The summary of `f`.
    fn summary(&self, f: FuncId) -> Option<ShapeSummary>;
}

impl<F: Fn(FuncId) -> Option<ShapeSummary>> Callees for F {
    fn summary(&self, f: FuncId) -> Option<ShapeSummary> {
        self(f)
    }
}

/// No callee has a summary: every call is unknown code.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoCallees;

impl Callees for NoCallees {
    fn summary(&self, _: FuncId) -> Option<ShapeSummary> {
        None
    }
}

/// A call of code the analysis does not see, handed the objects of `roots`: everything they
/// reach joins the unknown node, and the result (if kept in `dest`) may be any of it.
pub(super) fn unknown_call(g: &mut Graph, roots: Vec<usize>, dest: Option<NameId>) {
    g.expose(roots);
    if let Some(d) = dest {
        g.unbind(d);
        let u = g.unknown_or_new();
        g.nodes[u].vars.insert(d);
    }
}

/// `dest = call callee(args)` at `site`, from the caller's graph `g`.
pub(super) fn call(
    g: &Graph,
    site: Site,
    callee: FuncId,
    args: &[Operand],
    dest: Option<NameId>,
    callees: &dyn Callees,
) -> Vec<Graph> {
    let unknown = |g: &Graph| {
        let mut h = g.clone();
        let roots = args
            .iter()
            .flat_map(|a| super::edit::operand_nodes(&h, *a))
            .collect();
        unknown_call(&mut h, roots, dest);
        h
    };
    let Some(summary) = callees.summary(callee) else {
        return vec![unknown(g)];
    };
    if summary.inputs != args.len() {
        return vec![unknown(g)];
    }
    let mut out = Vec::new();
    for exit in &summary.exits {
        let Some(e) = &exit.graph else {
            continue;
        };
        if e.unknown().is_some() {
            out.push(unknown(g));
            continue;
        }
        out.extend(apply_exit(g, site, args, dest, e));
    }
    out
}

/// The caller nodes the path reaches from the arguments, in the caller's graph before the call.
fn walk(g: &mut Graph, args: &[Operand], path: &Path) -> BTreeSet<usize> {
    let mut at: BTreeSet<usize> = match args.get(path.input as usize) {
        Some(Operand::Name(a)) => g.labelled(*a).into_iter().collect(),
        _ => BTreeSet::new(),
    };
    for &label in &path.fields {
        let mut next = BTreeSet::new();
        for n in at {
            next.extend(g.read(n, label, false));
        }
        at = next;
    }
    at
}

/// One exit graph `e` of the callee applied to the caller's graph `g`.
fn apply_exit(
    g: &Graph,
    site: Site,
    args: &[Operand],
    dest: Option<NameId>,
    e: &Graph,
) -> Vec<Graph> {
    let mut h = g.clone();
    // The callee's context nodes contract onto the caller nodes their paths reach.
    let mut image: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); e.nodes.len()];
    for (i, node) in e.nodes.iter().enumerate() {
        if let Kind::Context(path) = &node.kind {
            image[i] = walk(&mut h, args, path);
        }
    }
    // What the callee made is new to the caller, at the call's site.
    for node in &mut h.nodes {
        if node.sites.contains(&site) {
            node.generation = node.generation.bump();
        }
    }
    for (i, node) in e.nodes.iter().enumerate() {
        let kind = match node.kind {
            Kind::Normal => Kind::Normal,
            Kind::Summary => Kind::Summary,
            Kind::Context(_) | Kind::Unknown => continue,
        };
        image[i] = BTreeSet::from([h.push(imported(kind, site))]);
    }
    for &(s, l, d) in e.edges.keys() {
        if !e.nodes[s].is_context() {
            for &a in &image[s] {
                for &b in &image[d] {
                    h.add_edge(a, l, b, Strength::Strong);
                }
            }
        }
    }
    // The callee's stores through its context nodes, strong edges only, on their images: a
    // field is replaced when a context node whose only image is that single-object node
    // certainly wrote it.
    let mut effects: BTreeMap<(usize, super::Label), (BTreeSet<usize>, bool)> = BTreeMap::new();
    for (&(s, l, d), &st) in &e.edges {
        if e.nodes[s].is_context() && st == Strength::Strong {
            for &c in &image[s] {
                effects
                    .entry((c, l))
                    .or_default()
                    .0
                    .extend(image[d].iter().copied());
            }
        }
    }
    for &(s, l) in &e.written {
        for &c in &image[s] {
            let definite = image[s].len() == 1 && h.nodes[c].is_single();
            let entry = effects.entry((c, l)).or_default();
            entry.1 |= definite;
        }
    }
    let mut exposed: Vec<usize> = Vec::new();
    for ((c, l), (targets, definite)) in effects {
        let targets: Vec<usize> = targets.into_iter().collect();
        let kind = h.nodes[c].kind.clone();
        if definite {
            h.clear_field(c, l);
        }
        match kind {
            Kind::Normal | Kind::Summary => {
                for &t in &targets {
                    h.add_edge(c, l, t, Strength::Strong);
                }
            }
            Kind::Context(_) => {
                if definite {
                    h.written.insert((c, l));
                }
                for &t in &targets {
                    h.add_edge(c, l, t, Strength::Strong);
                }
                weak_everywhere(&mut h, &[c], l, &targets);
                if h.unknown().is_some() {
                    exposed.extend_from_slice(&targets);
                }
            }
            Kind::Unknown => {
                weak_everywhere(&mut h, &[], l, &targets);
                exposed.extend_from_slice(&targets);
            }
        }
    }
    let gone = if exposed.is_empty() {
        BTreeSet::new()
    } else {
        h.expose(exposed)
    };
    let Some(dest) = dest else {
        return vec![h];
    };
    let results: BTreeSet<usize> = e
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.vars.contains(&RESULT))
        .flat_map(|(i, _)| image[i].iter().copied())
        .map(|t| match h.unknown() {
            Some(u) if gone.contains(&t) => u,
            _ => t,
        })
        .collect();
    h.unbind(dest);
    if results.is_empty() {
        return vec![h];
    }
    let mut out = Vec::new();
    for t in results {
        let mut k = h.clone();
        out.extend(point_to(&mut k, t, dest, |_, _| {}));
    }
    out
}
