//! Edits of a shape graph that statements and calls share: objects a call brings in, weak
//! stores into every context node, and pointing a name at a node (materializing what it
//! reaches).

use std::collections::BTreeSet;

use super::graph::{Graph, Kind, Label, Node, Strength};
use crate::Site;
use absinthe::lattice::Generation;
use absinthe::program::{NameId, Operand};

/// The generation an object of `site` called into being by a call gets: unknown.
pub(super) fn imported(kind: Kind, site: Site) -> Node {
    let mut node = Node::new(kind, BTreeSet::from([site]));
    node.generation = Generation::Unbounded;
    node
}

/// A store of `values` into `label` of an object that may be any context node not in `except`:
/// weak edges from each of them, and pending ones for those not materialized yet.
pub(super) fn weak_everywhere(g: &mut Graph, except: &[usize], label: Label, values: &[usize]) {
    for m in 0..g.nodes.len() {
        if g.nodes[m].is_context() && !except.contains(&m) {
            for &v in values {
                g.add_edge(m, label, v, Strength::Weak);
            }
        }
    }
    for &v in values {
        g.pending.insert((label, v));
    }
}

/// Points `y` (already unbound) at the object of node `t`: a normal, context or unknown node takes
/// `y`; a summary gives up one object, a fresh normal node holding only `y` with the summary's
/// edges duplicated, one graph per site of the summary. `fix` adjusts each split graph given
/// the new node.
pub(super) fn point_to(
    g: &mut Graph,
    t: usize,
    y: NameId,
    fix: impl Fn(&mut Graph, usize),
) -> Vec<Graph> {
    if g.nodes[t].kind != Kind::Summary {
        g.nodes[t].vars.insert(y);
        return vec![std::mem::take(g)];
    }
    let mut split = Vec::new();
    for site in g.nodes[t].sites.clone() {
        let mut h = g.clone();
        let m = materialize(&mut h, t, site, y);
        fix(&mut h, m);
        split.push(h);
    }
    split
}

/// Splits one object of site `site` out of summary `t` into a fresh normal node holding `y`:
/// every edge from or to the summary is duplicated on the new node.
pub(super) fn materialize(g: &mut Graph, t: usize, site: Site, y: NameId) -> usize {
    let mut node = Node::new(Kind::Normal, BTreeSet::from([site]));
    node.vars.insert(y);
    node.generation = g.nodes[t].generation;
    let m = g.push(node);
    let touching: Vec<((usize, Label, usize), Strength)> = g
        .edges
        .iter()
        .filter(|((s, _, d), _)| *s == t || *d == t)
        .map(|(&k, &s)| (k, s))
        .collect();
    for ((s, l, d), st) in touching {
        match (s == t, d == t) {
            (true, true) => {
                g.add_edge(m, l, t, st);
                g.add_edge(t, l, m, st);
                g.add_edge(m, l, m, st);
            }
            (true, false) => g.add_edge(m, l, d, st),
            (false, _) => g.add_edge(s, l, m, st),
        }
    }
    let pending: Vec<Label> = g
        .pending
        .iter()
        .filter(|(_, d)| *d == t)
        .map(|&(l, _)| l)
        .collect();
    for l in pending {
        g.pending.insert((l, m));
    }
    m
}

/// The nodes an operand points to (none for an integer).
pub(super) fn operand_nodes(g: &Graph, o: Operand) -> Vec<usize> {
    match o {
        Operand::Name(x) => g.labelled(x),
        Operand::Int(_) => Vec::new(),
    }
}
