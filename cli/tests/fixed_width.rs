//! The fixed-width operations and `select` that the LLVM front end relies on, end to end on the
//! sample `ir/test_data/fixed_width.air`: the analyses bound, fold and prune with them.

use absinthe::engine::Limits;
use absinthe::lattice::{Flat, Interval};
use absinthe::value::Env;
use absinthe_cli::driver::analyze_function;
use absinthe_ir::{Loaded, load_file};

fn sample() -> absinthe_ir::Module {
    let path = format!(
        "{}/../ir/test_data/fixed_width.air",
        env!("CARGO_MANIFEST_DIR")
    );
    match load_file(path) {
        Ok(Loaded::Air(module)) => module,
        other => panic!("fixed_width.air: {other:?}"),
    }
}

#[test]
fn intervals_follow_truncation_select_and_unsigned_branches() {
    let module = sample();
    let f = module.function_named("clamp_add").unwrap();
    let result = analyze_function::<Interval>(f, true, &Limits::default());
    let at = |block: &str, name: &str| {
        let b = f.block_id(block).unwrap();
        let exit = &result.solution.exit[b.index()];
        exit.get(f.name_id(name).unwrap())
    };
    assert_eq!(at("entry", "w"), Interval::new(-128, 127));
    // `select big, w, 99` joins [-128, 127] and 99.
    assert_eq!(at("entry", "r"), Interval::new(-128, 127));
    // `r ule 99` taken keeps the non-negative part below 100.
    assert_eq!(at("done", "r"), Interval::new(0, 99));
    assert_eq!(at("done", "q"), Interval::new(0, 33));
    assert_eq!(at("done", "h"), Interval::new(0, 16));
    // The `never` block is reachable as far as intervals know (negative r is huge unsigned).
    let never = f.block_id("never").unwrap();
    assert!(result.solution.entry[never.index()].is_reachable());
}

#[test]
fn constants_fold_through_select() {
    let text = "fn f(p) ssa {\nentry:\n    c = 3 ult 5\n    x = select c, 7, p\n    y = select p, x, x\n    br y == 7, yes, no\nyes:\n    ret y\nno:\n    ret 0\n}\n";
    let module = absinthe_ir::parse_module("select.air", text).unwrap();
    let f = &module.functions[0];
    let result = analyze_function::<Flat<i64>>(f, true, &Limits::default());
    let entry_exit = &result.solution.exit[0];
    assert_eq!(entry_exit.get(f.name_id("x").unwrap()), Flat::Value(7));
    // Both arms are 7, so the unknown condition does not matter.
    assert_eq!(entry_exit.get(f.name_id("y").unwrap()), Flat::Value(7));
    let no = f.block_id("no").unwrap();
    assert_eq!(result.solution.entry[no.index()], Env::Unreachable);
}
