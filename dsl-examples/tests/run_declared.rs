//! The library calls that run a product declared with `#[absinthe::domain]` over a program, as
//! the book's chapter "Declaring domains with attributes" shows them: a toy program lowered to the
//! core IR, solved by `NonRelational` with a state representation and limits, or by a unit
//! struct declared with `#[absinthe::analysis]`, which carries those settings.

use absinthe::engine::Limits;
use absinthe::lattice::Top;
use absinthe::value::{Concrete, DeclaredAnalysis, NonRelational, StateRepr};
use absinthe_dsl_examples::signs::SignsDense;
use absinthe_dsl_examples::signs::value::Signals;

// ANCHOR: program
/// Counts `x` up by two from zero while it stays below ten.
const COUNTING: &str = "\
x = 0
x = x + 2
x < 10 && @goto 1
";
// ANCHOR_END: program

#[test]
fn a_declared_product_runs_on_a_toy_program() {
    // ANCHOR: run
    // Parse the toy program and lower it to a core-IR function (a `Program`); `pcs` maps each
    // toy instruction to the block and position it became.
    let toy = absinthe_ir::parse_toy("counting.toy", COUNTING).expect("the program parses");
    let (function, pcs) = toy.lower();

    // Run the product to a fixpoint: `true` evaluates branch conditions, the states are kept
    // densely, and the limits bound widening and the number of steps.
    let analysis = NonRelational::<Signals>::new(true);
    let solution = analysis.solve(&function, StateRepr::Dense, &Limits::default());
    assert!(solution.stop().is_stable(), "the engine reached a fixpoint");

    // Read the value of `x` where the program ends (the instruction after the last).
    let x = toy.name_id("x").expect("`x` is a name of the program");
    let (exit, _) = pcs.loc(3).expect("the end of the program has a block");
    let at_exit: Signals = solution.value_at_entry(exit, x);
    // ANCHOR_END: run
    assert!(at_exit.contains(10), "x leaves the loop at 10: {at_exit}");
    assert!(!at_exit.contains(9), "an odd x is impossible: {at_exit}");
    assert!(
        !at_exit.contains(0),
        "x is at least 10 after the loop: {at_exit}"
    );
    assert!(!at_exit.is_top());

    // ANCHOR: declared
    // The same analysis declared with `#[absinthe::analysis(domain = value::Signals, …)]`: its
    // settings (conditions, state representation, limits) are part of the declaration.
    let declared = SignsDense::solve(&function);
    assert_eq!(declared.value_at_entry(exit, x), at_exit);
    // ANCHOR_END: declared
}
