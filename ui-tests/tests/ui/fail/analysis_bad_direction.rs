//! A direction that is neither `forward` nor `backward`.
#[absinthe::analysis(domain = absinthe::lattice::Interval, direction = "sideways")]
pub struct Sideways;

fn main() {}
