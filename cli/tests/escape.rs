//! `--analysis escape` (the escape and alias analysis, its values declared in
//! `dsl-examples/dom/escape.dom`) on seed 004's examples in the core IR: what the command line
//! prints, the same from the `.dom` file interpreted, and the check against runs.

use crate::common;

use absinthe_cli::driver::{Format, Input};
use absinthe_dsl_examples::dom::escape::HeapValue;
use std::path::Path;

fn sample_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../ir/test_data/escape.air")
}

fn sample() -> Input {
    Input::load(&sample_path()).expect("the sample parses")
}

use common::annotation as at;

/// The facts printed for `function`.
fn facts<'a>(output: &'a str, function: &str) -> &'a str {
    let start = output
        .find(&format!("facts of {function}:\n"))
        .unwrap_or_else(|| panic!("no facts of `{function}`"));
    let rest = &output[start..];
    &rest[..rest.find("\n\n").unwrap_or(rest.len())]
}

#[test]
fn the_seed_s_examples_on_the_command_line() {
    let output =
        absinthe_cli::escape::run::<HeapValue>(&sample(), Format::Text, "escape", 8).output;
    // After the join of the two allocations, the two paths' heaps stay apart: `z` is `w`'s
    // object on one and `r`'s on the other, each with its own field.
    assert_eq!(
        at(&output, "ref_example", "br c > 0, skip, store"),
        "[c → ^c · x → ^x · y → ^y · w → left:0 · z → left:0 · left:0.x = {x}] ⊔ \
         [c → ^c · x → ^x · y → ^y · z → right:0 · r → right:0 · right:0.x = {y}]  \
         with defined = {constant: ⊤, interval: [0, 1]}"
    );
    assert_eq!(
        facts(&output, "ref_example"),
        "facts of ref_example:\n  load load:0 → x\n  store left:1 strong\n  store right:1 strong\n  \
         store store:0 strong\n  alloc left:0 w: no escape; scalar\n  \
         alloc right:0 r: no escape; scalar\n  may alias: {c, x, y, v} {w, z, r}\n  \
         input x: returned\n  returns x"
    );
    // The captured box's field load takes the stored value's interval (the reduction).
    assert!(
        at(&output, "capture", "y = call identity(x)")
            .ends_with("x = {constant: ⊤, interval: [-9, 9]}"),
        "{output}"
    );
    assert!(facts(&output, "capture").contains("load bb0:8 → y"));
}

#[test]
fn the_dom_file_interpreted_prints_the_same() {
    let file = sample_path();
    let file = file.to_str().expect("a UTF-8 path");
    let dom = common::workspace().join("dsl-examples/dom/escape.dom");
    let dom = dom.to_str().expect("a UTF-8 path");
    let (code, built_in, _) = common::absinthe(&["analyze", file, "--analysis", "escape"]);
    assert_eq!(code, 0);
    let (code, interpreted, err) = common::absinthe(&["analyze", file, "--dom", dom]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(built_in, interpreted);
    let (code, json, _) =
        common::absinthe(&["analyze", file, "--analysis", "escape", "--format", "json"]);
    assert_eq!(code, 0);
    let doc: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(doc["analysis"], "escape");
    let capture = &doc["functions"][1];
    assert_eq!(capture["name"], "capture");
    assert_eq!(capture["loads"][1]["forwarded"], "y");
    assert_eq!(
        capture["allocations"][0]["escapes"]
            .as_array()
            .map(Vec::len),
        Some(0)
    );
    assert_eq!(
        doc["functions"][0]["may_alias"],
        serde_json::json!([["c", "x", "y", "v"], ["w", "z", "r"]])
    );
}

#[test]
fn verify_checks_every_frame_of_runs() {
    let file = sample_path();
    let file = file.to_str().expect("a UTF-8 path");
    let (code, out, err) =
        common::absinthe(&["verify", file, "--analysis", "escape", "--runs", "20"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with("checked: 0 violations\n"), "{out}");
    let check = absinthe_cli::escape::verify::<HeapValue>(&sample(), 8, 50, 7, 10_000);
    assert!(check.violations.is_empty(), "{:#?}", check.violations);
    assert!(check.runs >= 400 && check.loads > 50, "{check:?}");
}

#[test]
fn trace_shows_the_heaps_as_rows() {
    let file = sample_path();
    let file = file.to_str().expect("a UTF-8 path");
    let (code, out, err) = common::absinthe(&["trace", file, "--analysis", "escape"]);
    assert_eq!(code, 0, "{err}");
    // The first function, `ref_example`, its heaps as rows (more in `trace_heap.rs`).
    assert!(out.contains("\"function\": \"ref_example\""), "{out}");
    assert!(
        out.contains("\"heap 1: object left:0\": \"held by w, z; .x = {x}\""),
        "{out}"
    );
}
