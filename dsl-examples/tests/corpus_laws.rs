//! The lattices of the compiler's corpus files that use the language's newer words — tuples
//! taken apart and matched on, struct literals, a `fn` that calls itself with a recursion limit,
//! a written-out normal form, the runtime's numeric domains named without a declaration — obey
//! the lattice laws, as `include_dom!` compiles them.

use absinthe::laws::Laws;

#[allow(unreachable_pub, dead_code)]
mod corpus {
    absinthe::include_dom!("../domc/test_data/codegen/ok/tuples.dom");
    absinthe::include_dom!("../domc/test_data/codegen/ok/normalize.dom");
    absinthe::include_dom!("../domc/test_data/codegen/ok/recursion.dom");
    absinthe::include_dom!("../domc/test_data/codegen/ok/tuple_match.dom");
    absinthe::include_dom!("../domc/test_data/codegen/ok/numeric_builtins.dom");
}

#[test]
fn the_tuples_file_obeys_the_laws() {
    <corpus::tuples::Bounds as Laws>::check_laws();
    <corpus::tuples::Value as Laws>::check_laws();
}

#[test]
fn the_recursion_file_obeys_the_laws() {
    <corpus::recursion::Tz as Laws>::check_laws();
    <corpus::recursion::Zeros as Laws>::check_laws();
}

#[test]
fn the_tuple_match_file_obeys_the_laws() {
    <corpus::tuple_match::Sign as Laws>::check_laws();
    <corpus::tuple_match::Signed as Laws>::check_laws();
}

/// A residue class written with any of its members passes the laws by its normal form: without
/// `normalize`, `{state: 0, r: 1}` and `{state: 0, r: 5}` are each below the other and unequal.
#[test]
fn the_normalize_file_obeys_the_laws() {
    <corpus::normalize::R4 as Laws>::check_laws();
    <corpus::normalize::Mod4 as Laws>::check_laws();
}

/// A reduced product of the runtime's `Congruence`, `Sign`, `Parity` and `Interval`, named
/// without declaring them and reduced both ways.
#[test]
fn the_numeric_builtins_file_obeys_the_laws() {
    <corpus::numeric_builtins::Numbers as Laws>::check_laws();
}
