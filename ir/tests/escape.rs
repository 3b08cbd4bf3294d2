//! The escape and alias analysis (`absinthe::heap::escape`) on seed 004's examples, written in
//! the core IR (`test_data/escape.air`): the exact forwarded loads, strong and weak stores,
//! escapes, summaries and sinkable allocations.

use absinthe::heap::escape::{
    Escape, FunctionFacts, MAX_HEAPS, Place, Slot, Summary, solve_module,
};
use absinthe::lattice::Interval;
use absinthe::program::Operand;
use absinthe_ir::Module;
use absinthe_ir::air::parse_module;
use expect_test::expect;

fn module() -> Module {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/test_data/escape.air");
    let text = std::fs::read_to_string(path).expect("the sample exists");
    parse_module("escape.air", &text).expect("the sample parses")
}

fn dump(module: &Module, facts: &[FunctionFacts<Interval>], names: &[&str]) -> String {
    let mut out = String::new();
    for (f, func) in module.functions.iter().enumerate() {
        if !names.contains(&func.name.as_str()) {
            continue;
        }
        let facts = &facts[f];
        out += &format!("fn {}\n", func.name);
        let place = |p: &Place| format!("{}:{}", func.blocks()[p.block.index()].label, p.index);
        let escape = |e: &Escape| {
            if e.is_none() {
                return "no escape".to_owned();
            }
            let mut parts = Vec::new();
            for (word, places) in [
                ("returned", &e.returned),
                ("thrown", &e.thrown),
                ("escapes", &e.global),
            ] {
                if !places.is_empty() {
                    let at: Vec<String> = places.iter().map(place).collect();
                    parts.push(format!("{word} at {}", at.join(" ")));
                }
            }
            parts.join("; ")
        };
        let operand = |o: &Operand| match o {
            Operand::Name(n) => func.names[n.index()].clone(),
            Operand::Int(c) => c.to_string(),
        };
        for (p, fact) in &facts.loads {
            out += &format!(
                "  load {} → {}\n",
                place(p),
                fact.forwarded
                    .as_ref()
                    .map_or("not forwarded".to_owned(), operand)
            );
        }
        for (p, strong) in &facts.stores {
            out += &format!(
                "  store {} {}\n",
                place(p),
                if *strong { "strong" } else { "weak" }
            );
        }
        for a in &facts.allocations {
            out += &format!(
                "  alloc {} {}: {}{}{}\n",
                place(&Place {
                    block: a.site.block,
                    index: a.site.index
                }),
                func.names[a.dest.index()],
                escape(&a.escape),
                if a.scalar { "; scalar" } else { "" },
                a.sink_to.map_or(String::new(), |b| format!(
                    "; sink to {}",
                    func.blocks()[b.index()].label
                ))
            );
        }
        out += &summary(module, func, &facts.summary);
    }
    out
}

fn summary(module: &Module, func: &absinthe_ir::Function, s: &Summary) -> String {
    let inputs: Vec<&String> = func
        .params
        .iter()
        .chain(&func.captures)
        .map(|n| &func.names[n.index()])
        .collect();
    let mut out = String::new();
    for (name, e) in inputs.iter().zip(&s.inputs) {
        let mut words = Vec::new();
        for (w, on) in [
            ("returned", e.returned),
            ("thrown", e.thrown),
            ("escapes", e.global),
        ] {
            if on {
                words.push(w.to_owned());
            }
        }
        for slot in &e.writes {
            words.push(match slot {
                Slot::Field(f) => format!("writes .{}", module.field_name(*f)),
                Slot::Pos(i) => format!("writes [{i}]"),
            });
        }
        if !words.is_empty() {
            out += &format!("  input {name}: {}\n", words.join(", "));
        }
    }
    let returns: Vec<&str> = s
        .returns_inputs
        .iter()
        .map(|&i| inputs[i as usize].as_str())
        .chain(s.returns_other.then_some("other"))
        .collect();
    if !returns.is_empty() {
        out += &format!("  returns {}\n", returns.join(" or "));
    }
    if s.writes_unknown {
        out += "  writes unknown memory\n";
    }
    if s.calls_unknown {
        out += "  calls unknown code\n";
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
        fn write_then_read
          load bb0:2 → s
          store bb0:1 strong
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
          input a: escapes
        fn reads
          load bb0:0 → not forwarded
          returns other
        fn writes
          store bb0:0 strong
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
          input idx: escapes
          input id: escapes
          input cache: writes .key, writes .value
          returns other
        fn create_value
          load bb0:0 → not forwarded
        fn returned
          load bb0:6 → a
          store bb0:1 strong
          store bb0:3 strong
          store bb0:5 strong
          alloc bb0:0 inner: returned at yes:0; thrown at no:0
          alloc bb0:2 outer: returned at yes:0; sink to yes
          alloc bb0:4 local: no escape; scalar
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
    let exit = facts[f].before[0].last().expect("bb0 is reached");
    for d in exit.disjuncts() {
        assert_eq!(
            d.values.get(x),
            Interval::new(-9, 9),
            "x = box.contents, stored s = a % 10"
        );
    }
}
