//! An option `#[lattice]` does not have: the error suggests the closest one.
use absinthe::lattice;
use absinthe::lattice::Interval;

#[lattice(smahs)]
#[derive(Clone)]
struct Range {
    range: Interval,
}

fn main() {}
