//! `--analysis alias-heap` on the Green Fairy's loop, and checked against runs.

use absinthe_cli::driver::{Format, Input};
use absinthe_cli::heap;
use std::path::Path;

fn sample() -> Input {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ir/test_data/seed_loop.air");
    Input::load(&path).expect("the sample parses")
}

#[test]
fn the_loop_head_shows_the_seed_s_four_heaps() {
    let output = heap::run(&sample(), Format::Text).output;
    let head = output
        .lines()
        .find(|l| l.trim_start().starts_with("br c, body, exit"))
        .expect("the loop head's branch");
    let heaps = head.split("│ ").nth(1).expect("annotated");
    assert_eq!(
        heaps,
        "[bb0:0{x, y, z} ?{c}] ⊔ [bb0:0{y, z} body:3{x} ?{c}] ⊔ \
         [bb0:0{z} body:3{x} body:3{y}≤1 ?{c}] ⊔ [body:3{x} body:3{y}≤1 body:3{z}≤2 ?{c}]"
    );
    let json = heap::run(&sample(), Format::Json).output;
    let doc: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(doc["analysis"], "alias-heap");
    assert_eq!(
        doc["functions"][0]["points"][4]["heaps"]
            .as_array()
            .map(Vec::len),
        Some(4)
    );
}

#[test]
fn the_heaps_agree_with_runs() {
    let check = heap::verify(&sample(), 50, 3, 10_000);
    assert!(check.violations.is_empty(), "{:#?}", check.violations);
    assert!(check.runs >= 50 && check.points > 50, "{check:?}");
}
