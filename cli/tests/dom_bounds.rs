//! `dsl-examples/dom/bounds.dom` declares the seed's interval from its bounds, with nothing built
//! in: it is sound against concrete runs on random core-IR functions, finds prog0's constants,
//! and refines a loop counter on its branches.

use absinthe::engine::Limits;
use absinthe::program::NameId;
use absinthe_cli::driver::{Strategy, ToyAnalysis, analyze_toy};
use absinthe_cli::verify::verify_random_shapes;
use absinthe_dsl_examples::dom::bounds::{Bounds, Value};

#[test]
fn declared_bounds_are_sound_against_concrete_runs() {
    let report = verify_random_shapes::<Value>(500, 4, true, &Limits::default())
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "bounds.dom: {} concrete values checked, no violation",
        report.values_checked
    );
}

#[test]
fn declared_bounds_find_prog0s_constants() {
    let program = absinthe_ir::toy::prog0();
    let result: ToyAnalysis<Value> =
        analyze_toy(&program, true, Strategy::Worklist, &Limits::default());
    let r = program.names.iter().position(|n| n == "r").expect("r");
    assert_eq!(
        result.points[8].get(NameId::new(r)).to_string(),
        "{constant: 5, range: {lo: 5, hi: 5}}"
    );
}

#[test]
fn a_loop_counter_is_bounded_by_its_guard() {
    let text = "fn count() {\nentry:\n    i = 0\n    goto head\nhead:\n    br i < 10, body, exit\n\
                body:\n    i = i + 1\n    goto head\nexit:\n    ret i\n}\n";
    let module = absinthe_ir::air::parse_module("count.air", text).expect("parses");
    let function = &module.functions[0];
    let analysis = absinthe::value::NonRelational::<Value>::new(true);
    let solution = absinthe::engine::solve(function, &analysis, &Limits::default());
    let exit = function.block_id("exit").expect("exit");
    let i = function.name_id("i").expect("i");
    let value = solution.entry[exit.index()].get(i);
    assert_eq!(value.range, Bounds { lo: 10, hi: 10 });
}
