//! The lattices of the compiler's corpus files that use the language's newer words — tuples
//! taken apart and matched on, struct literals, a `fn` that calls itself with a recursion limit
//! — obey the lattice laws, as `include_dom!` compiles them.

use absinthe::laws::Laws;

#[allow(unreachable_pub, dead_code)]
mod corpus {
    absinthe::include_dom!("../domc/test_data/codegen/ok/tuples.dom");
    absinthe::include_dom!("../domc/test_data/codegen/ok/recursion.dom");
    absinthe::include_dom!("../domc/test_data/codegen/ok/tuple_match.dom");
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
