//! The escape and alias analysis (`absinthe_heap::escape`) on seed 004's examples, written in
//! the core IR (`test_data/escape.air`): the exact forwarded loads, strong and weak stores,
//! escapes, summaries and sinkable allocations.

use absinthe::lattice::Interval;
use absinthe::program::BlockId;
use absinthe_heap::escape::{FunctionFacts, MAX_HEAPS, solve_module};
use absinthe_ir::Module;
use absinthe_ir::air::parse_module;
use absinthe_ir::escape_check::{EscapeCheck, check_run};
use absinthe_ir::escape_text::facts_text;
use absinthe_ir::interp::Limits;
use expect_test::expect;

fn module() -> Module {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/test_data/escape.air");
    let text = std::fs::read_to_string(path).expect("the sample exists");
    parse_module("escape.air", &text).expect("the sample parses")
}

fn dump(module: &Module, facts: &[FunctionFacts<Interval>], names: &[&str]) -> String {
    let mut out = String::new();
    for (func, facts) in module.functions.iter().zip(facts) {
        if names.contains(&func.name.as_str()) {
            out += &format!("fn {}\n{}", func.name, facts_text(module, func, facts));
        }
    }
    out
}

fn facts_of(heaps: usize, names: &[&str]) -> String {
    let module = module();
    let facts = solve_module::<Interval, _>(&module, heaps);
    dump(&module, &facts, names)
}

#[test]
fn the_ref_example_keeps_paths_apart_and_forwards_the_load_of_w() {
    // Heaps kept apart by path: only `r` reaches the store, and only the path that made `w`
    // reaches the load, which reads `x`.
    expect![[r#"
        fn ref_example
          load load:0 → x
          store left:1 strong
          store right:1 strong
          store store:0 strong
          alloc left:0 w: no escape; scalar
          alloc right:0 r: no escape; scalar
          may alias: {c, x, y, v} {w, z, r}
          input x: returned
          returns x
    "#]]
    .assert_eq(&facts_of(MAX_HEAPS, &["ref_example"]));
    // One heap per point (the seed's per-block state): `z` may be either object at the store,
    // which only adds to the field, and the load may read either value.
    expect![[r#"
        fn ref_example
          load load:0 → not forwarded
          store left:1 strong
          store right:1 strong
          store store:0 weak
          alloc left:0 w: no escape
          alloc right:0 r: no escape
          may alias: {c, x, y, v} {w, z, r}
          input x: returned
          returns x
    "#]]
    .assert_eq(&facts_of(1, &["ref_example"]));
}

#[test]
fn captured_boxes_are_forwarded_across_calls_that_do_not_write_them() {
    expect![[r#"
        fn capture
          load bb0:3 → s
          load bb0:8 → y
          store bb0:2 strong
          store bb0:5 strong
          alloc bb0:0 box: no escape
          alloc bb0:6 k: no escape
        fn identity
          input v: returned
          returns v
        fn add_contents
          load bb0:0 → not forwarded
          may alias: {a, box, v}
        fn write_then_read
          load bb0:2 → s
          store bb0:1 strong
          may alias: {a, box}
          input box: writes .contents
    "#]]
    .assert_eq(&facts_of(
        MAX_HEAPS,
        &["capture", "identity", "add_contents", "write_then_read"],
    ));
}

#[test]
fn summaries_say_which_fields_a_callee_writes() {
    expect![[r#"
        fn interproc
          load bb0:3 → a
          load bb0:5 → not forwarded
          store bb0:1 strong
          alloc bb0:0 box: no escape
          may alias: {a, box, r, x, y}
          input a: escapes
        fn reads
          load bb0:0 → not forwarded
          may alias: {b, v}
          returns other
        fn writes
          store bb0:0 strong
          may alias: {b, v}
          input b: writes .contents
          input v: escapes
    "#]]
    .assert_eq(&facts_of(MAX_HEAPS, &["interproc", "reads", "writes"]));
}

#[test]
fn the_key_is_sunk_to_where_it_escapes() {
    expect![[r#"
        fn get_value
          load bb0:3 → not forwarded
          load bb0:4 → idx
          load bb0:5 → not forwarded
          load same_idx:0 → id
          load same_idx:1 → not forwarded
          load hit:0 → not forwarded
          store bb0:1 strong
          store bb0:2 strong
          store miss:0 strong
          store miss:2 strong
          alloc bb0:0 key: escapes at miss:0; sink to miss
          may alias: {idx, id, cache, key, cached, i1, i2, d1, d2, v}
          input idx: escapes
          input id: escapes
          input cache: writes .key, writes .value
          returns other
        fn create_value
          load bb0:0 → not forwarded
          may alias: {k, i}
        fn returned
          load bb0:6 → a
          store bb0:1 strong
          store bb0:3 strong
          store bb0:5 strong
          alloc bb0:0 inner: returned at yes:0; thrown at no:0
          alloc bb0:2 outer: returned at yes:0; sink to yes
          alloc bb0:4 local: no escape; scalar
          may alias: {a, l}
          input a: returned, thrown
          returns other
    "#]]
    .assert_eq(&facts_of(
        MAX_HEAPS,
        &["get_value", "create_value", "returned"],
    ));
}

#[test]
fn forwarded_loads_take_the_stored_value_s_interval() {
    let module = module();
    let facts = solve_module::<Interval, _>(&module, MAX_HEAPS);
    let f = module.func_id("capture").expect("capture exists").index();
    let func = &module.functions[f];
    let x = func.name_id("x").expect("x exists");
    let states = facts[f].states_before(func, BlockId(0));
    let exit = states.last().expect("bb0 is reached");
    for d in exit.disjuncts() {
        assert_eq!(
            d.values.get(x),
            Interval::new(-9, 9),
            "x = box.contents, stored s = a % 10"
        );
    }
}

#[test]
fn a_store_through_an_unknown_object_may_write_an_escaped_one() {
    expect![[r#"
        fn comes_back
          load bb0:4 → 2
          load bb0:6 → not forwarded
          store bb0:1 strong
          store bb0:3 strong
          store bb0:5 weak
          alloc bb0:0 x: escapes at bb0:2
          may alias: {n, k, x, u}
          input k: escapes
          writes unknown memory
          calls unknown code
    "#]]
    .assert_eq(&facts_of(MAX_HEAPS, &["comes_back"]));
    // And runs agree: `z` reads the 5 stored through `u`.
    let module = module();
    let facts = solve_module::<Interval, _>(&module, MAX_HEAPS);
    let main = module.func_id("hands_back").expect("hands_back exists");
    let mut check = EscapeCheck::default();
    for n in [0, 1, 7] {
        check_run(&module, &facts, main, &[n], &Limits::default(), &mut check);
    }
    assert!(check.runs == 3 && check.violations.is_empty(), "{check:#?}");
}
