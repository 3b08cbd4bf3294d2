//! Kernel terms and the behavior graph: the seed's P1 and P2, 0-CFA against a naive reference
//! fixpoint on random programs, every task sound against the concrete evaluator, and the
//! command line.

use absinthe::lattice::{Flat, Interval};
use absinthe::terms::{Binder, ParamId, Prim, Term, TermId, Terms};
use absinthe_behavior::{BehaviorGraph, DomainTask, Task, run_task};
use absinthe_cli::kernel::task_lines;
use absinthe_ir::kernel::{
    EvalLimits, EvalOutcome, KValue, KernelGenConfig, evaluate, parse_terms, print_terms,
    random_terms,
};
use std::collections::{BTreeMap, BTreeSet};

use crate::common;
use common::absinthe;

fn sample(name: &str) -> Terms {
    let path = format!(
        "{}/../ir/test_data/kernel/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("the sample exists");
    parse_terms(name, &text).unwrap_or_else(|e| panic!("{e:?}"))
}

fn lines_of<T: Task>(terms: &Terms, task: &T) -> BTreeMap<String, String> {
    let graph = BehaviorGraph::build(terms);
    task_lines(terms, &graph, task).into_iter().collect()
}

#[test]
fn p1_types_are_the_seed_s() {
    use absinthe_dsl_examples::dom::types::Types;
    let terms = sample("p1.kt");
    let lines = lines_of(&terms, &DomainTask::<Types>::new());
    // ϕ1 = ϕ2 = β(Φ_f) = ϕ4 = ϕ5 = Φ_x = Φ_y = int, Φ_f = ϕ3 = int → int.
    for flow in ["ϕ_1", "ϕ_2", "β(Φ_f)", "ϕ_4", "ϕ_5", "Φ_x", "Φ_y"] {
        assert_eq!(lines[flow], "Int", "{flow}");
    }
    for flow in ["Φ_f", "ϕ_3"] {
        assert_eq!(lines[flow], "Int → Int", "{flow}");
    }
}

#[test]
fn p2_control_flow_binds_f_and_g_to_their_abstractions() {
    let terms = sample("p2.kt");
    let graph = BehaviorGraph::build(&terms);
    let lambda_of = |name: &str| {
        let p = terms.param(name).expect("bound");
        let Binder::Lambda(l, _) = terms.params[p.index()].binder else {
            panic!("{name} is a parameter");
        };
        l
    };
    let f = terms.param("f").expect("f");
    let g = terms.param("g").expect("g");
    assert_eq!(graph.param_functions(f), &BTreeSet::from([lambda_of("n")]));
    assert_eq!(graph.param_functions(g), &BTreeSet::from([lambda_of("x")]));
    // n is bound to 0, to g's result and to m + 2; x to n; m to n + 3.
    let n = graph.param_node(terms.param("n").expect("n"));
    let targets: BTreeSet<String> = graph
        .successors(n)
        .iter()
        .map(|&s| match graph.kind(s) {
            absinthe_behavior::NodeKind::Term(t) => terms.flow_name(*t),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        targets,
        BTreeSet::from(["Φ_0".to_owned(), "ϕ_4".to_owned(), "ϕ_7".to_owned()])
    );
}

/// 0-CFA by the seed's equations (§7.2), iterated naively to their least fixpoint: the flow of
/// a λ term holds it, a parameter holds what every argument in its position at an application
/// whose operator may be its λ holds, an application holds what the bodies of those λs hold
/// (and `cond` what its branches hold), a letrec name what its term holds.
fn naive_cfa(terms: &Terms) -> (Vec<BTreeSet<TermId>>, Vec<BTreeSet<TermId>>) {
    let n = terms.terms.len();
    let mut term_sets: Vec<BTreeSet<TermId>> = vec![BTreeSet::new(); n];
    let mut param_sets: Vec<BTreeSet<TermId>> = vec![BTreeSet::new(); terms.params.len()];
    loop {
        let mut changed = false;
        for i in 0..n {
            let t = TermId(i as u32);
            let mut new: BTreeSet<TermId> = match terms.term(t) {
                Term::Const(_) => BTreeSet::new(),
                Term::Prim(_) | Term::Lambda { .. } => BTreeSet::from([t]),
                Term::Param(p) => param_sets[p.index()].clone(),
                Term::Letrec { body, .. } => term_sets[body.index()].clone(),
                Term::App { op, args, .. } => {
                    let mut out = BTreeSet::new();
                    for &f in &term_sets[op.index()] {
                        match terms.term(f) {
                            Term::Lambda { params, body } if params.len() == args.len() => {
                                out.extend(term_sets[body.index()].iter().copied());
                                for (&p, &a) in params.iter().zip(args.iter()) {
                                    let add: Vec<TermId> =
                                        term_sets[a.index()].iter().copied().collect();
                                    for v in add {
                                        changed |= param_sets[p.index()].insert(v);
                                    }
                                }
                            }
                            Term::Prim(Prim::Cond) if args.len() == 3 => {
                                out.extend(term_sets[args[1].index()].iter().copied());
                                out.extend(term_sets[args[2].index()].iter().copied());
                            }
                            _ => {}
                        }
                    }
                    out
                }
            };
            if let Term::Letrec { bindings, .. } = terms.term(t) {
                for &(p, bound) in bindings.iter() {
                    let add: Vec<TermId> = term_sets[bound.index()].iter().copied().collect();
                    for v in add {
                        changed |= param_sets[p.index()].insert(v);
                    }
                }
            }
            new.extend(term_sets[i].iter().copied());
            if new != term_sets[i] {
                term_sets[i] = new;
                changed = true;
            }
        }
        if !changed {
            return (term_sets, param_sets);
        }
    }
}

#[test]
fn zero_cfa_equals_the_naive_reference_on_random_programs() {
    let mut functions_found = 0usize;
    for seed in 0..1000 {
        let config = KernelGenConfig {
            functions: (seed % 4) as usize,
            depth: 3 + (seed % 3) as usize,
            ..KernelGenConfig::default()
        };
        let (text, terms) = random_terms(seed, &config);
        let graph = BehaviorGraph::build(&terms);
        let (term_sets, param_sets) = naive_cfa(&terms);
        for (i, expected) in term_sets.iter().enumerate() {
            let t = TermId(i as u32);
            assert_eq!(
                graph.term_functions(t),
                expected,
                "seed {seed}: {}\n{text}",
                terms.flow_name(t)
            );
            functions_found += expected.len();
        }
        for (i, expected) in param_sets.iter().enumerate() {
            let p = ParamId(i as u32);
            assert_eq!(
                graph.param_functions(p),
                expected,
                "seed {seed}: Φ_{}\n{text}",
                terms.param_name(p)
            );
        }
    }
    assert!(functions_found > 10_000, "{functions_found}");
}

/// Runs random programs and checks every value of every term and parameter against the task's
/// value of its flow, and every closure against the control-flow facts.
fn sound_on_random_programs<T: Task>(task: &T, what: &str, count: u64) -> u64 {
    let mut checked = 0u64;
    let mut returned = 0u64;
    for seed in 0..count {
        let config = KernelGenConfig {
            functions: (seed % 4) as usize,
            depth: 3 + (seed % 3) as usize,
            ..KernelGenConfig::default()
        };
        let (text, terms) = random_terms(seed, &config);
        let graph = BehaviorGraph::build(&terms);
        let check = absinthe_cli::kernel::check_task(&terms, &graph, task, 1, seed);
        assert!(
            check.misses.is_empty(),
            "{what} seed {seed}: {}\n{text}",
            check.misses[0]
        );
        checked += check.values;
        returned += check.returned as u64;
    }
    assert!(
        returned * 10 >= count * 6,
        "{what}: only {returned} of {count} programs returned"
    );
    checked
}

#[test]
fn every_task_is_sound_against_the_evaluator() {
    use absinthe_dsl_examples::dom::types::Types;
    let n = sound_on_random_programs(&DomainTask::<Types>::new(), "types", 400);
    assert!(n > 10_000);
    sound_on_random_programs(&DomainTask::<Flat<i64>>::new(), "const", 400);
    sound_on_random_programs(&DomainTask::<Interval>::new(), "interval", 400);
    sound_on_random_programs(
        &DomainTask::<absinthe_dsl_examples::dom::signs::Signals>::new(),
        "signs-dom",
        200,
    );
}

#[test]
fn printing_then_parsing_gives_the_terms_back() {
    for seed in 0..300 {
        let (_, terms) = random_terms(seed, &KernelGenConfig::default());
        let printed = print_terms(&terms);
        let again =
            parse_terms("printed.kt", &printed).unwrap_or_else(|e| panic!("{e:?}\n{printed}"));
        assert_eq!(again, terms, "seed {seed}\n{printed}");
    }
    for name in ["p1.kt", "p2.kt"] {
        let terms = sample(name);
        let printed = print_terms(&terms);
        assert_eq!(
            parse_terms(name, &printed).expect("parses"),
            terms,
            "{name}"
        );
    }
}

#[test]
fn bad_kernel_text_gets_errors_with_places() {
    let error = |text: &str| -> String {
        match parse_terms("t.kt", text) {
            Ok(_) => "ok".to_owned(),
            Err(errors) => absinthe_ir::error::render_errors(&errors),
        }
    };
    assert_eq!(error("(+ 1 2)"), "ok");
    assert!(
        error("(lambda (x) (x 1)").starts_with("t.kt:1:18: error:"),
        "{}",
        error("(lambda (x) (x 1)")
    );
    assert!(
        error("()").starts_with("t.kt:1:2: error: expected"),
        "{}",
        error("()")
    );
    assert_eq!(
        error("((lambda (x) x) (lambda (x) x))"),
        "t.kt:1:26: error: `x` is already bound at 1:11; kernel terms bind each name once\n"
    );
    assert_eq!(
        error("3:(f 3:(g 1))"),
        "t.kt:1:6: error: label 3 is already used at 1:1\n"
    );
    assert!(error("99999999999999999999").contains("does not fit in 64 bits"));
    let deep = format!("{}1{}", "(f ".repeat(300), ")".repeat(300));
    assert!(
        error(&deep).contains("nest deeper than 256"),
        "{}",
        error(&deep)
    );
}

#[test]
fn random_bytes_and_mutations_never_panic() {
    let mut rng = absinthe_ir::generate::Rng::new(7);
    let samples = [
        std::fs::read_to_string(format!(
            "{}/../ir/test_data/kernel/p2.kt",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("p2"),
        print_terms(&random_terms(3, &KernelGenConfig::default()).1),
    ];
    for i in 0..3000 {
        let text: String = if i % 2 == 0 {
            (0..rng.below(40))
                .map(|_| ['(', ')', ' ', 'x', '1', ':', 'λ', '+', 'l', '#', '\n'][rng.below(11)])
                .collect()
        } else {
            let mut chars: Vec<char> = samples[(i / 2) % samples.len()].chars().collect();
            for _ in 0..1 + rng.below(4) {
                if chars.is_empty() {
                    break;
                }
                let at = rng.below(chars.len());
                match rng.below(3) {
                    0 => {
                        chars.remove(at);
                    }
                    1 => chars.insert(at, ['(', ')', ' ', '3', ':', 'x'][rng.below(6)]),
                    _ => {
                        let other = rng.below(chars.len());
                        chars.swap(at, other);
                    }
                }
            }
            chars.into_iter().collect()
        };
        if let Ok(terms) = parse_terms("fuzz.kt", &text) {
            let graph = BehaviorGraph::build(&terms);
            let _ = task_lines(&terms, &graph, &DomainTask::<Interval>::new());
            let _ = evaluate(
                &terms,
                &[],
                &EvalLimits {
                    max_steps: 2_000,
                    max_depth: 50,
                },
                &mut |_, _| {},
                &mut |_, _| {},
            );
            let printed = print_terms(&terms);
            assert_eq!(
                parse_terms("again.kt", &printed).ok(),
                Some(terms),
                "input {i}: {text:?}"
            );
        }
    }
}

#[test]
fn the_command_line_prints_flows_in_the_seed_s_notation() {
    let (code, out, err) = absinthe(&[
        "analyze",
        "ir/test_data/kernel/p1.kt",
        "--analysis",
        "types",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\nΦ_f = Int → Int\n"), "{out}");
    assert!(out.contains("\nβ(Φ_f) = Int\n"), "{out}");
    let (code, out, _) = absinthe(&["analyze", "ir/test_data/kernel/p1.kt", "--analysis", "cfa"]);
    assert_eq!(code, 0);
    assert!(out.contains("\nΦ_f = {λx, λy}\n"), "{out}");
    let (code, out, _) = absinthe(&[
        "analyze",
        "ir/test_data/kernel/p2.kt",
        "--analysis",
        "cfa",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(doc["engine"], "behavior_graph");
    assert!(
        doc["flows"]
            .as_array()
            .is_some_and(|f| f.iter().any(|f| f["flow"] == "Φ_g" && f["value"] == "{λx}"))
    );
    // The engine is the one the declaration names: `types` says `engine behavior_graph`,
    // `interval` is a flow analysis, and `--engine` overrides either.
    let engine_of = |analysis: &str, extra: &[&str]| {
        let mut args = vec![
            "analyze",
            "ir/test_data/kernel/p1.kt",
            "--analysis",
            analysis,
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = absinthe(&args);
        assert_eq!(code, 0, "{err}");
        out.lines().next().unwrap_or_default().to_owned()
    };
    assert!(engine_of("types", &[]).contains("behavior graph"));
    assert!(engine_of("interval", &[]).contains("closure-converted"));
    assert!(engine_of("interval", &["--engine", "behavior-graph"]).contains("behavior graph"));
    // The same declared task through closure conversion and the flow engine.
    let (code, out, err) = absinthe(&[
        "analyze",
        "ir/test_data/kernel/p1.kt",
        "--analysis",
        "types",
        "--engine",
        "flow",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("\nϕ_1 = Int\n") && out.contains("\nΦ_x = Int\n"),
        "{out}"
    );
    assert!(out.contains("\nΦ_f = closure {"), "{out}");
    let (code, _, err) = absinthe(&["analyze", "ir/test_data/count.air", "--analysis", "cfa"]);
    assert_ne!(code, 0);
    assert!(err.contains("runs on kernel terms"), "{err}");
}

/// Closure conversion: the lowered module returns what the evaluator returns (integers; booleans
/// as 0 and 1), on random programs; and the flow-sensitive interprocedural engine runs the same
/// declared tasks on it, soundly.
#[test]
fn closure_conversion_runs_like_the_evaluator_and_tasks_run_on_it() {
    use absinthe_cli::verify::{VerifyConfig, verify_interproc};
    use absinthe_interproc::{ContextPolicy, InterprocLimits, solve_module};
    use absinthe_ir::interp::{self, Outcome, Value};
    use absinthe_ir::kernel::lower;
    let mut same = 0;
    for seed in 0..300 {
        let config = KernelGenConfig {
            functions: (seed % 4) as usize,
            depth: 3 + (seed % 3) as usize,
            ..KernelGenConfig::default()
        };
        let (text, terms) = random_terms(seed, &config);
        let lowered = lower(&terms).expect("generated programs use no extension");
        let printed = lowered.module.to_string();
        absinthe_ir::parse_module("lowered.air", &printed)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{printed}"));
        let expected = match evaluate(
            &terms,
            &[],
            &EvalLimits {
                max_steps: 50_000,
                max_depth: 150,
            },
            &mut |_, _| {},
            &mut |_, _| {},
        ) {
            EvalOutcome::Value(v) => v.as_int(),
            _ => continue,
        };
        let run = interp::run(
            &lowered.module,
            absinthe::program::FuncId::new(0),
            &[],
            &interp::Limits {
                max_steps: 1_000_000,
                max_depth: 400,
                ..interp::Limits::default()
            },
            &mut interp::NoObserver,
        );
        match (expected, run.outcome) {
            (Some(v), Outcome::Returned(Some(Value::Int(w)))) => {
                assert_eq!(v, w, "seed {seed}\n{text}\n{printed}");
                same += 1;
            }
            (None, Outcome::Returned(Some(Value::Ref(_)))) => same += 1,
            (e, o) => panic!("seed {seed}: evaluator {e:?}, lowered {o:?}\n{text}\n{printed}"),
        }
        let main = absinthe::program::FuncId::new(0);
        let s = solve_module::<absinthe_ir::Module, Interval>(
            &lowered.module,
            Some(main),
            true,
            ContextPolicy::CallStrings(1),
            &InterprocLimits::default(),
        );
        let report = verify_interproc(
            &lowered.module,
            main,
            &s,
            &VerifyConfig {
                runs: 1,
                seed,
                max_steps: 200_000,
                ..VerifyConfig::default()
            },
        );
        assert!(
            report.violations.is_empty(),
            "seed {seed}: {}",
            report.violations[0]
        );
    }
    assert!(same >= 200, "{same}");
}

#[test]
fn p1_through_the_flow_engine_gives_the_same_types() {
    use absinthe_dsl_examples::dom::types::{Type, Types};
    use absinthe_interproc::{ContextPolicy, InterprocLimits, solve_module};
    use absinthe_ir::kernel::lower;
    let terms = sample("p1.kt");
    let lowered = lower(&terms).expect("P1 uses no extension");
    let s = solve_module::<absinthe_ir::Module, Types>(
        &lowered.module,
        Some(absinthe::program::FuncId::new(0)),
        false,
        ContextPolicy::Insensitive,
        &InterprocLimits::default(),
    );
    for label in 1..=5 {
        let t = terms.app(label).expect("labelled");
        let (f, n) = lowered.homes[t.index()].expect("evaluated");
        let block = absinthe::program::BlockId::new(0);
        let exit = s.exit_state(f, block);
        let value = exit.get(n);
        if label == 3 {
            assert!(
                value.int.ty == Type::Bottom && !value.funcs.is_empty(),
                "ϕ_3 = {value:?}"
            );
        } else {
            assert_eq!(value.int.ty, Type::Int, "ϕ_{label}");
        }
    }
}

#[test]
fn p2_basic_induction_parameters_are_the_seed_s() {
    let (code, out, err) = absinthe(&["analyze", "ir/test_data/kernel/p2.kt", "--analysis", "biv"]);
    assert_eq!(code, 0, "{err}");
    // Φ_n = {⟨Φ_x, Φ_1⟩, Φ_0, ⟨Φ_m, Φ_2⟩}, Φ_x the same, Φ_m = {⟨Φ_n, Φ_3⟩}; {n, x, m} is one
    // set of basic induction parameters (sets print sorted).
    let expected = "\
Φ_n = {Φ_0, ⟨Φ_m, Φ_2⟩, ⟨Φ_x, Φ_1⟩}
Φ_m = {⟨Φ_n, Φ_3⟩}
Φ_x = {Φ_0, ⟨Φ_m, Φ_2⟩, ⟨Φ_x, Φ_1⟩}
basic induction parameters = {n, m, x}
";
    assert!(out.ends_with(expected), "{out}");
    // A parameter also bound to a product is not one.
    let dir = std::env::temp_dir().join(format!("absinthe-biv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("mul.kt");
    std::fs::write(
        &file,
        "(letrec ((f (lambda (n) (cond p (f (+ n 1)) (f (* n 2)))))) (f 0))\n",
    )
    .expect("write");
    let (code, out, _) = absinthe(&[
        "analyze",
        file.to_str().expect("utf-8"),
        "--analysis",
        "biv",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Φ_n = ⊤") && out.ends_with("basic induction parameters = none\n"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs a kernel-only analysis on `text` and gives its output lines after the header.
fn kernel_report(text: &str, analysis: &str) -> Vec<String> {
    let report = absinthe_cli::builtin::kernel_run(
        "t.kt",
        text,
        absinthe_cli::analyses::AnalysisName::parse(analysis).expect("known"),
        absinthe_cli::kernel::KernelEngine::BehaviorGraph,
        absinthe_cli::driver::Format::Text,
    )
    .expect("analyzes");
    report.output.lines().skip(1).map(str::to_owned).collect()
}

#[test]
fn useless_parameters_on_programs_with_answers_written_first() {
    // (program, its useless parameters), decided by hand before the task was run.
    let cases = [
        // y is returned, x never read.
        ("((lambda (x y) y) 1 2)", "{x}"),
        // n decides and accumulates, acc is returned.
        (
            "(letrec ((f (lambda (n acc) (cond (< n 1) acc (f (- n 1) (+ acc n)))))) (f 3 0))",
            "{}",
        ),
        // junk only ever feeds itself.
        (
            "(letrec ((f (lambda (n junk) (cond (< n 1) 0 (f (- n 1) (* junk 2)))))) (f 3 5))",
            "{junk}",
        ),
        // g is called (its value decides what runs), z is ignored by the function called.
        ("((lambda (g) (g 1)) (lambda (z) 7))", "{z}"),
        // a is never read; b flows into c, which is used.
        ("((lambda (a b) ((lambda (c) (+ c 1)) b)) 1 2)", "{a}"),
    ];
    for (program, expected) in cases {
        let lines = kernel_report(program, "useless");
        assert_eq!(
            lines.last().map(String::as_str),
            Some(format!("useless parameters = {expected}").as_str()),
            "{program}: {lines:?}"
        );
    }
}

#[test]
fn strict_parameters_on_programs_with_answers_written_first() {
    // (program, per abstraction in source order what it is strict in), decided by hand first.
    let cases: [(&str, &[&str]); 6] = [
        // Only x is added.
        ("((lambda (x y) (+ x 1)) 1 2)", &["λx,y = strict in {x}"]),
        // The predicate always, each branch only sometimes.
        (
            "((lambda (p a b) (cond (< p 0) a b)) 1 2 3)",
            &["λp,a,b = strict in {p}"],
        ),
        // a is demanded by both branches.
        (
            "((lambda (p a) (cond (< p 0) a (+ a 1))) 1 2)",
            &["λp,a = strict in {p, a}"],
        ),
        // m is returned at the end of the recursion, whichever way it goes.
        (
            "(letrec ((f (lambda (n m) (cond (< n 1) m (f (- n 1) m))))) (f 3 4))",
            &["λn,m = strict in {n, m}"],
        ),
        // m is only passed along, never forced.
        (
            "(letrec ((f (lambda (n m) (cond (< n 1) 0 (f (- n 1) (+ m 1)))))) (f 3 4))",
            &["λn,m = strict in {n}"],
        ),
        // g is called and x passed to a function strict in its parameter.
        (
            "((lambda (g x) (g x)) (lambda (z) (* z 2)) 5)",
            &["λg,x = strict in {g, x}", "λz = strict in {z}"],
        ),
    ];
    for (program, expected) in cases {
        assert_eq!(kernel_report(program, "strict"), expected, "{program}");
    }
}

/// The basic-induction task is sound on random programs: whenever it binds a parameter only to
/// steps, every value the parameter takes in a run is one of its constants, or the value some
/// step's parameter took plus that step's constant.
#[test]
fn basic_induction_is_sound_against_the_evaluator() {
    use absinthe::lattice::{Step, Steps};
    use absinthe_dsl_examples::dom::induction::Induction;
    let mut checked = 0u64;
    let mut stepped = 0u64;
    for seed in 0..400 {
        let config = KernelGenConfig {
            functions: 1 + (seed % 3) as usize,
            depth: 3 + (seed % 3) as usize,
            ..KernelGenConfig::default()
        };
        let (text, terms) = random_terms(seed, &config);
        let graph = BehaviorGraph::build(&terms);
        let solution = run_task(&terms, &graph, &DomainTask::<Induction>::new());
        let mut seen: BTreeMap<ParamId, Vec<i64>> = BTreeMap::new();
        let _ = evaluate(
            &terms,
            &[],
            &EvalLimits {
                max_steps: 20_000,
                max_depth: 150,
            },
            &mut |_, _| {},
            &mut |p, v| {
                if let KValue::Int(i) = v {
                    seen.entry(p).or_default().push(*i);
                }
            },
        );
        for (&p, values) in &seen {
            let Steps::Set(steps) = &solution.value(graph.param_node(p)).steps else {
                continue;
            };
            stepped += 1;
            for &v in values {
                checked += 1;
                let explained = steps.iter().any(|s| match *s {
                    Step::Const(c) => v == c,
                    Step::Offset(q, c) => seen
                        .get(&q)
                        .is_some_and(|qs| qs.iter().any(|&w| w.wrapping_add(c) == v)),
                });
                assert!(
                    explained,
                    "seed {seed}: Φ_{} = {} but it took {v}\n{text}",
                    terms.param_name(p),
                    solution.value(graph.param_node(p)).steps.render(&terms)
                );
            }
        }
    }
    assert!(
        stepped > 300 && checked > 5_000,
        "{stepped} parameters, {checked} values"
    );
}

#[test]
fn verify_checks_kernel_tasks_against_runs() {
    for analysis in ["types", "interval", "cfa", "signs-dom"] {
        let (code, out, err) = absinthe(&[
            "verify",
            "ir/test_data/kernel/p1.kt",
            "--analysis",
            analysis,
            "--runs",
            "20",
        ]);
        assert_eq!(code, 0, "{analysis}: {out}{err}");
        assert!(
            out.ends_with("values checked: 0 violations\n"),
            "{analysis}: {out}"
        );
    }
    let (code, _, err) = absinthe(&["verify", "ir/test_data/kernel/p2.kt", "--analysis", "biv"]);
    assert_ne!(code, 0);
    assert!(err.contains("no concrete counterpart"), "{err}");
}

/// Runs `terms` with the budgets of the random-program tests, calling `seen` with every term
/// that completes.
fn run_observed(terms: &Terms, seen: &mut dyn FnMut(TermId)) -> EvalOutcome {
    evaluate(
        terms,
        &[],
        &EvalLimits {
            max_steps: 20_000,
            max_depth: 150,
        },
        &mut |t, _| seen(t),
        &mut |_, _| {},
    )
}

/// An integer or boolean result, the results compared below (closures carry environments).
fn plain(outcome: &EvalOutcome) -> Option<i64> {
    match outcome {
        EvalOutcome::Value(KValue::Int(i)) => Some(*i),
        EvalOutcome::Value(KValue::Bool(b)) => Some(i64::from(*b)),
        _ => None,
    }
}

fn random_program(seed: u64) -> (String, Terms) {
    let config = KernelGenConfig {
        functions: 1 + (seed % 3) as usize,
        depth: 3 + (seed % 3) as usize,
        ..KernelGenConfig::default()
    };
    random_terms(seed, &config)
}

/// The useless-parameter task is sound: replacing every use of the parameters it calls useless
/// by a constant never changes what a program returns (when both runs return a number; a
/// replaced use may trap, as `(7 1)` does, where the original value went nowhere).
#[test]
fn useless_parameters_are_sound_against_the_evaluator() {
    use absinthe_dsl_examples::dom::dependence::Dependence;
    let (mut programs, mut compared, mut useless_count) = (0, 0, 0);
    for seed in 0..400 {
        let (text, terms) = random_program(seed);
        let graph = BehaviorGraph::build(&terms);
        let solution = run_task(&terms, &graph, &DomainTask::<Dependence>::new());
        let result = &solution.value(graph.term_node(terms.root)).names;
        let useless: Vec<ParamId> = (0..terms.params.len() as u32)
            .map(ParamId)
            .filter(|p| matches!(terms.params[p.index()].binder, Binder::Lambda(..)))
            .filter(|&p| !result.contains(p))
            .collect();
        if useless.is_empty() {
            continue;
        }
        programs += 1;
        useless_count += useless.len();
        let mut changed = terms.clone();
        for t in &mut changed.terms {
            if let Term::Param(p) = t
                && useless.contains(p)
            {
                *t = Term::Const(7);
            }
        }
        let before = plain(&run_observed(&terms, &mut |_| {}));
        let after = plain(&run_observed(&changed, &mut |_| {}));
        if let (Some(b), Some(a)) = (before, after) {
            compared += 1;
            let names: Vec<&str> = useless.iter().map(|&p| terms.param_name(p)).collect();
            assert_eq!(
                b, a,
                "seed {seed}: useless {names:?}, yet the result changed\n{text}"
            );
        }
    }
    eprintln!("{programs} programs with {useless_count} useless parameters, {compared} compared");
    assert!(
        programs > 100 && compared > 100,
        "{programs} programs with {useless_count} useless parameters, {compared} compared"
    );
}

/// The strictness task is sound: when it says an abstraction's body certainly demands one of
/// its parameters and a run completes that body, then the same program with every use of the
/// parameter replaced by a division by zero traps (call by value evaluates at least what lazy
/// evaluation demands).
#[test]
fn strict_parameters_are_sound_against_the_evaluator() {
    use absinthe::program::Op;
    use absinthe_dsl_examples::dom::strictness::Strictness;
    let (mut checked, mut claims) = (0, 0);
    for seed in 0..800 {
        let (text, terms) = random_program(seed);
        let graph = BehaviorGraph::build(&terms);
        let solution = run_task(&terms, &graph, &DomainTask::<Strictness>::new());
        let mut completed = BTreeSet::new();
        let before = run_observed(&terms, &mut |t| {
            completed.insert(t);
        });
        if plain(&before).is_none() {
            continue;
        }
        let next_label = terms
            .terms
            .iter()
            .filter_map(|t| match t {
                Term::App { label, .. } => Some(*label),
                _ => None,
            })
            .max()
            .unwrap_or(0)
            + 1;
        for t in &terms.terms {
            let Term::Lambda { params, body } = t else {
                continue;
            };
            let demanded = &solution.value(graph.term_node(*body)).demanded.names;
            for &p in params.iter().filter(|&&p| demanded.contains(p)) {
                claims += 1;
                if !completed.contains(body) {
                    continue;
                }
                let mut changed = terms.clone();
                let base = changed.terms.len() as u32;
                changed.terms.push(Term::Prim(Prim::Op(Op::Div)));
                changed.terms.push(Term::Const(1));
                changed.terms.push(Term::Const(0));
                let mut label = next_label;
                for term in changed.terms.iter_mut() {
                    if *term == Term::Param(p) {
                        *term = Term::App {
                            label,
                            op: TermId(base),
                            args: Box::new([TermId(base + 1), TermId(base + 2)]),
                        };
                        label += 1;
                    }
                }
                checked += 1;
                let after = run_observed(&changed, &mut |_| {});
                assert!(
                    plain(&after).is_none(),
                    "seed {seed}: λ{} is said to be strict in {} but ran to {after:?} without it\n{text}",
                    params
                        .iter()
                        .map(|&q| terms.param_name(q))
                        .collect::<Vec<_>>()
                        .join(","),
                    terms.param_name(p),
                );
            }
        }
    }
    eprintln!("{claims} strictness claims, {checked} checked against a run");
    assert!(
        checked > 300,
        "{claims} strictness claims, {checked} checked"
    );
}
