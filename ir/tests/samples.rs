//! The sample programs in `test_data/` load through [`load_file`], and printing the core IR ones
//! is a fixpoint of parsing.

use absinthe_ir::{Loaded, load_file, parse_module, print_module};

fn sample(name: &str) -> String {
    format!("{}/test_data/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn toy_sample_loads_as_toy() {
    assert!(matches!(load_file(sample("prog0.toy")), Ok(Loaded::Toy(p)) if p.instrs.len() == 9));
}

#[test]
fn air_samples_load_and_print_canonically() {
    for name in [
        "count.air",
        "ssa_sum.air",
        "memory.air",
        "fixed_width.air",
        "calls.air",
        "closures.air",
    ] {
        let Ok(Loaded::Air(module)) = load_file(sample(name)) else {
            panic!("{name} does not load");
        };
        let printed = print_module(&module);
        let again = parse_module(name, &printed).unwrap();
        assert_eq!(again, module, "{name}");
        assert_eq!(print_module(&again), printed, "{name}");
    }
}

#[test]
fn missing_file_is_an_error_value() {
    let err = load_file(sample("no_such_file.air")).unwrap_err();
    assert_eq!((err.line, err.col), (1, 1));
    assert!(err.to_string().contains("cannot read the file"), "{err}");
}

#[test]
fn fixed_width_ops_run_with_their_concrete_semantics() {
    use absinthe_ir::interp::{Limits, NoObserver, Outcome, Value, run};
    let Ok(Loaded::Air(module)) = load_file(sample("fixed_width.air")) else {
        panic!("fixed_width.air does not load");
    };
    let f = module.func_id("clamp_add").unwrap();
    let result = |a: i64, b: i64| run(&module, f, &[a, b], &Limits::default(), &mut NoObserver);
    // 100 + 100 wraps to -56 in 8 bits, which is not below 100 unsigned: clamped to 99, and
    // 99 / 3 / 2 = 16.
    assert_eq!(
        result(100, 100).outcome,
        Outcome::Returned(Some(Value::Int(16)))
    );
    // 300 truncates to 44; 44 + 1 = 45; 45 / 3 = 15; 15 >> 1 = 7.
    assert_eq!(
        result(300, 1).outcome,
        Outcome::Returned(Some(Value::Int(7)))
    );
}
