//! Interprocedural value analysis on core-IR modules: what each context policy proves on a
//! hand-written module, the command line, and the comparison with analyzing each function
//! alone with unknown arguments.

use absinthe::engine::Limits;
use absinthe::lattice::{Flat, Interval};
use absinthe::program::{BlockId, FuncId};
use absinthe::value::{NonRelational, ValueDomain};
use absinthe_interproc::{ContextPolicy, InterprocLimits, InterprocSolution, solve_module};
use absinthe_ir::{Module, parse_module};

use crate::common;
use common::absinthe;

fn module(path: &str) -> Module {
    let full = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&full).expect("the sample exists");
    parse_module(path, &text).expect("the sample parses")
}

fn solve<D: ValueDomain>(
    module: &Module,
    conditional: bool,
    policy: ContextPolicy,
) -> InterprocSolution<D> {
    solve_module(
        module,
        module.func_id("main"),
        conditional,
        policy,
        &InterprocLimits::default(),
    )
}

fn func(module: &Module, name: &str) -> FuncId {
    module.func_id(name).expect("the function exists")
}

const POLICIES: [ContextPolicy; 4] = [
    ContextPolicy::Insensitive,
    ContextPolicy::CallStrings(1),
    ContextPolicy::CallStrings(2),
    ContextPolicy::Functional {
        max_per_function: 16,
    },
];

#[test]
fn contexts_tell_the_two_calls_of_add_apart() {
    let m = module("ir/test_data/calls.air");
    let main = func(&m, "main");
    // One summary for both calls of `add` joins (2, 3) with (5, 10): the result is unknown.
    let insensitive = solve::<Flat<i64>>(&m, false, ContextPolicy::Insensitive);
    assert!(insensitive.stop().is_stable());
    let (returns, value) = insensitive.summary(main);
    assert!(returns);
    assert_eq!(value.int, Flat::Top);
    for policy in [
        ContextPolicy::CallStrings(1),
        ContextPolicy::Functional {
            max_per_function: 16,
        },
    ] {
        let s = solve::<Flat<i64>>(&m, false, policy);
        assert!(s.stop().is_stable(), "{policy}");
        let (returns, value) = s.summary(main);
        assert!(returns);
        assert_eq!(value.int, Flat::Value(15), "{policy}");
        assert_eq!(s.instances_of(func(&m, "add")).count(), 2, "{policy}");
    }
}

#[test]
fn recursion_terminates_and_branches_bound_what_returns() {
    let m = module("ir/test_data/calls.air");
    for policy in POLICIES {
        let s = solve::<Interval>(&m, true, policy);
        assert!(s.stop().is_stable(), "{policy}");
        let (returns, clamp) = s.summary(func(&m, "clamp"));
        assert!(returns);
        assert_eq!(clamp.int, Interval::new(0, 100), "{policy}");
        // `fact` is entered with k = 5 and recursive calls decrease it: inside the recursive
        // branch, 2 ≤ k ≤ 5.
        let fact = func(&m, "fact");
        let rec = BlockId::new(2);
        let k = m.function(fact).and_then(|f| f.name_id("k")).expect("k");
        let entry = s.entry_state(fact, rec);
        assert_eq!(entry.get(k).int, Interval::new(2, 5), "{policy}");
        assert_eq!(
            s.call_graph(),
            vec![
                (func(&m, "main"), func(&m, "add")),
                (func(&m, "main"), func(&m, "fact")),
                (func(&m, "main"), func(&m, "clamp")),
                (fact, fact),
            ]
            .into_iter()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect::<Vec<_>>(),
        );
    }
}

/// Every block state of every reached function, interprocedurally, is below the state of the
/// same block analyzed alone with unknown arguments (integer parts; call results are unknown
/// there), for every context policy.
pub fn assert_at_least_as_precise<D: ValueDomain>(m: &Module, conditional: bool, what: &str) {
    for policy in POLICIES {
        let s = solve_module::<Module, D>(
            m,
            m.func_id("main"),
            conditional,
            policy,
            &InterprocLimits::default(),
        );
        if s.stop().is_stable() {
            assert_at_least_as_precise_in::<D>(m, conditional, policy, &s, what);
        }
    }
}

#[test]
fn interprocedural_results_are_below_the_intraprocedural_ones_on_the_sample() {
    let m = module("ir/test_data/calls.air");
    assert_at_least_as_precise::<Flat<i64>>(&m, false, "const");
    assert_at_least_as_precise::<Flat<i64>>(&m, true, "sccp");
    assert_at_least_as_precise::<Interval>(&m, true, "interval");
}

#[test]
fn the_command_line_analyzes_modules_with_calls_interprocedurally() {
    let (code, out, err) = absinthe(&[
        "analyze",
        "ir/test_data/calls.air",
        "--analysis",
        "const",
        "--context",
        "kcfa=1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("# analysis: const (interprocedural; contexts: kcfa=1; entry: main)"));
    assert!(out.contains("# main: 1 context; returns 15"), "{out}");
    assert!(out.contains("# add: 2 contexts; returns ⊤"), "{out}");
    assert!(out.contains("fact → fact"), "{out}");

    let (code, out, err) = absinthe(&[
        "analyze",
        "ir/test_data/calls.air",
        "--analysis",
        "interval",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(doc["interprocedural"], true);
    assert_eq!(doc["contexts"], "insensitive");
    let clamp = doc["functions"]
        .as_array()
        .and_then(|fs| fs.iter().find(|f| f["name"] == "clamp"))
        .expect("clamp");
    assert_eq!(clamp["result"], "[0, 100]");

    // Alone, with unknown arguments, as before.
    let (code, out, _) = absinthe(&["analyze", "ir/test_data/calls.air", "--context", "intra"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("# analysis: const\n"), "{out}");

    let (code, _, err) = absinthe(&[
        "analyze",
        "ir/test_data/calls.air",
        "--context",
        "sometimes",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("unknown context policy `sometimes`"), "{err}");
    let (code, _, err) = absinthe(&["analyze", "ir/test_data/calls.air", "--entry", "nope"]);
    assert_ne!(code, 0);
    assert!(err.contains("no function `nope`"), "{err}");
}

#[test]
fn declared_analyses_run_across_functions_with_their_declared_context() {
    use absinthe::value::{Concrete, DeclaredAnalysis};
    use absinthe_dsl_examples::dom::const_prop::SccpPropAnalysis;
    use absinthe_dsl_examples::signs::SignsCallStrings;
    let m = module("ir/test_data/calls.air");
    let main = m.func_id("main");
    // A `.dom` analysis, context-insensitive by default.
    assert_eq!(SccpPropAnalysis::spec().context, ContextPolicy::Insensitive);
    let s = absinthe_interproc::solve_declared::<SccpPropAnalysis, _>(&m, main);
    assert!(s.stop().is_stable());
    let clamp = func(&m, "clamp");
    assert_eq!(s.instances_of(clamp).count(), 1);
    // An attribute-declared analysis with `context = "kcfa=2"`: two instances of `add`, and the
    // sign of what main returns is known.
    assert_eq!(
        SignsCallStrings::spec().context,
        ContextPolicy::CallStrings(2)
    );
    let s = absinthe_interproc::solve_declared::<SignsCallStrings, _>(&m, main);
    assert!(s.stop().is_stable());
    assert_eq!(s.instances_of(func(&m, "add")).count(), 2);
    let (returns, value) = s.summary(func(&m, "main"));
    assert!(returns);
    assert!(
        !value.int.contains(0) && value.int.contains(15),
        "{}",
        value.int
    );
}

/// Builds a module from functions given as `(name, params, captures, names, blocks)`.
mod build {
    use absinthe::program::{BlockId, NameId, Terminator};
    use absinthe_ir::{Block, Function, Module};

    pub struct F {
        pub name: &'static str,
        pub params: Vec<u32>,
        pub captures: Vec<u32>,
        pub names: Vec<&'static str>,
        pub blocks: Vec<(Vec<absinthe::program::Stmt>, Terminator)>,
    }

    pub fn module(functions: Vec<F>) -> Module {
        Module {
            functions: functions
                .into_iter()
                .map(|f| {
                    let blocks = f
                        .blocks
                        .into_iter()
                        .enumerate()
                        .map(|(i, (stmts, term))| Block {
                            label: format!("bb{i}"),
                            phis: Vec::new(),
                            stmts,
                            term,
                        })
                        .collect();
                    let mut func = Function::new(
                        f.name.to_owned(),
                        false,
                        f.params.into_iter().map(NameId).collect(),
                        f.names.into_iter().map(str::to_owned).collect(),
                        blocks,
                    );
                    func.captures = f.captures.into_iter().map(NameId).collect();
                    func
                })
                .collect(),
            fields: Vec::new(),
            symbols: Vec::new(),
        }
    }

    pub fn b(i: usize) -> BlockId {
        BlockId::new(i)
    }
}

/// `main(n)` picks one of two closures on `n`'s sign and applies it, directly and through the
/// higher-order `twice(g, x) = g(g(x))`.
fn closures_module() -> Module {
    use absinthe::program::{Cond, FuncId, NameId, Op, Operand, Rhs, Stmt, Terminator};
    use build::{F, b, module};
    let n = |i: u32| Operand::Name(NameId(i));
    let assign = |dest: u32, rhs: Rhs| Stmt::Assign {
        dest: NameId(dest),
        rhs,
    };
    module(vec![
        // main(n): 0 n, 1 c1, 2 c2, 3 f, 4 r, 5 s
        F {
            name: "main",
            params: vec![0],
            captures: vec![],
            names: vec!["n", "c1", "c2", "f", "r", "s"],
            blocks: vec![
                (
                    vec![
                        assign(1, Rhs::Closure(FuncId(1), Box::new([Operand::Int(3)]))),
                        assign(2, Rhs::Closure(FuncId(2), Box::new([]))),
                    ],
                    Terminator::Branch {
                        cond: Cond::Compare(Op::Lt, n(0), Operand::Int(0)),
                        then_to: b(1),
                        else_to: b(2),
                    },
                ),
                (vec![assign(3, Rhs::Use(n(1)))], Terminator::Goto(b(3))),
                (vec![assign(3, Rhs::Use(n(2)))], Terminator::Goto(b(3))),
                (
                    vec![
                        assign(4, Rhs::Apply(n(3), Box::new([Operand::Int(10)]))),
                        assign(5, Rhs::Call(FuncId(3), Box::new([n(1), Operand::Int(1)]))),
                    ],
                    Terminator::Return(Some(n(4))),
                ),
            ],
        },
        // inc(x) [k]: 0 x, 1 k, 2 r
        F {
            name: "inc",
            params: vec![0],
            captures: vec![1],
            names: vec!["x", "k", "r"],
            blocks: vec![(
                vec![assign(2, Rhs::Binary(Op::Add, n(0), n(1)))],
                Terminator::Return(Some(n(2))),
            )],
        },
        // dbl(x): 0 x, 1 r
        F {
            name: "dbl",
            params: vec![0],
            captures: vec![],
            names: vec!["x", "r"],
            blocks: vec![(
                vec![assign(1, Rhs::Binary(Op::Mul, n(0), Operand::Int(2)))],
                Terminator::Return(Some(n(1))),
            )],
        },
        // twice(g, x): 0 g, 1 x, 2 y, 3 z
        F {
            name: "twice",
            params: vec![0, 1],
            captures: vec![],
            names: vec!["g", "x", "y", "z"],
            blocks: vec![(
                vec![
                    assign(2, Rhs::Apply(n(0), Box::new([n(1)]))),
                    assign(3, Rhs::Apply(n(0), Box::new([n(2)]))),
                ],
                Terminator::Return(Some(n(3))),
            )],
        },
        // never(x): not called.
        F {
            name: "never",
            params: vec![0],
            captures: vec![],
            names: vec!["x"],
            blocks: vec![(vec![], Terminator::Return(Some(n(0))))],
        },
    ])
}

#[test]
fn apply_is_resolved_by_the_analysis_own_closure_values() {
    let m = closures_module();
    for policy in POLICIES {
        let s = solve::<Interval>(&m, true, policy);
        assert!(s.stop().is_stable(), "{policy}");
        // `f` is a closure of inc or dbl; applying it to 10 gives 13 or 20. `twice` applies its
        // parameter, a closure of inc only, to 1 and then to 4. With one summary per function
        // the arguments of inc's three calls join (and widen): only containment holds.
        let (_, main_result) = s.summary(func(&m, "main"));
        let (_, twice) = s.summary(func(&m, "twice"));
        if policy == ContextPolicy::Insensitive {
            assert!(main_result.int.contains(13) && main_result.int.contains(20));
            assert!(twice.int.contains(7));
        } else {
            assert_eq!(main_result.int, Interval::new(13, 20), "{policy}");
            assert_eq!(twice.int, Interval::new(7, 7), "{policy}");
        }
        assert!(main_result.funcs.is_empty() && !main_result.block);
        assert_eq!(s.captures(func(&m, "inc"))[0].int, Interval::new(3, 3));
        let graph: Vec<(&str, &str)> = s
            .call_graph()
            .into_iter()
            .map(|(a, b)| {
                (
                    m.functions[a.index()].name.as_str(),
                    m.functions[b.index()].name.as_str(),
                )
            })
            .collect();
        assert_eq!(
            graph,
            vec![
                ("main", "inc"),
                ("main", "dbl"),
                ("main", "twice"),
                ("twice", "inc")
            ],
            "{policy}"
        );
        assert!(!s.is_reached(func(&m, "never")));
    }
    // With every function an entry, parameters may be any closure: `twice` may call any
    // function of one parameter, and `never` is analyzed too.
    let all = solve_module::<Module, Interval>(
        &m,
        None,
        true,
        ContextPolicy::Insensitive,
        &InterprocLimits::default(),
    );
    assert!(all.stop().is_stable());
    assert!(all.is_reached(func(&m, "never")));
    assert!(
        all.call_graph()
            .contains(&(func(&m, "twice"), func(&m, "never")))
    );
}

#[test]
fn results_are_deterministic() {
    let m = closures_module();
    for policy in POLICIES {
        let render = || {
            let s = solve::<Interval>(&m, true, policy);
            format!("{:?} {:?}", s.instances(), s.call_graph())
        };
        assert_eq!(render(), render(), "{policy}");
    }
}

/// Interprocedural analysis of random modules with calls, fuel-bounded recursion, closures,
/// higher-order functions and blocks: sound against concrete runs that observe every frame, and
/// never less precise than analyzing each function alone with unknown arguments.
fn random_modules<D: ValueDomain>(conditional: bool, what: &str, count: u64) -> (u64, u64) {
    use absinthe_cli::verify::{VerifyConfig, verify_interproc};
    use absinthe_ir::generate::{ModuleConfig, random_module};
    let mut values = 0;
    let mut points = 0;
    for seed in 0..count {
        let config = ModuleConfig {
            int_functions: 1 + (seed % 4) as usize,
            higher_order: (seed % 3) as usize,
            blocks: 2 + (seed % 4) as usize,
            function_slots: seed % 2 == 1,
            ..ModuleConfig::default()
        };
        let m = random_module(seed, &config);
        let policy = POLICIES[(seed % POLICIES.len() as u64) as usize];
        let main = m.func_id("main").expect("main");
        let s = solve_module::<Module, D>(
            &m,
            Some(main),
            conditional,
            policy,
            &InterprocLimits::default(),
        );
        assert!(s.stop().is_stable(), "{what} {policy} seed {seed}");
        let report = verify_interproc(
            &m,
            main,
            &s,
            &VerifyConfig {
                runs: 8,
                seed,
                max_steps: 5_000,
                ..VerifyConfig::default()
            },
        );
        assert!(
            report.violations.is_empty(),
            "{what} {policy} seed {seed}: {}\n{m}",
            report.violations[0]
        );
        values += report.values_checked;
        points += report.points_checked;
        assert_at_least_as_precise_in::<D>(
            &m,
            conditional,
            policy,
            &s,
            &format!("{what} seed {seed}"),
        );
    }
    (values, points)
}

fn assert_at_least_as_precise_in<D: ValueDomain>(
    m: &Module,
    conditional: bool,
    policy: ContextPolicy,
    s: &InterprocSolution<D>,
    what: &str,
) {
    for (index, function) in m.functions.iter().enumerate() {
        let id = FuncId::new(index);
        if !s.is_reached(id) {
            continue;
        }
        let alone = absinthe::engine::solve(
            function,
            &NonRelational::<D>::new(conditional),
            &Limits::default(),
        );
        for b in 0..function.blocks().len() {
            let inter = s.entry_state(id, BlockId::new(b));
            if !inter.is_reachable() {
                continue;
            }
            let intra = &alone.entry[b];
            assert!(
                intra.is_reachable(),
                "{what} {policy}: {}:bb{b}",
                function.name
            );
            for n in 0..function.names.len() {
                let name = absinthe::program::NameId::new(n);
                let (i, a) = (inter.get(name).int, intra.get(name));
                assert!(
                    i.leq(&a),
                    "{what} {policy}: {}:bb{b} {}: {i} interprocedurally, {a} alone\n{m}",
                    function.name,
                    function.names[n]
                );
            }
        }
    }
}

#[test]
fn random_modules_const_sound_and_at_least_as_precise() {
    let (values, points) = random_modules::<Flat<i64>>(false, "const", 1000);
    eprintln!("const: {values} values at {points} points");
}

#[test]
fn random_modules_sccp_sound_and_at_least_as_precise() {
    let (values, points) = random_modules::<Flat<i64>>(true, "sccp", 1000);
    eprintln!("sccp: {values} values at {points} points");
}

#[test]
fn random_modules_interval_sound_and_at_least_as_precise() {
    let (values, points) = random_modules::<Interval>(true, "interval", 1000);
    eprintln!("interval: {values} values at {points} points");
}

#[test]
fn every_analysis_is_sound_across_functions_on_random_modules() {
    use absinthe_cli::analyses::AnalysisName;
    use absinthe_cli::verify::VerifyConfig;
    use absinthe_ir::generate::{ModuleConfig, random_module};
    // Every value analysis; the typing environment and the alias heap have their own checks
    // (tests/typing_env.rs, tests/heap.rs).
    let values = AnalysisName::all().filter(|&a| {
        !a.kernel_only() && a != AnalysisName::TypingEnv && a != AnalysisName::AliasHeap
    });
    for analysis in values {
        for seed in 0..60 {
            let m = random_module(
                seed,
                &ModuleConfig {
                    int_functions: 1 + (seed % 3) as usize,
                    higher_order: (seed % 2) as usize,
                    ..ModuleConfig::default()
                },
            );
            let policy = POLICIES[(seed % POLICIES.len() as u64) as usize];
            let report = absinthe_cli::builtin::interproc_verify(
                &m,
                analysis,
                policy,
                m.func_id("main").expect("main"),
                &Limits::default(),
                &VerifyConfig {
                    runs: 4,
                    seed,
                    max_steps: 5_000,
                    ..VerifyConfig::default()
                },
            );
            assert!(
                report.violations.is_empty(),
                "{analysis} {policy} seed {seed}: {}",
                report.violations[0]
            );
        }
    }
}
