//! A `#[lattice]` struct takes type parameters only, not const parameters.
use absinthe::lattice;
use absinthe::lattice::Interval;

#[lattice]
#[derive(Clone)]
struct Sized<const N: usize> {
    value: Interval,
}

fn main() {}
