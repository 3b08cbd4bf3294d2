//! A field that is not a lattice is reported at the field's type.
use absinthe::lattice;
use absinthe::lattice::Interval;

#[lattice]
#[derive(Clone)]
struct Named {
    range: Interval,
    name: String,
}

fn main() {}
