//! `absinthe trace`: the JSON event stream is faithful to the engine's run (the states it
//! reports are the ones the analysis ends with, on random programs and several analyses), the
//! graphviz output has every block, edge and back edge, and bad requests are refused plainly.

use absinthe::engine::Limits;
use absinthe_cli::analyses::AnalysisName;
use absinthe_cli::builtin::trace;
use absinthe_cli::driver::Input;
use absinthe_cli::trace::TraceFormat;
use absinthe_ir::generate::{GenConfig, random_function};
use serde_json::Value;

use crate::common;
use common::absinthe;

fn json(input: &Input, analysis: AnalysisName) -> Value {
    let text = trace(
        input,
        analysis,
        None,
        TraceFormat::JsonTrace,
        &Limits::default(),
    )
    .expect("a trace");
    serde_json::from_str(&text).expect("valid JSON")
}

/// Every block's last transfer in the stream produced the exit state the result reports, every
/// block's last join or widening (or narrowing) produced its entry state, and visits come
/// first in each step.
pub(crate) fn faithful(trace: &Value, what: &str) {
    let events = trace["events"].as_array().expect("events");
    let blocks = trace["blocks"].as_array().expect("blocks").len();
    let result = &trace["result"];
    let mut last_exit = vec![Value::Null; blocks];
    let mut last_entry: Vec<Option<Value>> = vec![None; blocks];
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e["step"].as_u64(), Some(i as u64), "{what}: steps in order");
        let b = e["block"].as_u64().expect("a block") as usize;
        assert!(b < blocks, "{what}: a known block");
        match e["kind"].as_str().expect("a kind") {
            "transfer" => last_exit[b] = e["after"].clone(),
            "join" => last_entry[b] = Some(e["result"].clone()),
            "widen" | "narrow" => last_entry[b] = Some(e["after"].clone()),
            "visit" | "reduce" => {}
            other => panic!("{what}: unknown event kind {other}"),
        }
    }
    if result["stop"]["kind"] != "stable" {
        return;
    }
    for b in 0..blocks {
        // A block the engine never reached keeps its initial (unreachable) states.
        if last_exit[b] != Value::Null || result["exit"][b] != Value::Null {
            assert_eq!(last_exit[b], result["exit"][b], "{what}: exit of block {b}");
        }
        if let Some(entry) = &last_entry[b] {
            assert_eq!(*entry, result["entry"][b], "{what}: entry of block {b}");
        }
    }
}

#[test]
fn the_trace_of_a_loop_shows_the_widening_at_its_head() {
    let input = Input::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../ir/test_data/count.air"
    )))
    .expect("the sample");
    let t = json(&input, AnalysisName::Interval);
    assert_eq!(t["format"], "absinthe-trace");
    assert_eq!(t["version"], 1);
    assert_eq!(t["function"], "main");
    assert_eq!(t["back_edges"], serde_json::json!([[2, 1]]));
    let kinds: Vec<&str> = t["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| e["kind"].as_str().expect("kind"))
        .collect();
    assert!(kinds.contains(&"widen"), "{kinds:?}");
    assert_eq!(t["result"]["exit"][3]["i"], "[10, 10]");
    faithful(&t, "count.air");
}

#[test]
fn traces_are_faithful_to_the_run_on_random_programs() {
    let mut events = 0;
    for seed in 0..200u64 {
        let config = GenConfig {
            blocks: 2 + (seed % 9) as usize,
            max_stmts: 1 + (seed % 5) as usize,
            names: 2 + (seed % 5) as usize,
            ..GenConfig::default()
        };
        let module = random_function(seed, &config);
        let input = Input::Air {
            file: format!("seed {seed}"),
            module,
        };
        for analysis in [
            AnalysisName::Sccp,
            AnalysisName::Interval,
            AnalysisName::SignsDom,
        ] {
            let t = json(&input, analysis);
            events += t["events"].as_array().expect("events").len();
            faithful(&t, &format!("seed {seed}, {analysis}"));
        }
    }
    assert!(events > 2_000, "{events}");
}

#[test]
fn the_graph_has_every_block_edge_and_back_edge() {
    let (code, out, err) = absinthe(&[
        "trace",
        "ir/test_data/count.air",
        "--format",
        "dot",
        "--analysis",
        "interval",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("digraph \"main\" {\n"), "{out}");
    for b in 0..4 {
        assert!(out.contains(&format!("    bb{b} [label=<")), "{out}");
    }
    assert!(out.contains("bb0 -> bb1;"), "{out}");
    assert!(
        out.contains("bb2 -> bb1 [style=\"dashed\", label=\"back\"];"),
        "{out}"
    );
    assert!(out.contains("entry: i = [0, 10]"), "{out}");
    assert!(out.contains("br i &lt; 10, body, done"), "{out}");
    assert!(out.ends_with("}\n"));
}

#[test]
fn a_dom_file_is_traced_interpreted() {
    let (code, out, err) = absinthe(&[
        "trace",
        "ir/test_data/count.air",
        "--dom",
        "dsl-examples/dom/interval.dom",
    ]);
    assert_eq!(code, 0, "{err}");
    let t: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(t["analysis"], "interval");
    assert_eq!(t["result"]["exit"][3]["i"], "[10, 10]");
}

#[test]
fn an_interpreted_product_s_reductions_are_events_named_by_their_place() {
    let (code, out, err) = absinthe(&[
        "trace",
        "dsl-examples/test_data/reduction.air",
        "--dom",
        "dsl-examples/dom/signs.dom",
    ]);
    assert_eq!(code, 0, "{err}");
    let t: Value = serde_json::from_str(&out).expect("JSON");
    let reductions: Vec<&Value> = t["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["kind"] == "reduce")
        .collect();
    assert!(!reductions.is_empty(), "{out}");
    let first = reductions[0];
    assert!(
        first["rule"]
            .as_str()
            .is_some_and(|r| r.starts_with("`meet_ext ") && r.contains("signs.dom:")),
        "{first}"
    );
    assert_ne!(first["before"], first["after"]);
    faithful(&t, "signs.dom interpreted");
}

#[test]
fn compiled_products_report_their_reductions_as_the_interpreter_does() {
    let reductions = |args: &[&str]| -> Vec<(String, String, String)> {
        let (code, out, err) = absinthe(args);
        assert_eq!(code, 0, "{err}");
        let t: Value = serde_json::from_str(&out).expect("JSON");
        t["events"]
            .as_array()
            .expect("events")
            .iter()
            .filter(|e| e["kind"] == "reduce")
            .map(|e| {
                let text = |k: &str| e[k].as_str().unwrap_or_default().to_owned();
                (text("component"), text("before"), text("after"))
            })
            .collect()
    };
    let program = "dsl-examples/test_data/reduction.air";
    let compiled = reductions(&["trace", program, "--analysis", "signs-dom"]);
    let attributes = reductions(&["trace", program, "--analysis", "signs"]);
    let interpreted = reductions(&["trace", program, "--dom", "dsl-examples/dom/signs.dom"]);
    assert!(!compiled.is_empty());
    assert_eq!(compiled, interpreted);
    assert_eq!(compiled, attributes);
}

#[test]
fn bad_requests_are_refused_plainly() {
    let (code, _, err) = absinthe(&["trace", "ir/test_data/count.air", "--function", "nope"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("ir/test_data/count.air: error: no function `nope`; the functions are main"),
        "{err}"
    );
    let (code, _, err) = absinthe(&["trace", "--analysis", "cfa"]);
    assert_eq!(code, 2);
    assert!(err.contains("`trace` runs value analyses"), "{err}");
    let (code, _, err) = absinthe(&["trace", "missing.air"]);
    assert_eq!(code, 1);
    assert!(err.contains("missing.air"), "{err}");
}
