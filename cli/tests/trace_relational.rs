//! `absinthe trace` of a domain with a relational component (the catalog's `octagon`): the
//! relational engine `analyze` runs, traced, with the relation in every format, and the warning
//! where a trace cannot keep it.

use absinthe::engine::Limits;
use absinthe_cli::analyses::AnalysisName;
use absinthe_cli::builtin::trace;
use absinthe_cli::driver::{Input, analyze_function};
use absinthe_cli::trace::TraceFormat;
use absinthe_dsl_examples::relational::value::OctagonRanges;
use serde_json::Value;

use crate::common::absinthe;

fn below_n() -> Input {
    Input::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../ir/test_data/below_n.air"
    )))
    .expect("the sample")
}

fn traced(format: TraceFormat) -> String {
    trace(
        &below_n(),
        AnalysisName::Octagon,
        None,
        format,
        &Limits::default(),
    )
    .expect("a trace")
}

#[test]
fn the_json_trace_gives_the_relation_of_every_state() {
    let t: Value = serde_json::from_str(&traced(TraceFormat::JsonTrace)).expect("valid JSON");
    crate::trace::faithful(&t, "below_n, octagon");
    let body = t["blocks"]
        .as_array()
        .expect("blocks")
        .iter()
        .position(|b| b["label"] == "body")
        .expect("a body");
    let entry = &t["result"]["relation"]["entry"][body];
    assert!(
        entry
            .as_array()
            .expect("constraints")
            .contains(&Value::from("i - n ≤ -1")),
        "{entry}"
    );
    // The same relation `analyze` computes: the result's is the analysis's at each block entry.
    let Input::Air { module, .. } = below_n() else {
        unreachable!("an .air file")
    };
    let f = &module.functions[0];
    let analysis = analyze_function::<OctagonRanges>(f, true, &Limits::default());
    for (b, points) in analysis.relations.iter().enumerate() {
        let name = |x: usize| f.names[x].clone();
        let texts: Vec<Value> = points[0].iter().map(|c| c.text(&name).into()).collect();
        if analysis.points[b][0].is_reachable() {
            assert_eq!(
                t["result"]["relation"]["entry"][b],
                Value::from(texts),
                "block {b}"
            );
        }
    }
    // Every event that gives states gives their relations, under the same fields.
    for e in t["events"].as_array().expect("events") {
        let fields: &[&str] = match e["kind"].as_str().expect("a kind") {
            "join" => &["result"],
            "transfer" | "widen" | "narrow" => &["before", "after"],
            _ => &[],
        };
        for field in fields {
            let relation = &e["relation"][field];
            assert_eq!(relation.is_null(), e[field].is_null(), "{e}");
        }
    }
}

#[test]
fn the_graph_shows_the_relation_under_the_states() {
    let dot = traced(TraceFormat::Dot);
    assert!(dot.contains("entry: relation: i - n ≤ -1"), "{dot}");
    assert!(
        dot.contains("entry: relation: n - i ≤ 0, i - n ≤ 0"),
        "{dot}"
    );
}

#[test]
fn the_page_carries_the_relations_and_their_reasons() {
    let html = traced(TraceFormat::Html { verify_runs: 0 });
    let start = html.find("application/json\">").expect("the data") + "application/json\">".len();
    let end = start + html[start..].find("</script>").expect("its end");
    let data: Value = serde_json::from_str(&html[start..end]).expect("valid JSON");
    assert_eq!(data["relation"], "Octagon (packs of at most 8 names)");
    let strings = data["strings"].as_array().expect("strings");
    let index = |text: &str| {
        strings
            .iter()
            .position(|s| s == text)
            .unwrap_or_else(|| panic!("`{text}` is interned"))
    };
    let guard = index("i - n ≤ -1");
    assert!(
        data["relations"]
            .as_array()
            .expect("relations")
            .iter()
            .any(|r| r.as_array().expect("a list").contains(&Value::from(guard))),
        "a relation holds i - n ≤ -1"
    );
    // An edge into the body says why its bound of i holds: the sum of the guard's constraint
    // and the 64-bit range of n.
    let bound = index("i ≤ 9223372036854775806");
    let explained = data["events"].as_array().expect("events").iter().any(|e| {
        e[0] == 1
            && e[4].as_array().expect("ins").iter().any(|edge| {
                edge[3].as_array().is_some_and(|whys| {
                    whys.iter()
                        .any(|w| w[0] == bound && w[1][1] == 3 && w[1][2][0] == guard)
                })
            })
    });
    assert!(
        explained,
        "the bound of i in the body is derived from i - n ≤ -1"
    );
}

#[test]
fn the_command_line_trace_keeps_the_relation_without_a_warning() {
    let (code, stdout, stderr) = absinthe(&[
        "trace",
        "ir/test_data/below_n.air",
        "--analysis",
        "octagon",
        "--format",
        "dot",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("relation: i - n ≤ -1"), "{stdout}");
    assert!(!stderr.contains("warning"), "{stderr}");
}
