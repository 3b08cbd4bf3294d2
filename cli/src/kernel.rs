//! Kernel terms (`.kt`) on the command line: builds the behavior graph with the analysis's
//! context abstraction (declared, or `--context`), runs the chosen task over it (or reports the
//! control-flow facts for `cfa`), and prints one line per flow in the seed's notation, then one
//! per flow and context (`Φ_x^⟨3⟩`) when contexts are told apart.

use crate::analyses::{Analysis, ForDomain, KernelReport};
use crate::args::{ContextArg, VerifyArgs};
use crate::driver::{Format, Report};
use absinthe::spec::ContextPolicy;
use absinthe::terms::{Term, TermId, Terms};
use absinthe::value::ValueDomain;
use absinthe_behavior::{BehaviorGraph, ContextId, Counts, DomainTask, Function, NodeId, run_task};
use serde_json::json;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::ExitCode;

/// Whether `path` names a kernel-terms file.
pub fn is_kernel_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "kt")
}

/// A flow to report: how the seed names it and its node.
#[derive(Clone, Debug)]
pub struct Flow {
    /// `ϕ_3`, `Φ_x`, `β(Φ_f)`.
    pub name: String,
    /// The nodes whose values it joins (one, or the bodies for a β flow).
    pub nodes: Vec<NodeId>,
}

/// The flows reported for `terms`: every application by label, every name (inputs marked), and
/// `β(Φ_f)` for every name in operator position (the bodies of what it may call); each over
/// every context, then, when it is a flow in more than one, in each (`ϕ_2^⟨1⟩`).
pub fn flows(terms: &Terms, graph: &BehaviorGraph) -> Vec<Flow> {
    let mut apps: Vec<(u32, TermId)> = terms
        .terms
        .iter()
        .enumerate()
        .filter_map(|(i, t)| match t {
            Term::App { label, .. } => Some((*label, TermId(i as u32))),
            _ => None,
        })
        .collect();
    apps.sort();
    let mut out: Vec<Flow> = Vec::new();
    let push = |out: &mut Vec<Flow>, name: &str, suffix: &str, nodes: &[(ContextId, NodeId)]| {
        out.push(Flow {
            name: format!("{name}{suffix}"),
            nodes: nodes.iter().map(|&(_, n)| n).collect(),
        });
        if nodes.len() < 2 {
            return;
        }
        for &(c, n) in nodes {
            out.push(Flow {
                name: format!("{name}^{}{suffix}", graph.contexts().display(c)),
                nodes: vec![n],
            });
        }
    };
    for &(label, t) in &apps {
        push(&mut out, &format!("ϕ_{label}"), "", graph.term_nodes(t));
    }
    let mut operators = BTreeSet::new();
    for t in &terms.terms {
        if let Term::App { op, .. } = t
            && let Term::Param(p) = terms.term(*op)
            && !absinthe_behavior::extend::is_block(terms, *p)
            && !absinthe_behavior::extend::is_exit_name(terms.param_name(*p))
        {
            operators.insert(*p);
        }
    }
    for (i, param) in terms.params.iter().enumerate() {
        let p = absinthe::terms::ParamId(i as u32);
        if absinthe_behavior::extend::is_block(terms, p) {
            continue;
        }
        let input = if param.binder == absinthe::terms::Binder::Free {
            " (input)"
        } else {
            ""
        };
        push(
            &mut out,
            &format!("Φ_{}", param.name),
            input,
            graph.param_nodes(p),
        );
    }
    for p in operators {
        let bodies: Vec<NodeId> = graph
            .param_functions(p)
            .iter()
            .filter_map(|&f| match terms.term(f) {
                Term::Lambda { body, .. } => Some(graph.term_nodes(*body)),
                _ => None,
            })
            .flatten()
            .map(|&(_, n)| n)
            .collect();
        out.push(Flow {
            name: format!("β(Φ_{})", terms.param_name(p)),
            nodes: bodies,
        });
    }
    out
}

/// The functions the flows of `nodes` may hold, named: `λx`, a primitive's symbol, `block`,
/// `exit(λ^k,x)` for an exit function.
pub fn function_names(terms: &Terms, graph: &BehaviorGraph, nodes: &[NodeId]) -> Vec<String> {
    let names: BTreeSet<String> = nodes
        .iter()
        .flat_map(|&n| graph.values(n).iter())
        .map(|&f| match f {
            Function::Exit(l, _) => format!("exit({})", function_name(terms, l)),
            other => function_name(terms, other.term()),
        })
        .collect();
    names.into_iter().collect()
}

/// How many values the terms of `nodes` may give together, written after a flow's value when it
/// is not one: ` · void`, ` · 2 values`.
fn counts_note(graph: &BehaviorGraph, nodes: &[NodeId]) -> String {
    let mut counts = Counts::none();
    for &n in nodes {
        if matches!(graph.kind(n), absinthe_behavior::NodeKind::Term(_)) {
            counts.join_from(graph.counts(n));
        }
    }
    if counts.is_none() || counts == Counts::exactly(1) {
        String::new()
    } else {
        format!(" · {counts}")
    }
}

/// The number of call sites the behavior graph tells contexts apart by under `policy`.
pub fn call_sites(policy: ContextPolicy) -> Result<usize, String> {
    match policy {
        ContextPolicy::Insensitive => Ok(0),
        ContextPolicy::CallStrings(k) => Ok(k),
        ContextPolicy::Functional { .. } => Err(format!(
            "the behavior graph tells contexts apart by call strings (`insensitive` or \
             `kcfa=K`), not by abstract inputs (`{policy}`)\n"
        )),
    }
}

/// How a function value is named: `λx`, `λx,y`, or a primitive's symbol.
pub fn function_name(terms: &Terms, f: TermId) -> String {
    match terms.term(f) {
        Term::Lambda { params, .. } => {
            let names: Vec<&str> = params.iter().map(|&p| terms.param_name(p)).collect();
            if names.is_empty() {
                "λ()".to_owned()
            } else {
                format!("λ{}", names.join(","))
            }
        }
        Term::Prim(p) => p.to_string(),
        Term::Param(p) if absinthe_behavior::extend::is_block(terms, *p) => "block".to_owned(),
        other => unreachable!(
            "a function value comes from an abstraction, a primitive or `block`, not {other:?}"
        ),
    }
}

/// Which engine analyzes kernel terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelEngine {
    /// The behavior graph (flow-insensitive 0-CFA, one pass per task).
    BehaviorGraph,
    /// Closure conversion to the core IR, then the interprocedural flow engine.
    Flow(ContextPolicy),
}

/// Analyzes a kernel program with `analysis` and renders one line per flow, with the context
/// abstraction the analysis declares.
pub fn run<A: Analysis>(
    file: &str,
    text: &str,
    analysis: A,
    engine: KernelEngine,
    format: Format,
) -> Result<Report, String> {
    run_in_context(file, text, analysis, engine, None, format)
}

/// [`run`], with `context` (the command line's `--context`) in place of the declared context
/// abstraction on the behavior graph; the report notes when it overrides the declaration.
pub fn run_in_context<A: Analysis>(
    file: &str,
    text: &str,
    analysis: A,
    engine: KernelEngine,
    context: Option<ContextPolicy>,
    format: Format,
) -> Result<Report, String> {
    let terms = absinthe_ir::kernel::parse_terms(file, text)
        .map_err(|errors| absinthe_ir::error::render_errors(&errors))?;
    if let KernelEngine::Flow(policy) = engine {
        let graph = BehaviorGraph::build(&terms);
        if analysis.kernel_only() {
            return Err(format!(
                "`{analysis}` reports on the behavior graph (its flows and parameters); use \
                 `--engine behavior-graph`\n"
            ));
        }
        return flow_report(&terms, &graph, analysis, policy, format);
    }
    let declared = analysis.spec().context;
    let policy = context.unwrap_or(declared);
    let k = call_sites(policy)?;
    let graph = BehaviorGraph::build_with_contexts(&terms, k);
    let mut header = String::new();
    header.push_str(&format!(
        "# analysis: {analysis} (behavior graph: {} nodes, {} arcs, {} α constraints",
        graph.node_count(),
        graph.stats.arcs,
        graph.stats.alpha_constraints
    ));
    if k > 0 {
        header.push_str(&format!(
            "; contexts: {policy}, {} met",
            graph.contexts().len()
        ));
    }
    if graph.stats.deferred > 0 && absinthe_ir::kernel::uses_extensions(&terms) {
        header.push_str(&format!("; {} applications deferred", graph.stats.deferred));
    }
    header.push(')');
    // Under the header, where the command line's `# ran:` line goes above it.
    if let Some(flag) = context
        && flag != declared
    {
        header.push_str(&format!(
            "\n# note: --context {flag} overrides the context `{analysis}` declares ({declared})"
        ));
    }
    let lines: Vec<(String, String)> = if analysis.kernel_report() == KernelReport::Induction {
        induction_lines(&terms, &graph)
    } else if analysis.kernel_report() == KernelReport::Useless {
        useless_lines(&terms, &graph)
    } else if analysis.kernel_report() == KernelReport::Strict {
        strict_lines(&terms, &graph)
    } else if analysis.kernel_only() {
        flows(&terms, &graph)
            .into_iter()
            .map(|flow| {
                let names = function_names(&terms, &graph, &flow.nodes);
                let note = counts_note(&graph, &flow.nodes);
                (flow.name, format!("{{{}}}{note}", names.join(", ")))
            })
            .collect()
    } else {
        struct Trace<'a> {
            terms: &'a Terms,
            graph: &'a BehaviorGraph,
        }
        impl ForDomain for Trace<'_> {
            type Output = Vec<(String, String)>;
            fn run<D: ValueDomain>(self) -> Vec<(String, String)> {
                task_lines(self.terms, self.graph, &DomainTask::<D>::new())
            }
        }
        analysis.dispatch(Trace {
            terms: &terms,
            graph: &graph,
        })
    };
    let graph_size = json!({ "nodes": graph.node_count(), "arcs": graph.stats.arcs });
    let output = render(
        &header,
        analysis,
        "behavior_graph",
        &lines,
        format,
        graph_size,
    );
    Ok(Report {
        output,
        stable: true,
        warnings: Vec::new(),
        fell_back: None,
    })
}

/// Closure-converts `terms` and runs `analysis` across the functions of the result; reports the
/// same flows as the behavior graph does, each read at its term's home (a name's flow at the
/// entry of its function, a term's after the statement that computes it).
fn flow_report<A: Analysis>(
    terms: &Terms,
    graph: &BehaviorGraph,
    analysis: A,
    policy: ContextPolicy,
    format: Format,
) -> Result<Report, String> {
    use absinthe::program::{BlockId, FuncId};
    use absinthe_interproc::{InterprocLimits, solve_module};
    let lowered = absinthe_ir::kernel::lower(terms)
        .map_err(|why| format!("`--engine flow`: {why}; the behavior graph takes them\n"))?;
    struct Flowing<'a, A: Analysis> {
        terms: &'a Terms,
        graph: &'a BehaviorGraph,
        lowered: &'a absinthe_ir::kernel::Lowered,
        analysis: A,
        policy: ContextPolicy,
    }
    impl<A: Analysis> ForDomain for Flowing<'_, A> {
        type Output = (Vec<(String, String)>, bool);
        fn run<D: ValueDomain>(self) -> (Vec<(String, String)>, bool) {
            let module = &self.lowered.module;
            let s = solve_module::<absinthe_ir::Module, D>(
                module,
                Some(FuncId::new(0)),
                self.analysis.conditional(),
                self.policy,
                &InterprocLimits::default(),
            );
            let block = BlockId::new(0);
            let read = |home: Option<(FuncId, absinthe::program::NameId)>, at_entry: bool| {
                home.map_or_else(
                    || "⊥".to_owned(),
                    |(f, n)| {
                        let env = if at_entry {
                            s.entry_state(f, block)
                        } else {
                            s.exit_state(f, block)
                        };
                        crate::render::value_text(&env.get(n), module)
                    },
                )
            };
            let lines = flows(self.terms, self.graph)
                .into_iter()
                .filter(|flow| !flow.name.starts_with('β'))
                .map(|flow| {
                    let value = match self.graph.kind(flow.nodes[0]) {
                        absinthe_behavior::NodeKind::Term(t) => {
                            read(self.lowered.homes[t.index()], false)
                        }
                        absinthe_behavior::NodeKind::Param(p) => {
                            read(self.lowered.param_homes[p.index()], true)
                        }
                        absinthe_behavior::NodeKind::Surrogate { .. }
                        | absinthe_behavior::NodeKind::Position { .. } => {
                            unreachable!("a reported flow is a term's or a name's")
                        }
                    };
                    (flow.name, value)
                })
                .collect();
            (lines, s.stop().is_stable())
        }
    }
    let (lines, stable) = analysis.dispatch(Flowing {
        terms,
        graph,
        lowered: &lowered,
        analysis,
        policy,
    });
    let header = format!(
        "# analysis: {analysis} (closure-converted to {} functions; interprocedural, contexts: {policy})",
        lowered.module.functions.len()
    );
    let output = render(&header, analysis, "flow", &lines, format, json!({}));
    Ok(Report {
        output,
        stable,
        warnings: Vec::new(),
        fell_back: None,
    })
}

/// The report: a header and `flow = value` lines, or a JSON document with `extra`'s fields too.
fn render<A: Analysis>(
    header: &str,
    analysis: A,
    engine: &str,
    lines: &[(String, String)],
    format: Format,
    extra: serde_json::Value,
) -> String {
    match format {
        Format::Text => {
            let mut out = format!("{header}\n");
            for (flow, value) in lines {
                out.push_str(&format!("{flow} = {value}\n"));
            }
            out
        }
        Format::Json => {
            let flows: Vec<_> = lines
                .iter()
                .map(|(flow, value)| json!({ "flow": flow, "value": value }))
                .collect();
            let mut doc = json!({
                "analysis": analysis.as_str(),
                "engine": engine,
                "flows": flows,
            });
            if let (Some(doc), serde_json::Value::Object(extra)) = (doc.as_object_mut(), extra) {
                doc.extend(extra);
            }
            format!(
                "{}\n",
                serde_json::to_string_pretty(&doc).unwrap_or_default()
            )
        }
    }
}

/// The basic-induction-parameter task: every bound name's steps in the paper's notation, then
/// the sets of basic induction parameters.
fn induction_lines(terms: &Terms, graph: &BehaviorGraph) -> Vec<(String, String)> {
    use absinthe::lattice::Steps;
    use absinthe::terms::{Binder, ParamId};
    use absinthe_dsl_examples::dom::induction::Induction;
    let solution = run_task(terms, graph, &DomainTask::<Induction>::new());
    let mut values = std::collections::BTreeMap::new();
    let mut lines = Vec::new();
    for (i, param) in terms.params.iter().enumerate() {
        let p = ParamId(i as u32);
        if param.binder == Binder::Free {
            continue;
        }
        let steps = solution.param_value(graph, p).steps;
        // Names bound to functions (letrec names, functional parameters) are not numbers.
        if !graph.param_functions(p).is_empty() {
            continue;
        }
        lines.push((format!("Φ_{}", param.name), steps.render(terms)));
        values.insert(p, steps);
    }
    let sets: Vec<String> = Steps::induction_sets(&values)
        .into_iter()
        .map(|set| {
            let names: Vec<&str> = set.iter().map(|&p| terms.param_name(p)).collect();
            format!("{{{}}}", names.join(", "))
        })
        .collect();
    lines.push((
        "basic induction parameters".to_owned(),
        if sets.is_empty() {
            "none".to_owned()
        } else {
            sets.join(", ")
        },
    ));
    lines
}

/// What checking a task against concrete runs found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelCheck {
    /// Runs made.
    pub runs: usize,
    /// Values compared.
    pub values: u64,
    /// Runs that ended with a value (the others trapped or ran out of budget; what they
    /// computed before is checked all the same).
    pub returned: usize,
    /// The first value outside its flow of each run that had one: `flow = abstract value`,
    /// and the concrete value.
    pub misses: Vec<String>,
}

/// Runs the program `runs` times (inputs drawn from `seed`) and checks every value a term or a
/// name takes against `analysis`'s value of its flow on the behavior graph, in the context of
/// the run's call string, and every function against the control-flow facts.
pub fn verify<A: Analysis>(
    file: &str,
    text: &str,
    analysis: A,
    runs: usize,
    seed: u64,
) -> Result<KernelCheck, String> {
    verify_in_context(file, text, analysis, None, runs, seed)
}

/// [`verify`] with `context` in place of the declared context abstraction.
pub fn verify_in_context<A: Analysis>(
    file: &str,
    text: &str,
    analysis: A,
    context: Option<ContextPolicy>,
    runs: usize,
    seed: u64,
) -> Result<KernelCheck, String> {
    let terms = absinthe_ir::kernel::parse_terms(file, text)
        .map_err(|errors| absinthe_ir::error::render_errors(&errors))?;
    if analysis.kernel_only() && analysis.kernel_report() != KernelReport::Functions {
        return Err(format!(
            "`{analysis}` has no concrete counterpart to check here; `verify` checks value tasks and `cfa`\n"
        ));
    }
    let k = call_sites(context.unwrap_or(analysis.spec().context))?;
    let graph = BehaviorGraph::build_with_contexts(&terms, k);
    struct Check<'a> {
        terms: &'a Terms,
        graph: &'a BehaviorGraph,
        runs: usize,
        seed: u64,
    }
    impl ForDomain for Check<'_> {
        type Output = KernelCheck;
        fn run<D: ValueDomain>(self) -> KernelCheck {
            check_task(
                self.terms,
                self.graph,
                &DomainTask::<D>::new(),
                self.runs,
                self.seed,
            )
        }
    }
    Ok(analysis.dispatch(Check {
        terms: &terms,
        graph: &graph,
        runs,
        seed,
    }))
}

/// What one run showed: every term's values and every binding, with the run's call string.
#[derive(Default)]
struct Seen {
    terms: Vec<(TermId, Vec<absinthe_ir::kernel::KValue>, Vec<u32>)>,
    params: Vec<(
        absinthe::terms::ParamId,
        absinthe_ir::kernel::KValue,
        Vec<u32>,
    )>,
}

impl absinthe_ir::kernel::Observer for Seen {
    fn term(&mut self, t: TermId, values: &[absinthe_ir::kernel::KValue], calls: &[u32]) {
        self.terms.push((t, values.to_vec(), calls.to_vec()));
    }

    fn param(
        &mut self,
        p: absinthe::terms::ParamId,
        value: &absinthe_ir::kernel::KValue,
        calls: &[u32],
    ) {
        self.params.push((p, value.clone(), calls.to_vec()));
    }
}

/// Runs `terms` `runs` times (inputs drawn from `seed`), checking every value every term and
/// name takes against `task`'s value of its flow in the context of the run's call string, how
/// many values every term gave against the graph's counts, and every function against the
/// control-flow facts.
pub fn check_task<T: absinthe_behavior::Task>(
    terms: &Terms,
    graph: &BehaviorGraph,
    task: &T,
    runs: usize,
    seed: u64,
) -> KernelCheck {
    use absinthe_ir::kernel::{EvalLimits, EvalOutcome, KValue, evaluate_observed};
    let solution = run_task(terms, graph, task);
    let mut rng = absinthe_ir::generate::Rng::new(seed);
    let inputs = absinthe_ir::kernel::inputs(terms);
    let mut check = KernelCheck::default();
    for _ in 0..runs {
        // Inputs are integers or booleans, drawn at random.
        let values: Vec<(absinthe::terms::ParamId, KValue)> = inputs
            .iter()
            .map(|&p| {
                let v = if rng.percent(50) {
                    KValue::Bool(rng.percent(50))
                } else {
                    KValue::Int(rng.literal())
                };
                (p, v)
            })
            .collect();
        let mut seen = Seen::default();
        let outcome = evaluate_observed(terms, &values, &EvalLimits::default(), &mut seen);
        if matches!(outcome, EvalOutcome::Value(_) | EvalOutcome::Values(_)) {
            check.returned += 1;
        }
        let mut miss: Option<String> = None;
        let mut values_checked = 0u64;
        let contexts = graph.contexts();
        let mut test = |node: Option<NodeId>, flow: String, calls: &[u32], v: &KValue| {
            if miss.is_some() {
                return;
            }
            values_checked += 1;
            let Some(node) = node else {
                miss = Some(format!(
                    "{flow} has no flow in the context of the call string {calls:?}, which a run reached"
                ));
                return;
            };
            let held = match v {
                KValue::Closure(l, _) => graph
                    .values(node)
                    .iter()
                    .any(|f| matches!(f, Function::Closure(m, _) if m == l)),
                KValue::Exit(l, _) => graph
                    .values(node)
                    .iter()
                    .any(|f| matches!(f, Function::Exit(m, _) if m == l)),
                KValue::Block => graph
                    .values(node)
                    .iter()
                    .any(|f| matches!(f, Function::Block(_))),
                KValue::Prim(p) => graph
                    .functions(node)
                    .iter()
                    .any(|&f| terms.term(f) == &Term::Prim(*p)),
                KValue::Int(i) => task.contains(solution.value(node), *i),
                KValue::Bool(b) => task.contains(solution.value(node), i64::from(*b)),
            };
            if !held {
                let context = if contexts.k() == 0 {
                    String::new()
                } else {
                    format!("^{}", contexts.display(graph.context(node)))
                };
                // Closures are named by their abstraction: their environments may hold them.
                let value = match v {
                    KValue::Closure(l, _) => format!("a closure of {}", function_name(terms, *l)),
                    KValue::Exit(l, _) => {
                        format!("the exit function of {}", function_name(terms, *l))
                    }
                    other => format!("{other:?}"),
                };
                miss = Some(format!(
                    "{flow}{context} = {} does not hold {value}",
                    solution.render(terms, graph, node, 2)
                ));
            }
        };
        // How many values each term gave, against the graph's counts.
        let mut count_miss = None;
        for (t, vs, calls) in &seen.terms {
            let node = contexts
                .of_stack(calls)
                .and_then(|c| graph.term_node_in(*t, c));
            if let Some(n) = node
                && !graph.counts(n).may(vs.len() as u32)
            {
                count_miss = Some(format!(
                    "{}^{} gives {}, not the {} values a run gave",
                    terms.flow_name(*t),
                    contexts.display(graph.context(n)),
                    graph.counts(n),
                    vs.len()
                ));
                break;
            }
        }
        for (t, vs, calls) in &seen.terms {
            let node = contexts
                .of_stack(calls)
                .and_then(|c| graph.term_node_in(*t, c));
            for v in vs {
                test(node, terms.flow_name(*t), calls, v);
            }
        }
        for (p, v, calls) in &seen.params {
            let node = contexts
                .of_stack(calls)
                .and_then(|c| graph.param_node_in(*p, c));
            test(node, format!("Φ_{}", terms.param_name(*p)), calls, v);
        }
        check.runs += 1;
        check.values += values_checked;
        if let Some(m) = miss.or(count_miss)
            && !check.misses.contains(&m)
        {
            check.misses.push(m);
        }
    }
    check
}

/// The parameters of abstractions, in order.
fn lambda_params(terms: &Terms) -> Vec<absinthe::terms::ParamId> {
    (0..terms.params.len())
        .map(|i| absinthe::terms::ParamId(i as u32))
        .filter(|p| {
            matches!(
                terms.params[p.index()].binder,
                absinthe::terms::Binder::Lambda(..)
            )
        })
        .collect()
}

/// The useless-parameter task: for every parameter, whether the program's result depends on
/// it, then the useless ones.
pub fn useless_lines(terms: &Terms, graph: &BehaviorGraph) -> Vec<(String, String)> {
    use absinthe_dsl_examples::dom::dependence::Dependence;
    let solution = run_task(terms, graph, &DomainTask::<Dependence>::new());
    let result = &solution.term_value(graph, terms.root).names;
    let mut lines = Vec::new();
    let mut useless = Vec::new();
    for p in lambda_params(terms) {
        let used = result.contains(p);
        if !used {
            useless.push(terms.param_name(p));
        }
        lines.push((
            format!("Φ_{}", terms.param_name(p)),
            if used { "useful" } else { "useless" }.to_owned(),
        ));
    }
    lines.push((
        "useless parameters".to_owned(),
        format!("{{{}}}", useless.join(", ")),
    ));
    lines
}

/// The strictness task: for every abstraction, the parameters its body certainly demands.
pub fn strict_lines(terms: &Terms, graph: &BehaviorGraph) -> Vec<(String, String)> {
    use absinthe_dsl_examples::dom::strictness::Strictness;
    let solution = run_task(terms, graph, &DomainTask::<Strictness>::new());
    let mut lines = Vec::new();
    for (i, t) in terms.terms.iter().enumerate() {
        let Term::Lambda { params, body } = t else {
            continue;
        };
        let demanded = &solution.term_value(graph, *body).demanded.names;
        let strict: Vec<&str> = params
            .iter()
            .filter(|&&p| demanded.contains(p))
            .map(|&p| terms.param_name(p))
            .collect();
        lines.push((
            function_name(terms, TermId(i as u32)),
            format!("strict in {{{}}}", strict.join(", ")),
        ));
    }
    lines
}

/// Runs `task` and renders every reported flow.
pub fn task_lines<T: absinthe_behavior::Task>(
    terms: &Terms,
    graph: &BehaviorGraph,
    task: &T,
) -> Vec<(String, String)> {
    let solution = run_task(terms, graph, task);
    flows(terms, graph)
        .into_iter()
        .map(|flow| {
            let note = counts_note(graph, &flow.nodes);
            let value = match flow.nodes.as_slice() {
                [one] => solution.render(terms, graph, *one, 3),
                many if !flow.name.starts_with('β') => {
                    solution.render_joined(terms, graph, many, 3)
                }
                many => {
                    let parts: BTreeSet<String> = many
                        .iter()
                        .map(|&n| solution.render(terms, graph, n, 3))
                        .collect();
                    if parts.is_empty() {
                        "⊥".to_owned()
                    } else {
                        parts.into_iter().collect::<Vec<_>>().join(" | ")
                    }
                }
            };
            (flow.name, format!("{value}{note}"))
        })
        .collect()
}

/// `absinthe verify` on a `.kt` file: [`verify_in_context`] with `--context` (a call-string
/// policy; `intra` is refused), each violation and the verdict printed.
pub fn verify_command<A: Analysis>(path: &Path, args: &VerifyArgs, analysis: A) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{}:1:1: error: cannot read the file: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let context = match args.context {
        Some(ContextArg::Inter(policy)) => Some(policy),
        Some(ContextArg::Intra) => {
            eprintln!(
                "error: `--context intra` does not apply to kernel terms, whose flows cross their \
                 functions"
            );
            return ExitCode::from(2);
        }
        None => None,
    };
    match verify_in_context(
        &path.display().to_string(),
        &text,
        analysis,
        context,
        args.runs,
        args.seed,
    ) {
        Ok(check) => {
            for miss in &check.misses {
                println!("violation: {miss}");
            }
            println!(
                "{} runs and {} values checked: {} violation{}",
                check.runs,
                check.values,
                check.misses.len(),
                if check.misses.len() == 1 { "" } else { "s" }
            );
            if check.misses.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(message) => {
            eprint!("{message}");
            ExitCode::FAILURE
        }
    }
}
