//! `absinthe trace` of the heap analyses (`--analysis shape`, `--analysis escape`): the JSON
//! stream is faithful to the run with states as rows, the seed's examples show what the book
//! says (three cells of the loop's site; `Ref`'s two heaps kept apart), the viewer's data
//! replays to the final states statement by statement, the page carries the function's facts
//! and the heap checks' verdict, and what a heap analysis cannot read is refused plainly.

use absinthe::engine::Limits;
use absinthe_cli::analyses::AnalysisName;
use absinthe_cli::builtin::trace;
use absinthe_cli::driver::Input;
use absinthe_cli::trace::TraceFormat;
use absinthe_ir::generate::{HeapGenConfig, random_heap_module};
use expect_test::expect;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

use crate::common::absinthe;
use crate::trace::faithful;

fn sample(name: &str) -> Input {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../ir/test_data")
        .join(name);
    Input::load(&path).expect("the sample parses")
}

fn traced(
    input: &Input,
    analysis: AnalysisName,
    function: Option<&str>,
    format: TraceFormat,
) -> String {
    trace(input, analysis, function, format, &Limits::default()).expect("a trace")
}

fn json(input: &Input, analysis: AnalysisName, function: Option<&str>) -> Value {
    let text = traced(input, analysis, function, TraceFormat::JsonTrace);
    serde_json::from_str(&text).expect("valid JSON")
}

/// The final state at the entry of the block labelled `label`, a row a line.
fn entry_of(t: &Value, label: &str) -> String {
    let b = t["blocks"]
        .as_array()
        .expect("blocks")
        .iter()
        .position(|b| b["label"] == label)
        .expect("the block");
    match &t["result"]["entry"][b] {
        Value::Object(rows) => rows
            .iter()
            .map(|(k, v)| format!("{k}: {}\n", v.as_str().unwrap_or_default()))
            .collect(),
        other => format!("{other}\n"),
    }
}

#[test]
fn the_shape_trace_of_the_seed_loop_keeps_three_cells_of_its_site() {
    let t = json(&sample("seed_loop.air"), AnalysisName::Shape, None);
    assert_eq!(t["format"], "absinthe-trace");
    assert_eq!(t["states"], "rows");
    assert_eq!(t["function"], "seed_loop");
    faithful(&t, "seed_loop.air, shape");
    // The seed's four maximal compatible subsets at the loop head; the site in the loop never
    // counts past ≤2.
    expect![[r#"
        graph 1: at bb0:0: x,y,z@bb0:0/0
        graph 1: context: c@γ0
        graph 2: at bb0:0: y,z@bb0:0/0
        graph 2: at bb2:3: x@bb2:3/0
        graph 3: at bb0:0: z@bb0:0/0
        graph 3: at bb2:3: x@bb2:3/0, y@bb2:3/≤1
        graph 4: at bb2:3: x@bb2:3/0, y@bb2:3/≤1, z@bb2:3/≤2
    "#]]
    .assert_eq(&entry_of(&t, "head"));
    let forest = &t["result"]["facts"]["alias forest at bb2:3"];
    assert!(
        forest
            .as_array()
            .expect("the site's forest")
            .iter()
            .any(|l| l == "exit ret, graph 4: x@bb2:3/0, y@bb2:3/≤1, z@bb2:3/≤2"),
        "{forest}"
    );
}

#[test]
fn the_shape_trace_of_a_list_walk_summarizes_its_cells() {
    let t = json(&sample("shape.air"), AnalysisName::Shape, Some("list"));
    faithful(&t, "shape.air list, shape");
    let done = entry_of(&t, "done");
    assert!(done.contains("Σ@bb2:0/≤∞"), "{done}");
    assert!(done.contains("Σ@bb2:0/≤∞ -next-> Σ@bb2:0/≤∞"), "{done}");
}

#[test]
fn the_escape_trace_of_ref_keeps_its_two_heaps_apart() {
    let t = json(
        &sample("escape.air"),
        AnalysisName::Escape,
        Some("ref_example"),
    );
    assert_eq!(t["states"], "rows");
    faithful(&t, "escape.air ref_example, escape");
    expect![[r#"
        heap 1: object left:0: held by w, z; .x = {x}
        heap 1: object ^c: held by c
        heap 1: object ^x: held by x
        heap 1: object ^y: held by y
        heap 1: values: c = {constant: ⊤, interval: [1, +∞]}, defined = {constant: 1, interval: [1, 1]}
        heap 2: object right:0: held by z, r; .x = {y}
        heap 2: object ^c: held by c
        heap 2: object ^x: held by x
        heap 2: object ^y: held by y
        heap 2: values: c = {constant: ⊤, interval: [-∞, 0]}, defined = {constant: 0, interval: [0, 0]}
    "#]]
    .assert_eq(&entry_of(&t, "join"));
    let facts: Vec<&str> = t["result"]["facts"]["facts of ref_example"]
        .as_array()
        .expect("the facts")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    expect![[r#"
        load load:0 → x
        store left:1 strong
        store right:1 strong
        store store:0 strong
        alloc left:0 w: no escape; scalar
        alloc right:0 r: no escape; scalar
        may alias: {c, x, y, v} {w, z, r}
        input x: returned
        returns x"#]]
    .assert_eq(&facts.join("\n"));
}

/// A state of the viewer's data being replayed: reachable, and each key's interned value.
#[derive(Clone, Debug, Default, PartialEq)]
struct Shown {
    reachable: bool,
    rows: BTreeMap<i64, i64>,
}

impl Shown {
    fn apply(&mut self, diff: &Value) {
        let diff = diff.as_array().expect("a diff");
        for pair in diff.chunks(2) {
            let (key, value) = (
                pair[0].as_i64().expect("a key"),
                pair[1].as_i64().expect("a value"),
            );
            if key < 0 {
                self.reachable = value == 1;
            } else if value < 0 {
                self.rows.remove(&key);
            } else {
                self.rows.insert(key, value);
            }
        }
    }

    fn of(state: &Value) -> Shown {
        match state {
            Value::Null => Shown::default(),
            Value::Array(pairs) => Shown {
                reachable: true,
                rows: pairs
                    .chunks(2)
                    .map(|p| {
                        (
                            p[0].as_i64().expect("a key"),
                            p[1].as_i64().expect("a value"),
                        )
                    })
                    .collect(),
            },
            other => panic!("not a state: {other}"),
        }
    }

    /// What the viewer shows: nothing of an unreachable state.
    fn seen(&self) -> Shown {
        if self.reachable {
            self.clone()
        } else {
            Shown::default()
        }
    }
}

/// The data of a viewer page.
fn data_of(page: &str) -> Value {
    let open = r#"<script id="trace-data" type="application/json">"#;
    let start = page.find(open).expect("the data element") + open.len();
    let end = start + page[start..].find("</script>").expect("its end");
    serde_json::from_str(&page[start..end].replace("<\\/", "</")).expect("valid JSON")
}

/// Replays the page's events: every block's states end as the result says, and each
/// transfer's statements, applied one by one to the block's entry, end at its exit.
fn replays(data: &Value, what: &str) {
    assert_eq!(data["rows"], true, "{what}");
    let keys = data["names"].as_array().expect("keys").len();
    let blocks = data["blocks"].as_array().expect("blocks").len();
    let (mut entry, mut exit) = (
        vec![Shown::default(); blocks],
        vec![Shown::default(); blocks],
    );
    for event in data["events"].as_array().expect("events") {
        let b = event[1].as_u64().expect("a block") as usize;
        match event[0].as_u64().expect("a kind") {
            1 => entry[b].apply(&event[3]),
            2 | 3 => entry[b].apply(&event[2]),
            4 => {
                let mut step = entry[b].clone();
                for s in event[2].as_array().expect("steps") {
                    step.apply(&s[1]);
                }
                exit[b].apply(&event[3]);
                if !event[2].as_array().expect("steps").is_empty() {
                    assert_eq!(
                        step.seen(),
                        exit[b].seen(),
                        "{what}: statements of block {b}"
                    );
                }
            }
            _ => {}
        }
        for shown in [&entry[b], &exit[b]] {
            assert!(
                shown.rows.keys().all(|&k| (k as usize) < keys),
                "{what}: known keys"
            );
        }
    }
    if data["result"]["stop"]["kind"] != "stable" {
        return;
    }
    for b in 0..blocks {
        assert_eq!(
            entry[b].seen(),
            Shown::of(&data["result"]["entry"][b]),
            "{what}: entry {b}"
        );
        assert_eq!(
            exit[b].seen(),
            Shown::of(&data["result"]["exit"][b]),
            "{what}: exit {b}"
        );
    }
}

#[test]
fn heap_traces_are_faithful_on_every_sample_function_and_random_modules() {
    let mut inputs: Vec<Input> = [
        "seed_loop.air",
        "shape.air",
        "escape.air",
        "memory.air",
        "closures.air",
        "calls.air",
    ]
    .iter()
    .map(|name| sample(name))
    .collect();
    let config = HeapGenConfig::default();
    for seed in 0..12 {
        inputs.push(Input::Air {
            file: format!("seed {seed}"),
            module: random_heap_module(seed, &config),
        });
    }
    let mut traced_functions = 0;
    for input in &inputs {
        let module = input.module();
        for function in &module.functions {
            for analysis in [AnalysisName::Shape, AnalysisName::Escape] {
                let file = match input {
                    Input::Air { file, .. } | Input::Toy { file, .. } => file,
                };
                let what = format!("{file} {} {analysis}", function.name);
                let t = json(input, analysis, Some(&function.name));
                faithful(&t, &what);
                let page = traced(
                    input,
                    analysis,
                    Some(&function.name),
                    TraceFormat::Html { verify_runs: 3 },
                );
                let data = data_of(&page);
                replays(&data, &what);
                assert_eq!(data["verify"]["count"], 0, "{what}: {}", data["verify"]);
                traced_functions += 1;
            }
        }
    }
    assert!(traced_functions > 60, "{traced_functions}");
}

#[test]
fn the_heap_page_shows_rows_facts_and_the_checks_of_runs() {
    let page = traced(
        &sample("seed_loop.air"),
        AnalysisName::Shape,
        None,
        TraceFormat::Html { verify_runs: 100 },
    );
    assert!(page.starts_with("<!DOCTYPE html>"));
    let data = data_of(&page);
    assert_eq!(data["analysis"], "shape");
    assert!(
        data["names"]
            .as_array()
            .expect("keys")
            .iter()
            .any(|k| k == "graph 4: at bb2:3"),
        "{}",
        data["names"]
    );
    assert!(page.contains("x@bb2:3/0, y@bb2:3/≤1, z@bb2:3/≤2"));
    let facts = &data["facts"];
    assert_eq!(facts[0][0], "alias forest at bb0:0", "{facts}");
    // Only c = 0 leaves the loop: the other runs run out of steps and are not checked.
    let verify = &data["verify"];
    assert_eq!(verify["kind"], "heap");
    assert_eq!(verify["tried"], 100);
    assert_eq!(verify["count"], 0, "{verify}");
    assert!(verify["runs"].as_u64().is_some_and(|r| r > 0), "{verify}");

    let page = traced(
        &sample("escape.air"),
        AnalysisName::Escape,
        Some("ref_example"),
        TraceFormat::Html { verify_runs: 0 },
    );
    let data = data_of(&page);
    assert_eq!(data["verify"], Value::Null);
    assert!(page.contains("may alias: {c, x, y, v} {w, z, r}"));
    assert!(page.contains("held by w, z; .x = {x}"));
}

#[test]
fn the_heap_graph_shows_rows_at_each_block_s_entry_and_exit() {
    let (code, out, err) = absinthe(&[
        "trace",
        "ir/test_data/seed_loop.air",
        "--analysis",
        "shape",
        "--format",
        "dot",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("digraph \"seed_loop\" {\n"), "{out}");
    assert!(
        out.contains("entry: graph 4: at bb2:3: x@bb2:3/0, y@bb2:3/≤1, z@bb2:3/≤2"),
        "{out}"
    );
    assert!(
        out.contains("bb2 -> bb1 [style=\"dashed\", label=\"back\"];"),
        "{out}"
    );
}

#[test]
fn a_dom_file_s_shape_analysis_is_traced_as_the_built_in_one() {
    let rows = |args: &[&str]| -> Value {
        let (code, out, err) = absinthe(args);
        assert_eq!(code, 0, "{err}");
        let t: Value = serde_json::from_str(&out).expect("JSON");
        t["result"].clone()
    };
    let program = "ir/test_data/shape.air";
    let built_in = rows(&[
        "trace",
        program,
        "--function",
        "caller",
        "--analysis",
        "shape",
    ]);
    let interpreted = rows(&[
        "trace",
        program,
        "--function",
        "caller",
        "--dom",
        "dsl-examples/dom/shape.dom",
    ]);
    assert_eq!(built_in, interpreted);
}

#[test]
fn heap_analyses_refuse_what_they_cannot_read() {
    let (code, _, err) = absinthe(&[
        "trace",
        "ir-llvm/test_data/control.ll",
        "--analysis",
        "shape",
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("control.ll: error: `shape` runs on toy programs and core-IR modules"),
        "{err}"
    );
    let (code, _, err) = absinthe(&["trace", "ir/test_data/kernel/p1.kt", "--analysis", "escape"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("p1.kt: error: `escape` runs on toy programs and core-IR modules"),
        "{err}"
    );
    let (code, _, err) = absinthe(&[
        "trace",
        "ir/test_data/escape.air",
        "--analysis",
        "escape",
        "--function",
        "nope",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("error: no function `nope`"), "{err}");
    let (code, _, err) = absinthe(&[
        "trace",
        "ir/test_data/seed_loop.air",
        "--analysis",
        "alias-heap",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("`alias-heap` is neither"), "{err}");
    // A toy program has no heap: its trace is the empty graph at every point.
    let (code, out, err) = absinthe(&["trace", "ir/test_data/prog0.toy", "--analysis", "shape"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"graph 1: nodes\": \"none\""), "{out}");
}
