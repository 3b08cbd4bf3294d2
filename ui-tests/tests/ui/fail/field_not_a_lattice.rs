//! A field that is not a lattice is one error, at the field's type, saying how to fix it.
use absinthe::lattice;
use absinthe::lattice::Interval;

#[lattice]
#[derive(Clone)]
struct Named {
    range: Interval,
    name: String,
}

fn main() {}
