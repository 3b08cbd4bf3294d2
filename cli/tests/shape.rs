//! `--analysis shape` (the shape analysis with fields, its values declared in
//! `dsl-examples/dom/shape.dom`) on the seed's examples in the core IR: the text, the Graphviz
//! drawing, the same from the `.dom` file interpreted, and the check against runs.

use crate::common;

use absinthe_cli::driver::{Format, Input};
use absinthe_dsl_examples::dom::shape::HeapValue;
use std::path::Path;

fn sample_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../ir/test_data/shape.air")
}

fn sample() -> Input {
    Input::load(&sample_path()).expect("the sample parses")
}

use common::annotation as at;

#[test]
fn the_seed_s_rules_on_the_command_line() {
    let output = absinthe_cli::shape::run::<HeapValue>(&sample(), Format::Text, "shape").output;
    // After the call, contraction gives the caller `x.next = y` exactly: `z` is no longer its
    // target.
    assert_eq!(
        at(&output, "caller()", "w = x.next"),
        "x@bb0:0/0, y@bb0:1/0, z@bb0:2/0 | x@bb0:0/0 -next-> y@bb0:1/0"
    );
    // The callee's exit: a strong edge from the first argument's context node, weak edges from
    // the others (they may alias it), the field certainly written.
    assert_eq!(
        at(&output, "set_next", "ret"),
        "a@γ0, b@γ1 | a@γ0 -next-> b@γ1, b@γ1 ~next~> b@γ1, !a@γ0.next, γ* ~next~> b@γ1"
    );
    // The list's tail is one summary node with a `next` self-loop, and `done` is reached only
    // where `p` holds no object (`more` is 0 there).
    let done = at(&output, "list", "ret head");
    assert!(done.contains("Σ@bb2:0/≤∞ -next-> Σ@bb2:0/≤∞"), "{done}");
    assert!(!done.contains("p@"), "{done}");
    assert_eq!(
        done.matches("more = {constant: 0, interval: [0, 0]}")
            .count(),
        2,
        "{done}"
    );
    // Reading through the summary materializes `second`; the store through it is strong.
    assert!(
        at(&output, "materialize", "ret second").contains("second@bb0:0/0 -val-> fresh@bb3:1/0"),
        "{output}"
    );
}

#[test]
fn graphviz_draws_every_block_s_graphs() {
    let dot = absinthe_cli::shape::dot::<HeapValue>(&sample()).output;
    // One closed `digraph` per graph.
    assert_eq!(
        dot.matches("digraph ").count(),
        dot.lines().filter(|l| *l == "}").count()
    );
    assert!(dot.contains("digraph \"list loop #2\" {"), "{dot}");
    assert!(
        dot.contains("[label=\"Σ@bb2:0/≤∞\", style=dashed]"),
        "{dot}"
    );
    assert!(dot.contains("[label=\"next\", style=dotted]"), "{dot}");
    let file = sample_path();
    let file = file.to_str().expect("a UTF-8 path");
    let (code, out, _) =
        common::absinthe(&["analyze", file, "--analysis", "shape", "--format", "dot"]);
    assert_eq!(code, 0);
    assert_eq!(out, dot);
    let (code, _, err) =
        common::absinthe(&["analyze", file, "--analysis", "const", "--format", "dot"]);
    assert_eq!(code, 2);
    assert!(err.contains("`--format dot` draws shape graphs"), "{err}");
}

#[test]
fn the_dom_file_interpreted_prints_the_same() {
    let file = sample_path();
    let file = file.to_str().expect("a UTF-8 path");
    let dom = common::workspace().join("dsl-examples/dom/shape.dom");
    let dom = dom.to_str().expect("a UTF-8 path");
    let (code, built_in, _) = common::absinthe(&["analyze", file, "--analysis", "shape"]);
    assert_eq!(code, 0);
    let (code, interpreted, err) = common::absinthe(&["analyze", file, "--dom", dom]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(built_in, interpreted);
    let (code, json, _) =
        common::absinthe(&["analyze", file, "--analysis", "shape", "--format", "json"]);
    assert_eq!(code, 0);
    let doc: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(doc["analysis"], "shape");
    assert_eq!(doc["functions"][0]["name"], "list");
    assert!(doc["functions"][0]["points"][0]["graphs"].is_array());
}

#[test]
fn verify_checks_every_frame_of_runs() {
    let file = sample_path();
    let file = file.to_str().expect("a UTF-8 path");
    let (code, out, err) =
        common::absinthe(&["verify", file, "--analysis", "shape", "--runs", "20"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with("checked: 0 violations\n"), "{out}");
    let check = absinthe_cli::shape::verify::<HeapValue>(&sample(), 50, 7, 10_000);
    assert!(check.violations.is_empty(), "{:#?}", check.violations);
    assert!(check.runs >= 200 && check.edges > 1000, "{check:?}");
}
