//! `absinthe trace --html`: the viewer's page. Its data replays to exactly the states the engine
//! ends with (on random programs, three analyses), each statement's recorded value is the one
//! its destination leaves the block with, reductions point at real statements and edges, the
//! layout overlaps no blocks, the page fetches nothing, and verify's failing run is a path of
//! the graph that ends at the blamed rule. What a browser shows of it is tested by
//! `browser-tests/viewer.test.mjs` (scripts/browser-tests.sh).

use absinthe::engine::Limits;
use absinthe_cli::analyses::AnalysisName;
use absinthe_cli::builtin::trace;
use absinthe_cli::driver::Input;
use absinthe_cli::trace::TraceFormat;
use absinthe_ir::generate::{GenConfig, random_function};
use serde_json::Value;
use std::collections::HashMap;

use crate::common;
use common::{absinthe, scratch, workspace};

/// The data of a viewer page.
fn data_of(page: &str) -> Value {
    let open = r#"<script id="trace-data" type="application/json">"#;
    let start = page.find(open).expect("the data element") + open.len();
    let end = start + page[start..].find("</script>").expect("its end");
    serde_json::from_str(&page[start..end].replace("<\\/", "</")).expect("valid JSON")
}

fn page(input: &Input, analysis: AnalysisName, verify_runs: usize) -> String {
    trace(
        input,
        analysis,
        None,
        TraceFormat::Html { verify_runs },
        &Limits::default(),
    )
    .expect("a page")
}

/// A state being replayed: reachability and each name's interned value.
#[derive(Clone, Default)]
struct Slot {
    reachable: bool,
    values: HashMap<u64, u64>,
}

impl Slot {
    fn apply(&mut self, diff: &Value) {
        let diff = diff.as_array().expect("a diff");
        for pair in diff.chunks(2) {
            let (name, value) = (
                pair[0].as_i64().expect("a name"),
                pair[1].as_u64().expect("a value"),
            );
            if name < 0 {
                self.reachable = value == 1;
            } else {
                self.values.insert(name as u64, value);
            }
        }
    }

    /// As the page's result gives a state: null, or every name's interned value.
    fn matches(&self, expected: &Value, names: usize) -> bool {
        match expected {
            Value::Null => !self.reachable,
            Value::Array(values) => {
                self.reachable
                    && (0..names)
                        .all(|n| self.values.get(&(n as u64)) == values[n].as_u64().as_ref())
            }
            _ => false,
        }
    }
}

/// Replays the page's events and checks them against its result and its function.
fn replays(data: &Value, what: &str) {
    let blocks = data["blocks"].as_array().expect("blocks");
    let names = data["names"].as_array().expect("names").len();
    let strings = data["strings"].as_array().expect("strings").len() as u64;
    let mut entry = vec![Slot::default(); blocks.len()];
    let mut exit = vec![Slot::default(); blocks.len()];
    for (e, ev) in data["events"]
        .as_array()
        .expect("events")
        .iter()
        .enumerate()
    {
        let ev = ev.as_array().expect("an event");
        let b = ev[1].as_u64().expect("a block") as usize;
        assert!(b < blocks.len(), "{what}: event {e} names a block");
        let stmts = blocks[b]["stmts"].as_array().expect("statements");
        match ev[0].as_u64() {
            Some(0) => {}
            Some(1) => entry[b].apply(&ev[3]),
            Some(2 | 3) => entry[b].apply(&ev[2]),
            Some(4) => {
                exit[b].apply(&ev[3]);
                // The last value computed for each destination is the one it leaves with.
                let mut last = HashMap::new();
                for computed in ev[2].as_array().expect("statement values") {
                    let s = computed[0].as_u64().expect("a statement") as usize;
                    let def = stmts[s]["def"].as_i64().expect("a destination");
                    assert!(def >= 0, "{what}: event {e}: statement {s} defines a name");
                    last.insert(def as u64, computed[1].as_u64().expect("a value"));
                }
                if exit[b].reachable {
                    for (def, value) in last {
                        assert_eq!(exit[b].values.get(&def), Some(&value), "{what}: event {e}");
                    }
                }
            }
            Some(5) => {
                let at = ev[2].as_i64().expect("where");
                if at >= 0 {
                    assert!(
                        (at as usize) < stmts.len(),
                        "{what}: event {e}: a statement"
                    );
                } else {
                    let from = (-1 - at) as usize;
                    let successors = blocks[from]["successors"].as_array().expect("successors");
                    assert!(
                        successors.iter().any(|s| s.as_u64() == Some(b as u64)),
                        "{what}: event {e}: a reduction on an edge of the graph"
                    );
                }
                for text in &ev[3..7] {
                    assert!(text.as_u64().expect("a string") < strings);
                }
            }
            other => panic!("{what}: event {e} of unknown kind {other:?}"),
        }
    }
    let result = &data["result"];
    if result["stop"]["kind"] != "stable" {
        return;
    }
    for b in 0..blocks.len() {
        assert!(
            entry[b].matches(&result["entry"][b], names),
            "{what}: entry of block {b}"
        );
        assert!(
            exit[b].matches(&result["exit"][b], names),
            "{what}: exit of block {b}"
        );
    }
}

/// No two blocks' boxes overlap, and every box has a size.
fn laid_out(data: &Value, what: &str) {
    let boxes: Vec<[f64; 4]> = data["blocks"]
        .as_array()
        .expect("blocks")
        .iter()
        .map(|b| ["x", "y", "w", "h"].map(|k| b[k].as_f64().expect("a coordinate")))
        .collect();
    for (i, a) in boxes.iter().enumerate() {
        assert!(a[2] > 0.0 && a[3] > 0.0, "{what}: block {i} has a size");
        for (j, b) in boxes.iter().enumerate().skip(i + 1) {
            let apart = (a[0] - b[0]).abs() * 2.0 >= a[2] + b[2] - 1.0
                || (a[1] - b[1]).abs() * 2.0 >= a[3] + b[3] - 1.0;
            assert!(apart, "{what}: blocks {i} and {j} overlap: {a:?} {b:?}");
        }
    }
}

#[test]
fn the_page_replays_to_the_engine_s_states_on_random_programs() {
    let analyses = [
        AnalysisName::Interval,
        AnalysisName::Sccp,
        AnalysisName::Signs,
    ];
    for seed in 0..150 {
        let config = GenConfig {
            blocks: 2 + (seed % 12) as usize,
            ..GenConfig::default()
        };
        let module = random_function(seed, &config);
        let input = Input::Air {
            file: format!("random{seed}.air"),
            module,
        };
        for analysis in analyses {
            let what = format!("seed {seed}, {analysis:?}");
            let data = data_of(&page(&input, analysis, 0));
            replays(&data, &what);
            laid_out(&data, &what);
        }
    }
}

#[test]
fn the_page_fetches_nothing() {
    let page = page(&Input::builtin_prog0(), AnalysisName::Interval, 10);
    for needle in [
        "<script src",
        "<link",
        "@import",
        "https://",
        "fetch(",
        "XMLHttpRequest",
    ] {
        assert!(!page.contains(needle), "the page contains `{needle}`");
    }
    // `url(…)` only for the page's own markers.
    for (i, _) in page.match_indices("url(") {
        assert!(page[i..].starts_with("url(#"), "{}", &page[i..i + 30]);
    }
    // The one address is SVG's namespace, a name rather than a place.
    let addresses: Vec<&str> = page
        .match_indices("http://")
        .map(|(i, _)| &page[i..i + 26])
        .collect();
    assert!(
        addresses.iter().all(|a| *a == "http://www.w3.org/2000/svg"),
        "{addresses:?}"
    );
    assert!(page.starts_with("<!DOCTYPE html>"));
}

#[test]
fn html_goes_to_a_file_or_to_standard_output() {
    let dir = scratch("viewer-html");
    let out = dir.join("count.html");
    let out_arg = out.display().to_string();
    let (code, stdout, err) = absinthe(&["trace", "ir/test_data/count.air", "--html", &out_arg]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.is_empty());
    let written = std::fs::read_to_string(&out).expect("the page is written");
    let data = data_of(&written);
    assert_eq!(data["function"], "main");
    assert_eq!(data["analysis"], "interval");
    assert_eq!(data["verify"]["violation"], Value::Null);
    assert_eq!(data["verify"]["runs"], 100);
    let (code, stdout, err) = absinthe(&["trace", "ir/test_data/count.air", "--format", "html"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(data_of(&stdout)["events"], data["events"]);
    // `--html` is a format of its own.
    let (code, _, err) = absinthe(&["trace", "--html", &out_arg, "--format", "dot"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be used with"), "{err}");
    let (code, _, err) = absinthe(&["trace", "--html", "/nonexistent/dir/page.html"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("/nonexistent/dir/page.html: error: cannot write"),
        "{err}"
    );
}

#[test]
fn verify_s_failing_run_is_a_path_to_the_blamed_rule() {
    let dom = workspace().join("browser-tests/data/wrong_parity.dom");
    let dom = dom.display().to_string();
    let (code, out, err) = absinthe(&[
        "trace",
        "ir/test_data/count.air",
        "--dom",
        &dom,
        "--format",
        "html",
    ]);
    assert_eq!(code, 0, "{err}");
    let data = data_of(&out);
    let violation = &data["verify"]["violation"];
    let label = |b: &Value| data["blocks"][b.as_u64().expect("a block") as usize]["label"].clone();
    let path: Vec<Value> = violation["path"]
        .as_array()
        .expect("a path")
        .iter()
        .map(label)
        .collect();
    assert_eq!(path, ["bb0", "head", "body"]);
    // Each step of the path is an edge of the graph.
    for pair in violation["path"].as_array().expect("a path").windows(2) {
        let from = &data["blocks"][pair[0].as_u64().expect("a block") as usize];
        assert!(
            from["successors"]
                .as_array()
                .expect("successors")
                .contains(&pair[1])
        );
    }
    assert_eq!(label(&violation["culprit"]["block"]), "body");
    assert_eq!(violation["culprit"]["index"], 0);
    let rule = violation["rule"].as_str().expect("a rule");
    assert!(rule.contains("`transfer parity_add_wrong` at "), "{rule}");
    assert!(rule.ends_with("wrong_parity.dom:23:1"), "{rule}");
    // With no runs asked for, nothing is checked.
    let (code, out, err) = absinthe(&[
        "trace",
        "ir/test_data/count.air",
        "--dom",
        &dom,
        "--format",
        "html",
        "--verify-runs",
        "0",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(data_of(&out)["verify"], Value::Null);
}
