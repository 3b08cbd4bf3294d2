//! The interpreter's reductions run as the generated `reduce_with` does, round for round, even
//! where it skips a reduction whose inputs did not change; two files run in turn each give their
//! own constants.

use absinthe::value::ValueDomain;
use absinthe_dom_interp::{DynValue, Interp, Running};
use std::sync::Arc;

/// A product whose one reduction moves its target's low bound up by one each time it runs: a
/// reduction that reads its own target, so every round changes it again.
fn product(rounds: u32) -> String {
    format!(
        "lattice Const = flat(int);\n\
         product P reduce fixpoint({rounds}) {{\n    a: Interval,\n    b: Const,\n}}\n\
         meet_ext creep(a: Interval, b: Const) -> Interval =\n    \
         if is_bottom(a) {{ a }} else {{ Interval::new(Interval::lo(a) + 1, Interval::hi(a)) }};\n\
         transfer a_literal on literal (v: int) -> Interval = Interval::new(v, v + 10);\n\
         transfer b_literal on literal (v: int) -> Const = Const::Value(v);\n"
    )
}

fn load(name: &str, text: &str) -> Arc<Interp> {
    let dir = std::env::temp_dir().join(format!("absinthe-interp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("make a scratch directory");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write the file");
    let checked = absinthe_domc::check_file(&path).unwrap_or_else(|f| panic!("{f}"));
    Arc::new(Interp::new(&checked).unwrap_or_else(|f| panic!("{f}")))
}

#[test]
fn a_reduction_that_reads_its_own_target_runs_every_round() {
    for rounds in [1, 3, 8] {
        let interp = load(&format!("creep{rounds}.dom"), &product(rounds));
        let running = Running::enter_domain(interp, "P").expect("the file has `P`");
        // `a` starts at [5, 15] and each round moves its low bound up by one.
        let expected = format!("[{}, 15]", 5 + rounds);
        for call in 0..2 {
            let shown = DynValue::constant(5).to_string();
            assert!(
                shown.contains(&expected) && shown.contains("5"),
                "fixpoint({rounds}), call {call}: {shown}"
            );
        }
        drop(running);
    }
}

#[test]
fn two_files_run_in_turn_each_give_their_own_constants() {
    let first = load("first.dom", &product(1));
    let second = load("second.dom", &product(2));
    for _ in 0..2 {
        let running = Running::enter_domain(first.clone(), "P").expect("P");
        assert!(DynValue::constant(0).to_string().contains("[1, 10]"));
        drop(running);
        let running = Running::enter_domain(second.clone(), "P").expect("P");
        assert!(DynValue::constant(0).to_string().contains("[2, 10]"));
        drop(running);
    }
}
