//! A state representation that does not exist.
#[absinthe::analysis(domain = absinthe::lattice::Interval, state = "spares")]
pub struct Intervals;

fn main() {}
