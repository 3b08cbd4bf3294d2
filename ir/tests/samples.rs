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
    for name in ["count.air", "ssa_sum.air", "memory.air"] {
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
