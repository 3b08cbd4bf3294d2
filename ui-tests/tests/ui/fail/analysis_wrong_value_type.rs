//! `widening_delay` is a number.
#[absinthe::analysis(domain = absinthe::lattice::Interval, widening_delay = "two")]
pub struct Intervals;

fn main() {}
