//! A set of no immediates, for the typing environment.
#[absinthe::analysis(domain = absinthe::lattice::Interval, engine = "typing_env", immediates = 0)]
pub struct Typing;

fn main() {}
