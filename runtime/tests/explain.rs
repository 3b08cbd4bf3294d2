//! The built-in value domains name themselves for explanations (`ValueDomain::rules_*`): one
//! line naming the built-in function and the Rust place next to its implementation.

use absinthe::lattice::{Flat, Interval};
use absinthe::program::Op;
use absinthe::value::ValueDomain;
use std::path::Path;

/// Checks that `lines` is one line starting with `text` and naming a place (`file!()`,
/// relative to the workspace, and `line!()`) within a few lines above `fn function(`.
fn names_place(lines: &[String], text: &str, function: &str) {
    let [line] = lines else {
        panic!("one line: {lines:#?}");
    };
    assert!(line.starts_with(text), "{line} starts with {text}");
    let (_, place) = line.rsplit_once(" at ").expect("a place");
    let (file, number) = place.rsplit_once(':').expect("file:line");
    let number: usize = number.parse().expect("a line number");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(file);
    let source = std::fs::read_to_string(&path).expect("the named file exists");
    let near: Vec<&str> = source.lines().skip(number - 1).take(8).collect();
    assert!(
        near.iter().any(|l| l.contains(&format!("fn {function}("))),
        "{line}: `fn {function}` follows the named line: {near:#?}"
    );
}

#[test]
fn interval_names_its_built_in_functions() {
    names_place(
        &Interval::rules_binary(Op::Add),
        "the built-in `+` of `Interval` at ",
        "binary",
    );
    names_place(
        &Interval::rules_binary(Op::UDiv),
        "the built-in `udiv` of `Interval` at ",
        "binary",
    );
    names_place(
        &Interval::rules_constant(),
        "the built-in literal rule of `Interval` at ",
        "constant",
    );
    names_place(
        &Interval::rules_assume(Op::Lt),
        "the built-in branch refinement on `<` of `Interval` at ",
        "assume",
    );
}

#[test]
fn constants_name_their_built_in_functions() {
    names_place(
        &<Flat<i64>>::rules_binary(Op::Mul),
        "the built-in `*` of `Flat<i64>` at ",
        "binary",
    );
    names_place(
        &<Flat<i64>>::rules_constant(),
        "the built-in literal rule of `Flat<i64>` at ",
        "constant",
    );
    names_place(
        &<Flat<i64>>::rules_assume(Op::Eq),
        "the built-in branch refinement on `==` of `Flat<i64>` at ",
        "assume",
    );
}
