//! A `#[lattice]` struct takes type parameters only: a lifetime has no use in a lattice's value.
use absinthe::lattice;
use absinthe::lattice::Flat;

#[lattice]
#[derive(Clone)]
struct Borrowed<'a> {
    value: Flat<&'a str>,
}

fn main() {}
