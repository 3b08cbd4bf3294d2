//! An analysis runs as its declaration says: a user's `.dom` file declaring each state and
//! context word runs through `analyze` with that representation and policy (the output is the
//! one the same run with the equivalent flag gives), and the line under the header names the
//! engine, state and context that ran and where each came from. A flag that overrides the
//! declaration says so there. And a `.dom` analysis has one description however it runs: the
//! interpreter reads the same `AnalysisSpec` the compiled declaration gives.

use crate::common;

use absinthe::spec::{AnalysisSpec, ContextPolicy, Engine, StateRepr};
use absinthe::value::DeclaredAnalysis;
use common::{absinthe_in as absinthe, scratch, workspace};
use std::path::Path;

/// `const_prop.dom` with one more analysis, `probe`, declaring `settings`; the file's path.
fn probe(dir: &Path, name: &str, settings: &str) -> String {
    let base = std::fs::read_to_string(workspace().join("dsl-examples/dom/const_prop.dom"))
        .expect("read const_prop.dom");
    let path = dir.join(format!("{name}.dom"));
    std::fs::write(
        &path,
        format!("{base}\nanalysis probe {{\n    domain ConstValue;\n{settings}}}\n"),
    )
    .expect("write the probe");
    path.display().to_string()
}

/// `analyze PROGRAM --dom FILE --analysis probe` and `extra`: the output, which must succeed.
fn analyze(file: &str, program: &str, extra: &[&str]) -> (String, String) {
    let args: Vec<&str> = ["analyze", program, "--dom", file, "--analysis", "probe"]
        .into_iter()
        .chain(extra.iter().copied())
        .collect();
    let (code, stdout, stderr) = absinthe(&workspace(), &args);
    assert_eq!(code, 0, "{args:?}\n{stdout}{stderr}");
    (stdout, stderr)
}

/// The `# ran:` line of `output`, which is its second.
fn ran(output: &str) -> &str {
    let line = output.lines().nth(1).unwrap_or_default();
    assert!(
        line.starts_with("# ran: "),
        "no `# ran:` line under the header:\n{output}"
    );
    line
}

/// `output` without its `# ran:` line.
fn facts(output: &str) -> String {
    output
        .lines()
        .filter(|l| !l.starts_with("# ran: "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_state_word_runs_as_declared_and_the_header_names_it() {
    let dir = scratch("declared-spec-state");
    let program = "ir/test_data/ssa_sum.air";
    let undeclared = probe(&dir, "undeclared", "");
    for state in StateRepr::EVERY {
        let file = probe(
            &dir,
            state.word(),
            &format!("    state {};\n", state.word()),
        );
        let (declared, stderr) = analyze(&file, program, &[]);
        assert_eq!(
            ran(&declared),
            format!(
                "# ran: engine flow (declared); state {state} (declared); context none: the \
                 module has no calls (the declaration says insensitive)"
            )
        );
        assert!(!stderr.contains("strict SSA"), "{state}: {stderr}");
        // The same run as the flag asks of an analysis that declares nothing.
        let (flagged, _) = analyze(&undeclared, program, &["--state", state.as_str()]);
        assert_eq!(facts(&declared), facts(&flagged), "{state}");
        if state != StateRepr::Dense {
            assert_eq!(
                ran(&flagged),
                format!(
                    "# ran: engine flow (declared); state {state} (--state; the declaration \
                     says dense); context none: the module has no calls (the declaration says \
                     insensitive)"
                )
            );
        }
    }
    // `ssa` on a program that is not in SSA form keeps sparse states, and says so.
    let ssa = probe(&dir, "ssa", "    state ssa;\n");
    let (output, stderr) = analyze(&ssa, "dsl-examples/test_data/reduction.air", &[]);
    assert!(
        stderr.contains("is not in strict SSA form: its states were kept sparse, not ssa"),
        "{stderr}"
    );
    assert!(
        ran(&output)
            .contains("state ssa, sparse where the program is not in strict SSA form (declared)"),
        "{output}"
    );
}

#[test]
fn every_context_word_runs_as_declared_and_a_flag_that_overrides_it_says_so() {
    let dir = scratch("declared-spec-context");
    let program = "ir/test_data/calls.air";
    let undeclared = probe(&dir, "undeclared", "");
    for (word, policy) in [
        ("insensitive", ContextPolicy::Insensitive),
        ("kcfa 2", ContextPolicy::CallStrings(2)),
        (
            "functional",
            ContextPolicy::Functional {
                max_per_function: ContextPolicy::FUNCTIONAL_BOUND,
            },
        ),
        (
            "functional 3",
            ContextPolicy::Functional {
                max_per_function: 3,
            },
        ),
    ] {
        let file = probe(
            &dir,
            &word.replace(' ', "-"),
            &format!("    context {word};\n"),
        );
        let (declared, _) = analyze(&file, program, &[]);
        assert_eq!(
            ran(&declared),
            format!(
                "# ran: engine flow (declared); state dense (declared); context {policy} (declared)"
            )
        );
        let (flagged, _) = analyze(&undeclared, program, &["--context", &policy.to_string()]);
        assert_eq!(facts(&declared), facts(&flagged), "{word}");
    }
    // The declaration says kcfa 2; the flag asks for insensitive: it runs insensitive and says
    // so, with the declaration's word.
    let kcfa = probe(&dir, "kcfa", "    context kcfa 2;\n");
    let (overridden, _) = analyze(&kcfa, program, &["--context", "insensitive"]);
    assert!(
        ran(&overridden).ends_with("context insensitive (--context; the declaration says kcfa=2)"),
        "{overridden}"
    );
    let (plain, _) = analyze(&undeclared, program, &[]);
    assert_eq!(facts(&overridden), facts(&plain));
    // Across functions states are dense, whatever the declaration says; the line says why.
    let sparse = probe(&dir, "sparse-calls", "    state sparse;\n");
    let (across, _) = analyze(&sparse, program, &[]);
    assert!(
        ran(&across).contains(
            "state dense (interprocedural analysis keeps dense states; the declaration says \
             sparse); context insensitive (declared)"
        ),
        "{across}"
    );
    // `--context intra`: each function alone.
    let (alone, _) = analyze(&kcfa, program, &["--context", "intra"]);
    assert!(
        ran(&alone).ends_with("context each function alone (the declaration says kcfa=2)"),
        "{alone}"
    );
}

#[test]
fn an_interpreted_analysis_has_the_spec_its_compiled_declaration_has() {
    use absinthe_dsl_examples::dom::{
        const_prop, dependence, disjunctive, escape, induction, interval, sccp_ranges, seed, shape,
        signs, strictness, types, typing_env,
    };
    let compiled: Vec<(&str, &str, &AnalysisSpec)> = vec![
        (
            "const_prop.dom",
            "const_prop",
            const_prop::ConstPropAnalysis::spec(),
        ),
        (
            "const_prop.dom",
            "sccp_prop",
            const_prop::SccpPropAnalysis::spec(),
        ),
        ("seed.dom", "seed", seed::SeedAnalysis::spec()),
        ("signs.dom", "signs", signs::SignsAnalysis::spec()),
        (
            "signs.dom",
            "signs_sparse",
            signs::SignsSparseAnalysis::spec(),
        ),
        (
            "disjunctive.dom",
            "disjunctive",
            disjunctive::DisjunctiveAnalysis::spec(),
        ),
        (
            "interval.dom",
            "interval",
            interval::IntervalAnalysis::spec(),
        ),
        (
            "sccp_ranges.dom",
            "sccp_ranges",
            sccp_ranges::SccpRangesAnalysis::spec(),
        ),
        ("types.dom", "types", types::TypesAnalysis::spec()),
        ("induction.dom", "biv", induction::BivAnalysis::spec()),
        (
            "dependence.dom",
            "useless",
            dependence::UselessAnalysis::spec(),
        ),
        (
            "strictness.dom",
            "strict",
            strictness::StrictAnalysis::spec(),
        ),
        (
            "typing_env.dom",
            "typing_env",
            typing_env::TypingEnvAnalysis::spec(),
        ),
        ("escape.dom", "escape", escape::EscapeAnalysis::spec()),
        ("shape.dom", "shape", shape::ShapeAnalysis::spec()),
    ];
    let mut engines = Vec::new();
    for (file, name, spec) in compiled {
        let path = workspace().join("dsl-examples/dom").join(file);
        let checked = absinthe_domc::check_file(&path).unwrap_or_else(|f| panic!("{f}"));
        let Some(decl) = checked.analyses.iter().find(|a| a.name == name) else {
            panic!("{file} declares no analysis `{name}`")
        };
        assert_eq!(&decl.spec, spec, "{file}: `{name}`");
        engines.push(spec.engine);
    }
    // The comparison covers every engine a declaration can name.
    for engine in Engine::DECLARABLE {
        assert!(
            engines.contains(&engine),
            "no compiled analysis runs on {engine}"
        );
    }
}

/// Each engine word of a user's `.dom` file runs that engine through `analyze`, and the line
/// under the header names it with what it kept and how it treated calls; on kernel terms,
/// `--engine` overrides the declaration and says so.
#[test]
fn every_engine_word_runs_as_declared_and_the_header_names_it() {
    let dir = scratch("declared-spec-engine");
    let kernel = "ir/test_data/kernel/p1.kt";
    let runs = [
        (
            Engine::Flow,
            "ir/test_data/calls.air",
            "state dense (declared)",
        ),
        (Engine::BehaviorGraph, kernel, "state a value at each node"),
        (
            Engine::TypingEnv,
            "ir/test_data/typing.air",
            "state a typing environment",
        ),
        (
            Engine::Escape,
            "ir/test_data/escape.air",
            "state up to 8 heaps",
        ),
        (
            Engine::Shape,
            "ir/test_data/shape.air",
            "state up to 8 shape graphs",
        ),
    ];
    for engine in Engine::DECLARABLE {
        let Some((_, program, state)) = runs.iter().find(|(e, _, _)| *e == engine) else {
            panic!("no program for the engine {engine}")
        };
        let file = probe(
            &dir,
            engine.word(),
            &format!("    engine {};\n", engine.word()),
        );
        let (output, _) = analyze(&file, program, &[]);
        let line = ran(&output);
        let word = engine.word();
        assert!(
            line.starts_with(&format!("# ran: engine {word} (declared); {state}")),
            "{engine}: {line}"
        );
        let context = match engine {
            Engine::Flow => "context insensitive (declared)",
            Engine::BehaviorGraph => "context 0-CFA: the flows of the behavior graph",
            Engine::TypingEnv | Engine::Escape | Engine::Shape => "context callees first",
            Engine::AliasHeap => unreachable!("`alias_heap` is not declarable"),
        };
        assert!(line.contains(context), "{engine}: {line}");
        // JSON says the same in its `ran` member.
        let (json, _) = analyze(&file, program, &["--format", "json"]);
        let doc: serde_json::Value = serde_json::from_str(&json).expect("one JSON document");
        assert_eq!(doc["ran"]["engine"]["value"], word, "{engine}: {json}");
    }
    // `--engine` on kernel terms overrides the declaration, and the line says so.
    let graph = probe(&dir, "graph", "    engine behavior_graph;\n");
    let (output, _) = analyze(&graph, kernel, &["--engine", "flow"]);
    assert!(
        ran(&output).starts_with(
            "# ran: engine flow (--engine; the declaration says behavior_graph); state dense"
        ),
        "{output}"
    );
    // The flags an engine does not read are refused, not dropped (the behavior graph reads
    // `--context kcfa=K`, `kernel::the_command_line_s_context_reaches_the_behavior_graph`).
    let args = ["analyze", kernel, "--dom", &graph, "--analysis", "probe"];
    for extra in [
        &["--engine", "flow", "--context", "intra"][..],
        &["--context", "intra"],
        &["--state", "sparse"],
    ] {
        let args: Vec<&str> = args.iter().copied().chain(extra.iter().copied()).collect();
        let (code, _, stderr) = absinthe(&workspace(), &args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
    }
    // The one engine a declaration cannot name is refused at its word, and the built-in
    // analysis that runs it says it ran.
    let alias = probe(&dir, "alias", "    engine alias_heap;\n");
    let args = ["analyze", kernel, "--dom", &alias, "--analysis", "probe"];
    let (code, _, stderr) = absinthe(&workspace(), &args);
    assert_ne!(code, 0, "{stderr}");
    assert!(
        stderr.contains("alias.dom:") && stderr.contains("an engine a declaration cannot name"),
        "{stderr}"
    );
    let args = [
        "analyze",
        "ir/test_data/escape.air",
        "--analysis",
        "alias-heap",
    ];
    let (code, stdout, stderr) = absinthe(&workspace(), &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        ran(&stdout).starts_with("# ran: engine alias_heap (declared)"),
        "{stdout}"
    );
}
