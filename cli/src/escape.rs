//! Analyses whose engine is `escape` (`--analysis escape`, or a `.dom` file saying
//! `engine escape;`): the escape and alias analysis ([`absinthe_heap::escape`]) over every
//! function of a core-IR module, callees first, with the declaration's value domain as the values
//! of names. Printed as the heaps and known values before every statement and terminator, then
//! each function's facts; checked against runs in every frame ([`absinthe_ir::escape_check`]).

use crate::driver::{Format, Input, Report};
use absinthe::lattice::Lattice;
use absinthe::program::{BlockId, NameId};
use absinthe::value::ValueDomain;
use absinthe_heap::escape::{FunctionFacts, States, solve_module};
use absinthe_ir::escape_check::{EscapeCheck, check_run};
use absinthe_ir::escape_text::{facts_text, loc_text, place_text, states_text};
use absinthe_ir::function::{Function, Module};
use absinthe_ir::interp::Limits;
use serde_json::json;

/// The states before each point of one function, block by block: the states inside a block
/// are rebuilt from its entry (`FunctionFacts::states_before`), once per block.
struct Points<'a, D> {
    facts: &'a FunctionFacts<D>,
    function: &'a Function,
    block: Option<(BlockId, Vec<States<D>>)>,
}

impl<'a, D: ValueDomain> Points<'a, D> {
    fn new(facts: &'a FunctionFacts<D>, function: &'a Function) -> Self {
        Points {
            facts,
            function,
            block: None,
        }
    }

    /// The states before statement `index` of `block` (`index` equal to the statement count:
    /// before the terminator), or unreachable.
    fn before(&mut self, block: BlockId, index: usize) -> States<D> {
        let states = match &self.block {
            Some((b, states)) if *b == block => states,
            _ => {
                let states = self.facts.states_before(self.function, block);
                &self.block.insert((block, states)).1
            }
        };
        states.get(index).cloned().unwrap_or_else(States::bottom)
    }
}

/// The values the names hold at a point, all heaps joined, leaving out names with no value yet
/// and names that may be anything: `x = [0, 9], n = 3`.
fn values_text<D: ValueDomain>(function: &Function, states: &States<D>) -> String {
    let Some(hull) = states.hull() else {
        return String::new();
    };
    let parts: Vec<String> = (0..function.names.len())
        .filter_map(|x| {
            let value = hull.values.get(NameId(x as u32));
            (!value.is_bottom() && !value.is_top())
                .then(|| format!("{} = {value}", function.names[x]))
        })
        .collect();
    parts.join(", ")
}

/// A point's text: the heaps, then the known values.
fn point_text<D: ValueDomain>(module: &Module, function: &Function, states: &States<D>) -> String {
    let heaps = states_text(module, function, states);
    let values = values_text(function, states);
    if values.is_empty() {
        heaps
    } else {
        format!("{heaps}  with {values}")
    }
}

/// Runs the analysis `name` (value domain `D`, up to `heaps` heaps kept apart at a point) over
/// every function of `input`, and renders it.
pub fn run<D: ValueDomain>(input: &Input, format: Format, name: &str, heaps: usize) -> Report {
    let module = input.module();
    let facts = solve_module::<D, _>(&module, heaps);
    let output = match format {
        Format::Text => {
            let mut out = format!(
                "# analysis: {name} (escape and alias analysis; objects by allocation site, \
                 `·old` for a site's older objects, `^a` for what input `a` referred to on entry, \
                 `?` for objects the function does not know; up to {heaps} heaps kept apart)\n"
            );
            for (function, facts) in module.functions.iter().zip(&facts) {
                let mut points = Points::new(facts, function);
                out.push_str(&crate::render::annotated_function(
                    &module,
                    function,
                    &mut |b, i| point_text(&module, function, &points.before(b, i)),
                ));
                out.push_str(&format!("facts of {}:\n", function.name));
                out.push_str(&facts_text(&module, function, facts));
                out.push('\n');
            }
            out
        }
        Format::Json => {
            let functions: Vec<_> = module
                .functions
                .iter()
                .zip(&facts)
                .map(|(function, facts)| function_json(&module, function, facts))
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

/// One function's points and facts as JSON.
fn function_json<D: ValueDomain>(
    module: &Module,
    function: &Function,
    facts: &FunctionFacts<D>,
) -> serde_json::Value {
    let mut points = Vec::new();
    let mut states_at = Points::new(facts, function);
    for (b, block) in function.blocks().iter().enumerate() {
        for i in 0..=block.stmts.len() {
            let states = states_at.before(BlockId(b as u32), i);
            let heaps: Vec<String> = states
                .disjuncts()
                .iter()
                .map(|d| absinthe_ir::escape_text::heap_text(module, function, &d.heap))
                .collect();
            points.push(json!({
                "block": block.label,
                "index": i,
                "heaps": heaps,
                "values": values_text(function, &states),
            }));
        }
    }
    let operand =
        |o: &absinthe::program::Operand| absinthe_ir::escape_text::operand_text(function, o);
    let loads: Vec<_> = facts
        .loads
        .iter()
        .map(|(p, fact)| {
            json!({
                "at": place_text(function, p),
                "forwarded": fact.forwarded.as_ref().map(operand),
            })
        })
        .collect();
    let stores: Vec<_> = facts
        .stores
        .iter()
        .map(|(p, strong)| json!({ "at": place_text(function, p), "strong": strong }))
        .collect();
    let places = |set: &std::collections::BTreeSet<absinthe_heap::escape::Place>| {
        set.iter()
            .map(|p| place_text(function, p))
            .collect::<Vec<_>>()
    };
    let allocations: Vec<_> = facts
        .allocations
        .iter()
        .map(|a| {
            let site = absinthe_heap::escape::Loc::Recent(a.site);
            json!({
                "site": loc_text(function, &site),
                "name": function.names.get(a.dest.index()),
                "returned": places(&a.escape.returned),
                "thrown": places(&a.escape.thrown),
                "escapes": places(&a.escape.global),
                "scalar": a.scalar,
                "sink_to": a.sink_to.and_then(|b| function.blocks().get(b.index()).map(|b| &b.label)),
            })
        })
        .collect();
    json!({
        "name": function.name,
        "points": points,
        "loads": loads,
        "stores": stores,
        "allocations": allocations,
        "may_alias": facts
            .alias_groups
            .iter()
            .map(|group| group.iter().map(|n| &function.names[n.index()]).collect::<Vec<_>>())
            .collect::<Vec<_>>(),
        "summary": absinthe_ir::escape_text::summary_text(module, function, &facts.summary)
            .lines()
            .map(str::trim)
            .collect::<Vec<_>>(),
    })
}

/// Runs every function of `input` `runs` times on arguments drawn from `seed` and checks the
/// analysis in every frame: points-to sets, must-aliases, forwarded loads, values, reachability,
/// and the escapes of what the top-level function returns or throws.
pub fn verify<D: ValueDomain>(
    input: &Input,
    heaps: usize,
    runs: usize,
    seed: u64,
    max_steps: u64,
) -> EscapeCheck {
    let module = input.module();
    let facts = solve_module::<D, _>(&module, heaps);
    let limits = Limits {
        max_steps,
        ..Limits::default()
    };
    let mut check = EscapeCheck::default();
    for (function, args) in crate::runs::arguments(&module, runs, seed) {
        check_run(&module, &facts, function, &args, &limits, &mut check);
    }
    check
}
