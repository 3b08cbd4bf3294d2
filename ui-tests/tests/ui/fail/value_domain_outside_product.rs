//! `value_domain` marks a component of a product, not a field of a lattice.
use absinthe::lattice;
use absinthe::lattice::Interval;

#[lattice]
#[derive(Clone)]
struct Range {
    #[lattice(value_domain)]
    range: Interval,
}

fn main() {}
