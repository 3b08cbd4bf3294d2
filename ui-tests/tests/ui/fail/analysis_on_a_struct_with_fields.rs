//! An analysis is a unit struct: its settings are the attribute's options.
#[absinthe::analysis(domain = absinthe::lattice::Interval)]
pub struct Intervals {
    delay: u32,
}

fn main() {}
