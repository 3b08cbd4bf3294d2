//! `conditions` is `evaluated` or `ignored`.
#[absinthe::analysis(domain = absinthe::lattice::Interval, conditions = "off")]
pub struct Intervals;

fn main() {}
