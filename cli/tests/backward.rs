//! Backward analyses declared in `.dom` (`direction backward;`): `live` and `needed` on random
//! functions and modules checked against concrete runs (the rules along each run's path, and
//! what the run's dependences needed), the two back ends alike, a planted bug found at its
//! statement, the example's output, and the flags a backward analysis refuses.

use crate::common::{absinthe, scratch, workspace};
use absinthe::engine::Limits;
use absinthe_cli::backward::verify;
use absinthe_cli::driver::Input;
use absinthe_dsl_examples::dom::{liveness::Live, needed::Demand};
use absinthe_ir::generate::{GenConfig, ModuleConfig, random_function, random_module};

const RUNS: usize = 6;
const MAX_STEPS: u64 = 2_000;

fn air(module: absinthe_ir::function::Module) -> Input {
    Input::Air {
        file: "<random>".to_owned(),
        module,
    }
}

#[test]
fn live_and_needed_hold_on_random_functions_and_modules() {
    let limits = Limits::default();
    let (mut runs, mut values) = (0, 0);
    for seed in 0..400u64 {
        let config = GenConfig {
            blocks: 2 + (seed % 8) as usize,
            ..GenConfig::default()
        };
        let input = air(random_function(seed, &config));
        for checked in [
            verify::<Live>(&input, &limits, RUNS, seed, MAX_STEPS),
            verify::<Demand>(&input, &limits, RUNS, seed, MAX_STEPS),
        ] {
            assert!(
                checked.violations.is_empty(),
                "random function, seed {seed}:\n{}\n{}",
                checked.violations.join("\n"),
                input.module()
            );
            runs += checked.runs;
            values += checked.values;
        }
    }
    for seed in 0..150u64 {
        let input = air(random_module(seed, &ModuleConfig::default()));
        let checked = verify::<Demand>(&input, &limits, 3, seed, MAX_STEPS);
        assert!(
            checked.violations.is_empty(),
            "random module, seed {seed}:\n{}\n{}",
            checked.violations.join("\n"),
            input.module()
        );
        runs += checked.runs;
        values += checked.values;
    }
    assert!(
        runs > 3_000 && values > 50_000,
        "{runs} runs, {values} demands"
    );
}

/// Needed values are fewer than live names: a read whose result nothing observes needs nothing.
#[test]
fn needed_values_leave_out_reads_nothing_observes() {
    let file = workspace().join("ir/test_data/backward.air");
    let file = file.to_str().expect("a UTF-8 path");
    let (code, live, _) = absinthe(&["analyze", file, "--analysis", "live"]);
    assert_eq!(code, 0);
    let (code, needed, _) = absinthe(&["analyze", file, "--analysis", "needed"]);
    assert_eq!(code, 0);
    let at = |out: &str, code: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with(code))
            .unwrap_or_else(|| panic!("no line `{code}` in\n{out}"))
            .split('│')
            .nth(1)
            .expect("an annotation")
            .trim()
            .to_owned()
    };
    // `t = k * 2` feeds only `u`, which nothing reads: `k` and `t` are live, not needed.
    assert_eq!(at(&live, "t = k * 2"), "x = ⊤, n = ⊤, d = ⊤, k = ⊤");
    assert_eq!(at(&needed, "t = k * 2"), "x = ⊤, n = ⊤, d = ⊤");
    assert_eq!(at(&live, "u = t + 1"), "x = ⊤, n = ⊤, d = ⊤, t = ⊤");
    assert_eq!(at(&needed, "u = t + 1"), "x = ⊤, n = ⊤, d = ⊤");
    // `x` may be an object (a parameter), on which `+` traps: needed though `w` is not.
    assert_eq!(at(&needed, "w = x + 1"), "x = ⊤, n = ⊤, d = ⊤");
    // The divisor of a division is needed though its quotient is not (it may trap); `d` is
    // needed by nothing else.
    assert_eq!(at(&needed, "q = n / d"), "n = ⊤, d = ⊤");
    assert_eq!(at(&needed, "i = 0"), "n = ⊤");
}

#[test]
fn the_interpreted_file_prints_what_the_compiled_one_prints() {
    for (name, file) in [("live", "liveness.dom"), ("needed", "needed.dom")] {
        for program in ["ir/test_data/backward.air", "ir/test_data/typing.air"] {
            let compiled = absinthe(&["analyze", program, "--analysis", name]);
            let dom = format!("dsl-examples/dom/{file}");
            let interpreted = absinthe(&["analyze", program, "--dom", &dom]);
            assert_eq!(compiled.0, 0, "{}", compiled.2);
            assert_eq!(compiled, interpreted, "{name} on {program}");
            let (code, out, err) = absinthe(&["verify", program, "--dom", &dom]);
            assert_eq!(code, 0, "{out}{err}");
            assert!(out.ends_with(": 0 violations\n"), "{out}");
        }
    }
}

/// A rule that forgets an operand is caught by `verify`, at the statement whose operand the
/// run needed.
#[test]
fn a_planted_rule_that_drops_operands_is_found() {
    let dir = scratch("backward-planted");
    let text = std::fs::read_to_string(workspace().join("dsl-examples/dom/needed.dom"))
        .expect("the example");
    let planted = text.replace(
        "transfer pass_operands on backward any (op: Op, d: Demand) -> Need = d.need;",
        "transfer pass_operands on backward any (op: Op, d: Demand) -> Need = \
         if op == Op::Add { Need::Unneeded } else { d.need };",
    );
    assert_ne!(planted, text, "the rule to plant into is in the example");
    let dom = dir.join("planted.dom");
    std::fs::write(&dom, planted).expect("write the planted file");
    let program = workspace().join("ir/test_data/backward.air");
    let (code, out, err) = absinthe(&[
        "verify",
        program.to_str().expect("a UTF-8 path"),
        "--dom",
        dom.to_str().expect("a UTF-8 path"),
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.lines().any(|l| l.contains("the run needs `i`")
            && l.contains("a rule gives bottom where the value is used")),
        "{out}"
    );
}

#[test]
fn a_backward_analysis_refuses_what_it_cannot_do() {
    let program = "ir/test_data/backward.air";
    for (args, says) in [
        (
            vec![
                "analyze",
                program,
                "--analysis",
                "live",
                "--state",
                "sparse",
            ],
            "keeps dense states",
        ),
        (
            vec!["analyze", "ir/test_data/kernel/p1.kt", "--analysis", "live"],
            "not on kernel terms",
        ),
        (
            vec![
                "analyze",
                program,
                "--analysis",
                "needed",
                "--strategy",
                "graph-free",
            ],
            "forward only",
        ),
        (
            vec!["verify", program, "--analysis", "needed", "--random", "3"],
            "verify a backward analysis on a file",
        ),
    ] {
        let (code, out, err) = absinthe(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// `trace` runs the same engine: the JSON trace's states at block entries are the demands
/// `analyze` prints before each block's first point, and the viewer's page carries the
/// backward verify.
#[test]
fn the_trace_shows_the_demands_analyze_prints() {
    let program = "ir/test_data/backward.air";
    let (code, trace, err) = absinthe(&[
        "trace",
        program,
        "--analysis",
        "needed",
        "--format",
        "json-trace",
    ]);
    assert_eq!(code, 0, "{err}");
    let trace: serde_json::Value = serde_json::from_str(&trace).expect("JSON");
    assert_eq!(trace["result"]["stop"]["kind"], "stable");
    // The first block's entry: before `k = n * 3`.
    let entry = &trace["result"]["entry"][0];
    assert_eq!(entry, &serde_json::json!({ "x": "⊤", "n": "⊤", "d": "⊤" }));
    let (code, analyzed, _) = absinthe(&["analyze", program, "--analysis", "needed"]);
    assert_eq!(code, 0);
    assert!(
        analyzed.contains("k = n * 3             │ x = ⊤, n = ⊤, d = ⊤"),
        "{analyzed}"
    );
    let (code, page, err) = absinthe(&["trace", program, "--analysis", "live", "--format", "html"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        page.contains("\"holds\":\"every value the run needed demanded")
            && page.contains("\"count\":0"),
        "the page's verify"
    );
}

/// A run may end anywhere: a trap on an object where arithmetic expects an integer, a throw out
/// of a callee before a loop that never ends. What such runs read is demanded, and `verify`
/// checks those runs too.
#[test]
fn runs_that_end_by_a_trap_or_a_throw_are_covered() {
    let dir = scratch("backward-ends");
    let trap = dir.join("trap.air");
    std::fs::write(
        &trap,
        "fn f(n) {\nentry:\n    br n < 0, mk, num\nmk:\n    o = new\n    goto join\nnum:\n    \
         o = n\n    goto join\njoin:\n    t = o + 1\n    ret 0\n}\n",
    )
    .expect("write");
    let throw = dir.join("throw.air");
    std::fs::write(
        &throw,
        "fn f(x, b) {\nentry:\n    q = x / b\n    call g(x)\n    goto spin\nspin:\n    goto spin\n}\n\
         fn g(y) {\nentry:\n    throw y\n}\n",
    )
    .expect("write");
    let (trap, throw) = (
        trap.to_str().expect("UTF-8"),
        throw.to_str().expect("UTF-8"),
    );
    let (code, out, err) = absinthe(&["analyze", trap, "--analysis", "needed"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("goto join          │ o = ⊤"), "{out}");
    let (code, out, err) = absinthe(&["analyze", throw, "--analysis", "needed"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("q = x / b  │ x = ⊤, b = ⊤"), "{out}");
    for file in [trap, throw] {
        for analysis in ["live", "needed"] {
            let (code, out, err) = absinthe(&["verify", file, "--analysis", analysis]);
            assert_eq!(code, 0, "{file} {analysis}: {out}{err}");
        }
    }
}
