//! A backward analysis keeps dense states: `state = "sparse"` is refused at the option.
#[absinthe::analysis(domain = absinthe::lattice::Interval, direction = "backward", state = "sparse")]
pub struct Sparse;

fn main() {}
