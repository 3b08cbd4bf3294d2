//! Interprocedural analysis of core-IR modules: runs any analysis's domain across calls with
//! `absinthe_interproc`, and renders every function with its states joined over contexts.

use crate::analyses::{Analysis, ForDomain};
use crate::driver::{Format, Report};
use crate::render::{annotated, env_json_with, env_text_with, value_json, value_text};
use absinthe::engine::{Limits, StopReason};
use absinthe::program::{BlockId, FuncId, Stmt};
use absinthe::value::ValueDomain;
use absinthe_interproc::{
    ContextPolicy, InterprocLimits, InterprocSolution, ProcValue, solve_module,
};
use absinthe_ir::Module;
use serde_json::{Value, json};

/// Where an interprocedural run starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// `main` when the module has one, else every function.
    Auto,
    /// Every function, with parameters and captures that may hold anything.
    All,
    /// The function of this name, its parameters any integer.
    Named(String),
}

impl Entry {
    /// Parses `all`, `auto` or a function name.
    pub fn parse(text: &str) -> Entry {
        match text {
            "all" => Entry::All,
            "auto" => Entry::Auto,
            name => Entry::Named(name.to_owned()),
        }
    }

    /// The entry function of `module`: `Ok(None)` for every function.
    pub fn resolve(&self, module: &Module) -> Result<Option<FuncId>, String> {
        match self {
            Entry::All => Ok(None),
            Entry::Auto => Ok(module.func_id("main")),
            Entry::Named(name) => module
                .func_id(name)
                .map(Some)
                .ok_or_else(|| format!("the module has no function `{name}` to start from")),
        }
    }
}

/// Whether `module` has calls, so that its analysis is interprocedural by default.
pub fn has_calls(module: &Module) -> bool {
    module
        .functions
        .iter()
        .any(|f| f.blocks().iter().any(|b| b.stmts.iter().any(Stmt::is_call)))
}

/// Runs `analysis` on `module` interprocedurally and renders it.
pub fn run<A: Analysis>(
    module: &Module,
    analysis: A,
    policy: ContextPolicy,
    entry: &Entry,
    limits: &Limits,
    format: Format,
) -> Result<Report, String> {
    let entry = entry.resolve(module)?;
    struct Run<'a, A: Analysis> {
        module: &'a Module,
        analysis: A,
        policy: ContextPolicy,
        entry: Option<FuncId>,
        limits: &'a Limits,
        format: Format,
    }
    impl<A: Analysis> ForDomain for Run<'_, A> {
        type Output = Report;
        fn run<D: ValueDomain>(self) -> Report {
            let limits = InterprocLimits {
                intra: self.limits.clone(),
                ..InterprocLimits::default()
            };
            let solution: InterprocSolution<D> = solve_module(
                self.module,
                self.entry,
                self.analysis.conditional(),
                self.policy,
                &limits,
            );
            let mut warnings = Vec::new();
            if !solution.stop().is_stable() {
                warnings.push(format!(
                    "the interprocedural analysis stopped early ({}); the states shown are not a \
                     fixpoint and may be unsound",
                    stop_words(solution.stop())
                ));
            }
            let header = Header {
                analysis: self.analysis.as_str(),
                policy: self.policy,
                entry: self.entry,
            };
            let output = match self.format {
                Format::Text => text(self.module, &header, &solution),
                Format::Json => json_doc(self.module, &header, &solution),
            };
            Report {
                output,
                stable: solution.stop().is_stable(),
                warnings,
                fell_back: None,
            }
        }
    }
    Ok(analysis.dispatch(Run {
        module,
        analysis,
        policy,
        entry,
        limits,
        format,
    }))
}

/// Checks `analysis`, run interprocedurally from `entry`, against concrete runs of `entry` that
/// observe every frame (see [`crate::verify::verify_interproc`]).
pub fn verify<A: Analysis>(
    module: &Module,
    analysis: A,
    policy: ContextPolicy,
    entry: FuncId,
    limits: &Limits,
    config: &crate::verify::VerifyConfig,
) -> crate::verify::VerifyReport {
    struct Check<'a, A: Analysis> {
        module: &'a Module,
        analysis: A,
        policy: ContextPolicy,
        entry: FuncId,
        limits: &'a Limits,
        config: &'a crate::verify::VerifyConfig,
    }
    impl<A: Analysis> ForDomain for Check<'_, A> {
        type Output = crate::verify::VerifyReport;
        fn run<D: ValueDomain>(self) -> crate::verify::VerifyReport {
            let limits = InterprocLimits {
                intra: self.limits.clone(),
                ..InterprocLimits::default()
            };
            let solution: InterprocSolution<D> = solve_module(
                self.module,
                Some(self.entry),
                self.analysis.conditional(),
                self.policy,
                &limits,
            );
            crate::verify::verify_interproc(self.module, self.entry, &solution, self.config)
        }
    }
    analysis.dispatch(Check {
        module,
        analysis,
        policy,
        entry,
        limits,
        config,
    })
}

fn stop_words(stop: &StopReason) -> String {
    match stop {
        StopReason::Stable => "stable".to_owned(),
        StopReason::Budget { visits } => format!("budget exhausted after {visits} visits"),
        StopReason::LawViolation { message, .. } => format!("lattice law violated: {message}"),
    }
}

struct Header {
    analysis: &'static str,
    policy: ContextPolicy,
    entry: Option<FuncId>,
}

fn entry_name(module: &Module, entry: Option<FuncId>) -> String {
    entry.map_or_else(
        || "every function".to_owned(),
        |f| {
            module
                .function(f)
                .map_or("?", |f| f.name.as_str())
                .to_owned()
        },
    )
}

fn value_doc<D: ValueDomain>(value: &ProcValue<D>, module: &Module) -> Value {
    if value.funcs.is_empty() && !value.block {
        value_json(&value.int)
    } else {
        json!(value_text(value, module))
    }
}

fn text<D: ValueDomain>(
    module: &Module,
    header: &Header,
    solution: &InterprocSolution<D>,
) -> String {
    let mut out = format!(
        "# analysis: {} (interprocedural; contexts: {}; entry: {})\n",
        header.analysis,
        header.policy,
        entry_name(module, header.entry)
    );
    let calls: Vec<String> = solution
        .call_graph()
        .into_iter()
        .map(|(a, b)| format!("{} → {}", func_name(module, a), func_name(module, b)))
        .collect();
    out.push_str(&format!(
        "# call graph: {}\n",
        if calls.is_empty() {
            "no calls".to_owned()
        } else {
            calls.join(", ")
        }
    ));
    for (index, function) in module.functions.iter().enumerate() {
        let id = FuncId::new(index);
        let contexts = solution.instances_of(id).count();
        if contexts == 0 {
            out.push_str(&format!("# {}: never called\n", function.name));
        } else {
            let (returns, value) = solution.summary(id);
            let result = if returns {
                format!("returns {}", value_text(&value, module))
            } else {
                "never returns".to_owned()
            };
            out.push_str(&format!(
                "# {}: {contexts} context{}; {result}\n",
                function.name,
                if contexts == 1 { "" } else { "s" }
            ));
        }
        let mut code = String::new();
        // Writing to a String cannot fail.
        let _ = absinthe_ir::air::print::write_function(&mut code, module, function);
        let mut states: Vec<Option<String>> = vec![None];
        for (b, block) in function.blocks().iter().enumerate() {
            states.push(None);
            states.extend(block.phis.iter().map(|_| None));
            if contexts > 0 {
                for env in solution.block_states(module, id, BlockId::new(b)) {
                    states.push(Some(env_text_with(&env, &function.names, |v| {
                        value_text(v, module)
                    })));
                }
            } else {
                states.extend((0..=block.stmts.len()).map(|_| None));
            }
        }
        let lines: Vec<&str> = code.lines().collect();
        let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        for (line, state) in lines
            .iter()
            .zip(states.into_iter().chain(std::iter::repeat(None)))
        {
            match state {
                Some(state) => out.push_str(&annotated(line, &state, width)),
                None => out.push_str(line),
            }
            out.push('\n');
        }
    }
    out
}

fn func_name(module: &Module, f: FuncId) -> &str {
    module.function(f).map_or("?", |f| f.name.as_str())
}

fn json_doc<D: ValueDomain>(
    module: &Module,
    header: &Header,
    solution: &InterprocSolution<D>,
) -> String {
    let functions: Vec<Value> = module
        .functions
        .iter()
        .enumerate()
        .map(|(index, function)| {
            let id = FuncId::new(index);
            let contexts = solution.instances_of(id).count();
            let (returns, value) = solution.summary(id);
            let blocks: Vec<Value> = function
                .blocks()
                .iter()
                .enumerate()
                .map(|(b, block)| {
                    let points: Vec<Value> = solution
                        .block_states(module, id, BlockId::new(b))
                        .iter()
                        .enumerate()
                        .map(|(i, env)| {
                            let state =
                                env_json_with(env, &function.names, |v| value_doc(v, module));
                            json!({ "index": i, "reachable": env.is_reachable(), "state": state })
                        })
                        .collect();
                    json!({ "label": block.label, "points": points })
                })
                .collect();
            json!({
                "name": function.name,
                "contexts": contexts,
                "returns": returns,
                "result": value_doc(&value, module),
                "blocks": blocks,
            })
        })
        .collect();
    let calls: Vec<Value> = solution
        .call_graph()
        .into_iter()
        .map(|(a, b)| json!([func_name(module, a), func_name(module, b)]))
        .collect();
    let doc = json!({
        "analysis": header.analysis,
        "interprocedural": true,
        "contexts": header.policy.to_string(),
        "entry": entry_name(module, header.entry),
        "call_graph": calls,
        "functions": functions,
    });
    format!(
        "{}\n",
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    )
}
