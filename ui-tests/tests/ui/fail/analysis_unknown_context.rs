//! A context policy that does not exist.
#[absinthe::analysis(domain = absinthe::lattice::Interval, context = "kcfa")]
pub struct Intervals;

fn main() {}
