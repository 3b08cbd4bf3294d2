//! End to end: products declared with `#[absinthe::domain]` run through the engine on real
//! programs. The reductions of the sign × parity × interval × constant product make the result
//! strictly more precise than the direct product of the same components; the seed's Const ×
//! Interval product reproduces the article's `prog0` result; the finite disjunction keeps two
//! ranges apart where one interval cannot.

use absinthe::engine::Limits;
use absinthe::lattice::{Interval, Lattice};
use absinthe::program::NameId;
use absinthe::value::{Concrete, ValueDomain};
use absinthe_cli::driver::{
    FunctionAnalysis, Strategy, ToyAnalysis, analyze_function, analyze_toy,
};
use absinthe_cli::render::env_text;
use absinthe_dsl_examples::disjunctive::value::Disjunctive;
use absinthe_dsl_examples::seed::value::SeedValue;
use absinthe_dsl_examples::signs::value::{DirectSignals, Signals};
use absinthe_ir::function::{Function, Module};
use expect_test::expect;

fn module(text: &str) -> Module {
    absinthe_ir::air::parse_module("test.air", text).expect("parses")
}

fn analyze<D: ValueDomain>(function: &Function) -> FunctionAnalysis<D> {
    let result = analyze_function::<D>(function, true, &Limits::default());
    assert!(result.solution.stop.is_stable());
    result
}

/// The state before the terminator of block `block`.
fn at_end<D>(result: &FunctionAnalysis<D>, block: usize) -> &absinthe::value::Env<D> {
    result.points[block].last().expect("a terminator state")
}

#[test]
fn reductions_beat_the_direct_product() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../dsl-examples/test_data/reduction.air"
    ))
    .expect("read");
    let module = module(&text);
    let main = &module.functions[0];
    let reduced = analyze::<Signals>(main);
    let direct = analyze::<DirectSignals>(main);

    // Everywhere, the reduced product is at least as precise as the direct one...
    for (r, d) in reduced
        .points
        .iter()
        .flatten()
        .zip(direct.points.iter().flatten())
    {
        for n in 0..main.names.len() {
            let (r, d) = (r.get(NameId::new(n)), d.get(NameId::new(n)));
            assert!(r.leq(&d.0), "reduced {r} is not below direct {d}");
        }
    }
    // ...and before `ret z` strictly so: z is the constant 3, where the direct product only
    // knows an odd number in [2, 3].
    let pos = 3;
    expect![[r#"x = {sign: NonNeg, parity: ⊤, interval: [0, 1], constant: ⊤}, y = {sign: Pos, parity: Even, interval: [2, 2], constant: 2}, z = {sign: Pos, parity: Odd, interval: [3, 3], constant: 3}"#]]
    .assert_eq(&env_text(at_end(&reduced, pos), &main.names));
    expect![[r#"x = {sign: ⊤, parity: ⊤, interval: [0, 1], constant: ⊤}, y = {sign: ⊤, parity: Even, interval: [1, 2], constant: ⊤}, z = {sign: ⊤, parity: Odd, interval: [2, 3], constant: ⊤}"#]]
    .assert_eq(&env_text(at_end(&direct, pos), &main.names));
    let z = main.names.iter().position(|n| n == "z").expect("z");
    assert_eq!(
        at_end(&reduced, pos).get(NameId::new(z)).as_constant(),
        Some(3)
    );
    assert_eq!(at_end(&direct, pos).get(NameId::new(z)).as_constant(), None);
}

#[test]
fn the_seed_product_finds_prog0s_constants() {
    let program = absinthe_ir::toy::prog0();
    let result: ToyAnalysis<SeedValue> =
        analyze_toy(&program, true, Strategy::Worklist, &Limits::default());
    assert!(result.stop.is_stable());
    expect!["x = {constant: ⊤, interval: [1, 10]}, y = {constant: 2, interval: [2, 2]}, z = {constant: 3, interval: [3, 3]}, r = {constant: 5, interval: [5, 5]}"]
    .assert_eq(&env_text(&result.points[8], &program.names));
}

#[test]
fn the_finite_disjunction_keeps_ranges_apart() {
    let module = module(
        "fn main(p) {
bb0:
    br p < 0, neg, nonneg
neg:
    x = 1
    goto join
nonneg:
    x = 10
    goto join
join:
    y = x + 1
    c = y == 5
    ret c
}",
    );
    let main = &module.functions[0];
    let ranges = analyze::<Disjunctive>(main);
    let intervals = analyze::<Interval>(main);
    let c = NameId::new(main.names.iter().position(|n| n == "c").expect("c"));
    let join = 3;
    expect!["p = {ranges: [-∞, -1] ∨ [0, +∞], constant: ⊤}, x = {ranges: [1, 1] ∨ [10, 10], constant: ⊤}, y = {ranges: [2, 2] ∨ [11, 11], constant: ⊤}, c = {ranges: [0, 0], constant: 0}"]
    .assert_eq(&env_text(at_end(&ranges, join), &main.names));
    assert_eq!(at_end(&ranges, join).get(c).as_constant(), Some(0));
    assert_eq!(at_end(&intervals, join).get(c), Interval::new(0, 1));
}
