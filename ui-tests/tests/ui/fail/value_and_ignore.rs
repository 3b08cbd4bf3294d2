//! A field is ignored or a plain value, not both.
use absinthe::lattice;
use absinthe::lattice::Interval;

#[lattice]
#[derive(Clone)]
struct Labelled {
    range: Interval,
    #[lattice(ignore, value)]
    label: u8,
}

fn main() {}
