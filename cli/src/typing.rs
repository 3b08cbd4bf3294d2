//! `--analysis typing-env`: the Flambda 2 typing environment ([`absinthe::typing_env`]) over
//! each function of a core-IR module (or a toy program), in SSA form, printed before every
//! statement and terminator; and its check against concrete runs.

use crate::driver::{Format, Input, Report};
use crate::render::annotated;
use absinthe::program::{BlockId, FuncId, NameId};
use absinthe::typing_env::{self, Approx, ConcreteValue, EnvSolution, TypingEnv};
use absinthe_ir::function::{Function, Module};
use absinthe_ir::interp::{self, ObjectKind, Outcome, Value};
use serde_json::json;
use std::collections::BTreeMap;

/// The module `input` stands for, every function in SSA form.
fn ssa_module(input: &Input) -> Module {
    let module = match input {
        Input::Air { module, .. } => module.clone(),
        Input::Toy { program, .. } => Module {
            functions: vec![program.lower().0],
            fields: Vec::new(),
        },
    };
    Module {
        functions: module
            .functions
            .iter()
            .map(absinthe_ir::ssa::to_ssa)
            .collect(),
        fields: module.fields,
    }
}

/// The environment before each point of `function` (`None`: not reached), in the order the
/// printed function lists its statements and terminators.
fn points<'a>(
    function: &Function,
    solution: &'a EnvSolution,
) -> Vec<(BlockId, usize, Option<&'a TypingEnv>)> {
    let mut out = Vec::new();
    for (b, block) in function.blocks().iter().enumerate() {
        for i in 0..=block.stmts.len() {
            let env = solution.blocks[b].as_ref().map(|envs| envs.before(i));
            out.push((BlockId(b as u32), i, env));
        }
    }
    out
}

/// Runs the typing environment over every function of `input` and renders it.
pub fn run(input: &Input, format: Format) -> Report {
    let module = ssa_module(input);
    let solutions: Vec<EnvSolution> = module.functions.iter().map(typing_env::analyze).collect();
    let output = match format {
        Format::Text => text(&module, &solutions),
        Format::Json => {
            let functions: Vec<_> = module
                .functions
                .iter()
                .zip(&solutions)
                .map(|(function, solution)| {
                    let points: Vec<_> = points(function, solution)
                        .into_iter()
                        .map(|(b, i, env)| {
                            json!({
                                "block": function.blocks()[b.index()].label,
                                "index": i,
                                "env": env.map(ToString::to_string),
                            })
                        })
                        .collect();
                    json!({ "name": function.name, "points": points })
                })
                .collect();
            let doc = json!({ "analysis": "typing-env", "functions": functions });
            format!(
                "{}\n",
                serde_json::to_string_pretty(&doc).unwrap_or_default()
            )
        }
    };
    Report {
        output,
        stable: true,
        warnings: Vec::new(),
    }
}

fn text(module: &Module, solutions: &[EnvSolution]) -> String {
    let mut out = String::from("# analysis: typing-env (SSA form, one pass, no fixpoint)\n");
    for (function, solution) in module.functions.iter().zip(solutions) {
        let mut printed = String::new();
        // Writing to a String cannot fail.
        let _ = absinthe_ir::air::print::write_function(&mut printed, module, function);
        // One line per item: the signature, per block its label, φs, statements and terminator,
        // then the closing brace.
        let mut states: Vec<Option<String>> = vec![None];
        let envs = points(function, solution);
        let mut at = 0;
        for block in function.blocks() {
            states.push(None);
            states.extend(block.phis.iter().map(|_| None));
            for _ in 0..=block.stmts.len() {
                let shown = match envs[at].2 {
                    Some(env) => env.to_string(),
                    None => "unreachable".to_owned(),
                };
                states.push(Some(shown));
                at += 1;
            }
        }
        let lines: Vec<&str> = printed.lines().collect();
        let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        for (i, line) in lines.iter().enumerate() {
            match states.get(i).cloned().flatten() {
                Some(state) => out.push_str(&annotated(line, &state, width)),
                None => out.push_str(line),
            }
            out.push('\n');
        }
    }
    out
}

/// What checking the typing environment against runs found.
#[derive(Clone, Debug, Default)]
pub struct TypingCheck {
    /// Runs made.
    pub runs: usize,
    /// Values compared with what the environment says.
    pub values: usize,
    /// Disagreements, described.
    pub violations: Vec<String>,
}

/// A run's value as the typing environment reads it (blocks are immutable, so the heap at the
/// end of the run holds their contents).
fn concrete(
    value: Value,
    heap: &[Vec<Option<Value>>],
    kinds: &[ObjectKind],
    depth: usize,
) -> ConcreteValue {
    match value {
        Value::Int(v) => ConcreteValue::Int(v),
        Value::Ref(r) => match kinds.get(r as usize) {
            Some(ObjectKind::Block(tag)) if depth > 0 => ConcreteValue::Block(
                *tag,
                heap[r as usize]
                    .iter()
                    .map(|f| match f {
                        Some(v) => concrete(*v, heap, kinds, depth - 1),
                        None => ConcreteValue::Other,
                    })
                    .collect(),
            ),
            _ => ConcreteValue::Other,
        },
    }
}

/// Runs every function of `input` (in SSA form) `runs` times on arguments drawn from `seed`, and
/// checks every value every name holds at every point against the environment there.
pub fn verify(input: &Input, runs: usize, seed: u64, max_steps: u64) -> TypingCheck {
    let module = ssa_module(input);
    let mut check = TypingCheck::default();
    let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    for (f, function) in module.functions.iter().enumerate() {
        let solution = typing_env::analyze(function);
        for _ in 0..runs {
            let args: Vec<i64> = function
                .params
                .iter()
                .map(|_| (next() % 21) as i64 - 10)
                .collect();
            let mut seen: Vec<(BlockId, usize, Vec<Option<Value>>)> = Vec::new();
            let mut observe = |b: BlockId, i: usize, env: &[Option<Value>]| {
                seen.push((b, i, env.to_vec()));
            };
            let limits = interp::Limits {
                max_steps,
                ..interp::Limits::default()
            };
            let run = interp::run(&module, FuncId(f as u32), &args, &limits, &mut observe);
            if matches!(run.outcome, Outcome::OutOfSteps | Outcome::TooDeep) {
                continue;
            }
            check.runs += 1;
            for (b, i, values) in &seen {
                let Some(envs) = &solution.blocks[b.index()] else {
                    check.violations.push(format!(
                        "`{}` with arguments {args:?}: block {} ran but the environment says it is unreachable",
                        function.name,
                        function.blocks()[b.index()].label
                    ));
                    continue;
                };
                let env = envs.before(*i);
                let defined: BTreeMap<NameId, _> = envs
                    .names
                    .iter()
                    .filter(|(_, m)| m.index() < env.len())
                    .map(|(&n, &m)| (n, m))
                    .collect();
                for (&n, &m) in &defined {
                    let Some(Some(value)) = values.get(n.index()) else {
                        continue;
                    };
                    check.values += 1;
                    let value = concrete(*value, &run.heap, &run.kinds, 4);
                    if !typing_env::admits(env, &Approx::Alias(m), &value, 4) {
                        check.violations.push(format!(
                            "`{}` with arguments {args:?}, before statement {i} of {}: {} = {value:?} is not in {}",
                            function.name,
                            function.blocks()[b.index()].label,
                            function.names[n.index()],
                            env.show(&env.describe(m))
                        ));
                    }
                }
            }
        }
    }
    check
}
