//! The bodies compiled when a file is loaded run as the generated code does: an expression that
//! reads no name is computed once, and still fails (falling back to the rule's default) where
//! the generated code's checked arithmetic does; a `match` on an enumerated value finds its arm;
//! a reduction that changes a value does not change another value sharing its record.

use absinthe::lattice::Lattice;
use absinthe::value::ValueDomain;
use absinthe_dom_interp::{DynValue, Interp, Running};
use std::sync::Arc;

const FILE: &str = "lattice Const = flat(int);
product P reduce fixpoint(2) {
    a: Interval,
    b: Const,
}
transfer a_literal on literal (v: int) -> Interval =
    if v == 1 { Interval::new(int::MAX + 1, 0) } else { Interval::new(v - (1 + 2), v + 10 * 2) };
transfer b_literal on literal (v: int) -> Const =
    match Const::Value(v) {
        Const::Value(x) => if x == 1 || x == 2 { Const::Top } else { Const::Value(x) },
        _ => Const::Bottom,
    };
meet_ext a_from_b(a: Interval, b: Const) -> Interval =
    match b { Const::Value(x) => meet(a, Interval::new(x, x + (3 - 3))), _ => a };
";

/// The file loaded, written to a file of its own per test (`name`): tests run in parallel, and
/// one writing the file while another reads it gave the reader a prefix without `P`.
fn load(name: &str) -> Arc<Interp> {
    let dir = std::env::temp_dir().join(format!("absinthe-compiled-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("make a scratch directory");
    let path = dir.join(format!("{name}.dom"));
    std::fs::write(&path, FILE).expect("write the file");
    let checked = absinthe_domc::check_file(&path).unwrap_or_else(|f| panic!("{f}"));
    Arc::new(Interp::new(&checked).unwrap_or_else(|f| panic!("{f}")))
}

#[test]
fn folded_expressions_give_their_values_and_still_fail() {
    let running = Running::enter_domain(load("folded"), "P").expect("the file has `P`");
    // `int::MAX + 1` reads no name and overflows: the rule falls back to top, every time.
    // (The constants 1 and 2 are `Top`, so no reduction narrows the interval.)
    for _ in 0..2 {
        assert_eq!(DynValue::constant(1).to_string(), "⊤");
    }
    // `1 + 2` and `10 * 2` are computed once.
    assert_eq!(DynValue::constant(2).to_string(), "{a: [-1, 22], b: ⊤}");
    // The constant 7 narrows the interval to [7, 7] through the reduction.
    assert_eq!(DynValue::constant(7).to_string(), "{a: [7, 7], b: 7}");
    drop(running);
}

#[test]
fn a_reduction_leaves_the_values_sharing_its_operand_alone() {
    let running = Running::enter_domain(load("shared"), "P").expect("the file has `P`");
    let seven = DynValue::constant(7);
    let wide = DynValue::constant(2);
    let held = wide.clone();
    // The meet is reduced: its interval narrows to [7, 7] where `wide`'s stays [-1, 22].
    let met = wide.meet(&seven);
    assert_eq!(met.to_string(), "{a: [7, 7], b: 7}");
    assert_eq!(wide.to_string(), "{a: [-1, 22], b: ⊤}");
    assert_eq!(held.to_string(), "{a: [-1, 22], b: ⊤}");
    drop(running);
}
