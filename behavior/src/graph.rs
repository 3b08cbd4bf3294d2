//! Phase I: the task-independent behavior graph, and the control-flow facts it holds.
//!
//! Nodes are flows Φ_t^σ: one per term and one per parameter in each abstract call context σ the
//! term is evaluated in, and one surrogate `F_p(args…)` per application of a primitive in each
//! context. A context is the string of the last `k` application labels through which abstractions
//! were entered ([`Contexts`]); with `k = 0` there is one context and the graph is the seed's
//! 0-CFA graph. An arc `a → b` says the flow of `a` is at least the flow of `b`.
//!
//! The graph is built the seed's way: instantiating a term in a context installs what is known at
//! once (an abstraction or primitive's own flow, letrec bindings, parameter references) and
//! records an α constraint for every application; discharging the constraints installs the rest
//! as the functions in each operator's flow are discovered. A function value is an abstraction
//! with the context it was made in (a primitive has none): entering it at application `i` in
//! context σ enters its body in context `i·σ` (cut to `k` labels), gives each parameter an arc
//! to its argument in σ, gives the application an arc to the body (the β flow), and gives each
//! name the abstraction reads from outside an arc to that name in the context the abstraction was
//! made in (closures copy what they capture). Discovery is incremental: a new function reaching a
//! node is pushed along the arcs into it once, so every (arc, function) pair is handled once and
//! nothing recurses.

use crate::context::{ContextId, Contexts};
use crate::extend::{Counts, exit_of, is_block, lambda_arguments};
use absinthe::terms::{ParamId, Prim, Term, TermId, Terms};
use std::collections::{BTreeMap, BTreeSet};

/// A node of the behavior graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The position in the node tables.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a node stands for (its context is [`BehaviorGraph::context`]).
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
        /// The argument flows, in order (in the application's context).
        args: Box<[NodeId]>,
        /// What each argument is, for tasks reading `ArgKind`s: the term it is the value of, or
        /// none for one value of a term that gives several.
        terms: Box<[Option<TermId>]>,
    },
    /// The `index`-th value of a term that may give several (through `block`): what binds a
    /// parameter to one value of a block, position by position.
    Position {
        /// The node of the term.
        of: NodeId,
        /// Which of its values, from 0.
        index: u32,
    },
}

/// Where the values of a term come from, position by position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Source {
    /// Position for position, another term's (an abstraction's body, a letrec's body).
    Same(NodeId),
    /// The arguments of this application, after its operator (`block`'s, an exit call's).
    Args(NodeId),
    /// One value, this node's (a primitive's result).
    Value(NodeId),
}

/// A function value a flow may hold: an abstraction with the context it was made in, a
/// primitive, or an exit function (`f̂` of an abstraction entered in a context).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Function {
    /// An abstraction (its λ term) made in a context.
    Closure(TermId, ContextId),
    /// A primitive (its term).
    Prim(TermId),
    /// The `block` primitive (a reference to it).
    Block(TermId),
    /// The exit function of abstraction `λ` entered in the context: calling it returns from
    /// that application of `λ`.
    Exit(TermId, ContextId),
}

impl Function {
    /// The term the function comes from: the λ for a closure or an exit function.
    pub fn term(self) -> TermId {
        match self {
            Function::Closure(t, _)
            | Function::Prim(t)
            | Function::Block(t)
            | Function::Exit(t, _) => t,
        }
    }
}

/// The behavior graph of a kernel program, with the functions each flow may hold.
#[derive(Clone, Debug)]
pub struct BehaviorGraph {
    kinds: Vec<NodeKind>,
    contexts_of: Vec<ContextId>,
    /// Arcs out of each node, in order of installation.
    succs: Vec<Vec<NodeId>>,
    /// Per node, the functions its flow may hold.
    values: Vec<BTreeSet<Function>>,
    /// Per node, the λ and primitive terms its flow may hold (the functions without contexts).
    functions: Vec<BTreeSet<TermId>>,
    /// Per term and per parameter, its nodes by context.
    term_nodes: Vec<Vec<(ContextId, NodeId)>>,
    param_nodes: Vec<Vec<(ContextId, NodeId)>>,
    /// Per term and per parameter, the functions over every context.
    term_functions: Vec<BTreeSet<TermId>>,
    param_functions: Vec<BTreeSet<TermId>>,
    contexts: Contexts,
    /// How many values each node's term may give.
    counts: Vec<Counts>,
    /// Per application node, the parts that may give its operator.
    operators: BTreeMap<NodeId, Vec<NodeId>>,
    empty: BTreeSet<TermId>,
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
    /// α constraints recorded (applications with an operator not known in the text).
    pub alpha_constraints: u64,
    /// Applications deferred because where their operator or operands are among the values of
    /// their parts was not known when they were first met (multiple values).
    pub deferred: u64,
}

/// Where an application's operator and arguments are among its parts' values.
#[derive(Clone, Debug)]
struct Layout {
    /// The operator and argument terms' nodes, as written.
    parts: Vec<NodeId>,
    /// Per part, the positions its first value may be at (empty until laid out).
    starts: Vec<Counts>,
    /// Per part, how many values it may give.
    counts: Vec<Counts>,
    /// How many values the parts give together.
    total: Counts,
    /// The parts that may give the operator.
    operators: Vec<NodeId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Term(TermId),
    Param(ParamId),
}

struct Builder<'t> {
    terms: &'t Terms,
    contexts: Contexts,
    /// Instantiate every term in the empty context up front (0-CFA, the seed's graph).
    eager: bool,
    /// The program does not use `block`, so every term that returns gives one value and no
    /// application waits for its parts' counts.
    single_values: bool,
    kinds: Vec<NodeKind>,
    contexts_of: Vec<ContextId>,
    index: BTreeMap<(Key, ContextId), NodeId>,
    succs: Vec<Vec<NodeId>>,
    /// Arcs into each node, for propagation.
    preds: Vec<Vec<NodeId>>,
    arcs: BTreeSet<(u32, u32)>,
    values: Vec<BTreeSet<Function>>,
    /// Application nodes whose operator may be each node's flow (α constraints).
    calls_on: Vec<Vec<NodeId>>,
    /// (application node, primitive, argument nodes) that already have a surrogate.
    surrogates: BTreeSet<(NodeId, Prim, Box<[NodeId]>)>,
    /// How many values each node's term may give.
    counts: Vec<Counts>,
    /// Nodes whose counts include each node's (an application, its callees' bodies).
    count_readers: Vec<Vec<NodeId>>,
    /// Applications whose layout reads each node's counts (their parts).
    layout_readers: Vec<Vec<NodeId>>,
    count_work: Vec<NodeId>,
    /// Per application node, where its operator and arguments are among its parts' values.
    layouts: BTreeMap<NodeId, Layout>,
    /// Applications met before their layout was known (deferred).
    deferred: BTreeSet<NodeId>,
    /// Per abstraction entered in a context: the applications that entered it there (what its
    /// exit function returns from), and the applications that call that exit function.
    entries: BTreeMap<(TermId, ContextId), BTreeSet<NodeId>>,
    exit_calls: BTreeMap<(TermId, ContextId), BTreeSet<NodeId>>,
    /// The names each abstraction reads from outside it.
    captures: BTreeMap<TermId, Vec<ParamId>>,
    work: Vec<(NodeId, Function)>,
    install: Vec<(TermId, ContextId)>,
    /// Where each node's values come from, and its position nodes (programs with `block`).
    sources: Vec<Vec<Source>>,
    positions: BTreeMap<(NodeId, u32), NodeId>,
    positions_of: Vec<Vec<NodeId>>,
    /// Position nodes whose sources are to be installed.
    position_work: Vec<NodeId>,
    stats: GraphStats,
}

impl BehaviorGraph {
    /// Phase I for `terms` with one context (0-CFA): the seed's graph.
    pub fn build(terms: &Terms) -> BehaviorGraph {
        BehaviorGraph::build_with_contexts(terms, 0)
    }

    /// Phase I for `terms`, telling contexts apart by the last `k` call sites.
    pub fn build_with_contexts(terms: &Terms, k: usize) -> BehaviorGraph {
        let mut b = Builder {
            terms,
            contexts: Contexts::new(k),
            eager: k == 0,
            single_values: !(0..terms.params.len()).any(|p| is_block(terms, ParamId(p as u32))),
            kinds: Vec::new(),
            contexts_of: Vec::new(),
            index: BTreeMap::new(),
            succs: Vec::new(),
            preds: Vec::new(),
            arcs: BTreeSet::new(),
            values: Vec::new(),
            calls_on: Vec::new(),
            surrogates: BTreeSet::new(),
            counts: Vec::new(),
            count_readers: Vec::new(),
            layout_readers: Vec::new(),
            count_work: Vec::new(),
            layouts: BTreeMap::new(),
            deferred: BTreeSet::new(),
            entries: BTreeMap::new(),
            exit_calls: BTreeMap::new(),
            captures: BTreeMap::new(),
            work: Vec::new(),
            install: Vec::new(),
            sources: Vec::new(),
            positions: BTreeMap::new(),
            positions_of: Vec::new(),
            position_work: Vec::new(),
            stats: GraphStats::default(),
        };
        let empty = ContextId::EMPTY;
        if b.eager {
            for t in 0..terms.terms.len() {
                b.term_node(TermId(t as u32), empty);
            }
            for p in 0..terms.params.len() {
                b.param_node(ParamId(p as u32), empty);
            }
        } else {
            b.term_node(terms.root, empty);
        }
        b.drain();
        b.finish()
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.kinds.len()
    }

    /// What node `n` stands for.
    pub fn kind(&self, n: NodeId) -> &NodeKind {
        &self.kinds[n.index()]
    }

    /// The context node `n` is a flow in.
    pub fn context(&self, n: NodeId) -> ContextId {
        self.contexts_of[n.index()]
    }

    /// The call strings of the contexts.
    pub fn contexts(&self) -> &Contexts {
        &self.contexts
    }

    /// The arcs out of `n`.
    pub fn successors(&self, n: NodeId) -> &[NodeId] {
        &self.succs[n.index()]
    }

    /// The nodes of term `t`, one per context it is evaluated in, in the order contexts were
    /// found.
    pub fn term_nodes(&self, t: TermId) -> &[(ContextId, NodeId)] {
        &self.term_nodes[t.index()]
    }

    /// The nodes of parameter `p`, one per context it is bound in.
    pub fn param_nodes(&self, p: ParamId) -> &[(ContextId, NodeId)] {
        &self.param_nodes[p.index()]
    }

    /// The node of term `t` in context `c`, if `t` is evaluated there.
    pub fn term_node_in(&self, t: TermId, c: ContextId) -> Option<NodeId> {
        self.term_nodes[t.index()]
            .iter()
            .find(|(d, _)| *d == c)
            .map(|&(_, n)| n)
    }

    /// The node of parameter `p` in context `c`, if it is bound there.
    pub fn param_node_in(&self, p: ParamId, c: ContextId) -> Option<NodeId> {
        self.param_nodes[p.index()]
            .iter()
            .find(|(d, _)| *d == c)
            .map(|&(_, n)| n)
    }

    /// The node of the flow of term `t` in the empty context. Every term has one in a graph of
    /// one context ([`BehaviorGraph::build`]); with longer contexts, only the terms evaluated
    /// outside every abstraction do.
    ///
    /// # Panics
    /// If `t` has no node in the empty context.
    pub fn term_node(&self, t: TermId) -> NodeId {
        self.term_node_in(t, ContextId::EMPTY)
            .unwrap_or_else(|| panic!("term {} has no flow in the empty context", t.0))
    }

    /// The node of the flow of parameter `p` in the empty context.
    ///
    /// # Panics
    /// If `p` has no node in the empty context (see [`BehaviorGraph::term_node`]).
    pub fn param_node(&self, p: ParamId) -> NodeId {
        self.param_node_in(p, ContextId::EMPTY)
            .unwrap_or_else(|| panic!("parameter {} has no flow in the empty context", p.0))
    }

    /// How many values the term of node `n` may give (the paper's `value` and `void`, and more
    /// with `block`); none when it never returns.
    pub fn counts(&self, n: NodeId) -> &Counts {
        &self.counts[n.index()]
    }

    /// The nodes whose flows may give application node `n`'s operator (its operator term's,
    /// unless multiple values move it); empty for a node that is no application, or one never
    /// laid out because a part of it never gives a value.
    pub fn operators(&self, n: NodeId) -> &[NodeId] {
        self.operators.get(&n).map_or(&[], Vec::as_slice)
    }

    /// The functions the flow of node `n` may hold, with their contexts.
    pub fn values(&self, n: NodeId) -> &BTreeSet<Function> {
        &self.values[n.index()]
    }

    /// The abstractions and primitives the flow of node `n` may hold (their terms).
    pub fn functions(&self, n: NodeId) -> &BTreeSet<TermId> {
        &self.functions[n.index()]
    }

    /// The abstractions and primitives term `t` may evaluate to, in any context.
    pub fn term_functions(&self, t: TermId) -> &BTreeSet<TermId> {
        self.term_functions.get(t.index()).unwrap_or(&self.empty)
    }

    /// The abstractions and primitives parameter `p` may be bound to, in any context.
    pub fn param_functions(&self, p: ParamId) -> &BTreeSet<TermId> {
        self.param_functions.get(p.index()).unwrap_or(&self.empty)
    }
}

impl Builder<'_> {
    fn node(&mut self, key: Key, c: ContextId, kind: NodeKind) -> (NodeId, bool) {
        if let Some(&n) = self.index.get(&(key, c)) {
            return (n, false);
        }
        let n = self.add_node(kind, c);
        self.index.insert((key, c), n);
        (n, true)
    }

    /// The node of term `t` in context `c`, instantiating the term there when new.
    fn term_node(&mut self, t: TermId, c: ContextId) -> NodeId {
        let (n, new) = self.node(Key::Term(t), c, NodeKind::Term(t));
        if new {
            self.install.push((t, c));
        }
        n
    }

    fn param_node(&mut self, p: ParamId, c: ContextId) -> NodeId {
        self.node(Key::Param(p), c, NodeKind::Param(p)).0
    }

    fn add_node(&mut self, kind: NodeKind, c: ContextId) -> NodeId {
        let id = NodeId(self.kinds.len() as u32);
        self.kinds.push(kind);
        self.contexts_of.push(c);
        self.succs.push(Vec::new());
        self.preds.push(Vec::new());
        self.values.push(BTreeSet::new());
        self.calls_on.push(Vec::new());
        self.counts.push(Counts::none());
        self.count_readers.push(Vec::new());
        self.layout_readers.push(Vec::new());
        self.sources.push(Vec::new());
        self.positions_of.push(Vec::new());
        id
    }

    /// The node of the `index`-th value of node `n`'s term: the node itself for a term that
    /// always gives one value (or in a program without `block`), else a position node.
    fn position(&mut self, n: NodeId, index: u32) -> Option<NodeId> {
        let single = match self.kinds[n.index()] {
            NodeKind::Term(t) => {
                !matches!(self.terms.term(t), Term::App { .. } | Term::Letrec { .. })
            }
            _ => true,
        };
        if single || self.single_values {
            return (index == 0).then_some(n);
        }
        if let Some(&p) = self.positions.get(&(n, index)) {
            return Some(p);
        }
        let c = self.contexts_of[n.index()];
        let p = self.add_node(NodeKind::Position { of: n, index }, c);
        self.positions.insert((n, index), p);
        self.positions_of[n.index()].push(p);
        self.position_work.push(p);
        Some(p)
    }

    /// Records that node `n`'s values come from `source`, and installs it for its positions.
    fn add_source(&mut self, n: NodeId, source: Source) {
        if !self.sources[n.index()].contains(&source) {
            self.sources[n.index()].push(source);
        }
        // Again when known: a layout that changed moves the arguments an `Args` source gives.
        for i in 0..self.positions_of[n.index()].len() {
            let p = self.positions_of[n.index()][i];
            self.install_source(p, source);
        }
    }

    /// Arcs from position node `p` to where `source` gives its value.
    fn install_source(&mut self, p: NodeId, source: Source) {
        let NodeKind::Position { index, .. } = self.kinds[p.index()] else {
            unreachable!("only position nodes take their values from sources")
        };
        let targets: Vec<NodeId> = match source {
            Source::Same(b) => self.position(b, index).into_iter().collect(),
            Source::Args(call) => self.holders(call, index + 1),
            Source::Value(v) => (index == 0).then_some(v).into_iter().collect(),
        };
        for t in targets {
            self.add_arc(p, t);
        }
    }

    /// Installs what instantiating term `t` in context `c` tells at once.
    fn instantiate(&mut self, t: TermId, c: ContextId) {
        let n = self.term_node(t, c);
        match self.terms.term(t) {
            Term::Const(_) => self.add_counts(n, &Counts::exactly(1)),
            Term::Prim(_) => {
                self.add_counts(n, &Counts::exactly(1));
                self.add_function(n, Function::Prim(t));
            }
            Term::Param(p) if is_block(self.terms, *p) => {
                self.add_counts(n, &Counts::exactly(1));
                self.add_function(n, Function::Block(t));
            }
            Term::Param(p) => {
                self.add_counts(n, &Counts::exactly(1));
                let to = self.param_node(*p, c);
                self.add_arc(n, to);
            }
            Term::Lambda { body, .. } => {
                self.add_counts(n, &Counts::exactly(1));
                self.add_function(n, Function::Closure(t, c));
                if self.eager {
                    self.term_node(*body, c);
                }
            }
            Term::App { op, args, .. } => {
                let parts: Vec<TermId> = std::iter::once(*op).chain(args.iter().copied()).collect();
                if !matches!(self.terms.term(*op), Term::Lambda { .. } | Term::Prim(_)) {
                    self.stats.alpha_constraints += 1;
                }
                if self.single_values {
                    self.add_counts(n, &Counts::exactly(1));
                }
                let mut nodes = Vec::with_capacity(parts.len());
                for part in parts {
                    let m = self.term_node(part, c);
                    self.layout_readers[m.index()].push(n);
                    nodes.push(m);
                }
                self.layouts.insert(
                    n,
                    Layout {
                        parts: nodes,
                        starts: Vec::new(),
                        counts: Vec::new(),
                        total: Counts::none(),
                        operators: Vec::new(),
                    },
                );
                // The parts' counts are not known before they are instantiated: the layout is
                // made when they are (`drain` runs the installations first).
                self.count_work.push(n);
            }
            Term::Letrec { bindings, body } => {
                for &(p, bound) in bindings.iter() {
                    let from = self.param_node(p, c);
                    let to = self.term_node(bound, c);
                    self.add_arc(from, to);
                }
                let to = self.term_node(*body, c);
                self.add_arc(n, to);
                self.add_count_arc(n, to);
                self.add_source(n, Source::Same(to));
            }
        }
    }

    /// `count(into) ⊇ count(from)`, now and as it grows.
    fn add_count_arc(&mut self, into: NodeId, from: NodeId) {
        if self.count_readers[from.index()].contains(&into) {
            return;
        }
        self.count_readers[from.index()].push(into);
        let known = self.counts[from.index()].clone();
        self.add_counts(into, &known);
    }

    fn add_counts(&mut self, n: NodeId, counts: &Counts) {
        if self.counts[n.index()].join_from(counts) {
            self.count_work.push(n);
        }
    }

    /// Where application `app`'s operator and arguments are among its parts' values, from the
    /// parts' counts; connects the application again when that changed. An application some
    /// part of which has no count yet is deferred until it has one.
    fn layout(&mut self, app: NodeId) {
        let Some(layout) = self.layouts.get(&app) else {
            return;
        };
        let counts: Vec<Counts> = layout
            .parts
            .iter()
            .map(|p| self.counts[p.index()].clone())
            .collect();
        if counts.iter().any(Counts::is_none) {
            if self.deferred.insert(app) {
                self.stats.deferred += 1;
            }
            return;
        }
        if counts == layout.counts {
            return;
        }
        let mut starts = Vec::with_capacity(counts.len());
        let mut total = Counts::exactly(0);
        for c in &counts {
            starts.push(total.clone());
            total = total.plus(c);
        }
        let parts = layout.parts.clone();
        let operators: Vec<NodeId> = parts
            .iter()
            .zip(starts.iter().zip(&counts))
            .filter(|(_, (s, c))| c.may_hold(s, 0))
            .map(|(&p, _)| p)
            .collect();
        self.layouts.insert(
            app,
            Layout {
                parts,
                starts,
                counts,
                total,
                operators: operators.clone(),
            },
        );
        for op in operators {
            if !self.calls_on[op.index()].contains(&app) {
                self.calls_on[op.index()].push(app);
            }
            let known: Vec<Function> = self.values[op.index()].iter().copied().collect();
            for f in known {
                self.connect(app, f);
            }
        }
    }

    /// Instantiates the terms waiting, pushes newly found functions along the arcs into their
    /// nodes, discharges the α constraints of the applications whose operator they reach, and
    /// passes on grown counts, until nothing is left to do.
    fn drain(&mut self) {
        loop {
            if let Some((t, c)) = self.install.pop() {
                self.instantiate(t, c);
                continue;
            }
            if let Some(p) = self.position_work.pop() {
                let NodeKind::Position { of, .. } = self.kinds[p.index()] else {
                    unreachable!("only position nodes wait for their sources")
                };
                for i in 0..self.sources[of.index()].len() {
                    let source = self.sources[of.index()][i];
                    self.install_source(p, source);
                }
                continue;
            }
            if let Some((n, f)) = self.work.pop() {
                for i in 0..self.preds[n.index()].len() {
                    let from = self.preds[n.index()][i];
                    self.stats.propagations += 1;
                    self.add_function(from, f);
                }
                for i in 0..self.calls_on[n.index()].len() {
                    let app = self.calls_on[n.index()][i];
                    self.connect(app, f);
                }
                continue;
            }
            let Some(n) = self.count_work.pop() else {
                return;
            };
            for i in 0..self.count_readers[n.index()].len() {
                let into = self.count_readers[n.index()][i];
                let counts = self.counts[n.index()].clone();
                self.add_counts(into, &counts);
            }
            if matches!(self.kinds[n.index()], NodeKind::Term(t) if matches!(self.terms.term(t), Term::App { .. }))
            {
                self.layout(n);
            }
            for i in 0..self.layout_readers[n.index()].len() {
                let app = self.layout_readers[n.index()][i];
                self.layout(app);
            }
        }
    }

    /// Application node `app` may call function `f`: install what that means.
    fn connect(&mut self, app: NodeId, f: Function) {
        let Some(layout) = self.layouts.get(&app) else {
            return;
        };
        if layout.starts.is_empty() {
            return;
        }
        let arguments = layout.total.rest();
        let c = self.contexts_of[app.index()];
        let NodeKind::Term(app_term) = self.kinds[app.index()] else {
            unreachable!("only applications are laid out")
        };
        let Term::App { label, .. } = self.terms.term(app_term) else {
            unreachable!("only applications are laid out")
        };
        let label = *label;
        match f {
            Function::Closure(lambda, made_in) => {
                let params = lambda_arguments(self.terms, lambda).to_vec();
                if !arguments.may(params.len() as u32) {
                    return;
                }
                let Term::Lambda { body, .. } = self.terms.term(lambda) else {
                    unreachable!("a closure's term is an abstraction")
                };
                let body = *body;
                let entered = self.contexts.push(label, c);
                for (i, &p) in params.iter().enumerate() {
                    let from = self.param_node(p, entered);
                    for part in self.holders(app, i as u32 + 1) {
                        self.add_arc(from, part);
                    }
                }
                let to = self.term_node(body, entered);
                self.add_arc(app, to);
                self.add_count_arc(app, to);
                self.add_source(app, Source::Same(to));
                for y in self.captures_of(lambda) {
                    let from = self.param_node(y, entered);
                    let to = self.param_node(y, made_in);
                    self.add_arc(from, to);
                }
                if let Some(exit) = exit_of(self.terms, lambda) {
                    let name = self.param_node(exit, entered);
                    self.add_function(name, Function::Exit(lambda, entered));
                    self.entries
                        .entry((lambda, entered))
                        .or_default()
                        .insert(app);
                    let calls: Vec<NodeId> = self
                        .exit_calls
                        .get(&(lambda, entered))
                        .map(|s| s.iter().copied().collect())
                        .unwrap_or_default();
                    for call in calls {
                        self.link_exit(app, call);
                    }
                }
            }
            Function::Prim(t) => {
                let Term::Prim(prim) = *self.terms.term(t) else {
                    unreachable!("a primitive's term is a primitive")
                };
                if !arguments.may(prim.arity() as u32) {
                    return;
                }
                self.add_counts(app, &Counts::exactly(1));
                // One surrogate per way of taking the arguments from the parts (one, unless
                // parts of several counts leave it open).
                let mut choices: Vec<Vec<NodeId>> = vec![Vec::new()];
                for i in 0..prim.arity() {
                    let holders = self.holders(app, i as u32 + 1);
                    choices = choices
                        .into_iter()
                        .flat_map(|prefix| {
                            holders.iter().map(move |&h| {
                                let mut next = prefix.clone();
                                next.push(h);
                                next
                            })
                        })
                        .collect();
                }
                for args in choices {
                    self.surrogate(app, app_term, prim, args);
                }
            }
            Function::Block(_) => {
                self.add_counts(app, &arguments);
                self.add_source(app, Source::Args(app));
                for part in self.argument_parts(app) {
                    self.add_arc(app, part);
                }
            }
            Function::Exit(lambda, entered) => {
                self.exit_calls
                    .entry((lambda, entered))
                    .or_default()
                    .insert(app);
                let entries: Vec<NodeId> = self
                    .entries
                    .get(&(lambda, entered))
                    .map(|s| s.iter().copied().collect())
                    .unwrap_or_default();
                for entry in entries {
                    self.link_exit(entry, app);
                }
            }
        }
    }

    /// Exit call `call` returns from application `entry`: what it passes are `entry`'s values.
    fn link_exit(&mut self, entry: NodeId, call: NodeId) {
        let Some(layout) = self.layouts.get(&call) else {
            return;
        };
        let passed = layout.total.rest();
        self.add_counts(entry, &passed);
        self.add_source(entry, Source::Args(call));
        for part in self.argument_parts(call) {
            self.add_arc(entry, part);
        }
    }

    fn surrogate(&mut self, app: NodeId, app_term: TermId, prim: Prim, args: Vec<NodeId>) {
        let args: Box<[NodeId]> = args.into();
        if !self.surrogates.insert((app, prim, args.clone())) {
            return;
        }
        let terms: Box<[Option<TermId>]> = args
            .iter()
            .map(|&a| match self.kinds[a.index()] {
                NodeKind::Term(t) => Some(t),
                NodeKind::Position { .. } => None,
                _ => unreachable!("an application's arguments are terms or their values"),
            })
            .collect();
        let c = self.contexts_of[app.index()];
        let s = self.add_node(
            NodeKind::Surrogate {
                prim,
                app: app_term,
                args: args.clone(),
                terms,
            },
            c,
        );
        if prim == Prim::Cond {
            // `cond` returns one of its branches, functions included.
            for &a in &args[1..] {
                self.add_arc(s, a);
            }
        }
        self.add_arc(app, s);
        self.add_source(app, Source::Value(s));
    }

    /// The nodes of the values application `app` may have at position `j` (the operator is
    /// position 0): of the parts that may hold it, the value at the offset into the part when it
    /// is known, else the part's whole flow.
    fn holders(&mut self, app: NodeId, j: u32) -> Vec<NodeId> {
        let Some(layout) = self.layouts.get(&app) else {
            return Vec::new();
        };
        let mut found: Vec<(NodeId, Option<Vec<u32>>)> = Vec::new();
        for (&part, (starts, counts)) in layout
            .parts
            .iter()
            .zip(layout.starts.iter().zip(&layout.counts))
        {
            if !counts.may_hold(starts, j) {
                continue;
            }
            let offsets = match (starts, counts) {
                (Counts::Some(ss), Counts::Some(cs)) => Some(
                    ss.iter()
                        .filter(|&&s| s <= j && cs.iter().any(|&c| j < s + c))
                        .map(|&s| j - s)
                        .collect(),
                ),
                _ => None,
            };
            found.push((part, offsets));
        }
        let mut out = Vec::new();
        for (part, offsets) in found {
            match offsets {
                Some(offsets) => {
                    for o in offsets {
                        out.extend(self.position(part, o));
                    }
                }
                None => out.push(part),
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// The parts of application `app` that may hold some argument (a position after 0).
    fn argument_parts(&self, app: NodeId) -> Vec<NodeId> {
        let Some(layout) = self.layouts.get(&app) else {
            return Vec::new();
        };
        layout
            .parts
            .iter()
            .zip(layout.starts.iter().zip(&layout.counts))
            .filter(|(_, (s, c))| match (s, c) {
                // Some value of the part lands after the first position.
                (Counts::Some(ss), Counts::Some(cs)) => {
                    ss.iter().any(|&x| cs.iter().any(|&n| n >= 1 && x + n >= 2))
                }
                (_, Counts::Any) => true,
                (Counts::Any, Counts::Some(cs)) => cs.iter().any(|&n| n >= 1),
            })
            .map(|(&p, _)| p)
            .collect()
    }

    /// The names abstraction `lambda` reads from outside it (its captures, exit names
    /// included).
    fn captures_of(&mut self, lambda: TermId) -> Vec<ParamId> {
        if let Some(c) = self.captures.get(&lambda) {
            return c.clone();
        }
        let mut free = BTreeSet::new();
        let mut bound = BTreeSet::new();
        let mut stack = vec![lambda];
        while let Some(u) = stack.pop() {
            match self.terms.term(u) {
                Term::Const(_) | Term::Prim(_) => {}
                Term::Param(p) => {
                    free.insert(*p);
                }
                Term::Lambda { params, body } => {
                    bound.extend(params.iter().copied());
                    stack.push(*body);
                }
                Term::App { op, args, .. } => {
                    stack.push(*op);
                    stack.extend(args.iter().copied());
                }
                Term::Letrec { bindings, body } => {
                    for &(p, b) in bindings.iter() {
                        bound.insert(p);
                        stack.push(b);
                    }
                    stack.push(*body);
                }
            }
        }
        // Names are bound once, so what is bound inside is never free outside; free inputs and
        // `block` have one flow in every context and need no copy.
        let captures: Vec<ParamId> = free
            .difference(&bound)
            .copied()
            .filter(|&p| self.terms.params[p.index()].binder != absinthe::terms::Binder::Free)
            .collect();
        self.captures.insert(lambda, captures.clone());
        captures
    }

    /// Installs `from → to` (once) and passes on what `to` already holds.
    fn add_arc(&mut self, from: NodeId, to: NodeId) {
        if from == to || !self.arcs.insert((from.0, to.0)) {
            return;
        }
        self.stats.arcs += 1;
        self.succs[from.index()].push(to);
        self.preds[to.index()].push(from);
        let known: Vec<Function> = self.values[to.index()].iter().copied().collect();
        for f in known {
            self.stats.propagations += 1;
            self.add_function(from, f);
        }
    }

    fn add_function(&mut self, n: NodeId, f: Function) {
        if self.values[n.index()].insert(f) {
            self.work.push((n, f));
        }
    }

    fn finish(self) -> BehaviorGraph {
        let mut term_nodes = vec![Vec::new(); self.terms.terms.len()];
        let mut param_nodes = vec![Vec::new(); self.terms.params.len()];
        for (&(key, c), &n) in &self.index {
            match key {
                Key::Term(t) => term_nodes[t.index()].push((c, n)),
                Key::Param(p) => param_nodes[p.index()].push((c, n)),
            }
        }
        let functions: Vec<BTreeSet<TermId>> = self
            .values
            .iter()
            .map(|fs| {
                fs.iter()
                    .filter(|f| !matches!(f, Function::Exit(..)))
                    .map(|f| f.term())
                    .collect()
            })
            .collect();
        let union = |nodes: &Vec<(ContextId, NodeId)>| -> BTreeSet<TermId> {
            nodes
                .iter()
                .flat_map(|&(_, n)| functions[n.index()].iter().copied())
                .collect()
        };
        let term_functions = term_nodes.iter().map(union).collect();
        let operators = self
            .layouts
            .iter()
            .map(|(&app, layout)| (app, layout.operators.clone()))
            .collect();
        let param_functions = param_nodes.iter().map(union).collect();
        BehaviorGraph {
            kinds: self.kinds,
            contexts_of: self.contexts_of,
            succs: self.succs,
            values: self.values,
            functions,
            term_nodes,
            param_nodes,
            term_functions,
            param_functions,
            contexts: self.contexts,
            counts: self.counts,
            operators,
            empty: BTreeSet::new(),
            stats: self.stats,
        }
    }
}
