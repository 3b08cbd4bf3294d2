//! An engine with a domain of its own, which no declaration can name.
#[absinthe::analysis(domain = absinthe::lattice::Interval, engine = "alias_heap")]
pub struct Objects;

fn main() {}
