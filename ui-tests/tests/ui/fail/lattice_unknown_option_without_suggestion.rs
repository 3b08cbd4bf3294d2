//! An option `#[lattice]` does not have, close to none it has: the error lists them.
use absinthe::lattice;
use absinthe::lattice::Interval;

#[lattice(pointwise)]
#[derive(Clone)]
struct Range {
    range: Interval,
}

fn main() {}
