//! A field's `#[lattice]` takes a list of options.
use absinthe::lattice;
use absinthe::lattice::Interval;

#[lattice]
#[derive(Clone)]
struct Labelled {
    range: Interval,
    #[lattice = "ignore"]
    label: u8,
}

fn main() {}
