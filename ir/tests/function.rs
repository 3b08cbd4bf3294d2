//! Tests of the in-memory IR: the `Cfg` and `Program` views of a function, lookups by name, and
//! canonical renumbering.

use absinthe::program::{BlockId, Cfg, FieldId, NameId, Operand, Program, Rhs, Stmt, Terminator};
use absinthe_ir::{Block, Function, Module, parse_module, print_module};

#[test]
fn cfg_and_program_views_of_a_parsed_function() {
    let text = "fn f(a) {\nentry:\n    x = a\n    switch x [0: one, 1: one], two\none:\n    goto two\ntwo:\n    ret x\n}\n";
    let m = parse_module("t.air", text).unwrap();
    let f = &m.functions[0];
    assert_eq!(f.block_count(), 3);
    assert_eq!(f.entry(), BlockId(0));
    let (entry, one, two) = (BlockId(0), BlockId(1), BlockId(2));
    assert_eq!(f.successors(entry), [one, one, two]);
    assert_eq!(f.predecessors(one), [entry, entry], "one entry per edge");
    assert_eq!(f.predecessors(two), [entry, one]);
    assert_eq!(f.block_id("two"), Some(two));
    assert_eq!(f.block_id("three"), None);
    assert_eq!(f.name_count(), 2);
    assert_eq!(f.name(NameId(1)), "x");
    assert_eq!(f.name_id("a"), Some(NameId(0)));
    assert_eq!(f.params(), [NameId(0)]);
    assert!(!f.is_ssa());
    assert!(f.phis(entry).is_empty());
    assert_eq!(f.stmts(entry).len(), 1);
    assert_eq!(
        f.terminator(two),
        &Terminator::Return(Some(Operand::Name(NameId(1))))
    );
    // Out-of-range blocks give empty views rather than panics.
    assert!(f.successors(BlockId(9)).is_empty());
    assert_eq!(f.terminator(BlockId(9)), &Terminator::Unreachable);
    assert_eq!(m.func_id("f").map(|id| id.0), Some(0));
    assert!(m.function_named("g").is_none());
}

#[test]
fn canonicalize_renumbers_names_and_fields_by_first_appearance() {
    // Names stored as [unused, y, x] and fields as [g, f]; the text mentions x, y, f, g.
    let x = NameId(2);
    let y = NameId(1);
    let block = Block {
        label: "bb0".to_string(),
        phis: Vec::new(),
        stmts: vec![
            Stmt::Assign {
                dest: x,
                rhs: Rhs::New,
            },
            Stmt::Store {
                object: Operand::Name(x),
                field: FieldId(1),
                value: Operand::Int(1),
            },
            Stmt::Assign {
                dest: y,
                rhs: Rhs::Load(Operand::Name(x), FieldId(0)),
            },
        ],
        term: Terminator::Return(Some(Operand::Name(y))),
    };
    let names = vec!["unused".to_string(), "y".to_string(), "x".to_string()];
    let func = Function::new("main".to_string(), false, Vec::new(), names, vec![block]);
    let mut module = Module {
        functions: vec![func],
        fields: vec!["g".to_string(), "f".to_string()],
        symbols: Vec::new(),
    };
    let text = print_module(&module);
    assert_ne!(parse_module("t.air", &text).unwrap(), module);
    module.canonicalize();
    assert_eq!(module.functions[0].names, ["x", "y"]);
    assert_eq!(module.fields, ["f", "g"]);
    assert_eq!(
        print_module(&module),
        text,
        "renumbering does not change the text"
    );
    assert_eq!(parse_module("t.air", &text).unwrap(), module);
}
