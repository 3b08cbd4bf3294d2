//! More heaps kept apart than the engine allows, for the escape analysis.
#[absinthe::analysis(domain = absinthe::lattice::Interval, engine = "escape", heaps = 100)]
pub struct Escape;

fn main() {}
