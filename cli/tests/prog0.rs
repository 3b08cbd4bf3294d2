//! Conformance with the graph-free data-flow article: on `prog0`, constant propagation gives,
//! before each instruction, exactly the states of the article's corrected algorithm (in
//! absinthe's orientation, where ⊥ is "no information" and ⊤ "not a constant"), with both the
//! graph-free strategy and the worklist solver.

use absinthe::engine::Limits;
use absinthe::lattice::Flat;
use absinthe_cli::driver::{Strategy, ToyAnalysis, analyze_toy};
use absinthe_cli::render::env_text;
use absinthe_ir::toy::prog0;

/// The article's fixed-point states before I₀ … I₈, then the exit state.
const EXPECTED: [&str; 10] = [
    "x = ⊥, y = ⊥, z = ⊥, r = ⊥",
    "x = 1, y = ⊥, z = ⊥, r = ⊥",
    "x = 1, y = 2, z = ⊥, r = ⊥",
    "x = 1, y = 2, z = 3, r = ⊥",
    "x = ⊤, y = 2, z = 3, r = 5",
    "x = ⊤, y = 2, z = 3, r = 5",
    "x = ⊤, y = 2, z = 3, r = 5",
    "x = ⊤, y = 2, z = 3, r = 5",
    "x = ⊤, y = 2, z = 3, r = 5",
    // Leaving the loop: the last test failed, nothing else changed.
    "x = ⊤, y = 2, z = 3, r = 5",
];

fn states(strategy: Strategy) -> Vec<String> {
    let program = prog0();
    let result: ToyAnalysis<Flat<i64>> = analyze_toy(&program, false, strategy, &Limits::default());
    assert!(result.stop.is_stable());
    result
        .points
        .iter()
        .chain(std::iter::once(&result.exit))
        .map(|env| env_text(env, &program.names))
        .collect()
}

#[test]
fn graph_free_matches_the_article() {
    assert_eq!(states(Strategy::GraphFree), EXPECTED);
}

#[test]
fn worklist_matches_the_article() {
    assert_eq!(states(Strategy::Worklist), EXPECTED);
}

#[test]
fn sccp_and_intervals_on_prog0() {
    let program = prog0();
    let sccp: ToyAnalysis<Flat<i64>> =
        analyze_toy(&program, true, Strategy::Worklist, &Limits::default());
    assert_eq!(
        env_text(&sccp.points[8], &program.names),
        "x = ⊤, y = 2, z = 3, r = 5"
    );
    let intervals: ToyAnalysis<absinthe::lattice::Interval> =
        analyze_toy(&program, true, Strategy::Worklist, &Limits::default());
    assert_eq!(
        env_text(&intervals.points[8], &program.names),
        "x = [1, 10], y = [2, 2], z = [3, 3], r = [5, 5]"
    );
    assert_eq!(
        env_text(&intervals.exit, &program.names),
        "x = [10, 10], y = [2, 2], z = [3, 3], r = [5, 5]"
    );
}
