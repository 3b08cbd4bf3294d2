//! An engine that does not exist.
#[absinthe::analysis(domain = absinthe::lattice::Interval, engine = "behaviour_graph")]
pub struct Intervals;

fn main() {}
