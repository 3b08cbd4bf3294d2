//! An analysis is declared on a unit struct.
#[absinthe::analysis(domain = absinthe::lattice::Interval)]
pub enum Intervals {
    Dense,
}

fn main() {}
