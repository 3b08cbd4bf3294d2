//! The shape graph with fields (`absinthe_heap::shape`) on the seed's examples
//! (`test_data/shape.air`), its lattice laws on graphs of random programs, and its soundness
//! against concrete runs of random heap modules.

use absinthe::lattice::{Flat, Interval, Lattice};
use absinthe::program::{FieldId, NameId};
use absinthe::value::ValueDomain;
use absinthe_heap::shape::render::{Names, point_text};
use absinthe_heap::shape::{
    Kind, ShapeDisjunct, ShapeFacts, ShapeGraph, ShapeStates, solve_module,
};
use absinthe_ir::generate::{HeapGenConfig, random_heap_module};
use absinthe_ir::{Function, Module, parse_module};
use expect_test::expect;

use absinthe_ir::shape_check as check;

/// The value domain the graphs' tests run with: constants.
type V = Flat<i64>;

type Shapes = ShapeStates<V>;

fn sample() -> Module {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/test_data/shape.air");
    let text = std::fs::read_to_string(path).expect("the sample exists");
    parse_module("shape.air", &text).expect("the sample parses")
}

/// The disjuncts of `state`, one per line, with the function's names.
fn show(module: &Module, function: &Function, state: &Shapes) -> String {
    let name = |n: NameId| {
        function
            .names
            .get(n.index())
            .cloned()
            .unwrap_or_else(|| format!("%{}", n.index()))
    };
    let field = |f: FieldId| module.field_name(f).to_owned();
    let names = Names {
        name: &name,
        field: &field,
    };
    if state.is_bottom() {
        return "unreachable\n".to_owned();
    }
    state
        .graphs()
        .map(|g| {
            let text = g.text(&names);
            format!("{}\n", if text.is_empty() { "∅" } else { &text })
        })
        .collect()
}

/// The graphs before statement `index` of block `label` of function `func`.
fn state<'f>(
    module: &Module,
    facts: &'f [ShapeFacts<V>],
    func: &str,
    label: &str,
    index: usize,
) -> &'f Shapes {
    let f = module.func_id(func).expect("the function exists");
    let function = &module.functions[f.index()];
    let block = function
        .blocks()
        .iter()
        .position(|b| b.label == label)
        .expect("the block exists");
    &facts[f.index()].before[block][index]
}

fn before(
    module: &Module,
    facts: &[ShapeFacts<V>],
    func: &str,
    label: &str,
    index: usize,
) -> String {
    let f = module.func_id(func).expect("the function exists");
    show(
        module,
        &module.functions[f.index()],
        state(module, facts, func, label, index),
    )
}

#[test]
fn every_sample_function_reaches_a_fixpoint() {
    let module = sample();
    let facts = solve_module::<V, _>(&module);
    for (f, fact) in facts.iter().enumerate() {
        assert!(
            fact.solution.stop.is_stable(),
            "{}: {:?}",
            module.functions[f].name,
            fact.solution.stop
        );
    }
}

/// (a) The list built by a loop and walked by `p = p.next`: at the walk's head the cells no
/// variable holds are one summary node of the loop's site (its generation widened to `≤∞`),
/// `p` is either the head or a cell materialized out of the summary, or no object (the empty
/// list, or the integer ending the list), and there is no edge between two summaries. `n`,
/// compared with `i`, holds an integer and labels no node past the build loop's branch.
#[test]
fn a_list_walk_summarizes_the_tail_and_terminates() {
    let module = sample();
    let facts = solve_module::<V, _>(&module);
    expect![[r#"
        ∅
        head,cell@bb2:0/0, p@bb2:0/≤∞, Σ@bb2:0/≤∞ | head,cell@bb2:0/0 -next-> p@bb2:0/≤∞, head,cell@bb2:0/0 -next-> Σ@bb2:0/≤∞, p@bb2:0/≤∞ -next-> p@bb2:0/≤∞, p@bb2:0/≤∞ -next-> Σ@bb2:0/≤∞, Σ@bb2:0/≤∞ -next-> p@bb2:0/≤∞, Σ@bb2:0/≤∞ -next-> Σ@bb2:0/≤∞
        head,cell@bb2:0/0, Σ@bb2:0/≤∞ | head,cell@bb2:0/0 -next-> Σ@bb2:0/≤∞, Σ@bb2:0/≤∞ -next-> Σ@bb2:0/≤∞
        head,cell,p@bb2:0/0, Σ@bb2:0/≤∞ | head,cell,p@bb2:0/0 -next-> Σ@bb2:0/≤∞, Σ@bb2:0/≤∞ -next-> Σ@bb2:0/≤∞
    "#]]
    .assert_eq(&before(&module, &facts, "list", "loop", 0));
    // The build loop's head: the head cell, and the older cells as one summary.
    expect![[r#"
        head,cell@bb2:0/0, Σ@bb2:0/≤∞ | head,cell@bb2:0/0 -next-> Σ@bb2:0/≤∞, Σ@bb2:0/≤∞ -next-> Σ@bb2:0/≤∞
        n@γ0
    "#]]
    .assert_eq(&before(&module, &facts, "list", "build", 0));
    let at_loop = state(&module, &facts, "list", "loop", 0);
    // The empty list (no cell at all, `n <= 0`) has no node; every other graph one summary.
    for g in at_loop.graphs().filter(|g| !g.nodes().is_empty()) {
        let summaries = g.nodes().iter().filter(|n| n.kind == Kind::Summary).count();
        assert_eq!(summaries, 1, "{g}");
        for ((s, _, d), _) in g.edges() {
            let (a, b) = (&g.nodes()[s].kind, &g.nodes()[d].kind);
            assert!(s == d || *a != Kind::Summary || *b != Kind::Summary, "{g}");
        }
    }
}

/// (a') The values in the list walk (constants): `more = isblock p` is 1 in the disjuncts where
/// `p` labels a node and holds no integer, 0 where `p` labels no node, so `br more` sends the
/// former only to `step` and the latter only to `done`: `done` is reached only where `p` is no
/// object, and `step` only where it is one (its load never traps).
#[test]
fn the_list_walk_leaves_its_loop_only_where_p_is_no_object() {
    let module = sample();
    let facts = solve_module::<V, _>(&module);
    let f = module.func_id("list").expect("the function exists");
    let function = &module.functions[f.index()];
    let point = |label: &str, index: usize| {
        let name = |n: NameId| function.names[n.index()].clone();
        let field = |f: FieldId| module.field_name(f).to_owned();
        let names = Names {
            name: &name,
            field: &field,
        };
        point_text(state(&module, &facts, "list", label, index), &names)
    };
    expect![[r#"
        ∅ ‖ head = 0, i = 0, p = 0, more = 0
        ⊔ head,cell@bb2:0/0, p@bb2:0/≤∞, Σ@bb2:0/≤∞ | head,cell@bb2:0/0 -next-> p@bb2:0/≤∞, head,cell@bb2:0/0 -next-> Σ@bb2:0/≤∞, p@bb2:0/≤∞ -next-> p@bb2:0/≤∞, p@bb2:0/≤∞ -next-> Σ@bb2:0/≤∞, Σ@bb2:0/≤∞ -next-> p@bb2:0/≤∞, Σ@bb2:0/≤∞ -next-> Σ@bb2:0/≤∞ ‖ more = 1
        ⊔ head,cell@bb2:0/0, Σ@bb2:0/≤∞ | head,cell@bb2:0/0 -next-> Σ@bb2:0/≤∞, Σ@bb2:0/≤∞ -next-> Σ@bb2:0/≤∞ ‖ more = 0
        ⊔ head,cell,p@bb2:0/0, Σ@bb2:0/≤∞ | head,cell,p@bb2:0/0 -next-> Σ@bb2:0/≤∞, Σ@bb2:0/≤∞ -next-> Σ@bb2:0/≤∞ ‖ more = 1"#]]
    .assert_eq(&point("loop", 1));
    expect![[r#"
        ∅ ‖ head = 0, i = 0, p = 0, more = 0
        ⊔ head,cell@bb2:0/0, Σ@bb2:0/≤∞ | head,cell@bb2:0/0 -next-> Σ@bb2:0/≤∞, Σ@bb2:0/≤∞ -next-> Σ@bb2:0/≤∞ ‖ more = 0"#]]
    .assert_eq(&point("done", 0));
    expect![[r#"
        head,cell@bb2:0/0, p@bb2:0/≤∞, Σ@bb2:0/≤∞ | head,cell@bb2:0/0 -next-> p@bb2:0/≤∞, head,cell@bb2:0/0 -next-> Σ@bb2:0/≤∞, p@bb2:0/≤∞ -next-> p@bb2:0/≤∞, p@bb2:0/≤∞ -next-> Σ@bb2:0/≤∞, Σ@bb2:0/≤∞ -next-> p@bb2:0/≤∞, Σ@bb2:0/≤∞ -next-> Σ@bb2:0/≤∞ ‖ more = 1
        ⊔ head,cell,p@bb2:0/0, Σ@bb2:0/≤∞ | head,cell,p@bb2:0/0 -next-> Σ@bb2:0/≤∞, Σ@bb2:0/≤∞ -next-> Σ@bb2:0/≤∞ ‖ more = 1"#]]
    .assert_eq(&point("step", 0));
    let p = NameId(
        function
            .names
            .iter()
            .position(|x| x == "p")
            .expect("`p` is a name") as u32,
    );
    for d in state(&module, &facts, "list", "done", 0).disjuncts() {
        assert!(d.graph.points_to(p).is_empty(), "{}", d.graph);
    }
    for d in state(&module, &facts, "list", "step", 0).disjuncts() {
        assert!(!d.graph.points_to(p).is_empty(), "{}", d.graph);
        assert!(d.values.get(p).is_bottom(), "{}", d.graph);
    }
}

/// The text of the point before statement `index` of block `label` of `func`: its disjuncts,
/// graphs and known values.
fn point(
    module: &Module,
    facts: &[ShapeFacts<V>],
    func: &str,
    label: &str,
    index: usize,
) -> String {
    let f = module.func_id(func).expect("the function exists");
    let function = &module.functions[f.index()];
    let name = |n: NameId| function.names[n.index()].clone();
    let field = |f: FieldId| module.field_name(f).to_owned();
    let names = Names {
        name: &name,
        field: &field,
    };
    point_text(state(module, facts, func, label, index), &names)
}

/// (d) `x` is 5 on one path and a new object on the other: each graph keeps its value of `x`,
/// so `isblock x` is 0 in one and 1 in the other, and `br b` sends each one way only: `load`
/// sees the object (and reads its integer field: `y` labels no node), `arith` the integer 5,
/// with `z = 6` and no node at all.
#[test]
fn each_graph_takes_its_own_side_of_a_branch_on_isblock() {
    let module = sample();
    let facts = solve_module::<V, _>(&module);
    expect![[r#"
        ∅ ‖ x = 5, b = 0
        ⊔ x@bb2:0/0 ‖ b = 1"#]]
    .assert_eq(&point(&module, &facts, "either", "test", 1));
    expect!["x@bb2:0/0 ‖ b = 1"].assert_eq(&point(&module, &facts, "either", "load", 0));
    expect!["x@bb2:0/0 ‖ b = 1"].assert_eq(&point(&module, &facts, "either", "load", 1));
    expect!["∅ ‖ x = 5, b = 0, z = 6"].assert_eq(&point(&module, &facts, "either", "arith", 1));
}

/// (b) `second = head.next` reads into the summary of the list's cells: a normal node holding
/// only `second` is split out of it (one per site of the summary), the head's field now
/// points to it, and the store `second.val = fresh` replaces its field without touching the
/// summary, whose `next` edges stay as they were and which gets no `val` edge.
#[test]
fn a_read_from_a_summary_materializes_a_normal_node() {
    let module = sample();
    let facts = solve_module::<V, _>(&module);
    expect![[r#"
        head@bb0:0/0
        head,cell@bb2:0/0, Σ@bb0:0/0 | head,cell@bb2:0/0 -next-> Σ@bb0:0/0
        head,cell@bb2:0/0, Σ@bb0:0+bb2:0/≤∞ | head,cell@bb2:0/0 -next-> Σ@bb0:0+bb2:0/≤∞, Σ@bb0:0+bb2:0/≤∞ -next-> Σ@bb0:0+bb2:0/≤∞
    "#]]
    .assert_eq(&before(&module, &facts, "materialize", "read", 0));
    expect![[r#"
        head@bb0:0/0
        second@bb0:0/≤∞, head,cell@bb2:0/0, Σ@bb0:0+bb2:0/≤∞ | second@bb0:0/≤∞ -next-> second@bb0:0/≤∞, second@bb0:0/≤∞ -next-> Σ@bb0:0+bb2:0/≤∞, head,cell@bb2:0/0 -next-> second@bb0:0/≤∞, Σ@bb0:0+bb2:0/≤∞ -next-> second@bb0:0/≤∞, Σ@bb0:0+bb2:0/≤∞ -next-> Σ@bb0:0+bb2:0/≤∞
        head,cell@bb2:0/0, second@bb2:0/≤∞, Σ@bb0:0+bb2:0/≤∞ | head,cell@bb2:0/0 -next-> second@bb2:0/≤∞, second@bb2:0/≤∞ -next-> second@bb2:0/≤∞, second@bb2:0/≤∞ -next-> Σ@bb0:0+bb2:0/≤∞, Σ@bb0:0+bb2:0/≤∞ -next-> second@bb2:0/≤∞, Σ@bb0:0+bb2:0/≤∞ -next-> Σ@bb0:0+bb2:0/≤∞
        head,cell@bb2:0/0, Σ@bb0:0/0 | head,cell@bb2:0/0 -next-> Σ@bb0:0/0
        head,cell@bb2:0/0, Σ@bb0:0+bb2:0/≤∞ | head,cell@bb2:0/0 -next-> Σ@bb0:0+bb2:0/≤∞, Σ@bb0:0+bb2:0/≤∞ -next-> Σ@bb0:0+bb2:0/≤∞
    "#]]
    .assert_eq(&before(&module, &facts, "materialize", "read", 1));
    expect![[r#"
        second@bb0:0/≤∞, head,cell@bb2:0/0, fresh@bb3:1/0, Σ@bb0:0+bb2:0/≤∞ | second@bb0:0/≤∞ -next-> second@bb0:0/≤∞, second@bb0:0/≤∞ -next-> Σ@bb0:0+bb2:0/≤∞, second@bb0:0/≤∞ -val-> fresh@bb3:1/0, head,cell@bb2:0/0 -next-> second@bb0:0/≤∞, Σ@bb0:0+bb2:0/≤∞ -next-> second@bb0:0/≤∞, Σ@bb0:0+bb2:0/≤∞ -next-> Σ@bb0:0+bb2:0/≤∞
        head,cell@bb2:0/0, second@bb2:0/≤∞, fresh@bb3:1/0, Σ@bb0:0+bb2:0/≤∞ | head,cell@bb2:0/0 -next-> second@bb2:0/≤∞, second@bb2:0/≤∞ -next-> second@bb2:0/≤∞, second@bb2:0/≤∞ -next-> Σ@bb0:0+bb2:0/≤∞, second@bb2:0/≤∞ -val-> fresh@bb3:1/0, Σ@bb0:0+bb2:0/≤∞ -next-> second@bb2:0/≤∞, Σ@bb0:0+bb2:0/≤∞ -next-> Σ@bb0:0+bb2:0/≤∞
    "#]]
    .assert_eq(&before(&module, &facts, "materialize", "read", 3));
}

/// (c) `set_next(a, b)` stores `b` into `a.next`. Inside it, `a` and `b` are context nodes
/// that may be one object: the store is strong on `γ0` (its field certainly written) and weak
/// on `γ1` and on context nodes not yet materialized. At the call, the caller maps `γ0` to
/// `x` and `γ1` to `y`, drops the weak edges and replaces `x.next`: it is exactly `y`; with
/// `x` passed twice, it is `x` itself.
#[test]
fn a_callee_store_is_applied_exactly_after_contraction() {
    let module = sample();
    let facts = solve_module::<V, _>(&module);
    expect![[r#"
        a@γ0, b@γ1 | a@γ0 -next-> b@γ1, b@γ1 ~next~> b@γ1, !a@γ0.next, γ* ~next~> b@γ1
    "#]]
    .assert_eq(&before(&module, &facts, "set_next", "bb0", 1));
    let f = module.func_id("set_next").expect("the callee exists");
    let summary: Vec<String> = facts[f.index()]
        .summary
        .exits
        .iter()
        .map(|g| g.to_string())
        .collect();
    expect![[r#"
        [
            "γ0, γ1 | γ0 -f0-> γ1, γ1 ~f0~> γ1, !γ0.f0",
        ]
    "#]]
    .assert_debug_eq(&summary);
    expect![[r#"
        x@bb0:0/0, y@bb0:1/0, z@bb0:2/0 | x@bb0:0/0 -next-> z@bb0:2/0
    "#]]
    .assert_eq(&before(&module, &facts, "caller", "bb0", 4));
    expect![[r#"
        x@bb0:0/0, y@bb0:1/0, z@bb0:2/0 | x@bb0:0/0 -next-> y@bb0:1/0
        x@bb0:0/0, y,w@bb0:1/0, z@bb0:2/0 | x@bb0:0/0 -next-> y,w@bb0:1/0
    "#]]
    .assert_eq(&before(&module, &facts, "caller", "bb0", 6));
    expect![[r#"
        x@bb0:0/0, z@bb0:1/0 | x@bb0:0/0 -next-> x@bb0:0/0
        x,w@bb0:0/0, z@bb0:1/0 | x,w@bb0:0/0 -next-> x,w@bb0:0/0
    "#]]
    .assert_eq(&before(&module, &facts, "caller_alias", "bb0", 5));
}

#[test]
fn the_dot_form_marks_summaries_context_nodes_and_weak_edges() {
    let module = sample();
    let facts = solve_module::<V, _>(&module);
    let f = module.func_id("set_next").expect("the callee exists");
    let exit = &facts[f.index()].before[0][1];
    expect![[r#"
        digraph shape {
          node [shape=box];
          subgraph cluster_0 {
            label="γ";
            n0 [label="%0@γ0", shape=ellipse];
            n1 [label="%1@γ1", shape=ellipse];
          }
          n0 -> n1 [label="f0"];
          n1 -> n1 [label="f0", style=dotted];
        }
    "#]]
    .assert_eq(&exit.disjuncts()[0].graph.to_dot());
    let at_loop = state(&module, &facts, "list", "build", 0);
    expect![[r#"
        digraph shape {
          node [shape=box];
          subgraph cluster_0 {
            label="bb2:0";
            n0 [label="%1,%3@bb2:0/0"];
            n1 [label="Σ@bb2:0/≤∞", style=dashed];
          }
          n0 -> n1 [label="f0"];
          n1 -> n1 [label="f0"];
        }
    "#]]
    .assert_eq(&at_loop.disjuncts()[0].graph.to_dot());
}

/// Every graph the analysis reaches on the functions of random heap modules (deterministic
/// seeds), a few hundred per module at most.
fn random_graphs(seed: u64) -> Vec<ShapeGraph> {
    let module = random_heap_module(seed, &HeapGenConfig::default());
    let facts = solve_module::<V, _>(&module);
    let mut out: Vec<ShapeGraph> = Vec::new();
    for fact in &facts {
        for states in &fact.before {
            for state in states {
                out.extend(state.graphs().cloned());
            }
        }
    }
    out.sort();
    out.dedup();
    out.truncate(60);
    out
}

/// (d) The lattice laws on graphs of random programs: bottom is least, the order is
/// reflexive, antisymmetric (with `Eq`) and transitive on the samples, join is an upper bound
/// (and least among the samples above both), meet a lower bound, and widening an upper bound
/// whose increasing sequences stabilise.
#[test]
fn lattice_laws_hold_on_graphs_of_random_programs() {
    let mut checked = 0usize;
    for seed in 0..12u64 {
        let graphs = random_graphs(seed);
        let bottom = ShapeGraph::bottom();
        for a in &graphs {
            assert!(bottom.leq(a) && a.leq(a), "seed {seed}: {a}");
            assert!(!a.leq(&bottom), "seed {seed}: {a}");
            assert_eq!(a.join(&bottom), *a, "seed {seed}");
        }
        for (i, a) in graphs.iter().enumerate() {
            for b in graphs.iter().skip(i).take(12) {
                let j = a.join(b);
                assert!(
                    a.leq(&j) && b.leq(&j),
                    "seed {seed}: join of {a} and {b} is {j}"
                );
                assert_eq!(j, b.join(a), "seed {seed}: join commutes");
                assert_eq!(j.join(&j), j, "seed {seed}: join is idempotent");
                if a.leq(b) && b.leq(a) {
                    assert_eq!(a, b, "seed {seed}: antisymmetry");
                }
                if a.leq(b) {
                    assert_eq!(j, *b, "seed {seed}: join of ordered graphs");
                }
                let m = a.meet(b);
                assert!(
                    m.leq(a) && m.leq(b),
                    "seed {seed}: meet of {a} and {b} is {m}"
                );
                let w = a.widen(b);
                assert!(j.leq(&w), "seed {seed}: widening of {a} by {b} is {w}");
                // Transitivity along a ⊑ a ⊔ b ⊑ a ⊔ b ⊔ c.
                for c in graphs.iter().skip(i).step_by(7).take(3) {
                    let k = j.join(c);
                    assert!(a.leq(&k) && j.leq(&k), "seed {seed}: transitivity");
                }
                checked += 1;
            }
        }
        // Widening an increasing chain of joins stabilises.
        let mut w = ShapeGraph::bottom();
        let mut acc = ShapeGraph::bottom();
        let mut stable = 0;
        for (steps, g) in graphs.iter().cycle().take(graphs.len() * 3).enumerate() {
            acc = acc.join(g);
            let next = w.widen(&acc);
            assert!(acc.leq(&next), "seed {seed}");
            stable = if next == w { stable + 1 } else { 0 };
            w = next;
            assert!(steps < 10_000);
        }
        assert!(
            graphs.is_empty() || stable >= graphs.len(),
            "seed {seed}: widening climbs"
        );
    }
    assert!(checked > 1000, "{checked}");
}

/// (e) Sound against concrete runs: in every frame of runs of `main` of 1,000 random heap
/// modules, some disjunct of the state at the frame's point describes its names, the objects
/// they reach and the field edges among them with its graph, and every integer a name holds
/// lies in the name's value in that disjunct (`check.rs`); with constants and with intervals.
#[test]
fn sound_on_a_thousand_random_heap_modules() {
    let constants = soundness::<V>();
    let intervals = soundness::<Interval>();
    println!("constants: {constants:?}\nintervals: {intervals:?}");
    for total in [constants, intervals] {
        assert!(
            total.runs > 2000 && total.edges > 10_000 && total.ints > 10_000,
            "{total:?}"
        );
    }
}

fn soundness<D: ValueDomain>() -> check::ShapeCheck {
    let config = HeapGenConfig::default();
    let limits = absinthe_ir::interp::Limits {
        max_steps: 2_000,
        ..absinthe_ir::interp::Limits::default()
    };
    let mut total = check::ShapeCheck::default();
    for seed in 0..1000u64 {
        let module = random_heap_module(seed, &config);
        let facts = solve_module::<D, _>(&module);
        for (f, fact) in facts.iter().enumerate() {
            assert!(
                fact.solution.stop.is_stable(),
                "seed {seed}: function {f}: {:?}",
                fact.solution.stop
            );
        }
        let mut found = check::ShapeCheck::default();
        for (p0, p1) in [(0, 0), (1, -1), (2, 3), (-2, 1)] {
            check::check_run(
                &module,
                &facts,
                absinthe::program::FuncId(0),
                &[p0, p1],
                &limits,
                &mut found,
            );
        }
        assert!(
            found.violations.is_empty(),
            "seed {seed}: {} violations, first: {}\n{}",
            found.violations.len(),
            found.violations[0],
            absinthe_ir::print_module(&module)
        );
        total.runs += found.runs;
        total.points += found.points;
        total.objects += found.objects;
        total.edges += found.edges;
        total.ints += found.ints;
        total.disjuncts += found.disjuncts;
    }
    total
}

/// The check is not vacuous: facts whose values forget an integer a name holds (every value
/// made a constant no run computes) or whose graphs forget the objects are caught.
#[test]
fn the_check_catches_facts_that_forget_values_or_objects() {
    let config = HeapGenConfig::default();
    let limits = absinthe_ir::interp::Limits {
        max_steps: 2_000,
        ..absinthe_ir::interp::Limits::default()
    };
    let (mut bad_values, mut bad_graphs) = (0usize, 0usize);
    for seed in 0..40u64 {
        let module = random_heap_module(seed, &config);
        let facts = solve_module::<V, _>(&module);
        let tamper = |f: &dyn Fn(&ShapeDisjunct<V>) -> ShapeDisjunct<V>| -> Vec<ShapeFacts<V>> {
            facts
                .iter()
                .map(|fact| {
                    let mut fact = fact.clone();
                    for states in &mut fact.before {
                        for state in states.iter_mut() {
                            *state = ShapeStates::of(state.disjuncts().iter().map(f).collect());
                        }
                    }
                    fact
                })
                .collect()
        };
        let odd = tamper(&|d| {
            let mut values = d.values.clone();
            let n = values.values().len();
            for x in 0..n {
                values.set(NameId(x as u32), Flat::Value(-987_654_321));
            }
            ShapeDisjunct {
                graph: d.graph.clone(),
                values,
            }
        });
        let empty = tamper(&|d| ShapeDisjunct {
            graph: ShapeGraph::empty(),
            values: d.values.clone(),
        });
        for (facts, count) in [(&odd, &mut bad_values), (&empty, &mut bad_graphs)] {
            let mut found = check::ShapeCheck::default();
            check::check_run(
                &module,
                facts,
                absinthe::program::FuncId(0),
                &[1, 2],
                &limits,
                &mut found,
            );
            *count += found.violations.len();
        }
    }
    assert!(
        bad_values > 0 && bad_graphs > 0,
        "{bad_values} {bad_graphs}"
    );
}

/// (f) The lattice laws of the state (graphs with their values) on the states random programs
/// reach: bottom is least, the order is reflexive, join an upper bound that commutes and is
/// idempotent, meet below both when they are ordered, widening an upper bound whose increasing
/// sequences stabilise.
#[test]
fn lattice_laws_hold_on_states_of_random_programs() {
    let mut checked = 0usize;
    for seed in 0..8u64 {
        let module = random_heap_module(seed, &HeapGenConfig::default());
        let facts = solve_module::<V, _>(&module);
        let mut states: Vec<Shapes> = facts
            .iter()
            .flat_map(|f| f.before.iter().flatten().cloned())
            .collect();
        states.truncate(80);
        let bottom = Shapes::bottom();
        for a in &states {
            assert!(
                bottom.leq(a) && a.leq(a) && a.join(&bottom) == *a,
                "seed {seed}"
            );
            assert!(a.is_bottom() || !a.leq(&bottom), "seed {seed}");
        }
        for (i, a) in states.iter().enumerate() {
            for b in states.iter().skip(i).take(10) {
                let j = a.join(b);
                assert!(a.leq(&j) && b.leq(&j), "seed {seed}: join");
                assert_eq!(j, b.join(a), "seed {seed}: join commutes");
                assert_eq!(j.join(&j), j, "seed {seed}: join is idempotent");
                if a.leq(b) {
                    assert!(a.meet(b).leq(a), "seed {seed}: meet of ordered states");
                }
                let w = a.widen(b);
                assert!(j.leq(&w), "seed {seed}: widening is an upper bound");
                checked += 1;
            }
        }
        let mut w = Shapes::bottom();
        let mut acc = Shapes::bottom();
        let mut stable = 0;
        for s in states.iter().cycle().take(states.len() * 3) {
            acc = acc.join(s);
            let next = w.widen(&acc);
            assert!(acc.leq(&next), "seed {seed}");
            stable = if next == w { stable + 1 } else { 0 };
            w = next;
        }
        assert!(
            states.is_empty() || stable >= states.len(),
            "seed {seed}: widening climbs"
        );
    }
    assert!(checked > 500, "{checked}");
}
