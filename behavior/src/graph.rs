//! Phase I: the task-independent behavior graph, and the control-flow (0-CFA) facts it holds.
//!
//! Nodes are flows: one per term, one per parameter, and one surrogate `F_p(args…)` per
//! application of a primitive. An arc `a → b` says the flow of `a` is at least the flow of `b`.
//! The graph is built the seed's way: a pass over the terms installs what is known at once (a λ
//! or primitive in operator position, letrec bindings, parameter references) and records an α
//! constraint for every other operator; discharging the constraints installs the rest as the
//! abstractions in each operator's flow are discovered (a parameter of each discovered λ gets an
//! arc to the argument, the application an arc to the λ's body: the β flow). Discovery is
//! incremental: a new abstraction reaching a node is pushed along the arcs into it once, so
//! every (arc, abstraction) pair is handled once and nothing recurses.

use absinthe::terms::{Binder, ParamId, Prim, Term, TermId, Terms};
use std::collections::BTreeSet;

/// A node of the behavior graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The position in the node tables.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a node stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// The flow of a term.
    Term(TermId),
    /// The flow of a parameter.
    Param(ParamId),
    /// `F_p(args…)`: the result of applying primitive `p` at application `app` to these
    /// argument flows.
    Surrogate {
        /// The primitive.
        prim: Prim,
        /// The application.
        app: TermId,
        /// The argument terms, in order.
        args: Box<[TermId]>,
    },
}

/// The behavior graph of a kernel program, with the functions (abstractions and primitives)
/// each flow may hold.
#[derive(Clone, Debug)]
pub struct BehaviorGraph {
    kinds: Vec<NodeKind>,
    /// Arcs out of each node, in order of installation.
    succs: Vec<Vec<NodeId>>,
    /// Per node, the λ and primitive terms its flow may hold (0-CFA).
    functions: Vec<BTreeSet<TermId>>,
    terms: usize,
    /// Counters of the construction.
    pub stats: GraphStats,
}

/// What building the graph took.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GraphStats {
    /// Arcs installed.
    pub arcs: u64,
    /// (arc, function) pairs pushed: the work of discharging constraints.
    pub propagations: u64,
    /// α constraints recorded (applications with an unknown operator).
    pub alpha_constraints: u64,
}

struct Builder<'t> {
    terms: &'t Terms,
    kinds: Vec<NodeKind>,
    succs: Vec<Vec<NodeId>>,
    /// Arcs into each node, for propagation.
    preds: Vec<Vec<NodeId>>,
    arcs: BTreeSet<(u32, u32)>,
    functions: Vec<BTreeSet<TermId>>,
    /// Applications whose operator is each node's flow (α constraints).
    calls_on: Vec<Vec<TermId>>,
    /// (application, primitive) pairs that already have a surrogate.
    surrogates: BTreeSet<(TermId, Prim)>,
    work: Vec<(NodeId, TermId)>,
    stats: GraphStats,
}

impl BehaviorGraph {
    /// Phase I for `terms`.
    pub fn build(terms: &Terms) -> BehaviorGraph {
        let n = terms.terms.len() + terms.params.len();
        let mut b = Builder {
            terms,
            kinds: (0..terms.terms.len())
                .map(|t| NodeKind::Term(TermId(t as u32)))
                .chain((0..terms.params.len()).map(|p| NodeKind::Param(ParamId(p as u32))))
                .collect(),
            succs: vec![Vec::new(); n],
            preds: vec![Vec::new(); n],
            arcs: BTreeSet::new(),
            functions: vec![BTreeSet::new(); n],
            calls_on: vec![Vec::new(); n],
            surrogates: BTreeSet::new(),
            work: Vec::new(),
            stats: GraphStats::default(),
        };
        for (i, term) in terms.terms.iter().enumerate() {
            let t = TermId(i as u32);
            match term {
                Term::Const(_) => {}
                Term::Lambda { .. } | Term::Prim(_) => b.add_function(b.node(t), t),
                Term::Param(p) => {
                    let (from, to) = (b.node(t), b.param_node(*p));
                    b.add_arc(from, to);
                }
                Term::App { op, .. } => match terms.term(*op) {
                    Term::Lambda { .. } | Term::Prim(_) => b.connect(t, *op),
                    _ => {
                        b.stats.alpha_constraints += 1;
                        let on = b.node(*op);
                        b.calls_on[on.index()].push(t);
                        let known: Vec<TermId> = b.functions[on.index()].iter().copied().collect();
                        for f in known {
                            b.connect(t, f);
                        }
                    }
                },
                Term::Letrec { bindings, body } => {
                    for &(p, bound) in bindings.iter() {
                        let (from, to) = (b.param_node(p), b.node(bound));
                        b.add_arc(from, to);
                    }
                    let (from, to) = (b.node(t), b.node(*body));
                    b.add_arc(from, to);
                }
            }
            b.drain();
        }
        b.drain();
        BehaviorGraph {
            kinds: b.kinds,
            succs: b.succs,
            functions: b.functions,
            terms: terms.terms.len(),
            stats: b.stats,
        }
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.kinds.len()
    }

    /// What node `n` stands for.
    pub fn kind(&self, n: NodeId) -> &NodeKind {
        &self.kinds[n.index()]
    }

    /// The arcs out of `n`.
    pub fn successors(&self, n: NodeId) -> &[NodeId] {
        &self.succs[n.index()]
    }

    /// The node of the flow of term `t`.
    pub fn term_node(&self, t: TermId) -> NodeId {
        NodeId(t.0)
    }

    /// The node of the flow of parameter `p`.
    pub fn param_node(&self, p: ParamId) -> NodeId {
        NodeId((self.terms + p.index()) as u32)
    }

    /// The abstractions and primitives the flow of node `n` may hold (0-CFA).
    pub fn functions(&self, n: NodeId) -> &BTreeSet<TermId> {
        &self.functions[n.index()]
    }

    /// The abstractions and primitives term `t` may evaluate to.
    pub fn term_functions(&self, t: TermId) -> &BTreeSet<TermId> {
        self.functions(self.term_node(t))
    }

    /// The abstractions and primitives parameter `p` may be bound to.
    pub fn param_functions(&self, p: ParamId) -> &BTreeSet<TermId> {
        self.functions(self.param_node(p))
    }
}

impl Builder<'_> {
    fn node(&self, t: TermId) -> NodeId {
        NodeId(t.0)
    }

    fn param_node(&self, p: ParamId) -> NodeId {
        NodeId((self.terms.terms.len() + p.index()) as u32)
    }

    fn add_node(&mut self, kind: NodeKind) -> NodeId {
        let id = NodeId(self.kinds.len() as u32);
        self.kinds.push(kind);
        self.succs.push(Vec::new());
        self.preds.push(Vec::new());
        self.functions.push(BTreeSet::new());
        self.calls_on.push(Vec::new());
        id
    }

    /// Installs `from → to` (once) and passes on what `to` already holds.
    fn add_arc(&mut self, from: NodeId, to: NodeId) {
        if from == to || !self.arcs.insert((from.0, to.0)) {
            return;
        }
        self.stats.arcs += 1;
        self.succs[from.index()].push(to);
        self.preds[to.index()].push(from);
        let known: Vec<TermId> = self.functions[to.index()].iter().copied().collect();
        for f in known {
            self.stats.propagations += 1;
            self.add_function(from, f);
        }
    }

    fn add_function(&mut self, n: NodeId, f: TermId) {
        if self.functions[n.index()].insert(f) {
            self.work.push((n, f));
        }
    }

    /// Pushes newly found functions along the arcs into their nodes, and discharges the α
    /// constraints of the applications whose operator they reach.
    fn drain(&mut self) {
        while let Some((n, f)) = self.work.pop() {
            for i in 0..self.preds[n.index()].len() {
                let from = self.preds[n.index()][i];
                self.stats.propagations += 1;
                self.add_function(from, f);
            }
            for i in 0..self.calls_on[n.index()].len() {
                let app = self.calls_on[n.index()][i];
                self.connect(app, f);
            }
        }
    }

    /// Application `app` may call function `f` (a λ or primitive term): install what that means.
    fn connect(&mut self, app: TermId, f: TermId) {
        let Term::App { args, .. } = self.terms.term(app) else {
            return;
        };
        let args = args.clone();
        match self.terms.term(f) {
            Term::Lambda { params, body } => {
                if params.len() != args.len() {
                    return;
                }
                for (&p, &a) in params.iter().zip(args.iter()) {
                    let (from, to) = (self.param_node(p), self.node(a));
                    self.add_arc(from, to);
                }
                let (from, to) = (self.node(app), self.node(*body));
                self.add_arc(from, to);
            }
            Term::Prim(p) => {
                if p.arity() != args.len() || !self.surrogates.insert((app, *p)) {
                    return;
                }
                let s = self.add_node(NodeKind::Surrogate {
                    prim: *p,
                    app,
                    args: args.clone(),
                });
                if *p == Prim::Cond {
                    // `cond` returns one of its branches, functions included.
                    for &a in &args[1..] {
                        let to = self.node(a);
                        self.add_arc(s, to);
                    }
                }
                let from = self.node(app);
                self.add_arc(from, s);
            }
            _ => {}
        }
    }
}

/// Whether `p` is bound by nothing (an input of the program).
pub(crate) fn is_free(terms: &Terms, p: ParamId) -> bool {
    terms
        .params
        .get(p.index())
        .is_some_and(|p| p.binder == Binder::Free)
}
