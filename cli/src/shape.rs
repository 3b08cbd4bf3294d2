//! Analyses whose engine is `shape` (`--analysis shape`, or a `.dom` file saying
//! `engine shape;`): the Green Fairy's shape analysis with fields ([`absinthe_heap::shape`])
//! over every function of a core-IR module, callees first, each graph with the declaration's
//! values of names. Printed as the graphs before every statement and terminator (text, JSON) or
//! drawn at every block's entry (Graphviz); checked against runs in every frame
//! ([`absinthe_ir::shape_check`]).

use crate::driver::{Format, Input, Report};
use absinthe::lattice::Lattice;
use absinthe::program::{BlockId, FieldId, NameId};
use absinthe::value::ValueDomain;
use absinthe_heap::shape::render::{Names, point_text};
use absinthe_heap::shape::{ShapeFacts, ShapeStates, solve_module};
use absinthe_ir::function::{Function, Module};
use absinthe_ir::interp::Limits;
use absinthe_ir::shape_check::{ShapeCheck, check_run};
use serde_json::json;

/// The states before statement `index` of `block` (the statement count: before the
/// terminator), or unreachable.
fn before<D: Lattice>(facts: &ShapeFacts<D>, block: BlockId, index: usize) -> ShapeStates<D> {
    facts
        .before
        .get(block.index())
        .and_then(|states| states.get(index))
        .cloned()
        .unwrap_or_else(ShapeStates::bottom)
}

/// Runs `render` with the names and fields of `function` spelled as the module spells them.
fn with_names<R>(module: &Module, function: &Function, render: impl FnOnce(&Names<'_>) -> R) -> R {
    let name = |n: NameId| {
        function
            .names
            .get(n.index())
            .cloned()
            .unwrap_or_else(|| format!("%{}", n.index()))
    };
    let field = |f: FieldId| module.field_name(f).to_owned();
    render(&Names {
        name: &name,
        field: &field,
    })
}

/// A point's disjunction on one line.
fn point_line<D: ValueDomain>(names: &Names<'_>, states: &ShapeStates<D>) -> String {
    point_text(states, names).replace('\n', " ")
}

/// Runs the analysis `name` (value domain `D`) over every function of `input`, and renders it.
pub fn run<D: ValueDomain>(input: &Input, format: Format, name: &str) -> Report {
    let module = input.module();
    let facts = solve_module::<D, _>(&module);
    let output = match format {
        Format::Text => {
            let mut out = format!(
                "# analysis: {name} (shape graphs: `vars@site/generation` an object, `Σ@site` a \
                 summary of objects no variable holds, `γi.f` the caller's object input i reaches \
                 through f, `?` an unknown one; `-f->` a field edge, `~f~>` a weak one; after ‖ \
                 the known values)\n"
            );
            for (function, facts) in module.functions.iter().zip(&facts) {
                with_names(&module, function, |names| {
                    out.push_str(&crate::render::annotated_function(
                        &module,
                        function,
                        &mut |b, i| point_line(names, &before(facts, b, i)),
                    ));
                });
            }
            out
        }
        Format::Json => {
            let functions: Vec<_> = module
                .functions
                .iter()
                .zip(&facts)
                .map(|(function, facts)| {
                    with_names(&module, function, |names| {
                        let mut points = Vec::new();
                        for (b, block) in function.blocks().iter().enumerate() {
                            for i in 0..=block.stmts.len() {
                                let states = before(facts, BlockId(b as u32), i);
                                let graphs: Vec<String> =
                                    states.graphs().map(|g| g.text(names)).collect();
                                points.push(json!({
                                    "block": block.label,
                                    "index": i,
                                    "graphs": graphs,
                                    "state": point_text(&states, names),
                                }));
                            }
                        }
                        json!({ "name": function.name, "points": points })
                    })
                })
                .collect();
            let doc = json!({ "analysis": name, "functions": functions });
            format!(
                "{}\n",
                serde_json::to_string_pretty(&doc).unwrap_or_default()
            )
        }
    };
    Report {
        output,
        stable: facts.iter().all(|f| f.solution.stop.is_stable()),
        warnings: Vec::new(),
        fell_back: None,
    }
}

/// The graphs at the entry of every reachable block of every function and before every `ret`,
/// one Graphviz `digraph` each, titled by the function, the block (`… ret` for a return) and the
/// disjunct.
pub fn dot<D: ValueDomain>(input: &Input) -> Report {
    let module = input.module();
    let facts = solve_module::<D, _>(&module);
    let mut out = String::new();
    for (function, facts) in module.functions.iter().zip(&facts) {
        with_names(&module, function, |names| {
            for (b, block) in function.blocks().iter().enumerate() {
                let mut points = vec![(0, block.label.clone())];
                if matches!(block.term, absinthe::program::Terminator::Return(_)) {
                    points.push((block.stmts.len(), format!("{} ret", block.label)));
                }
                for (index, at) in points {
                    let states = before(facts, BlockId(b as u32), index);
                    for (k, graph) in states.graphs().enumerate() {
                        let title = format!("{} {at} #{}", function.name, k + 1);
                        let drawn = graph.to_dot_with(names);
                        let body = drawn.strip_prefix("digraph shape {\n").unwrap_or(&drawn);
                        out.push_str(&format!(
                            "digraph \"{title}\" {{\n  label=\"{title}\";\n{body}"
                        ));
                    }
                }
            }
        });
    }
    Report {
        output: out,
        stable: facts.iter().all(|f| f.solution.stop.is_stable()),
        warnings: Vec::new(),
        fell_back: None,
    }
}

/// Runs every function of `input` `runs` times on arguments drawn from `seed` and checks the
/// analysis in every frame: each name's object in a node it labels, every reachable object and
/// field edge covered, generations, and the integers in the values.
pub fn verify<D: ValueDomain>(input: &Input, runs: usize, seed: u64, max_steps: u64) -> ShapeCheck {
    let module = input.module();
    let facts = solve_module::<D, _>(&module);
    let limits = Limits {
        max_steps,
        ..Limits::default()
    };
    let mut check = ShapeCheck::default();
    for (function, args) in crate::runs::arguments(&module, runs, seed) {
        check_run(&module, &facts, function, &args, &limits, &mut check);
    }
    check
}
