//! The transfer of one statement on a shape graph: allocation, copies, field stores (strong on
//! one object, weak on context aliases and the unknown node) and field loads (following strong
//! and weak edges, skipping incompatible nodes, materializing a normal node out of a summary).

use std::collections::BTreeSet;

use super::call::{self, Callees};
use super::edit::{operand_nodes, point_to, weak_everywhere};
use super::graph::{Graph, Kind, Label, Node, Strength};
use super::order::ShapeGraph;
use crate::Site;
use absinthe::program::{NameId, Operand, Rhs, Stmt};

/// The graphs after statement `stmt`, the statement at `site`, from `graph` (none when the
/// statement traps on every heap the graph describes; several when it keeps heaps apart, as a
/// load with several possible targets does).
pub fn statement(
    graph: &ShapeGraph,
    site: Site,
    stmt: &Stmt,
    callees: &dyn Callees,
) -> Vec<ShapeGraph> {
    let Some(g) = &graph.graph else {
        return Vec::new();
    };
    let mut g = g.clone();
    let out: Vec<Graph> = match stmt {
        Stmt::Assign { dest, rhs } => assign(&mut g, site, *dest, rhs, callees),
        Stmt::Store {
            object,
            field,
            value,
        } => {
            let targets = operand_nodes(&g, *object);
            if targets.is_empty() {
                return Vec::new();
            }
            let values = operand_nodes(&g, *value);
            store(&mut g, &targets, Label::Field(*field), &values);
            vec![g]
        }
        Stmt::Call { callee, args } => call::call(&g, site, *callee, args, None, callees),
        Stmt::Apply { callee, args } => {
            let mut roots = operand_nodes(&g, *callee);
            roots.extend(args.iter().flat_map(|a| operand_nodes(&g, *a)));
            call::unknown_call(&mut g, roots, None);
            vec![g]
        }
    };
    out.into_iter().map(ShapeGraph::of).collect()
}

fn assign(g: &mut Graph, site: Site, dest: NameId, rhs: &Rhs, callees: &dyn Callees) -> Vec<Graph> {
    match rhs {
        Rhs::New => {
            allocate(g, dest, site, Vec::new());
        }
        Rhs::Block(_, operands) | Rhs::Closure(_, operands) => {
            let fields = operands
                .iter()
                .enumerate()
                .map(|(i, o)| (Label::Pos(i as u32), operand_nodes(g, *o)))
                .collect();
            allocate(g, dest, site, fields);
        }
        Rhs::Use(Operand::Name(y)) => {
            if *y != dest {
                let sources = g.labelled(*y);
                g.unbind(dest);
                for n in sources {
                    g.nodes[n].vars.insert(dest);
                }
            }
        }
        Rhs::Select(_, a, b) => {
            let mut other = g.clone();
            for (h, o) in [(&mut *g, *a), (&mut other, *b)] {
                let sources = operand_nodes(h, o);
                h.unbind(dest);
                for n in sources {
                    h.nodes[n].vars.insert(dest);
                }
            }
            return vec![g.clone(), other];
        }
        Rhs::Load(o, field) => return load(g, *o, Label::Field(*field), dest),
        Rhs::Field(o, i) => return load(g, *o, Label::Pos(*i), dest),
        Rhs::Call(callee, args) => return call::call(g, site, *callee, args, Some(dest), callees),
        Rhs::Apply(c, args) => {
            let mut roots = operand_nodes(g, *c);
            roots.extend(args.iter().flat_map(|a| operand_nodes(g, *a)));
            call::unknown_call(g, roots, Some(dest));
        }
        // A sibling closure shares the captures of `c`: both are handed to the unknown node.
        Rhs::Sibling(c, _) => {
            let roots = operand_nodes(g, *c);
            call::unknown_call(g, roots, Some(dest));
        }
        // The running closure belongs to the caller and is not followed.
        Rhs::MyClosure => call::unknown_call(g, Vec::new(), Some(dest)),
        Rhs::Use(Operand::Int(_))
        | Rhs::Binary(..)
        | Rhs::Tag(_)
        | Rhs::IsBlock(_)
        | Rhs::Address(_)
        | Rhs::Table(..) => g.unbind(dest),
    }
    vec![g.clone()]
}

/// `x = new` at `site` with `fields` set: every node of the site ages a generation, and a
/// fresh normal node holds `x`.
pub(super) fn allocate(g: &mut Graph, x: NameId, site: Site, fields: Vec<(Label, Vec<usize>)>) {
    g.unbind(x);
    for node in &mut g.nodes {
        if node.sites.contains(&site) {
            node.generation = node.generation.bump();
        }
    }
    let mut node = Node::new(Kind::Normal, BTreeSet::from([site]));
    node.vars.insert(x);
    let n = g.push(node);
    for (label, targets) in fields {
        for t in targets {
            g.add_edge(n, label, t, Strength::Strong);
        }
    }
}

/// `x.label = y` where `x` points to `targets` and `y` to `values`.
///
/// A normal or context node is one object: its field is replaced (a strong update). Any other
/// context node may be the same object, so it gets weak edges, and so will the context nodes
/// materialized later (the pending edges); the unknown node may be it too, and then the values
/// become reachable by code the function does not see.
pub(super) fn store(g: &mut Graph, targets: &[usize], label: Label, values: &[usize]) {
    let mut aliased = false;
    let mut exposed: Vec<usize> = Vec::new();
    for &n in targets {
        match g.nodes[n].kind {
            Kind::Normal => {
                g.clear_field(n, label);
                for &v in values {
                    g.add_edge(n, label, v, Strength::Strong);
                }
            }
            Kind::Context(_) => {
                g.clear_field(n, label);
                g.written.insert((n, label));
                for &v in values {
                    g.add_edge(n, label, v, Strength::Strong);
                }
                aliased = true;
            }
            Kind::Summary => {
                for &v in values {
                    g.add_edge(n, label, v, Strength::Strong);
                }
            }
            Kind::Unknown => {
                exposed.extend_from_slice(values);
                aliased = true;
            }
        }
    }
    if aliased {
        weak_everywhere(g, targets, label, values);
        if g.unknown().is_some() {
            exposed.extend_from_slice(values);
        }
    }
    if !exposed.is_empty() {
        g.expose(exposed);
    }
}

/// `y = o.label`: one graph per node the field may hold, `y` pointing to it.
fn load(g: &mut Graph, object: Operand, label: Label, y: NameId) -> Vec<Graph> {
    let sources = operand_nodes(g, object);
    let mut found: BTreeSet<usize> = BTreeSet::new();
    for &n in &sources {
        found.extend(g.read(n, label, true));
    }
    if found.is_empty() {
        // The field holds no object (an integer, or it is unset and the read traps).
        g.unbind(y);
        return vec![std::mem::take(g)];
    }
    let mut out = Vec::with_capacity(found.len());
    for t in found {
        let mut h = g.clone();
        h.unbind(y);
        let split = point_to(&mut h, t, y, |h, m| {
            // The sources' field now holds the materialized object, not the summary.
            for &u in &sources {
                if h.nodes[u].is_single() {
                    if let Some(st) = h.edges.remove(&(u, label, t)) {
                        h.add_edge(u, label, m, st);
                    }
                }
            }
        });
        out.extend(split);
    }
    out
}
