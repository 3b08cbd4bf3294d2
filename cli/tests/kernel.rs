//! Kernel terms and the behavior graph: the seed's P1 and P2, every task sound against the
//! concrete evaluator (with multiple values, exit functions and call-site contexts too), and the
//! command line. `behavior/tests/cfa.rs` checks the control-flow facts against a naive
//! reference.

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

/// Runs random programs and checks every value of every term and parameter against the task's
/// value of its flow, and every closure against the control-flow facts. `extended` programs use
/// `block` and exit functions and are analyzed with contexts of `seed % 3` call sites, values
/// checked in the context of their run's call string.
fn sound_on_random_programs<T: Task>(task: &T, what: &str, count: u64, extended: bool) -> u64 {
    let mut checked = 0u64;
    let mut returned = 0u64;
    for seed in 0..count {
        let config = KernelGenConfig {
            functions: (seed % 4) as usize,
            depth: 3 + (seed % 3) as usize,
            multiple_values: extended,
            exits: extended,
            ..KernelGenConfig::default()
        };
        let (text, terms) = random_terms(seed, &config);
        let k = if extended { (seed % 3) as usize } else { 0 };
        let graph = BehaviorGraph::build_with_contexts(&terms, k);
        let check = absinthe_cli::kernel::check_task(&terms, &graph, task, 1, seed);
        assert!(
            check.misses.is_empty(),
            "{what} seed {seed}, k = {k}: {}\n{text}",
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
    let n = sound_on_random_programs(&DomainTask::<Types>::new(), "types", 400, false);
    assert!(n > 10_000);
    sound_on_random_programs(&DomainTask::<Flat<i64>>::new(), "const", 400, false);
    sound_on_random_programs(&DomainTask::<Interval>::new(), "interval", 400, false);
    sound_on_random_programs(
        &DomainTask::<absinthe_dsl_examples::dom::signs::Signals>::new(),
        "signs-dom",
        200,
        false,
    );
}

#[test]
fn multiple_values_exits_and_contexts_are_sound_against_the_evaluator() {
    use absinthe_dsl_examples::dom::types::Types;
    let n = sound_on_random_programs(&DomainTask::<Interval>::new(), "interval", 1200, true);
    assert!(n > 30_000, "{n}");
    sound_on_random_programs(&DomainTask::<Types>::new(), "types", 1000, true);
    sound_on_random_programs(&DomainTask::<Flat<i64>>::new(), "const", 1000, true);
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
    let read = |name: &str| {
        let path = format!(
            "{}/../ir/test_data/kernel/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(path).expect("the sample exists")
    };
    let extended = KernelGenConfig {
        multiple_values: true,
        exits: true,
        ..KernelGenConfig::default()
    };
    let samples = [
        read("p2.kt"),
        print_terms(&random_terms(3, &KernelGenConfig::default()).1),
        read("divmod.kt"),
        read("exits.kt"),
        read("exit_values.kt"),
        print_terms(&random_terms(5, &extended).1),
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
                    1 => chars.insert(at, ['(', ')', ' ', '3', ':', 'x', '^'][rng.below(7)]),
                    _ => {
                        let other = rng.below(chars.len());
                        chars.swap(at, other);
                    }
                }
            }
            chars.into_iter().collect()
        };
        let parsed = parse_terms("fuzz.kt", &text);
        if let Err(errors) = &parsed {
            // Every error has its place.
            assert!(
                errors.iter().all(|e| e.to_string().starts_with("fuzz.kt:")),
                "input {i}: {errors:?}"
            );
        }
        if let Ok(terms) = parsed {
            let graph = BehaviorGraph::build_with_contexts(&terms, i % 3);
            let _ = task_lines(&terms, &graph, &DomainTask::<Interval>::new());
            let check = absinthe_cli::kernel::check_task(
                &terms,
                &graph,
                &DomainTask::<Interval>::new(),
                1,
                i as u64,
            );
            assert!(
                check.misses.is_empty(),
                "input {i}: {:?}\n{text}",
                check.misses
            );
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

/// Runs `analysis` on `file` of the test data with contexts of `context` (the declared ones for
/// `None`) and gives its report.
fn in_context(file: &str, analysis: &str, context: Option<&str>) -> String {
    let path = format!(
        "{}/../ir/test_data/kernel/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).expect("the sample exists");
    absinthe_cli::kernel::run_in_context(
        file,
        &text,
        absinthe_cli::analyses::AnalysisName::parse(analysis).expect("known"),
        absinthe_cli::kernel::KernelEngine::BehaviorGraph,
        context.map(|c| absinthe::spec::ContextPolicy::parse(c).expect("a policy")),
        absinthe_cli::driver::Format::Text,
    )
    .map_or_else(|error| error, |report| report.output)
}

#[test]
fn call_site_contexts_keep_apart_what_zero_cfa_joins() {
    let has = |out: &str, lines: &[&str]| {
        for line in lines {
            assert!(out.contains(&format!("\n{line}\n")), "{line}\n{out}");
        }
    };
    // The same abstraction at two sites: 0-CFA joins its argument, k = 1 does not.
    has(
        &in_context("two_sites.kt", "interval", None),
        &["Φ_x = [1, 10]", "ϕ_2 = [4, 40]"],
    );
    let out = in_context("two_sites.kt", "interval", Some("kcfa=1"));
    has(
        &out,
        &[
            "Φ_x = [1, 10]",
            "Φ_x^⟨3⟩ = [1, 1]",
            "Φ_x^⟨4⟩ = [10, 10]",
            "ϕ_3 = [2, 2]",
            "ϕ_2 = [22, 22]",
        ],
    );
    assert!(
        out.lines()
            .nth(1)
            .is_some_and(|l| l
                .starts_with("# note: --context kcfa=1 overrides the context `interval` declares")),
        "{out}"
    );
    // The identity given two functions: 0-CFA calls both at both sites.
    has(
        &in_context("identity.kt", "cfa", None),
        &["ϕ_4 = {λa, λb}", "Φ_a = {}"],
    );
    has(
        &in_context("identity.kt", "cfa", Some("kcfa=1")),
        &["ϕ_4 = {λa}", "ϕ_7 = {λb}", "Φ_x^⟨4⟩ = {λa}"],
    );
    has(
        &in_context("identity.kt", "interval", Some("kcfa=1")),
        &["Φ_a = [10, 10]", "Φ_b = [20, 20]"],
    );
    // A parameter that is an integer at one site and a function at the other.
    has(
        &in_context("mixed_types.kt", "types", None),
        &["ϕ_3 = Int | Int → Int"],
    );
    has(
        &in_context("mixed_types.kt", "types", Some("kcfa=1")),
        &["ϕ_3 = Int", "Φ_x^⟨3⟩ = Int", "Φ_x^⟨5⟩ = Int → Int"],
    );
    // Through a wrapper one call site is not enough; two are.
    has(
        &in_context("wrapper.kt", "interval", Some("kcfa=1")),
        &["ϕ_4 = [1, 100]", "Φ_x = [1, 100]", "Φ_w^⟨4⟩ = [1, 1]"],
    );
    has(
        &in_context("wrapper.kt", "interval", Some("kcfa=2")),
        &["ϕ_4 = [1, 1]", "ϕ_6 = [100, 100]", "Φ_x^⟨5·4⟩ = [1, 1]"],
    );
    assert!(in_context("p1.kt", "types", Some("functional")).contains("by call strings"));
    // A declared context (`context kcfa 1;` in a `.dom` file) is the default: the type task of
    // `types.dom`, declared with one call site.
    let types = std::fs::read_to_string(format!(
        "{}/../dsl-examples/dom/types.dom",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("types.dom");
    let declared = types.replace(
        "engine behavior_graph;",
        "engine behavior_graph;\n    context kcfa 1;",
    );
    assert_ne!(declared, types);
    let dir = std::env::temp_dir().join(format!("absinthe-sites-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let dom = dir.join("types_per_site.dom");
    std::fs::write(&dom, declared).expect("written");
    let (code, out, err) = absinthe(&[
        "analyze",
        "ir/test_data/kernel/mixed_types.kt",
        "--dom",
        &dom.display().to_string(),
        "--analysis",
        "types",
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("contexts: kcfa=1, 5 met)"), "{out}");
    has(&out, &["Φ_x^⟨3⟩ = Int", "Φ_x^⟨5⟩ = Int → Int"]);
}

#[test]
fn multiple_values_and_exit_functions_through_the_command_line() {
    let has = |out: &str, lines: &[&str]| {
        for line in lines {
            assert!(out.contains(&format!("\n{line}\n")), "{line}\n{out}");
        }
    };
    let out = in_context("divmod.kt", "cfa", None);
    assert!(out.contains("; 3 applications deferred)"), "{out}");
    has(&out, &["ϕ_7 = {} · 2 values", "Φ_divmod = {λa,b}"]);
    has(
        &in_context("divmod.kt", "interval", None),
        &[
            "Φ_q = [3, 3]",
            "Φ_r = [2, 2]",
            "ϕ_4 = [32, 32]",
            "ϕ_7 = [2, 3] · 2 values",
        ],
    );
    let out = in_context("exits.kt", "cfa", None);
    has(&out, &["Φ_^found = {exit(λ^found,n)}", "ϕ_3 = {λ()}"]);
    has(
        &in_context("exits.kt", "types", None),
        &["ϕ_1 = Int", "ϕ_9 = ⊥"],
    );
    has(
        &in_context("exit_values.kt", "cfa", None),
        &["ϕ_2 = {} · 2 values"],
    );
    for file in ["divmod.kt", "exits.kt", "exit_values.kt"] {
        for analysis in ["cfa", "types", "interval"] {
            let path = format!("ir/test_data/kernel/{file}");
            let (code, out, err) =
                absinthe(&["verify", &path, "--analysis", analysis, "--runs", "30"]);
            assert_eq!(code, 0, "{file} {analysis}: {out}{err}");
            assert!(out.ends_with("values checked: 0 violations\n"), "{out}");
        }
    }
    // The flow engine closure-converts to the core IR, which has neither.
    let (code, _, err) = absinthe(&[
        "analyze",
        "ir/test_data/kernel/divmod.kt",
        "--analysis",
        "interval",
        "--engine",
        "flow",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("the behavior graph takes them"), "{err}");
}
