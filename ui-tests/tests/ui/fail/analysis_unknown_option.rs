//! An option `#[absinthe::analysis]` does not have: the error suggests the closest one.
#[absinthe::analysis(domain = absinthe::lattice::Interval, widening_dealy = 2)]
pub struct Intervals;

fn main() {}
