//! Phase II: tasks traced over a built behavior graph.
//!
//! A task says what constants (`V^task`) and primitives (`F_p^task`) mean in its lattice; the
//! graph says everything else. A flow node's value is the join of the values of its arcs'
//! targets, a surrogate's is `F_p` of its arguments, a free name's is top, and abstractions are
//! not values of the task's lattice at all: the flows that may hold them are reported by the
//! seed's rule, `Φ_x1 × … → Φ_B` over the task's values of the parameters and the body
//! ([`TaskSolution::render`]). Every node is a flow in one call context, so a task is traced per
//! context; [`TaskSolution::term_value`] and [`TaskSolution::param_value`] join the contexts. Values are computed as the least fixpoint of these equations by
//! chaotic iteration (widening a node after [`WIDEN_AFTER`] changes), which is what tracing
//! every non-cyclic path computes for the distributive tasks of the seed.

use super::extend::{is_free, lambda_arguments};
use super::graph::{BehaviorGraph, NodeId, NodeKind};
use absinthe::lattice::{Lattice, Top};
use absinthe::terms::{Arg, ArgKind, ParamId, Prim, Term, TermId, Terms};
use absinthe::value::ValueDomain;
use std::collections::BTreeSet;
use std::fmt;
use std::marker::PhantomData;

/// Changes of one node's value before it is widened.
pub const WIDEN_AFTER: u32 = 8;

/// A phase-II task: a lattice, `V^task` and `F_p^task`.
///
/// Implemented for every value domain by [`DomainTask`], so every analysis declared with
/// attributes or in a `.dom` file (`analysis … { engine behavior_graph; }`) is a task.
pub trait Task {
    /// The task's abstract values.
    type Value: Lattice + Top + fmt::Display;

    /// `V^task`: the value of an integer constant.
    fn constant(&self, c: i64) -> Self::Value;

    /// `F_p^task`: the value of primitive `prim` applied to `args` (as many as its arity).
    fn prim(&self, prim: Prim, args: &[Arg<'_, Self::Value>]) -> Self::Value;

    /// For soundness checks: whether a concrete integer (a boolean as 0 or 1) lies in `value`.
    fn contains(&self, value: &Self::Value, concrete: i64) -> bool;

    /// The value of a bound name's flow, from the join `bound` of what it is bound to. The
    /// identity by default; tasks about names themselves (which parameters a value depends on,
    /// which are demanded) add the name.
    fn param(&self, param: ParamId, bound: &Self::Value) -> Self::Value {
        let _ = param;
        bound.clone()
    }

    /// The value of an abstraction or a primitive as a term (what evaluating it gives in this
    /// task's lattice; the functions themselves are reported through the control-flow facts).
    /// Bottom by default.
    fn function(&self) -> Self::Value {
        Self::Value::bottom()
    }

    /// The value of an application whose operator is not known in the text, from the value of
    /// its operator's flow and the join `result` of what the functions it may call return. The
    /// result by default; a task in which calling depends on the operator adds it.
    fn app(&self, operator: &Self::Value, result: &Self::Value) -> Self::Value {
        let _ = operator;
        result.clone()
    }
}

/// Any value domain as a task: constants by [`ValueDomain::constant`], arithmetic and
/// comparisons by [`ValueDomain::term_binary`] (booleans are 0 and 1), `cond` by
/// [`ValueDomain::term_cond`] (the join of its branches unless the domain says otherwise), and
/// the hooks by the domain's `term_param`, `term_apply` and `term_function`. Declared domains
/// override these from their `.dom` rules (`on param`, `on apply`, `on function`, `on cond`, and
/// rules reading `ArgKind`s), so the seed's tasks are declarations.
#[derive(Debug)]
pub struct DomainTask<D>(PhantomData<fn() -> D>);

impl<D> DomainTask<D> {
    /// The task of domain `D`.
    pub fn new() -> DomainTask<D> {
        DomainTask(PhantomData)
    }
}

impl<D> Default for DomainTask<D> {
    fn default() -> DomainTask<D> {
        DomainTask::new()
    }
}

impl<D: ValueDomain> Task for DomainTask<D> {
    type Value = D;

    fn constant(&self, c: i64) -> D {
        D::constant(c)
    }

    fn prim(&self, prim: Prim, args: &[Arg<'_, D>]) -> D {
        match (prim, args) {
            (Prim::Op(op), [a, b]) => D::term_binary(op, a, b),
            (Prim::Cond, [p, a, b]) => D::term_cond(p.value, a.value, b.value),
            _ => D::top(),
        }
    }

    fn contains(&self, value: &D, concrete: i64) -> bool {
        value.contains(concrete)
    }

    fn param(&self, param: ParamId, bound: &D) -> D {
        D::term_param(param, bound)
    }

    fn function(&self) -> D {
        D::term_function()
    }

    fn app(&self, operator: &D, result: &D) -> D {
        D::term_apply(operator, result)
    }
}

/// The values of a task at every node of a behavior graph.
#[derive(Clone, Debug)]
pub struct TaskSolution<V> {
    values: Vec<V>,
    /// Node evaluations made.
    pub evaluations: u64,
}

/// Runs `task` over `graph` (built from `terms`).
pub fn run_task<T: Task>(terms: &Terms, graph: &BehaviorGraph, task: &T) -> TaskSolution<T::Value> {
    let n = graph.node_count();
    // Who reads each node: arcs into it, and surrogates taking it as an argument.
    let mut readers: Vec<Vec<NodeId>> = vec![Vec::new(); n];
    for i in 0..n {
        let node = NodeId(i as u32);
        match graph.kind(node) {
            NodeKind::Surrogate { args, .. } => {
                for &a in args.iter() {
                    readers[a.index()].push(node);
                }
            }
            NodeKind::Term(_) | NodeKind::Param(_) | NodeKind::Position { .. } => {
                for &s in graph.successors(node) {
                    readers[s.index()].push(node);
                }
                // An application with an operator not known in the text reads the operator's
                // flow too.
                for &o in graph.operators(node) {
                    readers[o.index()].push(node);
                }
            }
        }
    }
    let mut values = vec![T::Value::bottom(); n];
    let mut changes = vec![0u32; n];
    // The stack starts with every node, the highest id on top: nodes are made as terms are
    // instantiated, a term before its subterms, so subterms are evaluated before the terms that
    // read them.
    let mut queued = vec![true; n];
    let mut work: Vec<NodeId> = (0..n as u32).map(NodeId).collect();
    let mut evaluations = 0u64;
    while let Some(node) = work.pop() {
        queued[node.index()] = false;
        evaluations += 1;
        let new = evaluate(terms, graph, task, &values, node);
        let old = &values[node.index()];
        if new.leq(old) {
            continue;
        }
        changes[node.index()] += 1;
        let joined = old.join(&new);
        values[node.index()] = if changes[node.index()] > WIDEN_AFTER {
            old.widen(&joined)
        } else {
            joined
        };
        for &r in &readers[node.index()] {
            if !queued[r.index()] {
                queued[r.index()] = true;
                work.push(r);
            }
        }
    }
    TaskSolution {
        values,
        evaluations,
    }
}

fn evaluate<T: Task>(
    terms: &Terms,
    graph: &BehaviorGraph,
    task: &T,
    values: &[T::Value],
    node: NodeId,
) -> T::Value {
    match graph.kind(node) {
        NodeKind::Term(t) => match terms.term(*t) {
            Term::Const(c) => task.constant(*c),
            // Functions are reported through the control-flow facts, not the task's lattice.
            Term::Lambda { .. } | Term::Prim(_) => task.function(),
            Term::App { op, .. }
                if !matches!(terms.term(*op), Term::Lambda { .. } | Term::Prim(_)) =>
            {
                let result = join_successors(graph, values, node);
                let operator = graph
                    .operators(node)
                    .iter()
                    .fold(T::Value::bottom(), |acc, o| acc.join(&values[o.index()]));
                task.app(&operator, &result)
            }
            _ => join_successors(graph, values, node),
        },
        NodeKind::Position { .. } => join_successors(graph, values, node),
        NodeKind::Param(p) if is_free(terms, *p) => T::Value::top(),
        NodeKind::Param(p) => task.param(*p, &join_successors(graph, values, node)),
        NodeKind::Surrogate {
            prim,
            args,
            terms: arg_terms,
            ..
        } => {
            let args: Vec<Arg<'_, T::Value>> = args
                .iter()
                .zip(arg_terms.iter())
                .map(|(&a, &t)| Arg {
                    kind: match t.map(|t| terms.term(t)) {
                        Some(Term::Param(p)) => ArgKind::Param(*p),
                        Some(Term::Const(c)) => ArgKind::Const(*c),
                        _ => ArgKind::Other,
                    },
                    value: &values[a.index()],
                })
                .collect();
            task.prim(*prim, &args)
        }
    }
}

fn join_successors<V: Lattice>(graph: &BehaviorGraph, values: &[V], node: NodeId) -> V {
    graph
        .successors(node)
        .iter()
        .fold(V::bottom(), |acc, s| acc.join(&values[s.index()]))
}

impl<V: Lattice + fmt::Display> TaskSolution<V> {
    /// The task's value at node `n` (abstractions left out).
    pub fn value(&self, n: NodeId) -> &V {
        &self.values[n.index()]
    }

    /// The task's value of term `t` joined over the contexts it is evaluated in.
    pub fn term_value(&self, graph: &BehaviorGraph, t: TermId) -> V {
        self.join(graph.term_nodes(t).iter().map(|&(_, n)| n))
    }

    /// The task's value of parameter `p` joined over the contexts it is bound in.
    pub fn param_value(&self, graph: &BehaviorGraph, p: ParamId) -> V {
        self.join(graph.param_nodes(p).iter().map(|&(_, n)| n))
    }

    fn join(&self, nodes: impl Iterator<Item = NodeId>) -> V {
        nodes.fold(V::bottom(), |acc, n| acc.join(&self.values[n.index()]))
    }

    /// Renders the join of several nodes' flows (a flow over its contexts, a β flow over the
    /// bodies), as [`TaskSolution::render`] renders one.
    pub fn render_joined(
        &self,
        terms: &Terms,
        graph: &BehaviorGraph,
        nodes: &[NodeId],
        depth: usize,
    ) -> String {
        let value = self.join(nodes.iter().copied());
        let functions: BTreeSet<TermId> = nodes
            .iter()
            .flat_map(|&n| graph.functions(n).iter().copied())
            .collect();
        self.show(terms, graph, &value, &functions, depth)
    }

    /// The value of the flow of node `n` as the seed writes it: the task's value, the functions
    /// it may hold as `Φ_x1 × … → Φ_B` (parameters and bodies joined over the abstractions,
    /// primitives by name), both joined with `|`, `⊥` for neither. Arrows nest up to
    /// `depth` levels (`…` beyond).
    pub fn render(&self, terms: &Terms, graph: &BehaviorGraph, n: NodeId, depth: usize) -> String {
        self.show(
            terms,
            graph,
            &self.values[n.index()],
            graph.functions(n),
            depth,
        )
    }

    fn show(
        &self,
        terms: &Terms,
        graph: &BehaviorGraph,
        value: &V,
        functions: &BTreeSet<TermId>,
        depth: usize,
    ) -> String {
        let mut parts = Vec::new();
        if !value.is_bottom() {
            parts.push(value.to_string());
        }
        if !functions.is_empty() {
            parts.push(self.arrow(terms, graph, functions, depth));
        }
        if parts.is_empty() {
            "⊥".to_owned()
        } else {
            parts.join(" | ")
        }
    }

    fn arrow(
        &self,
        terms: &Terms,
        graph: &BehaviorGraph,
        functions: &BTreeSet<TermId>,
        depth: usize,
    ) -> String {
        if depth == 0 {
            return "…".to_owned();
        }
        let mut arrows = Vec::new();
        // Abstractions grouped by arity: parameters and bodies joined position by position.
        let mut by_arity: std::collections::BTreeMap<usize, Vec<TermId>> = Default::default();
        for &f in functions {
            match terms.term(f) {
                Term::Lambda { .. } => by_arity
                    .entry(lambda_arguments(terms, f).len())
                    .or_default()
                    .push(f),
                Term::Prim(p) => arrows.push(format!("prim {p}")),
                Term::Param(_) => arrows.push("prim block".to_owned()),
                _ => {}
            }
        }
        for (arity, lambdas) in by_arity {
            let mut params: Vec<(V, BTreeSet<TermId>)> =
                vec![(V::bottom(), BTreeSet::new()); arity];
            let mut body = (V::bottom(), BTreeSet::new());
            for &l in &lambdas {
                let Term::Lambda { body: b, .. } = terms.term(l) else {
                    unreachable!("grouped as an abstraction")
                };
                for (slot, &p) in params.iter_mut().zip(lambda_arguments(terms, l)) {
                    for &(_, node) in graph.param_nodes(p) {
                        slot.0 = slot.0.join(&self.values[node.index()]);
                        slot.1.extend(graph.functions(node).iter().copied());
                    }
                }
                for &(_, node) in graph.term_nodes(*b) {
                    body.0 = body.0.join(&self.values[node.index()]);
                    body.1.extend(graph.functions(node).iter().copied());
                }
            }
            let show = |(v, fs): &(V, BTreeSet<TermId>)| {
                let mut parts = Vec::new();
                if !v.is_bottom() {
                    parts.push(v.to_string());
                }
                if !fs.is_empty() {
                    parts.push(format!("({})", self.arrow(terms, graph, fs, depth - 1)));
                }
                if parts.is_empty() {
                    "⊥".to_owned()
                } else {
                    parts.join(" | ")
                }
            };
            let ps: Vec<String> = params.iter().map(show).collect();
            let inputs = if ps.is_empty() {
                "()".to_owned()
            } else {
                ps.join(" × ")
            };
            arrows.push(format!("{inputs} → {}", show(&body)));
        }
        arrows.join(" | ")
    }
}
