//! `--analysis alias-heap`: the Green Fairy's alias heap with generation counting
//! ([`absinthe_heap`]) over each function of a core-IR module (or a toy program), printed
//! before every statement and terminator as the disjunction of heaps that may hold there; and
//! its check against concrete runs.

use crate::driver::{Format, Input, Report};
use absinthe::engine::{Solution, solve};
use absinthe::lattice::Lattice;
use absinthe::program::{BlockId, Program};
use absinthe_heap::{AliasAnalysis, AliasHeap, Heaps, Site};
use absinthe_ir::function::{Function, Module};
use serde_json::json;

/// How many heaps the disjunction keeps apart.
const HEAPS: usize = 8;

/// Every function of `module` solved.
fn solve_all(module: &Module) -> Vec<Solution<Heaps<HEAPS>>> {
    module
        .functions
        .iter()
        .map(|f| {
            solve(
                f,
                &AliasAnalysis::<HEAPS>,
                &AliasAnalysis::<HEAPS>::limits(),
            )
        })
        .collect()
}

/// The heaps before statement `index` of `block` (`index` equal to the statement count: before
/// the terminator).
fn before(
    function: &Function,
    solution: &Solution<Heaps<HEAPS>>,
    block: BlockId,
    index: usize,
) -> Heaps<HEAPS> {
    let mut heaps: Vec<AliasHeap> = solution.entry[block.index()].values().to_vec();
    for (i, stmt) in function.stmts(block).iter().take(index).enumerate() {
        heaps = heaps
            .iter()
            .flat_map(|h| AliasAnalysis::<HEAPS>::statement(h, block, i, stmt))
            .collect();
    }
    Heaps::from_values(heaps)
}

/// One heap with the function's names: `[bb0:0{x, y} body:3{z}≤2 ?{c}]`, a site by its block's
/// label and the allocation's position, `?` for references the model does not follow, and the
/// generation when an object may have younger live siblings.
fn heap_text(function: &Function, heap: &AliasHeap) -> String {
    let objects: Vec<String> = heap
        .objects()
        .map(|((site, vars), generation)| {
            let site = if *site == Site::UNKNOWN {
                "?".to_owned()
            } else {
                let label = function
                    .blocks()
                    .get(site.block.index())
                    .map_or("?", |b| b.label.as_str());
                format!("{label}:{}", site.index)
            };
            let vars: Vec<&str> = vars
                .iter()
                .map(|v| function.names[v.index()].as_str())
                .collect();
            let age = if generation.is_unique() {
                String::new()
            } else {
                generation.to_string()
            };
            format!("{site}{{{}}}{age}", vars.join(", "))
        })
        .collect();
    format!("[{}]", objects.join(" "))
}

/// The disjunction at a point: its heaps joined by `⊔`, or `unreachable`.
fn heaps_text(function: &Function, heaps: &Heaps<HEAPS>) -> String {
    if heaps.is_bottom() {
        return "unreachable".to_owned();
    }
    let parts: Vec<String> = heaps
        .values()
        .iter()
        .map(|h| heap_text(function, h))
        .collect();
    parts.join(" ⊔ ")
}

/// Runs the alias heap over every function of `input` and renders it.
pub fn run(input: &Input, format: Format) -> Report {
    let module = input.module();
    let solutions = solve_all(&module);
    let output = match format {
        Format::Text => {
            let mut out = format!(
                "# analysis: alias-heap (objects by allocation site, with their generations; \
                 up to {HEAPS} heaps kept apart)\n"
            );
            for (function, solution) in module.functions.iter().zip(&solutions) {
                out.push_str(&crate::render::annotated_function(
                    &module,
                    function,
                    &mut |b, i| heaps_text(function, &before(function, solution, b, i)),
                ));
            }
            out
        }
        Format::Json => {
            let functions: Vec<_> = module
                .functions
                .iter()
                .zip(&solutions)
                .map(|(function, solution)| {
                    let mut points = Vec::new();
                    for (b, block) in function.blocks().iter().enumerate() {
                        for i in 0..=block.stmts.len() {
                            let heaps = before(function, solution, BlockId(b as u32), i);
                            let heaps: Vec<String> = heaps
                                .values()
                                .iter()
                                .map(|h| heap_text(function, h))
                                .collect();
                            points.push(json!({
                                "block": block.label,
                                "index": i,
                                "heaps": heaps,
                            }));
                        }
                    }
                    json!({ "name": function.name, "points": points })
                })
                .collect();
            let doc = json!({ "analysis": "alias-heap", "functions": functions });
            format!(
                "{}\n",
                serde_json::to_string_pretty(&doc).unwrap_or_default()
            )
        }
    };
    Report {
        output,
        stable: solutions.iter().all(|s| s.stop.is_stable()),
        warnings: Vec::new(),
        fell_back: None,
    }
}

/// What checking the alias heap against runs found.
#[derive(Clone, Debug, Default)]
pub struct HeapCheck {
    /// Runs made.
    pub runs: usize,
    /// Points of those runs compared with the heaps there.
    pub points: usize,
    /// Disagreements, described.
    pub violations: Vec<String>,
}

/// Runs every function of `input` `runs` times on arguments drawn from `seed`, and checks that
/// at every point some heap of the disjunction describes the run's variables (aliasing,
/// allocation sites and generations, [`absinthe_ir::heap_check::describes`]).
pub fn verify(input: &Input, runs: usize, seed: u64, max_steps: u64) -> HeapCheck {
    let module = input.module();
    let mut check = HeapCheck::default();
    let solutions = solve_all(&module);
    let (mut points, mut violations) = (0, Vec::new());
    check.runs = crate::runs::each_run(&module, runs, seed, max_steps, &mut |seen| {
        let function = &module.functions[seen.function.index()];
        let solution = &solutions[seen.function.index()];
        for (b, i, env) in seen.points {
            points += 1;
            let heaps = before(function, solution, *b, *i);
            let described = heaps
                .values()
                .iter()
                .any(|h| absinthe_ir::heap_check::describes(h, env, &seen.run.sites));
            if !described {
                violations.push(format!(
                    "`{}` with arguments {:?}, before statement {i} of {}: no heap of {} \
                     describes the run",
                    function.name,
                    seen.args,
                    function.blocks()[b.index()].label,
                    heaps_text(function, &heaps)
                ));
            }
        }
    });
    check.points = points;
    check.violations = violations;
    check
}
