//! An option a field's `#[lattice(…)]` does not have: the error suggests the closest one.
use absinthe::lattice;
use absinthe::lattice::Interval;

#[lattice]
#[derive(Clone)]
struct Labelled {
    range: Interval,
    #[lattice(ingore)]
    label: u8,
}

fn main() {}
