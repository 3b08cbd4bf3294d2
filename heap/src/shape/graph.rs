//! The shape graph itself: abstract objects (normal, summary, context and unknown nodes) with
//! the variables that point to them and their generations, field edges between them, and the
//! normalization that keeps one canonical graph per meaning (dead nodes dropped, unnamed nodes
//! summarized, connected summaries collapsed).

use std::collections::{BTreeMap, BTreeSet};

use crate::Site;
use absinthe::disjoint_sets::DisjointSets;
use absinthe::lattice::{Generation, Lattice};
use absinthe::program::{FieldId, NameId};

/// How deep context nodes go below an input: a read past this depth gives the unknown node.
pub const MAX_CONTEXT_DEPTH: usize = 3;

/// The label of an edge: a named field of a `new` object, or a position of a block or closure
/// (its captured values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Label {
    /// `o.f`.
    Field(FieldId),
    /// `b[i]` of a block, or capture `i` of a closure.
    Pos(u32),
}

/// Where a context node's object sits in the caller's heap: input `input` (parameters, then
/// captures) followed through `fields`, as it was when the function was entered.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Path {
    /// The input, by position among the parameters then the captures.
    pub input: u32,
    /// The fields followed from it.
    pub fields: Vec<Label>,
}

impl Path {
    /// The path one field further.
    pub fn child(&self, label: Label) -> Path {
        let mut fields = self.fields.clone();
        fields.push(label);
        Path {
            input: self.input,
            fields,
        }
    }
}

/// What kind of abstract object a node is.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// At most one object, made by the function (or returned to it by a call), held by exactly
    /// the node's variables.
    Normal,
    /// Any number of objects made by the function that no variable holds, reachable through
    /// fields. No edge joins two summary nodes.
    Summary,
    /// At most one object of the caller, reached from an input through a path at entry; two
    /// context nodes may be the same object.
    Context(Path),
    /// Any number of objects the function does not follow: handed to or made by code it does not
    /// see, or caller objects past [`MAX_CONTEXT_DEPTH`]. Its variables may point into it; its
    /// fields may point to itself or to any context node. There is at most one.
    Unknown,
}

/// An abstract object.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Node {
    /// Its kind.
    pub kind: Kind,
    /// Its allocation sites: one for a normal node, one or more for a summary, none for the
    /// others.
    pub sites: BTreeSet<Site>,
    /// The variables pointing to it (none for a summary).
    pub vars: BTreeSet<NameId>,
    /// How many younger live objects of its site there may be.
    pub generation: Generation,
}

impl Node {
    /// A node of `kind` with no variable and generation 0.
    pub fn new(kind: Kind, sites: BTreeSet<Site>) -> Node {
        Node {
            kind,
            sites,
            vars: BTreeSet::new(),
            generation: Generation::AtMost(0),
        }
    }

    /// Whether it is a context node.
    pub fn is_context(&self) -> bool {
        matches!(self.kind, Kind::Context(_))
    }

    /// Whether it stands for at most one object (normal and context nodes).
    pub fn is_single(&self) -> bool {
        matches!(self.kind, Kind::Normal | Kind::Context(_))
    }

    /// The context path, for a context node.
    pub fn path(&self) -> Option<&Path> {
        match &self.kind {
            Kind::Context(p) => Some(p),
            _ => None,
        }
    }

    /// The key that identifies the node in a graph and matches it across graphs.
    pub fn key(&self) -> (&Kind, &BTreeSet<Site>, &BTreeSet<NameId>) {
        (&self.kind, &self.sites, &self.vars)
    }
}

/// How sure an edge is. A weak edge comes from a store through another context node that may
/// be the same object; a caller drops weak edges when it contracts the callee's context nodes.
/// `Weak ⊑ Strong`: a strong edge is one the caller must keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Strength {
    /// May hold, through aliasing of context nodes.
    Weak,
    /// Stored through the node itself (or any edge of a non-context node).
    Strong,
}

/// An edge `src --label--> dst`, by node positions.
pub type EdgeKey = (usize, Label, usize);

/// The reachable contents of a shape graph (see [`super::ShapeGraph`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Graph {
    /// The nodes; in canonical form sorted by key with no key twice.
    pub(super) nodes: Vec<Node>,
    /// The field edges and their strength.
    pub(super) edges: BTreeMap<EdgeKey, Strength>,
    /// Fields of context nodes certainly stored to: the caller's original value is gone.
    pub(super) written: BTreeSet<(usize, Label)>,
    /// Weak edges from every context node not materialized yet (stores through context nodes
    /// that such a node may alias).
    pub(super) pending: BTreeSet<(Label, usize)>,
}

impl Graph {
    /// The nodes `x` points to.
    pub(super) fn labelled(&self, x: NameId) -> Vec<usize> {
        (0..self.nodes.len())
            .filter(|&i| self.nodes[i].vars.contains(&x))
            .collect()
    }

    /// `x` points to nothing.
    pub(super) fn unbind(&mut self, x: NameId) {
        for n in &mut self.nodes {
            n.vars.remove(&x);
        }
    }

    /// Adds a node, returning its position.
    pub(super) fn push(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// The unknown node, if there is one.
    pub(super) fn unknown(&self) -> Option<usize> {
        self.nodes.iter().position(|n| n.kind == Kind::Unknown)
    }

    /// The unknown node, made if there is none.
    pub(super) fn unknown_or_new(&mut self) -> usize {
        match self.unknown() {
            Some(u) => u,
            None => {
                let mut node = Node::new(Kind::Unknown, BTreeSet::new());
                node.generation = Generation::Unbounded;
                self.push(node)
            }
        }
    }

    /// The targets of `label` edges from `n`.
    pub(super) fn targets(&self, n: usize, label: Label) -> Vec<usize> {
        self.edges
            .range((n, label, 0)..=(n, label, usize::MAX))
            .map(|(&(_, _, d), _)| d)
            .collect()
    }

    /// Adds an edge, keeping the stronger strength if it exists.
    pub(super) fn add_edge(&mut self, src: usize, label: Label, dst: usize, strength: Strength) {
        let slot = self.edges.entry((src, label, dst)).or_insert(strength);
        *slot = (*slot).max(strength);
    }

    /// Removes every `label` edge from `n`.
    pub(super) fn clear_field(&mut self, n: usize, label: Label) {
        for d in self.targets(n, label) {
            self.edges.remove(&(n, label, d));
        }
    }

    /// The context node at `path`, materialized if absent (with the pending weak edges).
    pub(super) fn context(&mut self, path: &Path) -> usize {
        if let Some(i) = self
            .nodes
            .iter()
            .position(|n| n.path() == Some(path) && n.vars.is_empty())
        {
            return i;
        }
        let node = Node::new(Kind::Context(path.clone()), BTreeSet::new());
        let i = self.push(node);
        for (label, d) in self.pending.clone() {
            self.add_edge(i, label, d, Strength::Weak);
        }
        i
    }

    /// What a read of `label` from node `n` may give: the edges' targets (skipping nodes that
    /// cannot exist together with `n` when `filter` is set), the caller's original value for a
    /// context field not certainly stored to, and the unknown node wherever it may be involved.
    pub(super) fn read(&mut self, n: usize, label: Label, filter: bool) -> BTreeSet<usize> {
        let mut out: BTreeSet<usize> = self
            .targets(n, label)
            .into_iter()
            .filter(|&d| !filter || self.compatible(n, d))
            .collect();
        match self.nodes[n].kind.clone() {
            Kind::Normal | Kind::Summary => {}
            Kind::Context(path) => {
                if !self.written.contains(&(n, label)) {
                    let child = if path.fields.len() < MAX_CONTEXT_DEPTH {
                        self.context(&path.child(label))
                    } else {
                        self.unknown_or_new()
                    };
                    out.insert(child);
                }
                if let Some(u) = self.unknown() {
                    out.insert(u);
                }
            }
            Kind::Unknown => {
                out.insert(n);
            }
        }
        out
    }

    /// Whether nodes `a` and `b` may both stand for objects at once with an edge between them:
    /// two distinct nodes sharing a variable cannot, unless both are context nodes (which may be
    /// one object) or one is the unknown node (whose variables only may point into it).
    pub(super) fn compatible(&self, a: usize, b: usize) -> bool {
        let (x, y) = (&self.nodes[a], &self.nodes[b]);
        a == b
            || x.kind == Kind::Unknown
            || y.kind == Kind::Unknown
            || (x.is_context() && y.is_context())
            || x.vars.is_disjoint(&y.vars)
    }

    /// Every node reachable from `roots` through edges (and, once a context or the unknown node
    /// is reached, every context node and the unknown node: caller objects may reach each
    /// other in ways the function does not see).
    pub(super) fn reach(&self, roots: impl IntoIterator<Item = usize>) -> BTreeSet<usize> {
        let mut seen: BTreeSet<usize> = BTreeSet::new();
        let mut stack: Vec<usize> = roots.into_iter().collect();
        let mut caller = false;
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            let node = &self.nodes[n];
            if !caller && (node.is_context() || node.kind == Kind::Unknown) {
                caller = true;
                stack.extend((0..self.nodes.len()).filter(|&i| {
                    self.nodes[i].is_context() || self.nodes[i].kind == Kind::Unknown
                }));
            }
            stack.extend(
                self.edges
                    .range((n, Label::Field(FieldId(0)), 0)..)
                    .take_while(|((s, _, _), _)| *s == n)
                    .map(|(&(_, _, d), _)| d),
            );
        }
        seen
    }

    /// Code the function does not see may reach everything reachable from `roots`: those nodes
    /// join the unknown node (their variables move to it, edges into them go to it, their own
    /// edges go).
    /// Returns the nodes that joined it.
    pub(super) fn expose(&mut self, roots: impl IntoIterator<Item = usize>) -> BTreeSet<usize> {
        let set = self.reach(roots);
        if set.is_empty() {
            return set;
        }
        let u = self.unknown_or_new();
        let mut moved = BTreeSet::new();
        for &n in &set {
            if n != u {
                moved.append(&mut self.nodes[n].vars);
            }
        }
        self.nodes[u].vars.append(&mut moved);
        let edges = std::mem::take(&mut self.edges);
        for ((s, l, d), strength) in edges {
            if set.contains(&s) || s == u {
                continue;
            }
            let d = if set.contains(&d) { u } else { d };
            self.add_edge(s, l, d, strength);
        }
        self.written.retain(|(n, _)| !set.contains(n));
        self.pending = std::mem::take(&mut self.pending)
            .into_iter()
            .map(|(l, d)| (l, if set.contains(&d) { u } else { d }))
            .collect();
        set
    }

    /// Makes the graph canonical: nodes no variable holds and nothing reaches die (context nodes
    /// with nothing stored in them, which reading can make again, included); normal nodes no
    /// variable holds become summaries; summaries joined by an edge, and nodes of one key, merge;
    /// nodes are sorted by key.
    pub(super) fn normalize(&mut self) {
        loop {
            let merged = self.normalize_once();
            if !merged {
                return;
            }
        }
    }

    fn normalize_once(&mut self) -> bool {
        // Roots: named nodes, context nodes with stores, the unknown node, pending targets.
        let n = self.nodes.len();
        let mut roots: Vec<usize> = (0..n)
            .filter(|&i| {
                let node = &self.nodes[i];
                !node.vars.is_empty() || node.kind == Kind::Unknown
            })
            .collect();
        roots.extend(self.written.iter().map(|&(i, _)| i));
        roots.extend(self.pending.iter().map(|&(_, d)| d));
        for &(s, _, _) in self.edges.keys() {
            if self.nodes[s].is_context() {
                roots.push(s);
            }
        }
        let mut live = vec![false; n];
        let mut stack = roots;
        while let Some(i) = stack.pop() {
            if i >= n || live[i] {
                continue;
            }
            live[i] = true;
            stack.extend(
                self.edges
                    .range((i, Label::Field(FieldId(0)), 0)..)
                    .take_while(|((s, _, _), _)| *s == i)
                    .map(|(&(_, _, d), _)| d),
            );
        }
        for (i, node) in self.nodes.iter_mut().enumerate() {
            if live[i] && node.kind == Kind::Normal && node.vars.is_empty() {
                node.kind = Kind::Summary;
            }
            if node.kind == Kind::Summary {
                node.vars.clear();
            }
        }
        // Groups: union-find over nodes of one key, summaries joined by an edge, and all
        // unknown nodes.
        let mut sets = DisjointSets::new(n);
        let mut by_key: BTreeMap<(Kind, BTreeSet<Site>, BTreeSet<NameId>), usize> = BTreeMap::new();
        let mut unknown: Option<usize> = None;
        for i in (0..n).filter(|&i| live[i]) {
            let node = &self.nodes[i];
            if node.kind == Kind::Unknown {
                match unknown {
                    Some(u) => {
                        sets.union(u, i);
                    }
                    None => unknown = Some(i),
                }
                continue;
            }
            let key = (node.kind.clone(), node.sites.clone(), node.vars.clone());
            match by_key.get(&key) {
                Some(&j) => {
                    sets.union(j, i);
                }
                None => {
                    by_key.insert(key, i);
                }
            }
        }
        let mut summary_edge = false;
        for &(s, _, d) in self.edges.keys() {
            if s != d
                && live[s]
                && live[d]
                && self.nodes[s].kind == Kind::Summary
                && self.nodes[d].kind == Kind::Summary
            {
                summary_edge = true;
                sets.union(s, d);
            }
        }
        // The merged nodes.
        let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for i in (0..n).filter(|&i| live[i]) {
            let r = sets.find(i);
            groups.entry(r).or_default().push(i);
        }
        let mut merged: Vec<(Node, Vec<usize>)> = Vec::with_capacity(groups.len());
        for members in groups.into_values() {
            let mut node = self.nodes[members[0]].clone();
            for &m in &members[1..] {
                let other = &self.nodes[m];
                if node.kind != other.kind {
                    // Only summaries of different sites merge across keys.
                    node.kind = Kind::Summary;
                }
                node.sites.extend(other.sites.iter().copied());
                node.vars.extend(other.vars.iter().copied());
                node.generation = node.generation.join(&other.generation);
            }
            merged.push((node, members));
        }
        merged.sort_by(|a, b| {
            a.0.key()
                .cmp(&b.0.key())
                .then(a.0.generation.cmp(&b.0.generation))
        });
        let mut index = vec![usize::MAX; n];
        for (new, (_, members)) in merged.iter().enumerate() {
            for &m in members {
                index[m] = new;
            }
        }
        let mut edges: BTreeMap<EdgeKey, Strength> = BTreeMap::new();
        for (&(s, l, d), &strength) in &self.edges {
            let (s2, d2) = (index[s], index[d]);
            if s2 == usize::MAX || d2 == usize::MAX {
                continue;
            }
            let strength = if merged[s2].0.is_context() {
                strength
            } else {
                Strength::Strong
            };
            // The unknown node's fields are implicit.
            if merged[s2].0.kind == Kind::Unknown {
                continue;
            }
            let slot = edges.entry((s2, l, d2)).or_insert(strength);
            *slot = (*slot).max(strength);
        }
        // A field of a merged context node is certainly written only if it is in every member.
        let mut written = BTreeSet::new();
        for &(i, l) in &self.written {
            let new = index[i];
            if new == usize::MAX || !merged[new].0.is_context() {
                continue;
            }
            if merged[new]
                .1
                .iter()
                .all(|m| self.written.contains(&(*m, l)))
            {
                written.insert((new, l));
            }
        }
        let pending = self
            .pending
            .iter()
            .filter(|(_, d)| index[*d] != usize::MAX)
            .map(|&(l, d)| (l, index[d]))
            .collect();
        let changed = merged.iter().any(|(_, m)| m.len() > 1) || summary_edge;
        self.nodes = merged.into_iter().map(|(node, _)| node).collect();
        self.edges = edges;
        self.written = written;
        self.pending = pending;
        changed
    }
}
