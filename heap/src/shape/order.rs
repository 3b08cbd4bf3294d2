//! The shape graph as a lattice: graphs are compared, joined and met node by node, nodes matched
//! across graphs by their kind, sites and variables.

use std::collections::{BTreeMap, BTreeSet};

use super::graph::{Graph, Kind, Label, Node, Path, Strength};
use crate::Site;
use absinthe::lattice::{Generation, Lattice};
use absinthe::program::NameId;

/// A shape graph with fields, or bottom (no run reaches the point).
///
/// Nodes are abstract objects ([`Node`]); an edge `a --f--> b` says a field `f` of an object
/// of `a` may hold an object of `b`. A variable may label several nodes: it points to the object
/// of one of them, and every normal or context node it labels is its object when that node
/// stands for an object at all. So a normal node's variables are exactly the ones that point to
/// its object.
///
/// # Laws
///
/// Nodes are matched across graphs by key: kind, sites and variables (the unknown node, of
/// which there is at most one, matches the other's unknown node whatever its variables). `a ⊑
/// b` when every node of `a` has its match in `b` with a generation at least as large (for the
/// unknown node, a superset of variables), every edge of `a` joins the matches in `b` with at
/// least its strength (`Weak ⊑ Strong`), every context field `b` says is certainly written
/// `a` says too, and `a`'s pending weak edges are `b`'s. Reading a graph as the set of heaps
/// it describes, removing a node or an edge, or adding a "certainly written", only describes
/// fewer heaps, so the order is sound.
///
/// Join is the union (generations joined, certainly-written kept only where both agree), the
/// least upper bound; meet is the intersection cleaned of what it leaves unreachable, a lower
/// bound (so [`Lattice::EXACT`] is false). The keys of one function are finitely many (sites,
/// sets of names, context paths up to [`super::MAX_CONTEXT_DEPTH`]), so only generations
/// climb forever; the widening is the join with generations widened, which stabilises.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ShapeGraph {
    pub(super) graph: Option<Graph>,
}

/// How nodes are matched across graphs.
type MatchKey = (Kind, BTreeSet<Site>, BTreeSet<NameId>);

fn match_key(node: &Node) -> MatchKey {
    if node.kind == Kind::Unknown {
        (Kind::Unknown, BTreeSet::new(), BTreeSet::new())
    } else {
        (node.kind.clone(), node.sites.clone(), node.vars.clone())
    }
}

fn index(graph: &Graph) -> BTreeMap<MatchKey, usize> {
    graph
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (match_key(n), i))
        .collect()
}

impl ShapeGraph {
    /// The graph of a point reached with no object.
    pub fn empty() -> ShapeGraph {
        ShapeGraph {
            graph: Some(Graph::default()),
        }
    }

    /// The graph on entry of a function whose inputs (parameters, then captures) are `inputs`:
    /// each points to its own context node.
    pub fn entry(inputs: &[NameId]) -> ShapeGraph {
        let mut graph = Graph::default();
        for (i, &x) in inputs.iter().enumerate() {
            let mut node = Node::new(
                Kind::Context(Path {
                    input: i as u32,
                    fields: Vec::new(),
                }),
                BTreeSet::new(),
            );
            node.vars.insert(x);
            graph.push(node);
        }
        graph.normalize();
        ShapeGraph { graph: Some(graph) }
    }

    /// A graph from its parts (made canonical).
    pub(super) fn of(mut graph: Graph) -> ShapeGraph {
        graph.normalize();
        ShapeGraph { graph: Some(graph) }
    }

    /// The nodes, sorted by key (none for bottom).
    pub fn nodes(&self) -> &[Node] {
        self.graph.as_ref().map_or(&[], |g| &g.nodes)
    }

    /// The edges `(src, label, dst)` by node position, with their strength.
    pub fn edges(&self) -> impl Iterator<Item = ((usize, Label, usize), Strength)> + '_ {
        self.graph
            .iter()
            .flat_map(|g| g.edges.iter().map(|(&k, &s)| (k, s)))
    }

    /// The context fields certainly stored to, by node position.
    pub fn written(&self) -> impl Iterator<Item = (usize, Label)> + '_ {
        self.graph.iter().flat_map(|g| g.written.iter().copied())
    }

    /// The weak edges every context node not materialized yet has.
    pub fn pending(&self) -> impl Iterator<Item = (Label, usize)> + '_ {
        self.graph.iter().flat_map(|g| g.pending.iter().copied())
    }

    /// The positions of the nodes `x` points to.
    pub fn points_to(&self, x: NameId) -> Vec<usize> {
        self.graph.as_ref().map_or(Vec::new(), |g| g.labelled(x))
    }

    /// Whether an edge `src --label--> dst` exists (of any strength).
    pub fn has_edge(&self, src: usize, label: Label, dst: usize) -> bool {
        self.graph
            .as_ref()
            .is_some_and(|g| g.edges.contains_key(&(src, label, dst)))
    }

    /// The position of the unknown node, if there is one.
    pub fn unknown(&self) -> Option<usize> {
        self.graph.as_ref().and_then(Graph::unknown)
    }

    fn zip(
        &self,
        other: &ShapeGraph,
        generation: impl Fn(&Generation, &Generation) -> Generation,
    ) -> ShapeGraph {
        let (a, b) = match (&self.graph, &other.graph) {
            (None, _) => return other.clone(),
            (_, None) => return self.clone(),
            (Some(a), Some(b)) => (a, b),
        };
        let mut out = Graph::default();
        let mut keys: BTreeMap<MatchKey, usize> = BTreeMap::new();
        let mut map_a = Vec::with_capacity(a.nodes.len());
        for node in &a.nodes {
            let i = out.push(node.clone());
            keys.insert(match_key(node), i);
            map_a.push(i);
        }
        let mut map_b = Vec::with_capacity(b.nodes.len());
        let mut shared_b = vec![false; b.nodes.len()];
        for (j, node) in b.nodes.iter().enumerate() {
            match keys.get(&match_key(node)) {
                Some(&i) => {
                    let slot = &mut out.nodes[i];
                    slot.generation = generation(&slot.generation, &node.generation);
                    slot.vars.extend(node.vars.iter().copied());
                    shared_b[j] = true;
                    map_b.push(i);
                }
                None => map_b.push(out.push(node.clone())),
            }
        }
        let mut shared_a = vec![false; a.nodes.len()];
        for (j, &i) in map_b.iter().enumerate() {
            if shared_b[j] {
                if let Some(k) = map_a.iter().position(|&x| x == i) {
                    shared_a[k] = true;
                }
            }
        }
        for (&(s, l, d), &st) in &a.edges {
            out.add_edge(map_a[s], l, map_a[d], st);
        }
        for (&(s, l, d), &st) in &b.edges {
            out.add_edge(map_b[s], l, map_b[d], st);
        }
        // Certainly written where the other side agrees or has no such node.
        for &(i, l) in &a.written {
            let agrees = !shared_a[i]
                || b.written
                    .iter()
                    .any(|&(j, m)| m == l && map_b[j] == map_a[i]);
            if agrees {
                out.written.insert((map_a[i], l));
            }
        }
        for &(j, l) in &b.written {
            if !shared_b[j] {
                out.written.insert((map_b[j], l));
            }
        }
        out.pending
            .extend(a.pending.iter().map(|&(l, d)| (l, map_a[d])));
        out.pending
            .extend(b.pending.iter().map(|&(l, d)| (l, map_b[d])));
        ShapeGraph::of(out)
    }
}

impl Lattice for ShapeGraph {
    const FINITE_HEIGHT: bool = false;
    const EXACT: bool = false;

    fn bottom() -> Self {
        ShapeGraph { graph: None }
    }

    fn is_bottom(&self) -> bool {
        self.graph.is_none()
    }

    fn leq(&self, other: &Self) -> bool {
        let (a, b) = match (&self.graph, &other.graph) {
            (None, _) => return true,
            (Some(_), None) => return false,
            (Some(a), Some(b)) => (a, b),
        };
        let keys = index(b);
        let mut map = Vec::with_capacity(a.nodes.len());
        for node in &a.nodes {
            let Some(&j) = keys.get(&match_key(node)) else {
                return false;
            };
            let there = &b.nodes[j];
            if !node.generation.leq(&there.generation) || !node.vars.is_subset(&there.vars) {
                return false;
            }
            map.push(j);
        }
        let edges = a.edges.iter().all(|(&(s, l, d), &st)| {
            b.edges
                .get(&(map[s], l, map[d]))
                .is_some_and(|&there| st <= there)
        });
        let written = b.written.iter().all(|&(j, l)| {
            map.iter()
                .enumerate()
                .filter(|&(_, &m)| m == j)
                .all(|(i, _)| a.written.contains(&(i, l)))
        });
        let pending = a
            .pending
            .iter()
            .all(|&(l, d)| b.pending.contains(&(l, map[d])));
        edges && written && pending
    }

    fn join(&self, other: &Self) -> Self {
        self.zip(other, Generation::join)
    }

    fn meet(&self, other: &Self) -> Self {
        let (a, b) = match (&self.graph, &other.graph) {
            (Some(a), Some(b)) => (a, b),
            _ => return ShapeGraph::bottom(),
        };
        let keys = index(b);
        let mut out = Graph::default();
        let mut map: Vec<Option<(usize, usize)>> = Vec::with_capacity(a.nodes.len());
        for node in &a.nodes {
            match keys.get(&match_key(node)) {
                Some(&j) => {
                    let there = &b.nodes[j];
                    let mut n = node.clone();
                    n.generation = node.generation.meet(&there.generation);
                    n.vars = node.vars.intersection(&there.vars).copied().collect();
                    map.push(Some((out.push(n), j)));
                }
                None => map.push(None),
            }
        }
        let back: BTreeMap<usize, usize> = map.iter().flatten().map(|&(new, j)| (j, new)).collect();
        for (&(s, l, d), &st) in &a.edges {
            let (Some((s2, sj)), Some((d2, dj))) = (map[s], map[d]) else {
                continue;
            };
            if let Some(&there) = b.edges.get(&(sj, l, dj)) {
                out.add_edge(s2, l, d2, st.min(there));
            }
        }
        for &(i, l) in &a.written {
            if let Some((new, _)) = map[i] {
                out.written.insert((new, l));
            }
        }
        for &(j, l) in &b.written {
            if let Some(&new) = back.get(&j) {
                out.written.insert((new, l));
            }
        }
        for &(l, d) in &a.pending {
            if let Some((new, j)) = map[d] {
                if b.pending.contains(&(l, j)) {
                    out.pending.insert((l, new));
                }
            }
        }
        ShapeGraph::of(out)
    }

    fn widen(&self, newer: &Self) -> Self {
        self.zip(newer, Generation::widen)
    }
}
