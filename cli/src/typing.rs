//! `--analysis typing-env`: the Flambda 2 typing environment ([`absinthe_typing_env`]) over
//! each function of a core-IR module (or a toy program), in SSA form, printed before every
//! statement and terminator; and its check against concrete runs.

use crate::driver::{Format, Input, Report};
use absinthe::program::{BlockId, NameId};
use absinthe::value::ValueDomain;
use absinthe_ir::function::{Function, Module};
use absinthe_ir::interp::{ObjectKind, Value};
use absinthe_typing_env::{Approx, ConcreteValue, EnvSolution, Ints, Summary, TypingEnv};
use serde_json::json;
use std::collections::BTreeMap;

/// The module `input` stands for, every function in SSA form.
fn ssa_module(input: &Input) -> Module {
    absinthe_ir::ssa::module_to_ssa(&input.module())
}

/// What the typing environment is run with: the analysis's name and the top of its value
/// domain, which integers fall back to past small sets of immediates (`None`: to `⊤`).
#[derive(Clone, Debug)]
pub struct Declared {
    /// The analysis's name, for the report.
    pub name: String,
    /// The top of the declared value domain.
    pub ints: Option<Ints>,
    /// The most immediates a set of constants keeps.
    pub max_imms: usize,
    /// The most values a set of naked numbers keeps, per kind (float, int32, int64,
    /// nativeint).
    pub numbers: [usize; 4],
}

impl Declared {
    /// The analysis `name`, its integers in value domain `D`.
    pub fn of<D: ValueDomain>(name: &str) -> Declared {
        Declared {
            name: name.to_owned(),
            ints: Some(Ints::top_of::<D>()),
            max_imms: TypingEnv::MAX_IMMS,
            numbers: [absinthe::spec::AnalysisSpec::DEFAULT_NUMBERS as usize; 4],
        }
    }

    /// The built-in `typing-env` (integers in the domain `dsl-examples/dom/typing_env.dom`
    /// declares).
    pub fn builtin() -> Declared {
        use absinthe::value::DeclaredAnalysis;
        use absinthe_dsl_examples::dom::typing_env::{TypingEnvAnalysis, TypingInts};
        let spec = <TypingEnvAnalysis as DeclaredAnalysis>::spec();
        Declared {
            max_imms: spec.immediates as usize,
            numbers: spec.numbers.map(|n| n as usize),
            ..Declared::of::<TypingInts>("typing-env")
        }
    }

    /// The environment every function starts from.
    fn start(&self) -> TypingEnv {
        let env = TypingEnv::new()
            .with_max_imms(self.max_imms)
            .with_max_numbers(self.numbers);
        match &self.ints {
            Some(top) => env.with_ints(top.clone()),
            None => env,
        }
    }
}

/// Every function of `module` solved with its callees' summaries (a call in a cycle of calls
/// gives `⊤`), callees first.
pub fn solve_module(module: &Module, declared: &Declared) -> Vec<(EnvSolution, Option<Summary>)> {
    absinthe_typing_env::solve_module(module, &declared.start())
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
pub fn run(input: &Input, format: Format, declared: &Declared) -> Report {
    let module = ssa_module(input);
    let solved = solve_module(&module, declared);
    let solutions: Vec<EnvSolution> = solved.iter().map(|(s, _)| s.clone()).collect();
    let summaries: Vec<Option<Summary>> = solved.into_iter().map(|(_, s)| s).collect();
    // Summaries print closures by the module's names of code and value slots.
    let base = absinthe_typing_env::with_module_names(&TypingEnv::new(), &module);
    let output = match format {
        Format::Text => text(&module, &solutions, &summaries, &base, &declared.name),
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
                    json!({ "name": function.name, "points": points, "locked": solution.locked })
                })
                .zip(&summaries)
                .map(|(mut doc, summary)| {
                    doc["summary"] = json!(summary.as_ref().map(|s| s.text(&base)));
                    doc
                })
                .collect();
            let doc = json!({ "analysis": declared.name, "functions": functions });
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
        fell_back: None,
    }
}

fn text(
    module: &Module,
    solutions: &[EnvSolution],
    summaries: &[Option<Summary>],
    base: &TypingEnv,
    name: &str,
) -> String {
    let mut out =
        format!("# analysis: {name} (typing environment; SSA form, one pass, no fixpoint)\n");
    for ((function, solution), summary) in module.functions.iter().zip(solutions).zip(summaries) {
        match summary {
            Some(s) => out.push_str(&format!("# {}: {}\n", function.name, s.text(base))),
            None => out.push_str(&format!("# {}: returns no value\n", function.name)),
        }
        match solution.locked {
            0 => {}
            1 => out.push_str(&format!(
                "# {}: under the lock, from the one place that makes its closures\n",
                function.name
            )),
            n => out.push_str(&format!(
                "# {}: under the lock, from the {n} places that make its closures, joined\n",
                function.name
            )),
        }
        out.push_str(&crate::render::annotated_function(
            module,
            function,
            &mut |b, i| match &solution.blocks[b.index()] {
                Some(envs) => envs.before(i).to_string(),
                None => "unreachable".to_owned(),
            },
        ));
    }
    out
}

/// What a run showed: each frame's variables before each point, and each return with the
/// point of its frame seen last (whose variables hold the frame's inputs).
#[derive(Default)]
struct Watch {
    points: Vec<(
        absinthe::program::FuncId,
        BlockId,
        usize,
        Vec<Option<Value>>,
    )>,
    /// By depth: the index in `points` of the frame's latest point.
    latest: Vec<usize>,
    returns: Vec<(absinthe::program::FuncId, usize, Option<Value>)>,
}

impl absinthe_ir::interp::FrameObserver for Watch {
    fn before(
        &mut self,
        depth: usize,
        func: absinthe::program::FuncId,
        block: BlockId,
        index: usize,
        env: &[Option<Value>],
    ) {
        if self.latest.len() <= depth {
            self.latest.resize(depth + 1, 0);
        }
        self.latest[depth] = self.points.len();
        self.points.push((func, block, index, env.to_vec()));
    }

    fn returning(
        &mut self,
        depth: usize,
        func: absinthe::program::FuncId,
        value: Option<Value>,
        _heap: &[Vec<Option<Value>>],
    ) {
        if let Some(&at) = self.latest.get(depth) {
            self.returns.push((func, at, value));
        }
    }
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
    let r = match value {
        Value::Int(v) => return ConcreteValue::Int(v),
        Value::Ref(r) => r as usize,
    };
    let fields = || -> Vec<ConcreteValue> {
        heap[r]
            .iter()
            .map(|f| {
                f.map_or(ConcreteValue::Other, |v| {
                    concrete(v, heap, kinds, depth - 1)
                })
            })
            .collect()
    };
    match kinds.get(r) {
        Some(ObjectKind::Block(tag)) if depth > 0 => ConcreteValue::Block(*tag, fields()),
        Some(ObjectKind::Closure(f)) if depth > 0 => ConcreteValue::Closure(f.0, fields()),
        _ => ConcreteValue::Other,
    }
}

/// Runs every function of `input` (in SSA form) `runs` times on arguments drawn from `seed`, and
/// checks every value every name holds at every point against the environment there.
pub fn verify(
    input: &Input,
    declared: &Declared,
    runs: usize,
    seed: u64,
    max_steps: u64,
) -> TypingCheck {
    let module = ssa_module(input);
    let mut check = TypingCheck::default();
    let solved = solve_module(&module, declared);
    let mut violations = Vec::new();
    let mut values = 0;
    let limits = absinthe_ir::interp::Limits {
        max_steps,
        ..absinthe_ir::interp::Limits::default()
    };
    let mut checked = 0;
    let base = absinthe_typing_env::with_module_names(&declared.start(), &module);
    for (entry, args) in crate::runs::arguments(&module, runs, seed) {
        // Every frame's points, callees and closure bodies included: a closure body runs only
        // when something applies it, and is solved under the lock from its creators. A run cut
        // short by the step or depth bound is checked as far as it went: every point it reached
        // is one the environment there must describe.
        let mut watch = Watch::default();
        let run = absinthe_ir::interp::run_all_frames(&module, entry, &args, &limits, &mut watch);
        checked += 1;
        let points = watch.points;
        // Each return against the summary of its function, applied to the frame's inputs.
        for (f, at, value) in &watch.returns {
            let (Some(summary), Some(value)) = (&solved[f.index()].1, value) else {
                continue;
            };
            let function = &module.functions[f.index()];
            let vars = &points[*at].3;
            let inputs: Vec<Option<ConcreteValue>> = function
                .params
                .iter()
                .chain(&function.captures)
                .map(|p| {
                    let value = vars.get(p.index()).copied().flatten()?;
                    Some(concrete(value, &run.heap, &run.kinds, 6))
                })
                .collect();
            let result = concrete(*value, &run.heap, &run.kinds, 6);
            if !absinthe_typing_env::summary_holds(summary, &base, &inputs, &result) {
                violations.push(format!(
                    "`{}` (run from `{}` with arguments {args:?}) returned {result:?} from inputs {inputs:?}, which its summary {} does not admit",
                    function.name,
                    module.functions[entry.index()].name,
                    summary.text(&base)
                ));
            }
        }
        let caller = &module.functions[entry.index()].name;
        for (f, b, i, vars) in &points {
            let function = &module.functions[f.index()];
            let solution = &solved[f.index()].0;
            let Some(envs) = &solution.blocks[b.index()] else {
                violations.push(format!(
                    "`{}` (run from `{caller}` with arguments {args:?}): block {} ran but the environment says it is unreachable",
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
            // The names of one must-alias class hold one value: the first seen of each class.
            let mut class_values: BTreeMap<absinthe_typing_env::Name, (NameId, ConcreteValue)> =
                BTreeMap::new();
            for (&n, &m) in &defined {
                let Some(Some(value)) = vars.get(n.index()) else {
                    continue;
                };
                values += 1;
                let value = concrete(*value, &run.heap, &run.kinds, 6);
                match class_values.get(&env.canonical(m)) {
                    Some((other, seen)) if *seen != value => violations.push(format!(
                        "`{}` (run from `{caller}` with arguments {args:?}), before statement {i} of {}: {} = {value:?} and {} = {seen:?}, which the environment says are one value",
                        function.name,
                        function.blocks()[b.index()].label,
                        function.names[n.index()],
                        function.names[other.index()],
                    )),
                    Some(_) => {}
                    None => {
                        class_values.insert(env.canonical(m), (n, value.clone()));
                    }
                }
                if !absinthe_typing_env::admits(env, &Approx::Alias(m), &value, 4) {
                    violations.push(format!(
                        "`{}` (run from `{caller}` with arguments {args:?}), before statement {i} of {}: {} = {value:?} is not in {}",
                        function.name,
                        function.blocks()[b.index()].label,
                        function.names[n.index()],
                        env.show(&env.describe(m))
                    ));
                }
            }
        }
    }
    let runs = checked;
    check.runs = runs;
    check.values = values;
    check.violations = violations;
    check
}
