//! The alias heap checked against the lattice laws.

use absinthe::lattice::Lattice;
use absinthe::laws::check_lattice;
use absinthe::laws::strategies;
use absinthe::program::{BlockId, NameId};
use absinthe_heap::{AliasHeap, Site};
use proptest::collection::vec;
use proptest::prelude::*;

const CASES: u32 = 256;

/// An alias heap: bottom, or up to four objects of two sites over three variables with
/// generations from [`generation`].
fn alias_heap() -> impl Strategy<Value = AliasHeap> + Clone {
    let object =
        (0u32..2, vec(0u32..3, 1..3), strategies::generation()).prop_map(|(site, vars, g)| {
            let site = Site {
                block: BlockId(site),
                index: 0,
            };
            ((site, vars.into_iter().map(NameId).collect()), g)
        });
    prop_oneof![
        1 => Just(<AliasHeap as Lattice>::bottom()),
        6 => vec(object, 0..5).prop_map(AliasHeap::of),
    ]
}

#[test]
fn alias_heap_laws() {
    check_lattice(alias_heap(), CASES);
}
